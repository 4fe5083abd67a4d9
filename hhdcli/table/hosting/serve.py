"""Start the Hell table: open the session, say where to find it (with a QR code), serve until Ctrl-C."""

from __future__ import annotations

import errno
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.http import LOOPBACK_NAMES
from hhdcli.i18n import _, quote
from hhdcli.output import echo, is_terminal

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.env import Env
    from hhdcli.library import ResolvedLibrary
    from hhdcli.table.hosting.backups import Plan
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.web.images import Faces





VIRTUAL = ("docker", "br-", "virbr", "veth", "vboxnet", "vmnet", "tun", "tap", "wg", "zt", "tailscale", "utun",
           "lxc", "cni", "flannel")  # bridges and tunnels: phones at the table are not on them


def addresses(host: str, port: int, code: str | None) -> list[str]:
    """The addresses players open, likeliest first: when listening on every interface, each address of this
    computer's interfaces (not host-name look-ups, which give 127.0.1.1 on many laptops): private LAN ranges
    first, virtual bridges and tunnels last; IPv6 in brackets. The code goes after `#`: a browser never sends it,
    the page trades it for a cookie (hhdcli/table/web/routes.py)."""
    query = f"/#code={code}" if code else "/"
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


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound here rather than by werkzeug (which prints its own text and exits): a port in
    use or an address not of this computer is hhd's one-line error saying what to do."""
    not_ours = InputError(_("--host {host} is not an address of this computer").format(host=host),
                          _("use --host 0.0.0.0 for phones on your network, or 127.0.0.1 for this computer only"))
    try:
        # IPv4 unless the address is IPv6 ("localhost" is 127.0.0.1, where the printed address sends browsers)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        found = socket.getaddrinfo(host.strip("[]"), port, family, socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise not_ours from exc
    family, kind, proto, _name, address = found[0]
    server = socket.socket(family, kind, proto)
    try:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart right after a stop binds again
        server.bind(address)
        server.listen(128)
    except OSError as exc:
        server.close()
        if exc.errno == errno.EADDRNOTAVAIL:  # a real address, of another computer
            raise not_ours from exc
        if exc.errno == errno.EADDRINUSE:
            raise InputError(_("port {port} is in use by another program (another hhd table?)").format(port=port),
                             _("stop it, or choose another --port")) from exc
        raise InputError(_("cannot listen on {host}:{port}: {reason}").format(host=host, port=port,
                                                                            reason=exc.strerror),
                         _("choose another --host or --port")) from exc
    return server


