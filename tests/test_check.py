"""The take rule on the tricky Hellscube v1.2 cards, deck lists in every format, and `hhd check`."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hhdcli.cache import parse_symbols
from hhdcli.deck import deck_colors, parse_deck, read_deck
from hhdcli.mana import SHAPE_ONLY, SymbolTable, judge, parse_cost
from support import PIPS, Reply

TABLE = SymbolTable.from_records(parse_symbols(PIPS.read_bytes()))


# (card, deck colors, verdict, missing)
TRICKY = [
    ("Pyrohyperspasm", "R", "take", ""),
    ("Pyrohyperspasm", "U", "choice", "R"),
    ("Pickle K'rrik!", "", "take", ""),
    ("Nogaak, Buried Metropolisn't", "U", "take", ""),
    ("Nogaak, Buried Metropolisn't", "R", "take", ""),
    ("Nogaak, Buried Metropolisn't", "G", "choice", "W"),
    ("Bread Weight", "B", "take", ""),
    ("Bread Weight", "UR", "choice", "G"),  # the first option as printed
    ("Murder of Storm Crows", "B", "take", ""),
    ("Murder of Storm Crows", "U", "take", ""),
    ("Murder of Storm Crows", "RG", "choice", "U"),
    ("Search for the Nebula // The Great Nebula Field", "U", "take", ""),
    ("Search for the Nebula // The Great Nebula Field", "P", "choice", "U"),
    ("-1 Llanowar Elf", "", "take", ""),
    ("Flurry of Thoughts", "U", "take", ""),
    ("Flurry of Thoughts", "R", "choice", "U"),
    ("Gristly Bear // Colossal Dradfulmaw", "B", "take", ""),
    ("Gristly Bear // Colossal Dradfulmaw", "G", "choice", "B"),
    ("nut Shot", "", "take", ""),
    ("Be Gay // Do Crime", "G", "choice", "B"),
    ("Be Gay // Do Crime", "BG", "take", ""),
    ("Acquisition of Kozilek", "B", "take", ""),  # {3/P}{B}: the generic option
    ("Avatar of woah", "WUBRG", "choice", "P"),  # purple is a color of its own
]


@pytest.mark.parametrize("name, colors, verdict, missing", TRICKY)
def test_tricky_cards(index, name, colors, verdict, missing):
    card = index.find(name)
    assert card is not None and card.name == name
    result = judge(card, colors, TABLE)
    assert (result.verdict, "".join(result.missing)) == (verdict, missing)


def test_lands_are_lands_whatever_their_cost(index):
    land = next(c for c in index.cards if c.is_land)
    assert judge(land, "", TABLE).verdict == "land"


def test_stray_text_in_a_cost_slot_is_ignored_with_a_warning(index):
    result = judge(index.find("Gristly Bear // Colossal Dradfulmaw"), "B", TABLE)
    assert result.warnings and "non-cost text" in result.warnings[0]


def test_symbols_are_found_in_any_option_order():
    assert TABLE.lookup("W/U/R")["symbol"] == "U/R/W"
    assert TABLE.requirement("W/U/R").satisfied_by(frozenset("W"))
    assert TABLE.requirement("U/BB").satisfied_by(frozenset("B"))
    assert not TABLE.requirement("U/BB").satisfied_by(frozenset("R"))
    assert TABLE.requirement("2/Yellow").satisfied_by(frozenset())
    assert not TABLE.requirement("Yellow").satisfied_by(frozenset("WUBRGP"))


def test_without_a_table_symbols_are_read_by_shape():
    assert SHAPE_ONLY.requirement("H/R").satisfied_by(frozenset())
    assert SHAPE_ONLY.requirement("2/R").satisfied_by(frozenset())
    assert SHAPE_ONLY.requirement("G/W/B").satisfied_by(frozenset("W"))
    assert not SHAPE_ONLY.requirement("U").satisfied_by(frozenset("R"))
    unknown = SHAPE_ONLY.requirement("Garfield")
    assert unknown.unknown and not unknown.satisfied_by(frozenset("WUBRGP"))


def test_cost_parsing():
    assert parse_cost("{3}{2/R}{H/R}{R}{R}{R}").symbols == ("3", "2/R", "H/R", "R", "R", "R")
    assert parse_cost("U").symbols == ("U",)
    assert parse_cost("2U").symbols == ("2", "U")
    assert parse_cost("If you feel the ground quake, run.").stray


def test_unknown_symbols_are_unmet_and_reported(index):
    from dataclasses import replace

    card = index.find("Bread Weight")
    odd = replace(card, faces=(replace(card.faces[0], mana_cost="{1}{Garfield}"),))
    result = judge(odd, "WUBRGP", TABLE)
    assert result.verdict == "choice" and result.unknown == ("{Garfield}",)


# --- deck lists --------------------------------------------------------------------------------

ARENA = """Deck
4 Mountain (M21) 272
4 Steam Vents (GRN) 257 *F*
2 Nogaak, Buried Metropolisn't
4 Lightning Bolt (M10) 146

