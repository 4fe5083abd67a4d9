"""The Hell table's web app (Flask): a JSON API under /api/ and one phone-sized page that uses it."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from hhdcli.table.state import Session, TableError


def create_app(session: Session, code: str | None = None) -> Flask:
    """The app for one session; with a `code`, every request must carry it (?code= or X-Join-Code)."""
    app = Flask(__name__)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    faces: dict[int, bytes] = {}

    @app.before_request
    def check_code() -> Any:
        if code is None:
            return None
        given = request.args.get("code") or request.headers.get("X-Join-Code") or ""
        if not hmac.compare_digest(given, code):
            return jsonify(error="this table needs its join code: open the address hhd table printed"), 403
        return None

    @app.errorhandler(TableError)
    def refused(error: TableError) -> Any:
        return jsonify(error=error.message), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        return jsonify(error=error.description or error.name), error.code

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise TableError('send a JSON object, for example {"player": "Anna"}', status=400)
        return data

    def player() -> str:
        name = body().get("player")
        if not isinstance(name, str) or not name.strip():
            raise TableError('say who acts: {"player": NAME}', status=400)
        return name

    def positions(key: str) -> list[int] | None:
        value = body().get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
            raise TableError(f'"{key}" must be a list of library positions (numbers)', status=400)
        return value

    @app.get("/")
    def page() -> Any:
        from hhdcli.render.templates import render

        return Response(render("table.html.j2", seed=session.seed), mimetype="text/html")

    @app.get("/api/state")
    def state() -> Any:
        return jsonify(session.state())

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
        position = body().get("position")
        if not isinstance(position, int) or isinstance(position, bool):
            raise TableError('say which card: {"position": N}', status=400)
        return jsonify(session.to_sideboard(position))

    @app.post("/api/end-game")
    def end_game() -> Any:
        data = request.get_json(silent=True)
        returned = positions("returned") if isinstance(data, dict) else None
        return jsonify(session.end_game(returned))

    @app.post("/api/undo")
    def undo() -> Any:
        return jsonify(session.undo())

    @app.get("/cards/<int:position>.png")
    def face(position: int) -> Any:
        from hhdcli.render.faces import face_png

        if position not in session.cards:
            raise TableError(f"no card at library position {position}", status=404)
        if position not in faces:
            faces[position] = face_png(session.cards[position], session.table, dpi=150)
        return Response(faces[position], mimetype="image/png", headers={"Cache-Control": "max-age=86400"})

    return app
