"""The zones Hell cards create (the rules: "Cards may name zones that do not exist; they are created when such a
card appears", and last to the end of the game), as data: hhdcli/data/zones-v1.2.json says which cards make which
zone, whether each player has one or the table shares one, whether its cards' faces are open to all or hidden
(a deck), whether it is ordered (shuffled, with a top card), the named cards it starts with and, for a limitless
deck, the card its top always is. Nothing here branches on a zone's name: the table reads these fields."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from hhdcli import DATA
from hhdcli.cards import Card, normalize_name

ZONES_FILE = DATA / "zones-v1.2.json"


class Scope(StrEnum):
    """Whose a created zone is: each player's own, or the table's one."""

    PLAYER = "player"
    SHARED = "shared"


@dataclass(frozen=True)
class MadeZone:
    """A zone a card creates, as the data describes it."""

    id: str
    names: tuple[tuple[str, str], ...]  # (language, name)
    scope: Scope
    open: bool  # its cards' faces are everyone's to see (else: a deck, its order nobody's, its cards its player's)
    ordered: bool  # a deck: shuffled, with a top card
    starts: tuple[str, ...]  # the named cards each one holds when it comes into being
    well: str | None  # a limitless deck: its top card is always a new one of these
    makers: frozenset[str]  # the ids and names (normalized) of the cards that make it
    hell_cards: bool = True  # a Hell card may be in it (the ante: one that would be anted goes to the sideboard)

    def name(self, lang: str = "en") -> str:
        found = dict(self.names)
        return found.get(lang) or found["en"]

    @property
    def shared(self) -> bool:
        return self.scope == Scope.SHARED


@cache
def made_zones() -> dict[str, MadeZone]:
    """Every zone the set's cards create, by id, in the data's order."""
    document = json.loads(ZONES_FILE.read_text(encoding="utf-8"))
    return {z["id"]: MadeZone(z["id"], tuple(sorted(z["name"].items())), Scope(z["scope"]), bool(z["open"]),
                              bool(z["ordered"]), tuple(z.get("starts") or ()), z.get("well"),
                              frozenset({c["id"] for c in z["cards"]} | {normalize_name(c["name"]) for c in z["cards"]}),
                              bool(z.get("hell_cards", True)))
            for z in document["zones"]}


def zones_of(card: Card) -> tuple[MadeZone, ...]:
    """The zones a card makes when it appears: found by its id, or by its name (a card synced from the registry's
    other format has another id)."""
    keys = {card.id, normalize_name(card.name)}
    return tuple(z for z in made_zones().values() if z.makers & keys)


def made_zone(zone_id: str | None) -> MadeZone | None:
    return made_zones().get(zone_id or "")


def zone_open(zone_id: str | None) -> bool:
    found = made_zone(zone_id)
    return found is not None and found.open
