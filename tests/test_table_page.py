"""The Hell table's page in headless Chromium, as a group plays an evening: phones at 390×844, the laptop's board
at 1280×800, in English and Russian. Browsers are shared by the tests of a worker (a pool, reset between tests:
each test's table has a port, so an origin and a storage, of its own) and every wait is for what the page shows."""

from __future__ import annotations

import gzip
import json
import os
import re
import time
from pathlib import Path

import pytest
from tablekit import EVERY_ACTION, PLAYERS, Table, act, anna_holds, kept, needs_chromium, positions_in

from hhdcli.table.game.rules import Action
from support import chromium

pytestmark = needs_chromium
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js.gz"
PHONE, BOARD = (390, 844), (1280, 800)
DOCS = Path(__file__).parents[1] / "docs"


class Browsers:
    """Headless Chromiums for this worker, made when first asked for and kept for its other tests."""

    def __init__(self) -> None:
        self.made: list = []

    def get(self, index: int, size: tuple[int, int], lang: str = "en"):
        while len(self.made) <= index:
            self.made.append(chromium())
        browser = self.made[index]
        browser.get("about:blank")
        browser.delete_all_cookies()  # 127.0.0.1's cookies are every port's: a language chosen in another test
        browser.set_window_size(*size)
        return browser

    def quit(self) -> None:
        for browser in self.made:
            browser.quit()


@pytest.fixture(scope="session")
def browsers():
    pool = Browsers()
    yield pool
    pool.quit()


