"""`hhd check`: the take rule applied to a Hell library (or all of v1.2) for one deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hhdcli.cards import Card
from hhdcli.deck import Deck, LandColors, LandLookup, deck_colors
from hhdcli.errors import InputError
from hhdcli.mana import VERDICT_ORDER, SymbolTable, Take, Verdict, WhatIf, judge_all, what_if

JSON_SCHEMA = 1


@dataclass
class CheckReport:
    scope: str
    deck_colors: tuple[str, ...]
    lands: list[LandColors]
    verdicts: list[Verdict]
    what_if: list[WhatIf]
    unresolved: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    from_deck: bool = True  # False when --colors replaced the deck
    deck: Deck | None = None  # what was read of the deck file

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
            notes.append("unknown mana symbols (counted as unmet): " + " ".join(unknown))
        if self.from_deck and not self.lands:
            notes.append("the deck has no lands: every card with a coloured cost is a choice")
        return notes

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": JSON_SCHEMA,
            "scope": self.scope,
            "deck_colors": list(self.deck_colors),
            "lands": [{"name": land.name, "colors": list(land.colors), "source": land.how} for land in self.lands],
            "unresolved": self.unresolved,
            "summary": self.summary,
            "cards": [v.to_json() for v in self.verdicts],
            "what_if": [{"color": w.color, "gain": w.gain} for w in self.what_if],
            "warnings": self.warnings,
            "problems": self.problems,
            **({"deck": self.deck.summary()} if self.deck is not None else {}),
        }


def run_check(cards: Sequence[Card], scope: str, deck_colors: Sequence[str], lands: list[LandColors],
              table: SymbolTable, with_rules_text: bool = False) -> CheckReport:
    verdicts = judge_all(cards, deck_colors, table, with_rules_text)
    gains = what_if(cards, deck_colors, table, with_rules_text)
    return CheckReport(scope, tuple(deck_colors), lands, verdicts, gains)


def check_deck(cards: Sequence[Card], scope: str, table: SymbolTable, *, deck: Deck | None = None,
               colors: Sequence[str] | None = None, hellscube: Sequence[Card] = (),
               lands: dict[str, tuple[str, ...]] | None = None, lookup: LandLookup | None = None,
               with_rules_text: bool = False) -> CheckReport:
    """The whole check: the deck's colours (from its lands, or `colors` as a what-if), then the take rule
    for every card, and what one more land colour would unlock."""
    if colors is not None:
        report = run_check(cards, scope, colors, [], table, with_rules_text)
        report.from_deck = False
        return report
    if deck is None:
        raise InputError("give a deck file or --colors", "for example: hhd check deck.txt, or hhd check --colors WU")
    found = deck_colors(deck, hellscube, lands, lookup)
    report = run_check(cards, scope, found.colors, found.lands, table, with_rules_text)
    report.unresolved, report.problems, report.deck = found.unresolved, list(deck.problems), deck
    return report


def format_check(report: CheckReport) -> str:
    """The report as text for a terminal."""
    colors = "".join(report.deck_colors) or "none"
    lines = [report.deck.describe()] if report.deck is not None else []
    lines.append(f"deck colors: {colors}")
    for land in report.lands:
        lines.append(f"  {land.name}: {''.join(land.colors) or 'colorless'} ({land.how})")
    if report.unresolved:
        lines.append("  not known, so not counted: " + ", ".join(report.unresolved))
        lines.append('  → if any of these are lands, add --land "NAME=COLORS" for each')
    lines.append("")
    lines.append(f"{report.scope}:")
    ordered = report.sorted_verdicts
    copies = Counter(v.card.name for v in ordered)
    for verdict in ordered:
        if copies[verdict.card.name] == 0:
            continue  # several copies of one card (basics) print as one line
        count, copies[verdict.card.name] = copies[verdict.card.name], 0
        note = f"   x{count}" if count > 1 else ""
        if verdict.verdict is Take.CHOICE:
            needs = "".join(verdict.missing)
            note += f"   needs {needs}" if needs else ""
            note += f"   unknown {' '.join(verdict.unknown)}" if verdict.unknown else ""
        lines.append(f"  {verdict.verdict:<6}  {verdict.card.name}   {verdict.card.mana_cost}{note}")
    s = report.summary
    lines += ["", f"summary: {s['cards']} cards — {s['land']} land, {s['take']} take, {s['choice']} choice; "
                  f"{s['usable_share']:.0%} usable at once"]
    gains = [w for w in report.what_if if w.gain > 0]
    if gains:
        lines.append("what if: " + ", ".join(f"+{w.color} land → +{w.gain} take" for w in gains))
    return "\n".join(lines)
