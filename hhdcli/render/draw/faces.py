"""One card as a picture: the text-proxy face (or the red back) drawn by the proxy painter, rasterised to
PNG for tools that show images (Tabletop Simulator, the Hell table)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from hhdcli.i18n import current_language
from hhdcli.render.draw.cardface import Painter
from hhdcli.render.draw.fonts import Fonts, load_fonts
from hhdcli.render.draw.measure import Slot
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.plan.sheet import CARD_H_MM, CARD_W_MM, MM

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.mana import SymbolTable

CARD_SIZE = (CARD_W_MM * MM, CARD_H_MM * MM)


def face_pdf(card: Card | None, symbols: SymbolTable, fonts: Fonts, lang: str | None = None) -> bytes:
    """A one-card PDF page, 63 x 88 mm: the card's text face, or the red back when `card` is None; its words in
    `lang` (the run's language when not given)."""

    def draw(canvas) -> None:
        painter = Painter(canvas, fonts, symbols, lang=lang or current_language())
        slot = Slot(0, 0, *CARD_SIZE)
        if card is None:
            painter.back(slot)
        elif card.is_basic:
            painter.basic(slot, card)
        else:
            painter.text_card(slot, card)
        canvas.showPage()

    return make_pdf(CARD_SIZE, card.name if card else "Hell back", draw)


def face_png(card: Card | None, symbols: SymbolTable, dpi: int = 200, font: str | None = None,
             lang: str | None = None) -> bytes:
    """The face as a PNG at `dpi` (200 dpi: 496 x 693 px, sharp on a screen, small enough to load fast)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(face_pdf(card, symbols, load_fonts(font), lang))
    try:
        image = document[0].render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    # zlib's level 3, not its default 6: a 150 dpi face encodes in 6 ms instead of 20 (a third of drawing it,
    # which a table's server does for each face its pages show) for 8 % more bytes
    image.save(out, "PNG", optimize=False, compress_level=3)
    return out.getvalue()
