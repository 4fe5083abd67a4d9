"""The Hell table's rules through its HTTP API, as the players' phones use it: draws and verdicts, the London
mulligan, cards leaving the game, the end of a game, undo, seats, and the secrets each answer keeps."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tablekit import (
    EVERY_ACTION,
    PLAYERS,
    Table,
    act,
    anna_holds,
    authorization,
    cards_rows,
    kept,
    positions_in,
    settle,
)

from hhdcli.table.game.rules import Action


def test_a_draw_reveals_the_top_card_with_the_players_verdict(table, library):
    names = [e["name"] for e in json.loads(library.read_text())["cards"]]
    kept(table, "Anna")
    top = positions_in(table.session.path, "library")[0]  # the top of the table's own secret order
    status, card = table.as_("Anna", "/api/draw")
    assert status == 200 and card["position"] == top and card["name"] == names[top - 1]
    assert card["verdict"] in ("land", "take", "choice") and card["reminder"] and card["text"]
    if card["verdict"] == "take":
        assert "{2} less" in card["reminder"]
    assert table.state()["library_count"] == 94
    assert (table.player("Anna")["pending"] is not None) == (card["verdict"] == "choice")


def test_a_choice_waits_for_take_or_decline_and_decline_tops_the_sideboard(table):
    kept(table, "Ben")
    while True:  # Ben's deck makes W U B: draw until a card needs a color he lacks
        status, card = table.as_("Ben", "/api/draw")
        assert status == 200
        if card["verdict"] == "choice":
            break
    assert card["missing"]
    again = table.as_("Ben", "/api/draw")
    assert again[0] == 409 and "take it or decline it first" in again[1]["error"]
    assert table.as_("Ben", "/api/decline")[0] == 200
    assert table.state()["sideboard"][0]["position"] == card["position"]  # on top, open to everyone
    assert table.as_("Ben", "/api/take")[0] == 409  # nothing waiting any more
    status, played = table.as_("Anna", "/api/play-sideboard")
    assert status == 200 and played["position"] == card["position"]
    assert card["position"] in [c["position"] for c in table.player("Anna", viewer="")["played"]]  # open to all


def hand(table: Table, name: str) -> list[int]:
    return [c["position"] for c in table.player(name)["cards"]]


def test_mulligan_twice_with_a_partial_keep_leaves_exactly_the_opening_hells_cards(table):
    """Opening hand → mulligan → opening hand (refused) → mulligan → keep with one ticked: two Hell cards dealt
    each time, the old ones to the bottom in order, unshuffled; at keep only the ticked one goes to the bottom."""
    order = positions_in(table.session.path, "library")
    first = [c["position"] for c in table.as_("Cleo", "/api/opening-hand")[1]["cards"]]
    assert first == order[:2]
    status, mull = table.as_("Cleo", "/api/mulligan")
    assert status == 200 and mull["to_bottom"] == first and [c["position"] for c in mull["cards"]] == order[2:4]
    assert positions_in(table.session.path, "library")[-2:] == first  # the bottom, in the order dealt
    assert table.as_("Cleo", "/api/opening-hand")[0] == 409  # once a game, whatever the button order
    second = table.as_("Cleo", "/api/mulligan")[1]
    assert second["to_bottom"] == order[2:4] and hand(table, "Cleo") == order[4:6]
    status, kept = table.as_("Cleo", "/api/keep", {"bottom": [order[5]]})
    assert status == 200 and kept["to_bottom"] == [order[5]]
    assert hand(table, "Cleo") == [order[4]] and positions_in(table.session.path, "library")[-1] == order[5]
    assert table.as_("Cleo", "/api/mulligan")[0] == 409 and table.as_("Cleo", "/api/keep", {"bottom": []})[0] == 409
    assert table.state()["library_count"] == 96


def test_keeping_with_nothing_ticked_keeps_every_card_and_the_order_ticked_is_the_order_to_the_bottom(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    assert table.as_("Anna", "/api/keep", {"bottom": []})[1]["to_bottom"] == [] and hand(table, "Anna") == dealt
    table.as_("Ben", "/api/opening-hand")
    bens = hand(table, "Ben")
    assert table.as_("Ben", "/api/keep", {"bottom": bens[::-1]})[1]["to_bottom"] == bens[::-1]
    assert positions_in(table.session.path, "library")[-2:] == bens[::-1]
    assert table.as_("Cleo", "/api/keep", {"bottom": []})[0] == 409  # no opening hand yet
    table.as_("Cleo", "/api/opening-hand")
    assert table.as_("Cleo", "/api/keep", {})[0] == 400  # nothing defaults: say which, or an empty list


def test_playing_a_held_card_shows_it_to_everyone_and_it_returns_at_the_end_of_the_game(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    assert table.as_("Anna", "/api/play", {"position": dealt[0]})[0] == 200
    seen = table.player("Anna", viewer="Ben")
    assert seen["card_count"] == 1 and [c["position"] for c in seen["played"]] == [dealt[0]]
    assert table.as_("Ben", "/api/play", {"position": dealt[1]})[0] == 404  # Anna's hand is not Ben's to play
    assert table.as_("Ben", "/api/to-sideboard", {"position": dealt[1]})[0] == 404  # nor to exile
    assert table.as_("Ben", "/api/to-sideboard", {"position": dealt[0]})[0] == 200  # a played card: anyone's effect
    ended = table.as_("Anna", "/api/end-game", {"confirm": True})[1]
    assert ended["count"] == 1 and positions_in(table.session.path, "library")[-1] == dealt[1]


def test_cards_leaving_the_game_go_to_the_sideboard(table):
    dealt = table.as_("Anna", "/api/opening-hand")[1]["cards"]
    leaving = dealt[1]["position"]
    assert table.as_("Anna", "/api/to-sideboard", {"position": leaving})[0] == 200
    assert table.state()["sideboard"][0]["position"] == leaving
    assert table.as_("Anna", "/api/to-sideboard", {"position": leaving})[0] == 409  # on the sideboard already
    assert table.as_("Anna", "/api/to-sideboard", {"position": 999})[0] == 404


def test_no_probe_tells_which_library_positions_other_players_hold(table):
    """Ben asking to move each card he cannot see gets one same answer, whether it lies in the library or in
    Anna's hand: he cannot map her hidden cards to names through hell-library.json."""
    held = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    library = positions_in(table.session.path, "library")[:5]
    answers = set()
    for position in held + library:
        for path, body in (("/api/to-sideboard", {"position": position}), ("/api/play", {"position": position}),
                           ("/api/keep", {"bottom": [position]}), ("/api/to-hell-library", {"position": position})):
            status, answer = table.as_("Ben", path, body)
            name = table.session.cards[position].name  # the file's public name of the position asked about
            answers.add((path, status, answer["error"].replace(name, "CARD").replace(str(position), "N")))
    assert len(answers) == 4, answers  # one answer a route, whichever hidden card was asked for


def test_ending_the_game_is_two_steps_and_says_what_it_will_do(table):
    dealt = positions_in(table.session.path, "library")[:4]
    for player in ("Anna", "Ben"):
        table.as_(player, "/api/opening-hand")
    before = cards_rows(table.session.path)
    status, asked = table.as_("Anna", "/api/end-game")
    assert status == 409 and asked["confirm"] and "game 2" in asked["error"] and "random order" in asked["error"]
    assert cards_rows(table.session.path) == before  # the first step moves nothing
    status, ended = table.as_("Anna", "/api/end-game", {"confirm": True})
    assert status == 200 and ended == {"game": 2, "count": 4}
    assert sorted(positions_in(table.session.path, "library")[-4:]) == sorted(dealt)
    state = table.state("Ben")
    assert state["game"] == 2 and state["log"][0]["action"] == "end of game" and state["log"][0]["player"] == "Anna"


