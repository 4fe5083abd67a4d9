"""The real registry and a fresh machine: the built-in Hellscube v1.2 data, the current format read as the
registry itself reads it (on its real records), and library files that survive a re-sync."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from hhdcli.cache import BUILTIN_FILE, load_builtin, load_cache
from hhdcli.cards import CardIndex, parse_registry
from hhdcli.mana import SymbolTable, Take, card_cost, judge
from support import EXCERPT, LEGACY, PIPS, Hhd, Reply

ROOT = Path(__file__).resolve().parents[1]
REAL = {c.name: c for c in parse_registry(EXCERPT.read_bytes()).cards}


# --- the built-in data ---------------------------------------------------------------------------------


def test_the_built_in_data_is_hellscube_v12_with_its_symbol_table():
    builtin = load_builtin()
    assert builtin.builtin and len(builtin.cards) == 720 and len({c.id for c in builtin.cards}) == 720
    assert len(builtin.symbols) == 324 and builtin.meta.fetched_at.startswith("2024-04-22")
    assert "/" not in builtin.meta.source  # the file's name, never a path of the machine that built it


def test_the_committed_file_is_what_the_script_builds_from_the_registry_file(tmp_path):
    out = tmp_path / "built.json.gz"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_builtin_data.py"), str(LEGACY),
                    "--symbols", str(PIPS), "-o", str(out)], check=True, capture_output=True)
    assert out.read_bytes() == (ROOT / "hhdcli" / BUILTIN_FILE).read_bytes()
    document = json.loads(gzip.decompress(out.read_bytes()))
    assert len(document["cards"]) == 720


def test_offline_with_no_cache_every_command_works_from_the_built_in_data(tmp_path, monkeypatch, server):
    monkeypatch.chdir(tmp_path)
    run = Hhd(tmp_path / "no-cache", server.url)
    (tmp_path / "deck.txt").write_text("10 Mountain\n10 Forest\n", encoding="utf-8")
    made = run("generate", "--offline", "--seed", "ember-tide-42", "--proxies", "p.pdf", "--checklist", "c.md")
    assert made.exit_code == 0, made.output
    assert made.output.count("using the built-in Hellscube v1.2 data of 2024-04-22") == 1  # said once
    for args in (["status"], ["cards", "bear"], ["card", "Pill Bug"], ["show"], ["check", "deck.txt"],
                 ["proxies", "--text-only"], ["checklist", "-o", "c.pdf"], ["rules", "-o", "r.pdf"]):
        result = run(*_offline(args))
        assert result.exit_code == 0, (args, result.output)
    assert "the built-in Hellscube v1.2 data" in run("status").stdout
    assert server.hits == []  # offline means no network at all
    assert not (tmp_path / "no-cache" / "cards.json").exists()
    assert len(PdfReader("p.pdf").pages) == 11


def _offline(args: list[str]) -> list[str]:
    """The command with --offline where it takes it (status and rules never use the network)."""
    return args if args[0] in ("status", "rules") else [args[0], "--offline", *args[1:]]


def test_online_a_first_run_still_syncs_the_live_registry(registry, hhd):
    hhd.registry_url = registry.url
    result = hhd("cards", "--json")
    assert result.exit_code == 0 and "built-in" not in result.output
    assert load_cache(hhd.cache_dir).meta.source.endswith("/catalog.json")


# --- the current format, read as the registry reads it --------------------------------------------------


@pytest.fixture(scope="module")
def excerpt_cache(tmp_path_factory) -> Hhd:
    cache = tmp_path_factory.mktemp("excerpt")
    run = Hhd(cache / "cache")
    assert run("sync", "--source", str(EXCERPT), "--symbols", str(PIPS)).exit_code == 0
    return run


def test_the_excerpt_keeps_its_105_hellscube_cards():
    parsed = parse_registry(EXCERPT.read_bytes())
    assert parsed.format == "current" and len(parsed.cards) == 105 and parsed.records == 109


def test_a_literal_backslash_n_in_rules_text_is_a_line_break(tmp_path):
    document = json.loads(EXCERPT.read_text())
    record = next(r for r in document["data"] if r["name"] == "Whale Visions")
    record["oracle_text"] = record["oracle_text"].replace("\n", "\\n")  # as the live catalog sometimes has it
    whale = parse_registry(json.dumps({"data": [record]}).encode()).cards[0]
    assert whale.faces[0].oracle_text == "Draw a card. Scry 2.\nCreate a 2/2 blue Whale token."


def test_an_inset_token_is_not_part_of_the_cost():
    magus = REAL["Magus of the Warp"]
    assert [f.counts for f in magus.faces] == [True, False]  # "Warp World", drop_face, layout token
    assert card_cost(magus).symbols == ("2", "R")
    # the transform's back face and an adventure are part of the card, as the take rule says
    assert card_cost(REAL["Down // The Count"]).symbols == ("1", "G", "2", "B")
    assert judge(REAL["Bill Nye the Science Guy // Science Rules!"], "U").verdict is Take.CHOICE


def test_a_card_s_colors_mean_the_same_in_both_formats():
    legacy = {c.name: c for c in parse_registry(LEGACY.read_bytes()).cards}
    for name in ("Watch Wolf", "Dash"):  # no cost, no color indicator: colorless by the rules
        assert REAL[name].colors == legacy[name].colors == ()
        assert set(REAL[name].color_identity) == set(legacy[name].color_identity) != set()
    assert REAL["Whale Visions"].colors == legacy["Whale Visions"].colors == ("U",)
    assert REAL["Down // The Count"].colors == ("G",) and REAL["Down // The Count"].color_identity == ("B", "G")
    differ = {n for n, c in REAL.items() if n in legacy and not c.faces[1:] and c.colors != legacy[n].colors}
    # the legacy sheet has no color indicator (-1 Llanowar Elf) and lost one card's every field
    assert differ == {"-1 Llanowar Elf", "Hellscube Alignment Chart"}


def test_an_empty_face_name_names_nothing(excerpt_cache):
    cube = REAL["Hell's Cube"]
    assert [f.name for f in cube.faces].count("") == 5
    index = CardIndex(list(REAL.values()))
    assert "" not in index.by_key and index.find("") is None
    for empty in ("", "!!!"):
        result = excerpt_cache("card", empty)
        assert result.exit_code == 2 and "no letters or digits" in result.output


def test_rules_text_counts_only_mana_symbols(excerpt_cache):
    every_color = json.loads(excerpt_cache("check", "--all", "--colors", "WUBRGP", "--rules-text", "--json").stdout)
    unknown = {s for card in every_color["cards"] for s in card["unknown"]}
    assert not unknown & {"{T}", "{Q}", "{E}", "{CHAOS}"}
    assert every_color["summary"]["choice"] <= 2  # not the 21 that {T} and friends made choices


def test_the_still_image_is_printed_before_the_animated_one():
    document = json.loads(EXCERPT.read_text())
    record = next(r for r in document["data"] if r["name"] == "Whale Visions")
    record["still_image"] = "https://example.invalid/still.png"
    card = parse_registry(json.dumps({"data": [record]}).encode()).cards[0]
    assert card.print_images == ("https://example.invalid/still.png",)


def test_a_catalog_that_disagrees_with_its_manifest_keeps_the_old_cache(server, tmp_path):
    server.serve_file("/catalog.json", EXCERPT, gzip_it=True)
    server.serve_file("/pips.json", PIPS)
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "v1", "cardCount": 109}')
    run = Hhd(tmp_path / "cache", server.url)
    assert run("sync").exit_code == 0
    before = (tmp_path / "cache" / "cards.json").read_bytes()
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "v2", "cardCount": 8123}')
    document = json.loads(EXCERPT.read_text())
    document["data"][0]["name"] += " (changed)"  # a different catalog, served as v2 with an old card count
    server.routes["/catalog.json"] = Reply(json.dumps(document).encode(), etag='"other"')
    result = run("sync")
    assert result.exit_code == 0
    assert "holds 109 cards but its manifest says 8123" in result.output and "kept the previous" in result.output
    assert (tmp_path / "cache" / "cards.json").read_bytes() == before


def test_a_local_source_never_goes_online(server, tmp_path):
    source = tmp_path / "elsewhere" / "catalog.json"  # no pips.json beside it
    source.parent.mkdir()
    shutil.copy(EXCERPT, source)
    run = Hhd(tmp_path / "cache", server.url)
    result = run("sync", "--source", str(source))
    assert result.exit_code == 0 and server.hits == []
    cache = load_cache(tmp_path / "cache")
    assert len(cache.symbols) == 324 and cache.meta.symbols_source == "built-in: pips.json"


# --- library files survive a re-sync ---------------------------------------------------------------------


def test_a_library_from_the_legacy_data_prints_all_97_cards_after_a_sync_of_the_excerpt(synced, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(synced.cache_dir, cache)
    run = Hhd(cache)
    library = tmp_path / "lib.json"
    assert run("generate", "--seed", "ember-tide-42", "-o", str(library)).exit_code == 0
    names = [e["name"] for e in json.loads(library.read_text())["cards"]]
    refused = run("sync", "--source", str(EXCERPT), "--symbols", str(PIPS))  # 105 cards where 720 were
    assert refused.exit_code == 3 and "105 Hellscube v1.2 cards, the cache has 720" in refused.output
    assert run("sync", "--source", str(EXCERPT), "--symbols", str(PIPS), "--force").exit_code == 0
    result = run("proxies", "-l", str(library), "--text-only", "-o", str(tmp_path / "p.pdf"))
    assert result.exit_code == 0
    assert "printed from the library file" in result.output
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "p.pdf").pages)
    flat = " ".join(text.split())
    for name in names:
        assert " ".join(name.split()) in flat or f"{name!r} is called" in result.output, name
    assert "97 proxies" in result.output
    assert "'Quemsting Beast' is called 'Questing // Beast' now" in result.output  # a typo fixed in a rename


def test_renamed_cards_are_found_under_their_new_names():
    legacy = {c.name: c for c in parse_registry(LEGACY.read_bytes()).cards}
    index = CardIndex(list(REAL.values()))
    for old, new in (("Corpse Knight", "Corpse Knight (HC)"), ("Bone to Pick", "A Bone to Pick"),
                     ("Magus of the Consciption", "Magus of the Conscription"),
                     ("Chandra, Thoughout the Ages", "Chandra, Throughout the Ages"),
                     ("Godmaw Accollosalyte", "Godmaw's Accollosalyte")):
        card = legacy[old]
        found = index.match(card.id, card.name, card.image)
        assert found is not None and found.name == new, old


def test_a_library_file_holds_no_path_of_the_machine_that_made_it(synced, tmp_path):
    out = tmp_path / "lib.json"
    synced("generate", "--seed", "same", "-o", str(out))
    text = out.read_text()
    assert "/" not in json.loads(text)["card_data"]["source"] and str(LEGACY.parent) not in text


def test_the_symbol_table_of_the_built_in_data_reads_costs_like_the_registry_file():
    builtin = SymbolTable.from_records(load_builtin().symbols)
    real = SymbolTable.from_records(json.loads(PIPS.read_text())["data"])
    for card in REAL.values():
        assert judge(card, "RG", builtin) == judge(card, "RG", real)
