"""`hhd proxies`: sheets that print true to size, with images from a loopback server or drawn text."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from hhdcli.render.draw.cardface import FRAME
from hhdcli.render.plan.sheet import MM, crop_marks, make_sheet
from support import CURRENT_SAMPLE, Hhd, Reply

CARD = (63 * MM, 88 * MM)
A4 = (595.2756, 841.8898)


def _jpeg(color, size=(745, 1040)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "JPEG", quality=90)
    return out.getvalue()


def _png(color) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (600, 840), color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(scope="session")
def bomb_png() -> bytes:
    """12,000 x 12,000 pixels: over Pillow's decompression-bomb limit, yet a small file."""
    out = io.BytesIO()
    Image.new("1", (12000, 12000)).save(out, "PNG")
    return out.getvalue()


BAD_IMAGES = {10: "HTTP 404", 11: "timed out", 12: "not an image", 13: "decompression bomb", 14: "larger than 20 MB"}


@pytest.fixture
def image_registry(server, tmp_path, bomb_png) -> Hhd:
    """A cache of the 16 current-format sample cards whose images live on the loopback server."""
    document = json.loads(CURRENT_SAMPLE.read_text())
    hlc = [r for r in document["data"] if r["set"].startswith("HLC")]
    for i, record in enumerate(hlc):
        record["image"] = f"{server.url}/img/{i if i != 15 else 0}.jpg"  # card 15 shares card 0's image
        record.pop("rotated_image", None)
        if i < 10:
            server.routes[f"/img/{i}.jpg"] = Reply((_jpeg if i % 2 else _png)((20 * i, 100, 200 - 10 * i)),
                                                   content_type="image/jpeg")
    server.routes["/img/10.jpg"] = Reply(b"gone", 404, "text/plain")
    server.routes["/img/11.jpg"] = Reply(_jpeg((0, 0, 0)), delay=3.0)
    server.routes["/img/12.jpg"] = Reply(b"<html>this is not an image</html>", content_type="text/html")
    server.routes["/img/13.jpg"] = Reply(bomb_png, content_type="image/png")
    server.routes["/img/14.jpg"] = Reply(b"\0" * (21 * 1024 * 1024), content_type="image/jpeg")
    source = tmp_path / "catalog.json"
    source.write_text(json.dumps({"data": hlc}))
    hhd = Hhd(tmp_path / "cache")
    assert hhd("sync", "--source", str(source), "--symbols", str(CURRENT_SAMPLE.parent / "pips.json")).exit_code == 0
    return hhd


def _library(hhd: Hhd, tmp_path: Path, seed: str = "ember-tide-42") -> Path:
    path = tmp_path / "lib.json"
    assert hhd("generate", "--seed", seed, "-o", str(path)).exit_code == 0
    return path


def _operations(reader: PdfReader, page: int):
    return ContentStream(reader.pages[page].get_contents(), reader).operations


