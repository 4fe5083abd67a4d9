"""The red-sleeve checklist as PDF: two columns on A4, drawn with ReportLab (kept apart from the checklist
itself, which the HTML and Markdown forms print without loading ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

from hhdcli.mana import SymbolTable
from hhdcli.render.documents.checklist import Checklist, Line
from hhdcli.render.draw.fonts import Fonts, load_fonts, safe_text, shorten, wrap_words
from hhdcli.render.draw.palette import FRAME
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.draw.symbols import cost_symbols, draw_symbols, symbols_width
from hhdcli.render.plan.sheet import A4, MM

PAGE = A4
MARGIN = 12 * MM
COLUMN_GAP = 6 * MM
LINE = 11.0  # points per checklist line
BOX = 6.5  # a tick box's side, points
BOX_PITCH = BOX + 1.5
BOXES_A_ROW = 10  # a basic's further copies tick boxes in rows below: 50 Forests in one row ran off the page
FONT_SIZE = 8.5


@dataclass
class _Cursor:
    page: int = 1
    column: int = 0
    y: float = 0.0
    top: float = 0.0  # where columns start on this page (below the header)


def checklist_pdf(checklist: Checklist, symbols: SymbolTable, font: str | None = None,
                  rules_lang: str | None = None) -> bytes:
    """Two columns on A4; headings never end a column alone; the total closes the list."""
    fonts = load_fonts(font)
    return make_pdf(PAGE, checklist.title, lambda canvas: _draw_checklist(canvas, checklist, symbols, fonts, rules_lang))


def _draw_checklist(canvas, checklist: Checklist, symbols: SymbolTable, fonts: Fonts, rules_lang: str | None) -> None:
    cursor = _Cursor()
    cursor.y = cursor.top = _page_header(canvas, checklist, fonts, first=True)
    column_w = (PAGE[0] - 2 * MARGIN - COLUMN_GAP) / 2
    for group in checklist.groups:
        _advance(canvas, checklist, fonts, cursor, need=LINE * 3)
        _heading(canvas, fonts, cursor, column_w, f"{group.heading} ({group.count})")
        for line in group.lines:
            _advance(canvas, checklist, fonts, cursor, need=_line_height(line))
            _line(canvas, fonts, symbols, cursor, column_w, line)
    _advance(canvas, checklist, fonts, cursor, need=LINE * 2)
    canvas.setFont(fonts.bold, 10)
    canvas.drawString(_x(cursor, column_w), cursor.y - LINE, safe_text(
        fonts, checklist.total_text, bold=True))

    if checklist.has_rulings:  # the legend, wrapped to the column rather than running past it
        cursor.y -= LINE
        canvas.setFont(fonts.regular, 8)
        for text in wrap_words(canvas, safe_text(fonts, checklist.labels["hell_legend"]), fonts.regular, 8, column_w):
            _advance(canvas, checklist, fonts, cursor, need=LINE * 2)
            canvas.drawString(_x(cursor, column_w), cursor.y - LINE, text)
            cursor.y -= LINE * 0.9
    if checklist.tokens:  # under the cards: the tokens to bring, each with the cards that make it
        cursor.y -= LINE * 0.5
        _advance(canvas, checklist, fonts, cursor, need=LINE * 3)
        _heading(canvas, fonts, cursor, column_w, f"{checklist.tokens.heading} ({checklist.tokens.count})")
        for line in checklist.tokens.lines:
            _advance(canvas, checklist, fonts, cursor, need=_line_height(line))
            _line(canvas, fonts, symbols, cursor, column_w, line)
    _page_footer(canvas, fonts, checklist, cursor.page)
    canvas.showPage()
    if rules_lang:
        from hhdcli.render.documents.rules_pdf import draw_rules_pages

        draw_rules_pages(canvas, rules_lang, symbols, fonts)


def _x(cursor: _Cursor, column_w: float) -> float:
    return MARGIN + cursor.column * (column_w + COLUMN_GAP)


def _advance(canvas, checklist: Checklist, fonts: Fonts, cursor: _Cursor, need: float) -> None:
    if cursor.y - need >= MARGIN + 8 * MM:
        return
    if cursor.column == 0:
        cursor.column, cursor.y = 1, cursor.top
        return
    _page_footer(canvas, fonts, checklist, cursor.page)
    canvas.showPage()
    cursor.page += 1
    cursor.column = 0
    cursor.y = cursor.top = _page_header(canvas, checklist, fonts, first=False)


def _page_header(canvas, checklist: Checklist, fonts: Fonts, first: bool) -> float:
    y = PAGE[1] - MARGIN
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(fonts.bold, 15 if first else 11)
    canvas.drawString(MARGIN, y - 12, safe_text(fonts, checklist.title, bold=True))
    y -= 20
    canvas.setFont(fonts.regular, 8.5)
    info = "   ·   ".join(f"{k}: {v}" for k, v in checklist.header)
    canvas.drawString(MARGIN, y - 8, safe_text(fonts, info))
    y -= 12
    if first:
        canvas.setFont(fonts.italic, 8.5)
        canvas.drawString(MARGIN, y - 8, safe_text(fonts, checklist.subtitle))
        y -= 12
    canvas.setLineWidth(0.6)
    canvas.line(MARGIN, y - 3, PAGE[0] - MARGIN, y - 3)
    return y - 8


def _page_footer(canvas, fonts: Fonts, checklist: Checklist, page: int) -> None:
    canvas.setFont(fonts.regular, 7)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawRightString(PAGE[0] - MARGIN, MARGIN - 4, safe_text(
        fonts, f"{checklist.title} · {checklist.header[0][1]} · " + checklist.labels["page"].format(number=page)))
    canvas.setFillColorRGB(0, 0, 0)


def _heading(canvas, fonts: Fonts, cursor: _Cursor, column_w: float, text: str) -> None:
    x = _x(cursor, column_w)
    cursor.y -= LINE + 2
    canvas.setFont(fonts.bold, 9.5)
    canvas.drawString(x, cursor.y + 2, safe_text(fonts, text, bold=True))
    canvas.setLineWidth(0.4)
    canvas.line(x, cursor.y, x + column_w, cursor.y)
    cursor.y -= 1


def _cost(canvas, fonts: Fonts, symbol_table: SymbolTable, cost: str, right: float, y: float, size: float) -> float:
    """A card's cost ending at `right`, each face's symbols apart with "//" between (split cards); its width."""
    faces = [cost_symbols(part) for part in cost.split(" // ")] if cost else []
    widths = [symbols_width(symbols, size, symbol_table, canvas, fonts) if symbols else 0.0 for symbols in faces]
    slash = canvas.stringWidth(" // ", fonts.regular, size)
    total = sum(widths) + slash * (len(faces) - 1)
    x = right - total
    for i, (symbols, width) in enumerate(zip(faces, widths, strict=True)):
        if i:
            canvas.setFillColorRGB(0, 0, 0)
            canvas.setFont(fonts.regular, size)
            canvas.drawString(x, y - size * 0.35, " // ")
            x += slash
        if symbols:
            draw_symbols(canvas, x, y, symbols, size, symbol_table=symbol_table, fonts=fonts)
        x += width
    return total


def _box_rows(line: Line) -> int:
    return -(-max(1, line.boxes) // BOXES_A_ROW)


def _line_height(line: Line) -> float:
    return LINE + (_box_rows(line) - 1) * BOX_PITCH


def _line(canvas, fonts: Fonts, symbols: SymbolTable, cursor: _Cursor, column_w: float, line: Line) -> None:
    x = _x(cursor, column_w)
    cursor.y -= LINE
    base = cursor.y + 3
    canvas.setLineWidth(0.6)
    canvas.setStrokeColorRGB(0, 0, 0)
    for i in range(line.boxes):
        row, column = divmod(i, BOXES_A_ROW)
        canvas.rect(x + column * BOX_PITCH, base - 1 - row * BOX_PITCH, BOX, BOX, stroke=1, fill=0)
    x += min(max(1, line.boxes), BOXES_A_ROW) * BOX_PITCH + 2
    canvas.setFillColorRGB(*FRAME[line.frame])
    canvas.circle(x + 2.5, base + 2.2, 2.3, stroke=1, fill=1)  # the color group at a glance
    x += 8
    size = 8.5  # hybrid letters stay at 6 pt or more
    right = _x(cursor, column_w) + column_w
    cost_w = _cost(canvas, fonts, symbols, line.cost, right, base + 2.2, size)
    label = line.name + (f" ×{line.boxes}" if line.boxes > 1 else "") + (" ⚑" if line.hell else "")
    room = right - cost_w - 4 - x
    name = shorten(safe_text(fonts, label), fonts.regular, FONT_SIZE, room)  # the name first; the type line gets the rest
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(fonts.regular, FONT_SIZE)
    canvas.drawString(x, base, name)
    used = canvas.stringWidth(name, fonts.regular, FONT_SIZE) + 5
    kind = shorten(safe_text(fonts, line.type_line), fonts.regular, 8, room - used)
    canvas.setFillColorRGB(0.38, 0.38, 0.38)
    canvas.setFont(fonts.regular, 8)
    canvas.drawString(x + used, base, kind)
    canvas.setFillColorRGB(0, 0, 0)
    cursor.y -= _line_height(line) - LINE  # the rows of boxes below the first
