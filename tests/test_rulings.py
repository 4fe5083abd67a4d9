"""The format's rulings on the cards they touch: measured on cards labelled by hand (tests/rulings-labelled.txt)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hhdcli.cache import load_builtin
from hhdcli.cards import CardIndex
from hhdcli.rulings import RULINGS, card_rulings

LABELLED = Path(__file__).parent / "rulings-labelled.txt"


def labels() -> dict[str, set[str]]:
    out = {}
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, ids = line.rpartition(" | ")
            out[name.strip()] = set() if ids.strip() == "-" else set(ids.split())
    return out


@pytest.fixture(scope="module")
def predicted() -> dict[str, set[str]]:
    index = CardIndex(load_builtin().cards)
    found = {}
    for name in labels():
        card = index.find(name)
        assert card is not None and card.name == name, name
        found[name] = {r.id for r in card_rulings(card)}
    return found


def test_the_labelled_fixture_is_large_enough():
    assert len(labels()) >= 40 and sum(1 for ids in labels().values() if not ids) >= 10


def test_precision_and_recall_per_ruling(predicted, capsys):
    truth = labels()
    lines, misses, total = [], 0, 0
    for ruling in RULINGS:
        tp = sum(1 for n in truth if ruling.id in truth[n] and ruling.id in predicted[n])
        fp = sum(1 for n in truth if ruling.id not in truth[n] and ruling.id in predicted[n])
        fn = sum(1 for n in truth if ruling.id in truth[n] and ruling.id not in predicted[n])
        misses, total = misses + fn, total + tp + fn
        if tp + fp + fn:
            lines.append(f"{ruling.id:11} precision {tp / max(1, tp + fp):.2f}  recall {tp / max(1, tp + fn):.2f}  "
                         f"({tp} right, {fp} wrong, {fn} missed)")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert total and (total - misses) / total >= 0.95


def test_no_ruling_on_a_card_labelled_as_having_none(predicted):
    wrong = {n: predicted[n] for n, ids in labels().items() if not ids and predicted[n]}
    assert wrong == {}


def test_hhd_card_json_gives_hell_rulings_and_cards_lists_by_ruling(synced):
    document = json.loads(synced("card", "dreadmaw draft guide", "--json").output)
    assert [r["id"] for r in document["card"]["hell_rulings"]] == ["draft"]
    assert "sideboard" in document["card"]["hell_rulings"][0]["text"]
    assert json.loads(synced("card", "pyrohyperspasm", "--json").output)["card"]["hell_rulings"] == []
    listed = json.loads(synced("cards", "--ruling", "ante", "--json").output)["cards"]
    assert "The Antechamber" in {row["name"] for row in listed} and len(listed) < 10
    text = synced("card", "lump of coal").output
    assert "In Hell's Half-Draft:" in text and "[draft]" in text


def test_the_cli_knows_every_ruling_id():
    from hhdcli.cli import RULING_IDS

    assert RULING_IDS == [r.id for r in RULINGS]


# --- shown where players look ------------------------------------------------------------------------------

HELL_CARDS = ["Lump of Coal", "Castle Zizzerlot", "Pyrohyperspasm"]


def test_text_proxies_end_with_the_rulings_and_mark_them(synced, tmp_path):
    import subprocess

    out = tmp_path / "p.pdf"
    assert synced("proxies", *[a for n in HELL_CARDS for a in ("--cards", n)], "--text-only", "-o", str(out)).exit_code == 0
    text = " ".join(subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert "Hell (draft): drafting it = taking it" in text and "Hell: sideboard, owner" in text
    assert text.count("Hell (") == 3  # Lump of Coal 1, Castle Zizzerlot 2, Pyrohyperspasm none


def test_the_check_report_marks_cards_with_rulings(synced, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("20 Mountain\n20 Forest\n", encoding="utf-8")
    for form in ("html", "md"):
        out = tmp_path / f"check.{form}"
        assert synced("check", str(deck), "--all", "--offline", "-o", str(out)).exit_code == 0
        report = out.read_text(encoding="utf-8")
        assert "⚑draft" in report and "Hell's Half-Draft changes how the card works" in report
    rows = json.loads(synced("check", str(deck), "--all", "--offline", "--json").stdout)["cards"]
    lump = next(r for r in rows if r["name"] == "Lump of Coal")
    assert lump["hell_rulings"] == ["draft"]


def test_exports_carry_hell_lines(synced, tmp_path):
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.mana import SymbolTable

    index = CardIndex(load_builtin().cards)
    cards = [index.find(n) for n in HELL_CARDS]
    table = SymbolTable.from_records([])
    tts = export_library(cards, "t", ExportFormat.TTS, tmp_path / "t.tts.json", table)
    save = json.loads(tts.files[tmp_path / "t.tts.json"])
    descriptions = {c["Nickname"]: c["Description"] for c in save["ObjectStates"][0]["ContainedObjects"]}
    assert "Hell (draft):" in descriptions["Lump of Coal"] and "Hell (" not in descriptions["Pyrohyperspasm"]
    cockatrice = export_library(cards, "t", ExportFormat.COCKATRICE, tmp_path / "t.cockatrice.xml", table)
    xml = cockatrice.files[tmp_path / "t.cockatrice.xml"].decode()
    assert "Hell (owner):" in xml and "Hell (sideboard):" in xml


def test_the_table_shows_the_rulings_of_the_drawn_card(tmp_path):
    from hhdcli.mana import SymbolTable
    from hhdcli.table.state import Session

    lump = next(c for c in load_builtin().cards if c.name == "Lump of Coal")
    session = Session(tmp_path / "s.sqlite", {1: lump}, SymbolTable.from_records([]), "seed")
    session.start({"Anna": tuple("R")})
    status = session.draw("Anna")
    assert status["hell_rulings"][0]["id"] == "draft"
