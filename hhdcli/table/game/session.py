"""One Hell library session: each action reads what it needs through the store, asks the rules what it does
and who may do it, writes their answer in the same transaction, and answers with the views' description of the
cards, in the asker's language.

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
from hhdcli.table.game.errors import Depends, TableError
from hhdcli.table.game.names import seat_names
from hhdcli.table.game.rules import OWN_CARDS, Action, End, Zone
from hhdcli.table.game.store import Store, Tx, state_error
from hhdcli.table.game.views import Views, public_entry, shown_detail


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
                    self._set_life_start(tx, None, life)
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

    @staticmethod
    def _colors(tx: Tx, player: str) -> str:
        colors = tx.colors(player)
        if colors is None:
            raise TableError("no player named {player} at this table", status=404, player=player)
        return colors

    def join(self, player: str) -> str:
        """Seat a player on this phone: their token, kept in the state file (it survives restarts). A seat
        taken by another phone is refused; the host releases it or re-seats the player."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
            if tx.token(player) is not None:
                raise TableError("{player} is playing from another phone; the host can release the seat or show "
                                 "{player}'s re-seat code on the board", status=403, player=player)
            return self._seat(tx, player, secrets.token_urlsafe(18))

    def reseat(self, player: str) -> str:
        """The host makes a re-seat code for a player's new phone: it seats one phone, once, within
        RESEAT_MINUTES. The old phone is refused from now on (the seat stays held: nobody may pick the name)."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
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
            self._colors(tx, player)
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
            phase = self._opening(tx, viewer, seen["game"])[0] if viewer is not None else None
        return self.views.state(seen, viewer, phase, lang)

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

    def _name(self, tx: Tx, position: int) -> str:
        return self.views.name(position, None if position in self.cards else tx.own_name(position))

    def draw(self, player: str, lang: str = "en") -> dict[str, Any]:
        """The top card for a player: a land or a take goes to their hand; a choice waits for take or decline."""
        with self.store.transaction() as tx:
            colors = self._colors(tx, player)
            top = rules.drawn_card(player, bool(tx.held(player, Zone.PENDING)), tx.top(Zone.LIBRARY))
            verdict = self.views.judged(top, colors).verdict
            rules.may_draw(player, self._opening(tx, player)[0])
            draw_step = rules.in_draw_step(player, tx.meta("turn"), tx.meta("step"))
            tx.log_action(player, Action.DRAW, {"position": top, "name": self.cards[top].name, "verdict": verdict,
                                                "draw_step": draw_step}, [top])
            tx.move(top, rules.drawn_to(verdict), End.BOTTOM, player)
        return self.views.verdict(top, colors, lang, draw_step)

    def _pending(self, tx: Tx, player: str) -> int:
        self._colors(tx, player)
        return rules.waiting_card(player, next(iter(tx.held(player, Zone.PENDING)), None))

    def take(self, player: str, lang: str = "en") -> dict[str, Any]:
        with self.store.transaction() as tx:
            position = self._pending(tx, player)
            tx.log_action(player, Action.TAKE, {"position": position, "name": self.cards[position].name}, [position])
            tx.move(position, Zone.HAND, End.BOTTOM, player)
        return self.views.describe(position, lang)

    def decline(self, player: str, lang: str = "en") -> dict[str, Any]:
        """The drawn card goes on top of the shared sideboard."""
        with self.store.transaction() as tx:
            position = self._pending(tx, player)
            tx.log_action(player, Action.DECLINE, {"position": position, "name": self.cards[position].name},
                          [position])
            tx.move(position, Zone.SIDEBOARD, End.TOP)
        return self.views.describe(position, lang)

    def _opening(self, tx: Tx, player: str, game: int | None = None) -> tuple[rules.Opening | None, list[int]]:
        """A player's opening hand this game (`game`, when the caller read it): None, 'dealt' or 'kept', and the
        Hell cards last dealt."""
        return rules.opening_phase(tx.latest_opening(tx.game() if game is None else game, player))

    def _deciding(self, tx: Tx, player: str) -> list[int]:
        self._colors(tx, player)
        return rules.deciding(player, *self._opening(tx, player))

    def opening_hand(self, player: str, lang: str = "en") -> list[dict[str, Any]]:
        """The 2 Hell cards of a player's opening hand, from the top: once a game (a mulligan deals anew)."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
            rules.may_deal(player, self._opening(tx, player)[0])
            positions = rules.deal(tx.top(Zone.LIBRARY, rules.OPENING_HAND))
            tx.log_action(player, Action.OPENING_HAND, {"dealt": positions, "count": len(positions)}, positions)
            for position in positions:
                tx.move(position, Zone.HAND, End.BOTTOM, player)
        return [self.views.describe(p, lang) for p in positions]

    def mulligan(self, player: str, lang: str = "en") -> dict[str, Any]:
        """A London mulligan: the Hell cards of the player's opening hand go to the bottom of the Hell library in
        the order they were dealt, not shuffled, and two new ones are dealt from the top."""
        with self.store.transaction() as tx:
            returned = rules.mulligan_returns(self._deciding(tx, player), tx.held(player))
            new = rules.deal(tx.top(Zone.LIBRARY, rules.OPENING_HAND), returned)
            tx.log_action(player, Action.MULLIGAN, {"returned": returned, "dealt": new, "count": len(new)},
                          list(dict.fromkeys(returned + new)))
            for position in returned:
                tx.move(position, Zone.LIBRARY, End.BOTTOM)
            for position in new:
                tx.move(position, Zone.HAND, End.BOTTOM, player)
        return {"to_bottom": returned, "cards": [self.views.describe(p, lang) for p in new]}

    def keep(self, player: str, bottom: list[int]) -> list[int]:
        """The end of the mulligans: the Hell cards the player ticked (none, some or all) go to the bottom of the
        Hell library in the order ticked; the rest stay in hand. Nothing is chosen for the player."""
        with self.store.transaction() as tx:
            self._deciding(tx, player)
            chosen = rules.kept_bottom(player, bottom, tx.held(player))
            tx.log_action(player, Action.KEEP, {"bottom": chosen, "count": len(chosen)}, chosen)
            for position in chosen:
                tx.move(position, Zone.LIBRARY, End.BOTTOM)
        return chosen

    def play(self, player: str, position: int, lang: str = "en") -> dict[str, Any]:
        """A Hell card from the player's hand onto the battlefield: open to everyone now, and back to the Hell
        library at the end of the game."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
            rules.playable(player, position, tx.held(player))
        return self.move(player, position, "battlefield", lang)

    def move(self, player: str | None, position: int, to: str, lang: str = "en") -> dict[str, Any]:
        """A card moved by a player (or the host's board, None) to a zone the rules name (rules.Destination):
        one of theirs from their hand or library, or a public one (anyone's effect may move it)."""
        with self.store.transaction() as tx:
            name = self._name(tx, position)
            found = tx.place(position)
            if to == "sideboard":  # on the sideboard already: said, as the sideboard is open to all
                rules.to_sideboard(found, player, position, name)
            place = rules.movable(found, player, position)
            move = rules.move_of(place, player, to, name)
            detail = {"position": position, "name": name, "from": place.zone,
                      **({"end": move.end} if move.zone == Zone.DECK else {})}
            tx.log_action(player, move.action, detail, [position])
            tx.move(position, move.zone, move.end, move.player)
        return {**self.views.describe(position, lang, name), "zone": move.zone}

    def tap(self, player: str | None, position: int, tapped: bool) -> dict[str, Any]:
        """A card on the battlefield tapped or untapped (anyone's effect may: it is open to all)."""
        with self.store.transaction() as tx:
            place = rules.on_battlefield(tx.place(position), position)
            name = self._name(tx, position)
            tx.log_action(player, Action.TAP if tapped else Action.UNTAP, {"position": position, "name": name},
                          [position])
            tx.set_tapped(position, tapped)
        return {"position": position, "name": name, "tapped": tapped, "was": place.tapped}

    def card_counter(self, player: str | None, position: int, kind: str, delta: int) -> dict[str, Any]:
        """Counters of a kind put on (or taken off) a card on the battlefield."""
        with self.store.transaction() as tx:
            place = rules.on_battlefield(tx.place(position), position)
            name = self._name(tx, position)
            counters = rules.counted(place.counters, kind, delta, name)
            tx.log_action(player, Action.CARD_COUNTER, {"position": position, "name": name, "kind": kind,
                                                        "delta": delta, "count": counters.get(kind, 0)}, [position])
            tx.set_counters(position, counters)
        return {"position": position, "name": name, "counters": counters}

    def tokens(self, player: str | None, position: int, token: str, delta: int) -> dict[str, Any]:
        """Tokens a card on the battlefield made, come into play (or gone), counted with it by its controller."""
        with self.store.transaction() as tx:
            name = self._name(tx, position)
            place = rules.token_maker(tx.place(position), player, position, name)
            made = self.views.made_names(position)
            counters = rules.tokens_counted(place.counters, token, made, delta, name)
            tx.log_action(player, Action.TOKENS, {"position": position, "name": name, "token": made[token],
                                                  "delta": delta, "count": counters.get(token, 0)}, [position])
            tx.set_counters(position, counters)
        return {"position": position, "name": name, "token": made[token], "count": counters.get(token, 0)}

    def play_sideboard_top(self, player: str, lang: str = "en") -> dict[str, Any]:
        """Anyone may play the sideboard's top card as if it were in their hand: it is played, open to all."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
            top = rules.sideboard_top(tx.top(Zone.SIDEBOARD))
            name = self._name(tx, top)
            tx.log_action(player, Action.PLAY_FROM_SIDEBOARD, {"position": top, "name": name}, [top])
            tx.move(top, Zone.BATTLEFIELD, End.BOTTOM, player)
        return self.views.describe(top, lang, name)

    def own_card_to_sideboard(self, player: str, name: str) -> dict[str, Any]:
        """A card of a player's own deck leaves the game: by the rules it goes on top of the sideboard too, where
        anyone may play it. It is known by its name and stays its player's."""
        with self.store.transaction() as tx:
            self._colors(tx, player)
            position = tx.last_own_card() + 1
            tx.log_action(player, Action.OWN_CARD_TO_SIDEBOARD, {"position": position, "name": name}, [],
                          (position,))
            tx.add_own_card(position, player, name)
            tx.move(position, Zone.SIDEBOARD, End.TOP)
        return {**self.views.describe(position, name=name), "owner": player}

    def to_hell_library(self, player: str | None, position: int, end: str, lang: str = "en") -> dict[str, Any]:
        """An ownerless Hell card on the sideboard put into "its owner's library": the Hell library (top or
        bottom, as the effect says)."""
        with self.store.transaction() as tx:
            rules.to_hell_library(tx.place(position), self._name(tx, position))
            tx.log_action(player, Action.TO_HELL_LIBRARY, {"position": position, "name": self.cards[position].name,
                                                           "end": end}, [position])
            tx.move(position, Zone.LIBRARY, End(end))
        return self.views.describe(position, lang)

    def to_sideboard(self, player: str | None, position: int, lang: str = "en") -> dict[str, Any]:
        """A card leaving the game (ante, an effect…) goes on top of the sideboard: a played card by anyone's
        effect, a card in hand or in their library by its holder."""
        return self.move(player, position, "sideboard", lang)

    # --- decks --------------------------------------------------------------------------------------

    def set_deck(self, player: str, text: str | Deck | None, colors: str | None) -> dict[str, Any]:
        """A player's deck from their phone: a pasted list (read as hhd check reads a deck file), the deck its
        link names (read by the caller, see `read_link`) or the colors picked; the take rule uses its colors from
        the next draw. The answer has the warnings hhd check gives."""
        from hhdcli.deck import deck_colors
        from hhdcli.decklists import parse_deck

        problems: list[str] = []
        unresolved: list[str] = []
        lands: int | None = None
        letters = colors or ""
        if text is not None:
            deck = text if isinstance(text, Deck) else parse_deck(text, "deck")
            if not deck.main and not deck.sideboard:
                raise TableError("no cards read from the deck list: paste it as text, one card a line (4 Forest)",
                                 status=400)
            found = deck_colors(deck, self.hellscube, None, self.lookup)
            problems, unresolved = list(deck.warnings), found.unresolved
            letters, lands = "".join(found.colors), len(found.lands)
        with self.store.transaction() as tx:
            self._colors(tx, player)
            tx.log_action(player, Action.DECK, {"whose": player, "colors": letters}, [], players=[player])
            tx.set_colors(player, letters)
        return {"player": player, "colors": letters, "lands": lands, "problems": problems, "unresolved": unresolved}

    # --- life, counters, dice and turns ---------------------------------------------------------------

    def life(self, actor: str | None, player: str, delta: int) -> dict[str, Any]:
        """A player's life total changed by `delta` (by anyone at the table: damage is dealt by others)."""
        with self.store.transaction() as tx:
            rules.seated_player(tx.names(), player)
            now = self._life(tx, player) + delta
            tx.log_action(actor, Action.LIFE, {"whose": player, "delta": delta, "count": now}, [], players=[player])
            tx.set_life(player, now)
        return {"player": player, "life": now}

    @staticmethod
    def _life(tx: Tx, player: str) -> int:
        found = next(p["life"] for p in tx.players() if p["name"] == player)
        return int(tx.meta("life_start") or rules.LIFE_START) if found is None else int(found)

    def player_counter(self, actor: str | None, player: str, kind: object, delta: int, source: object = None
                       ) -> dict[str, Any]:
        """Counters of a kind (rules.PlayerCounter) on a player: poison, energy, experience, or commander damage
        from `source`'s commander."""
        with self.store.transaction() as tx:
            names = tx.names()
            rules.seated_player(names, player)
            found = rules.player_counter_kind(kind)
            key = rules.commander_key(names, player, source) if found == rules.PlayerCounter.COMMANDER else found
            had = next(p["counters"] for p in tx.players() if p["name"] == player)
            counters = rules.counted(had, key, delta, player)
            tx.log_action(actor, Action.PLAYER_COUNTER, {
                "whose": player, "kind": found, "delta": delta, "count": counters.get(key, 0),
                **({"source": source} if key != found else {})}, [], players=[player])
            tx.set_player_counters(player, counters)
        return {"player": player, "counters": counters}

    def life_start(self, actor: str | None, life: int) -> dict[str, Any]:
        """The host sets the starting life: at once before the game has begun, else from the next game."""
        with self.store.transaction() as tx:
            later = self._set_life_start(tx, actor, life)
        return {"life_start": life, "next": later}

    def _set_life_start(self, tx: Tx, actor: str | None, life: int) -> bool:
        """Once a game has begun, its players keep the life they have (a total still at the old start is written
        down as it stands) and the new start comes with the next game: True then."""
        if not tx.game_begun():
            tx.log_action(actor, Action.LIFE_START, {"count": life}, [], turn=True)
            tx.set_meta("life_start", str(life))
            return False
        names = tx.names()
        tx.log_action(actor, Action.LIFE_START, {"count": life, "next": True}, [], players=names, turn=True)
        for name in names:
            tx.set_life(name, self._life(tx, name))
        tx.set_meta("life_start", str(life))
        return True

    def die(self, actor: str | None, sides: int) -> dict[str, Any]:
        """A die rolled by the table (the server draws it, and the log keeps it: nobody rolls again unseen)."""
        result = secrets.randbelow(rules.die_sides(sides)) + 1
        with self.store.transaction() as tx:
            tx.log_action(actor, Action.DIE, {"sides": sides, "result": result}, [])
        return {"sides": sides, "result": result}

    def coin(self, actor: str | None) -> dict[str, Any]:
        result = tuple(rules.Coin)[secrets.randbelow(2)]
        with self.store.transaction() as tx:
            tx.log_action(actor, Action.COIN, {"result": result}, [])
        return {"result": result}

    def first_player(self, actor: str | None) -> dict[str, Any]:
        """A random first player, whose turn it now is (its untap step)."""
        with self.store.transaction() as tx:
            names = tx.names()
            first = names[secrets.randbelow(len(names))] if names else rules.next_turn(names, None)
            tx.log_action(actor, Action.FIRST_PLAYER, {"whose": first}, [], turn=True)
            for key, value in (("first", first), ("turn", first), ("step", rules.STEPS[0])):
                tx.set_meta(key, value)
        return {"first": first}

    def next_turn(self, actor: str | None) -> dict[str, Any]:
        """The next player's turn, from its untap step."""
        with self.store.transaction() as tx:
            now = rules.next_turn(tx.names(), tx.meta("turn"))
            tx.log_action(actor, Action.TURN, {"whose": now}, [], turn=True)
            tx.set_meta("turn", now)
            tx.set_meta("step", rules.STEPS[0])
        return {"turn": now, "step": rules.STEPS[0]}

    def step(self, actor: str | None, step: str) -> dict[str, Any]:
        with self.store.transaction() as tx:
            rules.turn_step(step)
            tx.log_action(actor, Action.STEP, {"whose": tx.meta("turn"), "step": step}, [], turn=True)
            tx.set_meta("step", step)
        return {"step": step}

    def end_game(self, player: str | None, confirmed: int | None = None) -> dict[str, Any]:
        """The Hell cards outside the libraries and the sideboard go to the bottom of the Hell library in random
        order, seeded by the session's secret and the game; players' own cards go home; the next game begins,
        with ownership afresh (an ownerless card on the sideboard may be put into the Hell library again)."""
        with self.store.transaction() as tx:
            game = tx.game()
            rules.game_to_end(confirmed, game)
            outside = tx.in_zones(rules.PLAYERS_ZONES) + [p for p in tx.in_zones([Zone.DECK]) if p >= OWN_CARDS]
            order, home = rules.end_of_game(outside, self._secret(tx), game)
            owned = tx.owned_hell_cards((Zone.LIBRARY, Zone.SIDEBOARD))
            # the log says how many, never which: the order at the bottom is the library's secret
            tx.log_action(player, Action.END_OF_GAME, {"game": game, "count": len(order)},
                          list(dict.fromkeys(order + home + owned)), players=tx.names(), turn=True)
            tx.reset_players()  # life back to the start, no counters, nobody's turn yet
            for key in ("turn", "step", "first"):
                tx.unset_meta(key)
            for position in order:
                tx.move(position, Zone.LIBRARY, End.BOTTOM)
            tx.delete_cards(home)
            tx.clear_owners()
            tx.set_game(game + 1)
        return {"game": game + 1, "count": len(order)}

    def undo(self, player: str | None, anyone: bool = False) -> dict[str, Any]:
        """Take back the asking player's own last action, even when others acted since, unless later actions
        moved the same cards (those are named, and the undo refused). With `anyone` (confirmed), or for the
        host, the table's last action whoever took it."""
        with self.store.transaction() as tx:
            own = tx.last_entry(player) if player is not None and not anyone else None
            last = tx.last_entry() if own is None else own
            entry = rules.entry_to_undo(player, anyone, own, last)
            later = rules.blocking(entry, tx.entries_after(entry.id))
            if later:
                raise Depends(entry.action, [(e.player, e.action) for e in later[:3]])
            tx.undo_entry(entry.id)
            # a line says who took back what, on every page (the undone line stays too, marked): in a game of
            # hidden cards an action that silently vanished would invite suspicion
            # the undone line's own detail, kept whole: each viewer reads the undo as they read that line (views)
            tx.log_action(player, Action.UNDO, {"undone": entry.action, "whose": entry.player,
                                                "entry": shown_detail(entry.detail)}, [])
        shown = public_entry({"id": entry.id, "game": entry.game, "player": entry.player, "action": entry.action,
                              "detail": entry.detail}, player)
        return {"undone": entry.action, "player": entry.player, "detail": shown["detail"]}


__all__ = ["OWN_CARDS", "Session"]
