"""A card's face as the table's pages show it: its print image when the image cache holds it (hhd proxies
fetched it), else the face hhd draws from its text, with its words in the asker's language. The page never asks
another site for an image.

Drawing a face costs tens of milliseconds and some 30 KB, so the faces shown are kept, once for the whole server
(`Faces`: each table kept every face it drew, in each language, for as long as it was loaded, and a server of 100
tables grew by 20 MB per 1,000 actions; then one cache in memory bounded by bytes, which still grew the server by
32 MB on its way to the bound), a server's in a folder of files, under a tag made of what makes the face; the tag
is the answer's ETag, so a browser asks for a face once and then only whether it changed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cachetools import LRUCache

from hhdcli import __version__

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.mana import SymbolTable

# what a downloaded image is, by its first bytes (the cache keeps the registry's files as they came)
KINDS = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG", "image/png"), (b"RIFF", "image/webp"))
FACES_BYTES = 32 * 1024 * 1024  # ~1,100 drawn faces: every Hell card of the pool in one language and more
SERVED_FACES_BYTES = 4 * 1024 * 1024  # a server's faces in memory besides its folder: the ~130 most recently shown
FACES_DISK_BYTES = 120 * 1024 * 1024  # a server's faces folder: every card of the pool (970) in both languages, twice


@dataclass(frozen=True)
class Shown:
    """A face as served: its bytes, their media type and its ETag (quoted, strong)."""

    data: bytes
    kind: str
    tag: str


def print_image(card: Card, images: Path | None) -> Path | None:
    """The card's print image in the image cache, when it is there."""
    from hhdcli.render.scans.images import ImageStore

    if images is None or not card.print_images:
        return None
    raw = ImageStore(images).raw_path(card.print_images[0])
    return raw if raw.is_file() else None


def face_tag(card: Card, images: Path | None, lang: str) -> str:
    """What makes the face, as a short strong ETag: the image file (its path, size and time), else the card's
    data and hhd's version (which draws it), and the language. Stable across restarts: a browser's kept face
    stays good."""
    raw = print_image(card, images)
    if raw is not None:
        found = raw.stat()
        made = f"file|{raw}|{found.st_size}|{found.st_mtime_ns}|{lang}"
    else:
        made = f"drawn|{__version__}|{lang}|{card!r}"
    return '"' + hashlib.blake2b(made.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest() + '"'


def card_face(card: Card, table: SymbolTable, images: Path | None, lang: str) -> tuple[bytes, str]:
    """The face's bytes and their media type: the cached print image, else a PNG drawn at 150 dpi."""
    from hhdcli.render.draw.faces import face_png

    raw = print_image(card, images)
    if raw is not None:
        try:
            data = raw.read_bytes()
        except OSError:
            data = b""
        for magic, kind in KINDS:
            if data.startswith(magic):
                return data, kind
    return face_png(card, table, dpi=150, lang=lang), "image/png"


class Faces:
    """The faces the server's tables showed, by tag. With a `folder` (a server's: hhd table, hhd serve), each face
    drawn is kept there as a file named by its tag (the folder bounded by bytes at each start), and the most
    recently shown within `most` bytes in memory too: the memory stays flat however many cards are shown, and a
    restart draws none again. Without one (a
    library caller, a test), in memory alone, within `most` bytes: the least recently shown goes first."""

    def __init__(self, most: int = FACES_BYTES, folder: Path | None = None) -> None:
        self.kept: LRUCache[str, tuple[bytes, str]] = LRUCache(most, getsizeof=lambda kept: len(kept[0]))
        self.folder = folder
        if folder is not None:
            _sweep(folder)

    def face(self, card: Card, table: SymbolTable, images: Path | None, lang: str, tag: str | None = None) -> Shown:
        tag = tag or face_tag(card, images, lang)
        found = self.kept.get(tag)
        if found is None:
            found = self._drawn_before(tag) or card_face(card, table, images, lang)
            if self.folder is not None and print_image(card, images) is None:
                self._keep_file(tag, found[0])
            if len(found[0]) <= self.kept.maxsize:  # a face larger than the whole cache is served, not kept
                self.kept[tag] = found
        return Shown(found[0], found[1], tag)

    def _file(self, tag: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{tag.strip(chr(34))}.png"

    def _drawn_before(self, tag: str) -> tuple[bytes, str] | None:
        path = self._file(tag)
        try:
            return (path.read_bytes(), "image/png") if path is not None else None
        except OSError:  # not drawn yet (or unreadable: drawn again)
            return None

    def _keep_file(self, tag: str, data: bytes) -> None:
        from hhdcli.files import write_atomic

        path = self._file(tag)
        if path is None or path.exists():
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data, durable=False)
        except OSError:  # a full disk or a read-only cache: the face is served from memory all the same
            pass

    @property
    def size(self) -> int:
        """The bytes kept in memory."""
        return int(self.kept.currsize)


def _sweep(folder: Path) -> None:
    """The faces folder within FACES_DISK_BYTES, the oldest out first (faces of an earlier hhd, or of cards changed
    since, whose tags nobody asks for any more, are among the oldest), as the image cache is bounded."""
    import os

    from hhdcli.render.scans.images import evict_files

    try:
        faces = [entry for entry in os.scandir(folder) if entry.name.endswith(".png") and entry.is_file()]
    except OSError:
        return
    evict_files(faces, FACES_DISK_BYTES)


FACES = Faces()  # the one cache of a process: every table shares it unless given another
