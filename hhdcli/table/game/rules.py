"""The Hell table's rules, pure: the zones a card can be in, the actions a player takes, and what each action
does to the zones and who may take it. Nothing here reads or writes the state file: the session reads plain
data through the store, asks these functions, and writes what they decide.

Zones (`Zone`): the Hell library (ord ascending: the top first), the shared sideboard (the top first), a player's
hand (theirs alone to see), the public zones a played Hell card moves through (battlefield, tapped or not and with
counters; graveyard; exile), a player's own library (`deck`: a Hell card put into its owner's library; theirs
alone to know) and `pending` (drawn, a choice card waiting for take or decline).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from hhdcli.i18n import N_
from hhdcli.library import OPENING_HAND
from hhdcli.mana import Take
from hhdcli.table.game.errors import NeedsConfirmation, TableError
from hhdcli.table.game.zones import MadeZone, zone_open

# Cards of the players' own decks that left the game (by name, onto the sideboard) are numbered from here, above
# every library position; their name is kept with them, Hell cards have none (their card data says it).
OWN_CARDS = 1_000_000
RESEAT_MINUTES = 10  # a re-seat code seats one phone within this time, then is dead


class Zone(StrEnum):
    """Where a card is; the value is what the state file and the page call it."""

    LIBRARY = "library"
    SIDEBOARD = "sideboard"
    HAND = "hand"
    BATTLEFIELD = "battlefield"  # these three are open to everyone, back to the Hell library at the end of the game
    GRAVEYARD = "graveyard"
    EXILE = "exile"
    DECK = "deck"  # its owner's own library: the libraries keep their cards at the end of a game
    PENDING = "pending"
    MADE = "created-zone"  # a zone a Hell card created (which one: the card's `made`, a zone of hhdcli/data/zones-v1.2.json)


PUBLIC_ZONES = (Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.EXILE)  # where played cards are, by zone


class End(StrEnum):
    """Which end of an ordered zone a card goes to."""

    TOP = "top"
    BOTTOM = "bottom"


class Opening(StrEnum):
    """Where a player's opening hand stands this game, once it is dealt (before: None), as the state and the page
    (from its bootstrap) name it: dealt (a mulligan or a keep to come), or kept."""

    DEALT = "dealt"
    KEPT = "kept"


class Coin(StrEnum):
    """A coin's sides, as the log and the page (from its bootstrap) name them."""

    HEADS = "heads"
    TAILS = "tails"


class Action(StrEnum):
    """What a log entry says was done; the value is the log's word for it, a message of the table's catalog."""

    DRAW = N_("draw")
    TAKE = N_("take")
    DECLINE = N_("decline")
    OPENING_HAND = N_("opening hand")
    MULLIGAN = N_("mulligan")
    KEEP = N_("keep")
    PLAY = N_("play")
    PLAY_FROM_SIDEBOARD = N_("play from sideboard")
    TO_SIDEBOARD = N_("to sideboard")
    OWN_CARD_TO_SIDEBOARD = N_("own card to sideboard")
    TO_HELL_LIBRARY = N_("to the Hell library")
    FROM_SIDEBOARD = N_("from the sideboard")  # any card of the open sideboard, by anyone, to one of their zones
    SHUFFLE_SIDEBOARD = N_("shuffle the sideboard")
    RANDOM_FROM_SIDEBOARD = N_("random from the sideboard")  # shuffled first, as the rules say, then revealed
    RANDOM_HELL_CARD = N_("random Hell card")  # from the Hell library into a player's hand ("not drafted")
    COMPANION = N_("companion")  # a companion on the sideboard declared as a player's
    CAST_COMPANION = N_("cast companion")  # once a game, from outside the game (the sideboard)
    TO_ZONE = N_("to a zone")  # a card into a zone a Hell card created
    ZONE_ADD = N_("named card to a zone")  # a card by its name (a player's own, a whammy deck's basic…)
    SHUFFLE_ZONE = N_("shuffle a zone")
    REVEAL_ZONE = N_("reveal from a zone")
    TAKE_FROM_ZONE = N_("take from a zone")  # a created deck's top card (a limitless one's: a new one)
    REVEAL = N_("reveal")  # a card of the player's hand shown to the table
    NOTE = N_("note")  # a chosen color, type, number, name… written on a card (Cockatrice's annotation)
    FACE_DOWN = N_("face down")  # a card played, exiled or put into a zone face down (morph, a hidden agenda)
    FACE_UP = N_("face up")  # a face-down card turned face up by its controller
    CONTROL = N_("control")  # a card on the battlefield under another player's control (its owner stays)
    TOKEN_CARD = N_("token card")  # a token card made by name in a zone (a token made off the battlefield)
    END_OF_GAME = N_("end of game")
    DISCARD = N_("discard")
    TO_BATTLEFIELD = N_("to the battlefield")
    TO_GRAVEYARD = N_("to the graveyard")
    TO_EXILE = N_("to exile")
    TO_HAND = N_("to hand")
    TO_LIBRARY = N_("to its owner's library")
    TAP = N_("tap")
    UNTAP = N_("untap")
    CARD_COUNTER = N_("card counter")
    TOKENS = N_("tokens")  # tokens a card made, in play or gone (counted with the card)
    LIFE = N_("life")
    PLAYER_COUNTER = N_("player counter")
    DIE = N_("die")
    COIN = N_("coin")
    FIRST_PLAYER = N_("first player")
    TURN = N_("turn")
    STEP = N_("step")
    LIFE_START = N_("starting life")
    DECK = N_("deck")
    UNDO = N_("undo")  # a line saying who took back which action (that action's line stays, marked undone)


