"""Whether a request comes from a page of another origin (a form another site's page submits in a visitor's
browser): the one rule the table's routes and the community's front page both apply."""

from __future__ import annotations

from collections.abc import Callable


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

