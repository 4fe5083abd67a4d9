"""The Hell table's web app (Flask): a JSON API under /api/ and one phone-sized page that uses it."""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from hhdcli.jsonio import load_json
from hhdcli.table.state import OWN_CARDS, NeedsConfirmation, Session, TableError

TOKEN_COOKIE = "hhd_player"
MAX_BODY = 64 * 1024  # the largest request a table needs is a list of 97 positions
MAX_POSITION = 100_000
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
MAX_NAME = 200  # a card's name, as a player types it
LOG_PAGE = 30


class Changes:
    """The table's change counter, which event streams wait on: each action wakes every open page at once."""

    def __init__(self, max_streams: int = 64) -> None:
        self.count = 0
        self.streams = 0
        self.max_streams = max_streams  # each open page holds a server thread
        self.closed = False
        self._changed = threading.Condition()

    def bump(self) -> None:
        with self._changed:
            self.count += 1
            self._changed.notify_all()

    def close(self) -> None:
        """The server stops: every stream ends now, not at its next keep-alive."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self.count != seen or self.closed, timeout)
            return self.count

    def stream(self, keepalive: float = 15.0, lifetime: float = 600.0) -> Iterator[str]:
        """Server-sent events: `change` at once and after every action; a comment line every `keepalive`
        seconds (which also finds pages that went away); the page's EventSource reconnects after `lifetime`."""
        with self._changed:
            if self.streams >= self.max_streams:
                raise TableError("too many pages are listening; this one will ask every second instead",
                                 status=503)
            self.streams += 1
        try:
            seen, ends = self.count, time.monotonic() + lifetime
            yield f"retry: 1000\nevent: change\ndata: {seen}\n\n"
            while not self.closed and time.monotonic() < ends:
                now = self.wait(seen, keepalive)
                if now == seen:
                    yield ": still here\n\n"
                    continue
                seen = now
                yield f"event: change\ndata: {seen}\n\n"
        finally:
            with self._changed:
                self.streams -= 1


# what the page's script writes, translated on the server with the rest of the page
PAGE_SCRIPT_MESSAGES = ("land", "take", "choice", "needs", "→ sideboard", "In Hell's Half-Draft:",
                        "Your deck's lands make:", "no colour",
                        "a land: into your hand; in your draw step you may play it at once",
                        "take it; in your draw step you may cast it for {2} less",
                        "take it, or decline: it goes on top of the sideboard", "Undo it anyway?", "owner",
                        "Who are you?", "Pick your name first.", "no owner: its owner's library is the Hell library",
                        "Hell library: top", "Hell library: bottom", "to the bottom:", "game", "table",
                        "cards to the bottom",
                        # the log's actions, named in a refusal ("the last action is Anna's (opening hand)")
                        "draw", "decline", "opening hand", "mulligan", "play from sideboard", "to sideboard",
                        "own card to sideboard", "to the Hell library", "end of game",
                        # the log's sentences
                        "drew a Hell card", "took the card drawn", "declined", "drew an opening hand",
                        "took a mulligan", "played the sideboard's top card", "sent to the sideboard",
                        "sent a card of their deck to the sideboard", "put into the Hell library", "ended the game")


