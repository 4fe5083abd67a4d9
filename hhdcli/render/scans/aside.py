"""Work done aside, in a forked child process, while this process goes on: a cold `hhd proxies` lays its pages
out in one child and downloads half of its scans in another, while this process downloads the other half.

Why processes and not threads: downloading over a fast link and laying out pages are both CPU-bound Python,
and on one GIL they took turns rather than overlapping (a cold run took the downloads' time plus the layout's,
and eight download threads in one process kept one core busy: issue 34). A forked child has an interpreter
of its own, so the machine's second core works too.

A child sends what it makes (pickled objects, one after another) on a pipe, and the parent reads them as
they come. It is forked only while this process has no other thread (a lock held by another thread at the
fork would stay held for ever in the child), and not on macOS. Stopping it (`close`) asks it to end
(SIGTERM, which the child takes as Ctrl-C: a file it is writing is finished or removed, as in this process)
and waits for it, so a run interrupted at any moment leaves no file of a child's behind. Where there is no
fork (Windows, macOS), or threads already run, or the child fails, `forked` is false or what it sent is
short, and the caller does the rest itself: any error is then raised in this process, as it would have
been without a child.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Generic, NoReturn, TypeVar

T = TypeVar("T")


class Aside(Generic[T]):
    """`work()`'s items, made in a child process forked now, read here with `items()` as they come."""

    def __init__(self, work: Callable[[], Iterable[T]]) -> None:
        self.forked = False
        self._pid: int | None = None
        self._pipe: Any = None  # the reading end
        if not _can_fork():
            return
        read, write = os.pipe()
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})  # see _child
        try:
            pid = os.fork()
        except OSError:  # no memory or no process left for a child: the caller works alone
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            os.close(read)
            os.close(write)
            return
        if pid == 0:
            os.close(read)
            _child(work, write, held)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(write)
        self.forked, self._pid, self._pipe = True, pid, os.fdopen(read, "rb")

    def items(self) -> Iterator[T]:
        """What the child sends, as it comes, until it ends (all of its work, or less if it failed)."""
        while self._pipe is not None:
            try:
                item = pickle.load(self._pipe)  # noqa: S301  (our own child's objects)
            except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # ended (or closed by `close`)
                return
            yield item

    def close(self) -> None:
        """The child ended (asked to, if it still runs) and waited for: no zombie, no half-written file of its
        left. Asked first and the pipe closed last, so that a child blocked writing to it is not waited for,
        and a thread reading it is not cut off mid-item."""
        pid, self._pid = self._pid, None
        if pid is not None:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            pipe.close()


def _can_fork() -> bool:
    """Only a process with one thread forks (see above), and not on macOS, whose system frameworks are not
    safe in a forked child (Python's multiprocessing starts its children afresh there since 3.8)."""
    return (hasattr(os, "fork") and hasattr(signal, "pthread_sigmask") and sys.platform != "darwin"
            and threading.active_count() == 1)


def _child(work: Callable[[], Iterable[Any]], write: int, held: set[int | signal.Signals]) -> NoReturn:
    """The child's whole life: do the work, send each item, and leave without this process's exit handlers.
    Ctrl-C and SIGTERM were blocked across the fork: one arriving before the handlers below are set would
    raise in the parent's code, which the child must never go back to."""
    code = 1
    try:
        signal.signal(signal.SIGTERM, _stop)
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, _stop)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        made = work()
        try:
            with os.fdopen(write, "wb") as pipe:
                for item in made:
                    pickle.dump(item, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                    pipe.flush()
        finally:
            if isinstance(made, Generator):  # cut short (the parent gone: a broken pipe), it cleans up first
                made.close()
        code = 0
    except BaseException:  # noqa: BLE001, S110  (the parent sees the short answer and does the rest itself)
        pass
    finally:
        os._exit(code)  # the first statement here: no handler can run between the work's end and this


_stopping = False  # in the child: asked to stop already


def _stop(signum: int, frame: object) -> None:
    """Ctrl-C or the parent's SIGTERM, taken once: a second one (Ctrl-C reaches the child and then the parent
    asks too) must not cut short the clean-up the first began."""
    global _stopping
    if not _stopping:
        _stopping = True
        raise KeyboardInterrupt
