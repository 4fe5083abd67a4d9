"""Browsing the cache: filters, cards found by name (with "did you mean"), the status figures and plain-text
tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hhdcli.cache import CardCache
from hhdcli.cards import Card, CardIndex, normalize_name
from hhdcli.colors import COLOR_GROUPS, Group
from hhdcli.errors import InputError
from hhdcli.i18n import N_, _, current_language, format_decimal, language_source, ngettext, quote


@dataclass(frozen=True)
class CardFilter:
    """What `hhd cards` lists: the cards matching every criterion given (None: any)."""

    query: str | None = None
    color: str | None = None
    type: str | None = None
    land: bool | None = None
    ruling: str | None = None  # a ruling id: only the cards whose text calls for it

    def matches(self, card: Card) -> bool:
        if self.ruling:
            from hhdcli.rulings import card_rulings  # here: a list without --ruling never reads the table

            if self.ruling not in {r.id for r in card_rulings(card)}:
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
    """A color letter matches every card of that color; M and C match the group."""
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
    lines = [f"{card.name}   [{card.set_code}]  " + _("id {id}").format(id=card.id)]
    if card.banned:
        lines.append(_("Banned in Constructed"))
    for index, face in enumerate(card.faces):
        if len(card.faces) > 1:
            lines.append("--- " + _("face {number}: {name}").format(number=index + 1, name=face.name))
        lines.append(f"{face.mana_cost or _('(no cost)')}   {face.type_line}")
        if face.oracle_text:
            lines.extend("  " + line for line in face.oracle_text.splitlines())
        stats = "/".join(v for v in (face.power, face.toughness) if v is not None)
        if stats:
            lines.append(f"  {stats}")
        if face.loyalty:
            lines.append("  " + _("Loyalty {loyalty}").format(loyalty=face.loyalty))
    lines.append(_("colors: {colors}   mana value: {value}   land: {land}").format(
        colors="".join(card.colors) or _("colorless"), value=_number(card.mana_value),
        land=_("yes") if card.is_land else _("no")))
    lines.extend(_hell_paragraph(card))
    if card.tags:
        lines.append(_("tags: {tags}").format(tags=", ".join(card.tags)))
    if card.print_images:
        lines.append(_("image: {urls}").format(urls="  ".join(card.print_images)))
    return "\n".join(lines)


def _hell_paragraph(card: Card) -> list[str]:
    """The format's rulings on the card, its clarification, and a word when they are guessed from its text,
    in the run's language."""
    from hhdcli.rulings import PATTERN, hell_rulings

    lang = current_language()
    found = hell_rulings(card)
    lines = [f"  [{r.id}] {r.text(lang)}" for r in found.rulings]
    if found.clarification:
        lines.append("  " + _("This card: {clarification}").format(clarification=found.clarification.text(lang)))
    if found.source == PATTERN:
        lines.append("  " + (_("(guessed from the card's text: the card is not in hhd's reviewed ruling table)")
                             if found.rulings else
                             _("(none found in the card's text; the card is not in hhd's reviewed ruling table)")))
    return [_("In Hell's Half-Draft:"), *lines] if lines else []


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
        # which language hhd speaks in this run, and what chose it (--lang, HHD_LANG, LC_ALL, LC_MESSAGES, LANG)
        "language": {"code": current_language(), "source": language_source()},
    }


LANGUAGE_NAMES = {"en": N_("English"), "ru": N_("Russian")}
LANGUAGE_SOURCES = {
    "--lang": N_("chosen with --lang"),
    "HHD_LANG": N_("from HHD_LANG"),
    "LC_ALL": N_("from the locale (LC_ALL)"),
    "LC_MESSAGES": N_("from the locale (LC_MESSAGES)"),
    "LANG": N_("from the locale (LANG)"),
    "default": N_("no --lang, HHD_LANG or locale chose another"),
}


def _age(hours: float) -> str:
    if hours < 48:
        return ngettext("{n} hour", "{n} hours", int(hours)).format(n=format_decimal(hours, 1))
    days = round(hours / 24)
    return ngettext("{n} day", "{n} days", days).format(n=days)


def format_status(report: dict[str, Any]) -> str:
    colors = "  ".join(f"{g} {n}" for g, n in report["by_color"].items())
    if report["data"] == "built-in":
        where = [_("data:      the built-in Hellscube v1.2 data of {date} (no cache yet in {folder}; `hhd sync` "
                   "fetches the live registry)").format(date=report["fetched_at"][:10], folder=report["cache_dir"])]
    else:
        where = [_("data:      the card cache in {folder}").format(folder=report["cache_dir"])]
    language = report["language"]
    return "\n".join([
        *where,
        _("source:    {source} ({format} format)").format(source=report["source"], format=report["format"]),
        _("version:   {version}   sha256 {sha}…").format(version=report["registry_version"] or "-",
                                                       sha=report["sha256"][:12]),
        _("dated:     {date} ({age} ago)").format(date=report["fetched_at"], age=_age(report["age_hours"])),
        ngettext("cards:     {n} Hellscube v1.2 card ({lands} lands, {banned} banned)",
                 "cards:     {n} Hellscube v1.2 cards ({lands} lands, {banned} banned)",
                 report["cards"]).format(n=report["cards"], lands=report["lands"], banned=report["banned"]),
        _("colors:    {counts}   (non-land cards)").format(counts=colors),
        ngettext("symbols:   {n} in the symbol table", "symbols:   {n} in the symbol table",
                 report["symbols"]).format(n=report["symbols"]),
        _("language:  {name} ({why})").format(name=_(LANGUAGE_NAMES.get(language["code"], language["code"])),
                                              why=_(LANGUAGE_SOURCES.get(language["source"], language["source"]))),
    ])


def find_cards(names: list[str], index: CardIndex, warn: Callable[[str], None], strict: bool = False) -> list[Card]:
    """Each name's card. An unknown name, with "did you mean", is an error when `strict` or when no name
    is known; otherwise a warning (to `warn`), and the known ones are used."""
    found = []
    for name in names:
        if not normalize_name(name):
            raise InputError(_("{name} names no card: it has no letters or digits").format(name=quote(name)),
                             _("give part of a card's name"))
        card = index.find(name)
        if card is not None:
            found.append(card)
            continue
        suggestions = index.suggest(name)
        if strict or len(names) == 1:
            raise InputError(_("no card named {name}").format(name=quote(name)),
                             _("did you mean: {names}").format(names=", ".join(suggestions))
                             if suggestions else _("try `hhd cards QUERY`"))
        warn(_("no card named {name} (did you mean: {names}?)").format(name=quote(name), names=", ".join(
            suggestions)) if suggestions else _("no card named {name}").format(name=quote(name)))
    if not found:
        raise InputError(_("none of the names is a Hellscube v1.2 card"), _("check the names with `hhd cards QUERY`"))
    return found
