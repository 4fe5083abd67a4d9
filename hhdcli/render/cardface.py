"""Drawing one proxy in its slot: a card image, a text proxy from the card data, a basic, a red back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from hhdcli.cards import Card, Face
from hhdcli.mana import SymbolTable
from hhdcli.render.fonts import Fonts, safe_text, shorten
from hhdcli.render.layout import MM
from hhdcli.render.symbols import FILL, cost_symbols, draw_symbols, symbols_width

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

RGB = tuple[float, float, float]
FRAME: dict[str, RGB] = {
    "W": (0.86, 0.82, 0.68), "U": (0.22, 0.47, 0.76), "B": (0.24, 0.22, 0.22), "R": (0.78, 0.24, 0.18),
    "G": (0.20, 0.52, 0.28), "P": (0.50, 0.28, 0.70), "M": (0.82, 0.66, 0.24), "C": (0.62, 0.62, 0.65),
    "L": (0.58, 0.47, 0.36),
}
PANEL: RGB = (0.97, 0.96, 0.93)
BORDER = 1.4 * MM
INK: RGB = (0.07, 0.07, 0.07)
BACK_RED: RGB = (0.60, 0.04, 0.05)
BACK_GOLD: RGB = (0.98, 0.80, 0.42)


@dataclass(frozen=True)
class Slot:
    x: float
    y: float
    w: float
    h: float
    bleed: float = 0.0


@dataclass
class Painter:
    canvas: Canvas
    fonts: Fonts
    table: SymbolTable

    # --- images and backs ---------------------------------------------------------------------

    def image(self, slot: Slot, path: str) -> None:
        b = slot.bleed
        self.canvas.drawImage(path, slot.x - b, slot.y - b, slot.w + 2 * b, slot.h + 2 * b)

    def back(self, slot: Slot) -> None:
        c, b = self.canvas, slot.bleed
        c.saveState()
        c.setFillColorRGB(*BACK_RED)
        c.rect(slot.x - b, slot.y - b, slot.w + 2 * b, slot.h + 2 * b, stroke=0, fill=1)
        c.setStrokeColorRGB(*BACK_GOLD)
        c.setLineWidth(1.2)
        c.roundRect(slot.x + 4 * MM, slot.y + 4 * MM, slot.w - 8 * MM, slot.h - 8 * MM, 3 * MM, stroke=1, fill=0)
        c.setFillColorRGB(*BACK_GOLD)
        c.setFont(self.fonts.bold, 30)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 4, "HELL")
        c.setFont(self.fonts.regular, 8)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 20, "Hell's Half-Draft")
        c.restoreState()

    # --- text proxies ---------------------------------------------------------------------------

    def background(self, slot: Slot, color: RGB) -> None:
        """A black border like a printed card's (it also runs into the bleed), the frame colour inside."""
        c, b = self.canvas, slot.bleed
        c.setFillColorRGB(*INK)
        c.rect(slot.x - b, slot.y - b, slot.w + 2 * b, slot.h + 2 * b, stroke=0, fill=1)
        c.setFillColorRGB(*color)
        c.roundRect(slot.x + BORDER, slot.y + BORDER, slot.w - 2 * BORDER, slot.h - 2 * BORDER, 1.5 * MM, stroke=0, fill=1)

    def text_card(self, slot: Slot, card: Card) -> None:
        c = self.canvas
        c.saveState()
        color = FRAME[card.frame]
        self.background(slot, color)
        inner = BORDER + 1.8 * MM
        x, w = slot.x + inner, slot.w - 2 * inner
        top, bottom = slot.y + slot.h - inner, slot.y + 5 * MM
        # a slot holding only stray text (Gristly Bear's flavour in a cost slot) is not a face to print
        faces = [f for f in card.faces if f.type_line or f.oracle_text] or list(card.faces[:1])
        section = (top - bottom) / len(faces)
        for i, face in enumerate(faces):
            self._face(face, x, top - (i + 1) * section, w, section, compact=len(faces) > 2)
        self._footer_line(slot, card, color)
        c.restoreState()

    def _face(self, face: Face, x: float, y: float, w: float, h: float, compact: bool) -> None:
        bar = (5.2 if compact else 6.4) * MM
        gap = 1.0 * MM
        name_y = y + h - bar
        self._name_bar(face, x, name_y, w, bar)
        type_y = name_y - gap - bar * 0.8
        self._panel(x, type_y, w, bar * 0.8)
        self._fit_line(safe_text(self.fonts, face.type_line or "—"), x + 1.5 * MM, type_y + bar * 0.25,
                       w - 3 * MM, self.fonts.regular, 7.0)
        stats = self._stats(face)
        box_bottom = y + (4.2 * MM if stats else 0.6 * MM)
        box_top = type_y - gap
        self._panel(x, box_bottom, w, box_top - box_bottom)
        self._rules_text(face.oracle_text, x + 1.6 * MM, box_bottom + 1.0 * MM, w - 3.2 * MM,
                         box_top - box_bottom - 2.0 * MM)
        if stats:
            self._stats_box(stats, x + w, y)

    def _name_bar(self, face: Face, x: float, y: float, w: float, h: float) -> None:
        self._panel(x, y, w, h, radius=1.6 * MM)
        size = min(3.8 * MM, h * 0.62)
        symbols = cost_symbols(face.mana_cost)
        cost_w = symbols_width(symbols, size, self.table, self.canvas, self.fonts) if symbols else 0
        if cost_w > w * 0.55:  # very long costs get smaller symbols rather than covering the name
            size *= w * 0.55 / cost_w
            cost_w = w * 0.55
        if symbols:
            draw_symbols(self.canvas, x + w - 1.2 * MM - cost_w, y + h / 2, symbols, size, self.table, self.fonts)
        name = safe_text(self.fonts, face.name, bold=True)
        self._fit_line(name, x + 1.5 * MM, y + h * 0.3, w - cost_w - 3.5 * MM, self.fonts.bold, 8.5)

    def _panel(self, x: float, y: float, w: float, h: float, radius: float = 0.8 * MM) -> None:
        c = self.canvas
        c.setFillColorRGB(*PANEL)
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.5)
        c.roundRect(x, y, w, max(h, 1), radius, stroke=1, fill=1)

    def _fit_line(self, text: str, x: float, y: float, width: float, font: str, size: float) -> None:
        """One line, shrunk to fit and, past 5 pt, cut with an ellipsis: never over its box."""
        c = self.canvas
        while size > 5 and c.stringWidth(text, font, size) > width:
            size -= 0.25
        text = shorten(text, font, size, width)
        c.setFillColorRGB(*INK)
        c.setFont(font, size)
        c.drawString(x, y, text)

    def _rules_text(self, text: str, x: float, y: float, w: float, h: float) -> None:
        """Rules text auto-fitted to its box: shrink until it fits, never overflow."""
        from reportlab.lib.colors import Color
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph

        if not text.strip() or h <= 4:
            return
        markup = "<br/>".join(escape(safe_text(self.fonts, line)) for line in text.splitlines())
        size = 8.0
        while True:
            style = ParagraphStyle("rules", fontName=self.fonts.regular, fontSize=size, leading=size * 1.16,
                                   textColor=Color(*INK), splitLongWords=True)
            paragraph = Paragraph(markup, style)
            _, used = paragraph.wrap(w, h)
            if used <= h or size <= 3.5:
                break
            size -= 0.25
        if used > h:  # still too long at the smallest size: drop words from the end
            words = markup.split(" ")
            while used > h and len(words) > 1:
                words = words[: max(1, int(len(words) * 0.9))]
                paragraph = Paragraph(" ".join(words) + " …", style)
                _, used = paragraph.wrap(w, h)
        paragraph.drawOn(self.canvas, x, y + h - used)

    @staticmethod
    def _stats(face: Face) -> str:
        if face.power is not None or face.toughness is not None:
            return f"{face.power or '0'}/{face.toughness or '0'}"
        return f"◊ {face.loyalty}" if face.loyalty else ""

    def _stats_box(self, text: str, right: float, y: float) -> None:
        text = safe_text(self.fonts, text, bold=True)
        width = max(12 * MM, self.canvas.stringWidth(text, self.fonts.bold, 9) + 4 * MM)
        self._panel(right - width, y, width, 5.6 * MM, radius=1.4 * MM)
        self.canvas.setFillColorRGB(*INK)
        self.canvas.setFont(self.fonts.bold, 9)
        self.canvas.drawCentredString(right - width / 2, y + 1.7 * MM, text)

    def _footer_line(self, slot: Slot, card: Card, color: RGB) -> None:
        c = self.canvas
        light = sum(color) / 3 < 0.55
        c.setFillColorRGB(*((0.95, 0.95, 0.95) if light else INK))
        c.setFont(self.fonts.regular, 5)
        c.drawString(slot.x + 3.4 * MM, slot.y + BORDER + 0.9 * MM, safe_text(self.fonts, f"{card.set_code} · Hell's Half-Draft proxy"))

    def basic(self, slot: Slot, card: Card) -> None:
        """A basic land: its colour, its name and one large mana symbol."""
        c = self.canvas
        c.saveState()
        color_letter = card.frame
        self.background(slot, FRAME[color_letter])
        inner = BORDER + 1.8 * MM
        x, w = slot.x + inner, slot.w - 2 * inner
        bar = 6.4 * MM
        self._panel(x, slot.y + slot.h - inner - bar, w, bar, radius=1.6 * MM)
        self._fit_line(card.name, x + 1.5 * MM, slot.y + slot.h - inner - bar * 0.7, w - 3 * MM, self.fonts.bold, 9)
        c.setFillColorRGB(*FILL[color_letter])
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(1.2)
        c.circle(slot.x + slot.w / 2, slot.y + slot.h / 2, 13 * MM, stroke=1, fill=1)
        c.setFillColorRGB(*INK)
        c.setFont(self.fonts.bold, 40)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 14, color_letter)
        type_y = slot.y + 9 * MM
        self._panel(x, type_y, w, bar * 0.8)
        self._fit_line(f"Basic Land — {card.name}", x + 1.5 * MM, type_y + bar * 0.25, w - 3 * MM, self.fonts.regular, 7)
        self._footer_line(slot, card, FRAME[color_letter])
        c.restoreState()
