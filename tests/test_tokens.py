"""Which tokens a Hell library needs (hhdcli/tokens.py): the registry's relations, the reviewed table, a card's
own text; `hhd show` lists them and `--json` has them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hhdcli.cache import load_builtin, load_cache
from hhdcli.cards import Card, CardIndex, Face
from hhdcli.tokens import Source, builtin_tokens, library_tokens, reviewed_table, text_tokens

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def builtin() -> CardIndex:
    return CardIndex(list(load_builtin().cards))


def made_by(card: Card) -> dict[str, set[Source]]:
    """The tokens one card makes, by name, with how hhd knows."""
    found: dict[str, set[Source]] = {}
    for needed in library_tokens([card]):
        found.setdefault(needed.token.name, set()).update(m.source for m in needed.makers)
    return found


def test_a_card_the_registry_relates_makes_its_tokens(excerpt_cache):
    cards = CardIndex(list(load_cache(excerpt_cache).cards))
    assert made_by(cards.find("Whale Visions")) == {"Whale": {Source.REGISTRY}}
    # a token the registry keeps as several records of one face is one token to bring, with every maker
    food = [n for n in library_tokens(cards.cards) if n.token.name == "Food"]
    assert len(food) == 1 and [m.card.name for m in food[0].makers] == sorted(
        [m.card.name for m in food[0].makers], key=[c.name for c in cards.cards].index)


def test_a_legacy_card_the_registry_names_otherwise_is_related_all_the_same(builtin):
    """The registry names the maker "Johnny Appleseed // Apple Planting" (and "Chandra, Throughout the Ages",
    "Imprison in Myr Battlesphere"); the built-in sheet data has "Johnny Appleseed", "Chandra, Thoughout the
    Ages" and "Inprison in Myr Battlesphere": each is found by its image or as a rename."""
    assert made_by(builtin.find("Johnny Appleseed")) == {"Food": {Source.REGISTRY}}
    assert "Elemental" in made_by(builtin.find("Chandra, Thoughout the Ages"))
    assert made_by(builtin.find("Inprison in Myr Battlesphere")) == {"Myr": {Source.REGISTRY}}


def test_every_registry_relation_to_a_v12_card_finds_its_card(builtin):
    """Each of the token file's makers in a Hellscube v1.2 set is a card of the built-in data (278 of 278)."""
    from hhdcli.tokens import HELLSCUBE_SET, tokens_for

    wanted = {(t.id, m.id) for t in builtin_tokens() for m in t.makers if HELLSCUBE_SET.match(m.set_code)}
    found = {(t.id, m.id) for t, makers in tokens_for(builtin.cards, builtin_tokens()) for _, m in makers}
    assert len(wanted) == 278 and wanted <= found


def test_a_card_the_registry_does_not_know_makes_the_tokens_its_text_names():
    """A card of no registry (a new printing, a home-made card) making "a 1/1 white Bird creature token" makes
    the registry's 1/1 white Bird, marked as inferred; an Elemental with no stats said is left out rather than
    guessed among the registry's six."""
    card = Card(id="home-1", name="Birdcall of Home", set_code="HOME", faces=(Face(
        name="Birdcall of Home", type_line="Sorcery",
        oracle_text="Create a 1/1 white Bird creature token with flying. Investigate."),))
    needed = library_tokens([card])
    assert {(n.token.name, n.token.power, n.inferred) for n in needed} == {("Bird", "1", True), ("Clue", None, True)}
    assert all(m.source is Source.TEXT for n in needed for m in n.makers)
    vague = Card(id="home-2", name="Some Spark", set_code="HOME", faces=(Face(
        name="Some Spark", type_line="Instant", oracle_text="Create an Elemental creature token."),))
    tokens, clear = text_tokens(vague, builtin_tokens())
    assert tokens == [] and not clear and library_tokens([vague]) == []


def test_a_card_whose_text_speaks_of_tokens_but_makes_none_is_reviewed(builtin):
    """Doubling Salmon makes token copies of itself: the reviewed table says it makes no registry token, with why."""
    salmon = builtin.find("Doubling Salmon")
    entry = reviewed_table().entry(salmon)
    assert entry is not None and entry.tokens == () and "copies" in entry.note.lower()
    assert made_by(salmon) == {}
    assert made_by(builtin.find("Inky Octopus")) == {}  # nothing about tokens at all


def test_the_reviewed_table_is_what_its_readings_give():
    result = subprocess.run([sys.executable, "scripts/build_token_table.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_show_lists_the_tokens_to_bring_and_json_has_them(synced, library):
    text = synced("show", "-l", str(library))
    assert text.exit_code == 0, text.output
    assert "tokens to bring:" in text.output and "× Food (Token Artifact — Food) — made by Bread Return" in text.output
    document = json.loads(synced("show", "-l", str(library), "--json").output)
    food = next(t for t in document["tokens"] if t["name"] == "Food")
    assert food["copies"] == len(food["made_by"]) == 3 and food["inferred"] is False
    assert {m["source"] for m in food["made_by"]} == {"registry"}
    markdown = synced("show", "-l", str(library), "--format", "md").output
    assert "## Tokens to bring" in markdown


def test_a_maker_is_found_by_name_only_for_a_card_without_a_registry_id(excerpt_cache, builtin):
    """The registry names its makers by id: a current-format card with another id is another card (Hellfall's
    exporter would not relate it), while the legacy sheet's card of that name (ids of hhd's own) is the maker."""
    from hhdcli.tokens import token_from_record, tokens_for

    token = token_from_record({"name": "Orca", "type_line": "Token Creature — Whale", "all_parts": [
        {"component": "token_maker", "id": "00000000-0000-4000-8000-000000000000", "name": "Whale Visions",
         "set": "HLC.0"}]})
    assert token is not None
    current = list(load_cache(excerpt_cache).cards)
    assert tokens_for(current, [token]) == []
    legacy = tokens_for(builtin.cards, [token])
    assert [(t.name, [c.name for c, _ in makers]) for t, makers in legacy] == [("Orca", ["Whale Visions"])]
