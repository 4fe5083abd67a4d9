"""`hhd checklist` and `hhd rules`: the red-sleeve checklist and the printed rules sheet."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from hhdcli.cache import load_cache
from hhdcli.library import load_library, resolve
from hhdcli.render.documents.checklist import build_checklist

GOLDEN_MD = Path(__file__).parent / "golden" / "checklist-ember-tide-42.md"
EPOCH = {"SOURCE_DATE_EPOCH": "1798675200"}  # 2026-12-31 00:00 UTC: the header date is fixed


def _entries(library: Path) -> list[dict]:
    return json.loads(library.read_text())["cards"]


def test_pdf_lists_every_card_with_counts_on_at_most_two_pages(synced, library, tmp_path):
    out = tmp_path / "c.pdf"
    result = synced("checklist", str(library), "-o", str(out))
    assert result.exit_code == 0, result.output
    reader = PdfReader(out)
    assert len(reader.pages) <= 2
    text = "\n".join(p.extract_text() for p in reader.pages)
    for entry in _entries(library):
        assert entry["name"] in text
    assert "Total: 97 cards" in text
    assert "ember-tide-42" in text and "Sleeves: red" in text
    basics = {}
    for entry in _entries(library):
        if entry["kind"] == "basic":
            basics[entry["name"]] = basics.get(entry["name"], 0) + 1
    for name, count in basics.items():
        assert f"{name} ×{count}" in text
    assert f"Basic lands ({sum(basics.values())})" in text


def test_pdf_text_is_8_point_or_larger(synced, library, tmp_path):
    out = tmp_path / "c.pdf"
    synced("checklist", str(library), "-o", str(out))
    sizes = []
    PdfReader(out).pages[0].extract_text(visitor_text=lambda text, cm, tm, font, size: sizes.append((text, size * tm[0])))
    names = {e["name"] for e in _entries(library)}
    name_sizes = [size for text, size in sizes if text.strip() in names]
    assert name_sizes and min(name_sizes) >= 8


def test_groups_and_sorts(synced, library):
    cache = load_cache(synced.cache_dir)
    lib = load_library(library)
    cards = resolve(lib, cache.cards).cards
    by_color = build_checklist(lib, cards, "v", "colour")
    assert [g.heading for g in by_color.groups][-1] == "Basic lands"
    assert sum(g.count for g in by_color.groups) == by_color.total == 97
    by_position = build_checklist(lib, cards, "v", "position")
    assert [line.position for line in by_position.groups[0].lines] == sorted(
        line.position for line in by_position.groups[0].lines)
    by_type = build_checklist(lib, cards, "v", "type")
    assert "Creatures" in [g.heading for g in by_type.groups]
    by_name = build_checklist(lib, cards, "v", "name", mode="return", lang="ru", today=date(2027, 1, 1))
    assert by_name.title == "Пересчёт в конце сессии" and ("Дата", "1 января 2027\u202fг.") in by_name.header  # CLDR (Babel)


def test_markdown_matches_the_golden_file(synced, library, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH["SOURCE_DATE_EPOCH"])
    out = tmp_path / "c.md"
    assert synced("checklist", str(library), "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == GOLDEN_MD.read_text(encoding="utf-8")


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags, self.text, self.attrs = [], [], []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)
        self.attrs.append((tag, dict(attrs)))

    def handle_data(self, data) -> None:
        self.text.append(data)


HOSTILE = '<script>alert("hell")</script> & "Friends" \'R\' Us'


def test_html_escapes_hostile_names_and_prints_cleanly(synced, library, tmp_path):
    from hhdcli.files import dump_json

    document = json.loads(library.read_text())
    victim = next(c for c in document["cards"] if c["kind"] == "spell")
    # a card data set where one card carries a hostile name: edit a copy of the cache
    cache_dir = tmp_path / "cache"
    import shutil

    shutil.copytree(synced.cache_dir, cache_dir)
    cards_doc = json.loads((cache_dir / "cards.json").read_text())
    for card in cards_doc["cards"]:
        if card["id"] == victim["id"]:
            card["name"] = HOSTILE
            card["faces"][0]["name"] = HOSTILE
    (cache_dir / "cards.json").write_bytes(dump_json(cards_doc))
    out = tmp_path / "c.html"
    result = type(synced)(cache_dir)("checklist", str(library), "-o", str(out), "--with-rules")
    assert result.exit_code == 0, result.output
    html = out.read_text()
    parser = _Collect()
    parser.feed(html)
    assert "script" not in parser.tags
    assert HOSTILE in "".join(parser.text)
    assert "@page" in html and "@media print" in html
    card_lines = [a for tag, a in parser.attrs if tag == "li" and "data-position" in a]
    assert len(card_lines) == len({(e["name"] if e["kind"] == "basic" else e["id"]) for e in document["cards"]})
    # under the cards, one line per token to bring
    token_lines = [a for tag, a in parser.attrs if tag == "li" and "data-token" in a]
    assert parser.tags.count("li") == len(card_lines) + len(token_lines) and len(token_lines) > 0
    assert "quick reference" in html


def test_russian_pdf_draws_only_characters_the_font_has(synced, library, tmp_path):
    from reportlab.pdfbase import pdfmetrics

    from hhdcli.render.draw.fonts import load_fonts

    out = tmp_path / "c.pdf"
    assert synced("checklist", str(library), "-o", str(out), "--lang", "ru", "--with-rules").exit_code == 0
    reader = PdfReader(out)
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Опись Адской библиотеки" in text and "Адский полудрафт — памятка" in text
    assert "Итого: 97 карт" in text
    fonts = load_fonts()
    assert fonts.unicode
    for name in (fonts.regular, fonts.bold):
        cmap = pdfmetrics.getFont(name).face.charToGlyph
        drawn = {ch for ch in text if not ch.isspace()}
        assert not {ch for ch in drawn if ord(ch) not in cmap and ch != "?"}
    fonts_used = {str(f) for page in reader.pages for f in page["/Resources"]["/Font"].values()}
    assert fonts_used


SECTIONS = {"en": ["The take rule", "shared sideboard", "End of a game", "own text in this format",
                   "Hellscube v1.2 specifics", "When you draft this card", "owner", "Ante", "Freezing", "Nebula",
                   "number words", "Token cards", "companion"],
            "ru": ["правило взятия", "Общий сайдборд", "Поправки на формат", "Общие особенности Hellscube v1.2",
                   "Когда вы драфтите эту карту", "Владельцем Адской карты", "Ставки (ante)", "Заморозка",
                   "Туманность", "численные слова", "Карты-фишки", "компаньон"]}


def font_sizes(reader: PdfReader) -> list[float]:
    """The size of every font selection in the pages' content, in order."""
    from pypdf.generic import ContentStream

    return [float(operands[1]) for page in reader.pages
            for operands, operator in ContentStream(page.get_contents(), reader).operations if operator == b"Tf"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_sheet_has_every_section_on_one_sheet_at_a_readable_size(synced, tmp_path, lang):
    out = tmp_path / "rules.pdf"
    assert synced("rules", "--lang", lang, "-o", str(out)).exit_code == 0
    reader = PdfReader(out)
    assert 1 <= len(reader.pages) <= 2  # one A4 sheet, both sides at most
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    missing = [s for s in SECTIONS[lang] if s.lower() not in text.lower()]
    assert not missing
    assert "Pyrohyperspasm" in text and "Murder of Storm Crows" in text
    sizes = font_sizes(reader)
    body = max(set(sizes), key=sizes.count)  # the size most text is set in
    assert body >= 7 and min(sizes) >= 6  # 6 pt: the floor of the letters inside mana symbols
    for form in ("html", "md"):
        other = tmp_path / f"rules.{form}"
        assert synced("rules", "--lang", lang, "-o", str(other)).exit_code == 0
        assert "Pyrohyperspasm" in other.read_text() and SECTIONS[lang][4] in other.read_text()


def test_rules_that_do_not_fit_two_pages_even_at_the_smallest_size_go_on_to_a_third(synced, monkeypatch):
    """The sheet shrinks to MIN_SIZE to fit its two pages; text that still does not fit (a wide --font) takes a
    third page rather than being dropped, as the third page's worth was. Here the floor is the starting size and
    the sheet one page, so the end of the rules needs the next."""
    import io

    from hhdcli.cache import symbols_or_builtin
    from hhdcli.mana import SymbolTable
    from hhdcli.render.documents import rules_pdf

    monkeypatch.setattr(rules_pdf, "MIN_SIZE", 11.0)
    monkeypatch.setattr(rules_pdf, "MAX_PAGES", 1)
    table = SymbolTable.from_records(symbols_or_builtin(synced.cache_dir))
    reader = PdfReader(io.BytesIO(rules_pdf.rules_pdf("en", table)))
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert len(reader.pages) == 2 and "a token of \"A // B\" is a double card." in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_page_of_the_rules_ends_with_a_heading(synced, tmp_path, lang):
    from hhdcli.render.texts import rules_sections

    out = tmp_path / "rules.pdf"
    assert synced("rules", "--lang", lang, "-o", str(out)).exit_code == 0
    headings = {" ".join(section.heading.split()) for section in rules_sections(lang)}
    for page in PdfReader(out).pages:
        lines = [" ".join(line.split()) for line in page.extract_text().splitlines() if line.strip()]
        assert lines and lines[-1] not in headings


def test_with_rules_appends_the_rules_sheet(synced, library, tmp_path):
    plain, with_rules, rules = tmp_path / "a.pdf", tmp_path / "b.pdf", tmp_path / "r.pdf"
    synced("checklist", str(library), "-o", str(plain))
    synced("checklist", str(library), "-o", str(with_rules), "--with-rules")
    synced("rules", "-o", str(rules))
    assert len(PdfReader(with_rules).pages) == len(PdfReader(plain).pages) + len(PdfReader(rules).pages)


def test_bad_output_names_are_refused(synced, library, tmp_path):
    result = synced("checklist", str(library), "-o", str(tmp_path / "c.docx"))
    assert result.exit_code == 2 and "cannot tell the format" in result.output and "--format" in result.output


def test_generate_prints_both_printables_in_one_command(synced, tmp_path):
    p, c = tmp_path / "p.pdf", tmp_path / "c.pdf"
    result = synced("generate", "--seed", "S", "-o", str(tmp_path / "l.json"), "--proxies", str(p), "--checklist",
                    str(c))
    assert result.exit_code == 0, result.output
    assert len(PdfReader(p).pages) == 11 and len(PdfReader(c).pages) <= 2
    assert re.search(r"wrote .*p\.pdf: 11 pages", result.output)


def test_a_checklist_is_the_same_bytes_alone_and_after_proxies(synced, library, tmp_path):
    """No PDF leaves settings behind that change the next one made in the same process."""
    script = f"""
import sys
from pathlib import Path
from hhdcli.cache import load_cache
from hhdcli.library import load_library, resolve
from hhdcli.mana import SymbolTable
from hhdcli.render.documents.checklist import build_checklist
from hhdcli.render.documents.checklist_pdf import checklist_pdf
from hhdcli.render.proxies import ProxyOptions, render_proxies
from datetime import date

cache = load_cache(Path({str(synced.cache_dir)!r}))
table = SymbolTable.from_records(cache.symbols)
lib = load_library(Path({str(library)!r}))
cards = resolve(lib, cache.cards).cards
sheet = build_checklist(lib, cards, "v", today=date(2026, 1, 1))
alone = checklist_pdf(sheet, table)
render_proxies(cards, table, ProxyOptions(text_only=True))
after = checklist_pdf(sheet, table)
sys.stdout.write(f"{{len(alone)}} {{len(after)}} {{alone == after}}")
"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    alone, after, same = out.split()
    assert same == "True", (alone, after)


def _modules_loaded_by(cache_dir: Path, *args: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `hhd ARGS` in-process (the command must succeed)."""
    import subprocess
    import sys

    probe = f"""
import sys
from click.testing import CliRunner
from hhdcli.cli import cli
result = CliRunner().invoke(cli, ["--cache-dir", {str(cache_dir)!r}, *{list(args)!r}])
assert result.exit_code == 0, result.output
print(" ".join(sorted(sys.modules)))
"""
    return set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())


