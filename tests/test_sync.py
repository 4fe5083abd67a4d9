"""`hhd sync`: the registry's cards into the local cache, and nothing lost when anything fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hhdcli.cache import load_cache
from hhdcli.cards import parse_registry
from hhdcli.errors import DataError, HhdError
from hhdcli.registry import HttpSettings, RegistryUrls, Syncer
from support import (
    CURRENT_SAMPLE,
    DEEP,
    EXCERPT,
    LEGACY,
    PIPS,
    Hhd,
    Reply,
    excerpt_with,
    one_line_error,
)

FAST = HttpSettings(timeout=(1.0, 1.0), retries=1, backoff=0.0)


def syncer(cache_dir: Path, server) -> Syncer:
    return Syncer(cache_dir, urls=RegistryUrls.from_base(server.url), settings=FAST)


def cache_bytes(cache_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(cache_dir.iterdir())}


# --- the two formats --------------------------------------------------------------------


def test_legacy_snapshot_gives_exactly_720_v12_cards():
    fmt, cards, *_ = parse_registry(LEGACY.read_bytes())
    assert fmt == "legacy"
    assert len(cards) == 720
    assert len({c.id for c in cards}) == 720


def test_current_sample_keeps_the_16_hlc_cards_and_drops_hc2():
    fmt, cards, *_ = parse_registry(CURRENT_SAMPLE.read_bytes())
    names = {c.name for c in cards}
    assert fmt == "current"
    assert len(cards) == 16
    assert "Snarkbound Ravager" not in names and "Time Spiral (Not The Urza's Saga One)" not in names


def test_split_and_aftermath_faces_keep_their_own_costs():
    _, cards, *_ = parse_registry(CURRENT_SAMPLE.read_bytes())
    by_name = {c.name: c for c in cards}
    whip = by_name["whip // nae nae"]
    assert [(f.name, f.mana_cost) for f in whip.faces] == [("whip", "{1}{B}{B}"), ("nae nae", "{3}{G}{W}")]
    assert [f.mana_cost for f in by_name["Grizzly Bears // Grizzly Bears"].faces] == ["{1}{G}", "{1}{G}"]
    _, legacy, *_ = parse_registry(LEGACY.read_bytes())
    bear_hate = next(c for c in legacy if c.name == "Bear // Hate")
    assert [(f.name, f.mana_cost, f.type_line.split()[0]) for f in bear_hate.faces] == [
        ("Bear", "{1}{G}", "Creature"), ("Hate", "{2}{W}{W}", "Sorcery")]


def test_legacy_dirt_is_kept_readable():
    _, cards, *_ = parse_registry(LEGACY.read_bytes())
    by_name = {c.name: c for c in cards}
    assert by_name["Flurry of Thoughts"].faces[0].mana_cost == "U"
    assert by_name["Pickle K'rrik!"].mana_value == 7
    lands = [c for c in cards if c.is_land]
    assert all("Land" in c.faces[0].type_line for c in lands)
    assert not any(c.type_line.isupper() for c in cards)  # INSTANT reads as Instant


def test_print_image_is_preferred_over_image():
    record = json.loads(CURRENT_SAMPLE.read_text())["data"][0]
    record["print_image"] = "https://example.invalid/print.png"
    _, cards, *_ = parse_registry(json.dumps({"data": [record]}).encode())
    assert cards[0].print_images == ("https://example.invalid/print.png",)


def test_a_stat_written_as_a_number_reads_as_the_card_prints_it():
    """Power 2.0 in the JSON is "2" on the card (it was "2.0"), as the registry's tokens read it."""
    record = json.loads(CURRENT_SAMPLE.read_text())["data"][0]
    faces = record.get("card_faces") or [record]
    faces[0].update(power=2.0, toughness=3)
    _, cards, *_ = parse_registry(json.dumps({"data": [record]}).encode())
    face = cards[0].faces[0]
    assert (face.power, face.toughness) == ("2", "3")


# --- the registry over loopback HTTP --------------------------------------------------------


