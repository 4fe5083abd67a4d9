"""The last crash classes outside the table: libraries edited by hand, a sync killed between its writes,
wide-encoded and escape-laden deck files. Each is refused in one line or read right; nothing is a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hhdcli.cache import CARDS_FILE, STAGED_SYMBOLS_FILE, SYMBOLS_FILE, load_cache, read_meta
from support import LEGACY, PIPS, Hhd


def one_error(result) -> str:
    assert "Traceback" not in result.output and result.exit_code != 0, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def edited(library: Path, tmp_path: Path, edit) -> Path:
    document = json.loads(library.read_text())
    edit(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    return path


def unknown_card_with_numeric_image(document) -> None:
    entry = next(e for e in document["cards"] if e.get("card"))
    entry["id"], entry["card"]["image"] = "hlc-000000000000", 1e308


# --- libraries edited by hand ----------------------------------------------------------------------------

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
    assert said in one_error(result) and result.exit_code == 3


def test_a_library_of_millions_of_entries_is_refused_by_its_count_before_any_entry_is_read(synced, library, tmp_path):
    def millions(document):
        document["cards"], document["size"] = [{}] * 3_000_000, 3_000_000
    result = synced("show", "-l", str(edited(library, tmp_path, millions)))
    assert "cards lists 3000000 entries, a library has at most 10000" in one_error(result)


def test_a_refused_value_is_named_not_printed(synced, library, tmp_path):
    """An error never serialises what it refuses: a deep or huge value is named by its kind."""
    def deep_seed(document):
        document["seed"] = [[["x" * 10_000]]]
    error = one_error(synced("show", "-l", str(edited(library, tmp_path, deep_seed))))
    assert "seed is a list, expected text" in error and "xxx" not in error


# --- the cache: cards.json and pips.json change as one unit ------------------------------------------------

@pytest.fixture
def cache(tmp_path: Path) -> Path:
    cache_dir = tmp_path / "cache"
    assert Hhd(cache_dir)("sync", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    return cache_dir


def other_symbols(tmp_path: Path) -> Path:
    """The registry's table with one symbol more: a new sync's table, different by hash."""
    document = json.loads(PIPS.read_text())
    records = document["data"] if isinstance(document, dict) else document
    records.append({**records[0], "symbol": "{ZZ}", "english": "a symbol of a newer table"})
    path = tmp_path / "newer-pips.json"
    path.write_text(json.dumps({"data": records}))
    return path


def test_a_sync_killed_before_its_commit_leaves_the_old_pair(cache, tmp_path):
    """Killed after staging its symbol table, before writing cards.json: the old cards and table are used,
    and the next sync throws the staged table away."""
    old_symbols = (cache / SYMBOLS_FILE).read_bytes()
    (cache / STAGED_SYMBOLS_FILE).write_bytes(other_symbols(tmp_path).read_bytes())
    assert Hhd(cache)("status").exit_code == 0
    assert load_cache(cache).symbols == json.loads(old_symbols)["data"]
    assert Hhd(cache)("sync", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    assert not (cache / STAGED_SYMBOLS_FILE).exists() and (cache / SYMBOLS_FILE).read_bytes() == old_symbols


def test_a_sync_killed_after_its_commit_leaves_the_new_pair(cache, tmp_path):
    """Killed after writing cards.json, before moving its staged table in: the new cards are read with the
    staged table (never "different syncs"), and the next sync moves it into place."""
    newer = other_symbols(tmp_path)
    assert Hhd(cache)("sync", "--symbols-only", "--symbols", str(newer)).exit_code == 0
    (cache / SYMBOLS_FILE).rename(cache / STAGED_SYMBOLS_FILE)  # the state a kill between the two writes leaves
    (cache / SYMBOLS_FILE).write_bytes(PIPS.read_bytes())  # the previous sync's table, still in place
    assert Hhd(cache)("status").exit_code == 0
    assert any(r["symbol"] == "{ZZ}" for r in load_cache(cache).symbols)
    assert Hhd(cache)("sync", "--source", str(LEGACY), "--symbols", str(newer)).exit_code == 0
    assert not (cache / STAGED_SYMBOLS_FILE).exists()
    assert (cache / SYMBOLS_FILE).read_bytes() == newer.read_bytes()


def hhd_process(cache_dir: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hhdcli", "--cache-dir", str(cache_dir), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_kill_9_at_any_moment_of_a_sync_leaves_a_consistent_cache_and_the_next_sync_sweeps(cache, tmp_path):
    symbol_tables = [PIPS, other_symbols(tmp_path)]
    for attempt, delay in enumerate((0.25, 0.35, 0.45, 0.55, 0.7, 0.9)):
        sync = hhd_process(cache, "sync", "--force", "--source", str(LEGACY), "--symbols",
                           str(symbol_tables[attempt % 2]))
        time.sleep(delay)
        sync.send_signal(signal.SIGKILL)
        sync.wait()
        status = subprocess.run([sys.executable, "-m", "hhdcli", "--cache-dir", str(cache), "status"],
                                capture_output=True, text=True)
        assert status.returncode == 0, f"after a kill at {delay} s: {status.stderr}"
    assert Hhd(cache)("sync", "--force", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    left = [p.name for p in cache.iterdir() if p.name.endswith(".tmp") or p.name == STAGED_SYMBOLS_FILE]
    assert left == [] and read_meta(cache) is not None and (cache / CARDS_FILE).is_file()


def test_leftover_temp_files_of_dead_writers_are_swept_by_the_next_command_of_any_age(cache):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = cache / f".cards.json.{dead.stdout.strip()}.hhd-abc123.tmp"
    leftover.write_bytes(b"half a card list")
    os.utime(leftover, (1, 1))  # from 1970: age is no reason to keep or to skip it
    assert Hhd(cache)("status").exit_code == 0
    assert not leftover.exists()


# --- deck files: wide encodings, escape sequences -------------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_a_deck_in_utf16_or_utf32_with_a_bom_is_read_as_text(synced, library, tmp_path, encoding):
    """Windows PowerShell's `>` writes UTF-16 with a byte-order mark: it is a deck list, not a binary file."""
    text = "4 Lightning Bolt\n20 Mountain\n"
    raw = text.encode(encoding)
    if not encoding.endswith(("16", "32")):
        raw = ("\ufeff" + text).encode(encoding)
    deck = tmp_path / "deck.txt"
    deck.write_bytes(raw)
    result = synced("check", str(deck), "-l", str(library))
    assert result.exit_code == 0, result.output
    assert "24 main" in result.output and "deck colors: R" in result.output


def test_control_characters_from_a_deck_reach_the_terminal_escaped(synced, library, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("2 Fake \x1b]0;pwned\x07Card\n20 Mountain\n\x9b31mRed\n")
    result = synced("check", str(deck), "-l", str(library))
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "\x07" not in result.output and "\x9b" not in result.output
    assert "Fake \\x1b]0;pwned\\x07Card" in result.output
