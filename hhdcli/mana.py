"""Mana costs, the registry's symbol table and the take rule (pure functions).

Each symbol becomes a `Requirement`: a set of options, each option the colors it needs. A symbol is
satisfied when any one option's colors are all made by the deck's lands; an option needing no
color (generic, colorless, Phyrexian) is always satisfied.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from hhdcli.cards import Card
from hhdcli.colors import COLORS, color_letter, ordered
from hhdcli.costs import is_number, parse_cost, symbols_in
from hhdcli.i18n import _

_SHAPE_COLORS = re.compile(r"[WUBRGPCS]+")
GENERIC: frozenset[str] = frozenset()


class Take(StrEnum):
    """The take rule's answer for one card and one deck."""

    LAND = "land"
    TAKE = "take"
    CHOICE = "choice"


# How reports list verdicts: what the deck takes first, lands last.
VERDICT_ORDER = {Take.TAKE: 0, Take.CHOICE: 1, Take.LAND: 2}


@dataclass(frozen=True)
class Requirement:
    """Options for paying one symbol; `unknown` when the symbol means nothing readable."""

    options: tuple[frozenset[str], ...]
    phyrexian: bool = False
    hybrid: bool = False
    unknown: bool = False

    def satisfied_by(self, colors: frozenset[str]) -> bool:
        return any(option <= colors for option in self.options)

    def missing(self, colors: frozenset[str]) -> frozenset[str]:
        """The fewest colors that would satisfy it (the first cheapest option)."""
        if not self.options:
            return frozenset()
        return min((option - colors for option in self.options), key=len)




@dataclass
class SymbolTable:
    """The registry's pips.json, looked up in any option order ({W/U/R} finds U/R/W)."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    not_mana: frozenset[str] = frozenset()  # {T}, {Q}, {E}, {CHAOS}: symbols of the table that are not mana
    _by_sorted: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _memo: dict[str, Requirement] = field(default_factory=dict, repr=False)
    _assessed: dict[tuple[tuple[str, ...], frozenset[str]], Assessment] = field(default_factory=dict, repr=False)

    @classmethod
    def from_records(cls, records: Iterable[dict[str, Any]]) -> SymbolTable:
        records = list(records)
        usable = {str(r["symbol"]): r for r in records if r.get("represents_mana")}
        table = cls(usable, frozenset(str(r["symbol"]) for r in records if not r.get("represents_mana")))
        table._by_sorted = {_sorted_key(s): r for s, r in usable.items()}
        return table

    def lookup(self, symbol: str) -> dict[str, Any] | None:
        return self.records.get(symbol) or self._by_sorted.get(_sorted_key(symbol))

    def assess(self, symbols: tuple[str, ...], colors: frozenset[str]) -> Assessment:
        """The take rule on one cost for one set of deck colors, memoised: a what-if run over 720
        cards asks the same few hundred questions again and again."""
        key = (symbols, colors)
        hit = self._assessed.get(key)
        if hit is None:
            hit = self._assessed[key] = _assess(self, symbols, colors)
        return hit

    def requirement(self, symbol: str) -> Requirement:
        if symbol not in self._memo:
            self._memo[symbol] = self._requirement(symbol)
        return self._memo[symbol]

    def _requirement(self, symbol: str) -> Requirement:
        record = self.lookup(symbol)
        if record is None:
            return _by_shape(symbol)
        colors = frozenset(color_letter(c) for c in record.get("colors") or ()) - {"C"}
        if record.get("phyrexian"):
            return Requirement((GENERIC,), phyrexian=True, hybrid=bool(record.get("hybrid")))
        if not record.get("hybrid"):
            return Requirement((colors,))
        options = [o for o in (self._option(part) for part in symbol.split("/")) if o is not None]
        if not options:  # a hybrid whose parts are not symbols (Rainbow, Canada): any one color
            options = [frozenset({c}) for c in colors] or [GENERIC]
            if "C" in {color_letter(c) for c in record.get("colors") or ()}:
                options.append(GENERIC)
        return Requirement(tuple(options), hybrid=True)

    def part_colors(self, part: str) -> frozenset[str]:
        """The colors one part of a symbol needs (empty for generic or unreadable parts)."""
        return self._option(part) or GENERIC

    def _option(self, part: str) -> frozenset[str] | None:
        """One option of a hybrid: a number is generic, `BB` needs B, a known symbol its colors."""
        part = part.strip()
        if is_number(part):
            return GENERIC
        record = self.records.get(part)
        if record is not None and not record.get("hybrid"):
            return frozenset(color_letter(c) for c in record.get("colors") or ()) - {"C"}
        if _SHAPE_COLORS.fullmatch(part):
            return frozenset(part) - {"C", "S"}
        return None


def _sorted_key(symbol: str) -> str:
    return "/".join(sorted(p.strip() for p in symbol.split("/")))


def _by_shape(symbol: str) -> Requirement:
    """A symbol missing from the table: slash-separated color letters and numbers, H marks Phyrexian."""
    parts = [p.strip() for p in symbol.split("/")]
    if len(parts) > 1 and "H" in parts:
        return Requirement((GENERIC,), phyrexian=True)
    options = []
    for part in parts:
        if is_number(part):
            options.append(GENERIC)
        elif _SHAPE_COLORS.fullmatch(part):
            options.append(frozenset(part) - {"C", "S"})
    if not options:
        return Requirement((), unknown=True)
    return Requirement(tuple(options), hybrid=len(parts) > 1)


SHAPE_ONLY = SymbolTable()


@dataclass(frozen=True)
class Verdict:
    """What the take rule says of one card for one deck."""

    card: Card
    verdict: Take
    missing: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.card.name, "id": self.card.id, "verdict": self.verdict,
                "missing": list(self.missing), "unknown": list(self.unknown)}


@dataclass(frozen=True)
class CardCost:
    """A card's cost read once: every symbol of every face, plus stray text found in cost slots."""

    symbols: tuple[str, ...]
    stray: tuple[str, ...]


