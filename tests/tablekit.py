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

import pytest

from hhdcli.cache import load_cache
from hhdcli.library import load_library, resolve
from hhdcli.table.app import create_app
from hhdcli.table.changes import Changes
from hhdcli.table.serve import listen, open_session

PLAYERS = {"Anna": tuple("RG"), "Ben": tuple("WUB"), "Cleo": tuple("WUBRGP")}
CHROMEDRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver")


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
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token:
            sent["X-Player-Token"] = token
        if host:
            sent["X-Host-Secret"] = self.host
        if self.code:
            sent.setdefault("X-Join-Code", self.code)
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
