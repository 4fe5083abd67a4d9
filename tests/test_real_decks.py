"""Deck files as other programs write them, read the way those programs read them (the long tail)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hhdcli.cards import normalize_name
from hhdcli.deck import read_deck
from hhdcli.decklists import parse_deck
from hhdcli.errors import InputError

REAL = Path(__file__).parent / "decks" / "real"

# main, sideboard: what Forge's DeckSerializer reads ([main] and [sideboard]; [quest], [duel], [metadata] are
# the game modes' own sections, and their Key=Value lines are no cards)
FORGE = {"LEB Challenge Balance.dck": (100, 0), "Druid 1.dck": (62, 0), "LEB 3 Strategy Geddon.dck": (60, 0),
         "ARN Challenge The Ogres.dck": (60, 0), "Arzakon's home plane.dck": (132, 0)}


# main, sideboard: what XMage's DckDeckImporter reads ("N [SET:NUM] Name" lines, "SB:" for the sideboard;
# NAME:, AUTHOR:, LAYOUT lines and comments are no cards)
XMAGE = {"Jund.dck": (60, 0), "1998 Draw Go World Championship Deck Randy Buehler.dck": (60, 0),
         "[M12] Blood and Fire.dck": (60, 0), "2004 Affinity World Championship Deck Aeo Paquette.dck": (60, 15),
         "GR - Corbett Gray's Wolf Run Robots.dck": (60, 15)}


def count(entries) -> int:
    return sum(e.count for e in entries)


@pytest.mark.parametrize("name", sorted(FORGE))
def test_real_forge_decks_read_as_forge_reads_them(name):
    deck = read_deck(REAL / "forge" / name)
    assert (count(deck.main), count(deck.sideboard)) == FORGE[name]
    assert deck.format == "Forge .dck" and deck.problems == []  # no section or key reported as not understood


@pytest.mark.parametrize("name", sorted(XMAGE))
def test_real_xmage_decks_read_as_xmage_reads_them(name):
    deck = read_deck(REAL / "xmage" / name)
    assert (count(deck.main), count(deck.sideboard)) == XMAGE[name]
    assert deck.problems == []


def test_blank_line_groups_of_a_plain_list_are_one_main_deck():
    deck = parse_deck("20 Forest\n\n4 Giant Growth\n\n16 Mountain\n", "plain.txt")
    assert count(deck.main) == 40 and deck.sideboard == []
    sixty = parse_deck("20 Forest\n20 Mountain\n\n20 Giant Growth\n\n3 Duress\n", "plain.txt")
    assert count(sixty.main) == 60 and count(sixty.sideboard) == 3  # a last group of <= 15 after one blank line


def test_archidekt_categories_are_the_users_own_unless_marked_out_of_the_deck():
    deck = parse_deck("1x Doubling Season (RAV) 155 [Tokens]\n1x Parallel Lives (ISD) 199 [Tokens]\n"
                      "1x Forest (M21) 1 [Land]\n1x Black Lotus (LEA) 232 [Maybeboard{noDeck}{noPrice}]\n", "a.txt")
    assert [e.name for e in deck.main] == ["Doubling Season", "Parallel Lives", "Forest"]


def test_a_card_line_without_a_count_is_one_card_as_forge_and_xmage_read_it():
    deck = parse_deck("[main]\nForest\nLightning Bolt|M10\n", "cube.dck")
    assert [(e.count, e.name) for e in deck.main] == [(1, "Forest"), (1, "Lightning Bolt")]


@pytest.mark.parametrize("line, name", [("1 Ivorytusk Fortress+", "Ivorytusk Fortress"),
                                        ("4 [] Forest", "Forest"), ("1 Healer's Hawk (FDN)", "Healer's Hawk"),
                                        ("4 Plains (FDN)", "Plains"), ("1 [WAR:2*] Ajani, the Greathearted",
                                                                       "Ajani, the Greathearted"),
                                        ("2 [M20:191+] Duress", "Duress")])
def test_decorations_are_stripped_from_names(line, name):
    assert parse_deck(line + "\n", "d.txt").entries[0].name == name


def test_an_mtgo_dek_listing_catalogue_ids_only_says_to_export_with_names(tmp_path):
    path = tmp_path / "ids.dek"
    path.write_text('<?xml version="1.0"?><Deck><Cards CatID="12345" Quantity="4" Sideboard="false"/></Deck>')
    with pytest.raises(InputError, match="catalogue number only"):
        read_deck(path)


def test_forge_sections_and_their_keys_are_known():
    deck = parse_deck("[metadata]\nName=x\nCard Reward=chosen card sets:LEB\n[duel]\n[shop]\n[Avatar]\n1 Some Avatar\n"
                      "[Conspiracy]\n1 Brago's Favor\n[Dungeon]\n1 Tomb of Annihilation\n[main]\n4 Forest\n", "f.dck")
    assert [e.name for e in deck.main] == ["Forest"] and deck.problems == []


def test_a_deck_of_no_cards_is_an_error_naming_the_format(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes about the deck.\nremember to sleeve it.\n")
    with pytest.raises(InputError, match="no cards read"):
        read_deck(path)


def test_warnings_are_capped_with_a_count_of_the_rest():
    deck = parse_deck("4 Forest\n" + "what is this?\n" * 500, "d.txt")
    assert len(deck.warnings) == 11 and deck.warnings[-1].endswith("… and 490 more lines not understood")


@pytest.mark.parametrize("name", ["★ Stargazer", "日本語のカード", "Ωmega Λambda", "Lim-Dûl's Vault"])
def test_names_in_every_script_are_names(name):
    deck = parse_deck(f"1 {name}\n", "d.txt")
    assert deck.entries and normalize_name(deck.entries[0].name)
    assert normalize_name("Lim-Dûl's Vault") == normalize_name("Lim-Dul's Vault") != normalize_name("Lim-Dal's Vault")


def test_a_one_megabyte_line_is_read_in_linear_time(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("4 Forest\n" + "x" * 1_000_000)
    start = time.monotonic()
    deck = read_deck(path)
    assert count(deck.main) == 4 and time.monotonic() - start < 2


def test_a_hundred_thousand_unknown_exclude_names_are_one_warning_in_under_two_seconds(synced, tmp_path):
    names = tmp_path / "lost.txt"
    names.write_text("\n".join(f"zq{i}" for i in range(100_000)) + "\nPyrohyperspasm\n")  # under the 1 MB cap
    start = time.monotonic()
    result = synced("generate", "--seed", "x", "--exclude-file", str(names), "-o", str(tmp_path / "l.json"))
    assert result.exit_code == 0 and time.monotonic() - start < 2
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "100000 names match no card" in warnings[0] and "and 99990 more" in warnings[0]
