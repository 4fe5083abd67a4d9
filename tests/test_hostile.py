"""Hostile data and faults: no traceback, every wait inside --timeout, nothing bad kept."""

from __future__ import annotations

import codecs
import json
import time
from datetime import UTC
from pathlib import Path

import pytest

from hhdcli.cards import parse_registry
from hhdcli.errors import DataError
from hhdcli.jsonio import load_json
from support import EXCERPT, LEGACY, PIPS, Hhd, Reply, cards_with_served_images

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


def _large(body: str) -> str:
    """A document past the size a registry download is read at (by msgspec), padded with a string."""
    from hhdcli.jsonio import LARGE

    return body.replace("PAD", "x" * (LARGE + 10))


@pytest.mark.parametrize("body", ['{"data": [NaN, "PAD"]}', '{"data": [Infinity, "PAD"]}', '["PAD"'])
def test_a_large_document_is_refused_as_a_small_one_is(body):
    with pytest.raises(ValueError):
        load_json(_large(body).encode())


def test_a_large_document_reads_as_json_reads_it_whatever_its_encoding():
    text = _large(r'{"data": [{"name": "Lim-D\u00fbl \ud83d\udd95", "n": 12345678901234567890123, "f": 0.1}], "p": "PAD"}')
    expected = json.loads(text)
    assert load_json(text.encode()) == expected and load_json(text) == expected
    assert load_json(codecs.BOM_UTF8 + text.encode()) == expected  # a BOM, which only json's reader takes
    assert load_json(text.encode("utf-16")) == expected  # UTF-16 with its BOM, as PowerShell writes


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
    trickle = Reply(b"x" * 10_000, content_type="image/jpeg", trickle=(10, 0.5))
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, trickle)
    start = time.monotonic()
    result = run("--timeout", "2", "proxies", *names, "--workers", "2", "-o", str(tmp_path / "p.pdf"))
    assert result.exit_code == 0 and "from card data" in result.output
    assert time.monotonic() - start < 2 * 2 + 5


# --- 4. the image cache keeps only images, mends damage, stays under its cap -------------------------------

def png(color: tuple[int, int, int], size: tuple[int, int] = (60, 84)) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def one_image_card(server, tmp_path):
    """A cache with one card whose image the loopback server serves at /card.png."""
    record = next(r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC"))
    record.pop("card_faces", None)
    record["image"] = f"{server.url}/card.png"
    source = tmp_path / "one.json"
    source.write_text(json.dumps({"data": [record]}))
    run = Hhd(tmp_path / "cache")
    assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
    return run, record["name"]


def image_files(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / "images").rglob("*") if p.is_file())


def test_a_captive_portal_page_is_never_kept_as_an_image(server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(b"<html>Sign in to the hotel wifi</html>", content_type="text/html")
    first = run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf"))
    assert first.exit_code == 0 and "not an image" in first.output
    assert image_files(tmp_path / "cache") == []
    server.routes["/card.png"] = Reply(png((200, 0, 0)), content_type="image/png")  # back home
    second = run("proxies", "--cards", name, "-o", str(tmp_path / "b.pdf"))
    assert "1 from 1 image" in second.output


@pytest.mark.parametrize("damage", [b"", b"\xff\xd8\xff\xe0 cut short"])
def test_a_damaged_print_image_in_the_cache_is_made_again(damage, server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(png((0, 0, 200)), content_type="image/png")
    assert run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf")).exit_code == 0
    printed = next(p for p in image_files(tmp_path / "cache") if p.parent.name == "print")
    printed.write_bytes(damage)
    again = run("proxies", "--cards", name, "-o", str(tmp_path / "b.pdf"), "--offline")
    assert again.exit_code == 0 and "1 from 1 image" in again.output, again.output
    assert printed.read_bytes().startswith(b"\xff\xd8") and printed.read_bytes().endswith(b"\xff\xd9")


def test_the_image_cache_evicts_the_least_recently_used_past_its_cap(tmp_path):
    import os

    from hhdcli.render.images import evict

    folder = tmp_path / "images"
    (folder / "raw").mkdir(parents=True)
    for i in range(5):
        path = folder / "raw" / f"img{i}"
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1000 + i, 1000 + i))  # img0 the least recently used
    keep = {folder / "raw" / "img1"}
    removed, freed = evict(folder, 2500, keep)
    assert (removed, freed) == (3, 3000)
    assert sorted(p.name for p in (folder / "raw").iterdir()) == ["img1", "img4"]


