"""The Hell table's store: one SQLite file per session, its connections, a fair lock for writers, transactions
and consistent reads, and versioned migrations. Everything the session keeps goes through here, as plain data
(positions, `Place`s, `Entry`s, rows); the rules never see SQL, and another database is another store.

Every action is one transaction (BEGIN IMMEDIATE, after a lock that queues this process's writers fairly), so
two phones acting at the same instant are served one after the other and no card is drawn twice or lost.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhdcli.i18n import N_
from hhdcli.jsonio import load_json
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import (
    NOTED_ZONES,
    OPENING_ACTIONS,
    OWN_CARDS,
    Action,
    End,
    Entry,
    Place,
    Zone,
    owner_after,
)

# a log entry still in force: not undone, and not itself an undo (an undo is a line of the log, not undoable)
IN_FORCE = "undone IS NULL AND action != ?"
CACHE_KB = 64  # each connection's page cache (see Store.connect)
# SQLite's memory for the whole process, beyond which its page caches reuse their pages rather than take more
# (PRAGMA soft_heap_limit: one setting for every connection of the process). 100 loaded tables use ~14 MB (a
# connection's schema, statements and 64 KB of pages, ~140 KB); a thousand (hhd serve's --max-tables) would
# take 64 MB of page caches alone: past the limit their reads come from the OS's file cache
SQLITE_HEAP_BYTES = 24 * 1024 * 1024
WAL_PAGES = 100  # pages written to the write-ahead log before they are folded into the file (see Store.connect)
WAL_KEEP = 256 * 1024  # bytes the write-ahead log is cut back to after a fold
COLUMNS = ("position", "zone", "ord", "player", "owner", "name", "tapped", "counters", "made", "depth", "note",
           "face_down", "revealed", "token")
PLACE = "position, zone, player, owner, tapped, counters, made, depth, note, face_down, revealed, token"
# a list of any length as one parameter (a JSON array): one statement whatever the length. With a "?" a value,
# each length was a statement of its own, prepared and kept in the connection's statement cache (128 of them,
# 2-30 KB each: an end of game's IN of 100 positions is ~25 KB): 100 tables grew by 6.5 MB in 4 minutes of play
LISTED = "(SELECT value FROM json_each(?))"


class FairLock:
    """A lock served in arrival order (threading.Lock lets a newcomer overtake a waiter): ten phones drawing at
    once are answered first come, first served, none waiting behind later ones."""

    def __init__(self) -> None:
        self._turn = threading.Condition()
        self._next = self._serving = 0
        self._gone: set[int] = set()  # tickets whose holders stopped waiting (an exception): skipped, not awaited

    def __enter__(self) -> None:
        with self._turn:
            ticket, self._next = self._next, self._next + 1
            try:
                self._turn.wait_for(lambda: self._serving == ticket)
            except BaseException:
                self._gone.add(ticket)
                self._skip_gone()
                raise

    def __exit__(self, *_exc: object) -> None:
        with self._turn:
            self._serving += 1
            self._skip_gone()

    def _skip_gone(self) -> None:
        while self._serving in self._gone:
            self._gone.discard(self._serving)
            self._serving += 1
        self._turn.notify_all()


# --- migrations: PRAGMA user_version says how many of these a file has had ---------------------------------


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _add_column(table: str, column: str) -> Callable[[sqlite3.Connection], None]:
    """A column added; a file of an hhd from before versioned migrations may have it already."""
    def step(db: sqlite3.Connection) -> None:
        if column not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
    return step


def _base(db: sqlite3.Connection) -> None:
    """The first session's tables (a file from before versioned migrations has them already)."""
    for statement in (
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS cards (position INTEGER PRIMARY KEY, zone TEXT NOT NULL, ord INTEGER "
            "NOT NULL, player TEXT)",
            "CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, colors TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL, "
            "player TEXT, action TEXT NOT NULL, detail TEXT NOT NULL, undo TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS cards_by_zone ON cards (zone, ord)",
            "CREATE INDEX IF NOT EXISTS log_by_player ON log (game, player)"):
        db.execute(statement)


def _hands_apart(db: sqlite3.Connection) -> None:
    """A session from before hands and play were apart had its players' cards all "out": they are taken to be in
    hand (a player plays them again with one tap). The mark stays for an older hhd opening this file."""
    if db.execute("SELECT 1 FROM meta WHERE key = 'zones'").fetchone() is None:
        db.execute("UPDATE cards SET zone = ? WHERE zone = 'out'", (Zone.HAND,))
        db.execute("INSERT INTO meta VALUES ('zones', '2')")


def _played_on_battlefield(db: sqlite3.Connection) -> None:
    """Played cards were all "out"; now a played card is on the battlefield, in a graveyard or in exile: the ones
    played before are taken to be on the battlefield (a tap moves one on)."""
    db.execute("UPDATE cards SET zone = ? WHERE zone = 'out'", (Zone.BATTLEFIELD,))


def _seat_codes(db: sqlite3.Connection) -> None:
    """Re-seat codes: each seats one phone, once, for a while (kept by their hash, not their text)."""
    db.execute("CREATE TABLE IF NOT EXISTS seat_codes (hash TEXT PRIMARY KEY, player TEXT NOT NULL, "
               "issued REAL NOT NULL)")


def _made_zones(db: sqlite3.Connection) -> None:
    """The zones Hell cards created this game (hhdcli/table/game/zones.py): one row each, from when such a card
    appeared to the end of the game."""
    db.execute("CREATE TABLE IF NOT EXISTS zones (id TEXT PRIMARY KEY, game INTEGER NOT NULL)")


def _openings(db: sqlite3.Connection) -> None:
    """A player's latest opening-hand action, looked up at every state read of their page, by its own index:
    through the (game, player) one the search read back through every action of the player's game, a millisecond
    a read by the end of a long evening."""
    db.execute("CREATE INDEX IF NOT EXISTS log_openings ON log (game, player, action)")


# In order; never edit a step that shipped: add one. A step must also leave alone a file an hhd from before
# versioned migrations made (user_version 0, with some of the later tables and columns).
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _base,
    _add_column("cards", "owner"),  # who owns a Hell card this game
    _add_column("players", "token"),  # private hands: the phone holding a seat
    _add_column("cards", "name"),  # players' own cards, by name
    _hands_apart,
    _seat_codes,
    _add_column("log", "undone"),  # an undone action stays in the log, marked, beside the line saying who undid it
    _played_on_battlefield,
    _add_column("cards", "tapped"),  # on the battlefield: '1' when tapped
    _add_column("cards", "counters"),  # on the battlefield: a JSON object, kind → how many
    _add_column("players", "life"),  # this game's life total (none: the starting life)
    _add_column("players", "counters"),  # poison, energy, commander damage…: a JSON object, kind → how many
    _openings,
    _add_column("cards", "made"),  # in a created zone: which (zones.py)
    _add_column("cards", "depth"),  # in its owner's library N-th from the top
    _made_zones,
    _add_column("players", "companion"),  # the companion a player declared: its position on the sideboard
    _add_column("cards", "note"),  # what its controller noted on it
    _add_column("cards", "face_down"),  # '1': its face its controller's alone
    _add_column("cards", "revealed"),  # '1': in a hand, shown to the table
    _add_column("cards", "token"),  # '1': a token card
)
# meta keys of the game's turn, which an action may change (and its undo put back)
TURN_KEYS = ("turn", "step", "first", "life_start")


