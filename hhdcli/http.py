"""The one HTTP client: a session with our User-Agent and retries, size-capped reads, and failures
classified by exception type (not by the wording of urllib3's messages, which changes)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from hhdcli import __version__
from hhdcli.errors import NetworkError

if TYPE_CHECKING:
    import requests

Progress = Callable[[int, int | None], None]
USER_AGENT = f"hhd/{__version__} (Hell's Half-Draft tools)"
RETRY_HINT = "nothing was changed; check the connection and try again"
TIMEOUT_HINT = "nothing was changed; try again later or raise --timeout"


@dataclass(frozen=True)
class HttpSettings:
    timeout: tuple[float, float] = (5.0, 30.0)  # connect, read
    retries: int = 3
    backoff: float = 0.5

    @classmethod
    def for_timeout(cls, seconds: float, **kwargs: float) -> HttpSettings:
        """The user's --timeout: connecting gets at most 5 s of it, reading all of it."""
        return cls(timeout=(min(5.0, seconds), seconds), **kwargs)  # type: ignore[arg-type]


def make_session(settings: HttpSettings = HttpSettings(), accept: str = "application/json") -> requests.Session:
    """A session with our User-Agent and retries with backoff on 429/5xx/connection errors."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    retry = Retry(
        total=settings.retries,
        connect=min(1, settings.retries),  # a host that cannot be reached now will not be in a second either
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
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


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
        nested = [a for a in current.args if isinstance(a, BaseException)]
        stack.extend([getattr(current, "reason", None), current.__cause__, current.__context__, *nested])


def problem(exc: BaseException, url: str) -> Problem:
    from requests import exceptions as rq
    from urllib3 import exceptions as u3

    host = urlparse(url).hostname or url
    causes = list(_causes(exc))

    def found(*types: type[BaseException]) -> bool:
        return any(isinstance(c, types) for c in causes)

    # urllib3's NewConnectionError subclasses ConnectTimeoutError: the connection failures come first
    if found(u3.NameResolutionError, socket.gaierror):
        return Problem(f"cannot find the host {host} (offline?)", host_down=True)
    if found(ConnectionRefusedError):
        return Problem(f"{host} refused the connection", host_down=True)
    if found(u3.NewConnectionError):
        return Problem(f"{host} could not be reached", host_down=True)
    if found(rq.ConnectTimeout, u3.ConnectTimeoutError):
        return Problem(f"timed out connecting to {host}", timed_out=True, host_down=True)
    if found(rq.ReadTimeout, u3.ReadTimeoutError, TimeoutError):
        return Problem(f"timed out waiting for {host}", timed_out=True)
    if found(rq.ChunkedEncodingError, u3.ProtocolError, u3.IncompleteRead):
        return Problem("truncated (the connection closed mid-file)")
    if found(rq.RetryError, u3.MaxRetryError):
        return Problem(f"the server kept failing ({host})")
    return Problem(f"{exc.__class__.__name__} from {host}")


def network_error(exc: BaseException, url: str, hint: str = RETRY_HINT) -> NetworkError:
    found = problem(exc, url)
    return NetworkError(f"could not download {url}: {found.reason}", TIMEOUT_HINT if found.timed_out else hint)


# --- reading ----------------------------------------------------------------------------------------


def read_capped(response: requests.Response, url: str, limit: int, progress: Progress | None = None) -> bytes:
    """The whole body, refusing more than `limit` bytes and a body shorter than its Content-Length."""
    total = int(response.headers.get("Content-Length") or 0) or None
    encoded = bool(response.headers.get("Content-Encoding"))
    if total and not encoded and total > limit:
        raise NetworkError(f"could not download {url}: larger than {limit // 2**20} MB", "check the URL")
    chunks: list[bytes] = []
    done = 0
    for chunk in response.iter_content(chunk_size=64 * 1024):
        chunks.append(chunk)
        done += len(chunk)
        if done > limit:
            raise NetworkError(f"could not download {url}: larger than {limit // 2**20} MB", "check the URL")
        if progress:
            progress(response.raw.tell() if encoded else done, total)
    # urllib3 already refuses short bodies; this catches servers that close early without a length error
    if total and not encoded and done < total:
        raise NetworkError(f"could not download {url}: truncated ({done} of {total} bytes)", RETRY_HINT)
    return b"".join(chunks)


@dataclass
class Download:
    url: str
    data: bytes = b""
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False


def get(session: requests.Session, url: str, settings: HttpSettings, *, limit: int, etag: str | None = None,
        last_modified: str | None = None, progress: Progress | None = None, hint: str = RETRY_HINT) -> Download:
    """GET `url` (conditionally when validators are given), streamed, capped at `limit` bytes."""
    import requests

    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    try:
        with session.get(url, headers=headers, timeout=settings.timeout, stream=True) as response:
            if response.status_code == 304:
                return Download(url, etag=etag, last_modified=last_modified, not_modified=True)
            if response.status_code != 200:
                raise NetworkError(f"could not download {url}: HTTP {response.status_code} {response.reason}", hint)
            data = read_capped(response, url, limit, progress)
            return Download(url, data, response.headers.get("ETag"), response.headers.get("Last-Modified"))
    except requests.exceptions.RequestException as exc:
        raise network_error(exc, url, hint) from exc
