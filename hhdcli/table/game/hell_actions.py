"""The handlers of what Hell cards ask of the table beyond drawing and playing: the open sideboard's shuffle and
random cards, random Hell cards into a hand, companions, a card revealed, a card's states (a note, face down, its
controller, a token card) and the zones Hell cards create. One handler per action, as in handlers.py, which puts
them in its one table."""

from __future__ import annotations

from hhdcli.table.game import hell_rules, rules
from hhdcli.table.game.acting import Act, Answer
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import Action, Destination, End, Zone
from hhdcli.table.game.zones import MadeZone

# --- the sideboard, random cards, companions, reveal ------------------------------------------------------


def shuffle_sideboard(a: Act) -> Answer:
    """The sideboard in a new random order (the rules shuffle it before a random card is taken from it)."""
    order = a.tx.top(Zone.SIDEBOARD, 10_000)
    a.tx.log_action(a.actor, Action.SHUFFLE_SIDEBOARD, {"count": len(order)}, order)
    a.tx.reorder(hell_rules.shuffled(order))
    return {"count": len(order)}


def random_from_sideboard(a: Act, count: int, nonbasic: bool = False) -> Answer:
    """Cards at random from the sideboard (Nebula Warp, Search for the Nebula): it is shuffled first, as the rules
    say, then the first `count` (nonbasic ones, with `nonbasic`) are revealed: the log names them; they stay
    where they are, on top, for the effect to move."""
    order = hell_rules.shuffled(a.tx.top(Zone.SIDEBOARD, 10_000))
    eligible = {p for p in order if not (nonbasic and a.views.is_basic(p, a.tx.own_name(p)))}
    found = hell_rules.revealed_at_random(order, count, eligible)
    order = found + [p for p in order if p not in found]  # the revealed ones on top, in the order revealed
    a.tx.log_action(a.actor, Action.RANDOM_FROM_SIDEBOARD, {"names": [a.name(p) for p in found], "count": len(found),
                                                           "nonbasic": nonbasic}, order)
    a.tx.reorder(order)
    return {"cards": [a.describe(p, a.name(p)) for p in found]}


def random_hell_card(a: Act, whose: str, count: int) -> Answer:
    """Hell cards at random from the Hell library into a player's hand (Goblin Draft Guide, Faithful Looting: "a
    card at random from the cube that was not drafted"): which, that player alone knows."""
    whose = rules.seated_player(a.tx.names(), whose)
    found = hell_rules.random_hell_cards(a.tx.top(Zone.LIBRARY, 10_000), count)
    a.tx.log_action(a.actor, Action.RANDOM_HELL_CARD, {"whose": whose, "count": count,
                                                       "names": [a.card_name(p) for p in found]}, found)
    for position in found:
        a.tx.move(position, Zone.HAND, End.BOTTOM, whose)
    return {"whose": whose, "count": count, **({"cards": [a.describe(p) for p in found]} if whose == a.actor else {})}


def companion(a: Act, position: int) -> Answer:
    """A player declares a companion on the sideboard as theirs (anywhere in it; its condition is theirs to keep)."""
    player = a.player()
    name = a.name(position)
    hell_rules.declared_companion(player, a.tx.place(position), position, a.views.is_companion(position), name)
    a.tx.log_action(player, Action.COMPANION, {"name": name}, [], players=[player])
    a.tx.set_companion(player, position)
    return a.describe(position, name)


def cast_companion(a: Act) -> Answer:
    """Once a game a player casts their chosen companion from outside the game (the sideboard): played, theirs."""
    player, tx = a.player(), a.tx
    declared = next(p["companion"] for p in tx.players() if p["name"] == player)
    position = hell_rules.castable_companion(player, declared, tx.place(declared) if declared else None,
                                        player in tx.who_did(Action.CAST_COMPANION))
    name = a.name(position)
    tx.log_action(player, Action.CAST_COMPANION, {"name": name}, [position])
    a.put(position, rules.Move(Action.CAST_COMPANION, Zone.BATTLEFIELD, End.BOTTOM, player))
    return a.describe(position, name)


