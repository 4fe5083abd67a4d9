"""A deck link pasted anywhere a deck is pasted (a phone's deck box, a seat on hhd serve's front page) is read as
`hhd check LINK` reads it, from the six sites only and never redirected to another host, or refused in one line:
never a colourless player without a word. The sites are their recorded answers on loopback (--deck-sites-url)."""

from __future__ import annotations

import pytest
from test_decksites import serve
from test_table_community import Server, opened

from hhdcli.env import Env
from support import LoopbackServer, Reply

LINK = "https://www.archidekt.com/decks/1365846/"  # the "3 Amigos" deck: Islands, Mountains, Swamps…
GONE = "https://moxfield.com/decks/gone"
AWAY = "https://moxfield.com/decks/away"


@pytest.fixture(name="sites")
def sites_fixture():
    """The recorded deck, a removed one, and one whose site answers with a redirect to another host."""
    server = LoopbackServer()
    serve(server, LINK)
    server.routes["/api.moxfield.com/v2/decks/all/gone"] = Reply(b'{"status": 404}', 404)
    server.routes["/api.moxfield.com/v2/decks/all/away"] = Reply(
        b"", 302, headers={"Location": "http://203.0.113.9/steal"})
    yield server
    server.close()


def test_a_phone_pasting_a_deck_link_gets_its_decks_colors_or_one_line_saying_why_not(table, sites, tmp_path):
    table.session.read_link = Env(tmp_path / "cache", None, 5.0, True, False,
                                  deck_sites_url=sites.url).read_pasted_deck
    status, found = table.as_("Anna", "/api/deck", {"text": f"  {LINK}\n"})
    assert status == 200 and {"U", "R", "B"} <= set(found["colors"]) and found["lands"], found
    status, refused = table.as_("Anna", "/api/deck", {"text": GONE})
    assert status == 400 and "has no such deck" in refused["error"] and "\n" not in refused["error"]
    status, refused = table.as_("Anna", "/api/deck", {"text": AWAY})
    assert status == 400 and "sends the request on to http://203.0.113.9, which is not Moxfield" in refused["error"]
    assert all(not path.startswith("/steal") for _, path, _ in sites.hits)
    status, refused = table.call("/api/deck", {"text": GONE}, {"Accept-Language": "ru"}, token=table.tokens["Anna"])
    assert status == 400 and refused["error"].startswith("не удалось прочитать ссылку на колоду")
    players = {p["name"]: p["colors"] for p in table.call("/api/state", host=True)[1]["players"]}
    assert players["Anna"] == found["colors"]  # the refusals changed nothing
    table.session.read_link = None  # a table that reads no links (a library caller's) says so
    status, refused = table.as_("Anna", "/api/deck", {"text": LINK})
    assert status == 400 and "does not read deck links" in refused["error"]


def test_the_front_page_reads_a_seats_deck_link_or_refuses_it_in_one_line(legacy_cache, sites, tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("HHD_DECK_SITES_URL", sites.url)
    server = Server(legacy_cache, tmp_path / "tables")
    try:
        status, page = server.open({"name0": "Anna", "deck0": LINK, "name1": "Ben", "colors1": "G",
                                    "seed": "links-1"})
        assert status == 201, page
        code = opened(page)["code"]
        players = {p["name"]: p["colors"] for p in server.api("/api/state", code)[1]["players"]}
        assert {"U", "R", "B"} <= set(players["Anna"]) and players["Ben"] == "G"
        for link, said in [(GONE, "Ben: the deck link could not be read:"), (AWAY, "which is not Moxfield; hhd did not follow it")]:
            status, page = server.open({"name0": "Anna", "colors0": "R", "name1": "Ben", "deck1": link})
            assert status == 400 and said in page and "Traceback" not in page
    finally:
        _out, err = server.stop()
    assert "Traceback" not in err
