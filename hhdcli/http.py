"""The one HTTP client: a session with our User-Agent and retries, deadlines, size-capped reads, hosts
that failed remembered for the run, and failures classified by exception type (not by the wording of
urllib3's messages, which changes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from hhdcli import __version__
from hhdcli.errors import DownloadError
from hhdcli.i18n import N_, _

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")  # the host names that are this computer and no other

if TYPE_CHECKING:
    import socket

    import requests

Progress = Callable[[int, int | None], None]
Notice = Callable[[str], None]  # told, in words, about every wait longer than NOTICE_AFTER seconds
USER_AGENT = f"hhd/{__version__} (Hell's Half-Draft tools)"
RETRY_HINT = N_("nothing was changed; check the connection and try again")  # hints are translated by HhdError
TIMEOUT_HINT = N_("nothing was changed; try again later or raise --timeout")
MAX_RETRY_AFTER = 60.0  # seconds: a server asking for a longer pause gets an error saying when to come back
NOTICE_AFTER = 2.0


@dataclass(frozen=True)
class HttpSettings:
    timeout: tuple[float, float] = (5.0, 30.0)  # connect, read; the read one is also each request's deadline
    retries: int = 3
    backoff: float = 0.5

    @classmethod
    def for_timeout(cls, seconds: float, **kwargs: float) -> HttpSettings:
        """The user's --timeout: connecting gets at most 5 s of it, a whole request all of it."""
        return cls(timeout=(min(5.0, seconds), seconds), **kwargs)  # type: ignore[arg-type]


# --- one deadline per request ------------------------------------------------------------------------
# A socket timeout bounds each read, so a server sending its status line or headers a byte a second never
# trips it. Each request therefore gets a watchdog: the connections it reads answers on are recorded (per
# thread) and shut down at the deadline, and retry waits that would pass the deadline are not waited.

_current = threading.local()


def _deadline() -> float | None:
    return getattr(_current, "deadline", None)


def _watched(base: type) -> type:
    class Watched(base):
        def getresponse(self, *args: Any, **kwargs: Any) -> Any:
            watchdog = getattr(_current, "watchdog", None)
            if watchdog is not None and self.sock is not None:
                watchdog.watch(self.sock)
            return super().getresponse(*args, **kwargs)

    return Watched


class _Watchdog:
    """Shuts the request's sockets at its deadline (or when the run is interrupted); `fired` says the failure
    that follows is a timeout. A socket watched after it fired is shut at once: a request still connecting
    when Ctrl-C came would otherwise wait for a silent host until the deadline's timer."""

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()  # `watch` (the request's thread) against `fire` (the timer's, or Ctrl-C's)
        self._timer = threading.Timer(seconds, self.fire)
        self._timer.daemon = True

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            fired = self.fired
        if fired:
            _shut(sock)

    def fire(self) -> None:
        with self._lock:
            self.fired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def __enter__(self) -> _Watchdog:
        _current.watchdog, _current.deadline = self, time.monotonic() + self._timer.interval
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        _current.watchdog = _current.deadline = None


def _shut(sock: socket.socket) -> None:
    import socket  # here: a command that only checks a URL option never loads it

    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _retry_class(notice: Notice | None) -> type:
    from urllib3.exceptions import MaxRetryError
    from urllib3.util.retry import Retry

    class PoliteRetry(Retry):
        """urllib3's Retry, except that a long Retry-After is not waited out (the answer comes back to be
        reported) and that waits a person would notice are said."""

        def increment(self, method: str | None = None, url: str | None = None, response: Any = None,
                      error: Exception | None = None, _pool: Any = None, _stacktrace: Any = None) -> Any:
            asked = self.get_retry_after(response) if response is not None else None
            if asked is not None and asked > MAX_RETRY_AFTER:
                raise MaxRetryError(_pool, url or "", None)  # with raise_on_status off, the answer is returned
            after = super().increment(method, url, response, error, _pool, _stacktrace)
            deadline = _deadline()
            wait = asked if asked is not None else after.get_backoff_time()
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise MaxRetryError(_pool, url or "", error)  # the wait would pass the deadline: the answer as it is
            return after

        def sleep(self, response: Any = None) -> None:
            asked = self.get_retry_after(response) if response is not None else None
            wait = asked if asked is not None else self.get_backoff_time()
            if notice and wait > NOTICE_AFTER:
                why = _("the server asked to (Retry-After)") if asked is not None else _("before trying again")
                notice(_("waiting {wait:.0f} s: {why}").format(wait=wait, why=why))
            super().sleep(response)

    return PoliteRetry


