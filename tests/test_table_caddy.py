"""`hhd serve` behind Caddy (Debian's package, automatic HTTPS with its internal CA) on loopback, as the README's
community server runs it: a table opened and played by four Chromium phones and the board over https:// only.
The QR code decodes to the public address, the cookies are Secure, pushes arrive through the proxy at once
(no buffering), and a page of another origin cannot act."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from tablekit import CHROMEDRIVER, free_port
from test_table_community import Server, opened
from test_table_page import Page, decoded_qr

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
\treverse_proxy 127.0.0.1:{upstream} {{
\t\tflush_interval -1
\t}}
}}
"""


class Caddy:
    def __init__(self, folder: Path, upstream: int) -> None:
        self.port, self.folder = free_port(), folder
        folder.mkdir(parents=True, exist_ok=True)
        config = folder / "Caddyfile"
        config.write_text(CADDYFILE.format(storage=folder / "data", http_port=free_port(), https_port=self.port,
                                           upstream=upstream), encoding="utf-8")
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "xdg"),
               "XDG_CONFIG_HOME": str(folder / "xdg")}
        self.process = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"https://localhost:{self.port}"
        root = folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if root.exists():
                try:
                    self.context = ssl.create_default_context(cafile=str(root))
                    self.ask("GET", "/")
                    return
                except (OSError, ssl.SSLError):
                    pass
            time.sleep(0.2)
        raise AssertionError("caddy did not start: " + self.stop())

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


def open_table(caddy: Caddy, names: list[str]) -> dict[str, str]:
    boundary = uuid.uuid4().hex
    fields = {f"name{n}": name for n, name in enumerate(names)} | \
        {f"colors{n}": "WUBRG"[n] for n in range(len(names))} | {"seed": "caddy-night-1"}
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                    for k, v in fields.items()) + f"--{boundary}--\r\n".encode()
    status, _headers, page = caddy.ask("POST", "/open", body, {
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": caddy.url})
    assert status == 201, page[:500]
    return opened(page.decode())


def test_a_game_over_https_behind_caddy_with_four_phones_and_the_board(legacy_cache, tmp_path):
    names = ["Anna", "Ben", "Cleo", "Dan"]
    upstream = free_port()
    caddy = Caddy(tmp_path / "caddy", upstream)
    server, table = None, {"code": "-", "host": "-"}
    browsers = []
    try:
        server = Server(legacy_cache, tmp_path / "tables", "--public-url", caddy.url, "--behind-proxy",
                        port=upstream)
        table = open_table(caddy, names)
        join = f"{caddy.url}/?code={table['code']}"
        assert table["board"] == f"{join}#host={table['host']}"

        # a page of another origin cannot act, through the proxy or around it
        refused = caddy.ask("POST", "/api/join", json.dumps({"player": "Anna"}).encode(),
                            {"Content-Type": "application/json", "X-Join-Code": table["code"],
                             "Origin": "https://evil.example"})
        assert refused[0] == 403
        around = server.ask("POST", "/api/join", json.dumps({"player": "Anna"}).encode(),
                            {"Content-Type": "application/json", "X-Join-Code": table["code"],
                             "Origin": f"http://127.0.0.1:{upstream}"})
        assert around[0] == 403

        # pushes arrive through the proxy at once: an event stream over https, then an action
        stream_connection = caddy.connection()
        stream_connection.request("GET", f"/api/events?code={table['code']}")
        stream = stream_connection.getresponse()
        assert stream.status == 200 and stream.readline().startswith(b"retry:")
        while not stream.readline().startswith(b"data:"):
            pass

        board_browser = chromium((1280, 800))
        browsers.append(board_browser)
        board = Page(board_browser, table["board"])
        board.until(lambda: "board" in board.js("return document.body.className"))
        board.until(lambda: board.text("join-url") != "")
        assert board.text("join-url") == join and decoded_qr(board, "join-qr") == [join]

        phones = []
        for name in names:
            browser = chromium((390, 844))
            browsers.append(browser)
            page = Page(browser, join)
            page.seat(name)
            phones.append(page)
        assert all(page.js("return location.protocol") == "https:" for page in [board, *phones])
        cookie = next(c for c in phones[0].browser.get_cookies() if c["name"] == "hhd_player")
        assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"

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
        status, headers, _ = caddy.ask("GET", f"/api/state?code={table['code']}")
        assert status == 200 and headers["strict-transport-security"].startswith("max-age=")
    finally:
        for browser in browsers:
            browser.quit()
        if server is not None:
            out, err = server.stop()
            assert table["code"] not in err and table["host"] not in err
        caddy.stop()
