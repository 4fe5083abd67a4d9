"""The request's context: what the app serves (the session, its code and secrets), the one Blueprint its routes
are on, who is asking (a player by their token, the host by its secret: hhdcli/table/web/routes.py says where
secrets travel) and in which language, and `acts`, which declares on a route who may take its action.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, g, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.wrappers import Response as BaseResponse

from hhdcli.i18n import N_
from hhdcli.table.game.changes import Changes
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.session import Session
from hhdcli.table.web.bodies import named, text_ok
from hhdcli.table.web.i18n import choose_language, translations
from hhdcli.table.web.images import FACES, Faces

CODE_COOKIE, TOKEN_COOKIE, HOST_COOKIE = "hhd_code", "hhd_player", "hhd_host"  # each kept for its table's path
AUTH_SCHEME = "Table"  # Authorization: Table code=…, player=…, host=… (a script's way; a page's is its cookies)
KEPT_FOR = 30 * 86400  # seconds a page keeps a table's code, its seat and the host's secret
DAMAGED = N_("This table's saved state is damaged; the server's operator has been told.")  # its answer, 503


@dataclass
class Served:
    """What one app serves: the session, its join code (None: loopback only), the host's secret, the change
    counter and the addresses phones join at."""

    session: Session
    code: str | None
    host: str
    changes: Changes
    join_urls: list[str] = field(default_factory=list)
    images: Path | None = None  # the card image cache (its downloads): a card's print image, when there
    faces: Faces = FACES  # the faces shown, kept for the whole server (by bytes), not per table
    origin: str | None = None  # the public address's origin (--public-url): the only one that may act
    damaged: bool = False  # its state file was found damaged while it ran: nothing is read or written again
    community: bool = False  # one of hhd serve's tables: a page not answered blames the server, not a laptop


class FastJSON(DefaultJSONProvider):
    """Answers' JSON written by msgspec: a state read's 8 KB in 0.02 ms, where json's encoder took 0.25 (five
    reads an action); UTF-8 as it is, keys in their order (sorted, a state read of 100 cards took a third more).
    What msgspec cannot write, Flask's own provider writes."""

    ensure_ascii = False
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        import msgspec

        if kwargs.get("separators", (",", ":")) == (",", ":") and set(kwargs) <= {"separators"}:  # compact
            try:
                return msgspec.json.encode(obj).decode()
            except (TypeError, msgspec.EncodeError):
                pass
        return super().dumps(obj, **kwargs)


SERVED = "hhd.table"  # the request's environ key of the table it is for (routes.serving, hhd serve's dispatcher)


def served() -> Served:
    found: Served = request.environ[SERVED]
    return found


# the page's stylesheet and modules: files of the package, served as they are (no build step); every route of the
# table is on this one Blueprint (routes.py, reads.py, actions.py)
table = Blueprint("table", __name__, static_folder="static", static_url_path="/static")


def same_bytes(given: str | None, expected: str) -> bool:
    """A code or secret from the network against ours: as bytes, in constant time (compare_digest refuses
    str with non-ASCII letters), whatever the letters sent."""
    return given is not None and hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())






# --- who is asking, in which language ---------------------------------------------------------------------


def language() -> str:
    """The asker's language, chosen once per request: the one its address names (a card's face,
    /cards/ru/…), else ?lang=, the page's remembered choice, the browser's."""
    if "lang" not in g:
        named = (request.view_args or {}).get("lang") or request.args.get("lang")
        g.lang, _source = choose_language(named, remembered=request.cookies.get("hhd_lang"),
                                          accept_language=request.accept_languages)
    chosen: str = g.lang
    return chosen


def gettext() -> Callable[[str], str]:
    """The asker's language's messages (their remembered choice, else their browser's)."""
    return translations(language()).gettext


def credentials() -> dict[str, str]:
    """What a script's `Authorization: Table code=…, player=…, host=…` names (read once per request)."""
    if "credentials" not in g:
        from werkzeug.http import parse_dict_header

        scheme, _space, rest = request.headers.get("Authorization", "").partition(" ")
        g.credentials = parse_dict_header(rest) if scheme.lower() == AUTH_SCHEME.lower() else {}
    found: dict[str, str] = g.credentials
    return found


