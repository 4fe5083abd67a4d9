"""Every table action is someone's: the walk over every route with no token, another player's token, the right
token and the host's secret; and nothing sent from the network reaches a traceback."""

from __future__ import annotations

import http.client
import json
import re
import sqlite3

import pytest
from tablekit import Table, authorization, cards_rows, kept

# Anna's lands make no color: most Hell cards are a choice for her (take or decline)
SEATS = {"Anna": (), "Ben": tuple("WUB"), "Cleo": tuple("WUBRGP")}


@pytest.fixture
def seated(legacy_cache, library, tmp_path):
    running = Table(tmp_path / "session.sqlite", library, legacy_cache, players=SEATS)
    for name in SEATS:
        running.seat(name)
    yield running
    running.stop()


def waiting(t: Table) -> dict:
    """Anna draws until a card waits for her take or decline (her opening hand kept first)."""
    if t.player("Anna")["opening"] != "kept":
        kept(t, "Anna")
    while not t.player("Anna")["pending"]:
        assert t.as_("Anna", "/api/draw")[0] == 200
    return {}


def dealt(t: Table) -> list[int]:
    return [c["position"] for c in t.as_("Anna", "/api/opening-hand")[1]["cards"]]


def on_sideboard(t: Table) -> dict:
    waiting(t)
    position = t.player("Anna")["pending"]["position"]
    assert t.as_("Anna", "/api/decline")[0] == 200
    return {"position": position, "end": "bottom"}


# each action, and how the table is set up so that Anna's own request goes through
PLAYER_ACTIONS = {
    "/api/draw": lambda t: (kept(t, "Anna"), {})[1],
    "/api/take": waiting,
    "/api/decline": waiting,
    "/api/opening-hand": lambda t: {},
    "/api/mulligan": lambda t: (dealt(t), {})[1],
    "/api/keep": lambda t: {"bottom": dealt(t)[1:]},
    "/api/play": lambda t: {"position": dealt(t)[0]},
    "/api/play-sideboard": lambda t: (t.as_("Anna", "/api/own-card", {"name": "Grizzly Bears"}), {})[1],
    "/api/to-sideboard": lambda t: {"position": dealt(t)[0]},
    "/api/own-card": lambda t: {"name": "Llanowar Elves"},
}
HOST_OR_PLAYER = {
    "/api/to-hell-library": on_sideboard,
    "/api/end-game": lambda t: (dealt(t), {"confirm": True})[1],
    "/api/undo": lambda t: (dealt(t), {})[1],
}


def table_as_it_is(t: Table) -> tuple:
    db = sqlite3.connect(t.session.path)
    try:
        log = db.execute("SELECT COUNT(*) FROM log").fetchone()[0]
        seats = db.execute("SELECT name, token FROM players ORDER BY name").fetchall()
    finally:
        db.close()
    return cards_rows(t.session.path), log, seats


def held_names(t: Table) -> list[str]:
    anna = t.player("Anna")
    return [c["name"] for c in anna["cards"]] + ([anna["pending"]["name"]] if anna["pending"] else [])


def refused_and_unchanged(t: Table, path: str, body: dict, status: int, **asker) -> dict:
    before, secrets = table_as_it_is(t), held_names(t)
    got, answer = t.call(path, body, **asker)
    assert got == status, (path, asker, answer)
    assert answer["error"] and not any(name in json.dumps(answer) for name in secrets)  # nothing of Anna's hand
    assert table_as_it_is(t) == before  # and nothing moved
    return answer


@pytest.mark.parametrize("path", [*PLAYER_ACTIONS, *HOST_OR_PLAYER])
def test_every_action_needs_the_acting_players_token(seated, path):
    setup = {**PLAYER_ACTIONS, **HOST_OR_PLAYER}[path]
    body = setup(seated)
    said = refused_and_unchanged(seated, path, body, 401)  # no token: nobody's action
    assert "seat" in said["error"]
    refused_and_unchanged(seated, path, {"player": "Anna", **body}, 403, token=seated.tokens["Ben"])
    if path in PLAYER_ACTIONS:  # the host is no player: its secret does not draw for anyone
        refused_and_unchanged(seated, path, body, 401, host=True)
    status, answer = seated.call(path, body, token=seated.tokens["Anna"])
    assert status == 200, answer


