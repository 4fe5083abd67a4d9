"""The card cache (hhdcli/cache.py) as readers see it while syncs run: a reader never reports a mix of two syncs'
files that is not there."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from support import EXCERPT, LEGACY, PIPS


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
