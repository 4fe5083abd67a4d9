"""The format's rulings on the cards they touch: a curated table of all 720 cards of Hellscube v1.2, read card by
card (hhdcli/data/rulings-v1.2.json, built by scripts/build_rulings_table.py), and text patterns for the cards
the table lacks. Checked against cards labelled by hand (tests/rulings-labelled.txt)."""

from __future__ import annotations

import copy
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hhdcli.cache import load_builtin
from hhdcli.cards import Card, CardIndex, parse_registry
from hhdcli.rulings import (
    BY_ID,
    CURATED,
    PATTERN,
    RULINGS,
    card_rulings,
    curated_table,
    hell_lines,
    hell_rulings,
    pattern_rulings,
)
from support import CURRENT_SAMPLE, EXCERPT, LEGACY, PIPS, Hhd

ROOT = Path(__file__).resolve().parents[1]
LABELLED = Path(__file__).parent / "rulings-labelled.txt"
ACCEPTED = Path(__file__).parent / "rulings-pattern-accepted.txt"
BUILD = ROOT / "scripts" / "build_rulings_table.py"


def _ids(field: str) -> set[str]:
    return set() if field.strip() == "-" else set(field.split())


def labels() -> dict[str, set[str]]:
    """name → the ruling ids a reader gave it ("-": none)."""
    out = {}
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, ids, *_ = line.split(" | ")
            out[name.strip()] = _ids(ids)
    return out


def traps() -> dict[str, set[str]]:
    """name → the ids whose trigger words a trap carries without calling for the ruling."""
    out = {}
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#") and " | trap: " in line:
            name, _, trap = line.partition(" | ")
            out[name] = set(trap.partition(" | trap: ")[2].split())
    return out


@pytest.fixture(scope="module")
def cards() -> list[Card]:
    return load_builtin().cards


@pytest.fixture(scope="module")
def by_name(cards) -> dict[str, Card]:
    return {card.name: card for card in cards}


# --- the curated table ----------------------------------------------------------------------------------------


def test_the_table_has_a_reviewed_entry_for_every_one_of_the_720_cards(cards):
    """"Reviewed, none" is an entry with no ruling; "not reviewed" would be a missing one: there is none."""
    table = curated_table()
    assert len(cards) == 720 and set(table.by_id) == {card.id for card in cards}
    assert all(hell_rulings(card).source == CURATED for card in cards)
    with_none = sum(1 for e in table.by_id.values() if not e.rulings)
    assert 400 < with_none < 720 - 100  # most cards need no ruling, and over a hundred do
    assert all(set(e.rulings) <= set(BY_ID) for e in table.by_id.values())


def test_every_ruling_id_is_given_to_some_card():
    used = {i for e in curated_table().by_id.values() for i in e.rulings}
    assert used == set(BY_ID)


def test_clarifications_come_in_both_languages_and_speak_of_the_format(cards):
    notes = [e.clarification for e in curated_table().by_id.values() if e.clarification]
    assert len(notes) >= 30
    assert all(n.en.strip() and n.ru.strip() and re.search("[а-яё]", n.ru, re.I) for n in notes)
    # the slip of the old sheet: removal from the draft pool exiles; the original says it leaves the game
    assert not [n.en for n in notes if "draft pool" in n.en and "exile" in n.en]
    lump = next(c for c in cards if c.name == "Lump of Coal")
    assert "sideboard" in hell_rulings(lump).clarification.en


