"""`hhd serve` bounds what one visitor may cost the others: pasted decks' sizes, the number of tables and their
megabytes (new tables refused, open ones go on), short-code guesses from every address together, IPv6 askers
by their /64 — and its per-address limits still let a game store play four tables behind one address."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest
from tablekit import authorization
from test_table_community import Server, at, opened

from hhdcli.cache import load_cache
from hhdcli.table.hosting.community import MAX_DECK_LINES, MAX_DECK_TEXT, Community, Full, Seat
from hhdcli.table.hosting.online import Public
from hhdcli.table.hosting.opening import stream_changes
from hhdcli.table.hosting.throttle import Throttle, asker_of


def ask_from(port: int, source: str, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """A request from one of loopback's addresses (127.0.0.0/8 are all this computer's)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    connection.request(method, path, body=body, headers=headers or {})
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, data


def test_ipv6_askers_are_counted_by_their_64_and_ipv4_ones_by_their_address():
    assert asker_of("2001:db8:1:2:aaaa::1") == asker_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert asker_of("2001:db8:1:3::1") != asker_of("2001:db8:1:2::1")
    assert asker_of("::ffff:192.0.2.7") == "192.0.2.7" and asker_of("192.0.2.7") == "192.0.2.7"
    throttle = Throttle({"short": "2/minute"})
    assert [throttle.wait("short", f"2001:db8:1:2::{n}") for n in range(1, 4)][2] > 0  # one host, three addresses


@pytest.fixture(name="server")
def server_fixture(legacy_cache, tmp_path):
    running = Server(legacy_cache, tmp_path / "tables", "--max-tables", "5")
    yield running
    if running.process.poll() is None:
        running.stop()