OPEN_ZONES = (Zone.SIDEBOARD, *PUBLIC_ZONES)  # every viewer sees these cards
# Zones whose cards go back to the bottom of the Hell library at the end of a game: all but the libraries (the
# Hell library and the players' own) and the sideboard
PLAYERS_ZONES = (Zone.HAND, *PUBLIC_ZONES, Zone.PENDING, Zone.MADE)
# a Hell card first moved into one of these by a player is theirs (its owner)
OWNING_ZONES = (Zone.HAND, *PUBLIC_ZONES, Zone.DECK, Zone.MADE)
# What a player drew, holds or put back is theirs to know: the others read that they acted, not on which card.
PRIVATE_ACTIONS = (Action.DRAW, Action.TAKE, Action.OPENING_HAND, Action.MULLIGAN, Action.KEEP, Action.FACE_DOWN)
# where a card's note still means something: it stays with the card in these, and goes when it leaves for a library
# or the sideboard (a new object, read by nobody's note)
NOTED_ZONES = (Zone.HAND, Zone.PENDING, *PUBLIC_ZONES, Zone.MADE)
FACE_DOWN_ZONES = (Zone.BATTLEFIELD, Zone.EXILE, Zone.MADE)  # where a card may go face down (morph, exile, agenda)
NOTE_MOST = 100  # characters of a note
OPENING_ACTIONS = (Action.OPENING_HAND, Action.MULLIGAN, Action.KEEP)


@dataclass(frozen=True)
class Place:
    """Where one card is, as the store read it."""

    position: int
    zone: Zone
    player: str | None = None  # who holds or played it
    owner: str | None = None  # the rules' owner (None: nobody moved it out of Hell this game)
    tapped: bool = False  # on the battlefield only
    counters: dict[str, int] = field(default_factory=dict)  # on the battlefield only: kind → how many
    made: str | None = None  # in a created zone (Zone.MADE): which
    depth: int | None = None  # in its owner's library (Zone.DECK): put N-th from the top (0: shuffled in; None: an end)
    note: str | None = None  # what its controller noted on it
    face_down: bool = False  # its face its controller's alone
    revealed: bool = False  # in a hand, shown to the table
    token: bool = False  # a token card (made by name off the battlefield, or with the supertype Token)


@dataclass(frozen=True)
class Move:
    """What moving a card does: the log's word for it, and the zone, end and player it goes to."""

    action: Action
    zone: Zone
    end: End
    player: str | None
    made: str | None = None  # into a created zone: which
    depth: int | None = None  # into its owner's library N-th from the top (0: shuffled in)
    face_down: bool = False


@dataclass(frozen=True)
class Entry:
    """A log entry as the rules read it: who did what, and which cards it moved (or created)."""

    id: int
    game: int
    player: str | None
    action: str
    detail: dict[str, Any] = field(default_factory=dict)
    moved: frozenset[int] = frozenset()
    players: frozenset[str] = frozenset()  # whose life or counters it changed
    turn: bool = False  # whether it changed the turn (or the starting life)
    zones: frozenset[str] = frozenset()  # the created zones it brought into being or acted on