@pytest.mark.parametrize("path", list(HOST_OR_PLAYER))
def test_the_host_acts_on_the_table_with_its_secret(seated, path):
    body = HOST_OR_PLAYER[path](seated)
    if path == "/api/undo":
        status, asked = seated.call(path, body, host=True)
        assert status == 409 and asked["confirm"] and "Anna" in asked["error"]  # a player's action: confirm first
        body = {"anyone": True}
    status, answer = seated.call(path, body, host=True)
    assert status == 200, answer
    if path != "/api/undo":
        assert seated.state()["log"][0]["player"] is None  # logged as the host's


@pytest.mark.parametrize("path, body", [
    ("/api/host/release", {"player": "Anna"}),
    ("/api/host/reseat", {"player": "Anna"}),
    ("/api/host/add-player", {"player": "Dana", "colors": "G"}),
])
def test_seats_are_the_hosts_alone_to_change(seated, path, body):
    refused_and_unchanged(seated, path, body, 401)
    refused_and_unchanged(seated, path, body, 403, token=seated.tokens["Anna"])
    refused_and_unchanged(seated, path, body, 401, headers=authorization(host="guessed"))
    refused_and_unchanged(seated, path, body, 401, headers={"Cookie": f"hhd_host_{seated.port}=guessed"})
    assert seated.call(path, body, host=True)[0] == 200


def test_an_anonymous_undo_takes_back_nothing_and_names_no_card(seated):
    kept(seated, "Ben")
    drawn = seated.as_("Ben", "/api/draw")[1]
    status, answer = seated.call("/api/undo", {})
    assert status == 401 and drawn["name"] not in json.dumps(answer)
    assert seated.player("Ben")["card_count"] + bool(seated.player("Ben")["pending"]) == 3
    status, answer = seated.as_("Anna", "/api/undo", {"anyone": True})  # confirmed: Ben's draw, not its card
    assert status == 200 and answer["undone"] == "draw" and drawn["name"] not in json.dumps(answer)


def test_a_seat_is_one_phones_and_reads_without_a_token_are_a_spectators(seated):
    assert seated.call("/api/join", {"player": "Anna"})[0] == 403  # a second phone cannot take her seat
    hand = dealt(seated)
    watcher = seated.call("/api/state")[1]
    anna = next(p for p in watcher["players"] if p["name"] == "Anna")
    assert watcher["you"] is None and anna["card_count"] == 2 and anna["cards"] == []
    ids = [seated.session._face_of[p] for p in hand]
    assert seated.call("/api/cards?ids=" + ",".join(ids))[1] == {}  # a spectator reads no hand
    assert seated.call("/api/cards?ids=" + ",".join(ids), token=seated.tokens["Ben"])[1] == {}
    assert set(seated.call("/api/cards?ids=" + ",".join(ids), token=seated.tokens["Anna"])[1]) == set(ids)


# --- nothing from the network reaches a traceback --------------------------------------------------------


def with_port(cookies: bytes, port: int) -> bytes:
    return re.sub(rb"\b(hhd_(?:code|player|host))=", lambda found: found[1] + b"_%d=" % port, cookies)


def raw(t: Table, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes = b"") -> tuple[int, bytes]:
    """A request with headers as raw bytes (http.client would refuse to encode some). The cookies named
    hhd_code, hhd_player and hhd_host are sent as a page of this table keeps them: a table at / names each with
    its port (`hhd_code_8000`), so two tables of one laptop keep their own."""
    connection = http.client.HTTPConnection("127.0.0.1", t.port, timeout=10)
    try:
        own_host = any(name.lower() == b"host" for name, _ in headers)
        connection.putrequest(method, target, skip_host=own_host, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, with_port(value, t.port) if name.lower() == b"cookie" else value)
        if body:
            connection.putheader(b"Content-Length", str(len(body)).encode())
        connection.endheaders(body or None)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.fixture
