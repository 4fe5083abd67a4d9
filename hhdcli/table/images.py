"""A card's face as the table's pages show it: its print image when the image cache holds it (hhd proxies
fetched it), else the face hhd draws from its text, with its words in the asker's language. The page never asks
another site for an image."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.mana import SymbolTable

# what a downloaded image is, by its first bytes (the cache keeps the registry's files as they came)
KINDS = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG", "image/png"), (b"RIFF", "image/webp"))


def card_face(card: Card, table: SymbolTable, images: Path | None, lang: str) -> tuple[bytes, str]:
    """The face's bytes and their media type: the cached print image, else a PNG drawn at 150 dpi."""
    from hhdcli.render.draw.faces import face_png
    from hhdcli.render.scans.images import ImageStore

    if images is not None and card.print_images:
        raw = ImageStore(images).raw_path(card.print_images[0])
        try:
            data = raw.read_bytes()
        except OSError:
            data = b""
        for magic, kind in KINDS:
            if data.startswith(magic):
                return data, kind
    return face_png(card, table, dpi=150, lang=lang), "image/png"
