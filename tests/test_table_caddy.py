"""`hhd serve` behind Caddy (Debian's package, automatic HTTPS with its internal CA) on loopback, as docs/server.md's
community server runs it: a table opened from the front page and played by four Chromium phones and the board
over https:// only. The QR code decodes to the public address, the cookies are Secure, pushes arrive through
the proxy at once (no buffering), a page of another origin cannot act, and Caddy's access log (on, as an
operator may turn it on) holds no join code, token or secret after the evening."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from tablekit import CHROMEDRIVER, authorization, free_port
from test_table_community import Server, at, opened
from test_table_page import Page, decoded_qr

from hhdcli.table.hosting.community import table_id

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(CADDY is None or CHROMEDRIVER is None, reason="needs Debian's caddy and Chromium")

CADDYFILE = """{{
\tadmin off
\tauto_https disable_redirects
\tskip_install_trust
\tstorage file_system {storage}
\thttp_port {http_port}
\thttps_port {https_port}
}}

localhost:{https_port} {{
\ttls internal
\tlog {{
\t\toutput file {log}
\t\tformat json
\t}}
\treverse_proxy 127.0.0.1:{upstream} {{
\t\tflush_interval -1
\t}}
}}
"""


class Caddy:
    def __init__(self, folder: Path, upstream: int) -> None:
        self.folder, self.upstream = folder, upstream
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "access.log"  # every request's URI and headers, as Caddy logs them by default
        for _attempt in range(3):  # a free port found here may be taken by another worker before Caddy binds it
            said = self._started()
            if not said:
                return
            if "address already in use" not in said:
                break
        raise AssertionError("caddy did not start: " + said)

    def _started(self) -> str:
        """Caddy on two free ports, answering over https: "" once it does, else what it said before it stopped."""
        self.port = free_port()
        config = self.folder / "Caddyfile"
        config.write_text(CADDYFILE.format(storage=self.folder / "data", http_port=free_port(), https_port=self.port,
                                           upstream=self.upstream, log=self.log), encoding="utf-8")
        env = {**os.environ, "HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder / "xdg"),
               "XDG_CONFIG_HOME": str(self.folder / "xdg")}
        self.process = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"https://localhost:{self.port}"
        root = self.folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            if root.exists():
                try:
                    self.context = ssl.create_default_context(cafile=str(root))
                    self.ask("GET", "/")
                    return ""
                except (OSError, ssl.SSLError):
                    pass
            time.sleep(0.2)
        return self.stop()

    def connection(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection("localhost", self.port, timeout=20, context=self.context)

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], bytes]:
        connection = self.connection()
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data

    def stop(self) -> str:
        self.process.terminate()
        return self.process.communicate(timeout=10)[1].decode(errors="replace")[-2000:]


def chromium(size: tuple[int, int]):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={size[0]},{size[1]}",
                     "--ignore-certificate-errors"):  # Caddy's internal CA is this test's, not the system's
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or ""
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def open_from_the_front_page(page, names: list[str]) -> dict[str, str]:
    """The front page's form filled and sent in the browser, as a host opens a table: the "table opened" page's
    links and codes."""
    page.get(page.current_url.split("#")[0])
    for n, name in enumerate(names):
        page.execute_script("document.querySelector(`[name=name${arguments[0]}]`).value = arguments[1];"
                            "document.querySelector(`[name=colors${arguments[0]}]`).value = arguments[2];",
                            n, name, "WUBRG"[n])
    page.execute_script("document.querySelector('[name=seed]').value = 'caddy-night-1';"
                        "document.querySelector('form[action=\"/open\"] button[type=submit]').click();")
    wait_for(lambda: page.find_elements("id", "board"))
    return opened(page.page_source)


def wait_for(check, seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.1)


def test_an_evening_over_https_behind_caddy_leaves_no_secret_in_its_access_log(legacy_cache, tmp_path):
    names = ["Anna", "Ben", "Cleo", "Dan"]
    upstream = free_port()
    caddy = Caddy(tmp_path / "caddy", upstream)
    server, table = None, {"code": "-", "host": "-"}
    browsers = []
    try:
        server = Server(legacy_cache, tmp_path / "tables", "--public-url", caddy.url, "--behind-proxy",
                        port=upstream)
        board_browser = chromium((1280, 800))
        browsers.append(board_browser)
        board_browser.get(caddy.url + "/?lang=en")
        table = open_from_the_front_page(board_browser, names)
        here = f"{caddy.url}/t/{table_id(table['code'])}/"
        join = f"{here}#code={table['code']}"
        assert table["board"] == f"{join}&host={table['host']}"
        api = {"Content-Type": "application/json"} | authorization(table["code"])

        # a page of another origin cannot act, through the proxy or around it
        refused = caddy.ask("POST", at(table["code"], "/api/join"), json.dumps({"player": "Anna"}).encode(),
                            api | {"Origin": "https://evil.example"})
        assert refused[0] == 403
        around = server.ask("POST", at(table["code"], "/api/join"), json.dumps({"player": "Anna"}).encode(),
                            api | {"Origin": f"http://127.0.0.1:{upstream}"})
        assert around[0] == 403

        # pushes arrive through the proxy at once: an event stream over https, then an action
        stream_connection = caddy.connection()
        stream_connection.request("GET", at(table["code"], "/api/events"), headers=api)
        stream = stream_connection.getresponse()
        assert stream.status == 200 and stream.readline().startswith(b"retry:")
        while not stream.readline().startswith(b"data:"):
            pass

        board = Page(board_browser, table["board"])  # the opened page's link: code and secret after #
        board.until(lambda: "board" in board.js("return document.body.className"))
        board.until(lambda: board.text("join-url") != "")
        assert board.text("join-url") == join and decoded_qr(board, "join-qr") == [join]
        assert board.js("return location.href") == here  # the fragment traded for cookies, gone from the bar

        phones = []
        for n, name in enumerate(names):
            browser = chromium((390, 844))
            browsers.append(browser)
            if n == 1:  # Ben types the short code on the front page
                browser.get(caddy.url + "/")
                browser.execute_script("document.getElementById('short').value = arguments[0];"
                                       "document.querySelector('form.join button').click();", table["short"])
                wait_for(lambda browser=browser: browser.current_url == here)
                page = Page(browser, here)
            else:
                page = Page(browser, join)
            page.seat(name)
            phones.append(page)
        assert all(page.js("return location.protocol") == "https:" for page in [board, *phones])
        cookie = next(c for c in phones[0].browser.get_cookies() if c["name"] == "hhd_player")
        assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert cookie["path"] == f"/t/{table_id(table['code'])}/"
        tokens = {page.browser.get_cookie("hhd_player")["value"] for page in phones}
        assert len(tokens) == 4

        before = int(board.text("library"))
        asked = time.monotonic()
        phones[0].press("opening-hand")  # the bar's first action: the opening hand, two Hell cards
        line = stream.readline()
        while not line.startswith(b"data:"):
            line = stream.readline()
        assert time.monotonic() - asked < 2  # not held in the proxy's buffer
        stream_connection.close()
        board.until(lambda: int(board.text("library")) == before - 2)
        for page in phones[1:]:
            page.until(lambda page=page: int(page.text("library")) == before - 2)
        phones[2].opening_kept()
        phones[2].press("draw")
        board.until(lambda: int(board.text("library")) <= before - 5)

        # the host re-seats Anna on a new phone: the board's re-seat link, scanned
        board.click("#players li > button")  # the first seat: Anna's
        board.click("#seat-new")
        board.until(lambda: board.js("return document.getElementById('reseat').open") and
                    "seat=" in board.text("reseat-url"))
        reseat = board.text("reseat-url")
        assert reseat.startswith(join + "&seat=")
        browser = chromium((390, 844))
        browsers.append(browser)
        new = Page(browser, reseat)
        new.until(lambda: new.shown("me") and "Anna" in new.text("me") and len(new.hand()) == 2)
        tokens.add(browser.get_cookie("hhd_player")["value"])
        status, headers, _ = caddy.ask("GET", at(table["code"], "/api/state"), headers=api)
        assert status == 200 and headers["strict-transport-security"].startswith("max-age=")

        # the host opens a second table in the same browser: each board keeps its own host secret
        board_browser.get(caddy.url + "/")
        second = open_from_the_front_page(board_browser, ["Zoe"])
        other = Page(board_browser, second["board"])
        other.until(lambda: other.shown("add"))  # the host's controls: a late player
        board = Page(board_browser, here)
        board.until(lambda: board.shown("add") and "Anna" in board.text("players"))
        assert board_browser.get_cookie("hhd_host")["path"] == f"/t/{table_id(table['code'])}/"  # one a table
        other = Page(board_browser, f"{caddy.url}/t/{table_id(second['code'])}/")  # and back: still the host
        other.until(lambda: other.shown("add"))

        logged = caddy.log.read_text(encoding="utf-8")
        secrets = {"join code": table["code"], "host secret": table["host"], "second code": second["code"],
                   "second host secret": second["host"],
                   "re-seat code": reseat.split("&seat=")[1]} | {f"token {n}": t for n, t in enumerate(tokens)}
        assert logged.count(f"/t/{table_id(table['code'])}/") > 20  # the evening is in the log, its URIs
        assert '"User-Agent":' in logged and '"Cookie":[]' in logged  # and its headers, cookies redacted
        assert [name for name, secret in secrets.items() if secret in logged] == []
    finally:
        for browser in browsers:
            browser.quit()
        if server is not None:
            out, err = server.stop()
            assert table["code"] not in err and table["host"] not in err
        caddy.stop()
