"""The rules quick reference and the booklet's page of a library's cards, as the data every form prints: the
PDF (rules_pdf.py) and the HTML and Markdown templates (which need no ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

from hhdcli.cards import Card
from hhdcli.render.texts import example_intro, examples, labels, rules_sections
from hhdcli.rulings import CURATED


def rules_context(lang: str, library: LibraryRulings | None = None) -> dict:
    return {"rules_title": labels(lang)["rules_title"], "sections": rules_sections(lang),
            "example_intro": example_intro(lang), "examples": examples(lang), "lang": lang, "library": library}


# --- the booklet: the rules, then a library's cards with their rulings (hhd rules -l LIBRARY) ----------------


@dataclass(frozen=True)
class RuledCard:
    name: str
    ids: tuple[str, ...]  # its rulings, by their names in the reader's language
    clarification: str | None
    guessed: bool  # not in the reviewed table: its rulings are the patterns' guess


@dataclass(frozen=True)
class LibraryRulings:
    """A library's cards that have a ruling or a clarification, by name, and the texts of the rulings they use."""

    title: str
    count: str
    cards: tuple[RuledCard, ...]
    rulings: tuple[tuple[str, str], ...]  # (name in the reader's language, text) in the table's order
    rulings_heading: str
    guessed: str  # the footnote for a guessed card, when there is one

    def to_json(self) -> dict:
        return {"cards": [vars(c) for c in self.cards], "rulings": [{"id": i, "text": t} for i, t in self.rulings]}


def library_rulings(cards: list[Card], lang: str) -> LibraryRulings:
    """The booklet's section for these cards (a library's, with basics and repeats): one line a card."""
    from hhdcli.rulings import RULINGS, hell_rulings

    text = labels(lang)
    ruled, used = {}, set()
    for card in cards:
        found = hell_rulings(card)
        if found.rulings or found.clarification:
            ruled[card.name] = RuledCard(card.name, tuple(r.name(lang) for r in found.rulings),
                                         found.clarification.text(lang) if found.clarification else None,
                                         found.source != CURATED)
            used |= {r.id for r in found.rulings}
    shown = tuple(ruled[name] for name in sorted(ruled, key=str.casefold))
    count = text["library_count"].format(ruled=len(shown), total=len(cards)) if shown else text["library_none"]
    return LibraryRulings(text["library_rulings"], count, shown,
                          tuple((r.name(lang), r.text(lang)) for r in RULINGS if r.id in used), text["rulings_heading"],
                          text["guessed"] if any(c.guessed for c in shown) else "")