def _trimmed(row: tuple[Any, ...]) -> tuple[Any, ...]:
    end = len(row)
    while end > 3 and row[end - 1] is None:  # position, zone and ord are never empty
        end -= 1
    return row[:end]


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


class Seats:
    """A transaction's meta values, players and seats (Tx adds the cards and the log)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.logged = 0  # the log entry this transaction wrote (amend adds to it)

    # --- meta ---

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row["value"])

    def set_meta(self, key: str, value: str, keep: bool = False) -> None:
        """A meta value written (`keep`: only when there is none yet)."""
        action = "NOTHING" if keep else "UPDATE SET value = excluded.value"
        self.db.execute(f"INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO {action}", (key, value))

    def game(self) -> int:
        return int(self.meta("game") or 1)

    def game_begun(self) -> bool:
        """Whether this game has begun: an action in force this game besides setting the starting life or a deck."""
        return self.db.execute("SELECT 1 FROM log WHERE game = ? AND undone IS NULL AND action NOT IN (?, ?, ?) "
                               "LIMIT 1", (self.game(), Action.UNDO, Action.LIFE_START, Action.DECK)
                               ).fetchone() is not None

    def set_game(self, game: int) -> None:
        self.set_meta("game", str(game))

    def version(self) -> int:
        return int(self.meta("version") or 0)

    def changed(self) -> None:
        """One more change: the version pages compare to know theirs is stale."""
        self.db.execute("INSERT INTO meta VALUES ('version', '1') "
                        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    # --- players and seats ---

    def colors(self, player: str) -> str | None:
        row = self.db.execute("SELECT colors FROM players WHERE name = ?", (player,)).fetchone()
        return None if row is None else str(row["colors"])

    def players(self) -> list[dict[str, Any]]:
        """Every player in the order they came: name, colors, whether a phone holds their seat, life (None: the
        starting life), counters and the companion they declared (its position, or None)."""
        return [{"name": r["name"], "colors": r["colors"], "seated": r["token"] is not None,
                 "life": None if r["life"] is None else int(r["life"]),
                 "counters": load_json(r["counters"]) if r["counters"] else {},
                 "companion": None if r["companion"] is None else int(r["companion"])}
                for r in self.db.execute("SELECT name, colors, token, life, counters, companion FROM players "
                                         "ORDER BY rowid")]

    def who_did(self, action: str) -> list[str]:
        """The players who took this action this game (and it stands)."""
        return [str(r["player"]) for r in self.db.execute(
            "SELECT DISTINCT player FROM log WHERE game = ? AND action = ? AND undone IS NULL AND player IS NOT NULL",
            (self.game(), action))]

    def set_companion(self, player: str, position: int | None) -> None:
        self.db.execute("UPDATE players SET companion = ? WHERE name = ?", (position, player))

    def names(self) -> list[str]:
        return [str(r["name"]) for r in self.db.execute("SELECT name FROM players ORDER BY rowid")]

    def set_colors(self, player: str, colors: str) -> None:
        self.db.execute("UPDATE players SET colors = ? WHERE name = ?", (colors, player))

    def set_life(self, player: str, life: int | None) -> None:
        self.db.execute("UPDATE players SET life = ? WHERE name = ?", (life, player))

    def set_player_counters(self, player: str, counters: dict[str, int]) -> None:
        self.db.execute("UPDATE players SET counters = ? WHERE name = ?",
                        (json.dumps(counters, ensure_ascii=False) if counters else None, player))

    def reset_players(self) -> None:
        """A new game: every life total back to the start, no counters."""
        self.db.execute("UPDATE players SET life = NULL, counters = NULL")

    def unset_meta(self, key: str) -> None:
        self.db.execute("DELETE FROM meta WHERE key = ?", (key,))

    def put_player(self, name: str, colors: str, update: bool = True) -> bool:
        """A player added (or their colors updated); False when `update` is off and they are there already."""
        action = "UPDATE SET colors = excluded.colors" if update else "NOTHING"
        found = self.db.execute(f"INSERT INTO players (name, colors) VALUES (?, ?) ON CONFLICT(name) DO {action}",
                                (name, colors))
        return found.rowcount > 0

    def token(self, player: str) -> str | None:
        row = self.db.execute("SELECT token FROM players WHERE name = ?", (player,)).fetchone()
        return None if row is None or row["token"] is None else str(row["token"])

    def set_token(self, player: str, token: str | None) -> None:
        self.db.execute("UPDATE players SET token = ? WHERE name = ?", (token, player))

    def tokens(self) -> list[tuple[str, str]]:
        return [(str(r["name"]), str(r["token"]))
                for r in self.db.execute("SELECT name, token FROM players WHERE token IS NOT NULL")]

    def add_seat_code(self, code: str, player: str) -> None:
        self.drop_seat_codes(player)  # a new code kills the older ones
        self.db.execute("INSERT INTO seat_codes VALUES (?, ?, ?)", (_code_hash(code), player, time.time()))

    def take_seat_code(self, code: str) -> tuple[str, float] | None:
        """The seat a code was made for and when, and the code gone (used once)."""
        key = _code_hash(code)
        row = self.db.execute("SELECT player, issued FROM seat_codes WHERE hash = ?", (key,)).fetchone()
        self.db.execute("DELETE FROM seat_codes WHERE hash = ?", (key,))
        return None if row is None else (str(row["player"]), float(row["issued"]))

    def drop_seat_codes(self, player: str) -> None:
        self.db.execute("DELETE FROM seat_codes WHERE player = ?", (player,))

class Tx(Seats):
    """One transaction (or consistent read) on the state file, spoken in the table's terms."""

    # --- cards ---

    def new_library(self, order: list[int]) -> None:
        self.db.executemany("INSERT INTO cards (position, zone, ord) VALUES (?, ?, ?)",
                            [(p, Zone.LIBRARY, i) for i, p in enumerate(order, start=1)])

    @staticmethod
    def _place(row: sqlite3.Row) -> Place:
        return Place(int(row["position"]), Zone(row["zone"]), row["player"], row["owner"], tapped=bool(row["tapped"]),
                     counters=load_json(row["counters"]) if row["counters"] else {}, made=row["made"],
                     depth=None if row["depth"] is None else int(row["depth"]), note=row["note"],
                     face_down=bool(row["face_down"]), revealed=bool(row["revealed"]), token=bool(row["token"]))

    def place(self, position: int) -> Place | None:
        row = self.db.execute(f"SELECT {PLACE} FROM cards WHERE position = ?", (position,)).fetchone()
        return None if row is None else self._place(row)

    def places(self, positions: list[int]) -> dict[int, Place]:
        """Where each of these cards is, in one query however many are asked."""
        if not positions:
            return {}
        rows = self.db.execute(f"SELECT {PLACE} FROM cards WHERE position IN {LISTED}", (json.dumps(positions),))
        return {int(r["position"]): self._place(r) for r in rows}

    def own_name(self, position: int) -> str | None:
        """The name of a player's own card (Hell cards have theirs in the card data)."""
        row = self.db.execute("SELECT name FROM cards WHERE position = ?", (position,)).fetchone()
        return str(row["name"]) if row and row["name"] else None

    def outside_library(self) -> list[dict[str, Any]]:
        """Every card not in the Hell library, in zone order: position, zone, player, owner, name, tapped and
        counters (a JSON object, or None)."""
        return [dict(r) for r in self.db.execute(
            "SELECT position, zone, player, owner, name, tapped IS NOT NULL AS tapped, counters, made, depth, note, "
            "face_down IS NOT NULL AS face_down, revealed IS NOT NULL AS revealed, token IS NOT NULL AS token "
            "FROM cards WHERE zone != ? ORDER BY ord", (Zone.LIBRARY,))]

    def count(self, zone: Zone) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM cards WHERE zone = ?", (zone,)).fetchone()[0])

    def top(self, zone: Zone, count: int = 1) -> list[int]:
        return [int(r["position"]) for r in self.db.execute(
            "SELECT position FROM cards WHERE zone = ? ORDER BY ord LIMIT ?", (zone, count))]

    def in_made_zone(self, made: str, player: str | None) -> list[int]:
        """A created zone's cards, the top first (a player's own one, or the table's: None, whoever's they are)."""
        return [int(r["position"]) for r in self.db.execute(
            "SELECT position FROM cards WHERE zone = ? AND made = ? AND (? IS NULL OR player = ?) ORDER BY ord",
            (Zone.MADE, made, player, player))]

    def reorder(self, positions: list[int]) -> None:
        """These cards of one zone in this order, the first on top, in the places (ords) they held."""
        ords = sorted(int(r["ord"]) for r in self.db.execute(
            f"SELECT ord FROM cards WHERE position IN {LISTED}", (json.dumps(positions),)))
        self.db.executemany("UPDATE cards SET ord = ? WHERE position = ?", list(zip(ords, positions, strict=True)))

    def made_zones(self) -> list[str]:
        """The zones Hell cards created this game, in the order they came."""
        return [str(r["id"]) for r in self.db.execute("SELECT id FROM zones ORDER BY rowid")]

    def make_zone(self, zone: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO zones VALUES (?, ?)", (zone, self.game()))

    def end_zones(self) -> list[str]:
        """The game's created zones gone with it (which they were, for an undo)."""
        ended = self.made_zones()
        self.db.execute("DELETE FROM zones")
        return ended

    def held(self, player: str, zone: Zone = Zone.HAND) -> list[int]:
        """A player's Hell cards in a zone, in the order they came (a deck's own card is no Hell card)."""
        return [int(r["position"]) for r in self.db.execute(
            "SELECT position FROM cards WHERE zone = ? AND player = ? AND position < ? ORDER BY ord",
            (zone, player, OWN_CARDS))]

    def in_zones(self, zones: Iterable[Zone]) -> list[int]:
        zones = list(zones)
        return [int(r["position"]) for r in self.db.execute(
            f"SELECT position FROM cards WHERE zone IN ({', '.join('?' * len(zones))}) ORDER BY ord", zones)]

    def owned_hell_cards(self, zones: Iterable[Zone]) -> list[int]:
        zones = list(zones)
        return [int(r["position"]) for r in self.db.execute(
            f"SELECT position FROM cards WHERE zone IN ({', '.join('?' * len(zones))}) AND owner IS NOT NULL "
            "AND position < ?", [*zones, OWN_CARDS])]

    def last_own_card(self) -> int:
        found = self.db.execute("SELECT MAX(position) AS p FROM cards WHERE position >= ?", (OWN_CARDS,)).fetchone()
        return int(found["p"] or OWN_CARDS)

    def add_own_card(self, position: int, player: str | None, name: str, token: bool = False) -> None:
        self.db.execute("INSERT INTO cards (position, zone, ord, player, owner, name, token) VALUES (?, ?, 0, ?, ?, ?, ?)",
                        (position, Zone.BATTLEFIELD, player, player, name, "1" if token else None))

    def delete_cards(self, positions: Iterable[int]) -> None:
        self.db.executemany("DELETE FROM cards WHERE position = ?", [(p,) for p in positions])

    def clear_owners(self) -> None:
        """A new game: ownership afresh for the Hell cards."""
        self.db.execute("UPDATE cards SET owner = NULL WHERE position < ?", (OWN_CARDS,))

    def move(self, position: int, zone: Zone, end: End, player: str | None = None, made: str | None = None,
             depth: int | None = None, face_down: bool = False) -> None:
        """Put a card on the `top` or `bottom` of a zone (for a player's zones, order is the order it came); `made`:
        which created zone, `depth`: N-th from the top of its owner's library, `face_down`: its face its
        controller's alone. It is no longer revealed; its note stays where a note still means something."""
        edge = self.db.execute(f"SELECT {'MIN' if end == End.TOP else 'MAX'}(ord) AS o FROM cards WHERE zone = ?",
                               (zone,)).fetchone()["o"]
        ord_ = 0 if edge is None else edge - 1 if end == End.TOP else edge + 1
        owner = self.db.execute("SELECT owner FROM cards WHERE position = ?", (position,)).fetchone()["owner"]
        # a card leaving a zone leaves its tapped state and counters behind (a new object, in the rules' words)
        noted = zone in NOTED_ZONES
        self.db.execute("UPDATE cards SET zone = ?, ord = ?, player = ?, owner = ?, tapped = NULL, counters = NULL, "
                        f"made = ?, depth = ?, face_down = ?, revealed = NULL{'' if noted else ', note = NULL'} "
                        "WHERE position = ?", (zone, ord_, player, owner_after(zone, player, owner), made, depth,
                                               "1" if face_down else None, position))

    def set_card(self, position: int, **values: Any) -> None:
        """A card's state changed where it is: its note, face, being revealed, its controller (`player`)."""
        allowed = {"note", "face_down", "revealed", "player"}
        assert set(values) <= allowed, values  # column names from this module only
        marks = ", ".join(f"{key} = ?" for key in values)
        self.db.execute(f"UPDATE cards SET {marks} WHERE position = ?", (*values.values(), position))

    def set_tapped(self, position: int, tapped: bool) -> None:
        self.db.execute("UPDATE cards SET tapped = ? WHERE position = ?", ("1" if tapped else None, position))

    def set_counters(self, position: int, counters: dict[str, int]) -> None:
        self.db.execute("UPDATE cards SET counters = ? WHERE position = ?",
                        (json.dumps(counters, ensure_ascii=False) if counters else None, position))

    # --- the log ---

    def log_action(self, player: str | None, action: str, detail: dict[str, Any], moving: list[int],
                   created: Iterable[int] = (), players: Iterable[str] = (), turn: bool = False,
                   zones: Iterable[str] = (), ended: Iterable[str] = ()) -> None:
        """Log an action with its inverse: the rows of the cards it moves as they were, the cards it creates
        (to delete), the life and counters of the `players` it changes, the turn (with `turn`) and the game
        number: a few dozen bytes, not the whole table."""
        before = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM cards WHERE position IN {LISTED}",
                                 (json.dumps(moving),)).fetchall()
        game = self.game()
        # each row as it was, without the empty columns at its end (an undo writes those as NULL): an end of game
        # keeps every card it moves
        inverse: dict[str, Any] = {"cards": [_trimmed(tuple(r)) for r in before], "created": list(created),
                                   "game": game}
        names = list(players)
        if names:
            inverse["players"] = [tuple(r) for r in self.db.execute(
                f"SELECT name, life, counters, colors, companion FROM players WHERE name IN {LISTED}",
                (json.dumps(names, ensure_ascii=False),))]
        if turn:
            inverse["turn"] = {key: self.meta(key) for key in TURN_KEYS}
        if zones:
            inverse["zones"] = list(zones)  # the created zones it acts on (a later action on them depends on it)
        if ended:
            inverse["ended"] = list(ended)  # the created zones it ended (an undo brings them back)
        found = self.db.execute("INSERT INTO log (game, player, action, detail, undo) VALUES (?, ?, ?, ?, ?)",
                                (game, player, str(action), json.dumps(detail, ensure_ascii=False), json.dumps(inverse)))
        self.logged = int(found.lastrowid or 0)
        self.changed()

    def amend(self, detail: dict[str, Any], created: Iterable[int] = (), zones: Iterable[str] = ()) -> None:
        """What this transaction's action turned out to do besides, added to its log entry: zones that came into
        being (an undo ends them), the cards they started with (an undo deletes them)."""
        row = self.db.execute("SELECT detail, undo FROM log WHERE id = ?", (self.logged,)).fetchone()
        inverse = load_json(row["undo"])
        inverse["created"] = [*inverse.get("created", []), *created]
        inverse["made"] = [*inverse.get("made", []), *zones]
        inverse["zones"] = [*inverse.get("zones", []), *zones]
        self.db.execute("UPDATE log SET detail = ?, undo = ? WHERE id = ?",
                        (json.dumps({**load_json(row["detail"]), **detail}, ensure_ascii=False), json.dumps(inverse),
                         self.logged))

    @staticmethod
    def _entry(row: sqlite3.Row) -> Entry:
        inverse = load_json(row["undo"])
        moved = {int(r[0]) for r in inverse["cards"]} | {int(p) for p in inverse.get("created", [])}
        return Entry(int(row["id"]), int(row["game"]), row["player"], str(row["action"]), load_json(row["detail"]),
                     moved=frozenset(moved), players=frozenset(str(p[0]) for p in inverse.get("players", [])),
                     turn="turn" in inverse, zones=frozenset(inverse.get("zones", [])))

    def last_entry(self, player: str | None = None) -> Entry | None:
        """The table's last action still in force (not undone, not an undo), or a player's last."""
        if player is None:
            row = self.db.execute(f"SELECT * FROM log WHERE {IN_FORCE} ORDER BY id DESC LIMIT 1",
                                  (Action.UNDO,)).fetchone()
        else:
            row = self.db.execute(f"SELECT * FROM log WHERE player = ? AND {IN_FORCE} ORDER BY id DESC LIMIT 1",
                                  (player, Action.UNDO)).fetchone()
        return None if row is None else self._entry(row)

    def entries_after(self, entry_id: int) -> list[Entry]:
        """The actions in force after this one (an undone one moved nothing any more)."""
        return [self._entry(r) for r in self.db.execute(f"SELECT * FROM log WHERE id > ? AND {IN_FORCE} ORDER BY id",
                                                        (entry_id, Action.UNDO))]

    def latest_opening(self, game: int, player: str) -> Entry | None:
        """The newest of a player's opening-hand actions this game (an undone one is not).
        Found through the (game, player, action) index, named: SQLite's planner would rather read the (game, player)
        one backwards, whose cost grows with every action of the player's game."""
        marks = ", ".join("?" * len(OPENING_ACTIONS))
        row = self.db.execute(
            "SELECT id, game, player, action, detail FROM log INDEXED BY log_openings "
            f"WHERE game = ? AND player = ? AND action IN ({marks}) "
            "AND undone IS NULL ORDER BY id DESC LIMIT 1", (game, player, *OPENING_ACTIONS)).fetchone()
        if row is None:
            return None
        return Entry(int(row["id"]), int(row["game"]), row["player"], str(row["action"]), load_json(row["detail"]))

    def undo_entry(self, entry_id: int) -> None:
        """Put back the cards an entry moved as they were, delete those it created, its game; the entry stays in
        the log, marked undone (the line saying who undid it is the caller's to log)."""
        row = self.db.execute("SELECT undo FROM log WHERE id = ?", (entry_id,)).fetchone()
        inverse = load_json(row["undo"])
        # the moved cards' rows as they were (a session from before this kept every row, with fewer columns)
        for card in inverse["cards"]:
            if card[1] == "out":  # logged before played cards had zones: on the battlefield now
                card = [card[0], Zone.BATTLEFIELD, *card[2:]]
            names = ", ".join(COLUMNS[:len(card)])
            self.db.execute(f"INSERT OR REPLACE INTO cards ({names}) VALUES ({', '.join('?' * len(card))})", card)
        self.delete_cards(int(p) for p in inverse.get("created", []))
        for name, life, counters, colors, *companion in inverse.get("players", []):
            self.db.execute("UPDATE players SET life = ?, counters = ?, colors = ? WHERE name = ?",
                            (life, counters, colors, name))
            if companion:  # kept since companions were
                self.set_companion(name, companion[0])
        self.db.executemany("DELETE FROM zones WHERE id = ?", [(z,) for z in inverse.get("made", [])])
        for zone in inverse.get("ended", []):
            self.make_zone(zone)
        for key, value in inverse.get("turn", {}).items():
            if value is None:
                self.unset_meta(key)
            else:
                self.set_meta(key, value)
        self.set_game(int(inverse["game"]))  # older records keep it as text
        self.db.execute("UPDATE log SET undone = '1' WHERE id = ?", (entry_id,))
        self.changed()

    def log_page(self, before: int | None, size: int) -> tuple[list[dict[str, Any]], bool]:
        """Up to `size` entries older than `before`, newest first, and whether there are more: an index range,
        whatever the log's length. Each is id, game, player, action, detail (as stored: JSON text) and whether
        it was undone."""
        entries = self.db.execute("SELECT id, game, player, action, detail, undone IS NOT NULL AS undone FROM log "
                                  "WHERE id < ? ORDER BY id DESC "
                                  "LIMIT ?", (before if before is not None else 2**62, size + 1)).fetchall()
        return [dict(e) for e in entries[:size]], len(entries) > size


