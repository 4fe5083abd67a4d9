"""The zones Hellscube v1.2 cards create (hhdcli/data/zones-v1.2.json, built by scripts/build_zones_table.py):
its shape, that it is what the card texts give, and that every card naming a zone (or read as one by the
rulings) is with it."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hhdcli.cache import load_builtin
from hhdcli.cards import Card
from hhdcli.rulings import curated_table, rules_text
from hhdcli.tokens import builtin_tokens

ROOT = Path(__file__).resolve().parents[1]
ZONES_FILE = ROOT / "hhdcli" / "data" / "zones-v1.2.json"
AUDIT = ROOT / "docs" / "hell-cards.md"
ZONE_KEYS = ["id", "name", "scope", "open", "ordered", "starts", "well", "hell_cards", "why", "cards"]


@cache
def build_script() -> ModuleType:
    path = ROOT / "scripts" / "build_zones_table.py"
    spec = importlib.util.spec_from_file_location("build_zones_table", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while it is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return json.loads(ZONES_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    return {card.id: card for card in load_builtin().cards}


def test_the_table_is_what_the_card_texts_give_byte_for_byte(cards):
    script = build_script()
    assert ZONES_FILE.read_bytes() == script.render(script.build(list(cards.values()))), \
        "run scripts/build_zones_table.py"


def test_the_table_has_the_shape_the_table_code_reads(document):
    assert list(document) == ["set", "about", "zones"] and document["set"] == "Hellscube v1.2"
    assert document["about"].strip() and document["zones"]
    for zone in document["zones"]:
        assert list(zone) == ZONE_KEYS, zone["id"]
        assert re.fullmatch(r"[a-z][a-z0-9-]*", zone["id"]) and len(zone["id"]) <= 16
        assert zone["scope"] in ("player", "shared") and zone["why"].strip()
        assert isinstance(zone["open"], bool) and isinstance(zone["ordered"], bool)
        assert isinstance(zone["starts"], list) and all(isinstance(n, str) and n for n in zone["starts"])
        assert zone["well"] is None or isinstance(zone["well"], str) and zone["well"]
        assert zone["cards"] and all(list(c) == ["id", "name"] for c in zone["cards"])


def test_zone_ids_and_their_cards_are_unique(document):
    ids = [zone["id"] for zone in document["zones"]]
    assert len(ids) == len(set(ids))
    for zone in document["zones"]:
        listed = [card["id"] for card in zone["cards"]]
        assert len(listed) == len(set(listed)), zone["id"]


def test_every_zone_is_named_in_english_and_in_russian(document):
    for zone in document["zones"]:
        assert list(zone["name"]) == ["en", "ru"]
        assert zone["name"]["en"].strip() and re.search(r"[а-яё]", zone["name"]["ru"]), zone["id"]


def test_a_limitless_zone_is_a_deck_that_starts_with_nothing_but_its_well(document):
    for zone in document["zones"]:
        if zone["well"] is not None:
            assert zone["ordered"] and zone["starts"] == [], zone["id"]


def test_a_well_is_a_token_the_registry_has(document):
    """Its top is a new token copy each time: the table shows the registry's token."""
    tokens = {token.name for token in builtin_tokens()}
    for zone in document["zones"]:
        assert zone["well"] is None or zone["well"] in tokens, zone["id"]


def test_what_a_zone_starts_with_is_named_by_its_cards(document, cards):
    """The cards a zone starts with are read from the texts that describe it (a basic land by its name or its
    plural)."""
    for zone in document["zones"]:
        texts = " ".join(rules_text(cards[c["id"]]) for c in zone["cards"])
        for name in zone["starts"]:
            assert re.search(rf"\b{name.lower()}s?\b", texts), (zone["id"], name)


def test_every_listed_card_is_that_card_and_its_text_names_the_zone(document, cards):
    patterns = {zone.id: zone for zone in build_script().ZONES}
    for zone in document["zones"]:
        for listed in zone["cards"]:
            card = cards[listed["id"]]
            assert listed["name"] == card.name
            assert patterns[zone["id"]].names(rules_text(card)), (zone["id"], card.name)


