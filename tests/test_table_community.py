"""`hhd serve`: many tables on one server. The front page (en/ru, static CSS, no inline script or style) opens a
table from a seed or an uploaded library file; players join by link or a typed short code (rate-limited);
each table is its own folder that no other table sees, survives kill -9, is refused alone when damaged and is
deleted after --expire idle days."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from limits import parse
from tablekit import authorization, free_port

from hhdcli.cache import load_cache
from hhdcli.table.hosting.community import UNLOAD_AFTER, Community, Seat, table_id
from hhdcli.table.hosting.online import Public
from hhdcli.table.hosting.opening import stream_changes
from hhdcli.table.hosting.throttle import RULES, Throttle
from hhdcli.table.web.context import SERVED
from support import code_messages


def table_client(community: Community, code: str):
    """A test client of the server's tables' app, its requests for the table with this code (as the dispatcher
    hands them on)."""
    found = community.table_for(code)
    assert found is not None and not isinstance(found, str)
    client = community.app.test_client()
    client.environ_base[SERVED] = found
    return client


class Server:
    """`hhd serve` as a process on 127.0.0.1."""

    def __init__(self, cache: Path, root: Path, *args: str, port: int | None = None) -> None:
        self.port, self.root = port or free_port(), root
        env = {**os.environ, "HHD_CACHE_DIR": str(cache), "HHD_TABLE_PORT": str(self.port)}
        self.process = subprocess.Popen([sys.executable, "-m", "hhdcli", "serve", "--dir", str(root), *args],
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith(("open http://", "open https://")):
            self.process.kill()
            raise AssertionError(line or self.process.communicate(timeout=10)[1][-2000:])

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data

    def api(self, path: str, code: str, body: object = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"} | authorization(code, token)
        status, _headers, data = self.ask("POST" if body is not None else "GET", at(code, path),
                                          None if body is None else json.dumps(body).encode(), headers)
        return status, json.loads(data)

    def open(self, fields: dict[str, str], upload: bytes | None = None, headers: dict[str, str] | None = None
             ) -> tuple[int, str]:
        boundary = uuid.uuid4().hex
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                 for k, v in fields.items()]
        if upload is not None:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="library"; filename="lib.json"\r\n'
                         f"Content-Type: application/json\r\n\r\n".encode() + upload + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        status, _headers, data = self.ask("POST", "/open", body,
                                          {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                           **(headers or {})})
        return status, data.decode()

    def stop(self, sig: int = signal.SIGTERM) -> tuple[str, str]:
        self.process.send_signal(sig)
        return self.process.communicate(timeout=10)


def at(code: str, path: str) -> str:
    """Where the table with this code answers `path` (its address: /t/<id>/, the id grants nothing)."""
    return f"/t/{table_id(code)}{path}"


def opened(page: str) -> dict[str, str]:
    """The links and codes of the "your table is open" page (the code and the host's secret after #)."""
    board = re.search(r'id="board" class="link" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    short = re.search(r'id="short">([^<]+)<', page).group(1)
    code = board.split("#code=")[1].split("&")[0]
    return {"board": board, "short": short, "code": code, "host": board.split("&host=")[1]}


@pytest.fixture(name="server")
def server_fixture(legacy_cache, tmp_path):
    running = Server(legacy_cache, tmp_path / "tables")
    yield running
    if running.process.poll() is None:
        running.stop()


def test_the_front_page_speaks_both_languages_with_no_inline_script_or_style(server):
    for lang, words in (("en", "Open a table"), ("ru", "Открыть стол")):
        status, headers, data = server.ask("GET", f"/?lang={lang}")
        page = data.decode()
        assert status == 200 and words in page and f'lang="{lang}"' in page
        assert "<script" not in page and "<style" not in page and " style=" not in page
        assert 'href="/static/front.css"' in page
        assert "script-src 'self'" in headers["content-security-policy"]
    status, headers, css = server.ask("GET", "/static/front.css")
    assert status == 200 and headers["content-type"].startswith("text/css") and b"body" in css


def test_a_table_opened_from_a_seed_seats_its_players_and_its_board_is_the_hosts(server):
    deck = "20 Mountain\n18 Forest\n22 Grizzly Bears\n"
    status, page = server.open({"name0": "Anna", "colors0": "WU", "name1": "Ben", "deck1": deck,
                                "seed": "ember-tide-42"})
    assert status == 201, page
    table = opened(page)
    assert len(table["code"]) >= 14 and re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", table["short"])
    assert 'class="qr" src="data:image/svg+xml' in page  # drawn in the page: no address of it carries the code
    state = server.api("/api/state", table["code"])[1]
    assert [(p["name"], p["colors"]) for p in state["players"]] == [("Anna", "WU"), ("Ben", "RG")]
    assert state["library_count"] == 97 and state["join_url"].endswith(f"/t/{table_id(table['code'])}/#code={table['code']}")
    assert table["board"] == f"{state['join_url']}&host={table['host']}"
    token = server.api("/api/join", table["code"], {"player": "Anna"})[1]["token"]
    assert server.api("/api/opening-hand", table["code"], {}, token)[0] == 200
    assert server.api("/api/keep", table["code"], {"bottom": []}, token)[0] == 200
    assert server.api("/api/draw", table["code"], {}, token)[0] == 200
    status, headers, _ = server.ask("POST", at(table["code"], "/api/host/release"),
                                    json.dumps({"player": "Anna"}).encode(),
                                    {"Content-Type": "application/json"} | authorization(table["code"], host=table["host"]))
    assert status == 200
    qr_status, qr_headers, _svg = server.ask("GET", at(table["code"], "/qr.svg"), headers=authorization(table["code"]))
    assert qr_status == 200 and qr_headers["content-type"].startswith("image/svg+xml")


def test_a_table_opened_with_a_starting_life_starts_its_players_there_and_a_bad_one_is_refused(server):
    status, page = server.open({"name0": "Anna", "colors0": "R", "seed": "ember-tide-42", "life": "30"})
    assert status == 201, page
    state = server.api("/api/state", opened(page)["code"])[1]
    assert state["life_start"] == 30 and [p["life"] for p in state["players"]] == [30]
    for typed in ("0", "1000", "lots"):
        status, page = server.open({"name0": "Anna", "colors0": "R", "seed": "ember-tide-42", "life": typed})
        assert status == 400 and "the starting life is a number from 1 to 999" in page
    assert len(list((server.root / "tables").iterdir())) == 1  # the refused ones left no folder


def test_a_seats_deck_and_colors_are_read_as_a_phones_are_and_refused_naming_the_seat(server):
    """The front page reads a seat's pasted deck or letters as a phone's /api/deck does (one reading): letters that
    are no colors, and a deck list of no cards, are refused naming whose seat, and open no table."""
    for fields, said in (({"colors0": "RX"}, "Anna: colors are the letters W U B R G P"),
                         ({"deck0": "my notes about the deck.\\nremember to sleeve it."}, "Anna: no cards read from the deck list")):
        status, page = server.open({"name0": "Anna", "seed": "ember-tide-42", **fields})
        assert status == 400 and said in page, page
    status, page = server.open({"name0": "Anna", "seed": "ember-tide-42", "deck0": "4 Mountain\n4 Forest"})
    state = server.api("/api/state", opened(page)["code"])[1]
    assert status == 201 and [p["colors"] for p in state["players"]] == ["RG"]
    assert len(list((server.root / "tables").iterdir())) == 1  # the refused ones left no folder


def test_a_chat_message_pasted_as_a_deck_is_refused_in_the_openers_language_not_seated_colorless(server):
    """A text naming no card hhd knows once made a colorless player with no word on the page: it is refused,
    naming the seat, in the opener's language, and opens no table."""
    chat = {"name0": "Anna", "seed": "ember-tide-42", "deck0": "hey guys, here is my deck, it is great"}
    status, page = server.open(chat)
    assert status == 400 and "Anna: no card found in the deck list" in page, page
    status, page = server.open(chat, headers={"Accept-Language": "ru"})
    assert status == 400 and "Anna: в списке колоды не найдено ни одной карты" in page, page
    assert not list((server.root / "tables").iterdir())


def test_a_typed_short_code_leads_to_the_table_and_guessing_is_rate_limited(server):
    table = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "short-1"})[1])
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, headers, _ = server.ask("POST", "/join", f"short={table['short'].lower()}".encode(), form)
    path = f"/t/{table_id(table['code'])}/"  # the code itself in the table's cookie, never in the Location
    assert status == 303 and headers["location"] == path and table["code"] not in headers["location"]
    cookie = headers["set-cookie"]
    assert f"hhd_code={table['code']}" in cookie and f"Path={path}" in cookie and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert server.ask("GET", path, headers={"Cookie": cookie.split(";")[0]})[0] == 200
    tries = [server.ask("POST", "/join", b"short=ZZZZ-ZZZZ", form)[0] for _ in range(10)]
    assert tries[:9] == [404] * 9 and tries[9] == 429  # the first right try counted too
    status, headers, page = server.ask("POST", "/join", f"short={table['short']}".encode(), form)
    assert status == 429 and int(headers["retry-after"]) > 0