def _image_placements(reader: PdfReader, page: int) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) of every XObject drawn on a page: `w 0 0 h x y cm /Name Do`."""
    placements, matrix = [], None
    for operands, operator in _operations(reader, page):
        if operator == b"cm":
            matrix = [float(v) for v in operands]
        elif operator == b"Do" and matrix:
            placements.append((matrix[4], matrix[5], matrix[0], matrix[3]))
    return placements


def _rectangles(reader: PdfReader, page: int) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) for v in operands) for operands, op in _operations(reader, page) if op == b"re"]


def _render(pdf: Path, page: int, dpi: int = 72) -> Image.Image:
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(prefix)], check=True)
    return Image.open(f"{prefix}.png").convert("RGB")


def _pixel(image: Image.Image, x_pt: float, y_pt: float, page_h: float = A4[1]) -> tuple[int, int, int]:
    scale = image.width / A4[0]
    return image.getpixel((round(x_pt * scale), round((page_h - y_pt) * scale)))


# --- text proxies of a whole library --------------------------------------------------------------


def test_a_97_card_library_makes_11_a4_pages_of_exact_cards(synced, tmp_path):
    library = _library(synced, tmp_path)
    out = tmp_path / "p.pdf"
    result = synced("proxies", str(library), "-o", str(out), "--text-only")
    assert result.exit_code == 0, result.output
    assert "11 pages, 97 proxies" in result.output
    reader = PdfReader(out)
    assert len(reader.pages) == 11
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(A4, abs=0.01)
    cards = [r for r in _rectangles(reader, 0) if r[2:] == pytest.approx(CARD, abs=0.01)]
    sheet = make_sheet((210, 297))
    # card-sized rectangles (each card's outline, and its clip when there is no bleed) sit on the 9 slots
    assert sorted({(round(x, 2), round(y, 2)) for x, y, _, _ in cards}) == sorted(
        (round(sheet.slot(i)[0], 2), round(sheet.slot(i)[1], 2)) for i in range(9))
    assert reader.viewer_preferences["/PrintScaling"] == "/None"


def test_text_proxy_names_are_in_the_text_layer_and_footer(synced, tmp_path):
    library = _library(synced, tmp_path)
    out = tmp_path / "p.pdf"
    synced("proxies", str(library), "-o", str(out), "--text-only")
    reader = PdfReader(out)
    entries = json.loads(library.read_text())["cards"]
    text = "\n".join(page.extract_text() for page in reader.pages)
    for entry in entries:
        assert entry["name"] in text
    first = reader.pages[0].extract_text()
    assert "page 1/11" in first and "ember-tide-42" in first and "should measure 50 mm" in first


def test_same_inputs_give_identical_pdfs(synced, tmp_path):
    library = _library(synced, tmp_path)
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    synced("proxies", str(library), "-o", str(a), "--text-only", "--backs", "red")
    synced("proxies", str(library), "-o", str(b), "--text-only", "--backs", "red")
    assert a.read_bytes() == b.read_bytes()


def test_crop_marks_are_dark_and_never_over_a_card(synced, tmp_path):
    for gap, bleed in ((0, 0), (2, 1)):
        sheet = make_sheet((210, 297), gap, bleed)
        marks = crop_marks(sheet)
        cuts = (2 * 3 if gap else 3 + 1) * 2  # vertical and horizontal cut lines
        assert len(marks) == cuts * 2  # a mark at both ends of every cut line
        x0, y0, x1, y1 = sheet.grid
        b = sheet.bleed
        for mx0, my0, mx1, my1 in marks:  # every mark lies wholly outside the cards and their bleed
            outside = (min(my0, my1) >= y1 + b or max(my0, my1) <= y0 - b
                       or min(mx0, mx1) >= x1 + b or max(mx0, mx1) <= x0 - b)
            assert outside
    library = _library(synced, tmp_path)
    out = tmp_path / "p.pdf"
    synced("proxies", str(library), "-o", str(out), "--text-only")
    page = _render(out, 1, dpi=150)
    x0, y0, x1, y1 = make_sheet((210, 297)).grid
    assert max(_pixel(page, x0, y1 + 3 * MM)) < 110  # a mark above the first cut line is visibly dark
    assert min(_pixel(page, x0 + 30 * MM, y1 + 3 * MM)) > 240  # and nothing between the marks


def test_frame_color_and_red_backs_by_pixel(synced, tmp_path):
    out = tmp_path / "p.pdf"
    result = synced("proxies", "--cards", "Hasty Bolt", "--cards", "Avatar of woah", "-o", str(out), "--backs", "red",
                    "--text-only")
    assert result.exit_code == 0, result.output
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    sheet = make_sheet((210, 297))
    front, back = _render(out, 1), _render(out, 2)
    for slot, frame in ((0, FRAME["R"]), (1, FRAME["P"])):
        x, y = sheet.slot(slot)
        r, g, b = _pixel(front, x + 2.2 * MM, y + 44 * MM)  # the frame between the border and the text box
        assert (r, g, b) == pytest.approx(tuple(v * 255 for v in frame), abs=12)
    # long-edge duplex: the back of slot 0 (top left) sits top right
    x, y = sheet.slot(2)
    r, g, b = _pixel(back, x + 10 * MM, y + 20 * MM)
    assert r > 130 and g < 40 and b < 40
    x, y = sheet.slot(0)
    assert min(_pixel(back, x + 10 * MM, y + 20 * MM)) > 240  # no third card, so no back there


def test_back_offset_moves_the_backs(synced, tmp_path):
    out = tmp_path / "p.pdf"
    synced("proxies", "--cards", "Hasty Bolt", "-o", str(out), "--backs", "red", "--back-offset", "2,-1", "--text-only")
    reader = PdfReader(out)
    sheet = make_sheet((210, 297))
    x, y = sheet.slot(0, mirrored=True)
    backs = [r for r in _rectangles(reader, 1) if r[2:] == pytest.approx(CARD, abs=0.01)]
    assert backs and backs[0][:2] == pytest.approx((x + 2 * MM, y - 1 * MM), abs=0.01)


@pytest.mark.parametrize("paper, size", [("letter", (612, 792)), ("a3", (1190.55, 841.89)), ("200x300mm", (566.93, 850.39))])
def test_paper_sizes(synced, tmp_path, paper, size):
    out = tmp_path / "p.pdf"
    assert synced("proxies", "--cards", "Hasty Bolt", "-o", str(out), "--paper", paper, "--text-only").exit_code == 0
    box = PdfReader(out).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(size, abs=0.05)


def test_letter_still_holds_3_by_3(synced, tmp_path):
    assert make_sheet((215.9, 279.4)).per_page == 9
    bad = synced("proxies", "--cards", "Hasty Bolt", "--paper", "80x80mm", "-o", str(tmp_path / "x.pdf"))
    assert bad.exit_code == 2 and "does not fit" in bad.output


def test_bleed_widens_the_art_and_the_gap_when_nine_still_fit(synced, tmp_path):
    out = tmp_path / "p.pdf"
    synced("proxies", "--cards", "Hasty Bolt", "-o", str(out), "--bleed", "1", "--text-only")
    reader = PdfReader(out)
    widened = [r for r in _rectangles(reader, 0) if r[2:] == pytest.approx((65 * MM, 90 * MM), abs=0.01)]
    assert widened
    trim = reader.pages[0].trimbox
    assert float(trim.width) == pytest.approx(3 * 63 * MM + 2 * 2 * MM, abs=0.01)  # a 2 mm gap between cards
    shared = make_sheet((210, 297), bleed_mm=2)  # 2 mm apart would not fit 3 across: cards share cut lines
    assert shared.per_page == 9 and shared.gap == 0


# --- images from the loopback server ----------------------------------------------------------------


def test_images_are_fetched_once_embedded_once_and_failures_become_text(image_registry, server, tmp_path):
    library = _library(image_registry, tmp_path)
    entries = json.loads(library.read_text())["cards"]
    out = tmp_path / "p.pdf"
    result = image_registry("proxies", "--cards", "Whale Visions", "--cards", "Rock, Paper, Scissors",
                            *[a for i in range(1, 15) for a in ("--cards", _name(i))], "-o", str(out))
    assert result.exit_code == 0, result.output
    for reason in BAD_IMAGES.values():
        assert reason in result.output
    reader = PdfReader(out)
    assert len(_distinct_images(reader)) == 10  # cards 0 and 15 share one image
    assert server.count("/img/0.jpg") == 1
    placements = _image_placements(reader, 0)
    assert any((w, h) == pytest.approx(CARD, abs=0.01) for _, _, w, h in placements)
    text = reader.pages[1].extract_text()
    assert _name(10) in text  # the 404 card is a text proxy with its name in the text layer
    assert entries  # the library itself was generated from the same cache


def test_scans_are_copied_into_the_pdf_byte_for_byte_with_exact_cross_references(image_registry, tmp_path):
    """The PDF is written a scan at a time around the laid-out pages (splice.py): every scan of the print
    cache is in it unchanged, and every cross-reference points at its object, as a strict reader checks."""
    import re

    out = tmp_path / "p.pdf"
    result = image_registry("proxies", *[a for i in range(1, 8) for a in ("--cards", _name(i))], "-o", str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    scans = sorted((image_registry.cache_dir / "images" / "print").glob("*.jpg"))
    assert scans and all(scan.read_bytes() in data for scan in scans)
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    count = int(re.match(rb"xref\n0 (\d+)\n", data[xref:]).group(1))
    table = data[xref:].split(b"\n", 2)[2]
    for number in range(1, count):
        offset = int(table[number * 20:number * 20 + 10])
        assert data[offset:].startswith(b"%d 0 obj" % number)
    reader = PdfReader(out, strict=True)
    assert len(_distinct_images(reader)) == len(scans) and b"hhd-scan:" not in data  # no stand-in left


def _grainy_jpeg(size: tuple[int, int], seed: int) -> bytes:
    """A scan-like JPEG (noise compresses like a real scan, not like a flat color)."""
    out = io.BytesIO()
    grain = Image.effect_noise(size, 30 + seed).convert("RGB")
    Image.blend(grain, Image.new("RGB", size, (40 * seed % 255, 90, 160)), 0.5).save(out, "JPEG", quality=85)
    return out.getvalue()


def _embedded_images(pdf: Path) -> list[tuple[int, int, bytes]]:
    """Width, height and the stream's bytes as stored (still JPEG-coded) of every image in the PDF."""
    reader = PdfReader(pdf, strict=True)
    found = []
    for number in sorted(_distinct_images(reader)):
        obj = reader.get_object(number)
        assert obj["/Filter"] in ("/DCTDecode", ["/DCTDecode"])
        found.append((int(obj["/Width"]), int(obj["/Height"]), obj._data))
    return found


