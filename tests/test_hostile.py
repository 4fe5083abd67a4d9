"""Hostile data and faults: no traceback, every wait inside --timeout, nothing bad kept."""

from __future__ import annotations

import json
import time
from datetime import UTC

import pytest

from hhdcli.cards import parse_registry
from hhdcli.jsonio import load_json
from support import EXCERPT, LEGACY, PIPS, Hhd, Reply

DEEP = b"[" * 100_000 + b"]" * 100_000


def excerpt_with(field: str, value: object) -> bytes:
    records = json.loads(EXCERPT.read_text())["data"]
    records[0] = {**records[0], field: value}
    return json.dumps({"data": records}).encode()


def one_line_error(result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- 1. one wrongly typed record ------------------------------------------------------------------------

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


def test_sync_warns_about_a_skipped_record_and_keeps_the_rest(tmp_path):
    source = tmp_path / "catalog.json"
    source.write_bytes(excerpt_with("colors", 5))
    result = Hhd(tmp_path / "cache")("sync", "--source", str(source), "--symbols", str(PIPS))
    assert result.exit_code == 0 and "skipped record 1 ('Whale Visions')" in result.output


def test_the_first_run_falls_back_to_built_in_data_when_the_registry_sends_junk(server, tmp_path):
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "v", "cardCount": 2}')
    server.routes["/catalog.json"] = Reply(b'{"data": [{"name": "x", "type_line": 5, "set": "HLC"}, 7]}')
    server.routes["/Hellscube-Database.json"] = Reply(DEEP)
    result = Hhd(tmp_path / "cache", server.url)("cards", "--color", "R")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "offline: using the built-in Hellscube v1.2 data" in result.output


# --- 2 and 5. deep JSON, NaN and Infinity, wherever JSON is read -----------------------------------------

@pytest.mark.parametrize("raw", [DEEP, b'{"data": [NaN]}', b'[Infinity]', b'\xff\xfe'])
def test_the_one_json_reader_refuses_with_a_value_error(raw):
    with pytest.raises(ValueError):
        load_json(raw)


def test_deep_or_nan_json_is_a_one_line_error_for_every_file_hhd_reads(tmp_path, legacy_cache):
    run = Hhd(tmp_path / "cache")
    bad = tmp_path / "bad.json"
    for raw in (DEEP, excerpt_with("mana_value", float("nan"))):
        bad.write_bytes(raw)
        assert "not valid JSON" in one_line_error(run("sync", "--source", str(bad), "--symbols", str(PIPS)))
        assert one_line_error(run("show", "-l", str(bad)))
        assert one_line_error(run("sync", "--source", str(LEGACY), "--symbols", str(bad)))
    # a damaged cache: a one-line error, and the suggested `hhd sync --force` mends it
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "cards.json").write_bytes(DEEP)
    assert "damaged" in one_line_error(Hhd(damaged)("cards"))
    assert Hhd(damaged)("sync", "--force", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    (damaged / "cards.json").write_text('{"meta": [], "cards": []}')
    assert "damaged" in one_line_error(Hhd(damaged)("status"))


def test_a_registry_manifest_nested_too_deeply_is_a_data_error(server, tmp_path):
    server.routes["/catalog-manifest.json"] = Reply(DEEP)
    server.routes["/catalog.json"] = Reply(DEEP)
    server.routes["/Hellscube-Database.json"] = Reply(b'{"data": [Infinity]}')
    result = Hhd(tmp_path / "cache", server.url)("sync")
    assert result.exit_code == 3 and one_line_error(result)


# --- 3. every wait inside --timeout -------------------------------------------------------------------------

def test_a_server_trickling_its_headers_is_cut_off_within_three_timeouts(server, tmp_path):
    for path in ("/catalog-manifest.json", "/catalog.json", "/Hellscube-Database.json", "/pips.json"):
        server.routes[path] = Reply(b"{}", slow_headers=1.0)
    start = time.monotonic()
    result = Hhd(tmp_path / "cache", server.url)("--timeout", "2", "sync")
    elapsed = time.monotonic() - start
    assert result.exit_code == 4 and "timed out" in one_line_error(result)
    assert elapsed < 3 * 2, elapsed


def test_scryfall_asking_for_a_day_ends_the_check_with_when_to_come_back(server, tmp_path, legacy_cache):
    server.routes["/cards/collection"] = Reply(b"{}", 429, headers={"Retry-After": "86400"})
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Steam Vents\n20 Mountain\n", encoding="utf-8")
    start = time.monotonic()
    result = Hhd(legacy_cache)("--timeout", "2", "check", str(deck), "--all", "--scryfall-url", server.url)
    elapsed = time.monotonic() - start
    assert "try again after" in result.output and "86400" not in result.output
    assert "Traceback" not in result.output and result.exit_code in (0, 4)
    assert elapsed < 2 * 2 + 30


def test_a_retry_after_date_far_ahead_says_when_to_try_again(server, tmp_path):
    from datetime import datetime, timedelta
    from email.utils import format_datetime

    later = format_datetime(datetime.now(UTC) + timedelta(hours=2), usegmt=True)
    server.routes["/db.json"] = Reply(b"busy", 503, "text/plain", headers={"Retry-After": later})
    result = Hhd(tmp_path / "cache")("--timeout", "2", "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "try again after" in result.output


def test_a_trickling_image_host_is_skipped_like_a_silent_one(server, tmp_path):
    records = [r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC")][:12]
    for i, record in enumerate(records):
        record.pop("card_faces", None)
        record["image"] = f"{server.url}/img/{i}.jpg"
        server.routes[f"/img/{i}.jpg"] = Reply(b"x" * 10_000, content_type="image/jpeg", trickle=(10, 0.5))
    source = tmp_path / "catalog.json"
    source.write_text(json.dumps({"data": records}))
    run = Hhd(tmp_path / "cache")
    assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
    names = [arg for r in records for arg in ("--cards", r["name"])]
    start = time.monotonic()
    result = run("--timeout", "2", "proxies", *names, "--workers", "2", "-o", str(tmp_path / "p.pdf"))
    assert result.exit_code == 0 and "from card data" in result.output
    assert time.monotonic() - start < 2 * 2 + 5