def test_a_served_table_counts_every_post_per_address_as_hhd_table_does(server):
    """Each table is built as `hhd table`'s (online.table_app): an address's POST beyond its minute's share is
    a 429 in its language (tests/test_table_online.py checks `hhd table --public-url` the same way)."""
    table = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "posts-1"})[1])
    headers = {"Content-Type": "application/json", "Accept-Language": "ru"} | authorization(table["code"])
    body = json.dumps({"code": table["code"]}).encode()
    most = parse(RULES["post"]).amount  # an address's POSTs a minute (throttle.py)
    assert {server.ask("POST", at(table["code"], "/api/enter"), body, headers)[0] for _ in range(most)} == {200}
    status, headers, answer = server.ask("POST", at(table["code"], "/api/enter"), body, headers)
    assert status == 429 and "слишком много запросов" in json.loads(answer)["error"]
    guarded(headers)


def test_the_front_pages_own_refusals_are_pages_in_the_askers_language_with_the_guards(server):
    from hhdcli.table.web.i18n import translations

    russian = translations("ru").gettext
    for method, path, status, said in (("GET", "/no-such-page", 404, "Not Found"),
                                       ("GET", "/open", 405, "Method Not Allowed")):
        got, headers, page = server.ask(method, path, headers={"Accept-Language": "ru"})
        assert got == status and russian(said) in page.decode() and '<html lang="ru">' in page.decode()
        guarded(headers)


