"""A table reachable from anywhere: its public address (`--public-url`, HHD_PUBLIC_URL), trust in a reverse
proxy only when the operator says so (`--behind-proxy`, one hop), and the guards every answer carries.

`guarded` puts the proxy's one hop and the per-address limits on the table routes' app, for `hhd table`'s one
table (`table_app`) and `hhd serve`'s one app for all of its tables alike, so the two cannot drift; `Guarded` is
the WSGI middleware both servers wrap outermost
(hhdcli/table/hosting/server.py), so every answer carries the guards, the apps' and the server's own alike: the
Content-Security-Policy, `Referrer-Policy: same-origin`, `X-Content-Type-Options: nosniff`, and under https
HSTS and the Secure flag on every cookie."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from hhdcli.errors import InputError
from hhdcli.i18n import _

if TYPE_CHECKING:
    from flask import Flask

    from hhdcli.table.game.changes import Changes
    from hhdcli.table.game.session import Session
    from hhdcli.table.hosting.throttle import Throttle
    from hhdcli.table.web.images import Faces

HSTS = "max-age=31536000"  # a year: browsers then refuse plain http for the host by themselves
# same-origin: another site is sent no Referer, and our own pages' POSTs carry their Origin (under no-referrer a
# browser sends "Origin: null", Fetch's "serializing a request origin", and the table could not tell its own forms
# from another site's)
REFERRER_POLICY = "same-origin"


@dataclass(frozen=True)
class Public:
    """Where the internet reaches the server: `url` is scheme://host[:port][/] (None: the addresses this
    computer has), `behind_proxy`: the peer is a reverse proxy whose X-Forwarded-For (its last entry) is the
    client's address."""

    url: str | None = None
    behind_proxy: bool = False

    @property
    def secure(self) -> bool:
        return self.url is not None and self.url.startswith("https://")

    @property
    def origin(self) -> str | None:
        """The public address's origin (scheme://host[:port]), the one a browser sends as Origin."""
        if self.url is None:
            return None
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def join_url(self, code: str | None, path: str = "/") -> str | None:
        """The address players open: the table's `path` here, with the join code after `#` (never sent)."""
        if self.origin is None:
            return None
        return f"{self.origin}{path}" + (f"#code={code}" if code else "")


def public_url(given: str | None) -> str | None:
    """--public-url checked: an http or https address of a host, with no path, query or fragment (a table is
    served at the root), or one line saying what to write instead."""
    if not given:
        return None
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username:
        raise InputError(_("--public-url {url} is not the address of a host").format(url=given),
                         _("give its scheme and host only, for example https://hell.example.org"))
    return f"{parts.scheme}://{parts.netloc.lower()}"


def table_app(session: Session, code: str | None, changes: Changes, *, public: Public, throttle: Throttle,
              join_urls: list[str], images: Path | None, faces: Faces | None = None) -> Flask:
    """`hhd table`'s app: its one table's routes, with the guards of every table of `hhd serve` (`guarded`)."""
    from hhdcli.table.web.routes import create_app

    return guarded(create_app(session, code, changes, host_secret=session.host_secret(), join_urls=join_urls,
                              images=images, origin=public.origin, faces=faces), public, throttle)


def guarded(app: Flask, public: Public, throttle: Throttle) -> Flask:
    """A table app as `hhd table` and `hhd serve` serve it: the proxy's one hop, and every POST counted per
    address (hhdcli/table/hosting/throttle.py)."""
    harden(app, public)
    throttle.install(app)
    return app


def harden(app: Any, public: Public) -> None:
    """Behind a proxy the client's address is X-Forwarded-For's one hop (only then: a client's own header is
    never believed). The answers' headers are `Guarded`'s."""
    if public.behind_proxy:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=0, x_host=0, x_port=0, x_prefix=0)


class Guarded:
    """WSGI middleware, outermost in both servers: every answer carries the guards (see above), whoever wrote
    it. A header the app set itself is kept."""

    def __init__(self, app: Callable[..., Iterable[bytes]], secure: bool) -> None:
        from hhdcli.table.web.routes import CONTENT_SECURITY_POLICY

        self.app, self.secure = app, secure
        self.guards = [("Content-Security-Policy", CONTENT_SECURITY_POLICY), ("Referrer-Policy", REFERRER_POLICY),
                       ("X-Content-Type-Options", "nosniff")]
        if secure:
            self.guards.append(("Strict-Transport-Security", HSTS))

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        def guarded(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            return start_response(status, self.headers(headers), *rest)

        return self.app(environ, guarded)

    def headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """`headers` with the guards added; under https every cookie Secure."""
        present = {name.lower() for name, _value in headers}
        if self.secure:
            headers = [(name, f"{value}; Secure" if name.lower() == "set-cookie" and "; secure" not in value.lower()
                        else value) for name, value in headers]
        return headers + [(name, value) for name, value in self.guards if name.lower() not in present]
