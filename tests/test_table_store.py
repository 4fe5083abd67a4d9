"""The table's store: a state file carries how many migration steps it has had (PRAGMA user_version); an older
hhd's file gets the steps it lacks and resumes with its cards where they were, a newer hhd's is refused in one
line, and writers are served in the order they came."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from hhdcli.cache import load_builtin
from hhdcli.mana import SymbolTable
from hhdcli.table.errors import TableError
from hhdcli.table.session import Session
from hhdcli.table.store import MIGRATIONS, FairLock


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
    assert session.draw("Anna")["name"] == names[2]  # the library's top, as the old file ordered it
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
