"""Does the documented Caddy ever cut a POST's answer? Three proxies side by side on loopback, under one schedule,
each Debian's `caddy` over https with its internal CA in front of an `hhd serve --behind-proxy` process of its own:

- before: the Caddyfile docs/server.md gave before issue 58 (`reverse_proxy` with `flush_interval -1`);
- keep-alive alone: that with the upstream keep-alive shorter than hhd's idle timeout (`transport http
  { keepalive 5s }`), against Caddy reusing an upstream connection the moment hhd closes it for idleness;
- documented: the Caddyfile docs/server.md gives now (read from it), which also reads a request's body whole before
  sending it on (`buffer_requests`), against Go's transport reading the client's body after hhd's answer came
  (golang/go#40747: the answer's body is cut, "use of closed network connection").

Each gets the same POSTs of table actions (a life change, with the state in its answer, as a phone's tap asks)
from kept-alive client connections, each from a loopback address of its own (127.x.y.z, so the per-address limits
count as for players at home):

- BURST connections (as many as Caddy keeps idle upstream connections, 32) act together, then sit idle for a gap
  drawn around hhd's idle timeout (75 s) or around the upstream keep-alive (5 s): the upstream connections below
  the steady load's few are reused by the burst after sitting idle that long;
- STEADY connections act with random gaps, the bulk of the POSTs, keeping the top of Caddy's pool busy.

    .venv/bin/python benchmarks/caddy_posts.py                    # >= 10,000 POSTs a proxy, 16 minutes at most
    .venv/bin/python benchmarks/caddy_posts.py --posts 2000 --minutes 4

Figures, per proxy: POSTs, answers whole (200, the body's every byte, JSON), cut (a status line, then less body
than its Content-Length), 502 and other 5xx (Caddy's answer when its upstream connection broke before an answer),
no answer (the client's connection broke first), other statuses, and the reverse proxy's error lines from Caddy's
log by message; the machine's load average while measuring (the other work of a shared machine is the load).
Writes benchmarks/results-caddy-posts.json. Traffic only to and from 127.0.0.0/8.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import platform
import random
import re
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from caddykit import Caddy, documented_site, free_port, upstream_keepalive  # noqa: E402

from hhdcli.table.hosting.server import Bounds  # noqa: E402

# the Caddyfile docs/server.md gave before issue 58: Caddy's default upstream keep-alive (2 minutes)
OLD_SITE = """hell.example.org {
\treverse_proxy 127.0.0.1:8040 {
\t\tflush_interval -1
\t}
}
"""
# the old Caddyfile with the upstream keep-alive alone shortened
KEEPALIVE_ALONE_SITE = """hell.example.org {
\treverse_proxy 127.0.0.1:8040 {
\t\tflush_interval -1
\t\ttransport http {
\t\t\tkeepalive 5s
\t\t}
\t}
}
"""
HHD_IDLE = Bounds().idle_seconds  # seconds: hhd closes a connection idle this long
BURST = 32  # Caddy's idle upstream connections kept per host (its default keepalive_idle_conns_per_host)
STEADY = 6
PLAYERS = 5
JITTER = 0.25  # seconds either side of a timeout a burst's gap is drawn from
OUTCOMES = ("whole", "cut", "502", "other 5xx", "no answer", "other status")


@dataclass
class Tally:
    """What the POSTs of one proxy came to."""

    outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    took: list[float] = field(default_factory=list)
    bursts: collections.Counter[str] = field(default_factory=collections.Counter)  # bursts by the gap before them
    lost: list[str] = field(default_factory=list)  # what each answer not whole was, when, and in which tap
    lost_in: collections.Counter[str] = field(default_factory=collections.Counter)  # "outcome, tap" counted
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: str, took: float, said: str, tap: str) -> None:
        """One POST's outcome; `tap`: a steady one, or a burst's after the gap it names."""
        with self.lock:
            self.outcomes[outcome] += 1
            if outcome == "whole":
                self.took.append(took)
                return
            self.lost_in[f"{outcome}, {tap}"] += 1
            if len(self.lost) < 200:
                self.lost.append(f"{time.strftime('%H:%M:%S')} {tap}: {outcome}: {said}")

    def posts(self) -> int:
        return sum(self.outcomes.values())


@dataclass
class Seat:
    """A player's phone: one kept-alive connection to the proxy from a loopback address of its own."""

    source: str
    path: str  # the table's address, /t/<id>
    name: str
    code: str
    token: str = ""
    delta: int = 1

    def headers(self) -> dict[str, str]:
        said = f"Table code={self.code}" + (f", player={self.token}" if self.token else "")
        return {"Content-Type": "application/json", "Authorization": said, "X-Want-State": "1"}


