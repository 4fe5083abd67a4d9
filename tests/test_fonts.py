"""Fonts and text fitting (hhdcli/render/draw/fonts.py).

--font (hhdcli/render/draw/fonts.py): a font that parses but cannot be embedded is refused before any work, in one
line naming it, by every command that prints a PDF."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest

from hhdcli.render.draw.fonts import shorten


def test_shortening_text_is_linear():
    from hhdcli.render.draw.fonts import load_fonts

    fonts = load_fonts()
    start = time.monotonic()
    cut = shorten("a very long footer " * 5_000, fonts.regular, 6, 500)
    assert time.monotonic() - start < 0.5 and cut.endswith("…") and len(cut) < 200

SHIPPED = Path(__file__).resolve().parents[1] / "hhdcli" / "fonts" / "DejaVuSansCondensed.ttf"


def damaged_font(folder: Path) -> Path:
    """DejaVu with its first glyph outlines (4 KB of the glyf table) overwritten: the tables parse, the glyphs
    do not. (A whole glyf table of 0xff is refused too, but reportlab walks it for ~10 s first.)"""
    data = bytearray(SHIPPED.read_bytes())
    for entry in range(struct.unpack(">H", data[4:6])[0]):
        tag, _sum, offset, length = struct.unpack(">4sIII", data[12 + 16 * entry:28 + 16 * entry])
        if tag == b"glyf":
            data[offset:offset + 4096] = b"\xff" * 4096
    path = folder / "damaged.ttf"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("command", [["rules", "-o", "out.pdf"], ["checklist", "-o", "out.pdf"],
                                     ["proxies", "--text-only", "-o", "out.pdf"]])
def test_a_damaged_font_is_one_line_naming_it_and_no_pdf(synced, library, tmp_path, command):
    font = damaged_font(tmp_path)
    output = tmp_path / "out.pdf"
    args = [part.replace("out.pdf", str(output)) for part in command]
    result = synced(*args, *(["-l", str(library)] if command[0] != "rules" else []), "--font", str(font))
    assert result.exit_code == 2, result.output
    assert f"error: --font {font}: not a usable TrueType font" in result.stderr
    assert "Traceback" not in result.output and not output.exists()


def test_the_shipped_font_passes_the_same_check(tmp_path):
    from hhdcli.render.draw.fonts import load_fonts

    copy = tmp_path / "copy.ttf"
    copy.write_bytes(SHIPPED.read_bytes())
    assert load_fonts(str(copy)).unicode
