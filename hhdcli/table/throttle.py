"""Requests per client address, counted in a moving window per rule, in memory: one count for the whole server,
so an address's share is counted across every table of `hhd serve`. The rules are written as the `limits` library
(the one Flask-Limiter is built on) reads them ("10/minute;30/hour"), and parsed by it.

The counting is ours: `limits`' in-memory store expires its entries in a thread it starts again after each burst
of hits, and under the gevent server (one thread, every table's requests) each start held the whole server for
milliseconds (measured: 5 ms a POST on a busy machine, docs/design-table-online.md). Here each address and kind
keeps the times of its counted requests, trimmed when it asks again; addresses gone quiet are swept each minute.

The client's address is Flask's `request.remote_addr`: the peer's, or behind a proxy the one ProxyFix took from
X-Forwarded-For (hhdcli/table/online.py, only with --behind-proxy)."""

from __future__ import annotations

import time
from bisect import bisect_right
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from limits import parse_many

SWEEP_EVERY = 60.0  # seconds between two sweeps of the addresses that went quiet

# what one address may do: a household of phones and a board acting every few seconds stays far below these
RULES = {
    "open": "10/hour",  # tables opened
    "short": "10/minute;30/hour",  # short codes typed by hand (of 39 bits: guessing one takes years)
    "join": "30/minute",  # seats taken
    "post": "240/minute",  # every action
}


@dataclass
class Throttle:
    rules: dict[str, str] = field(default_factory=lambda: dict(RULES))
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        # each kind's rules as (requests, seconds)
        self._windows = {kind: [(item.amount, float(item.get_expiry())) for item in parse_many(text)]
                         for kind, text in self.rules.items()}
        self._hits: dict[tuple[str, str], deque[float]] = {}  # (kind, address): its counted requests, oldest first
        self._swept = self.clock()

    def wait(self, kind: str, address: str) -> int:
        """0 when the address may go on (the request is counted), else the seconds until it may."""
        now = self.clock()
        if now - self._swept > SWEEP_EVERY:
            self._sweep(now)
        windows = self._windows[kind]
        hits = self._hits.setdefault((kind, address), deque())
        longest = max(seconds for _most, seconds in windows)
        while hits and hits[0] <= now - longest:
            hits.popleft()
        for most, seconds in windows:
            if len(hits) - bisect_right(hits, now - seconds) >= most:
                # one more may go when the oldest of the last `most` leaves the window
                return max(1, int(hits[-most] + seconds - now) + 1)
        hits.append(now)
        return 0

    def _sweep(self, now: float) -> None:
        """Forget the addresses whose every counted request has left its kind's longest window."""
        self._swept = now
        for key, hits in list(self._hits.items()):
            if not hits or hits[-1] <= now - max(seconds for _most, seconds in self._windows[key[0]]):
                del self._hits[key]

    def install(self, app: Any) -> None:
        """A table's app: every POST is counted per address, a join also against the joins' rule."""
        from flask import jsonify, request

        from hhdcli.table.app import gettext

        def counted() -> Any:
            if request.method != "POST":
                return None
            address = request.remote_addr or ""
            seconds = self.wait("post", address) or (self.wait("join", address)
                                                     if request.path.endswith("/api/join") else 0)
            if not seconds:
                return None
            answer = jsonify(error=gettext()("too many requests from your address: try again in {seconds} s")
                             .format(seconds=seconds))
            answer.status_code = 429
            answer.headers["Retry-After"] = str(seconds)
            return answer

        app.before_request_funcs.setdefault(None, []).insert(0, counted)
