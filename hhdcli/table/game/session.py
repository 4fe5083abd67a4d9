"""One Hell library session: the state file (its store and transactions), the seats and their codes, what each
viewer reads (views), and the actions, each run by its handler (hhdcli.table.game.handlers) in one transaction:
`session.act(Action.DRAW, "Anna")`.

Who acts is the caller's business (hhdcli.table.web.routes checks tokens); every action here is told its player, or
None for the host (the laptop running the table), and logs it.
"""

from __future__ import annotations

import hmac
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhdcli.cards import Card
from hhdcli.deck import LandLookup
from hhdcli.decklists import Deck
from hhdcli.mana import SymbolTable
from hhdcli.table.game import rules
from hhdcli.table.game.decks import PlayerDeck, deck_of, read_deck
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.handlers import HANDLERS, Act, opening, seated_colors, set_life_start
from hhdcli.table.game.names import seat_names
from hhdcli.table.game.rules import OWN_CARDS, Action, Zone
from hhdcli.table.game.store import Store, Tx, state_error
from hhdcli.table.game.views import Views, public_entry


@dataclass
class Session:
    """The session over one state file; `cards` are the library's cards by library-file position."""

    path: Path
    cards: dict[int, Card]
    table: SymbolTable
    seed: str
    library_hash: str = ""  # the library file's content: a library drawn again with other options is another
    hellscube: list[Card] = field(default_factory=list)  # the set's cards: a pasted deck's Hellscube lands
    lookup: LandLookup | None = None  # other lands' colors (Scryfall), when the table is online
    read_link: Callable[[str], Deck] | None = None  # a deck's link read from its site, as hhd check reads it
    store: Store = field(init=False, repr=False)
    views: Views = field(init=False, repr=False)
    # the table as the store last read it for a state, by log size, with its version: every page of a table reads
    # the state after each action, and all but the first read the same rows
    _read: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict, init=False, repr=False)
    _phases: tuple[int, dict[str, rules.Opening | None]] = field(default_factory=lambda: (-1, {}), init=False,
                                                                 repr=False)

    def __post_init__(self) -> None:
        self.store = Store(self.path)
        self.views = Views(self.cards, self.table)

    # --- the session -----------------------------------------------------------------------------------

    def start(self, players: dict[str, tuple[str, ...]], life: int | None = None,
              check: Callable[[dict[str, str]], None] | None = None) -> bool:
        """Create the session (library in the table's secret order, empty sideboard) where there is no state file,
        or resume the one the file holds when it is whole and this library's (`check` may refuse it too, by its
        meta); players are added or updated either way, and `life`, when given, is the starting life from now on
        (as the host sets it from the board). True when an old session was resumed."""
        if life is not None:
            rules.starting_life(life)  # refused before the file is touched

        def checked(meta: dict[str, str]) -> None:  # refused before the file is touched, as damage is
            self._same_library(meta.get("seed"), meta.get("library"))
            if check is not None:
                check(meta)

        self.store.open(checked)
        try:
            with self.store.transaction() as tx:
                resumed = self._start(tx, players)
                if life is not None and life != int(tx.meta("life_start") or rules.LIFE_START):
                    set_life_start(tx, None, life)
                return resumed
        except sqlite3.DatabaseError as exc:
            raise state_error(exc, self.path) from exc

    def close(self) -> None:
        """The state file closed, whole in itself (see Store.close)."""
        self.store.close()

    def _same_library(self, found: str | None, drawn_from: str | None) -> None:
        if found is not None and found != self.seed:
            raise TableError("{file} holds the session of library {found}, not {seed}", status=400,
                             file=self.path, found=repr(found), seed=repr(self.seed))
        if drawn_from is not None and self.library_hash and drawn_from != self.library_hash:
            raise TableError("{file} holds the session of another library with the seed {seed} (drawn again "
                             "with other options or card data)", status=400, file=self.path, seed=repr(self.seed))

    def _start(self, tx: Tx, players: dict[str, tuple[str, ...]]) -> bool:
        found = tx.meta("seed")
        self._same_library(found, tx.meta("library"))
        if self.library_hash:
            tx.set_meta("library", self.library_hash, keep=True)
        if found is None:
            # the table's order is secret: shuffled from a secret kept in the state file and never shown
            secret = secrets.token_hex(16)
            for key, value in (("seed", self.seed), ("game", "1"), ("secret", secret)):
                tx.set_meta(key, value)
            tx.new_library(rules.table_order(self.cards, secret))
        self.views.name_faces(self._secret(tx))
        seat_names(players, tx.names())  # each refused before any is seated when it looks like another's
        for name, colors in players.items():
            tx.put_player(name, "".join(colors))
        return found is not None

    def _secret(self, tx: Tx) -> str:
        """The session's secret (a session from before it was kept has its seed): the faces' ids and the
        end-of-game shuffles are made from it."""
        return tx.meta("secret") or self.seed

    def _kept(self, key: str, make: Callable[[], str], new: bool = False) -> str:
        with self.store.transaction() as tx:
            found = tx.meta(key)
            if found is not None and not new:
                return found
            value = make()
            tx.set_meta(key, value)
            return value

    def join_code(self, make: Callable[[], str], new: bool = False) -> str:
        """The session's join code, kept in the state file; a new one when there is none or `new` asks."""
        return self._kept("code", make, new)

    def host_secret(self, new: bool = False) -> str:
        """The host's secret (the laptop's board proves it is the host with it), kept like the join code."""
        return self._kept("host", lambda: secrets.token_urlsafe(18), new)

    def game(self) -> int:
        """The number of the game being played (1 for the session's first)."""
        with self.store.snapshot() as tx:
            return tx.game()

    def version(self) -> int:
        """The table's version: one more at each change (what a page's state is compared by)."""
        with self.store.snapshot() as tx:
            return tx.version()

    def face_position(self, face: str) -> int | None:
        return self.views.faces.get(face)

    @property
    def _face_of(self) -> dict[int, str]:
        return self.views.face_of

    # --- seats -------------------------------------------------------------------------------------------

    def join(self, player: str) -> str:
        """Seat a player on this phone: their token, kept in the state file (it survives restarts). A seat
        taken by another phone is refused; the host releases it or re-seats the player."""
        with self.store.transaction() as tx:
            seated_colors(tx, player)
            if tx.token(player) is not None:
                raise TableError("{player} is playing from another phone; the host can release the seat or show "
                                 "{player}'s re-seat code on the board", status=403, player=player)
            return self._seat(tx, player, secrets.token_urlsafe(18))

    def reseat(self, player: str) -> str:
        """The host makes a re-seat code for a player's new phone: it seats one phone, once, within
        RESEAT_MINUTES. The old phone is refused from now on (the seat stays held: nobody may pick the name)."""
        with self.store.transaction() as tx:
            seated_colors(tx, player)
            self._seat(tx, player, secrets.token_urlsafe(18))  # a token no phone holds until the code is used
            code = secrets.token_urlsafe(18)
            tx.add_seat_code(code, player)
            return code

    def redeem(self, code: str, now: float) -> tuple[str, str]:
        """A re-seat code used by the new phone: its player and the phone's new token. The code is dead from now
        on, used or not, whoever asks again."""
        with self.store.transaction() as tx:
            found = tx.take_seat_code(code)
            if found is None or not rules.code_alive(found[1], now) or tx.colors(found[0]) is None:
                raise TableError("this re-seat code was used already or has expired: ask the host for a new one",
                                 status=403)
            return found[0], self._seat(tx, found[0], secrets.token_urlsafe(18))

    def release(self, player: str) -> None:
        """The host frees a seat: its phone is refused, and the next phone to pick the name gets it."""
        with self.store.transaction() as tx:
            seated_colors(tx, player)
            self._seat(tx, player, None)

    @staticmethod
    def _seat(tx: Tx, player: str, token: str | None) -> str:
        """Who holds a player's seat: the phone with this token, or (None) the next phone to pick the name. Any
        re-seat code made for the seat before dies with the old holder."""
        tx.set_token(player, token)
        tx.drop_seat_codes(player)
        tx.changed()
        return token or ""

    def add_player(self, player: str, colors: str) -> None:
        """A late player, added from the board while the table runs (a name that looks like a seated player's
        is refused: see hhdcli/table/game/names.py)."""
        from hhdcli.table.game.names import check_new, player_name

        player = player_name(player)
        with self.store.transaction() as tx:
            seated = tx.names()
            if player in seated:
                raise TableError("{player} is at the table already", player=player)
            check_new(player, seated)
            tx.put_player(player, colors, update=False)
            tx.changed()

    def viewer(self, token: str | None) -> str | None:
        """The player a token belongs to, or None. Tokens are compared as bytes, in constant time."""
        if not token:
            return None
        given = token.encode("utf-8", "surrogatepass")
        with self.store.snapshot() as tx:
            held = tx.tokens()
        return next((name for name, theirs in held if hmac.compare_digest(given, theirs.encode())), None)

    def may_see(self, position: int, viewer: str | None) -> bool:
        """A card's face: the open sideboard's and played cards for everyone, a hand for its player alone."""
        with self.store.snapshot() as tx:
            return rules.may_see(tx.place(position), viewer)

    # --- reading ---------------------------------------------------------------------------------------

    def state(self, log_size: int = 30, viewer: str | None = None, lang: str = "en") -> dict[str, Any]:
        """What `viewer` may see of the table (views.Views.state), read at one moment."""
        with self.store.snapshot() as tx:
            seen = self._table(tx, log_size)
            # the viewer's own opening hand (the others' is private)
            phase = self._opening_of(tx, seen, viewer) if viewer is not None else None
        return self.views.state(seen, viewer, phase, lang)

    def _opening_of(self, tx: Tx, seen: dict[str, Any], viewer: str) -> rules.Opening | None:
        """The viewer's opening hand as of this version, looked up once per version (a query a state read)."""
        version, phases = self._phases
        if version != seen["version"]:
            self._phases = version, phases = seen["version"], {}
        if viewer not in phases:
            phases[viewer] = opening(tx, viewer, seen["game"])[0]
        return phases[viewer]

    def _table(self, tx: Tx, log_size: int) -> dict[str, Any]:
        """The table's rows every viewer's state is made from, read once per version: the others' reads of the
        same version share them (read only, never changed)."""
        version = tx.version()
        kept = self._read.get(log_size)
        if kept is not None and kept[0] == version:
            return kept[1]
        log, more = tx.log_page(None, log_size)
        seen = {"seed": self.seed, "game": tx.game(), "version": version, "cards": tx.outside_library(),
                "library_count": tx.count(Zone.LIBRARY), "players": tx.players(), "log": log, "log_more": more,
                "turn": {"player": tx.meta("turn"), "step": tx.meta("step"), "first": tx.meta("first")},
                "zones": tx.made_zones(), "companions_cast": tx.who_did(Action.CAST_COMPANION),
                "life_start": int(tx.meta("life_start") or rules.LIFE_START)}
        self._read[log_size] = version, seen
        return seen

    def log(self, before: int | None, size: int, viewer: str | None) -> dict[str, Any]:
        """A page of the log, newest first, of the entries older than `before` (a log id)."""
        with self.store.snapshot() as tx:
            page, more = tx.log_page(before, size)
        return {"log": [public_entry(e, viewer, self.views.shown_details) for e in page], "log_more": more}

    def describe_faces(self, ids: list[str], viewer: str | None, lang: str) -> dict[str, dict[str, Any]]:
        """The descriptions of the cards named by face id that the viewer may see (others are left out)."""
        asked = [self.views.faces[face] for face in ids if face in self.views.faces]
        with self.store.snapshot() as tx:
            places = tx.places(asked)
        return self.views.described_faces(ids, places, viewer, lang)

    def describe(self, position: int, lang: str = "en", name: str | None = None) -> dict[str, Any]:
        return self.views.describe(position, lang, name)

    # --- actions -------------------------------------------------------------------------------------

    def act(self, action: Action, actor: str | None, lang: str = "en", **params: Any) -> dict[str, Any]:
        """An action taken by `actor` (a player, or None for the host), in one transaction: its handler
        (handlers.HANDLERS) reads, asks the rules, writes and logs; the answer is in `lang`."""
        handler = HANDLERS[action]
        with self.store.transaction() as tx:
            return handler(Act(tx, self.views, actor, lang, self.seed), **params)

    def deck_of(self, text: str, read_link: Callable[[str], Deck] | None = None,
                parse: Callable[[str, str], Deck] | None = None) -> PlayerDeck:
        """A pasted deck list (read by `parse`, else here) or a deck's link (read by `read_link`, else the
        session's), read as hhd check reads it: its colors, lands and warnings. Read before the action, outside
        its transaction: a link or Scryfall takes time."""
        return deck_of(read_deck(text, read_link=read_link or self.read_link, parse=parse), self.hellscube,
                       self.lookup, pasted=True)


__all__ = ["OWN_CARDS", "Session"]
