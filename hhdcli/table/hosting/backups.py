"""`hhd serve --backups DIR`: each table's session copied while the server runs, on a schedule, into a folder of
its own under DIR, the last few kept; a copy restores by being put back in the table's folder (docs/server.md,
"Backups").

    DIR/<table id>/library.json, short                      the table's files that never change, copied once
    DIR/<table id>/state-2026-12-06T19-20-00Z.sqlite       its session at that moment (UTC), the newest last

A round looks at every table and copies only those changed since their last copy (their files' time is newer);
a copy is SQLite's online backup (store.back_up: consistent whatever the table writes meanwhile), written under a
temporary name and renamed, and kept only when it reads back as a whole session and differs from the newest one
(a table closed after its last copy changed its file's time, not its session). Rounds run on a thread of their own
(serve.py), so that no table waits for one. A failure is one line of the log: a table's own (its files damaged)
skips that table; the folder's (a full disk, no permission) ends the round, tried again at the next."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from hhdcli.files import write_atomic
from hhdcli.i18n import _
from hhdcli.table.game.store import Store, back_up
from hhdcli.table.hosting.community import last_action

BACKUP_EVERY = 15.0  # minutes between two rounds
BACKUPS_KEPT = 8  # copies kept a table
PREFIX, SUFFIX = "state-", ".sqlite"
STAMP = "%Y-%m-%dT%H-%M-%SZ"  # sorts as it reads, and names no colon (a Windows or SMB share refuses them)
FIXED = ("library.json", "short")  # a table's files besides its state, written once when it is opened
# what says the backups' folder or disk cannot take a copy (not the table's fault): the round ends (a file
# where a folder should be is EEXIST or ENOTDIR)
_UNWRITABLE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR,
                      errno.EEXIST}


@dataclass(frozen=True)
class Plan:
    """Where and how often: `every` seconds between rounds, `kept` copies a table; the copies of a table gone from
    --dir (expired) are deleted `forget_after` seconds after the newest of them."""

    folder: Path
    every: float = BACKUP_EVERY * 60
    kept: int = BACKUPS_KEPT
    forget_after: float = 14 * 86400.0


@dataclass
class Tables:
    """What the server's loop says of its tables when a round starts: the folder of the tables, the stores of the
    ones in memory (their files are open: copied through their store, which a close waits for) and the ones
    refused (never touched)."""

    folder: Path
    loaded: dict[str, Store] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)


class FolderUnwritable(Exception):
    """The backups' folder cannot take a copy: the round ends."""


# --- pure: names and what to keep -------------------------------------------------------------------------


def backup_name(when: datetime) -> str:
    return f"{PREFIX}{when.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def is_backup(name: str) -> bool:
    return name.startswith(PREFIX) and name.endswith(SUFFIX)


def dropped(names: Iterable[str], kept: int) -> list[str]:
    """The copies beyond the newest `kept` (their names sort by time)."""
    ordered = sorted(name for name in names if is_backup(name))
    return ordered[:-kept] if kept else ordered


def due(changed: float, copied: float | None) -> bool:
    """A table is copied when it changed after its last copy began (or has none)."""
    return copied is None or changed > copied


def is_table_id(name: str) -> bool:
    return len(name) == 64 and not name.strip("0123456789abcdef")


# --- a round -----------------------------------------------------------------------------------------------


