"""`hhd serve`'s options: --offline (and HHD_OFFLINE) asks no registry at start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from tablekit import free_port

from support import LoopbackServer


@pytest.mark.parametrize("offline", [["--offline"], []])
def test_hhd_serve_offline_asks_no_registry_at_its_first_start(tmp_path, offline):
    registry = LoopbackServer()
    env = {**os.environ, "HHD_CACHE_DIR": str(tmp_path / "cache"), "HHD_REGISTRY_URL": registry.url,
           "HHD_TABLE_PORT": str(free_port()), "HHD_LANG": "en", **({} if offline else {"HHD_OFFLINE": "1"})}
    process = subprocess.Popen([sys.executable, "-m", "hhdcli", "serve", "--dir", str(tmp_path / "tables"),
                                *offline], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().startswith("open http://")  # type: ignore[union-attr]
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=20)
        registry.close()
    assert registry.hits == [] and "built-in Hellscube" in err and "syncing" not in err
