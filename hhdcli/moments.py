"""The moments Hell's Half-Draft moves a card's draft-time text to (the rules' "format adjustments"): "when you
draft this card" happens when a player takes it from the Hell library or declines it to the sideboard; "when a
pack with this card reaches you" and "before the draft" when they look at it on top of the Hell library; "at the
beginning of the game, if this card is in your library" (and a conspiracy) when they take it. Which moment a card
has, and the words of its text that happen then, are read from the card's rulings and text: pure functions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from hhdcli.cards import Card
from hhdcli.rulings import card_rulings


class Moment(StrEnum):
    """When a card's draft-time text happens at the table, as the log, the API and the page name it."""

    LOOK = "look"  # the player looks at it on top of the Hell library (a draw)
    DRAFT = "draft"  # the player takes it, or declines it to the sideboard
    GAME_START = "game-start"  # the player takes it (it is now "in their library" at the game's beginning)


# The sentences of a card's text that name each moment (lower-cased, the card's own name left in)
_PATTERNS = {
    Moment.LOOK: r"\b(?:open|opens|are passed|reaches you|comes to you)\b[^.]*\bpack\b|\bpack with\b|before the draft",
    Moment.GAME_START: r"beginning of the game|before the game (?:begins|starts)|start the game with|hidden agenda",
    Moment.DRAFT: r"\b(?:as|when|whenever) (?:you|they) draft\b|\bas you draft it\b|\bwhen (?:this card|it) is drafted"
                  r"|\bdraft [^.]* face up\b|\bdraftpartner\b|\breveal [^.]*\bas you draft\b",
}
# a sentence ends at a full stop before a space or the line's end ("Goblin Spy 2.0" is one name)
_SENTENCE = re.compile(r"\S[^\n]*?(?:[.!](?=\s|$)|$)", re.MULTILINE)


@dataclass(frozen=True)
class CardMoment:
    """A card's moment: when, and the words of its text that happen then."""

    moment: Moment
    words: str


def _texts(card: Card) -> list[str]:
    return [face.oracle_text for face in card.faces if face.oracle_text]


@cache
def _compiled() -> dict[Moment, re.Pattern[str]]:
    return {moment: re.compile(pattern, re.IGNORECASE) for moment, pattern in _PATTERNS.items()}


def card_moments(card: Card) -> tuple[CardMoment, ...]:
    """Every moment of a card, in the order they come at the table (look, then draft, then the game's start), each
    with the sentences of its text that name it. A card without the draft or game-start ruling has none: the
    rulings say which cards the format moves (a sorcery that adds draft cards when cast happens when cast)."""
    tags = {r.id for r in card_rulings(card)}
    if not tags & {"draft", "game-start"}:
        return ()
    sentences = [s.strip() for text in _texts(card) for s in _SENTENCE.findall(text) if s.strip()]
    found = []
    for moment in Moment:
        words = [s for s in sentences if _compiled()[moment].search(s)]
        if words or moment == Moment.GAME_START and is_conspiracy(card):  # a conspiracy starts the game in the
            found.append(CardMoment(moment, " ".join(dict.fromkeys(words))))  # command zone: taken, it is revealed
    return tuple(found)


def is_conspiracy(card: Card) -> bool:
    return "conspiracy" in card.type_line.lower()


def moments_at(card: Card, happening: tuple[Moment, ...]) -> tuple[CardMoment, ...]:
    """A card's moments that happen at one of the table's steps (a draw: LOOK; a take: DRAFT and GAME_START; a
    decline: DRAFT)."""
    return tuple(m for m in card_moments(card) if m.moment in happening)
