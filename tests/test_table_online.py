"""A table reachable from anywhere (`--public-url`, `--behind-proxy`): the printed and shown addresses are the
public one, only its pages may act, cookies are Secure under https with HSTS, and X-Forwarded-For is believed
only behind a proxy the operator named."""

from __future__ import annotations

import http.client
import json
import signal

import pytest
from tablekit import free_port
from test_table_serve import hhd_table

from hhdcli.errors import InputError
from hhdcli.table.online import from_elsewhere, public_url
from hhdcli.table.server import Bounds

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


def test_the_printed_and_shown_addresses_are_the_public_one_with_an_80_bit_code(public_table):
    port, (join_line, board_line) = public_table
    assert join_line.startswith(f"open {PUBLIC}/?code=")
    code = join_line.strip().split("?code=")[1]
    assert len(code) >= 14  # 80 bits of base64 letters
    assert board_line.strip().endswith(f"{PUBLIC}/?code={code}#host=" + board_line.split("#host=")[1].strip())
    state = json.loads(ask(port, "GET", f"/api/state?code={code}").read())
    assert state["join_url"] == f"{PUBLIC}/?code={code}"


def test_only_the_public_origin_may_act_and_cookies_are_secure_with_hsts(public_table):
    port, (join_line, _board) = public_table
    code = join_line.strip().split("?code=")[1]
    foreign = ask(port, "POST", f"/api/join?code={code}", {"player": "Anna"},
                  {"Origin": f"http://127.0.0.1:{port}"})  # the server's own address is not the public one
    assert foreign.status == 403
    joined = ask(port, "POST", f"/api/join?code={code}", {"player": "Anna"}, {"Origin": PUBLIC})
    assert joined.status == 200
    cookie = joined.getheader("Set-Cookie")
    assert all(part in cookie for part in ("Secure", "HttpOnly", "SameSite=Strict"))
    assert joined.getheader("Strict-Transport-Security").startswith("max-age=")
    assert joined.getheader("Referrer-Policy") == "same-origin"  # no Referer to others; Origin to ourselves


def test_behind_the_proxy_each_forwarded_client_has_its_own_share_of_streams(public_table):
    port, (join_line, _board) = public_table
    code = join_line.strip().split("?code=")[1]
    most = Bounds().streams_per_address

    def stream(client: str) -> int:
        # a client's own X-Forwarded-For entries come first; the proxy appends the address it saw
        return ask(port, "GET", f"/api/events?code={code}", headers={"X-Forwarded-For": f"6.6.6.6, {client}"}).status

    assert [stream("203.0.113.5") for _ in range(most)] == [200] * most
    assert stream("203.0.113.5") == 429
    assert stream("203.0.113.9") == 200  # another client behind the same proxy


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