def card_cost(card: Card, with_rules_text: bool = False) -> CardCost:
    """Only the faces the registry counts: an inset token's or a reminder face's cost is not the card's."""
    faces = card.counted_faces
    costs = tuple(face.mana_cost for face in faces)
    texts = tuple(face.oracle_text for face in faces) if with_rules_text else ()
    return _read_costs(costs, texts)


@lru_cache(maxsize=8192)
def _read_costs(costs: tuple[str, ...], rules_texts: tuple[str, ...]) -> CardCost:
    symbols: list[str] = []
    stray: list[str] = []
    for cost in costs:
        parsed = parse_cost(cost)
        symbols.extend(parsed.symbols)
        if parsed.stray:
            stray.append(parsed.stray)
    for text in rules_texts:
        symbols.extend(symbols_in(text))
    return CardCost(tuple(symbols), tuple(stray))


@dataclass(frozen=True)
class Assessment:
    """A cost judged against the deck's colors: take or choice, and the symbols that decided it."""

    verdict: Take  # TAKE or CHOICE
    missing: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def _assess(symbol_table: SymbolTable, symbols: tuple[str, ...], colors: frozenset[str]) -> Assessment:
    unmet = [symbol_table.requirement(s) for s in symbols if not symbol_table.requirement(s).satisfied_by(colors)]
    if not unmet:
        return Assessment(Take.TAKE)
    missing = set().union(*(r.missing(colors) for r in unmet))
    unknown = ["{" + s + "}" for s in symbols if symbol_table.requirement(s).unknown]
    return Assessment(Take.CHOICE, ordered(missing), tuple(dict.fromkeys(unknown)))


def judge(card: Card, deck_colors: Iterable[str], symbol_table: SymbolTable = SHAPE_ONLY,
          with_rules_text: bool = False) -> Verdict:
    """The take rule: land, take (every symbol satisfied) or choice (with what is missing)."""
    if card.is_land:
        return Verdict(card, Take.LAND)
    colors = deck_colors if isinstance(deck_colors, frozenset) else frozenset(deck_colors)
    cost = card_cost(card, with_rules_text)
    symbols = tuple(s for s in cost.symbols if s not in symbol_table.not_mana) if with_rules_text else cost.symbols
    result = symbol_table.assess(symbols, colors)
    warnings = tuple(_("{name}: ignored non-cost text in a cost slot: {text!r}").format(name=card.name, text=s[:40])
                     for s in cost.stray) \
        if cost.stray else ()
    return Verdict(card, result.verdict, result.missing, result.unknown, warnings)


def judge_all(cards: Sequence[Card], deck_colors: Iterable[str], symbols: SymbolTable = SHAPE_ONLY,
              with_rules_text: bool = False) -> list[Verdict]:
    colors = frozenset(deck_colors)
    return [judge(card, colors, symbols, with_rules_text) for card in cards]


@dataclass(frozen=True)
class WhatIf:
    """How many more cards a deck could take with one more color."""

    color: str
    gain: int


def what_if(verdicts: Sequence[Verdict], deck_colors: Iterable[str], symbols: SymbolTable = SHAPE_ONLY,
            with_rules_text: bool = False) -> list[WhatIf]:
    """For each color the deck lacks: how many more cards become take with a land of it, best first. A card
    the deck takes stays taken with more colors (a cost is met when one of its options is within them), so
    only the cards of choice are judged again, once per color."""
    colors = frozenset(deck_colors)
    choices = [v.card for v in verdicts if v.verdict is Take.CHOICE]
    gains = [WhatIf(color, sum(judge(card, colors | {color}, symbols, with_rules_text).verdict is Take.TAKE
                               for card in choices))
             for color in COLORS if color not in colors]
    return sorted(gains, key=lambda w: (-w.gain, COLORS.index(w.color)))
