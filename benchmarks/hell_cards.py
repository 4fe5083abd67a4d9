"""The Hell cards' actions (issue 57) as the user meets them: each new action of the table and a state read, over
real HTTP on 127.0.0.1 against `hhd table`'s app (tests/tablekit.py's `Table`: werkzeug, threaded, SQLite in
WAL), each beside its baseline measured in the same run:

- a state read of a table with all six created zones (auto, whammy, UwU, Eye Collector, command, ante) and 40
  cards on the sideboard, beside the same read of a table with the same 40 sideboard cards and no zone;
- each new action (a sideboard card moved, a card N-th into a library or into a created zone, a sideboard card
  cast, the sideboard shuffled, random cards, random Hell cards, a companion declared and cast, a card revealed,
  the created zones' add, shuffle, reveal and take; issue 59's note, face down, a card given, control, a token
  card, a counter in exile), beside a plain move (a played card to the graveyard).

Every mutating action is taken back with an untimed /api/undo, so that each run finds the same table. The runs
alternate (baseline, then each row) so that a slow moment of the machine falls on all. Printed as a table of
min / median / max per row in milliseconds, with the median's ratio to its baseline.

    .venv/bin/python benchmarks/hell_cards.py             # 21 runs
    .venv/bin/python benchmarks/hell_cards.py --runs 51
    .venv/bin/python benchmarks/hell_cards.py --profile   # and cProfile's top entries of a state read with zones

Reads the registry files in tests/data (as the test suite does) into a cache of its own in a temporary folder.
Never part of the test suite.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import io
import json
import logging
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tablekit import (  # noqa: E402
    COMPANION,
    HELL_CARDS,
    ZONE_MAKERS,
    Table,
    _in_annas_hand,
    deal_to,
    hell_position,
    kept,
    library_with,
)

from support import LEGACY, PIPS, Hhd  # noqa: E402  the registry files the tests use (tests/data)

SIDEBOARD = 40  # cards on the sideboard of both tables
OWN_NAMES = ["Llanowar Elves", "Grizzly Bears", "Lightning Bolt", "Counterspell"]


class Client:
    """One keep-alive HTTP connection to the table, as a phone's browser keeps its own."""

    def __init__(self, port: int, token: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json", "Authorization": f"Table player={token}"}

    def call(self, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        self.connection.request("GET" if data is None else "POST", path, data, self.headers)
        answer = self.connection.getresponse()
        return answer.status, json.loads(answer.read())

    def ok(self, path: str, body: object = None) -> Any:
        status, answer = self.call(path, body)
        assert status == 200, (path, body, status, answer)
        return answer

    def timed(self, path: str, body: object = None) -> float:
        start = time.perf_counter()
        self.ok(path, body)
        return (time.perf_counter() - start) * 1000


def sideboard_of(anna: Client, count: int) -> None:
    """`count` more cards on the sideboard: Hell cards given at random to Anna and put there (those naming a
    created zone kept in her hand: on the open sideboard they would bring it into being), and cards of her own
    deck that left the game (by name), half and half."""
    hell = count // 2
    while hell:
        given = anna.ok("/api/random-hell-card", {"whose": "Anna", "count": 1})["cards"][0]
        if not given["zones"]:
            anna.ok("/api/to-sideboard", {"position": given["position"]})
            hell -= 1
    for i in range(count - count // 2):
        anna.ok("/api/own-card", {"name": OWN_NAMES[i % len(OWN_NAMES)]})


def build(work: Path, cache: Path, library: Path, zones: bool) -> tuple[Table, Client]:
    """A table of tablekit's three players, opening hands kept, 40 cards on the sideboard (Anna's companion among
    them, declared), Anna holding Hell cards and with one on the battlefield, the cards naming all six created
    zones drawn into her hand; with `zones`, those played: the zones come into being."""
    state = Path(tempfile.mkdtemp(dir=work)) / "session.sqlite"
    table = Table(state, library, cache)
    anna = Client(table.port, table.seat("Anna"))
    needed = [hell_position(table, name) for name in (*ZONE_MAKERS, COMPANION)]
    for position in needed:  # at the Hell library's bottom: no opening hand deals them
        deal_to(table, "Anna", position, "bottom")
    kept(table, "Anna", "Ben", "Cleo")
    anna.ok("/api/deck", {"colors": "WUBRG"})  # the take rule declines none of them straight to the sideboard
    *makers, companion = [_in_annas_hand(table, name) for name in (*ZONE_MAKERS, COMPANION)]  # never given at random
    assert set(needed) <= {c["position"] for c in table.player("Anna")["cards"]}
    anna.ok("/api/to-sideboard", {"position": companion})
    anna.ok("/api/companion", {"position": companion})
    if zones:
        for position in makers:
            anna.ok("/api/play", {"position": position})
    sideboard_of(anna, SIDEBOARD - 1)
    held = anna.ok("/api/random-hell-card", {"whose": "Anna", "count": 8})["cards"]
    plain = [c["position"] for c in held if not c["zones"]]
    anna.ok("/api/play", {"position": plain[0]})
    anna.ok("/api/move", {"position": plain[1], "to": "exile"})  # in exile: a counter there (issue 59)
    assert len(table.state("Anna")["sideboard"]) == SIDEBOARD
    made = {z["id"] for z in table.state("Anna")["zones"]}
    assert made == ({"auto", "whammy", "uwu", "eye-collector", "command", "ante"} if zones else set()), made
    return table, anna


Step = tuple[str, Callable[[], dict[str, Any]] | None, bool]  # path, its body (None: a GET), undone after


def steps(table: Table, anna: Client) -> dict[str, Step]:
    """Each row's request on the zoned table (its body read afresh each run: positions move with a shuffle)."""
    def sideboard(i: int) -> int:
        return int(table.state("Anna")["sideboard"][i]["position"])

    def played() -> int:
        return int(table.player("Anna")["zones"]["battlefield"][0]["position"])

    def held() -> int:
        return int(next(c for c in table.player("Anna")["cards"] if c["position"] not in makers)["position"])

    def exiled() -> int:
        return int(table.player("Anna")["zones"]["exile"][0]["position"])

    makers = {hell_position(table, name) for name in ZONE_MAKERS}

    return {
        "move: sideboard card → hand": ("/api/move", lambda: {"position": sideboard(20), "to": "hand"}, True),
        "move: library-at 3": ("/api/move", lambda: {"position": held(), "to": "library-at", "at": 3}, True),
        "move: → created zone (auto)": ("/api/move", lambda: {"position": played(), "to": "created-zone",
                                                              "zone": "auto"}, True),
        "play-sideboard position": ("/api/play-sideboard", lambda: {"position": sideboard(20)}, True),
        "sideboard/shuffle": ("/api/sideboard/shuffle", lambda: {}, True),
        "sideboard/random count 4 nonbasic": ("/api/sideboard/random", lambda: {"count": 4, "nonbasic": True}, True),
        "random-hell-card ×2 to Ben": ("/api/random-hell-card", lambda: {"whose": "Ben", "count": 2}, True),
        "companion (declare)": ("/api/companion", lambda: {"position": hell_position(table, COMPANION)}, True),
        "companion/cast": ("/api/companion/cast", lambda: {}, True),
        "reveal (a held card)": ("/api/reveal", lambda: {"position": held()}, True),
        "zone/add (auto, by name)": ("/api/zone/add", lambda: {"zone": "auto", "name": "Grizzly Bears"}, True),
        "zone/shuffle (whammy)": ("/api/zone/shuffle", lambda: {"zone": "whammy"}, True),
        "zone/reveal (whammy, top 2)": ("/api/zone/reveal", lambda: {"zone": "whammy", "count": 2}, True),
        "zone/take (whammy → hand)": ("/api/zone/take", lambda: {"zone": "whammy", "to": "hand"}, True),
        "zone/take (Eye Collector → battlefield)": ("/api/zone/take", lambda: {"zone": "eye-collector",
                                                                              "to": "battlefield"}, True),
        # a card's states (issue 59)
        "note (a held card)": ("/api/note", lambda: {"position": held(), "note": "red"}, True),
        "move: face down onto the battlefield": ("/api/move", lambda: {"position": held(), "to": "battlefield",
                                                                       "face_down": True}, True),
        "move: given into Ben's library": ("/api/move", lambda: {"position": held(), "to": "library-bottom",
                                                                 "whose": "Ben"}, True),
        "control (to Ben)": ("/api/control", lambda: {"position": played(), "whose": "Ben"}, True),
        "token-card (into a hand)": ("/api/token-card", lambda: {"name": "Path to Exile", "to": "hand"}, True),
        "card-counter (time, in exile)": ("/api/card-counter", lambda: {"position": exiled(), "kind": "time",
                                                                        "delta": 1}, True),
    }


def summary(samples: list[float]) -> tuple[float, float, float]:
    return min(samples), statistics.median(samples), max(samples)


def profile_state(table: Table, top: int = 14) -> str:
    """cProfile of 200 state reads of Anna's, in-process through the app (werkzeug's test client: the routing,
    the guards, the session's read and the views, without the socket)."""
    client = table.server.app.test_client()
    headers = {"Authorization": f"Table player={table.seat('Anna')}"}
    for _ in range(5):
        client.get("/api/state", headers=headers)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(200):
        assert client.get("/api/state", headers=headers).status_code == 200
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(r"hhdcli", top)  # hhd's own functions, by time spent under each
    stats.sort_stats("cumulative").print_stats(r"views.py", top)  # the views alone: the zones beside the refs and the log
    stats.sort_stats("tottime").print_stats(top)  # and where the time itself goes, in anyone's code
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each row (the median and spread of these)")
    parser.add_argument("--profile", action="store_true", help="and cProfile's top entries of a state read")
    runs = parser.parse_args().runs
    profile = parser.parse_args().profile

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cache = work / "cache"
        assert Hhd(cache)("sync", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
        generated = work / "lib.json"
        assert Hhd(cache)("generate", "--seed", "ember-tide-42", "-o", str(generated)).exit_code == 0
        library = library_with(generated, cache, HELL_CARDS, work / "hell.json")
        zoned, anna = build(work, cache, library, zones=True)
        plain, plain_anna = build(work, cache, library, zones=False)
        try:
            rows = steps(zoned, anna)
            base_move: list[float] = []
            base_read: list[float] = []
            read: list[float] = []
            times: dict[str, list[float]] = {name: [] for name in rows}
            for _ in range(runs):
                played = int(plain.player("Anna")["zones"]["battlefield"][0]["position"])
                base_move.append(plain_anna.timed("/api/move", {"position": played, "to": "graveyard"}))
                plain_anna.ok("/api/undo", {})
                base_read.append(plain_anna.timed("/api/state"))
                read.append(anna.timed("/api/state"))
                for name, (path, body, undo) in rows.items():
                    sent = body() if body else None
                    times[name].append(anna.timed(path, sent))
                    if undo:
                        anna.ok("/api/undo", {})

            print(f"Hell cards at the table, {runs} runs each, ms over HTTP on 127.0.0.1 (min / median / max)")
            print(f"{'row':44} {'min':>7} {'median':>7} {'max':>7}  vs baseline")
            line = "{:44} {:7.2f} {:7.2f} {:7.2f}  {}"
            print(line.format("baseline: state read, no zones", *summary(base_read), ""))
            lo, mid, hi = summary(read)
            print(line.format("state read, 6 zones", lo, mid, hi, f"{mid / statistics.median(base_read):.2f}×"))
            print(line.format("baseline: plain move (battlefield → graveyard)", *summary(base_move), ""))
            for name, samples in times.items():
                lo, mid, hi = summary(samples)
                print(line.format(name, lo, mid, hi, f"{mid / statistics.median(base_move):.2f}×"))
            state = zoned.state("Anna")
            size = len(json.dumps(state)), len(json.dumps(plain.state("Anna")))
            print(f"state's JSON: {size[0]} bytes with zones, {size[1]} without; "
                  f"{sum(h['count'] for z in state['zones'] for h in z['holders'])} cards in the zones, "
                  f"{len(state['sideboard'])} on the sideboard")
            if profile:
                print(profile_state(zoned))
        finally:
            anna.connection.close()
            plain_anna.connection.close()
            zoned.stop()
            plain.stop()


if __name__ == "__main__":
    main()
