"""Proxy sheets: true-to-size 63 x 88 mm cards, crop marks, a scale bar, optional red duplex backs. The pipeline
by stage: the proxies planned (plan/), their scans fetched (scans/), the pages drawn (draw/), the scans spliced in
as the PDF is written."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from hhdcli.cards import Card
from hhdcli.errors import CacheError
from hhdcli.i18n import _
from hhdcli.render.draw.fonts import load_fonts
from hhdcli.render.draw.sheets import SheetDrawing
from hhdcli.render.plan.proxies import (
    NO_REGISTRY_IMAGE,
    Proxy,
    ProxyOptions,
    ProxyReport,
    continued,
    painted,
    plan,
    resolve_images,
)
from hhdcli.render.plan.sheet import make_sheet
from hhdcli.render.scans.images import Fetching, ImageResult, ImageStore
from hhdcli.render.scans.splice import SpliceError, StandIns, splice

if TYPE_CHECKING:
    from hhdcli.mana import SymbolTable


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


LAYOUT_SLACK = 5.0  # seconds the layout child may stay silent once the downloads are done, beside…
LAYOUT_PER_PROXY = 0.02  # …this per proxy (a layout takes about 2 ms a proxy); then the pages are laid out here


def lay_out(cards: Sequence[Card], symbols: SymbolTable, options: ProxyOptions,
            store: ImageStore | None = None, progress: Callable[[], None] | None = None) -> ProxyPdf:
    """Fetch the images and lay out every page; nothing is written yet. The pages are laid out once: on a cold
    run, in a child process while the images download, as if every image will arrive (each one's place in the
    cache is known before it is there); here, only when there is no child or an image did not arrive (its card
    then a text proxy), once the downloads are done."""
    proxies = plan(cards, options)
    urls = [p.image_url for p in proxies if p.image_url]
    if not store or not urls:
        return _laid_out(proxies, {}, symbols, options)
    cached, missing = store.look_up(urls, progress)
    if not missing:
        return _laid_out(proxies, {r.url: r for r in cached}, symbols, options)
    hoped = {url: ImageResult(url, store.print_path(url)) for url in urls}
    from hhdcli.render.scans.aside import Aside  # a cold run's: forked before any download thread starts

    with ExitStack() as ending:  # whatever fails, the downloads and the child are stopped
        pages = Aside(lambda: [_laid_out(proxies, hoped, symbols, options)])
        ending.callback(pages.close)
        fetching = Fetching(store, cached, missing, progress)
        ending.callback(fetching.cancel)
        results = fetching.wait()
        # the child has had the downloads' time; silent much longer than a layout takes, it is stopped or stuck
        laid = next(pages.items(idle=LAYOUT_SLACK + LAYOUT_PER_PROXY * len(proxies)), None)
        pages.close()
    if laid is not None and all(results[url].path == hoped[url].path for url in urls):
        return laid
    return _laid_out(proxies, results, symbols, options)  # no child, it failed, or an image did not arrive


def _laid_out(planned: list[Proxy], results: dict[str, ImageResult], symbols: SymbolTable,
              options: ProxyOptions) -> ProxyPdf:
    """The pages of the planned proxies with the scans that arrived: a failed scan's card drawn from its data."""
    report = ProxyReport()
    proxies = resolve_images(planned, results, report)
    if not options.text_only:
        for proxy in proxies:
            if proxy.image_url is None and not proxy.card.is_basic and proxy.card.name not in report.fallbacks:
                report.fallbacks[proxy.card.name] = NO_REGISTRY_IMAGE
    images = {p.image_url: str(results[p.image_url].path) for p in proxies if p.image_url}
    sheet = make_sheet(options.paper_mm, options.gap_mm, options.bleed_mm, options.margin_mm)
    fonts, texts = load_fonts(options.font), None
    if painted(proxies, options):  # cards drawn from their data (a sheet of scans never measures or paints)
        from hhdcli.render.draw.measure import Measure, Slot

        measure, slot = Measure(fonts, symbols), Slot(0, 0, sheet.card_w, sheet.card_h)
        proxies = continued(proxies, lambda card: measure.parts(card, slot))
        texts = measure.texts  # drawn as measured, not measured again
    drawing = SheetDrawing(sheet, symbols, fonts, options, images, stand_ins=StandIns(), texts=texts)
    layout = drawing.pdf(proxies)
    report.missing_glyphs = {name: "".join(sorted(chars)) for name, chars in drawing.missing.items()}
    report.pages = -(-len(proxies) // sheet.per_page) * (2 if options.backs else 1)
    report.landscape = sheet.page_w > sheet.page_h
    report.proxies = len(proxies)
    report.images = len(set(images.values()))
    report.text = sum(1 for p in proxies if p.image_url is None)
    report.basics = sum(1 for p in proxies if p.card.is_basic)
    return ProxyPdf(layout, drawing.stand_ins.paths, report)
