"""Deck lists (Arena, MTGO .txt and .dek, plain) and the colours a deck's lands make."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from hhdcli import colors as palette
from hhdcli.cards import Card, CardIndex, is_land_type, normalize_name
from hhdcli.colors import BASIC_LANDS, COLORS, LAND_TYPES
from hhdcli.costs import symbols_in
from hhdcli.errors import InputError
from hhdcli.files import read_text_file

MAIN_SECTIONS = {"deck", "main", "maindeck", "main deck", "mainboard", "commander"}
OTHER_SECTIONS = {"sideboard", "side", "companion", "maybeboard", "considering", "tokens", "about"}
_ENTRY = re.compile(
    r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+?)"
    r"(?:\s+\((?P<set>[A-Za-z0-9_]+)\)(?:\s+\S+)?)?(?:\s+\*[A-Za-z]+\*)?\s*$"
)
_BASIC_BY_KEY = {normalize_name(name): color for name, color in BASIC_LANDS.items()}


@dataclass(frozen=True)
class DeckEntry:
    count: int
    name: str
    line: int


@dataclass
class Deck:
    source: str
    main: list[DeckEntry] = field(default_factory=list)
    sideboard: list[DeckEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(e.name for e in self.main))


def read_deck(path: Path) -> Deck:
    """Read a deck file, refusing anything that is clearly not a deck list."""
    text = read_text_file(path, "deck list", "export the deck as text (Arena, MTGO, Moxfield…) or .dek")
    return parse_deck(text, str(path))


def parse_deck(text: str, source: str = "deck") -> Deck:
    if text.lstrip().startswith("<"):
        return _parse_dek(text, source)
    deck = Deck(source)
    section = "main"
    explicit_sections = False
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line:
            # MTGO: a blank line separates the main deck from the sideboard
            if not explicit_sections and deck.main:
                section = "side"
            continue
        if line.startswith(("#", "//")):
            continue
        header = line.rstrip(":").strip().lower()
        if header in MAIN_SECTIONS or header in OTHER_SECTIONS:
            section = "main" if header in MAIN_SECTIONS else "side"
            explicit_sections = True
            continue
        if section == "side" and explicit_sections and header.startswith("name "):
            continue  # Arena's "About / Name …" block
        target = deck.main if section == "main" else deck.sideboard
        if line[:3].upper() == "SB:":
            target, line = deck.sideboard, line[3:].strip()
        match = _ENTRY.match(line)
        if not match:
            deck.problems.append(f"{source}:{number}: not a deck line: {raw_line.strip()[:60]!r}")
            continue
        target.append(DeckEntry(int(match["count"]), _split_name(match["name"]), number))
    return deck


def _split_name(name: str) -> str:
    """`A / B` and `A // B` both name a split card `A // B`."""
    return re.sub(r"\s+/{1,2}\s+", " // ", name.strip())


def _parse_dek(text: str, source: str) -> Deck:
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(f"{source}: not a valid .dek file ({exc})", "export the deck again from MTGO") from exc
    deck = Deck(source)
    for number, node in enumerate(root.iter("Cards"), start=1):
        name, quantity = node.get("Name"), node.get("Quantity", "1")
        if not name or not quantity.isdigit():
            deck.problems.append(f"{source}: card entry {number} has no name or quantity")
            continue
        target = deck.sideboard if node.get("Sideboard", "false").lower() == "true" else deck.main
        target.append(DeckEntry(int(quantity), _split_name(name), number))
    return deck


# --- which colours the lands make -------------------------------------------------------------


@dataclass(frozen=True)
class LandColors:
    name: str
    colors: tuple[str, ...]
    how: str  # basic, hellscube, scryfall, --land


@dataclass
class DeckColors:
    colors: tuple[str, ...]
    lands: list[LandColors]
    unresolved: list[str]  # names we could not tell are lands or not
    non_lands: int = 0


class LandLookup(Protocol):
    """Something that tells other Magic cards' type lines and produced mana (Scryfall)."""

    def lookup(self, names: list[str]) -> dict[str, tuple[str, tuple[str, ...]] | None]: ...


_ADD = re.compile(r"\badd\b([^.\n]*)", re.IGNORECASE)
_ANY_COLOUR = re.compile(r"any (?:one )?colou?r|any combination of colou?rs|mana of any type", re.IGNORECASE)


def hellscube_land_colors(card: Card) -> tuple[str, ...]:
    """A Hellscube land's colours: its "Add {…}" abilities, "any colour" (all six), basic land types."""
    made: set[str] = set()
    for face in card.faces:
        for ability in _ADD.findall(face.oracle_text):
            made |= {c for symbol in symbols_in(ability) for c in symbol.split("/") if c in COLORS}
            if _ANY_COLOUR.search(ability):
                made |= set(COLORS)
        types = face.type_line.split("—")[-1].lower().split() if "—" in face.type_line else []
        made |= {LAND_TYPES[t] for t in types if t in LAND_TYPES}
    return palette.known(made)


def parse_land_option(option: str) -> tuple[str, tuple[str, ...]]:
    """`--land "Steam Vents=UR"` → ("Steam Vents", ("U", "R")); `=none` for a colourless land."""
    name, sep, letters = option.rpartition("=")
    colors = palette.parse_letters(letters)
    if not sep or not name.strip() or not letters.strip() or colors is None:
        raise InputError(f"--land {option!r} is not NAME=COLORS",
                         'write it like --land "Steam Vents=UR" (W U B R G P, or none)')
    return name.strip(), colors


def parse_colors_option(option: str) -> tuple[str, ...]:
    colors = palette.parse_letters(option)
    if colors is None:
        raise InputError(f"--colors {option!r}: use the letters W U B R G P, or none", "for example --colors WUB")
    return colors


def deck_colors(deck: Deck, hellscube: Iterable[Card], overrides: dict[str, tuple[str, ...]] | None = None,
                lookup: LandLookup | None = None) -> DeckColors:
    """The colours the deck's main-deck lands make, and where each came from."""
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
            if card.is_land:
                lands.append(LandColors(name, hellscube_land_colors(card), "hellscube"))
            else:
                non_lands += 1
        else:
            unknown.append(name)
    unresolved = []
    found = lookup.lookup(unknown) if lookup and unknown else {}
    for name in unknown:
        answer = found.get(name)
        if answer is None:
            unresolved.append(name)
        elif is_land_type(answer[0].split("//")[0]):
            lands.append(LandColors(name, palette.known(answer[1]), "scryfall"))
        else:
            non_lands += 1
    return DeckColors(palette.known(c for land in lands for c in land.colors), lands, unresolved, non_lands)
