"""Deck links: each site's recorded answer for one real deck, served on loopback in place of the site."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from hhdcli.decklists import Zone
from hhdcli.decksites import MAX_ANSWER, is_deck_url, read_deck_text, read_deck_url
from hhdcli.errors import InputError, NetworkError
from hhdcli.http import Client, HttpSettings
from support import LoopbackServer, Reply

SITES = Path(__file__).parent / "decks" / "sites"
COMMANDERS = ["Kraum, Ludevic's Opus", "Vial Smasher the Fierce"]
COMPANION = "Obosh, the Preypiercer"

# link → {path on the site: recorded answer}. The deck is lheyberger/mtg-parser's "3 Amigos" test deck on every
# site: two partner commanders, 98 other cards, and Obosh as its companion (each site keeps it its own way).
RECORDED = {
    "https://www.moxfield.com/decks/Agzx8zsi5UezWBUX5hMJPQ":
        {"/api.moxfield.com/v2/decks/all/Agzx8zsi5UezWBUX5hMJPQ": "moxfield-deck.json"},
    "https://www.archidekt.com/decks/1365846/": {"/archidekt.com/api/decks/1365846/": "archidekt-deck.json"},
    "https://www.mtggoldfish.com/deck/3935836": {"/www.mtggoldfish.com/deck/component": "mtggoldfish-component.js"},
    "https://tappedout.net/mtg-decks/mtg-parser-3-amigos/": {"/tappedout.net/api/deck/widget/": "tappedout-widget.json"},
    "https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos":
        {"/deckstats.net/decks/30198/2034245--mtg-parser-3-amigos/": "deckstats-page.html"},
    "https://aetherhub.com/Deck/mtg-parser-3-amigos": {"/aetherhub.com/Deck/mtg-parser-3-amigos": "aetherhub-page.html",
                                                       "/aetherhub.com/Deck/FetchMtgaDeckJson": "aetherhub-deck.json"},
}


@pytest.fixture
def sites():
    server = LoopbackServer()
    yield server
    server.close()


def serve(server: LoopbackServer, link: str) -> None:
    for path, name in RECORDED[link].items():
        server.routes[path] = Reply(gzip.decompress((SITES / f"{name}.gz").read_bytes()),
                                    content_type="text/html" if name.endswith((".html", ".js")) else "application/json")


def client() -> Client:
    return Client(HttpSettings(timeout=(2.0, 5.0), retries=0))


MOXFIELD_API = "/api.moxfield.com/v2/decks/all/Agzx8zsi5UezWBUX5hMJPQ"
GOLDFISH_PAGE = "/www.mtggoldfish.com/deck/3935836"
GOLDFISH_COMPONENT = "/www.mtggoldfish.com/deck/component"
DECKSTATS_PAGE = "/deckstats.net/decks/30198/2034245--mtg-parser-3-amigos/"
TAPPEDOUT_PAGE = "/tappedout.net/mtg-decks/mtg-parser-3-amigos/"

# Every page version each site served for the same deck, newest first (tests/decks/real/README.md says where each
# was recorded): (link, {path on the site: recorded answer}, main deck, sideboard) as the site's own deck view
# shows them. The deck grew by one card in the autumn of 2024 (100 → 101 with commanders and companion).
VERSIONS = {
    "Moxfield-2026-08": ("https://www.moxfield.com/decks/Agzx8zsi5UezWBUX5hMJPQ", {MOXFIELD_API: "moxfield-deck.json"}, 101, 0),
    "Moxfield-2021-04": ("https://www.moxfield.com/decks/Agzx8zsi5UezWBUX5hMJPQ",
                         {MOXFIELD_API: "moxfield-deck-2021-04.json"}, 100, 0),
    "Archidekt-2026-08": ("https://www.archidekt.com/decks/1365846/",
                          {"/archidekt.com/api/decks/1365846/": "archidekt-deck.json"}, 101, 0),
    "Archidekt-2021-04": ("https://www.archidekt.com/decks/1365846/",
                          {"/archidekt.com/api/decks/1365846/": "archidekt-deck-2021-04.json"}, 100, 0),
    # MTGGoldfish: the component writing the table (2026 rows with data-card-name; 2025 rows without), the deck page
    # holding the table itself (2021, 2024), and the 2025 page whose table only the component held
    "MTGGoldfish-2026-08": ("https://www.mtggoldfish.com/deck/3935836",
                            {GOLDFISH_COMPONENT: "mtggoldfish-component.js"}, 101, 0),
    "MTGGoldfish-2025-10": ("https://www.mtggoldfish.com/deck/3935836",
                            {GOLDFISH_COMPONENT: "mtggoldfish-component-2025-10.js"}, 101, 0),
    "MTGGoldfish-2025-02": ("https://www.mtggoldfish.com/deck/3935836",
                            {GOLDFISH_COMPONENT: "mtggoldfish-component-2025-02.js",
                             GOLDFISH_PAGE: "mtggoldfish-page-2025-02.html"}, 101, 0),
    "MTGGoldfish-2024-10": ("https://www.mtggoldfish.com/deck/3935836",
                            {GOLDFISH_PAGE: "mtggoldfish-page-2024-10.html"}, 101, 0),
    "MTGGoldfish-2021-04": ("https://www.mtggoldfish.com/deck/3935836",
                            {GOLDFISH_PAGE: "mtggoldfish-page-2021-04.html"}, 100, 0),
    "MTGGoldfish-2025-02-page-alone": ("https://www.mtggoldfish.com/deck/3935836",  # its form: Obosh in the sideboard
                                       {GOLDFISH_PAGE: "mtggoldfish-page-2025-02.html"}, 100, 1),
    # a mirror that keeps an older page where hhd now asks first (the component's, the widget's address)
    "MTGGoldfish-2024-10-at-the-component's-address": ("https://www.mtggoldfish.com/deck/3935836",
                                                       {GOLDFISH_COMPONENT: "mtggoldfish-page-2024-10.html"}, 101, 0),
    "TappedOut-2025-10-at-the-widget's-address": ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/",
                                                  {"/tappedout.net/api/deck/widget/": "tappedout-page-2025-10.html"},
                                                  101, 0),
    "TappedOut-2026-08": ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/",
                          {"/tappedout.net/api/deck/widget/": "tappedout-widget.json"}, 100, 1),
    "TappedOut-2025-10": ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/",
                          {TAPPEDOUT_PAGE: "tappedout-page-2025-10.html"}, 101, 0),
    "TappedOut-2021-04": ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/",
                          {TAPPEDOUT_PAGE: "tappedout-page-2021-04.html"}, 100, 0),
    # Deckstats: data-page="app" (August 2026: is_companion; July 2026: the owner's `!Companion` mark), then
    # init_deck_data({...}) from 2021 to April 2026 (2021: the companion in `sideboard`, marked isCompanion)
    "Deckstats-2026-08": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                          {DECKSTATS_PAGE: "deckstats-page.html"}, 101, 0),
    # built from the August 2026 recording (tests/data/README.md): the companion unticked (is_companion false), its
    # owner's `!Companion` comment left: the site's view shows it in the sideboard, where its zone puts it
    "Deckstats-2026-08-companion-unticked": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                                             {DECKSTATS_PAGE: "deckstats-page-2026-08-companion-unticked.html"}, 100, 1),
    "Deckstats-2026-07": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                          {DECKSTATS_PAGE: "deckstats-page-2026-07.html"}, 101, 0),
    "Deckstats-2025-10": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                          {DECKSTATS_PAGE: "deckstats-page-2025-10.html"}, 101, 0),
    "Deckstats-2022-04": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                          {DECKSTATS_PAGE: "deckstats-page-2022-04.html"}, 100, 0),
    "Deckstats-2021-04": ("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos",
                          {DECKSTATS_PAGE: "deckstats-page-2021-04.html"}, 100, 0),
    "AetherHub-2026-08": ("https://aetherhub.com/Deck/mtg-parser-3-amigos",
                          {"/aetherhub.com/Deck/mtg-parser-3-amigos": "aetherhub-page.html",
                           "/aetherhub.com/Deck/FetchMtgaDeckJson": "aetherhub-deck.json"}, 101, 0),
    "AetherHub-2021-04": ("https://aetherhub.com/Deck/mtg-parser-3-amigos",
                          {"/aetherhub.com/Deck/mtg-parser-3-amigos": "aetherhub-page-2021-04.html",
                           "/aetherhub.com/Deck/FetchMtgaDeckJson": "aetherhub-deck-2021-04.json"}, 100, 0),
}


def recorded(name: str) -> bytes:
    return gzip.decompress((SITES / f"{name}.gz").read_bytes())


def serve_version(server: LoopbackServer, version: str) -> str:
    link, routes, _main, _side = VERSIONS[version]
    for path, name in routes.items():
        server.routes[path] = Reply(recorded(name), content_type="application/json" if name.endswith(".json")
                                    else "text/html")
    return link


@pytest.mark.parametrize("version", list(VERSIONS))
def test_every_page_version_a_site_served_is_read_as_its_deck_view_shows_the_deck(sites, version):
    link, routes, main, side = VERSIONS[version]
    serve_version(sites, version)
    deck = read_deck_url(link, client(), mirror=sites.url)
    assert sorted(deck.commanders) == COMMANDERS
    assert (sum(e.count for e in deck.main), sum(e.count for e in deck.sideboard)) == (main, side)
    where = {e.zone for e in deck.entries if e.name == COMPANION}
    assert where == ({Zone.SIDEBOARD} if side else {Zone.COMPANION})  # once, where the site's view shows it
    assert deck.problems == [] and deck.doubts == []
    host = "/" + link.split("/")[2].removeprefix("www.")
    assert all(path.startswith((host, "/www.", "/api.")) for _, path, _ in sites.hits)


def test_mtggoldfish_reads_the_component_and_asks_for_the_deck_page_only_when_there_is_none(sites):
    serve_version(sites, "MTGGoldfish-2025-10")
    read_deck_url("https://www.mtggoldfish.com/deck/3935836", client(), mirror=sites.url)
    assert [path for _, path, _ in sites.hits] == [GOLDFISH_COMPONENT]
    sites.routes.clear()
    sites.hits.clear()
    serve_version(sites, "MTGGoldfish-2024-10")
    read_deck_url("https://www.mtggoldfish.com/deck/3935836", client(), mirror=sites.url)
    assert [path for _, path, _ in sites.hits] == [GOLDFISH_COMPONENT, GOLDFISH_PAGE]  # 404, then the page


def test_a_moxfield_companion_listed_in_companions_and_sideboard_is_counted_once_as_the_companion(sites):
    import json

    answer = json.loads(recorded("moxfield-deck.json"))
    assert COMPANION in answer["companions"] and COMPANION in answer["sideboard"]  # the site lists it twice
    serve_version(sites, "Moxfield-2026-08")
    deck = read_deck_url(VERSIONS["Moxfield-2026-08"][0], client(), mirror=sites.url)
    assert [(e.count, e.zone) for e in deck.entries if e.name == COMPANION] == [(1, Zone.COMPANION)]
    assert deck.sideboard == []


@pytest.mark.parametrize("path, link, answer", [
    (DECKSTATS_PAGE, VERSIONS["Deckstats-2026-08"][0], b"<html><body><div id='deck'></div></body></html>"),
    (GOLDFISH_COMPONENT, VERSIONS["MTGGoldfish-2026-08"][0], b"$('#deck').html('<p>soon</p>');"),
    (TAPPEDOUT_PAGE, VERSIONS["TappedOut-2025-10"][0], b"<html><div class='deck'>new</div></html>"),
])
def test_a_page_shape_no_reader_knows_is_one_clear_line(sites, path, link, answer):
    sites.routes[path] = Reply(answer, content_type="text/html")
    with pytest.raises(NetworkError) as error:
        read_deck_url(link, client(), mirror=sites.url)
    assert "may have changed its answer" in error.value.message and "\n" not in error.value.message


def test_the_site_is_asked_with_hhds_user_agent_through_the_mirror(sites):
    link = "https://www.archidekt.com/decks/1365846/"
    serve(sites, link)
    read_deck_url(link, client(), mirror=sites.url + "/")
    [(method, path, headers)] = sites.hits
    assert (method, path) == ("GET", "/archidekt.com/api/decks/1365846/")
    assert headers["User-Agent"].startswith("hhd/")


def recording(server: LoopbackServer, path: str, link: str, asked: list[str]) -> None:
    """`path` answers the link's recorded answer, and each request's whole target (path and query) is kept."""
    [(_site_path, name)] = RECORDED[link].items()
    answer = Reply(gzip.decompress((SITES / f"{name}.gz").read_bytes()), content_type="application/json")

    def route(handler) -> Reply:
        asked.append(handler.path)
        return answer

    server.routes[path] = route


@pytest.mark.parametrize("link, path, sent", [
    ("https://www.archidekt.com/decks/1365846/", "/good/archidekt.com/api/decks/1365846/", "?x=1"),
    ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/", "/good/tappedout.net/api/deck/widget/",
     "?x=1&deck=mtg-parser-3-amigos&cols=1"),  # the site's own query after the mirror's
])
def test_a_mirror_address_with_a_path_and_a_query_is_asked_for_the_sites_path_after_its_path(sites, link, path,
                                                                                            sent):
    """--deck-sites-url http://host/good?x=1 once sent /good?x=1/HOST/PATH (the path after the query) and the
    deck was blamed: the site's host and path go after the mirror's path, the mirror's query stays a query."""
    asked: list[str] = []
    recording(sites, path, link, asked)
    deck = read_deck_url(link, client(), mirror=sites.url + "/good?x=1")
    assert asked == [path + sent] and sorted(deck.commanders) == COMMANDERS


