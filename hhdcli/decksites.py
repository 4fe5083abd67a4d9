"""Decks from where players keep them: a deck's link on Moxfield, Archidekt, MTGGoldfish, TappedOut, Deckstats or
AetherHub, read from the site's own answer (its deck API's JSON, or the page or widget its deck view loads),
through hhd's one HTTP client. `read_deck_text` reads a pasted list, `read_deck_url` a link.

Measured against the sites' recorded answers (lheyberger/mtg-parser's tests/mocks, one Commander deck on each of
the six sites), the `mtg-parser` library (0.0.1a61) reads that deck's main deck, commanders and companion right
on all six, but it never reads a Moxfield sideboard (only commanders, companions and mainboard), takes every
TappedOut sideboard card for a companion whenever the deck has a commander, brings BeautifulSoup and HTTP
clients of its own (hhd's deadline, size cap and retries would not apply), and takes about a second to import.
So these small readers: hhd's one client and the standard library.

A mirror or a test server stands in for every site with HHD_DECK_SITES_URL (or --deck-sites-url): a request for
https://api.moxfield.com/v2/decks/all/ID goes to BASE/api.moxfield.com/v2/decks/all/ID, the site's host first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from urllib.parse import quote, urlparse

from hhdcli.decklists import Deck, DeckEntry, Zone, _json_card, is_card_name, parse_deck, split_name
from hhdcli.errors import InputError, NetworkError
from hhdcli.i18n import _

if TYPE_CHECKING:
    from hhdcli.http import Client

MAX_ANSWER = 8 * 2**20  # a deck page is under 1 MB; a site answering more is not answering a deck


def read_deck_text(text: str, source: str = "pasted deck") -> Deck:
    """A deck list pasted as text (on the phone at the table, or on the command line), in any shape
    `parse_deck` reads; refused in one line when no card could be read."""
    deck = parse_deck(text, source)
    if not deck.main and not deck.sideboard:
        raise InputError(_("{source}: no cards read (looks like {format}; {n} lines not understood)").format(
            source=source, format=_(deck.format), n=len(deck.ignored)),
            _("paste the deck as text, one card a line (4 Forest), or its link"))
    return deck


def is_deck_url(text: str) -> bool:
    """A link to a deck on one of the sites hhd reads (with or without https://)."""
    return _site_of(text) is not None


def read_deck_url(url: str, client: Client, mirror: str | None = None) -> Deck:
    """The deck a link points at: main deck, sideboard and commanders as the site keeps them."""
    found = _site_of(url)
    if found is None:
        raise InputError(_("{url}: not a deck link hhd reads").format(url=url[:200]),
                         _("give a deck's link on Moxfield, Archidekt, MTGGoldfish, TappedOut, Deckstats or AetherHub"))
    site, match = found
    fetch = _Fetcher(client, mirror, url, site.name)
    try:
        deck = site.read(fetch, match)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, InputError) as exc:
        raise fetch.changed() from exc  # the answer is not the shape it was: said in one line, not a traceback
    if not deck.main and not deck.sideboard:
        raise fetch.changed()
    return deck


@dataclass(frozen=True)
class _Site:
    name: str
    link: re.Pattern[str]
    read: Callable[[_Fetcher, re.Match[str]], Deck]


