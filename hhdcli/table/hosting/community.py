"""`hhd serve`: many Hell tables on one server, for a community. Anyone opens a table on the front page; each
table is a folder of its own (its library file and its session's SQLite file) that no page lists. The folder's
name is the table's id, its join code's SHA-256: the table is served at `/t/<id>/` (hhdcli/table/hosting/front.py), an
address that grants nothing (a proxy may log it), and each request must carry the code itself (a cookie, or
Authorization: hhdcli/table/web/routes.py), checked against the code its state file keeps. A short code (8 letters, 40 bits) can be typed by hand on the front page; it is
rate-limited per address (hhdcli/table/hosting/throttle.py) and names a file holding the table's full code.

A table is read from its folder when a page first asks for it (a restart resumes every table where it was) and
leaves memory when no page asked for a while; it is deleted after `expire` seconds without an action. A table
whose files are damaged is refused alone: one line in the log, and a page saying so to its players."""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import HhdError
from hhdcli.table.game.decks import MAX_DECK_TEXT  # a pasted deck list's characters, as a phone's /api/deck
from hhdcli.table.game.errors import TableError

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.decklists import Deck
    from hhdcli.table.game.changes import Changes
    from hhdcli.table.game.decks import PlayerDeck
    from hhdcli.table.hosting.backups import Tables
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.throttle import Throttle
    from hhdcli.table.web.context import Served
    from hhdcli.table.web.images import Faces

SHORT_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # 32 letters, none mistaken for another (no I, O, 0, 1)
SHORT_LENGTH = 8  # 40 bits
MAX_SEATS = 8
MAX_DECK_LINES = 1_000  # its lines (a 250-card cube with a sideboard is a few hundred)
MAX_TABLES = 1000  # tables a server keeps at once (hhd serve --max-tables)
MAX_MEGABYTES = 2000  # and the megabytes of their folders (--max-megabytes): some 60 KB a table, up to 2 MB
# Seconds without a request and without a page listening: the table leaves memory (its folder stays, its
# write-ahead log folded into its file). A loaded table costs about 1 MB; loading it again at its next request
# about 50 ms of the server's time (its library, session and app): after 20 minutes, as it was, a server of
# tables whose pages come and go kept hundreds of megabytes of tables nobody looked at
UNLOAD_AFTER = 120.0
UNLOAD_EVERY = 30.0  # seconds between two looks for tables to unload
EXPIRE_DAYS = 14


class Refused(Exception):
    """What the opener sent cannot make a table: said on the front page in the opener's language (the page's
    catalog), with what to do, and the HTTP status that says so."""

    status = 400

    def __init__(self, template: str, hint: str = "", **values: object) -> None:
        super().__init__(template.format(**values))
        self.template, self.hint, self.values = template, hint, values

    def said(self, gettext: Callable[[str], str] = str) -> str:
        text = gettext(self.template).format(**self.values)
        return f"{text} ({gettext(self.hint)})" if self.hint else text


class Full(Refused):
    """The server keeps as many tables (or megabytes) as it was told: no new one until some expire. The open
    tables go on."""

    status = 507


def starting_life(typed: str) -> int | None:
    """The starting life the opener typed (None when left empty: the table's 20)."""
    from hhdcli.table.game.rules import starting_life as checked

    typed = typed.strip()
    if not typed:
        return None
    try:
        return checked(int(typed) if typed.isdecimal() else typed)
    except TableError as exc:
        raise Refused(exc.template, "", **exc.values) from exc


@dataclass(frozen=True)
class Seat:
    """A player as the front page names them: their lands' colors (letters), or a pasted deck list."""

    name: str
    colors: str = ""
    deck: str = ""


@dataclass(frozen=True)
class Opened:
    code: str
    short: str
    host_secret: str


@dataclass
class Loaded:
    served: Served
    changes: Changes
    used: float = field(default_factory=time.monotonic)


