"""A player's deck and colors, however they arrive (the command line's --deck/--player, the front page's seats,
a phone's /api/deck, the board's late player): one reading, so a deck or a set of letters means the same
everywhere. Each caller words the refusals its own way (a command line names its option, the front page its
seat) by the refusal's class; the table's own words are the templates here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hhdcli.i18n import N_
from hhdcli.table.game.errors import TableError

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.deck import LandLookup
    from hhdcli.decklists import Deck

MAX_DECK_TEXT = 60_000  # a pasted deck list (a 250-card cube is a fifth of it)


class BadColors(TableError):
    """Letters that are not colors."""

    def __init__(self) -> None:
        super().__init__(N_("colors: the letters W U B R G P, or none"), status=400)


class EmptyDeck(TableError):
    def __init__(self) -> None:
        super().__init__(N_("no cards read from the deck list: paste it as text, one card a line (4 Forest)"),
                         status=400)


class NoCardFound(TableError):
    """A text naming no card hhd knows (a chat message pasted as a deck): refused, not taken for a deck without
    lands, which would seat a colorless player without a word."""

    def __init__(self) -> None:
        super().__init__(N_("no card found in the deck list: paste the list itself, one card a line (4 Forest), "
                            "or its link"), status=400)


class NoLinks(TableError):
    """A deck link where nothing reads links (a table started without the network)."""

    def __init__(self) -> None:
        super().__init__(N_("this table does not read deck links: paste the deck list as text"), status=400)


class LinkUnread(TableError):
    """The deck link's site refused or failed: `reason` in the words hhd check uses."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(N_("the deck link could not be read: {reason}"), status=400, reason=reason)


@dataclass(frozen=True)
class PlayerDeck:
    """A player's colors, and (from a deck) its lands' count and what hhd check would warn of."""

    colors: tuple[str, ...]
    lands: int | None = None  # None: the colors were picked as letters
    problems: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()

    @property
    def letters(self) -> str:
        return "".join(self.colors)


def picked_colors(letters: object) -> PlayerDeck:
    """Colors picked as letters (`RG`, `wub`, empty or `none`)."""
    from hhdcli.colors import parse_letters

    found = parse_letters(letters) if isinstance(letters, str) else None
    if found is None:
        raise BadColors
    return PlayerDeck(found)


def linked_deck(text: str, read_link: Callable[[str], Deck] | None) -> Deck | None:
    """The deck a pasted link names (one of the sites hhd check reads), read by `read_link`; None when the text
    is no deck link. A link that cannot be read is refused, never taken for a deck without lands."""
    from hhdcli.decksites import is_deck_url
    from hhdcli.errors import HhdError

    link = text.strip()
    if "\n" in link or not is_deck_url(link):
        return None
    if read_link is None:
        raise NoLinks
    try:
        return read_link(link)
    except HhdError as exc:  # the site's refusal, in the words hhd check uses
        raise LinkUnread(exc.message) from exc


def read_deck(text: str, source: str = "deck", read_link: Callable[[str], Deck] | None = None,
              parse: Callable[[str, str], Deck] | None = None) -> Deck:
    """A pasted deck list (any format hhd check reads; read by `parse`, else here) or a deck's link."""
    from hhdcli.decklists import parse_deck

    deck = linked_deck(text, read_link) or (parse or parse_deck)(text, source)
    if not deck.main and not deck.sideboard:
        raise EmptyDeck
    return deck


def deck_of(deck: Deck, hellscube: Iterable[Card], lookup: LandLookup | None = None,
            overrides: dict[str, tuple[str, ...]] | None = None, pasted: bool = False) -> PlayerDeck:
    """A deck's colors: those its main deck's lands make (hhd check's reading), with its warnings. A `pasted`
    text (a table's seat or phone) whose every name is unknown is refused (NoCardFound): a deck file on the
    command line is warned of name by name instead."""
    from hhdcli.deck import deck_colors

    found = deck_colors(deck, hellscube, overrides, lookup)
    if pasted and found.unresolved and not found.lands and not found.non_lands:
        raise NoCardFound
    return PlayerDeck(found.colors, len(found.lands), tuple(deck.warnings), tuple(found.unresolved))