class Page:
    """One device at the table, driven through the page alone."""

    def __init__(self, browser, url: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.browser = browser
        self.wait = WebDriverWait(browser, 40, poll_frequency=0.1)  # browsers on two cores, beside other tests
        browser.get(url)
        # the join page first, when the address brings the code after #: its script trades it and opens the table
        self.until(lambda: self.js("const e = document.getElementById('library'); return e ? e.textContent : ''")
                   not in ("", "–"))

    def js(self, script: str, *args):
        return self.browser.execute_script(script, *args)

    def until(self, check, message: str = "") -> None:
        self.wait.until(lambda _b: check(), message)

    def text(self, element_id: str) -> str:
        return str(self.js(f"return document.getElementById('{element_id}').textContent"))

    def shown(self, element_id: str) -> bool:
        return bool(self.js(f"const e = document.getElementById('{element_id}'); return !!e && !e.closest('[hidden]') "
                            "&& getComputedStyle(e).display !== 'none'"))

    def texts(self, css: str) -> list[str]:
        return list(self.js(f"return [...document.querySelectorAll('{css}')].map(e => e.textContent.trim())"))

    def click(self, css: str, text: str | None = None) -> None:
        """Click the first element matching css (and holding text) once it is there and enabled."""
        script = ("const all = [...document.querySelectorAll(arguments[0])].filter(e => !e.disabled && "
                  "!e.closest('[hidden]') && (arguments[1] === null || e.textContent.includes(arguments[1])));"
                  "if (!all.length) return false; all[0].click(); return true;")
        self.until(lambda: self.js(script, css, text), f"no {css} {text or ''} to click")

    def press(self, action: str) -> None:
        self.click(f"button[data-action='{action}']")

    def bar_action(self) -> str:
        return str(self.js("return document.getElementById('draw').dataset.action"))

    def opening_kept(self) -> None:
        """The opening hand dealt and kept, as the bar offers it first (the rules deal it before any draw): the
        bar's one action while it is dealt is Keep."""
        if self.bar_action() == "opening-hand":
            self.press("opening-hand")
            self.until(lambda: self.shown("opening") and self.shown("keep"))
        if self.shown("keep"):
            self.click("#keep")
            self.until(lambda: not self.shown("opening") and self.bar_action() == "draw" and self.shown("draw"))

    def draw_until_choice(self, tries: int = 40) -> None:
        """Draw from Hell, dismissing each card the deck must take, until one is a choice (take or decline)."""
        self.opening_kept()
        for _ in range(tries):
            self.press("draw")
            self.until(lambda: self.shown("drawn") and self.text("drawn-name"))
            if self.shown("choice"):
                return
            self.click("#dismiss")
            self.until(lambda: not self.shown("drawn"))

    def seat(self, name: str) -> None:
        self.click("#seats button", name)
        self.until(lambda: self.shown("me") and name in self.text("me"))

    def hand(self) -> list[str]:
        return self.texts("#mine .tile .name")

    def log(self) -> list[str]:
        return self.texts("#log li > span:first-child")


def phone(browsers: Browsers, index: int, table: Table, name: str | None = None, lang: str = "en") -> Page:
    page = Page(browsers.get(index, PHONE), f"{table.url}/?lang={lang}")
    if name:
        page.seat(name)
    return page


def board(browsers: Browsers, index: int, table: Table, lang: str = "en", host: bool = True) -> Page:
    page = Page(browsers.get(index, BOARD), f"{table.url}/?lang={lang}" + (f"#host={table.host}" if host else ""))
    if not host:  # a laptop that never held a seat or the secret (this browser may have, earlier in the test)
        page.js("localStorage.clear()")
        page.browser.delete_all_cookies()
        page = Page(page.browser, f"{table.url}/?lang={lang}")
    page.until(lambda: "board" in page.js("return document.body.className"))
    return page


def library_count(page: Page) -> int:
    return int(page.text("library"))


def test_mulligan_twice_with_a_partial_keep_undo_after_another_and_a_cancelled_end_on_the_page(browsers, table):
    anna, ben = phone(browsers, 0, table, "Anna"), phone(browsers, 1, table, "Ben")
    order = positions_in(table.session.path, "library")
    names = {p: table.session.cards[p].name for p in order[:8]}
    # Anna: the bar offers her opening hand first (no draw before it); mulligan, mulligan, tick one, keep
    assert anna.text("draw") == "First your opening hand: 2 Hell cards" and not anna.shown("opening")
    anna.press("opening-hand")
    anna.until(lambda: anna.hand() == [names[order[0]], names[order[1]]])
    # dealt, not kept: the bar's one action is Keep, in view; no Draw is offered
    assert anna.shown("opening") and anna.shown("keep") and not anna.shown("draw")
    assert in_view(anna, "#keep") == [(True, 18)]  # two lines at most in Russian
    anna.press("mulligan")
    anna.until(lambda: anna.hand() == [names[order[2]], names[order[3]]])
    anna.press("mulligan")
    anna.until(lambda: anna.hand() == [names[order[4]], names[order[5]]])
    # the second card by its place, not its name: the two may be the same basic land
    anna.until(lambda: anna.js("const t = document.querySelectorAll('#mine .tile'); return t.length === 2 && "
                               "(t[1].click(), true)"))
    anna.until(lambda: "1" in anna.texts("#mine .tile .order"))
    anna.click("#keep")
    anna.until(lambda: anna.hand() == [names[order[4]]] and not anna.shown("opening"))
    assert positions_in(table.session.path, "library")[-1] == order[5]
    ben.until(lambda: library_count(ben) == 96)  # pushed to the other phone
    # Anna draws, then Ben; Anna's undo takes back her own draw, not Ben's
    anna.press("draw")
    anna.until(lambda: anna.shown("drawn"))
    ben.until(lambda: library_count(ben) == 95)
    ben.opening_kept()
    ben.press("draw")
    ben.until(lambda: ben.shown("drawn") and library_count(ben) == 92)
    anna.press("undo")
    anna.until(lambda: library_count(anna) == 93 and anna.hand() == [names[order[4]]])
    ben_seen = table.player("Ben", viewer="")  # as a spectator sees him: a count, and whether a card waits
    assert ben_seen["card_count"] + ben_seen["waiting"] == 3
    # the drawn card stays on Ben's phone until he dismisses (or answers) it
    if ben.shown("choice"):
        ben.press("decline")
        ben.until(lambda: not ben.shown("drawn"))
        anna.until(lambda: len(anna.texts("#sideboard .tile")) == 1)
    else:
        ben.click("#dismiss")
        ben.until(lambda: not ben.shown("drawn"))
    # end of game: the first tap says what it will do; Cancel moves nothing; the second step ends it
    anna.click("#end")
    anna.until(lambda: anna.shown("end-confirm") and "game 2" in anna.text("end-said"))
    anna.click("#end-no")
    anna.until(lambda: not anna.shown("end-confirm"))
    assert table.state()["game"] == 1
    anna.click("#end")
    anna.click("#end-yes")
    ben.until(lambda: ben.text("game") == "2")
    assert any("ended game 1" in line for line in ben.log())
    assert all(any(line.startswith(who) for who in ("Anna", "Ben")) for line in ben.log())  # every entry has its player


def test_three_games_on_four_phones_with_a_late_player_and_the_board(browsers, table):
    """Each game: opening hands kept on every phone, a draw each, a card played; the board follows every change
    by push and ends the game; the next game goes on with the same library and sideboard, ownership afresh. A
    fourth player, late, is added from the board after the first game and plays the other two on a fourth phone."""
    laptop = board(browsers, 0, table)
    phones = {name: phone(browsers, i + 1, table, name) for i, name in enumerate(("Anna", "Ben", "Cleo"))}
    for game in (1, 2, 3):
        if game == 2:
            laptop.js("document.getElementById('add-name').value = 'Dana';"
                      "document.getElementById('add-colors').value = 'G';")
            laptop.click("#add button[type=submit]")
            laptop.until(lambda: any(t.startswith("Dana") for t in laptop.texts("#players li")))
            phones["Dana"] = phone(browsers, 4, table, "Dana")
        for page in phones.values():
            page.press("opening-hand")
            page.until(lambda p=page: len(p.hand()) == 2)
            page.click("#keep")
            page.until(lambda p=page: not p.shown("opening"))
        for page in phones.values():
            page.press("draw")
            page.until(lambda p=page: p.shown("drawn"))
            if page.shown("choice"):
                page.press("decline")
            else:
                page.click("#dismiss")
            page.until(lambda p=page: not p.shown("drawn"))
        anna = phones["Anna"]
        anna.click("#mine .play")
        laptop.until(lambda: len(laptop.texts("#played li")) == 1)
        counts = {n: table.player(n, viewer="")["card_count"] for n in phones}
        laptop.until(lambda c=counts: all(any(t.startswith(f"{n} · {k} Hell card") for t in laptop.texts("#players li"))
                                          for n, k in c.items()))
        held = sum(counts.values()) + 1  # in hands, and Anna's card in play
        laptop.until(lambda h=held: library_count(laptop) + len(laptop.texts("#sideboard .tile")) + h == 97)
        laptop.click("#end")
        laptop.until(lambda: laptop.shown("end-confirm"))
        laptop.click("#end-yes")
        for page in phones.values():
            page.until(lambda p=page, g=game: p.text("game") == str(g + 1) and p.hand() == [])
        assert all(c["owner"] is None for c in table.state()["sideboard"])
        assert library_count(laptop) + len(table.state()["sideboard"]) == 97


def test_a_phone_replaced_mid_game_a_late_player_and_a_spectator_in_russian(browsers, table):
    laptop = board(browsers, 0, table, lang="ru")
    anna = phone(browsers, 1, table, "Anna", lang="ru")
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    held = anna.hand()
    old = anna.browser.get_cookie(f"hhd_player_{table.port}")["value"]  # HttpOnly: the page's scripts never read it
    assert old not in anna.js("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie")
    laptop.until(lambda: any("Anna" in t and "2 Адские карты" in t for t in laptop.texts("#players li")))
    # Anna's phone dies: the board shows her re-seat code; the new phone scans it and holds her hand
    laptop.click("#players button", "Место")  # the seat's choices, each saying what it does, in a dialog
    laptop.until(lambda: laptop.js("return document.getElementById('seat-menu').open"))
    assert "больше не сможет" in laptop.text("seat-new-said") and "Anna" in laptop.text("seat-menu-title")
    laptop.click("#seat-new")
    laptop.until(lambda: laptop.js("return document.getElementById('reseat').open") and
                 "#seat=" in laptop.text("reseat-url"))
    seat_url = laptop.text("reseat-url").replace(table.url + "/", table.url + "/?lang=ru")
    new = Page(browsers.get(2, PHONE), seat_url)
    new.until(lambda: new.shown("me") and "Anna" in new.text("me") and new.hand() == held)
    anna.until(lambda: anna.shown("seat") and not anna.shown("me"))  # the old phone lost the seat at once
    status, refused = table.call("/api/draw", {}, {"Accept-Language": "ru"}, token=old)  # and is refused from now on
    assert status == 401 and "место за столом" in refused["error"] and table.state()["library_count"] == 95
    # a late player, added from the board, takes the old phone
    laptop.click("#reseat-close")
    laptop.js("document.getElementById('add-name').value = 'Dana'; document.getElementById('add-colors').value = 'G';")
    laptop.click("#add button[type=submit]")
    anna.until(lambda: "Dana" in anna.texts("#seats button"))
    anna.seat("Dana")
    anna.opening_kept()
    anna.press("draw")
    laptop.until(lambda: library_count(laptop) == 92)
    line = next(t for t in laptop.log() if t.startswith("Dana"))
    assert "берёт Адскую карту" in line  # present tense: no gender for a name
    # a spectator: the board without the host's secret, no seat, no host buttons
    watcher = board(browsers, 1, table, lang="ru", host=False)
    watcher.until(lambda: library_count(watcher) == 92)
    assert not watcher.shown("add-open") and not watcher.texts("#players button") and watcher.shown("join-qr")


def test_pages_reconnect_by_themselves_after_the_server_restarts(browsers, legacy_cache, library, tmp_path):
    state = tmp_path / "session.sqlite"
    first = Table(state, library, legacy_cache)
    port = first.port
    anna = phone(browsers, 0, first, "Anna", lang="ru")
    anna.until(lambda: anna.text("conn") == "на связи")
    first.stop()  # the laptop's hhd table stops
    anna.until(lambda: anna.shown("banner") and anna.text("conn") in ("переподключение…", "стол не отвечает"))
    anna.click("#draw")  # a tap while it is down says it was not sent
    anna.until(lambda: "не отправлено" in anna.text("error") or anna.text("conn") == "стол не отвечает")
    second = Table(state, library, legacy_cache, port=port)  # and starts again on the same port
    try:
        anna.until(lambda: anna.text("conn") == "на связи" and not anna.shown("banner"))
        anna.click("#draw")  # her opening hand, the bar's first action
        anna.until(lambda: library_count(anna) == 95)
    finally:
        second.stop()


def not_answering(page: Page) -> str:
    """The page's banner once a tap met the stopped server (the table "not answering")."""
    page.click("#draw")  # the bar's first action (the opening hand): its request fails
    page.until(lambda: page.text("conn") == "table not answering" and page.shown("banner"))
    return page.text("banner")


def test_the_not_answering_banner_says_what_is_true_where_the_table_runs(browsers, legacy_cache, library, tmp_path):
    """A laptop's hhd table is asked after on the laptop; a table of hhd serve (its page's bootstrap says so, from
    the server) is not on anyone's laptop: its banner says the server may be restarting."""
    from test_table_community import Server, opened

    laptop = Table(tmp_path / "session.sqlite", library, legacy_cache)
    anna = phone(browsers, 0, laptop, "Anna")
    laptop.stop()
    assert "is hhd table still running on the laptop?" in not_answering(anna)
    server = Server(legacy_cache, tmp_path / "tables")
    try:
        board = opened(server.open({"name0": "Anna", "colors0": "RG", "seed": "ember-tide-42"})[1])["board"]
        # in English whatever language an earlier test left this browser's cookie for 127.0.0.1 in
        served = Page(browsers.get(1, PHONE), board.split("&host=")[0].replace("/#", "/?lang=en#"))
        served.seat("Anna")
        served.until(lambda: served.text("conn") == "connected")
    finally:
        server.stop()
    said = not_answering(served)
    assert said.startswith("The table is not answering: the server may be restarting.") and "laptop" not in said


def errors_seen(page: Page) -> list[str]:
    """Every error the page has shown since `watch_errors`."""
    return list(page.js("return window.errorsSeen || []"))


def watch_errors(page: Page) -> None:
    page.js("window.errorsSeen = []; const e = document.getElementById('error');"
            "new MutationObserver(() => { if (!e.hidden && e.textContent) window.errorsSeen.push(e.textContent); })"
            ".observe(e, { attributes: true, childList: true, characterData: true, subtree: true });")


def test_a_restart_shows_no_error_on_pages_nobody_touched_and_a_failed_taps_error_goes_when_it_is_back(
        browsers, legacy_cache, library, tmp_path):
    state = tmp_path / "session.sqlite"
    first = Table(state, library, legacy_cache)
    port = first.port
    anna, ben = phone(browsers, 0, first, "Anna"), phone(browsers, 1, first, "Ben")
    laptop = board(browsers, 2, first)
    for page in (anna, ben, laptop):
        page.until(lambda page=page: page.text("conn") == "connected")
        watch_errors(page)
    first.stop()
    for page in (anna, ben, laptop):
        page.until(lambda page=page: page.shown("banner"))
    anna.click("#draw")
    anna.until(lambda: "not sent" in anna.text("error"))
    second = Table(state, library, legacy_cache, port=port)
    try:
        for page in (anna, ben, laptop):
            page.until(lambda page=page: page.text("conn") == "connected" and not page.shown("banner"))
        anna.until(lambda: not anna.shown("error"))  # the cause is gone: so is the error
        assert errors_seen(ben) == [] and errors_seen(laptop) == []  # nobody tapped: no error, ever
    finally:
        second.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_undo_leaves_a_line_on_every_page_and_the_undone_line_stays_marked(browsers, table, lang):
    anna, ben = phone(browsers, 0, table, "Anna", lang), phone(browsers, 1, table, "Ben", lang)
    laptop = board(browsers, 2, table, lang)
    anna.press("opening-hand")
    ben.until(lambda: len(ben.log()) == 1)
    anna.press("undo")
    said = {"en": "Anna took back: Anna drew an opening hand", "ru": "Anna отменяет: Anna берёт стартовую руку"}[lang]
    for page in (anna, ben, laptop):
        page.until(lambda page=page: page.log()[:1] == [said])
        assert page.texts("#log li.undone > span:first-child") == [page.log()[1]]


def test_every_player_sees_their_hand_with_faces_and_text_and_a_tap_opens_it_full_screen(browsers, table):
    anna = phone(browsers, 0, table, "Anna")
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    anna.click("#keep")
    anna.until(lambda: not anna.shown("opening"))
    loaded = "return [...document.querySelectorAll('#mine .tile img')].every(i => i.complete && i.naturalWidth > 100)"
    anna.until(lambda: anna.js(loaded))
    first = anna.hand()[0]
    anna.click("#mine .tile", first)
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open") and anna.text("dlg-name") == first)
    assert anna.text("dlg-text").strip()
    anna.click("#dlg-acts button", "Play it")  # one tap plays it: open to everyone now
    anna.until(lambda: len(anna.hand()) == 1 and any(first in t for t in anna.texts("#played li")))
    drawn_box = "return document.getElementById('draw').getBoundingClientRect().bottom <= window.innerHeight"
    anna.press("draw")
    anna.until(lambda: anna.shown("drawn"))
    assert anna.js(drawn_box)  # the Draw button stays within reach


def axe_violations(page: Page, least: int = 20) -> list:
    """axe-core's serious and critical violations on what the page shows now; more than `least` rules passed
    (a modal dialog open makes the page under it inert: fewer rules apply)."""
    page.js(gzip.decompress(AXE.read_bytes()).decode("utf-8"))
    result = page.browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; axe.run(document).then(done, e => done(String(e)));")
    assert isinstance(result, dict), result
    assert len(result["passes"]) > least, [p["id"] for p in result["passes"]]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_axe_core_finds_no_serious_accessibility_violation_on_the_phone_and_the_board(browsers, table, lang):
    ben = phone(browsers, 0, table, "Ben", lang=lang)
    ben.opening_kept()
    ben.press("draw")
    ben.until(lambda: ben.shown("drawn"))
    moment = "return document.getElementById('moment').open"
    if ben.js(moment):  # the drawn card's "when you draft" said in a dialog: it too, then the page under it
        assert axe_violations(ben, least=10) == []
        ben.click("#moment-ok")
        ben.until(lambda: not ben.js(moment))
    table.as_("Cleo", "/api/own-card", {"name": "Llanowar Elves"})
    ben.until(lambda: len(ben.texts("#sideboard .tile")) == 1)
    assert axe_violations(ben) == []
    laptop = board(browsers, 1, table, lang=lang)
    laptop.until(lambda: len(laptop.texts("#sideboard .tile")) == 1)
    assert axe_violations(laptop) == []


# for each element a selector finds: whether it is in view (within the window and every box that scrolls around
# it, not hidden) and its font size
IN_VIEW = """
const inside = (r, b) => r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
return [...document.querySelectorAll(arguments[0])].map(e => {
  const r = e.getBoundingClientRect();
  let seen = r.height > 0 && inside(r, { top: 0, left: 0, bottom: innerHeight, right: innerWidth });
  for (let p = e.parentElement; p && seen; p = p.parentElement)
    if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowY)) seen = inside(r, p.getBoundingClientRect());
  return [seen, parseFloat(getComputedStyle(e).fontSize)];
});
"""


def in_view(page: Page, css: str) -> list[tuple[bool, float]]:
    return [tuple(found) for found in page.js(IN_VIEW, css)]


def test_screenshots_of_the_board_and_a_phone_mid_game(browsers, table, tmp_path):
    """An evening's middle, photographed; HHD_KEEP_SCREENSHOTS=1 writes them to docs/ for the README. The board's
    first screen (1280×800, nothing scrolled) is read across a table, at 24 px or more: the library's and the
    sideboard's counts, the sideboard's top 8 cards by name and how many more lie below them, every player by
    name, each player's public Hell cards by zone (battlefield, graveyard, exile), and the log's last 8 lines."""
    laptop = board(browsers, 0, table)
    anna = phone(browsers, 1, table, "Anna")
    for name in ("Ben", "Cleo"):
        table.as_(name, "/api/opening-hand")
        table.as_(name, "/api/keep", {"bottom": []})
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    anna.click("#keep")
    for _ in range(12):  # the sideboard fills with declined cards
        for _ in range(97):  # bounded: a refused draw fails here rather than asking forever
            status, card = table.as_("Ben", "/api/draw")
            assert status == 200, card
            if card.get("verdict") == "choice":
                assert table.as_("Ben", "/api/decline")[0] == 200
                break
    played = [table.as_("Cleo", "/api/play-sideboard")[1]["position"] for _ in range(3)]
    table.as_("Cleo", "/api/move", {"position": played[1], "to": "graveyard"})
    table.as_("Cleo", "/api/move", {"position": played[2], "to": "exile"})
    anna.press("draw")
    anna.until(lambda: anna.shown("drawn"))
    images = "return [...document.images].filter(i => i.src && !i.closest('[hidden]')).every(i => i.complete)"
    for page in (laptop, anna):
        page.until(lambda p=page: p.js(images) and p.text("conn") == "connected")
    laptop.until(lambda: len(laptop.texts("#sideboard .tile")) == 9 and len(laptop.texts("#played li")) == 3)
    # the last pushes' reads may still be laying the board out (the log's lines, the players' counts, who is
    # connected, pushed up to a second late): its first screen is what it shows once they are done
    laptop.until(lambda: laptop.text("sb-more") and in_view(laptop, "#sb-more")[0][0], "the count of more not in view")
    laptop.until(lambda: all(seen for seen, _size in in_view(laptop, "#played .zone-name, #played .card-ref")),
                 "Cleo's played cards not all in the first screen")
    laptop.until(lambda: all(seen for seen, _size in in_view(laptop, "#played .zone-name, #played .card-ref")),
                 "Cleo's played cards not all in the first screen")
    sideboard = in_view(laptop, "#sideboard .name")
    assert sideboard[:8] == [(True, 24)] * 8 and not sideboard[8][0]
    assert laptop.text("sb-more") == "and 1 more card below them" and in_view(laptop, "#sb-more")[0][0]
    assert all(seen and size >= 24 for seen, size in in_view(laptop, "#library, #sbcount, #players b"))
    assert all("20 life" in said for said in laptop.texts("#players li .small"))  # each player's life, by name
    zones = laptop.texts("#played li .zone-name")
    assert zones == ["Cleo · battlefield:", "Cleo · graveyard:", "Cleo · exile:"]
    assert all(seen and size >= 24 for seen, size in in_view(laptop, "#played .zone-name, #played .card-ref"))
    assert len(laptop.log()) >= 8
    assert all(seen and size >= 24 for seen, size in in_view(laptop, "#log li > span:first-child")[:8])
    shots = {"hell-table-board.png": laptop, "hell-table-phone.png": anna}
    for name, page in shots.items():
        target = (DOCS if os.environ.get("HHD_KEEP_SCREENSHOTS") else tmp_path) / name
        page.browser.save_screenshot(str(target))
        assert target.stat().st_size > 20_000
    assert json.dumps(table.state())  # the table is as the pictures show it


# --- the layout, measured: what a player would frown at -----------------------------------------------------

LATE = ("Dana", "Emil", "Fyodor Mikhailovich")  # the last name the longest: a row of its own on the board
RECT = "const r = document.getElementById(arguments[0]).getBoundingClientRect(); return [r.top, r.bottom];"
# every element (of those a selector finds, and their descendants) whose content is wider than its box
OVERFLOWING = ("return [...document.querySelectorAll(arguments[0])].flatMap(e => [e, ...e.querySelectorAll('*')])"
               ".filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && "
               "getComputedStyle(e).overflowX === 'visible').map(e => e.id || e.className || e.tagName)")


@pytest.mark.parametrize("players, lang", [(3, "en"), (3, "ru"), (6, "en"), (6, "ru")])
def test_the_boards_player_list_fits_the_screen_with_three_to_six_players(browsers, table, players, lang):
    """At 1280×800 the host's board shows every player, with their Seat… button, without scrolling: the page is no
    taller than the window and the player list ends within it."""
    for name in LATE[:players - 3]:
        assert table.call("/api/host/add-player", {"player": name, "colors": "G"}, host=True)[0] == 200
    for name in [*PLAYERS, *LATE[:players - 3]]:
        table.seat(name)
        table.as_(name, "/api/opening-hand")
    laptop = board(browsers, 0, table, lang=lang)
    laptop.until(lambda: len(laptop.texts("#players li > button")) == players)
    height = laptop.js("return window.innerHeight")
    top, bottom = laptop.js(RECT, "players-box")
    assert 0 <= top and bottom <= height, (top, bottom, height)
    assert laptop.js("return document.documentElement.scrollHeight") <= height


def test_a_choice_card_is_answered_beside_it_and_draw_waits_for_the_answer(browsers, table):
    """On a phone, Take and Decline come before the card's text (within the first screen, above the bar's buttons, whatever
    the text's length), and Draw from Hell is greyed until the choice is answered."""
    anna = phone(browsers, 0, table, "Anna")
    anna.draw_until_choice()
    anna.until(lambda: anna.shown("choice") and anna.js("return document.getElementById('draw').disabled"))
    anna.js("window.scrollTo(0, 0)")
    take = anna.js("return document.querySelector(\"#choice [data-action='take']\").getBoundingClientRect().bottom")
    decline = anna.js("return document.querySelector(\"#choice [data-action='decline']\").getBoundingClientRect()"
                      ".bottom")
    text_top = anna.js(RECT, "drawn-text")[0]
    bar_top = anna.js("return document.querySelector('#bar nav').getBoundingClientRect().top")
    assert take <= text_top and decline <= text_top and decline <= bar_top, (take, decline, text_top, bar_top)
    anna.press("decline")
    anna.until(lambda: not anna.shown("drawn") and not anna.js("return document.getElementById('draw').disabled"))


# the elements (of those a selector finds) narrower than the longest word of their text: a word broken inside
BROKEN_WORDS = """
const pen = document.createElement('canvas').getContext('2d');
return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent !== null).filter(e => {
  pen.font = getComputedStyle(e).font;
  const longest = Math.max(...e.textContent.split(/\\s+/).map(w => pen.measureText(w).width));
  return e.getBoundingClientRect().width + 1 < longest;
}).map(e => e.textContent);
"""
LONG_PLAYER = "Александра Константинопольская"


def lines(page: Page, element_id: str) -> float:
    """How many lines of text a button takes."""
    return float(page.js("const b = document.getElementById(arguments[0]), s = getComputedStyle(b); return (b.clientHeight"
                         " - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)) / parseFloat(s.lineHeight)",
                         element_id))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_long_card_name_and_a_long_player_name_stay_within_their_boxes_on_the_phone_and_the_board(browsers, table,
                                                                                                     lang):
    """A card name of one long word (a deck's own card, typed by a player) wraps in the sideboard, the log and the
    In play list; no text runs out of its box, on the phone or the board, nor makes the page scroll sideways. A
    long player name wraps between its words, never inside one, in the phone's life list and as the title of
    their Counters… dialog; the bar's first action (the opening hand, long in Russian) takes two lines at most."""
    long_name = "Asmoranomardicadaistinaculdacar" * 2
    assert table.call("/api/host/add-player", {"player": LONG_PLAYER, "colors": "G"}, host=True)[0] == 200
    table.as_("Cleo", "/api/own-card", {"name": long_name})
    table.as_("Ben", "/api/opening-hand")
    table.as_("Ben", "/api/play", {"position": table.player("Ben")["cards"][0]["position"]})
    anna = phone(browsers, 0, table, "Anna", lang=lang)
    laptop = board(browsers, 1, table, lang=lang)
    for page in (anna, laptop):
        page.until(lambda p=page: any(long_name in t for t in p.log()) and p.texts("#played li"))
        assert page.js(OVERFLOWING, ".box") == []
        assert page.js("return document.documentElement.scrollWidth") <= page.js("return window.innerWidth")
        assert page.js(BROKEN_WORDS, "#lives .life-name b, #players b") == []
    assert anna.bar_action() == "opening-hand" and lines(anna, "draw") <= 2
    anna.js("[...document.querySelectorAll('#lives button.counter')].find(b => b.textContent.includes(arguments[0]))"
            ".click()", LONG_PLAYER)
    anna.until(lambda: anna.js("return document.getElementById('counters').open"))
    assert anna.js(OVERFLOWING, "#counters") == [] and anna.js(BROKEN_WORDS, "#counters-title") == []


def test_every_button_and_link_on_a_phone_is_a_thumbs_size(browsers, table):
    """Every control a player taps on the phone, from the header's language links to a card's Play it, is at
    least 44 px high (WCAG 2.5.5's target size)."""
    table.as_("Ben", "/api/opening-hand")
    table.as_("Ben", "/api/play", {"position": table.player("Ben")["cards"][0]["position"]})
    anna = phone(browsers, 0, table, "Anna")
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2 and anna.texts("#played li"))
    anna.click("#keep")
    anna.until(lambda: not anna.shown("opening"))
    small = anna.js("return [...document.querySelectorAll('button, a')].filter(e => e.offsetParent !== null && "
                    "!e.closest('dialog') && e.getBoundingClientRect().height < 44).map(e => e.id || e.textContent)")
    assert small == []


