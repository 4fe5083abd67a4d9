"""A table reachable from anywhere (`--public-url`, `--behind-proxy`): the printed and shown addresses are the
public one (the code after #, never sent), only its pages may act, cookies are Secure under https with HSTS,
X-Forwarded-For is believed only behind a proxy the operator named, every POST is counted per address as on
`hhd serve`, and every answer, the server's own included, carries the guards and speaks the asker's language."""

from __future__ import annotations

import http.client
import json
import signal

import pytest
from limits import parse
from tablekit import authorization, free_port
from test_table_serve import hhd_table

from hhdcli.errors import InputError
from hhdcli.table.hosting.online import public_url
from hhdcli.table.hosting.server import Bounds
from hhdcli.table.hosting.throttle import RULES
from hhdcli.table.web.origin import from_elsewhere

PUBLIC = "https://hell.example.org"


def ask(port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
        ) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sent = {"Content-Type": "application/json", **(headers or {})}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
    return connection.getresponse()


@pytest.fixture(name="public_table")
def public_table_fixture(legacy_cache, library, tmp_path):
    port = free_port()
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG", "--player", "Ben=WU",
                        "--state", str(tmp_path / "s.sqlite"), "--offline", "--public-url", PUBLIC + "/",
                        "--behind-proxy", port=port)
    lines = [process.stdout.readline(), process.stdout.readline()]
    yield port, lines
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=10)
    assert process.returncode == 0 and "Traceback" not in err
    assert "anyone on this network" not in err  # on loopback behind a proxy: no warning about the LAN


def code_of(join_line: str) -> str:
    return join_line.strip().split("#code=")[1]


def test_the_printed_and_shown_addresses_are_the_public_one_with_an_80_bit_code(public_table):
    port, (join_line, board_line) = public_table
    assert join_line.startswith(f"open {PUBLIC}/#code=")
    code = code_of(join_line)
    assert len(code) >= 14  # 80 bits of base64 letters
    assert board_line.strip().endswith(f"{PUBLIC}/#code={code}&host=" + board_line.split("&host=")[1].strip())
    state = json.loads(ask(port, "GET", "/api/state", headers=authorization(code)).read())
    assert state["join_url"] == f"{PUBLIC}/#code={code}"


def test_only_the_public_origin_may_act_and_cookies_are_secure_with_hsts(public_table):
    port, (join_line, _board) = public_table
    code = code_of(join_line)
    foreign = ask(port, "POST", "/api/join", {"player": "Anna"},
                  {"Origin": f"http://127.0.0.1:{port}"} | authorization(code))  # the server's own address
    assert foreign.status == 403
    joined = ask(port, "POST", "/api/join", {"player": "Anna"}, {"Origin": PUBLIC} | authorization(code))
    assert joined.status == 200
    cookie = joined.getheader("Set-Cookie")
    assert all(part in cookie for part in ("Secure", "HttpOnly", "SameSite=Strict"))
    assert joined.getheader("Strict-Transport-Security").startswith("max-age=")
    assert joined.getheader("Referrer-Policy") == "same-origin"  # no Referer to others; Origin to ourselves


def test_behind_the_proxy_each_forwarded_client_has_its_own_share_of_streams(public_table):
    port, (join_line, _board) = public_table
    code = code_of(join_line)
    most = Bounds().streams_per_address

    def stream(client: str, lang: str = "en") -> http.client.HTTPResponse:
        # a client's own X-Forwarded-For entries come first; the proxy appends the address it saw
        return ask(port, "GET", "/api/events", headers={"X-Forwarded-For": f"6.6.6.6, {client}",
                                                       "Accept-Language": lang} | authorization(code))

    assert [stream("203.0.113.5").status for _ in range(most)] == [200] * most
    refused = stream("203.0.113.5", "ru")  # the server's own answer, before the table's app: guarded, in Russian
    assert refused.status == 429 and "слишком много страниц" in json.loads(refused.read())["error"]
    guarded(refused, https=True)
    assert stream("203.0.113.9").status == 200  # another client behind the same proxy


def guarded(answer: http.client.HTTPResponse, https: bool = False) -> None:
    """The guards every answer carries, whoever wrote it."""
    assert "default-src 'self'" in answer.getheader("Content-Security-Policy", "")
    assert answer.getheader("Referrer-Policy") == "same-origin"
    assert answer.getheader("X-Content-Type-Options") == "nosniff"
    assert answer.getheader("Strict-Transport-Security", "").startswith("max-age=") == https