class Phone:
    """A seat's connection, kept alive between taps as a browser keeps it; opened again only when it broke."""

    def __init__(self, caddy: Caddy, seat: Seat) -> None:
        self.caddy, self.seat = caddy, seat
        self.connection: http.client.HTTPSConnection | None = None

    def join(self) -> None:
        status, data = self._exchange("/api/join", {"player": self.seat.name})
        assert status == 200, data[:300]
        self.seat.token = json.loads(data)["token"]

    def tap(self) -> tuple[str, float, str]:
        """One life change, +1 and -1 in turn: its outcome, how long its answer took, and what went wrong."""
        self.seat.delta = -self.seat.delta
        sent = time.monotonic()
        try:
            status, data = self._exchange("/api/life", {"whose": self.seat.name, "delta": self.seat.delta})
        except http.client.IncompleteRead as cut:  # a status line, then the connection ended inside the body
            self.close()
            return "cut", 0.0, f"IncompleteRead({len(cut.partial)} bytes read, {cut.expected} more expected)"
        except Unanswered as exc:
            self.close()
            return "no answer", 0.0, repr(exc.__cause__)
        except BrokenBody as exc:
            self.close()
            return "cut", 0.0, repr(exc.__cause__)
        took = time.monotonic() - sent
        return outcome(status, data), took, f"{status} {data[:120]!r}"

    def _exchange(self, action: str, body: object) -> tuple[int, bytes]:
        if self.connection is None:
            self.connection = self.caddy.connection(self.seat.source, timeout=60)
        try:
            self.connection.request("POST", f"{self.seat.path}{action}", json.dumps(body), self.seat.headers())
            answer = self.connection.getresponse()
        except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
            raise Unanswered from exc
        try:
            data = answer.read()
        except http.client.IncompleteRead:
            raise
        except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
            raise BrokenBody from exc
        if answer.will_close:
            self.close()
        return answer.status, data

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Unanswered(Exception):
    """The connection broke before a status line came."""


class BrokenBody(Exception):
    """The connection broke while the body was read."""


def outcome(status: int, data: bytes) -> str:
    if status == 200:
        try:
            json.loads(data)
            return "whole"
        except ValueError:
            return "cut"
    if status == 502:
        return "502"
    return "other 5xx" if status >= 500 else "other status"


# --- one proxy and its server ---------------------------------------------------------------------------------


