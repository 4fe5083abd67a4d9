"""Drawing one proxy in its slot: a card image, a text proxy from the card data, a basic, a red back."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from hhdcli.cards import Card, Face
from hhdcli.i18n import current_language, translator
from hhdcli.mana import SymbolTable
from hhdcli.render.draw.fonts import Fonts, missing_glyphs, safe_text
from hhdcli.render.draw.measure import (
    BORDER,
    INSET,
    MIN_PT,
    PAD,
    Measure,
    Slot,
    TextLayouts,
    bar_height,
    is_compact,
    stats_band,
)
from hhdcli.render.draw.palette import FRAME, RGB
from hhdcli.render.draw.symbols import FILL, cost_symbols, draw_symbols, symbols_width
from hhdcli.render.plan.sheet import MM, ink
from hhdcli.render.texts import basic_type_line
from hhdcli.rulings import card_rulings, hell_lines

if TYPE_CHECKING:
    import gettext

    from reportlab.pdfgen.canvas import Canvas

PANEL: RGB = (0.97, 0.96, 0.93)
CONDENSED = 0.8  # a line may be squeezed to 80 % of its width before it wraps or shrinks
BACK_RED: RGB = (0.60, 0.04, 0.05)
BACK_GOLD: RGB = (0.98, 0.80, 0.42)


@dataclass
class Painter:
    canvas: Canvas
    fonts: Fonts
    symbols: SymbolTable
    missing: dict[str, set[str]] = field(default_factory=dict)  # card name → characters the font lacks
    # each rules text laid out once per size tried, whether to measure, to split over proxies or to draw (a
    # painter measuring shares these with the one drawing)
    texts: TextLayouts = field(default_factory=TextLayouts)
    # the language of a face's words (its type line if basic, the format's rulings, the footer): the run's for
    # a sheet, each asker's for the table, which draws faces for Russian and English phones at once
    lang: str = field(default_factory=current_language)
    measure: Measure = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.measure = Measure(self.fonts, self.symbols, self.texts)  # measures with the layouts it draws

    @property
    def words(self) -> gettext.NullTranslations:
        return translator(self.lang)

    def note_missing(self, card: Card) -> None:
        """Remember the characters of a card that the font cannot draw (they print as "?")."""
        for face in card.faces:
            for text, bold in ((face.name, True), (face.type_line, False), (face.oracle_text, False)):
                gone = missing_glyphs(self.fonts.bold if bold else self.fonts.regular, text)
                if gone:
                    self.missing.setdefault(card.name, set()).update(gone)

    # --- backs ---------------------------------------------------------------------

    def back(self, slot: Slot) -> None:
        c, b, _ = self.canvas, slot.bleed, self.words.gettext
        c.saveState()
        c.setFillColorRGB(*BACK_RED)
        c.rect(slot.x - b, slot.y - b, slot.w + 2 * b, slot.h + 2 * b, stroke=0, fill=1)
        c.setStrokeColorRGB(*BACK_GOLD)
        c.setLineWidth(1.2)
        c.roundRect(slot.x + 4 * MM, slot.y + 4 * MM, slot.w - 8 * MM, slot.h - 8 * MM, 3 * MM, stroke=1, fill=0)
        c.setFillColorRGB(*BACK_GOLD)
        c.setFont(self.fonts.bold, 30)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 4, safe_text(self.fonts, _("HELL"), bold=True))
        c.setFont(self.fonts.regular, 8)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 20, safe_text(self.fonts, _("Hell's Half-Draft")))
        c.restoreState()

    # --- text proxies ---------------------------------------------------------------------------

    def background(self, slot: Slot, color: RGB) -> None:
        """A black border like a printed card's (it also runs into the bleed), the frame color inside."""
        c, b = self.canvas, slot.bleed
        c.setFillColor(ink())
        c.rect(slot.x - b, slot.y - b, slot.w + 2 * b, slot.h + 2 * b, stroke=0, fill=1)
        c.setFillColorRGB(*color)
        c.roundRect(slot.x + BORDER, slot.y + BORDER, slot.w - 2 * BORDER, slot.h - 2 * BORDER, 1.5 * MM, stroke=0, fill=1)

    def text_card(self, slot: Slot, card: Card, faces: tuple[Face, ...] | None = None,
                  part: tuple[int, int] = (1, 1)) -> None:
        """A card drawn from its data; `faces` and `part` when it continues over several proxies (2/2)."""
        self.note_missing(card)
        c = self.canvas
        c.saveState()
        color = FRAME[card.frame]
        self.background(slot, color)
        top, bottom, x, w = self.measure.text_area(slot)
        shown = list(faces) if faces is not None else self.measure.printed_faces(card)
        compact = is_compact(len(shown))
        rulings = card_rulings(card) if part[0] == part[1] else ()
        if rulings:  # the format's rulings (and the card's clarification) end the text box when they fit at
            # RULINGS_PT, else the rulings alone; the footer marks them either way
            lines = hell_lines(card, self.lang)
            for hell in dict.fromkeys(("\n".join(lines), "\n".join(lines[:len(rulings)]))):
                with_hell = [*shown[:-1], replace(shown[-1], oracle_text=f"{shown[-1].oracle_text}\n{hell}".strip())]
                if self.measure.fits(with_hell, top - bottom, w, compact, card=card):
                    shown = with_hell
                    break
        y = top
        for face, height in zip(shown, self.measure.face_heights(shown, top - bottom, w, compact, card), strict=True):
            self._face(face, x, y - height, w, height, compact, named=self.measure.named(card, face))
            y -= height
        self._footer_line(slot, card, color, [r.name(self.lang) for r in rulings], part)
        c.restoreState()

    def _face(self, face: Face, x: float, y: float, w: float, h: float, compact: bool, named: bool = True) -> None:
        bar = bar_height(compact)
        gap = 1.0 * MM
        name_y = y + h - bar if named else y + h + gap  # an unnamed face starts with its type line
        if named:
            self._name_bar(face, x, name_y, w, bar)
        type_y = name_y - gap - bar * 0.8
        self._panel(x, type_y, w, bar * 0.8)
        self._title(face.type_line or "—", x + 1.5 * MM, type_y, w - 3 * MM, bar * 0.8, self.fonts.regular, 7.0)
        stats = self.measure.stats(face)
        box_bottom = y + stats_band(stats)
        box_top = type_y - gap
        if face.oracle_text.strip() or not stats:
            self._panel(x, box_bottom, w, box_top - box_bottom)
            self._rules_text(face.oracle_text, x + PAD, box_bottom + 1.0 * MM, w - 2 * PAD,
                             box_top - box_bottom - 2.0 * MM)
        right = x + w
        for text in reversed(stats):  # P/T at the right, loyalty beside it
            right -= self._stats_box(text, right, y) + 1.0 * MM

    def _name_bar(self, face: Face, x: float, y: float, w: float, h: float) -> None:
        self._panel(x, y, w, h, radius=1.6 * MM)
        size = min(3.8 * MM, h * 0.62)
        symbols = cost_symbols(face.mana_cost)
        cost_w = symbols_width(symbols, size, self.symbols, self.canvas, self.fonts) if symbols else 0
        if cost_w > w * 0.55:  # very long costs get smaller symbols rather than covering the name
            size *= w * 0.55 / cost_w
            cost_w = w * 0.55
        if symbols:
            draw_symbols(self.canvas, x + w - 1.2 * MM - cost_w, y + h / 2, symbols, size, symbol_table=self.symbols,
                         fonts=self.fonts)
        self._title(face.name, x + 1.5 * MM, y, w - cost_w - 3.5 * MM, h, self.fonts.bold, 8.5)

    def _panel(self, x: float, y: float, w: float, h: float, radius: float = 0.8 * MM) -> None:
        c = self.canvas
        c.setFillColorRGB(*PANEL)
        c.setStrokeColor(ink())
        c.setLineWidth(0.5)
        c.roundRect(x, y, w, max(h, 1), radius, stroke=1, fill=1)

    def _title(self, text: str, x: float, y: float, width: float, height: float, font: str, size: float) -> None:
        """A name or type line, whole: on one line, else condensed, else on two lines, else smaller (never
        under 6 pt), and only as a last resort condensed further. It is never cut; a letter the font lacks is a "?"."""
        text = safe_text(self.fonts, text, bold=font == self.fonts.bold)
        c = self.canvas
        for try_size in _sizes(size):
            for lines in ([text], _two_lines(c, text, font, try_size)):
                if not lines or len(lines) * try_size * 1.08 > height:
                    continue
                widest = max(c.stringWidth(line, font, try_size) for line in lines)
                scale = min(1.0, width / widest) if widest else 1.0
                if scale >= CONDENSED or try_size == MIN_PT and len(lines) == 2:
                    self._draw_lines(lines, x, y, height, font, try_size, scale)
                    return
        self._draw_lines([text], x, y, height, font, MIN_PT, width / max(1.0, c.stringWidth(text, font, MIN_PT)))

    def _draw_lines(self, lines: list[str], x: float, y: float, height: float, font: str, size: float,
                    scale: float) -> None:
        c = self.canvas
        leading = size * 1.08
        text = c.beginText(x, y + height / 2 + (len(lines) - 1) * leading / 2 - size * 0.34)
        text.setFillColor(ink())
        text.setFont(font, size, leading)
        text.setHorizScale(min(100.0, scale * 100))  # the PDF's Tz: the same glyphs, narrower
        for line in lines:
            text.textLine(line)
        c.drawText(text)

    def _rules_text(self, text: str, x: float, y: float, w: float, h: float) -> None:
        """Rules text fitted to its box, mana symbols inline: shrink to 6 pt at the least; what still does not
        fit ends in an ellipsis rather than overflowing."""
        if not text.strip() or h <= 4:
            return
        size = 8.0
        box = self.measure.laid_out(text, size, w)
        while box.height > h and size > MIN_PT:
            size = max(MIN_PT, size - 0.25)
            box = self.measure.laid_out(text, size, w)
        if box.height > h:  # too long even at 6 pt: keep as many words as fit
            words = text.split(" ")
            while box.height > h and len(words) > 1:
                words = words[: max(1, int(len(words) * 0.9))]
                box = self.measure.laid_out(" ".join(words) + " …", size, w)
        box.draw(self.canvas, self.fonts, x, y + h, ink())

    def _stats_box(self, text: str, right: float, y: float) -> float:
        text = safe_text(self.fonts, text, bold=True)
        width = max(10 * MM, self.canvas.stringWidth(text, self.fonts.bold, 9) + 4 * MM)
        self._panel(right - width, y, width, 4.0 * MM, radius=1.4 * MM)
        self.canvas.setFillColor(ink())
        self.canvas.setFont(self.fonts.bold, 9)
        self.canvas.drawCentredString(right - width / 2, y + 1.0 * MM, text)
        return width

    def _footer_line(self, slot: Slot, card: Card, color: RGB, rulings: list[str] | None = None,
                     part: tuple[int, int] = (1, 1)) -> None:
        c, _, ngettext = self.canvas, self.words.gettext, self.words.ngettext
        if sum(color) / 3 < 0.55:  # light ink on a dark frame
            c.setFillColorRGB(0.95, 0.95, 0.95)
        else:
            c.setFillColor(ink())
        c.setFont(self.fonts.regular, MIN_PT)
        mark = _("Token") if card.is_token else card.set_code  # a token says so, where a card names its set
        line = f"{mark} · " + _("Hell's Half-Draft proxy") + (f" · {part[0]}/{part[1]}" if part[1] > 1 else "")
        x, y, room = slot.x + 3.4 * MM, slot.y + BORDER + 0.6 * MM, slot.w - 6.8 * MM
        if rulings:  # a small flag, then the ids: with the footer's words when they fit, else in their place
            self._flag(x, y)
            x, room = x + 2.0 * MM, room - 2.0 * MM
            ids = _("Hell: {rulings}").format(rulings=", ".join(rulings))
            fallback = ngettext("{n} Hell ruling", "{n} Hell rulings", len(rulings)).format(n=len(rulings))
            line = next((t for t in (f"{line} · {ids}", f"{card.set_code} · {ids}", ids)
                         if c.stringWidth(t, self.fonts.regular, MIN_PT) <= room), fallback)
        c.drawString(x, y, safe_text(self.fonts, line))

    def _flag(self, x: float, y: float) -> None:
        """The mark of a card the format's rulings touch (the ⚑ of the checklist, drawn: not every font has it)."""
        c = self.canvas
        c.saveState()
        c.setLineWidth(0.35)
        c.line(x + 0.2 * MM, y - 0.2 * MM, x + 0.2 * MM, y + 2.1 * MM)
        path = c.beginPath()
        path.moveTo(x + 0.2 * MM, y + 2.1 * MM)
        path.lineTo(x + 1.6 * MM, y + 1.55 * MM)
        path.lineTo(x + 0.2 * MM, y + 1.0 * MM)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.restoreState()

    def basic(self, slot: Slot, card: Card) -> None:
        """A basic land: its color, its name and one large mana symbol."""
        c = self.canvas
        c.saveState()
        color_letter = card.frame
        self.background(slot, FRAME[color_letter])
        x, w = slot.x + INSET, slot.w - 2 * INSET
        bar = bar_height(compact=False)
        self._panel(x, slot.y + slot.h - INSET - bar, w, bar, radius=1.6 * MM)
        self._title(card.name, x + 1.5 * MM, slot.y + slot.h - INSET - bar,
                    w - 3 * MM, bar, self.fonts.bold, 9)
        c.setFillColorRGB(*FILL[color_letter])
        c.setStrokeColor(ink())
        c.setLineWidth(1.2)
        c.circle(slot.x + slot.w / 2, slot.y + slot.h / 2, 13 * MM, stroke=1, fill=1)
        c.setFillColor(ink())
        c.setFont(self.fonts.bold, 40)
        c.drawCentredString(slot.x + slot.w / 2, slot.y + slot.h / 2 - 14, color_letter)
        type_y = slot.y + 9 * MM
        self._panel(x, type_y, w, bar * 0.8)
        self._title(basic_type_line(card.name, self.lang), x + 1.5 * MM, type_y,
                    w - 3 * MM, bar * 0.8, self.fonts.regular, 7)
        self._footer_line(slot, card, FRAME[color_letter])
        c.restoreState()


def _sizes(size: float) -> list[float]:
    """The sizes a title may take, largest first, down to 6 pt."""
    sizes = []
    while size > MIN_PT:
        sizes.append(size)
        size -= 0.5
    return [*sizes, MIN_PT]


def _two_lines(canvas: Canvas, text: str, font: str, size: float) -> list[str]:
    """The text broken at the space that makes its two lines the most even; [] for a single word."""
    words = text.split(" ")
    if len(words) < 2:
        return []
    best = min(range(1, len(words)), key=lambda i: max(canvas.stringWidth(" ".join(words[:i]), font, size),
                                                       canvas.stringWidth(" ".join(words[i:]), font, size)))
    return [" ".join(words[:best]), " ".join(words[best:])]
