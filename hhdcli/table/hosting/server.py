"""The production server under `hhd table` and `hhd serve`: gevent's WSGI server (pywsgi), chosen by measurement
(docs/design-table-online.md): each open page's event stream is a greenlet of a few kilobytes, not a thread, so
500 pages listening cost one process and no pool to size; it has wheels for Linux, macOS and Windows.

What the internet may send is bounded here, before the app: connections per address, event streams per address,
an idle connection's time, and (gevent's own) a request line of 8 KiB and 100 header lines of 64 KiB at most.
The request log is off (gevent's would be a line per request); a request gevent cannot read (a bad request line,
a bad header) is answered here with a short page carrying the guards and logged as one line, never gevent's own
empty answer and its line of the raw request. Every answer, the server's own included, passes `Guarded`
(hhdcli/table/hosting/online.py), the outermost middleware."""

from __future__ import annotations

import signal
import socket
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from hhdcli.i18n import N_
from hhdcli.table.hosting.throttle import asker_of

STOP_WITHIN = 4.0  # seconds: SIGTERM's streams close and requests finish within this (the issue asks 5)


@dataclass(frozen=True)
class Bounds:
    """What one client address may hold at once; `behind_proxy`: the address is the proxy's (one hop) and the
    client's is X-Forwarded-For's last entry (the proxy bounds the connections then)."""

    # a game store's four tables behind one address: 24 pages, each with its event stream and a request or two
    connections_per_address: int = 96
    streams_per_address: int = 32
    idle_seconds: float = 75.0  # a connection that sends nothing (a slow request, a dead keep-alive) is closed
    behind_proxy: bool = False
    secure: bool = False  # served under https (--public-url https://…): HSTS and Secure cookies


LISTENING = N_("too many pages of this address are listening: this page asks every few seconds instead")
UNREADABLE = N_("The server could not read this request.")
FAILED = N_("The server failed to answer this request; its log says why.")


def client_address(environ: dict[str, Any], behind_proxy: bool) -> str:
    """The asker's address: the peer's, or behind a proxy the one it appended to X-Forwarded-For (one hop,
    so a client's own X-Forwarded-For entries are never believed)."""
    if behind_proxy:
        forwarded = environ.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return str(environ.get("REMOTE_ADDR", ""))


