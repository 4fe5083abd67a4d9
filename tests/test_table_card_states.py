"""Every Hell card at the table, part 2, through the HTTP API with the real cards that need each state: a note on a
card (Knight of ____), face down (Theory's hidden agenda, Bo Mat's exile), revealed (Goblin Spy 2.0), owner and
controller apart (Lump of Coal, Country Roads, a card dying into its owner's graveyard), a Hell card in its
owner's library moved like any card (milled, exiled face down), token cards made by name that move like cards
(Path to Path to Exile), counters on a card in exile (Trapeze Artist's time counters); and nothing hidden reaching
anyone who may not see it: not in a state, a log line, an undo, a description or an answer."""

from __future__ import annotations

import json

import pytest
from tablekit import Table, deal_to, hell_position, table_with

CARDS = ["Knight of ____", "Theory", "Goblin Spy 2.0", "Lump of Coal", "Country Roads", "Hype Train",
         "Path to Path to Exile", "Trapeze Artist", "Bo Mat, the Courier", "Karzilek, Butcher of Pavement"]


@pytest.fixture
def states(legacy_cache, library, tmp_path):
    """A table whose library holds the cards of CARDS; Anna, Ben and Cleo have kept their opening hands."""
    running = table_with(CARDS, library, legacy_cache, tmp_path)
    yield running
    running.stop()


def in_hand(table: Table, player: str, name: str) -> int:
    """The named card drawn by the player and taken: in their hand."""
    position = hell_position(table, name)
    deal_to(table, player, position)
    assert table.as_(player, "/api/draw")[0] == 200
    if table.player(player)["pending"]:
        assert table.as_(player, "/api/take")[0] == 200
    return position


def played(table: Table, player: str, name: str) -> int:
    position = in_hand(table, player, name)
    assert table.as_(player, "/api/play", {"position": position})[0] == 200
    return position


def seen_by(table: Table, viewer: str | None) -> str:
    """Everything a viewer's page reads: the state (log included) and the descriptions of every card it lists."""
    state = table.state(viewer)
    return json.dumps(state, ensure_ascii=False)


def test_a_note_follows_the_card_and_is_shown_wherever_the_card_is_seen(states):
    knight = in_hand(states, "Anna", "Knight of ____")
    status, answer = states.as_("Anna", "/api/note", {"position": knight, "note": "red"})
    assert status == 200 and answer["note"] == "red"
    assert states.player("Anna")["cards"][-1]["note"] == "red"
    assert "red" not in json.dumps(states.state("Ben")["log"][0])  # a card in her hand: her note too
    assert states.as_("Anna", "/api/play", {"position": knight})[0] == 200
    on_board = next(c for c in states.player("Anna", viewer="Ben")["played"] if c["position"] == knight)
    assert on_board["note"] == "red"  # kept on the battlefield, seen by all
    assert states.as_("Ben", "/api/note", {"position": knight, "note": "blue"})[0] == 403  # Anna's to change
    assert states.call("/api/note", {"position": knight, "note": "green"}, host=True)[0] == 200  # the board may
    assert states.state("Cleo")["log"][0]["detail"]["note"] == "green"
    assert states.as_("Anna", "/api/undo", {"anyone": True})[0] == 200
    assert states.as_("Anna", "/api/move", {"position": knight, "to": "library-top"})[0] == 200
    assert "note" not in states.player("Anna")["deck"][0]  # a library is a new life: the note is gone
    assert states.as_("Anna", "/api/note", {"position": knight, "note": "x" * 101})[0] == 400


def test_a_face_down_card_is_its_controllers_alone_until_turned_face_up(states):
    theory = in_hand(states, "Anna", "Theory")
    status, answer = states.as_("Anna", "/api/move", {"position": theory, "to": "created-zone", "zone": "command",
                                                      "face_down": True})
    assert status == 200, answer
    assert states.as_("Anna", "/api/note", {"position": theory, "note": "Hype Train"})[0] == 200  # secretly named
    command = next(z for z in states.state("Ben")["zones"] if z["id"] == "command")
    hidden = command["holders"][0]["cards"][0]
    assert hidden["face_down"] and hidden["name"] == "" and "position" not in hidden and "note" not in hidden
    for viewer in ("Ben", "Cleo", None):  # not in a state, a log line or an undo, to anyone but Anna
        said = seen_by(states, viewer)
        assert "Theory" not in said and "Hype Train" not in said, viewer
    assert states.call(f"/api/cards?ids={states.session.views.face_of[theory]}", token=states.seat("Ben"))[1] == {}
    mine = next(z for z in states.state("Anna")["zones"] if z["id"] == "command")["holders"][0]["cards"][0]
    assert mine["name"] == "Theory" and mine["face_down"] and mine["note"] == "Hype Train"
    assert states.as_("Ben", "/api/move", {"position": theory, "to": "graveyard"})[0] == 404  # no probing
    assert states.as_("Ben", "/api/face-up", {"position": theory})[0] == 404
    assert states.as_("Anna", "/api/undo")[0] == 200  # the note taken back: its undo line names nothing to Ben
    assert "Hype Train" not in seen_by(states, "Ben")
    status, up = states.as_("Anna", "/api/face-up", {"position": theory})
    assert status == 200
    assert states.state("Ben")["log"][0]["detail"]["name"] == "Theory"  # turned up: named on every page


