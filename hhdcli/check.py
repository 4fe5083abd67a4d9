"""`hhd check`: the take rule applied to a Hell library (or all of v1.2) for one deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from hhdcli.cards import Card
from hhdcli.colors import BASICS_PER_TYPE, POOL_BASICS
from hhdcli.deck import Deck, LandColors, LandLookup, deck_colors
from hhdcli.errors import InputError
from hhdcli.i18n import N_, _, format_decimal, ngettext, quote
from hhdcli.jsonio import JSON_SCHEMA
from hhdcli.library import OPENING_HAND
from hhdcli.mana import VERDICT_ORDER, SymbolTable, Take, Verdict, WhatIf, judge_all, what_if


@dataclass(frozen=True)
class Odds:
    """Exact (hypergeometric) odds for what Hell gives a deck: `cards` to draw from, `usable` of them a
    land or a take, `lands` of them lands; an opening hand holds `hand` of them."""

    cards: int
    usable: int
    lands: int
    hand: int = OPENING_HAND

    def _none_of(self, good: int) -> float:
        """The chance that `hand` cards drawn without replacement hold none of `good`."""
        if self.cards < self.hand:
            return 0.0
        return comb(self.cards - good, self.hand) / comb(self.cards, self.hand)

    @property
    def land_in_hand(self) -> float:
        return 1 - self._none_of(self.lands)

    @property
    def usable_in_hand(self) -> float:
        return 1 - self._none_of(self.usable)

    @property
    def none_usable(self) -> float:
        return self._none_of(self.usable)

    @property
    def expected_usable(self) -> float:
        return self.hand * self.usable / self.cards if self.cards else 0.0

    @property
    def draw_usable(self) -> float:
        return self.usable / self.cards if self.cards else 0.0

    def reading(self) -> str:
        """The odds as a player says them: "about 3 in 4 opening hands get a usable Hell card"."""
        return _("{hands} opening hands get a usable Hell card; {draws} draws from Hell are usable").format(
            hands=_about(self.usable_in_hand), draws=_about(self.draw_usable))

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "usable": self.usable, "lands": self.lands, "hand": self.hand,
                "at_least_one_land": round(self.land_in_hand, 4),
                "at_least_one_usable": round(self.usable_in_hand, 4), "none_usable": round(self.none_usable, 4),
                "expected_usable": round(self.expected_usable, 4), "single_draw_usable": round(self.draw_usable, 4),
                "reading": self.reading()}


def _about(chance: float) -> str:
    """A chance as people say it, with a small denominator: 0.77 → "about 3 in 4"."""
    if chance >= 0.995:
        return _("almost all")
    if chance <= 0.005:
        return _("almost no")
    from fractions import Fraction  # here: with decimal, 3 ms of every check's start-up otherwise

    candidates = {Fraction(n, d) for d in (2, 3, 4, 5, 10) for n in range(1, d)}
    share = min(candidates, key=lambda f: (abs(f - Fraction(chance)), f.denominator))
    return _("about {n} in {d}").format(n=share.numerator, d=share.denominator)


@dataclass
class CheckReport:
    """What `hhd check` found: the deck's colors and lands, a verdict per card, what a color more gives."""

    scope: str
    deck_colors: tuple[str, ...]
    lands: list[LandColors]
    verdicts: list[Verdict]
    what_if: list[WhatIf]
    unresolved: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    from_deck: bool = True  # False when --colors replaced the deck
    deck: Deck | None = None  # what was read of the deck file
    whole_set: bool = False  # the cards are all of v1.2, not a library: Hell is a random tenth of the pool
    basics_per_type: int = BASICS_PER_TYPE  # the whole set's pool: its basics, as hhd generate draws it

    @property
    def odds(self) -> Odds:
        """For a library, its own cards; for the whole set, the pool a random library is drawn from (its
        top cards are a uniformly random draw from the 720 and the pool's basics)."""
        counts = Counter(v.verdict for v in self.verdicts)
        basics = self.basics_per_type * len(POOL_BASICS) if self.whole_set else 0
        lands = counts[Take.LAND] + basics
        return Odds(len(self.verdicts) + basics, lands + counts[Take.TAKE], lands)

    @property
    def summary(self) -> dict[str, Any]:
        counts: Counter[str] = Counter(v.verdict for v in self.verdicts)
        cards = len(self.verdicts)
        usable = counts["land"] + counts["take"]
        return {"cards": cards, "land": counts["land"], "take": counts["take"], "choice": counts["choice"],
                "usable_share": round(usable / cards, 3) if cards else 0.0}

    @property
    def sorted_verdicts(self) -> list[Verdict]:
        """Take first, then choice, then lands; A–Z within each."""
        return sorted(self.verdicts, key=lambda v: (VERDICT_ORDER[v.verdict], v.card.name.lower()))

    @property
    def warnings(self) -> list[str]:
        unknown = sorted({s for v in self.verdicts for s in v.unknown})
        notes = [w for v in self.verdicts for w in v.warnings]
        if unknown:
            notes.append(_("unknown mana symbols (counted as unmet): {symbols}").format(symbols=" ".join(unknown)))
        if self.from_deck and not self.lands:
            notes.append(_("the deck has no lands: every card with a colored cost is a choice"))
        return notes

    def to_json(self) -> dict[str, Any]:
        from hhdcli.rulings import card_rulings  # here: the text report names no rulings, so never loads them

        return {
            "schema": JSON_SCHEMA,
            "scope": self.scope,
            "deck_colors": list(self.deck_colors),
            "lands": [{"name": land.name, "colors": list(land.colors), "source": land.how} for land in self.lands],
            "unresolved": self.unresolved,
            "summary": self.summary,
            "cards": [{**v.to_json(), "hell_rulings": [r.id for r in card_rulings(v.card)]} for v in self.verdicts],
            "what_if": [{"color": w.color, "gain": w.gain} for w in self.what_if],
            "odds": self.odds.to_json(),
            "warnings": self.warnings,
            "problems": self.problems,
            **({"deck": self.deck.summary()} if self.deck is not None else {}),
        }


