"""What each viewer is shown: a player (their own hand and waiting card), the host's board and a spectator (the
open sideboard, played cards, counts), each card described once per language, and the log with the others'
private cards left out. Cards are served under face ids made from the session's secret, never by position."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from hhdcli.cards import Card, card_text
from hhdcli.colors import BASIC_LANDS
from hhdcli.jsonio import load_json
from hhdcli.mana import SymbolTable, Take, judge
from hhdcli.moments import card_moments
from hhdcli.render.texts import shown_type_line
from hhdcli.rulings import card_clarification, card_rulings
from hhdcli.table.game.decks import PlayerDeck
from hhdcli.table.game.rules import PRIVATE_ACTIONS, PUBLIC_ZONES, Action, Place, Zone, may_see
from hhdcli.table.game.zones import made_zone, zone_open, zones_of

# The take rule's answers and what each tells the player to do (messages of the table's catalog): when the table
# keeps no turns, the rule as it stands; when it does, whether this draw came in the drawer's own draw step (a
# land played at once, a take cast for {2} less) or not
REMINDERS = {Take.LAND: "a land: into your hand; in your draw step you may play it at once",
             Take.TAKE: "take it; in your draw step you may cast it for {2} less",
             Take.CHOICE: "take it, or decline: it goes on top of the sideboard"}
IN_DRAW_STEP = {Take.LAND: "a land: into your hand; your draw step: you may play it now, beside your land for the turn",
                Take.TAKE: "take it; your draw step: you may cast it now for {2} less"}
OUTSIDE_DRAW_STEP = {Take.LAND: "a land: into your hand; not drawn in your draw step: no extra land",
                     Take.TAKE: "take it; not drawn in your draw step: no {2} less"}
REMINDER_MESSAGES = (*REMINDERS.values(), *IN_DRAW_STEP.values(), *OUTSIDE_DRAW_STEP.values())  # on the page
VERDICTS = tuple(str(v) for v in REMINDERS)  # named on the page


def reminder(verdict: Take, draw_step: bool | None) -> str:
    """What a drawn card tells its player to do; `draw_step`: drawn in their own draw step (None: no turns kept)."""
    if draw_step is None or verdict == Take.CHOICE:
        return REMINDERS[verdict]
    return (IN_DRAW_STEP if draw_step else OUTSIDE_DRAW_STEP)[verdict]
# what a log entry's detail may show to those allowed to read it: names and counts, never a library-file position
# (hell-library.json maps positions to names, so a position of a hidden card is its name)
SHOWN_DETAIL = ("name", "verdict", "end", "game", "count", "names", "undone", "whose", "from", "kind", "delta",
                "sides", "result", "step", "colors", "token", "source", "next", "entry", "moment", "zones", "zone", "at",
                "to", "nonbasic", "into", "note", "face_down", "private", "shuffled")
# what the others read of a private action: that a card went, not which (and that its moment happens now: the
# rules move a drafted card's trigger to its take, which the table sees happen)
PRIVATE_KEPT = ("count", "end", "from", "moment", "at", "zone", "whose", "face_down", "to", "shuffled")
# The cards' descriptions, kept for the whole server within DESCRIBED_BYTES, the least recently read out first.
# Each table kept every card it described for as long as it was loaded: 2.2 KB a card and language (measured: 720
# cards, 1.58 MB of Python objects, 3.1 times their JSON), towards a table's whole library over an evening, a
# megabyte a minute for 100 tables at 50 actions/s, still growing after 4 minutes. 4 MB holds ~1,900, a minute of
# the cards first shown at that rate, when the pages of a table ask for one within a second of each other.
DESCRIBED_BYTES = 4 * 1024 * 1024
DESCRIBED_PER_JSON_BYTE = 3  # a description's Python objects, by its JSON's length (measured above)
_DESCRIBED: LRUCache[tuple[int, int, str], dict[str, Any]] = LRUCache(
    DESCRIBED_BYTES, getsizeof=lambda found: DESCRIBED_PER_JSON_BYTE * len(json.dumps(found)))
# The log entries' shown details, parsed once and kept for the whole server within SHOWN_BYTES (an entry never
# changes, and its id is never used again: AUTOINCREMENT). Each table kept its newest 100: 10,000 entries of ~520
# bytes (measured: a dict of ~57 bytes of JSON) for 100 tables, ten times that at --max-tables. 3 MB holds ~6,000,
# twice the 30 a state shows of 100 busy tables; one parsed again costs a few microseconds.
SHOWN_BYTES = 3 * 1024 * 1024
SHOWN_ENTRY_BYTES = 400  # a shown detail's dict, besides 2 bytes per byte of its JSON (measured above)
_SHOWN: LRUCache[tuple[int, int], dict[str, Any]] = LRUCache(
    SHOWN_BYTES, getsizeof=lambda shown: SHOWN_ENTRY_BYTES + 2 * len(json.dumps(shown)))
# The take rule's verdicts, by table, card and colors, for the whole server: each table kept every one it judged
# (450 bytes each, measured; a library's cards times its players' colors); 4,096 are 1.8 MB, and one judged again
# costs some 40 microseconds
VERDICTS_KEPT = 4096
_VERDICTS: LRUCache[tuple[int, int, str], Any] = LRUCache(VERDICTS_KEPT)
_DESCRIBED_LOCK = threading.Lock()  # a table opened off the loop (a thread of gevent's pool) may describe too
_VIEWS = itertools.count()  # each Views' own number in the shared cache's keys (an id() is used again)


def shown_detail(detail: dict[str, Any]) -> dict[str, Any]:
    """What a log entry's detail may ever show (to those allowed to read it): names and counts, never a position."""
    return {k: v for k, v in detail.items() if k in SHOWN_DETAIL}


