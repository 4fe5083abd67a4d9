"""`hhd serve` behind Caddy (Debian's package, automatic HTTPS with its internal CA) on loopback, as docs/server.md's
community server runs it: a table opened from the front page and played by four Chromium phones and the board
over https:// only. The QR code decodes to the public address, the cookies are Secure, pushes arrive through
the proxy at once (no buffering), a page of another origin cannot act, and Caddy's access log (on, as an
operator may turn it on) holds no join code, token or secret after the evening."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from caddykit import CADDY, Caddy, documented_site, upstream_keepalive
from tablekit import CHROMEDRIVER, authorization, free_port
from test_table_community import Server, at, opened
from test_table_page import Page, decoded_qr

from hhdcli.table.hosting.community import table_id
from hhdcli.table.hosting.front import MAX_UPLOAD
from hhdcli.table.hosting.server import Bounds
from hhdcli.table.web.bodies import MAX_BODY

pytestmark = pytest.mark.skipif(CADDY is None, reason="needs Debian's caddy")


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


@pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver")
def test_an_evening_over_https_behind_caddy_leaves_no_secret_in_its_access_log(legacy_cache, tmp_path):
    names = ["Anna", "Ben", "Cleo", "Dan"]
    upstream = free_port()
    caddy = Caddy(tmp_path / "caddy", upstream, log=True)
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


# --- no answer cut: issue 58 -----------------------------------------------------------------------------------
#
# Debian's Caddy 2.6.2 (Go 1.19's reverse proxy) lost a POST's answer two ways (golang/go#40747; measured by
# benchmarks/caddy_posts.py, docs/server.md says the figures):
# - streaming a request's body to hhd, Go's transport reads the client's body once more after the declared length
#   (to see it ends there); when hhd's answer comes first, Caddy sends its headers on, which makes Go's server close
#   the client's body, that last read fails, and the transport closes the upstream connection under the answer's
#   body: a 200 with no body ("use of closed network connection"). Caddy reading the whole body first
#   (buffer_requests, without max_buffer_size: Caddy 2.6.2's bounded buffering takes a short body's end for an
#   error and streams it after all) leaves the transport nothing of the client's to read.
# - sending a request on a kept-alive upstream connection at the moment hhd closes it for idleness (a 502 for a
#   POST, which is never sent again; golang/go#22158). Only the side that closes an idle connection loses nothing:
#   that must be Caddy, so its upstream keep-alive is shorter than hhd's idle timeout, by a margin a loaded machine
#   cannot eat (the two idle clocks start a moment apart: hhd's when its answer's last byte left, Caddy's when it
#   read it).

MARGIN = 10.0  # seconds hhd keeps an idle connection open after Caddy let go of it, at least


def test_the_documented_caddy_reads_a_request_whole_before_sending_it_on():
    site = documented_site()
    assert re.search(r"^\s*buffer_requests\s*$", site, re.M), site
    assert "max_buffer_size" not in site  # Caddy 2.6.2 would stream every body of a table then
    most = re.search(r"^\s*max_size\s+(\S+)\s*$", site, re.M)  # request_body's: what Caddy holds, at most
    assert most is not None and size(most.group(1)) > MAX_UPLOAD >= MAX_BODY  # hhd's own 413 for a big upload


def test_the_documented_caddy_lets_go_of_an_idle_upstream_connection_before_hhd_closes_it():
    keepalive = upstream_keepalive(documented_site())
    assert 0 < keepalive, "keep-alive off: every request would open a connection to hhd"
    assert keepalive + MARGIN <= Bounds().idle_seconds, (keepalive, Bounds().idle_seconds)
    assert upstream_keepalive("reverse_proxy 127.0.0.1:8040 {\n}\n") == 120.0  # the old Caddyfile: Caddy's default


def size(text: str) -> int:
    """A Caddyfile size in bytes ("4MB", "64KiB": humanize's units, as Caddy reads them)."""
    number, unit = re.fullmatch(r"(\d+)\s*([KMG]i?B|B)?", text).groups()  # type: ignore[union-attr]
    units = {None: 1, "B": 1, "KB": 10**3, "KiB": 2**10, "MB": 10**6, "MiB": 2**20, "GB": 10**9, "GiB": 2**30}
    return int(number) * units[unit]


@pytest.fixture(name="proxied", scope="module")
def proxied_fixture(legacy_cache, tmp_path_factory):
    """`hhd serve --behind-proxy` behind the documented Caddy on loopback, a table of five open and its phones
    seated, each with a kept-alive connection from a loopback address of its own; Caddy's error lines after."""
    folder = tmp_path_factory.mktemp("proxied")
    upstream = free_port()
    caddy = Caddy(folder / "caddy", upstream)
    server, started = None, 0
    try:
        server = Server(legacy_cache, folder / "tables", "--public-url", caddy.url, "--behind-proxy", port=upstream)
        started = caddy.errors.stat().st_size  # Caddy's log from here: its own start asked before hhd listened
        code = opened_through(caddy)
        phones = [Tapper(caddy, code, f"P{n}", f"127.0.58.{n + 2}") for n in range(5)]
        yield caddy, upstream, phones
    finally:
        if server is not None:
            server.stop()
        caddy.stop()
    said = caddy.errors.read_bytes()[started:].decode()
    assert '"level":"error"' not in said, said  # no answer Caddy failed to bring whole


def test_caddy_sends_a_request_on_to_hhd_only_once_its_body_is_in(proxied):
    """A phone whose POST's body is slow to come: hhd receives nothing of it until the body is whole, so Caddy has
    read all of the client's body before it sends the request on."""
    caddy, upstream, phones = proxied
    phone = phones[4]
    body = json.dumps({"whose": phone.name, "delta": 1}).encode()
    head = (f"POST {at(phone.code, '/api/life')} HTTP/1.1\r\nHost: localhost:{caddy.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Authorization: {authorization(phone.code, phone.token)['Authorization']}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", caddy.port), timeout=20) as raw, \
            caddy.context.wrap_socket(raw, server_hostname="localhost") as slow:
        before = received_by(upstream)
        slow.sendall(head + body[:5])
        time.sleep(1.5)
        assert received_by(upstream) == before  # hhd has no byte of it yet
        slow.sendall(body[5:])
        assert slow.recv(12) == b"HTTP/1.1 200"