def test_default_sync_reads_manifest_then_catalog(registry, hhd):
    hhd.registry_url = registry.url
    result = hhd("sync")
    assert result.exit_code == 0, result.output
    assert "found 16 Hellscube v1.2 cards, expected 720" in result.output
    cache = load_cache(hhd.cache_dir)
    assert len(cache.cards) == 16
    assert cache.meta.registry_version == "2026-08-01T00:00:00Z"
    assert cache.meta.source == registry.url + "/catalog.json"
    assert len(cache.symbols) == 324
    agent = next(h for m, p, h in registry.hits if p == "/catalog.json")["User-Agent"]
    assert agent.startswith("hhd/")


def test_unchanged_manifest_downloads_nothing(registry, hhd):
    hhd.registry_url = registry.url
    assert hhd("sync").exit_code == 0
    second = hhd("sync")
    assert second.exit_code == 0
    assert "up to date (version 2026-08-01T00:00:00Z" in second.output
    assert registry.count("/catalog.json") == 1
    assert registry.count("/catalog-manifest.json") == 2
    assert hhd("sync", "--force").exit_code == 0
    assert registry.count("/catalog.json") == 2


def test_unchanged_etag_downloads_nothing(registry, hhd):
    hhd.registry_url = registry.url
    url = registry.url + "/Hellscube-Database.json"
    assert hhd("sync", "--source", url).exit_code == 0
    second = hhd("sync", "--source", url)
    assert "up to date" in second.output
    conditional = [h for m, p, h in registry.hits if p == "/Hellscube-Database.json"][-1]
    assert conditional.get("If-None-Match")
    assert len(load_cache(hhd.cache_dir).cards) == 720


def test_catalog_failure_falls_back_to_the_repository_database(registry, tmp_path):
    registry.routes["/catalog-manifest.json"] = Reply(b"oops", 500, "text/plain")
    result = syncer(tmp_path, registry).run()
    assert result.updated and result.meta.card_count == 720
    assert any("trying the repository database" in w for w in result.warnings)


BAD_ANSWERS = {
    "HTTP 500": Reply(b"boom", 500, "text/plain"),
    "HTTP 404": Reply(b"gone", 404, "text/plain"),
    "timed out": Reply(LEGACY.read_bytes()[:100], delay=2.5),
    "truncated": Reply(LEGACY.read_bytes(), truncate_to=50_000),
    "not valid JSON": Reply(b"<html><body>Service Unavailable</body></html>", 200, "text/html"),
    "empty": Reply(b'{"data": []}'),
    "not a card database": Reply(b'{"cards": {"a": 1}}'),
    "no Hellscube v1.2 cards": Reply(json.dumps({"data": json.loads(CURRENT_SAMPLE.read_text())["data"][-2:]}).encode()),
}


@pytest.mark.parametrize("expected", list(BAD_ANSWERS))
def test_every_failure_keeps_the_old_cache_byte_identical(server, tmp_path, expected):
    server.serve_file("/pips.json", PIPS)
    cache_dir = tmp_path / "cache"
    syncer(cache_dir, server).run(source=str(LEGACY))
    before = cache_bytes(cache_dir)
    server.routes["/bad.json"] = BAD_ANSWERS[expected]
    with pytest.raises(HhdError) as failure:
        syncer(cache_dir, server).run(source=server.url + "/bad.json", force=True)
    assert expected in failure.value.message
    assert "\n" not in str(failure.value)
    assert cache_bytes(cache_dir) == before


