"""Proxy sheets: true-to-size 63 x 88 mm cards, crop marks, a scale bar, optional red duplex backs."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from hhdcli.cards import Card, Face
from hhdcli.errors import CacheError
from hhdcli.i18n import N_, _, ngettext
from hhdcli.render.fonts import Fonts, load_fonts, safe_text, shorten, wrap_words
from hhdcli.render.images import BOMB, NOT_AN_IMAGE, TOO_LARGE, Fetching, ImageResult, ImageStore
from hhdcli.render.layout import (
    MM,
    Sheet,
    bleed_cut_lines,
    crop_marks,
    full_cut_lines,
    furniture_on_sides,
    ink,
    make_sheet,
    printable,
)
from hhdcli.render.pdf import make_pdf
from hhdcli.render.splice import SpliceError, StandIns, splice

if TYPE_CHECKING:
    from hhdcli.mana import SymbolTable
    from hhdcli.render.cardface import Painter, Slot, TextLayouts


@dataclass(frozen=True, kw_only=True)
class ProxyOptions:
    """How proxy sheets are laid out (how images are fetched: hhdcli.workflows.ImageOptions)."""

    paper_mm: tuple[float, float] = (210.0, 297.0)
    gap_mm: float = 0.0
    bleed_mm: float = 0.0
    text_only: bool = False
    skip_basics: bool = False
    backs: bool = False
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    font: str | None = None
    title: str = ""  # e.g. "Hell library 'ember-tide-42'", shown in every footer
    margin_mm: float = 5.0  # nothing within this of the paper's edge
    cut_lines: str = "corners"  # or "full": lines across the whole sheet


NO_REGISTRY_IMAGE = N_("no image in the registry")  # reasons are msgids: compared as they are, shown translated


@dataclass(frozen=True)
class Proxy:
    """One physical proxy: a card, and the image to print for it (None: drawn from the card data). A card
    whose every word does not fit one card continues on more: `faces` holds this proxy's, `part` (2, 2)."""

    card: Card
    image_url: str | None = None
    faces: tuple[Face, ...] | None = None
    part: tuple[int, int] = (1, 1)


@dataclass
class ProxyReport:
    pages: int = 0
    proxies: int = 0
    images: int = 0
    text: int = 0  # drawn from card data, basics included
    basics: int = 0
    fallbacks: dict[str, str] = field(default_factory=dict)  # card name → why no image
    size_bytes: int = 0
    missing_glyphs: dict[str, str] = field(default_factory=dict)  # card name → characters printed as "?"
    landscape: bool = False  # turned pages: for duplex backs, flip on the short edge

    def sources(self) -> str:
        """Where the faces came from: "23 basics, 74 from card data (images unreachable)", no "0 from 0 images"."""
        parts = [ngettext("{n} basic", "{n} basics", self.basics).format(n=self.basics)] if self.basics else []
        if self.proxies > self.text:
            parts.append(ngettext("{n} from {images}", "{n} from {images}", self.proxies - self.text).format(
                n=self.proxies - self.text,
                images=ngettext("{n} image", "{n} images", self.images).format(n=self.images)))
        drawn = self.text - self.basics
        if drawn:
            reasons = set(self.fallbacks.values())
            unreachable = self.images == 0 and reasons and not reasons & {NO_REGISTRY_IMAGE, NOT_AN_IMAGE, BOMB, TOO_LARGE}
            parts.append((ngettext("{n} from card data (images unreachable)", "{n} from card data (images "
                                   "unreachable)", drawn) if unreachable else
                          ngettext("{n} from card data", "{n} from card data", drawn)).format(n=drawn))
        return ", ".join(parts)


def plan(cards: Sequence[Card], options: ProxyOptions) -> list[Proxy]:
    """Every face with its own image becomes its own proxy; basics are drawn unless skipped."""
    proxies: list[Proxy] = []
    for card in cards:
        if card.is_basic:
            if not options.skip_basics:
                proxies.append(Proxy(card))
            continue
        images = () if options.text_only else card.print_images
        proxies.extend(Proxy(card, url) for url in images) if images else proxies.append(Proxy(card))
    return proxies


