"""The commands' workflows called as a library, without Click: an Env, an options object, files written.

Everything here is what `hhd generate --proxies --checklist --export`, `hhd proxies`, `hhd checklist`,
`hhd export` and `hhd table --deck/--player` do, driven from Python on the real legacy cache."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from hhdcli.browse import find_cards
from hhdcli.env import Env
from hhdcli.errors import InputError
from hhdcli.library import load_library
from hhdcli.render.proxies import ProxyOptions
from hhdcli.workflows import (
    ChecklistOptions,
    CheckOptions,
    Companions,
    ExportOptions,
    GenerateOptions,
    PlayerOptions,
    ProxyChoice,
    check_cards,
    choose_proxies,
    generate_library,
    library_title,
    players_from_options,
    print_proxies,
    write_checklist,
    write_companions,
    write_export,
)

DECKS = Path(__file__).parent / "decks"


@pytest.fixture
def env(legacy_cache: Path) -> Env:
    return Env(legacy_cache, None, 5.0, quiet=False, debug=False, offline=True)


def _text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_generate_with_proxies_checklist_and_export_as_hhd_generate_does(env, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # exports go to their default names in the working folder
    out = tmp_path / "lib.json"
    generated = generate_library(env, GenerateOptions(seed="ember-tide-42", output=out, basics_per_type=10))
    assert load_library(out).to_json() == generated.library.to_json()
    assert len(generated.pool.cards) == 720 + 5 * 10 and len(generated.cards) == generated.library.size == 77
    proxies, checklist = tmp_path / "p.pdf", tmp_path / "c.pdf"
    write_companions(env, generated, Companions(proxies=proxies, checklist=checklist, exports=("csv",),
                                                proxy_options=ProxyOptions(text_only=True, backs=True)))
    reader = PdfReader(proxies)
    assert reader.metadata.title == library_title("ember-tide-42")  # the library's title, whatever was passed
    assert len(reader.pages) % 2 == 0  # a page of backs after each page of fronts
    assert generated.cards[0].name in _text(proxies)
    assert "ember-tide-42" in PdfReader(checklist).pages[0].extract_text()
    rows = list(csv.DictReader((tmp_path / "hell-library.csv").open(encoding="utf-8")))
    assert [r["name"] for r in rows] == [c.name for c in generated.cards]
    said = capsys.readouterr().err
    assert f"wrote {out}" in said and f"wrote {proxies}" in said and f"wrote {checklist}" in said


def test_generate_refuses_to_replace_another_library_unless_forced(env, tmp_path):
    out = tmp_path / "lib.json"
    generate_library(env, GenerateOptions(seed="one", output=out))
    with pytest.raises(InputError):
        generate_library(env, GenerateOptions(seed="two", output=out))
    assert load_library(out).seed == "one"  # nothing lost
    assert generate_library(env, GenerateOptions(seed="two", output=out, force=True)).library.seed == "two"


def test_print_proxies_writes_the_pdf_its_report_describes(env, tmp_path):
    cards = find_cards(["Pyrohyperspasm", "nut shot"], _index(env), env.warn)
    out = tmp_path / "two.pdf"
    report = print_proxies(env, cards, out, ProxyOptions(text_only=True, title="two cards"))
    reader = PdfReader(out)
    assert len(reader.pages) == report.pages == 1 and report.proxies == 2 and report.size_bytes == out.stat().st_size
    assert "Pyrohyperspasm" in _text(out) and reader.metadata.title == "two cards"


def test_write_checklist_and_export_read_a_library_file(env, tmp_path):
    out = tmp_path / "lib.json"
    generated = generate_library(env, GenerateOptions(seed="ember-tide-42", output=out))
    checklist = tmp_path / "count.md"
    write_checklist(env, generated.library, generated.cards, checklist, ChecklistOptions(mode="return", sort="name"))
    text = checklist.read_text()
    assert all(c.name in text for c in generated.cards if not c.is_basic)
    exported = tmp_path / "hell.csv"
    write_export(env, generated.library, generated.cards, ExportOptions(output=exported))
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert [r["name"] for r in rows] == [c.name for c in generated.cards]


def test_options_are_keyword_only(tmp_path):
    with pytest.raises(TypeError):
        ProxyOptions((215.9, 279.4))  # type: ignore[misc]
    with pytest.raises(TypeError):
        GenerateOptions("seed")  # type: ignore[misc]
    with pytest.raises(TypeError):
        CheckOptions("deck.txt")  # type: ignore[misc]
    with pytest.raises(TypeError):
        ProxyChoice(Path("lib.json"))  # type: ignore[misc]


def test_players_from_options_reads_letters_and_deck_files(env):
    colors = players_from_options(env, PlayerOptions(players=("Anna=RG",), decks=(f"Ben={DECKS / 'mtgo.txt'}",)))
    assert colors["Anna"] == ("R", "G")
    assert set(colors) == {"Anna", "Ben"} and colors["Ben"]
    with pytest.raises(InputError, match="name the players"):
        PlayerOptions()
    with pytest.raises(InputError, match="is not NAME=VALUE"):
        players_from_options(env, PlayerOptions(players=("Anna",)))


def test_one_symbol_table_per_run(env):
    table = env.cards().symbol_table
    assert env.symbols() is table and env.cards().symbol_table is table


def test_the_rules_sheet_symbols_need_no_card_cache(tmp_path):
    env = Env(tmp_path / "empty", None, 5.0, quiet=True, debug=False, offline=True)
    assert env.symbols().lookup("W") is not None  # the built-in table
    assert env._cache is None  # no cards were loaded for it


def _index(env: Env):
    from hhdcli.cards import CardIndex

    return CardIndex(env.cards().cards)


def test_the_library_file_is_what_hhd_generate_writes(env, tmp_path, synced):
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    generate_library(env, GenerateOptions(seed="ember-tide-42", output=ours, exclude_banned=True))
    assert synced("generate", "--seed", "ember-tide-42", "--exclude-banned", "-o", str(theirs)).exit_code == 0
    assert json.loads(ours.read_text()) == json.loads(theirs.read_text())


# --- the deck check and the proxies' cards: what hhd check and hhd proxies do, without the command line ---------


def test_check_cards_gives_what_hhd_check_prints_and_writes_its_report(env, tmp_path, synced, capsys):
    library = generate_library(env, GenerateOptions(seed="ember-tide-42", output=tmp_path / "lib.json")).library
    deck, out = str(DECKS / "mtgo.txt"), tmp_path / "check.md"
    report = check_cards(env, CheckOptions(deck=deck, library=tmp_path / "lib.json", output=out))
    assert capsys.readouterr().out == ""  # shown only when asked: a program gets the report
    assert len(report.verdicts) == library.size and not report.whole_set
    assert report.verdicts[0].card.name in out.read_text(encoding="utf-8")
    printed = synced("check", deck, "-l", str(tmp_path / "lib.json"), "--json", "--offline")
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.stdout) == json.loads(json.dumps(report.to_json()))
    check_cards(env, CheckOptions(colors="WU", all_cards=True, show="json"))
    assert json.loads(capsys.readouterr().out)["summary"]["cards"] == 720


def test_check_cards_reads_the_library_in_this_folder_else_every_card(env, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_cards(env, CheckOptions(colors="RG")).whole_set  # no hell-library.json here: every card
    generate_library(env, GenerateOptions(seed="ember-tide-42", output=tmp_path / "hell-library.json"))
    here = check_cards(env, CheckOptions(colors="RG"))
    assert not here.whole_set and len(here.verdicts) == 97
    assert len(check_cards(env, CheckOptions(colors="RG", all_cards=True)).verdicts) == 720


def test_check_cards_refuses_no_deck_and_a_report_over_the_deck(env, tmp_path):
    with pytest.raises(InputError, match="give a deck file or --colors"):
        check_cards(env, CheckOptions(all_cards=True))
    deck = tmp_path / "deck.md"
    deck.write_text("4 Forest\n", encoding="utf-8")
    with pytest.raises(InputError, match="writing one would destroy the other"):
        check_cards(env, CheckOptions(deck=str(deck), all_cards=True, output=deck))
    assert deck.read_text(encoding="utf-8") == "4 Forest\n"


def test_choose_proxies_takes_names_every_card_or_a_library_with_its_tokens(env, tmp_path):
    named = choose_proxies(env, ProxyChoice(names=("Pyrohyperspasm", "nut shot")))
    assert [c.name.lower() for c in named.cards] == ["pyrohyperspasm", "nut shot"]
    assert named.title == "Hellscube proxies"
    every = choose_proxies(env, ProxyChoice(all_cards=True, names=("Pyrohyperspasm",)))  # as --all --cards X
    assert len(every.cards) == 720 and every.cards == sorted(every.cards, key=lambda c: c.name.lower())
    generated = generate_library(env, GenerateOptions(seed="ember-tide-42", output=tmp_path / "lib.json"))
    drawn = choose_proxies(env, ProxyChoice(library=tmp_path / "lib.json"))
    assert drawn.cards == generated.cards and drawn.title == library_title("ember-tide-42")
    tokens = choose_proxies(env, ProxyChoice(library=tmp_path / "lib.json", with_tokens=True, token_copies=2))
    assert tokens.cards[:len(drawn.cards)] == drawn.cards
    made = tokens.cards[len(drawn.cards):]
    assert made and len(made) % 2 == 0 and all(c.is_token for c in made)
