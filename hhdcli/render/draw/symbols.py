"""Mana symbols drawn with ReportLab: colored circles, hybrids as split circles, Phyrexian marked.

Shared by the proxy sheets and the checklist.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape as html_escape
from typing import TYPE_CHECKING

from hhdcli.colors import COLORS
from hhdcli.costs import SYMBOL, is_number, parse_cost
from hhdcli.mana import SymbolTable
from hhdcli.render.draw.fonts import safe_text

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from hhdcli.render.draw.fonts import Fonts

# Pale fills in the spirit of printed mana symbols; purple is a color of its own.
FILL = {
    "W": (0.97, 0.94, 0.78), "U": (0.65, 0.82, 0.94), "B": (0.60, 0.56, 0.55), "R": (0.94, 0.58, 0.48),
    "G": (0.58, 0.80, 0.60), "P": (0.76, 0.58, 0.90), "C": (0.82, 0.79, 0.78),
}
GAP = 0.12  # of a diameter, between symbols
MIN_LETTER = 6.0  # points: no letter on a card or a checklist is smaller
_DRAWN_AS = re.compile(r"Ph([WUBRGP])\.svg$")  # the registry draws {Pickle} as a green Phyrexian symbol
NOT_MANA_LABELS = {"T": "↷", "Q": "↶"}  # tap and untap, as arrows


@dataclass(frozen=True)
class Glyph:
    """How one symbol looks: one fill per option (wedges), the labels on them, a Phyrexian mark."""

    fills: tuple[tuple[float, float, float], ...]
    labels: tuple[str, ...]
    phyrexian: bool = False
    unknown: bool = False
    text: str = ""


def _part_fill(part: str, symbols: SymbolTable) -> tuple[float, float, float]:
    """A part's fill from the colors it needs ({Pickle} is grey, not purple because it starts with P)."""
    colors = symbols.part_colors(part)
    return FILL[next((c for c in COLORS if c in colors), "C")]


def glyph(symbol: str, symbols: SymbolTable) -> Glyph:
    requirement = symbols.requirement(symbol)
    if requirement.unknown:
        return Glyph((), (), unknown=True, text=symbol)
    parts = [p.strip() for p in symbol.split("/") if p.strip() and p.strip() != "H"] or [symbol]
    if is_number(symbol):  # {1/2} and {3} are numbers, not hybrids
        parts = [symbol]
    labels = tuple("Φ" if requirement.phyrexian and len(parts) == 1 else _short(p) for p in parts)
    fills = tuple(_part_fill(p, symbols) for p in parts)
    drawn_as = _DRAWN_AS.search(str((symbols.lookup(symbol) or {}).get("filename", "")))
    if drawn_as and len(parts) == 1:  # the registry's own picture of the symbol decides its color
        fills = (FILL[drawn_as.group(1)],)
    return Glyph(fills, labels, requirement.phyrexian)


def _short(part: str) -> str:
    if is_number(part) or (len(part) <= 2 and part.isalpha()):
        return part
    return part[:2]


def cost_symbols(cost: str) -> list[str]:
    parsed = parse_cost(cost)
    return list(parsed.symbols)


def _as_pill(g: Glyph, size: float) -> bool:
    """A hybrid too small for its letters inside a circle (at print size on a card or a checklist) is drawn
    as a pill with its options side by side, "U/B", each letter at 6 pt: legible, never overlapping."""
    return len(g.labels) > 1 and size * 0.42 < MIN_LETTER


