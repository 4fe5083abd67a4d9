"""Which WSGI server holds the table's event streams: each candidate serves the same small app (one server-sent
event stream per page, a comment every 15 s, the table's Changes waking it) in a process of its own; a client
opens STREAMS streams and then times a request beside them. Figures: streams answered within 5 s, the
server's RSS holding them, and the time of one plain request while they are open.

    .venv/bin/python benchmarks/sse_servers.py            # needs gevent and waitress (pip install waitress)

The result chose gevent's pywsgi for `hhd table` and `hhd serve` (docs/design-table-online.md); it writes
benchmarks/results-sse-servers.json.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STREAMS = 500
SERVERS = ("gevent", "waitress", "werkzeug")

SERVER = r'''
import sys, threading, time
sys.path.insert(0, {root!r})
kind, port = sys.argv[1], int(sys.argv[2])
from hhdcli.table.game.changes import Changes
if kind == "gevent":
    import gevent.event
    changes = Changes(max_streams=100_000, event=gevent.event.Event)
else:
    changes = Changes(max_streams=100_000)

def app(environ, start_response):
    if environ["PATH_INFO"] == "/events":
        start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")])
        return (chunk.encode() for chunk in changes.stream())
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]

if kind == "gevent":
    from gevent.pywsgi import WSGIServer
    WSGIServer(("127.0.0.1", port), app, log=None).serve_forever()
elif kind == "waitress":
    import waitress
    waitress.serve(app, host="127.0.0.1", port=port, _quiet=True)
else:
    from werkzeug.serving import make_server
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()
'''


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def measure(kind: str) -> dict[str, object]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(root=str(ROOT)), kind, str(port)])
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        at_rest = rss_mb(server.pid)
        opened, answered = [], 0
        begin = time.monotonic()
        for _ in range(STREAMS):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/events")
            opened.append(connection)
        for connection in opened:
            try:
                answer = connection.getresponse()
                if answer.status == 200 and answer.readline().startswith(b"retry:"):
                    answered += 1
            except OSError:
                pass
            if time.monotonic() - begin > 30:
                break
        holding = rss_mb(server.pid)
        asked = time.monotonic()
        try:
            plain = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            plain.request("GET", "/")
            ok = plain.getresponse().status == 200
        except OSError:
            ok = False
        beside = round((time.monotonic() - asked) * 1000, 1) if ok else None
        for connection in opened:
            connection.close()
        return {"server": kind, "streams_answered": answered, "of": STREAMS, "rss_at_rest_mb": at_rest,
                "rss_holding_mb": holding, "plain_request_beside_ms": beside}
    finally:
        server.kill()
        server.wait()


def main() -> None:
    rows = []
    for kind in SERVERS:
        try:
            rows.append(measure(kind))
        except Exception as exc:  # a candidate that is not installed is a row saying so
            rows.append({"server": kind, "error": f"{type(exc).__name__}: {exc}"})
        print(json.dumps(rows[-1]), flush=True)
    (ROOT / "benchmarks" / "results-sse-servers.json").write_text(json.dumps({"rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
