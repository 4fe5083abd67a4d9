"""Proxy sheets of big scans in bounded memory: ReportLab lays the pages out around tiny stand-in images,
and the finished PDF is written with each stand-in replaced by its scan, copied from its file in chunks.

ReportLab keeps every image of a document in memory until it saves, and saves by building the whole file
in memory (720 scans at 600 dpi: 1.4 GB). Here the document ReportLab builds holds a tiny JPEG per scan,
each marked with the scan's number in a JPEG comment; `splice` copies that document object by object,
writes each marked image object afresh around its scan's bytes, and writes a new cross-reference table.
Peak memory is then the layout (a few MB) plus one copy buffer, however many scans there are.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from hhdcli.errors import CacheError
from hhdcli.files import os_reason
from hhdcli.i18n import _

MARK = b"hhd-scan:"
_MARKED = re.compile(rb"hhd-scan:(\d+);")
_XREF_ENTRY = 20  # "0000012345 00000 n \n"
COPY_CHUNK = 1 << 20


@dataclass
class StandIns:
    """One stand-in image per scan file (a file drawn twice is one image in the PDF, as before)."""

    paths: list[Path] = field(default_factory=list)
    _numbers: dict[str, int] = field(default_factory=dict)

    def reader(self, path: str) -> StandIn:
        """What the canvas draws in place of the scan at `path`: a stand-in held in memory (no file)."""
        number = self._numbers.get(path)
        if number is None:
            number = self._numbers[path] = len(self.paths)
            self.paths.append(Path(path))
        return StandIn(number)


class StandIn:
    """Stand-in `number` for ReportLab's drawImage, made in memory: drawImage names an image after str() of
    what it is given, and reads an object with `jpeg_fh()` as a JPEG's bytes without decoding them
    (reportlab/pdfbase/pdfdoc.py, PDFImageXObject.loadImageFromSRC). The bytes are the smallest JPEG
    header ReportLab reads (a comment with the number, a 1x1 grey frame): never shown, since `splice`
    replaces the whole object."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number

    def __str__(self) -> str:
        return f"hhd-scan:{self.number};"

    def jpeg_fh(self) -> io.BytesIO:
        comment = MARK + b"%d;" % self.number
        return io.BytesIO(b"\xff\xd8\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
                          + b"\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00\xff\xd9")


class SpliceError(ValueError):
    """The laid-out document is not the shape ReportLab writes (a bug, not the user's input)."""