def test_every_card_whose_text_names_a_zone_is_in_it(document, cards):
    """Over all 720 cards, not only those the rulings tag: a zone comes into being with each card naming it."""
    listed = {zone["id"]: {c["id"] for c in zone["cards"]} for zone in document["zones"]}
    assert len(cards) == 720
    for zone in build_script().ZONES:
        naming = {card_id for card_id, card in cards.items() if zone.names(rules_text(card))}
        assert naming == listed[zone.id], zone.id


def test_every_card_the_rulings_read_as_making_zones_has_one_or_a_reason_in_the_audit(document):
    """A card tagged `zones` that is in no zone (it names a zone that is not a new one, or none) is in the
    card-by-card audit, where its row says what the table does instead."""
    in_a_zone = {c["id"] for zone in document["zones"] for c in zone["cards"]}
    table = curated_table().by_id
    elsewhere = [table[i].name for i in table if "zones" in table[i].rulings and i not in in_a_zone]
    audit = AUDIT.read_text(encoding="utf-8") if elsewhere else ""
    for name in elsewhere:
        assert re.search(rf"^\|[^|\n]*{re.escape(name)}[^|\n]*\|.+\|", audit, re.MULTILINE), name


# --- the card-by-card audit (docs/hell-cards.md) -------------------------------------------------------------

AUDITED = {"sideboard", "owner", "zones", "draft", "game-start", "ante", "companion", "token-card", "token-copy"}
# the table's operations the audit may name: the routes of issue 57 (part 1, built: /api/…; `moment` and
# `clarification` are what descriptions and answers carry) and issue 59 (part 2)
PART_1 = {"move", "play-sideboard", "sideboard/shuffle", "sideboard/random", "random-hell-card", "companion",
          "reveal", "zone/add", "zone/shuffle", "zone/reveal", "zone/take", "own-card", "moment", "clarification"}
PART_2 = {"note", "face-down", "give", "control", "deck-moves", "token-card", "counters-anywhere"}
PLAYERS = "players"


def audit_rows() -> list[tuple[str, list[str], str, set[str]]]:
    """Each table row of the audit but the headers: (card name, tags, what is needed, operations)."""
    rows = []
    for line in AUDIT.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().replace("\\_", "_").replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 4 or cells[0] == "card" or set(cells[0]) <= {"-", " "}:
            continue
        name, tags, needs, ops = cells
        rows.append((name, [t for t in tags.split(", ") if t], needs, set(re.findall(r"`([^`]+)`", ops))))
    return rows


def test_the_audit_has_one_row_for_every_card_the_rulings_tag_and_no_other():
    table = curated_table().by_id
    tagged = sorted(table[i].name for i in table if AUDITED & set(table[i].rulings))
    rows = audit_rows()
    assert sorted(name for name, *_ in rows) == tagged
    for name, tags, needs, _ops in rows:
        entry = next(table[i] for i in table if table[i].name == name)
        assert tags == list(entry.rulings) and needs, name


def test_each_row_names_the_tables_operations_and_the_clarification_where_there_is_one():
    table = curated_table().by_id
    clarified = {table[i].name for i in table if table[i].clarification}
    for name, _tags, _needs, ops in audit_rows():
        assert ops and ops <= PART_1 | PART_2 | {PLAYERS}, (name, ops - PART_1 - PART_2)
        assert ("clarification" in ops) == (name in clarified), name


def test_the_counts_at_the_top_are_what_the_rows_give():
    rows = audit_rows()
    one = sum(1 for *_, ops in rows if ops & PART_1 and not ops & PART_2)
    two = sum(1 for *_, ops in rows if ops & PART_2 and not ops & PART_1)
    both = sum(1 for *_, ops in rows if ops & PART_1 and ops & PART_2)
    said = re.search(r"\*\*Of the (\d+): (\d+) need part 1 only, (\d+) part 2 only, (\d+) both \(so (\d+) use part 1, "
                     r"(\d+) part 2\), and (\d+)\s+need nothing but the players", AUDIT.read_text(encoding="utf-8"))
    assert said, "the counts' sentence"
    assert [int(n) for n in said.groups()] == [len(rows), one, two, both, one + both, two + both,
                                               len(rows) - one - two - both]
    assert f"**{len(rows)} cards**" in AUDIT.read_text(encoding="utf-8")