def test_cli_failure_is_one_line_and_non_zero(server, hhd):
    assert hhd("sync", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    before = cache_bytes(hhd.cache_dir)
    server.routes["/x.json"] = Reply(b"<html>", 200, "text/html")
    result = hhd("sync", "--source", server.url + "/x.json")
    assert result.exit_code == 3
    assert result.output.startswith("error: ") and "not valid JSON" in result.output
    assert "Traceback" not in result.output
    assert cache_bytes(hhd.cache_dir) == before
    assert hhd("cards", "--json").exit_code == 0  # the old cache is still usable


def test_retry_after_429_is_honoured_within_the_deadline(server, tmp_path):
    answers = iter([Reply(b"slow down", 429, "text/plain", headers={"Retry-After": "1"})])
    server.routes["/db.json"] = lambda h: next(answers, Reply(LEGACY.read_bytes()))
    server.serve_file("/pips.json", PIPS)
    settings = HttpSettings(timeout=(1.0, 3.0), retries=1, backoff=0.0)  # 1 s of waiting fits in 3 s
    result = Syncer(tmp_path, urls=RegistryUrls.from_base(server.url), settings=settings).run(
        source=server.url + "/db.json")
    assert result.meta.card_count == 720
    assert server.count("/db.json") == 2


def test_local_file_sync_then_up_to_date(hhd):
    first = hhd("sync", "--source", str(LEGACY))
    assert first.exit_code == 0 and "synced 720" in first.output
    assert "up to date" in hhd("sync", "--source", str(LEGACY)).output
    meta = load_cache(hhd.cache_dir).meta
    assert meta.sha256.startswith("2a55056f") and meta.card_count == 720 and meta.schema == 1
    assert len(load_cache(hhd.cache_dir).symbols) == 324  # pips.json beside the source is used


def test_missing_local_source_is_explained(hhd, tmp_path):
    result = hhd("sync", "--source", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "cannot read" in result.output


# --- the cache -------------------------------------------------------------------------------


def test_a_corrupted_cache_is_detected_and_explained(synced, tmp_path):
    from shutil import copytree

    copy = tmp_path / "copy"
    copytree(synced.cache_dir, copy)
    (copy / "cards.json").write_bytes((copy / "cards.json").read_bytes()[:5000])
    result = type(synced)(copy)("cards")
    assert result.exit_code == 5
    assert "damaged" in result.output and "hhd sync --force" in result.output


def test_a_command_with_no_cache_tries_one_sync_then_uses_the_built_in_data(server, hhd):
    hhd.registry_url = server.url  # serves nothing: every file is a 404
    result = hhd("cards", "bear")
    assert result.exit_code == 0
    assert "could not sync" in result.output and "using the built-in Hellscube v1.2 data" in result.output
    assert "Philosophical Bear" in result.stdout
    assert not (hhd.cache_dir / "cards.json").exists()  # the next run online still syncs


def test_a_command_with_no_cache_syncs_once_when_it_can(registry, hhd):
    hhd.registry_url = registry.url
    result = hhd("cards", "--json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["cards"]) == 16


def test_cache_dir_option_beats_environment(tmp_path, monkeypatch):
    from hhdcli.cache import resolve_cache_dir

    monkeypatch.setenv("HHD_CACHE_DIR", str(tmp_path / "env"))
    assert resolve_cache_dir(None) == tmp_path / "env"
    assert resolve_cache_dir(tmp_path / "opt") == tmp_path / "opt"


@pytest.mark.parametrize("field, value", [("colors", 5), ("tags", 7), ("card_faces", "abc"),
                                          ("legalities", []), ("card_faces", [5]), ("mana_cost", ["{R}"])])
def test_a_wrongly_typed_current_record_is_skipped_and_named(field, value):
    parsed = parse_registry(excerpt_with(field, value))
    assert len(parsed.cards) == 104
    assert len(parsed.skipped) == 1 and "Whale Visions" in parsed.skipped[0] and field in parsed.skipped[0]


def test_a_wrongly_typed_legacy_record_is_skipped_and_named():
    document = json.loads(LEGACY.read_bytes())
    first = next(r for r in document["data"] if r.get("Set") == "HLC")
    first["Cost"] = 5
    parsed = parse_registry(json.dumps(document).encode())
    assert len(parsed.cards) == 719 and '"Cost" is 5' in parsed.skipped[0]


def test_the_legacy_sheet_reads_the_same_by_its_columns_as_whole():
    """The legacy sheet is decoded by the columns hhd reads (msgspec skips the others); a sheet that way of
    decoding cannot take (a record that is no object) is read whole by json: the same cards, the same
    records counted, and NaN refused either way."""
    document = json.loads(LEGACY.read_bytes())
    by_columns = parse_registry(json.dumps(document).encode())
    document["data"].insert(5, 7)
    whole = parse_registry(json.dumps(document).encode())
    assert len(by_columns.cards) == 720 and by_columns.cards == whole.cards
    assert by_columns.records == whole.records == len(document["data"]) - 1
    for data in (document["data"][:5] + document["data"][6:], document["data"]):
        data[10]["CMC"] = float("nan")
        with pytest.raises(DataError, match="not valid JSON"):
            parse_registry(json.dumps({"data": data}).encode())


def test_sync_warns_about_a_skipped_record_and_keeps_the_rest(tmp_path):
    source = tmp_path / "catalog.json"
    source.write_bytes(excerpt_with("colors", 5))
    result = Hhd(tmp_path / "cache")("sync", "--source", str(source), "--symbols", str(PIPS))
    assert result.exit_code == 0 and "skipped record 1 ('Whale Visions')" in result.output


def test_a_registry_manifest_nested_too_deeply_is_a_data_error(server, tmp_path):
    server.routes["/catalog-manifest.json"] = Reply(DEEP)
    server.routes["/catalog.json"] = Reply(DEEP)
    server.routes["/Hellscube-Database.json"] = Reply(b'{"data": [Infinity]}')
    result = Hhd(tmp_path / "cache", server.url)("sync")
    assert result.exit_code == 3 and one_line_error(result)


def test_a_much_smaller_card_list_is_refused_and_names_both_counts(synced, tmp_path, server):
    cache = tmp_path / "cache"
    import shutil

    shutil.copytree(synced.cache_dir, cache)
    before = (cache / "cards.json").read_bytes()
    records = [r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC")][:16]
    server.routes["/db.json"] = Reply(json.dumps({"data": records}).encode())
    result = Hhd(cache)("sync", "--source", server.url + "/db.json", "--symbols", str(PIPS))
    assert result.exit_code == 3 and "16 Hellscube v1.2 cards, the cache has 720" in result.output
    assert (cache / "cards.json").read_bytes() == before


def test_records_listed_many_times_are_one_card_each():
    document = json.loads(LEGACY.read_text())
    document["data"] = document["data"] * 3
    parsed = parse_registry(json.dumps(document).encode())
    assert len(parsed.cards) == 720 and parsed.records == 3 * 3059


def test_the_symbol_table_is_refreshed_alone_offline(synced, tmp_path):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(synced.cache_dir, cache)
    cards_before = json.loads((cache / "cards.json").read_text())["cards"]
    (cache / "pips.json").write_text("{damaged")
    result = Hhd(cache, "http://127.0.0.1:9")("sync", "--symbols-only", "--symbols", str(PIPS))
    assert result.exit_code == 0 and "refreshed" in result.output
    assert json.loads((cache / "pips.json").read_text())["data"][0]["symbol"]
    assert json.loads((cache / "cards.json").read_text())["cards"] == cards_before


def test_a_damaged_symbol_table_is_replaced_not_kept(synced, tmp_path, server):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(synced.cache_dir, cache)
    (cache / "pips.json").write_text("{damaged")
    result = Hhd(cache, "http://127.0.0.1:9")("sync", "--symbols-only")  # the registry is unreachable
    assert result.exit_code == 0 and "using the built-in one" in result.output
    assert len(json.loads((cache / "pips.json").read_text())["data"]) == 324



def test_a_registry_file_given_through_a_pipe_is_named_as_given(tmp_path):
    """`hhd sync --source <(gzip -dc db.json.gz)`: the shell's /dev/fd/N, a link to a pipe, is refused as a pipe
    under the name the user gave, not as a missing /proc/…/pipe:[…] that the link resolves to."""
    import os

    read, write = os.pipe()
    try:
        result = Hhd(tmp_path / "cache")("sync", "--source", f"/dev/fd/{read}", "--symbols", str(PIPS))
    finally:
        os.close(read)
        os.close(write)
    assert result.exit_code == 2
    assert one_line_error(result) == (f"error: /dev/fd/{read} is not a regular file (a device, pipe or folder): "
                                      "cannot read it as a registry file")