def test_the_hosts_seat_dialog_releases_a_seat_and_the_phone_picks_its_name_again(browsers, table):
    """The board's Seat… dialog says what a release does; the released phone shows the seats, scrolled into
    sight, with a line saying why, and its player picks their name again."""
    ben = phone(browsers, 0, table, "Ben")
    laptop = board(browsers, 1, table)
    laptop.until(lambda: len(laptop.texts("#players li > button")) == 1)
    laptop.click("#players li > button")
    laptop.until(lambda: laptop.js("return document.getElementById('seat-menu').open"))
    assert "Ben" in laptop.text("seat-menu-title") and "pick their name again" in laptop.text("seat-free-said")
    ben.js("window.scrollTo(0, document.body.scrollHeight)")  # Ben reads the log, far from the seats
    laptop.click("#seat-free")
    ben.until(lambda: ben.shown("seat") and not ben.shown("me"))
    ben.until(lambda: ben.js(RECT, "seat")[0] >= 0 and ben.js(RECT, "seat")[0] < ben.js("return window.innerHeight"))
    assert "pick your name again" in ben.text("error")  # and is told why the seats are back
    laptop.until(lambda: not laptop.texts("#players li > button"))
    ben.seat("Ben")


def test_a_held_cards_full_text_shows_with_its_picture_when_it_opens(browsers, table):
    """A tap on a card in hand opens it full screen with its picture, and its text beneath it starts on the
    phone's first screen with room to read: the lower third of the screen is text, not more picture."""
    anna = phone(browsers, 0, table, "Anna")
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    anna.click("#keep")
    anna.until(lambda: not anna.shown("opening"))
    anna.click("#mine .tile")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open")
               and anna.js("const i = document.getElementById('dlg-img'); return i.complete && i.naturalWidth > 100"))
    height = anna.js("return window.innerHeight")
    image_bottom = anna.js(RECT, "dlg-img")[1]
    text_top = anna.js(RECT, "dlg-text")[0]
    assert image_bottom <= text_top <= 0.65 * height, (image_bottom, text_top, height)