Sideboard
3 Forest (M21) 281
"""

MTGO = """24 Island
// a comment
# another
14 Snow-Covered Swamp
3 Murder of Storm Crows

2 Plains
1 Forest
"""

DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <NetDeckID>0</NetDeckID>
  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Nebula" />
  <Cards CatID="2" Quantity="4" Sideboard="false" Name="Forest" />
  <Cards CatID="3" Quantity="2" Sideboard="true" Name="Island" />
</Deck>
"""

PLAIN = """4x Mountain
4 x Island
2 Be Gay / Do Crime
this line is not a card.
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name, text, main, side", [
    ("arena.txt", ARENA, ["Mountain", "Steam Vents", "Nogaak, Buried Metropolisn't", "Lightning Bolt"], ["Forest"]),
    ("mtgo.txt", MTGO, ["Island", "Snow-Covered Swamp", "Murder of Storm Crows"], ["Plains", "Forest"]),
    ("deck.dek", DEK, ["Nebula", "Forest"], ["Island"]),
    ("plain.txt", PLAIN, ["Mountain", "Island", "Be Gay // Do Crime"], []),
])
def test_each_deck_format_is_read_from_a_file(tmp_path, name, text, main, side):
    deck = read_deck(_write(tmp_path, name, text))
    assert deck.names == main
    assert [e.name for e in deck.sideboard] == side


def test_unparseable_lines_are_reported_with_their_line_number(tmp_path):
    deck = read_deck(_write(tmp_path, "plain.txt", PLAIN))
    assert deck.problems == [f"{tmp_path / 'plain.txt'}:4: not a deck line: 'this line is not a card.'"]


def test_only_the_main_deck_counts_for_colors(index):
    colors = deck_colors(parse_deck(MTGO), index.cards)
    assert colors.colors == ("U", "B")


def test_hellscube_lands_make_their_colors(index):
    def colors_of(name: str) -> tuple[str, ...]:
        return deck_colors(parse_deck(f"1 {name}\n"), index.cards).colors

    assert colors_of("Escalator") == tuple("WUBRGP")  # "{T}: Add one mana of any color."
    # 'Lands have "{T}: Add one mana of any color…"' is granted to others: the land itself makes W
    assert colors_of("Carborg, Tomb of Broogmoth") == ("W",)
    # a spell // land card is a land, with its land face's colors (a Nebula makes P)
    assert colors_of("Search for the Nebula // The Great Nebula Field") == ("P",)
    assert colors_of("Going // The Store") == tuple("WUBRGP")


def test_land_option_and_colors_option(synced, tmp_path):
    deck = _write(tmp_path, "d.txt", "4 Steam Vents\n")
    result = json.loads(synced("check", str(deck), "--all", "--offline", "--land", "Steam Vents=UR", "--json").stdout)
    assert result["deck_colors"] == ["U", "R"]
    what = json.loads(synced("check", "--all", "--colors", "none", "--json").stdout)
    assert what["deck_colors"] == [] and what["summary"]["land"] == 69
    bad = synced("check", "--all", "--colors", "XYZ")
    assert bad.exit_code == 2 and "--colors" in bad.output


def test_a_deck_with_no_lands_is_warned_about(synced, tmp_path):
    deck = _write(tmp_path, "d.txt", "4 Pyrohyperspasm\n")
    result = synced("check", str(deck), "--all", "--offline")
    assert result.exit_code == 0
    assert "no lands" in result.output
    data = json.loads(synced("check", str(deck), "--all", "--offline", "--json").stdout)
    assert data["deck_colors"] == [] and data["summary"]["take"] > 0  # colorless and Phyrexian cards


def test_a_binary_file_is_refused(synced, tmp_path):
    blob = tmp_path / "photo.jpg"
    blob.write_bytes(bytes(range(256)) * 8192)  # 2 MB
    result = synced("check", str(blob), "--all", "--offline")
    assert result.exit_code == 2
    assert "is not a deck list" in result.output and "Traceback" not in result.output


# --- Scryfall over loopback --------------------------------------------------------------------


def scryfall_reply(handler) -> Reply:
    names = [i["name"] for i in json.loads(handler.owner.bodies[-1])["identifiers"]]
    known = {"Steam Vents": ("Land — Island Mountain", ["U", "R"]), "Lightning Bolt": ("Instant", [])}
    data = [{"object": "card", "name": n, "type_line": known[n][0], "produced_mana": known[n][1]}
            for n in names if n in known]
    return Reply(json.dumps({"object": "list", "data": data,
                             "not_found": [{"name": n} for n in names if n not in known]}).encode())


def test_other_lands_come_from_scryfall_once(synced, server, tmp_path):
    """Asked once, then answered from the disk cache (a 429's 30 s wait and one retry are tested with a clock
    of their own in test_decklists.py: waiting them out here cost the suite 30 s)."""
    server.routes["/cards/collection"] = scryfall_reply
    deck = _write(tmp_path, "arena.txt", ARENA)
    cache = tmp_path / "cache"
    import shutil

    # the worker's synced cache without what Scryfall answered an earlier test (its lookups are kept on disk)
    shutil.copytree(synced.cache_dir, cache, ignore=shutil.ignore_patterns("scryfall-lands.json"))
    run = type(synced)(cache)
    first = json.loads(run("check", str(deck), "--all", "--scryfall-url", server.url, "--json").stdout)
    assert first["deck_colors"] == ["U", "R"]
    assert {"name": "Steam Vents", "colors": ["U", "R"], "source": "scryfall"} in first["lands"]
    assert server.count("/cards/collection", "POST") == 1
    headers = [h for m, p, h in server.hits if p == "/cards/collection"][-1]
    assert headers["User-Agent"].startswith("hhd/") and headers["Accept"] == "application/json"
    second = json.loads(run("check", str(deck), "--all", "--scryfall-url", server.url, "--json").stdout)
    assert second["deck_colors"] == ["U", "R"]
    assert server.count("/cards/collection", "POST") == 1  # answered from the disk cache


def test_after_a_429_scryfall_is_asked_once_more_and_its_answer_used(server, tmp_path):
    """The wait is Scryfall's 30 s (slept on a clock of the test's own), then the one retry answers."""
    from hhdcli.scryfall import ScryfallLands

    throttled = iter([Reply(b'{"object":"error"}', 429, headers={"Retry-After": "0"})])
    server.routes["/cards/collection"] = lambda h: next(throttled, None) or scryfall_reply(h)
    slept: list[float] = []
    found = ScryfallLands(tmp_path, server.url, sleep=slept.append).lookup(["Steam Vents"])
    assert found["Steam Vents"] is not None and server.count("/cards/collection", "POST") == 2
    assert 30.0 in slept


def test_scryfall_batches_at_most_75_names(synced, server, tmp_path):
    server.routes["/cards/collection"] = scryfall_reply
    deck = _write(tmp_path, "big.txt", "".join(f"1 Made Up Land {i}\n" for i in range(80)))
    import shutil

    shutil.copytree(synced.cache_dir, tmp_path / "cache")
    result = json.loads(type(synced)(tmp_path / "cache")("check", str(deck), "--all", "--scryfall-url", server.url,
                                                         "--json").stdout)
    sizes = [len(json.loads(b)["identifiers"]) for b in server.bodies]
    assert sizes == [75, 5]
    assert len(result["unresolved"]) == 80


# --- the report -----------------------------------------------------------------------------------


def test_check_json_has_the_promised_shape(synced, tmp_path):
    library = tmp_path / "lib.json"
    synced("generate", "--seed", "ember-tide-42", "-o", str(library))
    data = json.loads(synced("check", "--library", str(library), "--colors", "R", "--json").stdout)
    s = data["summary"]
    assert s["cards"] == 97 and s["land"] + s["take"] + s["choice"] == 97
    assert {"name", "verdict", "missing"} <= set(data["cards"][0])
    assert [w["color"] for w in data["what_if"]] and all(w["color"] != "R" for w in data["what_if"])
    gains = [w["gain"] for w in data["what_if"]]
    assert gains == sorted(gains, reverse=True)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)

    def handle_data(self, data) -> None:
        self.text.append(data)


def test_html_and_markdown_reports_escape_card_names(synced, tmp_path):
    deck = _write(tmp_path, "d.txt", '4 Mountain\n1 <script>alert("x")</script> & Co\n')
    html_path, md_path = tmp_path / "r.html", tmp_path / "r.md"
    assert synced("check", str(deck), "--all", "--offline", "--report", str(html_path)).exit_code == 0
    html = html_path.read_text()
    parser = _Text()
    parser.feed(html)
    assert "script" not in parser.tags
    assert '<script>alert("x")</script> & Co' in "".join(parser.text)
    assert '"Blue Doesn\'t Get Bears"' in "".join(parser.text)
    assert synced("check", str(deck), "--all", "--offline", "--report", str(md_path)).exit_code == 0
    md = md_path.read_text()
    assert "\\<script\\>" in md and "| take |" in md


def test_a_hellscube_land_with_basic_types_makes_their_colors():
    from hhdcli.cards import Card, Face
    from hhdcli.deck import hellscube_land_colors

    dual = Card("x", "Volcanic Somewhere", "HLC", (Face("Volcanic Somewhere", type_line="Land — Island Mountain"),))
    nebula = Card("y", "Space Field", "HLC", (Face("Space Field", type_line="Land", oracle_text="{T}: Add {P} or {G}."),))
    assert hellscube_land_colors(dual) == ("U", "R")
    assert hellscube_land_colors(nebula) == ("G", "P")


@pytest.mark.parametrize("colors", ["", "R", "UB", "WUG", "WUBRG"])
def test_what_one_more_color_unlocks_counts_every_card_judged_again_with_it(index, colors):
    """what_if judges again only the cards of choice; the count is that of judging all 720 with the color."""
    from hhdcli.colors import COLORS
    from hhdcli.mana import Take, judge_all, what_if

    cards, table = index.cards, SymbolTable.from_records(parse_symbols(PIPS.read_bytes()))
    takes = {c: sum(v.verdict is Take.TAKE for v in judge_all(cards, set(colors) | set(c), table)) for c in COLORS}
    base = sum(v.verdict is Take.TAKE for v in judge_all(cards, colors, table))
    gains = {w.color: w.gain for w in what_if(judge_all(cards, colors, table), colors, table)}
    assert gains == {c: takes[c] - base for c in COLORS if c not in colors}
    assert colors == "WUBRG" or any(gains.values())  # a color that unlocks nothing everywhere tests nothing


def test_the_whole_sets_odds_count_the_pools_basics_as_hhd_generate_draws_them(synced):
    """With --all the odds are a random library's: the 720 cards and 5 x --basics-per-type basics."""
    def odds(*extra: str) -> dict:
        result = synced("check", "--colors", "WU", "--all", "--json", *extra)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["odds"]

    default, none, more = odds(), odds("--basics-per-type", "0"), odds("--basics-per-type", "80")
    assert default["cards"] - none["cards"] == 5 * 50 and more["cards"] - none["cards"] == 5 * 80
    assert more["lands"] - none["lands"] == 5 * 80
    assert none["at_least_one_land"] < default["at_least_one_land"] < more["at_least_one_land"]