def reveal(a: Act, position: int) -> Answer:
    """A player shows a card of their hand to the table (a card whose text says to reveal it as it is drafted):
    the log names it on every page."""
    player = a.player()
    hell_rules.revealable(player, a.tx.place(position), position)
    name = a.name(position)
    a.tx.log_action(player, Action.REVEAL, {"name": name}, [position])
    a.tx.set_card(position, revealed="1")  # the others' pages show it, until it moves
    a.appear(position)
    return a.describe(position, name)


# --- a card's states -----------------------------------------------------------------------------------------


def note(a: Act, position: int, note: object) -> Answer:
    """A note on a card, set or changed by its controller (a chosen color, a land type, a name, a vote…): shown
    with the card wherever it may be seen; none clears it. A note on a card the others cannot see is theirs too."""
    name = a.name(position)
    place = hell_rules.controlled(a.tx.place(position), a.actor, position, name)
    text = hell_rules.noted(note)
    a.tx.log_action(a.actor, Action.NOTE, {**a.seen_name(place, position), "note": text or ""}, [position])
    a.tx.set_card(position, note=text)
    return {**a.describe(position, name), "note": text}


def face_up(a: Act, position: int) -> Answer:
    """A face-down card turned face up by its controller: the log names it on every page."""
    name = a.name(position)
    place = hell_rules.controlled(a.tx.place(position), a.actor, position, name)
    hell_rules.turned_up(place, name)
    a.tx.log_action(a.actor, Action.FACE_UP, {"name": name, "from": place.zone}, [position])
    a.tx.set_card(position, face_down=None)
    a.appear(position)
    return a.describe(position, name)


def control(a: Act, position: int, whose: str) -> Answer:
    """A card on the battlefield under another player's control; its owner stays (it dies into its owner's
    graveyard, returns to its owner's hand)."""
    place = a.tx.place(position)
    name = a.name(position)
    if place is not None and place.face_down and place.player != a.actor:  # its controller's to give
        raise TableError("no card on the battlefield at position {position}", status=404, position=position)
    to = hell_rules.control_to(place, position, whose, a.tx.names(), name)
    a.tx.log_action(a.actor, Action.CONTROL, {**a.seen_name(place, position), "whose": to,
                                              "from": place.player if place else None}, [position])
    a.tx.set_card(position, player=to)
    return {**a.describe(position, name), "player": to}


def token_card(a: Act, name: str, to: Destination, whose: str | None = None, zone: str | None = None) -> Answer:
    """A token card made by its name (a token made off the battlefield: Path to Path to Exile's copy in a hand,
    Tim 2's Gutshot on the stack, Collect Call's Eye Collectors; a copy of a random card, named): it moves like a
    card between every zone, counted where it is, outliving its maker; it is `whose`'s (the acting player's),
    as a token made in a player's zone is theirs."""
    owner = rules.seated_player(a.tx.names(), whose or a.player())
    position = a.tx.last_own_card() + 1
    made = hell_rules.existing_zone(zone, a.tx.made_zones()) if to == Destination.ZONE else None
    moved = rules.move_of(rules.Place(position, Zone.PENDING, owner, owner), owner, to, name,
                          rules.Where(owner, made))
    a.tx.log_action(a.actor, Action.TOKEN_CARD, {"name": name, "to": str(to), "whose": owner,
                                                 **({"zone": made.id} if made else {})}, [], (position,),
                    zones=[made.id] if made else ())
    a.tx.add_own_card(position, owner, name, token=True)
    a.put(position, moved)
    return {**a.views.describe(position, name=name), "zone": moved.zone, "owner": owner}


# --- the zones Hell cards create ---------------------------------------------------------------------------


