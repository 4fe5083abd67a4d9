"""A table reachable from anywhere: its public address (`--public-url`, HHD_PUBLIC_URL), trust in a reverse
proxy only when the operator says so (`--behind-proxy`, one hop), and under https the cookies' Secure flag and
HSTS. `hhd table` and `hhd serve` both apply it to their apps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from hhdcli.errors import InputError
from hhdcli.i18n import _

HSTS = "max-age=31536000"  # a year: browsers then refuse plain http for the host by themselves
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

    def join_url(self, code: str | None) -> str | None:
        """The address players open, with the join code."""
        if self.origin is None:
            return None
        return f"{self.origin}/" + (f"?code={code}" if code else "")


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


def from_elsewhere(origin: str | None, fetch_site: str | None, ours: Callable[[str], bool]) -> bool:
    """Whether a browser says the request comes from a page of another origin, by what the Fetch standard has
    browsers send: `Sec-Fetch-Site` (set by the browser, never by a page) "same-origin" only from our own pages;
    "same-site" (another port or subdomain), "cross-site" or "none" is not ours. `Origin` (`ours` judges it) is
    the page's, or "null" when the page's referrer policy withholds it; "null" is believed only with
    "same-origin" (our page under a policy that hides its origin). Neither header: not a browser (a script, curl),
    which no other site's page can make a visitor's browser be."""
    if fetch_site is not None and fetch_site != "same-origin":
        return True
    if not origin:
        return False
    if origin == "null":
        return fetch_site != "same-origin"
    return not ours(origin)


def harden(app: Any, public: Public) -> None:
    """The app's answers for the internet: behind a proxy the client's address is X-Forwarded-For's one hop;
    under https every cookie is Secure and every answer sends HSTS; no answer sends the address (with its
    join code) as a Referer to another site."""
    if public.behind_proxy:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=0, x_host=0, x_port=0, x_prefix=0)
    app.after_request(_headers(public.secure))


def _headers(secure: bool) -> Callable[[Any], Any]:
    def headers(response: Any) -> Any:
        # same-origin: another site is sent no Referer (the address holds the join code), and our own pages'
        # POSTs carry their Origin (under no-referrer a browser sends "Origin: null", Fetch's "serializing a
        # request origin", and the table could not tell its own forms from another site's)
        response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
        if secure:
            response.headers["Strict-Transport-Security"] = HSTS
            cookies = response.headers.getlist("Set-Cookie")
            if cookies:
                response.headers.remove("Set-Cookie")
                for cookie in cookies:
                    response.headers.add("Set-Cookie", cookie if "; Secure" in cookie else f"{cookie}; Secure")
        return response

    return headers
