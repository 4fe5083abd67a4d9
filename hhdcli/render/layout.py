"""Sheet geometry for true-to-size proxies: paper, the card grid, crop marks (pure functions, in points)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hhdcli.errors import InputError

MM = 72 / 25.4  # points per millimetre
CARD_W_MM, CARD_H_MM = 63.0, 88.0
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "legal": (215.9, 355.6)}
MIN_MARGIN_MM = 5.0  # room for crop marks, the scale bar and the footer


PAPER_RANGE_MM = (70.0, 1200.0)  # one card's side up to A0's long side: what a printer or plotter takes
MAX_BACK_OFFSET_MM = 20.0  # duplex printers misalign by a few millimetres, never by centimetres


def parse_paper(text: str) -> tuple[float, float]:
    """a4, letter, a3, legal, or WxHmm such as 210x297mm → (width, height) in mm."""
    key = text.strip().lower()
    if key in PAPERS_MM:
        return PAPERS_MM[key]
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm)?", key)
    if not match:
        raise InputError(f"--paper {text!r} is not a paper size", "use a4, letter, a3, legal or WxHmm like 210x297mm")
    size = float(match[1]), float(match[2])
    low, high = PAPER_RANGE_MM
    if not all(low <= side <= high for side in size):
        raise InputError(f"--paper {text!r}: each side must be {low:g} to {high:g} mm", "for example 210x297mm")
    return size


def parse_offset(text: str) -> tuple[float, float]:
    match = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*", text or "0,0")
    if not match:
        raise InputError(f"--back-offset {text!r} is not X,Y in mm", "for example --back-offset 0.5,-1")
    offset = float(match[1]), float(match[2])
    if any(abs(v) > MAX_BACK_OFFSET_MM for v in offset):
        raise InputError(f"--back-offset {text!r}: at most {MAX_BACK_OFFSET_MM:g} mm each way",
                         "measure the calibration sheet again: duplex errors are a few millimetres")
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


def make_sheet(paper_mm: tuple[float, float], gap_mm: float = 0.0, bleed_mm: float = 0.0,
               max_cols: int = 3, max_rows: int = 3) -> Sheet:
    """Up to 3 x 3 cards, centred; bleed needs room between cards, so the gap grows to twice the bleed."""
    gap_mm = max(gap_mm, 2 * bleed_mm)
    usable_w = paper_mm[0] - 2 * MIN_MARGIN_MM + gap_mm
    usable_h = paper_mm[1] - 2 * MIN_MARGIN_MM + gap_mm
    cols = min(max_cols, int(usable_w // (CARD_W_MM + gap_mm)))
    rows = min(max_rows, int(usable_h // (CARD_H_MM + gap_mm)))
    if cols < 1 or rows < 1:
        raise InputError(f"a {CARD_W_MM:g} x {CARD_H_MM:g} mm card does not fit on {paper_mm[0]:g} x {paper_mm[1]:g} mm paper",
                         "choose a larger --paper or a smaller --gap/--bleed")
    grid_w = cols * CARD_W_MM + (cols - 1) * gap_mm
    grid_h = rows * CARD_H_MM + (rows - 1) * gap_mm
    left = (paper_mm[0] - grid_w) / 2
    top = paper_mm[1] - (paper_mm[1] - grid_h) / 2
    return Sheet(paper_mm[0] * MM, paper_mm[1] * MM, cols, rows, gap_mm * MM, bleed_mm * MM, left * MM, top * MM)


FURNITURE_MM = 7.0  # a printer's unprintable edge plus one line of footer text


def furniture_on_sides(sheet: Sheet) -> bool:
    """The scale bar and footer go in the top/bottom margins, unless the side margins have more room."""
    x0, y0, _, _ = sheet.grid
    vertical, side = y0 - sheet.bleed, x0 - sheet.bleed
    return vertical < 12 * MM and side > vertical


def crop_marks(sheet: Sheet, length: float = 5 * MM, clearance: float = 1 * MM) -> list[tuple[float, float, float, float]]:
    """Line segments on every cut line, in the margins only: never over a card, its bleed or the footer."""
    x0, y0, x1, y1 = sheet.grid
    pad = sheet.bleed + clearance
    sides = furniture_on_sides(sheet)

    def reach(margin: float, furniture: bool) -> float:
        room = margin - pad - (FURNITURE_MM * MM if furniture else 0)
        return max(1.5 * MM, min(length, room))

    up, down = reach(sheet.page_h - y1, not sides), reach(y0, not sides)
    left, right = reach(x0, sides), reach(sheet.page_w - x1, sides)
    xs, ys = sheet.cut_lines()
    lines = []
    for x in xs:
        lines.append((x, y1 + pad, x, y1 + pad + up))
        lines.append((x, y0 - pad, x, y0 - pad - down))
    for y in ys:
        lines.append((x0 - pad, y, x0 - pad - left, y))
        lines.append((x1 + pad, y, x1 + pad + right, y))
    return lines
