"""The Hell table in WebKit, the engine of every browser on an iPhone (docs/table.md's browsers): Debian's WebKitGTK
MiniBrowser driven through WebKitWebDriver on a virtual screen (Xvfb: MiniBrowser has no headless mode). A phone in
WebKit joins, keeps its opening hand, draws and plays a card with real taps; the board in Chromium is pushed each
line of it, and WebKit then shows the board as a laptop's Safari would: the same log, the join address broken where
render.js breaks it. What the modules may use at all is eslint.config.mjs's to check (Safari 15.4 and up): this
WebKit is a recent one."""

from __future__ import annotations

import glob
import os
import re
import select
import shutil
import subprocess
import threading
from collections.abc import Iterator

import pytest
from tablekit import CHROMEDRIVER, Table
from test_table_page import BOARD, PHONE, Page

from support import chromium

WEBKIT_DRIVER = shutil.which("WebKitWebDriver")
XVFB = shutil.which("Xvfb")
# MiniBrowser is no command: WebKitGTK's library ships it in its own folder (Debian's libwebkit2gtk-4.1-0)
MINIBROWSER = next(iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser")
                               + glob.glob("/usr/libexec/webkit2gtk-4.*/MiniBrowser"), reverse=True)), None)
pytestmark = [
    pytest.mark.skipif(WEBKIT_DRIVER is None or MINIBROWSER is None or XVFB is None or CHROMEDRIVER is None,
                       reason="needs WebKitGTK's WebKitWebDriver and MiniBrowser (Debian's webkit2gtk-driver), Xvfb "
                              "(xvfb) and Chromium's chromedriver: .ci/test installs them"),
    # selenium's own WebKitGTK class still hands its driver's address to RemoteConnection the old way
    pytest.mark.filterwarnings("ignore:setting remote_server_addr in RemoteConnection:DeprecationWarning"),
]

# WebKitWebDriver keeps no console for a test to read (Chromium's goog:loggingPrefs), and MiniBrowser writes none
# of it under automation: the page records its own errors from here on, each uncaught exception, refused promise,
# resource that failed to load, Content-Security-Policy violation and console.error. What goes wrong while the
# modules load (one WebKit cannot parse) is seen instead as a page that never gets past "connecting…".
ERRORS_RECORDED = """
if (!window.seenErrors) {
  window.seenErrors = [];
  const seen = (what) => window.seenErrors.push(String(what));
  addEventListener("error", (e) => seen(e.message || "failed to load: " + (e.target.src || e.target.href)), true);
  addEventListener("unhandledrejection", (e) => seen("unhandled: " + e.reason));
  addEventListener("securitypolicyviolation", (e) => seen("CSP: " + e.violatedDirective + " " + e.blockedURI));
  const error = console.error.bind(console);
  console.error = (...said) => { seen(said.join(" ")); error(...said); };
}
"""


class Screen:
    """A virtual X screen of its own: Xvfb picks a free display and says which (parallel workers each have one)."""

    def __init__(self) -> None:
        # Xvfb resets whenever its last client leaves (any process that opened the display and closed it: :0, the
        # display it picks first, is the one other programs try) and then says its display once more; with the pipe
        # read and closed it could not, and died before MiniBrowser came. It never resets (-noreset), and the pipe
        # stays open until it stops
        self.said, told = os.pipe()
        self.process = subprocess.Popen([XVFB, "-displayfd", str(told), "-noreset", "-nolisten", "tcp",
                                         "-screen", "0", "1280x1024x24"], pass_fds=(told,),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(told)
        assert select.select([self.said], [], [], 20)[0], "Xvfb said no display in 20 s"
        self.display = ":" + os.read(self.said, 32).decode().strip()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        os.close(self.said)


def webkit(screen: Screen):
    """MiniBrowser through WebKitWebDriver on the screen, at a phone's size (GTK keeps its window a little wider)."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.service import Service

    options = webdriver.WebKitGTKOptions()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    # WebKit's sandbox of its web processes does not start as root, as CI runs: off for this browser, which opens
    # nothing but the test's own table
    env = {**os.environ, "DISPLAY": screen.display, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1"}
    service = Service(WEBKIT_DRIVER, env=env)
    # WebKitWebDriver waits for ever for a browser that never comes up (MiniBrowser without a display says so and
    # ends): a session not made within a minute ends with the driver, and the test fails instead of hanging
    watchdog = threading.Timer(60, lambda: service.process and service.process.kill())
    watchdog.start()
    try:
        browser = webdriver.WebKitGTK(options=options, service=service)
    finally:
        watchdog.cancel()
    browser.set_window_size(*PHONE)
    return browser


class WebKitPage(Page):
    """A device in WebKit: a tap is WebDriver's click (the browser's own pointer events, not a script's
    element.click()), on the element scrolled to the middle of the screen, clear of the fixed bar at its bottom."""

    def __init__(self, browser, url: str) -> None:
        super().__init__(browser, url)
        self.js(ERRORS_RECORDED)

    def click(self, css: str, text: str | None = None) -> None:
        script = ("const all = [...document.querySelectorAll(arguments[0])].filter(e => !e.disabled && "
                  "!e.closest('[hidden]') && (arguments[1] === null || e.textContent.includes(arguments[1])));"
                  "if (!all.length) return null; all[0].scrollIntoView({ block: 'center' }); return all[0];")
        found: list = []
        self.until(lambda: found.append(self.js(script, css, text)) or found[-1] is not None,
                   f"no {css} {text or ''} to tap")
        found[-1].click()

    def errors(self) -> list[str]:
        return list(self.js("return window.seenErrors"))

    def moment_read(self) -> None:
        """A card whose "when you draft" (its look, its game start) happens now is said in a dialog, over the
        page: read, and tapped away (a real tap cannot reach the page beneath a modal dialog)."""
        if self.js("return document.getElementById('moment').open"):
            self.click("#moment-ok")
            self.until(lambda: not self.js("return document.getElementById('moment').open"))


@pytest.fixture
def devices() -> Iterator[dict]:
    """A WebKit phone on a screen of its own and a Chromium laptop, each quit after the test."""
    screen = Screen()
    made: dict = {}
    try:
        made["webkit"] = webkit(screen)
        made["chromium"] = chromium(BOARD)
        yield made
    finally:
        for browser in made.values():
            browser.quit()
        screen.stop()


def address_pieces(page: Page) -> list[str]:
    """The board's join address as the pieces render.js puts a line break (<wbr>) between."""
    return list(page.js("return [...document.getElementById('join-url').childNodes].filter(n => n.nodeType === 3)"
                        ".map(n => n.textContent)"))


def test_a_phone_in_webkit_keeps_draws_and_plays_and_the_board_in_chromium_sees_it(devices, table: Table):
    laptop = Page(devices["chromium"], f"{table.url}/?lang=en#host={table.host}")
    laptop.until(lambda: "board" in laptop.js("return document.body.className"))
    anna = WebKitPage(devices["webkit"], f"{table.url}/?lang=en")
    assert "AppleWebKit" in anna.js("return navigator.userAgent") and "Chrome" not in anna.js(
        "return navigator.userAgent")

    anna.seat("Anna")
    library = int(anna.text("library"))
    # the opening hand dealt, then kept with nothing to the bottom (the bar's one action while it is dealt)
    anna.press("opening-hand")
    anna.until(lambda: anna.shown("opening") and anna.shown("keep") and len(anna.hand()) == 2)
    anna.moment_read()
    anna.click("#keep")
    anna.until(lambda: not anna.shown("opening") and anna.bar_action() == "draw")
    # a draw from Hell: a card her deck must take is dismissed, a choice taken
    anna.press("draw")
    anna.until(lambda: anna.shown("drawn") and anna.text("drawn-name") != "")
    drawn = anna.text("drawn-name")
    anna.moment_read()
    if anna.shown("choice"):
        anna.press("take")
        anna.until(lambda: not anna.shown("choice"))
        anna.moment_read()
    else:
        anna.click("#dismiss")
    anna.until(lambda: not anna.shown("drawn") and len(anna.hand()) == 3)
    assert drawn in anna.hand() and int(anna.text("library")) == library - 3
    # a card of her hand played: it leaves the hand for In play
    played = anna.hand()[0]
    anna.click("#mine .play")
    anna.until(lambda: len(anna.hand()) == 2 and any(played in line for line in anna.texts("#played li")))

    said = ["Anna drew an opening hand", "Anna kept, 0 Hell cards to the bottom", f"Anna played {played}"]
    laptop.until(lambda: all(line in laptop.log() for line in said), "the board was not pushed Anna's lines")
    assert any(line.startswith("Anna drew ") or line.startswith("Anna took ") for line in laptop.log()[1:-2])
    assert [e["message"] for e in laptop.browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert anna.errors() == []

    # the board in WebKit, as on a laptop's Safari: not Anna's phone (her seat's cookie, which no script reads, and
    # what the page stored are gone), a new page (not a jump in this one: the address differs by its #host= alone)
    anna.browser.delete_all_cookies()
    anna.js("localStorage.clear(); sessionStorage.clear()")
    devices["webkit"].get("about:blank")
    devices["webkit"].set_window_size(*BOARD)  # the board's three columns are a laptop's screen's
    board = WebKitPage(devices["webkit"], f"{table.url}/?lang=en#host={table.host}")
    board.until(lambda: "board" in board.js("return document.body.className") and board.log() == laptop.log(),
                f"WebKit's board is no board or shows another log than Chromium's: {laptop.log()}")
    # the log as Chromium's board shows it; the join address broken after "://", before the port and before "/?",
    # as render.js's lookbehind split did (Python's re has lookbehind)
    board.until(lambda: address_pieces(board) != [])
    shown = "".join(address_pieces(board))
    assert address_pieces(board) == re.split(r"(?<=://)|(?=:\d)|(?=/\?)", shown) and len(address_pieces(board)) >= 3
    assert address_pieces(board) == address_pieces(laptop)
    assert board.errors() == []
