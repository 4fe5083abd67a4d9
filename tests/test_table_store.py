"""The table's store: a state file carries how many migration steps it has had (PRAGMA user_version); an older
hhd's file gets the steps it lacks and resumes with its cards where they were, a newer hhd's is refused in one
line, and writers are served in the order they came. When SQLite cannot write it: a full disk is said as one, and a
file that cannot be written is never called damaged (following that advice abandons a healthy session)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tablekit import Table, free_port

from hhdcli.cache import load_builtin
from hhdcli.mana import SymbolTable
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import Action
from hhdcli.table.game.session import Session
from hhdcli.table.game.store import MIGRATIONS, Damaged, FairLock, StateUnwritable, Store, state_error


def cards() -> dict:
    """Four Hell cards by library position: Lump of Coal and the first three others by name."""
    every = sorted(load_builtin().cards, key=lambda c: c.name)
    chosen = [next(c for c in every if c.name == "Lump of Coal"), *[c for c in every if c.name != "Lump of Coal"][:3]]
    return dict(enumerate(chosen, start=1))


def version(path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def test_a_state_file_of_an_hhd_from_before_migrations_resumes_with_its_cards(tmp_path):
    """The first hhd table's file: no owners, no seats, no players' own cards, every held card "out"."""
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE cards (position INTEGER PRIMARY KEY, zone TEXT NOT NULL, ord INTEGER NOT NULL, player TEXT);
        CREATE TABLE players (name TEXT PRIMARY KEY, colors TEXT NOT NULL);
        CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL, player TEXT,
                          action TEXT NOT NULL, detail TEXT NOT NULL, undo TEXT NOT NULL);
        INSERT INTO meta VALUES ('seed', 'old-seed'), ('game', '3');
        INSERT INTO players VALUES ('Anna', 'RG');
        INSERT INTO cards VALUES (1, 'out', 1, 'Anna'), (2, 'library', 1, NULL), (3, 'library', 2, NULL),
                                 (4, 'sideboard', 1, NULL);
    """)
    db.commit()
    db.close()
    assert version(path) == 0
    session = Session(path, cards(), SymbolTable.from_records([]), "old-seed")
    assert session.start({"Anna": tuple("RG")}) is True
    assert version(path) == len(MIGRATIONS)
    names = {p: c.name for p, c in cards().items()}
    anna = session.state(viewer="Anna")
    held = next(p for p in anna["players"] if p["name"] == "Anna")
    assert [c["name"] for c in held["cards"]] == ["Lump of Coal"] and held["played"] == []  # "out" was a hand
    assert anna["game"] == 3 and anna["library_count"] == 2 and [c["name"] for c in anna["sideboard"]] == [names[4]]
    assert session.act(Action.OPENING_HAND, "Anna")["cards"][0]["name"] == names[2]  # the library's top, as the old file ordered it
    token = session.join("Anna")
    assert session.viewer(token) == "Anna"  # the seats' column the old file lacked
    session.start({"Anna": tuple("RG")})  # opened again: no step runs twice
    assert version(path) == len(MIGRATIONS)


def test_a_state_file_of_a_newer_hhd_is_refused_saying_what_to_do(tmp_path):
    path = tmp_path / "new.sqlite"
    Session(path, cards(), SymbolTable.from_records([]), "seed").start({"Anna": tuple("R")})
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.commit()
    db.close()
    with pytest.raises(TableError) as refused:
        Session(path, cards(), SymbolTable.from_records([]), "seed").start({"Anna": tuple("R")})
    assert refused.value.status == 400 and "newer hhd: update hhd" in str(refused.value)


def test_writers_are_served_in_the_order_they_came():
    """The lock before SQLite's write lock is a queue: a writer arriving later never overtakes one waiting."""
    lock, served = FairLock(), []

    def write(i: int) -> None:
        with lock:
            served.append(i)

    threads = []
    with lock:  # the table is busy: every writer queues
        for i in range(20):
            threads.append(threading.Thread(target=write, args=(i,)))
            threads[-1].start()
            while lock._next < i + 2:  # this writer holds its ticket before the next one comes
                threading.Event().wait(0.001)
    for thread in threads:
        thread.join()
    assert served == list(range(20))


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
    assert type(damaged) is Damaged and "is damaged" in damaged.message


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
    before = _dump(state)
    with unwritable(folder):
        result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state),
                        "--port", str(free_port()))
    assert result.exit_code == 2, result.output
    assert f"error: cannot write {state}" in result.stderr
    assert "damaged" not in result.stderr and "another --state" not in result.stderr
    assert "the session in it is kept" in result.stderr
    assert _dump(state) == before  # every row as it was (SQLite may touch the header's counters, not the rows)