def serve(env: Env, resolved: ResolvedLibrary, cache: CardCache, players: dict[str, tuple[str, ...]], *,
          state_file: Path, host: str, port: int, new_code: bool = False, public: Public | None = None,
          life: int | None = None) -> None:
    """`hhd table`: one session served until Ctrl-C or SIGTERM; `public` says where the internet reaches it;
    `life` is the starting life (None: the session's, 20 for a new one)."""
    from hhdcli.table.hosting.online import Public, table_app
    from hhdcli.table.hosting.opening import JOIN_CODE_LENGTH, new_join_code, open_session, stream_changes
    from hhdcli.table.hosting.server import Bounds, make_server, run
    from hhdcli.table.hosting.throttle import Throttle

    public = public or Public()

    sock = listen(host, port)  # before anything is said: a bad --host or a busy port is the only line
    try:
        session, resumed = open_session(resolved, cache, players, state_file, life)
        session.lookup = env.scryfall()  # a pasted deck's lands, as hhd check finds them (offline: as cached)
        session.read_link = env.read_pasted_deck  # a pasted deck link, as hhd check reads it (offline: refused)
        # the join code and the host's secret are the session's: phones and the board keep them across restarts
        # until --new-code rotates both
        # a table on loopback with no public address answers this computer only, with no code; a code of
        # fewer than 80 bits (from an older hhd) is replaced, the host secret with it
        loopback_only = host in LOOPBACK_NAMES and public.url is None
        new_code = new_code or not loopback_only and len(session.join_code(new_join_code)) < JOIN_CODE_LENGTH
        code = None if loopback_only else session.join_code(new_join_code, new_code)
        host_secret = session.host_secret(new_code)
        port = sock.getsockname()[1]
        public_join = public.join_url(code)
        urls = [public_join] if public_join else addresses(host, port, code)
        changes = stream_changes()
        # the same app, limits and guards as hhd serve's tables (online.guarded)
        app = table_app(session, code, changes, public=public, throttle=Throttle(), join_urls=urls,
                        images=env.cache_dir / "images", faces=served_faces(env))
        server = make_server(sock, app, Bounds(behind_proxy=public.behind_proxy, secure=public.secure))
    except BaseException:
        sock.close()
        raise
    try:
        if code and public.url is None:
            env.warn(_("listening on {host}: anyone on this network can reach the table; the join code keeps them "
                       "out").format(host=host))
        env.info((_("resumed the session of library {seed} in {file}") if resumed else
                  _("started the session of library {seed} in {file}")).format(seed=quote(session.seed),
                                                                             file=state_file))
        for url in urls:
            echo(_("open {url}").format(url=url))
        board = public_join or (f"http://{_bracketed('127.0.0.1' if host in ('0.0.0.0', '::') else host)}:{port}/"
                                + (f"#code={code}" if code else ""))
        board += ("&" if "#" in board else "#") + f"host={host_secret}"
        echo(_("the board (on this computer, the host's): {url}").format(url=board))
        _qr(urls[0])
        run(server, changes.close)  # until Ctrl-C or SIGTERM; open pages' event streams end then
    except KeyboardInterrupt:  # Ctrl-C before the server ran: the session is kept all the same
        server.stop(timeout=0)
    finally:
        sock.close()
        session.close()  # the state file complete in itself: its log folded in, no -wal left beside it
    env.info(_("stopped; the session is kept in {file}: run the same hhd table command to go on where you were")
             .format(file=state_file))








SWEEP_EVERY = 600.0  # seconds between two looks for tables idle past --expire


