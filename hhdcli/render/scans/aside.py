"""Work done aside, in a forked child process, while this process goes on: a cold `hhd proxies` lays its pages
out in one child and downloads half of its scans in another, while this process downloads the other half.

Why processes and not threads: downloading over a fast link and laying out pages are both CPU-bound Python,
and on one GIL they took turns rather than overlapping (a cold run took the downloads' time plus the layout's,
and eight download threads in one process kept one core busy: issue 34). A forked child has an interpreter
of its own, so the machine's second core works too.

A child sends what it makes (pickled objects, each behind its length) on a pipe, and the parent reads them as
they come; a child that sends nothing for `idle` seconds (stopped with SIGSTOP, say) is given up, and the
caller does its work itself. A child watches its parent: when the parent ends, however (SIGTERM, kill -9), the
child stops as it would for Ctrl-C. It is forked only while this process has no other thread (a lock held by another thread at the
fork would stay held for ever in the child), and not on macOS. Stopping it (`close`) asks it to end
(SIGTERM, which the child takes as Ctrl-C: a file it is writing is finished or removed, as in this process)
and waits for it (GRACE seconds, then it is killed), so a run interrupted at any moment leaves no file of a child's behind. Where there is no
fork (Windows, macOS), or threads already run, or the child fails, `forked` is false or what it sent is
short, and the caller does the rest itself: any error is then raised in this process, as it would have
been without a child.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Generic, NoReturn, TypeVar

T = TypeVar("T")
_LENGTH = struct.Struct(">Q")  # each item's length, before it
GRACE = 2.0  # seconds a child asked to stop has to finish the file it writes, before SIGKILL
WATCH_PARENT = 0.2  # seconds between a child's looks at whether its parent still runs


class Aside(Generic[T]):
    """`work()`'s items, made in a child process forked now, read here with `items()` as they come."""

    def __init__(self, work: Callable[[], Iterable[T]]) -> None:
        self.forked = False
        self._pid: int | None = None
        self._pipe: int | None = None  # the reading end
        if not _can_fork():
            return
        parent = os.getpid()
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
            _child(work, write, held, parent)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(write)
        self.forked, self._pid, self._pipe = True, pid, read

    def items(self, idle: float | None = None) -> Iterator[T]:
        """What the child sends, as it comes, until it ends (all of its work, or less if it failed), or until
        it has sent nothing for `idle` seconds (a child stopped or stuck: the caller does the rest)."""
        while self._pipe is not None:
            try:
                head = self._read(_LENGTH.size, idle)
                body = self._read(_LENGTH.unpack(head)[0], idle) if head is not None else None
                if body is None:
                    return
                item = pickle.loads(body)  # noqa: S301  (our own child's objects)
            except (OSError, ValueError, pickle.UnpicklingError):  # closed by `close`, or a short answer
                return
            yield item

    def _read(self, size: int, idle: float | None) -> bytes | None:
        """`size` bytes from the child; None when it ended first or sent nothing for `idle` seconds."""
        parts, left = [], size
        while left:
            pipe = self._pipe
            if pipe is None or not select.select([pipe], [], [], idle)[0]:
                return None
            part = os.read(pipe, min(left, 1 << 20))
            if not part:
                return None
            parts.append(part)
            left -= len(part)
        return b"".join(parts)

    def close(self) -> None:
        """The child ended (asked to, if it still runs) and waited for: no zombie, no half-written file of its
        left. Asked first (woken too, if it was stopped), given GRACE seconds, then killed: a child that does
        not answer is not waited for forever (what it left half-written, the next run sweeps). The pipe is
        closed last, so that a child blocked writing to it is not waited for."""
        pid, self._pid = self._pid, None
        if pid is not None:
            _end(pid)
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            os.close(pipe)


def _end(pid: int) -> None:
    for signum in (signal.SIGTERM, signal.SIGCONT):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            break
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return
        time.sleep(0.01)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def _can_fork() -> bool:
    """Only a process with one thread forks (see above), and not on macOS, whose system frameworks are not
    safe in a forked child (Python's multiprocessing starts its children afresh there since 3.8)."""
    return (hasattr(os, "fork") and hasattr(signal, "pthread_sigmask") and sys.platform != "darwin"
            and threading.active_count() == 1)


def _child(work: Callable[[], Iterable[Any]], write: int, held: set[int | signal.Signals], parent: int) -> NoReturn:
    """The child's whole life: do the work, send each item, and leave without this process's exit handlers.
    Ctrl-C and SIGTERM were blocked across the fork: one arriving before the handlers below are set would
    raise in the parent's code, which the child must never go back to."""
    code = 1
    try:
        signal.signal(signal.SIGTERM, _stop)
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, _stop)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        _watch_parent(parent)
        made = work()
        try:
            with os.fdopen(write, "wb") as pipe:
                for item in made:
                    data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
                    pipe.write(_LENGTH.pack(len(data)) + data)
                    pipe.flush()
        finally:
            if isinstance(made, Generator):  # cut short (the parent gone: a broken pipe), it cleans up first
                made.close()
        code = 0
    except BaseException:  # noqa: BLE001, S110  (the parent sees the short answer and does the rest itself)
        pass
    finally:
        os._exit(code)  # the first statement here: no handler can run between the work's end and this


def _watch_parent(parent: int) -> None:
    """In the child: once the parent has gone, stop as if asked to (SIGTERM). Linux says so itself
    (PR_SET_PDEATHSIG, no thread: a thread would count as a download's); elsewhere a thread looks every
    WATCH_PARENT seconds whether the child is still the parent's."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGTERM), 0, 0, 0) == 0:  # 1: PR_SET_PDEATHSIG
                if os.getppid() != parent:  # it went before the request was made
                    os.kill(os.getpid(), signal.SIGTERM)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:  # a child whose parent has gone is another process's
        time.sleep(WATCH_PARENT)
    os.kill(os.getpid(), signal.SIGTERM)


_stopping = False  # in the child: asked to stop already


def _stop(signum: int, frame: object) -> None:
    """Ctrl-C or the parent's SIGTERM, taken once: a second one (Ctrl-C reaches the child and then the parent
    asks too) must not cut short the clean-up the first began."""
    global _stopping
    if not _stopping:
        _stopping = True
        raise KeyboardInterrupt