def test_dpi_is_a_ceiling_300_dpi_scans_are_embedded_byte_for_byte_at_dpi_600(server, tmp_path):
    """--dpi 600 never enlarges a 745x1040 (300 dpi) scan: the PDF holds each downloaded file as it is."""
    from support import Reply, cards_with_served_images

    scans = [_grainy_jpeg((745, 1040), seed) for seed in range(3)]
    run, names = cards_with_served_images(server, tmp_path / "cache", 3, Reply(b""))
    for i, scan in enumerate(scans):
        server.routes[f"/img/{i}.jpg"] = Reply(scan, content_type="image/jpeg")
    out = tmp_path / "p.pdf"
    result = run("proxies", *names, "--dpi", "600", "-o", str(out))
    assert result.exit_code == 0, result.output
    embedded = _embedded_images(out)
    assert sorted(data for _, _, data in embedded) == sorted(scans)  # byte for byte, each once
    assert {(w, h) for w, h, _ in embedded} == {(745, 1040)}
    assert out.stat().st_size < sum(map(len, scans)) + 30_000  # no 4x-larger resampled copies


def test_a_scan_above_dpi_is_reduced_to_it(server, tmp_path):
    """A 600-dpi scan (1488x2079) printed at the default 300 dpi is embedded at 744x1039."""
    from support import Reply, cards_with_served_images

    big = _grainy_jpeg((1488, 2079), 1)
    run, names = cards_with_served_images(server, tmp_path / "cache", 1, Reply(big, content_type="image/jpeg"))
    out = tmp_path / "p.pdf"
    assert run("proxies", *names, "-o", str(out)).exit_code == 0
    [(width, height, data)] = _embedded_images(out)
    assert (width, height) == (744, 1039) and data != big
    assert Image.open(io.BytesIO(data)).size == (744, 1039)


