"""Start the Hell table: open the session, say where to find it (with a QR code), serve until Ctrl-C."""

from __future__ import annotations

import secrets
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.mana import SymbolTable
from hhdcli.table.state import Session, TableError

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.env import Env
    from hhdcli.library import ResolvedLibrary

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def open_session(resolved: ResolvedLibrary, cache: CardCache, players: dict[str, tuple[str, ...]],
                 state_file: Path) -> tuple[Session, bool]:
    import hashlib

    from hhdcli.files import dump_json

    content = hashlib.sha256(dump_json(resolved.library.to_json())).hexdigest()
    session = Session(state_file, resolved.by_position, SymbolTable.from_records(cache.symbols),
                      resolved.library.seed, content)
    try:
        return session, session.start(players)
    except TableError as exc:
        raise InputError(exc.message, "pass another --state FILE for this library") from exc


def addresses(host: str, port: int, code: str | None) -> list[str]:
    """The addresses players open: this computer's own names when listening on every interface."""
    query = f"/?code={code}" if code else "/"
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}{query}"]
    names = {socket.gethostname()}
    try:
        names |= {a for a in socket.gethostbyname_ex(socket.gethostname())[2] if not a.startswith("127.")}
    except OSError:
        pass
    return [f"http://{name}:{port}{query}" for name in sorted(names)]


def serve(env: Env, resolved: ResolvedLibrary, cache: CardCache, players: dict[str, tuple[str, ...]],
          state_file: Path, host: str, port: int) -> None:
    import logging

    from werkzeug.serving import make_server

    from hhdcli.table.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request: the page polls every second

    session, resumed = open_session(resolved, cache, players, state_file)
    code = None if host in LOOPBACK else secrets.token_urlsafe(6)
    if code:
        env.warn(f"listening on {host}: anyone on this network can reach the table; the join code keeps them out")
    try:
        server = make_server(host, port, create_app(session, code), threaded=True)
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", "choose another --port") from exc
    urls = addresses(host, port, code)
    env.info(("resumed" if resumed else "started") + f" the session of library {session.seed!r} in {state_file}")
    for url in urls:
        print(f"open {url}", flush=True)
    _qr(urls[0])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        env.info("stopped; start hhd table again to go on where you were")
    finally:
        server.server_close()


def _qr(url: str) -> None:
    """The address as a QR code in the terminal, for phones to scan (when the terminal is a terminal)."""
    import sys

    if not sys.stdout.isatty():
        return
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(invert=True)