class Proxy:
    """`hhd serve --behind-proxy` and Caddy with one site block in front of it, both on loopback."""

    def __init__(self, name: str, site: str, work: Path, cache: Path, lane: int) -> None:
        self.name, self.site, self.lane = name, site, lane
        self.keepalive = upstream_keepalive(site)
        upstream = free_port()
        self.log = (work / f"hhd-{lane}.err").open("w")  # hhd's standard error: a file, never a full pipe
        self.caddy = Caddy(work / f"caddy-{lane}", upstream, site)
        env = {**os.environ, "HHD_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen([sys.executable, "-m", "hhdcli", "serve", "--dir", str(work / f"tables-{lane}"),
                                        "--port", str(upstream), "--behind-proxy", "--public-url", self.caddy.url],
                                       env=env, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        assert self.server.stdout is not None
        line = self.server.stdout.readline()
        assert line.startswith("open "), line + self.log.name
        self.listened = self.caddy.errors.stat().st_size  # Caddy's start asked before hhd listened: not counted
        self.tally = Tally()

    def source(self, n: int) -> str:
        """The n-th loopback address of this proxy's clients: 127.<lane+1>.<n // 250>.<n % 250 + 2>."""
        return f"127.{self.lane + 1}.{n // 250}.{n % 250 + 2}"

    def seats(self, count: int) -> list[Seat]:
        """`count` seats at tables opened through the proxy's front page, PLAYERS a table."""
        seats: list[Seat] = []
        for table in range((count + PLAYERS - 1) // PLAYERS):
            code = self.open_table(table)
            path = "/t/" + table_id(code)
            seats += [Seat(self.source(len(seats) + p), path, f"P{p}", code) for p in range(PLAYERS)]
        return seats[:count]

    def open_table(self, table: int) -> str:
        boundary = uuid.uuid4().hex
        fields = {f"name{p}": f"P{p}" for p in range(PLAYERS)} | {f"colors{p}": "WUBRG"[p] for p in range(PLAYERS)}
        body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                        for k, v in (fields | {"seed": f"caddy-posts-{table}"}).items()) + f"--{boundary}--\r\n".encode()
        connection = self.caddy.connection(self.source(1000 + table))
        connection.request("POST", "/open", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        answer = connection.getresponse()
        page = answer.read().decode()
        connection.close()
        assert answer.status == 201, page[:300]
        return page.split("#code=")[1].split("&")[0].split('"')[0]

    def errors(self) -> dict[str, int]:
        """Caddy's error lines since hhd listened, by logger, message and error (numbers and addresses out)."""
        said: collections.Counter[str] = collections.Counter()
        for line in self.caddy.errors.read_bytes()[self.listened:].decode(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("level") == "error" and entry.get("logger", "").startswith("http."):
                text = f"{entry['logger']}: {entry.get('msg', '')}" + (f": {entry['error']}" if "error" in entry else "")
                said[re.sub(r"\d+(\.\d+)*(:\d+)?", "N", text)] += 1
        return dict(said)

    def stop(self) -> None:
        self.server.terminate()
        try:
            self.server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.communicate()
        self.log.close()
        self.caddy.stop()


def table_id(code: str) -> str:
    from hhdcli.table.hosting.community import table_id as of

    return of(code)


# --- the load --------------------------------------------------------------------------------------------------


@dataclass
class Plan:
    posts: int  # at least this many POSTs a proxy
    seconds: float  # and no longer than this
    rate: float  # steady POSTs a second, a proxy
    gaps: list[tuple[str, float]]  # each burst's gap before it: what it is drawn around, and its length


def plan(args: argparse.Namespace, keepalives: list[float]) -> Plan:
    """The bursts' gaps: around hhd's idle timeout, then around each proxy's upstream keep-alive when it is shorter,
    in turn, until the time is up; the steady rate makes up the POSTs."""
    rng = random.Random(args.seed)
    around = [("hhd idle 75 s", HHD_IDLE)] + [(f"keepalive {k:g} s", k) for k in sorted(set(keepalives))
                                               if 0 < k < HHD_IDLE]
    gaps: list[tuple[str, float]] = []
    total = 0.0
    while total < args.minutes * 60:
        for name, seconds in around:
            gap = seconds + rng.uniform(-JITTER, JITTER)
            gaps.append((name, gap))
            total += gap
    seconds = args.minutes * 60
    burst_posts = BURST * len(gaps)
    rate = max(1.0, (args.posts - burst_posts) / (seconds * 0.85))  # done a little before the time is up
    return Plan(args.posts, seconds, rate, gaps)


def bursting(proxy: Proxy, phones: list[Phone], gaps: list[tuple[str, float]], stop: threading.Event) -> None:
    """The burst connections: all together, then idle for the next gap (from the middle of the last burst's
    answers, when hhd's idle timers started), until the gaps or the time run out."""
    ended = burst(proxy, phones, "first burst")
    proxy.tally.bursts["first"] += 1
    for name, gap in gaps:
        if stop.wait(max(0.0, ended + gap - time.monotonic())):
            return
        ended = burst(proxy, phones, f"burst after {name}")
        proxy.tally.bursts[name] += 1


def burst(proxy: Proxy, phones: list[Phone], tap: str) -> float:
    """Every phone taps at once; the middle of the times their answers ended."""
    ended: list[float] = []
    threads = [threading.Thread(target=lambda p=phone: ended.append(tapped(proxy, p, tap))) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statistics.median(ended)


def tapped(proxy: Proxy, phone: Phone, tap: str) -> float:
    """One tap counted; when its answer ended."""
    result, took, said = phone.tap()
    proxy.tally.add(result, took, said, tap)
    return time.monotonic()


def steady(proxy: Proxy, phone: Phone, rate: float, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.wait(rng.expovariate(rate)):
        tapped(proxy, phone, "steady")


def loads() -> Iterator[float]:
    while True:
        yield float(Path("/proc/loadavg").read_text().split()[0])


def run(proxies: list[Proxy], the_plan: Plan, args: argparse.Namespace) -> list[float]:
    """Both proxies loaded under the same plan at once; the load averages seen every 10 s."""
    stop = threading.Event()
    threads: list[threading.Thread] = []
    for proxy in proxies:
        seats = proxy.seats(BURST + STEADY)
        phones = [Phone(proxy.caddy, seat) for seat in seats]
        for phone in phones:
            phone.join()
        threads.append(threading.Thread(target=bursting, args=(proxy, phones[:BURST], the_plan.gaps, stop)))
        threads += [threading.Thread(target=steady, args=(proxy, phone, the_plan.rate / STEADY, stop, args.seed + n))
                    for n, phone in enumerate(phones[BURST:])]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    seen = []
    while time.monotonic() - started < the_plan.seconds and \
            min(p.tally.posts() for p in proxies) < the_plan.posts:
        seen.append(next(loads()))
        stop.wait(10)
        progress(proxies, time.monotonic() - started)
    stop.set()
    for thread in threads:
        thread.join(timeout=90)
    return seen


def progress(proxies: list[Proxy], elapsed: float) -> None:
    said = "; ".join(f"{p.name}: {p.tally.posts()} POSTs, {p.tally.posts() - p.tally.outcomes['whole']} not whole"
                     for p in proxies)
    print(f"  {elapsed:5.0f} s  {said}", file=sys.stderr, flush=True)


# --- the report ------------------------------------------------------------------------------------------------


def figures(proxy: Proxy, seconds: float) -> dict[str, Any]:
    tally = proxy.tally
    took = sorted(tally.took)
    return {"caddyfile": proxy.site, "upstream_keepalive_s": proxy.keepalive, "hhd_idle_s": HHD_IDLE,
            "posts": tally.posts(), "seconds": round(seconds), "outcomes": {k: tally.outcomes[k] for k in OUTCOMES},
            "not_whole": tally.posts() - tally.outcomes["whole"], "bursts": dict(tally.bursts),
            "p50_ms": round(took[len(took) // 2] * 1000, 1) if took else None,
            "p99_ms": round(took[int(len(took) * 0.99)] * 1000, 1) if took else None,
            "lost_in": dict(tally.lost_in), "caddy_errors": proxy.errors(), "lost": tally.lost}


def table(results: list[dict[str, Any]], names: list[str]) -> str:
    rows = [("", *names), ("upstream keep-alive (Caddy)", *[f"{r['upstream_keepalive_s']:g} s" for r in results]),
            ("idle timeout (hhd)", *[f"{r['hhd_idle_s']:g} s" for r in results]),
            ("request bodies buffered (Caddy)", *["yes" if "buffer_requests" in r["caddyfile"] else "no"
                                                  for r in results]),
            ("POSTs", *[str(r["posts"]) for r in results]),
            *[(f"  {k}", *[str(r["outcomes"][k]) for r in results]) for k in OUTCOMES],
            ("answers cut or lost", *[str(r["not_whole"] - r["outcomes"]["other status"]) for r in results]),
            ("  in which taps", *["; ".join(f"{k}: {v}" for k, v in r["lost_in"].items()) or "-" for r in results]),
            ("bursts (after a gap around)", *[", ".join(f"{k}: {v}" for k, v in r["bursts"].items())
                                              for r in results]),
            ("whole answer p50 / p99", *[f"{r['p50_ms']} / {r['p99_ms']} ms" for r in results])]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows)


def synced_cache(work: Path) -> Path:
    from support import LEGACY, PIPS

    cache = work / "cache"
    env = {**os.environ, "HHD_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "hhdcli", "sync", "--source", str(LEGACY), "--symbols", str(PIPS)],
                   env=env, check=True, capture_output=True, cwd=ROOT)
    return cache


def stopped(_number: int, _frame: Any) -> None:
    raise SystemExit("stopped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=10_000, help="at least this many POSTs a proxy")
    parser.add_argument("--minutes", type=float, default=16.0, help="and at most this long")
    parser.add_argument("--seed", type=int, default=58)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results-caddy-posts.json")
    args = parser.parse_args()
    lanes = {"before": OLD_SITE, "keep-alive alone": KEEPALIVE_ALONE_SITE, "documented": documented_site()}
    names = list(lanes)
    signal.signal(signal.SIGTERM, stopped)  # stopped early: the servers and proxies are stopped all the same
    with tempfile.TemporaryDirectory(prefix="hhd-caddy-posts-") as folder:
        work = Path(folder)
        cache = synced_cache(work)
        proxies: list[Proxy] = []
        with contextlib.ExitStack() as stack:
            for lane, site in enumerate(lanes.values()):
                proxies.append(Proxy(names[lane], site, work, cache, lane))
                stack.callback(proxies[-1].stop)
            the_plan = plan(args, [p.keepalive for p in proxies])
            print(f"{len(the_plan.gaps)} bursts of {BURST}, {the_plan.rate:.1f} steady POSTs/s a proxy, "
                  f"{args.minutes:g} min at most", file=sys.stderr, flush=True)
            started = time.monotonic()
            seen = run(proxies, the_plan, args)
            seconds = time.monotonic() - started
            results = [figures(p, seconds) for p in proxies]
    print(table(results, names))
    load = {"load_average_1min": {"min": min(seen), "mean": round(statistics.mean(seen), 2), "max": max(seen)}
            if seen else None, "cores": os.cpu_count(),
            "note": "a machine shared with other workers' builds and benchmarks: their work is the load"}
    print(f"load average (1 min) while measuring: {load['load_average_1min']} on {os.cpu_count()} cores")
    for result, name in zip(results, names, strict=True):
        if result["caddy_errors"]:
            print(f"{name}: Caddy's error lines: {result['caddy_errors']}")
    args.out.write_text(json.dumps({"date": datetime.now(UTC).isoformat(timespec="seconds"),
                                    "python": platform.python_version(), "machine": load,
                                    "proxies": dict(zip(names, results, strict=True))}, indent=1) + "\n")


if __name__ == "__main__":
    main()
