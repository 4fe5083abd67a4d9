"""Print production, measured as a print shop would: sheets that keep their marks printable, every card
readable, the checklist on one page from a browser, a calibration sheet whose offset reads back."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from hhdcli.cache import load_cache
from hhdcli.render.draw.calibration import calibration_crosses, calibration_pdf
from hhdcli.render.plan.sheet import MM, make_sheet
from hhdcli.render.scans.images import ImageSettings, prepare

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def render(pdf: Path, page: int, dpi: int) -> Image.Image:
    """One page as pixels, through poppler as a viewer would draw it."""
    out = subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", str(pdf)],
                         capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(out)).convert("L")


def darkest_in_frame(image: Image.Image, dpi: int, frame_mm: float) -> int:
    """The darkest pixel within frame_mm of any edge of the page."""
    w, h = image.size
    f = int(frame_mm / 25.4 * dpi)
    boxes = [(0, 0, w, f), (0, h - f, w, h), (0, 0, f, h), (w - f, 0, w, h)]
    return min(image.crop(box).getextrema()[0] for box in boxes)


# --- geometry --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("bleed", [0, 1, 2, 3])
def test_nine_cards_a_sheet_and_nothing_within_5_mm_of_the_edge(synced, library, tmp_path, paper, bleed):
    out = tmp_path / "p.pdf"
    result = synced("proxies", "-l", str(library), "--text-only", "--paper", paper, "--bleed", str(bleed),
                    "-o", str(out))
    assert result.exit_code == 0, result.output
    assert make_sheet(PAPERS[paper], bleed_mm=bleed).per_page == 9
    assert len(PdfReader(out).pages) == 11  # 97 cards, 9 a sheet
    page = render(out, 1, dpi=72)
    assert darkest_in_frame(page, 72, 4.6) > 245  # no mark, ruler, footer or bleed in the printer's margin


def test_a_wider_margin_is_kept_too(synced, library, tmp_path):
    out = tmp_path / "p.pdf"
    assert synced("proxies", "-l", str(library), "--text-only", "--margin", "8", "-o", str(out)).exit_code == 0
    assert darkest_in_frame(render(out, 1, dpi=72), 72, 7.6) > 245


def test_cut_marks_show_across_a_black_bleed(synced, library, tmp_path):
    out = tmp_path / "p.pdf"
    synced("proxies", "-l", str(library), "--text-only", "--bleed", "3", "-o", str(out))
    dpi = 300
    page = render(out, 1, dpi)
    sheet = make_sheet(PAPERS["a4"], bleed_mm=3)
    x0, y0, x1, y1 = sheet.grid
    cut_x = x0 + sheet.card_w  # the cut between the first and second column
    px = lambda x, y: page.getpixel((round(x / 72 * dpi), round((sheet.page_h - y) / 72 * dpi)))  # noqa: E731
    in_bleed = y1 + 1.5 * MM  # above the top row, inside its black bleed
    line = max(px(cut_x + d, in_bleed) for d in (-0.3, 0, 0.3))
    beside = px(cut_x + 4 * MM, in_bleed)
    assert beside < 60 and line > 150  # a light line on the black border, exactly on the cut


def test_a3_and_tabloid_hold_18(synced, tmp_path):
    for paper in ((297.0, 420.0), (279.4, 431.8)):
        sheet = make_sheet(paper)
        assert sheet.per_page == 18 and sheet.page_w > sheet.page_h  # turned to landscape


def test_full_cut_lines_cross_the_sheet(synced, library, tmp_path):
    out = tmp_path / "p.pdf"
    synced("proxies", "-l", str(library), "--text-only", "--cut-lines", "full", "-o", str(out))
    page = render(out, 1, dpi=150)
    sheet = make_sheet(PAPERS["a4"])
    x = sheet.grid[0] + sheet.card_w
    column = [page.getpixel((round(x / 72 * 150), row)) for row in range(60, 90)]  # in the top margin
    assert min(column) < 200


def test_white_scan_corners_are_filled_in_the_bleed():
    scan = Image.new("RGB", (744, 1039), (10, 10, 10))
    for i in range(30):  # a rounded corner scanned on white paper
        for j in range(30):
            if (30 - i) ** 2 + (30 - j) ** 2 > 30 ** 2:
                scan.putpixel((i, j), (255, 255, 255))
    data = io.BytesIO()
    scan.save(data, "PNG")
    out = Image.open(io.BytesIO(prepare(data.getvalue(), ImageSettings(dpi=300, bleed_mm=2))))
    assert max(out.getpixel((24, 24))) < 80 and max(out.getpixel((0, 0))) < 80  # no white notch


def test_a_print_size_jpeg_is_embedded_as_it_is():
    jpeg = io.BytesIO()
    Image.new("RGB", (744, 1039), (200, 30, 30)).save(jpeg, "JPEG", quality=90)
    assert prepare(jpeg.getvalue(), ImageSettings(dpi=300)) == jpeg.getvalue()
    small = io.BytesIO()
    Image.new("RGB", (372, 520), (200, 30, 30)).save(small, "JPEG")
    assert prepare(small.getvalue(), ImageSettings(dpi=300)) == small.getvalue()  # --dpi is a ceiling: not enlarged
    progressive = io.BytesIO()
    Image.new("L", (745, 1040), 90).save(progressive, "JPEG", progressive=True)  # a PDF holds these as they are
    assert prepare(progressive.getvalue(), ImageSettings(dpi=600)) == progressive.getvalue()
    cmyk = io.BytesIO()
    Image.new("CMYK", (745, 1040), (0, 0, 0, 255)).save(cmyk, "JPEG")
    assert Image.open(io.BytesIO(prepare(cmyk.getvalue(), ImageSettings(dpi=600)))).mode == "RGB"  # decoded
    large = io.BytesIO()
    Image.new("RGB", (1488, 2079), (200, 30, 30)).save(large, "JPEG")
    reduced = prepare(large.getvalue(), ImageSettings(dpi=300))
    assert Image.open(io.BytesIO(reduced)).size == (744, 1039)  # above it: reduced to it


def test_a_scan_within_two_percent_of_print_size_is_not_resampled_and_jpeg_tables_are_optimised_on_request():
    import random

    # noise (the same every run), made from random bytes at once rather than 775,000 pixels one by one
    scan = Image.frombytes("RGB", (745, 1040), random.Random(1).randbytes(745 * 1040 * 3))
    png = io.BytesIO()
    scan.save(png, "PNG")
    plain = prepare(png.getvalue(), ImageSettings(dpi=300))
    assert Image.open(io.BytesIO(plain)).size == (745, 1040)  # 0.1 % off 744 x 1039: the PDF scales it
    small = prepare(png.getvalue(), ImageSettings(dpi=300, small=True))
    assert len(small) < len(plain)  # --small: optimised Huffman tables
    above = Image.open(io.BytesIO(prepare(png.getvalue(), ImageSettings(dpi=600))))
    assert above.size == (745, 1040) and above.info["dpi"] == (300, 300)  # a 300-dpi scan is never enlarged
    below = prepare(png.getvalue(), ImageSettings(dpi=150))
    assert Image.open(io.BytesIO(below)).size == (372, 520)  # a larger one is reduced to --dpi


def test_a_scan_of_another_shape_is_cropped_at_its_own_resolution_never_enlarged():
    """A wide-bordered 800x1040 scan (too wide for a card) at --dpi 600 is cropped to the card's shape at the
    300 dpi its height gives, not resampled to 600 dpi."""
    wide = io.BytesIO()
    Image.new("RGB", (800, 1040), (10, 120, 40)).save(wide, "JPEG")
    out = Image.open(io.BytesIO(prepare(wide.getvalue(), ImageSettings(dpi=600))))
    assert out.size == (745, 1040)  # 63 x 88 mm at the 300.2 dpi of its height


# --- every card readable ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def whole_set(legacy_cache, tmp_path_factory) -> tuple[Path, list]:
    from support import Hhd

    out = tmp_path_factory.mktemp("whole") / "all.pdf"
    result = Hhd(legacy_cache)("proxies", "--all", "--text-only", "-o", str(out))
    assert result.exit_code == 0, result.output
    return out, load_cache(legacy_cache).cards


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_all_720_cards_print_with_every_full_name_and_type_line(whole_set):
    pdf, cards = whole_set
    text = squeeze(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout)
    printed = [(c, f) for c in cards for f in c.faces if f.type_line or f.oracle_text]  # not a stray cost slot
    # a face of the legacy sheet with no name of its own ("Name (face 2)") gets no name line
    named = [(c, f) for c, f in printed if f.name and not f.name.startswith(f"{c.name} (face ")]
    missing = [c.name for c, face in named if squeeze(face.name) not in text]
    assert missing == []
    missing_types = [c.name for c, face in printed if face.type_line and squeeze(face.type_line) not in text]
    assert missing_types == []
    assert "{" not in text and "}" not in text  # every mana symbol drawn, none left in braces


def test_no_character_is_smaller_than_6_pt(whole_set):
    pdf, _ = whole_set
    sizes: list[float] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor signature
        if text.strip():
            scale = (tm[2] ** 2 + tm[3] ** 2) ** 0.5 * (cm[2] ** 2 + cm[3] ** 2) ** 0.5
            sizes.append(size * scale)

    reader = PdfReader(pdf)
    for page in reader.pages[:12]:  # every kind of card appears in the first sheets, sorted by name
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 5.99


def test_the_ghost_of_gideon_shows_its_loyalty(synced, tmp_path):
    out = tmp_path / "g.pdf"
    synced("proxies", "--cards", "The Ghost of Gideon", "--text-only", "-o", str(out))
    text = PdfReader(out).pages[0].extract_text()
    assert "◊ 3" in text and "2/0" not in text


# --- the checklist from a browser ------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_the_html_checklist_prints_on_one_page(synced, library, tmp_path, paper, browser):
    """Printed by Chromium as its print dialog would (the page's own @page size, no header or footer), through
    the worker's one browser (DevTools' Page.printToPDF) rather than a Chromium started per paper."""
    import base64

    html = tmp_path / "c.html"
    assert synced("checklist", "-l", str(library), "-o", str(html)).exit_code == 0
    sized = tmp_path / f"c-{paper}.html"
    sized.write_text(html.read_text(encoding="utf-8").replace("</head>", f"<style>@page {{ size: {paper}; }}</style></head>"),
                     encoding="utf-8")
    pdf = tmp_path / f"c-{paper}.pdf"
    browser.get(sized.as_uri())
    printed = browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "displayHeaderFooter": False})
    pdf.write_bytes(base64.b64decode(printed["data"]))
    reader = PdfReader(pdf)
    width_mm = float(reader.pages[0].mediabox.width) / 72 * 25.4
    assert width_mm == pytest.approx({"A4": 210, "letter": 215.9}[paper], abs=1)  # the page's own paper
    assert len(reader.pages) == 1
    import unicodedata

    text = squeeze(unicodedata.normalize("NFKC", reader.pages[0].extract_text()))  # Chromium sets ﬀ, ﬂ ligatures
    assert "Total:97cards" in text
    from html import unescape

    names = [unescape(line.split("</span>")[0]) for line in html.read_text(encoding="utf-8").split('<span class="name">')[1:]]
    assert [name for name in names if squeeze(name) not in text] == []  # whole names: wrapped, never cut
    assert re.search(r"×\d", text)  # the basics' counts are there


# --- calibration -----------------------------------------------------------------------------------------


def cross_centre(image: Image.Image, near: tuple[float, float], dpi: int, page_h: float) -> tuple[float, float]:
    """The centre of the cross drawn near a point (in PDF points), found from its dark pixels."""
    cx, cy = near[0] / 72 * dpi, (page_h - near[1]) / 72 * dpi
    r = int(8 / 25.4 * dpi)
    box = image.crop((int(cx - r), int(cy - r), int(cx + r), int(cy + r)))
    rows = [sum(255 - box.getpixel((x, y)) for x in range(box.width)) for y in range(box.height)]
    cols = [sum(255 - box.getpixel((x, y)) for y in range(box.height)) for x in range(box.width)]
    y = max(range(len(rows)), key=rows.__getitem__)
    x = max(range(len(cols)), key=cols.__getitem__)
    return (int(cx - r) + x) / dpi * 72, page_h - (int(cy - r) + y) / dpi * 72


def test_an_offset_printed_on_the_calibration_sheet_reads_back(tmp_path):
    """A printer that shifts the back by (1.5, -1) mm: measure it as the sheet says, pass the opposite, and
    the crosses line up again."""
    error = (1.5, -1.0)
    pdf = tmp_path / "cal.pdf"
    pdf.write_bytes(calibration_pdf(PAPERS["a4"], back_offset_mm=error))
    size = (210 * MM, 297 * MM)
    dpi = 200
    back = render(pdf, 2, dpi)
    ideal = calibration_crosses(size, "back")[0]
    found = cross_centre(back, (ideal[0] + error[0] * MM, ideal[1] + error[1] * MM), dpi, size[1])
    measured = ((found[0] - ideal[0]) / MM, (found[1] - ideal[1]) / MM)  # right and up, as the sheet asks
    assert measured == pytest.approx(error, abs=0.2)
    corrected = (error[0] - measured[0], error[1] - measured[1])  # "pass the opposite", on top of the error
    assert corrected == pytest.approx((0, 0), abs=0.2)
    text = PdfReader(pdf).pages[1].extract_text()
    assert "--back-offset -X,-Y" in text and "arrow B" in text
    front = PdfReader(pdf).pages[0].extract_text()
    assert "F" in front and "100 mm" in front


def test_with_bleed_every_inner_card_keeps_its_whole_frame(synced, library, tmp_path):
    """Letter with 3 mm of bleed: the cards share cut lines, and no card's bleed covers its neighbour's frame:
    2.1 mm inside each card's right and bottom cut lines is its own frame color, as inside its left and top."""
    out = tmp_path / "bleed.pdf"
    assert synced("proxies", "-l", str(library), "-o", str(out), "--paper", "letter", "--bleed", "3",
                  "--text-only").exit_code == 0
    dpi = 150
    image = render(out, 1, dpi).convert("RGB")
    sheet = make_sheet((215.9, 279.4), 0, 3, 5)
    assert sheet.gap == 0 and sheet.cols == 3  # shared cut lines: the case that painted over neighbours
    scale, inset = dpi / 72, 2.1 * MM * dpi / 72  # past the black border (1.2 mm), inside the frame

    def color(px: float, py: float) -> tuple[int, ...]:
        return image.getpixel((round(px), round(py)))

    def near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return all(abs(p - q) <= 24 for p, q in zip(a, b, strict=True))

    for index in range(sheet.per_page):
        row, col = divmod(index, sheet.cols)
        x, y = sheet.slot(index)
        left, right = x * scale, (x + sheet.card_w) * scale
        top, bottom = image.height - (y + sheet.card_h) * scale, image.height - y * scale
        mid_y = top + (bottom - top) * 0.6
        if col < sheet.cols - 1:  # a neighbour on the right, drawn after it
            assert near(color(left + inset, mid_y), color(right - inset, mid_y)), f"card {index + 1}: right"
        if row < sheet.rows - 1:  # a neighbour below: its bleed once covered this card's bottom strip
            assert near(color(right - inset, mid_y), color(right - inset, bottom - inset)), f"card {index + 1}: bottom"