def received_by(port: int) -> int:
    """Bytes hhd's open connections on `port` have received, all told (the kernel's count, read by ss)."""
    said = subprocess.run(["ss", "-Htin", "state", "established", f"( sport = :{port} )"], capture_output=True,
                          text=True, check=True).stdout
    return sum(int(n) for n in re.findall(r"bytes_received:(\d+)", said))


def test_idle_upstream_connections_are_closed_by_caddy_and_every_answer_arrives_whole(proxied):
    """Phones tap together (Caddy opens an upstream connection for each), sit idle past Caddy's upstream keep-alive,
    and tap again. Every idle upstream connection was closed by Caddy, none by hhd (the closing side's socket waits
    in TIME_WAIT), and every answer came whole, on connections hhd keeps open however many requests they carry."""
    caddy, upstream, phones = proxied
    for _round in range(3):
        assert together(phones) == ["whole"] * 5
    open_before = upstream_sockets(upstream)["established"]
    assert len(open_before) >= 2  # the taps together took several upstream connections
    time.sleep(upstream_keepalive(caddy.site) + 2)
    after = upstream_sockets(upstream)
    assert after["closed by hhd"] == [] and after["established"] == []
    assert set(open_before) <= set(after["closed by caddy"])
    assert together(phones) == ["whole"] * 5  # on new upstream connections, the phones' own kept alive
    assert all(phone.connections == 1 for phone in phones)
    many = phones[0]
    assert [many.tap() for _ in range(150)] == ["whole"] * 150 and many.connections == 1
    assert upstream_sockets(upstream)["closed by hhd"] == []  # however many requests a connection carried


def opened_through(caddy: Caddy) -> str:
    """A table of five opened through the proxy's front page; its join code."""
    boundary = "hhd-keepalive"
    fields = {f"name{n}": f"P{n}" for n in range(5)} | {f"colors{n}": "WUBRG"[n] for n in range(5)}
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                    for k, v in fields.items()) + f"--{boundary}--\r\n".encode()
    status, _headers, page = caddy.ask("POST", "/open", body,
                                       {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 201, page[:300]
    return opened(page.decode())["code"]


class Tapper:
    """A seated phone's one kept-alive connection through the proxy, from a loopback address of its own."""

    def __init__(self, caddy: Caddy, code: str, name: str, source: str) -> None:
        self.connection = caddy.connection(source)
        self.code, self.name, self.delta, self.connections = code, name, 1, 0
        status, data = self.post("/api/join", {"player": name})
        assert status == 200, data
        self.token = json.loads(data)["token"]

    def post(self, path: str, body: dict) -> tuple[int, bytes]:
        if self.connection.sock is None:
            self.connections += 1  # http.client connects again only when the connection was closed
        headers = {"Content-Type": "application/json", "X-Want-State": "1"} | \
            authorization(self.code, getattr(self, "token", None))
        self.connection.request("POST", at(self.code, path), json.dumps(body).encode(), headers)
        answer = self.connection.getresponse()
        return answer.status, answer.read()

    def tap(self) -> str:
        """A life change (+1, -1 in turn): "whole" when its answer is a 200 with every byte of its JSON."""
        self.delta = -self.delta
        try:
            status, data = self.post("/api/life", {"whose": self.name, "delta": self.delta})
        except http.client.IncompleteRead as cut:
            return f"cut: {cut!r}"
        except (OSError, http.client.HTTPException) as lost:
            return f"lost: {lost!r}"
        return "whole" if status == 200 and "state" in json.loads(data) else f"{status}: {data[:200]!r}"


def together(phones: list[Tapper]) -> list[str]:
    """Every phone taps at once (so the proxy needs an upstream connection for each)."""
    with ThreadPoolExecutor(len(phones)) as pool:
        return list(pool.map(Tapper.tap, phones))


def upstream_sockets(port: int) -> dict[str, list[int]]:
    """The loopback TCP sockets to hhd's port, by the proxy's port: open, or waiting after a close (TIME_WAIT, on
    the side that closed first)."""
    found: dict[str, list[int]] = {"established": [], "closed by caddy": [], "closed by hhd": []}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, remote, state = line.split()[1:4]
        local_port, remote_port = int(local.split(":")[1], 16), int(remote.split(":")[1], 16)
        if state == "01" and remote_port == port:
            found["established"].append(local_port)
        elif state == "06" and remote_port == port:
            found["closed by caddy"].append(local_port)
        elif state == "06" and local_port == port:
            found["closed by hhd"].append(remote_port)
    return found