def coded(legacy_cache, library, tmp_path):
    running = Table(tmp_path / "coded.sqlite", library, legacy_cache, code="s3cret")
    yield running
    running.stop()


@pytest.mark.parametrize("target, headers", [
    ("/api/state", [(b"Cookie", "hhd_code=код".encode())]),
    ("/api/state", [(b"Cookie", b"hhd_code=\xff\xfe")]),
    ("/api/state", [(b"Authorization", "Table code=cödé".encode("latin-1"))]),
    ("/api/state", [(b"Authorization", "Table code=код".encode())]),
    ("/", [(b"Authorization", b"Table code=\xff\x00")]),
    ("/api/state", [(b"Authorization", b'Table code="s3cret')]),
    ("/api/state?code=s3cret", []),  # an address never carries it
])
def test_a_join_code_in_any_encoding_is_refused_not_a_traceback(coded, capfd, target, headers):
    status, _ = raw(coded, "GET", target, headers)
    assert status == 403
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("headers", [
    [(b"Authorization", "Table code=s3cret, player=жетон".encode())],
    [(b"Authorization", b"Table code=s3cret, player=\xff\xfe\x80")],
    [(b"Cookie", "hhd_code=s3cret; hhd_player=жетон".encode())],
    [(b"Authorization", "Table code=s3cret, host=ключ".encode())],
    [(b"Authorization", b"Table code=s3cret"), (b"Accept-Language", b"\xff\xfe;q=\xff")],
])
def test_tokens_and_headers_in_any_encoding_are_a_4xx(coded, capfd, headers):
    sent = [(b"Content-Type", b"application/json"), *headers]
    status, answer = raw(coded, "POST", "/api/draw", sent, b"{}")
    assert 400 <= status < 500 and json.loads(answer)["error"]
    assert "Traceback" not in capfd.readouterr().err


def test_the_servers_own_failure_is_one_line_and_a_json_500_naming_no_internals(seated, capfd):
    db = sqlite3.connect(seated.session.path)
    db.execute("DROP TABLE log")  # the state file damaged under the running table
    db.commit()
    db.close()
    status, answer = seated.call("/api/state")
    assert status == 500 and "log" not in answer["error"] and "sqlite" not in answer["error"].lower()
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("hhd table:")]
    assert len(lines) == 1 and "OperationalError" in lines[0] and "Traceback" not in err


def test_a_page_without_the_code_or_with_an_old_one_says_how_to_join_in_its_language(coded):
    for target, headers in (("/", []), ("/", [(b"Cookie", b"hhd_code=old")])):
        status, page = raw(coded, "GET", target, [(b"Accept-Language", b"ru-RU,ru;q=0.9"), *headers])
        assert status == 403 and b"<html lang=\"ru\">" in page and "QR-код".encode() in page
        status, page = raw(coded, "GET", target, headers)
        assert status == 403 and b"scan the QR code" in page


def get(t: Table, path: str, **asker) -> tuple[int, bytes]:
    sent = authorization(player=asker.get("token"), host=t.host if asker.get("host") else None)
    connection = http.client.HTTPConnection("127.0.0.1", t.port, timeout=10)
    try:
        connection.request("GET", path, headers=sent)
        answer = connection.getresponse()
        if path == "/api/events":  # a stream: read no further than its first line
            return answer.status, answer.readline()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.mark.parametrize("asker", ["nobody", "Ben", "Anna", "host"])