class StreamBound:
    """WSGI middleware: at most `most` open event streams (/api/events) per client address; one more is 429
    and the page falls back to asking every few seconds."""

    def __init__(self, app: Callable[..., Iterable[bytes]], most: int, behind_proxy: bool) -> None:
        self.app, self.most, self.behind_proxy = app, most, behind_proxy
        self.open: Counter[str] = Counter()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not environ.get("PATH_INFO", "").endswith("/api/events"):
            return self.app(environ, start_response)
        address = asker_of(client_address(environ, self.behind_proxy))  # an IPv6 host: its /64
        if self.open[address] >= self.most:
            import json

            from hhdcli.table.web.i18n import asker_language, translations

            said = translations(asker_language(environ)).gettext(LISTENING)
            start_response("429 Too Many Requests", [("Content-Type", "application/json"), ("Retry-After", "10")])
            return [json.dumps({"error": said}, ensure_ascii=False).encode()]
        self.open[address] += 1
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self._done(address)
            raise
        return self._counted(answer, address)

    def _counted(self, answer: Iterable[bytes], address: str) -> Iterator[bytes]:
        try:
            yield from answer
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
            self._done(address)

    def _done(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def own_page(status: str, headers: Any, guards: Any, message: str = UNREADABLE) -> bytes:
    """The server's own answer (to a request it could not read, or when answering failed): a short page, in the
    asker's language when its headers were read (else in both), with the guards."""
    from markupsafe import escape

    from hhdcli.table.web.i18n import LANGUAGES, choose_language, translations

    wanted = headers.get("Accept-Language", "") if headers is not None else ""
    langs = [choose_language(None, accept_language=_accepted(wanted))[0]] if wanted else list(LANGUAGES)
    said = "".join(f'<p lang="{lang}">{escape(translations(lang).gettext(message))}</p>' for lang in langs)
    body = f'<!DOCTYPE html><html lang="{langs[0]}"><meta charset="utf-8"><title>hhd</title>{said}</html>'.encode()
    sent = guards.headers([("Content-Type", "text/html; charset=utf-8"), ("Connection", "close"),
                           ("Content-Length", str(len(body)))])
    head = f"HTTP/1.1 {status}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in sent) + "\r\n"
    return head.encode("latin-1") + body


def _accepted(header: str) -> Any:
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    return parse_accept_header(header, LanguageAccept)




def no_delay(client: socket.socket) -> None:
    """Each write leaves at once (TCP_NODELAY). gevent's pywsgi sends an answer's headers and its body in two
    sends: under Nagle's algorithm the body waits for the headers' ACK, which the client delays (40 ms on
    Linux) on a kept-alive connection: every request of a page or a proxy paid ~40 ms."""
    if client.family in (socket.AF_INET, socket.AF_INET6):  # not a Unix socket
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def make_server(sock: socket.socket, app: Callable[..., Iterable[bytes]], bounds: Bounds) -> Any:
    """gevent's WSGI server on the bound socket, with the bounds above and no request log; every answer guarded."""
    from gevent.pywsgi import WSGIHandler, WSGIServer

    from hhdcli.table.hosting.online import Guarded

    guards = Guarded(StreamBound(app, bounds.streams_per_address, bounds.behind_proxy), bounds.secure)

    class Unlogged(WSGIHandler):
        """No request log: gevent formats each request's line (a date, the path) even with no log to write it to,
        a few per cent of the server's CPU under load. A request gevent cannot read is our short page and one
        line on stderr (gevent's: the raw request and the socket object, or a traceback)."""

        def __init__(self, sock: Any, address: Any, server: Any) -> None:
            super().__init__(sock, address, server)
            # a request's line and headers read through a 2 KB buffer, not 8 KB: a browser keeps up to six
            # connections a page open, 1,500 connections of 500 pages kept 12 MB of buffers that were mostly empty
            self.rfile.close()  # type: ignore[has-type]
            self.rfile = sock.makefile("rb", READ_BUFFER)

        def log_request(self) -> None:
            pass

        def handle_one_request(self) -> Any:
            result = super().handle_one_request()
            if isinstance(result, tuple):  # gevent's own 400 or 414, headers and body: ours instead
                code = str(result[0])
                status = {"414": "414 URI Too Long"}.get(code, "400 Bad Request")
                return code, own_page(status, getattr(self, "headers", None), guards)
            return result

        def _handle_client_error(self, ex: BaseException) -> Any:
            import sys

            peer = self.client_address[0] if isinstance(self.client_address, tuple) else "a client"
            # one line, naming no byte of the request (it may hold a secret or an escape sequence)
            print(f"hhd: refused a request it could not read, from {peer} ({type(ex).__name__})", file=sys.stderr,
                  flush=True)
            return "400", b""

        def handle_error(self, kind: Any, value: Any, tb: Any) -> None:
            """A failure outside the apps (which answer their own): one line, not gevent's traceback."""
            import sys

            from gevent import GreenletExit

            if not issubclass(kind, GreenletExit):  # a greenlet stopped with the server: no failure
                print(f"hhd: a request failed: {kind.__name__}: {value}", file=sys.stderr, flush=True)
            self._send_error_response_if_possible(500)

        def _send_error_response_if_possible(self, error_code: int) -> None:
            if self.response_length:
                self.close_connection = True
                return
            status, said = ("400 Bad Request", UNREADABLE) if error_code == 400 else \
                ("500 Internal Server Error", FAILED)
            try:
                self._sendall(own_page(status, getattr(self, "headers", None), guards, said))
            except OSError:
                pass
            self.close_connection = True

    class Bounded(WSGIServer):
        """Refuses a connection beyond the address's share, and closes a connection idle too long."""

        peers: Counter[str] = Counter()

        def handle(self, client: Any, address: Any) -> None:
            peer = asker_of(str(address[0])) if isinstance(address, tuple) else ""  # an IPv6 host: its /64
            if not bounds.behind_proxy and self.peers[peer] >= bounds.connections_per_address:
                client.close()
                return
            self.peers[peer] += 1
            client.settimeout(bounds.idle_seconds)
            no_delay(client)
            try:
                super().handle(client, address)
            finally:
                self.peers[peer] -= 1
                if self.peers[peer] <= 0:
                    del self.peers[peer]

    sock.setblocking(False)
    return Bounded(sock, guards, log=None, handler_class=Unlogged,
                   environ={"SERVER_NAME": "hhd"})  # no name look-up of 0.0.0.0 at start


READ_BUFFER = 2048  # bytes a connection reads through (a browser's request line and headers: about a kilobyte)
TRIM_EVERY = 10.0  # seconds between two returns of the heap's free pages to the system (trim_heap)


def trim_heap() -> bool:
    """The heap's free pages given back to the system (glibc's malloc_trim; False where there is none: musl,
    macOS, Windows). A server's heap keeps what it freed: drawing a face, writing a state or an answer frees
    megabytes a minute in pieces among the ones kept, which glibc returns only from the heap's top. Measured
    under 100 tables x 5 pages: 202 MB of RSS before a trim, 182 after it, 1-2 ms for the trim."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    trim(0)
    return True


def run(server: Any, on_stop: Callable[[], None]) -> None:
    """Serve until Ctrl-C or SIGTERM; then `on_stop` (the pages' event streams end) and the open requests
    finish within STOP_WITHIN seconds. The heap's free pages go back to the system every TRIM_EVERY seconds."""
    import gevent
    import gevent.event

    def trimming() -> None:
        while trim_heap():
            gevent.sleep(TRIM_EVERY)

    stopping = gevent.event.Event()
    handlers = []
    for number in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if number is not None:
            try:
                handlers.append(gevent.signal_handler(number, stopping.set))
            except (ValueError, AttributeError):  # Windows has no SIGTERM handler in gevent's loop: Ctrl-C only
                pass
    server.start()
    trimmer = gevent.spawn(trimming)
    try:
        stopping.wait()
    except KeyboardInterrupt:  # Windows: Ctrl-C arrives as the exception
        pass
    finally:
        trimmer.kill()
        for handler in handlers:
            handler.cancel()
        on_stop()
        server.stop(timeout=STOP_WITHIN)
