"""hhd's English writes "color" the American way, as Magic's cards, its Comprehensive Rules and the Hellscube
cards' own texts do ("note a color", "colorless"): in its messages and help, the table page, the rules sheet,
the rulings, README.md and docs/. The old option spellings (--colour, --colours, --sort colour) keep working,
hidden; Click's own message "Unknown color {colour!r}" is Click's text, not hhd's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from hhdcli.cli import cli

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "hhdcli" / "locale" / "ru" / "LC_MESSAGES"
BRITISH = re.compile(r"colou?r", re.IGNORECASE)
# The only "colour" the docs may write: the old option spellings, named so that users know they still work
OLD_SPELLINGS = re.compile(r"`--colour`|`--colours`|`--sort colour`")


def british(text: str) -> list[str]:
    """Each "colour…" word of `text` with a little context (empty when it says "color" throughout)."""
    return [text[max(0, m.start() - 30):m.end() + 30] for m in BRITISH.finditer(text) if "u" in m.group().lower()]


def _msgids(po: Path) -> list[tuple[str, list[str]]]:
    with po.open("rb") as handle:
        catalog = read_po(handle)
    return [(text, [path for path, _line in message.locations]) for message in catalog if message.id
            for text in (message.id if isinstance(message.id, tuple) else (message.id,))]


def test_every_english_message_of_hhd_says_color():
    """Every msgid of hhd's catalog (its messages, help, printed labels, the TTS rules note) and of the table
    page's; Click's own texts (extracted from the installed Click) are Click's wording and stay."""
    found = [(text, where) for po in (LOCALE / "hhd.po", LOCALE / "table.po") for text, where in _msgids(po)
             if british(text) and not all(path.startswith("click/") for path in where)]
    assert found == []
    assert any("no color" == text for text, _where in _msgids(LOCALE / "table.po"))  # the table page's own


def _all_help(command=cli, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], str]:
    result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    shown = {path: result.output}
    for name, sub in getattr(command, "commands", {}).items():
        shown |= _all_help(sub, (*path, name))
    return shown


def test_every_commands_help_says_color():
    """hhd --help and the help of every command and subcommand, choices included (--sort lists no "colour")."""
    shown = _all_help()
    assert ("table",) in shown and ("cache", "clean") in shown
    assert {path: british(text) for path, text in shown.items() if british(text)} == {}
    assert "[color|type|name|position]" in shown[("checklist",)]


def test_the_old_sort_spelling_still_sorts_by_color_but_is_not_offered(synced, library, tmp_path):
    """`--sort colour` writes the very checklist `--sort color` writes; a wrong --sort lists only the four."""
    by = {}
    for spelling in ("color", "colour"):
        out = tmp_path / f"{spelling}.md"
        assert synced("checklist", "-l", str(library), "--sort", spelling, "-o", str(out)).exit_code == 0
        by[spelling] = out.read_text(encoding="utf-8")
    assert by["colour"] == by["color"] and "Multicolor" in by["color"]
    wrong = synced("checklist", "-l", str(library), "--sort", "hue", "-o", str(tmp_path / "x.md"))
    assert wrong.exit_code == 2 and "'color', 'type', 'name', 'position'" in wrong.output
    assert british(wrong.output) == []


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_english_rules_sheet_and_booklet_say_color(synced, library, tmp_path, fmt):
    """The quick reference (the take rule: "every mana color"; purple "the sixth color") and the booklet's page
    of a library's rulings, as `hhd rules` writes them."""
    sheet, booklet = tmp_path / f"rules.{fmt}", tmp_path / f"booklet.{fmt}"
    assert synced("rules", "--lang", "en", "-o", str(sheet)).exit_code == 0
    assert synced("rules", "--lang", "en", "-l", str(library), "-o", str(booklet)).exit_code == 0
    text = sheet.read_text(encoding="utf-8")
    assert "every mana color" in text and "Purple is the sixth color" in text
    assert british(text) == [] and british(booklet.read_text(encoding="utf-8")) == []


def test_a_cards_rulings_and_clarification_say_color(synced):
    """`hhd card` shows the colors ruling and the reviewed clarifications in the same spelling as the card."""
    knight = synced("card", "Knight of ____").output
    assert "note a color" in knight  # the card's own text
    assert "note the color when you take it" in knight  # hhd's clarification of it
    garfield = synced("card", "Garfield of the Dead").output
    assert "[colors] Colors beyond the six" in garfield
    assert british(knight) == british(garfield) == []


def test_every_ruling_and_clarification_says_color():
    """All twelve rulings' English (text and the proxy's one-line summary) and every reviewed clarification."""
    from hhdcli.rulings import RULINGS, curated_table

    texts = [t for r in RULINGS for t in (r.en, r.short)]
    texts += [e.clarification.en for e in curated_table().by_id.values() if e.clarification]
    assert len(texts) > 24 and [t for t in texts if british(t)] == []


def test_readme_and_docs_say_color_but_for_the_old_option_spellings():
    """README.md and docs/*.md write "color"; the guide names the old spellings that keep working, verbatim."""
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    assert len(OLD_SPELLINGS.findall(guide)) == 3
    docs = sorted((ROOT / "docs").glob("*.md"))
    assert ROOT / "docs" / "rules.md" in docs
    said = {doc.name: british(OLD_SPELLINGS.sub("", doc.read_text(encoding="utf-8")))
            for doc in [ROOT / "README.md", ROOT / "CHANGELOG.md", *docs]}
    assert {name: found for name, found in said.items() if found} == {}
