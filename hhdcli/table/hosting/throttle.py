"""Requests per client address, rate-limited by `limits` (the maintained library Flask-Limiter is built on): its
moving-window limiter and its in-memory store, one for the whole server, so an address's share is counted across
every table of `hhd serve`. Flask-Limiter itself would keep one store (and one clean-up thread) per app, that is
per table.

One change to the store: `limits`' in-memory store sweeps expired entries in a Timer thread that it starts again
after each quiet moment, and under the gevent server (one thread, every table's requests) each start held the whole
server for milliseconds (measured: 5 ms a POST on a busy machine, docs/design-table-online.md). `_SweptInline`
sweeps in the request instead, once a second at most; the counting is `limits`' own.

The client's address is Flask's `request.remote_addr`: the peer's, or behind a proxy the one ProxyFix took from
X-Forwarded-For (hhdcli/table/hosting/online.py, only with --behind-proxy)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

SWEEP_EVERY = 1.0  # seconds between two sweeps of the store's expired entries

# what one address may do: a game store playing four tables behind one address (24 phones and boards, each acting
# every few seconds; tests/test_table_limits.py) stays below these
RULES = {
    "open": "10/hour",  # tables opened
    "short": "10/minute;30/hour",  # short codes typed by hand (of 40 bits: guessing one takes years)
    "join": "60/minute",  # seats taken
    "post": "900/minute",  # every action
    # short codes that found no table, from every address together (an attacker has many addresses): a few
    # thousand guesses a day among a thousand tables find one once in some ten thousand years
    "missed": "60/minute;600/hour",
}
EVERYONE = "*"  # the address of the server-wide rules
IPV6_NETWORK = 64  # an IPv6 host is given a /64: its addresses are one asker


def asker_of(address: str) -> str:
    """Who an address is, for the limits: an IPv4 address itself, an IPv6 one by its /64 network."""
    import ipaddress

    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:  # ::ffff:192.0.2.1, an IPv4 client of a dual-stack socket
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/{IPV6_NETWORK}", strict=False))


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
        seconds = self.waiting(kind, address)
        if not seconds:
            self.count(kind, address)
        return seconds

    def waiting(self, kind: str, address: str) -> int:
        """The seconds until the address may go on by the rules of `kind` (0: now), counting nothing."""
        asker = asker_of(address)
        for item in self._parsed[kind]:
            if not self._limiter.test(item, kind, asker):
                reset = self._limiter.get_window_stats(item, kind, asker).reset_time
                return max(1, int(reset - time.time()) + 1)
        return 0

    def count(self, kind: str, address: str) -> None:
        """One more request of `kind` from the address, by every rule of its kind."""
        asker = asker_of(address)
        for item in self._parsed[kind]:
            self._limiter.hit(item, kind, asker)

    def install(self, app: Any) -> None:
        """The tables' app: every POST is counted per address, a join also against the joins' rule."""
        from flask import jsonify, request

        from hhdcli.table.web.routes import gettext

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