GONE = "https://moxfield.com/decks/gone"
GONE_PATH = "/api.moxfield.com/v2/decks/all/gone"


def refusal_of(server: LoopbackServer, reply: Reply, link: str = GONE, path: str = GONE_PATH) -> str:
    """The one line a link's refusal is said in, with its hint."""
    server.routes[path] = reply
    with pytest.raises(NetworkError) as error:
        read_deck_url(link, client(), mirror=server.url)
    assert "\n" not in error.value.message and error.value.exit_code == 4
    return f"{error.value.message} → {error.value.hint}"


@pytest.mark.parametrize("reply, said", [
    (Reply(b'{"status": 404}', 404), "Moxfield has no such deck"),
    (Reply(b'{"status": 403, "title": "Forbidden", "detail": "This deck is private."}', 403),
     "the deck is private on Moxfield"),
    (Reply(b'{"status": 403}', 403), "Moxfield refused to show the deck (HTTP 403)"),  # not said to be private
    (Reply(b"down for maintenance", 500, "text/plain"), "HTTP 500"),
])
def test_a_removed_private_or_refused_deck_is_one_line_saying_what_the_site_said(sites, reply, said):
    line = refusal_of(sites, reply)
    assert said in line and ("private" in said or "the deck is private on" not in line)


@pytest.mark.parametrize("page, status, said", [
    # Cloudflare's block page as codepen.io answered it (403, "Attention Required! | Cloudflare")
    ("cloudflare-attention-403.html", 403, "Moxfield blocked hhd's request (Cloudflare, HTTP 403)"),
    # MTGGoldfish's recorded 403 "Just a moment..." browser check, and the same page as a 503 challenge and a 200
    ("mtggoldfish-cloudflare-403.html", 403, "Moxfield asks for a browser check before it answers (Cloudflare, HTTP 403)"),
    ("mtggoldfish-cloudflare-403.html", 503, "asks for a browser check before it answers (Cloudflare, HTTP 503)"),
    ("mtggoldfish-cloudflare-403.html", 200, "asks for a browser check before it answers (Cloudflare, HTTP 200)"),
])
def test_a_firewall_page_instead_of_the_deck_is_said_as_a_block_with_the_way_around_it(sites, page, status, said):
    line = refusal_of(sites, Reply(recorded(page), status, "text/html"))
    assert said in line and "private" not in line
    assert "export the deck as text on the site, then paste it or give hhd the file" in line


