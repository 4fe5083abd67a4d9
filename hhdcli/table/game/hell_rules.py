"""The rules of what Hell cards ask of the table beyond drawing and playing, pure: which created zone an action is
about and who may handle it, the open sideboard's random cards, companions, a revealed card, a card's states (a
note, face down, its controller, counters off the battlefield). rules.py has the zones, actions and moves they
build on."""

from __future__ import annotations

import random

from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import NOTE_MOST, PUBLIC_ZONES, Place, Zone, may_see, on_battlefield, seated_player
from hhdcli.table.game.zones import MadeZone, made_zone, zone_open

# --- the zones Hell cards create -----------------------------------------------------------------------------


def existing_zone(zone_id: object, made: list[str]) -> MadeZone:
    """A created zone this game has: a zone comes into being when a card that names it appears."""
    found = made_zone(zone_id) if isinstance(zone_id, str) else None
    if found is None:
        raise TableError('say which zone: {"zone": ID}, one this game has', status=400)
    if found.id not in made:
        raise TableError("there is no {zone} this game: it comes into being when a card that names it appears",
                         status=409, zone=found.name())
    return found


def zone_holder(zone: MadeZone, actor: str | None, whose: str | None, names: list[str]) -> str | None:
    """Whose zone an action on a created zone is about: the table's (None), or a player's (the one named, else the
    acting player)."""
    if zone.shared:
        return None
    player = whose or actor
    if player is None:
        raise TableError('say whose {zone}: {{"whose": NAME}}', status=400, zone=zone.name())
    return seated_player(names, player)


def may_handle_zone(zone: MadeZone, holder: str | None, actor: str | None) -> None:
    """A player's created deck (its order nobody's to know) is theirs to shuffle, reveal from and take from."""
    if not zone.open and holder is not None and actor != holder:
        raise TableError("{player}'s {zone} is theirs to shuffle, reveal or take from", status=403, player=holder,
                         zone=zone.name())


def zone_top(zone: MadeZone, cards: list[int], count: int = 1) -> list[int]:
    """The top `count` cards of a created deck (a limitless deck's is a new card: none here)."""
    if not zone.ordered:
        raise TableError("{zone} has no top: it is not a deck", status=409, zone=zone.name())
    if not cards and zone.well is None:
        raise TableError("{zone} is empty", status=409, zone=zone.name())
    return cards[:count]


def hidden_deck_card(zone: MadeZone, cards: list[int], at: int) -> int:
    """The N-th card from the top of a created deck (its order is nobody's to know: revealing it tells)."""
    if not 1 <= at <= len(cards):
        raise TableError("{zone} has {count} cards", status=409, zone=zone.name(), count=len(cards))
    return cards[at - 1]


# --- the sideboard, random Hell cards, companions, a revealed card -------------------------------------------


def on_sideboard(place: Place | None, position: int) -> Place:
    if place is None or place.zone != Zone.SIDEBOARD:
        raise TableError("no card on the sideboard at position {position}", status=404, position=position)
    return place


def shuffled(positions: list[int]) -> list[int]:
    """A zone's cards in a new random order (the system's randomness: nobody can tell it from anything else)."""
    order = list(positions)
    random.SystemRandom().shuffle(order)
    return order


def revealed_at_random(order: list[int], count: int, eligible: set[int]) -> list[int]:
    """The rules shuffle the sideboard before an effect takes a random card from it: the random cards are the
    first `count` eligible ones of the shuffled order."""
    found = [p for p in order if p in eligible][:count]
    if not found:
        raise TableError("the sideboard has no such card", status=409)
    return found


def random_hell_cards(library: list[int], count: int) -> list[int]:
    """Cards at random from the Hell library (the cube's cards "that were not drafted")."""
    if len(library) < count:
        raise TableError("the Hell library has fewer than {count} cards", status=409, count=count)
    return random.SystemRandom().sample(library, count)


def declared_companion(player: str, place: Place | None, position: int, is_companion: bool, name: str) -> None:
    """A player may declare any companion on the sideboard as their chosen companion (its condition is theirs
    to keep)."""
    on_sideboard(place, position)
    if not is_companion:
        raise TableError("{card} is not a companion", status=409, card=name)


def castable_companion(player: str, declared: int | None, place: Place | None, cast: bool) -> int:
    """Once a game a player may cast their chosen companion from outside the game: the sideboard."""
    if declared is None:
        raise TableError("{player} has declared no companion", status=409, player=player)
    if cast:
        raise TableError("{player} has cast their companion this game already", status=409, player=player)
    if place is None or place.zone != Zone.SIDEBOARD:
        raise TableError("{player}'s companion is no longer on the sideboard", status=409, player=player)
    return declared


def revealable(player: str, place: Place | None, position: int) -> Place:
    """A card a player may reveal: one in their hand (or waiting, just drawn)."""
    if place is None or place.zone not in (Zone.HAND, Zone.PENDING) or place.player != player:
        raise TableError("{player} holds no such card", status=404, player=player)
    return place


# --- a card's states: a note, face down, its controller, counters off the battlefield -----------------------


def noted(note: object) -> str | None:
    """A note as a card carries it (none: the note goes)."""
    if not isinstance(note, str) or len(note) > NOTE_MOST:
        raise TableError('write the note as {{"note": TEXT}}, at most {most} characters', status=400, most=NOTE_MOST)
    return " ".join(note.split()) or None


def controlled(place: Place | None, actor: str | None, position: int, name: str) -> Place:
    """A card its controller acts on (a note, its face): one in their hand, library or play; on the battlefield or
    in another open zone, the host's board may too. Another's hidden card is not there, to them."""
    if place is None or not may_see(place, actor) and actor is not None:
        raise TableError("no card at library position {position}", status=404, position=position)
    if actor is not None and place.player not in (None, actor):
        raise TableError("{card} is {player}'s: they do that", status=403, card=name, player=place.player)
    if actor is None and place.zone not in (*PUBLIC_ZONES, Zone.MADE):
        raise TableError("no card at library position {position}", status=404, position=position)
    return place


def turned_up(place: Place, name: str) -> None:
    if not place.face_down:
        raise TableError("{card} is face up", status=409, card=name)


def control_to(place: Place | None, position: int, whose: str, names: list[str], name: str) -> str:
    """A card on the battlefield goes under another player's control (an effect gives it: Country Roads, Karen);
    its owner stays."""
    place = on_battlefield(place, position)
    seated_player(names, whose)
    if place.player == whose:
        raise TableError("{player} controls {card} already", status=409, player=whose, card=name)
    return whose


def counted_place(place: Place | None, position: int) -> Place:
    """Counters go on a face-up card open to all: on the battlefield, and also in a graveyard, in exile or in an
    open created zone (time counters on a suspended card, on one in the auto zone)."""
    if place is None or place.face_down or not (place.zone in PUBLIC_ZONES or place.zone == Zone.MADE
                                                and zone_open(place.made)):
        raise TableError("no face-up card in play, a graveyard or exile at position {position}", status=404,
                         position=position)
    return place
