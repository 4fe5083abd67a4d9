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

Each site's answer is read in every shape it has served since 2021, newest first (tests/test_decksites.py
`VERSIONS`, each a recorded answer), from what its deck view shows (the quantity and the card's name, not an
attribute one version added). Nothing is sent off the site: a redirect is followed by hand, its next hop asked
only when it is the site's own host over https. Every answer is bounded (8 MB, JSON depth, 1 MB of markup
parsed), and what is not a deck is said in one line: a firewall's page as a block, a private deck only where the
site says so, anything else as an answer the site may have changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin, urlparse, urlsplit, urlunsplit

from hhdcli.decklists import Deck, DeckEntry, Zone, _json_card, counted_once, is_card_name, parse_deck, split_name
from hhdcli.errors import InputError, NetworkError
from hhdcli.http import refusal
from hhdcli.i18n import N_, _
from hhdcli.jsonio import JsonTooDeep, load_json, load_json_at

if TYPE_CHECKING:
    from hhdcli.http import Client, Download

MAX_ANSWER = 8 * 2**20  # a deck page is under 2 MB; a site answering more is not answering a deck
MAX_HOPS = 5  # redirects followed, each checked before it is asked
_REDIRECTS = (301, 302, 303, 307, 308)
_NOT_THERE = (404, 405, 410, 501)  # an address a site (or a mirror of it) does not serve: the older one is asked


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
    fetch = _Fetcher(client, mirror, url, site)
    try:
        deck = site.read(fetch, match)
    except (RecursionError, JsonTooDeep) as exc:  # a structure deeper than Python reads: said, never a traceback
        raise fetch.changed(_("nested too deeply")) from exc
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, InputError) as exc:
        raise fetch.changed() from exc  # the answer is not the shape it was: said in one line, not a traceback
    if not deck.main and not deck.sideboard:
        raise fetch.changed()
    return counted_once(deck)


def mirror_base(mirror: str) -> str:
    """The mirror's address without its query or fragment, and no slash at its end: what a site's host and path
    follow."""
    parts = urlsplit(mirror)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def mirrored(mirror: str, url: str) -> str:
    """A site's URL (https://HOST/PATH?QUERY) as the mirror serves it: BASE/HOST/PATH, the site's host and path
    after the mirror's path, never after its query (http://host/good?x=1 once got /good?x=1/HOST/PATH, and the
    deck was blamed); a query of the mirror's own (a key it asks for) is kept, before the site's."""
    base, site = urlsplit(mirror), urlsplit(url)
    query = "&".join(part for part in (base.query, site.query) if part)
    return urlunsplit((base.scheme, base.netloc, f"{base.path.rstrip('/')}/{site.netloc}{site.path}", query, ""))


@dataclass(frozen=True)
class _Site:
    name: str
    domain: str  # the site's own hosts: this one and its subdomains, and no other
    link: re.Pattern[str]
    read: Callable[[_Fetcher, re.Match[str]], Deck]

    def owns(self, host: str) -> bool:
        host = host.lower().rstrip(".")
        return host == self.domain or host.endswith("." + self.domain)


