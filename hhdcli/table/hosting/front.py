"""`hhd serve`'s web side: the front page (en/ru) where anyone opens a table or types a short code, and the
dispatcher that hands each request to its table by its path: a table is served at `/t/<table id>/` (the
tables' one app mounted there, SCRIPT_NAME), the id being its join code's SHA-256, which grants nothing; the code
itself travels in the table's cookie or Authorization (hhdcli/table/web/routes.py), never in an address. Any
other path is the front page's.

Links to a table carry its code after `#` (`/t/<id>/#code=CODE`, the board's `&host=SECRET` too), which
browsers never send; the page trades it for its cookies. A short code typed on the front page is answered with
the code's cookie (for the table's path) and a redirect to the table's bare address, so no code is in a URL or a
Location header a proxy logs."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from flask import Flask, Response, redirect, request
from werkzeug.exceptions import HTTPException

from hhdcli.errors import HhdError
from hhdcli.i18n import N_
from hhdcli.table.hosting.community import MAX_SEATS, Community, Refused, Seat, shown_short, table_id, table_path
from hhdcli.table.hosting.throttle import EVERYONE
from hhdcli.table.web.context import DAMAGED, SERVED
from hhdcli.table.web.i18n import asker_language, choose_language, translations
from hhdcli.table.web.offloop import off_loop

STATIC = Path(__file__).parent.parent / "web" / "static"
MAX_UPLOAD = 2 * 1024 * 1024  # a library file of hhd generate is some 30 KB; a deck list a few


def front_app(community: Community) -> Flask:
    from hhdcli.table.hosting.online import harden
    from hhdcli.table.web.origin import from_elsewhere

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD
    harden(app, community.public)
    app.after_request(_strict)

    @app.get("/")
    def front() -> Any:
        return page(None, 200)

    @app.post("/open")
    def open_table() -> Any:
        refused = same_site() or throttled("open")
        if refused:
            return refused
        seats = [Seat(request.form.get(f"name{n}", ""), request.form.get(f"colors{n}", ""),
                      request.form.get(f"deck{n}", "")) for n in range(MAX_SEATS)]
        upload = request.files.get("library")
        data = upload.read() if upload and upload.filename else None
        try:  # off the loop: drawing a library, reading decks (a site's answer) and writing the session
            opened = off_loop(community.open, seats, request.form.get("seed", ""), data, request.form.get("life", ""))
        except Refused as exc:
            return page(exc.said(_), exc.status)
        except HhdError as exc:  # the session could not start (hhd's own words, in the server's language)
            return page(exc.message, 400)
        from urllib.parse import quote

        from hhdcli.table.web.page import qr_svg

        here = (community.public.origin or request.host_url.rstrip("/")) + table_path(table_id(opened.code))
        join = f"{here}#code={opened.code}"  # after #: in this page's body only, never in an address sent
        qr = off_loop(qr_svg, join)  # choosing the code's mask is 10-20 ms of Python: another table's reads go on
        return html("serve-opened.html.j2", 201, join=join, board=f"{join}&host={opened.host_secret}",
                    short=shown_short(opened.short), days=f"{community.expire / 86400:g}",
                    qr="data:image/svg+xml;charset=utf-8," + quote(qr))

    @app.post("/join")
    def join_by_short() -> Any:
        refused = same_site() or throttled("short") or throttled("missed", EVERYONE, count=False)
        if refused:
            return refused
        from hhdcli.table.web.routes import CODE_COOKIE, keep_cookie

        code = community.code_for_short(request.form.get("short", ""))
        if code is None or community.table_for(code) is None:
            community.throttle.count("missed", EVERYONE)  # guesses from every address, bounded together
            return page(_("No table has this code: check its letters with the host."), 404)
        path = table_path(table_id(code))
        answer = redirect(path, 303)  # the table's bare address: its code goes in the cookie, not the Location
        keep_cookie(answer, CODE_COOKIE, code, path)
        return answer

    @app.errorhandler(413)
    def too_large(_error: Any) -> Any:
        # the form is not read again (it is what was too large): the page comes back with its fields empty
        return html("serve-front.html.j2", 413, form={},
                    error=_("The library file is too large: send the one hhd generate wrote."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        """Flask's own refusals (an address the front page does not have, a GET of a form's address) in the
        asker's language, on the front page."""
        return html("serve-front.html.j2", error.code or 400, error=_(error.name), form={})

    @app.errorhandler(Exception)
    def failed(error: Exception) -> Any:
        """hhd's own failure: one line in the server's log (no traceback), a page naming no internals."""
        from hhdcli.output import echo

        echo(f"hhd serve: {request.method} {request.path} failed: {type(error).__name__}: {error}", err=True)
        return html("serve-front.html.j2", 500, error=_(FAILED), form={})

    def _(message: str) -> str:
        return translations(lang()).gettext(message)

    def lang() -> str:
        return choose_language(request.args.get("lang"), remembered=request.cookies.get("hhd_lang"),
                               accept_language=request.accept_languages)[0]

    def html(template: str, status: int, **context: Any) -> Response:
        from hhdcli.render.documents.templates import render

        answer = Response(render(template, lang=lang(), _=_, seats=MAX_SEATS, **context), status=status,
                          mimetype="text/html", headers={"Cache-Control": "no-store"})
        if request.args.get("lang") in ("en", "ru"):
            answer.set_cookie("hhd_lang", lang(), max_age=365 * 86400, samesite="Lax", httponly=True)
        return answer

    def page(error: str | None, status: int) -> Response:
        return html("serve-front.html.j2", status, error=error, form=request.form)

    def same_site() -> Response | None:
        """A form of another site (another port of this host included) may not open tables or try codes in its
        visitors' names; our own forms are sent with `Sec-Fetch-Site: same-origin` and our Origin."""
        ours = community.public.origin or request.host_url.rstrip("/")
        if from_elsewhere(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), ours.__eq__):
            return page(_("Requests from another site are refused."), 403)
        return None

    def throttled(kind: str, address: str | None = None, count: bool = True) -> Response | None:
        asker = (request.remote_addr or "") if address is None else address
        seconds = community.throttle.wait(kind, asker) if count else community.throttle.waiting(kind, asker)
        if not seconds:
            return None
        answer = page(_("Too many tries from your address: try again in {seconds} s.").format(seconds=seconds), 429)
        answer.headers["Retry-After"] = str(seconds)
        return answer

    return app


