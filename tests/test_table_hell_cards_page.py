"""Every Hell card at the table, part 1, on the page in headless Chromium: Anna carries out the real cards' effects
from her phone (390×844) while Ben's phone and the board (1280×800) watch, in English and Russian: Arabian Dunes
takes a card from the middle of the sideboard, the sideboard is shuffled, Bear but Woah is declared a companion
and cast, Swords to Rideshares brings the auto zone into being and a creature goes into it, Knight of ____'s
"when you draft" is said on the drawer's phone and revealed, Nebula Warp's clarification is read on the board.
HHD_WALK_SHOTS=DIR keeps the screenshots there to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from tablekit import deal_to, hell_position, needs_chromium
from test_table_hell_cards import drawn, hell, onto_sideboard  # noqa: F401 (hell: the fixture)
from test_table_page import BOARD, PHONE, Page, board, browsers, names_of, phone, snap  # noqa: F401 (browsers)

from hhdcli.table.game.zones import made_zones
from hhdcli.table.web.i18n import translations

pytestmark = needs_chromium


def said(page: Page, text: str) -> None:
    """The page's log shows a line holding `text` (pushed by the table, not read again)."""
    lines = 'return [...document.querySelectorAll("#log li")].map(e => e.textContent)'  # with its notes
    page.until(lambda: any(text in line for line in page.js(lines)), f"no log line with {text!r}: {page.log()[:3]}")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phone_carries_out_hell_cards_while_another_phone_and_the_board_watch(browsers, hell, tmp_path, lang):  # noqa: F811
    T = translations(lang).gettext
    shots = Path(os.environ.get("HHD_WALK_SHOTS") or tmp_path) / f"hell-cards-{lang}"
    shots.mkdir(parents=True, exist_ok=True)
    names = names_of(hell) | {w for z in made_zones().values() for w in re.findall(r"[A-Za-z]+", z.name(lang))} \
        if lang == "ru" else None
    for name in ("Nebula Warp", "Hype Train", "Bear but Woah", "Shell Game"):  # the sideboard, top last named
        onto_sideboard(hell, "Ben", name)
    drawn(hell, "Anna", "Swords to Rideshares")
    if hell.player("Anna")["pending"]:
        assert hell.as_("Anna", "/api/take")[0] == 200
    for player in ("Anna", "Ben"):  # for their phones to take (the API's tokens set the table up)
        assert hell.call("/api/host/release", {"player": player}, host=True)[0] == 200
    anna = phone(browsers, 0, hell, "Anna", lang=lang)
    ben = phone(browsers, 1, hell, "Ben", lang=lang)
    laptop = board(browsers, 2, hell, lang=lang)

    # Arabian Dunes: "put a card from your sideboard into your hand" — any card, the third here
    anna.click("#sideboard .tile", "Hype Train")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open"))
    snap(anna, shots, "01-phone-sideboard-card", names)
    anna.click("#dlg-acts button", T("→ my hand"))
    anna.until(lambda: "Hype Train" in anna.hand())
    taken = T("{player} took {card} from the sideboard {where}").format(
        player="Anna", card="Hype Train", where=T("into {whose}'s hand").format(whose="Anna"))
    for page in (ben, laptop):
        said(page, taken)
        page.until(lambda p=page: "Hype Train" not in p.texts("#sideboard .name")[0] + p.texts("#sideboard .name")[-1])
    anna.click("#undo")  # taken back: where it was, the third card, on every page
    laptop.until(lambda: any("Hype Train" in n for n in laptop.texts("#sideboard .name")))
    said(ben, T("{player} took back: {what}").format(player="Anna", what=taken))
    anna.click("#sideboard .tile", "Hype Train")
    anna.click("#dlg-acts button", T("→ my hand"))
    anna.until(lambda: "Hype Train" in anna.hand())

    # the sideboard shuffled, from the phone: said on every page
    anna.click("#sb-shuffle")
    for page in (ben, laptop):
        said(page, T("{player} shuffled the sideboard").format(player="Anna"))

    # Bear but Woah: declared from anywhere in the sideboard, then cast once a game from outside the game
    anna.click("#sideboard .tile", "Bear but Woah")
    anna.click("#dlg-acts button", T("Declare it my companion"))
    anna.until(lambda: anna.shown("companion-cast"))
    laptop.until(lambda: T("companion {card}").format(card="Bear but Woah") in laptop.text("players"))
    snap(laptop, shots, "02-board-companion", names)
    anna.click("#companion-cast")
    anna.until(lambda: not anna.shown("companion-cast"))
    said(ben, T("{player} cast their companion {card} from outside the game").format(player="Anna", card="Bear but Woah"))
    laptop.until(lambda: "Bear but Woah" in laptop.text("played"))

    # Swords to Rideshares played: the auto zone comes into being on every page; Hype Train moved into it
    auto = made_zones()["auto"].name(lang)
    assert auto not in laptop.text("zones")  # Shell Game on the sideboard has brought the UwU decks only
    anna.click("#mine .held .tile", "Swords to Rideshares")
    anna.click("#dlg-acts button", T("Play it"))
    for page in (ben, laptop):
        page.until(lambda p=page: p.shown("zones-box") and auto in p.text("zones"))
    said(ben, T("new zone: {zones}").format(zones=auto))
    anna.until(lambda: "Hype Train" in anna.hand())
    anna.click("#mine .held .tile", "Hype Train")
    anna.click("#dlg-acts button", T("Play it"))
    anna.until(lambda: "Hype Train" in anna.text("played"))
    anna.click("#played .card-ref", "Hype Train")
    anna.click("#dlg-acts button", T("→ the {zone}").format(zone=auto))
    laptop.until(lambda: "Hype Train" in laptop.text("zones") and "Hype Train" not in laptop.text("played"))
    said(ben, T("{player} put {card} into {whose}'s {zone}").format(player="Anna", card="Hype Train", whose="Anna",
                                                                     zone=auto))
    snap(laptop, shots, "03-board-auto-zone", names)
    snap(ben, shots, "03-phone-watching", names)

    # Knight of ____ taken by Ben: "when you draft" happens now, said on his phone with its clarification
    knight = hell_position(hell, "Knight of ____")
    deal_to(hell, "Ben", knight)
    moment_open = "return document.getElementById('moment').open"
    ben.press("draw")
    ben.until(lambda: ben.shown("choice") or ben.js(moment_open))
    if not ben.js(moment_open):  # a choice for Ben's deck: the moment comes with Take
        ben.press("take")
    ben.until(lambda: ben.js(moment_open))
    assert "Knight of ____" in ben.text("moment-title")
    assert T("When you draft this card: as you take it or decline it") in ben.text("moment-list")
    assert hell.session.describe(knight, lang)["clarification"] in ben.text("moment-clar")
    snap(ben, shots, "04-phone-moment", names)
    ben.click("#moment-reveal")
    said(anna, T("{player} revealed {card}").format(player="Ben", card="Knight of ____"))
    said(laptop, T("“when you draft”: now"))

    # Dreadmaw Draft Guide: "when you draft it, add five Colossal Dreadmaws to your draft pool": the draft pool is
    # the sideboard, and the moment's dialog puts them there by name
    guide = hell_position(hell, "Dreadmaw Draft Guide")
    deal_to(hell, "Anna", guide)
    anna.press("draw")
    anna.until(lambda: anna.shown("choice") or anna.js(moment_open))
    if not anna.js(moment_open):
        anna.press("decline")  # declined, it is drafted too
    anna.until(lambda: anna.js(moment_open) and anna.shown("moment-pool"))
    anna.js("document.getElementById('moment-pool-name').value = 'Colossal Dreadmaw'")
    for _ in range(2):
        anna.click("#moment-pool-send")
    laptop.until(lambda: laptop.texts("#sideboard .name")[:2] == ["▶ Colossal Dreadmaw", "Colossal Dreadmaw"])
    anna.click("#moment-ok")

    # Nebula Warp's clarification, read on the board from the sideboard
    laptop.click("#sideboard .tile", "Nebula Warp")
    laptop.until(lambda: laptop.js("return document.getElementById('card-dialog').open"))
    warp = hell.session.describe(hell_position(hell, "Nebula Warp"), lang)["clarification"]
    assert warp and warp in laptop.text("dlg-clar")
    snap(laptop, shots, "05-board-clarification", names)
