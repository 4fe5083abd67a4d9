"""Sheet geometry for true-to-size proxies: paper, the card grid, crop marks (pure functions, in points)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.i18n import _

if TYPE_CHECKING:
    from reportlab.lib.colors import CMYKColor

MM = 72 / 25.4  # points per millimetre


@cache
def ink() -> CMYKColor:
    """Text, black frames and marks in pure K (a color printer prints them with black ink only), made when
    first drawn with: ReportLab's colors take 20 ms to import, which a cold `hhd proxies` spends in the child
    that lays its pages out (aside.py), not before its downloads begin."""
    from reportlab.lib.colors import CMYKColor

    return CMYKColor(0, 0, 0, 1)


CARD_W_MM, CARD_H_MM = 63.0, 88.0
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "legal": (215.9, 355.6),
             "tabloid": (279.4, 431.8)}


A4 = (PAPERS_MM["a4"][0] * MM, PAPERS_MM["a4"][1] * MM)  # in points: the checklist and the rules sheet, one canvas
PAPER_RANGE_MM = (70.0, 1200.0)  # one card's side up to A0's long side: what a printer or plotter takes
MAX_BACK_OFFSET_MM = 20.0  # duplex printers misalign by a few millimetres, never by centimetres


def parse_paper(text: str) -> tuple[float, float]:
    """a4, letter, a3, legal, or WxHmm such as 210x297mm → (width, height) in mm."""
    key = text.strip().lower()
    if key in PAPERS_MM:
        return PAPERS_MM[key]
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm)?", key)
    if not match:
        raise InputError(_("--paper {text!r} is not a paper size").format(text=text), _("use a4, letter, a3, legal or WxHmm like 210x297mm"))
    size = float(match[1]), float(match[2])
    low, high = PAPER_RANGE_MM
    if not all(low <= side <= high for side in size):
        raise InputError(_("--paper {text!r}: each side must be {low:g} to {high:g} mm").format(text=text, low=low, high=high), _("for example 210x297mm"))
    return size


def parse_offset(text: str) -> tuple[float, float]:
    match = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*", text or "0,0")
    if not match:
        raise InputError(_("--back-offset {text!r} is not X,Y in mm").format(text=text), _("for example --back-offset 0.5,-1"))
    offset = float(match[1]), float(match[2])
    if any(abs(v) > MAX_BACK_OFFSET_MM for v in offset):
        raise InputError(_("--back-offset {text!r}: at most {MAX_BACK_OFFSET_MM:g} mm each way").format(text=text, MAX_BACK_OFFSET_MM=MAX_BACK_OFFSET_MM),
                         _("measure the calibration sheet again: duplex errors are a few millimetres"))
    return offset


@dataclass(frozen=True)
class Sheet:
    """Where the cards sit on a page. All values in points; origin bottom left as in PDF."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    gap: float
    bleed: float
    left: float  # x of the first card's trim edge
    top: float  # y of the first row's top trim edge

    card_w: float = CARD_W_MM * MM
    card_h: float = CARD_H_MM * MM
    margin: float = 5.0 * MM  # nothing is drawn nearer the paper's edge than this

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, index: int, mirrored: bool = False) -> tuple[float, float]:
        """Bottom-left corner of slot `index` (row-major from the top left); mirrored for duplex backs."""
        row, col = divmod(index, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        x = self.left + col * (self.card_w + self.gap)
        y = self.top - (row + 1) * self.card_h - row * self.gap
        return x, y

    def cell(self, index: int, mirrored: bool = False) -> tuple[float, float, float, float]:
        """What slot `index` may paint, x0, y0, x1, y1: its card, its full bleed on the sheet's outer sides,
        and between cards at most half the gap, so that no bleed ever covers a neighbour's card."""
        x, y = self.slot(index, mirrored)
        row, col = divmod(index, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        inner = min(self.bleed, self.gap / 2)

        def reach(outer: bool) -> float:
            return self.bleed if outer else inner

        return (x - reach(col == 0), y - reach(row == self.rows - 1),
                x + self.card_w + reach(col == self.cols - 1), y + self.card_h + reach(row == 0))

    @property
    def grid(self) -> tuple[float, float, float, float]:
        """The trim box of all slots: x0, y0, x1, y1."""
        width = self.cols * self.card_w + (self.cols - 1) * self.gap
        height = self.rows * self.card_h + (self.rows - 1) * self.gap
        return self.left, self.top - height, self.left + width, self.top

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of vertical cuts and y positions of horizontal cuts."""
        xs, ys = set(), set()
        for col in range(self.cols):
            x = self.left + col * (self.card_w + self.gap)
            xs |= {round(x, 3), round(x + self.card_w, 3)}
        for row in range(self.rows):
            y = self.top - row * (self.card_h + self.gap)
            ys |= {round(y, 3), round(y - self.card_h, 3)}
        return sorted(xs), sorted(ys)


DEFAULT_MARGIN_MM = 5.0  # most printers cannot print nearer the edge: no mark, ruler or footer goes there
CLEARANCE_MM = 1.0  # between the bleed and a crop mark


def make_sheet(paper_mm: tuple[float, float], gap_mm: float = 0.0, bleed_mm: float = 0.0,
               margin_mm: float = DEFAULT_MARGIN_MM, max_cols: int | None = None,
               max_rows: int | None = None) -> Sheet:
    """As many 63 x 88 mm cards as fit inside the printable area (the paper less `margin_mm` all round),
    in the orientation that holds more; with bleed, cards keep a gap of twice the bleed when that still fits
    as many cards, else they share their cut lines and the bleed stays on the outside (9 a sheet on A4 and
    Letter up to 3 mm of bleed; 18 on A3 and Tabloid, turned)."""
    portrait = _layout(paper_mm, gap_mm, bleed_mm, margin_mm, max_cols, max_rows)
    turned = _layout((paper_mm[1], paper_mm[0]), gap_mm, bleed_mm, margin_mm, max_cols, max_rows)
    if turned is not None and (portrait is None or turned.per_page > portrait.per_page):
        return turned
    if portrait is None:
        raise InputError(_("a {CARD_W_MM:g} x {CARD_H_MM:g} mm card does not fit on {value:g} x {value2:g} mm paper "
                           "with {margin_mm:g} mm margins").format(CARD_W_MM=CARD_W_MM, CARD_H_MM=CARD_H_MM, value=paper_mm[0], value2=paper_mm[1], margin_mm=margin_mm), _("choose a larger --paper or a smaller --margin/--gap"))
    return portrait


def _layout(paper_mm: tuple[float, float], gap_mm: float, bleed_mm: float, margin_mm: float,
            max_cols: int | None, max_rows: int | None) -> Sheet | None:
    def count(length: float, card: float, gap: float, limit: int | None) -> int:
        fits = int((length - 2 * margin_mm + gap) // (card + gap)) if length > 2 * margin_mm else 0
        return min(fits, limit) if limit else fits

    shared = (count(paper_mm[0], CARD_W_MM, gap_mm, max_cols), count(paper_mm[1], CARD_H_MM, gap_mm, max_rows))
    separate_gap = max(gap_mm, 2 * bleed_mm)
    separate = (count(paper_mm[0] - 2 * bleed_mm, CARD_W_MM, separate_gap, max_cols),
                count(paper_mm[1] - 2 * bleed_mm, CARD_H_MM, separate_gap, max_rows))
    gap = separate_gap if separate[0] * separate[1] >= shared[0] * shared[1] else gap_mm
    cols, rows = separate if gap == separate_gap else shared
    if cols < 1 or rows < 1:
        return None
    grid_w = cols * CARD_W_MM + (cols - 1) * gap
    grid_h = rows * CARD_H_MM + (rows - 1) * gap
    left = (paper_mm[0] - grid_w) / 2
    top = paper_mm[1] - (paper_mm[1] - grid_h) / 2
    return Sheet(paper_mm[0] * MM, paper_mm[1] * MM, cols, rows, gap * MM, bleed_mm * MM, left * MM, top * MM,
                 margin=margin_mm * MM)


def printable(sheet: Sheet) -> tuple[float, float, float, float]:
    """The area a printer prints: the page less the margin. Nothing is drawn outside it (bleed is cut back)."""
    m = sheet.margin
    return m, m, sheet.page_w - m, sheet.page_h - m


FURNITURE_MM = 4.0  # the band the scale bar needs (top, or left when turned)
FOOTER_MM = 5.0  # the band the footer's two lines at 6 pt need (bottom, or right when turned)


def furniture_on_sides(sheet: Sheet) -> bool:
    """The scale bar and footer go in the top and bottom margins when they fit there, else up the sides."""
    x0, y0, x1, y1 = sheet.grid
    vertical = min(y0, sheet.page_h - y1) - sheet.bleed - CLEARANCE_MM * MM - sheet.margin
    side = min(x0, sheet.page_w - x1) - sheet.bleed - CLEARANCE_MM * MM - sheet.margin
    return vertical < FOOTER_MM * MM and side > vertical


def crop_marks(sheet: Sheet, length: float = 5 * MM) -> list[tuple[float, float, float, float]]:
    """Black segments on every cut line, in the margins only: outside the cards and their bleed (by a
    millimetre) and inside the printable area. Where a margin has no room, there is no black mark: the white
    lines across the bleed (`bleed_cut_lines`) show the cut there."""
    x0, y0, x1, y1 = sheet.grid
    pad = sheet.bleed + CLEARANCE_MM * MM
    # the margins that hold the scale bar and the footer keep that band free of marks
    left_edge, bottom_edge, right_edge, top_edge = _furniture_free(sheet)
    xs, ys = sheet.cut_lines()
    lines = []

    def add(a: float, b: float, fixed: float, vertical: bool) -> None:
        start, end = (a, b) if a < b else (b, a)
        if end - start >= 1.5 * MM:  # a mark shorter than this is lost in the cut
            lines.append((fixed, start, fixed, end) if vertical else (start, fixed, end, fixed))

    for x in xs:
        add(y1 + pad, min(y1 + pad + length, top_edge), x, True)
        add(y0 - pad, max(y0 - pad - length, bottom_edge), x, True)
    for y in ys:
        add(x0 - pad, max(x0 - pad - length, left_edge), y, False)
        add(x1 + pad, min(x1 + pad + length, right_edge), y, False)
    return lines


def bleed_cut_lines(sheet: Sheet) -> list[tuple[float, float, float, float]]:
    """Thin white lines across the outer bleed along every cut line, so a cut shows on a black border."""
    if sheet.bleed <= 0:
        return []
    x0, y0, x1, y1 = sheet.grid
    b = sheet.bleed
    xs, ys = sheet.cut_lines()
    lines = [(x, y1, x, y1 + b) for x in xs] + [(x, y0, x, y0 - b) for x in xs]
    lines += [(x0, y, x0 - b, y) for y in ys] + [(x1, y, x1 + b, y) for y in ys]
    return lines


def full_cut_lines(sheet: Sheet) -> list[tuple[float, float, float, float]]:
    """`--cut-lines full`: every cut line across the printable area, stopping short of the bands that hold the
    scale bar and the footer."""
    left_edge, bottom_edge, right_edge, top_edge = _furniture_free(sheet)
    xs, ys = sheet.cut_lines()
    return [(x, bottom_edge, x, top_edge) for x in xs] + [(left_edge, y, right_edge, y) for y in ys]


def _furniture_free(sheet: Sheet) -> tuple[float, float, float, float]:
    """The printable area less the two bands of the scale bar and the footer."""
    left_edge, bottom_edge, right_edge, top_edge = printable(sheet)
    scale, footer = FURNITURE_MM * MM, FOOTER_MM * MM
    if furniture_on_sides(sheet):  # turned a quarter: the scale bar by the left edge, the footer by the right
        return left_edge + scale, bottom_edge, right_edge - footer, top_edge
    return left_edge, bottom_edge + footer, right_edge, top_edge - scale