def run_check(cards: Sequence[Card], scope: str, deck_colors: Sequence[str], lands: list[LandColors],
              symbols: SymbolTable, with_rules_text: bool = False) -> CheckReport:
    verdicts = judge_all(cards, deck_colors, symbols, with_rules_text)
    gains = what_if(verdicts, deck_colors, symbols, with_rules_text)
    return CheckReport(scope, tuple(deck_colors), lands, verdicts, gains)


def check_deck(cards: Sequence[Card], scope: str, symbols: SymbolTable, *, deck: Deck | None = None,
               colors: Sequence[str] | None = None, hellscube: Sequence[Card] = (),
               lands: dict[str, tuple[str, ...]] | None = None, lookup: LandLookup | None = None,
               with_rules_text: bool = False, whole_set: bool = False,
               basics_per_type: int = BASICS_PER_TYPE) -> CheckReport:
    """The whole check: the deck's colors (from its lands, or `colors` as a what-if), then the take rule
    for every card, and what one more land color would unlock."""
    if colors is not None:
        report = run_check(cards, scope, colors, [], symbols, with_rules_text)
        report.from_deck, report.whole_set, report.basics_per_type = False, whole_set, basics_per_type
        return report
    need_deck_or_colors(deck, colors)
    assert deck is not None
    found = deck_colors(deck, hellscube, lands, lookup)
    report = run_check(cards, scope, found.colors, found.lands, symbols, with_rules_text)
    report.unresolved, report.problems, report.deck = found.unresolved, list(deck.warnings), deck
    report.whole_set, report.basics_per_type = whole_set, basics_per_type
    return report


def need_deck_or_colors(deck: object, colors: object) -> None:
    """A check reads a deck's land colors or is told them: neither given is the one error it has no answer to."""
    if deck is None and colors is None:
        raise InputError(_("give a deck file or --colors"),
                         _("for example: hhd check deck.txt, or hhd check --colors WU"))