def glyph_width(g: Glyph, size: float, canvas: Canvas | None, fonts: Fonts) -> float:
    """How wide a symbol is drawn (measured by the font alone: a flowable asks before it has a canvas)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if g.unknown:
        return stringWidth(_label(fonts, g.text, bold=False), fonts.regular, max(MIN_LETTER, size * 0.75)) + size * 0.5
    if _as_pill(g, size):
        return max(size, stringWidth(_label(fonts, label_text(g)), fonts.bold, MIN_LETTER) + size * 0.5)
    return size


def symbols_width(symbols: list[str], size: float, symbol_table: SymbolTable, canvas: Canvas, fonts: Fonts) -> float:
    widths = [glyph_width(glyph(s, symbol_table), size, canvas, fonts) for s in symbols]
    return sum(widths) + GAP * size * max(0, len(widths) - 1)


def draw_symbols(canvas: Canvas, x: float, y: float, symbols: list[str], size: float, *, symbol_table: SymbolTable,
                 fonts: Fonts) -> float:
    """Draw symbols left to right from (x, y = vertical centre); returns the width used."""
    start = x
    for symbol in symbols:
        g = glyph(symbol, symbol_table)
        width = glyph_width(g, size, canvas, fonts)
        _draw_glyph(canvas, g, x, y, size, width, fonts)
        x += width + GAP * size
    return x - start - (GAP * size if symbols else 0)


def _draw_glyph(canvas: Canvas, g: Glyph, x: float, y: float, size: float, width: float, fonts: Fonts) -> None:
    canvas.saveState()
    canvas.setLineWidth(max(0.3, size * 0.05))
    canvas.setStrokeColorRGB(0.1, 0.1, 0.1)
    if g.unknown:
        canvas.setFillColorRGB(1, 1, 1)
        canvas.roundRect(x, y - size / 2, width, size, size * 0.25, stroke=1, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(fonts.regular, max(MIN_LETTER, size * 0.75))
        canvas.drawCentredString(x + width / 2, y - size * 0.27, _label(fonts, g.text, bold=False))  # by its name
        canvas.restoreState()
        return
    r = size / 2
    cx = x + r
    if _as_pill(g, size):
        _draw_pill(canvas, g, x, y, size, width, fonts)
        canvas.restoreState()
        return
    if len(g.fills) == 1:
        canvas.setFillColorRGB(*g.fills[0])
        canvas.circle(cx, y, r, stroke=1, fill=1)
    else:
        _draw_wedges(canvas, cx, y, r, g.fills)
    canvas.setFillColorRGB(0.08, 0.08, 0.08)
    if len(g.labels) == 1:
        label = g.labels[0]
        font_size = max(MIN_LETTER, size * (0.72 if len(label) == 1 else 0.5 if len(label) == 2 else 0.36))
        canvas.setFont(fonts.bold, font_size)
        canvas.drawCentredString(cx, y - font_size * 0.36, _label(fonts, label))
    else:
        font_size = max(MIN_LETTER, size * 0.42)
        canvas.setFont(fonts.bold, font_size)
        for i, label in enumerate(g.labels):
            angle = math.pi * 3 / 4 - i * 2 * math.pi / len(g.labels)
            lx, ly = cx + math.cos(angle) * r * 0.45, y + math.sin(angle) * r * 0.45
            canvas.drawCentredString(lx, ly - font_size * 0.36, _label(fonts, label))
    if g.phyrexian and len(g.labels) > 1:
        canvas.setFont(fonts.bold, max(MIN_LETTER, size * 0.4))
        canvas.drawCentredString(cx + r * 0.75, y + r * 0.55, _label(fonts, "Φ"))
    canvas.restoreState()


def _draw_pill(canvas: Canvas, g: Glyph, x: float, y: float, size: float, width: float, fonts: Fonts) -> None:
    """A rounded box split into one band per option's color, the options written across it."""
    path = canvas.beginPath()
    path.roundRect(x, y - size / 2, width, size, size / 2)
    canvas.saveState()
    canvas.clipPath(path, stroke=0, fill=0)
    band = width / len(g.fills)
    for i, fill in enumerate(g.fills):
        canvas.setFillColorRGB(*fill)
        canvas.rect(x + i * band, y - size / 2, band + 0.1, size, stroke=0, fill=1)
    canvas.restoreState()
    canvas.roundRect(x, y - size / 2, width, size, size / 2, stroke=1, fill=0)
    canvas.setFillColorRGB(0.08, 0.08, 0.08)
    canvas.setFont(fonts.bold, MIN_LETTER)
    canvas.drawCentredString(x + width / 2, y - MIN_LETTER * 0.36, _label(fonts, label_text(g)))


def _label(fonts: Fonts, text: str, bold: bool = True) -> str:
    """A symbol's label as the font can draw it: a Latin-only --font has no Φ, and Phyrexian mana is written
    with a P in text ({W/P}); any other letter it lacks is a "?", never a missing-glyph box."""
    if "Φ" in text and not fonts.can_show("Φ", bold):
        text = text.replace("Φ", "P")
    return safe_text(fonts, text, bold)


