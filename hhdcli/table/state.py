"""One Hell library session kept in SQLite: the library's order, the shared sideboard, the cards players
hold and played, the seats, the log, and undo. Every action is one transaction (BEGIN IMMEDIATE, after a
lock that queues this process's writers fairly), so two phones acting at the same instant are served one after
the other and no card is drawn twice or lost.

Zones: `library` (ord ascending: the top first), `sideboard` (ord ascending: the top first), `hand` (a
player's Hell cards in hand: theirs alone to see), `out` (played: battlefield, graveyard — anywhere but the
libraries, the sideboard and the hand; open to everyone), `pending` (drawn, a choice card waiting for take or
decline).

Who acts is the caller's business (hhdcli.table.app checks tokens); every action here is told its player, or
None for the host (the laptop running the table), and logs it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhdcli.cards import Card, card_text
from hhdcli.i18n import N_
from hhdcli.jsonio import load_json
from hhdcli.library import OPENING_HAND
from hhdcli.mana import SymbolTable, Take, judge
from hhdcli.render.texts import shown_type_line
from hhdcli.rulings import card_rulings

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cards (position INTEGER PRIMARY KEY, zone TEXT NOT NULL, ord INTEGER NOT NULL,
                                  player TEXT, owner TEXT, name TEXT);
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, colors TEXT NOT NULL, token TEXT);
CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL, player TEXT,
                                action TEXT NOT NULL, detail TEXT NOT NULL, undo TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS cards_by_zone ON cards (zone, ord);
CREATE INDEX IF NOT EXISTS log_by_player ON log (game, player);
"""
# Cards of the players' own decks that left the game (by name, onto the sideboard) are numbered from here, above
# every library position; `name` holds their name, Hell cards have none (their card data says it).
OWN_CARDS = 1_000_000
COLUMNS = ("position", "zone", "ord", "player", "owner", "name")
# What a player drew, holds or put back is theirs to know: the others read that they acted, not on which card.
PRIVATE_ACTIONS = ("draw", "take", "opening hand", "mulligan", "keep")
# what a log entry's detail may show to those allowed to read it: names and counts, never a library-file position
# (hell-library.json maps positions to names, so a position of a hidden card is its name)
SHOWN_DETAIL = ("name", "verdict", "end", "game", "count", "names", "undone")
REMINDERS = {Take.LAND: "a land: into your hand; in your draw step you may play it at once",
             Take.TAKE: "take it; in your draw step you may cast it for {2} less",
             Take.CHOICE: "take it, or decline: it goes on top of the sideboard"}


class TableError(Exception):
    """A request the rules or the session refuse: `status` is the HTTP status that says so. The text is a
    message of the page's catalog (translated for the player asking) with `values` put in its {fields}."""

    translated: tuple[str, ...] = ()  # values that are words of the catalog too (a log action)

    def __init__(self, template: str, status: int = 409, **values: object) -> None:
        self.template, self.status, self.values = template, status, values
        self.message = self.said()
        super().__init__(self.message)

    def said(self, gettext: Callable[[str], str] = str) -> str:
        """The message in English, or through `gettext` in another language."""
        values = {k: gettext(str(v)) if k in self.translated else v for k, v in self.values.items()}
        text = gettext(self.template)
        return text.format(**values) if values else text


class NeedsConfirmation(TableError):
    """Refused unless the player confirms: undoing another player's action."""

    translated = ("action",)


class Depends(TableError):
    """Refused: later actions moved the same cards (or began a later game); they must be undone first. They
    are named as "Ben: draw", the action in the asker's language."""

    def __init__(self, action: str, later: list[tuple[str | None, str]]) -> None:
        self.action, self.later = action, later  # the action refused (named: "it" alone says not which)
        super().__init__(N_('cannot undo "{action}": later actions depend on it; undo them first: {actions}'),
                         action=action, actions="")

    def said(self, gettext: Callable[[str], str] = str) -> str:
        named = ", ".join(f"{who or gettext('the host')}: {gettext(action)}" for who, action in self.later)
        return gettext(self.template).format(action=gettext(self.action), actions=named)


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


