"""`hhd serve` at a community's scale, as whole processes on 127.0.0.1: one server (`hhd serve --behind-proxy`)
and one load process (gevent) playing TABLES tables of PLAYERS players. Every player keeps an event stream open,
acts every EVERY seconds on average (exponential gaps: a draw, then its undo, so the library never runs
out), and reads the table's state when its stream says it changed,
as the page does. Each player has an address of its own (X-Forwarded-For, which the server believes behind its
proxy), so the per-address limits apply as they would on the internet.

    .venv/bin/python benchmarks/table_scale.py                      # 100 tables x 5 players, 10 minutes
    .venv/bin/python benchmarks/table_scale.py --minutes 2 --out benchmarks/results-scale-2min.json

Figures: draw p50/p95/p99 (sent to answered), push p50/p95/p99 (an action sent to the change event arriving at
each other page of its table), streams refused or dropped, actions refused, the server's RSS over time, what
one table costs at rest (memory, disk), and with --saturate the action rate at which draw p99 passes 150 ms
(steps of rising rates, each on fresh tables). The result file also says the machine: its cores, Python, the date
and its load average at the end (a shared machine's other work shows in every latency).
Targets (issue 44): draw p99 <= 150 ms, push p99 <= 300 ms, no stream refused or dropped, RSS <= 300 MB, flat.
Reads the registry files in tests/data into a cache of its own in a temporary folder.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]




@contextlib.contextmanager
def serving(work: Path, root: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """`hhd serve --behind-proxy` of the checkout at `root` on a free port of 127.0.0.1, its cache synced from the
    test suite's registry files and its tables in `work`: the process and its port; stopped at the end (killed
    when a loaded machine keeps it past 30 s: the figures are in hand all the same)."""
    import socket

    from support import LEGACY, PIPS

    env = {**os.environ, "HHD_CACHE_DIR": str(work / "cache"), "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-m", "hhdcli", "sync", "--source", str(LEGACY), "--symbols", str(PIPS)],
                   env=env, check=True, capture_output=True, cwd=root)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "hhdcli", "serve", "--dir", str(work / "tables"),
                               "--port", str(port), "--behind-proxy"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=root)
    try:
        assert server.stdout is not None and server.stdout.readline().startswith("open "), \
            server.stderr.read() if server.stderr else ""
        yield server, port
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


def forwarded_address(table: int, player: int) -> str:
    """A player's address as the proxy forwards it (X-Forwarded-For, believed behind --behind-proxy): each table a
    household of its own, so the per-address limits count as on the internet. Only a header value: nothing is sent
    to it."""
    return f"10.{table // 200}.{table % 200}.{player + 1}"

def opened_table(port: int, fields: dict[str, str], forwarded_for: str) -> str:
    """A table opened through hhd serve's front page form, as its opener's browser posts it; its join code (read
    from the link the answer shows, after #)."""
    import http.client  # here, as the load client imports it: after gevent has patched the sockets

    boundary = uuid.uuid4().hex
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                    for k, v in fields.items()) + f"--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/open", body, {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                                 "X-Forwarded-For": forwarded_for})
    answer = connection.getresponse()
    page = answer.read().decode()
    connection.close()
    assert answer.status == 201, page[:300]
    return page.split("#code=")[1].split("&")[0].split('"')[0]

def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, Any]:
    return {"samples": len(values), "p50_ms": round(percentile(values, 0.5) * 1000, 1),
            "p95_ms": round(percentile(values, 0.95) * 1000, 1), "p99_ms": round(percentile(values, 0.99) * 1000, 1)}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def disk_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


# --- the load process ----------------------------------------------------------------------------------------