def test_cache_clean_empties_the_image_cache(server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(png((0, 120, 0)), content_type="image/png")
    assert run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf")).exit_code == 0
    assert image_files(tmp_path / "cache")
    result = run("cache", "clean")
    assert result.exit_code == 0 and "removed 2 images" in result.output
    assert image_files(tmp_path / "cache") == [] and (tmp_path / "cache" / "cards.json").is_file()


# --- 6. special files -----------------------------------------------------------------------------------

@pytest.fixture
def fifo(tmp_path) -> Path:
    import os

    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_fifo_or_a_device_is_refused_as_input_at_once(fifo, synced, legacy_cache, tmp_path):
    start = time.monotonic()
    for args in (["check", str(fifo), "--all"], ["show", "-l", str(fifo)], ["show", "-l", "/dev/zero"],
                 ["sync", "--source", str(fifo)], ["sync", "--source", "/dev/zero"],
                 ["generate", "--exclude-file", "/dev/zero", "-o", str(tmp_path / "l.json")],
                 ["rules", "--font", "/dev/zero", "-o", str(tmp_path / "r.pdf")]):
        line = one_line_error(Hhd(legacy_cache)(*args))
        assert "not a regular file" in line, (args, line)
    assert time.monotonic() - start < 20


def test_an_output_onto_a_fifo_is_refused_and_the_fifo_kept(synced, tmp_path):
    import os

    fifo = tmp_path / "rules.pdf"
    os.mkfifo(fifo)
    line = one_line_error(synced("rules", "-o", str(fifo)))
    assert "not a regular file" in line and fifo.exists() and not fifo.is_file()


# --- 7. odd values ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["--timeout", "nan", "status"], ["--timeout", "inf", "status"], ["proxies", "--gap", "nan"],
    ["proxies", "--bleed", "-inf"], ["--registry-url", "http://[::1", "status"], ["--registry-url", "ftp://x", "sync"],
    ["check", "--colors", "R", "--all", "--scryfall-url", "http://[::1"], ["generate", "--seed", "\udcff"],
    ["generate", "--size", "9" * 5000], ["--cache-max", "-1", "status"],
])
def test_odd_option_values_are_one_line_errors(args, synced):
    result = synced(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "Error:" in result.output or "error:" in result.output


def test_odd_environment_values_are_usage_errors(synced):
    from click.testing import CliRunner

    from hhdcli.cli import cli

    for env in ({"HHD_TIMEOUT": "nan"}, {"HHD_REGISTRY_URL": "http://[::1"}):
        result = CliRunner().invoke(cli, ["status"], env=env)
        assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("deck", ["5" * 5000 + " Forest\n20 Mountain\n",
                                  '<Deck><Cards Quantity="²" Sideboard="false" Name="Island"/>'
                                  '<Cards Quantity="20" Sideboard="false" Name="Forest"/></Deck>'])
def test_odd_deck_counts_are_lines_not_understood(deck, synced, tmp_path):
    path = tmp_path / ("deck.dek" if deck.startswith("<") else "deck.txt")
    path.write_text(deck, encoding="utf-8")
    result = synced("check", str(path), "--all", "--offline")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "20 main" in result.output


# --- 8. leftovers and one generation ------------------------------------------------------------------------

def test_a_write_killed_midway_leaves_a_temp_file_the_next_run_sweeps(tmp_path, legacy_cache):
    import shutil
    import signal
    import subprocess
    import sys

    cache = tmp_path / "cache"
    shutil.copytree(legacy_cache, cache)
    child = subprocess.Popen([sys.executable, "-c", (
        "import os, signal, tempfile, pathlib\n"
        f"d = pathlib.Path({str(cache)!r})\n"
        "fd, tmp = tempfile.mkstemp(prefix=f'.cards.json.{os.getpid()}.hhd-', suffix='.tmp', dir=d)\n"
        "os.write(fd, b'half a file')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")])
    assert child.wait() == -signal.SIGKILL
    assert len(list(cache.glob(".cards.json.*.tmp"))) == 1
    assert Hhd(cache)("sync", "--source", str(LEGACY), "--symbols", str(PIPS), "--force").exit_code == 0
    assert list(cache.glob(".*.tmp")) == []


def test_cards_and_symbols_of_different_syncs_are_named_with_the_fix(tmp_path, legacy_cache):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(legacy_cache, cache)
    symbols = json.loads((cache / "pips.json").read_text())
    (cache / "pips.json").write_text(json.dumps(symbols[:-1] if isinstance(symbols, list) else
                                                {"data": symbols["data"][:-1]}))
    line = one_line_error(Hhd(cache)("cards", "--color", "R"))
    assert "different syncs" in line
    assert Hhd(cache)("sync", "--force", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    assert Hhd(cache)("cards", "--color", "R").exit_code == 0


def test_two_syncs_of_one_cache_at_once_leave_one_consistent_generation(tmp_path):
    import threading

    from hhdcli.cache import load_cache
    from hhdcli.registry import Syncer

    cache = tmp_path / "cache"
    errors: list[BaseException] = []

    def sync(source: Path) -> None:
        try:
            Syncer(cache).run(source=str(source), symbols=str(PIPS), force=True)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=sync, args=(s,)) for s in (LEGACY, EXCERPT, LEGACY, EXCERPT)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    loaded = load_cache(cache)  # raises if cards.json and pips.json disagree
    assert loaded.meta.card_count in (720, 105)


# --- hand-edited library files: one line naming the field ------------------------------------------------

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


# --- the sweep: every command, every option, hostile values -------------------------------------------------

HOSTILE = ["nan", "-1", "\udcff", "9" * 5000, "/dev/zero", "http://[::1", "{}"]


def every_option():
    from hhdcli.cli import cli

    def walk(command, path):
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
            return
        for param in command.params:
            if param.name != "help" and not getattr(param, "is_flag", False) and param.param_type_name == "option":
                yield [*path, param.opts[0]]

    return list(walk(cli, []))


def test_a_sweep_of_hostile_values_over_every_option_finds_no_traceback(legacy_cache, library, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from hhdcli.cli import cli

    monkeypatch.chdir(tmp_path)
    env = {"HHD_CACHE_DIR": str(legacy_cache), "HHD_OFFLINE": "1", "HHD_REGISTRY_URL": "http://127.0.0.1:9"}
    ran = 0
    for *command, option in every_option():
        for value in HOSTILE:
            args = [*command, option, value] if command else [option, value, "status"]
            if command and command[0] in ("show", "proxies", "checklist", "export", "check") and option != "-l":
                args += ["-l", str(library)]
            result = CliRunner().invoke(cli, ["--timeout", "2", *args], env=env)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert "Traceback" not in result.output, args
            ran += 1
    assert ran > 300


@pytest.mark.parametrize("answer", [b'{"data": 5, "not_found": "x"}', b'{"data": [{"type_line": 7, "produced_mana": 3}]}',
                                    b'[1, 2]', b'{"data": [], "not_found": [{"name": 5}]}'])
def test_wrong_types_in_scryfalls_answer_or_its_cache_are_no_traceback(answer, server, tmp_path, legacy_cache):
    server.routes["/cards/collection"] = Reply(answer)
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Steam Vents\n20 Mountain\n", encoding="utf-8")
    cache = tmp_path / "cache"
    import shutil

    shutil.copytree(legacy_cache, cache)
    (cache / "scryfall-lands.json").write_text('{"steam vents": {"type_line": 5, "produced_mana": "UR"}, '
                                                '"x": {"not_found": true, "checked": "yesterday"}}')
    result = Hhd(cache)("check", str(deck), "--all", "--scryfall-url", server.url)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