# --- the files under a running table: still the ones it writes? ---------------------------------------------


@dataclass(frozen=True)
class FileMark:
    """A file as the table last left it: which file (its device and inode, so a file put in its place is another)
    and its length."""

    device: int
    inode: int
    size: int


@dataclass(frozen=True)
class Marks:
    """The state file and its write-ahead log as the table last left them (None: no such file), and what the
    connection that wrote last read as the database's `PRAGMA data_version` then (which changes when another
    SQLite connection commits: a writer through SQLite changes the files rightly)."""

    state: FileMark | None
    log: FileMark | None
    writer: int = 0  # id() of that connection
    data_version: int = -1


def file_mark(path: Path) -> FileMark | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return FileMark(found.st_dev, found.st_ino, found.st_size)


def changed_under(known: Marks, now: Marks, writing: bool) -> str | None:
    """Why the files are no longer the ones the table wrote (None: they are). Between two of its transactions
    nobody else writes them, so each is as it was left; while it writes (`writing`), its own transaction may have
    put pages in the log already (a transaction larger than the page cache spills), so the log may only grow."""
    kinds = ((known.state, now.state, False, N_("its file was removed or replaced while the table ran"),
              N_("its file changed while the table ran")),
             (known.log, now.log, writing, N_("its write-ahead log was removed or replaced while the table ran"),
              N_("its write-ahead log changed while the table ran")))
    for was, found, may_grow, replaced, changed in kinds:
        if was is None:
            continue
        if found is None or (found.device, found.inode) != (was.device, was.inode):
            return replaced
        if found.size != was.size and not (may_grow and found.size > was.size):
            return changed
    return None


