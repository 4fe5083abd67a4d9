"""The rules quick reference as PDF (ReportLab): the sheet on at most two A4 pages, in the largest text that fits,
then, for a booklet, the library's cards with their rulings."""

from __future__ import annotations

from functools import partial
from html import escape as html_escape

from hhdcli.mana import SymbolTable
from hhdcli.render.documents.rules import LibraryRulings, RuledCard
from hhdcli.render.draw.fonts import Fonts, load_fonts, safe_text
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.draw.symbols import cost_symbols, draw_symbols, inline_markup, symbols_width
from hhdcli.render.plan.sheet import A4, MM
from hhdcli.render.texts import example_intro, examples, labels, rules_sections

# &, < and > for ReportLab's paragraph markup, as xml.sax.saxutils.escape does (whose import pulls in urllib,
# HTTP and SSL: 30 ms)
escape = partial(html_escape, quote=False)


def _markup(fonts: Fonts, text: str, bold: bool = False) -> str:
    """Text for a Paragraph: escaped, and made safe for the font (a letter it lacks is a "?")."""
    return escape(safe_text(fonts, text, bold=bold))

PAGE = A4
MARGIN = 16 * MM


def _cost_flowable(cost: str, symbols: SymbolTable, fonts: Fonts, size: float):
    from reportlab.platypus import Flowable

    class Cost(Flowable):
        """A mana cost drawn with the same symbols as the proxies."""

        def wrap(self, avail_w, avail_h):
            self.symbols = cost_symbols(cost)
            return symbols_width(self.symbols, size, symbols, self.canv, fonts), size * 1.2

        def draw(self):
            draw_symbols(self.canv, 0, size * 0.6, self.symbols, size, symbol_table=symbols, fonts=fonts)

    return Cost()


def _examples(lang: str, symbols: SymbolTable, fonts: Fonts, size: float, style):
    """The worked example as a two-column table: the cost on real symbols, then the verdict and why."""
    from reportlab.platypus import Paragraph, Table, TableStyle

    rows = [[_cost_flowable(e.cost, symbols, fonts, size * 1.1),
             Paragraph(f"<b>{_markup(fonts, f'{e.name} → {e.verdict}', bold=True)}</b>"
                       f"{_markup(fonts, ' — ')}{inline_markup(e.why, symbols, fonts)}", style)]
            for e in examples(lang)]
    table_flowable = Table(rows, colWidths=[42 * MM, None], hAlign="LEFT")
    # a table's own font is Helvetica unless told: a font the PDF would name without embedding it
    table_flowable.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), fonts.regular),
                                        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                        ("BOTTOMPADDING", (0, 0), (-1, -1), 2), ("TOPPADDING", (0, 0), (-1, -1), 2)]))
    return table_flowable


def _bold_family(fonts: Fonts) -> None:
    """Let <b> in paragraphs find our bold face."""
    from reportlab.lib.fonts import addMapping

    addMapping(fonts.regular, 0, 0, fonts.regular)
    addMapping(fonts.regular, 1, 0, fonts.bold)
    addMapping(fonts.regular, 0, 1, fonts.italic)
    addMapping(fonts.regular, 1, 1, fonts.bold)


def _heading_style(name: str, fonts: Fonts, size: float):
    """A section heading of the sheet and of the booklet's card pages: bold, a fifth larger than the body."""
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle(name, fontName=fonts.bold, fontSize=size * 1.2, leading=size * 1.5, spaceBefore=size * 0.8,
                          spaceAfter=size * 0.2, keepWithNext=1)


def _page_frame():
    """The A4 page inside its margins, with no padding of the frame's own: each page of the sheet and the booklet."""
    from reportlab.platypus import Frame

    return Frame(MARGIN, MARGIN, PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN, leftPadding=0, rightPadding=0,
                 topPadding=0, bottomPadding=0)


