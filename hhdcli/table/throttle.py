"""Requests per client address, rate-limited by `limits` (the maintained library Flask-Limiter is built on), in
memory: one store for the whole server, so an address's share is counted across every table of `hhd serve`.
Flask-Limiter itself would keep one store (and one clean-up thread) per app, that is per table.

The client's address is Flask's `request.remote_addr`: the peer's, or behind a proxy the one ProxyFix took from
X-Forwarded-For (hhdcli/table/online.py, only with --behind-proxy)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

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

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._parsed: dict[str, list[RateLimitItem]] = {k: parse_many(v) for k, v in self.rules.items()}

    def wait(self, kind: str, address: str) -> int:
        """0 when the address may go on (the request is counted), else the seconds until it may."""
        for item in self._parsed[kind]:
            if not self._limiter.hit(item, kind, address):
                reset = self._limiter.get_window_stats(item, kind, address).reset_time
                return max(1, int(reset - time.time()) + 1)
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