def test_a_block_page_for_a_site_read_from_its_deck_page_is_a_block_too(sites):
    link = VERSIONS["Deckstats-2026-08"][0]
    line = refusal_of(sites, Reply(recorded("cloudflare-attention-403.html"), 403, "text/html"), link, DECKSTATS_PAGE)
    assert "Deckstats blocked hhd's request (Cloudflare, HTTP 403)" in line


# --- nothing sent off the site ------------------------------------------------------------------------------


def test_a_redirect_to_another_host_is_refused_before_anything_is_sent_there(sites):
    elsewhere = LoopbackServer()  # another host: it must never be asked
    try:
        for location in (elsewhere.url + "/decks/x", f"{sites.url}/example.com/decks/x", "https://example.com/",
                         "http://archidekt.com/api/decks/1365846/", "//evil.example/x",
                         "https://archidekt.com.evil.example/x", "https://archidekt.com:8443/x"):
            line = refusal_of(sites, Reply(b"", 302, headers={"Location": location}),
                              "https://archidekt.com/decks/1", "/archidekt.com/api/decks/1/")
            assert "which is not Archidekt; hhd did not follow it" in line, location
        assert elsewhere.hits == []
        assert {path for _, path, _ in sites.hits} == {"/archidekt.com/api/decks/1/"}
    finally:
        elsewhere.close()


