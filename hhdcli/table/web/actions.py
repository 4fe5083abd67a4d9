"""The table's actions as routes: each declares who may take it (`acts`), reads the request's values
(bodies.py) and calls the session's handler for it (`session.act`). What each does is hhdcli.table.game's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import jsonify

from hhdcli.table.game.rules import MOVES, Action, Destination
from hhdcli.table.game.views import deck_answer
from hhdcli.table.web import bodies
from hhdcli.table.web.context import Who, acts, gettext, language, served, table


def act(action: Action, actor: str | None, **params: Any) -> Any:
    """The action's answer, in the asker's language."""
    return jsonify(served().session.act(action, actor, language(), **params))


Reads = Callable[[], dict[str, Any]]


def _route(path: str, action: Action, who: Who, reads: Reads | None = None) -> None:
    """The route of an action whose values are read by `reads` (none: it reads nothing but who asks), named as
    its path (opening_hand, zone_shuffle)."""
    def route(actor: str | None) -> Any:
        return act(action, actor, **(reads() if reads else {}))

    # the endpoint's name: the path after /api/ (two actions' paths may end alike: sideboard/shuffle, zone/shuffle)
    route.__name__ = route.__qualname__ = path.removeprefix("/api/").replace("/", "_").replace("-", "_")
    table.post(path)(acts(who)(route))


# Each action's path, who may take it, and what it reads of the request (in the order it is checked)
ROUTES: list[tuple[str, Action, Who, Reads | None]] = [
    ("/api/draw", Action.DRAW, Who.PLAYER, None),
    ("/api/take", Action.TAKE, Who.PLAYER, None),
    ("/api/decline", Action.DECLINE, Who.PLAYER, None),
    ("/api/opening-hand", Action.OPENING_HAND, Who.PLAYER, None),
    ("/api/mulligan", Action.MULLIGAN, Who.PLAYER, None),
    # "bottom": the Hell cards that go to the bottom, in the order ticked
    ("/api/keep", Action.KEEP, Who.PLAYER, lambda: {"bottom": bodies.to_bottom()}),
    ("/api/play", Action.PLAY, Who.PLAYER, lambda: {"position": bodies.position()}),
    # the sideboard's top card, or {"position": N}: any card of it an effect lets the player cast
    ("/api/play-sideboard", Action.PLAY_FROM_SIDEBOARD, Who.PLAYER, lambda: {"position": bodies.optional_position()}),
    ("/api/sideboard/shuffle", Action.SHUFFLE_SIDEBOARD, Who.PLAYER_OR_HOST, None),
    # {"count": 4, "nonbasic": true}: shuffled first (the rules), then that many revealed at random
    ("/api/sideboard/random", Action.RANDOM_FROM_SIDEBOARD, Who.PLAYER_OR_HOST,
     lambda: {"count": bodies.count(), "nonbasic": bodies.flag("nonbasic")}),
    # {"whose": NAME, "count": 1}: Hell cards at random from the Hell library into a player's hand
    ("/api/random-hell-card", Action.RANDOM_HELL_CARD, Who.PLAYER_OR_HOST,
     lambda: {"whose": bodies.whose(), "count": bodies.count()}),
    # {"position": N}: a companion on the sideboard declared as the asker's; then cast once a game
    ("/api/companion", Action.COMPANION, Who.PLAYER, lambda: {"position": bodies.position()}),
    ("/api/companion/cast", Action.CAST_COMPANION, Who.PLAYER, None),
    # {"position": N}: a card of the asker's hand shown to the table
    ("/api/reveal", Action.REVEAL, Who.PLAYER, lambda: {"position": bodies.position()}),
    # a card's states: {"position": N, "note": TEXT} ("" clears it); a face-down card turned up; {"position": N,
    # "whose": NAME}: a card on the battlefield under another player's control; {"name": CARD, "to": a destination,
    # "whose": NAME}: a token card made by name
    ("/api/note", Action.NOTE, Who.PLAYER_OR_HOST, lambda: {"position": bodies.card_position(),
                                                            "note": bodies.body().get("note")}),
    ("/api/face-up", Action.FACE_UP, Who.PLAYER, lambda: {"position": bodies.card_position()}),
    ("/api/control", Action.CONTROL, Who.PLAYER_OR_HOST, lambda: {"position": bodies.card_position(),
                                                                  "whose": bodies.whose()}),
    ("/api/token-card", Action.TOKEN_CARD, Who.PLAYER, lambda: {
        "name": bodies.own_card(), "to": bodies.destination(), "whose": bodies.optional_whose(),
        **({"zone": bodies.zone()} if "zone" in bodies.body() else {})}),
    # the zones Hell cards create: {"zone": ID, "whose": NAME (a player's own zone; the asker's unless said)}
    ("/api/zone/add", Action.ZONE_ADD, Who.PLAYER_OR_HOST,
     lambda: {"zone": bodies.zone(), "name": bodies.own_card(), "whose": bodies.optional_whose()}),
    ("/api/zone/shuffle", Action.SHUFFLE_ZONE, Who.PLAYER_OR_HOST,
     lambda: {"zone": bodies.zone(), "whose": bodies.optional_whose()}),
    # {"count": N} from the top, or {"at": N}: the N-th card
    ("/api/zone/reveal", Action.REVEAL_ZONE, Who.PLAYER_OR_HOST,
     lambda: {"zone": bodies.zone(), "whose": bodies.optional_whose(), "count": bodies.count(),
              **({"at": bodies.where()["at"]} if "at" in bodies.body() else {})}),
    # {"to": a destination (as /api/move's), "into": ID when it goes to another created zone}
    ("/api/zone/take", Action.TAKE_FROM_ZONE, Who.PLAYER_OR_HOST,
     lambda: {"zone": bodies.zone(), "whose": bodies.optional_whose(), "to": bodies.destination(),
              **({"into": bodies.body()["into"]} if isinstance(bodies.body().get("into"), str) else {})}),
    ("/api/to-sideboard", Action.TO_SIDEBOARD, Who.PLAYER,
     lambda: {"position": bodies.card_position(), "to": Destination.SIDEBOARD}),
    # a card of the player's own deck leaves the game: onto the sideboard's top, by name
    ("/api/own-card", Action.OWN_CARD_TO_SIDEBOARD, Who.PLAYER, lambda: {"name": bodies.own_card()}),
    # a card on the battlefield tapped ({"tapped": true}) or untapped (false)
    ("/api/tap", Action.TAP, Who.PLAYER_OR_HOST,
     lambda: {"position": bodies.card_position(), "tapped": bodies.tapped()}),
    # counters on a card on the battlefield: {"position": N, "kind": a rules.CardCounter, "delta": 1 or -1…}
    ("/api/card-counter", Action.CARD_COUNTER, Who.PLAYER_OR_HOST,
     lambda: {"position": bodies.card_position(), "kind": bodies.card_counter(), "delta": bodies.amount()}),
    # tokens a card on the battlefield made, into play or gone: {"position": N, "token": ID (of its description's
    # `tokens`), "delta": 1 or -1…}; its controller's (or the host's) to count
    ("/api/tokens", Action.TOKENS, Who.PLAYER_OR_HOST,
     lambda: {"position": bodies.card_position(), "token": bodies.token(), "delta": bodies.amount()}),
    # {"whose": NAME, "delta": -3}: a player's life total changed
    ("/api/life", Action.LIFE, Who.PLAYER_OR_HOST, lambda: {"whose": bodies.whose(), "delta": bodies.amount()}),
    # {"whose": NAME, "kind": "poison", "delta": 1}: counters on a player (rules.PlayerCounter's kinds); commander
    # damage says whose commander dealt it: {"whose": NAME, "kind": "commander", "from": NAME, "delta": 5}
    ("/api/player-counter", Action.PLAYER_COUNTER, Who.PLAYER_OR_HOST, lambda: {
        "whose": bodies.whose(), "delta": bodies.amount(), "kind": bodies.body().get("kind"),
        "source": bodies.body().get("from")}),
    ("/api/host/life-start", Action.LIFE_START, Who.HOST, lambda: {"life": bodies.starting_life()}),
    # {"sides": 6}: a die rolled by the server, in everyone's log
    ("/api/die", Action.DIE, Who.PLAYER_OR_HOST, lambda: {"sides": bodies.die_sides()}),
    ("/api/coin", Action.COIN, Who.PLAYER_OR_HOST, None),
    ("/api/first-player", Action.FIRST_PLAYER, Who.PLAYER_OR_HOST, None),
    ("/api/next-turn", Action.TURN, Who.PLAYER_OR_HOST, None),
    ("/api/step", Action.STEP, Who.PLAYER_OR_HOST, lambda: {"step": bodies.step()}),
    # the asker's own last action; with "anyone": true (confirmed), or for the host, the table's last
    ("/api/undo", Action.UNDO, Who.PLAYER_OR_HOST, lambda: {"anyone": bodies.anyone()}),
]
for _path, _action, _who, _reads in ROUTES:
    _route(_path, _action, _who, _reads)


@table.post("/api/move")
@acts(Who.PLAYER_OR_HOST)
def move(actor: str | None) -> Any:
    """A card to another zone: {"position": N, "to": a rules.Destination} (its owner's hand or library; the
    sideboard: it leaves the game; a created zone: "zone": ID), asked as the action its destination names
    (rules.MOVES). A card of the open sideboard goes to the asker's zones, or to "whose"'s; "at": N puts a card
    N-th from the top of a library."""
    position = bodies.card_position()
    to = bodies.destination()
    return act(MOVES[to], actor, position=position, to=to, **bodies.where(),
               **({"face_down": True} if bodies.flag("face_down") else {}))


@table.post("/api/deck")
@acts(Who.PLAYER)
def deck(actor: str) -> Any:
    """A player's deck from their phone: {"text": a pasted list, any format hhd check reads, or a deck's link}
    or {"colors": "RG"}. The answer says the deck's colors and what hhd check would warn of; the take rule uses
    them from the next draw."""
    from hhdcli.table.web.offloop import off_loop, parsed_apart

    session, sent = served().session, bodies.deck()
    # off the server's loop: a link's site and Scryfall answer in their time, and a long list is read in a
    # process of its own (parsed_apart)
    found = off_loop(session.deck_of, sent, None, parsed_apart) if isinstance(sent, str) else sent
    session.act(Action.DECK, actor, colors=found.letters)
    return jsonify(deck_answer(actor, found, gettext()))


@table.post("/api/to-hell-library")
@acts(Who.PLAYER_OR_HOST)
def to_hell_library(actor: str | None) -> Any:
    position, end = bodies.hell_library()
    return act(Action.TO_HELL_LIBRARY, actor, position=position, end=end)


@table.post("/api/end-game")
@acts(Who.PLAYER_OR_HOST)
def end_game(actor: str | None) -> Any:
    """Two steps: without "confirm": true the answer says what ending the game will do, and nothing moves;
    "game": N with the confirmation ends game N only (the page sends the game it asked about)."""
    confirm = bodies.confirmed()
    return act(Action.END_OF_GAME, actor, confirm=confirm, confirmed=bodies.game() if confirm else None)