# --- seeing ---------------------------------------------------------------------------------------------------


def may_see(place: Place | None, viewer: str | None) -> bool:
    """A card's face: the open sideboard's, played cards and an open created zone's for everyone, a hand (a
    waiting card, a created deck's) for its player alone, the library for nobody."""
    if place is None:
        return False
    if viewer is not None and place.player == viewer:
        return True
    if place.face_down:  # its controller's alone, wherever it is
        return False
    return place.zone in OPEN_ZONES or place.zone == Zone.MADE and zone_open(place.made) \
        or place.zone == Zone.HAND and place.revealed


# --- the library's order --------------------------------------------------------------------------------------


def table_order(positions: Iterable[int], secret: str) -> list[int]:
    """The table's secret order of the library: shuffled from the session's secret, so neither the printed
    library nor its public seed tells the next Hell card."""
    order = sorted(positions)
    random.Random(f"hhd-table-order:{secret}").shuffle(order)
    return order


# --- drawing --------------------------------------------------------------------------------------------------


def drawn_card(player: str, waiting: bool, top: list[int]) -> int:
    """The card a draw takes: the library's top, unless a choice card waits or the library is empty."""
    if waiting:
        raise TableError("{player} has a drawn card waiting: take it or decline it first", player=player)
    if not top:
        raise TableError("the Hell library is empty: the rules forbid drawing from it")
    return top[0]


def may_draw(player: str, phase: Opening | None) -> None:
    """The opening hand comes first: no draw until the player has kept theirs this game."""
    if phase is None:
        raise TableError("{player} has no opening hand yet: take it and keep it before drawing", status=409,
                         player=player)
    if phase != Opening.KEPT:
        raise TableError("{player} has not kept their opening hand yet: keep it (or mulligan) before drawing",
                         status=409, player=player)


def drawn_to(verdict: Take) -> Zone:
    """A land or a take goes to the hand; a choice waits for take or decline."""
    return Zone.PENDING if verdict == Take.CHOICE else Zone.HAND


def in_draw_step(player: str, turn: str | None, step: str | None) -> bool | None:
    """Whether a player draws in their own draw step, where the take rule lets them play a land at once or cast a
    take for {2} less: it is their turn and its draw step. None when the table keeps no turns (nobody's turn yet):
    the players keep them at the table, and the rule is said as it stands."""
    if turn is None:
        return None
    return turn == player and step == Step.DRAW


def waiting_card(player: str, pending: int | None) -> int:
    if pending is None:
        raise TableError("{player} has no drawn card waiting for take or decline", player=player)
    return pending


# --- the opening hand -----------------------------------------------------------------------------------------


def opening_phase(latest: Entry | None) -> tuple[Opening | None, list[int]]:
    """Where a player's opening hand stands, from their newest opening action this game: None (not dealt),
    'dealt' (mulligan or keep to come) or 'kept', and the Hell cards last dealt."""
    if latest is None:
        return None, []
    if latest.action == Action.KEEP:
        return Opening.KEPT, []
    return Opening.DEALT, [int(p) for p in latest.detail["dealt"]]


def may_deal(player: str, phase: Opening | None) -> None:
    if phase is not None:
        raise TableError("{player} has an opening hand this game; a mulligan deals a new one", player=player)


def deciding(player: str, phase: Opening | None, dealt: list[int]) -> list[int]:
    """The Hell cards dealt in the player's opening hand, while they still mulligan or keep it."""
    if phase is None:
        raise TableError("{player} has no opening hand yet: draw it first", player=player)
    if phase == Opening.KEPT:
        raise TableError("{player} kept their opening hand this game", player=player)
    return dealt


def deal(top: list[int], returned: Iterable[int] = ()) -> list[int]:
    """The Hell cards of an opening hand, from the top; from a library this short, the `returned` cards (a
    mulligan's, going to the bottom) come straight back."""
    positions = (top + list(returned))[:OPENING_HAND]
    if len(positions) < OPENING_HAND:
        raise TableError("the Hell library has fewer than 2 cards left for an opening hand")
    return positions


def mulligan_returns(dealt: list[int], held: list[int]) -> list[int]:
    """A London mulligan returns the dealt Hell cards still held, in the order they were dealt, not shuffled."""
    return [p for p in dealt if p in set(held)]