# --- the join address: one rule, the server's -------------------------------------------------------------


def decoded_qr(page: Page, element_id: str) -> list[str]:
    """What a phone's camera reads from the QR code as the board shows it (its pixels on screen, decoded by
    ZXing, the reader most phone scanners are built on)."""
    import io

    import zxingcpp
    from PIL import Image

    page.until(lambda: page.js(f"const i = document.getElementById('{element_id}'); "
                               "return i.complete && i.naturalWidth > 0"))
    shot = Image.open(io.BytesIO(page.browser.find_element("id", element_id).screenshot_as_png)).convert("L")
    return [found.text for found in zxingcpp.read_barcodes(shot)]


@pytest.mark.parametrize("printed", [[], ["http://192.168.1.20:8040/#code=k3y", "http://10.0.0.7:8040/#code=k3y"]])
def test_the_board_shows_the_address_its_qr_code_encodes(browsers, legacy_cache, library, tmp_path, printed):
    """The address written on the board is the one its QR code scans as: the first address hhd table printed,
    or, with none given (a library caller's table), the address the board itself was opened at."""
    running = Table(tmp_path / "session.sqlite", library, legacy_cache, join_urls=printed)
    try:
        laptop = board(browsers, 0, running)
        laptop.until(lambda: laptop.text("join-url") != "")
        shown = laptop.text("join-url")
        assert shown == (printed[0] if printed else running.url + "/")
        assert decoded_qr(laptop, "join-qr") == [shown]
        assert running.state()["join_url"] == shown
        running.seat("Anna")  # and a re-seat code is the same address with Anna's new seat after it
        laptop.click("#players li > button")
        laptop.click("#seat-new")
        laptop.until(lambda: laptop.js("return document.getElementById('reseat').open") and
                     laptop.text("reseat-url").startswith(shown + ("&seat=" if "#" in shown else "#seat=")))
        assert decoded_qr(laptop, "reseat-qr") == [laptop.text("reseat-url")]
    finally:
        running.stop()



# --- a whole game, looked at as the players see it ------------------------------------------------------------


def speaking(browser, lang: str):
    """The browser asks in `lang` (its Accept-Language), as a phone set to that language does, with no language
    chosen on an earlier page: cookies are not kept per port, so another test's ?lang= would be remembered."""
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    agent = browser.execute_script("return navigator.userAgent")
    browser.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": lang})
    return browser


LOADED = "return [...document.images].filter(i => i.src && !i.closest('[hidden]')).every(i => i.complete)"