class _Fetcher:
    """One site's requests: through the mirror when one is given, each redirect checked before it is followed
    (the site's own hosts, https), and its refusals said as a player reads them."""

    def __init__(self, client: Client, mirror: str | None, link: str, site: _Site) -> None:
        self.client, self.mirror, self.link, self.site = client, mirror, link, site
        self.last: Download | None = None  # the last answer, to say why it is not a deck

    def get(self, url: str, method: str = "GET", headers: dict[str, str] | None = None) -> bytes:
        for _hop in range(MAX_HOPS + 1):
            answer = self.client.request(method, self._sent_to(url), limit=MAX_ANSWER, headers=headers,
                                         ok=range(200, 600), follow=False)
            self.last = answer
            if answer.status not in _REDIRECTS:
                return self._judged(answer)
            url = self._next_hop(url, _header(answer, "Location"))
            if answer.status == 303 or (answer.status in (301, 302) and method == "POST"):
                method = "GET"  # as browsers do
        raise NetworkError(_("{link}: {site} redirects more than {n} times").format(
            link=self.link, site=self.site.name, n=MAX_HOPS), _EXPORT_HINT)

    def _sent_to(self, url: str) -> str:
        return mirrored(self.mirror, url) if self.mirror else url

    def _next_hop(self, url: str, location: str) -> str:
        """Where a redirect leads, as the site's URL; refused before it is asked unless it is the site's own
        host over https (a mirror's address of a site's URL, BASE/HOST/PATH, stands for https://HOST/PATH)."""
        if not location.strip():
            raise self.changed()  # a redirect to nowhere
        base = mirror_base(self.mirror) if self.mirror else None
        if base and location.startswith(base + "/"):
            target = "https://" + location[len(base) + 1:]
        elif base and location.startswith("/") and self.site.owns(location[1:].split("/")[0]) \
                and "." in location[1:].split("/")[0]:
            target = "https://" + location[1:]  # the mirror's path of a site's URL
        else:
            target = urljoin(url, location.strip())
        parsed = urlparse(target)
        try:
            port = parsed.port
        except ValueError:
            port = -1
        if parsed.scheme != "https" or not self.site.owns(parsed.hostname or "") or port not in (None, 443) \
                or parsed.username or parsed.password:
            shown = f"{parsed.scheme}://{parsed.netloc}" if parsed.netloc else location[:80]
            raise NetworkError(_("{link}: {site} sends the request on to {target}, which is not {site}; hhd did "
                                 "not follow it").format(link=self.link, site=self.site.name, target=shown[:100]),
                               _EXPORT_HINT)
        return target

    def _judged(self, answer: Download) -> bytes:
        """The body of a deck's answer, or the one line that says why there is none."""
        if 200 <= answer.status < 300:
            return answer.data
        blocked = self.blocked(answer)
        if blocked:
            raise blocked
        if answer.status in (404, 410):
            raise self.gone()
        if answer.status in (401, 403):
            raise self.private() if _says_private(answer.data) else self.refused(answer.status)
        raise refusal(answer.url, answer.status, answer.reason, _header(answer, "Retry-After"),
                      _("try again later, or export the deck as text on the site, then paste it or give hhd the file"))

    def blocked(self, answer: Download) -> NetworkError | None:
        """A firewall's page instead of the site's answer (Cloudflare's browser check or block, and the like),
        whatever its status: said as a block, with the way around it."""
        found = _block_page(answer)
        if found is None:
            return None
        service, challenge = found
        if challenge:
            message = _("{link}: {site} asks for a browser check before it answers ({service}, HTTP {status})")
        else:
            message = _("{link}: {site} blocked hhd's request ({service}, HTTP {status}): it lets only browsers in")
        return NetworkError(message.format(link=self.link, site=self.site.name, service=service,
                                           status=answer.status), _EXPORT_HINT)

    def gone(self) -> NetworkError:
        return NetworkError(_("{link}: {site} has no such deck (removed, or the link is wrong)").format(
            link=self.link, site=self.site.name), _("check the link, or ask for the deck as text"))

    def refused(self, status: int) -> NetworkError:
        return NetworkError(_("{link}: {site} refused to show the deck (HTTP {status})").format(
            link=self.link, site=self.site.name, status=status),
            _("if the deck is private, make it public or unlisted; else export it as text on the site, "
              "then paste it or give hhd the file"))

    def private(self) -> NetworkError:
        return NetworkError(_("{link}: the deck is private on {site}").format(link=self.link, site=self.site.name),
                            _("make the deck public or unlisted, or export it as text"))

    def json(self, url: str, **kwargs: object) -> object:
        return load_json(self.get(url, **kwargs))  # type: ignore[arg-type]

    def text(self, url: str, **kwargs: object) -> str:
        return self.get(url, **kwargs).decode("utf-8", "replace")  # type: ignore[arg-type]

    def changed(self, why: str | None = None) -> NetworkError:
        """The answer is not a deck hhd reads: a firewall's page or a private deck's page said as such, else a
        changed answer (with why, when a reader knows)."""
        if self.last is not None and 200 <= self.last.status < 300:
            blocked = self.blocked(self.last)
            if blocked:
                return blocked
            page = self.last.data  # a deck page saying why it shows no deck (Deckstats answers these with 200)
            if re.search(rb"(?:deck|list) is (?:set to |marked (?:as )?)?private", page, re.I):
                return self.private()
            if re.search(rb"This deck does not exist", page, re.I):
                return self.gone()
            if re.search(rb"You do not have access to this page", page, re.I):
                return self.refused(self.last.status)
        message = _("{link}: {site} answered, but not with a deck hhd can read (the site may have changed its "
                    "answer)").format(link=self.link, site=self.site.name)
        return NetworkError(f"{message} ({why})" if why else message, _EXPORT_HINT)