def _strict(response: Response) -> Response:
    """The front page runs nothing but its own stylesheet, as a table's page does."""
    from hhdcli.table.web.routes import CONTENT_SECURITY_POLICY

    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


FAILED = N_("The server failed to do that; its log says why.")
TABLE_ID = re.compile("[0-9a-f]{64}")  # a join code's SHA-256 (community.table_id)
NO_TABLE = N_("No table is at this address: it may have been idle too long and deleted, or the link is cut short.")


def dispatcher(community: Community, front: Flask) -> Callable[..., Iterable[bytes]]:
    """The server's one WSGI app: /t/<id>/… goes to the tables' app (mounted at /t/<id>) for that table, the rest
    to the front page's."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", "/"))
        if not path.startswith("/t/"):
            return front(environ, start_response)
        key, slash, rest = path[3:].partition("/")
        if not TABLE_ID.fullmatch(key):
            return refusal(environ, start_response, "404 Not Found", NO_TABLE)
        if not slash:  # /t/<id>: its page's relative addresses need the slash
            query = environ.get("QUERY_STRING", "")
            start_response("308 Permanent Redirect", [("Location", f"/t/{key}/" + (f"?{query}" if query else "")),
                                                     ("Content-Length", "0")])
            return [b""]
        found = community.table_for_id(key)
        if isinstance(found, str):  # the table's files are damaged: its players are told, the others go on
            return refusal(environ, start_response, "503 Service Unavailable", DAMAGED, [("Retry-After", "600")])
        if found is None:
            return refusal(environ, start_response, "404 Not Found", NO_TABLE)
        environ["SCRIPT_NAME"] = str(environ.get("SCRIPT_NAME", "")) + f"/t/{key}"
        environ["PATH_INFO"] = "/" + rest
        environ[SERVED] = found
        return community.app(environ, start_response)

    return app


def refusal(environ: dict[str, Any], start_response: Callable[..., Any], status: str, message: str,
            headers: list[tuple[str, str]] | None = None) -> Iterable[bytes]:
    """The dispatcher's own answer, in the asker's language: JSON to the API, a page with the front's stylesheet
    to a browser."""
    lang = asker_language(environ)
    said = translations(lang).gettext(message)
    if "/api/" in str(environ.get("PATH_INFO", "")):
        import json

        start_response(status, [("Content-Type", "application/json"), *(headers or [])])
        return [json.dumps({"error": said}, ensure_ascii=False).encode()]
    from markupsafe import escape

    start_response(status, [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                            *(headers or [])])
    return [f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>hhd</title>'
            f'<link rel="stylesheet" href="/static/front.css"><main><h1>{escape(said)}</h1>'
            f'<p><a href="/">{escape(translations(lang).gettext("Open a table"))}</a></p></main></html>'.encode()]