def test_printing_a_checklist_does_not_load_the_proxy_sheets(synced, library, tmp_path):
    """Its legend is wrapped by hhdcli.render.draw.fonts: the PDF checklist imports none of the proxy sheets' machinery
    (hhdcli.render.proxies, its image store, HTTP; ~35 ms of a 270 ms command). Pillow it cannot avoid:
    reportlab.lib.utils imports it."""
    out = tmp_path / "c.pdf"
    loaded = _modules_loaded_by(synced.cache_dir, "checklist", "-l", str(library), "-o", str(out))
    assert loaded & {"hhdcli.render.proxies", "hhdcli.render.scans.images", "hhdcli.http"} == set()
    assert "⚑" in PdfReader(out).pages[0].extract_text()  # the legend was drawn


@pytest.mark.parametrize(("command", "form"), [(["checklist"], "md"), (["checklist", "--with-rules"], "html"),
                                               (["rules"], "md"), (["rules"], "html")])
def test_a_markdown_or_html_checklist_or_rules_sheet_loads_no_reportlab(synced, library, tmp_path, command, form):
    """Only the PDFs draw: the Markdown and HTML checklists and rules sheets (their data, the frame colors of the
    checklist's dots) load neither ReportLab nor Pillow, nor urllib (which xml.sax.saxutils drags in); ~50 ms."""
    out = tmp_path / f"c.{form}"
    loaded = _modules_loaded_by(synced.cache_dir, *command, "-l", str(library), "-o", str(out))
    assert {m.split(".")[0] for m in loaded} & {"reportlab", "PIL"} == set()
    assert "urllib.request" not in loaded
    text = out.read_text(encoding="utf-8")
    assert ("Pyrohyperspasm" if "rules" in command[-1] else "Forest") in text  # the worked example, a basic