def test_a_form_of_another_site_opens_no_table(server):
    status, headers, _ = server.ask("POST", "/join", b"short=ABCD-EFGH",
                                    {"Content-Type": "application/x-www-form-urlencoded",
                                     "Origin": "https://evil.example"})
    assert status == 403


def test_an_uploaded_library_is_checked_as_hhd_show_checks_it(server, library, tmp_path):
    status, page = server.open({"name0": "Anna", "colors0": "RG"}, library.read_bytes())
    assert status == 201
    table = opened(page)
    assert server.api("/api/state", table["code"])[1]["seed"] == "ember-tide-42"
    broken = json.loads(library.read_text())
    broken["cards"] = broken["cards"][:3]  # "size" says 97
    status, page = server.open({"name0": "Anna", "colors0": "RG"}, json.dumps(broken).encode())
    assert status == 400 and "library file" in page and str(tmp_path) not in page
    assert len(list((server.root / "tables").iterdir())) == 1  # the refused one left nothing behind


CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_control_characters_in_an_uploaded_librarys_card_names_never_reach_a_page(server, library):
    """A library file uploaded to hhd serve holds what its sender wrote: a card copy named with ESC, BEL and NUL
    (cards the card data does not know are shown from their copy) is shown without them, in the dealt hand and
    in /api/state, never raw."""
    document = json.loads(library.read_text())
    hostile = [entry for entry in document["cards"] if entry.get("card")]  # the Hell cards (basics keep no copy)
    for i, entry in enumerate(hostile, 1):
        entry["position"] = i
        entry["id"] = entry["card"]["id"] = f"not-in-the-data-{i}"
        entry["name"] = entry["card"]["name"] = f"Evil\x1b]0;pwned\x07 Card\x00 {i}"
        entry["card"]["faces"][0]["name"] = entry["card"]["name"]
        entry["card"].pop("image", None)  # nor found by its picture
    document["cards"], document["size"] = hostile, len(hostile)
    status, page = server.open({"name0": "Anna", "colors0": "RG"}, json.dumps(document).encode())
    assert status == 201, page
    code = opened(page)["code"]
    token = server.api("/api/join", code, {"player": "Anna"})[1]["token"]
    status, dealt = server.api("/api/opening-hand", code, {}, token)
    assert status == 200 and dealt["cards"], dealt
    assert all(re.fullmatch(r"Evil\]0;pwned Card \d+", card["name"]) for card in dealt["cards"]), dealt
    status, state = server.api("/api/state", code, token=token)
    shown = json.dumps(state, ensure_ascii=False)
    assert status == 200 and "Evil]0;pwned Card" in shown and not CONTROLS.search(shown)


