"""`hhd generate` / `hhd show`: a fair, reproducible 97-card Hell library and its file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from hhdcli.cache import load_cache
from hhdcli.library import build_pool, default_size, seeded_sample
from support import LEGACY, PIPS, Hhd, one_line_error, timed, unchanged

GOLDEN = Path(__file__).parent / "golden" / "library-ember-tide-42.txt"


def test_pool_is_720_spells_and_lands_plus_250_basics(legacy_cache):
    pool, _ = build_pool(load_cache(legacy_cache).cards)
    kinds = Counter(c.set_code == "BASIC" for c in pool.cards)
    assert len(pool.cards) == 970 and kinds[True] == 250
    assert Counter(c.name for c in pool.cards if c.set_code == "BASIC") == {
        "Plains": 50, "Island": 50, "Swamp": 50, "Mountain": 50, "Forest": 50}
    assert default_size(970) == 97


def test_golden_library_for_a_fixed_seed(synced, tmp_path):
    out = tmp_path / "lib.json"
    assert synced("generate", "--seed", "ember-tide-42", "-o", str(out)).exit_code == 0
    document = json.loads(out.read_text())
    lines = "".join(f"{c['position']} {c['kind']} {c['id']} {c['name']}\n" for c in document["cards"])
    assert lines == GOLDEN.read_text(encoding="utf-8")
    assert document["size"] == 97 and document["seed"] == "ember-tide-42"
    assert document["card_data"]["sha256"].startswith("2a55056f")
    assert document["pool"]["cards"] == 970 and document["format"] == "hhd-library"


def test_same_seed_gives_byte_identical_files_across_processes(legacy_cache, tmp_path):
    outputs = []
    for run in range(2):
        out = tmp_path / f"run{run}.json"
        env = {**os.environ, "HHD_CACHE_DIR": str(legacy_cache), "PYTHONHASHSEED": str(run)}
        subprocess.run([sys.executable, "-m", "hhdcli", "-q", "generate", "--seed", "same", "-o", str(out)],
                       check=True, env=env, capture_output=True)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def test_every_card_is_drawn_uniformly():
    """Chi-square over 970 cards for 2,000 seeds (df 969: mean 969, sd 44; the bound is +5 sd)."""
    seeds = 2000
    counts = Counter(card for s in range(seeds) for card in seeded_sample(range(970), 97, f"seed-{s}"))
    expected = seeds * 97 / 970
    chi_square = sum((counts.get(card, 0) - expected) ** 2 / expected for card in range(970))
    assert chi_square < 969 + 5 * 44
    basics = sum(counts.get(card, 0) for card in range(720, 970)) / (seeds * 97)
    assert abs(basics - 250 / 970) < 0.005


def test_sample_is_without_replacement_and_ordered_by_draw():
    drawn = seeded_sample(range(970), 970, "all")
    assert sorted(drawn) == list(range(970)) and drawn != list(range(970))
    assert seeded_sample(range(970), 10, "x") == seeded_sample(range(970), 20, "x")[:10]


def test_exclusions_really_exclude(synced, tmp_path):
    exclude = tmp_path / "exclude.txt"
    exclude.write_text("# cards we lost\nPickle K'rrik!\nbear // hate\nNo Such Card Here\n")
    out = tmp_path / "lib.json"
    result = synced("generate", "--seed", "x", "--size", "891", "--exclude-banned", "--exclude-file", str(exclude),
                    "--basics-per-type", "40", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "No Such Card Here" in result.output
    document = json.loads(out.read_text())
    names = {c["name"] for c in document["cards"]}
    banned = {c.name for c in load_cache(synced.cache_dir).cards if c.banned}
    assert not names & (banned | {"Pickle K'rrik!", "Bear // Hate"})
    assert document["pool"]["cards"] == 720 - 27 - 2 + 200
    assert document["pool"]["excluded"]["count"] == 29


def test_size_outside_the_pool_is_refused_and_the_old_file_kept(synced, tmp_path):
    out = tmp_path / "lib.json"
    out.write_text("keep me")
    for size in ("0", "-3", "971"):
        result = synced("generate", "--seed", "x", "--size", size, "-o", str(out))
        assert result.exit_code == 2 and "outside 1..970" in result.output
    assert out.read_text() == "keep me"


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "md"])
def test_show_prints_the_same_view_as_generate(synced, tmp_path, fmt):
    out = tmp_path / "lib.json"
    made = synced("-q", "generate", "--seed", "round-trip", "--format", fmt, "-o", str(out))
    shown = synced("-q", "show", str(out), "--format", fmt)
    assert shown.exit_code == 0
    assert made.stdout == shown.stdout
    if fmt == "json":
        assert json.loads(shown.stdout) == json.loads(out.read_text())
    if fmt == "csv":
        assert len(shown.stdout.splitlines()) == 98


def test_summary_counts_with_expected_values(synced, tmp_path):
    result = synced("-q", "generate", "--seed", "sum", "--json", "-o", str(tmp_path / "l.json"))
    summary = json.loads(result.stdout)["summary"]
    assert sum(v["count"] for v in summary["color"].values()) == 97
    assert sum(v["count"] for v in summary["basics"].values()) == sum(
        1 for c in json.loads((tmp_path / "l.json").read_text())["cards"] if c["kind"] == "basic")
    assert summary["basics"]["Plains"]["expected"] == 5.0
    assert summary["color"]["Land"]["expected"] == pytest.approx((69 + 250) / 10, abs=0.1)


def test_show_warns_when_card_data_changed_and_names_lost_cards(synced, tmp_path):
    out = tmp_path / "lib.json"
    synced("generate", "--seed", "ember-tide-42", "-o", str(out))
    document = json.loads(out.read_text())
    document["card_data"]["sha256"] = "0" * 64
    first = next(e for e in document["cards"] if e["kind"] != "basic")
    first.update(id="gone", name="A Card That Was Removed")
    first["card"].update(name="A Card That Was Removed", image=None)
    out.write_text(json.dumps(document))
    result = synced("show", str(out))
    assert result.exit_code == 0
    assert "card data changed" in result.output
    assert "'A Card That Was Removed' is not in the card data now; printed from the library file" in result.output
    assert "A Card That Was Removed" in result.stdout  # still listed, from the file's own copy
    del first["card"]  # a version 1 file keeps no copy
    document["version"] = 1
    out.write_text(json.dumps(document))
    assert "left out (an old library file keeps no copy)" in synced("show", str(out)).output


@pytest.mark.parametrize("content, message", [
    ("not json at all", "not JSON"),
    ('{"format": "hhd-library", "version": 99}', "version 99"),
    ('{"format": "something-else"}', "not an hhd library file"),
])
def test_bad_library_files_are_one_line_errors(synced, tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = synced("show", str(bad))
    assert result.exit_code == 3 and message in result.output and str(bad) in result.output


def test_a_hand_edited_inconsistent_library_is_refused(synced, tmp_path):
    out = tmp_path / "lib.json"
    synced("generate", "--seed", "e", "-o", str(out))
    document = json.loads(out.read_text())
    document["cards"].append(dict(document["cards"][0], position=98))
    out.write_text(json.dumps(document))
    result = synced("show", str(out))
    assert result.exit_code == 3 and "inconsistent" in result.output


def test_without_a_seed_a_memorable_one_is_printed(synced, tmp_path):
    result = synced("generate", "-o", str(tmp_path / "l.json"))
    seed = json.loads((tmp_path / "l.json").read_text())["seed"]
    assert f"--seed {seed}" in result.output and len(seed.split("-")) == 3


def edited(library: Path, tmp_path: Path, edit) -> Path:
    document = json.loads(library.read_text())
    edit(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    return path


def unknown_card_with_numeric_image(document) -> None:
    entry = next(e for e in document["cards"] if e.get("card"))
    entry["id"], entry["card"]["image"] = "hlc-000000000000", 1e308


@pytest.mark.parametrize("edit, field", [
    (lambda d: next(c for c in d["cards"] if c["kind"] == "basic").update(id=""), ".id"),
    (lambda d: d["pool"].update(excluded=[]), "pool.excluded"),
    (lambda d: d["pool"].update(basics_per_type="fifty"), "pool.basics_per_type"),
    (lambda d: d["pool"].update(basics_per_type=1e8), "pool.basics_per_type"),
    (lambda d: d.update(cards="abc"), "cards"),
    (lambda d: d["cards"][0].update(position=10**30), "cards[0].position"),
])
def test_a_hand_edited_library_field_is_named(edit, field, synced, library):
    document = json.loads(library.read_text())
    edit(document)
    library.write_text(json.dumps(document))
    start = time.monotonic()
    line = one_line_error(synced("show", "-l", str(library)))
    assert field in line and time.monotonic() - start < 10


@pytest.mark.parametrize("command", ["show", "checklist", "proxies", "export"])
@pytest.mark.parametrize("edit, said", [
    (lambda d: d["cards"][0].update(kind=[]), "cards[0].kind is a list, expected spell or land or basic"),
    (unknown_card_with_numeric_image, '.card "image" is 1e+308, expected text'),
    (lambda d: d["cards"][1].update(card={"id": "x", "name": "y", "faces": [{"name": 5}]}), ".card faces[0]"),
    (lambda d: d["cards"][1].update(card={"id": "x", "name": "y", "faces": [], "evil": 1}), "a field hhd does not write"),
])
def test_a_hand_edited_library_is_refused_naming_the_field(synced, library, tmp_path, command, edit, said):
    path = edited(library, tmp_path, edit)
    output = [] if command == "show" else ["-o", str(tmp_path / f"out-{command}.pdf")]
    result = synced(command, "-l", str(path), *output)
    assert said in one_line_error(result) and result.exit_code == 3


def test_a_library_of_millions_of_entries_is_refused_by_its_count_before_any_entry_is_read(synced, library, tmp_path):
    def millions(document):
        document["cards"], document["size"] = [{}] * 3_000_000, 3_000_000
    result = synced("show", "-l", str(edited(library, tmp_path, millions)))
    assert "cards lists 3000000 entries, a library has at most 10000" in one_line_error(result)


def test_a_refused_value_is_named_not_printed(synced, library, tmp_path):
    """An error never serialises what it refuses: a deep or huge value is named by its kind."""
    def deep_seed(document):
        document["seed"] = [[["x" * 10_000]]]
    error = one_line_error(synced("show", "-l", str(edited(library, tmp_path, deep_seed))))
    assert "seed is a list, expected text" in error and "xxx" not in error


def test_a_second_generate_does_not_replace_another_library_without_force(synced, tmp_path):
    out = tmp_path / "hell-library.json"
    assert synced("generate", "--seed", "first", "-o", str(out)).exit_code == 0
    printed = out.read_bytes()
    assert synced("generate", "--seed", "first", "-o", str(out)).exit_code == 0  # the same bytes: harmless
    refused = synced("generate", "--seed", "second", "-o", str(out))
    assert refused.exit_code == 2 and "--force" in refused.output and unchanged(out, printed)
    assert synced("generate", "--seed", "second", "-o", str(out), "--force").exit_code == 0
    assert out.read_bytes() != printed


def test_a_very_long_seed_is_refused_at_once(synced, tmp_path):
    elapsed, result = timed(synced, "generate", "--seed", "x" * 10_000, "-o", str(tmp_path / "l.json"))
    assert result.exit_code == 2 and "1 to 200 characters" in result.output and elapsed < 2


def test_an_unknown_exclusion_tag_is_named(synced, tmp_path):
    result = synced("generate", "--seed", "t", "--exclude-tag", "offensive", "-o", str(tmp_path / "l.json"))
    assert result.exit_code == 0 and "--exclude-tag 'offensive': no card has this tag" in result.output
    quiet = synced("-q", "generate", "--seed", "t", "--exclude-tag", "offensive", "-o", str(tmp_path / "l.json"))
    assert "warning" not in quiet.output  # -q silences warnings too


def test_the_same_seed_and_data_give_the_same_bytes_from_anywhere(tmp_path):
    outputs = []
    for where in ("one", "two"):
        folder = tmp_path / where / "deeper"
        folder.mkdir(parents=True)
        source = folder / LEGACY.name
        os.symlink(LEGACY, source) if where == "one" else source.write_bytes(LEGACY.read_bytes())
        run = Hhd(tmp_path / where / "cache")
        assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
        out = tmp_path / where / "lib.json"
        assert run("generate", "--seed", "anywhere", "-o", str(out)).exit_code == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


# --- limits that hold end to end: what sync takes, generate writes and show reads agree ------------------------


def _many_cards(folder: Path, count: int) -> Path:
    """A registry of `count` distinct cards, copies of the excerpt's first with ids and names of their own."""
    import json as json_module

    from support import EXCERPT

    first = json_module.loads(EXCERPT.read_text(encoding="utf-8"))["data"][0]
    base = {key: first[key] for key in ("object", "kind", "set", "layout", "image", "mana_cost", "mana_value",
                                        "type_line", "oracle_text", "colors", "color_identity", "legalities")}
    records = [{**base, "id": f"card-{i}", "hcid": str(i), "name": f"Whale Visions {i}"} for i in range(count)]
    path = folder / f"registry-{count}.json"
    path.write_text(json_module.dumps({"data": records}), encoding="utf-8")
    return path