@dataclass
class Store:
    """The SQLite file of one session."""

    path: Path
    # writers queue here, in the order they came, rather than in SQLite's busy wait (sleeps that grow)
    _writer: FairLock = field(default_factory=FairLock, repr=False)
    _local: threading.local = field(default_factory=threading.local, repr=False)
    _opened: list[sqlite3.Connection] = field(default_factory=list, repr=False)  # every thread's, for `close`
    # the state file and its log as the last transaction left them (None: not known since they were opened)
    _marks: Marks | None = field(default=None, repr=False)
    # held while a backup reads the file and while the store closes: a close waits for a backup under way (whose
    # connection would keep it from deleting the -wal), and a backup finds a closed store closed
    _closing: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # why the table's files are not its own any more (None: they are): every write is refused from then on and
    # the files are never written or closed again (closing would fold a log into a file that is not its own)
    refused: str | None = field(default=None, repr=False)

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
        db.execute("PRAGMA synchronous=NORMAL")  # WAL stays consistent; a power cut may lose the last action only
        # The write-ahead log, folded into the file every 1000 pages by default, grew to 4 MB a table (the file
        # itself is 240 KB after 1000 actions); folded every WAL_PAGES and cut back to WAL_KEEP after, a table's
        # files stay near half a megabyte, and each fold (an fsync the whole server waits for) is smaller
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
        db.execute(f"PRAGMA journal_size_limit = {WAL_KEEP}")
        # SQLite's page cache, 2 MB a connection by default, fills as a table's log grows: a server of 100 tables
        # grew by 0.3 KB an action towards 200 MB (at 512 KB, towards 50 MB). At 64 KB it is full after a table's
        # first actions, and its reads, of recent pages, come from the OS's file cache: 0.05 ms more a read
        db.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        db.execute(f"PRAGMA soft_heap_limit = {SQLITE_HEAP_BYTES}")
        return db

    def _reader(self) -> sqlite3.Connection:
        """This thread's connection (opening one costs more than a read)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self.connect()
            self._opened.append(db)
        return db

    def close(self) -> None:
        """The write-ahead log folded into the file and emptied (`wal_checkpoint(TRUNCATE)`), then every thread's
        connection closed (the last one deletes the -wal and -shm): the file stands alone, complete, to be copied,
        backed up, moved or read by another program. A table whose files changed under it (`refused`) is left
        as it is: its connections stay open, parked, so that no close folds its log into a file not its own."""
        with self._writer, self._closing:
            opened, self._opened = self._opened, []
            self._local, self._marks = threading.local(), None
            if self.refused is not None:
                _PARKED.extend(opened)
                return
            if opened:
                try:
                    opened[0].execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error:
                    pass  # the close below folds the log in all the same (as the last connection of the file)
            for db in opened:
                db.close()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One transaction, committed only when the table's files are still the ones it writes: a state file or
        -wal removed, replaced or cut under the running table (a hand, a restore over it, a clean-up script)
        would take its actions where nobody reads them, each answered as kept. Such a write is rolled back and
        refused (Damaged, as damage found while the table runs), and so is every write after it."""
        with self._writer:
            if self.refused is not None:
                raise Damaged(self.path, self.refused)
            if getattr(self._local, "db", None) is None:
                self._refuse_if_changed()  # a new connection would take whatever files are there now, as its own
            try:
                db = self._reader()
                db.execute("BEGIN IMMEDIATE")  # one writer at a time, other processes included
            except sqlite3.Error as exc:  # (SQLite's own error when the -wal went under a new connection)
                self._refuse_if_changed(exc)
                raise
            try:
                self._check_files(db, writing=False)
                yield Tx(db)
                self._check_files(db, writing=True)
                db.execute("COMMIT")
            except BaseException as exc:
                _roll_back(db)
                if not isinstance(exc, Damaged):
                    self._marks = None  # (a rolled-back transaction may have grown the log)
                raise
            self._marks = self._marked(db, self._marks.data_version if self._marks is not None else None)

    def back_up(self, into: Path) -> bool:
        """A consistent copy of the open session written to `into` (see `back_up`), from any thread, while the table
        goes on; False when the store is not open (closed, or never opened: its file alone is the session) or
        refused (its files are not its own)."""
        with self._closing:
            if not self._opened or self.refused is not None:
                return False
            back_up(self.path, into, closed=False)
            return True

    def refuse(self, why: str) -> None:
        """Damage found while the table ran: no write from now on, and the files left as they are."""
        self.refused = self.refused or why

    def _marked(self, db: sqlite3.Connection, version: int | None = None) -> Marks:
        """The files as they are now, and the data version `db` reads (`version`: read already in this
        transaction, which our own commit does not change)."""
        if version is None:
            version = int(db.execute("PRAGMA data_version").fetchone()[0])
        return Marks(file_mark(self.path), file_mark(_beside(self.path, "-wal")), id(db), version)

    def _refuse_if_changed(self, cause: BaseException | None = None) -> None:
        """Damaged when the files are not the ones the last transaction left (the log may have grown: another
        SQLite connection may have written), before a connection of this thread is opened on them."""
        if self._marks is None:
            return
        now = Marks(file_mark(self.path), file_mark(_beside(self.path, "-wal")))
        why = changed_under(self._marks, now, writing=True)
        if why is not None:
            self.refused = why
            raise Damaged(self.path, why) from cause

    def _check_files(self, db: sqlite3.Connection, writing: bool) -> None:
        """Two `stat` calls (and at the start a PRAGMA) before and after the transaction's work, two more after its
        commit for the next (`transaction`): see `changed_under`."""
        known = self._marks
        now = self._marked(db, known.data_version if writing and known is not None else None)
        self._marks = now
        if known is None or (known.writer, known.data_version) != (now.writer, now.data_version):
            return  # the first write since the files were opened, or another connection wrote: as they are now
        why = changed_under(known, now, writing)
        if why is not None:
            self._marks = known
            self.refused = why
            raise Damaged(self.path, why)

    @contextmanager
    def snapshot(self) -> Iterator[Tx]:
        """Reads that all see the same moment, whatever the phones do meanwhile."""
        if getattr(self._local, "db", None) is None:
            # (see transaction) under the writers' lock: a commit's checkpoint grows the file before the commit's
            # marks are taken, and a reader comparing the two between them would take a growing file for damage
            with self._writer:
                self._refuse_if_changed()
                self._reader()
        db = self._reader()
        db.execute("BEGIN")
        try:
            yield Tx(db)
        finally:
            db.execute("COMMIT")

    def open(self, check: Callable[[dict[str, str]], None] | None = None) -> None:
        """Make the file ready. A new session only where there is no file; an existing one must be a whole session
        (see `inspect`), and `check` may refuse it by its meta, both before anything is written, so that a refusal
        leaves every file byte for byte; then its migrations are brought up to date."""
        found = inspect_state(self.path)
        if found is not None and check is not None:
            check(found)
        try:
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise state_error(exc, self.path) from exc

    def _migrate(self) -> None:
        """The steps this file has not had, in one transaction with the version they bring it to."""
        with self._writer:
            db = self._reader()
            db.execute("BEGIN IMMEDIATE")
            try:
                done = int(db.execute("PRAGMA user_version").fetchone()[0])
                if done > len(MIGRATIONS):
                    raise TableError("{file} was written by a newer hhd: update hhd to open it", status=400,
                                     file=self.path)
                for step in MIGRATIONS[done:]:
                    step(db)
                db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
                db.execute("COMMIT")
            except BaseException:
                _roll_back(db)
                raise
            self._marks = self._marked(db)