def kept_bottom(player: str, bottom: list[int], held: list[int]) -> list[int]:
    """The Hell cards the player ticked at keep, in the order ticked; each must be in their hand."""
    chosen = list(dict.fromkeys(bottom))
    if any(p not in set(held) for p in chosen):
        raise TableError("{player} does not hold every card named", status=400, player=player)
    return chosen


# --- playing and leaving the game -----------------------------------------------------------------------------


def playable(player: str, position: int, held: list[int]) -> int:
    if position not in held:
        raise TableError("{player} holds no such card", status=404, player=player)
    return position


def sideboard_top(top: list[int]) -> int:
    if not top:
        raise TableError("the sideboard is empty")
    return top[0]


def owner_after(zone: Zone, player: str | None, owner: str | None) -> str | None:
    """The rules' owner: the first player to move a card out of Hell (into a hand or play) this game."""
    if owner is None and player and zone in OWNING_ZONES:
        return player
    return owner


def to_hell_library(place: Place | None, name: str) -> None:
    """An ownerless Hell card on the sideboard may be put into "its owner's library": the Hell library."""
    if place is None or place.position >= OWN_CARDS:
        raise TableError("no Hell card at position {position}", status=404,
                         position=place.position if place else "?")
    if place.zone != Zone.SIDEBOARD:
        raise TableError("{card} is not on the sideboard", card=name)
    if place.owner is not None:
        raise TableError("{owner} owns {card}: its owner's library is theirs", owner=place.owner, card=name)


def to_sideboard(place: Place | None, player: str | None, position: int, name: str) -> None:
    """A card leaving the game (ante, an effect…) goes on top of the sideboard: a played card by anyone's
    effect, a card in hand or in their library by its holder."""
    if place is not None and place.zone == Zone.SIDEBOARD:  # open to all: this may be said
        raise TableError("{card} is not in play", status=409, card=name)
    movable(place, player, position)


def movable(place: Place | None, player: str | None, position: int) -> Place:
    """A card the asker may move: an open one (battlefield, graveyard, exile, the sideboard, an open created zone:
    anyone's effect may move it), or one in their own hand, library or created deck. The host moves open cards
    only."""
    mine = place is not None and place.zone in (Zone.HAND, Zone.DECK, Zone.MADE) and player is not None \
        and place.player == player
    hidden = place is not None and place.face_down and place.player != player  # its controller's to move
    if place is None or hidden or not (mine or place.zone in OPEN_ZONES
                                       or place.zone == Zone.MADE and zone_open(place.made)):
        # the library, another's hand or waiting card: one answer for all, so that no probe tells which
        # library positions other players hold
        raise TableError("no card at library position {position}", status=404, position=position)
    return place


class Destination(StrEnum):
    """Where a move may send a card, as the page (from its bootstrap) and the API name it: a public zone, its
    owner's hand, the top or bottom of its owner's library, or the sideboard (it leaves the game)."""

    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    EXILE = "exile"
    HAND = "hand"
    LIBRARY_TOP = "library-top"
    LIBRARY_BOTTOM = "library-bottom"
    LIBRARY_AT = "library-at"  # N-th from the top ("at": N)
    LIBRARY_SHUFFLED = "library-shuffled"  # shuffled into it
    SIDEBOARD = "sideboard"
    ZONE = "created-zone"  # a zone a Hell card created ("zone": its id; a player's own one: "whose", else the card's owner)


LIBRARY_ENDS = {Destination.LIBRARY_TOP: End.TOP, Destination.LIBRARY_BOTTOM: End.BOTTOM,
                Destination.LIBRARY_AT: End.TOP, Destination.LIBRARY_SHUFFLED: End.BOTTOM}
DEPTH_MOST = 99  # N-th from the top of a library: at most this deep
# The action a move to each destination is asked as (its handler's key); the log names the move it turns out to
# be (move_of: a card from a hand onto the battlefield is played)
MOVES = {Destination.BATTLEFIELD: Action.TO_BATTLEFIELD, Destination.GRAVEYARD: Action.TO_GRAVEYARD,
         Destination.EXILE: Action.TO_EXILE, Destination.HAND: Action.TO_HAND,
         Destination.LIBRARY_TOP: Action.TO_LIBRARY, Destination.LIBRARY_BOTTOM: Action.TO_LIBRARY,
         Destination.LIBRARY_AT: Action.TO_LIBRARY, Destination.LIBRARY_SHUFFLED: Action.TO_LIBRARY,
         Destination.SIDEBOARD: Action.TO_SIDEBOARD,
         Destination.ZONE: Action.TO_ZONE}