def splice(layout: bytes, scans: list[Path], out: BinaryIO) -> int:
    """Write `layout` to `out` with each stand-in image object holding its scan; the bytes written."""
    offsets, xref_at, trailer = _objects(layout)
    order = sorted(offsets.items(), key=lambda item: item[1])
    ends = [start for _, start in order[1:]] + [xref_at]
    written = _Counter(out)
    written.write(layout[:order[0][1]] if order else layout[:xref_at])
    moved: dict[int, int] = {}
    for (number, start), end in zip(order, ends, strict=True):
        moved[number] = written.count
        body = layout[start:end]
        marked = _MARKED.search(body) if b"/Subtype /Image" in body[:600] else None
        if marked is None:
            written.write(body)
        else:
            _scan_object(number, scans[int(marked.group(1))], written)
    xref = written.count
    size = max(offsets, default=0) + 1
    written.write(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    written.write(b"".join(b"%010d 00000 n \n" % moved[n] if n in moved else b"0000000000 65535 f \n"
                           for n in range(1, size)))
    written.write(trailer + b"startxref\n%d\n%%%%EOF\n" % xref)
    return written.count


def _objects(layout: bytes) -> tuple[dict[int, int], int, bytes]:
    """Each object's offset, the xref table's, and the trailer, read from the document's own xref table."""
    found = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", layout)
    if not found:
        raise SpliceError("no startxref")
    xref_at = int(found.group(1))
    head = re.compile(rb"xref\n0 (\d+)\n").match(layout, xref_at)
    if not head:
        raise SpliceError("no xref table where startxref points")
    count, table = int(head.group(1)), head.end()
    offsets = {}
    for number in range(1, count):
        entry = layout[table + number * _XREF_ENTRY: table + (number + 1) * _XREF_ENTRY]
        if entry[17:18] == b"n":
            offsets[number] = int(entry[:10])
    trailer_at = table + count * _XREF_ENTRY
    return offsets, xref_at, layout[trailer_at:found.start()]


def _open_scan(path: Path) -> BinaryIO:
    """A scan of the image cache, which may have been emptied since the pages were laid out (`hhd cache clean`
    run meanwhile): said as that, not as the output's failure, which the caller's write would report."""
    try:
        return path.open("rb")
    except OSError as exc:
        raise CacheError(_("the image {path} left the image cache while the PDF was written ({reason}; hhd cache "
                           "clean, or another run over its size cap)").format(path=path, reason=os_reason(exc)),
                         _("run the command again: missing images are downloaded again")) from exc


def _scan_object(number: int, path: Path, out: _Counter) -> None:
    """An image XObject around a baseline JPEG's bytes (the PDF decodes it: /DCTDecode)."""
    with _open_scan(path) as scan:
        width, height, components, _ = _frame(scan, path)
        space = {1: b"/DeviceGray", 3: b"/DeviceRGB", 4: b"/DeviceCMYK /Decode [1 0 1 0 1 0 1 0]"}.get(components)
        if space is None:
            raise SpliceError(f"{path}: a JPEG of {components} components")
        length = os.fstat(scan.fileno()).st_size
        out.write(b"%d 0 obj\n<<\n/BitsPerComponent 8 /ColorSpace %s /Filter [ /DCTDecode ] /Height %d /Length %d "
                  b"/Subtype /Image /Type /XObject /Width %d\n>>\nstream\n" % (number, space, height, length, width))
        scan.seek(0)
        copied = out.copy_from(scan)
    if copied != length:  # the file changed under us: the PDF would be damaged
        raise SpliceError(f"{path} changed while it was copied")
    out.write(b"\nendstream\nendobj\n")


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}  # frame headers


EMBEDDABLE = {0xC0, 0xC1, 0xC2}  # Huffman frames, sequential and progressive: what a PDF's DCTDecode reads
#                                 (PDF 1.3 on, as img2pdf embeds them); arithmetic-coded and lossless ones are not


def jpeg_size(path: Path) -> tuple[int, int, int]:
    """A JPEG's width, height and color components, from its frame header (the markers before it only)."""
    with path.open("rb") as handle:
        return _frame(handle, path)[:3]


def jpeg_frame(data: bytes) -> tuple[int, int, int, int] | None:
    """Width, height, color components and frame marker (0xC0 baseline, 0xC2 progressive, …) of a JPEG's
    bytes, read from its frame header without decoding; None when they are not a JPEG."""
    try:
        return _frame(io.BytesIO(data), Path("image"))
    except SpliceError:
        return None


def _frame(handle: BinaryIO, path: Path) -> tuple[int, int, int, int]:
    if handle.read(2) != b"\xff\xd8":
        raise SpliceError(f"{path} is not a JPEG")
    while True:
        marker = handle.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise SpliceError(f"{path}: no JPEG frame header")
        if marker[1] in (0xD8, 0x01) or 0xD0 <= marker[1] <= 0xD7:
            continue  # markers without a length
        length = int.from_bytes(handle.read(2), "big")
        if length < 2:  # a segment's length counts its own two bytes: less would loop here for ever
            raise SpliceError(f"{path}: a damaged JPEG segment")
        if marker[1] in _SOF:
            header = handle.read(6)
            if len(header) < 6:
                raise SpliceError(f"{path}: a cut JPEG frame header")
            return int.from_bytes(header[3:5], "big"), int.from_bytes(header[1:3], "big"), header[5], marker[1]
        handle.seek(length - 2, 1)


class _Counter:
    """A binary stream that counts what is written (offsets for the xref table)."""

    def __init__(self, out: BinaryIO) -> None:
        self.out, self.count = out, 0

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.count += len(data)

    def copy_from(self, source: BinaryIO) -> int:
        before = self.count
        while chunk := source.read(COPY_CHUNK):
            self.write(chunk)
        return self.count - before

