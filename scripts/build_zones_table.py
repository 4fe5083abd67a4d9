"""Build hhd's table of the zones Hellscube v1.2 cards create (hhdcli/data/zones-v1.2.json).

The format's rules: "Cards may name zones that do not exist; they are created when such a card appears", and
they last to the end of the game. What each zone is (its names, one per player or one for the table, open or
hidden, a deck or a heap, what it starts with, a limitless top) was read from the cards that describe it and is
written here by hand, with a one-line reason; which cards name it is not: it is derived from the texts of all
720 cards by the zone's patterns (over each face's type line and rules text, lower-cased, the card's own name
blanked out, as hhdcli.rulings reads them), so a card is never left out by hand and a re-run is byte-identical.

Usage (from the repository root):
    python scripts/build_zones_table.py            # write the table
    python scripts/build_zones_table.py --check    # exit 1 when the committed table is not what the texts give
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hhdcli.cache import load_builtin
from hhdcli.cards import Card
from hhdcli.files import write_atomic
from hhdcli.rulings import rules_text

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "hhdcli" / "data" / "zones-v1.2.json"
BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"]


@dataclass(frozen=True)
class Zone:
    """One created zone as read from its cards; `patterns` (regular expressions over hhdcli.rulings.rules_text)
    find the cards that name it."""

    id: str
    en: str
    ru: str
    scope: str  # "player": each player has one; "shared": one for the table
    open: bool  # its cards' faces are visible to everyone
    ordered: bool  # a deck: shuffled, with a top card
    starts: tuple[str, ...]  # the cards each one holds when it comes into being
    well: str | None  # a limitless zone: the card its top always is (a new token copy each time)
    why: str
    patterns: tuple[str, ...]
    hell_cards: bool = True  # a Hell card may be in it (one that would be anted goes to the sideboard instead)

    def names(self, text: str) -> bool:
        return any(re.search(p, text) for p in self.patterns)


ZONES: tuple[Zone, ...] = (
    Zone("auto", "auto zone", "автозона", "player", True, False, (), None,
         "Creatures, Vehicles and whole hands are put there face up (creatures in it crew Vehicles); 'your "
         "auto zone' and 'each player puts their hand into their auto zone' make it one per player; it is a heap: "
         "nobody shuffles it or takes its top.",
         (r"\bauto ?zones?\b",)),
    Zone("whammy", "whammy deck", "колода вамми", "player", False, True, tuple(BASICS), None,
         "Each player's own deck of basic lands, shuffled and searched ('your whammy deck', 'its owner's whammy "
         "deck'). It starts with one Plains, Island, Swamp, Mountain and Forest: Big Money, Tax Evasion and "
         "Kodama's Reach name the five, Evolving Wilds But Reality Is A Myth says 'one of each of the five basic "
         "land types'; Whammy Elemental's 'one of each basic land type' would add a Nebula if Nebula were a basic "
         "land type, and the five named win. 'Consists of' (Big Money, Tax Evasion) and 'starts with' "
         "(Kodama's Reach, Evolving Wilds) disagree; 'starts' wins, since Extraordinarily Lost puts permanents on "
         "top of it.",
         (r"\bwhammy decks?\b",)),
    Zone("uwu", "UwU deck", "колода UwU", "player", False, True, ("Island", "Island", "Plains"), None,
         "Each player's own three-card deck, revealed, shuffled and guessed at ('your UwU deck'); only Shell Game "
         "says what is in it (two Islands and a Plains), Spacefolk Looter draws from it.",
         (r"\buwu decks?\b",)),
    Zone("eye-collector", "Eye Collector deck", "колода Eye Collector", "player", False, True, (), "Eye Collector",
         "Each player's own deck ('your Eye Collector deck') that 'contains a limitless well of token copies of "
         "Eye Collector': it never runs out, and its top is always a new token copy of Eye Collector, a token card "
         "until it enters the battlefield.",
         (r"\beye collector decks?\b",)),
    Zone("command", "command zone", "командная зона", "shared", True, False, (), None,
         "Magic's command zone is one zone for all players; hhd's table has none until a card needs it: a "
         "conspiracy (a hidden agenda lies there face down), a card that names it, a card that becomes or may be a "
         "commander. Emblems are not cards: the players keep them.",
         (r"\bcommand zone\b", r"\bconspirac(?:y|ies)\b", r"\bhidden agenda\b", r"\bcommander\b")),
    Zone("ante", "ante", "анте", "shared", True, False, (), None,
         "Magic's ante is one zone for all players, face up; nobody antes at the start, only card effects ante, and a "
         "Hell card that would be anted goes to the sideboard instead, so it holds only players' own cards.",
         (r"\bante(?:d|s)?\b",), hell_cards=False),
)


def naming(zone: Zone, cards: Iterable[Card]) -> list[dict[str, str]]:
    """The cards whose text names the zone, by name (then id, for two cards of one name)."""
    found = [card for card in cards if zone.names(rules_text(card))]
    return [{"id": card.id, "name": card.name} for card in sorted(found, key=lambda c: (c.name.casefold(), c.id))]


def build(cards: list[Card]) -> dict[str, Any]:
    zones = [{"id": z.id, "name": {"en": z.en, "ru": z.ru}, "scope": z.scope, "open": z.open, "ordered": z.ordered,
              "starts": list(z.starts), "well": z.well, "hell_cards": z.hell_cards, "why": z.why,
              "cards": naming(z, cards)} for z in ZONES]
    return {"set": "Hellscube v1.2",
            "about": "The zones Hellscube v1.2 cards create (they come into being when such a card appears and last "
                     "to the end of the game): what each is was read from the cards that describe it; its cards are "
                     "every card whose type line or rules text names it, found by patterns over all 720 cards. "
                     "'starts' lists the cards each player's zone holds when it comes into being (made for it, not "
                     "taken from any library); 'well' is the card a limitless zone's top always is. Built by "
                     "scripts/build_zones_table.py from the built-in card data.",
            "zones": zones}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(document: dict[str, Any]) -> bytes:
    """JSON with one line a zone's description and one a card, so that a card found or lost is a one-line diff."""
    zones = []
    for zone in document["zones"]:
        head = {k: v for k, v in zone.items() if k != "cards"}
        cards = ",\n".join(f"    {_dumps(card)}" for card in zone["cards"])
        zones.append(f"  {_dumps(head)[:-1]},\n   \"cards\": [\n{cards}\n   ]}}")
    head = {k: v for k, v in document.items() if k != "zones"}
    return (f"{_dumps(head)[:-1]},\n \"zones\": [\n" + ",\n".join(zones) + "\n ]}\n").encode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the committed table, write nothing")
    args = parser.parse_args()
    data = render(build(load_builtin().cards))
    if args.check:
        same = args.output.exists() and args.output.read_bytes() == data
        print(f"{args.output}: {'up to date' if same else 'NOT what the card texts give: run the script'}")
        return 0 if same else 1
    write_atomic(args.output, data)
    zones = json.loads(data)["zones"]
    print(f"wrote {args.output}: " + ", ".join(f"{z['id']} ({len(z['cards'])} cards)" for z in zones))
    return 0


if __name__ == "__main__":
    sys.exit(main())
