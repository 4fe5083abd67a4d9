"""Land colors from Scryfall (hhdcli/scryfall.py): its back-off and its hostile answers."""

from __future__ import annotations

import shutil
import time

import pytest

from support import Hhd, Reply


def test_scryfall_asking_for_a_day_ends_the_check_with_when_to_come_back(server, tmp_path, legacy_cache):
    server.routes["/cards/collection"] = Reply(b"{}", 429, headers={"Retry-After": "86400"})
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Steam Vents\n20 Mountain\n", encoding="utf-8")
    cache = tmp_path / "cache"  # a copy: a land another test looked up would be answered from the shared cache
    shutil.copytree(legacy_cache, cache, ignore=shutil.ignore_patterns("scryfall-lands.json"))
    start = time.monotonic()
    result = Hhd(cache)("--timeout", "2", "check", str(deck), "--all", "--scryfall-url", server.url)
    elapsed = time.monotonic() - start
    assert "try again after" in result.output and "86400" not in result.output
    assert "Traceback" not in result.output and result.exit_code in (0, 4)
    assert elapsed < 2 * 2 + 30


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