def resolve_images(proxies: list[Proxy], results: dict[str, ImageResult], report: ProxyReport) -> list[Proxy]:
    """Proxies whose image failed become one text proxy per card; the reason goes in the report."""
    out: list[Proxy] = []
    for proxy in proxies:
        if proxy.image_url is None:
            out.append(proxy)
            continue
        result = results.get(proxy.image_url)
        if result and result.path:
            out.append(proxy)
        elif proxy.card.name not in report.fallbacks:
            report.fallbacks[proxy.card.name] = (result.error if result else None) or N_("no image")
            out.append(Proxy(proxy.card))
    return out


@dataclass
class ProxyPdf:
    """The proxy sheets laid out, waiting to be written: the pages around stand-ins for the scans, and the
    scans' files, copied in as the PDF is written (see splice.py)."""

    layout: bytes
    scans: list[Path]
    report: ProxyReport

    def write(self, out: BinaryIO) -> int:
        """Write the finished PDF to `out`, a scan at a time; its size in bytes (also in the report)."""
        try:
            self.report.size_bytes = splice(self.layout, self.scans, out)
        except SpliceError as exc:  # a cached scan changed or broke between fetching and writing
            raise CacheError(_("an image in the cache is damaged: {exc}").format(exc=exc),
                             _("run hhd cache clean, then hhd proxies again")) from exc
        return self.report.size_bytes


def render_proxies(cards: Sequence[Card], symbols: SymbolTable, options: ProxyOptions,
                   store: ImageStore | None = None, progress: Callable[[], None] | None = None
                   ) -> tuple[bytes, ProxyReport]:
    """The PDF bytes and what went into them (in memory: the command line writes a `lay_out` to a file)."""
    laid = lay_out(cards, symbols, options, store, progress)
    out = io.BytesIO()
    laid.write(out)
    return out.getvalue(), laid.report


def lay_out(cards: Sequence[Card], symbols: SymbolTable, options: ProxyOptions,
            store: ImageStore | None = None, progress: Callable[[], None] | None = None) -> ProxyPdf:
    """Fetch the images and lay out every page; nothing is written yet. The pages are laid out while the
    images download, as if every image will arrive (each one's place in the cache is known before it is
    there); if one does not, its card becomes a text proxy and the pages are laid out again."""
    proxies = plan(cards, options)
    urls = [p.image_url for p in proxies if p.image_url]
    if not store or not urls:
        return _laid_out(proxies, {}, symbols, options)
    cached, missing = store.look_up(urls, progress)
    if not missing:
        return _laid_out(proxies, {r.url: r for r in cached}, symbols, options)
    hoped = {url: ImageResult(url, store.print_path(url)) for url in urls}
    from hhdcli.render.aside import Aside  # a cold run's: forked before any download thread starts

    with ExitStack() as ending:  # whatever fails, the downloads and the child are stopped
        pages = Aside(lambda: [_laid_out(proxies, hoped, symbols, options)])
        ending.callback(pages.close)
        fetching = Fetching(store, cached, missing, progress)
        ending.callback(fetching.cancel)
        laid = next(pages.items(), None)
        pages.close()  # reaped as soon as it has answered
        laid = laid or _laid_out(proxies, hoped, symbols, options)  # no child, or it failed: laid out here
        results = fetching.wait()
    if all(results[url].path == hoped[url].path for url in urls):
        return laid
    return _laid_out(proxies, results, symbols, options)


