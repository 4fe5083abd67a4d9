"""The card cache (hhdcli/cache.py): atomic writes, one generation, leftovers swept.

The card cache (hhdcli/cache.py) as readers see it while syncs run: a reader never reports a mix of two syncs'
files that is not there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hhdcli.cache import CARDS_FILE, STAGED_SYMBOLS_FILE, SYMBOLS_FILE, load_cache, read_meta
from support import EXCERPT, LEGACY, PIPS, Hhd, one_line_error


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


def hhd_process(cache_dir: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hhdcli", "--cache-dir", str(cache_dir), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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


def test_readers_during_syncs_never_see_a_mix_that_is_not_there(tmp_path):
    """Syncs of two card lists with two symbol tables, one after another, while a reader reads the cache again and
    again without a pause: each read is one sync's pair (85 reads saw 3 mixes before)."""
    from hhdcli.cache import load_cache
    from hhdcli.registry import Syncer

    cache = tmp_path / "cache"
    other_pips = tmp_path / "pips.json"
    symbols = json.loads(PIPS.read_text(encoding="utf-8"))
    other_pips.write_text(json.dumps({"data": symbols["data"][:-1]}), encoding="utf-8")
    pairs = [(LEGACY, PIPS), (EXCERPT, other_pips)]
    Syncer(cache).run(source=str(LEGACY), symbols=str(PIPS), force=True)
    done = threading.Event()
    synced: list[int] = []

    def sync() -> None:
        try:
            for i in range(12):
                source, table = pairs[i % 2]
                Syncer(cache).run(source=str(source), symbols=str(table), force=True)
                synced.append(i)
        finally:
            done.set()

    syncing = threading.Thread(target=sync)
    syncing.start()
    counts, reads = set(), 0
    try:
        while not done.is_set():
            loaded = load_cache(cache)  # raises CacheError on a mix
            counts.add((loaded.meta.card_count, len(loaded.symbols)))
            reads += 1
    finally:
        syncing.join()
    assert len(synced) == 12 and reads > 12
    assert counts <= {(720, len(symbols["data"])), (105, len(symbols["data"]) - 1)}


def test_a_mix_that_stays_is_still_named_with_the_fix(tmp_path, legacy_cache):
    import shutil

    import pytest

    from hhdcli.cache import load_cache
    from hhdcli.errors import CacheError

    cache = tmp_path / "cache"
    shutil.copytree(legacy_cache, cache)
    symbols = json.loads((cache / "pips.json").read_text())
    (cache / "pips.json").write_text(json.dumps({"data": symbols["data"][:-1]}))
    with pytest.raises(CacheError, match="different syncs") as refused:
        load_cache(Path(cache))
    assert "hhd sync --force" in str(refused.value.hint)
