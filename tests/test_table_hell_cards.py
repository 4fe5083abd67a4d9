"""Every Hell card at the table, part 1, through the HTTP API with the real cards that need each operation: any
card of the shared sideboard by any player to any zone, its shuffle and its random cards, random Hell cards into a
player's hand, companions, the zones Hell cards create, the moments the format names, each card's clarification.
(The page's taps for the same are in test_table_hell_cards_page.py.)"""

from __future__ import annotations

import pytest
from tablekit import Table, deal_to, hell_position, table_with

from hhdcli.table.game.zones import made_zones

CARDS = ["Arabian Dunes", '"I Have Lethal"', "Sidecaster Mage", "Nebula Warp", "Bear but Woah",
         "Swords to Rideshares", "Big Money", "Collect Call", "Knight of ____", "Shifting Tome", "A Blue Card",
         "Hype Train", "Goblin Draft Guide", "Faithful Looting", "Shell Game", "Search for the Nebula // The Great Nebula Field",
         "Spacefolk Looter", "Fucked or Friction", "Dreadmaw Draft Guide"]


@pytest.fixture
def hell(legacy_cache, library, tmp_path):
    """A table whose library holds the cards of CARDS; Anna, Ben and Cleo have kept their opening hands."""
    running = table_with(CARDS, library, legacy_cache, tmp_path)
    yield running
    running.stop()


def drawn(table: Table, player: str, name: str) -> dict:
    """The named card drawn by the player (put on top of the Hell library first): its answer."""
    deal_to(table, player, hell_position(table, name))
    status, card = table.as_(player, "/api/draw")
    assert status == 200, card
    assert card["name"] == name
    return card


def onto_sideboard(table: Table, player: str, name: str) -> int:
    """The named card drawn and declined (or, a take, sent to the sideboard): on top of the sideboard."""
    card = drawn(table, player, name)
    if card["verdict"] == "choice":
        assert table.as_(player, "/api/decline")[0] == 200
    else:
        assert table.as_(player, "/api/to-sideboard", {"position": card["position"]})[0] == 200
    return card["position"]


def sideboard(table: Table, viewer: str | None = None) -> list[str]:
    return [c["name"] for c in table.state(viewer)["sideboard"]]


def test_arabian_dunes_takes_any_card_of_the_sideboard_into_the_takers_hand(hell):
    for name in ("Hype Train", "Nebula Warp", "Shell Game"):
        onto_sideboard(hell, "Anna", name)
    assert sideboard(hell) == ["Shell Game", "Nebula Warp", "Hype Train"]
    hype = hell_position(hell, "Hype Train")
    status, answer = hell.as_("Ben", "/api/move", {"position": hype, "to": "hand"})  # the bottom card, by Ben
    assert status == 200, answer
    assert "Hype Train" in [c["name"] for c in hell.player("Ben")["cards"]]
    assert sideboard(hell) == ["Shell Game", "Nebula Warp"]
    line = hell.state("Cleo")["log"][0]  # the sideboard is open: its card is named to everyone
    assert line["action"] == "from the sideboard" and line["detail"]["name"] == "Hype Train"
    assert line["detail"]["to"] == "hand" and line["detail"]["whose"] == "Ben"
    assert hell.player("Ben", viewer="Cleo")["card_count"] == 3
    # undone: back where it was, at the sideboard's bottom
    assert hell.as_("Ben", "/api/undo")[0] == 200
    assert sideboard(hell) == ["Shell Game", "Nebula Warp", "Hype Train"]


def test_need_puts_a_card_from_the_sideboard_on_top_of_the_payers_library(hell):
    need = onto_sideboard(hell, "Ben", '"I Have Lethal"')
    status, answer = hell.as_("Anna", "/api/move", {"position": need, "to": "library-top"})
    assert status == 200, answer
    assert [c["name"] for c in hell.player("Anna")["deck"]] == ['"I Have Lethal"']
    assert hell.state("Ben")["log"][0]["detail"]["to"] == "library-top"