def _laid_out(planned: list[Proxy], results: dict[str, ImageResult], symbols: SymbolTable,
              options: ProxyOptions) -> ProxyPdf:
    report = ProxyReport()
    proxies = resolve_images(planned, results, report)
    if not options.text_only:
        for proxy in proxies:
            if proxy.image_url is None and not proxy.card.is_basic and proxy.card.name not in report.fallbacks:
                report.fallbacks[proxy.card.name] = NO_REGISTRY_IMAGE
    images = {p.image_url: str(results[p.image_url].path) for p in proxies if p.image_url}
    sheet = make_sheet(options.paper_mm, options.gap_mm, options.bleed_mm, options.margin_mm)
    fonts = load_fonts(options.font)
    texts = None
    if _painted(proxies, options):  # cards drawn from their data (a sheet of scans never loads the painter)
        from hhdcli.render.cardface import Painter, Slot

        measure = Painter(cast(Any, None), fonts, symbols)  # measuring text needs no canvas
        proxies = continued(proxies, measure, Slot(0, 0, sheet.card_w, sheet.card_h))
        texts = measure.texts
    painter_missing: dict[str, set[str]] = {}
    stand_ins = StandIns()
    layout = _draw(proxies, images, sheet, symbols, fonts, options, painter_missing, texts, stand_ins)
    report.missing_glyphs = {name: "".join(sorted(chars)) for name, chars in painter_missing.items()}
    report.pages = -(-len(proxies) // sheet.per_page) * (2 if options.backs else 1)
    report.landscape = sheet.page_w > sheet.page_h
    report.proxies = len(proxies)
    report.images = len(set(images.values()))
    report.text = sum(1 for p in proxies if p.image_url is None)
    report.basics = sum(1 for p in proxies if p.card.is_basic)
    return ProxyPdf(layout, stand_ins.paths, report)


def _painted(proxies: list[Proxy], options: ProxyOptions) -> bool:
    """Whether any face is drawn rather than scanned (text proxies, basics, red backs)."""
    return options.backs or any(p.image_url is None for p in proxies)


def continued(proxies: list[Proxy], measure: Painter, slot: Slot) -> list[Proxy]:
    """Text proxies whose words do not all fit one card at 6 pt become two or more (1/2, 2/2), sleeved
    together; nothing is cut."""
    out: list[Proxy] = []
    for proxy in proxies:
        if proxy.image_url is not None or proxy.card.is_basic:
            out.append(proxy)
            continue
        parts = measure.parts(proxy.card, slot)
        out.extend(Proxy(proxy.card, None, faces, (i, len(parts))) for i, faces in enumerate(parts, start=1))
    return out


def _draw(proxies: list[Proxy], images: dict[str, str], sheet: Sheet, symbols: SymbolTable, fonts: Fonts,
          options: ProxyOptions, missing: dict[str, set[str]], texts: TextLayouts | None,
          stand_ins: StandIns) -> bytes:
    return make_pdf((sheet.page_w, sheet.page_h), options.title or _("Hell's Half-Draft proxies"),
                    lambda canvas: _draw_pages(canvas, proxies, images, sheet, symbols, fonts, options, missing,
                                               texts, stand_ins),
                    print_at_actual_size=True)


def _draw_pages(canvas, proxies: list[Proxy], images: dict[str, str], sheet: Sheet, symbols: SymbolTable,
                fonts: Fonts, options: ProxyOptions, missing: dict[str, set[str]], texts: TextLayouts | None,
                stand_ins: StandIns) -> None:
    painter = None
    if _painted(proxies, options):
        from hhdcli.render.cardface import Painter, Slot, TextLayouts

        painter = Painter(canvas, fonts, symbols, missing, texts or TextLayouts())
    pages = [proxies[i:i + sheet.per_page] for i in range(0, len(proxies), sheet.per_page)] or [[]]
    for number, page in enumerate(pages, start=1):
        _set_boxes(canvas, sheet)
        _clip_to_printable(canvas, sheet)
        for index, proxy in enumerate(page):
            x, y = sheet.slot(index)
            with _clipped(canvas, sheet.cell(index)):  # a card's bleed stays out of its neighbours
                if proxy.image_url:
                    b = sheet.bleed  # the scan, bleed and all (a stand-in the writer replaces: splice.py)
                    canvas.drawImage(stand_ins.reader(images[proxy.image_url]), x - b, y - b,
                                     sheet.card_w + 2 * b, sheet.card_h + 2 * b)
                    continue
                assert painter is not None
                slot = Slot(x, y, sheet.card_w, sheet.card_h, sheet.bleed)
                if proxy.card.is_basic:
                    painter.basic(slot, proxy.card)
                else:
                    painter.text_card(slot, proxy.card, proxy.faces, proxy.part)
        _draw_marks(canvas, sheet, options.cut_lines)
        slots = "  ".join(f"{i + 1} " + (_("{name} (token)").format(name=p.card.name) if p.card.is_token
                                         else p.card.name) for i, p in enumerate(page))
        _page_furniture(canvas, sheet, fonts, f"{options.title} · " + _("page {number}/{pages}").format(
            number=number, pages=len(pages)) + f" · {slots}")
        canvas.restoreState()
        canvas.showPage()
        if options.backs:
            assert painter is not None
            _back_page(canvas, painter, sheet, len(page), options.back_offset_mm)


@contextmanager
def _clipped(canvas, box: tuple[float, float, float, float]) -> Iterator[None]:
    x0, y0, x1, y1 = box
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)
    try:
        yield
    finally:
        canvas.restoreState()