@pytest.mark.parametrize("location", ["https://archidekt.com/api/decks/1365846/", "/api/decks/1365846/",
                                      "https://www.archidekt.com/api/decks/1365846/",
                                      "MIRROR/archidekt.com/api/decks/1365846/"])  # the mirror's own address of it
def test_a_redirect_within_the_site_is_followed_over_https(sites, location):
    serve(sites, "https://www.archidekt.com/decks/1365846/")
    location = location.replace("MIRROR", sites.url)
    sites.routes["/archidekt.com/api/decks/1/"] = Reply(b"", 301, headers={"Location": location})
    sites.routes["/www.archidekt.com/api/decks/1365846/"] = sites.routes["/archidekt.com/api/decks/1365846/"]
    deck = read_deck_url("https://archidekt.com/decks/1", client(), mirror=sites.url)
    assert sorted(deck.commanders) == COMMANDERS


def test_a_redirect_loop_ends_in_one_line(sites):
    line = refusal_of(sites, Reply(b"", 302, headers={"Location": "/api/decks/1/"}),
                      "https://archidekt.com/decks/1", "/archidekt.com/api/decks/1/")
    assert "redirects more than 5 times" in line and sites.count("/archidekt.com/api/decks/1/") == 6


DEEP = b"[" * 200_000 + b"]" * 200_000