def destination_of(to: object) -> Destination:
    if not isinstance(to, str) or to not in tuple(Destination):
        raise TableError("a card goes to one of: {zones}", status=400, zones=", ".join(Destination))
    return Destination(to)


@dataclass(frozen=True)
class Where:
    """The details a move may name besides its destination: whose zone (a card taken from the sideboard goes to
    the taker's, or to the player named), which created zone, how deep in a library."""

    whose: str | None = None
    zone: MadeZone | None = None
    at: int | None = None
    face_down: bool = False  # played, exiled or put into a zone face down


def depth_of(at: object) -> int:
    if not isinstance(at, int) or isinstance(at, bool) or not 1 <= at <= DEPTH_MOST:
        raise TableError("say how deep in the library: {{\"at\": N}}, from 1 (the top) to {most}", status=400,
                         most=DEPTH_MOST)
    return at


def move_of(place: Place, mover: str | None, to: str, name: str, where: Where = Where()) -> Move:
    """Where a card goes and what the log calls it. A card returns to its owner's hand or library (an
    ownerless Hell card's library is the Hell library: moved through the sideboard's own action); one put onto
    the battlefield or into a graveyard or exile stays its player's. A card taken from the open sideboard (by an
    effect: Arabian Dunes, Need, Sidecaster Mage) goes to the taker's zones, or to those of the player named."""
    destination = destination_of(to)
    if place.zone == Zone.SIDEBOARD:
        holder = owner = where.whose or mover
        if holder is None:
            raise TableError('say whose zone the card goes to: {"whose": NAME}', status=400)
    else:
        holder = place.player or mover
        owner = place.owner or holder
    move = _moved(place, destination, holder, owner, where, name)
    if where.face_down:
        if move.zone not in FACE_DOWN_ZONES:
            raise TableError("a card goes face down onto the battlefield, into exile or into a created zone",
                             status=400)
        return Move(Action.FACE_DOWN, move.zone, move.end, move.player, move.made, face_down=True)
    return move


def _moved(place: Place, destination: Destination, holder: str | None, owner: str | None, where: Where,
           name: str) -> Move:
    """A card goes to its owner's hand, library or graveyard (or the player named: given), onto the battlefield
    under its controller (or the player named), into exile as its owner's."""
    given = where.whose or owner
    if destination == Destination.SIDEBOARD:
        return Move(Action.TO_SIDEBOARD, Zone.SIDEBOARD, End.TOP, None)
    if destination in LIBRARY_ENDS:
        depth = depth_of(where.at) if destination == Destination.LIBRARY_AT else \
            0 if destination == Destination.LIBRARY_SHUFFLED else None
        return Move(Action.TO_LIBRARY, Zone.DECK, LIBRARY_ENDS[destination], given, depth=depth)
    if destination == Destination.ZONE:
        return into_zone(place, where, owner, name)
    zone = Zone(destination)
    if zone == place.zone and not (zone == Zone.HAND and given != place.player):
        raise TableError("{card} is there already", status=409, card=name)
    if zone == Zone.HAND:
        return Move(Action.TO_HAND, zone, End.BOTTOM, given)
    to = {Zone.BATTLEFIELD: where.whose or holder, Zone.GRAVEYARD: given, Zone.EXILE: given}[zone]
    if place.zone == Zone.HAND:
        return Move(Action.PLAY if zone == Zone.BATTLEFIELD else Action.DISCARD if zone == Zone.GRAVEYARD
                    else Action.TO_EXILE, zone, End.BOTTOM, to)
    action = {Zone.BATTLEFIELD: Action.TO_BATTLEFIELD, Zone.GRAVEYARD: Action.TO_GRAVEYARD,
              Zone.EXILE: Action.TO_EXILE}[zone]
    return Move(action, zone, End.BOTTOM, to)


