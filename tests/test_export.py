"""Exports of a Hell library for Tabletop Simulator, Cockatrice, MPC Autofill and spreadsheets, each parsed
back and checked against what its program reads; and the odds that `hhd check` gives a deck."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import pytest

from hhdcli.cards import drive_id
from hhdcli.check import Odds
from hhdcli.deck import read_deck
from support import EXCERPT, Hhd

BASICS = {"Plains", "Island", "Swamp", "Mountain", "Forest"}


@pytest.fixture(scope="module")
def every_excerpt_card(excerpt_cache, tmp_path_factory) -> tuple[Hhd, Path]:
    """A library of all 105 real current-format cards (double-faced, split and imageless ones included)."""
    folder = tmp_path_factory.mktemp("excerpt-library")
    run = Hhd(excerpt_cache)
    library = folder / "all.json"
    made = run("generate", "--seed", "all", "--size", "105", "--basics-per-type", "0", "-o", str(library))
    assert made.exit_code == 0, made.output
    return run, library


def library_names(library: Path) -> list[str]:
    return [e["name"] for e in json.loads(library.read_text())["cards"]]


def export(run: Hhd, library: Path, fmt: str, out: Path, *extra: str):
    result = run("export", "-l", str(library), "--format", fmt, "-o", str(out), *extra)
    assert result.exit_code == 0, result.output
    return result


# --- Tabletop Simulator ------------------------------------------------------------------------------------


def test_tts_holds_the_library_face_down_in_order(synced, library, tmp_path):
    out = tmp_path / "hell.tts.json"
    result = export(synced, library, "tts", out)
    save = json.loads(out.read_text())
    deck = save["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom" and "ember-tide-42" in deck["Nickname"]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == library_names(library)
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    assert deck["Transform"]["rotZ"] == 180  # face down
    for card in deck["ContainedObjects"]:
        key = str(card["CardID"] // 100)
        assert card["CardID"] % 100 == 0 and deck["CustomDeck"][key] == card["CustomDeck"][key]
        custom = card["CustomDeck"][key]
        assert custom["NumWidth"] == custom["NumHeight"] == 1 and custom["BackIsHidden"] is True
        assert custom["FaceURL"].startswith(("https://", "file://"))
    notecard = save["ObjectStates"][-1]
    assert notecard["Name"] == "Notecard" and "{2} less" in notecard["Description"]
    assert "only this computer shows them" in result.output


def test_tts_draws_what_has_no_image_and_the_red_back(synced, library, tmp_path):
    out = tmp_path / "hell.tts.json"
    export(synced, library, "tts", out)
    cards = json.loads(out.read_text())["ObjectStates"][0]["ContainedObjects"]
    for card in cards:
        custom = next(iter(card["CustomDeck"].values()))
        if card["Nickname"] in BASICS:
            assert custom["FaceURL"].startswith("file://")
        back = Path(custom["BackURL"].removeprefix("file://"))
        assert back.name == "hell-back.png" and back.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    forest = next(c for c in cards if c["Nickname"] == "Forest")
    png = Path(next(iter(forest["CustomDeck"].values()))["FaceURL"].removeprefix("file://"))
    from PIL import Image

    with Image.open(png) as image:
        assert image.size[0] == pytest.approx(496, abs=1) and image.size[1] == pytest.approx(693, abs=1)  # 200 dpi
        assert image.getpixel((248, 346))[1] > image.getpixel((248, 346))[0]  # the Forest's green symbol


def test_tts_with_a_hosted_back_and_double_faced_cards(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "all.tts.json"
    export(run, library, "tts", out, "--back-url", "https://example.org/hell-back.png")
    states = json.loads(out.read_text())["ObjectStates"]
    main, dfcs = states[0], states[1]
    assert {next(iter(c["CustomDeck"].values()))["BackURL"] for c in main["ContainedObjects"]} == {
        "https://example.org/hell-back.png"}
    assert dfcs["Nickname"] == "Double-faced cards"
    down = next(c for c in dfcs["ContainedObjects"] if c["Nickname"] == "Down // The Count")
    custom = next(iter(down["CustomDeck"].values()))
    assert custom["UniqueBack"] is True and custom["FaceURL"] != custom["BackURL"]
    assert all(c["Nickname"] != "Whale Visions" for c in dfcs["ContainedObjects"])
    sideways = {c["Nickname"] for c in main["ContainedObjects"] if c.get("SidewaysCard")}
    assert "Some // Body" in sideways and "Whale Visions" not in sideways


# --- Cockatrice ------------------------------------------------------------------------------------------------


def test_cockatrice_set_and_deck_round_trip(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "hell.xml"
    result = export(run, library, "cockatrice", out)
    assert "customsets" in result.output
    root = ET.parse(out).getroot()
    assert root.tag == "cockatrice_carddatabase" and root.get("version") == "4"
    assert root.find("sets/set/name").text == "HELL" and root.find("sets/set/settype").text == "Custom"
    cards = {c.findtext("name"): c for c in root.iter("card")}
    whale = cards["Whale Visions"]
    assert whale.findtext("prop/manacost") == "{2}{U}" and whale.findtext("prop/maintype") == "Sorcery"
    assert whale.findtext("prop/colors") == "U" and whale.find("set").get("picurl").startswith("https://")
    assert "Scry 2" in whale.findtext("text")
    down, count = cards["Down (HC)"], cards["The Count"]  # "Down" is a real card's name too
    assert down.findtext("prop/side") == "front" and count.findtext("prop/side") == "back"
    assert down.findtext("reverse-related") == "The Count" and count.findtext("reverse-related") == "Down (HC)"
    assert down.findtext("prop/layout") == "transform"
    deck = read_deck(out.with_name("hell.cod"))  # our own reader, as Cockatrice's deck format
    assert deck.format == "Cockatrice .cod" and sum(e.count for e in deck.main) == 105
    assert {e.name for e in deck.main} <= set(cards)  # every card of the deck is in the set file


def test_cockatrice_deck_lists_basics_by_their_names(synced, library, tmp_path):
    export(synced, library, "cockatrice", tmp_path / "hell.xml")
    deck = read_deck(tmp_path / "hell.cod")
    names = library_names(library)
    assert sum(e.count for e in deck.main) == 97
    assert {e.name: e.count for e in deck.main if e.name in BASICS} == {
        b: names.count(b) for b in BASICS if b in names}
    set_names = {c.findtext("name") for c in ET.parse(tmp_path / "hell.xml").getroot().iter("card")}
    assert not set_names & BASICS  # Cockatrice has its own basics


# --- MPC Autofill ------------------------------------------------------------------------------------------------


def test_mpc_order_fills_every_slot_once_by_drive_id(synced, library, tmp_path):
    out = tmp_path / "order.xml"
    result = export(synced, library, "mpc", out, "--cardback", "MyRedBackDriveId000000000")
    order = ET.parse(out).getroot()
    quantity = int(order.findtext("details/quantity"))
    names = [n for n in library_names(library) if n not in BASICS]
    assert quantity == len(names) and int(order.findtext("details/bracket")) == 90  # the smallest that holds 74
    slots = sorted(int(s) for card in order.iter("card") if card in list(order.find("fronts"))
                   for s in card.findtext("slots").split(","))
    assert slots == list(range(quantity))
    for card in order.find("fronts"):
        assert len(card.findtext("id")) >= 25 and card.findtext("name").endswith(".png")
    assert order.findtext("cardback") == "MyRedBackDriveId000000000"
    assert "no Google Drive image" in result.output and "Forest" in result.output


def test_mpc_order_prints_both_sides_of_double_faced_cards(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "order.xml"
    export(run, library, "mpc", out)
    order = ET.parse(out).getroot()
    backs = {card.findtext("query"): card.findtext("id") for card in order.find("backs")}
    document = json.loads(EXCERPT.read_text())
    down = next(r for r in document["data"] if r["name"] == "Down // The Count")
    assert backs["down // the count"] == drive_id(down["card_faces"][1]["image"])


# --- CSV -------------------------------------------------------------------------------------------------------------


def test_csv_for_spreadsheets(synced, library, tmp_path):
    out = tmp_path / "hell.csv"
    export(synced, library, "csv", out)
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert [r["name"] for r in rows] == library_names(library)
    assert [int(r["position"]) for r in rows] == list(range(1, 98))
    assert {r["kind"] for r in rows} <= {"spell", "land", "basic"}
    pyro = next((r for r in rows if r["name"] == "Pyrohyperspasm"), None)
    assert pyro is None or pyro["colors"] == "R"


def test_generate_exports_too(synced, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = synced("generate", "--seed", "x", "--export", "csv", "--export", "mpc")
    assert result.exit_code == 0 and (tmp_path / "hell-library.csv").exists() and (tmp_path / "hell-library.mpc.xml").exists()


# --- the odds ------------------------------------------------------------------------------------------------------------


def brute_force(verdicts: list[str]) -> dict[str, float]:
    pairs = list(combinations(range(len(verdicts)), 2))
    usable = [sum(verdicts[i] in ("land", "take") for i in pair) for pair in pairs]
    return {"land": sum(any(verdicts[i] == "land" for i in p) for p in pairs) / len(pairs),
            "usable": sum(u > 0 for u in usable) / len(pairs),
            "none": sum(u == 0 for u in usable) / len(pairs),
            "expected": sum(usable) / len(pairs)}


@pytest.mark.parametrize("verdicts", [["land", "take", "choice", "choice", "choice"],
                                      ["choice"] * 6 + ["land"],
                                      ["take", "take", "land", "land", "choice", "take", "choice", "choice"]])
def test_odds_match_a_count_over_every_pair(verdicts):
    odds = Odds(len(verdicts), sum(v in ("land", "take") for v in verdicts), verdicts.count("land"))
    counted = brute_force(verdicts)
    assert odds.land_in_hand == pytest.approx(counted["land"])
    assert odds.usable_in_hand == pytest.approx(counted["usable"])
    assert odds.none_usable == pytest.approx(counted["none"])
    assert odds.expected_usable == pytest.approx(counted["expected"])


def test_odds_by_hand_for_a_known_library():
    odds = Odds(cards=97, usable=50, lands=30)
    assert odds.none_usable == pytest.approx(47 * 46 / (97 * 96))  # 0.2322
    assert odds.usable_in_hand == pytest.approx(1 - 2162 / 9312)
    assert odds.land_in_hand == pytest.approx(1 - 67 * 66 / (97 * 96))
    assert odds.expected_usable == pytest.approx(100 / 97) and odds.draw_usable == pytest.approx(50 / 97)
    assert odds.reading().startswith("about 3 in 4 opening hands get a usable Hell card")


def test_check_reports_the_odds_everywhere(synced, library, tmp_path):
    data = json.loads(synced("check", "--colors", "RG", "-l", str(library), "--json").stdout)
    counts = data["summary"]
    odds = data["odds"]
    assert odds["cards"] == 97 and odds["usable"] == counts["land"] + counts["take"]
    assert odds["none_usable"] == pytest.approx(Odds(97, odds["usable"], counts["land"]).none_usable, abs=1e-4)
    text = synced("check", "--colors", "RG", "-l", str(library)).stdout
    assert "opening hands get a usable Hell card" in text and "one draw usable" in text
    report = tmp_path / "check.md"
    synced("check", "--colors", "RG", "-l", str(library), "-o", str(report))
    assert "## Odds" in report.read_text(encoding="utf-8")
    whole = json.loads(synced("check", "--colors", "RG", "--all", "--json").stdout)["odds"]
    assert whole["cards"] == 720 + 250  # a random tenth: the top cards are a random pair of the pool
    purple = json.loads(synced("check", "--colors", "P", "--all", "--json").stdout)["odds"]
    assert purple["at_least_one_usable"] < whole["at_least_one_usable"]  # color choices compare


# --- exports the programs take as meant ----------------------------------------------------------------------


def test_the_format_follows_the_outputs_extension(synced, library, tmp_path):
    out = tmp_path / "hell.csv"
    result = synced("export", "-l", str(library), "-o", str(out))
    assert result.exit_code == 0 and "97 cards for csv" in result.output
    assert out.read_bytes().startswith("\ufeffposition,name".encode())
    assert synced("export", "-l", str(library), "-o", str(tmp_path / "x.xml")).exit_code == 2  # which XML?


def test_csv_is_safe_in_a_spreadsheet():
    from hhdcli.cards import Card, Face
    from hhdcli.export.spreadsheet import library_csv

    hostile = [Card(id=f"c{i}", name=name, set_code="HLC", faces=(Face(name=name, type_line="Instant"),))
               for i, name in enumerate(["-1 Llanowar Elf", "=HYPERLINK(\"http://x\")", "+1", "@SUM(A1)", "Fine — Name"])]
    rows = list(csv.reader(io.StringIO(library_csv(hostile).decode("utf-8-sig"))))[1:]
    assert [r[1] for r in rows] == ["'-1 Llanowar Elf", "'=HYPERLINK(\"http://x\")", "'+1", "'@SUM(A1)", "Fine — Name"]


def test_tts_image_files_stay_in_the_export_folder_whatever_the_ids(tmp_path):
    from hhdcli.cards import Card, Face
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.mana import SymbolTable

    hostile = [Card(id=card_id, name="Evil", set_code="HLC", faces=(Face(name="Evil", type_line="Instant"),))
               for card_id in ("../../x", "/etc/passwd", "a\\..\\b", "")]
    out = tmp_path / "deep" / "hell.tts.json"
    done = export_library(hostile, "t", ExportFormat.TTS, out, SymbolTable.from_records([]))
    folder = (tmp_path / "deep" / "hell.tts-images").resolve()
    images = [p for p in done.files if p.suffix == ".png"]
    assert images and all(p.resolve().parent == folder for p in images)


def test_mpc_takes_a_drive_share_link_and_refuses_an_empty_order(synced, library, tmp_path):
    link = "https://drive.google.com/file/d/1q2w3e4r5t6y7u8i9o0pAbCdEfGhIjK/view?usp=sharing"
    out = tmp_path / "order.mpc.xml"
    export(synced, library, "mpc", out, "--cardback", link)
    assert ET.parse(out).getroot().findtext("cardback") == "1q2w3e4r5t6y7u8i9o0pAbCdEfGhIjK"
    from hhdcli.errors import InputError
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.library import basic_card
    from hhdcli.mana import SymbolTable

    with pytest.raises(InputError, match="empty"):
        export_library([basic_card("Forest", 1)], "t", ExportFormat.MPC, out, SymbolTable.from_records([]))


def test_the_mpc_summary_counts_the_cards_in_the_order(synced, library, tmp_path):
    result = export(synced, library, "mpc", tmp_path / "o.mpc.xml")
    quantity = int(ET.parse(tmp_path / "o.mpc.xml").getroot().findtext("details/quantity"))
    assert f"{quantity} cards for mpc" in result.output and quantity < 97


def all_card_ids(save: dict) -> list[int]:
    ids = []
    for state in save["ObjectStates"]:
        ids += [c["CardID"] for c in state.get("ContainedObjects", [])] + ([state["CardID"]] if "CardID" in state else [])
    return ids


def test_tts_card_ids_are_unique_across_the_save_and_images_can_be_hosted(synced, library, tmp_path):
    out = tmp_path / "hell.tts.json"
    result = export(synced, library, "tts", out, "--image-base-url", "https://example.org/hell")
    save = json.loads(out.read_text())
    ids = all_card_ids(save)
    assert len(ids) == len(set(ids))
    urls = [c["CustomDeck"][str(c["CardID"] // 100)]["FaceURL"] for c in save["ObjectStates"][0]["ContainedObjects"]]
    assert not any(u.startswith("file:") for u in urls)
    assert any(u.startswith("https://example.org/hell/") and u.endswith(".png") for u in urls)
    assert "upload the" in result.output


def test_one_double_faced_card_is_a_card_not_a_deck_of_one(tmp_path):
    from hhdcli.cards import Card, Face
    from hhdcli.export.tts import tts_save

    single = Card(id="d", name="Day // Night", set_code="HLC", layout="transform",
                  faces=(Face(name="Day", type_line="Creature", image="https://x/1.png"),
                         Face(name="Night", type_line="Creature", image="https://x/2.png")))
    plain = Card(id="p", name="Plain", set_code="HLC", faces=(Face(name="Plain", type_line="Instant"),))
    save = json.loads(tts_save([plain, single], "t", lambda c, s: f"https://x/{c.id}{s}.png", "https://x/b.png", "r"))
    kinds = [s["Name"] for s in save["ObjectStates"]]
    assert kinds in (["DeckCustom", "Card", "Notecard"], ["DeckCustom", "Notecard"])
    assert len(set(all_card_ids(save))) == len(all_card_ids(save))


CARDS_XSD = Path(__file__).parent / "vendor" / "cockatrice" / "cards.xsd"


def test_the_cockatrice_set_is_valid_against_cockatrices_own_schema(every_excerpt_card, synced, library, tmp_path):
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(CARDS_XSD)))
    run, excerpt_library = every_excerpt_card
    for runner, lib in ((run, excerpt_library), (synced, library)):
        out = tmp_path / "set.cockatrice.xml"
        export(runner, lib, "cockatrice", out)
        document = etree.parse(str(out))
        assert schema.validate(document), schema.error_log


def test_hell_cards_named_like_real_cards_are_not_merged_into_them(synced, tmp_path):
    from hhdcli.export.cockatrice import cockatrice_name

    library = tmp_path / "lib.json"
    assert synced("generate", "--seed", "wolf", "-o", str(library)).exit_code == 0
    document = json.loads(library.read_text())
    wolf = next(c for c in json.loads((synced.cache_dir / "cards.json").read_text())["cards"] if c["name"] == "Watch Wolf")
    document["cards"][0] = {"position": 1, "id": wolf["id"], "name": "Watch Wolf", "kind": "spell", "card": wolf}
    library.write_text(json.dumps(document))
    export(synced, library, "cockatrice", tmp_path / "hell.cockatrice.xml")
    names = {c.findtext("name") for c in ET.parse(tmp_path / "hell.cockatrice.xml").getroot().iter("card")}
    assert "Watch Wolf (HC)" in names and "Watch Wolf" not in names
    assert "Watch Wolf (HC)" in {e.name for e in read_deck(tmp_path / "hell.cod").main}
    assert cockatrice_name("Pyrohyperspasm") == "Pyrohyperspasm"


def test_control_characters_and_lone_surrogates_never_reach_a_file(tmp_path):
    from lxml import etree

    from hhdcli.cards import Card, Face
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.mana import SymbolTable

    nasty = "Bad\x00 Card\x07 \ud800 end"
    card = Card(id="x", name=nasty, set_code="HLC", faces=(Face(name=nasty, type_line="Instant", oracle_text=nasty),))
    for fmt, name in ((ExportFormat.COCKATRICE, "n.cockatrice.xml"), (ExportFormat.TTS, "n.tts.json"),
                      (ExportFormat.CSV, "n.csv")):
        done = export_library([card], "t", fmt, tmp_path / name, SymbolTable.from_records([]))
        for path, data in done.files.items():
            if path.suffix == ".png":
                continue
            text = data.decode("utf-8")
            assert "\x00" not in text and "\x07" not in text
            if path.suffix == ".xml":
                etree.fromstring(data)  # well-formed
            if path.suffix == ".json":
                json.loads(text)


def test_split_cards_lie_sideways_with_the_registrys_rotated_picture(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "hell.tts.json"
    export(run, library, "tts", out)
    records = {r["name"]: r for r in json.loads(EXCERPT.read_text())["data"]}
    save = json.loads(out.read_text())
    sideways = [c for c in save["ObjectStates"][0]["ContainedObjects"] if c.get("SidewaysCard")]
    rotated = [c for c in sideways if records.get(c["Nickname"], {}).get("rotated_image")]
    assert rotated
    for card in rotated:
        face = card["CustomDeck"][str(card["CardID"] // 100)]["FaceURL"]
        assert face == records[card["Nickname"]]["rotated_image"]


# --- Cockatrice: compared field by field with the registry's own exporter --------------------------------

HELLFALL_COCKATRICE = Path(__file__).parent / "data" / "hellfall-cockatrice.current-excerpt.xml.gz"
# Where hhd writes a field differently from Hellfall's toCockCube on purpose, card by card (reviewed; each
# entry must still occur, so the list cannot go stale):
DELIBERATE = {
    # A back face's and a flip card's mana value is the card's (CR 712.8e: a transforming card's back face
    # has its front face's mana value; a flip card's is its upright half's); Hellfall writes the face's own
    # or, for a flip card, both halves merged.
    ("cmc", "Dozen Eggs"), ("cmc", "The Count"), ("cmc", "The Dreadlord"), ("cmc", "Muwu // Mowo"),
    # An inset card is Cockatrice's `adventure` layout (Hellfall's own hcToCockLayout table says so; its face
    # compression leaves `normal`).
    ("layout", "Questing // Beast"), ("layout", "Bill Nye the Science Guy // Science Rules!"),
    # A relation to a card outside the export: Hellfall writes the text "undefined", hhd leaves it out.
    ("related", "Ok Boomer"), ("related", "Whale"),
}
# Names are compared through the cards they name: a card sharing a real card's name is "Name (HC)" in hhd
# everywhere (the deck file too), where Hellfall uses its export_name "Name_" (or none: Watch Wolf).
# Differences of every card, by design: the registry's own formats (standard, commander, 4cb) are not
# Hell's Half-Draft's; color letters in WUBRG order with purple last, where Hellfall orders color pairs (GU,
# RW): the same colors; text keeps mana symbols in braces as Cockatrice's own card database writes them
# ({T}: Add {G}; Hellfall strips one-character braces) and adds the format's rulings as "Hell …" lines.
SKIPPED = {"format-standard", "format-commander", "format-4cb"}


def _cockatrice_cards(root) -> dict[tuple[str, str], dict]:
    """Each <card> by (uuid, side): its props, text, picture, token mark, table row and relations."""
    found = {}
    for card in root.iter("card"):
        if card.find("prop") is None:
            continue
        fields = {p.tag: p.text or "" for p in card.find("prop") if p.tag not in SKIPPED}
        fields["colors"] = "".join(sorted(fields.get("colors", "")))
        fields["coloridentity"] = "".join(sorted(fields.get("coloridentity", "")))
        picture = card.find("set")
        fields.update(name=card.findtext("name"), text=card.findtext("text") or "", token=card.findtext("token") or "",
                      tablerow=card.findtext("tablerow"), picurl=picture.get("picURL") or picture.get("picurl") or "",
                      related=sorted((r.tag, r.text, r.get("count")) for r in card if r.tag.endswith("related")))
        found[(picture.get("uuid").removesuffix("-back"), fields["side"])] = fields
    return found


def _text_as_hellfall_writes_it(text: str) -> str:
    lines = [line for line in text.split("\n") if not line.startswith(("Hell (", "Hell: "))]  # hhd's ruling lines
    return re.sub(r"\{(.)\}", r"\1", "\n".join(lines))


def test_cockatrice_export_matches_hellfalls_own_exporter_field_by_field(every_excerpt_card, tmp_path):
    import gzip

    from lxml import etree

    run, library = every_excerpt_card
    out = tmp_path / "hell.cockatrice.xml"
    export(run, library, "cockatrice", out)
    ours = _cockatrice_cards(ET.parse(out).getroot())
    theirs = _cockatrice_cards(ET.fromstring(gzip.decompress(HELLFALL_COCKATRICE.read_bytes())))
    assert set(theirs) <= set(ours)  # every card, face and token Hellfall writes (hhd finds more tokens)
    our_name = {their["name"]: ours[key]["name"] for key, their in theirs.items()}
    differences = set()
    for key, their in theirs.items():
        our = ours[key]
        their = {**their, "name": our_name[their["name"]],
                 "related": [(tag, our_name.get(text, text), n) for tag, text, n in their["related"]]}
        for field in sorted(set(their) | set(our)):
            mine, hers = our.get(field, ""), their.get(field, "")
            if field == "text":
                mine = _text_as_hellfall_writes_it(mine)
            if mine != hers:
                differences.add((field, our["name"].removesuffix(" (HC)")))
    assert differences == DELIBERATE
    # and the set is valid by Cockatrice's own schema, tokens included
    assert etree.XMLSchema(etree.parse(str(CARDS_XSD))).validate(etree.parse(str(out)))


def test_a_one_card_card_has_every_faces_colors_and_pt_and_only_counting_faces_in_type(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "hell.cockatrice.xml"
    export(run, library, "cockatrice", out)
    cards = {c.findtext("name"): {p.tag: p.text for p in c.find("prop")} for c in ET.parse(out).getroot().iter("card")}
    assert cards["Crew // Cut // Jeans"]["colors"] == "WR" and cards["whip // nae nae"]["colors"] == "WBG"
    assert cards["Muwu // Mowo"]["pt"] == "2/3 // 6/6" and cards["Some // Body"]["pt"] == "/ // 3/3"
    assert cards["Magus of the Warp"]["type"] == "Creature — Human Wizard"  # the inset token is no part of it


def test_an_output_named_dot_cod_is_the_deck_and_the_set_goes_beside_it(synced, library, tmp_path):
    """`-o hell.cod` picks the Cockatrice format by the deck file's extension: hell.cod is then the deck (it held
    the card database, with the deck at hell.cod.cod), and the set is hell.cockatrice.xml, as -o hell.cockatrice.xml
    would have named the two."""
    result = synced("export", "-l", str(library), "-o", str(tmp_path / "hell.cod"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("hell.")) == ["hell.cockatrice.xml", "hell.cod"]
    assert ET.parse(tmp_path / "hell.cod").getroot().tag == "cockatrice_deck"
    assert ET.parse(tmp_path / "hell.cockatrice.xml").getroot().tag == "cockatrice_carddatabase"
    assert "copy hell.cockatrice.xml" in result.output and "load hell.cod" in result.output


def test_an_output_name_in_capitals_is_read_as_in_small_letters(synced, library, tmp_path):
    """-o HELL.COCKATRICE.XML is the Cockatrice format (as hell.cockatrice.xml) and its deck is HELL.cod, not
    HELL.COCKATRICE.XML.cod."""
    result = synced("export", "-l", str(library), "-o", str(tmp_path / "HELL.COCKATRICE.XML"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("HELL")) == ["HELL.COCKATRICE.XML", "HELL.cod"]
    assert ET.parse(tmp_path / "HELL.cod").getroot().tag == "cockatrice_deck"


def test_cockatrice_tokens_come_from_the_registry_and_point_at_their_makers(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "hell.cockatrice.xml"
    export(run, library, "cockatrice", out)
    cards = {c.findtext("name"): c for c in ET.parse(out).getroot().iter("card")}
    whale = cards["Whale"]
    assert whale.findtext("token") == "1" and [r.text for r in whale.iter("reverse-related")] == ["Whale Visions"]
    assert whale.find("prop").findtext("pt") == "2/2" and whale.find("set").get("picurl").startswith("https://")
    # a token named like a card of the set keeps its own name apart (Cockatrice keys cards by name)
    assert cards["Hell's Cube (token)"].findtext("token") == "1" and cards["Hell's Cube"].findtext("token") is None
    # every relation names a card of the set
    names = set(cards)
    assert all(r.text in names for c in cards.values() for r in c if r.tag.endswith("related"))


def test_a_token_file_of_another_shape_writes_a_cockatrice_set_with_its_stats_as_text():
    """A token record whose power is a JSON number, whose loyalty is an object and whose image is a list (a
    registry's token file of another version, passed as `tokens`) still gives a set Cockatrice reads: the
    number as its text ("0" kept, not dropped as falsy), the rest left out, where it used to raise TypeError
    while writing the XML."""
    from datetime import date

    from hhdcli.cards import Card, Face
    from hhdcli.export.cockatrice import set_file
    from hhdcli.tokens import token_from_record, tokens_for

    maker = Card(id="m1", name="Maker", set_code="HLC", faces=(Face(name="Maker", type_line="Sorcery"),))
    token = token_from_record({"name": "Zero", "type_line": "Token Creature — Ooze", "power": 0, "toughness": 2.5,
                               "loyalty": {"x": 1}, "image": ["https://example.org/z.png"],
                               "all_parts": [{"component": "token_maker", "id": "m1", "name": "Maker"}]})
    assert token is not None and (token.power, token.toughness, token.loyalty, token.image) == ("0", "2.5", None, None)
    root = ET.fromstring(set_file([maker], "T", date(2026, 1, 1), tokens_for([maker], [token])))
    zero = next(c for c in root.iter("card") if c.findtext("name") == "Zero")
    assert zero.find("prop").findtext("pt") == "0/2.5" and zero.find("set").get("picurl") == ""


def test_every_card_marked_sideways_has_the_registrys_rotated_picture(every_excerpt_card, tmp_path):
    run, library = every_excerpt_card
    out = tmp_path / "hell.tts.json"
    export(run, library, "tts", out)
    records = {r["name"]: r for r in json.loads(EXCERPT.read_text())["data"]}
    cards = json.loads(out.read_text())["ObjectStates"][0]["ContainedObjects"]
    sideways = {c["Nickname"] for c in cards if c.get("SidewaysCard")}
    rotated = {c["Nickname"] for c in cards if records.get(c["Nickname"], {}).get("rotated_image")}
    splits = {c["Nickname"] for c in cards if records.get(c["Nickname"], {}).get("layout") == "split"}
    assert sideways == rotated and splits - rotated  # an upright split scan is not turned on its side


def _printable(count: int):
    from hhdcli.cards import Card, Face

    return [Card(id=f"c{i}", name=f"Card {i}", set_code="HLC", faces=(Face(name=f"Card {i}", type_line="Instant"),),
                 image=f"https://lh3.googleusercontent.com/d/{i:020d}x") for i in range(count)]


def test_a_full_set_mpc_order_is_split_into_orders_mpc_autofill_takes_without_asking(tmp_path):
    from hhdcli.export import ExportFormat, export_library
    from hhdcli.export.mpc import BRACKETS
    from hhdcli.mana import SymbolTable

    done = export_library(_printable(720), "Hellscube", ExportFormat.MPC, tmp_path / "set.mpc.xml",
                          SymbolTable.from_records([]))
    assert [p.name for p in done.files] == ["set.mpc.xml", "set-2.mpc.xml"]
    printed = []
    for data in done.files.values():
        order = ET.fromstring(data)
        quantity, bracket = int(order.findtext("details/quantity")), int(order.findtext("details/bracket"))
        # mpc-autofill's desktop tool asks how to split an order of more than 612 (constants.PROJECT_MAX_SIZE)
        assert quantity <= 612 and bracket in BRACKETS and quantity <= bracket
        slots = sorted(int(s) for card in order.find("fronts") for s in card.findtext("slots").split(","))
        assert slots == list(range(quantity))  # every slot of the order filled once, counted from 0
        printed += [card.findtext("name") for card in order.find("fronts")]
    assert [int(ET.fromstring(order).findtext("details/quantity")) for order in done.files.values()] == [612, 108]
    assert len(printed) == 720 and len(set(printed)) == 720
    assert done.notes[0].startswith("2 orders (set.mpc.xml, set-2.mpc.xml): MakePlayingCards prints at most 612")


def test_the_cockatrice_deck_is_valid_against_cockatrices_own_deck_schema(every_excerpt_card, tmp_path):
    from lxml import etree

    run, library = every_excerpt_card
    export(run, library, "cockatrice", tmp_path / "hell.cockatrice.xml")
    schema = etree.XMLSchema(etree.parse(str(CARDS_XSD.with_name("deck.xsd"))))
    assert schema.validate(etree.parse(str(tmp_path / "hell.cod"))), schema.error_log


# --- tokens in the exports ---------------------------------------------------------------------------------------


def tts_spawned(save: dict) -> dict[str, list[tuple[str, str]]]:
    """What Tabletop Simulator spawns from a saved object, read as its importer reads it: each object by its
    Nickname, a deck's cards in DeckIDs order, each CardID resolved through CustomDeck[CardID // 100] to the
    card at index CardID % 100 of that sheet (NumWidth × NumHeight cards), as (Nickname, FaceURL)."""
    spawned = {}
    for state in save["ObjectStates"]:
        if state["Name"] == "DeckCustom":
            by_id = {c["CardID"]: c for c in state["ContainedObjects"]}
            cards = [by_id[card_id] for card_id in state["DeckIDs"]]
        elif state["Name"] == "Card":
            cards = [state]
        else:
            continue
        found = []
        for card in cards:
            sheet = card["CustomDeck"][str(card["CardID"] // 100)]
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"]
            found.append((card["Nickname"], sheet["FaceURL"]))
        spawned[state["Nickname"]] = found
    return spawned


def test_the_tts_save_lays_the_librarys_tokens_beside_it(synced, library, tmp_path):
    from hhdcli.cache import load_cache
    from hhdcli.library import load_library, resolve
    from hhdcli.tokens import library_tokens

    out = tmp_path / "hell.tts.json"
    export(synced, library, "tts", out)
    save = json.loads(out.read_text())
    spawned = tts_spawned(save)
    cards = resolve(load_library(library), load_cache(synced.cache_dir).cards).cards
    needed = library_tokens(cards)
    # one token card per card that makes it, beside the library (face up), each with the token's own image
    assert sorted(name for name, _ in spawned["Tokens"]) == sorted(n.token.name for n in needed for _ in n.makers)
    food = next(n for n in needed if n.token.name == "Food")
    assert [url for name, url in spawned["Tokens"] if name == "Food"] == [food.token.image] * len(food.makers)
    deck = next(s for s in save["ObjectStates"] if s.get("Nickname") == "Tokens")
    assert deck["Transform"]["rotZ"] == 0 and deck["Transform"]["posX"] != save["ObjectStates"][0]["Transform"]["posX"]
    food_card = next(c for c in deck["ContainedObjects"] if c["Nickname"] == "Food")
    assert "Token — made by " + ", ".join(m.card.name for m in food.makers) in food_card["Description"]
    assert len(set(all_card_ids(save))) == len(all_card_ids(save))  # unique across the save, tokens too
    # --token-copies sets how many of each
    export(synced, library, "tts", out, "--token-copies", "2")
    assert len(tts_spawned(json.loads(out.read_text()))["Tokens"]) == 2 * len(needed)


MPC_AUTOFILL = Path(__file__).parent / "vendor" / "mpc-autofill"
DRIVE_STANDINS = Path(__file__).parent / "vendor" / "drive-standins"  # its io.py's imports, never called (README)
READ_ORDER = """
import json, sys
from src.order import CardOrder
order = CardOrder.from_file_path(working_directory=".", file_path=sys.argv[1])
fronts = {slot: (image.name, image.query) for image in order.fronts.cards_by_id.values() for slot in image.slots}
print(json.dumps({"quantity": order.details.quantity, "stock": order.details.stock,
                  "fronts": [fronts[slot] for slot in sorted(fronts)],
                  "every_slot": order.fronts.slots() == order.fronts.all_slots() == order.backs.slots()}))
"""


def read_mpc_order(order: Path, cardback: str) -> dict:
    """The order as MPC Autofill's desktop tool reads it (tests/vendor/mpc-autofill: its own CardOrder parser),
    run in its own folder with the card back there as a local image, so it asks Google Drive nothing."""
    folder = order.parent / "mpc-autofill-run"
    folder.mkdir(exist_ok=True)
    (folder / cardback).write_bytes(b"\x89PNG a card back")
    result = subprocess.run([sys.executable, "-c", READ_ORDER, str(order.resolve())], cwd=folder, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (MPC_AUTOFILL, DRIVE_STANDINS)))}, stdin=subprocess.DEVNULL,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_an_mpc_order_with_tokens_is_read_by_mpc_autofills_own_parser(synced, library, tmp_path):
    from hhdcli.export.mpc import BRACKETS, HELLFALL_CARDBACK

    plain, with_tokens = tmp_path / "plain.mpc.xml", tmp_path / "tokens.mpc.xml"
    export(synced, library, "mpc", plain)
    result = export(synced, library, "mpc", with_tokens, "--tokens")
    before, after = read_mpc_order(plain, HELLFALL_CARDBACK), read_mpc_order(with_tokens, HELLFALL_CARDBACK)
    shown = json.loads(synced("show", "-l", str(library), "--json").output)["tokens"]
    brought = sum(t["copies"] for t in shown)
    # the cards first, as before, then one token per card that makes it, searched for among MPC Autofill's tokens
    assert after["fronts"][:before["quantity"]] == before["fronts"]
    assert after["quantity"] == before["quantity"] + brought and after["every_slot"]
    assert sorted(after["fronts"][before["quantity"]:]) == sorted(
        [f"{t['name']}.png", f"t:{t['name'].lower()}"] for t in shown for _ in range(t["copies"]))
    assert f"the order ends with {brought} tokens" in result.output
    # and the bracket is the smallest print run that holds cards and tokens
    bracket = int(ET.parse(with_tokens).getroot().findtext("details/bracket"))
    assert bracket == min(b for b in BRACKETS if b >= after["quantity"])
    # --token-copies: that many of each
    export(synced, library, "mpc", with_tokens, "--tokens", "--token-copies", "3")
    assert read_mpc_order(with_tokens, HELLFALL_CARDBACK)["quantity"] == before["quantity"] + 3 * len(shown)


def test_cockatrice_relates_the_cards_hellfalls_exporter_relates_and_no_others(every_excerpt_card, tmp_path):
    """Relation by relation (a <reverse-related> of a card or token, its count and persistence), hhd's set and
    Hellfall's toCockCube agree on every card and token Hellfall writes; Hellfall's "undefined" (a maker outside
    the export) is no relation. And every relation hhd writes beyond them is the registry's own (no card's text
    makes a Cockatrice relation)."""
    import gzip

    from hhdcli.cache import load_cache
    from hhdcli.tokens import Source, library_tokens

    run, library = every_excerpt_card
    out = tmp_path / "hell.cockatrice.xml"
    export(run, library, "cockatrice", out)

    def relations(root) -> dict[str, set[tuple[str, str, str | None, str | None]]]:
        found: dict[str, set] = {}
        for card in root.iter("card"):
            uuid = card.find("set").get("uuid").removesuffix("-back")
            found.setdefault(uuid, set()).update(
                (r.tag, r.text.removesuffix(" (HC)").removesuffix("_"), r.get("count"), r.get("persistent"))
                for r in card if r.tag.endswith("related") and r.text != "undefined")
        return found

    ours = relations(ET.parse(out).getroot())
    theirs = relations(ET.fromstring(gzip.decompress(HELLFALL_COCKATRICE.read_bytes())))
    assert {k: v for k, v in ours.items() if k in theirs} == theirs
    assert sum(len(v) for v in theirs.values()) == 14  # 6 double-faced cards both ways, Whale and Warp World
    cards = load_cache(run.cache_dir).cards
    registry = {(n.token.name, m.card.name) for n in library_tokens(cards) for m in n.makers
                if m.source is Source.REGISTRY}
    token_relations = {(c.findtext("name").removesuffix(" (token)").removesuffix(" (HC)"), r.text.removesuffix(" (HC)"))
                       for c in ET.parse(out).getroot().iter("card") if c.findtext("token")
                       for r in c.iter("reverse-related")}
    assert token_relations and token_relations <= {(t, m.removesuffix(" (HC)")) for t, m in registry} | {
        (t, m.split(" // ")[0]) for t, m in registry}