@dataclass
class Session:
    """The session over one SQLite file; `cards` are the library's cards by library-file position."""

    path: Path
    cards: dict[int, Card]
    table: SymbolTable
    seed: str
    library_hash: str = ""  # the library file's content: a library drawn again with other options is another
    _faces: dict[str, int] = field(default_factory=dict)  # the opaque face ids of this session's cards
    _face_of: dict[int, str] = field(default_factory=dict)  # and back
    # a card's description and verdict are computed once per session, not at every read (rulings, text, take rule)
    _described: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict, repr=False)
    _verdicts: dict[tuple[int, str], Any] = field(default_factory=dict, repr=False)
    _shown_details: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)  # log entries', by id
    # writers queue here, in the order they came, rather than in SQLite's busy wait (sleeps that grow)
    _writer: FairLock = field(default_factory=FairLock, repr=False)
    _local: threading.local = field(default_factory=threading.local, repr=False)

    # --- storage ---------------------------------------------------------------------------------

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
        db.execute("PRAGMA synchronous=NORMAL")  # WAL stays consistent; a power cut may lose the last action only
        return db

    def _reader(self) -> sqlite3.Connection:
        """This thread's connection for reads (opening one costs more than the read)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self.connect()
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._writer:
            db = self._reader()
            db.execute("BEGIN IMMEDIATE")  # one writer at a time, other processes included
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """Reads that all see the same moment, whatever the phones do meanwhile."""
        db = self._reader()
        db.execute("BEGIN")
        try:
            yield db
        finally:
            db.execute("COMMIT")

    def start(self, players: dict[str, tuple[str, ...]]) -> bool:
        """Create the session (library in file order, empty sideboard) unless the file holds this library's
        session already; players are added or updated either way. True when an old session was resumed."""
        self._check_file()
        try:
            return self._start(players)
        except sqlite3.DatabaseError as exc:
            raise TableError("{file} is damaged ({reason})", status=400, file=self.path, reason=exc) from exc

    def _check_file(self) -> None:
        """An existing state file must be an SQLite database: an empty or foreign file is not a session."""
        try:
            with self.path.open("rb") as handle:
                header = handle.read(16)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise TableError("cannot read {file}: {reason}", status=400, file=self.path, reason=exc.strerror) from exc
        if header != b"SQLite format 3\x00":
            said = {True: N_("{file} is not an hhd table session (empty)"),
                    False: N_("{file} is not an hhd table session (not SQLite)")}[not header]
            raise TableError(said, status=400, file=self.path)

    def _start(self, players: dict[str, tuple[str, ...]]) -> bool:
        db = self.connect()
        try:
            db.executescript(SCHEMA)
            if "owner" not in {row["name"] for row in db.execute("PRAGMA table_info(cards)")}:
                db.execute("ALTER TABLE cards ADD COLUMN owner TEXT")  # a session from before owners were kept
            if "token" not in {row["name"] for row in db.execute("PRAGMA table_info(players)")}:
                db.execute("ALTER TABLE players ADD COLUMN token TEXT")  # a session from before private hands
            if "name" not in {row["name"] for row in db.execute("PRAGMA table_info(cards)")}:
                db.execute("ALTER TABLE cards ADD COLUMN name TEXT")  # a session from before players' own cards
        finally:
            db.close()
        with self.transaction() as db:
            found = db.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone()
            if found is not None and found["value"] != self.seed:
                raise TableError("{file} holds the session of library {found}, not {seed}", status=400,
                                 file=self.path, found=repr(found["value"]), seed=repr(self.seed))
            drawn_from = db.execute("SELECT value FROM meta WHERE key = 'library'").fetchone()
            if drawn_from is not None and self.library_hash and drawn_from["value"] != self.library_hash:
                raise TableError("{file} holds the session of another library with the seed {seed} (drawn again "
                                 "with other options or card data)", status=400, file=self.path, seed=repr(self.seed))
            resumed = found is not None
            if self.library_hash:
                db.execute("INSERT INTO meta VALUES ('library', ?) ON CONFLICT(key) DO NOTHING", (self.library_hash,))
            if not resumed:
                # the table's order is secret: shuffled from a secret kept in the state file and never shown, so
                # neither the printed library nor its public seed tells the next Hell card
                secret = secrets.token_hex(16)
                order = sorted(self.cards)
                random.Random(f"hhd-table-order:{secret}").shuffle(order)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [("seed", self.seed), ("game", "1"),
                                                                  ("secret", secret)])
                db.executemany("INSERT INTO cards (position, zone, ord) VALUES (?, 'library', ?)",
                               [(p, i) for i, p in enumerate(order, start=1)])
            if db.execute("SELECT 1 FROM meta WHERE key = 'zones'").fetchone() is None:
                # a session from before hands and play were apart: its players' cards were all "out"; they are
                # taken to be in hand (a player plays them again with one tap)
                if resumed:
                    db.execute("UPDATE cards SET zone = 'hand' WHERE zone = 'out'")
                db.execute("INSERT INTO meta VALUES ('zones', '2')")
            self._name_faces(self._secret(db))
            for name, colors in players.items():
                db.execute("INSERT INTO players (name, colors) VALUES (?, ?) "
                           "ON CONFLICT(name) DO UPDATE SET colors = excluded.colors", (name, "".join(colors)))
        return resumed

    def _name_faces(self, secret: str) -> None:
        """Each card's face is served under an id made from the session's secret, not its library position:
        an address says nothing of the card behind it."""
        self._faces = {hmac.new(secret.encode(), f"face:{p}".encode(), hashlib.sha256).hexdigest()[:20]: p
                       for p in self.cards}
        self._face_of = {p: face for face, p in self._faces.items()}

    def face_position(self, face: str) -> int | None:
        return self._faces.get(face)

    def _kept(self, key: str, make: Callable[[], str], new: bool = False) -> str:
        with self.transaction() as db:
            found = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if found is not None and not new:
                return str(found["value"])
            value = make()
            db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (key, value))
            return value

    def join_code(self, make: Callable[[], str], new: bool = False) -> str:
        """The session's join code, kept in the state file; a new one when there is none or `new` asks."""
        return self._kept("code", make, new)

    def host_secret(self, new: bool = False) -> str:
        """The host's secret (the laptop's board proves it is the host with it), kept like the join code."""
        return self._kept("host", lambda: secrets.token_urlsafe(18), new)

    # --- seats -------------------------------------------------------------------------------------------

    def join(self, player: str) -> str:
        """Seat a player on this phone: their token, kept in the state file (it survives restarts). A seat
        taken by another phone is refused; the host releases it or re-seats the player."""
        with self.transaction() as db:
            self._colors(db, player)
            token = db.execute("SELECT token FROM players WHERE name = ?", (player,)).fetchone()["token"]
            if token is not None:
                raise TableError("{player} is playing from another phone; the host can release the seat or show "
                                 "{player}'s re-seat code on the board", status=403, player=player)
            return self._seat(db, player, secrets.token_urlsafe(18))

    def reseat(self, player: str) -> str:
        """The host gives a player a new token (for a new phone): the old phone's is refused from now on."""
        with self.transaction() as db:
            self._colors(db, player)
            return self._seat(db, player, secrets.token_urlsafe(18))

    def release(self, player: str) -> None:
        """The host frees a seat: its phone is refused, and the next phone to pick the name gets it."""
        with self.transaction() as db:
            self._colors(db, player)
            self._seat(db, player, None)

    def _seat(self, db: sqlite3.Connection, player: str, token: str | None) -> str:
        """Who holds a player's seat: the phone with this token, or (None) the next phone to pick the name."""
        db.execute("UPDATE players SET token = ? WHERE name = ?", (token, player))
        self._changed(db)
        return token or ""

    def add_player(self, player: str, colors: str) -> None:
        """A late player, added from the board while the table runs."""
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM players WHERE name = ?", (player,)).fetchone():
                raise TableError("{player} is at the table already", player=player)
            db.execute("INSERT INTO players (name, colors) VALUES (?, ?)", (player, colors))
            self._changed(db)

    def viewer(self, token: str | None) -> str | None:
        """The player a token belongs to, or None. Tokens are compared as bytes, in constant time."""
        if not token:
            return None
        given = token.encode("utf-8", "surrogatepass")
        for row in self._reader().execute("SELECT name, token FROM players WHERE token IS NOT NULL"):
            if hmac.compare_digest(given, str(row["token"]).encode()):
                return str(row["name"])
        return None

    def may_see(self, position: int, viewer: str | None) -> bool:
        """A card's face: the open sideboard's and played cards for everyone, a hand for its player alone."""
        return bool(self._visible([position], viewer))

    def _visible(self, positions: list[int], viewer: str | None) -> set[int]:
        """Which of these cards `viewer` may see (as `may_see` says), in one query however many are asked."""
        if not positions:
            return set()
        marks = ", ".join("?" * len(positions))
        # a viewer of None matches no hand: NULL = NULL is not true in SQL
        rows = self._reader().execute(
            f"SELECT position FROM cards WHERE position IN ({marks}) AND (zone IN ('sideboard', 'out') "
            "OR player = ?)", [*positions, viewer]).fetchall()
        return {int(r["position"]) for r in rows}

    # --- reading ---------------------------------------------------------------------------------------

    def state(self, log_size: int = 30, viewer: str | None = None, lang: str = "en") -> dict[str, Any]:
        """What `viewer` may see: their own Hell cards and waiting card, the others' counts and played cards, the
        open sideboard, the library count and the log with the others' private cards left out. Cards are
        listed by reference (id, name, owner); their descriptions come from `describe_faces`, once per page."""
        with self.snapshot() as db:
            rows = db.execute("SELECT position, zone, player, owner, name FROM cards WHERE zone != 'library' "
                              "ORDER BY ord").fetchall()
            library = db.execute("SELECT COUNT(*) FROM cards WHERE zone = 'library'").fetchone()[0]
            players = db.execute("SELECT * FROM players ORDER BY rowid").fetchall()
            meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('game', 'version')").fetchall())
            game = int(meta["game"])
            log = self._log_page(db, None, log_size)
            phase = self._opening(db, viewer, game)[0] if viewer is not None else None  # the others' is private
        by_player: dict[str, list[sqlite3.Row]] = {}
        sideboard = []
        for row in rows:
            if row["zone"] == "sideboard":
                sideboard.append(self._ref(row))
            elif row["player"] is not None:
                by_player.setdefault(row["player"], []).append(row)
        return {
            "seed": self.seed, "game": game, "version": int(meta.get("version", 0)), "you": viewer,
            "library_count": library, "sideboard": sideboard,
            "players": [self._player(p, by_player.get(p["name"], []), viewer, phase, lang) for p in players],
            "log": [_public(entry, viewer, self._shown_details) for entry in log["entries"]], "log_more": log["more"],
        }

    def log(self, before: int | None, size: int, viewer: str | None) -> dict[str, Any]:
        """A page of the log, newest first, of the entries older than `before` (a log id)."""
        with self.snapshot() as db:
            page = self._log_page(db, before, size)
        return {"log": [_public(entry, viewer, self._shown_details) for entry in page["entries"]],
                "log_more": page["more"]}

    @staticmethod
    def _log_page(db: sqlite3.Connection, before: int | None, size: int) -> dict[str, Any]:
        """Up to `size` entries older than `before` and whether there are more: an index range, whatever the
        log's length."""
        entries = db.execute("SELECT id, game, player, action, detail FROM log WHERE id < ? ORDER BY id DESC "
                             "LIMIT ?", (before if before is not None else 2**62, size + 1)).fetchall()
        return {"entries": [dict(e) for e in entries[:size]], "more": len(entries) > size}

    def _player(self, player: sqlite3.Row, mine: list[sqlite3.Row], viewer: str | None, phase: str | None,
                lang: str) -> dict[str, Any]:
        """A player as `viewer` sees them; `phase` is the viewer's own opening hand, shown to them alone."""
        hand = [r for r in mine if r["zone"] == "hand"]
        pending = next((r["position"] for r in mine if r["zone"] == "pending"), None)
        seen = {"name": player["name"], "colors": player["colors"], "card_count": len(hand),
                "waiting": pending is not None, "seated": player["token"] is not None,
                "played": [self._ref(r) for r in mine if r["zone"] == "out"]}
        if viewer != player["name"]:  # another's hand is private
            return {**seen, "cards": [], "pending": None, "opening": None}
        return {**seen, "cards": [self._ref(r) for r in hand], "opening": phase,
                "pending": self.verdict(pending, player["colors"], lang) if pending is not None else None}

    def _ref(self, row: sqlite3.Row) -> dict[str, Any]:
        """A card the viewer may see, by reference: its face id (for its description), name and owner (None:
        nobody has moved it out of Hell; its owner's library is the Hell library, its other zones the
        sideboard)."""
        position = int(row["position"])
        card = self.cards.get(position)
        return {"position": position, "id": self._face_of.get(position) or f"own-{position}",
                "name": card.name if card else (row["name"] or "?"), "hell": card is not None, "owner": row["owner"]}

    def describe_faces(self, ids: list[str], viewer: str | None, lang: str) -> dict[str, dict[str, Any]]:
        """The descriptions of the cards named by face id that the viewer may see (others are left out)."""
        asked = {face: self._faces[face] for face in ids if face in self._faces}
        visible = self._visible(list(asked.values()), viewer)
        return {face: self.describe(position, lang=lang) for face, position in asked.items() if position in visible}

    def describe(self, position: int, name: str | None = None, lang: str = "en") -> dict[str, Any]:
        """A card as the page shows it: a Hell card with its image, text and rulings (in `lang`); a player's own
        card (which left the game onto the sideboard) by its name alone. Computed once per session."""
        card = self.cards.get(position)
        if card is None:
            return {"position": position, "name": name or "?", "hell": False, "cost": "", "type_line": "",
                    "image": None, "face": None, "text": "", "hell_rulings": []}
        key = (position, lang)
        found = self._described.get(key)
        if found is None:
            images = card.print_images
            type_line = shown_type_line(card, lang)  # a basic's in the asker's language, as its proxy says it
            found = self._described[key] = {
                "position": position, "id": self._face_of[position], "name": card.name, "hell": True,
                "cost": card.mana_cost, "type_line": type_line, "image": images[0] if images else None,
                "face": f"/cards/{lang}/{self._face_of[position]}.png",  # drawn with its words in `lang`
                "text": f"{card.name}\n{type_line}" if card.is_basic else card_text(card),
                "hell_rulings": [{"id": r.id, "text": r.text(lang)} for r in card_rulings(card)]}
        return dict(found)

    def verdict(self, position: int, colors: str, lang: str = "en") -> dict[str, Any]:
        key = (position, colors)
        result = self._verdicts.get(key)
        if result is None:
            result = self._verdicts[key] = judge(self.cards[position], colors, self.table)
        return {**self.describe(position, lang=lang), "verdict": result.verdict, "missing": list(result.missing),
                "reminder": REMINDERS[result.verdict]}

    # --- actions -------------------------------------------------------------------------------------

    def _act(self, db: sqlite3.Connection, player: str | None, action: str, detail: dict[str, Any],
             moving: list[int], created: tuple[int, ...] = ()) -> None:
        """Log an action with its inverse: the rows of the cards it moves as they were, the cards it creates
        (to delete) and the game number: a few dozen bytes, not the whole table."""
        marks = ", ".join("?" * len(moving))
        before = db.execute(f"SELECT {', '.join(COLUMNS)} FROM cards WHERE position IN ({marks})", moving).fetchall()
        game = self._game(db)
        inverse = {"cards": [tuple(r) for r in before], "created": list(created), "game": game}
        db.execute("INSERT INTO log (game, player, action, detail, undo) VALUES (?, ?, ?, ?, ?)",
                   (game, player, action, json.dumps(detail, ensure_ascii=False), json.dumps(inverse)))
        self._changed(db)

    @staticmethod
    def _changed(db: sqlite3.Connection) -> None:
        """One more change: the version pages compare to know theirs is stale."""
        db.execute("INSERT INTO meta VALUES ('version', '1') "
                   "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    def _colors(self, db: sqlite3.Connection, player: str) -> str:
        row = db.execute("SELECT colors FROM players WHERE name = ?", (player,)).fetchone()
        if row is None:
            raise TableError("no player named {player} at this table", status=404, player=player)
        return str(row["colors"])

    def game(self) -> int:
        """The number of the game being played (1 for the session's first)."""
        with self.snapshot() as db:
            return self._game(db)

    @staticmethod
    def _game(db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()["value"])

    @staticmethod
    def _set_game(db: sqlite3.Connection, game: int) -> None:
        db.execute("UPDATE meta SET value = ? WHERE key = 'game'", (str(game),))

    def _secret(self, db: sqlite3.Connection) -> str:
        """The session's secret (a session from before it was kept has its seed): the faces' ids and the
        end-of-game shuffles are made from it."""
        row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
        return str(row["value"]) if row else self.seed

    @staticmethod
    def _top(db: sqlite3.Connection, zone: str, count: int = 1) -> list[int]:
        return [int(r["position"]) for r in db.execute(
            "SELECT position FROM cards WHERE zone = ? ORDER BY ord LIMIT ?", (zone, count))]

    @staticmethod
    def _move(db: sqlite3.Connection, position: int, zone: str, end: str, player: str | None = None) -> None:
        """Put a card on the `top` or `bottom` of a zone (for a player's zones, order is the order it came)."""
        edge = db.execute(f"SELECT {'MIN' if end == 'top' else 'MAX'}(ord) AS o FROM cards WHERE zone = ?",
                          (zone,)).fetchone()["o"]
        ord_ = 0 if edge is None else edge - 1 if end == "top" else edge + 1
        db.execute("UPDATE cards SET zone = ?, ord = ?, player = ? WHERE position = ?", (zone, ord_, player, position))
        if zone in ("hand", "out") and player:  # the rules' owner: the first player to move it out of Hell
            db.execute("UPDATE cards SET owner = COALESCE(owner, ?) WHERE position = ?", (player, position))

    def _held(self, db: sqlite3.Connection, player: str, zone: str = "hand") -> list[int]:
        """A player's Hell cards in a zone, in the order they came (a deck's own card is no Hell card)."""
        return [int(r["position"]) for r in db.execute(
            "SELECT position FROM cards WHERE zone = ? AND player = ? AND position < ? ORDER BY ord",
            (zone, player, OWN_CARDS))]

    def draw(self, player: str) -> dict[str, Any]:
        """The top card for a player: a land or a take goes to their hand; a choice waits for take or decline."""
        with self.transaction() as db:
            colors = self._colors(db, player)
            if db.execute("SELECT 1 FROM cards WHERE zone = 'pending' AND player = ?", (player,)).fetchone():
                raise TableError("{player} has a drawn card waiting: take it or decline it first", player=player)
            top = self._top(db, "library")
            if not top:
                raise TableError("the Hell library is empty: the rules forbid drawing from it")
            answer = self.verdict(top[0], colors)
            self._act(db, player, "draw", {"position": top[0], "name": answer["name"], "verdict": answer["verdict"]},
                      top)
            self._move(db, top[0], "pending" if answer["verdict"] == Take.CHOICE else "hand", "bottom", player)
        return answer

    def _pending(self, db: sqlite3.Connection, player: str) -> int:
        self._colors(db, player)
        row = db.execute("SELECT position FROM cards WHERE zone = 'pending' AND player = ?", (player,)).fetchone()
        if row is None:
            raise TableError("{player} has no drawn card waiting for take or decline", player=player)
        return int(row["position"])

    def take(self, player: str) -> dict[str, Any]:
        with self.transaction() as db:
            position = self._pending(db, player)
            self._act(db, player, "take", {"position": position, "name": self.cards[position].name}, [position])
            self._move(db, position, "hand", "bottom", player)
        return self.describe(position)

    def decline(self, player: str) -> dict[str, Any]:
        """The drawn card goes on top of the shared sideboard."""
        with self.transaction() as db:
            position = self._pending(db, player)
            self._act(db, player, "decline", {"position": position, "name": self.cards[position].name}, [position])
            self._move(db, position, "sideboard", "top")
        return self.describe(position)

    def _opening(self, db: sqlite3.Connection, player: str, game: int | None = None) -> tuple[str | None, list[int]]:
        """A player's opening hand this game (`game`, when the caller read it): None, 'dealt' or 'kept', and the
        Hell cards last dealt."""
        row = _latest_opening(db, self._game(db) if game is None else game, player)
        if row is None:
            return None, []
        if row["action"] == "keep":
            return "kept", []
        return "dealt", [int(p) for p in load_json(row["detail"])["dealt"]]

    def _deal(self, db: sqlite3.Connection, returned: tuple[int, ...] = ()) -> list[int]:
        """The Hell cards of an opening hand, from the top; from a library this short, the `returned` cards (a
        mulligan's, going to the bottom) come straight back."""
        positions = (self._top(db, "library", OPENING_HAND) + list(returned))[:OPENING_HAND]
        if len(positions) < OPENING_HAND:
            raise TableError("the Hell library has fewer than 2 cards left for an opening hand")
        return positions

    def opening_hand(self, player: str) -> list[dict[str, Any]]:
        """The 2 Hell cards of a player's opening hand, from the top: once a game (a mulligan deals anew)."""
        with self.transaction() as db:
            self._colors(db, player)
            phase, _ = self._opening(db, player)
            if phase is not None:
                raise TableError("{player} has an opening hand this game; a mulligan deals a new one", player=player)
            positions = self._deal(db)
            self._act(db, player, "opening hand", {"dealt": positions, "count": len(positions)}, positions)
            for position in positions:
                self._move(db, position, "hand", "bottom", player)
        return [self.describe(p) for p in positions]

    def mulligan(self, player: str) -> dict[str, Any]:
        """A London mulligan: the Hell cards of the player's opening hand go to the bottom of the Hell library in
        the order they were dealt, not shuffled, and two new ones are dealt from the top."""
        with self.transaction() as db:
            dealt = self._deciding(db, player)
            held = set(self._held(db, player))
            returned = [p for p in dealt if p in held]
            new = self._deal(db, tuple(returned))
            self._act(db, player, "mulligan", {"returned": returned, "dealt": new, "count": len(new)},
                      list(dict.fromkeys(returned + new)))
            for position in returned:
                self._move(db, position, "library", "bottom")
            for position in new:
                self._move(db, position, "hand", "bottom", player)
        return {"to_bottom": returned, "cards": [self.describe(p) for p in new]}

    def _deciding(self, db: sqlite3.Connection, player: str) -> list[int]:
        """The Hell cards dealt in the player's opening hand, while they still mulligan or keep it."""
        self._colors(db, player)
        phase, dealt = self._opening(db, player)
        if phase is None:
            raise TableError("{player} has no opening hand yet: draw it first", player=player)
        if phase == "kept":
            raise TableError("{player} kept their opening hand this game", player=player)
        return dealt

    def keep(self, player: str, bottom: list[int]) -> list[int]:
        """The end of the mulligans: the Hell cards the player ticked (none, some or all) go to the bottom of the
        Hell library in the order ticked; the rest stay in hand. Nothing is chosen for the player."""
        with self.transaction() as db:
            self._deciding(db, player)
            chosen = list(dict.fromkeys(bottom))
            held = set(self._held(db, player))
            if any(p not in held for p in chosen):
                raise TableError("{player} does not hold every card named", status=400, player=player)
            self._act(db, player, "keep", {"bottom": chosen, "count": len(chosen)}, chosen)
            for position in chosen:
                self._move(db, position, "library", "bottom")
        return chosen

    def play(self, player: str, position: int) -> dict[str, Any]:
        """A Hell card from the player's hand played (battlefield, graveyard…): open to everyone now, and back
        to the Hell library at the end of the game."""
        with self.transaction() as db:
            self._colors(db, player)
            if position not in self._held(db, player):
                raise TableError("{player} holds no such card", status=404, player=player)
            self._act(db, player, "play", {"position": position, "name": self.cards[position].name}, [position])
            self._move(db, position, "out", "bottom", player)
        return self.describe(position)

    def play_sideboard_top(self, player: str) -> dict[str, Any]:
        """Anyone may play the sideboard's top card as if it were in their hand: it is played, open to all."""
        with self.transaction() as db:
            self._colors(db, player)
            top = self._top(db, "sideboard")
            if not top:
                raise TableError("the sideboard is empty")
            name = self._name(db, top[0])
            self._act(db, player, "play from sideboard", {"position": top[0], "name": name}, top)
            self._move(db, top[0], "out", "bottom", player)
        return self.describe(top[0], name)

    def _name(self, db: sqlite3.Connection, position: int) -> str:
        card = self.cards.get(position)
        if card is not None:
            return card.name
        row = db.execute("SELECT name FROM cards WHERE position = ?", (position,)).fetchone()
        return str(row["name"]) if row and row["name"] else "?"

    def own_card_to_sideboard(self, player: str, name: str) -> dict[str, Any]:
        """A card of a player's own deck leaves the game: by the rules it goes on top of the sideboard too, where
        anyone may play it. It is known by its name and stays its player's."""
        with self.transaction() as db:
            self._colors(db, player)
            last = db.execute("SELECT MAX(position) AS p FROM cards WHERE position >= ?", (OWN_CARDS,)).fetchone()["p"]
            position = (last or OWN_CARDS) + 1
            self._act(db, player, "own card to sideboard", {"position": position, "name": name}, [], (position,))
            db.execute("INSERT INTO cards (position, zone, ord, player, owner, name) VALUES (?, 'out', 0, ?, ?, ?)",
                       (position, player, player, name))
            self._move(db, position, "sideboard", "top")
        return {**self.describe(position, name), "owner": player}

    def to_hell_library(self, player: str | None, position: int, end: str) -> dict[str, Any]:
        """An ownerless Hell card on the sideboard put into "its owner's library": the Hell library (top or
        bottom, as the effect says)."""
        with self.transaction() as db:
            row = db.execute("SELECT zone, owner FROM cards WHERE position = ?", (position,)).fetchone()
            if row is None or position >= OWN_CARDS:
                raise TableError("no Hell card at position {position}", status=404, position=position)
            if row["zone"] != "sideboard":
                raise TableError("{card} is not on the sideboard", card=self._name(db, position))
            if row["owner"] is not None:
                raise TableError("{owner} owns {card}: its owner's library is theirs", owner=row["owner"],
                                 card=self.cards[position].name)
            self._act(db, player, "to the Hell library", {"position": position, "name": self.cards[position].name,
                                                          "end": end}, [position])
            self._move(db, position, "library", end)
        return self.describe(position)

    def to_sideboard(self, player: str | None, position: int) -> dict[str, Any]:
        """A card leaving the game (exile, ante…) goes on top of the sideboard: a played card by anyone's effect,
        a card in hand by its holder."""
        with self.transaction() as db:
            row = db.execute("SELECT zone, player FROM cards WHERE position = ?", (position,)).fetchone()
            mine = row is not None and row["zone"] == "hand" and row["player"] == player
            if row is not None and row["zone"] == "sideboard":  # open to all: this may be said
                raise TableError("{card} is not in play", status=409, card=self._name(db, position))
            if row is None or not (mine or row["zone"] == "out"):
                # the library, another's hand or waiting card: one answer for all, so that no probe tells which
                # library positions other players hold
                raise TableError("no card at library position {position}", status=404, position=position)
            name = self._name(db, position)
            self._act(db, player, "to sideboard", {"position": position, "name": name}, [position])
            self._move(db, position, "sideboard", "top")
        return self.describe(position, name)

    def end_game(self, player: str | None, confirmed: int | None = None) -> dict[str, Any]:
        """The Hell cards outside the libraries and the sideboard go to the bottom of the Hell library in random
        order, seeded by the session's secret and the game; players' own cards go home; the next game begins,
        with ownership afresh (an ownerless card on the sideboard may be put into the Hell library again).
        `confirmed`: the game the asker saw when they confirmed; if it has already ended (another phone or the
        board ended it first), nothing moves: two players confirming at once end one game, not two."""
        with self.transaction() as db:
            game = self._game(db)
            if confirmed is not None and confirmed != game:
                raise TableError("game {confirmed} has already ended; this is game {game}", status=409,
                                 confirmed=confirmed, game=game)
            out = [int(r["position"]) for r in db.execute(
                "SELECT position FROM cards WHERE zone IN ('hand', 'out', 'pending') ORDER BY ord")]
            home = [p for p in out if p >= OWN_CARDS]  # players' own cards in play go back to their decks
            owned = [int(r["position"]) for r in db.execute(
                "SELECT position FROM cards WHERE zone IN ('library', 'sideboard') AND owner IS NOT NULL "
                "AND position < ?", (OWN_CARDS,))]
            order = sorted(p for p in out if p < OWN_CARDS)
            random.Random(f"hhd-table:{self._secret(db)}:{game}").shuffle(order)
            # the log says how many, never which: the order at the bottom is the library's secret
            self._act(db, player, "end of game", {"game": game, "count": len(order)},
                      list(dict.fromkeys(order + home + owned)))
            for position in order:
                self._move(db, position, "library", "bottom")
            db.executemany("DELETE FROM cards WHERE position = ?", [(p,) for p in home])
            db.execute("UPDATE cards SET owner = NULL WHERE position < ?", (OWN_CARDS,))
            self._set_game(db, game + 1)
        return {"game": game + 1, "count": len(order)}

    def undo(self, player: str | None, anyone: bool = False) -> dict[str, Any]:
        """Take back the asking player's own last action, even when others acted since, unless later actions
        moved the same cards (those are named, and the undo refused). With `anyone` (confirmed), or for the
        host, the table's last action whoever took it."""
        with self.transaction() as db:
            if player is not None and not anyone:
                entry = _last_entry(db, player)
                if entry is None:
                    last = _last_entry(db)
                    if last is None:
                        raise TableError("nothing to undo")
                    if last["player"] is None:
                        raise NeedsConfirmation("you have no action to undo; the last action is the host's "
                                                "({action})", action=last["action"])
                    raise NeedsConfirmation("you have no action to undo; the last action is {player}'s ({action})",
                                            player=last["player"], action=last["action"])
            else:
                entry = _last_entry(db)
                if entry is None:
                    raise TableError("nothing to undo")
                if player is None and not anyone and entry["player"] is not None:  # the host, a player's action
                    raise NeedsConfirmation("the last action is {player}'s ({action})", player=entry["player"],
                                            action=entry["action"])
            self._refuse_dependents(db, entry)
            inverse = load_json(entry["undo"])
            # the moved cards' rows as they were (a session from before this kept every row, with fewer columns)
            for row in inverse["cards"]:
                names = ", ".join(COLUMNS[:len(row)])
                db.execute(f"INSERT OR REPLACE INTO cards ({names}) VALUES ({', '.join('?' * len(row))})", row)
            db.executemany("DELETE FROM cards WHERE position = ?", [(p,) for p in inverse.get("created", [])])
            self._set_game(db, int(inverse["game"]))  # older records keep it as text
            db.execute("DELETE FROM log WHERE id = ?", (entry["id"],))
            self._changed(db)
        shown = _public(dict(entry), player)
        return {"undone": entry["action"], "player": entry["player"], "detail": shown["detail"]}

    @staticmethod
    def _refuse_dependents(db: sqlite3.Connection, entry: sqlite3.Row) -> None:
        """Later actions that moved any card this one moved (or began a later game) depend on it."""
        def moved(row: sqlite3.Row) -> set[int]:
            inverse = load_json(row["undo"])
            return {int(r[0]) for r in inverse["cards"]} | {int(p) for p in inverse.get("created", [])}

        mine = moved(entry)
        later = db.execute("SELECT * FROM log WHERE id > ? ORDER BY id", (entry["id"],)).fetchall()
        blocking = [r for r in later if moved(r) & mine or r["action"] == "end of game"
                    or entry["action"] == "end of game"]
        if blocking:
            raise Depends(entry["action"], [(r["player"], r["action"]) for r in blocking[:3]])


def _public(entry: dict[str, Any], viewer: str | None, shown_details: dict[int, dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    """A log entry as `viewer` may read it: names and counts only; another player's draws, hands and mulligans
    without their cards. `shown_details` keeps each entry's shown detail by id (an entry never changes, and its
    id is never used again: AUTOINCREMENT), so a state read parses no log entry twice."""
    shown = shown_details.get(entry["id"]) if shown_details is not None else None
    if shown is None:
        detail = load_json(entry["detail"]) if isinstance(entry["detail"], str) else entry["detail"]
        shown = {k: v for k, v in detail.items() if k in SHOWN_DETAIL}
        if shown_details is not None:
            shown_details[entry["id"]] = shown
    if entry["action"] in PRIVATE_ACTIONS and entry["player"] != viewer:
        shown = {k: v for k, v in shown.items() if k == "count"}
    return {"id": entry["id"], "game": entry["game"], "player": entry["player"], "action": entry["action"],
            "detail": shown}


def _last_entry(db: sqlite3.Connection, player: str | None = None) -> sqlite3.Row | None:
    """The table's last log entry, or a player's last."""
    if player is None:
        row: sqlite3.Row | None = db.execute("SELECT * FROM log ORDER BY id DESC LIMIT 1").fetchone()
    else:
        row = db.execute("SELECT * FROM log WHERE player = ? ORDER BY id DESC LIMIT 1", (player,)).fetchone()
    return row


def _latest_opening(db: sqlite3.Connection, game: int, player: str) -> sqlite3.Row | None:
    """The newest of a player's opening-hand actions this game (opening hand, mulligan, keep), which says where
    their opening hand stands (an undone action is deleted from the log). Read backwards through the log's
    (game, player) index: its cost does not grow with the evening's length."""
    row: sqlite3.Row | None = db.execute(
        "SELECT action, detail FROM log WHERE game = ? AND player = ? AND action IN ('opening hand', 'mulligan', "
        "'keep') ORDER BY id DESC LIMIT 1", (game, player)).fetchone()
    return row
