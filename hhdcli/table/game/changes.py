"""The table's change counter, which the pages' event streams wait on: each action wakes every open page of the
table at once, and the board learns which players have a page listening (who is connected).

It knows nothing of HTTP: the app bumps it after an action went through and serves `stream()` as server-sent
events; the production server (hhdcli/table/hosting/server.py) makes its events gevent's, so a stream is a greenlet."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from hhdcli.table.game.errors import TableError

ONLINE_FOR = 20.0  # seconds: a page that asked for the table this recently counts as connected
STREAM_LIFETIME = 600.0  # seconds a stream lasts on average before the page reconnects (a proxy's timeouts)
LIFETIME_SPREAD = 0.2  # each stream's lifetime is drawn within ±20 %: pages opened together do not reconnect together
PRESENCE_EVERY = 1.0  # seconds: pages coming and going are pushed to the table at most this often


def stream_lifetime(mean: float = STREAM_LIFETIME, spread: float = LIFETIME_SPREAD,
                    draw: Callable[[], float] = random.random) -> float:
    """A stream's lifetime: `mean` ± `spread`, drawn afresh for each, so the 500 pages of an evening that opened
    in one minute (or reconnected at once after a restart) reconnect spread over minutes, not in one burst."""
    return mean * (1 - spread + 2 * spread * draw())


class Changes:
    """The table's change counter, which event streams wait on: each action wakes every open page at once.
    It also knows which players have a page listening (the board shows who is connected).

    Waiting is on an event replaced at each change (the old one set): `event` makes it, threading.Event under
    threads, gevent.event.Event under the production server, where a page's stream is a greenlet that must not
    block the others. No lock is held while waiting, so either kind works with the same code."""

    def __init__(self, max_streams: int = 64, event: Callable[[], Any] = threading.Event,
                 lifetime: float = STREAM_LIFETIME) -> None:
        self.count = 0
        self.lifetime = lifetime  # a stream's mean lifetime
        self.streams = 0
        self.max_streams = max_streams  # under threads each open page holds one
        self.closed = False
        self.listening: dict[str, int] = {}  # player: open streams
        self.seen: dict[str, float] = {}  # player: when their page last asked (for pages that poll)
        self._event = event
        self._next = event()  # set at the next change
        self._by: tuple[int, object] = (0, None)  # the last change and whose it was (bump's `by`)
        self._presence_told = -PRESENCE_EVERY  # when a page's coming or going was last pushed (monotonic)
        self.presence_due = False  # one came or went since, not pushed yet
        self._lock = threading.Lock()  # held for a few assignments only, never while waiting

    def bump(self, by: object = None) -> None:
        """The table changed (`by` whom: a stream of the same asker is told the number alone, see `stream`)."""
        with self._lock:
            self.count += 1
            self._by = (self.count, by)
            woken, self._next = self._next, self._event()
        woken.set()

    def only_by(self, since: int, now: int, asker: object) -> bool:
        """The changes after `since` up to `now` are one, made by `asker` (None is nobody)."""
        return asker is not None and now == since + 1 and self._by == (now, asker)

    def close(self) -> None:
        """The server stops: every stream ends now, not at its next keep-alive."""
        with self._lock:
            self.closed = True
            woken, self._next = self._next, self._event()
        woken.set()

    def wait(self, seen: int, timeout: float) -> int:
        with self._lock:
            if self.count != seen or self.closed:
                return self.count
            next_change = self._next
        next_change.wait(timeout)
        return self.count

    def online(self, player: str) -> bool:
        return self.listening.get(player, 0) > 0 or time.monotonic() - self.seen.get(player, -ONLINE_FOR) < ONLINE_FOR

    def asked(self, player: str | None) -> None:
        if player is not None:
            self.seen[player] = time.monotonic()

    def _listen(self, player: str | None, step: int) -> None:
        """A player's page starts or stops listening: the boards hear of it (who is connected)."""
        with self._lock:
            self.streams += step
            if player is not None:
                self.listening[player] = self.listening.get(player, 0) + step
        if player is not None:
            self.presence()

    def presence(self) -> None:
        """Who is connected changed: pushed now, or once PRESENCE_EVERY has passed since the last such push (by the
        next stream to wake). 500 pages reconnecting within a second (a proxy restarted) each bumped the table at
        their going and at their coming, and every page of it read the state each time: ten reads a page, all
        within the second, where now each table is pushed two or three times."""
        now = time.monotonic()
        with self._lock:
            if now - self._presence_told < PRESENCE_EVERY:
                self.presence_due = True
                return
            self._presence_told, self.presence_due = now, False
        self.bump()

    def stream(self, player: str | None = None, keepalive: float = 15.0, lifetime: float | None = None,
               told: Callable[[int], str] | None = None, asker: object = None) -> Iterator[str]:
        """Server-sent events: `change` (the change's number) at once and after every action; a comment line every
        `keepalive` seconds (which also finds pages that went away); the stream ends after `lifetime` (by default
        stream_lifetime() around the table's) and the page reconnects.

        With `told` (a change's number to the event that tells it, made for this stream's asker) each change is
        told by it, and the keep-alive is an `alive` event the page sees: a change made by the same `asker` alone
        is told by its number (its page holds the state from the action's answer)."""
        with self._lock:
            if self.streams >= self.max_streams:
                raise TableError("too many pages are listening; this one will ask every second instead",
                                 status=503)
        self._listen(player, 1)
        try:
            lasts = stream_lifetime(self.lifetime) if lifetime is None else lifetime
            seen, ends = self.count, time.monotonic() + lasts
            kept_alive = time.monotonic()
            yield "retry: 1000\n" + (told(seen) if told else change_event(seen))
            while not self.closed and (left := ends - time.monotonic()) > 0:
                # ends on time, not at the keep-alive after; wakes in time to push a late coming or going
                quiet = min(keepalive - (time.monotonic() - kept_alive), left,
                            PRESENCE_EVERY if self.presence_due else keepalive)
                now = self.wait(seen, max(0.0, quiet))
                if now != seen:
                    own = told is None or self.only_by(seen, now, asker)
                    seen = now
                    yield change_event(seen) if own else told(seen)  # type: ignore[misc]
                    continue
                if self.presence_due:
                    self.presence()  # a bump, when due: the next wait returns at once
                if time.monotonic() - kept_alive >= keepalive:
                    kept_alive = time.monotonic()
                    yield ALIVE_EVENT if told else ": still here\n\n"
        finally:
            self._listen(player, -1)


ALIVE_EVENT = "event: alive\ndata: \n\n"  # a stream's keep-alive its page sees (a comment line it cannot)


def change_event(number: int) -> str:
    """The event that tells a change by its number alone (the page reads the state, unless it holds it)."""
    return f"event: change\ndata: {number}\n\n"
