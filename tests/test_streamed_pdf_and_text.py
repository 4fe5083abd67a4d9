"""Proxy sheets written a scan at a time (splice.py), and rules text laid out by hhd's own line breaker."""

from __future__ import annotations

import io
import subprocess

import pytest
from PIL import Image
from pypdf import PdfReader

from hhdcli.render.draw.fonts import load_fonts
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.draw.textbox import break_lines, paragraphs
from hhdcli.render.scans.splice import StandIns, jpeg_size, splice


def test_a_damaged_jpeg_header_is_an_error_not_a_loop(tmp_path):
    from hhdcli.render.scans.splice import SpliceError

    path = tmp_path / "bad.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x00" + b"\x00" * 10 + b"\xff\xd9")  # a segment of length 0
    with pytest.raises(SpliceError):
        jpeg_size(path)


@pytest.mark.parametrize("mode, progressive", [("L", False), ("RGB", False), ("RGB", True), ("CMYK", False)])
def test_a_jpegs_size_and_colors_are_read_from_its_frame_header(tmp_path, mode, progressive):
    path = tmp_path / "scan.jpg"
    Image.new(mode, (321, 123)).save(path, "JPEG", progressive=progressive)
    assert jpeg_size(path) == (321, 123, len(mode))


def test_scans_replace_their_stand_ins_and_show_on_the_page(tmp_path):
    colors = [(200, 30, 30), (30, 160, 40), (40, 60, 200)]
    scans = []
    for i, color in enumerate(colors):
        scans.append(tmp_path / f"{i}.jpg")
        Image.new("RGB", (372, 520), color).save(scans[-1], "JPEG", quality=95)
    stand_ins = StandIns()

    def draw(canvas) -> None:
        for i, scan in enumerate([*scans, scans[0]]):  # the first scan twice: one image in the PDF
            canvas.drawImage(stand_ins.reader(str(scan)), 40 + i * 130, 400, 120, 168)
        canvas.showPage()

    layout = make_pdf((595, 842), "scans", draw)
    out = tmp_path / "sheet.pdf"
    with out.open("wb") as handle:
        written = splice(layout, stand_ins.paths, handle)
    data = out.read_bytes()
    assert written == len(data) and len(stand_ins.paths) == 3
    assert all(scan.read_bytes() in data for scan in scans) and b"hhd-scan:" not in data
    assert len(PdfReader(out, strict=True).pages[0].images) == 3
    subprocess.run(["pdftoppm", "-r", "20", "-png", "-singlefile", str(out), str(tmp_path / "page")], check=True)
    page = Image.open(tmp_path / "page.png").convert("RGB")
    scale = page.width / 595
    for i, color in enumerate([*colors, colors[0]]):
        x, y = (40 + i * 130 + 60) * scale, (842 - 400 - 84) * scale
        assert all(abs(a - b) < 12 for a, b in zip(page.getpixel((int(x), int(y))), color, strict=True))


def test_rules_text_breaks_at_spaces_and_keeps_its_line_breaks(synced_table):
    fonts = load_fonts()
    words = paragraphs("Draw a card.\nScry {2}{U}, then discard a card.", synced_table, fonts)
    box = break_lines(words, 8.0, 60.0, fonts)
    lines = [" ".join("".join(p.text for p in w.pieces) for w in line.words) for line in box.lines]
    assert lines[0] == "Draw a card." and len(lines) > 2 and all("\u00a0" not in line.split()[0] for line in lines[:1])
    assert "".join(lines).replace(" ", "").replace("\u00a0", "") == "Drawacard.Scry2U,thendiscardacard."
    assert box.height == pytest.approx(len(lines) * 8.0 * 1.16)


def test_a_layout_scales_with_its_size(synced_table):
    """Widths grow with the size, so a text at twice the size in twice the width breaks the same way."""
    fonts = load_fonts()
    words = paragraphs("Each player sacrifices a creature, then each player draws a card for each creature "
                       "sacrificed this way.", synced_table, fonts)
    assert break_lines(words, 6.0, 80.0, fonts).lines == break_lines(words, 12.0, 160.0, fonts).lines


def test_a_word_wider_than_the_line_is_split_between_characters(synced_table):
    fonts = load_fonts()
    box = break_lines(paragraphs("x" * 200, synced_table, fonts), 8.0, 50.0, fonts)
    assert len(box.lines) > 3 and "".join(p.text for line in box.lines for w in line.words for p in w.pieces) == "x" * 200


@pytest.fixture
def synced_table(legacy_cache):
    from hhdcli.cache import load_cache
    from hhdcli.mana import SymbolTable

    return SymbolTable.from_records(load_cache(legacy_cache).symbols)



def test_each_rules_text_is_laid_out_once_per_size_tried(legacy_cache, synced_table, monkeypatch):
    """Measuring, splitting over proxies and drawing share one layout per (text, size, width)."""
    from collections import Counter

    import hhdcli.render.draw.measure as measure
    from hhdcli.cache import load_cache
    from hhdcli.render.proxies import ProxyOptions, render_proxies

    seen: Counter = Counter()
    real = measure.break_lines

    def counted(words, size, width, fonts):  # a spy: the real layout, counted
        seen[(words, size, width)] += 1
        return real(words, size, width, fonts)

    monkeypatch.setattr(measure, "break_lines", counted)
    cards = sorted(load_cache(legacy_cache).cards, key=lambda c: c.name)[:120]
    pdf, report = render_proxies(cards, synced_table, ProxyOptions(text_only=True))
    assert report.proxies >= 120 and pdf.startswith(b"%PDF")
    assert seen and max(seen.values()) == 1


def test_a_scan_damaged_before_it_is_copied_is_a_cache_error_not_a_broken_pdf(tmp_path):
    from hhdcli.errors import CacheError
    from hhdcli.render.proxies import ProxyPdf, ProxyReport

    scan = tmp_path / "0.jpg"
    Image.new("RGB", (372, 520), (9, 9, 9)).save(scan, "JPEG")
    stand_ins = StandIns()

    def draw(canvas) -> None:
        canvas.drawImage(stand_ins.reader(str(scan)), 40, 400, 120, 168)
        canvas.showPage()

    pdf = ProxyPdf(make_pdf((595, 842), "one", draw), stand_ins.paths, ProxyReport())
    scan.write_bytes(b"\xff\xd8\xff\xe0 not a frame at all \xff\xd9")  # a JPEG's ends, nothing in between
    with pytest.raises(CacheError, match="damaged"):
        pdf.write(io.BytesIO())
