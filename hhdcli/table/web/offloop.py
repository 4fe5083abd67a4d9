"""Blocking work (a deck site's answer, a table being opened) run off the server's loop, so that every other
table's requests go on meanwhile; and a long pasted deck list read in a process of its own.

A thread frees the loop but not the interpreter's lock (the GIL): reading eight pasted lists of 60,000 characters
(a second or more of Python) on one held it in turns with the loop, and another table's reads waited up to a few
hundred ms (the bound is 50 ms). So a long list is read by a worker process, started at the first one and kept;
the thread that asked waits for its answer without the lock. A short list (most: a 60-card deck is some 1,500
characters) is read where it is asked, in milliseconds."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from hhdcli.decklists import Deck

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



LONG_LIST = 10_000  # characters: a list this long is read apart (a 250-card cube with its sideboard is ~12,000)
_worker: ProcessPoolExecutor | None = None
_worker_lock = threading.Lock()


def parsed_apart(text: str, source: str) -> Deck:
    """`parse_deck(text, source)`, in the worker process when the list is long; its refusal (hhd's own error) is
    raised here as it would be in this process. Called off the loop (a request's thread): it waits."""
    from concurrent.futures.process import BrokenProcessPool

    from hhdcli.decklists import parse_deck

    if len(text) < LONG_LIST:
        return parse_deck(text, source)
    global _worker  # noqa: PLW0603  # one worker for the server's process, started when first needed
    with _worker_lock:
        if _worker is None:  # spawned, not forked: a fork of the server would hold its sockets and threads
            import multiprocessing

            _worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        worker = _worker
    try:
        return worker.submit(parse_deck, text, source).result()
    except BrokenProcessPool:  # the worker died (killed, out of memory): read here; the next list starts another
        with _worker_lock:
            if _worker is worker:
                _worker = None
        return parse_deck(text, source)
