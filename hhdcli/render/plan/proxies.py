"""The proxies of a list of cards: one per face with its own image, basics unless skipped, a card whose image
failed drawn from its data, a text too long for one card continued on more; and what went into the sheets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hhdcli.cards import Card, Face
from hhdcli.i18n import N_, _, ngettext
from hhdcli.render.scans.images import BOMB, NOT_AN_IMAGE, TOO_LARGE, ImageResult


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
            unreachable = self.images == 0 and reasons and not reasons & {NO_REGISTRY_IMAGE, NOT_AN_IMAGE, BOMB,
                                                                     TOO_LARGE}
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



def painted(proxies: list[Proxy], options: ProxyOptions) -> bool:
    """Whether any face is drawn rather than scanned (text proxies, basics, red backs)."""
    return options.backs or any(p.image_url is None for p in proxies)


def continued(proxies: list[Proxy], parts: Callable[[Card], list[tuple[Face, ...]]]) -> list[Proxy]:
    """Text proxies whose words do not all fit one card at 6 pt become two or more (1/2, 2/2), sleeved
    together; nothing is cut. `parts` splits a card's faces over proxies (the drawing stage measures: the plan
    only follows its answer)."""
    out: list[Proxy] = []
    for proxy in proxies:
        if proxy.image_url is not None or proxy.card.is_basic:
            out.append(proxy)
            continue
        split = parts(proxy.card)
        out.extend(Proxy(proxy.card, None, faces, (i, len(split))) for i, faces in enumerate(split, start=1))
    return out


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