def test_fifty_copies_of_a_basic_tick_in_rows_and_their_line_stays_on_the_page(synced, tmp_path):
    """A library of the whole pool has 50 of each basic: its boxes wrap in rows of ten below the line, where one
    row of 50 ran past the page's edge and took the name with it."""
    library, out = tmp_path / "all.json", tmp_path / "all.pdf"
    assert synced("generate", "--seed", "all", "--size", "970", "-o", str(library)).exit_code == 0
    assert synced("checklist", "-l", str(library), "-o", str(out)).exit_code == 0
    width = float(PdfReader(out).pages[0].mediabox.width)
    # where each word starts, as poppler reads the pages (pypdf's reading of eight pages took three seconds)
    boxes = subprocess.run(["pdftotext", "-bbox", str(out), "-"], capture_output=True, text=True, check=True).stdout
    words = [(html.unescape(word), float(x)) for x, word in re.findall(r'<word xMin="([\d.]+)"[^>]*>([^<]*)</word>',
                                                                         boxes)]
    placed = {f"{name} {count}": x for (name, x), (count, _x) in zip(words, words[1:], strict=False)
              if count == "×50"}
    names = {"Plains ×50", "Island ×50", "Swamp ×50", "Mountain ×50", "Forest ×50"}
    # the name starts with room to be read before the page's edge (one row of 50 boxes put it at 716 pt of 595)
    assert names <= set(placed) and all(placed[name] < width - 100 for name in names), placed


