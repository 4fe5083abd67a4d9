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
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

MARK = b"hhd-scan:"
_MARKED = re.compile(rb"hhd-scan:(\d+);")
_XREF_ENTRY = 20  # "0000012345 00000 n \n"
COPY_CHUNK = 1 << 20


@dataclass
class StandIns:
    """One stand-in image per scan file (a file drawn twice is one image in the PDF, as before)."""

    paths: list[Path] = field(default_factory=list)
    _readers: dict[str, Any] = field(default_factory=dict)

    def reader(self, path: str) -> Any:
        """What the canvas draws in place of the scan at `path`."""
        found = self._readers.get(path)
        if found is None:
            from reportlab.lib.utils import ImageReader

            found = self._readers[path] = ImageReader(io.BytesIO(_stand_in(len(self.paths))))
            self.paths.append(Path(path))
        return found


def _stand_in(number: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    # ReportLab tells images apart by their pixels: each stand-in is one pixel wider than the one before
    Image.new("L", (number + 1, 1), 255).save(out, "JPEG", comment=MARK + str(number).encode() + b";")
    return out.getvalue()


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


def _scan_object(number: int, path: Path, out: _Counter) -> None:
    """An image XObject around a baseline JPEG's bytes (the PDF decodes it: /DCTDecode)."""
    from PIL import Image

    with Image.open(path) as image:  # the header only
        width, height, mode = image.width, image.height, image.mode
    space = {"L": b"/DeviceGray", "RGB": b"/DeviceRGB", "CMYK": b"/DeviceCMYK /Decode [1 0 1 0 1 0 1 0]"}.get(mode)
    if space is None:
        raise SpliceError(f"{path}: a {mode} JPEG")
    length = path.stat().st_size
    out.write(b"%d 0 obj\n<<\n/BitsPerComponent 8 /ColorSpace %s /Filter [ /DCTDecode ] /Height %d /Length %d "
              b"/Subtype /Image /Type /XObject /Width %d\n>>\nstream\n" % (number, space, height, length, width))
    with path.open("rb") as scan:
        copied = out.copy_from(scan)
    if copied != length:  # the file changed under us: the PDF would be damaged
        raise SpliceError(f"{path} changed while it was copied")
    out.write(b"\nendstream\nendobj\n")


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