def _distinct_images(reader: PdfReader) -> set[int]:
    """Object numbers of the image XObjects the pages use, through ReportLab's form XObjects."""
    found: set[int] = set()

    def walk(resources) -> None:
        xobjects = resources.get("/XObject") if resources else None
        for ref in (xobjects or {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found.add(ref.idnum)
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def _name(index: int) -> str:
    hlc = [r for r in json.loads(CURRENT_SAMPLE.read_text())["data"] if r["set"].startswith("HLC")]
    return hlc[index]["name"]


def test_warm_image_cache_needs_no_network(image_registry, server, tmp_path):
    args = ["proxies", "--cards", _name(1), "--cards", _name(2)]
    assert image_registry(*args, "-o", str(tmp_path / "a.pdf")).exit_code == 0
    hits = len(server.hits)
    offline = image_registry(*args, "-o", str(tmp_path / "b.pdf"), "--offline")
    assert offline.exit_code == 0 and "2 proxies: 2 from 2 images" in offline.output
    assert len(server.hits) == hits
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_pdf_size_stays_close_to_the_jpeg_bytes(image_registry, tmp_path):
    out = tmp_path / "p.pdf"
    image_registry("proxies", *[a for i in range(10) for a in ("--cards", _name(i))], "-o", str(out))
    jpegs = sum(p.stat().st_size for p in (image_registry.cache_dir / "images" / "print").glob("*.jpg"))
    assert out.stat().st_size < 1.2 * jpegs + 30_000


# --- bad input --------------------------------------------------------------------------------------


def test_unknown_card_names_are_listed_with_suggestions(synced, tmp_path):
    result = synced("proxies", "--cards", "Hasty Bolt", "--cards", "Pikle Krrik", "-o", str(tmp_path / "p.pdf"),
                    "--text-only")
    assert result.exit_code == 0
    assert "no card named 'Pikle Krrik'" in result.output and "Pickle K'rrik!" in result.output
    none = synced("proxies", "--cards", "Zzzzzz", "-o", str(tmp_path / "q.pdf"))
    assert none.exit_code == 2 and not (tmp_path / "q.pdf").exists()


def test_unwritable_output_is_a_one_line_error(synced, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = synced("proxies", "--cards", "Hasty Bolt", "-o", str(blocked / "p.pdf"), "--text-only")
    assert result.exit_code == 2 and result.output.startswith("error: cannot write")


def test_a_library_of_another_version_is_refused(synced, tmp_path):
    library = _library(synced, tmp_path)
    document = json.loads(library.read_text())
    document["version"] = 99
    library.write_text(json.dumps(document))
    result = synced("proxies", str(library), "-o", str(tmp_path / "p.pdf"))
    assert result.exit_code == 3 and "version 99" in result.output


def test_calibration_sheet(synced, tmp_path):
    out = tmp_path / "cal.pdf"
    assert synced("proxies", "--calibration", "-o", str(out)).exit_code == 0
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    assert "exactly 100 mm" in reader.pages[0].extract_text()
    assert "--back-offset" in reader.pages[1].extract_text()


def test_a_basic_lands_proxy_speaks_the_language_of_the_run_like_its_checklist_line(synced, library, tmp_path):
    """The type line a basic's proxy prints is hhd's words, not card data: in Russian it reads as the Russian
    checklist does (Базовая земля — Лес), and the card's name stays as printed."""
    text = {}
    for lang in ("en", "ru"):
        out = tmp_path / f"p-{lang}.pdf"
        assert synced("--lang", lang, "proxies", "-l", str(library), "--text-only", "-o", str(out)).exit_code == 0
        text[lang] = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Basic Land — Forest" in text["en"] and "Forest" in text["ru"]
    assert "Базовая земля — Лес" in text["ru"] and "Basic Land" not in text["ru"]


def test_skip_basics(synced, tmp_path):
    library = _library(synced, tmp_path)
    basics = sum(1 for c in json.loads(library.read_text())["cards"] if c["kind"] == "basic")
    result = synced("proxies", str(library), "-o", str(tmp_path / "p.pdf"), "--text-only", "--skip-basics")
    assert f"{97 - basics} proxies" in result.output


def test_characters_a_font_lacks_never_become_boxes():
    import reportlab

    from hhdcli.render.draw.fonts import load_fonts, safe_text

    vera = load_fonts(str(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"))  # a Latin-only font
    assert safe_text(vera, "Bear Φ Медведь") == "Bear ? ???????"
    shipped = load_fonts()  # the DejaVu hhd ships: Greek and Cyrillic too
    assert shipped.unicode and safe_text(shipped, "Bear Φ Медведь") == "Bear Φ Медведь"


def test_font_option_embeds_that_font(synced, tmp_path):
    font = next(Path("/usr/share/fonts").rglob("DejaVuSerif.ttf"))
    out = tmp_path / "p.pdf"
    assert synced("proxies", "--cards", "Hasty Bolt", "--text-only", "--font", str(font), "-o", str(out)).exit_code == 0
    fonts = PdfReader(out).pages[0]["/Resources"]["/Font"].values()
    assert any("DejaVuSerif" in str(f.get_object()["/BaseFont"]) for f in fonts)
    bad = synced("proxies", "--cards", "Hasty Bolt", "--font", str(tmp_path / "p.pdf"), "-o", str(tmp_path / "q.pdf"))
    assert bad.exit_code == 2 and "--font" in bad.output


def test_double_faced_cards_print_one_proxy_per_face_and_split_art_stays_upright():
    from hhdcli.cards import parse_registry
    from hhdcli.render.proxies import ProxyOptions, plan
    from hhdcli.render.scans.images import ImageSettings, prepare

    record = {"object": "card", "kind": "card", "id": "x", "name": "Day // Night", "set": "HLC_1",
              "layout": "transform", "image": "https://img.invalid/front.jpg",
              "card_faces": [{"name": "Day", "type_line": "Creature", "image": "https://img.invalid/day.jpg"},
                             {"name": "Night", "type_line": "Creature", "image": "https://img.invalid/night.jpg"}]}
    _, cards, *_ = parse_registry(json.dumps({"data": [record]}).encode())
    assert [p.image_url for p in plan(cards, ProxyOptions())] == ["https://img.invalid/day.jpg",
                                                                  "https://img.invalid/night.jpg"]
    landscape = Image.open(io.BytesIO(prepare(_jpeg((200, 0, 0), size=(1040, 745)), ImageSettings())))
    assert landscape.size == (745, 1040)  # turned upright; within 2 % of 63 x 88 mm at 300 dpi, not resampled
    wide = Image.open(io.BytesIO(prepare(_jpeg((200, 0, 0), size=(2080, 1490)), ImageSettings())))
    assert wide.size == (744, 1039)  # turned upright and fitted to 63 x 88 mm at 300 dpi
    with_bleed = Image.open(io.BytesIO(prepare(_jpeg((0, 0, 200)), ImageSettings(dpi=300, bleed_mm=2))))
    assert with_bleed.size == (745 + 2 * 24, 1040 + 2 * 24)  # the scan as it is, 2 mm of bleed around it
    assert with_bleed.getpixel((2, 2))[2] > 150  # the art runs into the bleed, not white


def test_a_sheet_of_cached_scans_reads_one_font_face_and_loads_no_card_painter(server, tmp_path):
    """What a warm `hhd proxies` of scans does not do (each is start-up time, as a fresh process sees it): parse
    the bold and italic faces, import the text-card painter, start download threads, or write a file per scan."""
    import sys

    from support import Reply, cards_with_served_images

    run, names = cards_with_served_images(server, tmp_path / "cache", 2, Reply(_grainy_jpeg((745, 1040), 2),
                                                                               content_type="image/jpeg"))
    assert run("proxies", *names, "-o", str(tmp_path / "cold.pdf")).exit_code == 0  # fills the print cache
    probe = f"""
import sys, threading
from hhdcli.cli import main
from reportlab.pdfbase import pdfmetrics
sys.argv = ["hhd", "--cache-dir", {str(tmp_path / 'cache')!r}, "proxies", *{names!r}, "-o", {str(tmp_path / 'warm.pdf')!r}]
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print(sorted(n for n in pdfmetrics.getRegisteredFontNames() if n.startswith("hhd-")))
print("hhdcli.render.draw.cardface" in sys.modules, "concurrent.futures" in sys.modules, threading.active_count())
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    fonts, loaded = done.stdout.splitlines()[-2:]
    assert fonts == "['hhd-regular']"
    assert loaded == "False False 1"
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()


def test_proxies_with_tokens_add_one_per_card_that_makes_each_marked_as_a_token(synced, tmp_path):
    """`--tokens`: after the library's cards, one proxy of each token per card that makes it, drawn from the
    token's data (its type line, "Token" where a card's footer names its set) and named "(token)" in the page
    footer; `--token-copies N` prints N of each."""
    from hhdcli.cache import load_cache
    from hhdcli.library import load_library, resolve
    from hhdcli.tokens import library_tokens

    library = _library(synced, tmp_path)
    cards = resolve(load_library(library), load_cache(synced.cache_dir).cards).cards
    needed = library_tokens(cards)
    brought = sum(n.copies() for n in needed)
    out = tmp_path / "p.pdf"
    result = synced("proxies", "-l", str(library), "-o", str(out), "--text-only", "--tokens")
    assert result.exit_code == 0, result.output
    assert f"{97 + brought} proxies" in result.output
    pages = [page.extract_text() for page in PdfReader(out).pages]
    assert len(pages) == -(-(97 + brought) // 9)
    faces = "\n".join(pages)
    assert faces.count("Token · Hell's Half-Draft proxy") == brought
    footers = " ".join(text.replace("\n", " ") for text in pages)
    for item in needed:
        assert footers.count(f"{item.token.name} (token)") >= item.copies()
    assert "Food (token)" in pages[-1] or "Food (token)" in pages[-2]  # the tokens come after the cards
    result = synced("proxies", "-l", str(library), "-o", str(out), "--text-only", "--tokens", "--token-copies", "2")
    assert f"{97 + 2 * len(needed)} proxies" in result.output


def test_the_tokens_of_a_cards_selection_are_printed_with_it(synced, tmp_path):
    """Pyrohyperspasm makes three Elementals (2/3, 4/2, 6/1): --cards Pyrohyperspasm --tokens is four proxies,
    and `generate --proxies … --tokens` prints a new library's tokens too."""
    out = tmp_path / "p.pdf"
    result = synced("proxies", "--cards", "Pyrohyperspasm", "--tokens", "--text-only", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "4 proxies" in result.output
    text = PdfReader(out).pages[0].extract_text()
    assert all(stats in text for stats in ("2/3", "4/2", "6/1")) and text.count("Elemental (token)") == 3
    drawn = tmp_path / "g.pdf"
    made = synced("generate", "--seed", "ember-tide-42", "-o", str(tmp_path / "g.json"), "--proxies", str(drawn),
                  "--text-only", "--tokens")
    assert made.exit_code == 0, made.output
    assert "(token)" in PdfReader(drawn).pages[-1].extract_text()


@pytest.mark.parametrize("lang, mark", [("en", "TOKEN"), ("ru", "ФИШКА")])
def test_a_token_printed_from_its_scan_is_marked_as_a_token_on_its_face(server, tmp_path, lang, mark):
    """Nine cards and a token, each from its scan: the token's face carries a white band with "TOKEN" (in the
    run's language) on its bottom edge, inside the card and clear of its name box; no card's face has one."""
    from hhdcli.cards import Card, Face
    from hhdcli.i18n import current_language, set_language
    from hhdcli.mana import SymbolTable
    from hhdcli.render.plan.proxies import ProxyOptions
    from hhdcli.render.proxies import render_proxies
    from hhdcli.render.scans.images import ImageStore
    from hhdcli.tokens import Token, token_card

    server.routes["/img/card.jpg"] = Reply(_jpeg((170, 30, 30)), content_type="image/jpeg")
    server.routes["/img/food.jpg"] = Reply(_jpeg((20, 30, 120)), content_type="image/jpeg")
    cards = [Card(f"hlc-{i}", f"Card {i}", "HLC", (Face(f"Card {i}", type_line="Artifact"),),
                  image=f"{server.url}/img/card.jpg") for i in range(9)]
    food = token_card(Token("food", "Food", "Token Artifact — Food", image=f"{server.url}/img/food.jpg"))
    before = current_language()
    set_language(lang)
    try:
        pdf, report = render_proxies([*cards, food], SymbolTable.from_records([]), ProxyOptions(),
                                     ImageStore(tmp_path / "images"))
    finally:
        set_language(before)
    assert (report.pages, report.images, report.text) == (2, 2, 0)  # every face from its scan
    out = tmp_path / "p.pdf"
    out.write_bytes(pdf)
    reader = PdfReader(out)
    assert mark not in reader.pages[0].extract_text()  # nine cards, no mark
    [(x, y, w, h)] = _image_placements(reader, 1)  # the token, alone on its page
    found: list[tuple[float, float]] = []  # where each piece of text starts: the text matrix times the CTM
    reader.pages[1].extract_text(visitor_text=lambda text, cm, tm, _font, _size: found.append(
        (tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5])) if text.strip() == mark else None)
    [(start, baseline)] = found
    assert x + w / 2 - 10 * MM < start < x + w / 2 and y < baseline < y + 4 * MM  # centred on its bottom edge
    page = _render(out, 2, dpi=150)
    assert _pixel(page, x + w / 2 - 5 * MM, y + 1.3 * MM) > (240, 240, 240)  # the band, white on the dark scan
    assert _pixel(page, x + w / 2, y + h - 6 * MM)[2] > 100  # the top, where the name box is, is the scan's
