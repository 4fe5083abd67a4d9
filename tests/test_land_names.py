"""Offline, hhd knows every real Magic land and its colors, and every other real card's name (hhdcli/data/real-cards.json.gz,
built by scripts/build_land_names.py): a deck's warning names only the cards that may be lands."""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tablekit import free_port

from hhdcli.cards import normalize_name
from hhdcli.deck import REAL_CARDS_FILE, deck_colors, parse_deck, read_deck, real_cards
from hhdcli.scryfall import ScryfallLands

DATA = Path(__file__).parent / "data"
LANDS_EXCERPT = DATA / "commander-land-lands.excerpt.json.gz"  # provenance: tests/data/README.md
NAMES_EXCERPT = DATA / "oracle-names.excerpt.json.gz"
CUBE = Path(__file__).parent / "decks" / "real" / "cube" / "phever-no_type_sorting.txt"  # 540 real cards


def build_script():
    spec = importlib.util.spec_from_file_location("build_land_names", Path(__file__).parents[1] / "scripts" /
                                                  "build_land_names.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def built_from_excerpts() -> bytes:
    return build_script().build(gzip.decompress(LANDS_EXCERPT.read_bytes()), gzip.decompress(NAMES_EXCERPT.read_bytes()))


def test_the_build_reads_both_sources_and_writes_the_same_bytes_on_a_rerun():
    first = built_from_excerpts()
    assert first == built_from_excerpts()
    document = json.loads(gzip.decompress(first))
    assert dict(document["lands"]) == {
        "Plains": "W", "Stomping Ground": "RG", "Abandoned Outpost": "WUBRG", "Mana Confluence": "WUBRG",
        "Academy Ruins": "", "Dryad Arbor": "G",  # colorless mana is no color
        "Shatterskull Smashing // Shatterskull, the Hammer Pass": "R",
        "Westvale Abbey // Ormendahl, Profane Prince": "",
        "Skemfar Elderhall": "G", "A-Skemfar Elderhall": "G"}  # Arena's rebalancing of a land is that land
    others = set(document["others"].split("\n"))
    assert {"lightningbolt", "solring", "kenriththereturnedking", "limdulsvault"} <= others
    # each part of a melded pair's name, and no land's name or face among the others
    assert {"themightstoneandweakstone", "urzalordprotector", "urzaplaneswalker"} <= others
    assert not {"stompingground", "shatterskullsmashing", "shatterskullthehammerpass"} & others
    assert document["sources"]["lands"]["repository"] == "NirDine/Commander.Land"


def test_the_shipped_list_agrees_with_its_sources_is_small_and_keyed_as_decks_are_matched():
    excerpt = json.loads(gzip.decompress(built_from_excerpts()))
    shipped = real_cards()
    for name, letters in excerpt["lands"]:
        assert shipped.land(name) == tuple(letters), name
    assert all(shipped.knows(key) for key in excerpt["others"].split("\n"))
    assert len(shipped.lands) > 1_000 and len(shipped.others) > 30_000
    assert REAL_CARDS_FILE.stat().st_size < 400_000
    assert all(normalize_name(key) == key for key in shipped.others)


def test_offline_a_real_deck_names_no_known_card_counts_real_lands_and_names_what_may_be_a_land(index):
    cube = read_deck(CUBE)  # MTGO's Vintage Cube, one name a line
    assert {"Lightning Bolt", "Sol Ring", "Stomping Ground"} <= set(cube.names)
    found = deck_colors(cube, index.cards)
    assert found.unresolved == [] and found.colors == tuple("WUBRG")
    assert ("Stomping Ground", ("R", "G"), "built-in") in [(land.name, land.colors, land.how) for land in found.lands]
    deck = parse_deck("4 Lightning Bolt\n1 Sol Ring\n2 Stomping Ground\n1 Shatterskull Smashing\n2 Gloomy, Dank Cave\n"
                      "1 Stomping Grond\n", "d.txt")
    found = deck_colors(deck, index.cards)
    assert found.unresolved == ["Gloomy, Dank Cave", "Stomping Grond"]  # made up, and a typo: either may be a land
    assert found.colors == ("R", "G") and found.non_lands == 2


def test_the_list_is_read_only_when_a_deck_is_checked_never_at_hhd_help(tmp_path):
    """Its 25–60 ms (and 4.5 MB) are spent by a check that needs them, not by every start."""
    deck = tmp_path / "d.txt"
    deck.write_text("4 Lightning Bolt\n20 Mountain\n", encoding="utf-8")
    probe = ("import sys\nopened = []\n"
             "sys.addaudithook(lambda e, a: opened.append(e) if e == 'open' and 'real-cards' in str(a[0]) else None)\n"
             "import runpy\nsys.argv[0] = 'hhd'\n"  # hhd's own start (hhdcli/__main__.py)
             "try:\n    runpy.run_module('hhdcli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(len(opened), file=sys.stderr)\n")
    env = {**os.environ, "HHD_LANG": "en", "HHD_CACHE_DIR": str(tmp_path / "cache")}

    def opened(*args: str) -> str:
        return subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env).stderr
    assert opened("--help").splitlines()[-1] == "0"
    assert opened("check", str(deck), "--all", "--offline").splitlines()[-1] == "1"


@pytest.mark.parametrize("name", ["Stomping Ground", "stomping ground", "STOMPING  GROUND"])
def test_a_land_is_found_however_the_deck_writes_its_name(name):
    assert real_cards().land(name) == ("R", "G")


def test_when_scryfall_cannot_be_reached_the_built_in_list_answers_and_what_scryfall_says_comes_first(index, tmp_path):
    """Online, Scryfall answers first (newer than any list shipped); unreachable, hhd says so once and the list
    answers: Stomping Ground counts, Lightning Bolt is a spell, a made-up name is named."""
    deck = parse_deck("4 Stomping Ground\n4 Lightning Bolt\n1 Gloomy, Dank Cave\n", "d.txt")
    warned: list[str] = []
    unreachable = ScryfallLands(tmp_path, f"http://127.0.0.1:{free_port()}", warn=warned.append, sleep=lambda s: None)
    found = deck_colors(deck, index.cards, lookup=unreachable)
    assert found.colors == ("R", "G") and found.unresolved == ["Gloomy, Dank Cave"] and found.non_lands == 1
    assert len(warned) == 1 and "Scryfall lookup failed" in warned[0]
    (tmp_path / "scryfall-lands.json").write_text(json.dumps(  # what an earlier run heard from Scryfall
        {"stomping ground": {"name": "Stomping Ground", "type_line": "Land — Mountain Forest", "produced_mana": ["G"]}}),
        encoding="utf-8")
    answered = deck_colors(deck, index.cards, lookup=ScryfallLands(tmp_path, offline=True))
    assert ("Stomping Ground", ("G",), "scryfall") in [(land.name, land.colors, land.how) for land in answered.lands]
