"""The table's state file (hhdcli/table/store.py) when SQLite cannot write it: a full disk is said as one, and a
file that cannot be written is never called damaged (following that advice abandons a healthy session)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tablekit import Table, free_port

from hhdcli.table.errors import TableError
from hhdcli.table.store import StateUnwritable, Store, state_error


def test_a_full_disk_is_said_as_a_full_disk_and_the_session_is_kept(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.open()
    with store.transaction() as tx:
        tx.set_meta("seed", "kept")
    db = store.connect()
    db.execute("CREATE TABLE filler(x)")
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    writer = store._reader()
    writer.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is full two pages on
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"), store.transaction():
        for _ in range(100):
            writer.execute("INSERT INTO filler VALUES (?)", ("x" * 4000,))
    with store.transaction() as tx:
        assert tx.meta("seed") == "kept"


def test_a_state_file_sqlite_cannot_write_is_not_called_damaged(tmp_path):
    path = tmp_path / "s.sqlite"
    Store(path).open()
    read_only = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as refused:
        read_only.execute("CREATE TABLE t(x)")
    said = state_error(refused.value, path)
    assert isinstance(said, StateUnwritable) and said.message.startswith(f"cannot write {path}")
    damaged = state_error(sqlite3.DatabaseError("file is not a database"), path)
    assert type(damaged) is TableError and "is damaged" in damaged.message


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """A folder nothing can be created in: read-only for a user; immutable for root, whom modes do not stop."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)]).returncode != 0:
        pytest.skip("root, on a file system without immutable folders")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_healthy_session_in_a_folder_that_cannot_be_written_is_kept_and_not_called_damaged(
        synced, legacy_cache, library, tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    state = folder / "state.sqlite"
    Table(state, library, legacy_cache).stop()
    for extra in folder.glob("state.sqlite-*"):  # a stopped session's WAL files, checkpointed: none needed
        extra.unlink()
    before = state.read_bytes()
    with unwritable(folder):
        result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state),
                        "--port", str(free_port()))
    assert result.exit_code == 2, result.output
    assert f"error: cannot write {state}" in result.stderr
    assert "damaged" not in result.stderr and "another --state" not in result.stderr
    assert "the session in it is kept" in result.stderr
    assert state.read_bytes() == before