# --- a backup of a state file -----------------------------------------------------------------------------


def back_up(path: Path, into: Path, closed: bool) -> None:
    """The session in `path` as of one moment, written to `into` (a new file, whole in itself: no -wal beside it)
    by SQLite's online backup, while the table goes on writing. Read through a read-only connection of its own,
    which never folds a log into the file nor deletes one when it closes; a table out of memory (`closed`: its file
    alone, complete) is read as an immutable file, so that not even a -shm is made beside it. The copy is then
    inspected as a state file is before it is opened (Damaged when it is not a whole session). Two copies of the
    same session are the same bytes."""
    from urllib.parse import quote

    source = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if closed else ""),
                             uri=True, timeout=10)
    try:
        target = sqlite3.connect(into)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()
    inspect_state(into)


# --- an existing state file, inspected before it is opened ------------------------------------------------

WAL_HEADER, FRAME_HEADER = 32, 24  # bytes (https://sqlite.org/fileformat2.html#walformat)
DAMAGED = N_("{file} is damaged ({reason})")


# the connections of tables refused while they ran, never closed (see Store.close)
_PARKED: list[sqlite3.Connection] = []


class Damaged(TableError):
    """A state file (or its write-ahead log) that is not a whole session: refused, and left as it is."""

    translated = ("reason",)

    def __init__(self, path: Path, reason: object) -> None:
        super().__init__(DAMAGED, status=400, file=path, reason=reason)