def serve_community(env: Env, root: Path, *, host: str, port: int, public: Public, expire_days: float,
                    max_tables: int | None = None, max_megabytes: float | None = None,
                    backups: Plan | None = None) -> None:
    """`hhd serve`: the front page and every table under `root`, until Ctrl-C or SIGTERM; at most `max_tables`
    tables and `max_megabytes` of their files (None: the defaults) before new tables are refused; every table
    changed since its last copy backed up by `backups` (None: none) on a thread of its own."""
    import gevent

    from hhdcli.table.hosting.backups import Backups
    from hhdcli.table.hosting.community import MAX_MEGABYTES, MAX_TABLES, UNLOAD_EVERY, Community
    from hhdcli.table.hosting.front import dispatcher, front_app
    from hhdcli.table.hosting.opening import stream_changes
    from hhdcli.table.hosting.server import Bounds, make_server, run
    from hhdcli.table.hosting.throttle import Throttle
    from hhdcli.table.web.offloop import off_loop

    cache = env.cards()  # a cache that cannot be read is said before a port is taken
    if backups is not None:
        check_backups_folder(backups.folder, root)
    made = ready_folder(root, _("cannot keep tables in {folder}: {reason}"), _("choose another --dir"))
    if backups is not None:
        try:
            made += ready_folder(backups.folder, _("cannot keep backups in {folder}: {reason}"),
                                 _("choose another --backups folder"))
        except InputError:
            _remove_made(made)
            raise
    try:
        sock = listen(host, port)
    except InputError:
        _remove_made(made)
        raise
    try:
        community = Community(root, cache, public, Throttle(), stream_changes, expire=expire_days * 86400.0,
                              images=env.cache_dir / "images", faces=served_faces(env), read_link=env.read_pasted_deck,
                              max_tables=max_tables or MAX_TABLES, max_megabytes=max_megabytes or MAX_MEGABYTES)
        server = make_server(sock, dispatcher(community, front_app(community)),
                             Bounds(behind_proxy=public.behind_proxy, secure=public.secure))
    except BaseException:
        sock.close()
        raise
    copier = Backups(backups, lambda line: print(line, file=sys.stderr, flush=True)) if backups else None

    def sweeping() -> None:
        while True:
            for key in community.sweep():
                env.info(_("deleted table {table}: idle for more than {days} days").format(table=key[:12],
                                                                                        days=expire_days))
            for _step in range(round(SWEEP_EVERY / UNLOAD_EVERY)):  # idle tables leave memory sooner
                gevent.sleep(UNLOAD_EVERY)
                community.unload_idle()

    def backing_up(copier: Backups) -> None:
        while True:
            gevent.sleep(copier.plan.every)
            try:  # on a thread: copying a table's file (SQLite lets go of Python's lock) holds no table's requests
                off_loop(copier.round, community.backup_view())
            except Exception as exc:  # noqa: BLE001  # hhd's own failure: one line, and the next round
                print(_("hhd serve: backups failed: {reason}").format(reason=exc), file=sys.stderr, flush=True)

    workers = [gevent.spawn(sweeping)] + ([gevent.spawn(backing_up, copier)] if copier else [])
    try:
        env.info(_("serving the tables in {folder}").format(folder=root))
        if copier is not None:
            env.info(_("backing up the tables changed every {minutes:g} minutes into {folder}, the last {kept} of "
                       "each kept").format(minutes=copier.plan.every / 60, folder=copier.plan.folder,
                                           kept=copier.plan.kept))
        for url in [public.join_url(None)] if public.url else addresses(host, sock.getsockname()[1], None):
            print(_("open {url}").format(url=url), flush=True)
        run(server, community.close)
    except KeyboardInterrupt:
        server.stop(timeout=0)
    finally:
        gevent.killall(workers)
        sock.close()
        if copier is not None:  # a round's copy under way is finished before the tables are closed
            copier.stopping.set()
            with copier.busy:
                pass
        community.unload_all()  # every table's state file complete in itself, no -wal left beside it
    env.info(_("stopped; the tables are kept in {folder}").format(folder=root))


def check_backups_folder(backups: Path, root: Path) -> None:
    """--backups may not be where the server keeps its tables (their folders are its tables)."""
    found = backups.resolve()
    for kept in (root / "tables", root / "short"):
        if found == kept.resolve() or kept.resolve() in found.parents:
            raise InputError(_("--backups {folder} is inside {tables}, where the server keeps its tables").format(
                folder=backups, tables=kept), _("choose a folder outside it, best on another disk"))


def ready_folder(folder: Path, cannot: str, hint: str) -> list[Path]:
    """A folder made (with its parents) and written to once, or one line saying why not: the folders made, for
    `_remove_made` to take away when a later option is refused (a refused start leaves nothing behind)."""
    made = [parent for parent in [folder, *folder.parents] if not parent.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".hhd-probe"  # the folder must take new files, not only exist
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        _remove_made(made)
        raise InputError(cannot.format(folder=folder, reason=exc.strerror), hint) from exc
    return made


def _remove_made(made: list[Path]) -> None:
    for folder in made:  # the deepest first
        try:
            folder.rmdir()
        except OSError:
            pass


def served_faces(env: Env) -> Faces:
    """A server's faces: drawn once into the cache folder, a few MB of them in memory (images.Faces)."""
    from hhdcli.table.web.images import SERVED_FACES_BYTES, Faces

    return Faces(SERVED_FACES_BYTES, env.cache_dir / "faces")


def _qr(url: str) -> None:
    """The address as a QR code in the terminal, for phones to scan (when the terminal is a terminal)."""
    if not is_terminal():
        return
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(invert=True)