def test_a_card_goes_n_th_from_the_top_of_its_owners_library(hell):
    card = drawn(hell, "Anna", "Hype Train")
    if card["verdict"] == "choice":
        assert hell.as_("Anna", "/api/take")[0] == 200
    assert hell.as_("Anna", "/api/play", {"position": card["position"]})[0] == 200
    status, answer = hell.as_("Ben", "/api/move", {"position": card["position"], "to": "library-at", "at": 5})
    assert status == 200, answer
    assert hell.player("Anna")["deck"][0]["depth"] == 5  # Anna's to know: fifth from the top
    assert hell.player("Anna", viewer="Ben")["deck"] == []
    assert hell.state("Cleo")["log"][0]["detail"]["at"] == 5
    refused = hell.as_("Ben", "/api/move", {"position": card["position"], "to": "library-at", "at": 0})
    assert refused[0] in (400, 404)


def test_sidecaster_mage_casts_any_instant_or_sorcery_of_the_sideboard(hell):
    for name in ("Nebula Warp", "Hype Train"):
        onto_sideboard(hell, "Ben", name)
    warp = hell_position(hell, "Nebula Warp")
    status, answer = hell.as_("Anna", "/api/play-sideboard", {"position": warp})
    assert status == 200, answer
    assert "Nebula Warp" in [c["name"] for c in hell.player("Anna")["played"]]
    assert hell.state("Ben")["log"][0]["detail"]["at"] == 2  # the second card, not the top


def test_the_sideboard_is_shuffled_and_random_cards_are_revealed_after_a_shuffle(hell):
    for name in ("Hype Train", "Nebula Warp", "Shell Game", "Big Money"):
        onto_sideboard(hell, "Anna", name)
    assert hell.as_("Ben", "/api/sideboard/shuffle")[0] == 200
    assert sorted(sideboard(hell)) == ["Big Money", "Hype Train", "Nebula Warp", "Shell Game"]
    assert hell.state("Cleo")["log"][0]["action"] == "shuffle the sideboard"
    status, answer = hell.as_("Anna", "/api/sideboard/random", {"count": 2, "nonbasic": True})
    assert status == 200, answer
    names = [c["name"] for c in answer["cards"]]
    assert len(names) == 2 and sideboard(hell)[:2] == names  # revealed on top, for the effect to move
    assert hell.state("Cleo")["log"][0]["detail"]["names"] == names
    assert hell.as_("Anna", "/api/sideboard/random", {"count": 0})[0] == 400


def test_goblin_draft_guide_puts_a_random_hell_card_into_an_opponents_hand_which_only_they_see(hell):
    before = hell.player("Ben")["card_count"]
    status, answer = hell.as_("Anna", "/api/random-hell-card", {"whose": "Ben", "count": 1})
    assert status == 200 and "cards" not in answer  # Anna gave it; which card it is is Ben's to know
    assert hell.player("Ben")["card_count"] == before + 1
    assert hell.state("Ben")["log"][0]["detail"]["names"]
    assert "names" not in hell.state("Anna")["log"][0]["detail"]
    assert "names" not in hell.state()["log"][0]["detail"]
    status, answer = hell.as_("Anna", "/api/random-hell-card", {"whose": "Anna", "count": 2})  # Faithful Looting
    assert status == 200 and len(answer["cards"]) == 2


def test_a_companion_is_declared_from_anywhere_in_the_sideboard_and_cast_once_a_game(hell):
    bear = onto_sideboard(hell, "Ben", "Bear but Woah")
    onto_sideboard(hell, "Ben", "Hype Train")  # now the companion is not the top card
    assert hell.state()["sideboard"][1]["companion"] is True
    assert hell.as_("Anna", "/api/companion", {"position": hell_position(hell, "Hype Train")})[0] == 409
    status, answer = hell.as_("Anna", "/api/companion", {"position": bear})
    assert status == 200, answer
    assert hell.player("Anna", viewer="Cleo")["companion"]["name"] == "Bear but Woah"
    assert hell.as_("Anna", "/api/companion/cast")[0] == 200
    assert "Bear but Woah" in [c["name"] for c in hell.player("Anna")["played"]]
    assert hell.player("Anna")["companion_cast"] is True
    assert hell.as_("Anna", "/api/undo")[0] == 200  # the cast taken back: on the sideboard again
    assert hell.player("Anna")["companion_cast"] is False
    assert hell.as_("Anna", "/api/companion/cast")[0] == 200
    assert hell.as_("Anna", "/api/move", {"position": bear, "to": "sideboard"})[0] == 200
    again = hell.as_("Anna", "/api/companion/cast")
    assert again[0] == 409 and "this game already" in again[1]["error"]