# what a player would frown at, on what is on screen now: a control under a thumb's 44 px (a phone), text smaller
# than 15 px (the board, read from the players' seats), text running out of its box, controls overlapping, a
# placeholder cut off
FROWNS = """
const board = document.body.classList.contains('board'), found = [];
const seen = e => e.offsetParent !== null || (e.closest('dialog') && e.closest('dialog').open && e.getClientRects().length > 0);
const named = e => e.id || e.className || e.tagName;
if (!board) for (const e of document.querySelectorAll('button, a, input')) {
  if (seen(e) && e.getBoundingClientRect().height < 44) found.push('small control: ' + named(e));
}
if (board) for (const e of document.querySelectorAll('main *')) {
  const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (own && seen(e) && parseFloat(getComputedStyle(e).fontSize) < 15) found.push('small text: ' + named(e) + ' ' + getComputedStyle(e).fontSize);
}
for (const e of document.querySelectorAll('.box *, dialog[open] *')) {
  if (seen(e) && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible') found.push('overflow: ' + named(e));
}
// controls on top of each other (the sticky bar aside: the page scrolls beneath it, and ends above it)
const controls = [...document.querySelectorAll('button, a, input')].filter(e => seen(e) && !e.closest('.bar') && e.getClientRects().length);
const modal = document.querySelector('dialog[open]');
for (const [i, e] of controls.entries()) for (const f of controls.slice(i + 1)) {
  if (modal && (!!e.closest('dialog[open]') !== !!f.closest('dialog[open]')) || e.contains(f) || f.contains(e)) continue;  // the page under a dialog
  const a = e.getBoundingClientRect(), b = f.getBoundingClientRect();
  if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push('overlap: ' + named(e) + ' / ' + named(f));
}
const pen = document.createElement('canvas').getContext('2d');
for (const e of document.querySelectorAll('input[placeholder]')) {
  const style = getComputedStyle(e); pen.font = style.font;
  const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  if (seen(e) && pen.measureText(e.placeholder).width > room + 1) found.push('placeholder cut: ' + named(e));
}
return found;
"""


# the Latin words a page shows (its text, and what it says to a screen reader), outside card data (rules text, type
# lines) and addresses: on a Russian page, none should be English but names
LATIN = """
const found = [], data = '.cardtext, .oneline, .rulings, .ms, a.lang, #join-url, #reseat-url, script, style';
const shown = e => e && !e.closest('[hidden]') && !e.closest(data) && (!e.closest('dialog') || e.closest('dialog').open)
  && getComputedStyle(e).display !== 'none';
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) if (shown(walker.currentNode.parentElement)) found.push(walker.currentNode.textContent);
for (const e of document.querySelectorAll('[placeholder], [aria-label], [alt]'))
  if (shown(e)) found.push(...['placeholder', 'aria-label', 'alt'].map(a => e.getAttribute(a) || ''));
return found.flatMap(text => text.match(/[A-Za-z]+(?:['’-][A-Za-z]+)*/g) || []);
"""


def names_of(table: Table) -> set[str]:
    """The words a Russian page may show in Latin letters, with color letters (W U B R G P): players', cards' and
    their tokens' names (printed as they are, like the cards'), and QR (Russian says «QR-код»)."""
    names = [*PLAYERS, *(card.name for card in table.session.cards.values()),
             *(token.name for token in table.session.views.tokens().values())]
    return {word for name in names for word in re.findall(r"[A-Za-z]+(?:['’-][A-Za-z]+)*", name)} | {"QR"}