def _zone(a: Act, zone: str, whose: str | None, theirs: bool = True) -> tuple[MadeZone, str | None]:
    """The created zone an action is about, and whose (None: the table's). With `theirs`, a player's deck is
    theirs alone to shuffle, reveal and take from (anyone may put a card into it)."""
    found = hell_rules.existing_zone(zone, a.tx.made_zones())
    player = hell_rules.zone_holder(found, a.actor, whose, a.tx.names())
    if theirs:
        hell_rules.may_handle_zone(found, player, a.actor)
    return found, player


def zone_add(a: Act, zone: str, name: str, whose: str | None = None) -> Answer:
    """A card known by its name (a player's own creature put into the auto zone, a basic into a whammy deck) into
    a created zone: its top, if a deck."""
    found, player = _zone(a, zone, whose, theirs=False)
    position = a.tx.last_own_card() + 1
    a.tx.log_action(a.actor, Action.ZONE_ADD, {"name": name, "zone": found.id, "whose": player}, [], (position,),
                    zones=[found.id])
    a.tx.add_own_card(position, player, name)
    a.tx.move(position, Zone.MADE, End.TOP if found.ordered else End.BOTTOM, player, found.id)
    return {"zone": found.id, "whose": player, "name": name, "position": position}


def shuffle_zone(a: Act, zone: str, whose: str | None = None) -> Answer:
    found, player = _zone(a, zone, whose)
    cards = a.tx.in_made_zone(found.id, player)
    a.tx.log_action(a.actor, Action.SHUFFLE_ZONE, {"zone": found.id, "whose": player, "count": len(cards)}, cards,
                    zones=[found.id])
    if cards:
        a.tx.reorder(hell_rules.shuffled(cards))
    return {"zone": found.id, "whose": player, "count": len(cards)}


def reveal_zone(a: Act, zone: str, whose: str | None = None, count: int = 1, at: int | None = None) -> Answer:
    """The top `count` cards of a created deck, or its `at`-th card, revealed: the log names them; they stay."""
    found, player = _zone(a, zone, whose)
    cards = a.tx.in_made_zone(found.id, player)
    shown = [hell_rules.hidden_deck_card(found, cards, at)] if at is not None else hell_rules.zone_top(found, cards, count)
    names = [a.name(p) for p in shown]
    a.tx.log_action(a.actor, Action.REVEAL_ZONE, {"zone": found.id, "whose": player, "names": names,
                                                  "count": len(names), **({"at": at} if at else {})}, [],
                    zones=[found.id])
    return {"zone": found.id, "whose": player, "names": names}


def take_from_zone(a: Act, zone: str, to: Destination, whose: str | None = None, into: str | None = None) -> Answer:
    """A created deck's top card to a zone (a limitless deck's: a new card of its kind, Eye Collector's token
    copies): the log names it. `into`: the created zone it goes to, when it goes to one."""
    found, player = _zone(a, zone, whose)
    cards = hell_rules.zone_top(found, a.tx.in_made_zone(found.id, player))
    position = cards[0] if cards else a.tx.last_own_card() + 1
    # the top card, or (a limitless deck) the new card it always is, as if it lay there
    place = (a.tx.place(position) if cards else None) or rules.Place(position, Zone.MADE, player, player, made=found.id)
    name = a.name(position) if cards else str(found.well)
    into_zone = hell_rules.existing_zone(into, a.tx.made_zones()) if to == Destination.ZONE else None
    moved = rules.move_of(place, a.actor, to, name, rules.Where(player, into_zone))
    # from a hidden deck into a hand or a library (Spacefolk Looter's draw): its player's to know
    hidden = not found.open and moved.zone in (Zone.HAND, Zone.DECK)
    a.tx.log_action(a.actor, Action.TAKE_FROM_ZONE, {"zone": found.id, "whose": player, "name": name, "to": str(to),
                                                     **({"into": into_zone.id} if into_zone else {}),
                                                     **({"private": True} if hidden else {})},
                    [position], () if cards else (position,), zones=[found.id])
    if not cards:
        a.tx.add_own_card(position, player, name)
    a.put(position, moved)
    return {**a.describe(position, name), "zone": moved.zone}