def _text(value: str) -> bool:
    """Text SQLite and JSON can hold (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def create_app(session: Session, code: str | None = None, changes: Changes | None = None) -> Flask:
    """The app for one session; with a `code`, every request must carry it (?code= or X-Join-Code)."""
    app = Flask(__name__)
    changes = changes or Changes()
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a larger body is refused (413) before it is read
    faces: dict[int, bytes] = {}

    def gettext() -> Any:
        """The asker's language's messages (their remembered choice, else their browser's)."""
        from hhdcli.table.i18n import choose_language, translations

        lang = choose_language(None, request.cookies.get("hhd_lang"), request.accept_languages)
        return translations(lang).gettext

    @app.before_request
    def same_site() -> Any:
        """A page on another site may not act on the table: a POST must come from this table's own page
        (Origin, when sent, is this host) as JSON (which a cross-site form cannot send), and a table on
        loopback answers only to loopback names (no DNS rebinding)."""
        if code is None and (request.host.rsplit(":", 1)[0].strip("[]") not in LOOPBACK_NAMES):
            return jsonify(error=gettext()("this table answers on 127.0.0.1 or localhost only")), 403
        if request.method != "POST":
            return None
        origin = request.headers.get("Origin")
        if origin and urlparse(origin).netloc != request.host:
            return jsonify(error=gettext()("requests from another site are refused")), 403
        if request.mimetype != "application/json":
            return jsonify(error=gettext()("send JSON (Content-Type: application/json)")), 415
        return None

    @app.before_request
    def check_code() -> Any:
        if code is None:
            return None
        given = request.args.get("code") or request.headers.get("X-Join-Code") or ""
        if not hmac.compare_digest(given, code):
            return jsonify(error=gettext()("this table needs its join code: open the address hhd table printed")), 403
        return None

    @app.after_request
    def announce(response: Response) -> Response:
        """Every action that went through wakes the pages listening for changes."""
        if request.method == "POST" and response.status_code < 400 and request.path != "/api/join":
            changes.bump()
        return response

    @app.errorhandler(TableError)
    def refused(error: TableError) -> Any:
        """The refusal in the asker's language; `confirm` when confirming would let it through."""
        return jsonify(error=error.said(gettext()), confirm=isinstance(error, NeedsConfirmation)), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        return jsonify(error=error.description or error.name), error.code

    def body() -> dict[str, Any]:
        """The request's JSON object, read by hhd's own reader: too deep, NaN or not UTF-8 is a 400."""
        raw = request.get_data(cache=True)
        try:
            data = load_json(raw) if raw else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise TableError('send a JSON object, for example {"player": "Anna"}', status=400)
        return data

    def viewer() -> str | None:
        """Who is asking: the player whose token the request carries (cookie, or X-Player-Token)."""
        return session.viewer(request.headers.get("X-Player-Token") or request.cookies.get(TOKEN_COOKIE))

    def named() -> str:
        name = body().get("player")
        if not isinstance(name, str) or not name.strip() or not _text(name):
            raise TableError('say who acts: {"player": NAME}', status=400)
        return name

    def player() -> str:
        """The player acting, who must be the one asking once they have joined."""
        name = named()
        if not session.may_act(name, viewer()):
            raise TableError("only {player}'s own phone acts for {player}: pick your name on it", status=403,
                             player=name)
        return name

    def position_value(value: Any, own_cards: bool = False) -> bool:
        """A library position; with `own_cards`, a player's own card's number too."""
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return 1 <= value <= MAX_POSITION or own_cards and OWN_CARDS < value <= OWN_CARDS + MAX_POSITION

    def positions(key: str) -> list[int] | None:
        value = body().get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(position_value(p) for p in value):
            raise TableError('"{key}" must be a list of library positions (numbers from 1)', status=400, key=key)
        return value

    @app.get("/")
    def page() -> Any:
        from hhdcli.render.templates import render
        from hhdcli.table.i18n import choose_language, translations

        asked = request.args.get("lang")
        lang = choose_language(asked, request.cookies.get("hhd_lang"), request.accept_languages)
        _ = translations(lang).gettext
        page = Response(render("table.html.j2", seed=session.seed, lang=lang, _=_,
                               messages={m: _(m) for m in PAGE_SCRIPT_MESSAGES}), mimetype="text/html")
        if asked in ("en", "ru"):  # a switch the page remembers
            page.set_cookie("hhd_lang", lang, max_age=365 * 86400, samesite="Lax")
        return page

    @app.post("/api/join")
    def join() -> Any:
        """A player picks their name: their token, as a cookie the page keeps (and in the answer, for scripts).
        A name taken on another phone is not given to a second one."""
        name = named()
        if not session.may_act(name, viewer()):
            raise TableError("{player} has joined on another phone already", status=403, player=name)
        token = session.join(name)
        answer = jsonify(player=name, token=token)
        answer.set_cookie(TOKEN_COOKIE, token, max_age=30 * 86400, httponly=True, samesite="Strict")
        return answer

    @app.get("/api/state")
    def state() -> Any:
        return jsonify(session.state(LOG_PAGE, viewer=viewer()))

    @app.get("/api/log")
    def log() -> Any:
        """Older log entries, a page at a time: ?before=ID (the oldest entry shown)."""
        before = request.args.get("before", "")
        if before and not (before.isdigit() and len(before) < 19):
            raise TableError("?before= takes a log entry's id", status=400)
        return jsonify(session.log(int(before) if before else None, LOG_PAGE, viewer()))

    @app.get("/api/events")
    def events() -> Any:
        """A stream of server-sent events: one each time the table changes (pages fall back to polling)."""
        stream = changes.stream()
        first = next(stream)  # refused now (too many listeners) rather than inside the stream
        return Response(_chain(first, stream), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.post("/api/draw")
    def draw() -> Any:
        return jsonify(session.draw(player()))

    @app.post("/api/take")
    def take() -> Any:
        return jsonify(session.take(player()))

    @app.post("/api/decline")
    def decline() -> Any:
        return jsonify(session.decline(player()))

    @app.post("/api/opening-hand")
    def opening_hand() -> Any:
        return jsonify(cards=session.opening_hand(player()))

    @app.post("/api/mulligan")
    def mulligan() -> Any:
        return jsonify(to_bottom=session.mulligan(player(), positions("positions")))

    @app.post("/api/play-sideboard")
    def play_sideboard() -> Any:
        return jsonify(session.play_sideboard_top(player()))

    @app.post("/api/to-sideboard")
    def to_sideboard() -> Any:
        position: Any = body().get("position")
        if not position_value(position, own_cards=True):
            raise TableError('say which card: {"position": N}', status=400)
        return jsonify(session.to_sideboard(position))

    @app.post("/api/own-card")
    def own_card() -> Any:
        """A card of the player's own deck leaves the game: onto the sideboard's top, by name."""
        name = body().get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not _text(name):
            raise TableError('name the card: {{"player": NAME, "name": CARD}} (at most {most} characters)',
                             status=400, most=MAX_NAME)
        return jsonify(session.own_card_to_sideboard(player(), " ".join(name.split())))

    @app.post("/api/to-hell-library")
    def to_hell_library() -> Any:
        position: Any = body().get("position")
        end = body().get("end", "top")
        if not position_value(position) or end not in ("top", "bottom"):
            raise TableError('say which card and where: {"position": N, "end": "top" or "bottom"}', status=400)
        return jsonify(session.to_hell_library(position, end))

    @app.post("/api/end-game")
    def end_game() -> Any:
        returned = positions("returned") if request.get_data(cache=True) else None
        return jsonify(session.end_game(returned))

    @app.post("/api/undo")
    def undo() -> Any:
        data = body() if request.get_data(cache=True) else {}
        who = data.get("player")
        if who is not None and (not isinstance(who, str) or not _text(who)):
            raise TableError('say who undoes: {"player": NAME}', status=400)
        return jsonify(session.undo(who, data.get("anyone") is True))

    @app.get("/cards/<face_id>.png")
    def face(face_id: str) -> Any:
        from hhdcli.render.faces import face_png

        position = session.face_position(face_id)
        if position is None or not session.may_see(position, viewer()):  # face down, or another's
            raise TableError("no card to show here", status=404)
        if position not in faces:
            faces[position] = face_png(session.cards[position], session.table, dpi=150)
        return Response(faces[position], mimetype="image/png", headers={"Cache-Control": "max-age=86400"})

    return app


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest
