"""`hhd serve` as people's Chromium uses it, over https:// through Caddy (tests/test_table_caddy.py): the front
page's forms open tables (colours, pasted deck lists, an uploaded library file) and a typed code leads to one, in
English and Russian, while a page of another origin is refused; a kept-alive request and a push take
milliseconds, not the ~40 ms of Nagle's algorithm against a delayed ACK; a page reconnects by itself after its
stream ends, and after the server was down behind the proxy (whose 502 is "not answering", not an error)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from tablekit import free_port
from test_table_caddy import CADDY, Caddy, chromium
from test_table_community import Server
from test_table_page import BOARD, PHONE, Page

from support import LoopbackServer, Reply

pytestmark = pytest.mark.skipif(CADDY is None or Page is None, reason="needs Debian's caddy and Chromium")

WORDS = {
    "en": {"opened": "Your table is open", "connected": "connected", "foreign": "Requests from another site are refused.",
           "too large": "The library file is too large", "down": "table not answering"},
    "ru": {"opened": "Ваш стол открыт", "connected": "на связи", "foreign": "Запросы с другого сайта не принимаются.",
           "too large": "Файл библиотеки слишком велик", "down": "стол не отвечает"},
}
DECKS = ("20 Mountain\n18 Forest\n22 Grizzly Bears\n", "24 Island\n16 Plains\n20 Savannah Lions\n")


class Front:
    """A person at the front page: what they type and press, and the page they land on."""

    def __init__(self, browser, url: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.browser, self.url = browser, url
        self.wait = WebDriverWait(browser, 40, poll_frequency=0.1)

    def js(self, script: str, *args):
        return self.browser.execute_script(script, *args)

    def open_front(self, lang: str) -> None:
        """The front page, switched to `lang` by its language link."""
        self.browser.get(self.url + "/")
        self.click(f"a[lang='{lang}']")
        self.wait.until(lambda _b: self.js("return document.documentElement.lang") == lang)

    def element(self, css: str):
        from selenium.webdriver.common.by import By

        return self.browser.find_element(By.CSS_SELECTOR, css)

    def click(self, css: str) -> None:
        self.element(css).click()

    def type(self, css: str, text: str) -> None:
        self.element(css).send_keys(text)

    def heading(self) -> str:
        return str(self.js("const h = document.querySelector('h1'); return h ? h.textContent : ''"))

    def open_table(self, lang: str, fill) -> None:
        """The front page in `lang`, its form filled by `fill`, sent by its button: the "table is open" page."""
        self.open_front(lang)
        fill()
        self.click("form[action='/open'] button[type='submit']")
        self.wait.until(lambda _b: self.heading() == WORDS[lang]["opened"], f"no table opened: {self.heading()}")

    def said(self) -> str:
        return str(self.js("return document.body.innerText"))


def table_page(browser) -> Page:
    """The table's page the browser landed on (a link followed, a code typed), once it has read the table."""
    return Page(browser, browser.current_url)


@pytest.fixture
def online(legacy_cache, tmp_path):
    """`hhd serve --public-url https://localhost:PORT --behind-proxy` behind Caddy; no traceback ever."""
    upstream = free_port()
    caddy = Caddy(tmp_path / "caddy", upstream)
    server = Server(legacy_cache, tmp_path / "tables", "--public-url", caddy.url, "--behind-proxy", port=upstream)
    browser = chromium((390, 844))
    try:
        yield caddy, server, browser
    finally:
        browser.quit()
        if server.process.poll() is None:
            _out, err = server.stop()
            assert "Traceback" not in err, err[-3000:]
        caddy.stop()