def test_pasted_decks_are_bounded_and_a_full_server_refuses_new_tables_but_not_an_open_ones_actions(server):
    status, page = server.open({"name0": "Anna", "deck0": "1 Forest\n" * (MAX_DECK_TEXT // 9 + 1)})
    assert status == 400 and "a deck list is at most 60000 characters and 1000 lines" in page
    status, page = server.open({"name0": "Anna", "deck0": "1\n" * MAX_DECK_LINES})
    assert status == 400 and "at most 60000 characters and 1000 lines" in page
    codes = [opened(server.open({"name0": "Anna", "colors0": "R", "seed": f"full-{n}"})[1])["code"]
             for n in range(5)]
    status, page = server.open({"name0": "Anna", "colors0": "R"})
    assert status == 507 and "as many tables as it may" in page
    status, _headers, data = server.ask("POST", "/open?lang=ru", b"name0=Anna&colors0=R",
                                        {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 507 and "столько столов, сколько он может хранить" in data.decode()
    token = server.api("/api/join", codes[0], {"player": "Anna"})[1]["token"]
    assert server.api("/api/life", codes[0], {"whose": "Anna", "delta": -2}, token)[0] == 200


def test_a_server_over_its_megabytes_refuses_a_new_table(legacy_cache, tmp_path):
    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes,
                          max_megabytes=0.05)  # one table's library and session are some 60 KB
    community.open([Seat("Anna", "R")], "mb-1", None)
    with pytest.raises(Full):
        community.open([Seat("Anna", "R")], "mb-2", None)
    assert len(list((tmp_path / "tables").iterdir())) == 1


def test_short_code_guesses_are_bounded_for_every_address_together(server):
    said = []
    for n in range(70):  # 10 guesses from each of 7 addresses: each address's own rule lets all through
        status, data = ask_from(server.port, f"127.0.0.{2 + n // 10}", "POST", "/join", b"short=ABCD-EFG" + b"H",
                                {"Content-Type": "application/x-www-form-urlencoded"})
        said.append(status)
    assert said[:60] == [404] * 60 and set(said[60:]) == {429}


def test_a_game_store_plays_four_tables_of_six_behind_one_address(legacy_cache, tmp_path):
    """24 pages behind one address (a store's NAT): each takes its seat, listens to its table's events and acts
    15 times (an action every 4 seconds for a minute, a busy game's pace, sent at once here), reading its state
    every few actions. None is refused."""
    server = Server(legacy_cache, tmp_path / "tables")
    names = ["Anna", "Ben", "Cleo", "Dana", "Egor", "Fay"]
    try:
        codes = []
        for table in range(4):
            fields = {f"name{n}": name for n, name in enumerate(names)} | \
                {f"colors{n}": "RG" for n in range(6)} | {"seed": f"store-{table}"}
            status, page = server.open(fields)
            assert status == 201, page
            codes.append(opened(page)["code"])
        pages = [(code, name) for code in codes for name in names]
        tokens = {}
        for code, name in pages:
            status, answer = server.api("/api/join", code, {"player": name})
            assert status == 200, answer
            tokens[code, name] = answer["token"]
        streams = []
        for code, name in pages:  # each page's event stream, held open while the others act
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
            connection.request("GET", at(code, "/api/events"), headers=authorization(code, tokens[code, name]))
            answer = connection.getresponse()
            assert answer.status == 200
            streams.append(connection)
        statuses: list[int] = []
        started = time.monotonic()

        def page_acts(code: str, name: str) -> None:  # one page: its own kept-alive connection
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
            headers = authorization(code, tokens[code, name]) | {"Content-Type": "application/json"}
            for action in range(15):
                for method, path, body in [("POST", "/api/life", {"whose": name, "delta": -1})] + \
                        ([("GET", "/api/state", None)] if action % 5 == 0 else []):
                    connection.request(method, at(code, path), None if body is None else json.dumps(body), headers)
                    answer = connection.getresponse()
                    answer.read()
                    statuses.append(answer.status)
            connection.close()

        acting = [threading.Thread(target=page_acts, args=page) for page in pages]
        for thread in acting:
            thread.start()
        for thread in acting:
            thread.join()
        took = time.monotonic() - started
        assert statuses.count(200) == len(statuses) == 24 * 15 + 24 * 3, sorted(set(statuses))
        for connection in streams:
            connection.close()
        print(f"\n24 pages behind one address: {len(statuses)} requests in {took:.1f} s, none refused")
    finally:
        server.stop()


def test_opening_a_table_with_eight_of_the_largest_decks_keeps_another_tables_reads_quick(legacy_cache, tmp_path):
    """The heavy part of opening a table (eight pasted decks of the largest size read, a library drawn, the
    session written) runs off the server's loop: another table's state reads go on meanwhile. The issue's bound
    is 50 ms; the margin here is for a loaded machine (the figure is printed)."""
    server = Server(legacy_cache, tmp_path / "tables")
    try:
        code = opened(server.open({"name0": "Anna", "colors0": "R", "seed": "quiet-1"})[1])["code"]
        line = "1 Ancestral Recall of the Long Forgotten Hellscube Archive, Second Printing\n"  # 75 characters
        deck = "20 Forest\n" + line * ((MAX_DECK_TEXT - 10) // len(line))  # a deck: a text naming no card is refused
        fields = {f"name{n}": f"P{n}" for n in range(8)} | {f"deck{n}": deck for n in range(8)} | {"seed": "big-1"}
        waits: list[float] = []
        idle: list[float] = []  # the same reads before the opening: what this machine takes anyway
        opening = threading.Event()
        done = threading.Event()

        def read() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
            while not done.is_set():
                started = time.perf_counter()
                connection.request("GET", at(code, "/api/state"), headers=authorization(code))
                connection.getresponse().read()
                (waits if opening.is_set() else idle).append(time.perf_counter() - started)
                time.sleep(0.005)
            connection.close()

        reader = threading.Thread(target=read)
        reader.start()
        deadline = time.monotonic() + 20
        while len(idle) < 5 and time.monotonic() < deadline:  # the table loaded, its reads as this machine serves them
            time.sleep(0.05)
        opening.set()
        started = time.perf_counter()
        status, page = server.open(fields)
        took = time.perf_counter() - started
        done.set()
        reader.join()
        assert status == 201, page
        waits.sort()
        idle.sort()
        print(f"\nopening with 8 decks of {len(deck)} characters: {took * 1000:.0f} ms; another table's "
              f"{len(waits)} reads meanwhile: median {waits[len(waits) // 2] * 1000:.1f} ms, "
              f"longest {waits[-1] * 1000:.1f} ms (before: median {idle[len(idle) // 2] * 1000:.1f} ms)")
        assert len(waits) >= 3 and waits[-1] < max(0.25, took / 4)
    finally:
        server.stop()


def test_a_long_pasted_list_is_read_in_a_process_of_its_own_and_its_refusal_comes_back_whole():
    """A list of LONG_LIST characters or more is read by the server's worker process (so the interpreter's lock
    stays with the loop): the same deck as read here, and hhd's refusal with its next step, as raised here."""
    import os

    from hhdcli.decklists import parse_deck
    from hhdcli.errors import InputError
    from hhdcli.table.web import offloop

    listed = "4 Lightning Bolt\n20 Mountain\n" * (offloop.LONG_LIST // 20)
    assert offloop.parsed_apart(listed, "Anna") == parse_deck(listed, "Anna")
    assert offloop._worker is not None and os.getpid() not in offloop._worker._processes  # read apart
    not_json = "{" + " " * offloop.LONG_LIST
    with pytest.raises(InputError) as here:
        parse_deck(not_json, "Anna")
    with pytest.raises(InputError) as apart:
        offloop.parsed_apart(not_json, "Anna")
    assert (apart.value.message, apart.value.hint) == (here.value.message, here.value.hint)
    assert offloop.parsed_apart("4 Forest", "Ben").main[0].name == "Forest"  # a short one here, at once