@dataclass
class Backups:
    """The rounds of one server: when each table was last copied (the start of its copy, by the clock of its
    files), read from the newest copy's time after a restart."""

    plan: Plan
    log: Callable[[str], None]
    copied: dict[str, float] = field(default_factory=dict)
    busy: threading.Lock = field(default_factory=threading.Lock)  # held by a round: the server's stop waits for it
    stopping: threading.Event = field(default_factory=threading.Event)

    def round(self, tables: Tables) -> int:
        """Every changed table copied, the old copies dropped: how many were copied. Runs off the server's loop."""
        done = 0
        with self.busy:
            try:
                with _writing():  # (gone: made again; a file in its place: the round ends here, said once)
                    self.plan.folder.mkdir(parents=True, exist_ok=True)
                for folder in sorted(tables.folder.iterdir()):
                    if self.stopping.is_set():
                        break
                    key = folder.name
                    if is_table_id(key) and key not in tables.refused and self._table(folder, tables.loaded.get(key)):
                        done += 1
                self._forget_gone(tables.folder)
            except FolderUnwritable as exc:
                self.log(_("hhd serve: backups not written to {folder}: {reason}; tried again in {minutes:g} "
                           "minutes").format(folder=self.plan.folder, reason=exc, minutes=self.plan.every / 60))
            except OSError as exc:  # the tables' folder itself could not be listed
                self.log(_("hhd serve: backups not made: {reason}").format(reason=exc.strerror or exc))
        return done

    def _table(self, folder: Path, store: Store | None) -> bool:
        """One table copied when it changed since its last copy (`store`: its store when it is in memory); True
        when a new copy was kept."""
        key, state = folder.name, folder / "state.sqlite"
        into = self.plan.folder / key
        try:
            changed = last_action(folder)
            if not due(changed, self._copied(key, into)) or not state.is_file():
                return False
            began = time.time()
            kept = self._copy(folder, into, store)
            if kept is not None:
                self.copied[key] = began
            return bool(kept)
        except FolderUnwritable:
            raise
        except Exception as exc:  # noqa: BLE001  # this table's failure: said, and the others go on
            reason = getattr(exc, "message", None) or getattr(exc, "strerror", None) or exc
            self.log(_("hhd serve: table {table} not backed up: {reason}").format(
                table=key[:12], reason=str(reason).replace(str(folder), key[:12])))
            return False

    def _copied(self, key: str, into: Path) -> float | None:
        if key not in self.copied:
            newest = sorted(name for name in _names(into) if is_backup(name))
            if newest:
                self.copied[key] = (into / newest[-1]).stat().st_mtime
        return self.copied.get(key)

    def _copy(self, folder: Path, into: Path, store: Store | None) -> bool | None:
        """The table's session copied: True when kept, False when the same as its newest copy, None when it could
        not be read (its files open elsewhere: not closed by this server, or loaded meanwhile; copied next time)."""
        if store is None and _open_beside(folder):
            return None
        names = sorted(name for name in _names(into) if is_backup(name))
        temporary = into / f".{backup_name(datetime.now(UTC))}.{os.getpid()}.tmp"
        try:
            fixed = {name: (folder / name).read_bytes() for name in FIXED
                     if not (into / name).exists() and (folder / name).exists()}
            with _writing():
                into.mkdir(parents=True, exist_ok=True)
                for name, data in fixed.items():
                    write_atomic(into / name, data)
                temporary.write_bytes(b"")  # (an empty file is an empty database to SQLite)
            try:
                if not (store is not None and store.back_up(temporary)):
                    # out of memory: its file alone, read as immutable, unless files beside it say it is open (a
                    # store loaded meanwhile) or was not closed by this server (a crash: inspected when opened)
                    if _open_beside(folder):
                        return None
                    back_up(folder / "state.sqlite", temporary, closed=True)
            except sqlite3.Error as exc:
                if _disk_full(exc):
                    raise FolderUnwritable(str(exc)) from exc
                raise
            if names and _same_bytes(temporary, into / names[-1]):
                os.utime(into / names[-1])  # (its time: when the session was last seen to be this)
                return False
            with _writing():
                final = into / backup_name(datetime.now(UTC))
                os.replace(temporary, final)
                for name in dropped({*names, final.name}, self.plan.kept):
                    (into / name).unlink(missing_ok=True)
            return True
        finally:
            for left in (temporary, temporary.with_name(temporary.name + "-journal")):
                left.unlink(missing_ok=True)

    def _forget_gone(self, tables: Path) -> None:
        """The copies of a table no longer in --dir (expired, deleted) deleted `forget_after` after the newest."""
        now = time.time()
        for into in _folders(self.plan.folder):
            if not is_table_id(into.name) or (tables / into.name).exists():
                continue
            times = [entry.stat().st_mtime for entry in into.iterdir() if is_backup(entry.name)]
            if not times or now - max(times) > self.plan.forget_after:
                shutil.rmtree(into, ignore_errors=True)
                self.copied.pop(into.name, None)


def _open_beside(folder: Path) -> bool:
    """Whether a table's file has its log or index beside it: open (loaded meanwhile), or not closed by this
    server (left by a crash: inspected when it is opened)."""
    return any((folder / f"state.sqlite{suffix}").exists() for suffix in ("-wal", "-shm"))


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        return []


def _folders(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.is_dir()]
    except FileNotFoundError:
        return []


@contextmanager
def _writing() -> Iterator[None]:
    """Writing into the backups' folder: an error saying it cannot be written is the folder's (FolderUnwritable)."""
    try:
        yield
    except OSError as error:
        if error.errno in _UNWRITABLE_ERRNOS:
            raise FolderUnwritable(error.strerror or str(error)) from error
        raise


def _disk_full(error: sqlite3.Error) -> bool:
    """SQLite could not write the copy: the backups' disk is full (or failing), not the table's file."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)


def _same_bytes(first: Path, second: Path) -> bool:
    try:
        if first.stat().st_size != second.stat().st_size:
            return False
        return first.read_bytes() == second.read_bytes()
    except OSError:
        return False