def format_check(report: CheckReport) -> str:
    """The report as text for a terminal."""
    colors = "".join(report.deck_colors) or _("none")
    lines = [report.deck.describe()] if report.deck is not None else []
    lines.append(_("deck colors: {colors}").format(colors=colors))
    for land in report.lands:
        lines.append(f"  {land.name}: {''.join(land.colors) or _('colorless')} ({how_known(land.how)})")
    if report.unresolved:
        lines.append("  " + _("not known, so not counted: {names}").format(names="; ".join(map(quote, report.unresolved))))
        lines.append("  → " + _('if any of these are lands, add --land "NAME=COLORS" for each'))
    lines.append("")
    lines.append(f"{report.scope}:")
    ordered = report.sorted_verdicts
    copies = Counter(v.card.name for v in ordered)
    width = max(len(verdict_word(t)) for t in Take)
    for verdict in ordered:
        if copies[verdict.card.name] == 0:
            continue  # several copies of one card (basics) print as one line
        count, copies[verdict.card.name] = copies[verdict.card.name], 0
        note = f"   x{count}" if count > 1 else ""
        if verdict.verdict is Take.CHOICE:
            needs = "".join(verdict.missing)
            note += "   " + _("needs {symbols}").format(symbols=needs) if needs else ""
            note += "   " + _("unknown {symbols}").format(symbols=" ".join(verdict.unknown)) if verdict.unknown else ""
        lines.append(f"  {verdict_word(verdict.verdict):<{width}}  {verdict.card.name}   {verdict.card.mana_cost}{note}")
    lines += ["", summary_line(report.summary)]
    gains = [w for w in report.what_if if w.gain > 0]
    if gains:
        lines.append(_("what if: {gains}").format(gains=", ".join(
            _("+{color} land → +{n} take").format(color=w.color, n=w.gain) for w in gains)))
    lines += ["", *format_odds(report.odds, report.whole_set)]
    return "\n".join(lines)


# The take rule's answers as the rules sheet says them (the JSON keeps the English words: they are keys).
VERDICT_WORDS = {Take.LAND: N_("land"), Take.TAKE: N_("take"), Take.CHOICE: N_("choice")}
HOW_KNOWN = {"basic": N_("basic"), "hellscube": N_("hellscube"), "scryfall": N_("scryfall"),
             "built-in": N_("built-in list")}  # real lands hhd ships (deck.real_cards), offline


def verdict_word(verdict: str) -> str:
    """The verdict in the run's language (a Take is a str: the table's keys find plain strings too)."""
    word = VERDICT_WORDS.get(verdict)  # type: ignore[call-overload]
    return _(word) if word else verdict


def how_known(how: str) -> str:
    """How a land's colors were found (basic, hellscube, scryfall, --land), in the run's language."""
    return _(HOW_KNOWN[how]) if how in HOW_KNOWN else how


def summary_line(s: dict[str, Any]) -> str:
    return _("summary: {cards} — {land} land, {take} take, {choice} choice; {share} usable at once").format(
        cards=ngettext("{n} card", "{n} cards", s["cards"]).format(n=s["cards"]), land=s["land"], take=s["take"],
        choice=s["choice"], share=percent(s["usable_share"]))


def percent(share: float, digits: int = 0) -> str:
    """A share as a percentage in the run's language (77%, 77 % in Russian, as CLDR writes it)."""
    return _("{number}%").format(number=format_decimal(share * 100, digits))


def format_odds(odds: Odds, whole_set: bool) -> list[str]:
    where = _("a random Hell library") if whole_set else ngettext(
        "this {n}-card library", "this {n}-card library", odds.cards).format(n=odds.cards)
    return [ngettext("odds ({n} Hell card in the opening hand, from {where}): at least one land {land}, at least one "
                     "usable {usable}, none usable {none}; {expected} usable expected; one draw usable {draw}",
                     "odds ({n} Hell cards in the opening hand, from {where}): at least one land {land}, at least "
                     "one usable {usable}, none usable {none}; {expected} usable expected; one draw usable {draw}",
                     odds.hand).format(n=odds.hand, where=where, land=percent(odds.land_in_hand),
                                       usable=percent(odds.usable_in_hand), none=percent(odds.none_usable),
                                       expected=format_decimal(odds.expected_usable, 2),
                                       draw=percent(odds.draw_usable)),
            f"→ {odds.reading()}"]

