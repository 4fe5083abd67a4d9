"""The color vocabulary, written once: letters, names, basic lands and the order groups print in."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

# The six colors of Hellscube v1.2 in printing order; purple (P) is a color of its own.
COLORS = "WUBRGP"
COLOR_NAMES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green", "P": "Purple"}
# English color words as the registry writes them ("White;Blue", pips.json's "colors"), any case.
_LETTER_BY_WORD = {name.lower(): letter for letter, name in COLOR_NAMES.items()} | {
    "colorless": "C", "colourless": "C"}

# The basic lands of the Hell pool (BASICS_PER_TYPE of each unless told otherwise: 250), and every basic land a
# deck may hold.
POOL_BASICS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
BASICS_PER_TYPE = 50
BASIC_LANDS = {**POOL_BASICS, "Nebula": "P", "Wastes": ""}
LAND_TYPES = {name.lower(): color for name, color in BASIC_LANDS.items() if color}


class Group(StrEnum):
    """How cards are grouped for people: one color, several (gold), none, lands, basic lands."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"
    P = "P"
    MULTI = "M"
    COLORLESS = "C"
    LAND = "L"
    BASIC = "basic"


_GROUP_OF_LETTER = {letter: Group(letter) for letter in COLORS}  # a dict look-up, not Enum's call, per card
GROUP_ORDER = tuple(Group)  # W U B R G P M C L basic: the order every list and table uses
COLOR_GROUPS = GROUP_ORDER[:8]  # the groups of cards by color alone
GROUP_NAMES = {**COLOR_NAMES, "M": "Multicolor", "C": "Colorless", "L": "Land", "basic": "Basic land"}


def color_letter(word: str) -> str:
    """`White` → W, `colorless` → C; a letter or an unknown word (Yellow) comes back as it is."""
    return _LETTER_BY_WORD.get(word.lower(), word)


def ordered(colors: Iterable[str]) -> tuple[str, ...]:
    """Color letters in WUBRGP order, each once; other colors a card names (Yellow…) after, A–Z."""
    return tuple(sorted(set(colors), key=lambda c: (COLORS.find(c) if c in COLORS else len(COLORS), c)))


def known(colors: Iterable[str]) -> tuple[str, ...]:
    """Only the six colors, in WUBRGP order (drops C, S and anything else)."""
    present = set(colors)
    return tuple([c for c in COLORS if c in present])  # a list first: a generator is slower for six


def parse_letters(text: str) -> tuple[str, ...] | None:
    """`wub` → (W, U, B); `none` or empty → (); None when a character is not a color letter."""
    letters = text.strip().upper()
    if letters in ("NONE", ""):
        return ()
    if not set(letters) <= set(COLORS):
        return None
    return known(letters)


def group_of(colors: tuple[str, ...]) -> Group:
    """One color is its own group, several are MULTI, none COLORLESS."""
    if len(colors) > 1:
        return Group.MULTI
    return _GROUP_OF_LETTER.get(colors[0], Group.COLORLESS) if colors else Group.COLORLESS