def into_zone(place: Place, where: Where, owner: str | None, name: str) -> Move:
    """A card into a created zone: the table's one, or a player's (the one named, else the card's owner's); a
    deck's top. In the table's zone the card stays its player's (a hidden agenda face down in the command zone)."""
    zone = where.zone
    if zone is None:
        raise TableError('say which zone: {"zone": ID}, one this game has', status=400)
    if not zone.hell_cards and place.position < OWN_CARDS:  # the rules: a Hell card that would be anted goes
        return Move(Action.TO_SIDEBOARD, Zone.SIDEBOARD, End.TOP, None)  # to the sideboard instead
    player = where.whose or owner  # in the table's zone too: whose card it is there (its face, its note)
    if not zone.shared and player is None:
        raise TableError('say whose {zone}: {{"whose": NAME}}', status=400, zone=zone.name())
    if place.zone == Zone.MADE and place.made == zone.id and place.player == player:
        raise TableError("{card} is there already", status=409, card=name)
    return Move(Action.TO_ZONE, Zone.MADE, End.TOP if zone.ordered else End.BOTTOM, player, made=zone.id)


def on_battlefield(place: Place | None, position: int) -> Place:
    """Tapping and counters are for a card on the battlefield (open to all: anyone's effect may)."""
    if place is None or place.zone != Zone.BATTLEFIELD:
        raise TableError("no card on the battlefield at position {position}", status=404, position=position)
    return place


class CardCounter(StrEnum):
    """The counters a table keeps on a card on the battlefield, as the API, the log and the page (from its
    bootstrap) name them."""

    PLUS = "+1/+1"
    MINUS = "-1/-1"
    CHARGE = "charge"
    LOYALTY = "loyalty"
    TIME = "time"  # suspend, Drive-to-work: on a card in exile or a created zone


class PlayerCounter(StrEnum):
    """The counters a table keeps on a player. Commander damage is kept per opponent whose commander dealt it:
    its key is COMMANDER_KEY and that player's name (commander_key)."""

    POISON = "poison"
    ENERGY = "energy"
    EXPERIENCE = "experience"
    COMMANDER = "commander"


COMMANDER_KEY = f"{PlayerCounter.COMMANDER}:"  # commander damage's key, before whose commander dealt it


def card_counter_kind(kind: object) -> CardCounter:
    if not isinstance(kind, str) or kind not in tuple(CardCounter):
        raise TableError("a card's counters are: {kinds}", status=400, kinds=", ".join(CardCounter))
    return CardCounter(kind)


def player_counter_kind(kind: object) -> PlayerCounter:
    if not isinstance(kind, str) or kind not in tuple(PlayerCounter):
        raise TableError("a player's counters are: {kinds}", status=400, kinds=", ".join(PlayerCounter))
    return PlayerCounter(kind)


def commander_key(names: list[str], whose: str, source: object) -> str:
    """Commander damage is counted per commander: the key of the damage `whose` took from `source`'s (another
    player at the table)."""
    if not isinstance(source, str) or source not in names or source == whose:
        raise TableError('say whose commander dealt the damage: {{"from": NAME}}, another player at the table',
                         status=400)
    return f"{COMMANDER_KEY}{source}"


def counted(counters: dict[str, int], kind: str, delta: int, name: str = "") -> dict[str, int]:
    """Counters after `delta` of a kind (none left: the kind goes). Fewer than none is refused: a tap that takes
    off a counter nobody put on would log a change that changed nothing."""
    if counters.get(kind, 0) + delta < 0:
        raise TableError("{card} has no such counter to take off", status=409, card=name or "?")
    left = {**counters, kind: counters.get(kind, 0) + delta}
    return {k: n for k, n in left.items() if n > 0}


def token_maker(place: Place | None, player: str | None, position: int, name: str) -> Place:
    """The tokens a card made are counted with it while it is on the battlefield, by the player who controls it
    (or the host's board): the count says how many of them are in play."""
    place = on_battlefield(place, position)
    if player is not None and place.player != player:
        raise TableError("{card} is {player}'s: they count the tokens it made", status=403, card=name,
                         player=place.player or "?")
    return place


def tokens_counted(counters: dict[str, int], token: str, made: dict[str, str], delta: int, name: str
                   ) -> dict[str, int]:
    """A card's counters after `delta` of a token it makes (`made`: its tokens' names by id) came into play or
    left it; a token count is a counter whose kind is the token's id."""
    if token not in made:
        raise TableError("{card} makes no such token", status=404, card=name)
    if counters.get(token, 0) + delta < 0:
        raise TableError("not that many {token} tokens of {card} are in play", status=409, card=name,
                         token=made[token])
    return counted(counters, token, delta)


# --- life, counters, dice and turns ---------------------------------------------------------------------------