def _dump(path: Path) -> list[str]:
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)  # reads the file alone, writes nothing
    try:
        return list(db.iterdump())
    finally:
        db.close()


def test_the_reads_of_one_version_share_its_rows_and_every_change_is_read_afresh_by_every_viewer(tmp_path):
    """Every page reads the state after each change: the table's rows are read once per version for all of
    them, so each change (an action, a seat, a late player) must show in the next read of each viewer."""
    session = Session(tmp_path / "s.sqlite", cards(), SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R"), "Ben": tuple("U")})
    viewers = ("Anna", "Ben", None)
    session.act(Action.OPENING_HAND, "Anna")
    session.act(Action.KEEP, "Anna", bottom=[])
    before = {who: session.state(viewer=who) for who in viewers}
    drawn = session.act(Action.DRAW, "Anna")
    after = {who: session.state(viewer=who) for who in viewers}
    for who in viewers:
        assert after[who]["version"] > before[who]["version"]
        assert after[who]["library_count"] == before[who]["library_count"] - 1
        assert after[who]["log"][0]["action"] == "draw" and len(after[who]["log"]) == len(before[who]["log"]) + 1
    anna = next(p for p in after["Anna"]["players"] if p["name"] == "Anna")
    assert drawn["position"] in [c["position"] for c in anna["cards"]] + [(anna["pending"] or {}).get("position")]
    assert next(p for p in after["Ben"]["players"] if p["name"] == "Anna")["cards"] == []  # her hand is hers
    session.join("Ben")
    session.add_player("Cleo", "G")
    for who in viewers:
        players = session.state(viewer=who)["players"]
        assert [p["name"] for p in players] == ["Anna", "Ben", "Cleo"] and players[1]["seated"] is True


def test_a_players_opening_hand_is_found_through_its_own_index_however_long_the_evening(tmp_path):
    """Every state read of a player's page asks where their opening hand stands: the search goes by game, player
    and action, not back through every action of the player's game."""
    session = Session(tmp_path / "s.sqlite", cards(), SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R")})
    session.act(Action.OPENING_HAND, "Anna")
    session.act(Action.KEEP, "Anna", bottom=[])
    for _ in range(30):
        session.act(Action.DRAW, "Anna")
        session.act(Action.UNDO, "Anna")
    asked: list[str] = []
    with session.store.snapshot() as tx:
        tx.db.set_trace_callback(asked.append)
        found = tx.latest_opening(1, "Anna")
        tx.db.set_trace_callback(None)
        plan = " ".join(str(row[3]) for row in tx.db.execute(f"EXPLAIN QUERY PLAN {asked[-1]}"))
    assert found is not None and found.action == "keep"
    assert "log_openings (game=? AND player=? AND action=?)" in plan


def test_the_log_entries_shown_details_kept_in_memory_are_bounded_however_long_the_evening(tmp_path):
    """Each log entry's shown detail is parsed once and kept, within one bound in bytes for the whole server (each
    table kept its newest 100: 10,000 entries for 100 tables, ten times that at --max-tables). An entry read again
    after it went out reads the same, and each table's entries stay its own."""
    from hhdcli.table.game import views

    session = Session(tmp_path / "s.sqlite", cards(), SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R"), "Ben": tuple("U")})
    session.act(Action.OPENING_HAND, "Anna")
    session.act(Action.KEEP, "Anna", bottom=[])
    session.act(Action.DRAW, "Anna")
    first = next(e for e in session.log(None, 30, "Anna")["log"] if e["action"] == "draw")
    tables = [views.Views({}, SymbolTable.from_records([])) for _ in range(80)]
    for table in tables:  # 8,000 entries of other tables, ~4 MB parsed
        for number in range(100):
            entry = {"id": number, "game": 1, "player": "Anna", "action": "life", "undone": None,
                     "detail": f'{{"whose": "Anna", "delta": -1, "count": {number}, "position": 7}}'}
            assert views.public_entry(entry, "Ben", table.shown_details)["detail"] == \
                {"whose": "Anna", "delta": -1, "count": number}
    assert views._SHOWN.currsize <= views.SHOWN_BYTES
    assert len(views._SHOWN) < 80 * 100  # the bound was reached: the least recently read went out
    oldest = session.log(first["id"] + 1, 30, "Anna")["log"]  # read again from the store: parsed afresh
    assert oldest[0] == first and first["action"] == "draw" and first["detail"]["name"]


def test_a_tables_files_stay_under_a_megabyte_after_a_thousand_actions_and_fold_into_one_when_closed(tmp_path):
    """The write-ahead log is folded into the file every few hundred kilobytes and cut back after (it grew to
    4 MB a table), and closing the table leaves the file alone, whole."""
    path = tmp_path / "s.sqlite"
    session = Session(path, cards(), SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R"), "Ben": tuple("U")})
    session.act(Action.OPENING_HAND, "Anna")
    session.act(Action.KEEP, "Anna", bottom=[])
    for _ in range(500):
        session.act(Action.DRAW, "Anna")
        session.act(Action.UNDO, "Anna")
    files = {f.name: f.stat().st_size for f in tmp_path.iterdir()}
    assert set(files) == {"s.sqlite", "s.sqlite-wal", "s.sqlite-shm"}
    assert sum(files.values()) <= 1024 * 1024, files
    session.close()
    assert [f.name for f in tmp_path.iterdir()] == ["s.sqlite"]


def sqlite_memory() -> int:
    """SQLite's memory in this process (sqlite3_memory_used of the library Python's sqlite3 module uses)."""
    import _sqlite3
    import ctypes

    used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


def test_a_connection_prepares_one_statement_for_a_list_of_any_length_so_its_memory_stays_flat(tmp_path):
    """A list of positions or names is one parameter: with a "?" a value, each length was a statement of its own,
    kept in the connection's statement cache (128 of them, up to ~25 KB each for an end of game's 100 positions),
    and 100 tables grew by megabytes an hour."""
    session = Session(tmp_path / "s.sqlite", cards(), SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R"), "Ben": tuple("U")})
    with session.store.transaction() as tx:
        tx.places([1])
        tx.log_action("Anna", "test", {}, [1], players=["Anna"])
        before = sqlite_memory()
        for length in range(1, 130):
            positions = list(range(1, length + 1))
            assert sorted(tx.places(positions)) == [1, 2, 3, 4][:length]
            tx.log_action("Anna", "test", {}, positions, players=["Anna", "Ben"][:1 + length % 2])
        grown = sqlite_memory() - before
        tx.db.execute("ROLLBACK")
        tx.db.execute("BEGIN")
    assert grown < 64 * 1024, f"SQLite grew by {grown // 1024} KB"  # 128 statements of one per length: ~3.5 MB


def test_sqlites_memory_for_the_whole_server_has_its_soft_limit_once_a_table_connects(tmp_path):
    """Page caches reuse their pages past SQLITE_HEAP_BYTES for the whole process, however many tables it holds
    (each connection's cache alone would be 64 KB a table, 64 MB at --max-tables)."""
    from hhdcli.table.game.store import SQLITE_HEAP_BYTES

    Store(tmp_path / "s.sqlite").connect().close()
    other = sqlite3.connect(":memory:")  # the limit is the process's, not the connection's
    try:
        assert other.execute("PRAGMA soft_heap_limit").fetchone()[0] == SQLITE_HEAP_BYTES
    finally:
        other.close()


def test_the_card_descriptions_and_verdicts_of_every_table_stay_within_one_bound_and_read_the_same_again():
    """A table kept every card it described for as long as it was loaded (2.2 KB a card, towards its whole library
    over an evening, for each of a server's tables): now one cache for the server, by bytes. A description read
    again after it went out reads as before, and each table's ids stay its own."""
    from hhdcli.cache import load_builtin
    from hhdcli.table.game import views

    every = dict(enumerate(sorted(load_builtin().cards, key=lambda c: c.name), start=1))
    tables = [views.Views(every, SymbolTable.from_records([])) for _ in range(6)]  # ~4,300 descriptions, 9 MB
    firsts = []
    for number, table in enumerate(tables):
        table.name_faces(f"secret {number}")
        firsts.append(table.describe(1))
        for position in every:
            table.describe(position)
    assert views._DESCRIBED.currsize <= views.DESCRIBED_BYTES
    assert len(views._DESCRIBED) < 6 * len(every)  # the bound was reached: the least recently read went out
    for table, first in zip(tables, firsts, strict=True):
        assert table.describe(1) == first and first["id"] == table.face_of[1]
    verdict = tables[0].judged(1, "R")
    for table in tables:  # the take rule's verdicts likewise, for the whole server
        for position in every:
            table.judged(position, "WU")
    assert len(views._VERDICTS) <= views.VERDICTS_KEPT < 6 * len(every)
    assert tables[0].judged(1, "R") == verdict