def snap(page: Page, folder: Path, name: str, names: set[str] | None = None) -> None:
    """A screenshot once the pictures shown have come, nothing focused (as a player's finger leaves it); what a
    player would frown at on it fails the test, and so does an English word other than `names` when given."""
    page.until(lambda: page.js(LOADED))
    page.js("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    page.browser.save_screenshot(str(folder / f"{name}.png"))
    assert page.js(FROWNS) == [], name
    if names is not None:
        english = {word for word in page.js(LATIN) if word not in names and not re.fullmatch("[WUBRGP]+", word)}
        assert sorted(english) == [], name


def choice_in_view(phone: Page) -> None:
    """A phone with a choice card waiting, at 390×844: Draw from Hell (greyed), the card with Take and Decline in
    view with nothing scrolled, and still wherever the page is scrolled (a sheet at the screen's foot, above the
    bar); the first Hell card of the hand in view above it, and every held card's name and cost at 16 px or more."""
    phone.js("window.scrollTo(0, 0)")
    assert phone.js("const bar = document.getElementById('bar'); return getComputedStyle(bar).position === 'fixed' "
                    "&& bar.contains(document.getElementById('drawn'))")
    answer = "#draw, #drawn-name, #choice button"
    assert all(seen for seen, _size in in_view(phone, answer))
    assert in_view(phone, "#mine .tile")[0][0]  # under the header and the counts, above the card
    sizes = [size for _seen, size in in_view(phone, "#mine .name, #mine .cost")]
    assert sizes and min(sizes) >= 16
    phone.js("window.scrollTo(0, document.body.scrollHeight)")
    assert all(seen for seen, _size in in_view(phone, answer))
    phone.js("window.scrollTo(0, 0)")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_whole_game_as_the_players_see_it(browsers, table, tmp_path, lang):
    """Join, opening hand, mulligan, a draw, a held card full screen, an undo refused, the end of the game: on a
    phone and the board, in the browser's language alone (no ?lang=) with hhd table itself in that language.
    HHD_WALK_SHOTS=DIR keeps the screenshots there to look at."""
    from hhdcli.i18n import current_language, set_language

    shots = Path(os.environ.get("HHD_WALK_SHOTS") or tmp_path) / lang
    shots.mkdir(parents=True, exist_ok=True)
    before = current_language()
    set_language(lang, "HHD_LANG")
    made = [speaking(browsers.get(0, BOARD), lang), speaking(browsers.get(1, PHONE), lang)]
    names = names_of(table) if lang == "ru" else None
    try:
        laptop = Page(made[0], f"{table.url}/#host={table.host}")
        laptop.until(lambda: "board" in laptop.js("return document.body.className"))
        anna = Page(made[1], table.url + "/")
        assert {laptop.js("return document.documentElement.lang"), anna.js("return document.documentElement.lang")} == {lang}
        snap(laptop, shots, "01-board-join", names)
        snap(anna, shots, "01-phone-join", names)
        anna.seat("Anna")
        table.as_("Ben", "/api/opening-hand")
        anna.press("opening-hand")
        anna.until(lambda: len(anna.hand()) == 2)
        snap(anna, shots, "02-phone-opening-hand", names)
        first = anna.hand()
        anna.press("mulligan")
        anna.until(lambda: len(anna.hand()) == 2 and anna.hand() != first)
        anna.click("#mine .tile")
        anna.until(lambda: "1" in anna.texts("#mine .tile .order"))
        assert lines(anna, "keep") <= 2.05  # «Оставить, 1 карту вниз»: two lines of the bar, not three
        snap(anna, shots, "03-phone-mulligan-ticked", names)
        snap(laptop, shots, "03-board-mulligan", names)
        anna.click("#keep")
        anna.until(lambda: not anna.shown("opening"))
        anna.draw_until_choice()  # Take and Decline beside the card
        snap(anna, shots, "04-phone-draw-choice", names)
        choice_in_view(anna)
        anna.press("decline")
        anna.until(lambda: not anna.shown("drawn"))
        laptop.until(lambda: len(laptop.texts("#sideboard .tile")) == 1)
        snap(laptop, shots, "04-board-after-draws", names)
        anna.click("#mine .tile")
        anna.until(lambda: anna.js("return document.getElementById('card-dialog').open")
                   and anna.js("const i = document.getElementById('dlg-img'); return i.complete"))
        snap(anna, shots, "05-phone-card-full-screen", names)
        assert all(seen for seen, _size in in_view(anna, "#dlg-acts button"))  # its actions in its first screen
        anna.click("#dlg-close")
        table.as_("Ben", "/api/play-sideboard")  # Ben plays the card Anna declined: her decline cannot be undone
        anna.until(lambda: anna.texts("#played li"))
        anna.press("undo")
        anna.until(lambda: anna.shown("error"))
        # said once on the screen: at the page's top when it is in view, else in the bar at the screen's foot
        anna.js("window.scrollTo(0, 0)")
        anna.until(lambda: not anna.shown("bar-said"))
        snap(anna, shots, "06-phone-undo-refused", names)
        anna.js("window.scrollTo(0, document.body.scrollHeight)")
        anna.until(lambda: anna.shown("bar-said") and anna.text("bar-said") == anna.text("error"))
        anna.js("window.scrollTo(0, document.body.scrollHeight)")
        anna.click("#end")
        anna.until(lambda: anna.shown("end-confirm"))
        snap(anna, shots, "07-phone-end-confirm", names)
        laptop.click("#end")
        laptop.until(lambda: laptop.shown("end-confirm"))
        snap(laptop, shots, "07-board-end-confirm", names)
        laptop.click("#end-yes")
        anna.until(lambda: anna.text("game") == "2")
        anna.until(lambda: not anna.shown("end-confirm"))  # the board ended it: no Yes left to end game 2
        laptop.until(lambda: laptop.text("game") == "2")
        snap(anna, shots, "08-phone-game-2", names)
        snap(laptop, shots, "08-board-game-2", names)
    finally:
        set_language(before, "HHD_LANG")
        for browser in made:
            speaking(browser, "en-US")


def test_an_address_without_the_join_code_explains_itself_in_the_phones_language(browsers, legacy_cache, library,
                                                                                   tmp_path):
    """A phone that opens the table without its code (typed by hand, or an old one) is told how to join, in the
    language it asks in, with language links a thumb can tap; with the code after # (the printed address), the
    page trades it for the table's cookie and opens the table, the code gone from the address bar."""
    running = Table(tmp_path / "session.sqlite", library, legacy_cache, code="s3cret")
    browser = speaking(browsers.get(0, PHONE), "ru")
    try:
        browser.get(running.url + "/")  # a page without the code: whole once loaded
        assert browser.execute_script("return document.documentElement.lang") == "ru"
        assert "#code=" in browser.find_element("css selector", ".box").text
        assert browser.execute_script(FROWNS) == []
        browser.get(running.url + "/#code=wrong")  # an old code: the same page
        assert "#code=" in browser.find_element("css selector", ".box").text
        page = Page(browser, running.url + "/#code=s3cret")
        assert page.js("return location.href") == running.url + "/"
        # named with the table's port: another hhd table of this laptop (another port, also at /) keeps its own
        kept = browser.get_cookie(f"hhd_code_{running.port}")
        assert kept["value"] == "s3cret" and kept["httpOnly"] and kept["sameSite"] == "Strict"
        page.seat("Anna")
        assert browser.get_cookie(f"hhd_player_{running.port}")["httpOnly"]

        # a second hhd table of the same laptop (another port, also at /), joined in the same browser as Ben: the
        # first keeps its code and Anna's seat
        other = Table(tmp_path / "other.sqlite", library, legacy_cache, code="0th3r")
        try:
            ben = Page(browser, other.url + "/#code=0th3r")
            ben.seat("Ben")
            again = Page(browser, running.url + "/")  # no join page: its code is kept (Page waits for the table)
            again.until(lambda: again.shown("me") and "Anna" in again.text("me"))  # and Anna's seat
        finally:
            other.stop()
    finally:
        speaking(browser, "en-US")
        running.stop()


def test_a_phone_names_its_player_and_draws_the_colors_their_lands_make_as_symbols(browsers, table):
    """"You are Ben; your deck's lands make {W}{U}{B}": each color drawn as the mana symbol the cards' text uses,
    and read aloud as that symbol."""
    ben = phone(browsers, 0, table, "Ben")
    symbols = ben.js("return [...document.querySelectorAll('#me .ms')].map(s => s.getAttribute('aria-label'))")
    assert symbols == ["{W}", "{U}", "{B}"]
    assert ben.text("me").startswith("You are Ben; your deck's lands make")


def console(*pages: Page) -> list[str]:
    """What the pages' consoles logged as errors since last asked (a CSP violation is one)."""
    return [f"{e['source']}: {e['message']}" for page in pages for e in page.browser.get_log("browser")
            if e["level"] == "SEVERE" or "Content Security Policy" in e["message"]]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_page_runs_under_its_content_security_policy_without_a_violation(browsers, table, lang):
    """The page is its own static files and a JSON data island: no inline script or style, no eval. Its strict
    policy comes with every page, and a game's moves (dialogs, the drawn card, the re-seat QR code) break none
    of it; a style="" attribute put in by hand is refused, so a violation is seen when there is one."""
    import urllib.request

    with urllib.request.urlopen(f"{table.url}/?lang={lang}", timeout=10) as answer:
        policy, html = answer.headers["Content-Security-Policy"], answer.read().decode()
    assert "script-src 'self';" in policy and "style-src 'self';" in policy and "unsafe" not in policy
    assert "frame-ancestors 'none'" in policy and "base-uri 'none'" in policy
    assert "<style" not in html and " style=" not in html
    assert re.findall(r"<script[^>]*>", html) == ['<script type="application/json" id="bootstrap">',
                                                 '<script type="module" src="/static/main.js">']
    laptop = board(browsers, 0, table, lang=lang)
    anna = phone(browsers, 1, table, "Anna", lang=lang)
    console(laptop, anna)  # what earlier tests left in these browsers' consoles
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    anna.draw_until_choice()
    anna.press("decline")
    laptop.until(lambda: len(laptop.texts("#sideboard .tile")) == 1 and "Anna" in " ".join(laptop.log()))
    laptop.click("#sideboard .tile")
    laptop.until(lambda: laptop.js("return document.getElementById('card-dialog').open"))
    laptop.click("#dlg-close")
    laptop.click("#players button")
    laptop.click("#seat-new")
    laptop.until(lambda: laptop.js("const i = document.getElementById('reseat-qr'); return i.complete && "
                                   "i.naturalWidth > 0"))
    assert anna.js("return document.querySelectorAll('.ms[role=img]').length") > 0  # symbols styled by CSSOM
    assert console(laptop, anna) == []
    anna.js("document.body.setAttribute('style', 'outline: 1px solid red')")
    anna.until(lambda: anna.js("return getComputedStyle(document.body).outlineStyle") == "none")
    assert any("Content Security Policy" in line for line in console(anna))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pages_plural_rule_is_the_catalogs_read_without_eval(browsers, table, lang):
    """The page reads the catalog's Plural-Forms expression with a parser of its own (its CSP allows no eval):
    for every count to 1000 it picks the form Python's gettext picks from the same expression."""
    import gettext

    from hhdcli.table.web.i18n import plural_rule

    page = phone(browsers, 0, table, lang=lang)
    picked = page.browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/static/i18n.js').then(m => { const rule = m.compilePlural(JSON.parse("
        "document.getElementById('bootstrap').textContent).plural);"
        "done([...Array(1001).keys()].map(n => rule(n))); }, e => done(String(e)));")
    rule = gettext.c2py(plural_rule(lang))
    assert picked == [rule(n) for n in range(1001)]
    assert len(set(picked)) == {"en": 2, "ru": 3}[lang]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_hell_card_through_the_zones_life_turns_and_a_pasted_deck_on_the_phones_and_the_board(browsers, table, lang):
    """Anna plays a Hell card, taps it and exiles it from its dialog; Ben takes 3 life from her; a first player
    is drawn and the turn moves on; Cleo pastes her deck: every page shows it, every control a thumb's size."""
    anna, ben = phone(browsers, 0, table, "Anna", lang), phone(browsers, 1, table, "Ben", lang)
    laptop = board(browsers, 2, table, lang)
    anna.press("opening-hand")
    anna.until(lambda: len(anna.hand()) == 2)
    anna.click("#keep")
    anna.until(lambda: not anna.shown("opening"))
    card = anna.hand()[0]
    anna.click("#mine .tile", card)
    anna.until(lambda: anna.shown("card-dialog") and anna.texts("#dlg-acts button"))
    top, bottom = anna.js(RECT, "dlg-acts")
    assert bottom <= PHONE[1] - 50  # the card's actions within the dialog's first screen
    anna.click("#dlg-acts button", {"en": "Play it", "ru": "Сыграть"}[lang])
    for page in (ben, laptop):
        page.until(lambda page=page: any(card in t for t in page.texts("#played li")))
    ben.click("#played button", card)
    ben.click("#dlg-acts button", {"en": "Tap", "ru": "Повернуть"}[lang])
    tapped = {"en": "tapped", "ru": "повёрнута"}[lang]
    laptop.until(lambda: any(tapped in t for t in laptop.texts("#played li")))
    anna.click("#played button", card)
    anna.click("#dlg-acts button", {"en": "→ exile", "ru": "→ в изгнание"}[lang])
    exile = {"en": "exile", "ru": "изгнание"}[lang]
    laptop.until(lambda: any(exile in t and card in t for t in laptop.texts("#played li")))
    for _ in range(3):
        ben.click("#lives li:first-child button.pm", "−")
    for page in (anna, laptop):
        page.until(lambda page=page: page.texts("#lives li:first-child .life-total") == ["17"])
    laptop.click("#first-player")
    laptop.until(lambda: table.state()["turn"]["player"] is not None)
    first = table.state()["turn"]["player"]
    anna.until(lambda: first in anna.text("turn"))
    anna.click("#next-turn")
    following = list(PLAYERS)[(list(PLAYERS).index(first) + 1) % 3]
    laptop.until(lambda: following in laptop.text("turn"))
    cleo = phone(browsers, 3, table, "Cleo", lang)
    cleo.js("document.getElementById('deck-text').value = arguments[0]",
            "20 Forest\n4 Island\n4 Lightning Bolt\n2 Gloomy, Dank Cave\n")
    cleo.click("#deck-send")
    cleo.until(lambda: "Gloomy, Dank Cave" in " ".join(cleo.texts("#deck-said li")))  # not known: may be a land
    assert "Lightning Bolt" not in " ".join(cleo.texts("#deck-said li"))  # a real spell hhd knows offline
    # the colors drawn as the symbols the header's line shows, each warning a sentence (a capital first)
    assert cleo.js("return document.querySelectorAll('#deck-said li:first-child .ms').length") == 2
    gap = cleo.js("const li = document.querySelector('#deck-said li'), r = document.createRange(); "
                  "r.selectNodeContents(li.firstChild); "
                  "return li.querySelector('.ms').getBoundingClientRect().left - r.getBoundingClientRect().right")
    assert gap <= 10, gap  # the symbols follow the words, not spread across the line
    assert all(line[0].isupper() for line in cleo.texts("#deck-said li")), cleo.texts("#deck-said li")
    assert next(p for p in table.state()["players"] if p["name"] == "Cleo")["colors"] == "UG"
    laptop.until(lambda: any("Cleo" in line and "{U}" not in line for line in laptop.log()))
    # the log says the deck's colors as the deck's own line does: their symbols, never their letters in braces
    assert laptop.js("return [...document.querySelectorAll('#log li > span:first-child .ms')]"
                     ".map(s => s.getAttribute('aria-label'))")[:2] == ["{U}", "{G}"]
    for page in (anna, ben, cleo):
        assert page.js(FROWNS) == []