def _clip_to_printable(canvas, sheet: Sheet) -> None:
    """Nothing is drawn within the margin: a printer cannot print there (outer bleed is cut back to it)."""
    canvas.saveState()
    x0, y0, x1, y1 = printable(sheet)
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)


def _set_boxes(canvas, sheet: Sheet) -> None:
    x0, y0, x1, y1 = sheet.grid
    b = sheet.bleed
    canvas.setTrimBox((x0, y0, x1, y1))
    canvas.setBleedBox((x0 - b, y0 - b, x1 + b, y1 + b))


def _back_page(canvas, painter: Painter, sheet: Sheet, count: int, offset_mm: tuple[float, float]) -> None:
    """Red backs at mirrored positions: after a long-edge flip each back lies behind its front."""
    _set_boxes(canvas, sheet)
    _clip_to_printable(canvas, sheet)
    from hhdcli.render.cardface import Slot

    dx, dy = offset_mm[0] * MM, offset_mm[1] * MM
    for index in range(count):
        x, y = sheet.slot(index, mirrored=True)
        x0, y0, x1, y1 = sheet.cell(index, mirrored=True)
        with _clipped(canvas, (x0 + dx, y0 + dy, x1 + dx, y1 + dy)):
            painter.back(Slot(x + dx, y + dy, sheet.card_w, sheet.card_h, sheet.bleed))
    canvas.restoreState()
    canvas.showPage()


def _draw_marks(canvas, sheet: Sheet, cut_lines: str = "corners") -> None:
    """Black marks in the margins, thin white lines across the outer bleed (visible on a black border), and
    with `--cut-lines full` every cut line across the sheet."""
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.5)
    for x0, y0, x1, y1 in crop_marks(sheet):
        canvas.line(x0, y0, x1, y1)
    canvas.setStrokeColorRGB(1, 1, 1)
    canvas.setLineWidth(0.4)
    for x0, y0, x1, y1 in bleed_cut_lines(sheet):
        canvas.line(x0, y0, x1, y1)
    if cut_lines == "full":
        canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
        canvas.setLineWidth(0.25)
        for x0, y0, x1, y1 in full_cut_lines(sheet):
            canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def _page_furniture(canvas, sheet: Sheet, fonts: Fonts, footer: str) -> None:
    """The 50 mm scale bar and the footer, inside the printable area and outside the cards and their bleed:
    in the top and bottom margins, or up the sides when those are too narrow (Letter)."""

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
    _scale_bar(canvas, fonts, length / 2 - 55 * MM, across - m - 2.4 * MM)
    _footer(canvas, fonts, footer, (length / 2, m + 1.0 * MM), length - 2 * m - 4 * MM)
    canvas.restoreState()


