"""Browsing the cache: filters, the status figures and plain-text tables (pure functions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hhdcli.cache import CardCache
from hhdcli.cards import Card, normalize_name
from hhdcli.colors import COLOR_GROUPS, Group
from hhdcli.rulings import card_rulings


@dataclass(frozen=True)
class CardFilter:
    query: str | None = None
    color: str | None = None
    type: str | None = None
    land: bool | None = None
    ruling: str | None = None  # a ruling id: only the cards whose text calls for it

    def matches(self, card: Card) -> bool:
        if self.ruling and self.ruling not in {r.id for r in card_rulings(card)}:
            return False
        if self.query and normalize_name(self.query) not in normalize_name(card.name) \
                and self.query.lower() not in card.type_line.lower():
            return False
        if self.color and not _has_color(card, self.color.upper()):
            return False
        if self.type and self.type.lower() not in card.type_line.lower():
            return False
        return self.land is None or card.is_land == self.land


def _has_color(card: Card, color: str) -> bool:
    """A colour letter matches every card of that colour; M and C match the group."""
    if color in (Group.MULTI, Group.COLORLESS):
        return card.color_group == color
    return color in card.colors


def filter_cards(cards: Iterable[Card], card_filter: CardFilter) -> list[Card]:
    return sorted((c for c in cards if card_filter.matches(c)), key=lambda c: c.name.lower())


def card_row(card: Card) -> dict[str, Any]:
    return {"id": card.id, "name": card.name, "mana_cost": card.mana_cost, "type_line": card.type_line,
            "colors": "".join(card.colors), "mana_value": card.mana_value, "land": card.is_land}


def format_table(rows: Sequence[Sequence[str]], headers: Sequence[str], width: int = 100) -> str:
    """A plain table; the widest column is shortened with an ellipsis to fit `width`."""
    columns = [list(map(str, col)) for col in zip(headers, *rows, strict=True)] if rows else [[h] for h in headers]
    widths = [max(len(v) for v in col) for col in columns]
    overflow = sum(widths) + 2 * (len(widths) - 1) - width
    if overflow > 0:
        widest = widths.index(max(widths))
        widths[widest] = max(8, widths[widest] - overflow)
    lines = []
    for row in [headers, *rows]:
        cells = [_fit(str(v), w) for v, w in zip(row, widths, strict=True)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fit(text: str, width: int) -> str:
    text = text.replace("\n", " ")
    return (text[: width - 1] + "…") if len(text) > width else text.ljust(width)


def describe_card(card: Card) -> str:
    """All faces of one card as readable text."""
    lines = [f"{card.name}   [{card.set_code}]  id {card.id}"]
    if card.banned:
        lines.append("Banned in Constructed")
    for index, face in enumerate(card.faces):
        if len(card.faces) > 1:
            lines.append(f"--- face {index + 1}: {face.name}")
        lines.append(f"{face.mana_cost or '(no cost)'}   {face.type_line}")
        if face.oracle_text:
            lines.extend("  " + line for line in face.oracle_text.splitlines())
        stats = "/".join(v for v in (face.power, face.toughness) if v is not None)
        if stats:
            lines.append(f"  {stats}")
        if face.loyalty:
            lines.append(f"  Loyalty {face.loyalty}")
    lines.append(f"colours: {''.join(card.colors) or 'colourless'}   mana value: {_number(card.mana_value)}"
                 f"   land: {'yes' if card.is_land else 'no'}")
    lines.extend(_hell_paragraph(card))
    if card.tags:
        lines.append("tags: " + ", ".join(card.tags))
    if card.print_images:
        lines.append("image: " + "  ".join(card.print_images))
    return "\n".join(lines)


def _hell_paragraph(card: Card) -> list[str]:
    """The format's rulings on the card, its clarification, and a word when they are guessed from its text."""
    from hhdcli.i18n import _, current_language
    from hhdcli.rulings import PATTERN, hell_rulings

    found, lang = hell_rulings(card), current_language()  # the rulings are written in English and Russian
    lines = [f"  [{r.id}] {r.text(lang)}" for r in found.rulings]
    if found.clarification:
        lines.append("  " + _("This card: {clarification}").format(clarification=found.clarification.text(lang)))
    if found.source == PATTERN:
        lines.append("  " + (_("(guessed from the card's text: the card is not in hhd's reviewed ruling table)")
                             if found.rulings else
                             _("(none found in the card's text; the card is not in hhd's reviewed ruling table)")))
    return ["In Hell's Half-Draft:", *lines] if lines else []


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else str(value)


def status_report(cache: CardCache, cache_dir: str, now: datetime | None = None) -> dict[str, Any]:
    now = now or datetime.now(UTC)
    fetched = datetime.fromisoformat(cache.meta.fetched_at)
    groups = Counter(c.color_group for c in cache.cards if not c.is_land)
    return {
        "data": "built-in" if cache.builtin else "cache",
        "cache_dir": cache_dir,
        "source": cache.meta.source,
        "format": cache.meta.format,
        "registry_version": cache.meta.registry_version,
        "fetched_at": cache.meta.fetched_at,
        "age_hours": round((now - fetched).total_seconds() / 3600, 1),
        "sha256": cache.meta.sha256,
        "cards": len(cache.cards),
        "lands": sum(c.is_land for c in cache.cards),
        "banned": sum(c.banned for c in cache.cards),
        "by_color": {str(g): groups.get(g, 0) for g in COLOR_GROUPS},
        "symbols": len(cache.symbols),
    }


def format_status(report: dict[str, Any]) -> str:
    age = report["age_hours"]
    age_text = f"{age:.1f} hours" if age < 48 else f"{age / 24:.0f} days"
    colours = "  ".join(f"{g} {n}" for g, n in report["by_color"].items())
    if report["data"] == "built-in":
        where = [f"data:      the built-in Hellscube v1.2 data of {report['fetched_at'][:10]} "
                 f"(no cache yet in {report['cache_dir']}; `hhd sync` fetches the live registry)"]
    else:
        where = [f"data:      the card cache in {report['cache_dir']}"]
    return "\n".join([
        *where,
        f"source:    {report['source']} ({report['format']} format)",
        f"version:   {report['registry_version'] or '-'}   sha256 {report['sha256'][:12]}…",
        f"dated:     {report['fetched_at']} ({age_text} ago)",
        f"cards:     {report['cards']} Hellscube v1.2 ({report['lands']} lands, {report['banned']} banned)",
        f"colours:   {colours}   (non-land cards)",
        f"symbols:   {report['symbols']} in the symbol table",
    ])