def test_a_drawn_card_that_makes_tokens_shows_them_and_its_tokens_in_play_are_counted_on_the_board(browsers, table):
    """Under a drawn card's rulings, a button per token it makes ("Makes a token: Food"); a tap shows the token's
    face beneath it (drawn by the laptop), a second tap hides it; the card full screen lists them too. Played, its
    dialog counts one of its tokens into play in one tap, and the board shows the count under the card, at a size
    read across a table, and the log says it."""
    anna = phone(browsers, 0, table, "Anna")
    anna.opening_kept()
    for _ in range(95):
        anna.press("draw")
        anna.until(lambda: anna.shown("drawn") and anna.text("drawn-name"))
        if anna.js("return document.querySelectorAll('#drawn-tokens button').length"):
            break
        if anna.shown("choice"):
            anna.press("decline")
        else:
            anna.click("#dismiss")
        anna.until(lambda: not anna.shown("drawn"))
    button = "#drawn-tokens li:first-child button"
    assert anna.js(f"return document.querySelector('{button}').textContent").startswith("Makes a token: ")
    anna.click(button)
    anna.until(lambda: anna.js("const i = document.querySelector('#drawn-tokens img'); "
                               "return !!i && i.complete && i.naturalWidth > 100"))
    assert anna.js(f"return document.querySelector('{button}').getAttribute('aria-expanded')") == "true"
    anna.click(button)
    anna.until(lambda: not anna.js("return document.querySelector('#drawn-tokens img')"))
    anna.click("#drawn-open")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open"))
    assert anna.js("return document.querySelectorAll('#dlg-tokens button').length") >= 1
    token = anna.js("return document.querySelector('#dlg-tokens button').textContent").removeprefix("Makes a token: ")
    anna.click("#dlg-close")
    name = anna.text("drawn-name")
    if anna.shown("choice"):
        anna.press("take")
    anna.click("#mine button.play", name)
    laptop = board(browsers, 1, table)
    laptop.until(lambda: any(name in t for t in laptop.texts("#played li")))
    anna.click("#played button", name)
    anna.click("#dlg-acts button", f"+1 token: {token}")
    laptop.until(lambda: laptop.texts("#played .in-play") == [f"{token} tokens: 1"])
    assert laptop.js("return parseFloat(getComputedStyle(document.querySelector('#played .in-play')).fontSize)") >= 20
    assert laptop.js("return document.querySelector('#played .made').textContent").startswith(name)  # under it
    laptop.until(lambda: laptop.log()[0] == f"Anna: 1 {token} token of {name} came into play (now 1)")
    anna.click("#played button", name)  # and one gone again, from the same dialog
    anna.click("#dlg-acts button", f"−1 token: {token}")
    laptop.until(lambda: laptop.texts("#played .in-play") == [])