def load(args: argparse.Namespace) -> dict[str, Any]:
    from gevent import monkey

    monkey.patch_all()
    import http.client

    import gevent

    from hhdcli.table.hosting.community import table_id  # the address of a table: /t/<its code's SHA-256>/

    port, pid = args.port, args.server_pid

    def connect() -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def open_table(table: int) -> str:
        fields = {f"name{p}": f"P{p}" for p in range(args.players)} | \
            {f"colors{p}": "WUBRG"[p % 5] for p in range(args.players)} | {"seed": f"bench-{table}"}
        return opened_table(port, fields, forwarded_address(table, 99))

    started = time.monotonic()
    codes = [open_table(t) for t in range(args.tables)]
    opening = time.monotonic() - started

    draws: list[float] = []
    others: list[float] = []  # every action, not only draws
    pushes: list[float] = []
    refused_actions: list[str] = []  # path and status of each action refused
    failed: list[str] = []  # requests that found no server twice
    streams = {"refused": 0, "dropped": 0, "open": 0}
    last_sent: dict[int, tuple[int, float, int]] = {}  # table: (action number, sent at, actor)
    actions = itertools.count()  # every action's number, in the order sent (a page counts each one once)
    stop_at = [float("inf")]
    measuring = [False]

    def call(connection: http.client.HTTPConnection, method: str, path: str, headers: dict[str, str],
             body: object = None) -> tuple[int, Any]:
        """One request; sent again on a new connection when the server had closed this one as idle (after 75 s
        without a request, which a player's exponential gaps sometimes reach), as a browser does."""
        for attempt in (1, 2):
            try:
                connection.request(method, path, None if body is None else json.dumps(body), headers)
                answer = connection.getresponse()
                return answer.status, json.loads(answer.read() or b"{}")
            except (http.client.RemoteDisconnected, ConnectionError) as exc:
                connection.close()  # the next request opens it again
                if attempt == 2:
                    failed.append(f"{path}: {exc!r}")
        return 0, {}

    def listen(table: int, player: int, headers: dict[str, str]) -> None:
        """The page's event stream, and its state read at each change."""
        stream, reader = connect(), connect()
        base = f"/t/{table_id(codes[table])}"
        stream.request("GET", f"{base}/api/events", headers=headers)
        answer = stream.getresponse()
        if answer.status != 200:
            streams["refused"] += 1
            return
        streams["open"] += 1
        seen_action = -1
        while True:
            try:
                line = answer.fp.readline()
            except (OSError, http.client.HTTPException):
                line = b""
            if not line:
                if time.monotonic() < stop_at[0]:
                    streams["dropped"] += 1
                streams["open"] -= 1
                return
            if not line.startswith(b"data: "):
                continue
            now = time.monotonic()
            number, sent, actor = last_sent.get(table, (-1, 0.0, -1))
            if number > seen_action:
                seen_action = number
                if actor != player and measuring[0]:
                    pushes.append(now - sent)
            try:  # read to the end as the page does, not parsed: this process's CPU is not the server's latency
                reader.request("GET", f"{base}/api/state", headers=headers)
                reader.getresponse().read()
            except (OSError, http.client.HTTPException):
                reader.close()
                reader = connect()

    def play(table: int, player: int) -> None:
        code = codes[table]
        base = f"/t/{table_id(code)}"  # where hhd serve serves the table; its code and the token in Authorization
        headers = {"Content-Type": "application/json", "Authorization": f"Table code={code}",
                   "X-Forwarded-For": forwarded_address(table, player)}
        connection = connect()
        status, joined = call(connection, "POST", f"{base}/api/join", headers, {"player": f"P{player}"})
        assert status == 200, joined
        headers["Authorization"] = f"Table code={code}, player={joined['token']}"
        for path, body in ((f"{base}/api/opening-hand", {}), (f"{base}/api/keep", {"bottom": []})):
            status, answer = call(connection, "POST", path, headers, body)  # the rules: no draw before the keep
            assert status == 200, answer
        gevent.spawn(listen, table, player, dict(headers))
        while time.monotonic() < stop_at[0]:
            gevent.sleep(random.expovariate(1 / args.every))
            if time.monotonic() >= stop_at[0]:
                break
            sent = time.monotonic()
            last_sent[table] = (next(actions), sent, player)
            status, card = call(connection, "POST", f"{base}/api/draw", headers, {})
            took = time.monotonic() - sent
            if measuring[0]:
                if status == 200:
                    draws.append(took)
                elif status:  # 0: no answer at all, counted as failed by call()
                    refused_actions.append(f"draw {status}: {card.get('error', '')}")
            if status != 200:
                continue
            # the draw undone (the player's own last action): the library keeps its 97 cards however long the
            # evening, and every action is a write the other pages hear of
            steps = [(f"{base}/api/undo", {})]
            for path, body in steps:
                gevent.sleep(random.expovariate(1 / args.every))
                sent = time.monotonic()
                last_sent[table] = (next(actions), sent, player)
                status, answer = call(connection, "POST", path, headers, body)
                if measuring[0]:
                    if status == 200:
                        others.append(time.monotonic() - sent)
                    elif status:
                        refused_actions.append(f"{path} {status}: {answer.get('error', '')}")

    rest_before = rss_mb(pid)
    players = [gevent.spawn(play, t, p) for t in range(args.tables) for p in range(args.players)]
    settling = time.monotonic() + 60
    while streams["open"] < args.tables * args.players and time.monotonic() < settling:
        gevent.sleep(0.5)  # every player joined and listening (the first actions have begun meanwhile)
    gevent.sleep(2)
    rest_with_tables = rss_mb(pid)
    memory: list[tuple[float, float]] = []
    measuring[0] = True
    begin, cpu_begin, own_begin = time.monotonic(), cpu_seconds(pid), cpu_seconds(os.getpid())
    stop_at[0] = begin + args.minutes * 60
    while time.monotonic() < stop_at[0]:
        memory.append((round(time.monotonic() - begin, 1), round(rss_mb(pid), 1)))
        gevent.sleep(10)
    measuring[0] = False
    memory.append((round(time.monotonic() - begin, 1), round(rss_mb(pid), 1)))
    elapsed, cpu = time.monotonic() - begin, cpu_seconds(pid) - cpu_begin
    own = cpu_seconds(os.getpid()) - own_begin
    open_streams = streams["open"]
    gevent.killall(players, timeout=5)
    third = max(1, len(memory) // 3)
    return {
        "tables": args.tables, "players": args.players, "mean_gap_s": args.every, "minutes": args.minutes,
        "opening_tables_s": round(opening, 1),
        "actions_per_s": round((len(draws) + len(others)) / elapsed, 1),
        # the server's CPU per action, with the state reads of the pages it woke: 1 / this is the action rate
        # one core saturates at
        "server_cpu_share": round(cpu / elapsed, 2),
        "server_cpu_ms_per_action": round(cpu * 1000 / max(1, len(draws) + len(others)), 1),
        # the load process's own share of a core: near 1, it (not the server) is what the latencies measure
        "load_client_cpu_share": round(own / elapsed, 2),
        "draw": summary(draws), "other_actions": summary(others), "push_to_other_pages": summary(pushes),
        "requests_failed": len(failed), "failed_kinds": sorted(set(failed))[:10],
        "actions_refused": len(refused_actions), "refused_kinds": sorted(set(refused_actions))[:10],
        "streams_open_at_end": open_streams, "streams_refused": streams["refused"],
        "streams_dropped": streams["dropped"],
        "rss_mb": {"before_tables_loaded": round(rest_before, 1), "tables_loaded_at_rest": round(rest_with_tables, 1),
                   "first_third_mean": round(statistics.mean(m for _t, m in memory[:third]), 1),
                   "last_third_mean": round(statistics.mean(m for _t, m in memory[-third:]), 1),
                   "max": max(m for _t, m in memory), "over_time": memory},
    }


# --- the driver ------------------------------------------------------------------------------------------------


TARGETS = {"draw_p99_ms": 150, "push_p99_ms": 300, "rss_max_mb": 300}


def load_process(script: str, args: argparse.Namespace, port: int, pid: int, every: float, minutes: float,
                 extra: list[str]) -> dict[str, Any]:
    """One load process (`script --load`) against the running server: its own tables, players acting every `every`
    seconds; what it measured, with the errors that killed any of its players or pages."""
    loaded = subprocess.run([sys.executable, script, "--load", "--port", str(port), "--server-pid", str(pid),
                             "--tables", str(args.tables), "--players", str(args.players), "--every", str(every),
                             "--minutes", str(minutes), *extra], capture_output=True, text=True, check=False)
    if loaded.returncode != 0:
        sys.exit(loaded.stderr[-3000:])
    found: dict[str, Any] = json.loads(loaded.stdout)
    # a player or page of the load client that died of an error (gevent prints it): fewer actions than asked;
    # what they were: the last line of each traceback
    found["load_client_errors"] = loaded.stderr.count("Traceback")
    lines = loaded.stderr.splitlines()
    found["load_client_error_kinds"] = collections.Counter(
        lines[i + 1] for i, line in enumerate(lines[:-1]) if line.startswith(("Traceback", "  File"))
        and not lines[i + 1].startswith(("  ", "Traceback"))).most_common(5)
    return found


def measured(args: argparse.Namespace, port: int, pid: int, every: float, minutes: float) -> dict[str, Any]:
    return load_process(__file__, args, port, pid, every, minutes, [])


def saturation(args: argparse.Namespace, measure: Callable[[float, float, int], dict[str, Any]],
               draw_p99_ms: float) -> dict[str, Any]:
    """Rising action rates, each for --step-minutes on fresh tables (`measure(every, minutes, step)`), until draw
    p99 passes `draw_p99_ms` or the server answers fewer actions than asked: the rate it saturates at, on this
    machine, with its other load."""
    steps, rate = [], args.start_rate
    for step in range(args.steps):
        found = measure(args.tables * args.players / rate, args.step_minutes, step)
        steps.append({"asked_per_s": round(rate, 1), "achieved_per_s": found["actions_per_s"],
                      "draw_p99_ms": found["draw"]["p99_ms"], "push_p99_ms": found["push_to_other_pages"]["p99_ms"],
                      "server_cpu_share": found["server_cpu_share"],
                      "server_cpu_ms_per_action": found.get("server_cpu_ms_per_action"),
                      "load_client_cpu_share": found["load_client_cpu_share"]})
        steps[-1]["met"] = found["draw"]["p99_ms"] <= draw_p99_ms and found["actions_per_s"] >= 0.9 * rate
        if not steps[-1]["met"]:
            break
        rate *= 1.5
    return {"steps": steps, "last_rate_met_per_s": max((s["asked_per_s"] for s in steps if s["met"]), default=None),
            "saturated_at_per_s": steps[-1]["asked_per_s"] if steps and not steps[-1]["met"] else None}


def written(result: dict[str, Any], out: Path, started: datetime) -> None:
    """The run's figures with the machine they were measured on, in `out` and (without the memory over time) on
    the terminal."""
    result["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "platform": platform.platform(),
                         "date": started.isoformat(timespec="seconds"),
                         "load_average_1_5_15_at_end": os.getloadavg()}  # the machine may be shared
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    shown = {k: v for k, v in result.items() if k != "rss_mb"} | {
        "rss_mb": {k: v for k, v in result["rss_mb"].items() if k != "over_time"}}
    print(json.dumps(shown, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--every", type=float, default=10.0, help="a player's mean seconds between actions")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--saturate", action="store_true",
                        help="then raise the action rate step by step until draw p99 passes 150 ms")
    parser.add_argument("--start-rate", type=float, default=25.0, help="--saturate: the first step's actions/s")
    parser.add_argument("--step-minutes", type=float, default=1.0, help="--saturate: each step's length")
    parser.add_argument("--steps", type=int, default=8, help="--saturate: at most this many steps (x1.5 each)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results-scale.json")
    parser.add_argument("--load", action="store_true", help=argparse.SUPPRESS)  # the load process itself
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--server-pid", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load:
        print(json.dumps(load(args)))
        return
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    started = datetime.now(UTC)
    with tempfile.TemporaryDirectory(prefix="hhd-scale-") as work_dir, serving(Path(work_dir), ROOT) as (server, port):
        work = Path(work_dir)
        at_start = rss_mb(server.pid)
        result = measured(args, port, server.pid, args.every, args.minutes)
        result["actions_asked_per_s"] = round(args.tables * args.players / args.every, 1)
        result["rss_mb"]["server_started_no_table"] = round(at_start, 1)
        tables_disk = disk_bytes(work / "tables")
        result["per_table_at_rest"] = {
            "memory_kb": round((result["rss_mb"]["tables_loaded_at_rest"] - at_start) * 1024 / args.tables),
            "disk_kb_after_run": round(tables_disk / 1024 / args.tables)}
        if args.saturate:
            result["saturation"] = saturation(
                args, lambda every, minutes, _step: measured(args, port, server.pid, every, minutes),
                TARGETS["draw_p99_ms"])
    result["targets"] = TARGETS
    result["met"] = (result["draw"]["p99_ms"] <= TARGETS["draw_p99_ms"]
                     and result["push_to_other_pages"]["p99_ms"] <= TARGETS["push_p99_ms"]
                     and result["streams_refused"] == 0 and result["streams_dropped"] == 0
                     and result["rss_mb"]["max"] <= TARGETS["rss_max_mb"])
    written(result, args.out, started)


if __name__ == "__main__":
    main()
