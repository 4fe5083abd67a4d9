"""Deck links: each site's recorded answer for one real deck, served on loopback in place of the site."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from hhdcli.decklists import Zone
from hhdcli.decksites import is_deck_url, read_deck_text, read_deck_url
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


@pytest.mark.parametrize("link", sorted(RECORDED))
def test_a_deck_link_reads_main_deck_commanders_and_sideboard_as_the_site_keeps_them(sites, link):
    serve(sites, link)
    deck = read_deck_url(link, client(), mirror=sites.url)
    assert sorted(deck.commanders) == COMMANDERS
    without_companion = [e for e in deck.main if e.name != COMPANION]
    assert sum(e.count for e in without_companion) == 100  # the commanders and 98 cards
    kept = {e.zone for e in deck.entries if e.name == COMPANION}
    assert kept in ({Zone.COMPANION}, {Zone.SIDEBOARD}, {Zone.COMPANION, Zone.SIDEBOARD})  # as the site keeps it
    assert deck.problems == [] and deck.doubts == []
    assert all(path.startswith("/" + link.split("/")[2].removeprefix("www.")) or path.startswith("/www.")
               or path.startswith("/api.") for _, path, _ in sites.hits)


def test_the_site_is_asked_with_hhds_user_agent_through_the_mirror(sites):
    link = "https://www.archidekt.com/decks/1365846/"
    serve(sites, link)
    read_deck_url(link, client(), mirror=sites.url + "/")
    [(method, path, headers)] = sites.hits
    assert (method, path) == ("GET", "/archidekt.com/api/decks/1365846/")
    assert headers["User-Agent"].startswith("hhd/")


@pytest.mark.parametrize("status, said", [(404, "has no such deck"), (403, "the deck is private on Moxfield")])
def test_a_removed_or_private_deck_is_one_line_saying_so(sites, status, said):
    sites.routes["/api.moxfield.com/v2/decks/all/gone"] = Reply(b'{"status": %d}' % status, status)
    with pytest.raises(NetworkError) as error:
        read_deck_url("https://moxfield.com/decks/gone", client(), mirror=sites.url)
    assert said in error.value.message and "\n" not in error.value.message


def test_a_bot_check_page_instead_of_the_deck_says_so(sites):
    # MTGGoldfish's recorded answer to a deck page fetched without a browser: Cloudflare's 403 "Just a moment..."
    sites.routes["/www.mtggoldfish.com/deck/component"] = Reply(
        gzip.decompress((SITES / "mtggoldfish-cloudflare-403.html.gz").read_bytes()), 403, "text/html")
    with pytest.raises(NetworkError) as error:
        read_deck_url("https://www.mtggoldfish.com/deck/3935836", client(), mirror=sites.url)
    assert "asks for a browser check" in error.value.message


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