SIX = ("Dana", "Emil", "Fyodor Mikhailovich")
SMALL_CONTROLS = ("return [...document.querySelectorAll('button, a, input')].filter(e => e.offsetParent !== null && "
                  "!e.closest('dialog') && e.getBoundingClientRect().height < 44).map(e => e.id || e.textContent)")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_board_is_read_across_a_room_with_six_players(browsers, table, lang):
    """Issue 50: the host's board at 1280×800 with six players, a card in play with counters, a sideboard: every
    player's name, Hell card count and life in the first screen at 24 px or more, the library's and sideboard's
    counts too, the turn at 24 px; every control at least 44 px tall; no form on the board itself (the starting
    life and a late player each open a dialog), so setting the starting life leaves the counts where they were."""
    for name in SIX:
        assert table.call("/api/host/add-player", {"player": name, "colors": "G"}, host=True)[0] == 200
    held = kept(table, "Anna", "Ben")
    table.as_("Anna", "/api/play", {"position": held[0]})
    table.as_("Anna", "/api/card-counter", {"position": held[0], "kind": "loyalty", "delta": 3})
    table.as_("Ben", "/api/to-sideboard", {"position": held[2]})
    table.as_("Ben", "/api/player-counter", {"whose": "Anna", "kind": "commander", "from": "Ben", "delta": 7})
    table.as_("Cleo", "/api/first-player")
    laptop = board(browsers, 0, table, lang=lang)
    laptop.until(lambda: len(laptop.texts("#players li")) == 6 and laptop.texts("#played .card-ref")
                 and laptop.texts("#sideboard .tile"))
    first_screen = "#players b, #players .life-said, #library, #sbcount"
    assert all(seen and size >= 24 for seen, size in in_view(laptop, first_screen)), in_view(laptop, first_screen)
    counts = laptop.js("return [...document.querySelectorAll('#players li > span:first-child')].map(e => "
                       "parseFloat(getComputedStyle(e).fontSize))")
    assert len(counts) == 6 and min(counts) >= 24  # "· 2 Hell cards" beside the name, as large
    sizes = laptop.js("return [...document.querySelectorAll('#turn, #lives b, #lives .life-total, #played .card-ref, "
                      "#sideboard .name')].map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 24, sizes
    assert laptop.js(SMALL_CONTROLS) == []
    assert laptop.js("return [...document.querySelectorAll('main form')].filter(e => e.offsetParent !== null)"
                     ".length") == 0
    # Starting life… sits at the first column's foot, scrolled to as the host would (six players' lives above it);
    # answered or cancelled, the column is back at its top, at the library's and the sideboard's counts
    pool_counts = "#library, #sbcount"
    for answer in ("#life-start-cancel", "#life-start-form button[type=submit]"):
        laptop.js("const c = document.getElementById('col-play'); c.scrollTop = c.scrollHeight")
        assert in_view(laptop, "#life-start-open")[0][0] and not any(seen for seen, _s in in_view(laptop, pool_counts))
        laptop.click("#life-start-open")
        laptop.until(lambda: laptop.js("return document.getElementById('life-start-dialog').open"))
        laptop.js("document.getElementById('life-start').value = '25'")
        laptop.click(answer)
        laptop.until(lambda: not laptop.js("return document.getElementById('life-start-dialog').open"))
        # (the dialog's close event comes as a task of its own, just after it closed)
        laptop.until(lambda: laptop.js("return document.getElementById('col-play').scrollTop") == 0, answer)
        counted = in_view(laptop, pool_counts)  # the library's and the sideboard's counts
        assert len(counted) == 2 and all(seen and size >= 24 for seen, size in counted), (answer, counted)
    laptop.until(lambda: "25" in laptop.text("life-start-open"))
    # set mid-game: from the next game; every life stays as it was
    assert all(p["life"] == 20 for p in table.state()["players"]) and table.state()["life_start"] == 25
    assert table.state()["log"][0]["detail"] == {"count": 25, "next": True}
    # Undo… and End the game… at the seats column's foot, scrolled to as the host would: once answered, every
    # player's name and life is back in view, the column not left scrolled away from them
    def scrolled_to(button: str) -> None:
        laptop.js("const c = document.getElementById('col-seats'); c.scrollTop = c.scrollHeight")
        assert in_view(laptop, button)[0][0] and not all(seen for seen, _s in in_view(laptop, "#players b"))
        laptop.click(button)
    logged = len(laptop.log())
    scrolled_to("#board-undo")
    laptop.until(lambda: laptop.js("return document.getElementById('ask').open") or len(laptop.log()) > logged)
    if laptop.js("return document.getElementById('ask').open"):
        laptop.click("#ask-yes")
    laptop.until(lambda: len(laptop.log()) > logged and all(seen for seen, _s in in_view(laptop, first_screen)))
    scrolled_to("#end")
    laptop.click("#end-yes")
    laptop.until(lambda: laptop.text("game") == "2")
    assert all(seen for seen, _s in in_view(laptop, first_screen)), in_view(laptop, first_screen)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_what_a_phone_must_act_on_is_in_view_without_a_scroll(browsers, table, lang):
    """Issue 50, at 390×844 wherever the page is scrolled: Keep while the opening hand is dealt (the bar's one
    action, no Draw), the die, the coin and the first player (the bar's Table… dialog, which says what fell), the
    End of game's confirmation, a played card opened (its actions, its counters up and down)."""
    held = kept(table, "Ben")
    table.as_("Ben", "/api/play", {"position": held[0]})
    anna = phone(browsers, 0, table, "Anna", lang=lang)
    anna.press("opening-hand")
    anna.until(lambda: anna.shown("keep"))
    for scrolled in (0, 5000):
        anna.js(f"window.scrollTo(0, {scrolled})")
        assert in_view(anna, "#keep")[0][0] and not anna.shown("draw")
    table.as_("Cleo", "/api/opening-hand")
    refused = table.as_("Cleo", "/api/draw")
    assert refused[0] == 409 and "keep" in refused[1]["error"]  # the server refuses a draw before Keep, too
    russian = table.call("/api/draw", {}, {"Accept-Language": "ru"}, token=table.seat("Cleo"))[1]["error"]
    assert "оставьте" in russian
    anna.click("#keep")
    anna.until(lambda: anna.shown("draw") and not anna.shown("keep"))
    for tool, kind in (("#tools-roll-6", "die"), ("#tools-flip", "coin"), ("#tools-first-player", "first player")):
        anna.js("window.scrollTo(0, 5000)")
        anna.click("#tools-open")
        anna.until(lambda: anna.js("return document.getElementById('tools').open"))
        assert in_view(anna, tool)[0][0]
        anna.click(tool)
        anna.until(lambda k=kind: table.state()["log"][0]["action"] == k and anna.text("tools-said"))
        assert in_view(anna, "#tools-said")[0][0] and anna.text("tools-said").startswith("Anna")
        anna.click("#tools-close")
    anna.click("#tools-open")  # the turn's steps in their order: untap, upkeep, draw
    for step in ("upkeep", "draw"):
        said = anna.text("tools-turn")
        anna.click("#tools-next-step")
        anna.until(lambda s=step, t=said: table.state()["turn"]["step"] == s and anna.text("tools-turn") != t)
    anna.click("#tools-close")
    anna.js("window.scrollTo(0, 0)")
    anna.click("#tools-open")
    anna.click("#tools-end")
    anna.until(lambda: anna.shown("end-confirm"))
    anna.until(lambda: in_view(anna, "#end-yes")[0][0])
    anna.click("#end-no")
    anna.js("window.scrollTo(0, 0)")
    anna.click("#played .card-ref")
    anna.until(lambda: anna.js("return document.getElementById('card-dialog').open"))
    acts = in_view(anna, "#dlg-acts button")
    assert len(acts) >= 10 and all(seen for seen, _size in acts[:5])  # Tap and the counters' + first
    anna.click("#dlg-acts button", "+ " + ("charge" if lang == "en" else "заряд"))
    anna.until(lambda: table.player("Ben")["zones"]["battlefield"][0]["counters"] == {"charge": 1})


def test_every_action_and_its_undo_reads_as_a_sentence_on_the_others_pages_naming_no_hidden_card(browsers, hell_table):
    table = hell_table
    """Issue 50: every action kind (tablekit.EVERY_ACTION walks the Action enum) and its undo, read on Ben's phone
    and a spectator's board, in English and Russian: each line a sentence (no "×0", no empty «», no "(−0)", no
    field left unfilled), and no card Anna drew, was dealt or moved between her hand and her library named."""
    secret: set[str] = set()
    for kind, setup, path, body in EVERY_ACTION:
        if setup is not None:
            setup(table)
        sent = body(table) if callable(body) else body
        before = set(anna_holds(table) + [c["position"] for c in table.player("Anna")["deck"]])
        act(table, path, sent)
        line = table.state("Anna")["log"][0]["detail"]
        if kind in (Action.DRAW, Action.TAKE, Action.OPENING_HAND, Action.MULLIGAN) or line.get("from") in (
                "hand", "deck") and kind in (Action.TO_HAND, Action.TO_LIBRARY):
            after = set(anna_holds(table) + [c["position"] for c in table.player("Anna")["deck"]])
            secret |= {table.session.cards[p].name for p in (before ^ after) | before & after}
        table.call("/api/undo", {"anyone": True}, host=True) if path.startswith("/api/host/") else \
            table.as_("Anna", "/api/undo")
        act(table, path, sent)
    # names said openly later: a card played or declined, and cards revealed by name (a whammy deck's Island is
    # not Anna's hidden Hell Island, but a name is all a line says)
    said = {n for e in table.session.log(None, 1000, "Ben")["log"] for n in [e["detail"].get("name"), e["detail"].get("entry", {}).get("name"), *e["detail"].get("names", [])] if n}
    secret -= said  # a card named openly later (played, declined) may be named; the others never were
    assert secret
    entries = len(EVERY_ACTION) * 3
    for lang in ("en", "ru"):
        assert table.call("/api/host/release", {"player": "Ben"}, host=True)[0] == 200  # for his phone to take
        ben = phone(browsers, 0, table, "Ben", lang=lang)
        watcher = board(browsers, 1, table, lang=lang, host=False)
        for page in (ben, watcher):
            while page.shown("older"):
                shown = len(page.log())
                page.click("#older")
                page.until(lambda p=page, n=shown: len(p.log()) > n)
            lines = page.log()
            assert len(lines) >= entries, (lang, len(lines))
            for text in lines:
                assert not re.search(r"×0|«»|\(−0\)|\{\w*\}|undefined|NaN|null|:\s*$", text), (lang, text)
                assert not any(name in text for name in secret), (lang, text)
            undo = [t for t in lines if t.startswith({"en": "Anna took back: ", "ru": "Anna отменяет: "}[lang])]
            assert len(undo) >= len(EVERY_ACTION) - 1


# every request the page made (a resource entry is written when its answer has come): its path, who asked
# (fetch, img…) and the answer's status (a 304 is a read that cost the server no state)
WATCH_REQUESTS = """window.seenRequests = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) { const u = new URL(e.name);
  window.seenRequests.push([u.pathname + u.search, e.initiatorType, e.responseStatus]); } })
  .observe({ type: "resource", buffered: true });"""


def requests_since(page: Page, start: int) -> list[list]:
    return list(page.js("return window.seenRequests.slice(arguments[0])", start))


def test_a_tap_reads_no_state_on_any_phone_and_no_card_is_described_twice(browsers, table):
    """The acting phone takes the table as its action left it from the action's answer, which says the change it
    shows: the push of that change costs it no read; another phone's push carries its new state, so it reads
    nothing either (its page shows the change all the same); a card's description is asked for once per page
    (the drawn card's, never: the draw's answer described it)."""
    anna, ben = phone(browsers, 0, table, "Anna"), phone(browsers, 1, table, "Ben")
    anna.opening_kept()
    for page in (anna, ben):
        page.js(WATCH_REQUESTS)
    taps = 0

    def tapped(act, shown) -> None:
        """One tap on Anna's phone; both pages show it, and neither read the state for it."""
        nonlocal taps
        start = {page: len(requests_since(page, 0)) for page in (anna, ben)}
        act()
        anna.until(shown)
        ben.until(lambda: len(ben.log()) == len(anna.log()), "Ben's phone shows Anna's tap")
        time.sleep(0.5)  # the push reached Anna's phone too
        mine = requests_since(anna, start[anna])
        assert [r[0].split("?")[0] for r in mine if r[1] == "fetch" and r[0].startswith("/api/")] \
            == [f"/api/{action[0]}"], mine
        assert [r for r in requests_since(ben, start[ben]) if r[0].startswith("/api/state")] == []
        taps += 1

    action = [""]
    for _ in range(3):
        action[0] = "draw"
        tapped(lambda: anna.press("draw"), lambda: anna.shown("drawn") and anna.text("drawn-name"))
        if anna.shown("choice"):
            action[0] = "take"
            held = len(anna.hand())
            tapped(lambda: anna.press("take"), lambda h=held: not anna.shown("drawn") and len(anna.hand()) == h + 1)
        else:
            anna.click("#dismiss")
            anna.until(lambda: not anna.shown("drawn"))
    action[0] = "play"
    tapped(lambda: anna.click("#mine .play"), lambda: len(anna.texts("#played li")) == 1)
    ben.until(lambda: len(ben.texts("#played li")) == 1)
    action[0] = "draw"
    tapped(lambda: anna.press("draw"), lambda: anna.shown("drawn"))
    assert taps >= 5
    for page in (anna, ben):  # each card described once per page at most
        asked = [i for r in requests_since(page, 0) if r[0].startswith("/api/cards")
                 for i in r[0].split("ids=")[1].split("&")[0].split(",")]
        assert len(asked) == len(set(asked)), asked
    assert [r for r in requests_since(anna, 0) if r[0].startswith("/api/cards")] == []
    assert len([r for r in requests_since(ben, 0) if r[0].startswith("/api/cards")]) == 1  # the played card
