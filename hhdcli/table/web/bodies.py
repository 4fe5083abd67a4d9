"""The values a request sends, each read and checked in one small function: a value that is missing or not what
the table takes is refused (400), in one line in the asker's language (the table's catalog), naming what to send.
"""

from __future__ import annotations

from typing import Any

from flask import g, request

from hhdcli.jsonio import load_json
from hhdcli.table.game import rules
from hhdcli.table.game.decks import MAX_DECK_TEXT, BadColors, PlayerDeck, picked_colors
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import OWN_CARDS, CardCounter, Destination, End

MAX_BODY = 64 * 1024  # the largest request a table needs is a list of 97 positions
MAX_POSITION = 100_000
MAX_NAME = 200  # a card's name, as a player types it
MAX_PLAYER = 40  # a late player's name
MAX_IDS = 300  # card descriptions asked for at once
MAX_DELTA = 99  # counters or life changed at once
MAX_TOKEN_ID = 64  # a token's id ("token-" and the registry's)
MAX_AT_ONCE = 20  # cards revealed or taken at random at once (Search for the Nebula reveals four)


def text_ok(value: str) -> bool:
    """Text SQLite and JSON can hold (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def body() -> dict[str, Any]:
    """The request's JSON object, read by hhd's own reader (once per request): too deep, NaN or not UTF-8 is a
    400."""
    if "body" not in g:
        raw = request.get_data(cache=True)
        try:
            g.body = load_json(raw) if raw else {}
        except ValueError:
            g.body = None
    data = g.body
    if not isinstance(data, dict):
        raise TableError('send a JSON object, for example {"player": "Anna"}', status=400)
    return data


def named(key: str = "player") -> str | None:
    name = body().get(key)
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip() or not text_ok(name):
        raise TableError('say who acts: {"player": NAME}', status=400)
    return name


def seat() -> str:
    """The seat a host action is about: it must say whose."""
    name = named()
    if name is None:
        raise TableError('say whose seat: {"player": NAME}', status=400)
    return name


def seat_code() -> str | None:
    """A re-seat code from the board's QR, when the phone sends one."""
    code = body().get("seat")
    if code is not None and (not isinstance(code, str) or not text_ok(code)):
        raise TableError('send the re-seat code as {"seat": CODE}', status=400)
    return code


def new_player() -> tuple[str, PlayerDeck]:
    """A late player's name and picked colors."""
    from hhdcli.table.game.names import player_name

    name = body().get("player")
    if not isinstance(name, str) or not (name := player_name(name)) or not text_ok(name):
        raise TableError("name the player (at most {most} characters)", status=400, most=MAX_PLAYER)
    return name, picked_colors(body().get("colors", ""))