def test_every_pdf_embeds_every_font_it_names(synced, library, tmp_path):
    """Print-shop preflight flags a font a PDF names without embedding it (ReportLab's default Helvetica)."""
    made = {"proxies.pdf": ["proxies", "-l", str(library), "--text-only"], "checklist.pdf": ["checklist", "-l", str(library)],
            "rules.pdf": ["rules"], "rules-ru.pdf": ["rules", "--lang", "ru"], "cal.pdf": ["proxies", "--calibration"]}
    for name, args in made.items():
        assert synced(*args, "-o", str(tmp_path / name)).exit_code == 0
        listing = subprocess.run(["pdffonts", str(tmp_path / name)], capture_output=True, text=True, check=True).stdout
        fonts = listing.splitlines()[2:]
        assert fonts and all(line.split()[-5] == "yes" for line in fonts), (name, listing)


def _text_runs(pdf: Path) -> list[str]:
    """Every run of text the PDF draws, as pypdf reads it back (a glyph the font lacks reads as NUL)."""
    runs: list[str] = []
    for page in PdfReader(pdf).pages:
        page.extract_text(visitor_text=lambda text, *_: runs.append(text))
    return runs


def test_a_latin_only_font_prints_no_missing_glyph_box_in_the_russian_documents(synced, library, tmp_path):
    """With --font a Latin-only font (ReportLab's Vera), the Russian rules booklet and checklist print "?" for
    the letters it lacks and a plain space for the narrow no-break space of a Russian date, never a box (the
    text layer's NUL); a Phyrexian cost symbol's Φ is a P."""
    import reportlab

    vera = str(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf")
    made = {"booklet.pdf": ["rules", "-l", str(library)], "checklist.pdf": ["checklist", "-l", str(library), "--with-rules"]}
    for name, args in made.items():
        assert synced("--lang", "ru", *args, "--font", vera, "-o", str(tmp_path / name)).exit_code == 0
        runs = _text_runs(tmp_path / name)
        boxes = [run for run in runs if "\x00" in run]
        assert boxes == [], (name, boxes[:5])
        assert any("?" in run for run in runs)  # the Cyrillic did go through the Latin font


def words(text: str) -> list[str]:
    """The words of rules text as the PDF's text layer holds them: mana symbols are drawn, not written."""
    return re.findall(r"[^\W_]+", re.sub(r"\{[^}]*\}", " ", text))


@pytest.fixture(scope="module")
def excerpt_set(excerpt_cache, tmp_path_factory) -> tuple[Path, list]:
    from support import Hhd

    out = tmp_path_factory.mktemp("excerpt") / "all.pdf"
    assert Hhd(excerpt_cache)("proxies", "--all", "--text-only", "-o", str(out)).exit_code == 0
    return out, load_cache(excerpt_cache).cards


@pytest.mark.parametrize("which", ["whole_set", "excerpt_set"])
def test_every_word_of_every_face_is_printed(which, request):
    """The 720 built-in cards and the current-format records: a card too long for one proxy continues on a
    second (1/2, 2/2) rather than losing words; nothing is smaller than 6 pt."""
    pdf, cards = request.getfixturevalue(which)
    text = squeeze(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout)
    lost = {c.name: w for c in cards for f in c.faces if f.type_line or f.oracle_text
            for w in words(f.oracle_text) if w not in text}
    assert lost == {}
    assert "…" not in text  # no text box ends cut short
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    reader = PdfReader(pdf)
    sizes = {float(ops[1]) for page in reader.pages[:40]
             for ops, op in ContentStream(page.get_contents(), reader).operations if op == b"Tf"}
    assert min(sizes) >= 6


def test_hells_cube_prints_whole_over_two_proxies(excerpt_set):
    pdf, _ = excerpt_set
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "proxy · 1/2" in text and "proxy · 2/2" in text


@pytest.mark.parametrize("paper, slots", [("a4", 9), ("a3", 18), ("letter", 9)])
def test_the_footer_names_every_slot_and_cut_lines_stop_short_of_it(synced, library, tmp_path, paper, slots):
    from hhdcli.render.plan.sheet import FOOTER_MM, full_cut_lines, furniture_on_sides, parse_paper, printable

    out = tmp_path / "p.pdf"  # a library's 97 cards fill the first sheet of every paper
    assert synced("proxies", "-l", str(library), "--text-only", "--paper", paper, "--cut-lines", "full", "-o",
                  str(out)).exit_code == 0
    from pypdf import PdfReader

    first = " ".join(PdfReader(out).pages[0].extract_text().split())
    assert re.search(rf"\b{slots}\b", first) and "…" not in first  # the last slot's number, nothing cut
    sheet = make_sheet(parse_paper(paper), 0, 0, 5)
    x0, y0, x1, y1 = printable(sheet)
    band = FOOTER_MM * MM
    for ax, ay, bx, by in full_cut_lines(sheet):
        if furniture_on_sides(sheet):
            assert max(ax, bx) <= x1 - band + 0.01
        else:
            assert min(ay, by) >= y0 + band - 0.01