def carried(key: str, cookie: str) -> str | None:
    """A secret the request carries: in Authorization (a script's), else in this table's cookie (a page's)."""
    value = credentials().get(key) or request.cookies.get(cookie_name(cookie, table_path()))
    return value if value and text_ok(value) else None


def token() -> str | None:
    return carried("player", TOKEN_COOKIE)


def viewer() -> str | None:
    """The player whose token the request carries, or None (looked up once per request: a scan of the seats)."""
    if "viewer" not in g:
        g.viewer = served().session.viewer(token())
    found: str | None = g.viewer
    return found


def is_host() -> bool:
    return same_bytes(carried("host", HOST_COOKIE), served().host)


def keep_cookie(response: BaseResponse, cookie: str, value: str, path: str) -> None:
    """A secret the page keeps for one table: its code, its seat's token, the host's secret. HttpOnly (no script
    reads it), SameSite=Strict (no other site's request carries it), for the table's path alone (another table of
    the same server keeps its own); Secure is added under https (online.py)."""
    response.set_cookie(cookie_name(cookie, path), value, max_age=KEPT_FOR if value else 0, path=path,
                        httponly=True, samesite="Strict")


def cookie_name(cookie: str, path: str) -> str:
    """A table's name for one of its cookies. A browser keeps cookies per host, not per port: two `hhd table`s of
    one laptop (ports 8000 and 8001, both at /) would each overwrite the other's code, seat and host secret, so a
    table at / names its cookies with its port (`hhd_code_8000`); a table under a path of its own (hhd serve's
    /t/<id>/) is kept apart by the path already."""
    if path != "/":
        return cookie
    try:
        port = urlsplit(f"//{request.host}").port
    except ValueError:  # a Host header whose port is no port: the name without one
        port = None
    return f"{cookie}_{port}" if port else cookie


def table_path() -> str:
    """The path this table is served under: its cookies' path."""
    return request.script_root + "/"



def with_fragment(url: str, **values: str) -> str:
    """`url` with `values` added after its `#` (where a code travels: browsers never send it)."""
    from urllib.parse import urlencode

    return url + ("&" if "#" in url else "#") + urlencode(values)


def join_url() -> str:
    """The address phones join at: the first hhd table printed, else this request's own (with the join code after
    `#`). The one rule for it: the board shows it (the state's "join_url"), the QR code and a re-seat code
    encode it."""
    if served().join_urls:
        return served().join_urls[0]
    here, code = request.host_url.rstrip("/") + table_path(), served().code
    return with_fragment(here, code=code) if code else here



# --- who may act ---------------------------------------------------------------------------------------------

NO_SEAT = N_("this needs your seat at the table: open the table's address on your phone and pick your name")


def player() -> str:
    """The player acting: the one whose token the request carries (a "player" in the body must be them)."""
    who = viewer()
    if who is None:
        raise TableError(NO_SEAT, status=401)
    name = named()
    if name is not None and name != who:
        raise TableError("only {player}'s own phone acts for {player}", status=403, player=name)
    return who


def player_or_host() -> str | None:
    """A player (by token) or the host (by secret: None, logged as the host)."""
    if viewer() is None and is_host() and named() is None:
        return None
    return player()


def host() -> None:
    if not is_host():
        raise TableError("only the host's board does this (the address hhd table printed for this computer)",
                         status=401 if viewer() is None else 403)


class Who(Enum):
    """Who may take a route's action: the route is given its actor (a player's name, None for the host)."""

    PLAYER = "a player"
    HOST = "the host"
    PLAYER_OR_HOST = "a player or the host"


ACTOR: dict[Who, Callable[[], str | None]] = {Who.PLAYER: player, Who.HOST: host, Who.PLAYER_OR_HOST: player_or_host}


def acts(who: Who) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declares on a route who may take its action (as Flask's tutorial's `login_required`): the asker is
    checked before the route reads anything, and the route is given its actor first."""
    def declared(route: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(route)
        def checked(**values: Any) -> Any:
            return route(ACTOR[who](), **values)
        checked.who = who  # type: ignore[attr-defined]  # what the route declares, for a reader (and a test)
        return checked
    return declared