_EXPORT_HINT = N_("export the deck as text on the site, then paste it or give hhd the file")
_SNIFF = 256 * 1024  # a firewall's page says what it is near its top; a deck page is not searched whole


def _header(answer: Download, name: str) -> str:
    return next((v for k, v in answer.headers.items() if k.lower() == name.lower()), "")


# The pages firewalls answer instead of a site, by what they say (their words, not their status, which varies):
# (pattern, service, a browser check one can pass rather than a block, said whatever the status). Cloudflare's
# error frame alone (cf-error-details) is also its page for a site that is down (520-526): a block only below 500.
# A rate limit (429, Cloudflare's 1015) is no block: it is said as the site's answer, with when to come back.
_BLOCK_PAGES = (
    (re.compile(rb"Attention Required! \| Cloudflare|Sorry, you have been blocked", re.I), "Cloudflare", False, True),
    (re.compile(rb"<title>\s*Just a moment\.\.\.|window\._cf_chl_opt|/cdn-cgi/challenge-platform/h/|"
                rb"Checking your browser before accessing|cf-browser-verification", re.I), "Cloudflare", True, True),
    (re.compile(rb"cf-error-details|<title>[^<]*\| Cloudflare</title>", re.I), "Cloudflare", False, False),
    (re.compile(rb"<title>Access Denied</title>.{0,4000}?Reference #\d", re.I | re.S), "Akamai", False, True),
    (re.compile(rb"Generated by cloudfront \(CloudFront\)", re.I), "CloudFront", False, False),
    (re.compile(rb"Sucuri WebSite Firewall - Access Denied", re.I), "Sucuri", False, True),
    (re.compile(rb"Incapsula incident ID", re.I), "Imperva", False, True),
    (re.compile(rb"geo\.captcha-delivery\.com", re.I), "DataDome", True, False),
    (re.compile(rb"px-captcha", re.I), "PerimeterX", True, False),
    (re.compile(rb"<title>DDoS-Guard</title>", re.I), "DDoS-Guard", True, True),
)


def _block_page(answer: Download) -> tuple[str, bool] | None:
    if _header(answer, "cf-mitigated").lower() == "challenge":
        return "Cloudflare", True
    head = answer.data[:_SNIFF]
    if head.lstrip()[:1] in (b"{", b"["):
        return None  # a site's JSON is the site's own answer, whatever words it holds
    for pattern, service, challenge, any_status in _BLOCK_PAGES:
        if answer.status != 429 and (any_status or answer.status < 500) and pattern.search(head):
            return service, challenge
    return None


def _says_private(body: bytes) -> bool:
    return re.search(rb"\bprivate\b", body[:_SNIFF], re.I) is not None


# --- each site ------------------------------------------------------------------------------------------