def hidden_move(action: str, detail: dict[str, Any]) -> bool:
    """A card moved between its holder's hand, library and created decks: the others saw a card go, not which.
    (Hell cards given at random into a player's hand are that player's to know.)"""
    hidden_from = detail.get("from") in (Zone.HAND, Zone.DECK) or detail.get("from") == Zone.MADE \
        and not zone_open(detail.get("zone"))
    return action in (Action.TO_HAND, Action.TO_LIBRARY) and hidden_from \
        or action == Action.TO_ZONE and hidden_from and not zone_open(detail.get("zone"))


def seen_detail(action: str, player: str | None, shown: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """An action's shown detail as `viewer` may read it: another player's draws, hands, mulligans and hidden
    moves without their cards. An undo is read as the line it took back is read, by the same rule: an undo never
    names what its action's own line did not name to this viewer."""
    if action == Action.UNDO:
        undone, whose = str(shown.get("undone", "")), shown.get("whose")
        entry = shown.get("entry")
        if not isinstance(entry, dict):  # an undo logged before it kept its line's detail: the card's name alone,
            # shown only where the line itself showed names to everyone
            entry = {"name": shown["name"]} if "name" in shown else {}
            if undone in PRIVATE_ACTIONS or undone in (Action.TO_HAND, Action.TO_LIBRARY):
                entry = {} if whose != viewer else entry
        return {"undone": undone, "whose": whose, "entry": seen_detail(undone, whose, entry, viewer)}
    # a card given into another player's hand or library is theirs to see
    given = action in (Action.TO_HAND, Action.TO_LIBRARY) and viewer is not None and shown.get("whose") == viewer
    if (action in PRIVATE_ACTIONS or hidden_move(action, shown) or shown.get("private")) and player != viewer \
            and not given:
        return {k: v for k, v in shown.items() if k in PRIVATE_KEPT}
    if action == Action.RANDOM_HELL_CARD and shown.get("whose") != viewer:  # the receiver's alone, the giver's not
        return {k: v for k, v in shown.items() if k != "names"}
    return shown


class ShownDetails:
    """A table's log entries' shown details, by id, in the server's one cache (_SHOWN) under the table's number."""

    def __init__(self, table: int) -> None:
        self.table = table

    def get(self, entry_id: int) -> dict[str, Any] | None:
        with _DESCRIBED_LOCK:
            return _SHOWN.get((self.table, entry_id))

    def keep(self, entry_id: int, shown: dict[str, Any]) -> None:
        with _DESCRIBED_LOCK:
            _SHOWN[(self.table, entry_id)] = shown


def public_entry(entry: dict[str, Any], viewer: str | None, shown_details: ShownDetails | None = None
                 ) -> dict[str, Any]:
    """A log entry as `viewer` may read it: names and counts only; another player's draws, hands and mulligans
    without their cards. `shown_details` keeps each entry's shown detail by id while it is among the server's
    recently read, so a state read parses no log entry twice."""
    shown = shown_details.get(entry["id"]) if shown_details is not None else None
    if shown is None:
        detail = load_json(entry["detail"]) if isinstance(entry["detail"], str) else entry["detail"]
        shown = shown_detail(detail)
        if shown_details is not None:
            shown_details.keep(entry["id"], shown)
    return {"id": entry["id"], "game": entry["game"], "player": entry["player"], "action": entry["action"],
            "detail": seen_detail(entry["action"], entry["player"], shown, viewer), "undone": bool(entry.get("undone"))}


def deck_answer(player: str, found: PlayerDeck, gettext: Callable[[str], str]) -> dict[str, Any]:
    """A player's deck as /api/deck answers it: its colors, lands and what hhd check would warn of, the warnings
    in the asker's language (`gettext`)."""
    warnings = list(found.problems)
    if found.unresolved:  # quoted: a card's name may hold a comma
        warnings.append(gettext("not known, so not counted as lands: {names}").format(
            names="; ".join(f"«{name}»" for name in found.unresolved)))
    if found.lands == 0:
        warnings.append(gettext("the deck has no lands: every card with a colored cost is a choice"))
    return {"player": player, "colors": found.letters, "lands": found.lands, "warnings": warnings}


@dataclass
class Views:
    """The session's cards as viewers see them; `cards` are the library's cards by library-file position."""

    cards: dict[int, Card]
    table: SymbolTable
    faces: dict[str, int] = field(default_factory=dict)  # the opaque face ids of this session's cards
    face_of: dict[int, str] = field(default_factory=dict)  # and back
    # a card's verdict and description are computed once while among the server's recently read (_VERDICTS,
    # _DESCRIBED), not at every read (the take rule, rulings, text)
    _serial: int = field(default_factory=lambda: next(_VIEWS), repr=False)
    shown_details: ShownDetails = field(init=False, repr=False)  # the log entries', by id
    _tokens: dict[str, Card] | None = field(default=None, repr=False)  # the library's tokens as cards, by id
    _made: dict[int, list[str]] = field(default_factory=dict, repr=False)  # a card's tokens' ids, by position
    secret: str = field(default="", repr=False)  # the session's: face-down cards' ids are made from it
    _companions: dict[int, bool] = field(default_factory=dict, repr=False)
    _down: dict[int, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.shown_details = ShownDetails(self._serial)

    def name_faces(self, secret: str) -> None:
        """Each card's face is served under an id made from the session's secret, not its library position:
        an address says nothing of the card behind it."""
        self.faces = {hmac.new(secret.encode(), f"face:{p}".encode(), hashlib.sha256).hexdigest()[:20]: p
                      for p in self.cards}
        self.face_of = {p: face for face, p in self.faces.items()}
        self.secret = secret

    def tokens(self) -> dict[str, Card]:
        """The tokens the library's cards make, as cards by id (worked out when first asked: a table whose cards
        make none never asks). A token is public: its id is the registry's, its face anyone's to see."""
        if self._tokens is None:
            from hhdcli.tokens import library_tokens, token_card

            self._tokens = {}
            for item in library_tokens(list(self.cards.values())):
                card = token_card(item.token)
                self._tokens[card.id] = card
                for maker in item.makers:
                    for position, held in self.cards.items():
                        if held.id == maker.card.id:
                            self._made.setdefault(position, []).append(card.id)
        return self._tokens

    def made_names(self, position: int) -> dict[str, str]:
        """The names of the tokens a card makes, by id."""
        tokens = self.tokens()
        return {token_id: tokens[token_id].name for token_id in self._made.get(position, [])}

    def made_by(self, position: int, lang: str) -> list[dict[str, Any]]:
        """The tokens a card makes, each with its face's address (tap to see it)."""
        tokens = self.tokens()
        return [{"id": token_id, "name": tokens[token_id].name, "type_line": tokens[token_id].type_line,
                 "text": card_text(tokens[token_id]), "face": f"tokens/{lang}/{token_id}.png"}
                for token_id in self._made.get(position, [])]

    def name(self, position: int, own_name: str | None = None) -> str:
        card = self.cards.get(position)
        return card.name if card is not None else own_name or "?"

    def is_basic(self, position: int, own_name: str | None = None) -> bool:
        """A basic land: one of the pool's, or a card known by a basic land's name."""
        card = self.cards.get(position)
        return card.is_basic if card is not None else (own_name or "") in BASIC_LANDS

    def is_companion(self, position: int) -> bool:
        """A companion (its rulings say): asked of every sideboard card at every state read, so kept per card."""
        found = self._companions.get(position)
        if found is None:
            card = self.cards.get(position)
            found = self._companions[position] = card is not None and any(r.id == "companion" for r in card_rulings(card))
        return found

    def judged(self, position: int, colors: str) -> Any:
        """The take rule's answer for a card and a deck's colors (kept while among the server's recent ones)."""
        key = (self._serial, position, colors)
        with _DESCRIBED_LOCK:
            found = _VERDICTS.get(key)
        if found is None:
            found = judge(self.cards[position], colors, self.table)
            with _DESCRIBED_LOCK:
                _VERDICTS[key] = found
        return found

    def describe(self, position: int, lang: str = "en", name: str | None = None) -> dict[str, Any]:
        """A card as the page shows it: a Hell card with its image, text and rulings (in `lang`); a player's own
        card (which left the game onto the sideboard) by its name alone. Kept, by card and language, while it is among
        the server's recently described (DESCRIBED_BYTES)."""
        card = self.cards.get(position)
        if card is None:
            return {"position": position, "name": name or "?", "hell": False, "cost": "", "type_line": "",
                    "image": None, "face": None, "text": "", "hell_rulings": [], "tokens": [], "clarification": None,
                    "moments": [], "companion": False, "zones": []}
        key = (self._serial, position, lang)
        with _DESCRIBED_LOCK:
            found = _DESCRIBED.get(key)
        if found is None:
            found = self._description(card, position, lang)
            with _DESCRIBED_LOCK:
                _DESCRIBED[key] = found
        return dict(found)

    def _description(self, card: Card, position: int, lang: str) -> dict[str, Any]:
        images = card.print_images
        type_line = shown_type_line(card, lang)  # a basic's in the asker's language, as its proxy says it
        return {"position": position, "id": self.face_of[position], "name": card.name, "hell": True,
                "cost": card.mana_cost, "type_line": type_line, "image": images[0] if images else None,
                "face": f"cards/{lang}/{self.face_of[position]}.png",  # relative: under the table's path
                "text": f"{card.name}\n{type_line}" if card.is_basic else card_text(card),
                "hell_rulings": [{"id": r.id, "name": r.name(lang), "text": r.text(lang)} for r in card_rulings(card)],
                "clarification": card_clarification(card, lang),  # the format's word on this very card
                "moments": [{"moment": m.moment, "words": m.words} for m in card_moments(card)],
                "companion": self.is_companion(position),
                "zones": [{"id": z.id, "name": z.name(lang)} for z in zones_of(card)],
                "tokens": self.made_by(position, lang)}

    def verdict(self, position: int, colors: str, lang: str = "en", draw_step: bool | None = None) -> dict[str, Any]:
        """A drawn card with the take rule's answer for the drawer's deck: what is missing, what to do (and whether
        the draw-step discount applies: `draw_step`, None when the table keeps no turns)."""
        result = self.judged(position, colors)
        return {**self.describe(position, lang), "verdict": result.verdict, "missing": list(result.missing),
                "draw_step": draw_step, "reminder": reminder(result.verdict, draw_step)}

    def ref(self, row: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
        """A card the viewer may see, by reference: its face id (for its description), name and owner (None:
        nobody has moved it out of Hell; its owner's library is the Hell library, its other zones the
        sideboard), and its states: a note, face down, revealed, a token card, its counters. A face-down card is
        its controller's to know: to the others it is an opaque id, no position, no name, no note."""
        position = int(row["position"])
        if row.get("face_down") and viewer != row["player"]:
            return {"id": self.down_id(position), "name": "", "hell": False, "owner": row["owner"], "face_down": True,
                    "basic": False, **({"tapped": bool(row.get("tapped"))} if row.get("zone") == Zone.BATTLEFIELD else {})}
        found = {"position": position, "id": self.face_of.get(position) or f"own-{position}",
                 "name": self.name(position, row["name"]), "hell": position in self.cards, "owner": row["owner"],
                 "basic": self.is_basic(position, row["name"])}
        for state in ("face_down", "revealed", "token"):
            if row.get(state):
                found[state] = True
        if row.get("note"):
            found["note"] = row["note"]
        if row.get("counters") and row.get("zone") != Zone.BATTLEFIELD:  # time counters in exile…
            found["counters"] = load_json(row["counters"])
        if row.get("zone") == Zone.SIDEBOARD and self.is_companion(position):
            found["companion"] = True
        if row.get("depth") is not None:
            found["depth"] = int(row["depth"])
        if row.get("zone") == Zone.BATTLEFIELD:
            counters = load_json(row["counters"]) if row.get("counters") else {}
            made = self.made_names(position) if counters else {}  # its tokens in play: counters named by id
            found.update(tapped=bool(row.get("tapped")), counters={k: n for k, n in counters.items() if k not in made},
                         tokens_in_play=[{"id": k, "name": made[k], "count": counters[k]} for k in made if k in counters])
        return found

    def down_id(self, position: int) -> str:
        """A face-down card's id for those who may not see it: made from the session's secret apart from its face
        id (which one who saw the card before would know)."""
        found = self._down.get(position)
        if found is None:
            found = self._down[position] = "down-" + hmac.new(self.secret.encode(), f"down:{position}".encode(),
                                                              hashlib.sha256).hexdigest()[:20]
        return found

    def described_faces(self, ids: list[str], places: dict[int, Place], viewer: str | None,
                        lang: str) -> dict[str, dict[str, Any]]:
        """The descriptions of the cards named by face id that the viewer may see (others are left out)."""
        return {face: self.describe(self.faces[face], lang) for face in ids
                if face in self.faces and may_see(places.get(self.faces[face]), viewer)}

    def state(self, seen: dict[str, Any], viewer: str | None, phase: str | None, lang: str) -> dict[str, Any]:
        """What `viewer` may see of the table the store read (`seen`): their own Hell cards and waiting card, the
        others' counts and played cards, the open sideboard, the library count and the log with the others'
        private cards left out. Cards are listed by reference; their descriptions come from `described_faces`."""
        by_player: dict[str, list[dict[str, Any]]] = {}
        sideboard, made = [], []
        for row in seen["cards"]:
            if row["zone"] == Zone.SIDEBOARD:
                sideboard.append(self.ref(row))
            elif row["zone"] == Zone.MADE:
                made.append(row)
            elif row["player"] is not None:
                by_player.setdefault(row["player"], []).append(row)
        sideboard_at = {ref["position"]: ref for ref in sideboard}
        return {
            "seed": seen["seed"], "game": seen["game"], "version": seen["version"], "you": viewer,
            "library_count": seen["library_count"], "sideboard": sideboard, "turn": seen["turn"],
            "life_start": seen["life_start"],
            "players": [{**self.player({**p, "life": seen["life_start"] if p["life"] is None else p["life"]},
                                       by_player.get(p["name"], []), viewer, phase, lang),
                          "companion": sideboard_at.get(p["companion"]) if p.get("companion") else None,
                          "companion_cast": p["name"] in seen.get("companions_cast", ())} for p in seen["players"]],
            "zones": [self.zone(zone, made, seen["players"], viewer, lang) for zone in seen.get("zones", [])],
            "log": [public_entry(e, viewer, self.shown_details) for e in seen["log"]], "log_more": seen["log_more"],
        }

    def zone(self, zone_id: str, rows: list[dict[str, Any]], players: list[dict[str, Any]], viewer: str | None,
             lang: str) -> dict[str, Any]:
        """A zone a Hell card created, as `viewer` sees it: its name and kind, and its cards (an open zone's for
        everyone; a deck's to its player alone, in no telling order) or their count."""
        spec = made_zone(zone_id)
        if spec is None:  # a zone of newer card data than this hhd knows
            return {"id": zone_id, "name": zone_id, "scope": "shared", "open": True, "ordered": False, "well": None,
                    "holders": []}
        mine = [r for r in rows if r["made"] == zone_id]

        def holder(name: str | None) -> dict[str, Any]:
            held = [r for r in mine if spec.shared or r["player"] == name]
            seen = spec.open or name is not None and name == viewer
            cards = [self.ref(r, viewer) for r in held] if seen else []
            if seen and spec.ordered and not spec.open:  # its player knows what is in it, not in which order
                cards.sort(key=lambda c: (c["name"], c["position"]))
            return {"player": name, "count": len(held), "cards": cards}

        return {"id": spec.id, "name": spec.name(lang), "scope": spec.scope, "open": spec.open,
                "ordered": spec.ordered, "well": spec.well,
                "holders": [holder(None)] if spec.shared else [holder(p["name"]) for p in players]}

    def player(self, player: dict[str, Any], mine: list[dict[str, Any]], viewer: str | None, phase: str | None,
               lang: str) -> dict[str, Any]:
        """A player as `viewer` sees them; `phase` is the viewer's own opening hand, shown to them alone."""
        hand = [r for r in mine if r["zone"] == Zone.HAND]
        pending = next((r["position"] for r in mine if r["zone"] == Zone.PENDING), None)
        deck = [r for r in mine if r["zone"] == Zone.DECK]
        zones = {str(z): [{**self.ref(r, viewer), "zone": str(z)} for r in mine if r["zone"] == z] for z in PUBLIC_ZONES}
        seen = {"name": player["name"], "colors": player["colors"], "card_count": len(hand),
                "waiting": pending is not None, "seated": player["seated"], "zones": zones,
                "life": player["life"], "counters": player["counters"],
                "played": [c for cards in zones.values() for c in cards], "deck_count": len(deck),
                "revealed": [self.ref(r, viewer) for r in hand if r.get("revealed")]}  # shown to the table
        if viewer != player["name"]:  # another's hand is private, and which Hell cards went into their library
            return {**seen, "cards": [], "deck": [], "pending": None, "opening": None}
        return {**seen, "cards": [self.ref(r, viewer) for r in hand], "deck": [self.ref(r, viewer) for r in deck],
                "opening": phase,
                "pending": self.verdict(pending, player["colors"], lang) if pending is not None else None}