def test_every_read_shows_each_asker_what_they_may_see(seated, asker):
    """The reads of every route, for no token, another player's token, the right token and the host's secret:
    Anna's hand (its descriptions and faces) is hers alone; the rest is the table's, open to every asker."""
    hand = dealt(seated)
    ids = [seated.session._face_of[p] for p in hand]
    who = {"nobody": {}, "Ben": {"token": seated.tokens["Ben"]}, "Anna": {"token": seated.tokens["Anna"]},
           "host": {"host": True}}[asker]
    status, state = get(seated, "/api/state", **who)
    seen = json.loads(state)
    assert status == 200 and seen["you"] == (asker if asker in SEATS else None) and seen["host"] == (asker == "host")
    anna = next(p for p in seen["players"] if p["name"] == "Anna")
    assert anna["card_count"] == 2 and len(anna["cards"]) == (2 if asker == "Anna" else 0)
    status, described = get(seated, "/api/cards?ids=" + ",".join(ids), **who)
    assert status == 200 and set(json.loads(described)) == (set(ids) if asker == "Anna" else set())
    for face in ids:
        for lang in ("en", "ru"):  # each language's picture of it
            assert get(seated, f"/cards/{lang}/{face}.png", **who)[0] == (200 if asker == "Anna" else 404)
    assert get(seated, "/api/log", **who)[0] == 200
    status, first = get(seated, "/api/events", **who)
    assert status == 200 and first.startswith(b"retry:")
    with Stream(seated, **who) as stream:  # the page's stream: its first event the same state, with its ETag
        told = stream.next("state")
    assert told["state"]["players"] == seen["players"] and told["state"]["you"] == seen["you"]
    assert told["state"]["host"] == seen["host"] and told["state"]["version"] == seen["version"]
    assert raw_status(seated, "/api/state", told["etag"], **who) == 304
    for path in ("/", "/qr.svg"):
        assert get(seated, path, **who)[0] == 200
    names = {seated.session.cards[p].name for p in hand}
    assert not any(n in json.dumps(seen["log"]) for n in names)  # an opening hand's log entry names no card


class Stream:
    """A page's event stream (`api/events?carry=state`), read an event at a time: (its name, its data)."""

    def __init__(self, t: Table, **asker) -> None:
        sent = authorization(player=asker.get("token"), host=t.host if asker.get("host") else None)
        self.connection = http.client.HTTPConnection("127.0.0.1", t.port, timeout=10)
        self.connection.request("GET", "/api/events?carry=state", headers=sent)
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.connection.close()

    def event(self) -> tuple[str, str]:
        name, data = "message", ""
        while (line := self.answer.readline().decode()) not in ("\n", ""):
            if line.startswith("event: "):
                name = line[7:].strip()
            elif line.startswith("data: "):
                data = line[6:].rstrip("\n")
        return name, data

    def next(self, kind: str) -> dict:
        name, data = self.event()
        assert name == kind, (name, data[:200])
        return json.loads(data) if kind == "state" else {"number": int(data)} if kind == "change" else {}


def raw_status(t: Table, path: str, etag: str, **asker) -> int:
    sent = authorization(player=asker.get("token"), host=t.host if asker.get("host") else None)
    connection = http.client.HTTPConnection("127.0.0.1", t.port, timeout=10)
    try:
        connection.request("GET", path, headers={**sent, "If-None-Match": etag})
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_pages_stream_carries_its_own_state_at_each_change_and_its_own_change_by_number(seated):
    """Each page's stream tells every change with the state its asker may see (Anna's hand to Anna alone), made
    at the change (a seat the host released is told a spectator's table at once); the asker's own change comes as
    its number, since its action's answer carried the state."""
    kept(seated, "Anna")
    with Stream(seated, token=seated.tokens["Anna"]) as anna, Stream(seated, token=seated.tokens["Ben"]) as ben, \
            Stream(seated) as nobody:
        for stream in (anna, ben, nobody):
            stream.next("state")
        def holds() -> set[str]:
            anna_seen = seated.player("Anna")
            return {c["id"] for c in [*anna_seen["cards"], *filter(None, [anna_seen["pending"]])]}

        before = holds()
        assert seated.as_("Anna", "/api/draw")[0] == 200
        drawn = holds() - before
        assert drawn and anna.next("change")["number"] == seated.changes.count  # hers: the number alone
        for stream in (ben, nobody):
            told = stream.next("state")["state"]
            assert told["change"] == seated.changes.count
            assert not any(card in json.dumps(told) for card in drawn)  # Anna's card, never in another's push
        assert seated.as_("Ben", "/api/life", {"whose": "Ben", "delta": -1})[0] == 200
        mine = anna.next("state")["state"]
        assert mine["you"] == "Anna" and all(card in json.dumps(mine) for card in drawn)  # hers, in her push
        assert ben.next("change") and nobody.next("state")
        assert seated.call("/api/host/release", {"player": "Anna"}, host=True)[0] == 200
        assert anna.next("state")["state"]["you"] is None  # her old phone sees a spectator's table at once


