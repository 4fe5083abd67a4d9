"""One Hell library session kept in SQLite: the library's order, the shared sideboard, the cards players
took, the log, and undo. Every action is one transaction (BEGIN IMMEDIATE), so two phones acting at the same
instant are served one after the other and no card is drawn twice or lost.

Zones: `library` (ord ascending: the top first), `sideboard` (ord ascending: the top first), `out` (taken
by a player: hand, battlefield, graveyard — anywhere but the library and the sideboard), `pending` (drawn,
a choice card waiting for take or decline).
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhdcli.cards import Card, card_text
from hhdcli.jsonio import load_json
from hhdcli.mana import SymbolTable, Take, judge
from hhdcli.rulings import rulings_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cards (position INTEGER PRIMARY KEY, zone TEXT NOT NULL, ord INTEGER NOT NULL,
                                  player TEXT, owner TEXT, name TEXT);
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, colors TEXT NOT NULL, token TEXT);
CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY AUTOINCREMENT, game INTEGER NOT NULL, player TEXT,
                                action TEXT NOT NULL, detail TEXT NOT NULL, undo TEXT NOT NULL);
"""
OPENING_HAND = 2
# Cards of the players' own decks that left the game (by name, onto the sideboard) are numbered from here, above
# every library position; `name` holds their name, Hell cards have none (their card data says it).
OWN_CARDS = 1_000_000
COLUMNS = ("position", "zone", "ord", "player", "owner", "name")


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

    # --- storage ---------------------------------------------------------------------------------

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        db = self.connect()
        try:
            db.execute("BEGIN IMMEDIATE")  # one writer at a time: actions never interleave
            yield db
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    def start(self, players: dict[str, tuple[str, ...]]) -> bool:
        """Create the session (library in file order, empty sideboard) unless the file holds this library's
        session already; players are added or updated either way. True when an old session was resumed."""
        self._check_file()
        try:
            return self._start(players)
        except sqlite3.DatabaseError as exc:
            raise TableError(f"{self.path} is damaged ({exc})", status=400) from exc

    def _check_file(self) -> None:
        """An existing state file must be an SQLite database: an empty or foreign file is not a session."""
        try:
            with self.path.open("rb") as handle:
                header = handle.read(16)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise TableError(f"cannot read {self.path}: {exc.strerror}", status=400) from exc
        if header != b"SQLite format 3\x00":
            raise TableError(f"{self.path} is not an hhd table session ({'empty' if not header else 'not SQLite'})",
                             status=400)

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
                raise TableError(f"{self.path} holds the session of library {found['value']!r}, not {self.seed!r}",
                                 status=400)
            drawn_from = db.execute("SELECT value FROM meta WHERE key = 'library'").fetchone()
            if drawn_from is not None and self.library_hash and drawn_from["value"] != self.library_hash:
                raise TableError(f"{self.path} holds the session of another library with the seed {self.seed!r} "
                                 "(drawn again with other options or card data)", status=400)
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
            secret_row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            self._name_faces(secret_row["value"] if secret_row else self.seed)
            for name, colors in players.items():
                db.execute("INSERT INTO players (name, colors) VALUES (?, ?) "
                           "ON CONFLICT(name) DO UPDATE SET colors = excluded.colors", (name, "".join(colors)))
        return resumed

    def _name_faces(self, secret: str) -> None:
        """Each card's face is served under an id made from the session's secret, not its library position:
        an address says nothing of the card behind it."""
        import hashlib
        import hmac

        self._faces = {hmac.new(secret.encode(), f"face:{p}".encode(), hashlib.sha256).hexdigest()[:20]: p
                       for p in self.cards}
        self._face_of = {p: face for face, p in self._faces.items()}

    def face_position(self, face: str) -> int | None:
        return self._faces.get(face)

    def join_code(self, make: Callable[[], str], new: bool = False) -> str:
        """The session's join code, kept in the state file; a new one when there is none or `new` asks."""
        with self.transaction() as db:
            found = db.execute("SELECT value FROM meta WHERE key = 'code'").fetchone()
            if found is not None and not new:
                return str(found["value"])
            code = make()
            db.execute("INSERT INTO meta VALUES ('code', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (code,))
            return code

    # --- reading ---------------------------------------------------------------------------------------

    # --- who is asking -------------------------------------------------------------------------------

    def join(self, player: str) -> str:
        """The player's own token (made the first time, kept in the state file: it survives restarts). Once a
        player has one, only requests carrying it act for them or see their Hell cards."""
        with self.transaction() as db:
            self._colors(db, player)
            token = db.execute("SELECT token FROM players WHERE name = ?", (player,)).fetchone()["token"]
            if token is None:
                token = secrets.token_urlsafe(18)
                db.execute("UPDATE players SET token = ? WHERE name = ?", (token, player))
            return str(token)

    def _one(self, sql: str, *args: object) -> sqlite3.Row | None:
        """One row of a read outside any action."""
        db = self.connect()
        try:
            return db.execute(sql, args).fetchone()
        finally:
            db.close()

    def viewer(self, token: str | None) -> str | None:
        """The player a token belongs to, or None."""
        row = self._one("SELECT name FROM players WHERE token = ?", token) if token else None
        return str(row["name"]) if row else None

    def may_act(self, player: str, viewer: str | None) -> bool:
        """A player who joined with a token acts only through it; one who never joined (a script) freely."""
        row = self._one("SELECT token FROM players WHERE name = ?", player)
        return row is None or row["token"] is None or viewer == player

    def may_see(self, position: int, viewer: str | None) -> bool:
        """A card's face: the open sideboard's for everyone, a player's Hell cards for that player alone."""
        row = self._one("SELECT zone, player FROM cards WHERE position = ?", position)
        return row is not None and (row["zone"] == "sideboard" or (viewer is not None and row["player"] == viewer))

    def state(self, log_size: int = 30, viewer: str | None = None) -> dict[str, Any]:
        """What `viewer` may see: their own Hell cards and waiting card, the others' counts, the open
        sideboard, the library count and the log with the others' private cards left out."""
        db = self.connect()
        try:
            db.execute("BEGIN")  # every read below sees the same moment, whatever the phones do meanwhile
            rows = db.execute("SELECT * FROM cards ORDER BY ord").fetchall()
            players = db.execute("SELECT * FROM players ORDER BY name").fetchall()
            meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('game', 'version')").fetchall())
            log = self._log_page(db, None, log_size)
            db.execute("COMMIT")
        finally:
            db.close()
        by_zone: dict[str, list[sqlite3.Row]] = {}
        for row in rows:
            by_zone.setdefault(row["zone"], []).append(row)
        return {
            "seed": self.seed, "game": int(meta["game"]), "version": int(meta.get("version", 0)),
            "library_count": len(by_zone.get("library", [])),
            "sideboard": [self._shown(r) for r in by_zone.get("sideboard", [])],
            "players": [self._player(p, rows, viewer) for p in players],
            "log": [_public(dict(entry), viewer) for entry in log["entries"]], "log_more": log["more"],
        }

    def log(self, before: int | None, size: int, viewer: str | None) -> dict[str, Any]:
        """A page of the log, newest first, of the entries older than `before` (a log id)."""
        db = self.connect()
        try:
            page = self._log_page(db, before, size)
        finally:
            db.close()
        return {"log": [_public(dict(entry), viewer) for entry in page["entries"]], "log_more": page["more"]}

    @staticmethod
    def _log_page(db: sqlite3.Connection, before: int | None, size: int) -> dict[str, Any]:
        """Up to `size` entries older than `before` and whether there are more: an index range, whatever the
        log's length."""
        entries = db.execute("SELECT id, game, player, action, detail FROM log WHERE id < ? ORDER BY id DESC "
                             "LIMIT ?", (before if before is not None else 2**62, size + 1)).fetchall()
        return {"entries": entries[:size], "more": len(entries) > size}

    def _player(self, player: sqlite3.Row, rows: list[sqlite3.Row], viewer: str | None) -> dict[str, Any]:
        mine = [r for r in rows if r["player"] == player["name"]]
        pending = next((r["position"] for r in mine if r["zone"] == "pending"), None)
        held = [r for r in mine if r["zone"] == "out"]
        seen = {"name": player["name"], "colors": player["colors"], "card_count": len(held),
                "waiting": pending is not None, "joined": player["token"] is not None}
        if viewer != player["name"] and player["token"] is not None:  # another's hand is private
            return {**seen, "cards": [], "pending": None}
        return {**seen, "cards": [self._shown(r) for r in held],
                "pending": self.verdict(pending, player["colors"]) if pending is not None else None}

    def _shown(self, row: sqlite3.Row) -> dict[str, Any]:
        """A visible card with its owner (None: nobody has moved it out of Hell; its owner's library is the
        Hell library, its owner's other zones the sideboard)."""
        return {**self.describe(row["position"], row["name"]), "owner": row["owner"]}

    def describe(self, position: int, name: str | None = None) -> dict[str, Any]:
        """A card as the page shows it: a Hell card with its image, text and rulings; a player's own card
        (which left the game onto the sideboard) by its name alone."""
        card = self.cards.get(position)
        if card is None:
            return {"position": position, "name": name or "?", "hell": False, "cost": "", "type_line": "",
                    "image": None, "face": None, "text": "", "hell_rulings": []}
        images = card.print_images
        return {"position": position, "name": card.name, "hell": True, "cost": card.mana_cost,
                "type_line": card.type_line, "image": images[0] if images else None,
                "face": f"/cards/{self._face_of[position]}.png",
                "text": card_text(card), "hell_rulings": rulings_json(card)}

    def verdict(self, position: int, colors: str) -> dict[str, Any]:
        result = judge(self.cards[position], colors, self.table)
        reminder = {Take.LAND: "a land: into your hand; in your draw step you may play it at once",
                    Take.TAKE: "take it; in your draw step you may cast it for {2} less",
                    Take.CHOICE: "take it, or decline: it goes on top of the sideboard"}[result.verdict]
        return {**self.describe(position), "verdict": result.verdict, "missing": list(result.missing),
                "reminder": reminder}

    # --- actions -------------------------------------------------------------------------------------

    def _act(self, db: sqlite3.Connection, player: str | None, action: str, detail: dict[str, Any],
             moving: list[int], created: tuple[int, ...] = ()) -> None:
        """Log an action with its inverse: the rows of the cards it moves as they were, the cards it creates
        (to delete) and the game number: a few dozen bytes, not the whole table."""
        marks = ", ".join("?" * len(moving))
        before = db.execute(f"SELECT {', '.join(COLUMNS)} FROM cards WHERE position IN ({marks})", moving).fetchall()
        game = db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()["value"]
        inverse = {"cards": [tuple(r) for r in before], "created": list(created), "game": game}
        db.execute("INSERT INTO log (game, player, action, detail, undo) VALUES (?, ?, ?, ?, ?)",
                   (int(game), player, action, json.dumps(detail, ensure_ascii=False), json.dumps(inverse)))
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

    @staticmethod
    def _top(db: sqlite3.Connection, zone: str) -> int | None:
        row = db.execute("SELECT position FROM cards WHERE zone = ? ORDER BY ord LIMIT 1", (zone,)).fetchone()
        return None if row is None else int(row["position"])

    @staticmethod
    def _move(db: sqlite3.Connection, position: int, zone: str, end: str, player: str | None = None) -> None:
        """Put a card on the `top` or `bottom` of a zone (for `out`, order does not matter)."""
        edge = db.execute(f"SELECT {'MIN' if end == 'top' else 'MAX'}(ord) AS o FROM cards WHERE zone = ?",
                          (zone,)).fetchone()["o"]
        ord_ = 0 if edge is None else edge - 1 if end == "top" else edge + 1
        db.execute("UPDATE cards SET zone = ?, ord = ?, player = ? WHERE position = ?", (zone, ord_, player, position))
        if zone == "out" and player:  # the rules' owner: the first player to move it out of Hell and the sideboard
            db.execute("UPDATE cards SET owner = COALESCE(owner, ?) WHERE position = ?", (player, position))

    def draw(self, player: str) -> dict[str, Any]:
        """The top card for a player: a land or a take goes to them; a choice waits for take or decline."""
        with self.transaction() as db:
            colors = self._colors(db, player)
            if db.execute("SELECT 1 FROM cards WHERE zone = 'pending' AND player = ?", (player,)).fetchone():
                raise TableError("{player} has a drawn card waiting: take it or decline it first", player=player)
            position = self._top(db, "library")
            if position is None:
                raise TableError("the Hell library is empty: the rules forbid drawing from it")
            answer = self.verdict(position, colors)
            self._act(db, player, "draw", {"position": position, "name": answer["name"], "verdict": answer["verdict"]},
                      [position])
            zone = "pending" if answer["verdict"] == Take.CHOICE else "out"
            self._move(db, position, zone, "bottom", player)
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
            self._move(db, position, "out", "bottom", player)
        return self.describe(position)

    def decline(self, player: str) -> dict[str, Any]:
        """The drawn card goes on top of the shared sideboard."""
        with self.transaction() as db:
            position = self._pending(db, player)
            self._act(db, player, "decline", {"position": position, "name": self.cards[position].name}, [position])
            self._move(db, position, "sideboard", "top")
        return self.describe(position)

    def opening_hand(self, player: str) -> list[dict[str, Any]]:
        """The 2 Hell cards of a player's opening hand, from the top."""
        with self.transaction() as db:
            self._colors(db, player)
            game = db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()["value"]
            dealt = {r["action"]: r["n"] for r in db.execute(
                "SELECT action, COUNT(*) AS n FROM log WHERE game = ? AND player = ? GROUP BY action", (game, player))}
            if dealt.get("opening hand", 0) > dealt.get("mulligan", 0):  # once a game, and again after a mulligan
                raise TableError("{player} has an opening hand this game; a mulligan deals a new one", player=player)
            positions = [int(r["position"]) for r in db.execute(
                "SELECT position FROM cards WHERE zone = 'library' ORDER BY ord LIMIT ?", (OPENING_HAND,))]
            if len(positions) < OPENING_HAND:
                raise TableError("the Hell library has fewer than 2 cards left for an opening hand")
            self._act(db, player, "opening hand", {"positions": positions}, positions)
            for position in positions:
                self._move(db, position, "out", "bottom", player)
        return [self.describe(p) for p in positions]

    def mulligan(self, player: str, positions: list[int] | None = None) -> list[int]:
        """A mulligan: the player's Hell cards (or those named) go to the bottom of the Hell library, in the
        order they were drawn, not shuffled."""
        with self.transaction() as db:
            self._colors(db, player)
            held = [int(r["position"]) for r in db.execute(  # Hell cards only: a deck's own card is no Hell card
                "SELECT position FROM cards WHERE zone = 'out' AND player = ? AND position < ? ORDER BY ord",
                (player, OWN_CARDS))]
            chosen = held if positions is None else [p for p in positions if p in held]
            if positions is not None and len(chosen) != len(positions):
                raise TableError("{player} does not hold every card named", status=400, player=player)
            self._act(db, player, "mulligan", {"positions": chosen}, chosen)
            for position in chosen:
                self._move(db, position, "library", "bottom")
        return chosen

    def play_sideboard_top(self, player: str) -> dict[str, Any]:
        with self.transaction() as db:
            self._colors(db, player)
            position = self._top(db, "sideboard")
            if position is None:
                raise TableError("the sideboard is empty")
            name = self._name(db, position)
            self._act(db, player, "play from sideboard", {"position": position, "name": name}, [position])
            self._move(db, position, "out", "bottom", player)
        return self.describe(position, name)

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

    def to_hell_library(self, position: int, end: str) -> dict[str, Any]:
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
            self._act(db, None, "to the Hell library", {"position": position, "name": self.cards[position].name,
                                                        "end": end}, [position])
            self._move(db, position, "library", end)
        return self.describe(position)

    def to_sideboard(self, position: int) -> dict[str, Any]:
        """A card leaving the game (exile, ante…) goes on top of the sideboard."""
        with self.transaction() as db:
            row = db.execute("SELECT zone FROM cards WHERE position = ?", (position,)).fetchone()
            if row is None:
                raise TableError("no card at library position {position}", status=404, position=position)
            if row["zone"] != "out":
                raise TableError("{card} is not in play", status=409, card=self._name(db, position))
            name = self._name(db, position)
            self._act(db, None, "to sideboard", {"position": position, "name": name}, [position])
            self._move(db, position, "sideboard", "top")
        return self.describe(position, name)

    def end_game(self, returned: list[int] | None = None) -> dict[str, Any]:
        """The Hell cards outside the library and the sideboard (or those named) go to the bottom of the Hell
        library in random order, seeded by the session's secret and the game, and logged; the next game begins."""
        with self.transaction() as db:
            game = int(db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()["value"])
            # a card waiting for take or decline is outside the library too: it goes back with the rest
            out = [int(r["position"]) for r in db.execute(
                "SELECT position FROM cards WHERE zone IN ('out', 'pending') ORDER BY ord")]
            chosen = out if returned is None else list(dict.fromkeys(returned))
            strays = [p for p in chosen if p not in out]
            if strays:
                raise TableError("cards {positions} are not outside the library and the sideboard", status=400,
                                 positions=", ".join(map(str, strays)))
            # players' own cards in play go back to their decks; only Hell cards go to the Hell library
            home = [p for p in out if p >= OWN_CARDS]
            order = sorted(p for p in chosen if p < OWN_CARDS)
            secret = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            random.Random(f"hhd-table:{secret['value'] if secret else self.seed}:{game}").shuffle(order)
            self._act(db, None, "end of game", {"game": game, "to_bottom": order}, order + home)
            for position in order:
                self._move(db, position, "library", "bottom")
            db.executemany("DELETE FROM cards WHERE position = ?", [(p,) for p in home])
            db.execute("UPDATE meta SET value = ? WHERE key = 'game'", (str(game + 1),))
        return {"game": game + 1, "to_bottom": order}

    def undo(self, player: str | None = None, anyone: bool = False) -> dict[str, Any]:
        """Take back the last action: every card back where it was, the game number too. A player undoes their
        own last action; another player's only when `anyone` confirms it."""
        with self.transaction() as db:
            last = db.execute("SELECT * FROM log ORDER BY id DESC LIMIT 1").fetchone()
            if last is None:
                raise TableError("nothing to undo")
            if player is not None and last["player"] not in (None, player) and not anyone:
                raise NeedsConfirmation("the last action is {player}'s ({action})", player=last["player"],
                                        action=last["action"])
            inverse = load_json(last["undo"])
            # the moved cards' rows as they were (a session from before this kept every row, with fewer columns)
            for row in inverse["cards"]:
                names = ", ".join(COLUMNS[:len(row)])
                db.execute(f"INSERT OR REPLACE INTO cards ({names}) VALUES ({', '.join('?' * len(row))})", row)
            db.executemany("DELETE FROM cards WHERE position = ?", [(p,) for p in inverse.get("created", [])])
            db.execute("UPDATE meta SET value = ? WHERE key = 'game'", (inverse["game"],))
            db.execute("DELETE FROM log WHERE id = ?", (last["id"],))
            self._changed(db)
        return {"undone": last["action"], "detail": load_json(last["detail"])}


PRIVATE_ACTIONS = ("draw", "take", "opening hand", "mulligan")  # what a player drew or holds is theirs to see


def _public(entry: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A log entry as `viewer` may read it: another player's draws and hands without the cards."""
    if entry["action"] in PRIVATE_ACTIONS and entry["player"] not in (None, viewer):
        return {**entry, "detail": "{}"}
    return entry
