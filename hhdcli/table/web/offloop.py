"""Blocking work (a deck site's answer, a table being opened) run off the server's loop, so that every other
table's requests go on meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def off_loop(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` on a thread of gevent's pool when called from the server's loop (a request's greenlet), so
    that every other table's requests go on meanwhile (a deck site's answer, a table being opened); called as it
    is elsewhere (a thread of a test's server, the command line). Its exception is raised here."""
    import gevent

    if not isinstance(gevent.getcurrent(), gevent.Greenlet):
        return work(*args)

    def caught() -> tuple[bool, Any]:  # gevent's pool would print the exception's traceback on the server's stderr
        try:
            return True, work(*args)
        except Exception as exc:  # noqa: BLE001  # raised again in the request's greenlet
            return False, exc

    done, result = gevent.get_hub().threadpool.apply(caught)
    if not done:
        raise result
    return result