def test_a_person_opens_tables_from_the_front_page_and_joins_by_code_in_english_and_russian(online, library):
    caddy, server, browser = online
    front = Front(browser, caddy.url)
    for lang in ("en", "ru"):
        # colours typed for each player: the "table is open" page, and its board link opens the host's board
        front.open_table(lang, lambda: (front.type("input[name='name0']", "Anna"),
                                        front.type("input[name='colors0']", "RG"),
                                        front.type("input[name='name1']", "Ben"),
                                        front.type("input[name='colors1']", "WU")))
        browser.set_window_size(*BOARD)  # the host's laptop
        front.click("#board")
        board = table_page(browser)
        board.until(lambda: "board" in board.js("return document.body.className"))
        board.until(lambda: board.text("conn") == WORDS[lang]["connected"])
        assert all(name in board.text("players") for name in ("Anna", "Ben")) and board.shown("add")
        browser.set_window_size(*PHONE)

        # pasted deck lists (plain lists): each player's colours are their lands'; the join link seats a phone
        def pasted() -> None:
            for n, (name, deck) in enumerate(zip(("Cleo", "Dan"), DECKS)):
                front.type(f"input[name='name{n}']", name)
                front.click(f"fieldset.seat:nth-of-type({n + 1}) summary")
                front.type(f"textarea[name='deck{n}']", deck)

        front.open_table(lang, pasted)
        front.click("#join")
        cleo = table_page(browser)
        cleo.seat("Cleo")
        assert cleo.js("return [...document.querySelectorAll('#me .ms')].map(e => e.getAttribute('aria-label'))") \
            == ["{R}", "{G}"]

        # a library file of hhd generate uploaded; its short code typed on the front page leads to it
        front.open_table(lang, lambda: (front.type("input[name='name0']", "Eve"),
                                        front.type("input[name='colors0']", "B"),
                                        front.type("input[name='library']", str(library))))
        short = str(front.js("return document.getElementById('short').textContent"))
        front.open_front(lang)
        front.type("#short", short.lower())
        front.click("form[action='/join'] button[type='submit']")
        front.wait.until(lambda _b: "ember-tide-42" in browser.title)  # the uploaded library's seed
        eve = table_page(browser)
        eve.seat("Eve")
        library_before = int(eve.text("library"))
        eve.opening_kept()
        eve.press("draw")
        eve.until(lambda: eve.shown("drawn") and int(eve.text("library")) == library_before - 3)
        if lang == "en":  # the table page's language switch: remembered in a cookie no script can read
            eve.click("a.lang[lang='ru']")
            eve.until(lambda: eve.js("return document.documentElement.lang") == "ru")
            cookie = next(c for c in browser.get_cookies() if c["name"] == "hhd_lang")
            assert cookie["value"] == "ru" and cookie["httpOnly"] and cookie["secure"]

    # a 3 MB file is refused in the asker's language, with the form to try again (and no traceback: `online`)
    big = library.parent / "big.json"
    big.write_bytes(b" " * (3 * 1024 * 1024))
    front.open_front("ru")
    front.type("input[name='name0']", "Zoe")
    front.type("input[name='library']", str(big))
    front.click("form[action='/open'] button[type='submit']")
    front.wait.until(lambda _b: WORDS["ru"]["too large"] in front.said(), "no 413 page")
    assert front.js("return document.documentElement.lang") == "ru" and front.element("form[action='/open']")


def test_a_page_of_another_origin_can_neither_open_join_nor_act(online):
    caddy, server, browser = online
    front = Front(browser, caddy.url)
    front.open_table("en", lambda: (front.type("input[name='name0']", "Anna"),
                                    front.type("input[name='colors0']", "RG")))
    short = str(front.js("return document.getElementById('short').textContent"))
    join = str(front.js("return document.getElementById('join').href"))
    api_join = join.replace("/?", "/api/join?")
    direct = f"http://127.0.0.1:{server.port}"
    forms = {  # what a page elsewhere may send a visitor's browser to: forms need no script, nor a preflight
        "join": f'<form method="post" action="{caddy.url}/join"><input name="short" value="{short}"></form>',
        "open": f'<form method="post" action="{caddy.url}/open" enctype="multipart/form-data">'
                '<input name="name0" value="Mallory"><input name="colors0" value="B"></form>',
        "act": f'<form method="post" action="{api_join}" enctype="text/plain"><input name=\'{{"player": "Anna", "x\' '
               'value=\'"}\'></form>',
        "around": f'<form method="post" action="{direct}/join"><input name="short" value="{short}"></form>',
    }
    elsewhere = LoopbackServer()  # another port of this host: same-site to the direct address, cross-site to Caddy
    try:
        for name, form in forms.items():
            elsewhere.routes[f"/{name}"] = Reply(f"<!DOCTYPE html><html><body>{form.replace('</form>', '<button>Go</button></form>')}"
                                                 "</body></html>".encode(), content_type="text/html")
        for name in forms:
            browser.get(f"{elsewhere.url}/{name}")
            front.click("button")
            front.wait.until(lambda _b: not browser.current_url.startswith(elsewhere.url))
            assert WORDS["en"]["foreign"].lower().rstrip(".") in front.said().lower(), (name, front.said())
    finally:
        elsewhere.close()
    # nothing happened: Anna's seat is free, no table was opened for Mallory
    front.browser.get(join)
    anna = table_page(browser)
    assert anna.js("return [...document.querySelectorAll('#seats button')].filter(b => !b.disabled)"
                   ".map(b => b.textContent)") == ["Anna"]
    assert len(list((server.root / "tables").iterdir())) == 1