def test_a_public_table_counts_every_post_per_address_as_a_served_table_does(public_table):
    """`hhd table --public-url` is built as each of `hhd serve`'s tables is (online.table_app): an address's
    POST beyond its minute's share is refused, in its language, while another address goes on."""
    port, (join_line, _board) = public_table
    code = code_of(join_line)

    def post(client: str) -> http.client.HTTPResponse:
        return ask(port, "POST", "/api/enter", {"code": code},
                   {"X-Forwarded-For": client, "Accept-Language": "ru"} | authorization(code))

    most = parse(RULES["post"]).amount  # an address's POSTs a minute (throttle.py)
    assert {post("203.0.113.7").status for _ in range(most)} == {200}
    refused = post("203.0.113.7")
    assert refused.status == 429 and int(refused.getheader("Retry-After")) > 0
    assert "слишком много запросов" in json.loads(refused.read())["error"]
    guarded(refused, https=True)
    assert post("203.0.113.8").status == 200


def test_a_request_the_server_cannot_read_is_a_guarded_400_page_and_one_clean_line(legacy_cache, library,
                                                                                   tmp_path):
    import socket

    port = free_port()
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG",
                        "--state", str(tmp_path / "s.sqlite"), "--offline", "--public-url", PUBLIC, port=port)
    try:
        process.stdout.readline()
        for sent in (b"GARBAGE\x1b[31m\r\n\r\n", b"GET / HTTP/7.1\r\nHost: x\r\n\r\n",
                     b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(sent)
                answer = b""
                while chunk := raw.recv(65536):
                    answer += chunk
            head, _blank, body = answer.partition(b"\r\n\r\n")
            headers = head.decode("latin-1").lower()
            assert head.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 414 "))  # a request line over 8 KiB: 414
            assert "content-security-policy: default-src 'self'" in headers
            assert "x-content-type-options: nosniff" in headers and "strict-transport-security: max-age=" in headers
            assert b"The server could not read this request." in body and "Сервер не смог".encode() in body
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    said = [line for line in err.splitlines() if "could not read" in line]
    assert len(said) == 2 and "Traceback" not in err and "GARBAGE" not in err and "\x1b" not in err
    assert "socket" not in err


def test_without_behind_proxy_x_forwarded_for_is_not_believed(legacy_cache, library, tmp_path):
    port = free_port()
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG",
                        "--state", str(tmp_path / "s.sqlite"), "--offline", port=port)
    try:
        process.stdout.readline()
        most = Bounds().streams_per_address
        answers = [ask(port, "GET", "/api/events", headers={"X-Forwarded-For": f"198.51.100.{n}"}).status
                   for n in range(most + 1)]
        assert answers == [200] * most + [429]  # every one is 127.0.0.1's, whatever it claims
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=10)


@pytest.mark.parametrize("given", ["hell.example.org", "ftp://hell.example.org", "https://hell.example.org/table",
                                   "https://u:p@hell.example.org", "https://hell.example.org/?x=1"])
def test_a_public_url_with_more_than_scheme_and_host_is_refused_in_one_line(given):
    with pytest.raises(InputError) as refused:
        public_url(given)
    assert given in refused.value.message and "https://" in str(refused.value.hint)


def test_a_public_url_is_kept_as_its_origin():
    assert public_url("HTTPS://Hell.Example.org:8443/") == "https://hell.example.org:8443"
    assert public_url(None) is None


@pytest.mark.parametrize(("origin", "fetch_site", "elsewhere"), [
    (PUBLIC, "same-origin", False),  # our page, as every browser sends it under Referrer-Policy: same-origin
    ("null", "same-origin", False),  # our page under a stricter policy (an operator's proxy's no-referrer)
    (None, None, False),  # no browser: a script or curl, which no other site can make a visitor's browser be
    (PUBLIC, None, False),  # a browser before Sec-Fetch-Site
    ("https://evil.example", "cross-site", True),
    ("https://other.hell.example.org", "same-site", True),  # another subdomain, or another port of the host
    (PUBLIC, "same-site", True),
    ("https://evil.example", None, True),
    ("null", None, True),  # a sandboxed frame or a page hiding where it is
    ("null", "cross-site", True),
    (None, "cross-site", True),
    (None, "none", True),  # typed in the address bar: never a POST of ours
])
def test_a_request_is_ours_only_when_the_browser_says_it_comes_from_our_origin(origin, fetch_site, elsewhere):
    assert from_elsewhere(origin, fetch_site, PUBLIC.__eq__) is elsewhere
