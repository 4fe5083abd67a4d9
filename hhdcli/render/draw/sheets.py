"""The proxy sheets drawn: the cards in their slots (scans as stand-ins, the rest painted from their data), crop
marks, the scale bar and footer of each page, and a page of red backs after each when asked."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hhdcli.i18n import _
from hhdcli.render.draw.fonts import Fonts, safe_text, shorten, wrap_words
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.plan.proxies import Proxy, ProxyOptions
from hhdcli.render.plan.sheet import (
    MM,
    Sheet,
    bleed_cut_lines,
    crop_marks,
    full_cut_lines,
    furniture_on_sides,
    ink,
    printable,
)

if TYPE_CHECKING:
    from hhdcli.mana import SymbolTable
    from hhdcli.render.draw.cardface import Painter
    from hhdcli.render.draw.measure import TextLayouts
    from hhdcli.render.scans.splice import StandIns

FOOTER_LINES = 2
TOKEN_MARK_PT = 6.5  # the mark on a scanned token's face: above the 6 pt hhd prints at least, within the border


@dataclass
class SheetDrawing:
    """Everything the sheets are drawn with, set once for the document: the geometry, fonts and symbols, the
    options, where each scan is and the stand-ins the writer replaces with them; the canvas and the card painter
    are set when drawing starts. `missing` collects the characters the font lacks, by card."""

    sheet: Sheet
    symbols: SymbolTable
    fonts: Fonts
    options: ProxyOptions
    images: dict[str, str]  # image URL → the cached scan
    stand_ins: StandIns
    # the rules texts measured while planning, when some card is painted from its data (None: scans only, and
    # the painter is never loaded): drawn as measured
    texts: TextLayouts | None = None
    missing: dict[str, set[str]] = field(default_factory=dict)
    canvas: Any = field(default=None, repr=False)
    painter: Painter | None = field(default=None, repr=False)

    def pdf(self, proxies: list[Proxy]) -> bytes:
        """The laid-out document (the scans still stand-ins: see splice.py)."""
        sheet = self.sheet
        return make_pdf((sheet.page_w, sheet.page_h), self.options.title or _("Hell's Half-Draft proxies"),
                        lambda canvas: self._pages(canvas, proxies), print_at_actual_size=True)

    def _pages(self, canvas: Any, proxies: list[Proxy]) -> None:
        self.canvas = canvas
        if self.texts is not None:
            from hhdcli.render.draw.cardface import Painter

            self.painter = Painter(canvas, self.fonts, self.symbols, self.missing, self.texts)
        per_page = self.sheet.per_page
        pages = [proxies[i:i + per_page] for i in range(0, len(proxies), per_page)] or [[]]
        for number, page in enumerate(pages, start=1):
            self._front_page(page, _("page {number}/{pages}").format(number=number, pages=len(pages)))
            if self.options.backs:
                self._back_page(len(page))

    def _front_page(self, page: list[Proxy], numbered: str) -> None:
        canvas, sheet = self.canvas, self.sheet
        self._set_boxes()
        self._clip_to_printable()
        for index, proxy in enumerate(page):
            with self._clipped(sheet.cell(index)):  # a card's bleed stays out of its neighbours
                self._card(proxy, *sheet.slot(index))
        self._marks()
        slots = "  ".join(f"{i + 1} " + (_("{name} (token)").format(name=p.card.name) if p.card.is_token
                                         else p.card.name) for i, p in enumerate(page))
        self._furniture(f"{self.options.title} · {numbered} · {slots}")
        canvas.restoreState()
        canvas.showPage()

    def _card(self, proxy: Proxy, x: float, y: float) -> None:
        sheet = self.sheet
        if proxy.image_url:
            b = sheet.bleed  # the scan, bleed and all (a stand-in the writer replaces: splice.py)
            self.canvas.drawImage(self.stand_ins.reader(self.images[proxy.image_url]), x - b, y - b,
                                  sheet.card_w + 2 * b, sheet.card_h + 2 * b)
            if proxy.card.is_token:
                self._token_mark(x, y)
            return
        from hhdcli.render.draw.measure import Slot

        assert self.painter is not None
        slot = Slot(x, y, sheet.card_w, sheet.card_h, sheet.bleed)
        if proxy.card.is_basic:
            self.painter.basic(slot, proxy.card)
        else:
            self.painter.text_card(slot, proxy.card, proxy.faces, proxy.part)

    def _token_mark(self, x: float, y: float) -> None:
        """A token printed from its scan says so on its face, as one drawn from its data does in its footer: a
        white band with "TOKEN" on the bottom edge, inside the card (its frame's border; the name box at the top
        stays clear), readable when the sheet's footer is cut away."""
        canvas, fonts, sheet = self.canvas, self.fonts, self.sheet
        text = safe_text(fonts, _("Token").upper(), bold=True)
        size = TOKEN_MARK_PT
        width, height = canvas.stringWidth(text, fonts.bold, size) + 4 * MM, 2.9 * MM
        left, bottom = x + (sheet.card_w - width) / 2, y + 0.8 * MM
        canvas.saveState()
        canvas.setFillColorRGB(1, 1, 1)
        canvas.setStrokeColor(ink())
        canvas.setLineWidth(0.5)
        canvas.roundRect(left, bottom, width, height, 1.2 * MM, stroke=1, fill=1)
        canvas.setFillColor(ink())
        canvas.setFont(fonts.bold, size)
        canvas.drawCentredString(x + sheet.card_w / 2, bottom + 0.85 * MM, text)
        canvas.restoreState()

    def _back_page(self, count: int) -> None:
        """Red backs at mirrored positions: after a long-edge flip each back lies behind its front."""
        from hhdcli.render.draw.measure import Slot

        canvas, sheet, painter = self.canvas, self.sheet, self.painter
        assert painter is not None
        self._set_boxes()
        self._clip_to_printable()
        dx, dy = self.options.back_offset_mm[0] * MM, self.options.back_offset_mm[1] * MM
        for index in range(count):
            x, y = sheet.slot(index, mirrored=True)
            x0, y0, x1, y1 = sheet.cell(index, mirrored=True)
            with self._clipped((x0 + dx, y0 + dy, x1 + dx, y1 + dy)):
                painter.back(Slot(x + dx, y + dy, sheet.card_w, sheet.card_h, sheet.bleed))
        canvas.restoreState()
        canvas.showPage()

    @contextmanager
    def _clipped(self, box: tuple[float, float, float, float]) -> Iterator[None]:
        canvas = self.canvas
        x0, y0, x1, y1 = box
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)
        try:
            yield
        finally:
            canvas.restoreState()

    def _clip_to_printable(self) -> None:
        """Nothing is drawn within the margin: a printer cannot print there (outer bleed is cut back to it)."""
        canvas = self.canvas
        canvas.saveState()
        x0, y0, x1, y1 = printable(self.sheet)
        path = canvas.beginPath()
        path.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)

    def _set_boxes(self) -> None:
        x0, y0, x1, y1 = self.sheet.grid
        b = self.sheet.bleed
        self.canvas.setTrimBox((x0, y0, x1, y1))
        self.canvas.setBleedBox((x0 - b, y0 - b, x1 + b, y1 + b))

    def _marks(self) -> None:
        """Black marks in the margins, thin white lines across the outer bleed (visible on a black border), and
        with `--cut-lines full` every cut line across the sheet."""
        canvas, sheet = self.canvas, self.sheet
        canvas.saveState()
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.5)
        for x0, y0, x1, y1 in crop_marks(sheet):
            canvas.line(x0, y0, x1, y1)
        canvas.setStrokeColorRGB(1, 1, 1)
        canvas.setLineWidth(0.4)
        for x0, y0, x1, y1 in bleed_cut_lines(sheet):
            canvas.line(x0, y0, x1, y1)
        if self.options.cut_lines == "full":
            canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
            canvas.setLineWidth(0.25)
            for x0, y0, x1, y1 in full_cut_lines(sheet):
                canvas.line(x0, y0, x1, y1)
        canvas.restoreState()

    def _furniture(self, footer: str) -> None:
        """The 50 mm scale bar and the footer, inside the printable area and outside the cards and their bleed:
        in the top and bottom margins, or up the sides when those are too narrow (Letter)."""
        canvas, sheet = self.canvas, self.sheet
        m = sheet.margin
        canvas.saveState()
        canvas.setFillColor(ink())
        canvas.setStrokeColor(ink())
        if not furniture_on_sides(sheet):
            length, across = sheet.page_w, sheet.page_h
        else:  # turn a quarter: x runs up the page; the scale bar sits by the left edge, the footer by the right
            canvas.translate(sheet.page_w, 0)
            canvas.rotate(90)
            length, across = sheet.page_h, sheet.page_w
        self._scale_bar(length / 2 - 55 * MM, across - m - 2.4 * MM)
        self._footer(footer, (length / 2, m + 1.0 * MM), length - 2 * m - 4 * MM)
        canvas.restoreState()

    def _scale_bar(self, start: float, y: float) -> None:
        canvas, fonts = self.canvas, self.fonts
        canvas.setLineWidth(0.8)
        canvas.line(start, y, start + 50 * MM, y)
        for tick in range(0, 51, 10):
            height = 1.6 * MM if tick in (0, 50) else 0.8 * MM
            canvas.line(start + tick * MM, y, start + tick * MM, y + height)
        canvas.setFont(fonts.regular, 6)
        canvas.drawString(start + 51.5 * MM, y - 0.6 * MM,
                          safe_text(fonts, _("should measure 50 mm — print at 100 % / actual size")))

    def _footer(self, footer: str, at: tuple[float, float], width: float) -> None:
        """The footer at 6 pt (the smallest size hhd prints), wrapped onto a second line rather than cut: which
        card sits in which slot must be readable whole."""
        canvas, fonts = self.canvas, self.fonts
        size = 6.0
        lines = wrap_words(canvas, safe_text(fonts, footer), fonts.regular, size, width)
        if len(lines) > FOOTER_LINES:  # never more than the band holds: the rest shortened on the last line
            lines = [*lines[:FOOTER_LINES - 1],
                     shorten(" ".join(lines[FOOTER_LINES - 1:]), fonts.regular, size, width)]
        canvas.setFont(fonts.regular, size)
        for i, line in enumerate(reversed(lines)):
            canvas.drawCentredString(at[0], at[1] + i * size * 1.1, line)