def test_hybrid_pips_on_the_checklist_are_legible_symbols_at_print_size():
    """At 8.5 pt a hybrid's two letters no longer fit a circle: it is a pill with "U/BB" across it at 6 pt,
    at least 2.5 mm tall and as wide as its letters."""
    from reportlab.pdfgen.canvas import Canvas

    from hhdcli.mana import SymbolTable
    from hhdcli.render.draw.fonts import load_fonts
    from hhdcli.render.draw.symbols import MIN_LETTER, glyph, glyph_width
    from hhdcli.render.plan.sheet import MM
    from support import PIPS

    table = SymbolTable.from_records(json.loads(PIPS.read_text())["data"])
    fonts, canvas = load_fonts(), Canvas(io.BytesIO())
    size = 8.5
    assert size >= 2.5 * MM
    for symbol in ("U/B", "U/BB", "2/R", "W/U/R"):
        g = glyph(symbol, table)
        letters = canvas.stringWidth("/".join(g.labels), fonts.bold, MIN_LETTER)
        assert glyph_width(g, size, canvas, fonts) >= letters  # the letters fit inside the symbol


def test_the_checklist_names_the_tokens_to_bring_under_the_cards(synced, library, tmp_path):
    """Under the cards and their total: each token the library needs, a box per copy, with the cards that make it;
    in Russian by the rules' glossary (фишки)."""
    from hhdcli.tokens import library_tokens

    cards = resolve(load_library(library), load_cache(synced.cache_dir).cards).cards
    needed = library_tokens(cards)
    out = tmp_path / "c.pdf"
    assert synced("checklist", "-l", str(library), "-o", str(out)).exit_code == 0
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    copies = sum(n.copies() for n in needed)
    assert f"Tokens to bring ({copies})" in text and text.index("Total: 97 cards") < text.index("Tokens to bring")
    food = next(n for n in needed if n.token.name == "Food")
    assert len(food.makers) > 1 and f"Food ×{len(food.makers)}" in text
    assert "made by " + ", ".join(m.card.name for m in food.makers) in text.replace("\n", " ")
    markdown = tmp_path / "c.md"
    synced("checklist", "-l", str(library), "-o", str(markdown))
    lines = [line for line in markdown.read_text().split("## Tokens to bring")[1].splitlines() if line.startswith("- ")]
    assert len(lines) == len(needed) and sum(line.count("[ ]") for line in lines) == copies
    russian = tmp_path / "ru.pdf"
    assert synced("checklist", "-l", str(library), "-o", str(russian), "--lang", "ru").exit_code == 0
    text = "\n".join(p.extract_text() for p in PdfReader(russian).pages)
    assert f"Фишки, которые нужно взять ({copies})" in text and "создают: " in text