def test_the_committed_table_is_what_the_readings_give():
    """The build is re-runnable and deterministic: from scripts/rulings/ it gives the committed file's bytes."""
    result = subprocess.run([sys.executable, str(BUILD), "--check"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def _build(folder: Path, records: list[dict], second: list[dict] | None = None) -> subprocess.CompletedProcess:
    """The build script run on these readings (as part-1.jsonl, and part-1b.jsonl for a second reading) into a
    table in the same folder."""
    readings = folder / "readings"
    readings.mkdir(parents=True)
    (readings / "part-1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    if second is not None:
        (readings / "part-1b.jsonl").write_text("".join(json.dumps(r) + "\n" for r in second), encoding="utf-8")
    return subprocess.run([sys.executable, str(BUILD), "--readings", str(readings), "-o", str(folder / "t.json")],
                          cwd=ROOT, capture_output=True, text=True)


def _readings(second: bool = False) -> list[dict]:
    """The first readings of all 720 cards (or the second ones), in order."""
    pattern = "part-[0-9]b.jsonl" if second else "part-[0-9].jsonl"
    return [json.loads(line) for part in sorted((ROOT / "scripts" / "rulings").glob(pattern))
            for line in part.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_build_refuses_a_ruling_id_it_does_not_know_naming_the_line(tmp_path):
    records = copy.deepcopy(_readings())
    records[4]["rulings"] = ["drafting"]
    result = _build(tmp_path, records)
    assert result.returncode == 1 and "part-1.jsonl:5" in result.stderr and "drafting" in result.stderr
    assert not (tmp_path / "t.json").exists()


def test_the_build_refuses_a_set_with_a_card_nobody_read(tmp_path):
    records = _readings()
    result = _build(tmp_path, records[:-1])
    assert result.returncode == 1 and "1 of 720 cards were not read" in result.stderr
    assert records[-1]["name"] in result.stderr


def test_the_build_refuses_a_wrong_name_and_a_half_translated_note(tmp_path):
    renamed, half = copy.deepcopy(_readings()), copy.deepcopy(_readings())
    renamed[0]["name"] = "Not This Card"
    half[0]["note"] = {"en": "Only English."}
    assert "is not the name of" in _build(tmp_path / "renamed", renamed).stderr
    assert "the note must be null or" in _build(tmp_path / "half", half).stderr


def test_every_card_was_read_twice_and_the_readings_agree_or_the_review_settles_them():
    first, second = _readings(), _readings(second=True)
    assert [r["id"] for r in first] == [r["id"] for r in second] and len(first) == 720
    reviewed = {json.loads(line)["id"] for line in (ROOT / "scripts" / "rulings" / "review.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()}
    differ = {a["name"] for a, b in zip(first, second, strict=True) if set(a["rulings"]) != set(b["rulings"])}
    assert differ and {a["name"] for a in first if a["id"] in reviewed} >= differ


def test_the_build_refuses_two_readings_that_differ_with_nothing_to_settle_them(tmp_path):
    first, second = copy.deepcopy(_readings()), copy.deepcopy(_readings())
    second[7]["rulings"] = ["ante"]
    result = _build(tmp_path, first, second)
    assert result.returncode == 1 and "part-1.jsonl:8" in result.stderr and "the two readings of" in result.stderr
    assert "settle it in review.jsonl" in result.stderr


def test_the_build_refuses_two_readings_of_one_card_that_disagree(tmp_path):
    records = copy.deepcopy(_readings())
    records.append({**records[0], "rulings": ["ante"]})
    result = _build(tmp_path, records)
    assert result.returncode == 1 and f"part-1.jsonl:{len(records)}" in result.stderr and "read differently" in \
        result.stderr


def _registry_cards(path: Path) -> list[Card]:
    raw = path.read_bytes()
    return parse_registry(gzip.decompress(raw) if path.suffix == ".gz" else raw).cards


@pytest.mark.parametrize("source", [EXCERPT, CURRENT_SAMPLE, LEGACY], ids=["current-excerpt", "current-sample",
                                                                          "legacy"])
def test_a_card_synced_from_either_registry_format_finds_its_table_entry(source, by_name):
    """The legacy sheet's ids are hashes of the name, the current format's UUIDs: a current card finds its
    entry by its image's Drive id or by its (re)name, and it is the entry of the same card."""
    synced = _registry_cards(source)
    builtin = CardIndex(list(by_name.values()))
    assert synced
    for card in synced:
        found = hell_rulings(card)
        assert found.source == CURATED, card.name
        same = builtin.match(card.id, card.name, card.image)
        assert same is not None and curated_table().entry(card) is curated_table().by_id[same.id], card.name


def test_a_card_the_table_lacks_gets_the_patterns_guess_marked_as_guessed(by_name):
    from dataclasses import replace

    lump = by_name["Lump of Coal"]
    new = replace(lump, id="a-card-added-since", name="Coal Lump Returns", image=None,
                  faces=(replace(lump.faces[0], name="Coal Lump Returns",
                                 oracle_text="Create a 1/1 orange Cat creature token."),))
    found = hell_rulings(new)
    assert found.source == PATTERN and [r.id for r in found.rulings] == ["colors"] and found.clarification is None


# --- the labels: the table against them, and the patterns alone ------------------------------------------------


def test_the_labelled_file_covers_every_ruling_id_with_cards_and_traps():
    truth, trapped = labels(), traps()
    in_table = {r.id: sum(1 for e in curated_table().by_id.values() if r.id in e.rulings) for r in RULINGS}
    assert len(truth) >= 140
    for ruling in RULINGS:  # two cards of each, or all the set has (one card names a color beyond the six)
        assert sum(1 for ids in truth.values() if ruling.id in ids) >= min(2, in_table[ruling.id]), ruling.id
        # every card of the set that says "companion" is a companion: that id has no trap to find
        assert ruling.id == "companion" or any(ruling.id in t for t in trapped.values()), ruling.id
    assert sum(1 for ids in truth.values() if not ids) >= 60


TRIGGER = {  # what makes a card a trap for a ruling: a word of the kind the patterns look for
    "draft": r"draft|pack|pool|draw", "game-start": r"\bgame\b", "ante": r"ante", "companion": r"companion",
    "freeze": r"free|froz|ice|snow|cold|winter|tap|resolve", "sideboard": r"side|outside|need|random",
    "owner": r"own|control", "zones": r"zone|deck|pile|pool|jail|outside", "numbers": r"number|\d|\bone\b",
    "token-card": r"token", "token-copy": r"cop(?:y|ies)|token",
    "colors": r"colou?r|gold|gr[ae]y|orange|purple|shadow|gay",
}


def test_every_trap_carries_its_trigger_word_and_not_the_ruling(by_name):
    for name, ids in traps().items():
        card = by_name[name]
        text = " ".join([card.name, *(f"{f.type_line} {f.oracle_text}" for f in card.faces)]).lower()
        for ruling_id in ids:
            assert re.search(TRIGGER[ruling_id], text), (name, ruling_id)
            assert ruling_id not in {r.id for r in card_rulings(card)}, (name, ruling_id)


def test_every_label_agrees_with_the_table(by_name):
    disagree = {name: (ids, {r.id for r in card_rulings(by_name[name])}) for name, ids in labels().items()
                if ids != {r.id for r in card_rulings(by_name[name])}}
    assert disagree == {}


def test_precision_and_recall_of_the_patterns_alone_on_the_labels(by_name, capsys):
    """Reported apart: the patterns only speak for cards the table lacks, so this is how well a new card is guessed."""
    truth = labels()
    guessed = {name: {r.id for r in pattern_rulings(by_name[name])} for name in truth}
    lines, found, total, wrong = [], 0, 0, 0
    for ruling in RULINGS:
        tp = sum(1 for n in truth if ruling.id in truth[n] and ruling.id in guessed[n])
        fp = sum(1 for n in truth if ruling.id not in truth[n] and ruling.id in guessed[n])
        fn = sum(1 for n in truth if ruling.id in truth[n] and ruling.id not in guessed[n])
        found, total, wrong = found + tp, total + tp + fn, wrong + fp
        lines.append(f"{ruling.id:11} precision {tp / max(1, tp + fp):.2f}  recall {tp / max(1, tp + fn):.2f}  "
                     f"({tp} right, {fp} wrong, {fn} missed)")
    with capsys.disabled():
        print(f"\npatterns alone on {len(truth)} labelled cards: recall {found}/{total}, {wrong} wrong\n"
              + "\n".join(lines))
    assert found / total >= 0.95 and wrong == 0


def _accepted() -> dict[str, tuple[set[str], set[str], str]]:
    out = {}
    for line in ACCEPTED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, table_ids, pattern_ids, why = line.split(" | ")
            out[name] = (_ids(table_ids), _ids(pattern_ids), why.strip())
    return out


def test_the_patterns_disagree_with_the_table_only_where_accepted_with_a_reason(cards, capsys):
    """Over all 720 cards: each disagreement is either fixed in the patterns or listed, with its reason, in
    tests/rulings-pattern-accepted.txt (and a listed card that agrees now is taken off the list)."""
    found = {}
    for card in cards:
        table, guess = {r.id for r in card_rulings(card)}, {r.id for r in pattern_rulings(card)}
        if table != guess:
            found[card.name] = (table, guess)
    with capsys.disabled():
        print(f"\npatterns and table disagree on {len(found)} of {len(cards)} cards: "
              + "; ".join(f"{n} (table {sorted(t) or '-'}, patterns {sorted(p) or '-'})" for n, (t, p) in found.items()))
    accepted = _accepted()
    assert all(why for *_, why in accepted.values())
    assert found == {name: (t, p) for name, (t, p, _) in accepted.items()}


# --- shown where players look ------------------------------------------------------------------------------


def test_hhd_card_json_gives_hell_rulings_with_their_source_and_the_clarification(synced):
    document = json.loads(synced("card", "dreadmaw draft guide", "--json").output)["card"]
    assert [r["id"] for r in document["hell_rulings"]] == ["draft"]
    assert document["hell_rulings"][0]["source"] == "curated" and document["hell_rulings_source"] == "curated"
    assert "sideboard" in document["hell_rulings"][0]["text"] and "Colossal Dreadmaws" in document["hell_clarification"]
    plain = json.loads(synced("card", "pyrohyperspasm", "--json").output)["card"]
    assert plain["hell_rulings"] == [] and plain["hell_rulings_source"] == "curated"
    assert plain["hell_clarification"] is None


def test_cards_ruling_lists_the_tables_cards(synced):
    listed = json.loads(synced("cards", "--ruling", "ante", "--json").output)["cards"]
    assert {row["name"] for row in listed} == {"The Antechamber", "Demonic Gambit", "Fucked or Friction",
                                               "The Obamanomicon"}
    colors = json.loads(synced("cards", "--ruling", "colors", "--json").output)["cards"]
    assert [row["name"] for row in colors] == ["Garfield of the Dead"]


def test_hhd_card_shows_the_rulings_and_the_clarification(synced):
    text = synced("card", "lump of coal").output
    assert "In Hell's Half-Draft:" in text and "[draft]" in text and "[owner]" in text
    assert "This card: It triggers when you take it" in text and "guessed" not in text


def _new_card_registry(tmp_path: Path) -> Path:
    """The real current-format sample with one Hellscube v1.2 card added since the table was made."""
    document = json.loads(CURRENT_SAMPLE.read_text(encoding="utf-8"))
    record = copy.deepcopy(next(r for r in document["data"] if str(r.get("set", "")).startswith("HLC")))
    record.update(id="00000000-0000-4000-8000-000000000001", name="Orange Pack Gremlin", image=None,
                  oracle_text="When you draft Orange Pack Gremlin, create a 1/1 orange Cat creature token.")
    document["data"].append(record)
    path = tmp_path / "registry.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_hhd_card_says_when_the_rulings_are_guessed_from_the_text(tmp_path):
    hhd = Hhd(tmp_path / "cache")
    assert hhd("sync", "--source", str(_new_card_registry(tmp_path)), "--symbols", str(PIPS)).exit_code == 0
    text = hhd("card", "orange pack gremlin").output
    assert "[draft]" in text and "[colors]" in text and "guessed from the card's text" in text
    document = json.loads(hhd("card", "orange pack gremlin", "--json").output)["card"]
    assert document["hell_rulings_source"] == "pattern"
    assert {r["source"] for r in document["hell_rulings"]} == {"pattern"}
    assert json.loads(hhd("card", "whale visions", "--json").output)["card"]["hell_rulings_source"] == "curated"


def test_the_cli_knows_every_ruling_id():
    from hhdcli.cli import RULING_IDS

    assert RULING_IDS == [r.id for r in RULINGS]


HELL_CARDS = ["Lump of Coal", "Castle Zizzerlot", "Pyrohyperspasm"]


def _pdf_text(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


def test_text_proxies_end_with_the_rulings_and_mark_them_with_a_flag_and_the_ids(synced, tmp_path):
    out = tmp_path / "p.pdf"
    assert synced("proxies", *[a for n in HELL_CARDS for a in ("--cards", n)], "--text-only", "-o", str(out)).exit_code == 0
    text = _pdf_text(out)
    assert "Hell (draft): drafting it = taking it" in text and "Hell: sideboard, owner" in text
    assert "Hell: draft, owner" in text
    assert text.count("Hell (") == 4  # Lump of Coal 2, Castle Zizzerlot 2, Pyrohyperspasm none
    # four rulings do not fit beside the footer's words: the ids take their place, and the text box keeps the card's
    crowded = tmp_path / "c.pdf"
    assert synced("proxies", "--cards", "Fucked or Friction", "--text-only", "-o", str(crowded)).exit_code == 0
    assert "HLC · Hell: ante, sideboard, owner, zones" in _pdf_text(crowded)


def test_the_check_report_marks_cards_with_rulings(synced, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("20 Mountain\n20 Forest\n", encoding="utf-8")
    for form in ("html", "md"):
        out = tmp_path / f"check.{form}"
        assert synced("check", str(deck), "--all", "--offline", "-o", str(out)).exit_code == 0
        report = out.read_text(encoding="utf-8")
        assert "⚑draft" in report and "Hell's Half-Draft ruling changes how the card works" in report
    rows = json.loads(synced("check", str(deck), "--all", "--offline", "--json").stdout)["cards"]
    lump = next(r for r in rows if r["name"] == "Lump of Coal")
    assert lump["hell_rulings"] == ["draft", "owner"]


def test_exports_carry_hell_lines_and_the_clarification(tmp_path):
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.mana import SymbolTable

    index = CardIndex(load_builtin().cards)
    chosen = [index.find(n) for n in HELL_CARDS]
    table = SymbolTable.from_records([])
    tts = export_library(chosen, "t", ExportFormat.TTS, tmp_path / "t.tts.json", table)
    save = json.loads(tts.files[tmp_path / "t.tts.json"])
    descriptions = {c["Nickname"]: c["Description"] for c in save["ObjectStates"][0]["ContainedObjects"]}
    assert "Hell (draft):" in descriptions["Lump of Coal"] and "Hell (" not in descriptions["Pyrohyperspasm"]
    assert "Hell: It triggers when you take it" in descriptions["Lump of Coal"]
    cockatrice = export_library(chosen, "t", ExportFormat.COCKATRICE, tmp_path / "t.cockatrice.xml", table)
    xml = cockatrice.files[tmp_path / "t.cockatrice.xml"].decode()
    assert "Hell (owner):" in xml and "Hell (sideboard):" in xml


def test_the_table_shows_the_rulings_of_the_drawn_card(tmp_path):
    from hhdcli.mana import SymbolTable
    from hhdcli.table.game.rules import Action
    from hhdcli.table.game.session import Session

    lump = next(c for c in load_builtin().cards if c.name == "Lump of Coal")
    session = Session(tmp_path / "s.sqlite", {1: lump, 2: lump, 3: lump}, SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R")})
    session.act(Action.OPENING_HAND, "Anna")  # the opening hand comes before any draw
    session.act(Action.KEEP, "Anna", bottom=[])
    status = session.act(Action.DRAW, "Anna")
    assert [r["id"] for r in status["hell_rulings"]] == ["draft", "owner"]


# --- the booklet: hhd rules -l LIBRARY ------------------------------------------------------------------------


def _library_ruled(library: Path, lang: str = "en") -> list[tuple[str, list[str], str | None]]:
    """The library's cards that have a ruling, from the library file and the table (what the booklet must list)."""
    index = CardIndex(load_builtin().cards)
    names = [e["name"] for e in json.loads(library.read_text(encoding="utf-8"))["cards"]]
    out = {}
    for name in names:
        card = index.find(name)
        if card is None:  # a basic land
            continue
        found = hell_rulings(card)
        if found.rulings or found.clarification:
            out[name] = ([r.id for r in found.rulings], found.clarification.text(lang) if found.clarification else None)
    return [(n, *out[n]) for n in sorted(out, key=str.casefold)]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_booklet_adds_the_librarys_cards_with_their_rulings_after_the_sheet(synced, library, tmp_path, lang):
    from pypdf import PdfReader

    sheet, booklet = tmp_path / "sheet.pdf", tmp_path / "booklet.pdf"
    assert synced("rules", "--lang", lang, "-o", str(sheet)).exit_code == 0
    assert synced("rules", "--lang", lang, "-l", str(library), "-o", str(booklet)).exit_code == 0
    sheet_pages, pages = len(PdfReader(sheet).pages), PdfReader(booklet).pages
    assert len(pages) > sheet_pages  # the sheet stays one sheet of its own; the cards follow
    cards_text = " ".join(" ".join(p.extract_text().split()) for p in pages[sheet_pages:])
    ruled = _library_ruled(library, lang)
    assert ruled, "the seed's library should have some ruled cards"
    title = "This library's cards with a ruling" if lang == "en" else "Карты этой библиотеки с правилами формата"
    assert title in cards_text
    for name, ids, note in ruled:  # each ruling by its name in the booklet's language ("зоны", not "zones")
        assert name in cards_text and all(BY_ID[i].name(lang) in cards_text for i in ids), name
        if note:
            assert " ".join(note.split()[:4]) in cards_text, name
    heading = "The rulings" if lang == "en" else "Правила"
    used = {i for _, ids, _ in ruled for i in ids}
    assert heading in cards_text and all(BY_ID[i].text(lang)[:25] in cards_text for i in used)


def test_the_booklet_in_markdown_and_html_lists_the_same_cards(synced, library, tmp_path):
    from markupsafe import escape

    from hhdcli.render.documents.templates import md_escape

    ruled = _library_ruled(library)
    for form, shown in (("md", md_escape), ("html", lambda t: str(escape(t)))):
        out = tmp_path / f"booklet.{form}"
        assert synced("rules", "-l", str(library), "-o", str(out)).exit_code == 0
        text = out.read_text(encoding="utf-8")
        assert "quick reference" in text and shown("This library's cards with a ruling") in text
        for name, _ids, note in ruled:
            assert shown(name) in text and (note is None or shown(note) in text), name
    plain = tmp_path / "sheet.md"
    assert synced("rules", "-o", str(plain)).exit_code == 0
    assert "This library" not in plain.read_text(encoding="utf-8")


def test_the_booklet_refuses_a_missing_library_with_a_one_line_error(synced, tmp_path):
    result = synced("rules", "-l", str(tmp_path / "nope.json"), "-o", str(tmp_path / "b.pdf"))
    assert result.exit_code != 0 and "Traceback" not in result.output and "nope.json" in result.output
    assert not (tmp_path / "b.pdf").exists()


# --- the rules sheet says the whole rule ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sheet_sends_a_card_removed_from_the_draft_pool_to_the_sideboard(lang):
    from hhdcli.render.texts import rules_sections

    text = " ".join(p for section in rules_sections(lang) for p in section.paragraphs)
    if lang == "en":
        assert "removed from the game, so it goes to the sideboard" in text and "exiles" not in text
        assert "An effect that turns a card into a token makes it a token card" in text
    else:
        assert "убирают её из игры, то есть в сайдборд" in text and "изгоня" not in text
        assert "превращают карту в фишку, превращают её в карту-фишку" in text
        assert "Небул" not in text and text.count("Туманност") == 2  # one name for Nebula, the original's


def test_the_draft_ruling_says_the_same_as_the_sheet():
    draft = BY_ID["draft"]
    assert "exile" not in draft.text("en") and "изгн" not in draft.text("ru")
    assert "removed from the game" in draft.text("en") and "убирается из игры" in draft.text("ru")
    assert "a card an effect turns into a token" in BY_ID["token-card"].text("en") and "превратил в фишку" in \
        BY_ID["token-card"].text("ru")


def test_a_cards_ruling_lines_speak_the_language_asked_for(by_name):
    """The lines a text proxy, a TTS description or a Cockatrice card carries: each ruling's name and short text
    and the card's clarification, in English or in Russian (the catalog has the Russian of every ruling's name and
    both texts): a Russian face never names a ruling by its English id."""
    lump = by_name["Lump of Coal"]
    english, russian = hell_lines(lump, "en"), hell_lines(lump, "ru")
    assert english[0].startswith("Hell (draft): drafting it = taking it") and len(english) == len(russian)
    assert russian[0].startswith("Ад (драфт): драфт карты") and russian[-1].startswith("Ад: Срабатывает")
    for ruling in RULINGS:
        assert ruling.short and ruling.short_text("en") == ruling.short and ruling.text("en") == ruling.en
        assert re.search("[а-яё]", ruling.short_text("ru"), re.I) and re.search("[а-яё]", ruling.text("ru"), re.I)
        assert ruling.name("en") == ruling.id and re.fullmatch("[а-яё -]+", ruling.name("ru"))
