"""The table's actions as routes: each declares who may take it (`acts`), reads the request's values
(bodies.py) and calls the session's handler for it (`session.act`). What each does is hhdcli.table.game's."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import jsonify

from hhdcli.table.game.rules import MOVES, Action, Destination
from hhdcli.table.game.views import deck_answer
from hhdcli.table.web import bodies
from hhdcli.table.web.context import Who, acts, gettext, language, served, table


def act(action: Action, actor: str | None, **params: Any) -> Any:
    """The action's answer, in the asker's language."""
    return jsonify(served().session.act(action, actor, language(), **params))


@table.post("/api/draw")
@acts(Who.PLAYER)
def draw(actor: str) -> Any:
    return act(Action.DRAW, actor)


@table.post("/api/take")
@acts(Who.PLAYER)
def take(actor: str) -> Any:
    return act(Action.TAKE, actor)


@table.post("/api/decline")
@acts(Who.PLAYER)
def decline(actor: str) -> Any:
    return act(Action.DECLINE, actor)


@table.post("/api/opening-hand")
@acts(Who.PLAYER)
def opening_hand(actor: str) -> Any:
    return act(Action.OPENING_HAND, actor)


@table.post("/api/mulligan")
@acts(Who.PLAYER)
def mulligan(actor: str) -> Any:
    return act(Action.MULLIGAN, actor)


@table.post("/api/keep")
@acts(Who.PLAYER)
def keep(actor: str) -> Any:
    """The opening hand kept: "bottom" lists the Hell cards that go to the bottom, in the order ticked."""
    return act(Action.KEEP, actor, bottom=bodies.to_bottom())


@table.post("/api/play")
@acts(Who.PLAYER)
def play(actor: str) -> Any:
    return act(Action.PLAY, actor, position=bodies.position())


@table.post("/api/play-sideboard")
@acts(Who.PLAYER)
def play_sideboard(actor: str) -> Any:
    return act(Action.PLAY_FROM_SIDEBOARD, actor)


@table.post("/api/to-sideboard")
@acts(Who.PLAYER)
def to_sideboard(actor: str) -> Any:
    return act(Action.TO_SIDEBOARD, actor, position=bodies.card_position(), to=Destination.SIDEBOARD)


@table.post("/api/move")
@acts(Who.PLAYER_OR_HOST)
def move(actor: str | None) -> Any:
    """A card to another zone: {"position": N, "to": a rules.Destination} (its owner's hand or library; the
    sideboard: it leaves the game)."""
    position = bodies.card_position()
    to = bodies.destination()
    return act(MOVES[to], actor, position=position, to=to)


@table.post("/api/tap")
@acts(Who.PLAYER_OR_HOST)
def tap(actor: str | None) -> Any:
    """A card on the battlefield tapped ({"tapped": true}) or untapped (false)."""
    position = bodies.card_position()
    return act(Action.TAP, actor, position=position, tapped=bodies.tapped())


@table.post("/api/card-counter")
@acts(Who.PLAYER_OR_HOST)
def card_counter(actor: str | None) -> Any:
    """Counters on a card on the battlefield: {"position": N, "kind": a rules.CardCounter, "delta": 1 or -1…}."""
    position = bodies.card_position()
    kind = bodies.card_counter()
    return act(Action.CARD_COUNTER, actor, position=position, kind=kind, delta=bodies.amount())


@table.post("/api/tokens")
@acts(Who.PLAYER_OR_HOST)
def tokens(actor: str | None) -> Any:
    """Tokens a card on the battlefield made, into play or gone: {"position": N, "token": ID (of its
    description's `tokens`), "delta": 1 or -1…}; its controller's (or the host's) to count."""
    position = bodies.card_position()
    token = bodies.token()
    return act(Action.TOKENS, actor, position=position, token=token, delta=bodies.amount())


@table.post("/api/deck")
@acts(Who.PLAYER)
def deck(actor: str) -> Any:
    """A player's deck from their phone: {"text": a pasted list, any format hhd check reads, or a deck's link}
    or {"colors": "RG"}. The answer says the deck's colors and what hhd check would warn of; the take rule uses
    them from the next draw."""
    from hhdcli.table.web.offloop import off_loop

    session, sent = served().session, bodies.deck()
    # a link is read from its site off the server's loop
    reader = None if session.read_link is None else partial(off_loop, session.read_link)
    found = session.deck_of(sent, reader) if isinstance(sent, str) else sent
    session.act(Action.DECK, actor, colors=found.letters)
    return jsonify(deck_answer(actor, found, gettext()))


@table.post("/api/life")
@acts(Who.PLAYER_OR_HOST)
def life(actor: str | None) -> Any:
    """{"whose": NAME, "delta": -3}: a player's life total changed."""
    return act(Action.LIFE, actor, whose=bodies.whose(), delta=bodies.amount())


@table.post("/api/player-counter")
@acts(Who.PLAYER_OR_HOST)
def player_counter(actor: str | None) -> Any:
    """{"whose": NAME, "kind": "poison", "delta": 1}: counters on a player (rules.PlayerCounter's kinds); commander
    damage says whose commander dealt it: {"whose": NAME, "kind": "commander", "from": NAME, "delta": 5}."""
    whose = bodies.whose()
    delta = bodies.amount()
    return act(Action.PLAYER_COUNTER, actor, whose=whose, kind=bodies.body().get("kind"), delta=delta,
               source=bodies.body().get("from"))


@table.post("/api/host/life-start")
@acts(Who.HOST)
def life_start(actor: None) -> Any:
    return act(Action.LIFE_START, actor, life=bodies.starting_life())


@table.post("/api/die")
@acts(Who.PLAYER_OR_HOST)
def die(actor: str | None) -> Any:
    """{"sides": 6}: a die rolled by the server, in everyone's log."""
    return act(Action.DIE, actor, sides=bodies.die_sides())


@table.post("/api/coin")
@acts(Who.PLAYER_OR_HOST)
def coin(actor: str | None) -> Any:
    return act(Action.COIN, actor)


@table.post("/api/first-player")
@acts(Who.PLAYER_OR_HOST)
def first_player(actor: str | None) -> Any:
    return act(Action.FIRST_PLAYER, actor)


@table.post("/api/next-turn")
@acts(Who.PLAYER_OR_HOST)
def next_turn(actor: str | None) -> Any:
    return act(Action.TURN, actor)


@table.post("/api/step")
@acts(Who.PLAYER_OR_HOST)
def step(actor: str | None) -> Any:
    return act(Action.STEP, actor, step=bodies.step())


@table.post("/api/own-card")
@acts(Who.PLAYER)
def own_card(actor: str) -> Any:
    """A card of the player's own deck leaves the game: onto the sideboard's top, by name."""
    return act(Action.OWN_CARD_TO_SIDEBOARD, actor, name=bodies.own_card())


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


@table.post("/api/undo")
@acts(Who.PLAYER_OR_HOST)
def undo(actor: str | None) -> Any:
    """The asker's own last action; with "anyone": true (confirmed), or for the host, the table's last."""
    return act(Action.UNDO, actor, anyone=bodies.anyone())
