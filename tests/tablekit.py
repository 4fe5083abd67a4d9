"""The Hell table's test kit: `hhd table`'s app served on 127.0.0.1 in a thread (a free port, a tmp state file),
players seated with tokens as their phones would be, and headless Chromium phones and boards."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from hhdcli.cache import load_cache
from hhdcli.library import load_library, resolve
from hhdcli.table.game.changes import Changes
from hhdcli.table.game.rules import Action
from hhdcli.table.hosting.opening import open_session
from hhdcli.table.hosting.serve import listen
from hhdcli.table.web.routes import create_app

PLAYERS = {"Anna": tuple("RG"), "Ben": tuple("WUB"), "Cleo": tuple("WUBRGP")}
CHROMEDRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver")


def authorization(code: str | None = None, player: str | None = None, host: str | None = None) -> dict[str, str]:
    """A script's credentials, as the table reads them: the one header proxies never log (hhdcli/table/web/routes.py)."""
    named = {"code": code, "player": player, "host": host}
    said = ", ".join(f"{key}={value}" for key, value in named.items() if value)
    return {"Authorization": f"Table {said}"} if said else {}


class Table:
    """`hhd table`'s app served on 127.0.0.1 in a thread; `call` speaks its JSON API, `as_` as a seated player."""

    def __init__(self, state: Path, library: Path, cache_dir: Path, code: str | None = None,
                 players: dict[str, tuple[str, ...]] | None = None, port: int = 0,
                 join_urls: list[str] | None = None) -> None:
        from werkzeug.serving import make_server

        self.library, self.cache_dir, self.code = library, cache_dir, code
        cache = load_cache(cache_dir)
        resolved = resolve(load_library(library), cache.cards)
        self.session, self.resumed = open_session(resolved, cache, players or PLAYERS, state)
        self.host = self.session.host_secret()
        self.changes = Changes()
        self.socket = listen("127.0.0.1", port)  # as hhd table binds it: a restart may take the same port again
        self.port = int(self.socket.getsockname()[1])
        app = create_app(self.session, code, self.changes, join_urls=join_urls or [])  # [] as a library caller
        self.server = make_server("127.0.0.1", self.port, app, threaded=True, fd=self.socket.fileno())
        self.url = f"http://127.0.0.1:{self.port}"
        self.tokens: dict[str, str] = {}
        # stopped within 50 ms (serve_forever looks for a shutdown every poll_interval: 0.5 s by default)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def call(self, path: str, body: object = None, headers: dict[str, str] | None = None,
             token: str | None = None, host: bool = False) -> tuple[int, dict]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        sent = {"Content-Type": "application/json",
                **authorization(self.code, token, self.host if host else None), **(headers or {})}
        request = urllib.request.Request(self.url + path, data=data, method="POST" if data is not None else "GET",
                                         headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def seat(self, name: str) -> str:
        """The player's token, as their phone gets it by picking their name."""
        if name not in self.tokens:
            status, answer = self.call("/api/join", {"player": name})
            assert status == 200, answer
            self.tokens[name] = answer["token"]
        return self.tokens[name]

    def as_(self, name: str, path: str, body: object = None) -> tuple[int, dict]:
        """A request from the player's own phone."""
        return self.call(path, {} if body is None else body, token=self.seat(name))

    def state(self, name: str | None = None) -> dict:
        return self.call("/api/state", token=self.seat(name) if name else None)[1]

    def player(self, name: str, viewer: str | None = None) -> dict:
        return next(p for p in self.state(viewer if viewer is not None else name)["players"] if p["name"] == name)

    def stop(self) -> None:
        self.changes.close()  # open pages' event streams end, as when hhd table stops
        self.server.shutdown()
        self.server.server_close()
        self.socket.close()
        self.session.close()  # as hhd table's process ends: its state file whole, without a write-ahead log


def positions_in(state_file: Path, zone: str) -> list[int]:
    db = sqlite3.connect(state_file)
    try:
        return [row[0] for row in db.execute("SELECT position FROM cards WHERE zone = ? ORDER BY ord", (zone,))]
    finally:
        db.close()


def cards_rows(state_file: Path) -> list[tuple]:
    db = sqlite3.connect(state_file)
    try:
        return db.execute("SELECT position, zone, ord, player, owner, name FROM cards ORDER BY position").fetchall()
    finally:
        db.close()


def kept(table: Table, *players: str) -> list[int]:
    """Each player's opening hand dealt and kept, nothing to the bottom (the rules deal it before any draw): the
    Hell cards they now hold, in turn."""
    held = []
    for player in players:
        status, dealt = table.as_(player, "/api/opening-hand")
        assert status == 200, dealt
        assert table.as_(player, "/api/keep", {"bottom": []})[0] == 200
        held += [c["position"] for c in dealt["cards"]]
    return held


def settle(table: Table, player: str) -> None:
    """Answer a waiting choice card, so the player may draw again."""
    if table.player(player)["pending"]:
        assert table.as_(player, "/api/decline")[0] == 200


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- every action kind, as a player takes it ------------------------------------------------------------------

def anna_holds(table: Table) -> list[int]:
    return [c["position"] for c in table.player("Anna")["cards"]]


def _public(table: Table, zone: str) -> int:
    return next(c["position"] for c in table.player("Anna")["zones"][zone])


def _choice_waiting(table: Table) -> None:
    """Anna draws (taking each card her deck must take) until a choice card waits."""
    settle(table, "Anna")
    while not table.player("Anna")["pending"]:
        assert table.as_("Anna", "/api/draw")[0] == 200


def _maker_in_play(table: Table) -> int:
    settle(table, "Anna")
    makers = {p for p in table.session.cards if table.session.views.made_names(p)}
    while not set(anna_holds(table)) & makers:
        assert table.as_("Anna", "/api/draw")[0] == 200
        pending = table.player("Anna")["pending"]
        if pending:  # a choice: a maker is taken, another declined
            assert table.as_("Anna", "/api/take" if pending["position"] in makers else "/api/decline")[0] == 200
    position = next(p for p in anna_holds(table) if p in makers)
    assert table.as_("Anna", "/api/play", {"position": position})[0] == 200
    return position


def _to_deck(table: Table) -> int:
    position = anna_holds(table)[0]
    assert table.as_("Anna", "/api/move", {"position": position, "to": "library-bottom"})[0] == 200
    return position


# The Hell cards the walk below needs in its library (a companion, and cards naming the created zones): the
# `hell_table` fixture's library holds them (library_with)
COMPANION = "Bear but Woah"
ZONE_MAKERS = ("Spacefolk Looter", "Fucked or Friction")  # the three decks; the auto and command zones and ante
HELL_CARDS = [COMPANION, *ZONE_MAKERS]


def hell_position(table: Table, name: str) -> int:
    return next(p for p, card in table.session.cards.items() if card.name == name)


def _zone_of(table: Table, position: int) -> str:
    return next(row[1] for row in cards_rows(table.session.path) if row[0] == position)


def _in_annas_hand(table: Table, name: str) -> int:
    """The named Hell card into Anna's hand, drawn from the Hell library if it is still there."""
    position = hell_position(table, name)
    if _zone_of(table, position) == "library":
        settle(table, "Anna")
        deal_to(table, "Anna", position)
        assert table.as_("Anna", "/api/draw")[0] == 200
        if table.player("Anna")["pending"]:
            assert table.as_("Anna", "/api/take")[0] == 200
    return position


def _companion_on_sideboard(table: Table) -> None:
    position = hell_position(table, COMPANION)
    if _zone_of(table, position) != "sideboard":
        _in_annas_hand(table, COMPANION)
        assert table.as_("Anna", "/api/to-sideboard", {"position": position})[0] == 200


def _zones_made(table: Table) -> None:
    """The cards naming the created zones played (by whoever holds each: a random Hell card may have gone to Ben):
    the zones come into being."""
    for name in ZONE_MAKERS:
        position = _in_annas_hand(table, name)
        row = next(r for r in cards_rows(table.session.path) if r[0] == position)
        if row[1] == "hand":
            assert table.as_(row[3], "/api/play", {"position": position})[0] == 200


# Each action kind Anna takes (the host, for the starting life), in an order where each finds what it needs: its
# kind, what sets the table up (not checked), the request. A kind may come twice (a move public, then hidden).
EVERY_ACTION: list[tuple[Action, Any, str, Any]] = [
    (Action.OPENING_HAND, None, "/api/opening-hand", {}),
    (Action.MULLIGAN, None, "/api/mulligan", {}),
    (Action.KEEP, None, "/api/keep", {"bottom": []}),
    (Action.DRAW, None, "/api/draw", {}),
    (Action.TAKE, _choice_waiting, "/api/take", {}),
    (Action.DECLINE, _choice_waiting, "/api/decline", {}),
    (Action.TO_HELL_LIBRARY, None, "/api/to-hell-library", lambda t: {"position": t.state()["sideboard"][0]["position"],
                                                                      "end": "bottom"}),
    (Action.PLAY, None, "/api/play", lambda t: {"position": anna_holds(t)[0]}),
    (Action.TAP, None, "/api/tap", lambda t: {"position": _public(t, "battlefield"), "tapped": True}),
    (Action.UNTAP, None, "/api/tap", lambda t: {"position": _public(t, "battlefield"), "tapped": False}),
    (Action.CARD_COUNTER, None, "/api/card-counter", lambda t: {"position": _public(t, "battlefield"),
                                                                "kind": "charge", "delta": 2}),
    (Action.TO_GRAVEYARD, None, "/api/move", lambda t: {"position": _public(t, "battlefield"), "to": "graveyard"}),
    (Action.TO_EXILE, None, "/api/move", lambda t: {"position": _public(t, "graveyard"), "to": "exile"}),
    (Action.TO_BATTLEFIELD, None, "/api/move", lambda t: {"position": _public(t, "exile"), "to": "battlefield"}),
    (Action.TO_HAND, None, "/api/move", lambda t: {"position": _public(t, "battlefield"), "to": "hand"}),
    (Action.TO_LIBRARY, None, "/api/move", lambda t: {"position": anna_holds(t)[0], "to": "library-top"}),
    (Action.TO_HAND, _to_deck, "/api/move", lambda t: {"position": t.player("Anna")["deck"][0]["position"],
                                                       "to": "hand"}),
    (Action.DISCARD, None, "/api/move", lambda t: {"position": anna_holds(t)[0], "to": "graveyard"}),
    (Action.TO_SIDEBOARD, None, "/api/to-sideboard", lambda t: {"position": anna_holds(t)[0]}),
    (Action.PLAY_FROM_SIDEBOARD, None, "/api/play-sideboard", {}),
    (Action.OWN_CARD_TO_SIDEBOARD, None, "/api/own-card", {"name": "Llanowar Elves"}),
    (Action.FROM_SIDEBOARD, None, "/api/move", lambda t: {"position": t.state()["sideboard"][-1]["position"],
                                                          "to": "hand"}),
    (Action.SHUFFLE_SIDEBOARD, _companion_on_sideboard, "/api/sideboard/shuffle", {}),
    (Action.RANDOM_FROM_SIDEBOARD, None, "/api/sideboard/random", {"count": 1}),
    (Action.COMPANION, _companion_on_sideboard, "/api/companion", lambda t: {"position": hell_position(t, COMPANION)}),
    (Action.CAST_COMPANION, None, "/api/companion/cast", {}),
    (Action.RANDOM_HELL_CARD, None, "/api/random-hell-card", {"whose": "Ben", "count": 1}),
    (Action.REVEAL, None, "/api/reveal", lambda t: {"position": anna_holds(t)[0]}),
    (Action.TO_ZONE, _zones_made, "/api/move", lambda t: {"position": _public(t, "battlefield"), "to": "created-zone",
                                                           "zone": "auto"}),
    (Action.ZONE_ADD, None, "/api/zone/add", {"zone": "auto", "name": "Llanowar Elves"}),
    (Action.SHUFFLE_ZONE, None, "/api/zone/shuffle", {"zone": "whammy"}),
    (Action.REVEAL_ZONE, None, "/api/zone/reveal", {"zone": "whammy", "count": 2}),
    (Action.TAKE_FROM_ZONE, None, "/api/zone/take", {"zone": "whammy", "to": "battlefield"}),
    (Action.NOTE, None, "/api/note", lambda t: {"position": anna_holds(t)[-1], "note": "red"}),  # not the one revealed
    (Action.FACE_DOWN, None, "/api/move", lambda t: {"position": anna_holds(t)[0], "to": "battlefield",
                                                     "face_down": True}),
    (Action.FACE_UP, None, "/api/face-up", lambda t: {"position": next(
        c["position"] for c in t.player("Anna")["zones"]["battlefield"] if c.get("face_down"))}),
    (Action.CONTROL, None, "/api/control", lambda t: {"position": _public(t, "battlefield"), "whose": "Ben"}),
    (Action.TOKEN_CARD, None, "/api/token-card", {"name": "Path to Exile", "to": "hand"}),
    (Action.TOKENS, _maker_in_play, "/api/tokens", lambda t: {
        "position": next(c["position"] for c in t.player("Anna")["zones"]["battlefield"] if c["tokens_in_play"]
                         or t.session.views.made_names(c["position"])),
        "token": next(iter(t.session.views.made_names(next(
            c["position"] for c in t.player("Anna")["zones"]["battlefield"]
            if t.session.views.made_names(c["position"]))))), "delta": 2}),
    (Action.LIFE, None, "/api/life", {"whose": "Ben", "delta": -3}),
    (Action.PLAYER_COUNTER, None, "/api/player-counter", {"whose": "Ben", "kind": "poison", "delta": 1}),
    (Action.PLAYER_COUNTER, None, "/api/player-counter", {"whose": "Ben", "kind": "commander", "from": "Anna",
                                                          "delta": 4}),
    (Action.DIE, None, "/api/die", {"sides": 20}),
    (Action.COIN, None, "/api/coin", {}),
    (Action.FIRST_PLAYER, None, "/api/first-player", {}),
    (Action.TURN, None, "/api/next-turn", {}),
    (Action.STEP, None, "/api/step", {"step": "upkeep"}),
    (Action.LIFE_START, None, "/api/host/life-start", {"life": 30}),
    (Action.DECK, None, "/api/deck", {"colors": "RG"}),
    (Action.END_OF_GAME, None, "/api/end-game", {"confirm": True}),
]


def act(table: Table, path: str, sent: Any) -> None:
    """One of EVERY_ACTION's requests: Anna's, or the host's (its routes under /api/host/)."""
    host = path.startswith("/api/host/")
    status, answer = table.call(path, sent, host=True) if host else table.as_("Anna", path, sent)
    assert status == 200, (path, answer)


# --- a library with the Hell cards a test needs -------------------------------------------------------------

def library_with(library: Path, cache_dir: Path, names: list[str], out: Path) -> Path:
    """The library file with its first cards replaced by these Hellscube v1.2 cards (the real cards of the synced
    data, by name), so that a test plays the cards whose text it carries out. Their order in the table's secret
    shuffle is the table's: a test finds them by position."""
    from hhdcli.cards import CardIndex

    index = CardIndex(load_cache(cache_dir).cards)
    document = json.loads(library.read_text(encoding="utf-8"))
    wanted = [index.find(name) for name in names]
    assert all(wanted), names
    present = {entry["id"] for entry in document["cards"]}
    free = (e for e in document["cards"] if e["id"] not in {card.id for card in wanted if card})
    for card in wanted:
        if card is not None and card.id not in present:  # a card the library holds already stays where it is
            next(free).update(id=card.id, name=card.name, card=card.to_json(), kind="land" if card.is_land else "spell")
    out.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return out


def deal_to(table: Table, player: str, position: int, end: str = "top") -> None:
    """The Hell library's order put so that this card is its top (or bottom: `end`), as the table's secret shuffle
    might have, for a test that needs a given card drawn: written straight into the state file, before the draw."""
    db = sqlite3.connect(table.session.path)
    try:
        assert db.execute("SELECT zone FROM cards WHERE position = ?", (position,)).fetchone()[0] == "library"
        edge = db.execute(f"SELECT {'MIN' if end == 'top' else 'MAX'}(ord) FROM cards WHERE zone = 'library'"
                          ).fetchone()[0]
        db.execute("UPDATE cards SET ord = ? WHERE position = ?", (edge - 1 if end == "top" else edge + 1, position))
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'version'")
        db.commit()
    finally:
        db.close()


def table_with(cards: list[str], library: Path, cache_dir: Path, folder: Path) -> Table:
    """A table whose library holds these Hellscube v1.2 cards, none of them dealt into an opening hand (each test
    draws the ones it needs): Anna, Ben and Cleo have kept theirs."""
    running = Table(folder / "session.sqlite", library_with(library, cache_dir, cards, folder / "hell.json"), cache_dir)
    for name in cards:
        deal_to(running, "Anna", hell_position(running, name), "bottom")
    kept(running, "Anna", "Ben", "Cleo")
    return running