def test_a_zone_comes_into_being_when_a_card_that_names_it_appears_and_ends_with_the_game(hell):
    assert hell.state()["zones"] == []
    card = drawn(hell, "Anna", "Swords to Rideshares")
    assert hell.state()["zones"] == []  # in Anna's hand it has not appeared to the table
    if card["verdict"] == "choice":
        assert hell.as_("Anna", "/api/take")[0] == 200
    assert hell.as_("Anna", "/api/play", {"position": card["position"]})[0] == 200
    zones = hell.state("Cleo")["zones"]
    assert [z["id"] for z in zones] == ["auto"] and zones[0]["name"] == "auto zone"
    assert [h["player"] for h in zones[0]["holders"]] == ["Anna", "Ben", "Cleo"]
    assert hell.state("Cleo")["log"][0]["detail"]["zones"] == ["auto"]
    # Swords to Rideshares: a creature moved into the auto zone (its owner's), counted on every page
    target = drawn(hell, "Ben", "Hype Train")
    if target["verdict"] == "choice":
        assert hell.as_("Ben", "/api/take")[0] == 200
    assert hell.as_("Ben", "/api/play", {"position": target["position"]})[0] == 200
    status, answer = hell.as_("Anna", "/api/move", {"position": target["position"], "to": "created-zone", "zone": "auto"})
    assert status == 200, answer
    auto = hell.state("Cleo")["zones"][0]
    assert [h["count"] for h in auto["holders"]] == [0, 1, 0]
    assert auto["holders"][1]["cards"][0]["name"] == "Hype Train"  # an open zone
    # a card of Cleo's own deck by name (her creature into her auto zone)
    assert hell.as_("Cleo", "/api/zone/add", {"zone": "auto", "name": "Llanowar Elves"})[0] == 200
    assert hell.state()["zones"][0]["holders"][2]["cards"][0]["name"] == "Llanowar Elves"
    status, ended = hell.call("/api/end-game", {"confirm": True}, host=True)
    assert status == 200, ended
    assert hell.state()["zones"] == []  # it lasted to the end of the game
    assert hell.call("/api/undo", {}, host=True)[0] == 200
    assert [z["id"] for z in hell.state()["zones"]] == ["auto"]


def test_a_whammy_deck_starts_with_its_five_basics_hidden_in_order_and_is_shuffled_revealed_and_drawn(hell):
    card = drawn(hell, "Anna", "Big Money")
    if card["verdict"] == "choice":
        assert hell.as_("Anna", "/api/decline")[0] == 200  # declined: on the sideboard, open: the zone appears
    else:
        assert hell.as_("Anna", "/api/play", {"position": card["position"]})[0] == 200
    whammy = next(z for z in hell.state("Anna")["zones"] if z["id"] == "whammy")
    anna = whammy["holders"][0]
    assert anna["count"] == 5 and sorted(c["name"] for c in anna["cards"]) == sorted(made_zones()["whammy"].starts)
    assert [c["name"] for c in anna["cards"]] == sorted(c["name"] for c in anna["cards"])  # its order not told
    assert next(z for z in hell.state("Ben")["zones"] if z["id"] == "whammy")["holders"][0]["cards"] == []
    assert hell.as_("Ben", "/api/zone/shuffle", {"zone": "whammy", "whose": "Anna"})[0] == 403  # Anna's to shuffle
    assert hell.as_("Anna", "/api/zone/shuffle", {"zone": "whammy"})[0] == 200
    status, shown = hell.as_("Anna", "/api/zone/reveal", {"zone": "whammy", "count": 2})
    assert status == 200 and len(shown["names"]) == 2
    assert hell.state("Ben")["log"][0]["detail"]["names"] == shown["names"]
    status, land = hell.as_("Anna", "/api/zone/take", {"zone": "whammy", "to": "battlefield"})
    assert status == 200 and land["name"] == shown["names"][0]
    assert land["name"] in [c["name"] for c in hell.player("Anna", viewer="Ben")["played"]]