def _draw_wedges(canvas: Canvas, cx: float, cy: float, r: float, fills) -> None:
    """A circle split into equal wedges, the first at the upper left (like printed hybrid symbols)."""
    step = 360 / len(fills)
    start = 45.0 if len(fills) == 2 else 90.0
    for i, fill in enumerate(fills):
        canvas.setFillColorRGB(*fill)
        path = canvas.beginPath()
        path.moveTo(cx, cy)
        # ReportLab takes float angles; its stubs say int
        path.arcTo(cx - r, cy - r, cx + r, cy + r, startAng=start + i * step, extent=step)  # type: ignore[arg-type]
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.circle(cx, cy, r, stroke=1, fill=0)


def css_color(rgb: tuple[float, float, float]) -> str:
    red, green, blue = (round(v * 255) for v in rgb)
    return f"#{red:02x}{green:02x}{blue:02x}"


def cost_html(cost: str, symbols: SymbolTable) -> str:
    """A cost as small colored circles in HTML (escaped); hybrids as split circles via a gradient."""
    out: list[str] = []
    for face_cost in cost.split(" // "):
        if out:
            out.append('<span class="ms-sep">//</span>')
        parsed = parse_cost(face_cost)
        if parsed.stray:
            continue
        for symbol in parsed.symbols:
            g = glyph(symbol, symbols)
            if g.unknown:
                out.append(f'<span class="ms ms-unknown">{{{html_escape(g.text)}}}</span>')
                continue
            out.append(f'<span class="ms" style="background: {css_background(g)}" '
                       f'title="{{{html_escape(symbol, quote=True)}}}">{html_escape(label_text(g))}</span>')
    return "".join(out)


def css_background(g: Glyph) -> str:
    """A symbol's fill as a CSS background: one color, or a hybrid's options side by side (a split circle)."""
    if len(g.fills) == 1:
        return css_color(g.fills[0])
    step = 100 / len(g.fills)
    stops = ", ".join(f"{css_color(f)} {i * step:.0f}% {(i + 1) * step:.0f}%" for i, f in enumerate(g.fills))
    return f"linear-gradient(135deg, {stops})"


def label_text(g: Glyph) -> str:
    """The letters on a symbol, in a PDF or HTML: a hybrid's options as `W/U`."""
    return "/".join(g.labels)


def inline_markup(text: str, symbols: SymbolTable, fonts: Fonts) -> str:
    """Rules text as Paragraph markup: every `{…}` a small colored chip with its letters (hybrids `W/U`,
    Phyrexian `Φ`, tap `↷`), never braces; the rest escaped; line breaks kept."""


    lines = []
    for line in text.splitlines():
        out, position = [], 0
        for found in SYMBOL.finditer(line):
            out.append(_plain(line[position:found.start()], fonts))
            out.append(_chip(found.group(1).strip(), symbols, fonts))
            position = found.end()
        out.append(_plain(line[position:], fonts))
        lines.append("".join(out))
    return "<br/>".join(lines)


def _plain(text: str, fonts: Fonts) -> str:
    """Text between symbols; a brace left over from a symbol typed without its mate (registry dirt such as
    "({H/B can be paid…") is dropped: braces only ever delimit symbols."""
    return html_escape(safe_text(fonts, text.replace("{", "").replace("}", "")))


def chip_label(symbol: str, symbols: SymbolTable, fonts: Fonts) -> tuple[str, tuple[float, float, float]]:
    """A symbol inside rules text as a chip: its letters (hybrids `W/U`, Phyrexian `Φ`, tap `↷`), and its fill."""
    if symbol in symbols.not_mana or symbol.upper() in NOT_MANA_LABELS:
        arrow = NOT_MANA_LABELS.get(symbol.upper(), symbol)
        label, fill = (arrow if fonts.can_show(arrow, bold=True) else symbol), FILL["C"]
    else:
        g = glyph(symbol, symbols)
        label = g.text if g.unknown else label_text(g)
        fill = g.fills[0] if g.fills else (1.0, 1.0, 1.0)
    return _label(fonts, label), fill


def _chip(symbol: str, symbols: SymbolTable, fonts: Fonts) -> str:
    label, fill = chip_label(symbol, symbols, fonts)
    return f'<font name="{fonts.bold}" backColor="{css_color(fill)}">\u00a0{html_escape(label)}\u00a0</font>'