def test_tables_do_not_see_each_other(server):
    first = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "one-1"})[1])
    second = opened(server.open({"name0": "Zoe", "colors0": "G", "seed": "two-2"})[1])
    assert [p["name"] for p in server.api("/api/state", first["code"])[1]["players"]] == ["Anna"]
    assert [p["name"] for p in server.api("/api/state", second["code"])[1]["players"]] == ["Zoe"]
    token = server.api("/api/join", first["code"], {"player": "Anna"})[1]["token"]
    assert server.api("/api/draw", second["code"], {}, token)[0] == 401  # Anna's seat is not at Zoe's table
    assert server.api("/api/state", "not-a-table-code")[0] == 404
    status, headers, page = server.ask("GET", at("not-a-table-code", "/"))
    assert status == 404 and b"No table is at this address" in page
    guarded(headers)
    status, headers, page = server.ask("GET", at("not-a-table-code", "/api/state"), headers={"Accept-Language": "ru"})
    assert status == 404 and "По этому адресу стола нет" in json.loads(page)["error"]
    guarded(headers)
    status, headers, _ = server.ask("GET", f"/t/{table_id(first['code'])}?lang=ru")  # the slash the page needs
    assert status == 308 and headers["location"] == f"/t/{table_id(first['code'])}/?lang=ru"
    assert server.ask("GET", "/t/%0d%0aSet-Cookie:%20x=1")[0] == 404
    assert server.api("/api/state", first["code"] + "x")[0] == 404  # another code: another address


def test_kill_9_and_a_restart_resume_every_table_and_a_damaged_one_is_refused_alone(legacy_cache, tmp_path):
    server = Server(legacy_cache, tmp_path / "tables")
    kept = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "kept-1"})[1])
    broken = opened(server.open({"name0": "Ben", "colors0": "G", "seed": "broken-1"})[1])
    token = server.api("/api/join", kept["code"], {"player": "Anna"})[1]["token"]
    assert server.api("/api/opening-hand", kept["code"], {}, token)[0] == 200
    assert server.api("/api/keep", kept["code"], {"bottom": []}, token)[0] == 200
    assert server.api("/api/draw", kept["code"], {}, token)[0] == 200
    before = server.api("/api/state", kept["code"], token=token)[1]
    server.process.kill()  # kill -9, mid-evening
    server.process.communicate(timeout=10)
    state = tmp_path / "tables" / "tables" / table_id(broken["code"]) / "state.sqlite"
    state.write_bytes(b"\0" * 4096)
    again = Server(legacy_cache, tmp_path / "tables")
    try:
        mine = again.api("/api/state", kept["code"], token=token)[1]
        assert before["log"] and (mine["log"], mine["players"][0]["cards"], mine["library_count"]) == \
            (before["log"], before["players"][0]["cards"], before["library_count"])
        status, answer = again.api("/api/state", broken["code"])
        assert status == 503 and "damaged" in answer["error"]
        status, headers, page = again.ask("GET", at(broken["code"], "/?lang=ru"))
        assert status == 503 and "повреждено" in page.decode()
        guarded(headers)
        assert again.api("/api/state", kept["code"])[0] == 200  # the others go on
    finally:
        out, err = again.stop()
    said = [line for line in err.splitlines() if "refused" in line]
    assert len(said) == 1 and table_id(broken["code"])[:12] in said[0] and broken["code"] not in err


def guarded(headers: dict[str, str]) -> None:
    """The guards every answer carries, the dispatcher's own too (hhdcli/table/hosting/online.py's Guarded)."""
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin" and headers["x-content-type-options"] == "nosniff"


def test_sigterm_stops_the_server_within_5_seconds(server):
    table = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "stop-1"})[1])
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", at(table["code"], "/api/events"), headers=authorization(table["code"]))
    stream = connection.getresponse()
    assert stream.status == 200 and stream.readline().startswith(b"retry:")
    asked = time.monotonic()
    out, err = server.stop()
    assert time.monotonic() - asked < 5 and server.process.returncode == 0
    assert "Traceback" not in err and table["code"] not in err + out and table["host"] not in err + out


