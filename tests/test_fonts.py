"""Fonts and text fitting (hhdcli/render/draw/fonts.py)."""

from __future__ import annotations

import time

from hhdcli.render.draw.fonts import shorten


def test_shortening_text_is_linear():
    from hhdcli.render.draw.fonts import load_fonts

    fonts = load_fonts()
    start = time.monotonic()
    cut = shorten("a very long footer " * 5_000, fonts.regular, 6, 500)
    assert time.monotonic() - start < 0.5 and cut.endswith("…") and len(cut) < 200
