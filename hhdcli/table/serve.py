"""Start the Hell table: open the session, say where to find it (with a QR code), serve until Ctrl-C."""

from __future__ import annotations

import secrets
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


VIRTUAL = ("docker", "br-", "virbr", "veth", "vboxnet", "vmnet", "tun", "tap", "wg", "zt", "tailscale", "utun",
           "lxc", "cni", "flannel")  # bridges and tunnels: phones at the table are not on them


def addresses(host: str, port: int, code: str | None) -> list[str]:
    """The addresses players open, likeliest first: when listening on every interface, each address of this
    computer's interfaces (not host-name look-ups, which give 127.0.1.1 on many laptops): private LAN ranges
    first, virtual bridges and tunnels last; IPv6 in brackets."""
    query = f"/?code={code}" if code else "/"
    if host not in ("0.0.0.0", "::"):
        return [f"http://{_bracketed(host)}:{port}{query}"]
    return [f"http://{_bracketed(ip)}:{port}{query}" for ip in interface_addresses(ipv6=host == "::")]


def interface_addresses(ipv6: bool = False) -> list[str]:
    import ipaddress

    import ifaddr

    found: list[tuple[int, str]] = []
    for adapter in ifaddr.get_adapters():
        virtual = str(adapter.nice_name).lower().startswith(VIRTUAL)
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            address = ipaddress.ip_address(text)
            if address.is_loopback or address.is_link_local or (address.version == 6 and not ipv6):
                continue
            rank = 3 if virtual else 0 if address.is_private and address.version == 4 else 1 if address.is_private else 2
            found.append((rank, text))
    return [text for _, text in sorted(found, key=lambda item: item[0])] or ["127.0.0.1"]


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def serve(env: Env, resolved: ResolvedLibrary, cache: CardCache, players: dict[str, tuple[str, ...]],
          state_file: Path, host: str, port: int, new_code: bool = False) -> None:
    import logging

    from werkzeug.serving import make_server

    from hhdcli.table.app import Changes, create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request: pages ask often

    session, resumed = open_session(resolved, cache, players, state_file)
    # the join code is the session's: phones keep it across restarts until --new-code rotates it
    code = None if host in LOOPBACK else session.join_code(lambda: secrets.token_urlsafe(6), new_code)
    if code:
        env.warn(f"listening on {host}: anyone on this network can reach the table; the join code keeps them out")
    try:
        changes = Changes()
        server = make_server(host, port, create_app(session, code, changes), threaded=True)
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
        changes.close()  # open pages' event streams end now
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