LIFE_START = 20  # a game's starting life total, unless the host sets another
LIFE_MOST = 999  # the highest starting life the host may set (a number the board shows in full)
class Step(StrEnum):
    """A turn's steps, in their order, as the API and the page (from its bootstrap) name them."""

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    MAIN_1 = "main 1"
    COMBAT = "combat"
    MAIN_2 = "main 2"
    END = "end"


STEPS = tuple(Step)
DIE_SIDES = (2, 4, 6, 8, 10, 12, 20, 100)


def starting_life(value: object) -> int:
    """A starting life total the host may set: a whole number from 1 to LIFE_MOST."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= LIFE_MOST:
        raise TableError("the starting life is a number from 1 to {most}", status=400, most=LIFE_MOST)
    return value


def seated_player(names: list[str], name: str) -> str:
    if name not in names:
        raise TableError("no player named {player} at this table", status=404, player=name)
    return name


def die_sides(sides: int) -> int:
    if sides not in DIE_SIDES:
        raise TableError("a die has one of these numbers of sides: {sides}", status=400,
                         sides=", ".join(map(str, DIE_SIDES)))
    return sides


def next_turn(names: list[str], current: str | None) -> str:
    """The player whose turn comes next, in the order players came to the table (the first when none yet)."""
    if not names:
        raise TableError("no player at the table yet")
    if current not in names:
        return names[0]
    return names[(names.index(current) + 1) % len(names)]


def turn_step(step: str) -> str:
    if step not in STEPS:
        raise TableError("a turn's steps are: {steps}", status=400, steps=", ".join(STEPS))
    return step


# --- the end of a game ----------------------------------------------------------------------------------------


def game_to_end(confirm: bool, confirmed: int | None, game: int) -> None:
    """Ending a game is asked first (`confirm` false: what it will do is said, and nothing moves). `confirmed`:
    the game the asker saw when they confirmed; if it has already ended (another phone or the board ended it
    first), nothing moves: two players confirming at once end one game, not two."""
    if not confirm:
        raise NeedsConfirmation("ending the game puts every Hell card outside the libraries and the sideboard at "
                                "the bottom of the Hell library in random order, and begins game {next}",
                                next=game + 1)
    if confirmed is not None and confirmed != game:
        raise TableError("game {confirmed} has already ended; this is game {game}", status=409,
                         confirmed=confirmed, game=game)


def end_of_game(outside: list[int], secret: str, game: int) -> tuple[list[int], list[int]]:
    """The cards outside the libraries and the sideboard: the Hell cards, in the random order (seeded by the
    session's secret and the game) they go to the bottom of the Hell library in, and the players' own cards,
    which go home to their decks."""
    order = sorted(p for p in outside if p < OWN_CARDS)
    random.Random(f"hhd-table:{secret}:{game}").shuffle(order)
    return order, [p for p in outside if p >= OWN_CARDS]


# --- undo -----------------------------------------------------------------------------------------------------


def entry_to_undo(asker: str | None, anyone: bool, own: Entry | None, last: Entry | None) -> Entry:
    """Which entry an undo takes back: the asking player's own last action, even when others acted since; with
    `anyone` (confirmed), or for the host, the table's last action whoever took it. Another's action needs a
    confirmation."""
    if asker is not None and not anyone:
        if own is not None:
            return own
        if last is None:
            raise TableError("nothing to undo")
        if last.player is None:
            raise NeedsConfirmation("you have no action to undo; the last action is the host's ({action})",
                                    action=last.action)
        raise NeedsConfirmation("you have no action to undo; the last action is {player}'s ({action})",
                                player=last.player, action=last.action)
    if last is None:
        raise TableError("nothing to undo")
    if asker is None and not anyone and last.player is not None:  # the host, a player's action
        raise NeedsConfirmation("the last action is {player}'s ({action})", player=last.player, action=last.action)
    return last


def blocking(entry: Entry, later: list[Entry]) -> list[Entry]:
    """Later actions that moved any card this one moved, changed the same player's life or counters or the turn
    (or began a later game) depend on it."""
    return [e for e in later if e.moved & entry.moved or e.players & entry.players or e.turn and entry.turn
            or e.zones & entry.zones or Action.END_OF_GAME in (e.action, entry.action)]


# --- seats ----------------------------------------------------------------------------------------------------


def code_alive(issued: float, now: float) -> bool:
    """A re-seat code seats a phone for RESEAT_MINUTES after the host made it (used once, then dead)."""
    return 0 <= now - issued <= RESEAT_MINUTES * 60