def _scale_bar(canvas, fonts: Fonts, start: float, y: float) -> None:
    canvas.setLineWidth(0.8)
    canvas.line(start, y, start + 50 * MM, y)
    for tick in range(0, 51, 10):
        height = 1.6 * MM if tick in (0, 50) else 0.8 * MM
        canvas.line(start + tick * MM, y, start + tick * MM, y + height)
    canvas.setFont(fonts.regular, 6)
    canvas.drawString(start + 51.5 * MM, y - 0.6 * MM,
                      safe_text(fonts, _("should measure 50 mm — print at 100 % / actual size")))


def _footer(canvas, fonts: Fonts, footer: str, at: tuple[float, float], width: float) -> None:
    """The footer at 6 pt (the smallest size hhd prints), wrapped onto a second line rather than cut: which
    card sits in which slot must be readable whole."""
    size = 6.0
    lines = wrap_words(canvas, safe_text(fonts, footer), fonts.regular, size, width)
    if len(lines) > FOOTER_LINES:  # never more than the band holds: the rest shortened on the last line
        lines = [*lines[:FOOTER_LINES - 1], shorten(" ".join(lines[FOOTER_LINES - 1:]), fonts.regular, size, width)]
    canvas.setFont(fonts.regular, size)
    for i, line in enumerate(reversed(lines)):
        canvas.drawCentredString(at[0], at[1] + i * size * 1.1, line)


FOOTER_LINES = 2


CALIBRATION_POINTS = ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))  # of the page's width, height