def inspect_state(path: Path) -> dict[str, str] | None:
    """The meta of the session in an existing state file (None: there is no file, so a new session). A session's
    data lives in its write-ahead log (-wal) until SQLite folds it into the file, so the file and its log are
    inspected together: a file that is empty, not SQLite, fails `PRAGMA quick_check`, holds no session (its log
    lost), or a log cut short, overwritten or gone while its index (-shm) stays, is refused, never taken for a new
    session. SQLite itself would read such a pair as the session it was some actions ago, or as none.
    It is inspected on a copy: opening the file itself would write (its header, the log's index, a checkpoint)."""
    wal, shm = _beside(path, "-wal"), _beside(path, "-shm")
    if not path.exists():
        if wal.exists():
            raise Damaged(path, N_("the file is missing, its log is there"))
        return None
    _check_header(path)
    if shm.exists() and not wal.exists():  # SQLite deletes both when it closes the file: the log was lost
        raise Damaged(path, N_("its write-ahead log is missing"))
    frames = _wal_frames(path, wal)
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="hhd-inspect-") as folder:
        copy = Path(folder) / "state.sqlite"
        try:
            shutil.copyfile(path, copy)
            if wal.exists():
                shutil.copyfile(wal, _beside(copy, "-wal"))
        except OSError as exc:
            raise TableError("cannot read {file}: {reason}", status=400, file=path, reason=exc.strerror) from exc
        try:
            return _inspected(path, copy, frames)
        except sqlite3.DatabaseError as exc:
            raise Damaged(path, exc) from exc