def test_a_confirmation_ends_only_the_game_it_was_asked_about(table):
    """Two phones confirm the end of game 1 (or one confirms after the board ended it): the first ends game 1,
    the late one is refused, saying so, and game 2 goes on untouched."""
    assert table.as_("Ben", "/api/end-game", {"confirm": True, "game": 1})[1]["game"] == 2
    held = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]  # game 2 under way
    before = cards_rows(table.session.path)
    status, refused = table.as_("Anna", "/api/end-game", {"confirm": True, "game": 1})
    assert status == 409 and refused["error"] == "game 1 has already ended; this is game 2"
    assert cards_rows(table.session.path) == before and table.state()["game"] == 2 and hand(table, "Anna") == held
    russian = table.call("/api/end-game", {"confirm": True, "game": 1}, {"Accept-Language": "ru"}, host=True)[1]
    assert russian["error"] == "игра 1 уже закончена; идёт игра 2"
    assert table.as_("Anna", "/api/end-game", {"confirm": True, "game": "1"})[0] == 400
    assert table.as_("Anna", "/api/end-game", {"confirm": True, "game": 2})[1]["game"] == 3


def test_the_end_of_game_log_names_no_library_position_and_ownership_starts_afresh(table):
    """Library-file positions map to names through hell-library.json: the log says how many cards went to the
    bottom, never which, and a card owned last game is ownerless in the next."""
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/to-sideboard", {"position": dealt[0]})
    assert table.state()["sideboard"][0]["owner"] == "Anna"
    table.as_("Ben", "/api/end-game", {"confirm": True})
    for viewer in (None, "Anna", "Ben"):
        state = table.state(viewer)
        entry = state["log"][0]
        assert entry["detail"] == {"game": 1, "count": 1}
        assert state["sideboard"][0]["owner"] is None  # afresh: the Hell library is its owner's library again
        shown = json.dumps(state["log"])
        assert '"position' not in shown and "to_bottom" not in shown and "dealt" not in shown
    assert table.as_("Ben", "/api/to-hell-library", {"position": dealt[0], "end": "top"})[0] == 200


def test_the_tables_order_is_secret_not_the_library_files_nor_the_seeds(table, legacy_cache, library, tmp_path):
    order = positions_in(table.session.path, "library")
    assert sorted(order) == list(range(1, 98)) and order != list(range(1, 98))
    other = Table(tmp_path / "again.sqlite", library, legacy_cache)
    other.stop()
    assert positions_in(other.session.path, "library") != order
    text = json.dumps(table.state())
    db = sqlite3.connect(table.session.path)
    try:
        secret = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]
    finally:
        db.close()
    page = urllib.request.urlopen(table.url + "/", timeout=10).read().decode()
    assert len(secret) == 32 and secret not in text and secret not in page and table.host not in page


def test_undo_takes_back_ones_own_last_action_even_after_anothers(table):
    """Anna draws, Ben draws: Anna's undo takes back her draw (her card back on top), Ben's stays."""
    order = positions_in(table.session.path, "library")
    table.as_("Anna", "/api/opening-hand")
    table.as_("Ben", "/api/opening-hand")
    status, undone = table.as_("Anna", "/api/undo")
    assert status == 200 and undone["undone"] == "opening hand" and undone["player"] == "Anna"
    assert hand(table, "Anna") == [] and hand(table, "Ben") == order[2:4]
    assert positions_in(table.session.path, "library")[:2] == order[:2]


