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

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from flask import Flask, Response, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from hhdcli.http import LOOPBACK_NAMES
from hhdcli.table.game.changes import Changes
from hhdcli.table.game.errors import Depends, NeedsConfirmation, TableError
from hhdcli.table.game.session import Session
from hhdcli.table.game.store import Damaged, damage_found, disk_full
from hhdcli.table.web import actions, bodies, reads
from hhdcli.table.web.bodies import MAX_BODY
from hhdcli.table.web.context import (
    CODE_COOKIE,
    DAMAGED,
    HOST_COOKIE,
    NO_SEAT,
    SERVED,
    TOKEN_COOKIE,
    FastJSON,
    Served,
    Who,
    acts,
    carried,
    gettext,
    is_host,
    join_url,
    keep_cookie,
    language,
    same_bytes,
    served,
    table,
    table_path,
    token,
    viewer,
    with_fragment,
)
from hhdcli.table.web.images import FACES, Faces

__all__ = ["CODE_COOKIE", "CONTENT_SECURITY_POLICY", "actions", "create_app", "gettext", "keep_cookie", "reads",
           "serving", "tables_app"]

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# The page runs its own files only: no inline script or style, no other site, no frame around it.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(session: Session, code: str | None = None, changes: Changes | None = None,
               host_secret: str | None = None, join_urls: list[str] | None = None,
               images: Path | None = None, origin: str | None = None, faces: Faces | None = None) -> Flask:
    """The app for one session; with a `code`, every request must carry it (its cookie, or Authorization's
    `code=`); with an `origin` (the public address's), a POST from any other origin is refused. `hhd table`
    builds it through hhdcli/table/hosting/online.py's `table_app`, with the guards an open server needs."""
    app = tables_app()
    app.wsgi_app = serving(Served(session, code, host_secret or session.host_secret(), changes or Changes(),  # type: ignore[method-assign,assignment]
                                  join_urls=join_urls or [], images=images, faces=faces or FACES, origin=origin),
                           app.wsgi_app)
    return app


def tables_app() -> Flask:
    """The table's routes, for any table: each request's table (`Served`) is put in its environ by whoever hands
    it on (`serving` for `hhd table`'s one, `hhd serve`'s dispatcher for each of its tables). One app for all of a
    server's tables: an app of its own per table cost ~190 KB and 1,000 objects the collector walks, each."""
    app = Flask(__name__, static_folder=None)  # the blueprint serves the page's files
    app.json = FastJSON(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a larger body is refused (413) before it is read
    app.register_blueprint(table)
    return app


def serving(table_served: Served, app: WSGIApp) -> WSGIApp:
    """`app` serving this one table."""

    def one_table(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        environ[SERVED] = table_served
        return app(environ, start_response)

    return one_table


# --- guards ------------------------------------------------------------------------------------------------


@table.before_app_request
def not_damaged() -> Any:
    """A table whose state file was found damaged while it ran reads and writes nothing more."""
    return damaged_answer() if served().damaged else None


def damaged_answer() -> Any:
    said = gettext()(DAMAGED)
    if request.method == "GET" and not request.path.startswith(("/api/", "/cards/", "/tokens/")):
        return Response(said, status=503, mimetype="text/plain")
    return jsonify(error=said), 503


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


# POSTs that change nothing another page sees: a page trading its address's code for its own cookies (each phone
# opening the page would otherwise push a full state to every page of the table)
UNSEEN = frozenset({"table.enter"})


@table.after_app_request
def announce(response: Response) -> Response:
    """Every action that went through wakes the pages listening for changes; every answer carries the page's
    Content-Security-Policy (a page of ours runs nothing but its own files)."""
    if request.method == "POST" and response.status_code < 400 and request.endpoint not in UNSEEN:
        served().changes.bump(by=reads.asker_key())
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


@table.app_errorhandler(TableError)
def refused(error: TableError) -> Any:
    """The refusal in the asker's language; `confirm` when confirming would let it through. The table's files
    changed under it (Damaged) is no refusal of the asker's: it is said as damage is."""
    if isinstance(error, Damaged):
        return failed(error)
    return jsonify(error=error.said(gettext()), confirm=isinstance(error, NeedsConfirmation),
                   depends=isinstance(error, Depends)), error.status


@table.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> Any:
    return jsonify(error=gettext()(error.name)), error.code


@table.app_errorhandler(Exception)
def failed(error: Exception) -> Any:
    """hhd's own failure: one line in the host's terminal, and an answer that names no internals. A state file
    found damaged while the table runs is said once; from then on the table refuses every request (`damaged`)
    and touches the file no more, left as it is for a backup to be restored."""
    from hhdcli.output import echo

    if damage_found(error):
        served().damaged = True
        served().session.store.refuse(str(error))
        said = error.values["reason"] if isinstance(error, Damaged) else error
        echo(f"hhd table: the state file {served().session.path} is damaged ({said}): the table answers 503 and "
             "writes nothing more; stop it and restore the file from a backup", err=True)
        return damaged_answer()
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
    made = page_html(served().session, lang, url_for("table.static", filename="").rstrip("/"), served().community)
    answer = Response(made, mimetype="text/html", headers={"Cache-Control": "no-store"})
    if asked in ("en", "ru"):  # a switch the page remembers
        answer.set_cookie("hhd_lang", lang, max_age=365 * 86400, samesite="Lax", httponly=True)
    return answer


@table.post("/api/enter")
def enter() -> Any:
    """A page trades what its address brought after `#` for this table's cookies: {"code": the join code,
    "host": the host's secret}, either or both (a table on loopback has no code). A wrong one sets nothing."""
    code, host_secret, ours = bodies.body().get("code"), bodies.body().get("host"), served().code
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


@table.get("/qr.svg")
def join_qr() -> Any:
    """The join address as a QR code, for the board."""
    from hhdcli.table.web.page import qr_svg

    return Response(qr_svg(join_url()), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


# --- seats -------------------------------------------------------------------------------------------------


@table.post("/api/join")
def join() -> Any:
    """A phone takes a free seat (its token, as a cookie the page keeps and in the answer), or a phone holding a
    token (a re-seat code) confirms it. A seat another phone holds is refused."""
    session = served().session
    code = bodies.seat_code()
    if code is not None:  # a re-seat code from the board's QR: good for one phone, once
        return _seated(*session.redeem(code, time.time()))
    who = viewer()
    name = bodies.named()
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
@acts(Who.HOST)
def release(_host: None) -> Any:
    name = bodies.seat()
    served().session.release(name)
    return jsonify(released=name)


@table.post("/api/host/reseat")
@acts(Who.HOST)
def reseat(_host: None) -> Any:
    """A re-seat code for a player's new phone, as an address and its QR code: it seats one phone, once, within
    minutes; the old phone is refused now."""
    from hhdcli.table.web.page import qr_svg

    name = bodies.seat()
    given = served().session.reseat(name)
    url = with_fragment(join_url(), seat=given)
    return jsonify(player=name, url=url, qr=qr_svg(url))


@table.post("/api/host/add-player")
@acts(Who.HOST)
def add_player(_host: None) -> Any:
    name, picked = bodies.new_player()
    served().session.add_player(name, picked.letters)
    return jsonify(player=name, colors=picked.letters)