@pytest.mark.parametrize("path, link, answer", [
    (GONE_PATH, GONE, DEEP),
    ("/tappedout.net/api/deck/widget/", VERSIONS["TappedOut-2026-08"][0], b'{"board": ' + DEEP + b"}"),
    (DECKSTATS_PAGE, VERSIONS["Deckstats-2026-08"][0], b"<script>init_deck_data(" + DEEP + b");</script>"),
    (DECKSTATS_PAGE, VERSIONS["Deckstats-2026-08"][0], b'<script data-page="app">' + DEEP + b"</script>"),
])
def test_an_answer_nested_200000_deep_is_one_line_not_a_traceback(sites, path, link, answer):
    line = refusal_of(sites, Reply(answer, content_type="text/html"), link, path)
    assert "may have changed its answer" in line and "nested too deeply" in line


def test_an_answer_larger_than_any_deck_page_is_one_line(sites):
    line = refusal_of(sites, Reply(b" " * (MAX_ANSWER + 1)))
    assert "larger than 8 MB" in line


@pytest.mark.parametrize("answer", [b'{"name": "a deck", "boards": "moved"}', b"<html>a new page</html>", b"{"])
def test_a_site_that_changed_its_answer_is_one_line_not_a_traceback(sites, answer):
    sites.routes["/archidekt.com/api/decks/1/"] = Reply(answer)
    with pytest.raises(NetworkError) as error:
        read_deck_url("https://archidekt.com/decks/1", client(), mirror=sites.url)
    assert "may have changed its answer" in error.value.message