def _moxfield(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """Moxfield's deck API: v2 (boards at the top), else v3, which its deck view has asked since 2024 (boards under
    `boards`); `parse_deck` reads both."""
    try:
        answer = fetch.json(f"https://api.moxfield.com/v2/decks/all/{quote(match['id'])}")
    except NetworkError:
        if fetch.last is None or fetch.last.status not in _NOT_THERE:
            raise
        answer = fetch.json(f"https://api2.moxfield.com/v3/decks/all/{quote(match['id'])}")
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
    """Deckstats' deck page, in either of the shapes it has served: since 2026 a `<script data-page="app">`
    JSON whose `props.entries` have a zone, an amount and is_commander / is_companion; from 2021 to April 2026
    the script call `init_deck_data({...})`, whose `sections` (the deck's own groups: Commander, Main Deck,
    Ramp…) and `sideboard` hold cards with an amount and isCommander / isCompanion."""
    page = fetch.text(f"https://deckstats.net/decks/{match['user']}/{match['id']}/")
    app = _tag_end(page, 'data-page="app"', "<script")
    if app >= 0:
        return _deckstats_app(load_json(page[app:page.index("</script>", app)]), fetch.link)
    call = page.find("init_deck_data(")
    if call >= 0:
        document, _end = load_json_at(page, call + len("init_deck_data("))
        return _deckstats_sections(document, fetch.link)
    raise ValueError("neither the app data nor init_deck_data")


def _deckstats_app(document: dict, source: str) -> Deck:
    deck = Deck(source, "Deckstats")
    for number, entry in enumerate(document["props"]["entries"], start=1):
        zone = (Zone.COMMANDER if entry.get("is_commander") else Zone.COMPANION if _deckstats_companion(entry)
                else _ZONES.get(str(entry.get("zone", "main")).lower(), Zone.IGNORED))
        if zone is not Zone.IGNORED:
            _json_card(deck, number, "entries", entry.get("name"), entry.get("amount"), zone=zone)
    return deck


def _deckstats_companion(entry: dict) -> bool:
    """The site's own is_companion where the entry has one (since August 2026): a companion unticked on the site
    is shown in its zone (the sideboard), whatever its owner's comment still says. Before it (July 2026) the
    owner's `!Companion` comment was the mark the site showed as the companion."""
    flag = entry.get("is_companion")
    if flag is not None:
        return flag is True
    return str(entry.get("comment") or "").strip().lower() == "!companion"


def _deckstats_sections(document: dict, source: str) -> Deck:
    """The sections are the main deck (their names are the owner's groups, not boards); `sideboard` is the
    sideboard; a card's own mark makes it a commander or the companion wherever it is listed; the maybeboard
    is no part of the deck."""
    deck = Deck(source, "Deckstats")
    boards = [(card, Zone.MAIN) for section in document["sections"] for card in section["cards"]]
    boards += [(card, Zone.SIDEBOARD) for card in document.get("sideboard") or []]
    for number, (card, zone) in enumerate(boards, start=1):
        zone = Zone.COMMANDER if card.get("isCommander") else Zone.COMPANION if card.get("isCompanion") else zone
        _json_card(deck, number, "sections", card.get("name"), card.get("amount"), zone=zone)
    return deck


_ZONES = {"main": Zone.MAIN, "mainboard": Zone.MAIN, "sideboard": Zone.SIDEBOARD, "commander": Zone.COMMANDER,
          "companion": Zone.COMPANION}


def _mtggoldfish(fetch: _Fetcher, match: re.Match[str]) -> Deck:
    """MTGGoldfish: the deck table its deck view shows. Since 2025 the page loads it from a component
    (JavaScript writing the table: `$('').html('…')`, since 2026 `elem.innerHTML = '…'`); until then the deck
    page itself held it. So the component first, and the page when there is no component or no table in it."""
    try:
        answer = fetch.text(f"https://www.mtggoldfish.com/deck/component?id={match['id']}",
                            headers={"X-Requested-With": "XMLHttpRequest"})
    except NetworkError:
        if fetch.last is None or fetch.last.status not in _NOT_THERE:
            raise
        answer = ""  # no component: the deck page as it was before 2025
    if _goldfish_deck_in(answer):
        return _goldfish_page(answer, fetch.link)
    blocked = fetch.blocked(fetch.last) if answer and fetch.last else None
    if blocked:
        raise blocked
    try:
        page = fetch.text(f"https://www.mtggoldfish.com/deck/{match['id']}")
    except NetworkError:
        if answer and fetch.last is not None and fetch.last.status in _NOT_THERE:
            raise ValueError("a component without a table, and no page") from None  # the deck is there
        raise
    return _goldfish_page(page, fetch.link)


def _goldfish_deck_in(answer: str) -> bool:
    return "deck-view-deck-table" in answer or 'name="deck_input[deck]"' in answer


def _goldfish_page(answer: str, source: str) -> Deck:
    """The deck table of a component or a page; a page without its table, its deck form."""
    return _deck_table(answer, source) if "deck-view-deck-table" in answer else _deck_form(answer, source)


def _deck_form(page: str, source: str) -> Deck:
    """A deck page without its table (2025: the table came from the component): the page's own form fields,
    deck_input[deck] (the list, `sideboard` before the sideboard) and deck_input[commander] / [commander_alt]."""
    fields = {name: _field(page, name) for name in ("deck", "commander", "commander_alt")}
    if not fields["deck"]:
        raise ValueError("neither a deck table nor the deck's form")
    read = parse_deck(fields["deck"], source)
    commanders = {fields["commander"], fields["commander_alt"]} - {""}
    deck = Deck(source, "MTGGoldfish")
    deck.entries = [DeckEntry(e.count, e.name, e.line, Zone.COMMANDER) if e.zone is Zone.MAIN and e.name in commanders
                    else e for e in read.entries]
    deck.problems = read.problems
    return deck


def _deck_table(answer: str, source: str) -> Deck:
    table = _region(answer, "deck-view-deck-table", ("</table>", "<\\/table>"))
    if "<\\/t" in table:  # a component: the table as a JavaScript string
        table = table.replace("\\'", "'").replace('\\"', '"').replace("\\/", "/").replace("\\n", "\n")
    reader = _DeckTable(Deck(source, "MTGGoldfish"))
    reader.feed(_markup(table))
    reader.close()
    if not reader.seen:
        raise ValueError("no deck table")
    return reader.deck


def _tag_end(page: str, marker: str, opening: str, reach: int = 500) -> int:
    """Where the content of the first tag (`opening`…>) holding `marker` begins, or -1; found with str.find,
    whose time is linear whatever the page holds (a regex over a hostile page may not be)."""
    at = page.find(marker)
    start = page.rfind(opening, max(0, at - 500), at) if at >= 0 else -1
    end = page.find(">", at, at + reach) if start >= 0 else -1
    return end + 1 if end >= 0 else -1


def _field(page: str, name: str) -> str:
    """The value of the page's form field deck_input[name], or ""."""
    content = _tag_end(page, f'name="deck_input[{name}]"', "<input", reach=200_000)  # the value: the deck
    found = re.search(r'\bvalue="([^"]*)"', page[page.rfind("<input", 0, content):content]) if content >= 0 else None
    return unescape(found[1]) if found else ""


MAX_MARKUP = 2**20  # the markup a reader parses: a deck's table or board is under 400 KB of its page


def _region(page: str, marker: str, ends: tuple[str, ...] = ()) -> str:
    """The part of a page a reader parses: from the tag holding `marker` to the first of `ends` (else the page's
    end), refused past MAX_MARKUP characters (no deck is that long; Python's HTMLParser would take minutes)."""
    at = page.find(marker)
    if at < 0:
        return ""
    start = page.rfind("<", max(0, at - 500), at)
    start = at if start < 0 else start
    found = [end + len(word) for word in ends if (end := page.find(word, at, at + MAX_MARKUP + 1)) >= 0]
    stop = min(found) if found else len(page)
    if stop - start > MAX_MARKUP:
        raise ValueError("a deck table or board larger than any deck")
    return page[start:stop]


def _markup(text: str) -> str:
    """`text` without the `<`s that begin no tag: HTMLParser's time grows with the square of such stray `<`s
    (a page of them would hold a reader for minutes)."""
    if len(text) > MAX_MARKUP:
        raise ValueError("markup larger than any deck")
    return re.sub(r"<(?![A-Za-z!?]|/[A-Za-z])", " ", text)  # no card's name holds a `<`


class _DeckTable(HTMLParser):
    """MTGGoldfish's deck table (`table.deck-view-deck-table`) as a person reads it, in every version the site
    has served: a category row (Commander, Companion, Sideboard, Creatures (7)…), then card rows whose first
    cell is the quantity and whose card link is the name (rows carried data-card-name only in 2026). The first
    table only: the page's other tabs (Arena, MTGO) show the same deck again."""

    def __init__(self, deck: Deck) -> None:
        super().__init__()
        self.deck, self.zone, self.seen, self.done = deck, Zone.MAIN, False, False
        self.inside = False
        self.header = False
        self.cells: list[str] = []
        self.link: str | None = None  # the card link's text, once the row's name cell has one
        self.in_link = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and "deck-view-deck-table" in classes and not self.seen:
            self.inside = self.seen = True
        elif not self.inside:
            return
        elif tag == "tr":
            self.header, self.cells, self.link, self.in_link = "deck-category-header" in classes, [], None, False
        elif tag in ("td", "th"):
            self.cells.append("")
        elif tag == "a" and len(self.cells) == 2 and self.link is None:
            self.link, self.in_link = "", True

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        if tag == "a":
            self.in_link = False
        elif tag == "tr":
            self._row()
        elif tag == "table":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside and self.cells:
            self.cells[-1] += data
            if self.in_link and self.link is not None:
                self.link += data

    def _row(self) -> None:
        if self.header:
            self.zone = _heading_zone(re.sub(r"\(\d+\)", " ", " ".join(self.cells)))
        elif self.cells and self.cells[0].strip().isdigit() and self.link and self.zone is not Zone.IGNORED:
            name = " ".join(self.link.split())
            _json_card(self.deck, self.getpos()[0], "table", name, int(self.cells[0].strip()), zone=self.zone)
        self.cells, self.link, self.header = [], None, False


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
    """TappedOut: its deck widget (the deck as an HTML list in JSON, 2026), else the deck page itself, whose
    board lists every card as the page shows it (2021 to 2025)."""
    try:
        answer = fetch.text(f"https://tappedout.net/api/deck/widget/?deck={quote(match['id'])}&cols=1",
                            method="POST")
    except NetworkError:
        if fetch.last is None or fetch.last.status not in _NOT_THERE:
            raise
        answer = ""  # no widget: the deck page, as before 2026
    deck = Deck(fetch.link, "TappedOut")
    if answer.lstrip().startswith("{"):
        widget = load_json(answer)
        board = widget.get("board") if isinstance(widget, dict) else None
        if not isinstance(board, str):
            raise ValueError("a widget without its board")
        reader: HTMLParser = _BoardList(deck)
    else:
        if "board-container" not in answer:
            answer = fetch.text(f"https://tappedout.net/mtg-decks/{quote(match['id'])}/")
        board, reader = _region(answer, "board-container"), _BoardPage(deck)
    reader.feed(_markup(board))
    reader.close()
    return deck


class _BoardPage(HTMLParser):
    """TappedOut's deck page (`div.board-container`): each card of a board is an `a.qty.board` link carrying
    data-board (main, side, maybe), data-qty and data-name; the commanders and the companion stand under their
    own headings (`<h3>Commanders (2)</h3>`) as card links alone, one copy each."""

    def __init__(self, deck: Deck) -> None:
        super().__init__()
        self.deck, self.depth, self.zone = deck, 0, Zone.MAIN
        self.heading: str | None = None  # the text of the heading being read
        self.counted: str | None = None  # the card the last quantity link counted (its card link follows)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "div" and (self.depth or "board-container" in classes):
            self.depth += 1
        if not self.depth:
            return
        if tag == "h3":
            self.heading = ""
        elif tag == "a" and "qty" in classes and "board" in classes:
            zone = _BOARDS.get(found.get("data-board") or "", Zone.IGNORED)
            count, name = found.get("data-qty") or "", found.get("data-name")
            if zone is not Zone.IGNORED and count.isdigit():
                _json_card(self.deck, self.getpos()[0], "board", name, int(count),
                           zone=self.zone if self.zone in (Zone.COMMANDER, Zone.COMPANION) else zone)
            self.counted = name
        elif tag == "a" and "card-hover" in classes and self.zone in (Zone.COMMANDER, Zone.COMPANION):
            if found.get("data-name") != self.counted:
                _json_card(self.deck, self.getpos()[0], "board", found.get("data-name"), 1, zone=self.zone)
            self.counted = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.depth:
            self.depth -= 1
        elif tag == "h3" and self.heading is not None:
            self.zone, self.heading = _heading_zone(self.heading), None

    def handle_data(self, data: str) -> None:
        if self.heading is not None:
            self.heading += data


_BOARDS = {"main": Zone.MAIN, "side": Zone.SIDEBOARD}


_HOST = r"^(?:https?://)?(?:[\w-]+\.)*"
_SITES = (
    _Site("Moxfield", "moxfield.com", re.compile(_HOST + r"moxfield\.com/decks/(?P<id>[\w-]+)"), _moxfield),
    _Site("Archidekt", "archidekt.com", re.compile(_HOST + r"archidekt\.com/(?:api/)?decks/(?P<id>\d+)"), _archidekt),
    _Site("MTGGoldfish", "mtggoldfish.com", re.compile(_HOST + r"mtggoldfish\.com/deck/(?:component\?id=)?(?P<id>\d+)"), _mtggoldfish),
    _Site("TappedOut", "tappedout.net", re.compile(_HOST + r"tappedout\.net/mtg-decks/(?P<id>[\w-]+)"), _tappedout),
    _Site("Deckstats", "deckstats.net", re.compile(_HOST + r"deckstats\.net/decks/(?P<user>\d+)/(?P<id>\d+[\w-]*)"), _deckstats),
    _Site("AetherHub", "aetherhub.com", re.compile(_HOST + r"aetherhub\.com/(?P<path>(?:Deck|Metagame/[\w-]+)/(?:Public/)?[\w-]+)"),
          _aetherhub),
)


def _site_of(url: str) -> tuple[_Site, re.Match[str]] | None:
    text = url.strip()
    for site in _SITES:
        match = site.link.match(text)
        if match:
            return site, match
    return None