class _Fetcher:
    """One site's requests: through the mirror when one is given, and its refusals said as a player reads them."""

    def __init__(self, client: Client, mirror: str | None, link: str, site: str) -> None:
        self.client, self.mirror, self.link, self.site = client, mirror, link, site

    def get(self, url: str, method: str = "GET", headers: dict[str, str] | None = None) -> bytes:
        if self.mirror:
            parsed = urlparse(url)
            url = f"{self.mirror.rstrip('/')}/{parsed.netloc}{parsed.path}" + (f"?{parsed.query}" if parsed.query else "")
        answer = self.client.request(method, url, limit=MAX_ANSWER, headers=headers, ok=(200, 401, 403, 404, 410),
                                     same_host=True)
        if answer.status in (404, 410):
            raise NetworkError(_("{link}: {site} has no such deck (removed, or the link is wrong)").format(
                link=self.link, site=self.site), _("check the link, or ask for the deck as text"))
        if answer.status in (401, 403):
            if b"Just a moment" in answer.data or "cf-mitigated" in {k.lower() for k in answer.headers}:
                raise NetworkError(_("{link}: {site} asks for a browser check before it answers").format(
                    link=self.link, site=self.site), _("export the deck as text on the site and give hhd the file"))
            raise NetworkError(_("{link}: the deck is private on {site}").format(link=self.link, site=self.site),
                               _("make the deck public or unlisted, or export it as text"))
        return answer.data

    def json(self, url: str, **kwargs: object) -> object:
        return json.loads(self.get(url, **kwargs).decode("utf-8"))  # type: ignore[arg-type]

    def text(self, url: str, **kwargs: object) -> str:
        return self.get(url, **kwargs).decode("utf-8", "replace")  # type: ignore[arg-type]

    def changed(self) -> NetworkError:
        return NetworkError(_("{link}: {site} answered, but not with a deck hhd can read (the site may have "
                              "changed its answer)").format(link=self.link, site=self.site),
                            _("export the deck as text on the site and give hhd the file"))


# --- each site ------------------------------------------------------------------------------------------