def test_an_unreachable_site_is_a_network_error(sites):
    url = sites.url
    sites.close()
    with pytest.raises(NetworkError):
        read_deck_url("https://archidekt.com/decks/1365846", client(), mirror=url)


def test_links_of_other_sites_are_no_deck_links():
    assert is_deck_url("moxfield.com/decks/Agzx8zsi5UezWBUX5hMJPQ")
    assert not is_deck_url("https://example.com/decks/1") and not is_deck_url("deck.txt")
    with pytest.raises(InputError):
        read_deck_url("https://example.com/decks/1", client())


def test_a_pasted_list_is_read_like_a_file_and_nothing_readable_is_refused():
    assert sum(e.count for e in read_deck_text("4 Forest\n4 Island\n").main) == 8
    with pytest.raises(InputError):
        read_deck_text("Hello, this is no deck.\nNor is this line.\n")


# --- from the command line: hhd check LINK, hhd table --deck Anna=LINK ------------------------------------------

NO_LANDS_KNOWN = Reply(b'{"object": "list", "not_found": [], "data": []}')


def test_hhd_check_reads_a_deck_link_through_the_deck_sites_mirror(synced, sites, monkeypatch):
    link = "https://www.archidekt.com/decks/1365846/"
    serve(sites, link)
    sites.routes["/cards/collection"] = NO_LANDS_KNOWN
    monkeypatch.setenv("HHD_DECK_SITES_URL", sites.url)
    result = synced("check", link, "--all", "--scryfall-url", sites.url, "--json")
    assert result.exit_code == 0, result.output
    import json

    deck = json.loads(result.stdout)["deck"]
    assert sorted(deck["commander"]) == COMMANDERS and deck["doubts"] == []
    assert sites.count("/archidekt.com/api/decks/1365846/") == 1


def test_hhd_check_of_a_removed_deck_is_one_line_and_a_network_exit_code(synced, sites):
    result = synced("--deck-sites-url", sites.url, "check", "https://moxfield.com/decks/nothere", "--all")
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code != 0 and len(errors) == 1 and "Moxfield has no such deck" in errors[0]
    assert "Traceback" not in result.output


def test_hhd_check_of_a_deck_link_offline_says_it_needs_the_network(synced, sites):
    result = synced("check", "https://moxfield.com/decks/abc", "--all", "--offline")
    assert result.exit_code != 0 and "needs the network" in result.output and sites.hits == []


def test_hhd_check_of_a_missing_file_names_it(synced, tmp_path):
    result = synced("check", str(tmp_path / "nope.txt"), "--all", "--offline")
    assert result.exit_code == 2 and "nope.txt: no such deck file" in result.output


def test_the_table_takes_a_players_deck_from_its_link(legacy_cache, library, sites, tmp_path):
    from test_table_serve import served_once, state_value

    link = "https://tappedout.net/mtg-decks/mtg-parser-3-amigos/"
    serve(sites, link)
    sites.routes["/cards/collection"] = NO_LANDS_KNOWN
    served_once(legacy_cache, tmp_path / "s.sqlite", "--deck-sites-url", sites.url, "table", "-l", str(library),
                "--deck", f"Anna={link}", scryfall_url=sites.url)
    colors = str(state_value(tmp_path / "s.sqlite", "SELECT colors FROM players WHERE name = 'Anna'"))
    assert {"U", "R"} <= set(colors)  # the deck's Islands and Mountains
    assert sites.count("/tappedout.net/api/deck/widget/", "POST") == 1


