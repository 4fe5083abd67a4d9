"""`hhd serve`'s web side: the front page (en/ru) where anyone opens a table or types a short code, and the
dispatcher that hands each request to its table by the join code it carries (?code= or X-Join-Code, as every
request of a table's page does). A request with no code, or one no table has, is the front page's."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, Response, redirect, request

from hhdcli.errors import HhdError
from hhdcli.table.community import MAX_SEATS, Community, Refused, Seat, shown_short
from hhdcli.table.i18n import choose_language, translations
from hhdcli.table.server import off_loop
from hhdcli.table.throttle import EVERYONE

STATIC = Path(__file__).parent / "static"
MAX_UPLOAD = 2 * 1024 * 1024  # a library file of hhd generate is some 30 KB; a deck list a few


def front_app(community: Community) -> Flask:
    from hhdcli.table.online import from_elsewhere, harden

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD
    harden(app, community.public)
    app.after_request(_strict)

    @app.get("/")
    def front() -> Any:
        unknown = "code" in request.args  # a code no table has (mistyped, or the table expired)
        return page(_("No table has this code: it may have been idle too long and deleted.") if unknown else None,
                    404 if unknown else 200)

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
        base = community.public.origin or request.host_url.rstrip("/")
        return html("serve-opened.html.j2", 201, join=f"{base}/?code={opened.code}",
                    board=f"{base}/?code={opened.code}#host={opened.host_secret}", short=shown_short(opened.short),
                    qr=f"/qr.svg?code={opened.code}", days=f"{community.expire / 86400:g}")

    @app.post("/join")
    def join_by_short() -> Any:
        refused = same_site() or throttled("short") or throttled("missed", EVERYONE, count=False)
        if refused:
            return refused
        code = community.code_for_short(request.form.get("short", ""))
        if code is None or community.app_for(code) is None:
            community.throttle.count("missed", EVERYONE)  # guesses from every address, bounded together
            return page(_("No table has this code: check its letters with the host."), 404)
        return redirect(f"/?code={code}", 303)

    @app.errorhandler(413)
    def too_large(_error: Any) -> Any:
        # the form is not read again (it is what was too large): the page comes back with its fields empty
        return html("serve-front.html.j2", 413, form={},
                    error=_("The library file is too large: send the one hhd generate wrote."))

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
    from hhdcli.table.app import CONTENT_SECURITY_POLICY

    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


def dispatcher(community: Community, front: Flask) -> Callable[..., Iterable[bytes]]:
    """The server's one WSGI app: a request carrying a table's code goes to that table's app."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        code = join_code(environ)
        found = community.app_for(code) if code else None
        if isinstance(found, str):  # the table's files are damaged: its players are told, the others go on
            return damaged(environ, start_response)
        if found is not None:
            return found(environ, start_response)
        if code and environ.get("PATH_INFO", "/") != "/":
            start_response("404 Not Found", [("Content-Type", "application/json")])
            return [b'{"error": "no table has this code"}']
        return front(environ, start_response)

    return app


def join_code(environ: dict[str, Any]) -> str | None:
    header = environ.get("HTTP_X_JOIN_CODE")
    if header:
        return str(header)
    codes = parse_qs(environ.get("QUERY_STRING", "")).get("code")
    return codes[0] if codes else None


def damaged(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    from werkzeug.wrappers import Request

    asker = Request(environ)
    lang = choose_language(asker.args.get("lang"), remembered=asker.cookies.get("hhd_lang"),
                           accept_language=asker.accept_languages)[0]
    said = translations(lang).gettext("This table's saved state is damaged; the server's operator has been told.")
    if asker.path.startswith("/api/"):
        import json

        start_response("503 Service Unavailable", [("Content-Type", "application/json"), ("Retry-After", "600")])
        return [json.dumps({"error": said}, ensure_ascii=False).encode()]
    from markupsafe import escape

    start_response("503 Service Unavailable", [("Content-Type", "text/html; charset=utf-8")])
    return [f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>hhd</title>'
            f'<link rel="stylesheet" href="/static/front.css"><main><h1>{escape(said)}</h1></main></html>'.encode()]