def test_a_page_entering_the_table_wakes_no_other_page(seated):
    """POST api/enter sets the entering page's cookies and changes nothing another page sees: it once bumped the
    table, so every phone opening the page pushed a full state to every page of the table. The next push a
    watching page gets is the next action's."""
    before = seated.changes.count
    with Stream(seated) as watching:
        assert watching.next("state")["state"]["change"] == before
        sent = [(b"Content-Type", b"application/json")]
        for body in (b"{}", json.dumps({"host": seated.host}).encode()):
            assert raw(seated, "POST", "/api/enter", sent, body)[0] == 200
        assert seated.changes.count == before
        assert seated.as_("Ben", "/api/life", {"whose": "Ben", "delta": -1})[0] == 200
        assert watching.next("state")["state"]["change"] == before + 1  # the life, not an entering page


def test_a_pages_stream_says_it_is_alive_as_an_event_the_page_sees():
    """A comment line keeps a script's stream alive; a page cannot see one, so its stream says `alive` (a page
    whose stream was silent for 40 s opens it again)."""
    from hhdcli.table.game.changes import Changes

    quiet = Changes()  # no change comes: only the keep-alives, every 50 ms here
    stream = quiet.stream(keepalive=0.05, told=lambda number: f"event: state\ndata: {number}\n\n")
    assert [next(stream) for _ in range(3)] == ["retry: 1000\nevent: state\ndata: 0\n\n", "event: alive\ndata: \n\n",
                                            "event: alive\ndata: \n\n"]


@pytest.mark.parametrize("data, headers, status", [
    (b'{}', [(b"Origin", b"https://evil.example")], 403),
    (b'player=Anna', [(b"Content-Type", b"application/x-www-form-urlencoded")], 415),
    (b'{}', [(b"Content-Type", b"text/plain")], 415),
    (b'{"name": "' + b"x" * 70_000 + b'"}', [], 413),
    (b"[" * 5000 + b"]" * 5000, [], 400),
    (b'{"name": "\\ud800"}', [], 400),
    (b'{"position": 9223372036854775808}', [], 400),
    (b'{"name": NaN}', [], 400),
    (b'\xff\xfe{}', [], 400),
])
def test_hostile_requests_are_a_4xx_json_error(seated, capfd, data, headers, status):
    path = "/api/to-sideboard" if b"position" in data else "/api/own-card"
    sent = [(b"Authorization", f"Table player={seated.tokens['Anna']}".encode()), *headers]
    if not any(name == b"Content-Type" for name, _ in headers):
        sent.append((b"Content-Type", b"application/json"))
    got, answer = raw(seated, "POST", path, sent, data)
    assert got == status and json.loads(answer)["error"]
    assert "Traceback" not in capfd.readouterr().err


def test_a_loopback_table_answers_only_to_loopback_names(seated):
    status, answer = raw(seated, "GET", "/api/state", [(b"Host", b"evil.example")])
    assert status == 403 and json.loads(answer)["error"]


