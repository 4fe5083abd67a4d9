"""The Hell table's web app (Flask): a JSON API under /api/ and one page that uses it (a phone's hand, or the
laptop's shared board).

Every state-changing request is someone's: a player's (their token, from /api/join or a re-seat code) or the
host's (the host secret the terminal prints for the board). A request without one is 401; a player acting for
another is 403. Reads without a token see what a spectator may: counts, the open sideboard, played cards and the
public log.

Where secrets travel: never in an address the server sees, nor in a header a proxy logs. A reverse proxy's access
log keeps every request's URI and headers except `Authorization` and `Cookie`, so the join code, a seat's token
and the host secret go in one of those two alone:
- a page keeps them as cookies (HttpOnly, SameSite=Strict, Secure under https) scoped to its table's path
  (`/t/<table id>/` under `hhd serve`, `/` under `hhd table`), so one browser can host and play several tables;
- the address a person opens carries the join code (and the board's host secret, a re-seat code) after `#`
  (`…/#code=CODE&host=SECRET`), which browsers never send: the page trades it for its cookies in
  `POST api/enter` (the code in the JSON body) and drops the fragment;
- a script sends `Authorization: Table code=CODE, player=TOKEN, host=SECRET` (any of the three) instead.
The app's own addresses are relative to where it is mounted (SCRIPT_NAME), so the same app serves `hhd table`'s
one table at `/` and each of `hhd serve`'s at `/t/<table id>/`.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request, url_for
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from hhdcli.cards import Card
from hhdcli.http import LOOPBACK_NAMES
from hhdcli.i18n import N_
from hhdcli.jsonio import load_json
from hhdcli.table.game.changes import Changes
from hhdcli.table.game.errors import Depends, NeedsConfirmation, TableError
from hhdcli.table.game.rules import OWN_CARDS, End, card_counter_kind, destination_of, starting_life
from hhdcli.table.game.session import Session
from hhdcli.table.game.store import disk_full
from hhdcli.table.web.i18n import LANGUAGES, choose_language, translations
from hhdcli.table.web.images import FACES, Faces, face_tag

if TYPE_CHECKING:
    from hhdcli.decklists import Deck

CODE_COOKIE, TOKEN_COOKIE, HOST_COOKIE = "hhd_code", "hhd_player", "hhd_host"  # each kept for its table's path
AUTH_SCHEME = "Table"  # Authorization: Table code=…, player=…, host=… (a script's way; a page's is its cookies)
KEPT_FOR = 30 * 86400  # seconds a page keeps a table's code, its seat and the host's secret
MAX_BODY = 64 * 1024  # the largest request a table needs is a list of 97 positions
MAX_POSITION = 100_000
MAX_NAME = 200  # a card's name, as a player types it
MAX_PLAYER = 40  # a late player's name
MAX_IDS = 300  # card descriptions asked for at once
MAX_DELTA = 99  # counters or life changed at once
MAX_TOKEN_ID = 64  # a token's id ("token-" and the registry's)
LOG_PAGE = 30
# The page runs its own files only: no inline script or style, no other site, no frame around it.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


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
    pages: dict[str, str] = field(default_factory=dict)  # the page in each language: the same for every asker
    origin: str | None = None  # the public address's origin (--public-url): the only one that may act


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


def served() -> Served:
    found: Served = current_app.extensions["hhd-table"]
    return found


def same_bytes(given: str | None, expected: str) -> bool:
    """A code or secret from the network against ours: as bytes, in constant time (compare_digest refuses
    str with non-ASCII letters), whatever the letters sent."""
    return given is not None and hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


def create_app(session: Session, code: str | None = None, changes: Changes | None = None,
               host_secret: str | None = None, join_urls: list[str] | None = None,
               images: Path | None = None, origin: str | None = None, faces: Faces | None = None) -> Flask:
    """The app for one session; with a `code`, every request must carry it (its cookie, or Authorization's
    `code=`); with an `origin` (the public address's), a POST from any other origin is refused. `hhd table` and
    `hhd serve` build it through hhdcli/table/hosting/online.py's `table_app`, with the guards an open server needs."""
    app = Flask(__name__, static_folder=None)  # the blueprint serves the page's files
    app.json = FastJSON(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a larger body is refused (413) before it is read
    app.extensions["hhd-table"] = Served(session, code, host_secret or session.host_secret(), changes or Changes(),
                                         join_urls or [], images, faces or FACES, origin=origin)
    app.register_blueprint(table)
    return app


# the page's stylesheet and modules: files of the package, served as they are (no build step)
table = Blueprint("table", __name__, static_folder="static", static_url_path="/static")


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


def _text(value: str) -> bool:
    """Text SQLite and JSON can hold (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
    value = credentials().get(key) or request.cookies.get(cookie)
    return value if value and _text(value) else None


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
    response.set_cookie(cookie, value, max_age=KEPT_FOR if value else 0, path=path, httponly=True,
                        samesite="Strict")


def table_path() -> str:
    """The path this table is served under: its cookies' path."""
    return request.script_root + "/"


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
    if not isinstance(name, str) or not name.strip() or not _text(name):
        raise TableError('say who acts: {"player": NAME}', status=400)
    return name


def seat_named_by_host() -> str:
    """The seat a host action is about: only the host may ask, and it must say whose."""
    host()
    name = named()
    if name is None:
        raise TableError('say whose seat: {"player": NAME}', status=400)
    return name


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


# --- guards ------------------------------------------------------------------------------------------------


@table.before_app_request
def same_site() -> Any:
    """A page on another site may not act on the table: a POST must come from this table's own page
    (`Sec-Fetch-Site: same-origin`, Origin, when sent, this host's) as JSON (which a cross-site form cannot
    send), and a table on loopback answers only to loopback names (no DNS rebinding)."""
    from hhdcli.table.web.origin import from_elsewhere

    if served().code is None and (request.host.rsplit(":", 1)[0].strip("[]") not in LOOPBACK_NAMES):
        return jsonify(error=gettext()("this table answers on 127.0.0.1 or localhost only")), 403
    if request.method != "POST":
        return None
    public = served().origin
    ours = public.__eq__ if public else (lambda origin: urlparse(origin).netloc == request.host)
    if from_elsewhere(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), ours):
        return jsonify(error=gettext()("requests from another site are refused")), 403
    if request.mimetype != "application/json":
        return jsonify(error=gettext()("send JSON (Content-Type: application/json)")), 415
    return None


@table.before_app_request
def check_code() -> Any:
    """Off loopback every request carries the join code (its cookie, or Authorization's); a page without it is
    the join page, in its language, whose script trades the code after the address's `#` for the cookie
    (`api/enter`) and opens the table."""
    code = served().code
    if code is None:
        return None
    if same_bytes(carried("code", CODE_COOKIE), code):
        return None
    if request.endpoint in ("table.static", "table.enter"):
        return None  # the page's stylesheet and scripts hold no secret; enter checks the code it is given
    if request.method == "GET" and not request.path.startswith(("/api/", "/cards/", "/tokens/")):
        from hhdcli.render.documents.templates import render

        _ = gettext()
        return Response(render("table-join.html.j2", lang=language(), _=_,
                                   static=url_for("table.static", filename="").rstrip("/")), status=403, mimetype="text/html")
    return jsonify(error=gettext()("this table needs its join code: open the address hhd table printed")), 403


@table.after_app_request
def announce(response: Response) -> Response:
    """Every action that went through wakes the pages listening for changes; every answer carries the page's
    Content-Security-Policy (a page of ours runs nothing but its own files)."""
    if request.method == "POST" and response.status_code < 400:
        served().changes.bump()
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


@table.app_errorhandler(TableError)
def refused(error: TableError) -> Any:
    """The refusal in the asker's language; `confirm` when confirming would let it through."""
    return jsonify(error=error.said(gettext()), confirm=isinstance(error, NeedsConfirmation),
                   depends=isinstance(error, Depends)), error.status


@table.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> Any:
    return jsonify(error=gettext()(error.name)), error.code


@table.app_errorhandler(Exception)
def failed(error: Exception) -> Any:
    """hhd's own failure: one line in the host's terminal, and an answer that names no internals."""
    from hhdcli.output import echo

    # through the write guard: the path is the client's, and may hold an escape sequence
    echo(f"hhd table: {request.method} {request.path} failed: {type(error).__name__}: {error}", err=True)
    if disk_full(error):  # SQLite rolled the action back: every action answered before it is kept
        return jsonify(error=gettext()("the server's disk is full: this action was not saved (the ones before it "
                                       "are); try again when the host has freed space")), 507
    return jsonify(error=gettext()("the table failed to do that; the host's terminal says why")), 500


# --- the page ----------------------------------------------------------------------------------------------


@table.get("/")
def page() -> Any:
    from hhdcli.table.web.page import page_html

    asked, lang = request.args.get("lang"), language()
    pages = served().pages
    if lang not in pages:
        pages[lang] = page_html(served().session, lang, url_for("table.static", filename="").rstrip("/"))
    answer = Response(pages[lang], mimetype="text/html", headers={"Cache-Control": "no-store"})
    if asked in ("en", "ru"):  # a switch the page remembers
        answer.set_cookie("hhd_lang", lang, max_age=365 * 86400, samesite="Lax", httponly=True)
    return answer


@table.post("/api/enter")
def enter() -> Any:
    """A page trades what its address brought after `#` for this table's cookies: {"code": the join code,
    "host": the host's secret}, either or both (a table on loopback has no code). A wrong one sets nothing."""
    code, host_secret, ours = body().get("code"), body().get("host"), served().code
    if ours is not None and not same_bytes(code if isinstance(code, str) else carried("code", CODE_COOKIE), ours):
        raise TableError("this table needs its join code: open the address hhd table printed", status=403)
    if host_secret is not None and not same_bytes(host_secret if isinstance(host_secret, str) else None,
                                                  served().host):
        raise TableError("this is not the host's secret: open the board's address hhd table printed", status=403)
    answer = jsonify(host=host_secret is not None or is_host())
    if isinstance(code, str) and ours is not None:
        keep_cookie(answer, CODE_COOKIE, code, table_path())
    if isinstance(host_secret, str):
        keep_cookie(answer, HOST_COOKIE, host_secret, table_path())
    return answer


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


@table.get("/qr.svg")
def join_qr() -> Any:
    """The join address as a QR code, for the board."""
    from hhdcli.table.web.page import qr_svg

    return Response(qr_svg(join_url()), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


# --- reading -----------------------------------------------------------------------------------------------


STATE_CACHING = "private, no-cache"  # kept by the page, asked again each time with its ETag
WANT_STATE = "X-Want-State"  # an action's asker wants the table as it left it, in the action's answer


@table.get("/api/state")
def state() -> Any:
    """What the asker may see of the table; 304 with no body when it is what they hold (If-None-Match names its
    ETag): a page reads the state at each change of the table, most of them changes it has already."""
    served().changes.asked(viewer())  # before the tag: this read shows its asker connected
    tag = state_tag()
    if request.if_none_match.contains(tag.strip('"')):
        return Response(status=304, headers={"ETag": tag, "Cache-Control": STATE_CACHING})
    answer = jsonify(state_seen())
    answer.headers.update({"ETag": tag, "Cache-Control": STATE_CACHING})
    return answer


def state_tag() -> str:
    """The state's ETag: what makes the asker's state (the table's version, who asks, in which language, who is
    connected), hashed: a read of one row and the seats, where the state itself is the table's rows made into
    the viewer's view and JSON."""
    import hashlib

    who, changes = viewer(), served().changes
    online = sorted(name for name in {*changes.listening, *changes.seen} if changes.online(name))
    # the host the page asked (what join_url is made of, when hhd table printed none), not join_url itself:
    # making an address an IRI again costs more than the rest of the tag
    made = f"{served().session.version()}|{who}|{language()}|{is_host()}|{online}|{request.host}"
    return '"' + hashlib.blake2b(made.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest() + '"'


def state_seen() -> dict[str, Any]:
    """The asker's state, as /api/state answers it."""
    who = viewer()
    changes = served().changes
    changes.asked(who)
    seen = served().session.state(LOG_PAGE, viewer=who, lang=language())  # shared: added to, not changed
    return {**seen, "players": [{**p, "online": changes.online(p["name"])} for p in seen["players"]],
            "host": is_host(), "join_url": join_url()}


@table.after_app_request
def with_state(response: Response) -> Response:
    """An action's answer, when its page asks (X-Want-State), carries the table as the action left it for the
    asker, and that state's ETag: the acting page reads nothing more, and the push that follows finds its read
    unchanged (304)."""
    if request.method != "POST" or response.status_code != 200 or not request.headers.get(WANT_STATE) \
            or not response.is_json:
        return response
    answer = response.get_json()
    if isinstance(answer, dict):
        response.set_data(current_app.json.dumps({**answer, "state": state_seen(), "state_etag": state_tag()}))
    return response


@table.get("/api/cards")
def cards() -> Any:
    """The descriptions of cards the asker may see, by face id: ?ids=a,b,c (a page asks once per card)."""
    ids = [i for i in request.args.get("ids", "").split(",") if i][:MAX_IDS]
    return jsonify(served().session.describe_faces(ids, viewer(), language()))


@table.get("/api/log")
def log() -> Any:
    """Older log entries, a page at a time: ?before=ID (the oldest entry shown)."""
    before = request.args.get("before", "")
    if before and not (before.isascii() and before.isdigit() and len(before) < 19):
        raise TableError("?before= takes a log entry's id", status=400)
    return jsonify(served().session.log(int(before) if before else None, LOG_PAGE, viewer()))


@table.get("/api/events")
def events() -> Any:
    """A stream of server-sent events: one each time the table changes (pages fall back to polling)."""
    stream = served().changes.stream(viewer())
    first = next(stream)  # refused now (too many listeners) rather than inside the stream
    return Response(_chain(first, stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@table.get(f"/cards/<any({', '.join(LANGUAGES)}):lang>/<face_id>.png")
def face(lang: str, face_id: str) -> Any:
    """A card's face for those who may see it: its print image when the image cache holds it (hhd proxies
    fetched it), else the face hhd draws from its text, with its words (a basic's type line, the format's
    rulings, the footer) in the language the address names. The page never asks another site.

    The language is in the address, not only in a Vary header: the answer may be kept a day (max-age), and a
    player who switches the page to Russian changes a cookie and ?lang=, not Accept-Language, so under
    `Vary: Accept-Language` the browser would go on showing the English face it kept for the same address."""
    session = served().session
    position = session.face_position(face_id)
    if position is None or not session.may_see(position, viewer()):  # face down, or another's
        raise TableError("no card to show here", status=404)
    return _face(session.cards[position], lang, "private, max-age=86400")


def _face(card: Card, lang: str, cache_control: str) -> Response:
    """A face, or 304 with no body when the browser holds it already (its If-None-Match names the tag): a page
    asks for each face once, then only whether it changed."""
    tag = face_tag(card, served().images, lang)
    headers = {"Cache-Control": cache_control, "ETag": tag}
    if request.if_none_match.contains(tag.strip('"')):
        return Response(status=304, headers=headers)
    shown = served().faces.face(card, served().session.table, served().images, lang, tag)
    return Response(shown.data, mimetype=shown.kind, headers=headers)


@table.get(f"/tokens/<any({', '.join(LANGUAGES)}):lang>/<token_id>.png")
def token_face(lang: str, token_id: str) -> Any:
    """The face of a token the library's cards make (a card's description lists them): public, as the token is;
    its print image when the image cache holds it, else drawn from its data."""
    session = served().session
    card = session.views.tokens().get(token_id)
    if card is None:
        raise TableError("no token to show here", status=404)
    return _face(card, lang, "public, max-age=86400")


# --- seats -------------------------------------------------------------------------------------------------


@table.post("/api/join")
def join() -> Any:
    """A phone takes a free seat (its token, as a cookie the page keeps and in the answer), or a phone holding a
    token (a re-seat code) confirms it. A seat another phone holds is refused."""
    session = served().session
    code = body().get("seat")
    if code is not None:  # a re-seat code from the board's QR: good for one phone, once
        if not isinstance(code, str) or not _text(code):
            raise TableError('send the re-seat code as {"seat": CODE}', status=400)
        return _seated(*session.redeem(code, time.time()))
    who = viewer()
    name = named()
    if who is not None and name in (None, who):
        given = token()
    elif name is None:
        raise TableError(NO_SEAT, status=401)
    else:
        given = session.join(name)
        who = name
    return _seated(who, given)


def _seated(who: str | None, seat_token: str | None) -> Response:
    """The seat's token, in the answer (a script's) and as the cookie the page keeps (for this table alone)."""
    answer = jsonify(player=who, token=seat_token)
    keep_cookie(answer, TOKEN_COOKIE, seat_token or "", table_path())
    return answer


@table.post("/api/host/release")
def release() -> Any:
    name = seat_named_by_host()
    served().session.release(name)
    return jsonify(released=name)


@table.post("/api/host/reseat")
def reseat() -> Any:
    """A re-seat code for a player's new phone, as an address and its QR code: it seats one phone, once, within
    minutes; the old phone is refused now."""
    from hhdcli.table.web.page import qr_svg

    name = seat_named_by_host()
    given = served().session.reseat(name)
    url = with_fragment(join_url(), seat=given)
    return jsonify(player=name, url=url, qr=qr_svg(url))


@table.post("/api/host/add-player")
def add_player() -> Any:
    from hhdcli import colors as palette
    from hhdcli.table.game.names import player_name

    host()
    name, colors = body().get("player"), body().get("colors", "")
    if not isinstance(name, str) or not (name := player_name(name)) or not _text(name):
        raise TableError("name the player (at most {most} characters)", status=400, most=MAX_PLAYER)
    letters = palette.parse_letters(colors) if isinstance(colors, str) else None
    if letters is None:
        raise TableError("colors: the letters W U B R G P, or none", status=400)
    served().session.add_player(name, "".join(letters))
    return jsonify(player=name, colors="".join(letters))


# --- actions -----------------------------------------------------------------------------------------------


@table.post("/api/draw")
def draw() -> Any:
    return jsonify(served().session.draw(player(), language()))


@table.post("/api/take")
def take() -> Any:
    return jsonify(served().session.take(player(), language()))


@table.post("/api/decline")
def decline() -> Any:
    return jsonify(served().session.decline(player(), language()))


@table.post("/api/opening-hand")
def opening_hand() -> Any:
    return jsonify(cards=served().session.opening_hand(player(), language()))


@table.post("/api/mulligan")
def mulligan() -> Any:
    return jsonify(served().session.mulligan(player(), language()))


@table.post("/api/keep")
def keep() -> Any:
    """The opening hand kept: "bottom" lists the Hell cards that go to the bottom, in the order ticked."""
    who = player()
    key = next((k for k in ("bottom", "positions") if k in body()), None)  # "positions", as /api/mulligan once took
    if key is None:
        raise TableError('say which Hell cards go to the bottom: {"bottom": [...]} (an empty list for none)',
                         status=400)
    return jsonify(to_bottom=served().session.keep(who, positions(key)))


@table.post("/api/play")
def play() -> Any:
    who = player()
    position: Any = body().get("position")
    if not position_value(position):
        raise TableError('say which card: {"position": N}', status=400)
    return jsonify(served().session.play(who, position, language()))


@table.post("/api/play-sideboard")
def play_sideboard() -> Any:
    return jsonify(served().session.play_sideboard_top(player(), language()))


@table.post("/api/to-sideboard")
def to_sideboard() -> Any:
    who = player()
    position: Any = body().get("position")
    if not position_value(position, own_cards=True):
        raise TableError('say which card: {"position": N}', status=400)
    return jsonify(served().session.to_sideboard(who, position, language()))


def card_position() -> int:
    """The card a request names: a library position, or a player's own card's number."""
    position: Any = body().get("position")
    if not position_value(position, own_cards=True):
        raise TableError('say which card: {"position": N}', status=400)
    return int(position)


@table.post("/api/move")
def move() -> Any:
    """A card to another zone: {"position": N, "to": "battlefield", "graveyard", "exile", "hand", "library-top",
    "library-bottom" or "sideboard"} (its owner's hand or library; the sideboard: it leaves the game)."""
    who = player_or_host()
    position = card_position()
    return jsonify(served().session.move(who, position, destination_of(body().get("to")), language()))


@table.post("/api/tap")
def tap() -> Any:
    """A card on the battlefield tapped ({"tapped": true}) or untapped (false)."""
    who = player_or_host()
    position = card_position()
    tapped = body().get("tapped")
    if not isinstance(tapped, bool):
        raise TableError('say tapped or untapped: {"tapped": true or false}', status=400)
    return jsonify(served().session.tap(who, position, tapped))


@table.post("/api/card-counter")
def card_counter() -> Any:
    """Counters on a card on the battlefield: {"position": N, "kind": "+1/+1", "delta": 1 or -1…}."""
    who = player_or_host()
    position = card_position()
    return jsonify(served().session.card_counter(who, position, card_counter_kind(body().get("kind")), amount()))


@table.post("/api/tokens")
def tokens() -> Any:
    """Tokens a card on the battlefield made, into play or gone: {"position": N, "token": ID (of its
    description's `tokens`), "delta": 1 or -1…}; its controller's (or the host's) to count."""
    who = player_or_host()
    position = card_position()
    token = body().get("token")
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_ID:
        raise TableError('say which token: {"token": ID}, from the card\'s tokens', status=400)
    return jsonify(served().session.tokens(who, position, token, amount()))


def amount(key: str = "delta") -> int:
    value = body().get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_DELTA <= value <= MAX_DELTA or not value:
        raise TableError("add or remove 1 to {most} counters at a time", status=400, most=MAX_DELTA)
    return value


def whose() -> str:
    """The player a life or counter change is about (anyone's: damage is dealt by others)."""
    name = body().get("whose")
    if not isinstance(name, str) or not _text(name):
        raise TableError('say whose: {"whose": NAME}', status=400)
    return name


MAX_DECK_TEXT = 60_000  # a pasted deck list (a 250-card cube is a fifth of it)


def _linked_deck(text: str) -> Deck | None:
    """The deck a pasted link names (one of the six sites hhd check reads), read from its site off the server's
    loop; None when the text is no deck link. A link the table cannot read is refused in one line, never taken
    for an empty list."""
    from hhdcli.decksites import is_deck_url
    from hhdcli.errors import HhdError
    from hhdcli.table.web.offloop import off_loop

    link = text.strip()
    if "\n" in link or not is_deck_url(link):
        return None
    read = served().session.read_link
    if read is None:
        raise TableError("this table does not read deck links: paste the deck list as text", status=400)
    try:
        return off_loop(read, link)
    except HhdError as exc:  # the site's refusal, in the words hhd check uses
        raise TableError("the deck link could not be read: {reason}", status=400, reason=exc.message) from exc


@table.post("/api/deck")
def deck() -> Any:
    """A player's deck from their phone: {"text": a pasted list, any format hhd check reads} or {"colors": "RG"}.
    The answer says the deck's colors and what hhd check would warn of; the take rule uses them from the next
    draw."""
    from hhdcli import colors as palette

    who = player()
    text, colors = body().get("text"), body().get("colors")
    if isinstance(text, str) and text.strip() and len(text) <= MAX_DECK_TEXT and _text(text):
        found = served().session.set_deck(who, _linked_deck(text) or text, None)
    elif isinstance(colors, str) and (letters := palette.parse_letters(colors)) is not None:
        found = served().session.set_deck(who, None, "".join(letters))
    else:
        raise TableError('paste the deck list as {{"text": …}} (at most {most} characters) or pick its colors as '
                         '{{"colors": "RG"}}', status=400, most=MAX_DECK_TEXT)
    _ = gettext()
    warnings = list(found.pop("problems"))
    unresolved = found.pop("unresolved")
    if unresolved:  # quoted: a card's name may hold a comma
        warnings.append(_("not known, so not counted as lands: {names}").format(
            names="; ".join(f"«{name}»" for name in unresolved)))
    if found["lands"] == 0:
        warnings.append(_("the deck has no lands: every card with a colored cost is a choice"))
    return jsonify({**found, "warnings": warnings})


@table.post("/api/life")
def life() -> Any:
    """{"whose": NAME, "delta": -3}: a player's life total changed."""
    who = player_or_host()
    return jsonify(served().session.life(who, whose(), amount()))


@table.post("/api/player-counter")
def player_counter() -> Any:
    """{"whose": NAME, "kind": "poison", "delta": 1}: counters on a player (rules.PlayerCounter's kinds); commander
    damage says whose commander dealt it: {"whose": NAME, "kind": "commander", "from": NAME, "delta": 5}."""
    who = player_or_host()
    return jsonify(served().session.player_counter(who, whose(), body().get("kind"), amount(), body().get("from")))


@table.post("/api/host/life-start")
def life_start() -> Any:
    host()
    return jsonify(served().session.life_start(None, starting_life(body().get("life"))))


@table.post("/api/die")
def die() -> Any:
    """{"sides": 6}: a die rolled by the server, in everyone's log."""
    sides = body().get("sides", 6)
    if not isinstance(sides, int) or isinstance(sides, bool):
        sides = 0
    return jsonify(served().session.die(player_or_host(), sides))


@table.post("/api/coin")
def coin() -> Any:
    return jsonify(served().session.coin(player_or_host()))


@table.post("/api/first-player")
def first_player() -> Any:
    return jsonify(served().session.first_player(player_or_host()))


@table.post("/api/next-turn")
def next_turn() -> Any:
    return jsonify(served().session.next_turn(player_or_host()))


@table.post("/api/step")
def step() -> Any:
    step = body().get("step")
    return jsonify(served().session.step(player_or_host(), step if isinstance(step, str) else ""))


@table.post("/api/own-card")
def own_card() -> Any:
    """A card of the player's own deck leaves the game: onto the sideboard's top, by name."""
    who = player()
    name = body().get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not _text(name):
        raise TableError('name the card: {{"player": NAME, "name": CARD}} (at most {most} characters)',
                         status=400, most=MAX_NAME)
    return jsonify(served().session.own_card_to_sideboard(who, " ".join(name.split())))


@table.post("/api/to-hell-library")
def to_hell_library() -> Any:
    who = player_or_host()
    position: Any = body().get("position")
    end = body().get("end", "top")
    if not position_value(position) or end not in tuple(End):
        raise TableError('say which card and where: {"position": N, "end": "top" or "bottom"}', status=400)
    return jsonify(served().session.to_hell_library(who, position, end, language()))


@table.post("/api/end-game")
def end_game() -> Any:
    """Two steps: without "confirm": true the answer says what ending the game will do, and nothing moves;
    "game": N with the confirmation ends game N only (the page sends the game it asked about)."""
    who = player_or_host()
    if body().get("confirm") is not True:
        raise NeedsConfirmation("ending the game puts every Hell card outside the libraries and the sideboard at "
                                "the bottom of the Hell library in random order, and begins game {next}",
                                next=served().session.game() + 1)
    game: Any = body().get("game")
    if game is not None and not position_value(game):
        raise TableError('"game" is the number of the game to end', status=400)
    return jsonify(served().session.end_game(who, game))


@table.post("/api/undo")
def undo() -> Any:
    """The asker's own last action; with "anyone": true (confirmed), or for the host, the table's last."""
    who = player_or_host()
    return jsonify(served().session.undo(who, body().get("anyone") is True))


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
