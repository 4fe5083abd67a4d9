"""`hhd status`, `hhd cards`, `hhd card`: seeing what the cache holds."""

from __future__ import annotations

import json

import pytest

from hhdcli.cli import cli


def test_status_names_cache_source_and_counts(synced):
    result = synced("status")
    assert result.exit_code == 0
    assert str(synced.cache_dir) in result.output
    assert "720 Hellscube v1.2" in result.output
    report = json.loads(synced("status", "--json").stdout)
    assert report["cards"] == 720 and report["lands"] == 69
    assert sum(report["by_color"].values()) == 720 - 69


def listed(result) -> list[dict]:
    document = json.loads(result.stdout)
    assert document["schema"] == 1
    return document["cards"]


def test_cards_filters_by_color_type_and_land(synced):
    purple = listed(synced("cards", "--color", "P", "--json"))
    assert purple and all("P" in row["colors"] for row in purple)
    assert listed(synced("cards", "--colour", "p", "--json")) == purple  # the old spelling still works
    creatures = listed(synced("cards", "--type", "creature", "--no-land", "--json"))
    assert creatures and all("Creature" in r["type_line"] and not r["land"] for r in creatures)
    lands = listed(synced("cards", "--land", "--json"))
    assert len(lands) == 69
    multi = listed(synced("cards", "--color", "M", "--json"))
    assert multi and all(len(r["colors"]) > 1 for r in multi)


def test_cards_query_and_table(synced):
    result = synced("cards", "dreadmaw")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["name", "cost", "type", "color"]
    assert all("dreadmaw" in line.lower() for line in lines[2:])


def test_card_matches_ignoring_case_and_punctuation(synced):
    result = synced("card", "pickle krrik")
    assert result.exit_code == 0
    assert "Pickle K'rrik!" in result.output and "{4}{Pickle}{Pickle}{Pickle}" in result.output


def test_card_shows_every_face(synced):
    data = json.loads(synced("card", "Bear // Hate", "--json").stdout)["card"]
    assert [f["name"] for f in data["faces"]] == ["Bear", "Hate"]


def test_unknown_card_suggests_three_names(synced):
    result = synced("card", "Pikle Krik")
    assert result.exit_code == 2
    assert "did you mean" in result.output and "Pickle K'rrik!" in result.output


def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version

    from click.testing import CliRunner

    assert CliRunner().invoke(cli, ["--version"]).output == f"hhd, version {version('hhd')}\n"


def test_debug_shows_the_real_exception(synced):
    import pytest

    from hhdcli.errors import InputError

    with pytest.raises(InputError):
        synced("--debug", "card", "No Such Card Anywhere")


@pytest.mark.parametrize("query", ["🐻", "!!!", ""])
def test_a_filter_that_says_nothing_is_an_input_error(synced, query):
    result = synced("cards", query)
    assert result.exit_code == 2 and "no letters or digits" in result.output