def _beside(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _check_header(path: Path) -> None:
    """An existing state file must be an SQLite database: an empty or foreign file is not a session."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise TableError("cannot read {file}: {reason}", status=400, file=path, reason=exc.strerror) from exc
    if header[:16] != b"SQLite format 3\x00":
        said = {True: N_("{file} is not an hhd table session (empty)"),
                False: N_("{file} is not an hhd table session (not SQLite)")}[not header]
        raise TableError(said, status=400, file=path)
    # the file is whole pages, as many as its header says when that count is current (its two counters agree)
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages, current = int.from_bytes(header[28:32], "big"), header[24:28] == header[92:96]
    if len(header) < 100 or page < 512 or size % page or (current and size < pages * page):
        raise Damaged(path, N_("the file is cut short"))


def _wal_frames(path: Path, wal: Path) -> int:
    """The whole frames of the log's current run (those bearing its header's salts), read from their headers; a
    frame of the current run that is not whole was cut short. (What follows the current run is an older run's,
    which SQLite does not read: `journal_size_limit` cuts the file at any length, through an older frame.)"""
    cut = Damaged(path, N_("its write-ahead log is cut short"))
    try:
        with wal.open("rb") as handle:
            header = handle.read(WAL_HEADER)
            size = wal.stat().st_size
            if not header:
                return 0
            if len(header) < WAL_HEADER:
                raise cut
            page = int.from_bytes(header[8:12], "big")
            frame = FRAME_HEADER + (65536 if page == 1 else page)
            if page < 512:
                raise cut
            frames = 0
            while True:
                handle.seek(WAL_HEADER + frames * frame)
                head = handle.read(FRAME_HEADER)
                if len(head) < FRAME_HEADER or head[8:16] != header[16:24]:  # the end, or an older run's frame
                    return frames
                if WAL_HEADER + (frames + 1) * frame > size:  # a frame of this run, not whole
                    raise cut
                frames += 1
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise TableError("cannot read {file}: {reason}", status=400, file=wal, reason=exc.strerror) from exc


def _inspected(path: Path, copy: Path, frames: int) -> dict[str, str]:
    db = sqlite3.connect(copy, isolation_level=None)
    try:
        checked = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
        if checked != ["ok"]:
            raise Damaged(path, " ".join("; ".join(checked).split())[:200])
        if int(db.execute("PRAGMA user_version").fetchone()[0]) > len(MIGRATIONS):
            raise TableError("{file} was written by a newer hhd: update hhd to open it", status=400, file=path)
        # the frames SQLite took from the log (each checked against its checksum, up to the last commit): fewer
        # than the log holds means some were overwritten or an action was cut off midway
        taken = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1] if frames else 0
        if taken != frames:
            raise Damaged(path, N_("its write-ahead log is overwritten"))
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is None:
            raise Damaged(path, N_("it holds no session"))
        meta = {str(key): str(value) for key, value in db.execute("SELECT key, value FROM meta")}
        if "seed" not in meta:
            raise Damaged(path, N_("it holds no session"))
        return meta
    finally:
        db.close()


def _roll_back(db: sqlite3.Connection) -> None:
    """Undo the transaction that failed, if SQLite has not already: on a full disk (SQLITE_FULL) it rolls back
    itself, and a ROLLBACK then would raise "cannot rollback" in place of the error that says what happened."""
    if db.in_transaction:
        db.execute("ROLLBACK")


# what SQLite says when it cannot write the file, which may hold a healthy session: read-only, no permission,
# no folder, a full disk, an I/O error (primary result codes: the low byte of the extended one)
_UNWRITABLE = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_FULL,
               sqlite3.SQLITE_IOERR}


class StateUnwritable(TableError):
    """The state file cannot be written where it is; the session in it, if any, is intact."""


def state_error(exc: sqlite3.DatabaseError, path: Path) -> TableError:
    """A failed SQLite call on the state file, said as what it means: cannot write it, or damaged."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _UNWRITABLE:
        return StateUnwritable(N_("cannot write {file}: {reason}"), status=500, file=path, reason=exc)
    return Damaged(path, exc)


def disk_full(error: BaseException) -> bool:
    """SQLite's SQLITE_FULL, or the system's "no space left", here or under the error it caused (a failed
    COMMIT's ROLLBACK then finds no transaction: SQLite rolled it back itself)."""
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, sqlite3.OperationalError) and "full" in str(found):
            return True
        if isinstance(found, OSError) and found.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        found = found.__cause__ or found.__context__
    return False


def damage_found(error: BaseException) -> bool:
    """SQLite's SQLITE_CORRUPT or SQLITE_NOTADB ("database disk image is malformed"), or Damaged: the state file or
    its -wal damaged, removed or replaced under a running table (a disk, a hand, a restore over it), here or under
    the error it caused."""
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, Damaged):  # the files changed under the table (Store.transaction)
            return True
        code = getattr(found, "sqlite_errorcode", None)
        if isinstance(found, sqlite3.DatabaseError) and code is not None \
                and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            return True
        found = found.__cause__ or found.__context__
    return False