def test_off_loopback_every_request_needs_the_join_code_in_a_cookie_or_authorization_never_in_the_address(coded):
    assert raw(coded, "GET", "/api/state", [])[0] == 403
    assert raw(coded, "GET", "/api/state", [(b"Cookie", b"hhd_code=wrong")])[0] == 403
    assert raw(coded, "GET", "/api/state?code=s3cret", [])[0] == 403
    for old in (b"X-Join-Code", b"X-Player-Token", b"X-Host-Secret"):  # the old headers, which proxies log
        assert raw(coded, "GET", "/api/state", [(old, b"s3cret")])[0] == 403
    assert raw(coded, "GET", "/api/state", [(b"Cookie", b"hhd_code=s3cret")])[0] == 200
    assert raw(coded, "GET", "/api/state", [(b"Authorization", b"Table code=s3cret")])[0] == 200
    token = coded.seat("Anna")  # tablekit sends the code in Authorization
    kept(coded, "Anna")
    assert coded.call("/api/draw", {}, token=token)[0] == 200
    cookie = f"hhd_code=s3cret; hhd_player={token}".encode()
    assert json.loads(raw(coded, "GET", "/api/state", [(b"Cookie", cookie)])[1])["you"] == "Anna"
    headers = [(b"X-Player-Token", token.encode()), (b"Authorization", b"Table code=s3cret")]
    assert json.loads(raw(coded, "GET", "/api/state", headers)[1])["you"] is None


def test_a_page_trades_the_code_and_the_hosts_secret_for_cookies_of_its_tables_path(coded):
    """POST api/enter, as the join page's script sends what the address brought after #: the cookies it sets
    are HttpOnly, SameSite=Strict and for the table's path; a wrong code or secret sets nothing."""
    sent = [(b"Content-Type", b"application/json")]
    assert raw(coded, "POST", "/api/enter", sent, b'{"code": "wrong"}')[0] == 403
    assert raw(coded, "POST", "/api/enter", sent, json.dumps({"code": "s3cret", "host": "guessed"}).encode())[0] == 403
    connection = http.client.HTTPConnection("127.0.0.1", coded.port, timeout=10)
    connection.request("POST", "/api/enter", json.dumps({"code": "s3cret", "host": coded.host}),
                       {"Content-Type": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 200 and json.loads(answer.read()) == {"host": True}
    cookies = answer.headers.get_all("Set-Cookie")
    connection.close()
    assert sorted(c.split("=")[0] for c in cookies) == [f"hhd_code_{coded.port}", f"hhd_host_{coded.port}"]
    assert all("HttpOnly" in c and "SameSite=Strict" in c and "Path=/;" in c + ";" for c in cookies)
    kept = "; ".join(c.split(";")[0] for c in cookies).encode()
    assert json.loads(raw(coded, "GET", "/api/state", [(b"Cookie", kept)])[1])["host"] is True


def test_a_card_that_makes_tokens_lists_them_and_a_tokens_face_is_anyones(seated):
    """A drawn card that makes tokens says which (its description's `tokens`, the page's "Makes a token"
    buttons), each with its face's address: a token is public, so anyone's request gets its face, in either
    language; an id no token of the library has is a 404."""
    import urllib.error
    import urllib.request

    from hhdcli.tokens import library_tokens

    views = seated.session.views
    makers = {p for p in seated.session.cards if views.made_by(p, "en")}
    assert makers
    while True:
        waiting(seated)
        pending = seated.player("Anna")["pending"]
        if pending["position"] in makers:
            break
        assert seated.as_("Anna", "/api/decline")[0] == 200
    card = seated.session.cards[pending["position"]]
    assert sorted(t["name"] for t in pending["tokens"]) == sorted(n.token.name for n in library_tokens([card]))
    for token in pending["tokens"]:
        for address in (token["face"], token["face"].replace("tokens/en/", "tokens/ru/")):
            with urllib.request.urlopen(f"{seated.url}/{address}", timeout=20) as answer:  # no seat, no secret
                assert answer.status == 200 and answer.read()[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(seated.url + "/tokens/en/token-not-a-token.png", timeout=20)
    assert missing.value.code == 404 and "no token" in json.loads(missing.value.read())["error"]


def test_the_language_a_page_remembers_is_a_cookie_no_script_reads(seated):
    connection = http.client.HTTPConnection("127.0.0.1", seated.port, timeout=10)
    try:
        connection.request("GET", "/?lang=ru")
        answer = connection.getresponse()
        answer.read()
        cookie = answer.getheader("Set-Cookie")
    finally:
        connection.close()
    assert answer.status == 200 and cookie.startswith("hhd_lang=ru;") and "HttpOnly" in cookie