def test_undo_refuses_when_later_actions_moved_the_same_card_and_names_them(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/to-sideboard", {"position": dealt[0]})
    table.as_("Ben", "/api/play-sideboard")  # Ben plays the card Anna sent to the sideboard
    table.as_("Anna", "/api/undo")  # her last action: the card to the sideboard … which Ben's play depends on
    status, refused = table.as_("Anna", "/api/undo")
    assert status == 409 and refused["depends"] and "Ben: play from sideboard" in refused["error"]
    assert refused["error"].startswith('cannot undo "to sideboard": ')  # which of hers is refused, by name
    russian = table.call("/api/undo", {}, {"Accept-Language": "ru"}, token=table.seat("Anna"))[1]["error"]
    assert russian.startswith("нельзя отменить «на сайдборд»: ") and "Ben: розыгрыш с сайдборда" in russian
    assert table.player("Ben", viewer="Ben")["played"][0]["position"] == dealt[0]


def test_anothers_action_is_undone_only_when_confirmed(table):
    table.as_("Anna", "/api/opening-hand")
    status, refused = table.as_("Ben", "/api/undo")
    assert status == 409 and refused["confirm"] and "Anna" in refused["error"]
    assert table.as_("Ben", "/api/undo", {"anyone": True})[1]["undone"] == "opening hand"
    assert table.as_("Ben", "/api/undo")[0] == 409  # nothing left: nothing to undo (an undo line is not undoable)
    assert [(e["player"], e["action"], e["undone"]) for e in table.state()["log"]] == [
        ("Ben", "undo", False), ("Anna", "opening hand", True)]


def test_an_undo_stays_in_everyones_log_with_the_card_shown_only_to_whom_it_was_shown(table):
    """Anna took back a take after Ben drew: her line stays, marked undone, and a line says she took it back:
    with the card's name on her phone, without it on the others' and the board (a take is private)."""
    table.as_("Anna", "/api/opening-hand")
    table.as_("Anna", "/api/keep", {"bottom": []})
    held = hand(table, "Anna")
    table.as_("Anna", "/api/play", {"position": held[0]})
    table.as_("Ben", "/api/draw")
    settle(table, "Ben")
    assert table.as_("Anna", "/api/undo")[1]["undone"] == "play"
    name = table.player("Anna")["cards"][0]["name"]
    for viewer in ("Anna", "Ben", None):
        log = table.state(viewer)["log"]
        undo = log[0]
        assert (undo["player"], undo["action"], undo["detail"]["undone"], undo["detail"]["whose"]) == (
            "Anna", "undo", "play", "Anna")
        assert undo["detail"]["entry"]["name"] == name  # a play was open to all: its undo is too
        assert [e["undone"] for e in log if e["action"] == "play"] == [True]
    table.as_("Anna", "/api/undo")  # her keep, then her opening hand: undone, she may draw one again
    table.as_("Anna", "/api/undo")
    assert table.as_("Anna", "/api/opening-hand")[0] == 200


def test_taking_back_a_take_names_the_card_to_its_taker_alone(table):
    kept(table, "Ben", "Cleo")
    while table.as_("Ben", "/api/draw")[1]["verdict"] != "choice":  # W U B: a card needing another color
        pass
    answer = table.as_("Ben", "/api/take")[1]
    taken = answer["name"]
    moment = {"moment": answer["now"]} if answer["now"] else {}  # a drafted card's trigger happens now: all read that
    table.as_("Cleo", "/api/draw")
    assert table.as_("Ben", "/api/undo")[1]["undone"] == "take"
    mine, theirs = table.state("Ben")["log"][0], table.state("Cleo")["log"][0]
    assert mine["detail"] == {"undone": "take", "whose": "Ben", "entry": {"name": taken, **moment}}
    assert theirs["detail"] == {"undone": "take", "whose": "Ben", "entry": moment} and theirs["player"] == "Ben"
    assert table.player("Ben")["pending"]["name"] == taken  # waiting again for take or decline


def test_every_log_entry_carries_its_player(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/to-sideboard", {"position": dealt[0]})
    table.as_("Cleo", "/api/own-card", {"name": "Llanowar Elves"})
    table.as_("Ben", "/api/end-game", {"confirm": True})
    table.call("/api/end-game", {"confirm": True}, host=True)
    assert [(e["player"], e["action"]) for e in table.state()["log"]] == [
        (None, "end of game"), ("Ben", "end of game"), ("Cleo", "own card to sideboard"), ("Anna", "to sideboard"),
        ("Anna", "opening hand")]  # None: the host's board


def test_a_card_of_a_players_own_deck_leaves_the_game_onto_the_sideboard_by_name(table):
    status, card = table.as_("Anna", "/api/own-card", {"name": "  Llanowar   Elves "})
    assert status == 200 and card["name"] == "Llanowar Elves" and card["owner"] == "Anna" and not card["hell"]
    top = table.state()["sideboard"][0]
    assert top["name"] == "Llanowar Elves" and top["owner"] == "Anna" and not top["hell"]
    assert table.as_("Ben", "/api/play-sideboard")[1]["name"] == "Llanowar Elves"  # anyone plays it
    assert [(c["name"], c["owner"]) for c in table.player("Ben")["played"]] == [("Llanowar Elves", "Anna")]
    ended = table.as_("Ben", "/api/end-game", {"confirm": True})[1]
    assert ended["count"] == 0 and len(cards_rows(table.session.path)) == 97  # back to Anna's deck
    assert table.as_("Ben", "/api/undo")[1]["undone"] == "end of game"
    assert table.as_("Ben", "/api/undo")[1]["undone"] == "play from sideboard"
    assert table.as_("Anna", "/api/undo")[1]["undone"] == "own card to sideboard"
    assert len(cards_rows(table.session.path)) == 97 and table.state()["sideboard"] == []
    assert table.as_("Anna", "/api/own-card", {"name": "x" * 201})[0] == 400


def test_an_ownerless_card_put_into_its_owners_library_goes_to_the_hell_library(table):
    top = positions_in(table.session.path, "library")[0]
    table.as_("Ben", "/api/draw")
    if table.player("Ben")["pending"]:
        table.as_("Ben", "/api/decline")
    else:  # taken: Ben owns it; send it to the sideboard, where it stays his
        table.as_("Ben", "/api/to-sideboard", {"position": top})
        assert table.as_("Ben", "/api/to-hell-library", {"position": top, "end": "bottom"})[0] == 409
        return
    assert table.as_("Anna", "/api/to-hell-library", {"position": top, "end": "bottom"})[0] == 200
    assert positions_in(table.session.path, "library")[-1] == top and positions_in(table.session.path, "sideboard") == []
    assert table.as_("Anna", "/api/to-hell-library", {"position": top, "end": "top"})[0] == 409


def test_a_hell_cards_owner_is_the_first_player_to_take_it_out_of_hell(table):
    leaving = table.as_("Anna", "/api/opening-hand")[1]["cards"][0]["position"]
    table.as_("Anna", "/api/to-sideboard", {"position": leaving})
    assert table.state()["sideboard"][0]["owner"] == "Anna"
    assert table.as_("Ben", "/api/play-sideboard")[1]["position"] == leaving
    assert next(c for c in table.player("Ben")["played"] if c["position"] == leaving)["owner"] == "Anna"
    table.as_("Ben", "/api/undo")
    assert table.state()["sideboard"][0]["owner"] == "Anna"


def test_undo_keeps_the_inverse_of_an_action_not_a_copy_of_the_table(table):
    for player in ("Anna", "Ben", "Cleo"):
        table.as_(player, "/api/opening-hand")
    table.as_("Anna", "/api/end-game", {"confirm": True})
    db = sqlite3.connect(table.session.path)
    try:
        sizes = {action: len(undo) for action, undo in db.execute("SELECT action, undo FROM log")}
    finally:
        db.close()
    assert sizes["opening hand"] < 200 and sizes["end of game"] < 600  # six cards moved, not 97 rows
    table.as_("Anna", "/api/undo")
    for player in ("Cleo", "Ben", "Anna"):
        table.as_(player, "/api/undo")
    assert all(row[1] == "library" for row in cards_rows(table.session.path))


def test_an_opening_hand_comes_again_in_the_next_game(table):
    assert table.as_("Anna", "/api/opening-hand")[0] == 200
    status, refused = table.as_("Anna", "/api/opening-hand")
    assert status == 409 and "mulligan" in refused["error"]
    table.as_("Anna", "/api/end-game", {"confirm": True})
    assert table.as_("Anna", "/api/opening-hand")[0] == 200  # a new game, a new hand


def test_the_end_of_a_game_returns_a_card_still_waiting_for_take_or_decline(table):
    kept(table, "Ben")
    while True:
        status, card = table.as_("Ben", "/api/draw")
        assert status == 200
        if card["verdict"] == "choice":
            break
    assert table.as_("Ben", "/api/end-game", {"confirm": True})[0] == 200
    assert table.player("Ben")["pending"] is None
    assert card["position"] in positions_in(table.session.path, "library")


def test_the_log_comes_a_page_at_a_time(table):
    kept(table, "Cleo")
    for _ in range(35):
        table.as_("Cleo", "/api/draw")
        settle(table, "Cleo")
    state = table.state()
    assert len(state["log"]) == 30 and state["log_more"]
    older = table.call(f"/api/log?before={state['log'][-1]['id']}")[1]
    ids = [e["id"] for e in state["log"] + older["log"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids) and not older["log_more"]
    assert table.call("/api/log?before=x")[0] == 400 and table.call("/api/log?before=%D9%A1%D9%A2")[0] == 400


def test_every_action_is_pushed_to_listening_pages_as_it_happens(table):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=10)
    connection.request("GET", "/api/events")
    stream = connection.getresponse()
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")

    def event() -> list[str]:
        lines = []
        while not lines or lines[-1] != "":
            lines.append(stream.readline().decode().rstrip("\n"))
        return lines

    first = event()
    assert "event: change" in first
    table.as_("Cleo", "/api/opening-hand")
    pushed = event()  # the read would time out (10 s) if nothing came
    assert "event: change" in pushed
    connection.close()


def test_an_empty_hell_library_answers_empty(table):
    kept(table, "Cleo")
    for _ in range(95):
        settle(table, "Cleo")
        assert table.as_("Cleo", "/api/draw")[0] == 200
    settle(table, "Cleo")
    status, answer = table.as_("Cleo", "/api/draw")
    assert status == 409 and "empty" in answer["error"]


@pytest.mark.parametrize("path, body, status", [
    ("/api/draw", {"player": "Zed"}, 403),
    ("/api/draw", b"not json", 400),
    ("/api/draw", {"player": ""}, 400),
    ("/api/draw", ["Anna"], 400),
    ("/api/keep", {"bottom": "all"}, 400),
    ("/api/nowhere", {}, 404),
])
def test_bad_requests_get_a_clear_json_error(table, path, body, status):
    got, answer = table.call(path, body, token=table.seat("Anna"))
    assert got == status and isinstance(answer["error"], str) and answer["error"]


def test_draws_at_the_same_instant_never_share_or_lose_a_card(legacy_cache, library, tmp_path):
    players = {f"P{i}": tuple("WUBRGP") for i in range(8)}
    table = Table(tmp_path / "race.sqlite", library, legacy_cache, players=players)
    drawn: list[int] = []
    try:
        kept(table, *players)
        for _ in range(6):
            start = threading.Barrier(len(players))

            def draw(name: str, start: threading.Barrier = start) -> None:
                start.wait()
                status, card = table.as_(name, "/api/draw")
                assert status == 200
                drawn.append(card["position"])

            threads = [threading.Thread(target=draw, args=(name,)) for name in players]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert len(drawn) == 48 and len(set(drawn)) == 48  # no card twice
        assert set(drawn).isdisjoint(positions_in(table.session.path, "library"))
        assert table.state()["library_count"] == 97 - 16 - 48
    finally:
        table.stop()


# --- seats --------------------------------------------------------------------------------------------------


def test_a_dead_phones_seat_is_released_or_re_seated_by_the_host_and_the_old_phone_is_refused(table):
    old = table.seat("Anna")
    table.as_("Anna", "/api/opening-hand")
    assert table.call("/api/join", {"player": "Anna"})[0] == 403  # a new phone cannot just take her name
    status, seat = table.call("/api/host/reseat", {"player": "Anna"}, host=True)
    assert status == 200 and "#seat=" in seat["url"] and seat["qr"].startswith("<?xml") or "<svg" in seat["qr"]
    new = seat["url"].split("#seat=")[1]
    assert table.call("/api/draw", {}, token=old)[0] == 401  # the old phone is refused from now on
    joined = table.call("/api/join", {"seat": new})[1]
    assert joined["player"] == "Anna"  # the new phone is Anna, her hand too
    new = joined["token"]
    assert len(table.call("/api/state", token=new)[1]["players"][0]["cards"]) == 2
    assert table.call("/api/host/release", {"player": "Anna"}, host=True)[0] == 200
    assert table.call("/api/draw", {}, token=new)[0] == 401 and not table.player("Anna", viewer="")["seated"]
    status, joined = table.call("/api/join", {"player": "Anna"})  # the seat is free: the next phone takes it
    assert status == 200 and table.call("/api/state", token=joined["token"])[1]["you"] == "Anna"


def test_a_late_player_is_added_from_the_board_without_a_restart(table):
    assert table.call("/api/host/add-player", {"player": " Dana ", "colors": "bg"}, host=True)[1] == {
        "player": "Dana", "colors": "BG"}
    assert table.call("/api/host/add-player", {"player": "Dana", "colors": ""}, host=True)[0] == 409
    assert table.call("/api/host/add-player", {"player": "Eve", "colors": "XYZ"}, host=True)[0] == 400
    dana = table.call("/api/join", {"player": "Dana"})[1]["token"]
    table.tokens["Dana"] = dana
    kept(table, "Dana")
    assert table.call("/api/draw", {}, token=dana)[0] == 200
    assert [p["name"] for p in table.state()["players"]] == [*PLAYERS, "Dana"]


def test_a_card_still_in_the_hell_library_cannot_be_looked_at(table):
    hidden = positions_in(table.session.path, "library")[5]
    for guess in (f"/cards/en/{hidden}.png", f"/cards/en/{table.session._face_of[hidden]}.png",
                  f"/cards/{table.session._face_of[hidden]}.png"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(table.url + guess, timeout=10)
        assert refused.value.code == 404
    kept(table, "Cleo")
    drawn = table.as_("Cleo", "/api/draw")[1]
    face_id = drawn["face"].removeprefix("cards/en/").removesuffix(".png")  # relative: under the table's path
    assert len(face_id) == 20 and int(face_id, 16) != drawn["position"]
    request = urllib.request.Request(f"{table.url}/{drawn['face']}", headers=authorization(player=table.seat("Cleo")))
    assert urllib.request.urlopen(request, timeout=10).read().startswith(b"\x89PNG")  # Cleo sees her card
    with pytest.raises(urllib.error.HTTPError):  # nobody else does
        urllib.request.urlopen(f"{table.url}/{drawn['face']}", timeout=10)


def test_hands_are_private_and_a_token_survives_a_restart(table):
    dealt = table.as_("Anna", "/api/opening-hand")[1]["cards"]
    seen_by_ben = table.state("Ben")
    anna_for_ben = next(p for p in seen_by_ben["players"] if p["name"] == "Anna")
    assert anna_for_ben["cards"] == [] and anna_for_ben["card_count"] == 2 and anna_for_ben["opening"] is None
    assert all(h["name"] not in json.dumps(seen_by_ben) for h in dealt)  # not in the log either
    restarted = Table(table.session.path, table.library, table.cache_dir)
    try:
        me = next(p for p in restarted.call("/api/state", token=table.tokens["Anna"])[1]["players"]
                  if p["name"] == "Anna")
        assert me["card_count"] == 2 and len(me["cards"]) == 2
    finally:
        restarted.stop()


def test_a_session_from_before_hands_and_play_were_apart_keeps_its_players_cards_in_hand(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.stop()
    db = sqlite3.connect(table.session.path)  # as an older hhd left it: held cards "out", no zones mark
    db.execute("UPDATE cards SET zone = 'out' WHERE zone = 'hand'")
    db.execute("DELETE FROM meta WHERE key = 'zones'")
    db.execute("PRAGMA user_version = 0")  # from before versioned migrations
    db.commit()
    db.close()
    again = Table(table.session.path, table.library, table.cache_dir)
    try:
        anna = next(p for p in again.call("/api/state", token=table.tokens["Anna"])[1]["players"] if p["name"] == "Anna")
        assert [c["position"] for c in anna["cards"]] == dealt and anna["played"] == []
    finally:
        again.stop()


def test_an_evening_of_three_games_through_the_api(legacy_cache, library, tmp_path):
    """A Russian-speaking group of three, a fourth joining late, three games: hands dealt, mulligans, draws
    answered, cards played and exiled, a phone replaced, the server restarted with a card waiting; every card is
    always somewhere exactly once and each game starts on the same library and sideboard."""
    players = {"Вера": tuple("WU"), "Anna": tuple("RG"), "Ben": tuple("B")}
    state_file, ru = tmp_path / "evening.sqlite", {"Accept-Language": "ru"}
    table = Table(state_file, library, legacy_cache, players=players)
    try:
        for game in (1, 2, 3):
            if game == 2:  # Dana arrives: added from the board, seated on her phone
                assert table.call("/api/host/add-player", {"player": "Dana", "colors": "G"}, host=True)[0] == 200
            names = list(players) + (["Dana"] if game > 1 else [])
            for name in names:
                assert table.as_(name, "/api/opening-hand")[0] == 200
                if name == "Anna":
                    assert table.as_(name, "/api/mulligan")[0] == 200
                kept = table.as_(name, "/api/keep", {"bottom": hand(table, name)[:1] if name == "Ben" else []})
                assert kept[0] == 200
            for name in names:
                status, card = table.call("/api/draw", {}, ru, token=table.seat(name))
                assert status == 200 and card["reminder"]
                if card["verdict"] == "choice":
                    assert table.as_(name, "/api/decline" if name != "Вера" else "/api/take")[0] == 200
            played = hand(table, "Anna")[0]
            assert table.as_("Anna", "/api/play", {"position": played})[0] == 200
            assert table.as_("Ben", "/api/to-sideboard", {"position": played})[0] == 200  # Ben's removal exiles it
            if game == 2:  # Вера's phone dies: the board re-seats her on a new one
                old = table.tokens["Вера"]
                code = table.call("/api/host/reseat", {"player": "Вера"}, host=True)[1]["url"].split("#seat=")[1]
                table.tokens["Вера"] = table.call("/api/join", {"seat": code})[1]["token"]
                assert table.call("/api/draw", {}, token=old)[0] == 401
            if game == 3:  # a card waits for Ben's choice across a restart
                while not table.player("Ben")["pending"]:
                    table.as_("Ben", "/api/draw")
                waiting = table.player("Ben")["pending"]["position"]
                tokens = table.tokens
                table.stop()
                table = Table(state_file, library, legacy_cache, players=players)
                table.tokens = tokens
                assert table.player("Ben")["pending"]["position"] == waiting
            rows = cards_rows(state_file)
            assert sorted(r[0] for r in rows if r[0] < 1_000_000) == list(range(1, 98))  # each card once
            sideboard = positions_in(state_file, "sideboard")
            status, asked = table.call("/api/end-game", {}, ru, token=table.seat("Вера"))
            assert status == 409 and asked["confirm"] and "начнётся игра" in asked["error"]
            assert table.as_("Вера", "/api/end-game", {"confirm": True})[1]["game"] == game + 1
            assert positions_in(state_file, "sideboard") == sideboard  # the sideboard stays as it is
            assert len(positions_in(state_file, "library")) + len(sideboard) == 97
            log = table.call("/api/state", headers=ru, token=table.seat("Dana") if game > 1 else None)[1]["log"]
            assert all(e["player"] is not None for e in log)  # every entry has its player
            assert all("position" not in e["detail"] for e in log)
    finally:
        table.stop()


def test_a_re_seat_code_seats_one_phone_once_within_minutes_and_dies_with_its_seat(table):
    """Issue 41: the board's re-seat QR code seats the new phone, and then no other: a second phone opening the
    same address is refused and cannot draw as her. A code is dead too once expired, re-issued or released."""
    kept(table, "Anna")

    def code() -> str:
        status, seat = table.call("/api/host/reseat", {"player": "Anna"}, host=True)
        assert status == 200
        return seat["url"].split("#seat=")[1]

    first = code()
    status, joined = table.call("/api/join", {"seat": first})
    assert status == 200 and joined["player"] == "Anna"
    status, again = table.call("/api/join", {"seat": first})  # the second phone, the same address
    assert status == 403 and "ask the host for a new one" in again["error"] and "token" not in again
    assert table.call("/api/draw", {}, token=first)[0] == 401  # the code is no token either
    assert table.call("/api/state", token=joined["token"])[1]["you"] == "Anna"

    old, new = code(), code()  # re-issued: the first one is dead
    assert table.call("/api/join", {"seat": old})[0] == 403
    assert table.call("/api/state", token=joined["token"])[1]["you"] is None  # the old phone lost the seat
    released = code()
    assert table.call("/api/host/release", {"player": "Anna"}, host=True)[0] == 200
    assert table.call("/api/join", {"seat": released})[0] == 403 and table.call("/api/join", {"seat": new})[0] == 403

    late = code()
    db = sqlite3.connect(table.session.path)
    try:  # made eleven minutes ago: past RESEAT_MINUTES
        db.execute("UPDATE seat_codes SET issued = issued - 660")
        db.commit()
    finally:
        db.close()
    assert table.call("/api/join", {"seat": late})[0] == 403
    assert table.call("/api/join", {"seat": 42})[0] == 400
    status, fresh = table.call("/api/join", {"seat": code()})
    assert status == 200 and table.call("/api/draw", {}, token=fresh["token"])[0] == 200


def zone_of(table: Table, position: int, viewer: str | None = None) -> str | None:
    """The public zone a card is shown in, to a viewer (None: not in any)."""
    for p in table.state(viewer)["players"]:
        for zone, cards in p["zones"].items():
            if any(c["position"] == position for c in cards):
                return zone
    return None


def test_a_hell_card_goes_through_every_zone_each_move_logged_and_undoable(table):
    """Anna's Hell card: battlefield (tapped by Ben's effect, with counters), graveyard, exile, back to her
    hand, discarded, her library's top (the others see a card go, not which), her hand again, and out of the
    game onto the sideboard; each move is a line of everyone's log and each one is taken back by an undo."""
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/keep", {"bottom": []})
    card = dealt[0]
    assert table.as_("Anna", "/api/move", {"position": card, "to": "battlefield"})[1]["zone"] == "battlefield"
    assert table.as_("Ben", "/api/tap", {"position": card, "tapped": True})[0] == 200  # anyone's effect may
    for _ in range(2):
        table.as_("Ben", "/api/card-counter", {"position": card, "kind": "+1/+1", "delta": 1})
    seen = table.player("Anna", viewer="Cleo")["zones"]["battlefield"][0]
    assert (seen["position"], seen["tapped"], seen["counters"]) == (card, True, {"+1/+1": 2})
    table.as_("Ben", "/api/undo")  # his second counter taken back
    assert table.player("Anna", viewer="")["zones"]["battlefield"][0]["counters"] == {"+1/+1": 1}
    for to, action in (("graveyard", "to the graveyard"), ("exile", "to exile"), ("hand", "to hand"),
                       ("graveyard", "discard"), ("hand", "to hand"), ("library-top", "to its owner's library")):
        status, moved = table.as_("Anna", "/api/move", {"position": card, "to": to})
        assert status == 200, moved
        assert table.state("Anna")["log"][0]["action"] == action
    assert zone_of(table, card) is None and table.player("Anna", viewer="Ben")["deck_count"] == 1
    assert table.player("Anna")["deck"][0]["position"] == card and table.player("Anna", viewer="Ben")["deck"] == []
    assert "name" not in table.state("Ben")["log"][0]["detail"]  # hand to library: which card is hers to know
    table.as_("Anna", "/api/move", {"position": card, "to": "hand"})  # drawn from her own library
    assert table.as_("Anna", "/api/move", {"position": card, "to": "sideboard"})[0] == 200  # it leaves the game
    assert table.state()["sideboard"][0]["position"] == card
    for _ in range(4):  # every move taken back, in turn
        assert table.as_("Anna", "/api/undo")[0] == 200
    assert zone_of(table, card) == "graveyard"  # discarded
    for _ in range(4):
        table.as_("Anna", "/api/undo")
    assert zone_of(table, card) == "battlefield"
    table.as_("Ben", "/api/undo")
    table.as_("Ben", "/api/undo")
    assert table.player("Anna", viewer="")["zones"]["battlefield"][0]["tapped"] is False


def test_the_end_of_a_game_collects_the_hell_cards_of_every_zone_but_the_libraries_and_the_sideboard(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/keep", {"bottom": []})
    for position, to in zip(dealt, ("graveyard", "library-bottom"), strict=True):
        table.as_("Anna", "/api/move", {"position": position, "to": "battlefield"})
        table.as_("Anna", "/api/tap", {"position": position, "tapped": True})
        table.as_("Anna", "/api/move", {"position": position, "to": to})
    assert table.as_("Anna", "/api/end-game", {"confirm": True})[1]["count"] == 1
    assert positions_in(table.session.path, "library")[-1] == dealt[0]  # the graveyard's card: to the bottom
    assert table.player("Anna")["deck"][0]["position"] == dealt[1]  # her library keeps its Hell card
    row = next(r for r in cards_rows(table.session.path) if r[0] == dealt[0])
    assert row[1] == "library" and row[3] is None


def test_moves_are_refused_for_cards_one_may_not_move_and_for_unknown_zones(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    assert table.as_("Ben", "/api/move", {"position": dealt[0], "to": "graveyard"})[0] == 404  # her hand
    assert table.as_("Anna", "/api/move", {"position": dealt[0], "to": "hand"})[0] == 409  # there already
    assert table.as_("Anna", "/api/move", {"position": dealt[0], "to": "moon"})[0] == 400
    assert table.as_("Anna", "/api/tap", {"position": dealt[0], "tapped": True})[0] == 404  # not on the battlefield
    table.as_("Anna", "/api/move", {"position": dealt[0], "to": "battlefield"})
    bad = table.as_("Anna", "/api/card-counter", {"position": dealt[0], "kind": "x" * 21, "delta": 1})
    assert bad[0] == 400 and "+1/+1, -1/-1, charge, loyalty" in bad[1]["error"]  # the kinds a table keeps
    assert table.as_("Anna", "/api/card-counter", {"position": dealt[0], "kind": "+1/+1", "delta": 0})[0] == 400
    assert table.call("/api/move", {"position": dealt[0], "to": "exile"}, host=True)[0] == 200  # a public card


def test_a_session_whose_played_cards_were_out_finds_them_on_the_battlefield(table):
    dealt = [c["position"] for c in table.as_("Anna", "/api/opening-hand")[1]["cards"]]
    table.as_("Anna", "/api/play", {"position": dealt[0]})
    table.stop()
    db = sqlite3.connect(table.session.path)  # as the hhd before zones left it: played cards "out"
    db.execute("UPDATE cards SET zone = 'out' WHERE zone = 'battlefield'")
    db.execute("PRAGMA user_version = 6")
    db.commit()
    db.close()
    again = Table(table.session.path, table.library, table.cache_dir)
    try:
        anna = next(p for p in again.call("/api/state")[1]["players"] if p["name"] == "Anna")
        assert [c["position"] for c in anna["zones"]["battlefield"]] == [dealt[0]]
    finally:
        again.stop()


def test_life_totals_start_at_20_change_by_anyone_and_an_undo_puts_them_back(table):
    assert [p["life"] for p in table.state()["players"]] == [20, 20, 20] and table.state()["life_start"] == 20
    assert table.as_("Ben", "/api/life", {"whose": "Anna", "delta": -3})[1]["life"] == 17  # Ben's creature hit her
    table.as_("Anna", "/api/life", {"whose": "Anna", "delta": 2})
    assert table.player("Anna", viewer="")["life"] == 19
    status, refused = table.as_("Ben", "/api/undo")  # Anna's gain came after: his hit cannot be taken back alone
    assert status == 409 and refused["depends"] and "Anna: life" in refused["error"]
    table.as_("Anna", "/api/undo")
    table.as_("Ben", "/api/undo")
    assert table.player("Anna", viewer="")["life"] == 20
    assert table.as_("Ben", "/api/life", {"whose": "Zed", "delta": -1})[0] == 404
    assert table.as_("Ben", "/api/life", {"whose": "Anna", "delta": 0})[0] == 400
    assert table.call("/api/host/life-start", {"life": 40}, host=True)[0] == 200
    assert table.as_("Ben", "/api/host/life-start", {"life": 40})[0] == 403
    assert [p["life"] for p in table.state()["players"]] == [40, 40, 40]


def test_poison_and_energy_counters_per_player_logged_for_everyone(table):
    for _ in range(3):
        table.as_("Cleo", "/api/player-counter", {"whose": "Ben", "kind": "poison", "delta": 1})
    table.as_("Ben", "/api/player-counter", {"whose": "Ben", "kind": "energy", "delta": 4})
    assert table.player("Ben", viewer="Anna")["counters"] == {"poison": 3, "energy": 4}
    line = table.state("Anna")["log"][1]
    assert (line["player"], line["action"], line["detail"]) == (
        "Cleo", "player counter", {"whose": "Ben", "kind": "poison", "delta": 1, "count": 3})
    table.as_("Ben", "/api/player-counter", {"whose": "Ben", "kind": "energy", "delta": -4})
    assert table.player("Ben")["counters"] == {"poison": 3}
    table.as_("Ben", "/api/end-game", {"confirm": True})  # a new game: life and counters afresh
    assert table.player("Ben")["counters"] == {} and table.player("Ben")["life"] == 20


def test_dice_coins_and_the_first_player_are_drawn_by_the_table_and_logged(table):
    rolls = {table.as_("Anna", "/api/die", {"sides": 6})[1]["result"] for _ in range(40)}
    assert rolls <= set(range(1, 7)) and len(rolls) >= 4  # 40 rolls of a fair d6 miss 3 faces once in ~10^14
    assert table.state("Ben")["log"][0]["detail"]["sides"] == 6
    assert table.as_("Anna", "/api/die", {"sides": 7})[0] == 400
    coins = {table.as_("Ben", "/api/coin")[1]["result"] for _ in range(30)}
    assert coins == {"heads", "tails"}
    firsts = set()
    for _ in range(30):
        first = table.call("/api/first-player", {}, host=True)[1]["first"]
        turn = table.state()["turn"]
        assert turn == {"player": first, "step": "untap", "first": first}
        firsts.add(first)
    assert firsts == set(PLAYERS)


def test_turns_pass_in_the_order_players_came_steps_move_on_and_an_undo_takes_a_turn_back(table):
    table.call("/api/first-player", {}, host=True)
    first = table.state()["turn"]["player"]
    order = list(PLAYERS)
    table.as_("Anna", "/api/step", {"step": "draw"})
    assert table.state()["turn"]["step"] == "draw"
    assert table.as_("Anna", "/api/step", {"step": "lunch"})[0] == 400
    table.as_("Ben", "/api/next-turn")
    assert table.state()["turn"] == {"player": order[(order.index(first) + 1) % 3], "step": "untap", "first": first}
    table.as_("Ben", "/api/undo")
    assert table.state()["turn"] == {"player": first, "step": "draw", "first": first}
    table.as_("Ben", "/api/end-game", {"confirm": True})
    assert table.state()["turn"] == {"player": None, "step": None, "first": None}


def test_the_draw_step_discount_follows_whose_turn_and_step_it_is():
    from hhdcli.table.game.rules import in_draw_step

    assert in_draw_step("Anna", None, None) is None  # no turns kept: the rule is said as it stands
    assert in_draw_step("Anna", "Anna", "draw") is True
    assert in_draw_step("Anna", "Anna", "main 1") is False  # an effect's draw later in her turn
    assert in_draw_step("Anna", "Ben", "draw") is False  # Ben's draw step, not hers


def drawn_until_taken(table: Table, player: str) -> dict:
    """The next card `player` draws that is a land or a take (a choice is declined on the way)."""
    while True:
        card = table.as_(player, "/api/draw")[1]
        if card["verdict"] != "choice":
            return card
        table.as_(player, "/api/decline")


def test_a_drawn_land_or_take_says_whether_its_draw_step_discount_applies_from_the_tables_turn(table):
    kept(table, *PLAYERS)
    """With no turns kept the reminder states the rule ("in your draw step you may…"); once the table keeps turns,
    a card Cleo draws in her own draw step may be played or cast now ({2} less for a take), one she draws in
    another step, or Anna draws in Cleo's draw step, may not."""
    from hhdcli.table.game.views import IN_DRAW_STEP, OUTSIDE_DRAW_STEP, REMINDERS

    card = drawn_until_taken(table, "Cleo")
    assert card["draw_step"] is None and card["reminder"] == REMINDERS[card["verdict"]]
    table.call("/api/first-player", {}, host=True)
    while table.state()["turn"]["player"] != "Cleo":
        table.call("/api/next-turn", {}, host=True)
    table.as_("Cleo", "/api/step", {"step": "draw"})
    card = drawn_until_taken(table, "Cleo")
    assert card["draw_step"] is True and card["reminder"] == IN_DRAW_STEP[card["verdict"]]
    assert "now" in card["reminder"]
    card = drawn_until_taken(table, "Anna")
    assert card["draw_step"] is False and card["reminder"] == OUTSIDE_DRAW_STEP[card["verdict"]]
    table.as_("Cleo", "/api/step", {"step": "main 1"})
    card = drawn_until_taken(table, "Cleo")
    assert card["draw_step"] is False and card["reminder"] == OUTSIDE_DRAW_STEP[card["verdict"]]


def test_a_deck_pasted_from_a_phone_sets_its_colors_for_the_next_draw_with_hhd_checks_warnings(table):
    kept(table, *PLAYERS)
    """Anna (R G at the start) pastes her deck as Arena exports it: its lands make G U B, a real land hhd knows
    offline (Breeding Pool) counts; only the names it does not know at all, which may be lands, are named, quoted (a
    name may hold a comma), as not counted, never a real spell (Lightning Bolt, Kenrith); the board reads her new
    colors."""
    text = ("1 Lightning Bolt (M10) 146\n1 Kenrith, the Returned King (ELD) 303\n1 Breeding Pool (RNA) 246\n"
            "1 Gloomy, Dank Cave\n") + (Path(__file__).parent / "decks" / "arena-plain.txt").read_text(encoding="utf-8")
    status, found = table.as_("Anna", "/api/deck", {"text": text})
    assert status == 200 and found["colors"] == "UBG" and found["lands"] == 4  # Forest, Island, Snow-Covered Swamp, Breeding Pool
    named = [w for w in found["warnings"] if "not counted as lands" in w]
    assert named == ["not known, so not counted as lands: «Gloomy, Dank Cave»"]
    assert table.player("Anna", viewer="")["colors"] == "UBG"
    assert table.state()["log"][0]["detail"] == {"whose": "Anna", "colors": "UBG"}
    top = positions_in(table.session.path, "library")[0]
    drawn = table.as_("Anna", "/api/draw")[1]
    assert drawn["position"] == top and set(drawn["missing"]) <= {"W", "R", "P"}  # judged by the pasted deck
    assert table.as_("Ben", "/api/deck", {"colors": "wr"})[1]["colors"] == "WR"
    russian = table.call("/api/deck", {"text": "4 Lightning Bolt\n"}, {"Accept-Language": "ru"},
                         token=table.seat("Cleo"))[1]
    assert russian["colors"] == "" and any("нет земель" in w for w in russian["warnings"])
    assert table.as_("Cleo", "/api/deck", {"text": "// sideboard\n# a comment only\n"})[0] == 400
    assert table.as_("Cleo", "/api/deck", {"colors": "XYZ"})[0] == 400


def test_a_chat_message_pasted_from_a_phone_is_refused_in_the_askers_language_and_keeps_the_colors(table):
    """Text naming no card hhd knows is no deck: refused (not a colorless player), the colors stay."""
    chat = {"text": "hey guys, here is my deck, it is great"}
    status, refused = table.as_("Anna", "/api/deck", chat)
    assert status == 400 and refused["error"].startswith("no card found in the deck list"), refused
    status, refused = table.call("/api/deck", chat, {"Accept-Language": "ru"}, token=table.seat("Anna"))
    assert status == 400 and refused["error"].startswith("в списке колоды не найдено ни одной карты"), refused
    assert table.player("Anna", viewer="")["colors"] == "RG"


def maker_in_play(table: Table, name: str) -> int:
    """The player draws from Hell (taking every card) until a card that makes tokens comes, and plays it."""
    makers = {p for p in table.session.cards if table.session.views.made_names(p)}
    kept(table, name)
    for _ in range(len(table.session.cards)):
        status, card = table.as_(name, "/api/draw")
        assert status == 200, card
        if card["verdict"] == "choice":
            table.as_(name, "/api/take")
        if card["position"] in makers:
            assert table.as_(name, "/api/play", {"position": card["position"]})[0] == 200
            return int(card["position"])
    raise AssertionError("no card of the library makes tokens")


def test_tokens_in_play_are_counted_with_their_maker_by_its_controller_logged_and_undoable(table):
    """Anna plays a card that makes tokens and counts two of its first token into play: everyone sees the count
    with the card (apart from its counters, named like the token), the log says it, an undo takes one back; Ben
    (who does not control it) may not count them, the host's board may; a token it does not make, or more gone
    than are in play, is refused."""
    card = maker_in_play(table, "Anna")
    token = table.session.views.made_by(card, "en")[0]
    for _ in range(2):
        assert table.as_("Anna", "/api/tokens", {"position": card, "token": token["id"], "delta": 1})[0] == 200
    table.as_("Anna", "/api/card-counter", {"position": card, "kind": "+1/+1", "delta": 1})
    seen = table.player("Anna", viewer="Ben")["zones"]["battlefield"][0]
    assert seen["tokens_in_play"] == [{"id": token["id"], "name": token["name"], "count": 2}]
    assert seen["counters"] == {"+1/+1": 1}  # a token count is no counter on the card
    assert table.state("Cleo")["log"][1]["action"] == "tokens"
    assert table.state("Cleo")["log"][1]["detail"] == {"name": seen["name"], "token": token["name"], "delta": 1,
                                                       "count": 2}
    refused = table.as_("Ben", "/api/tokens", {"position": card, "token": token["id"], "delta": 1})
    assert refused[0] == 403 and "Anna" in refused[1]["error"]
    assert table.as_("Anna", "/api/tokens", {"position": card, "token": "token-none", "delta": 1})[0] == 404
    assert table.as_("Anna", "/api/tokens", {"position": card, "token": token["id"], "delta": -3})[0] == 409
    assert table.as_("Anna", "/api/tokens", {"position": card, "delta": 1})[0] == 400
    status, gone = table.call("/api/tokens", {"position": card, "token": token["id"], "delta": -2}, host=True)
    assert status == 200 and gone["count"] == 0
    assert table.player("Anna")["zones"]["battlefield"][0]["tokens_in_play"] == []
    table.call("/api/undo", {"anyone": True}, host=True)  # the host's count taken back
    table.as_("Anna", "/api/undo")  # her counter
    table.as_("Anna", "/api/undo")  # her second token
    assert table.player("Anna")["zones"]["battlefield"][0]["tokens_in_play"][0]["count"] == 1


def test_only_a_token_makers_controller_counts_its_tokens_and_never_below_none():
    """The rules alone: a card on the battlefield, its controller (or the host, None) counts the tokens it makes;
    a count is a counter named by the token's id, gone at none."""
    from hhdcli.table.game.errors import TableError
    from hhdcli.table.game.rules import Place, Zone, token_maker, tokens_counted

    played = Place(7, Zone.BATTLEFIELD, player="Anna", counters={"+1/+1": 1})
    assert token_maker(played, "Anna", 7, "Johnny") is played and token_maker(played, None, 7, "Johnny") is played
    for place, asker, status in ((played, "Ben", 403), (Place(7, Zone.HAND, player="Anna"), "Anna", 404),
                                 (None, "Anna", 404)):
        with pytest.raises(TableError) as refused:
            token_maker(place, asker, 7, "Johnny")
        assert refused.value.status == status
    made = {"token-food": "Food"}
    assert tokens_counted({"+1/+1": 1}, "token-food", made, 2, "Johnny") == {"+1/+1": 1, "token-food": 2}
    assert tokens_counted({"token-food": 2}, "token-food", made, -2, "Johnny") == {}
    for kind, delta, status in (("token-food", -1, 409), ("token-clue", 1, 404)):
        with pytest.raises(TableError) as refused:
            tokens_counted({}, kind, made, delta, "Johnny")
        assert refused.value.status == status


# What in the page's scripts is not a value of the rules: comments, catalog messages T("…") and P("…", "…"), element
# ids $("…"), CSS classes, and the API's addresses (call("…"), api("…"), a card dialog's act("…"), a button's
# data-action), which the page sends and never compares with what the server sends
NOT_WIRE_VALUES = re.compile(r"""(?:^|\s)//[^\n]*"""
                             r"""|(?<![\w$.])(?:T|P|\$|call|api|act)\(\s*"(?:[^"\\]|\\.)*"(?:\s*,\s*"(?:[^"\\]|\\.)*")?"""
                             r"""|\bclass: [^,}]*|\bdataset\.action = [^;\n]*""")
STRING = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`""")


def test_every_value_the_page_compares_comes_from_its_bootstrap_not_from_words_of_its_own():
    """Every value the page's scripts compare with what the server sends is one of the rules' enums, which the
    bootstrap sends (zones, actions, ends, destinations, turn steps in order, counters and commander damage's key,
    the take rule's verdicts, opening hands, coins, moments): none is written in the JavaScript, in any module."""
    from hhdcli.mana import Take
    from hhdcli.moments import Moment
    from hhdcli.table.game import rules
    from hhdcli.table.game.zones import made_zones
    from hhdcli.table.web.page import bootstrap

    data = bootstrap("en", {})
    enums = {"actions": rules.Action, "zones": rules.Zone, "ends": rules.End, "destinations": rules.Destination,
             "steps": rules.Step, "card_counters": rules.CardCounter, "player_counters": rules.PlayerCounter,
             "verdicts": Take, "openings": rules.Opening, "coins": rules.Coin, "moments": Moment}
    assert {key for key, value in data.items() if isinstance(value, dict)} == {*enums, "messages", "symbols",
                                                                               "made_zones"}
    assert data["made_zones"] == {z.id: z.name("en") for z in made_zones().values()}  # the created zones' names
    for key, enum in enums.items():
        assert data[key] == {m.name: m.value for m in enum}, key
    assert data["step_order"] == ["untap", "upkeep", "draw", "main 1", "combat", "main 2", "end"]
    assert data["commander_key"] == rules.COMMANDER_KEY == "commander:"
    words = {value for key in enums for value in data[key].values()} | {rules.COMMANDER_KEY}
    static = Path(__file__).parents[1] / "hhdcli" / "table" / "web" / "static"
    scripts = sorted(static.glob("*.js"))
    assert {s.name for s in scripts} >= {"api.js", "i18n.js", "log.js", "main.js", "names.js", "page.js", "render.js"}
    for script in scripts:
        code = NOT_WIRE_VALUES.sub(" ", script.read_text(encoding="utf-8"))
        quoted = {"".join(groups) for groups in STRING.findall(code)}
        assert quoted & words == set(), script.name
    # and the scan sees such a word where one is written
    assert {"".join(g) for g in STRING.findall(NOT_WIRE_VALUES.sub(" ", 'if (a.verdict === "choice") T("x");'))} \
        == {"choice"}


def test_a_table_opened_with_a_starting_life_starts_every_player_there_and_says_so_in_the_log(legacy_cache, library,
                                                                                              tmp_path):
    """`hhd table --life 30` (the session started with life=30): every player at 30, the board's starting life 30,
    a line in the log; a restart with the same life adds none, and an end of game brings life back to 30."""
    from hhdcli.table.game.errors import TableError

    opened = Table(tmp_path / "s.sqlite", library, legacy_cache)
    try:
        assert opened.session.start({}, life=30) is True
        state = opened.state()
        assert state["life_start"] == 30 and [p["life"] for p in state["players"]] == [30, 30, 30]
        assert [e["action"] for e in state["log"]] == ["starting life"] and state["log"][0]["detail"]["count"] == 30
        opened.session.start({}, life=30)
        assert len(opened.state()["log"]) == 1
        opened.session.act(Action.END_OF_GAME, None)
        assert [p["life"] for p in opened.state()["players"]] == [30, 30, 30]
        for refused in (0, 1000):
            with pytest.raises(TableError, match="the starting life is a number from 1 to 999"):
                opened.session.start({}, life=refused)
        assert opened.state()["life_start"] == 30
    finally:
        opened.stop()


def test_every_counter_a_table_keeps_goes_up_and_down_one_at_a_time_logged_and_undoable(table):
    """Issue 50: per player poison, energy, experience and commander damage from each other player's commander;
    per card +1/+1, -1/-1, charge, loyalty and time (the enums the page's bootstrap names). Each goes up and down by one,
    never below none; another kind, or commander damage from nobody at the table, is refused."""
    from hhdcli.table.game.rules import CardCounter, PlayerCounter
    from hhdcli.table.web.page import bootstrap

    names = bootstrap("en", {})
    assert names["player_counters"] == {"POISON": "poison", "ENERGY": "energy", "EXPERIENCE": "experience",
                                        "COMMANDER": "commander"}
    assert list(names["card_counters"].values()) == ["+1/+1", "-1/-1", "charge", "loyalty", "time"]
    for kind in PlayerCounter:
        extra = {"from": "Cleo"} if kind == PlayerCounter.COMMANDER else {}
        key = "commander:Cleo" if extra else kind.value
        for delta, now in ((1, 1), (1, 2), (-1, 1)):
            status, answer = table.as_("Anna", "/api/player-counter", {"whose": "Ben", "kind": kind, "delta": delta,
                                                                      **extra})
            assert status == 200 and answer["counters"][key] == now, (kind, answer)
        line = table.state("Cleo")["log"][0]["detail"]
        assert line == {"whose": "Ben", "kind": kind.value, "delta": -1, "count": 1, **(
            {"source": "Cleo"} if extra else {})}
        assert table.as_("Anna", "/api/undo")[0] == 200 and table.player("Ben")["counters"][key] == 2
        for _ in range(2):
            table.as_("Anna", "/api/player-counter", {"whose": "Ben", "kind": kind, "delta": -1, **extra})
        refused = table.as_("Anna", "/api/player-counter", {"whose": "Ben", "kind": kind, "delta": -1, **extra})
        assert refused[0] == 409 and key not in table.player("Ben")["counters"]
    for wrong in ({"kind": "rad"}, {"kind": "commander"}, {"kind": "commander", "from": "Ben"},
                  {"kind": "commander", "from": "Zed"}):
        assert table.as_("Anna", "/api/player-counter", {"whose": "Ben", "delta": 1, **wrong})[0] == 400, wrong
    played = kept(table, "Anna")[0]
    table.as_("Anna", "/api/play", {"position": played})
    for kind in CardCounter:
        table.as_("Ben", "/api/card-counter", {"position": played, "kind": kind, "delta": 1})
        table.as_("Ben", "/api/card-counter", {"position": played, "kind": kind, "delta": 1})
        table.as_("Ben", "/api/card-counter", {"position": played, "kind": kind, "delta": -1})
    assert table.player("Anna", viewer="Cleo")["played"][0]["counters"] == {k.value: 1 for k in CardCounter}
    assert table.as_("Ben", "/api/card-counter", {"position": played, "kind": "charge", "delta": -2})[0] == 409


def test_a_starting_life_set_once_the_game_has_begun_comes_with_the_next_game(table):
    """Issue 50: before anything happened this game, the host's starting life is every player's at once; once the
    game has begun, nobody's life moves (a total still at the old start stays as it is) and the new start comes
    with the next game, as the log says; an undo puts it all back."""
    assert table.call("/api/host/life-start", {"life": 25}, host=True)[1] == {"life_start": 25, "next": False}
    assert [p["life"] for p in table.state()["players"]] == [25, 25, 25]
    kept(table, "Anna")
    table.as_("Ben", "/api/life", {"whose": "Ben", "delta": -2})
    assert table.call("/api/host/life-start", {"life": 40}, host=True)[1] == {"life_start": 40, "next": True}
    state = table.state()
    assert [p["life"] for p in state["players"]] == [25, 23, 25] and state["life_start"] == 40
    assert state["log"][0]["detail"] == {"count": 40, "next": True}
    assert table.call("/api/undo", {}, host=True)[0] == 200  # the host's own last action
    assert table.state()["life_start"] == 25
    table.call("/api/host/life-start", {"life": 40}, host=True)
    table.as_("Ben", "/api/life", {"whose": "Anna", "delta": -1})  # the totals go on from where they were
    assert [p["life"] for p in table.state()["players"]] == [24, 23, 25]
    table.as_("Ben", "/api/end-game", {"confirm": True})
    assert [p["life"] for p in table.state()["players"]] == [40, 40, 40]


# --- every action and its undo, as the others read them ---------------------------------------------------------


def test_every_action_and_its_undo_names_to_each_viewer_only_what_the_actions_own_line_named(hell_table):
    table = hell_table
    """Issue 50: for every action kind (the Action enum, walked whole: a new kind cannot be forgotten), the undo
    line each viewer reads (Anna who acted, Ben, a spectator) says what that viewer read of the action's own line,
    no more, and so does the answer to another player's undo, in either language; a hidden card (drawn, taken,
    dealt, moved between a hand and a library) is never named to the others, in the log or an answer."""
    assert {kind for kind, *_ in EVERY_ACTION} == set(Action) - {Action.UNDO}
    for kind, setup, path, body in EVERY_ACTION:
        if setup is not None:
            setup(table)
        sent = body(table) if callable(body) else body
        host = path.startswith("/api/host/")
        mover = "Anna" if not host else None
        act(table, path, sent)
        held = anna_holds(table) + [c["position"] for c in table.player("Anna")["deck"]] + (
            [table.player("Anna")["pending"]["position"]] if table.player("Anna")["pending"] else [])
        lines = {viewer: table.state(viewer)["log"][0] for viewer in ("Anna", "Ben", None)}
        assert all(line["action"] == kind and line["player"] == mover for line in lines.values()), (kind, lines)
        private = kind in PRIVATE or kind in (Action.TO_HAND, Action.TO_LIBRARY) and lines["Anna"]["detail"].get(
            "from") in ("hand", "deck")  # a card between her hand and her library
        # Anna's own undo (the host's, of its own action), read by each
        status, undone = table.call("/api/undo", {"anyone": True}, host=True) if host else table.as_("Anna", "/api/undo")
        assert status == 200 and undone["undone"] == kind, (kind, undone)
        for viewer, line in lines.items():
            undo = table.state(viewer)["log"][0]
            assert undo["action"] == "undo" and undo["detail"] == {"undone": kind, "whose": mover,
                                                                   "entry": line["detail"]}, (kind, viewer, undo)
        if private:  # the others read that Anna acted, on no card she holds: not in the line, nor in its undo
            for viewer in ("Ben", None):
                said = json.dumps(table.state(viewer)["log"][:2], ensure_ascii=False)
                assert "name" not in lines[viewer]["detail"] and not any(
                    f'"{table.session.cards[p].name}"' in said for p in held if p in table.session.cards), (kind, viewer, said)
        # again, taken back by Ben (confirmed): his answer, in English and Russian, says what his line said
        for lang in ("en", "ru"):
            act(table, path, sent)
            his = table.state("Ben")["log"][0]["detail"]  # a die or a coin falls anew
            asked = table.call("/api/undo", {"anyone": True}, {"Accept-Language": lang}, token=table.seat("Ben"))
            assert asked[0] == 200 and asked[1]["detail"] == his, (kind, asked)
            assert not private or "name" not in his
        act(table, path, sent)


PRIVATE = (Action.DRAW, Action.TAKE, Action.OPENING_HAND, Action.MULLIGAN, Action.KEEP, Action.END_OF_GAME,
           Action.FACE_DOWN, Action.NOTE)  # a note on a card in her hand: hers