def make_session(settings: HttpSettings = HttpSettings(), accept: str = "application/json",
                 notice: Notice | None = None) -> requests.Session:
    """A session with our User-Agent and retries with backoff on 429/5xx and failed connections."""
    import requests
    from requests.adapters import HTTPAdapter

    retry = _retry_class(notice)(
        total=settings.retries,
        connect=min(1, settings.retries),  # a host that cannot be reached now will not be in a second either
        read=0,  # a server that went silent once stays silent: waiting again only doubles the wait
        backoff_factor=settings.backoff,
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=frozenset({"GET", "HEAD", "POST"}),
        respect_retry_after_header=True,
        raise_on_status=False,  # the last answer reaches us and gets a readable message
    )
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    session.headers["Accept"] = accept
    adapter = HTTPAdapter(max_retries=retry)
    _watch_connections(adapter)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def _watch_connections(adapter: Any) -> None:
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    class Pool(HTTPConnectionPool):
        ConnectionCls = _watched(HTTPConnectionPool.ConnectionCls)

    class SecurePool(HTTPSConnectionPool):
        ConnectionCls = _watched(HTTPSConnectionPool.ConnectionCls)

    adapter.poolmanager.pool_classes_by_scheme = {"http": Pool, "https": SecurePool}


# --- what went wrong ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """A failed request said the way a person would, and what it means for the rest of the run."""

    reason: str
    timed_out: bool = False
    host_down: bool = False  # no connection could be made: skip the host for the rest of the run


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and everything it wraps (requests wraps urllib3, which wraps the socket's error)."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        reason = getattr(current, "reason", None)  # urllib3's wrapped cause (our DownloadError's is text)
        nested = [a for a in (*current.args, reason) if isinstance(a, BaseException)]
        stack.extend([current.__cause__, current.__context__, *nested])


def problem(exc: BaseException, url: str) -> Problem:
    import socket

    from requests import exceptions as rq
    from urllib3 import exceptions as u3

    host = urlparse(url).hostname or url
    causes = list(_causes(exc))

    def found(*types: type[BaseException]) -> bool:
        return any(isinstance(c, types) for c in causes)

    # urllib3's NewConnectionError subclasses ConnectTimeoutError: the connection failures come first
    if found(u3.NameResolutionError, socket.gaierror):
        return Problem(_("cannot find the host {host} (offline?)").format(host=host), host_down=True)
    if found(ConnectionRefusedError):
        return Problem(_("{host} refused the connection").format(host=host), host_down=True)
    if found(u3.NewConnectionError):
        return Problem(_("{host} could not be reached").format(host=host), host_down=True)
    if found(rq.ConnectTimeout, u3.ConnectTimeoutError):
        return Problem(_("timed out connecting to {host}").format(host=host), timed_out=True, host_down=True)
    if found(rq.ReadTimeout, u3.ReadTimeoutError, TimeoutError):
        return Problem(_("timed out waiting for {host}").format(host=host), timed_out=True)
    if found(rq.ChunkedEncodingError, u3.ProtocolError, u3.IncompleteRead):
        return Problem(_("truncated (the connection closed mid-file)"))
    if found(rq.RetryError, u3.MaxRetryError):
        return Problem(_("the server kept failing ({host})").format(host=host))
    return Problem(_("{error} from {host}").format(error=exc.__class__.__name__, host=host))


# --- the client ---------------------------------------------------------------------------------------


@dataclass
class Download:
    url: str
    data: bytes = b""
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    reason: str = ""  # the status line's words (Not Found), for an error that names the answer


@dataclass
class Client:
    """One run's HTTP: each request within its deadline, and a host that could not be reached or timed out
    is not asked again in the same run (its first failure is repeated instead)."""

    settings: HttpSettings = HttpSettings()
    accept: str = "application/json"
    notice: Notice | None = None
    _session: requests.Session | None = field(default=None, repr=False)
    _failed_hosts: dict[str, Problem] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _under_way: set[_Watchdog] = field(default_factory=set, repr=False)
    _aborted: bool = field(default=False, repr=False)

    def abort(self) -> None:
        """The run was interrupted: requests under way end now (their connections shut, as at their deadline)
        and none begins, so that Ctrl-C does not wait for a silent host's whole --timeout."""
        with self._lock:
            self._aborted = True
            under_way = list(self._under_way)
        for watchdog in under_way:
            watchdog.fire()

    @property
    def session(self) -> requests.Session:
        with self._lock:
            if self._session is None:
                self._session = make_session(self.settings, self.accept, self.notice)
            return self._session

    def get(self, url: str, *, limit: int, etag: str | None = None, last_modified: str | None = None,
            progress: Progress | None = None, hint: str = RETRY_HINT) -> Download:
        """GET `url` (conditionally when validators are given), streamed, capped at `limit` bytes."""
        headers = {}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        download = self.request("GET", url, limit=limit, headers=headers, progress=progress, hint=hint)
        if download.status == 304:
            return Download(url, etag=etag, last_modified=last_modified, not_modified=True, status=304)
        return download

    def request(self, method: str, url: str, *, limit: int, headers: dict[str, str] | None = None,
                json: Any = None, progress: Progress | None = None, hint: str = RETRY_HINT,
                ok: tuple[int, ...] | range = (200, 304), follow: bool = True) -> Download:
        """One request, its whole body read within the deadline; an answer not in `ok` is a NetworkError.
        `follow=False`: a redirect is returned as it is (with ok taking 3xx), for a caller that checks where it
        leads before anything is sent there."""
        import requests
        from urllib3.exceptions import HTTPError

        wrong = url_problem(url)
        if wrong:
            raise DownloadError(url, wrong, _("check the URL"))
        host = urlparse(url).netloc
        earlier = self._failed_hosts.get(host)
        if earlier is not None:
            raise DownloadError(url, earlier.reason, TIMEOUT_HINT if earlier.timed_out else hint)  # as before
        watchdog = _Watchdog(self.settings.timeout[1])
        with self._lock:
            if self._aborted:
                raise DownloadError(url, _("stopped"), hint)
            self._under_way.add(watchdog)
        try:
            # one deadline for the whole request: connecting, retries, status line, headers and body
            with watchdog, self.session.request(method, url, headers=headers, json=json,
                                                timeout=self.settings.timeout, stream=True,
                                                allow_redirects=follow) as response:
                if response.status_code not in ok:
                    raise _refused(url, response, hint)
                data = b"" if response.status_code == 304 else read_capped(response, url, limit, progress)
                return Download(url, data, response.headers.get("ETag"), response.headers.get("Last-Modified"),
                                status=response.status_code, headers=dict(response.headers),
                                reason=response.reason or "")
        except (requests.exceptions.RequestException, HTTPError, OSError) as exc:
            found = problem(exc, url)
            if watchdog.fired:  # whatever the socket said when it was shut, the cause was the deadline
                found = Problem(_("timed out ({value:g} s for the whole answer from {host})").format(value=self.settings.timeout[1], host=host),
                                timed_out=True)
            if found.host_down or found.timed_out:  # a trickling host is skipped like a silent one
                with self._lock:
                    self._failed_hosts.setdefault(host, found)
            raise DownloadError(url, found.reason, TIMEOUT_HINT if found.timed_out else hint) from exc
        finally:
            with self._lock:
                self._under_way.discard(watchdog)


def url_problem(url: str) -> str | None:
    """What keeps `url` from being fetched (http://[::1 cannot be taken apart, ftp:// is not HTTP), or None."""
    try:
        parsed = urlparse(url)
        parsed.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        return _("not a URL ({exc})").format(exc=exc)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return _("not an http(s) URL")
    return None


def _refused(url: str, response: requests.Response, hint: str) -> DownloadError:
    return refusal(url, response.status_code, response.reason, response.headers.get("Retry-After", ""), hint)


def refusal(url: str, status: int, reason: str, retry_after: str, hint: str = RETRY_HINT) -> DownloadError:
    """An HTTP error answer, with when to come back if the server said so."""
    back = retry_after_at(retry_after)
    if back is not None:
        return DownloadError(url, _("HTTP {status_code}; the server asks to wait until {clock} (Retry-After)").format(status_code=status, clock=clock(back)), _("nothing was changed; try again after {clock}").format(clock=clock(back)))
    return DownloadError(url, _("HTTP {status_code} {reason}").format(status_code=status, reason=reason), hint)


def clock(moment: datetime) -> str:
    """A time to come back, as a person reads it: 14:05 today, else with its date."""
    today = datetime.now(moment.tzinfo).date()
    return f"{moment:%H:%M}" if moment.date() == today else f"{moment:%Y-%m-%d %H:%M}"


def retry_after_at(value: str, now: datetime | None = None) -> datetime | None:
    """When a Retry-After header (seconds, or an HTTP date) says to come back, in local time; None if unreadable."""
    from email.utils import parsedate_to_datetime

    now = now or datetime.now().astimezone()
    value = value.strip()
    if value.isdigit():
        return now + timedelta(seconds=min(int(value), 10**8))
    try:
        return parsedate_to_datetime(value).astimezone(now.tzinfo)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# --- reading ----------------------------------------------------------------------------------------


def read_capped(response: requests.Response, url: str, limit: int, progress: Progress | None = None) -> bytes:
    """The whole body, refusing more than `limit` bytes, a body shorter than its Content-Length, and one
    still arriving at the request's deadline (a server trickling bytes never times out a single read)."""
    deadline = _deadline()
    total = int(response.headers.get("Content-Length") or 0) or None
    encoded = bool(response.headers.get("Content-Encoding"))
    if total and not encoded and total > limit:
        raise DownloadError(url, _("larger than {number} MB").format(number=limit // 2**20), _("check the URL"))
    chunks: list[bytes] = []
    done = 0
    raw = response.raw
    while True:
        # read1: what has arrived, in at most one read, so the deadline and progress move from the first byte
        chunk = raw.read1(64 * 1024, decode_content=True)
        if not chunk:
            break
        chunks.append(chunk)
        done += len(chunk)
        if done > limit:
            raise DownloadError(url, _("larger than {number} MB").format(number=limit // 2**20), _("check the URL"))
        if progress:
            progress(raw.tell() if encoded else done, total)
        if deadline is not None and time.monotonic() > deadline:
            raise DownloadError(url, _("timed out (still arriving after the deadline, {number} KB so far)").format(number=done // 1024),
                                TIMEOUT_HINT)
    # urllib3 already refuses short bodies; this catches servers that close early without a length error
    if total and not encoded and done < total:
        raise DownloadError(url, _("truncated ({done} of {total} bytes)").format(done=done, total=total), RETRY_HINT)
    return b"".join(chunks)
