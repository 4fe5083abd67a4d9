"""Sheet layout (hhdcli/render/plan/sheet.py): paper sizes and offsets."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("args", [["--paper", "99999x99999mm"], ["--back-offset", "100,100"]])
def test_paper_and_offsets_a_printer_cannot_take_are_refused(synced, library, tmp_path, args):
    result = synced("proxies", "-l", str(library), "--text-only", "-o", str(tmp_path / "p.pdf"), *args)
    assert result.exit_code == 2 and not (tmp_path / "p.pdf").exists()