def test_a_table_idle_past_expire_is_deleted_with_its_short_code(legacy_cache, tmp_path):
    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes, expire=86400)
    idle = community.open([Seat("Anna", "R")], "idle-1", None)
    busy = community.open([Seat("Ben", "G")], "busy-1", None)
    assert community.code_for_short(idle.short) == idle.code
    later = time.time() + 2 * 86400
    os.utime(tmp_path / "tables" / table_id(busy.code) / "state.sqlite", (later, later))  # acted at since
    assert community.sweep(now=later + 10) == [table_id(idle.code)]
    assert community.table_for(idle.code) is None and community.code_for_short(idle.short) is None
    assert community.table_for(busy.code) is not None


def test_a_table_nobody_listens_to_leaves_memory_after_two_minutes_closed_and_comes_back_at_its_next_request(
        legacy_cache, tmp_path):
    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes)
    idle = community.open([Seat("Anna", "R")], "idle-2", None)
    watched = community.open([Seat("Ben", "G")], "watched-2", None)
    for opened in (idle, watched):
        with table_client(community, opened.code) as client:
            assert client.post("/api/join", json={"player": "Anna" if opened is idle else "Ben"},
                               headers=authorization(opened.code)).status_code == 200
    stream = community.loaded[table_id(watched.code)].changes.stream("Ben")
    next(stream)  # Ben's page listens
    folder = tmp_path / "tables" / table_id(idle.code)
    assert (folder / "state.sqlite-wal").exists()
    now = time.monotonic()
    assert community.unload_idle(now + UNLOAD_AFTER - 5) == []  # not yet
    assert community.unload_idle(now + UNLOAD_AFTER + 1) == [table_id(idle.code)]  # the watched table stays
    assert sorted(p.name for p in folder.iterdir()) == ["library.json", "short", "state.sqlite"]  # closed, whole
    assert UNLOAD_AFTER <= 180
    with table_client(community, idle.code) as client:
        assert client.get("/api/state", headers=authorization(idle.code)).json["players"][0]["seated"] is True
    stream.close()


FRONT = ("hhdcli/templates/serve-front.html.j2", "hhdcli/templates/serve-opened.html.j2",
         "hhdcli/table/hosting/front.py", "hhdcli/table/hosting/throttle.py", "hhdcli/table/hosting/community.py")


def front_messages() -> set[str]:
    """The front page's words: its templates', the front's and the throttle's, and the opener's refusals and their
    hints, as the table catalog's one extraction (scripts/update_catalog.py) finds them there."""
    return {m.id for m in code_messages("table") if m.id and any(path in FRONT for path, _line in m.locations)}


def test_every_word_of_the_front_page_has_its_russian():
    from hhdcli.table.web.i18n import translations

    russian = translations("ru")
    messages = front_messages()
    assert len(messages) > 30 and sorted(m for m in messages if russian.gettext(m) == m) == []
    for message in messages:
        assert set(re.findall(r"{\w+}", message)) == set(re.findall(r"{\w+}", russian.gettext(message))), message


def test_a_tables_folder_that_cannot_be_written_is_one_line_before_any_port_is_taken(synced, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    result = synced("serve", "--dir", str(blocked / "tables"), "--port", str(free_port()))
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2 and len(lines) == 1 and "cannot keep tables in" in lines[0]
    assert "--dir" in result.output and "Traceback" not in result.output


def test_a_table_whose_state_file_is_another_tables_is_refused_alone(legacy_cache, tmp_path):
    """A table is found by its path's id and checked against the code its state file keeps: a folder holding
    another table's state file (copied over it) is refused, and the other table goes on."""
    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes, expire=86400,
                          log=lambda line: None)
    first = community.open([Seat("Anna", "R")], "same-1", None)
    second = community.open([Seat("Ben", "G")], "same-1", None)  # the same library: only the code tells
    folder = tmp_path / "tables" / table_id(second.code)
    for name in ("state.sqlite", "state.sqlite-wal", "state.sqlite-shm"):  # the first's session, whole
        (folder / name).unlink(missing_ok=True)
        if (tmp_path / "tables" / table_id(first.code) / name).exists():
            (folder / name).write_bytes((tmp_path / "tables" / table_id(first.code) / name).read_bytes())
    assert "another table" in str(community.table_for_id(table_id(second.code)))
    assert community.table_for_id(table_id(first.code)) is not None
    assert community.table_for_id("../" + table_id(first.code)[3:]) is None