def _moxfield(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """Moxfield's deck API (v2: boards at the top; `parse_deck` reads v2 and v3 alike)."""
    answer = fetch.json(f"https://api.moxfield.com/v2/decks/all/{quote(match['id'])}")
    return parse_deck(json.dumps(answer), fetch.link)


def _archidekt(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    answer = fetch.json(f"https://archidekt.com/api/decks/{match['id']}/")
    return parse_deck(json.dumps(answer), fetch.link)


def _aetherhub(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """AetherHub: the deck page names its id (`data-deckid`); its deck JSON comes from FetchMtgaDeckJson."""
    page = fetch.text(f"https://aetherhub.com/{match['path']}")  # the link's own page (Deck/…, Deck/Public/…)
    deck_id = re.search(r'data-deckid="(\d+)"', page)
    if deck_id is None:
        raise ValueError("no data-deckid")
    answer = fetch.json(f"https://aetherhub.com/Deck/FetchMtgaDeckJson?deckId={deck_id[1]}&langId=0&simple=False")
    return parse_deck(json.dumps(answer), fetch.link)


def _deckstats(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """Deckstats: the page's `<script data-page="app">` JSON, whose `props.entries` have a zone (main,
    sideboard, commander, maybeboard…), an amount, and is_commander / is_companion."""
    page = fetch.text(f"https://deckstats.net/decks/{match['user']}/{match['id']}/")
    found = re.search(r'<script[^>]*data-page="app"[^>]*>(.*?)</script>', page, re.S)
    if found is None:
        raise ValueError("no app data")
    deck = Deck(fetch.link, "Deckstats")
    for number, entry in enumerate(json.loads(found[1])["props"]["entries"], start=1):
        zone = (Zone.COMMANDER if entry.get("is_commander") else Zone.COMPANION if entry.get("is_companion")
                else _ZONES.get(str(entry.get("zone", "main")).lower(), Zone.IGNORED))
        if zone is not Zone.IGNORED:
            _json_card(deck, number, "entries", entry.get("name"), entry.get("amount"), zone)
    return deck


_ZONES = {"main": Zone.MAIN, "mainboard": Zone.MAIN, "sideboard": Zone.SIDEBOARD, "commander": Zone.COMMANDER,
          "companion": Zone.COMPANION}


def _mtggoldfish(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """MTGGoldfish: the deck view's component (JavaScript writing the deck table): each card row carries
    data-card-name and data-card-quantity; a category row (Commander, Companion, Sideboard, card types) before."""
    script = fetch.text(f"https://www.mtggoldfish.com/deck/component?id={match['id']}",
                        headers={"X-Requested-With": "XMLHttpRequest"})
    table = script.replace("\\'", "'").replace('\\"', '"').replace("\\/", "/").replace("\\n", "\n")
    deck = Deck(fetch.link, "MTGGoldfish")
    zone = Zone.MAIN
    for number, row in enumerate(re.finditer(r"<tr([^>]*)>(.*?)</tr>", table, re.S), start=1):
        attributes, cells = row[1], row[2]
        if "deck-category-header" in attributes:
            zone = _heading_zone(unescape(re.sub(r"<[^>]+>|\(\d+\)", " ", cells)))
            continue
        name = re.search(r"data-card-name='([^']*)'", attributes)
        quantity = re.search(r"data-card-quantity='(\d+)'", attributes)
        if name and quantity and zone is not Zone.IGNORED:
            _json_card(deck, number, "table", unescape(name[1]), int(quantity[1]), zone)
    return deck


def _heading_zone(text: str) -> Zone:
    words = " ".join(text.split()).lower()
    for word, zone in (("commander", Zone.COMMANDER), ("companion", Zone.COMPANION), ("sideboard", Zone.SIDEBOARD),
                       ("maybe", Zone.IGNORED), ("considering", Zone.IGNORED), ("token", Zone.IGNORED)):
        if word in words:
            return zone
    return Zone.MAIN


class _BoardList(HTMLParser):
    """TappedOut's deck widget: `<h3>Sideboard</h3>` headings, then `<li class="tappedout-member">1x <a>Name</a>`."""

    def __init__(self, deck: Deck) -> None:
        super().__init__()
        self.deck, self.zone, self.text, self.count = deck, Zone.MAIN, "", 0
        self.where: str | None = None  # "h3", "li" or "a": what the text being read belongs to

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h3" or (tag == "li" and "tappedout-member" in (dict(attrs).get("class") or "")):
            self.where, self.text = tag, ""
        elif tag == "a" and self.where == "li":
            found = re.search(r"(\d+)\s*x", self.text)
            self.count, self.where, self.text = int(found[1]) if found else 0, "a", ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "h3" and self.where == "h3":
            self.zone, self.where = _heading_zone(self.text), None
        elif tag == "a" and self.where == "a":
            name, self.where = " ".join(self.text.split()), None
            if self.zone is not Zone.IGNORED and self.count and is_card_name(name):
                self.deck.entries.append(DeckEntry(self.count, split_name(name), self.getpos()[0], self.zone))

    def handle_data(self, data: str) -> None:
        if self.where:
            self.text += data


def _tappedout(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    answer = fetch.json(f"https://tappedout.net/api/deck/widget/?deck={quote(match['id'])}&cols=1", method="POST")
    deck = Deck(fetch.link, "TappedOut")
    board = answer["board"] if isinstance(answer, dict) else None
    if not isinstance(board, str):
        raise ValueError("no board")
    reader = _BoardList(deck)
    reader.feed(board)
    reader.close()
    return deck


_HOST = r"^(?:https?://)?(?:[\w-]+\.)*"
_SITES = (
    _Site("Moxfield", re.compile(_HOST + r"moxfield\.com/decks/(?P<id>[\w-]+)"), _moxfield),
    _Site("Archidekt", re.compile(_HOST + r"archidekt\.com/(?:api/)?decks/(?P<id>\d+)"), _archidekt),
    _Site("MTGGoldfish", re.compile(_HOST + r"mtggoldfish\.com/deck/(?:component\?id=)?(?P<id>\d+)"), _mtggoldfish),
    _Site("TappedOut", re.compile(_HOST + r"tappedout\.net/mtg-decks/(?P<id>[\w-]+)"), _tappedout),
    _Site("Deckstats", re.compile(_HOST + r"deckstats\.net/decks/(?P<user>\d+)/(?P<id>\d+[\w-]*)"), _deckstats),
    _Site("AetherHub", re.compile(_HOST + r"aetherhub\.com/(?P<path>(?:Deck|Metagame/[\w-]+)/(?:Public/)?[\w-]+)"),
          _aetherhub),
)


def _site_of(url: str) -> tuple[_Site, re.Match[str]] | None:
    text = url.strip()
    for site in _SITES:
        match = site.link.match(text)
        if match:
            return site, match
    return None