def test_bo_mat_exiles_a_hell_card_of_its_owners_library_face_down(states):
    hype = in_hand(states, "Anna", "Hype Train")
    assert states.as_("Anna", "/api/move", {"position": hype, "to": "library-top"})[0] == 200
    status, answer = states.as_("Anna", "/api/move", {"position": hype, "to": "exile", "face_down": True})
    assert status == 200, answer
    exiled = states.player("Anna", viewer="Ben")["zones"]["exile"][0]
    assert exiled["face_down"] and "position" not in exiled
    assert "Hype Train" not in seen_by(states, "Ben")
    assert states.player("Anna")["zones"]["exile"][0]["name"] == "Hype Train"
    # the deck zone's other moves, from the phone: milled
    spy = in_hand(states, "Anna", "Goblin Spy 2.0")
    assert states.as_("Anna", "/api/move", {"position": spy, "to": "library-top"})[0] == 200
    assert states.as_("Anna", "/api/move", {"position": spy, "to": "graveyard"})[0] == 200
    assert states.player("Anna", viewer="Ben")["zones"]["graveyard"][0]["name"] == "Goblin Spy 2.0"


def test_a_revealed_card_shows_on_every_page_until_it_moves(states):
    spy = in_hand(states, "Anna", "Goblin Spy 2.0")
    assert states.as_("Anna", "/api/reveal", {"position": spy})[0] == 200
    shown = states.player("Anna", viewer="Ben")["revealed"]
    assert [c["name"] for c in shown] == ["Goblin Spy 2.0"]
    face = shown[0]["id"]
    assert face in states.call(f"/api/cards?ids={face}", token=states.seat("Ben"))[1]  # its face, to the others
    assert states.as_("Anna", "/api/play", {"position": spy})[0] == 200
    assert states.player("Anna", viewer="Ben")["revealed"] == []


def test_owner_and_controller_apart(states):
    hype = played(states, "Anna", "Hype Train")
    assert states.as_("Ben", "/api/control", {"position": hype, "whose": "Ben"})[0] == 200
    ben = states.player("Ben", viewer="Cleo")["zones"]["battlefield"][0]
    assert ben["name"] == "Hype Train" and ben["owner"] == "Anna"  # Ben controls it, Anna owns it
    assert states.state("Cleo")["log"][0]["detail"]["whose"] == "Ben"
    # Country Roads: each player gains control of what they own
    assert states.as_("Cleo", "/api/control", {"position": hype, "whose": "Anna"})[0] == 200
    assert states.as_("Ben", "/api/control", {"position": hype, "whose": "Ben"})[0] == 200
    # it dies: into its owner's graveyard, not its controller's
    assert states.as_("Ben", "/api/move", {"position": hype, "to": "graveyard"})[0] == 200
    assert [c["name"] for c in states.player("Anna", viewer="Cleo")["zones"]["graveyard"]] == ["Hype Train"]
    # Lump of Coal: on the bottom of an opponent's library, theirs to know
    coal = in_hand(states, "Anna", "Lump of Coal")
    status, answer = states.as_("Anna", "/api/move", {"position": coal, "to": "library-bottom", "whose": "Ben"})
    assert status == 200, answer
    assert [c["name"] for c in states.player("Ben")["deck"]] == ["Lump of Coal"]
    assert states.player("Anna")["deck"] == []
    assert states.state("Ben")["log"][0]["detail"].get("name") == "Lump of Coal"  # Ben sees what he was given
    assert "name" not in states.state("Cleo")["log"][0]["detail"]  # a card from Anna's hand: Cleo saw one go
    # Karzilek: shuffled into its owner's library
    karzilek = played(states, "Anna", "Karzilek, Butcher of Pavement")
    assert states.as_("Ben", "/api/move", {"position": karzilek, "to": "library-shuffled"})[0] == 200
    assert states.player("Anna")["deck"][0]["depth"] == 0
    assert states.state("Ben")["log"][0]["detail"]["shuffled"] is True


def test_token_cards_are_made_by_name_and_move_like_cards(states):
    # Path to Path to Exile: Ben puts a copy of Path to Exile into his hand
    status, token = states.as_("Ben", "/api/token-card", {"name": "Path to Exile", "to": "hand"})
    assert status == 200, token
    held = states.player("Ben")["cards"][-1]
    assert held["name"] == "Path to Exile" and held["token"] and held["owner"] == "Ben"
    assert states.as_("Ben", "/api/play", {"position": held["position"]})[0] == 400  # not a Hell card: moved
    assert states.as_("Ben", "/api/move", {"position": held["position"], "to": "battlefield"})[0] == 200
    assert states.as_("Ben", "/api/move", {"position": held["position"], "to": "graveyard"})[0] == 200
    grave = states.player("Ben", viewer="Anna")["zones"]["graveyard"]
    assert grave[0]["name"] == "Path to Exile" and grave[0]["token"]  # it outlives its maker, a card off the field
    assert states.as_("Anna", "/api/token-card", {"name": "Gutshot", "to": "battlefield", "whose": "Nobody"})[0] == 404
    assert states.as_("Ben", "/api/undo")[0] == 200
    status, ended = states.call("/api/end-game", {"confirm": True}, host=True)
    assert status == 200 and not any(c["token"] for p in states.state()["players"] for c in p["played"]
                                      if "token" in c)


def test_counters_on_a_suspended_card_in_exile(states):
    artist = in_hand(states, "Anna", "Trapeze Artist")
    assert states.as_("Anna", "/api/move", {"position": artist, "to": "exile"})[0] == 200
    status, answer = states.as_("Anna", "/api/card-counter", {"position": artist, "kind": "time", "delta": 3})
    assert status == 200, answer
    exiled = states.player("Anna", viewer="Ben")["zones"]["exile"][0]
    assert exiled["counters"] == {"time": 3}
    assert states.as_("Anna", "/api/card-counter", {"position": artist, "kind": "time", "delta": -1})[0] == 200
    assert states.state("Ben")["log"][0]["detail"]["count"] == 2
