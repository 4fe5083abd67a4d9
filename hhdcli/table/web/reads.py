"""The table's reads: the state each asker may see (with its ETag, and in an action's answer when its page asks),
card descriptions, the log a page at a time, the stream of changes, and the cards' and tokens' faces."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, jsonify, request

from hhdcli.cards import Card
from hhdcli.table.game.changes import change_event
from hhdcli.table.game.errors import TableError
from hhdcli.table.web import bodies
from hhdcli.table.web.context import Served, is_host, join_url, language, served, table, token, viewer
from hhdcli.table.web.i18n import LANGUAGES
from hhdcli.table.web.images import face_tag

LOG_PAGE = 30

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
    # the host the page asked (what join_url is made of, when hhd table printed none), not join_url itself:
    # making an address an IRI again costs more than the rest of the tag
    return tag_made(served(), served().session.version(), viewer(), language(), is_host(), request.host)


def tag_made(table: Served, version: int, who: str | None, lang: str, host: bool, address: str) -> str:
    import hashlib

    changes = table.changes
    online = sorted(name for name in {*changes.listening, *changes.seen} if changes.online(name))
    made = f"{version}|{who}|{lang}|{host}|{online}|{address}"
    return '"' + hashlib.blake2b(made.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest() + '"'


def state_seen() -> dict[str, Any]:
    """The asker's state, as /api/state answers it."""
    served().changes.asked(viewer())
    return state_made(served(), viewer(), language(), is_host(), join_url())


def state_made(table: Served, who: str | None, lang: str, host: bool, join: str) -> dict[str, Any]:
    """What `who` may see of the table; `change` is the number of the table's last change it shows (what the
    event stream's pushes count): a page holding it reads nothing at a push of that number or lower, as the
    acting page at the push of its own action."""
    changes = table.changes
    counted = changes.count  # before the state is read: a change while it is made is pushed with a higher number
    seen = table.session.state(LOG_PAGE, viewer=who, lang=lang)  # shared: added to, not changed
    return {**seen, "players": [{**p, "online": changes.online(p["name"])} for p in seen["players"]],
            "host": host, "join_url": join, "change": counted}


def asker_key() -> tuple[str | None, bool] | None:
    """Who asks, as a change and an event stream know it (a stream is not told its own asker's change): a seat,
    the host, or None (a spectator, or a phone joining: every spectator's stream is told its change in full)."""
    who, host = viewer(), is_host()
    return (who, host) if who is not None or host else None


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
    return jsonify(served().session.describe_faces(bodies.face_ids(), viewer(), language()))


@table.get("/api/log")
def log() -> Any:
    """Older log entries, a page at a time: ?before=ID (the oldest entry shown)."""
    return jsonify(served().session.log(bodies.log_before(), LOG_PAGE, viewer()))


@table.get("/api/events")
def events() -> Any:
    """A stream of server-sent events: one each time the table changes (pages fall back to polling); with
    ?carry=state, each change carries the asker's new state and its ETag, so the page asks for nothing."""
    told = telling() if request.args.get("carry") == "state" else None
    stream = served().changes.stream(viewer(), told=told, asker=asker_key())
    first = next(stream)  # refused now (too many listeners) rather than inside the stream
    return Response(_sent(first, stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def telling() -> Callable[[int], str]:
    """A change made into the event that carries the stream's asker's state, as a read would answer it: the
    request's cookies, language and address are kept, the seat looked up again at each change (a seat the host
    released shows a spectator's table at once)."""
    import msgspec

    table, kept, lang, host, join, address = served(), token(), language(), is_host(), join_url(), request.host

    def told(number: int) -> str:
        try:
            who = table.session.viewer(kept)
            state = state_made(table, who, lang, host, join)
            tag = tag_made(table, state["version"], who, lang, host, address)
            return f"event: state\ndata: {msgspec.json.encode({'state': state, 'etag': tag}).decode()}\n\n"
        except Exception:  # noqa: BLE001 (the page's read meets it, and the app's error handler says it once)
            return change_event(number)

    return told


def _sent(first: str, rest: Iterator[str]) -> Iterator[bytes]:
    """The stream's events as bytes, and an empty item after each: the server and Werkzeug hold the item they
    last had while the stream waits for the next change, and so would this frame: a page's whole state (8-26 KB)
    kept for each of 500 streams."""
    yield first.encode()
    del first
    yield b""  # written as nothing (gevent and Werkzeug's own server skip it)
    for event in rest:
        sent = event.encode()
        del event
        yield sent
        del sent
        yield b""


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
