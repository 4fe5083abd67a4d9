"""hhd serve's front page in a browser, through Caddy over https: a look-alike name is refused in the opener's
language with the form kept, a seat's deck link is read from its site, and a server holding all the tables it
may refuses a new one with a page saying so."""

from __future__ import annotations

import json

import pytest
from tablekit import CHROMEDRIVER, authorization, free_port
from test_table_caddy import CADDY, Caddy, chromium
from test_table_community import Server, at
from test_table_decklinks import LINK, sites_fixture  # noqa: F401  # the deck sites' recorded answers

pytestmark = pytest.mark.skipif(CADDY is None or CHROMEDRIVER is None, reason="needs Debian's caddy and Chromium")


def test_the_front_page_refuses_look_alike_names_reads_deck_links_and_says_when_the_server_is_full(
        legacy_cache, tmp_path, sites, monkeypatch):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    monkeypatch.setenv("HHD_DECK_SITES_URL", sites.url)
    upstream = free_port()
    caddy = Caddy(tmp_path / "caddy", upstream)
    server = Server(legacy_cache, tmp_path / "tables", "--public-url", caddy.url, "--behind-proxy",
                    "--max-tables", "1", port=upstream)
    browser = chromium((1280, 900))
    wait = WebDriverWait(browser, 40, poll_frequency=0.1)

    def fill(fields: dict[str, str]) -> None:
        for name, value in fields.items():
            browser.execute_script("const e = document.querySelector(`[name='${arguments[0]}']`);"
                                   "e.closest('details')?.setAttribute('open', ''); e.value = arguments[1];",
                                   name, value)
        browser.find_element(By.CSS_SELECTOR, "form[action='/open'] button[type='submit']").click()

    def error() -> str:
        found = browser.find_elements(By.CSS_SELECTOR, "p.error")
        return found[0].text if found else ""

    try:
        browser.get(f"{caddy.url}/?lang=ru")
        fill({"name0": "Anna", "colors0": "R", "name1": "\u0410nna", "colors1": "G"})  # a Cyrillic А
        wait.until(lambda _b: "выглядит так же, как Anna" in error())
        assert browser.find_element(By.NAME, "name1").get_attribute("value") == "\u0410nna"  # kept to mend
        fill({"name1": "Ben", "colors1": "", "deck1": LINK})
        wait.until(lambda _b: browser.find_elements(By.ID, "board"))
        code = browser.find_element(By.ID, "board").get_attribute("href").split("#code=")[1].split("&")[0]
        status, _headers, data = caddy.ask("GET", at(code, "/api/state"), headers=authorization(code))
        players = {p["name"]: p["colors"] for p in json.loads(data)["players"]}
        assert status == 200 and players["Anna"] == "R" and {"U", "R", "B"} <= set(players["Ben"])
        browser.get(f"{caddy.url}/?lang=ru")
        fill({"name0": "Cleo", "colors0": "W"})
        wait.until(lambda _b: "столько столов, сколько он может хранить" in error())
    finally:
        browser.quit()
        _out, err = server.stop()
        caddy.stop()
    assert "Traceback" not in err
