"""Requests per client address, rate-limited by `limits` (the maintained library Flask-Limiter is built on): its
moving-window limiter and its in-memory store, one for the whole server, so an address's share is counted across
every table of `hhd serve`. Flask-Limiter itself would keep one store (and one clean-up thread) per app, that is
per table.

One change to the store: `limits`' in-memory store sweeps expired entries in a Timer thread that it starts again
after each quiet moment, and under the gevent server (one thread, every table's requests) each start held the whole
server for milliseconds (measured: 5 ms a POST on a busy machine, docs/design-table-online.md). `_SweptInline`
sweeps in the request instead, once a second at most; the counting is `limits`' own.

The client's address is Flask's `request.remote_addr`: the peer's, or behind a proxy the one ProxyFix took from
X-Forwarded-For (hhdcli/table/online.py, only with --behind-proxy)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

SWEEP_EVERY = 1.0  # seconds between two sweeps of the store's expired entries

# what one address may do: a household of phones and a board acting every few seconds stays far below these
RULES = {
    "open": "10/hour",  # tables opened
    "short": "10/minute;30/hour",  # short codes typed by hand (of 39 bits: guessing one takes years)
    "join": "30/minute",  # seats taken
    "post": "240/minute",  # every action
}


class _SweptInline(MemoryStorage):
    """`limits`' in-memory store, its expired entries swept by the request that finds the last sweep a second old
    rather than by a thread started for it (see above). The store calls its (name-mangled) `__schedule_expiry`
    before each count: this is that hook; `tests/test_table_throttle.py` checks that no thread starts."""

    _swept = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
            # it empties an address's list of requests but keeps the key: an address gone quiet is forgotten
            for key, events in list(self.events.items()):  # a copy made at once: another thread may count
                if not events:
                    self.events.pop(key, None)


@dataclass
class Throttle:
    rules: dict[str, str] = field(default_factory=lambda: dict(RULES))

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(_SweptInline())
        self._parsed: dict[str, list[RateLimitItem]] = {k: parse_many(v) for k, v in self.rules.items()}

    def wait(self, kind: str, address: str) -> int:
        """0 when the address may go on (the request is counted by every rule of its kind), else the seconds
        until it may (a refused request is counted by none)."""
        items = self._parsed[kind]
        for item in items:
            if not self._limiter.test(item, kind, address):
                reset = self._limiter.get_window_stats(item, kind, address).reset_time
                return max(1, int(reset - time.time()) + 1)
        for item in items:
            self._limiter.hit(item, kind, address)
        return 0

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
