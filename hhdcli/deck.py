"""A deck's lands and the colors they make (the deck-list formats are read by hhdcli.decklists)."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from hhdcli import DATA
from hhdcli import colors as palette
from hhdcli.cards import Card, CardIndex, is_land_type, normalize_name
from hhdcli.colors import BASIC_LANDS, COLORS, LAND_TYPES
from hhdcli.costs import symbols_in
from hhdcli.decklists import SPELL, Deck, DeckEntry, parse_deck
from hhdcli.errors import InputError
from hhdcli.files import read_text_file
from hhdcli.i18n import _

__all__ = ["Deck", "DeckEntry", "parse_deck", "read_deck", "deck_colors", "hellscube_land_colors"]

_BASIC_BY_KEY = {normalize_name(name): color for name, color in BASIC_LANDS.items()}


def read_deck(path: Path, sideboard_after_blank: bool | None = None) -> Deck:
    """Read a deck file in any export players use (see hhdcli.decklists), refusing what is not a deck.
    `sideboard_after_blank`: see `parse_deck` (None reads blank lines as the file's program does)."""
    text = read_text_file(path, _("deck list"), _("export the deck as text (Arena, MTGO, Moxfield…), .dek or .cod"))
    deck = parse_deck(text, str(path), sideboard_after_blank)
    if not deck.main and not deck.sideboard:
        raise InputError(_("{path}: no cards read (looks like {format}; {n} lines not understood)").format(path=path, format=deck.format, n=len(deck.ignored)),
                         _("export the deck as text, one card a line (4 Forest), or as .dek or .cod"))
    return deck


# --- which colors the lands make -------------------------------------------------------------


@dataclass(frozen=True)
class LandColors:
    """A land of the deck, the colors it makes, and how hhd knows them."""

    name: str
    colors: tuple[str, ...]
    how: str  # basic, hellscube, scryfall, built-in, --land


@dataclass
class DeckColors:
    """The colors a deck's lands make, with the lands behind them and the names left unknown."""

    colors: tuple[str, ...]
    lands: list[LandColors]
    unresolved: list[str]  # names we could not tell are lands or not: they may be lands
    non_lands: int = 0


REAL_CARDS_FILE = DATA / "real-cards.json.gz"  # built by scripts/build_land_names.py


@dataclass(frozen=True)
class RealCards:
    """What hhd knows of real Magic cards without asking anyone: every land's colors, and every other card's
    name, so a name it does not know (a typo, a card newer than the list) can be told from a known non-land."""

    lands: dict[str, tuple[str, ...]]  # name key (normalize_name) → the colors the land makes
    others: frozenset[str]  # the name keys of every other real card

    def land(self, name: str) -> tuple[str, ...] | None:
        return self.lands.get(normalize_name(name))

    def knows(self, name: str) -> bool:
        key = normalize_name(name)
        return key in self.lands or key in self.others


@cache  # read once, and only when a deck names a card neither Hellscube nor a lookup answered (25–60 ms)
def real_cards(path: Path = REAL_CARDS_FILE) -> RealCards:
    document = json.loads(gzip.decompress(path.read_bytes()))
    lands: dict[str, tuple[str, ...]] = {}
    for name, letters in document["lands"]:
        for face in (name, *name.split(" // ")):  # a deck may write a double-faced land by its front alone
            lands.setdefault(normalize_name(face), tuple(letters))
    return RealCards(lands, frozenset(document["others"].split("\n")))


class LandLookup(Protocol):
    """Something that tells other Magic cards' type lines and produced mana (Scryfall)."""

    def lookup(self, names: list[str]) -> dict[str, tuple[str, tuple[str, ...]] | None]: ...


_ADD = re.compile(r"\badd\b([^.\n]*)", re.IGNORECASE)
_ANY_COLOR = re.compile(r"any (?:one )?colou?r|any combination of colou?rs|mana of any type", re.IGNORECASE)


_QUOTED = re.compile(r'"[^"]*"|“[^”]*”')


def hellscube_land_colors(card: Card) -> tuple[str, ...]:
    """A Hellscube land's colors, from its land faces alone (a spell // land card counts with its land
    face): its own "Add {…}" abilities, "any color" (all six) and basic land types. An ability it
    grants to others, written in quotes ("Enchanted land has '{T}: Add …'"), is not its own."""
    made: set[str] = set()
    for face in card.faces:
        if not is_land_type(face.type_line):
            continue
        for ability in _ADD.findall(_QUOTED.sub("", face.oracle_text)):
            made |= {c for symbol in symbols_in(ability) for c in symbol.split("/") if c in COLORS}
            if _ANY_COLOR.search(ability):
                made |= set(COLORS)
        types = face.type_line.split("—")[-1].lower().split() if "—" in face.type_line else []
        made |= {LAND_TYPES[t] for t in types if t in LAND_TYPES}
    return palette.known(made)


def parse_land_option(option: str) -> tuple[str, tuple[str, ...]]:
    """`--land "Steam Vents=UR"` → ("Steam Vents", ("U", "R")); `=none` for a colorless land."""
    name, sep, letters = option.rpartition("=")
    colors = palette.parse_letters(letters)
    if not sep or not name.strip() or not letters.strip() or colors is None:
        raise InputError(_("--land {option!r} is not NAME=COLORS").format(option=option),
                         _("write it like --land \"Steam Vents=UR\" (W U B R G P, or none)"))
    return name.strip(), colors


def parse_colors_option(option: str) -> tuple[str, ...]:
    colors = palette.parse_letters(option)
    if colors is None:
        raise InputError(_("--colors {option!r}: use the letters W U B R G P, or none").format(option=option), _("for example --colors WUB"))
    return colors


def deck_colors(deck: Deck, hellscube: Iterable[Card], overrides: dict[str, tuple[str, ...]] | None = None,
                lookup: LandLookup | None = None) -> DeckColors:
    """The colors the deck's main-deck lands make, and where each came from."""
    by_key = {normalize_name(name): colors for name, colors in (overrides or {}).items()}
    index = CardIndex(list(hellscube))
    lands: list[LandColors] = []
    unknown: list[str] = []
    non_lands = 0
    for name in deck.names:
        key = normalize_name(name)
        basic = key.removeprefix("snowcovered")
        if key in by_key:
            lands.append(LandColors(name, by_key[key], "--land"))
        elif basic in _BASIC_BY_KEY:
            lands.append(LandColors(name, tuple(_BASIC_BY_KEY[basic]), "basic"))
        elif (card := index.by_key.get(key)) is not None:
            if any(is_land_type(face.type_line) for face in card.faces):
                lands.append(LandColors(name, hellscube_land_colors(card), "hellscube"))
            else:
                non_lands += 1
        elif deck.kinds.get(name) == SPELL:  # under the list's own heading of spells (`Creatures (20)`)
            non_lands += 1
        else:
            unknown.append(name)
    unresolved = []
    found = lookup.lookup(unknown) if lookup and unknown else {}
    for name in unknown:
        answer = found.get(name)
        if answer is None:  # offline, Scryfall unreachable or not knowing it: the built-in list
            if (colors := real_cards().land(name)) is not None:
                lands.append(LandColors(name, colors, "built-in"))
            elif real_cards().knows(name):
                non_lands += 1
            else:
                unresolved.append(name)
        elif any(is_land_type(face) for face in answer[0].split("//")):  # any land face, as MDFCs
            lands.append(LandColors(name, palette.known(answer[1]), "scryfall"))
        else:
            non_lands += 1
    return DeckColors(palette.known(c for land in lands for c in land.colors), lands, unresolved, non_lands)