def calibration_pdf(paper_mm: tuple[float, float], font: str | None = None,
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """One duplex sheet: a 100 mm ruler and a card outline to check the scale; crosses front and back to
    measure the duplex offset, each with an arrow and a letter (F, B) that show how the sheet was turned. The
    back is drawn with `back_offset_mm`, so a corrected offset can be checked on a second print."""
    size = (paper_mm[0] * MM, paper_mm[1] * MM)
    fonts = load_fonts(font)

    def draw(canvas) -> None:
        _calibration_front(canvas, size, fonts)
        canvas.showPage()
        _calibration_back(canvas, size, fonts, back_offset_mm)
        canvas.showPage()

    return make_pdf(size, _("hhd calibration sheet"), draw, print_at_actual_size=True)


def calibration_crosses(size: tuple[float, float], side: str,
                        offset_mm: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """Where the crosses are, in points: the back's mirrored across the long edge (so that after a long-edge
    flip each lies behind the front's) and moved by the back offset."""
    w, h = size
    points = [(w * fx, h * fy) for fx, fy in CALIBRATION_POINTS]
    if side == "front":
        return points
    return [(w - x + offset_mm[0] * MM, y + offset_mm[1] * MM) for x, y in points]


def _cross(canvas, fonts: Fonts, x: float, y: float, letter: str) -> None:
    """A cross in a circle, and beside it an arrow pointing up with a letter to its right: not symmetric,
    so seen through the paper it shows which way the other side was turned."""
    canvas.line(x - 6 * MM, y, x + 6 * MM, y)
    canvas.line(x, y - 6 * MM, x, y + 6 * MM)
    canvas.circle(x, y, 3 * MM)
    ax = x + 10 * MM
    canvas.line(ax, y - 4 * MM, ax, y + 4 * MM)
    canvas.line(ax, y + 4 * MM, ax - 1.5 * MM, y + 2 * MM)
    canvas.line(ax, y + 4 * MM, ax + 1.5 * MM, y + 2 * MM)
    canvas.setFont(fonts.bold, 11)
    canvas.drawString(ax + 2 * MM, y - 1.5 * MM, letter)


def _calibration_front(canvas, size: tuple[float, float], fonts: Fonts) -> None:

    w, h = size
    canvas.setStrokeColor(ink())
    canvas.setFillColor(ink())
    canvas.setLineWidth(0.5)
    for x, y in calibration_crosses(size, "front"):
        _cross(canvas, fonts, x, y, "F")
    title = safe_text(fonts, _("hhd calibration sheet — print at 100 % (actual size), duplex"), bold=True)
    room = w - 30 * MM  # clear of any printer's margin, in every language
    canvas.setFont(fonts.bold, min(12.0, 12.0 * room / canvas.stringWidth(title, fonts.bold, 12)))
    canvas.drawCentredString(w / 2, h - 14 * MM, title)
    left, base = (w - 100 * MM) / 2, h / 2 + 20 * MM
    canvas.line(left, base, left + 100 * MM, base)
    for mm in range(0, 101):
        tick = 3 * MM if mm % 10 == 0 else 1.5 * MM if mm % 5 == 0 else 0.8 * MM
        canvas.line(left + mm * MM, base, left + mm * MM, base + tick)
    canvas.setFont(fonts.regular, 8)
    canvas.drawCentredString(w / 2, base - 5 * MM, safe_text(fonts, _("this ruler should measure exactly 100 mm")))
    canvas.rect((w - 63 * MM) / 2, h / 2 - 100 * MM, 63 * MM, 88 * MM)
    canvas.drawCentredString(w / 2, h / 2 - 56 * MM, safe_text(fonts, _("a card: 63 x 88 mm")))


def _calibration_back(canvas, size: tuple[float, float], fonts: Fonts, offset_mm: tuple[float, float]) -> None:

    w, h = size
    canvas.setStrokeColor(ink())
    canvas.setFillColor(ink())
    canvas.setLineWidth(0.5)
    for x, y in calibration_crosses(size, "back", offset_mm):
        _cross(canvas, fonts, x, y, "B")
    # paragraphs, wrapped to the sheet (a translation is longer than the English), later lines indented
    paragraphs = [
        (_("BACK — hold the sheet to a light, this side towards you"), fonts.bold, 11),
        (_("1. Each arrow B must point the same way as the arrow F you see through the paper. If it points the "
           "other way, set the printer to flip on the other edge."), fonts.regular, 8),
        (_("2. Measure how far this side's cross sits from the front's: X mm to the right (left: negative) and "
           "Y mm up (down: negative)."), fonts.regular, 8),
        (_("3. Pass the opposite: --back-offset -X,-Y"), fonts.bold, 9),
        (_("(1 mm right and 0.5 mm down → --back-offset -1,0.5; add it to the offset already used: this sheet "
           "was printed with --back-offset {x:g},{y:g}).").format(x=offset_mm[0], y=offset_mm[1]), fonts.regular, 8),
    ]
    y = h / 2 + 20 * MM
    for text, font, points in paragraphs:
        canvas.setFont(font, points)
        shown = safe_text(fonts, text, bold=font == fonts.bold)
        for i, line in enumerate(wrap_words(canvas, shown, font, points, w * 0.6)):
            canvas.drawString(w * 0.2 + (3 * MM if i else 0), y, line)
            y -= points * 1.5


def fallback_lines(report: ProxyReport) -> list[str]:
    """Text fallbacks grouped by reason, for the run's summary."""
    by_reason: dict[str, list[str]] = {}
    for name, reason in report.fallbacks.items():
        by_reason.setdefault(reason, []).append(name)
    lines = []
    for reason, names in sorted(by_reason.items(), key=lambda kv: -len(kv[1])):
        more = len(names) - 6
        shown = ", ".join(names[:6]) + (" " + ngettext("and {n} more", "and {n} more", more).format(n=more)
                                        if more > 0 else "")
        lines.append("  " + _("text proxy ({reason}): {n} — {names}").format(reason=_(reason), n=len(names),
                                                                           names=shown))

    return lines

