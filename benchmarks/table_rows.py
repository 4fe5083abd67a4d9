"""The Hell table's speed, independent of the evening's length: each figure beside its baseline, measured in the
same run, over real HTTP on 127.0.0.1 (the app as hhd table serves it: werkzeug, threaded, SQLite in WAL).

    .venv/bin/python benchmarks/table_rows.py     # prints the rows; writes benchmarks/results-table.json

Rows (targets from issue 31):
- a state read with 100 Hell cards held, against the same read of a fresh table: <= 1.5x;
- a change pushed to 10 listening pages (each reads the state when told, as the page does) with 60 cards held:
  p99 from the action sent to every page holding the new state <= 100 ms, beside one idle state read;
- 10 players drawing at the same instant: p99 of a draw <= 150 ms, beside one draw alone.

Reads the registry files in tests/data (as the test suite does) into a cache of its own in a temporary folder.
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support import LEGACY, PIPS  # noqa: E402  the registry files the tests use (tests/data)

RESULTS = ROOT / "benchmarks" / "results-table.json"
LIBRARY_SIZE = 200  # room for 100 held cards and the draws after them
READS = 300


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Client:
    """One keep-alive HTTP connection to the table (a phone's browser keeps its own)."""

    def __init__(self, port: int, token: str | None = None, host: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        said = ", ".join(f"{key}={value}" for key, value in (("player", token), ("host", host)) if value)
        if said:  # the header proxies never log (hhdcli/table/web/routes.py)
            self.headers["Authorization"] = f"Table {said}"

    def call(self, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        self.connection.request("GET" if data is None else "POST", path, data, self.headers)
        answer = self.connection.getresponse()
        return answer.status, json.loads(answer.read())

    def close(self) -> None:
        self.connection.close()


class Table:
    """A table over a library of LIBRARY_SIZE cards with `players`, served as hhd table serves it."""

    def __init__(self, work: Path, cache_dir: Path, library: Path, players: int) -> None:
        from werkzeug.serving import make_server

        from hhdcli.cache import load_cache
        from hhdcli.library import load_library, resolve
        from hhdcli.table.game.changes import Changes
        from hhdcli.table.hosting.opening import open_session
        from hhdcli.table.hosting.serve import listen
        from hhdcli.table.web.routes import create_app

        cache = load_cache(cache_dir)
        resolved = resolve(load_library(library), cache.cards)
        names = {f"P{i}": tuple("WUBRGP") for i in range(players)}
        state = Path(tempfile.mkdtemp(dir=work)) / "session.sqlite"
        self.session, _ = open_session(resolved, cache, names, state)
        self.changes = Changes()
        self.socket = listen("127.0.0.1", 0)
        self.port = int(self.socket.getsockname()[1])
        self.server = make_server("127.0.0.1", self.port, create_app(self.session, None, self.changes),
                                  threaded=True, fd=self.socket.fileno())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.tokens = {name: Client(self.port).call("/api/join", {"player": name})[1]["token"] for name in names}
        for name in names:  # the rules: each opening hand kept before the first draw
            for path, body in (("/api/opening-hand", {}), ("/api/keep", {"bottom": []})):
                status, answer = self.client(name).call(path, body)
                assert status == 200, answer

    def client(self, name: str) -> Client:
        return Client(self.port, self.tokens[name])

    def hold(self, count: int) -> None:
        """Deal `count` Hell cards into the players' hands, in turn (waiting choices taken)."""
        clients = {name: self.client(name) for name in self.tokens}
        names = list(self.tokens)
        for i in range(count):
            client = clients[names[i % len(names)]]
            status, card = client.call("/api/draw", {})
            assert status == 200, card
            if card["verdict"] == "choice":
                assert client.call("/api/take", {})[0] == 200
        for client in clients.values():
            client.close()

    def stop(self) -> None:
        self.changes.close()
        self.server.shutdown()
        self.server.server_close()
        self.socket.close()


def timed_reads(client: Client, reads: int = READS) -> list[float]:
    times = []
    for _ in range(reads):
        start = time.perf_counter()
        status, _ = client.call("/api/state")
        times.append(time.perf_counter() - start)
        assert status == 200
    return times


def state_read_rows(work: Path, cache: Path, library: Path) -> list[dict[str, Any]]:
    """The same viewer's state read, fresh and with 100 cards held (25 of them the viewer's own)."""
    fresh = Table(work, cache, library, 4)
    full = Table(work, cache, library, 4)
    try:
        full.hold(100)
        readers = fresh.client("P0"), full.client("P0")
        timed_reads(readers[0], 30), timed_reads(readers[1], 30)  # warm: connections, caches
        base, ours = [], []
        for _ in range(5):  # alternating, so both see the same machine
            base += timed_reads(readers[0], READS // 5)
            ours += timed_reads(readers[1], READS // 5)
        return [row("state read, 100 Hell cards held", ours, "fresh table's state read", base, "ratio <= 1.5",
                    lambda o, b: o / b <= 1.5)]
    finally:
        fresh.stop()
        full.stop()


def push_rows(work: Path, cache: Path, library: Path) -> list[dict[str, Any]]:
    """10 pages listen to /api/events; each reads the state when told. A change's time: from the action sent to
    the last page holding the state of that change's version."""
    table = Table(work, cache, library, 10)
    try:
        table.hold(60)
        version = table.client("P0").call("/api/state")[1]["version"]
        seen: dict[int, list[float]] = {}
        lock = threading.Condition()
        stop = threading.Event()

        def page(name: str) -> None:
            try:
                listen(name)
            except OSError:  # the table stopped under the page: the run is over
                pass

        def listen(name: str) -> None:
            reader, events = table.client(name), Client(table.port, table.tokens[name])
            events.connection.request("GET", "/api/events", headers=events.headers)
            stream = events.connection.getresponse()
            while not stop.is_set():
                line = stream.readline()
                if not line:
                    return
                if line.startswith(b"event: change"):
                    now = reader.call("/api/state")[1]["version"]
                    with lock:
                        seen.setdefault(now, []).append(time.perf_counter())
                        lock.notify_all()

        pages = [threading.Thread(target=page, args=(f"P{i}",), daemon=True) for i in range(10)]
        for thread in pages:
            thread.start()
        time.sleep(1.0)  # every page listening (their first event read)
        actor, times = table.client("P0"), []
        for _ in range(60):
            start = time.perf_counter()
            status, _ = actor.call("/api/own-card", {"name": "Grizzly Bears"})  # one change: a card to the sideboard
            assert status == 200
            version += 1
            with lock:
                lock.wait_for(lambda v=version: len([x for x in seen if x >= v]) and
                              sum(len(t) for x, t in seen.items() if x >= v) >= 10, timeout=10)
                reached = sorted(t for x, ts in seen.items() if x >= version for t in ts)[:10]
            times.append(max(reached) - start)
            time.sleep(0.02)
        stop.set()
        idle = timed_reads(table.client("P1"), 100)
        return [row("change pushed to 10 listening pages, 60 cards held (p99)", times, "one idle state read (p99)",
                    idle, "p99 <= 100 ms", lambda o, b: o <= 0.100, p99=True)]
    finally:
        table.stop()


def drawer_rows(work: Path, cache: Path, library: Path) -> list[dict[str, Any]]:
    """10 players draw at the same instant, round after round; beside one player drawing alone."""
    times: list[float] = []
    alone: list[float] = []
    for _ in range(3):
        table = Table(work, cache, library, 10)
        try:
            clients = {name: table.client(name) for name in table.tokens}
            for _round in range(9):
                start = threading.Barrier(10)

                def draw(client: Client, start: threading.Barrier = start) -> None:
                    start.wait()
                    began = time.perf_counter()
                    status, card = client.call("/api/draw", {})
                    times.append(time.perf_counter() - began)
                    assert status == 200, card

                threads = [threading.Thread(target=draw, args=(c,)) for c in clients.values()]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            solo = clients["P0"]
            for _ in range(20):
                began = time.perf_counter()
                assert solo.call("/api/draw", {})[0] == 200
                alone.append(time.perf_counter() - began)
        finally:
            table.stop()
    return [row("10 players drawing at once (p99 of a draw)", times, "one draw alone (p99)", alone,
                "p99 <= 150 ms", lambda o, b: o <= 0.150, p99=True)]


def row(what: str, ours: list[float], baseline: str, base: list[float], target: str,
        met: Callable[[float, float], bool], p99: bool = False) -> dict[str, Any]:
    value = percentile(ours, 0.99) if p99 else statistics.median(ours)
    base_value = percentile(base, 0.99) if p99 else statistics.median(base)
    return {"what": what, "value_ms": round(value * 1000, 2), "p50_ms": round(statistics.median(ours) * 1000, 2),
            "samples": len(ours), "baseline": baseline, "baseline_ms": round(base_value * 1000, 2),
            "ratio": round(value / base_value, 2), "target": target, "met": bool(met(value, base_value))}


def prepare(work: Path) -> tuple[Path, Path]:
    """A cache synced from the legacy snapshot in tests/data, and a library of LIBRARY_SIZE cards."""
    from click.testing import CliRunner

    from hhdcli.cli import cli

    cache, library = work / "cache", work / "library.json"
    runner = CliRunner()
    for args in (["sync", "--source", str(LEGACY), "--symbols", str(PIPS)],
                 ["generate", "--seed", "bench-table", "--size", str(LIBRARY_SIZE), "-o", str(library)]):
        done = runner.invoke(cli, ["--cache-dir", str(cache), *args])
        assert done.exit_code == 0, done.output
    return cache, library


def main() -> None:
    import logging

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # as hhd table runs: no line per request
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cache, library = prepare(work)
        rows = state_read_rows(work, cache, library) + push_rows(work, cache, library) + \
            drawer_rows(work, cache, library)
    width = max(len(r["what"]) for r in rows)
    print(f"{'':{width}}  {'ours':>9}  {'baseline':>9}  {'ratio':>6}  target")
    for r in rows:
        mark = "met" if r["met"] else "NOT MET"
        print(f"{r['what']:{width}}  {r['value_ms']:>7.2f}ms  {r['baseline_ms']:>7.2f}ms  {r['ratio']:>6.2f}  "
              f"{r['target']} ({mark}; {r['baseline']}, p50 {r['p50_ms']:.2f} ms, {r['samples']} samples)")
    RESULTS.write_text(json.dumps({"rows": rows, "python": sys.version.split()[0]}, indent=2) + "\n",
                       encoding="utf-8")
    print(f"written: {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