def test_sync_refuses_more_cards_than_a_library_could_be_drawn_from(tmp_path):
    from hhdcli.library import MAX_CARD_DATA
    from support import PIPS, Hhd

    hhd = Hhd(tmp_path / "cache")
    result = hhd("sync", "--source", str(_many_cards(tmp_path, MAX_CARD_DATA + 1)), "--symbols", str(PIPS))
    assert result.exit_code == 3
    assert f"has {MAX_CARD_DATA + 1} Hellscube v1.2 cards, more than hhd reads ({MAX_CARD_DATA})" in result.stderr
    assert not (tmp_path / "cache" / "cards.json").exists()


def test_generate_never_writes_a_library_that_show_would_refuse(tmp_path):
    """5,001 cards and 1,000 basics of each type are a pool of 10,001: a library of all of them is one card more
    than a library file holds, so it is refused before anything is written; the largest one is written and read."""
    from hhdcli.library import MAX_LIBRARY_CARDS
    from support import PIPS, Hhd

    hhd = Hhd(tmp_path / "cache")
    assert hhd("sync", "--source", str(_many_cards(tmp_path, 5_001)), "--symbols", str(PIPS)).exit_code == 0
    library = tmp_path / "big.json"
    common = ("generate", "--seed", "big", "--basics-per-type", "1000", "-o", str(library), "--format", "summary")
    refused = hhd(*common, "--size", str(MAX_LIBRARY_CARDS + 1))
    assert refused.exit_code == 2 and not library.exists()
    assert f"error: a library of {MAX_LIBRARY_CARDS + 1} cards is more than a library file holds" in refused.stderr
    assert hhd(*common, "--size", str(MAX_LIBRARY_CARDS)).exit_code == 0
    assert hhd("show", "-l", str(library), "--format", "summary").exit_code == 0


@pytest.mark.parametrize("key, value", [("cards", "x"), ("hellscube", [1]), ("basics", -1), ("cards", 1e308)])
def test_a_hand_edited_pool_count_is_named_not_a_traceback(synced, library, key, value):
    document = json.loads(library.read_text())
    document["pool"][key] = value
    library.write_text(json.dumps(document))
    result = synced("show", "-l", str(library))
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert f"pool.{key} is " in result.stderr and "expected a number of cards" in result.stderr
