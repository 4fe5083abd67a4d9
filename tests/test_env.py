"""The run's environment (hhdcli/env.py): the card cache a command gets."""

from __future__ import annotations

from support import DEEP, Hhd, Reply


def test_the_first_run_falls_back_to_built_in_data_when_the_registry_sends_junk(server, tmp_path):
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "v", "cardCount": 2}')
    server.routes["/catalog.json"] = Reply(b'{"data": [{"name": "x", "type_line": 5, "set": "HLC"}, 7]}')
    server.routes["/Hellscube-Database.json"] = Reply(DEEP)
    result = Hhd(tmp_path / "cache", server.url)("cards", "--color", "R")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "offline: using the built-in Hellscube v1.2 data" in result.output