def table_id(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


def table_path(key: str) -> str:
    """Where the table with this id is served (its cookies' path)."""
    return f"/t/{key}/"


def normal_short(typed: str) -> str | None:
    """A short code as typed (any case, with spaces or dashes), or None when it cannot be one."""
    letters = "".join(c for c in typed.upper() if c not in " -")
    if len(letters) != SHORT_LENGTH or any(c not in SHORT_LETTERS for c in letters):
        return None
    return letters


def shown_short(short: str) -> str:
    return f"{short[:4]}-{short[4:]}"


class Community:
    """The tables of one `hhd serve`, under `root`."""

    def __init__(self, root: Path, cache: CardCache, public: Public, throttle: Throttle,
                 changes: Callable[[], Changes], expire: float = EXPIRE_DAYS * 86400.0,
                 images: Path | None = None, faces: Faces | None = None, log: Callable[[str], None] | None = None,
                 read_link: Callable[[str], Deck] | None = None, max_tables: int = MAX_TABLES,
                 max_megabytes: float = MAX_MEGABYTES) -> None:
        from hhdcli.table.hosting.online import guarded
        from hhdcli.table.web.images import FACES
        from hhdcli.table.web.routes import tables_app

        self.max_tables, self.max_bytes = max_tables, int(max_megabytes * 2**20)
        self.root, self.cache, self.public, self.throttle = root, cache, public, throttle
        self.read_link = read_link  # a pasted deck link, as hhd check reads it (None: links are refused)
        self.changes, self.expire, self.images, self.faces = changes, expire, images, faces or FACES
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.tables, self.shorts = root / "tables", root / "short"
        self.tables.mkdir(parents=True, exist_ok=True)
        self.shorts.mkdir(parents=True, exist_ok=True)
        self.loaded: dict[str, Loaded] = {}
        self.app = guarded(tables_app(), public, throttle)  # one app for every table: its request says which
        self.damaged: dict[str, str] = {}  # table id: why (said once in the log)

    # --- opening a table ---------------------------------------------------------------------------

    def open(self, seats: list[Seat], seed: str, upload: bytes | None, life: str = "") -> Opened:
        """A new table: its library drawn from `seed` (or the uploaded library file, checked as hhd show
        checks it), its players seated, their starting life `life` as typed (empty: 20). Written in a folder of
        its own, named by its code once complete; refused (Full) when the server keeps all it may."""
        self._check_room()
        players = self._players(seats)
        starting = starting_life(life)
        work = self.tables / f".new-{secrets.token_hex(8)}"
        work.mkdir()
        try:
            library = work / "library.json"
            library.write_bytes(upload if upload is not None else self._drawn(seed))
            code, host = self._start(library, work / "state.sqlite", players, starting)
            short = self._short(code)
            (work / "short").write_text(short, encoding="ascii")
            os.replace(work, self.tables / table_id(code))
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        return Opened(code, short, host)

    def _check_room(self) -> None:
        """Room for one more table: fewer than `max_tables`, their folders under `max_megabytes` (a new table
        adds its library, some 30 KB, and its session)."""
        folders = list(self.tables.iterdir())
        tables, used = len(folders), sum(_bytes_of(folder) for folder in folders)
        if tables >= self.max_tables or used >= self.max_bytes:
            raise Full("This server holds as many tables as it may; a new one can be opened when idle ones "
                       "expire.", "try again later, or run a table of your own with hhd table")

    def _drawn(self, seed: str) -> bytes:
        from hhdcli.files import dump_json
        from hhdcli.library import Exclusions, build_pool, check_seed, default_size, generate, memorable_seed

        seed = seed.strip() or memorable_seed()
        try:
            check_seed(seed)
        except HhdError as exc:
            raise Refused("{reason}", reason=exc.message) from exc
        pool, _unknown = build_pool(self.cache.cards, Exclusions(), 50)
        return dump_json(generate(pool, default_size(len(pool.cards)), seed, self.cache.fingerprint).to_json())

    def _start(self, library: Path, state: Path, players: dict[str, tuple[str, ...]], life: int | None
               ) -> tuple[str, str]:
        from hhdcli.library import open_library
        from hhdcli.table.hosting.opening import new_join_code, open_session

        try:
            resolved = open_library(library, self.cache.cards, self.cache.meta.sha256)
        except HhdError as exc:  # said without this server's folders
            raise Refused("the library file is not one hhd generate wrote: {reason}",
                          reason=exc.message.replace(f"{library}: ", "").replace(str(library), "library.json")
                          ) from exc
        session, _resumed = open_session(resolved, self.cache, players, state, life)
        try:
            return session.join_code(new_join_code), session.host_secret()
        finally:  # its connection is this thread's (gevent's pool): closed now, not when the session is collected
            session.close()

    def _players(self, seats: list[Seat]) -> dict[str, tuple[str, ...]]:
        from hhdcli.table.game.names import seat_names

        players: dict[str, tuple[str, ...]] = {}
        seats = [seat for seat in seats[:MAX_SEATS] if seat.name.strip()]
        try:
            names = seat_names(seat.name for seat in seats)
        except TableError as exc:  # said in the opener's language, as every refusal of the front page
            raise Refused(exc.template, "", **exc.values) from exc
        for name, seat in zip(names, seats, strict=True):
            pasted = seat.deck.replace("\r\n", "\n")  # a browser sends a text area's lines with CRLF
            if len(pasted) > MAX_DECK_TEXT or pasted.count("\n") >= MAX_DECK_LINES:
                raise Refused("{name}: a deck list is at most {most} characters and {lines} lines",
                              "paste the deck's main deck and sideboard alone, or its link", name=name,
                              most=MAX_DECK_TEXT, lines=MAX_DECK_LINES)
            players[name] = self._colors(name, seat).colors
        if not players:
            raise Refused("name at least one player")
        return players

    def _colors(self, name: str, seat: Seat) -> PlayerDeck:
        """A seat's colors, from its pasted deck list or link (read as a phone's /api/deck reads it) or its
        letters; a refusal says whose seat."""
        from hhdcli.table.game import decks
        from hhdcli.table.web.offloop import parsed_apart

        try:
            if seat.deck.strip():
                deck = decks.read_deck(seat.deck, name, self.read_link, parsed_apart)  # a long list apart
                return decks.deck_of(deck, self.cache.cards, pasted=True)
            return decks.picked_colors(seat.colors)
        except decks.BadColors as exc:
            raise Refused("{name}: colors are the letters W U B R G P", "for example RG, or paste the deck list",
                          name=name) from exc
        except decks.NoLinks as exc:
            raise Refused("{name}: this server does not read deck links", "paste the deck list as text",
                          name=name) from exc
        except decks.LinkUnread as exc:
            raise Refused("{name}: the deck link could not be read: {reason}", name=name, reason=exc.reason) from exc
        except decks.NoCardFound as exc:
            raise Refused("{name}: no card found in the deck list", "paste the list itself, one card a line "
                          "(4 Forest), or its link", name=name) from exc
        except decks.EmptyDeck as exc:
            raise Refused("{name}: no cards read from the deck list", "paste it as text, one card a line (4 Forest)",
                          name=name) from exc

    def _short(self, code: str) -> str:
        from hhdcli.files import write_atomic

        while True:  # 40 bits among a few hundred tables: a second try is one in billions
            short = "".join(secrets.choice(SHORT_LETTERS) for _ in range(SHORT_LENGTH))
            path = self.shorts / short
            if not path.exists():
                write_atomic(path, code.encode("ascii"))
                return short

    # --- finding a table ---------------------------------------------------------------------------

    def code_for_short(self, typed: str) -> str | None:
        short = normal_short(typed)
        if short is None:
            return None
        try:
            return (self.shorts / short).read_text(encoding="ascii").strip()
        except (OSError, UnicodeError):
            return None

    def table_for(self, code: str) -> Served | str | None:
        """The table with this code (see table_for_id)."""
        return self.table_for_id(table_id(code))

    def table_for_id(self, key: str) -> Served | str | None:
        """The table (what `app` serves for it); the reason when its files are damaged; None when no table
        has this id."""
        if len(key) != 64 or key.strip("0123456789abcdef"):  # not a SHA-256 in hex: no folder to look for
            return None
        loaded = self.loaded.get(key)
        if loaded is not None:
            loaded.used = time.monotonic()
            return loaded.served
        if key in self.damaged:
            return self.damaged[key]
        folder = self.tables / key
        if not folder.is_dir():
            return None
        try:
            fresh = self._load(folder)
        except (HhdError, TableError, OSError, ValueError) as exc:
            why = exc.message if isinstance(exc, HhdError) else str(exc)
            self.damaged[key] = why
            self.log(f"hhd serve: table {key[:12]} refused: {why}".replace(str(folder), key[:12]))
            return why
        self.loaded[key] = fresh
        return fresh.served

    def _load(self, folder: Path) -> Loaded:
        from hhdcli.library import open_library
        from hhdcli.table.hosting.opening import open_session
        from hhdcli.table.web.context import Served

        found: list[str] = []

        def this_tables(meta: dict[str, str]) -> None:
            """The code the state file keeps is the one the folder is named by (its SHA-256): checked before the
            file is opened."""
            code = meta.get("code")
            if code is None or table_id(code) != folder.name:
                raise ValueError("its state file belongs to another table")
            found.append(code)

        state = folder / "state.sqlite"
        if not state.is_file():  # a table's folder holds its state from the moment it is named by its code
            raise ValueError(f"its state file is missing: {state}")
        resolved = open_library(folder / "library.json", self.cache.cards, self.cache.meta.sha256)
        session, _resumed = open_session(resolved, self.cache, {}, state, check=this_tables)
        if not found:  # no session's meta to check: not a table's state
            session.close()
            raise ValueError("its state file keeps no join code")
        session.read_link = self.read_link
        code = found[-1]
        self._relink_short(folder, code)
        changes = self.changes()
        join = self.public.join_url(code, table_path(folder.name))
        return Loaded(Served(session, code, session.host_secret(), changes, join_urls=[join] if join else [],
                             images=self.images, origin=self.public.origin, faces=self.faces, community=True), changes)

    def _relink_short(self, folder: Path, code: str) -> None:
        """A table put back from a backup after it expired finds its short code again (the code's file is deleted
        with the table)."""
        from hhdcli.files import write_atomic

        try:
            short = normal_short((folder / "short").read_text(encoding="ascii"))
            if short is not None and not (self.shorts / short).exists():
                write_atomic(self.shorts / short, code.encode("ascii"))
        except (OSError, UnicodeError):
            pass

    # --- forgetting tables -------------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> list[str]:
        """Tables idle past `expire` deleted (their ids returned); tables no page asked for in a while
        leave memory. A table with a page listening stays."""
        wall = now if now is not None else time.time()
        self.unload_idle()
        gone = []
        for folder in self.tables.iterdir():
            if wall - last_action(folder) <= self.expire:
                continue
            listened = self.loaded.get(folder.name)
            if listened is not None and listened.changes.streams:
                continue
            self._unload(folder.name)
            self.damaged.pop(folder.name, None)
            self._delete(folder)
            gone.append(folder.name)
        return gone

    def unload_idle(self, mono: float | None = None) -> list[str]:
        """Tables no page listens to and no page asked for in UNLOAD_AFTER seconds leave memory (their ids)."""
        mono = time.monotonic() if mono is None else mono
        idle = [key for key, loaded in self.loaded.items()
                if loaded.changes.streams == 0 and mono - loaded.used > UNLOAD_AFTER]
        for key in idle:
            self._unload(key)
        return idle

    def unload_all(self) -> None:
        """The server stops: every table out of memory, each state file whole in itself."""
        for key in list(self.loaded):
            self._unload(key)

    def _unload(self, key: str) -> None:
        """A table out of memory, its state file closed: whole in itself, its write-ahead log folded in. A table
        refused while it ran stays refused (its files are left as they are) until the server starts again."""
        loaded = self.loaded.pop(key, None)
        if loaded is not None:
            loaded.served.session.close()
            if loaded.served.damaged:
                self.damaged[key] = loaded.served.session.store.refused or "damaged while it ran"

    def _delete(self, folder: Path) -> None:
        try:
            short = (folder / "short").read_text(encoding="ascii").strip()
            if short:
                (self.shorts / short).unlink(missing_ok=True)
        except (OSError, UnicodeError):
            pass
        shutil.rmtree(folder, ignore_errors=True)

    def backup_view(self) -> Tables:
        """The tables as a backup round must see them (hhdcli/table/hosting/backups.py): which are in memory, and
        which are refused (their files left as they are)."""
        from hhdcli.table.hosting.backups import Tables

        damaged = {key for key, loaded in self.loaded.items() if loaded.served.damaged}
        stores = {key: loaded.served.session.store for key, loaded in self.loaded.items() if key not in damaged}
        return Tables(self.tables, loaded=stores, refused=set(self.damaged) | damaged)

    def close(self) -> None:
        """The server stops: every table's event streams end now."""
        for loaded in self.loaded.values():
            loaded.changes.close()


def _bytes_of(folder: Path) -> int:
    """The bytes of a table's files (0 for one the sweep deletes meanwhile)."""
    try:
        return sum(entry.stat().st_size for entry in folder.iterdir() if entry.is_file())
    except OSError:
        return 0


def last_action(folder: Path) -> float:
    """When the table last changed: its files' newest modification (SQLite writes the -wal file at each
    action); a folder half written is as old as itself."""
    times = [folder.stat().st_mtime]
    for name in ("state.sqlite", "state.sqlite-wal", "library.json"):
        try:
            times.append((folder / name).stat().st_mtime)
        except OSError:
            pass
    return max(times)

