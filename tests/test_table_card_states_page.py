"""Every Hell card at the table, part 2, on the page in headless Chromium: Anna carries out the states the real
cards put a card in from her phone (390×844) while Ben's phone and the board (1280×800) watch, in English and
Russian: a note on Knight of ____, Theory face down in the command zone and turned face up, Goblin Spy 2.0
revealed until dismissed, control given from the board, a token card made by name (Path to Path to Exile's copy),
time counters on Trapeze Artist in exile. Nothing face down is named on the others' pages.
HHD_WALK_SHOTS=DIR keeps the screenshots there to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from tablekit import needs_chromium
from test_table_card_states import in_hand, states  # noqa: F401 (states: the fixture)
from test_table_page import Page, board, browsers, names_of, phone, snap  # noqa: F401 (browsers)

from hhdcli.table.game.zones import made_zones
from hhdcli.table.web.i18n import translations

pytestmark = needs_chromium


def said(page: Page, text: str) -> None:
    lines = 'return [...document.querySelectorAll("#log li")].map(e => e.textContent)'  # with its notes
    page.until(lambda: any(text in line for line in page.js(lines)), f"no log line with {text!r}: {page.log()[:3]}")


def opened(page: Page, css: str, text: str) -> None:
    page.click(css, text)
    page.until(lambda: page.js("return document.getElementById('card-dialog').open"))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phone_puts_cards_in_every_state_while_another_phone_and_the_board_watch(browsers, states, tmp_path,  # noqa: F811
                                                                                     lang):
    T = translations(lang).gettext
    shots = Path(os.environ.get("HHD_WALK_SHOTS") or tmp_path) / f"card-states-{lang}"
    shots.mkdir(parents=True, exist_ok=True)
    names = names_of(states) | {"Path", "to", "Exile"} | {w for z in made_zones().values()
                                                          for w in re.findall(r"[A-Za-z]+", z.name(lang))} \
        if lang == "ru" else None
    for name in ("Knight of ____", "Theory", "Goblin Spy 2.0", "Trapeze Artist"):
        in_hand(states, "Anna", name)
    artist = next(p for p, c in states.session.cards.items() if c.name == "Trapeze Artist")
    assert states.as_("Anna", "/api/move", {"position": artist, "to": "exile"})[0] == 200
    for player in ("Anna", "Ben"):
        assert states.call("/api/host/release", {"player": player}, host=True)[0] == 200
    anna = phone(browsers, 0, states, "Anna", lang=lang)
    ben = phone(browsers, 1, states, "Ben", lang=lang)
    laptop = board(browsers, 2, states, lang=lang)

    # Knight of ____: "note a color" — on the card in her hand, then with it on the battlefield for all to read
    opened(anna, "#mine .tile", "Knight of ____")
    snap(anna, shots, "01-phone-card-more", names)
    anna.click("#dlg-more button", T("Note…"))
    anna.until(lambda: anna.js("return document.getElementById('text').open"))
    color = {"en": "red", "ru": "красный"}[lang]  # as a player writes it
    anna.js("document.getElementById('text-value').value = arguments[0]", color)
    anna.click("#text-form button[type=submit]")
    anna.until(lambda: color in anna.text("mine"))
    said(ben, T("{player} noted on a card of theirs").format(player="Anna"))
    opened(anna, "#mine .tile", "Knight of ____")
    anna.click("#dlg-acts button", T("Play it"))
    laptop.until(lambda: "Knight of ____" in laptop.text("played") and color in laptop.text("played"))

    # Theory: face down into the command zone (it comes into being with it), the card named to Anna alone
    opened(anna, "#mine .tile", "Theory")
    command = made_zones()["command"].name(lang)
    anna.click("#dlg-more button", T("→ the {zone}, face down").format(zone=command))
    for page in (ben, laptop):
        page.until(lambda p=page: T("a face-down card") in p.text("zones"))
        assert "Theory" not in page.text("zones") + " ".join(page.log())
    said(ben, T("{player} put a card face down {where}").format(
        player="Anna", where=T("into {whose}'s {into}").format(whose="Anna", into=command)))
    anna.until(lambda: "Theory" in anna.text("zones"))
    snap(ben, shots, "02-phone-face-down-watching", names)
    snap(laptop, shots, "02-board-face-down", names)
    anna.click("#zones .card-ref", "Theory")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open"))
    anna.click("#dlg-more button", T("Turn it face up"))
    said(laptop, T("{player} turned {card} face up").format(player="Anna", card="Theory"))
    ben.until(lambda: "Theory" in ben.text("zones"))
    anna.click("#undo")  # taken back: face down again, and nothing of it named to the others
    ben.until(lambda: "Theory" not in ben.text("zones") and T("a face-down card") in ben.text("zones"))
    undone = ben.log()[0]  # the line it took back had named it: so does its undo, and no more
    assert undone.startswith("Anna") and "Theory" in undone
    anna.click("#zones .card-ref", "Theory")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open"))
    anna.click("#dlg-more button", T("Turn it face up"))
    ben.until(lambda: "Theory" in ben.text("zones"))

    # Goblin Spy 2.0 revealed: shown on the others' pages until each dismisses it
    opened(anna, "#mine .tile", "Goblin Spy 2.0")
    anna.click("#dlg-more button", T("Reveal it to the table"))
    ben.until(lambda: ben.shown("shown-box") and "Goblin Spy 2.0" in ben.text("shown"))
    laptop.until(lambda: "Goblin Spy 2.0" in laptop.text("shown"))
    snap(ben, shots, "03-phone-shown", names)
    ben.click("#shown button.soft")
    ben.until(lambda: not ben.shown("shown-box"))
    assert laptop.shown("shown-box")  # dismissed on Ben's page alone

    # the board gives Ben control of the Knight: his, Anna's to own
    laptop.click("#played .card-ref", "Knight of ____")
    laptop.until(lambda: laptop.js("return document.getElementById('card-dialog').open"))
    laptop.click("#dlg-more button", T("{player} gains control of it").format(player="Ben"))
    said(anna, T("{player}: {whose} now controls {card}").format(player=T("the host").capitalize(), whose="Ben",
                                                                 card="Knight of ____"))
    laptop.until(lambda: T("owner: {player}").format(player="Anna") in laptop.text("played"))

    # Path to Path to Exile: Ben puts a token copy of Path to Exile into his hand, from his phone
    ben.click("#tools-open")
    ben.click("#tools-token")
    ben.until(lambda: ben.js("return document.getElementById('token-dialog').open"))
    ben.js("document.getElementById('token-name').value = 'Path to Exile'")
    ben.click("#token-form button[type=submit]")
    ben.until(lambda: "Path to Exile" in ben.text("mine") and T("token") in ben.text("mine"))

    # Trapeze Artist suspended in exile: time counters, from the board
    laptop.click("#played .card-ref", "Trapeze Artist")
    laptop.until(lambda: laptop.js("return document.getElementById('card-dialog').open"))
    snap(laptop, shots, "04-board-card-in-exile", names)
    laptop.click("#dlg-more button", "+ " + T("time"))
    anna.until(lambda: "Trapeze Artist" in anna.text("played") and ": 1" in anna.text("played"))
    snap(anna, shots, "05-phone-end", names)