def test_offline_check_names_only_the_cards_that_may_be_lands_and_counts_real_lands_with_their_colors(synced, tmp_path):
    """Issue 50: offline, a real deck's real spells (Lightning Bolt, Sol Ring) are not named as maybe lands; a real
    land counts with its colors from hhd's built-in list; a name hhd does not know at all is named."""
    cube = Path(__file__).parent / "decks" / "real" / "cube" / "phever-no_type_sorting.txt"
    assert {"Lightning Bolt", "Sol Ring"} <= set(read_deck(cube).names)
    whole = json.loads(synced("check", str(cube), "--all", "--offline", "--json").stdout)
    assert whole["unresolved"] == [] and whole["deck_colors"] == list("WUBRG")
    deck = _write(tmp_path, "d.txt", "4 Lightning Bolt\n1 Sol Ring\n4 Stomping Ground\n2 Gloomy, Dank Cave\n16 Forest\n")
    found = json.loads(synced("check", str(deck), "--all", "--offline", "--json").stdout)
    assert found["unresolved"] == ["Gloomy, Dank Cave"] and found["deck_colors"] == ["R", "G"]
    assert {"name": "Stomping Ground", "colors": ["R", "G"], "source": "built-in"} in found["lands"]
    said = synced("check", str(deck), "--all", "--offline").output
    assert "Stomping Ground: RG (built-in list)" in said
    assert "not known, so not counted: 'Gloomy, Dank Cave'\n" in said
    assert "Stomping Ground: RG (встроенный список)" in synced("check", str(deck), "--all", "--offline", "--lang", "ru").output