def position_value(value: Any, own_cards: bool = False) -> bool:
    """A library position; with `own_cards`, a player's own card's number too."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return 1 <= value <= MAX_POSITION or own_cards and OWN_CARDS < value <= OWN_CARDS + MAX_POSITION


def positions(key: str) -> list[int]:
    value = body().get(key, [])
    if not isinstance(value, list) or not all(position_value(p) for p in value):
        raise TableError('"{key}" must be a list of library positions (numbers from 1)', status=400, key=key)
    return value


def to_bottom() -> list[int]:
    """The Hell cards an opening hand keeps at the bottom, in the order ticked ("positions", as /api/mulligan
    once took)."""
    key = next((k for k in (End.BOTTOM, "positions") if k in body()), None)
    if key is None:
        raise TableError('say which Hell cards go to the bottom: {"bottom": [...]} (an empty list for none)',
                         status=400)
    return positions(key)


def position(own_cards: bool = False) -> int:
    """The card a request names: a library position (with `own_cards`, a player's own card's number too)."""
    value: Any = body().get("position")
    if not position_value(value, own_cards):
        raise TableError('say which card: {"position": N}', status=400)
    return int(value)


def card_position() -> int:
    """A card in play or on its way: a library position, or a player's own card's number."""
    return position(own_cards=True)


def destination() -> Destination:
    return rules.destination_of(body().get("to"))


def optional_position() -> int | None:
    """A card a request may name (none: the top card)."""
    return position() if body().get("position") is not None else None


def where() -> dict[str, Any]:
    """What a move may say besides its card and destination: whose zones ("whose"), which created zone ("zone"),
    how deep in a library ("at")."""
    found: dict[str, Any] = {}
    for key in ("whose", "zone"):
        value = body().get(key)
        if value is not None and (not isinstance(value, str) or not value or len(value) > MAX_NAME or not text_ok(value)):
            raise TableError('"{key}" is a name', status=400, key=key)
        if value is not None:
            found[key] = value
    if body().get("at") is not None:
        found["at"] = rules.depth_of(body().get("at"))
    return found


def count(most: int = MAX_AT_ONCE) -> int:
    """How many cards an action takes at once (1 unless said)."""
    value = body().get("count", 1)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
        raise TableError("take 1 to {most} cards at a time", status=400, most=most)
    return value


def flag(key: str) -> bool:
    value = body().get(key, False)
    if not isinstance(value, bool):
        raise TableError('"{key}" is true or false', status=400, key=key)
    return value


def zone() -> str:
    value = body().get("zone")
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise TableError('say which zone: {"zone": ID}, one this game has', status=400)
    return value


def optional_whose() -> str | None:
    return whose() if body().get("whose") is not None else None


def tapped() -> bool:
    value = body().get("tapped")
    if not isinstance(value, bool):
        raise TableError('say tapped or untapped: {"tapped": true or false}', status=400)
    return value


def card_counter() -> CardCounter:
    return rules.card_counter_kind(body().get("kind"))


def token() -> str:
    value = body().get("token")
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TOKEN_ID:
        raise TableError('say which token: {"token": ID}, from the card\'s tokens', status=400)
    return value


def amount(key: str = "delta") -> int:
    value = body().get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_DELTA <= value <= MAX_DELTA or not value:
        raise TableError("add or remove 1 to {most} counters at a time", status=400, most=MAX_DELTA)
    return value


def whose() -> str:
    """The player a life or counter change is about (anyone's: damage is dealt by others)."""
    name = body().get("whose")
    if not isinstance(name, str) or not text_ok(name):
        raise TableError('say whose: {"whose": NAME}', status=400)
    return name


def deck() -> str | PlayerDeck:
    """A player's deck as their phone sends it: the pasted text (a list, or a deck's link), or the colors
    picked."""
    text, colors = body().get("text"), body().get("colors")
    if isinstance(text, str) and text.strip() and len(text) <= MAX_DECK_TEXT and text_ok(text):
        return text
    try:
        return picked_colors(colors)
    except BadColors:
        raise TableError('paste the deck list as {{"text": …}} (at most {most} characters) or pick its colors as '
                         '{{"colors": "RG"}}', status=400, most=MAX_DECK_TEXT) from None


def starting_life() -> int:
    return rules.starting_life(body().get("life"))


def die_sides() -> int:
    """A die's sides (6 unless said; the rules refuse a die the table has not)."""
    sides = body().get("sides", 6)
    return sides if isinstance(sides, int) and not isinstance(sides, bool) else 0


def step() -> str:
    value = body().get("step")
    return value if isinstance(value, str) else ""


def own_card() -> str:
    """A card of the player's own deck, by its name (its spaces folded)."""
    name = body().get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not text_ok(name):
        raise TableError('name the card: {{"player": NAME, "name": CARD}} (at most {most} characters)',
                         status=400, most=MAX_NAME)
    return " ".join(name.split())


def hell_library() -> tuple[int, End]:
    """A card on the sideboard and which end of the Hell library it goes to."""
    value: Any = body().get("position")
    end = body().get("end", End.TOP)
    if not position_value(value) or end not in tuple(End):
        raise TableError('say which card and where: {"position": N, "end": "top" or "bottom"}', status=400)
    return value, End(end)


def confirmed() -> bool:
    return body().get("confirm") is True


def game() -> int | None:
    """The game a confirmation was for (the page sends the game it asked about)."""
    value: Any = body().get("game")
    if value is not None and not position_value(value):
        raise TableError('"game" is the number of the game to end', status=400)
    return value


def anyone() -> bool:
    return body().get("anyone") is True


def log_before() -> int | None:
    """?before=ID: the oldest log entry a page shows."""
    before = request.args.get("before", "")
    if before and not (before.isascii() and before.isdigit() and len(before) < 19):
        raise TableError("?before= takes a log entry's id", status=400)
    return int(before) if before else None


def face_ids() -> list[str]:
    """?ids=a,b,c: the face ids a page asks the descriptions of."""
    return [i for i in request.args.get("ids", "").split(",") if i][:MAX_IDS]
