"""Players' names, however they arrive (the front page's seats, `hhd table --player`, a late player added from
the board), are checked in one place: control and direction characters refused, at most 40 characters, spaces
folded, and no two alike at a table after NFKC, case folding and Unicode TR39's confusable skeleton."""

from __future__ import annotations

import re

import pytest
from tablekit import free_port
from test_table_community import Server

from hhdcli.table.game.errors import TableError
from hhdcli.table.game.names import MAX_NAME, seat_names
from hhdcli.table.web.i18n import translations

# each of these looks like "Anna" on a page: at most one of them is seated
ANNA_ALIKE = ["ANNA", "Ａnna", "\u0410nna", "anna"]  # upper case, full-width A, Cyrillic А, lower case
HIDDEN = ["An\u200bna", "Ann\u202ea", "An\x1b[2Jna", "Anna\x00", "\u2066Anna\u2069", "\ufeffAnna", "An\u200ena"]


@pytest.mark.parametrize("other", ANNA_ALIKE)
def test_a_name_that_looks_like_a_seated_one_is_refused_in_english_and_russian(other):
    with pytest.raises(TableError) as refused:
        seat_names(["Anna", other])
    assert refused.value.message.startswith(f"{other} looks the same as Anna")
    assert "выглядит так же, как Anna" in refused.value.said(translations("ru").gettext)


@pytest.mark.parametrize("name", HIDDEN)
def test_control_and_direction_characters_are_refused_and_shown_by_their_code_point(name):
    with pytest.raises(TableError) as refused:
        seat_names([name])
    said = refused.value.message
    assert "control or direction characters" in said and "[U+" in said
    assert all(c.isprintable() and c not in "\u200b\u202e\u2066\u2069\ufeff\u200e" for c in said)
    assert "управляющих символов" in refused.value.said(translations("ru").gettext)


def test_spaces_are_folded_and_length_is_bounded():
    assert seat_names(["  Anna   Maria ", "", "Ben\tG."]) == ["Anna Maria", "Ben G."]
    assert seat_names(["x" * MAX_NAME]) == ["x" * MAX_NAME]
    with pytest.raises(TableError, match="at most 40 characters"):
        seat_names(["x" * (MAX_NAME + 1)])


def test_a_seated_players_own_name_typed_again_is_that_player():
    assert seat_names(["Anna", "Ben"], seated=["Anna"]) == ["Anna", "Ben"]
    with pytest.raises(TableError, match="looks the same as Anna"):
        seat_names(["ANNA"], seated=["Anna"])


def test_a_late_player_who_looks_like_a_seated_one_is_refused_from_the_board(table):
    for other in [*ANNA_ALIKE, "Anna"]:
        status, refused = table.call("/api/host/add-player", {"player": other, "colors": "R"}, host=True)
        assert status == 409 and "Anna" in refused["error"], (other, refused)
    status, refused = table.call("/api/host/add-player", {"player": HIDDEN[1], "colors": "R"},
                                 {"Accept-Language": "ru"}, host=True)
    assert status == 400 and "управляющих символов" in refused["error"]
    assert table.call("/api/host/add-player", {"player": "  Dana  Q ", "colors": "R"}, host=True) == \
        (200, {"player": "Dana Q", "colors": "R"})
    names = [p["name"] for p in table.call("/api/state", host=True)[1]["players"]]
    assert names == ["Anna", "Ben", "Cleo", "Dana Q"]


@pytest.mark.parametrize("players", [["Anna=RG", "\u0410nna=G"], ["Anna=RG", "An\u200bna=G"], ["A\x1bnna=R"]])
def test_hhd_table_refuses_look_alike_or_hidden_names_in_one_line_before_the_state_file(synced, library, tmp_path,
                                                                                        players):
    state = tmp_path / "s.sqlite"
    options = [arg for player in players for arg in ("--player", player)]
    result = synced("table", "-l", str(library), *options, "--state", str(state), "--port", str(free_port()))
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2 and len(errors) == 1 and "\x1b" not in result.output, result.output
    assert not state.exists()


def test_the_front_page_seats_no_two_look_alike_names(legacy_cache, tmp_path):
    server = Server(legacy_cache, tmp_path / "tables")
    try:
        status, page = server.open({"name0": "Anna", "colors0": "R", "name1": "\uff21nna", "colors1": "G",
                                    "seed": "names-1"})
        assert status == 400 and "looks the same as Anna" in page
        status, _headers, data = server.ask("POST", "/open?lang=ru", b"name0=Anna&colors0=R&name1=An%E2%80%AEna"
                                            b"&colors1=G", {"Content-Type": "application/x-www-form-urlencoded"})
        said = re.search(r'<p class="error" role="alert">([^<]*)</p>', data.decode()).group(1)
        assert status == 400 and "управляющих символов" in said and "\u202e" not in said and "[U+202E]" in said
        assert not list((tmp_path / "tables" / "tables").iterdir())
    finally:
        server.stop()