def test_a_pasted_link_is_read_from_its_site_and_a_pasted_list_as_a_list(sites, tmp_path):
    from hhdcli.env import Env

    link = "https://www.archidekt.com/decks/1365846/"
    serve(sites, link)
    env = Env(tmp_path / "cache", None, 5.0, True, False, deck_sites_url=sites.url)
    assert sorted(env.read_pasted_deck(f"  {link}\n").commanders) == COMMANDERS
    assert sum(e.count for e in env.read_pasted_deck("4 Forest\n2 Island\n").main) == 6
    assert sites.count("/archidekt.com/api/decks/1365846/") == 1


def test_a_deck_table_larger_than_any_deck_is_one_line_not_minutes_of_parsing(sites):
    # 1.5 MB of `<` in a table: HTMLParser's time grows with their square (minutes at 8 MB); refused at 1 MB
    table = b"$('').html('<table class=\\'deck-view-deck-table\\'>" + b"<" * 1_500_000 + b"<\\/table>');"
    line = refusal_of(sites, Reply(table, content_type="text/javascript"), VERSIONS["MTGGoldfish-2026-08"][0],
                      GOLDFISH_COMPONENT)
    assert "may have changed its answer" in line


@pytest.mark.parametrize("reply, said", [
    (Reply(recorded("cloudflare-attention-403.html"), 403, "text/html"), "Moxfield blocked hhd's request"),
    (Reply(b"", 302, headers={"Location": "https://example.com/decks/gone"}), "which is not Moxfield"),
    (Reply(DEEP), "nested too deeply"),
])
def test_hhd_check_says_a_block_a_redirect_off_the_site_or_a_deep_answer_in_one_line(synced, sites, reply, said):
    sites.routes[GONE_PATH] = reply
    result = synced("check", GONE, "--all", "--deck-sites-url", sites.url)
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 4 and len(errors) == 1 and said in errors[0], result.output
    assert "Traceback" not in result.output and sites.hits and all(p == GONE_PATH for _, p, _ in sites.hits)


@pytest.mark.parametrize("error, said", [
    (b"This deck does not exist.", "Deckstats has no such deck"),
    (b"You do not have access to this page.", "Deckstats refused to show the deck (HTTP 200)"),
])
def test_a_deck_page_that_says_why_it_shows_no_deck_is_said_so(sites, error, said):
    # Deckstats answers these with 200 and the reason in its error box (as z33k's deck scrapers read it)
    page = b'<html><body><div class="ui-state-error ui-corner-all">' + error + b"</div></body></html>"
    line = refusal_of(sites, Reply(page, content_type="text/html"), VERSIONS["Deckstats-2026-08"][0], DECKSTATS_PAGE)
    assert said in line and "the deck is private on" not in line


def test_a_moxfield_deck_the_v2_api_does_not_serve_is_read_from_v3(sites):
    # njerador/commander-decks' deck-03: Moxfield's v3 answer (boards under "boards"), two partners, 98 cards
    v3 = gzip.decompress((Path(__file__).parent / "decks" / "real" / "moxfield-api" / "njerador-deck-03.json.gz")
                         .read_bytes())
    sites.routes["/api2.moxfield.com/v3/decks/all/deck03"] = Reply(v3)
    deck = read_deck_url("https://moxfield.com/decks/deck03", client(), mirror=sites.url)
    assert sorted(deck.commanders) == ["Frodo, Adventurous Hobbit", "Sam, Loyal Attendant"]
    assert sum(e.count for e in deck.main) == 100 and deck.sideboard == []
    assert [path for _, path, _ in sites.hits] == ["/api.moxfield.com/v2/decks/all/deck03",
                                                   "/api2.moxfield.com/v3/decks/all/deck03"]


def test_a_rate_limit_is_said_with_when_to_come_back_not_as_a_block(sites):
    page = b"<html><head><title>Access denied | moxfield.com used Cloudflare to restrict access</title></head>" \
           b"<body><div id='cf-error-details'>Error 1015: You are being rate limited</div></body></html>"
    line = refusal_of(sites, Reply(page, 429, "text/html", headers={"Retry-After": "3600"}))
    assert "HTTP 429" in line and "Retry-After" in line and "blocked" not in line