def test_an_eye_collector_deck_is_limitless(hell):
    card = drawn(hell, "Ben", "Collect Call")
    if card["verdict"] == "choice":
        assert hell.as_("Ben", "/api/decline")[0] == 200
    else:
        assert hell.as_("Ben", "/api/play", {"position": card["position"]})[0] == 200
    for _ in range(3):
        status, taken = hell.as_("Ben", "/api/zone/take", {"zone": "eye-collector", "to": "battlefield"})
        assert status == 200 and taken["name"] == "Eye Collector"
    assert [c["name"] for c in hell.player("Ben", viewer="Anna")["played"]].count("Eye Collector") == 3
    assert hell.as_("Ben", "/api/undo")[0] == 200
    assert [c["name"] for c in hell.player("Ben")["played"]].count("Eye Collector") == 2


def test_moments_happen_when_a_card_is_looked_at_taken_or_declined_and_the_log_says_so(hell):
    tome = drawn(hell, "Anna", "Shifting Tome")
    assert "look" in tome["now"]
    assert any(m["moment"] == "look" for m in tome["moments"]) and tome["clarification"]
    assert "look" in hell.state("Ben")["log"][0]["detail"]["moment"]  # said, the card not named
    assert "name" not in hell.state("Ben")["log"][0]["detail"]
    if hell.player("Anna")["pending"]:
        assert hell.as_("Anna", "/api/decline")[0] == 200
    knight = drawn(hell, "Ben", "Knight of ____")
    if hell.player("Ben")["pending"]:
        status, taken = hell.as_("Ben", "/api/take")
        assert status == 200 and taken["now"] == ["draft"]
    else:
        assert "draft" in knight["now"]
    assert knight["clarification"].startswith("You reveal it")
    assert hell.as_("Ben", "/api/reveal", {"position": knight["position"]})[0] == 200
    assert hell.state("Cleo")["log"][0]["detail"]["name"] == "Knight of ____"
    blue = drawn(hell, "Cleo", "A Blue Card")
    if hell.player("Cleo")["pending"]:
        blue = hell.as_("Cleo", "/api/take")[1]
    assert "game-start" in blue["now"]


def test_each_card_shows_its_clarification_in_both_languages(hell):
    dunes = hell_position(hell, "Arabian Dunes")
    en = hell.session.describe(dunes, "en")
    ru = hell.session.describe(dunes, "ru")
    assert en["clarification"] == "It takes any card you choose from the shared sideboard, not only its top card."
    assert ru["clarification"] and ru["clarification"] != en["clarification"]


def test_a_hell_card_that_would_be_anted_goes_to_the_sideboard(hell):
    spacefolk = drawn(hell, "Anna", "Spacefolk Looter")  # names the three decks; Fucked or Friction: the ante
    if hell.player("Anna")["pending"]:
        assert hell.as_("Anna", "/api/take")[0] == 200
    assert hell.as_("Anna", "/api/play", {"position": spacefolk["position"]})[0] == 200
    friction = drawn(hell, "Anna", "Fucked or Friction")
    if hell.player("Anna")["pending"]:
        assert hell.as_("Anna", "/api/take")[0] == 200
    assert hell.as_("Anna", "/api/play", {"position": friction["position"]})[0] == 200
    assert "ante" in [z["id"] for z in hell.state()["zones"]]
    status, answer = hell.as_("Anna", "/api/move", {"position": spacefolk["position"], "to": "created-zone",
                                                     "zone": "ante"})
    assert status == 200 and answer["zone"] == "sideboard"  # the rules: not into the ante
    assert hell.state()["sideboard"][0]["name"] == "Spacefolk Looter"
    assert hell.as_("Anna", "/api/zone/add", {"zone": "ante", "name": "Black Lotus"})[0] == 200  # her own card
    assert next(z for z in hell.state()["zones"] if z["id"] == "ante")["holders"][0]["cards"][0]["name"] == "Black Lotus"
    # Spacefolk Looter draws from a deck: the whammy deck's top into her hand is hers to know
    status, taken = hell.as_("Anna", "/api/zone/take", {"zone": "whammy", "to": "hand"})
    assert status == 200
    assert "name" not in hell.state("Ben")["log"][0]["detail"]
    assert hell.state("Anna")["log"][0]["detail"]["name"] == taken["name"]