def _story(lang: str, symbols: SymbolTable, fonts: Fonts, size: float, width: float) -> list:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Spacer

    title = ParagraphStyle("t", fontName=fonts.bold, fontSize=size * 1.8, leading=size * 2.2, spaceAfter=size * 0.6)
    heading = _heading_style("h", fonts, size)
    body = ParagraphStyle("b", fontName=fonts.regular, fontSize=size, leading=size * 1.3, spaceAfter=size * 0.35)
    _bold_family(fonts)
    story: list[Flowable] = [Paragraph(_markup(fonts, labels(lang)["rules_title"], bold=True), title)]
    for section in rules_sections(lang):
        title_line = Paragraph(_markup(fonts, section.heading, bold=True), heading)
        paragraphs = [Paragraph(inline_markup(p, symbols, fonts), body) for p in section.paragraphs]
        # a heading never ends a page: a frame ignores keepWithNext, so the page ends before it when the
        # heading and its first paragraph do not both fit
        story.append(CondPageBreak(_story_height([title_line, *paragraphs[:1]], width)))
        story.append(title_line)
        story.extend(paragraphs)
        if section.examples:  # the take rule: show it on real symbols
            story.append(Paragraph(_markup(fonts, example_intro(lang)), body))
            story.append(_examples(lang, symbols, fonts, size, body))
            story.append(Spacer(1, size * 0.3))
    return story


MAX_PAGES = 2  # one sheet, printed on both sides
MIN_SIZE = 7.5  # points: the smallest body text a player reads at the table (the footnotes of a rulebook)


def _story_height(story: list, width: float) -> float:
    total = 0.0
    for flowable in story:
        _, height = flowable.wrap(width, 10_000)
        total += height + flowable.getSpaceBefore() + flowable.getSpaceAfter()
    return total


def draw_rules_pages(canvas, lang: str, symbols: SymbolTable, fonts: Fonts) -> None:
    """The rules on two A4 pages (one sheet, both sides), in the largest text that fits: the story flows from
    the first page's frame into the second's."""
    width, height = PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN
    size = 11.0
    story = _story(lang, symbols, fonts, size, width)
    # a page break wastes up to a paragraph: leave a tenth of the last page for it
    while size > MIN_SIZE and _story_height(story, width) > (MAX_PAGES - 0.1) * height:
        size -= 0.25
        story = _story(lang, symbols, fonts, size, width)
    _flow(canvas, story)  # two pages, unless even MIN_SIZE needs more: a third then, rather than lose the end


def _flow(canvas, story: list) -> None:
    """The story on as many pages as it needs, each a margin-to-margin frame."""
    while story:
        left = len(story)
        _page_frame().addFromList(story, canvas)
        canvas.showPage()
        if len(story) == left:  # nothing fitted on a whole page (cannot happen with paragraphs): stop, not loop
            break


def rules_pdf(lang: str, symbols: SymbolTable, font: str | None = None, library: LibraryRulings | None = None) -> bytes:
    """The rules sheet; with a library's section, the booklet: the sheet, then the library's cards."""
    fonts = load_fonts(font)

    def draw(canvas) -> None:
        draw_rules_pages(canvas, lang, symbols, fonts)
        if library is not None:
            draw_library_pages(canvas, library, fonts)

    return make_pdf(PAGE, labels(lang)["rules_title"], draw)


def _library_story(section: LibraryRulings, fonts: Fonts, size: float) -> list:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    def line(card: RuledCard) -> str:
        ids = ", ".join(card.ids)
        out = f"<b>{_markup(fonts, card.name, bold=True)}</b>{'*' if card.guessed else ''}"
        out += f" — {_markup(fonts, ids)}" if ids else ""  # the rulings' names, in the reader's language
        return out + (f". {_markup(fonts, card.clarification)}" if card.clarification else "")

    title = ParagraphStyle("lt", fontName=fonts.bold, fontSize=size * 1.6, leading=size * 2, spaceAfter=size * 0.5)
    heading = _heading_style("lh", fonts, size)
    body = ParagraphStyle("lb", fontName=fonts.regular, fontSize=size, leading=size * 1.3, spaceAfter=size * 0.3)
    story = [Paragraph(_markup(fonts, section.title, bold=True), title),
             Paragraph(_markup(fonts, section.count), body)]
    story += [Paragraph(line(card), body) for card in section.cards]
    if section.guessed:
        story.append(Paragraph(_markup(fonts, section.guessed), body))
    if section.rulings:
        story.append(Paragraph(_markup(fonts, section.rulings_heading, bold=True), heading))
        story += [Paragraph(f"<b>{_markup(fonts, i, bold=True)}</b> — {_markup(fonts, t)}", body)
                  for i, t in section.rulings]
    return story


def draw_library_pages(canvas, section: LibraryRulings, fonts: Fonts) -> None:
    """The library's cards after the rules sheet, on as many pages as they need (a new sheet: the rules stay
    one sheet of their own)."""
    _bold_family(fonts)
    _flow(canvas, _library_story(section, fonts, 9.5))
