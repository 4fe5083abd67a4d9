"""The Hell table: a session run over real HTTP on loopback, as phones around a table would use it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from hhdcli.cache import load_cache
from hhdcli.library import load_library, resolve
from hhdcli.table.app import create_app
from hhdcli.table.serve import open_session


class Table:
    """`hhd table`'s app served on 127.0.0.1 in a thread; `call` speaks its JSON API."""

    def __init__(self, state: Path, library: Path, cache_dir: Path, code: str | None = None,
                 players: dict[str, tuple[str, ...]] | None = None) -> None:
        from werkzeug.serving import make_server

        self.library, self.cache_dir = library, cache_dir
        cache = load_cache(cache_dir)
        resolved = resolve(load_library(library), cache.cards)
        self.session, self.resumed = open_session(resolved, cache, players or PLAYERS, state)
        self.server = make_server("127.0.0.1", 0, create_app(self.session, code), threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def call(self, path: str, body: object = None, headers: dict[str, str] | None = None) -> tuple[int, dict]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, data=data, method="POST" if data is not None else "GET",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


PLAYERS = {"Anna": tuple("RG"), "Ben": tuple("WUB"), "Cleo": tuple("WUBRGP")}


@pytest.fixture
def table(legacy_cache, library, tmp_path):
    running = Table(tmp_path / "session.sqlite", library, legacy_cache)
    yield running
    running.stop()


def positions_in(state_file: Path, zone: str) -> list[int]:
    db = sqlite3.connect(state_file)
    try:
        return [row[0] for row in db.execute("SELECT position FROM cards WHERE zone = ? ORDER BY ord", (zone,))]
    finally:
        db.close()


def settle(table: Table, player: str) -> None:
    """Answer a waiting choice card, so the player may draw again."""
    status, state = table.call("/api/state")
    if next(p for p in state["players"] if p["name"] == player)["pending"]:
        assert table.call("/api/decline", {"player": player})[0] == 200


# --- the rules, through the API ---------------------------------------------------------------------------


def test_a_draw_reveals_the_top_card_with_the_players_verdict(table, library):
    names = [e["name"] for e in json.loads(library.read_text())["cards"]]
    top = positions_in(table.session.path, "library")[0]  # the top of the table's own secret order
    status, card = table.call("/api/draw", {"player": "Anna"})
    assert status == 200 and card["position"] == top and card["name"] == names[top - 1]
    assert card["verdict"] in ("land", "take", "choice") and card["reminder"]
    if card["verdict"] == "take":
        assert "{2} less" in card["reminder"]
    state = table.call("/api/state")[1]
    assert state["library_count"] == 96
    anna = next(p for p in state["players"] if p["name"] == "Anna")
    assert (anna["pending"] is not None) == (card["verdict"] == "choice")


def test_a_choice_waits_for_take_or_decline_and_decline_tops_the_sideboard(table):
    while True:  # Ben's deck makes W U B: draw until a card needs a colour he lacks
        status, card = table.call("/api/draw", {"player": "Ben"})
        assert status == 200
        if card["verdict"] == "choice":
            break
    assert card["missing"]
    again = table.call("/api/draw", {"player": "Ben"})
    assert again[0] == 409 and "take it or decline it first" in again[1]["error"]
    assert table.call("/api/decline", {"player": "Ben"})[0] == 200
    state = table.call("/api/state")[1]
    assert state["sideboard"][0]["position"] == card["position"]  # on top, open to everyone
    assert table.call("/api/take", {"player": "Ben"})[0] == 409  # nothing waiting any more
    status, played = table.call("/api/play-sideboard", {"player": "Anna"})
    assert status == 200 and played["position"] == card["position"]
    anna = next(p for p in table.call("/api/state")[1]["players"] if p["name"] == "Anna")
    assert card["position"] in [c["position"] for c in anna["cards"]]


def test_opening_hand_and_mulligan_to_the_bottom_unshuffled(table):
    order = positions_in(table.session.path, "library")
    status, hand = table.call("/api/opening-hand", {"player": "Cleo"})
    assert status == 200 and [c["position"] for c in hand["cards"]] == order[:2]
    status, back = table.call("/api/mulligan", {"player": "Cleo"})
    assert status == 200 and back["to_bottom"] == order[:2]
    assert positions_in(table.session.path, "library")[-2:] == order[:2]  # the bottom, in the order drawn
    assert [c["position"] for c in table.call("/api/opening-hand", {"player": "Cleo"})[1]["cards"]] == order[2:4]


def test_cards_leaving_the_game_go_to_the_sideboard(table):
    hand = table.call("/api/opening-hand", {"player": "Anna"})[1]["cards"]
    leaving = hand[1]["position"]
    status, moved = table.call("/api/to-sideboard", {"position": leaving})
    assert status == 200 and table.call("/api/state")[1]["sideboard"][0]["position"] == leaving
    still = positions_in(table.session.path, "library")[10]
    assert table.call("/api/to-sideboard", {"position": still})[0] == 409  # still in the library
    assert table.call("/api/to-sideboard", {"position": 999})[0] == 404


def test_end_of_game_puts_the_hell_cards_to_the_bottom_in_random_order(table):
    dealt = positions_in(table.session.path, "library")[:4]
    for player in ("Anna", "Ben"):
        table.call("/api/opening-hand", {"player": player})
    status, ended = table.call("/api/end-game", {})
    assert status == 200 and ended["game"] == 2 and sorted(ended["to_bottom"]) == sorted(dealt)
    assert positions_in(table.session.path, "library")[-4:] == ended["to_bottom"]
    state = table.call("/api/state")[1]
    assert state["game"] == 2 and state["log"][0]["action"] == "end of game"


def test_the_tables_order_is_secret_not_the_library_files_nor_the_seeds(table, legacy_cache, library, tmp_path):
    """The printed library keeps its order; the table shuffles with a secret of its own, so neither the file
    nor `hhd generate --seed SEED` tells the next Hell card, and another session of the same library differs."""
    order = positions_in(table.session.path, "library")
    assert sorted(order) == list(range(1, 98)) and order != list(range(1, 98))
    other = Table(tmp_path / "again.sqlite", library, legacy_cache)
    other.stop()
    assert positions_in(other.session.path, "library") != order
    text = json.dumps(table.call("/api/state")[1])
    db = sqlite3.connect(table.session.path)
    try:
        secret = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]
    finally:
        db.close()
    page = urllib.request.urlopen(table.url + "/", timeout=10).read().decode()
    assert len(secret) == 32 and secret not in text and secret not in page


def test_undo_takes_back_the_last_action(table):
    before = table.call("/api/state")[1]
    table.call("/api/opening-hand", {"player": "Anna"})
    table.call("/api/end-game", {})
    assert table.call("/api/undo", {})[1]["undone"] == "end of game"
    assert table.call("/api/undo", {})[1]["undone"] == "opening hand"
    after = table.call("/api/state")[1]
    assert {k: after[k] for k in ("library_count", "game", "sideboard", "players")} == {
        k: before[k] for k in ("library_count", "game", "sideboard", "players")}
    assert table.call("/api/undo", {})[0] == 409  # nothing left to undo


def cards_rows(state_file: Path) -> list[tuple]:
    db = sqlite3.connect(state_file)
    try:
        return db.execute("SELECT * FROM cards ORDER BY position").fetchall()
    finally:
        db.close()


def test_a_card_of_a_players_own_deck_leaves_the_game_onto_the_sideboard_by_name(table):
    status, card = table.call("/api/own-card", {"player": "Anna", "name": "  Llanowar   Elves "})
    assert status == 200 and card["name"] == "Llanowar Elves" and card["owner"] == "Anna" and not card["hell"]
    top = table.call("/api/state")[1]["sideboard"][0]
    assert top["name"] == "Llanowar Elves" and top["owner"] == "Anna" and top["face"] is None
    assert table.call("/api/play-sideboard", {"player": "Ben"})[1]["name"] == "Llanowar Elves"  # anyone plays it
    ben = next(p for p in table.call("/api/state")[1]["players"] if p["name"] == "Ben")
    assert [(c["name"], c["owner"]) for c in ben["cards"]] == [("Llanowar Elves", "Anna")]
    assert table.call("/api/mulligan", {"player": "Ben"})[1]["to_bottom"] == []  # no Hell card: not to Hell
    ended = table.call("/api/end-game", {})[1]
    assert ended["to_bottom"] == [] and len(cards_rows(table.session.path)) == 97  # back to Anna's deck
    assert table.call("/api/undo", {})[1]["undone"] == "end of game"
    assert "Llanowar Elves" in [c["name"] for c in next(
        p for p in table.call("/api/state")[1]["players"] if p["name"] == "Ben")["cards"]]
    for _ in range(2):
        table.call("/api/undo", {"anyone": True})
    assert table.call("/api/undo", {})[1]["undone"] == "own card to sideboard"
    assert len(cards_rows(table.session.path)) == 97 and table.call("/api/state")[1]["sideboard"] == []
    assert table.call("/api/own-card", {"player": "Anna", "name": "x" * 201})[0] == 400


def test_an_ownerless_card_put_into_its_owners_library_goes_to_the_hell_library(table):
    top = positions_in(table.session.path, "library")[0]
    table.call("/api/draw", {"player": "Ben"})
    if table.call("/api/state")[1]["players"][1]["pending"]:
        table.call("/api/decline", {"player": "Ben"})
    else:  # taken: Ben owns it; send it to the sideboard, where it stays his
        table.call("/api/to-sideboard", {"position": top})
        assert table.call("/api/to-hell-library", {"position": top, "end": "bottom"})[0] == 409
        return
    assert table.call("/api/to-hell-library", {"position": top, "end": "bottom"})[0] == 200
    assert positions_in(table.session.path, "library")[-1] == top and positions_in(table.session.path, "sideboard") == []
    assert table.call("/api/to-hell-library", {"position": top, "end": "top"})[0] == 409  # not on the sideboard now


def test_undo_keeps_the_inverse_of_an_action_not_a_copy_of_the_table(table):
    """Each log entry holds the rows of the cards its action moved, so the state file grows by a few hundred
    bytes an action, whatever the session's size."""
    for player in ("Anna", "Ben", "Cleo"):
        table.call("/api/opening-hand", {"player": player})
    table.call("/api/end-game", {})
    db = sqlite3.connect(table.session.path)
    try:
        sizes = {action: len(undo) for action, undo in db.execute("SELECT action, undo FROM log")}
    finally:
        db.close()
    assert sizes["opening hand"] < 200 and sizes["end of game"] < 600  # six cards moved, not 97 rows
    before = cards_rows(table.session.path)
    for _ in range(4):
        table.call("/api/undo", {"anyone": True})
    assert len(cards_rows(table.session.path)) == 97 and before != cards_rows(table.session.path)
    assert all(row[1] == "library" for row in cards_rows(table.session.path))


def test_the_log_comes_a_page_at_a_time(table):
    for _ in range(35):
        table.call("/api/draw", {"player": "Cleo"})
        settle(table, "Cleo")
    state = table.call("/api/state")[1]
    assert len(state["log"]) == 30 and state["log_more"]
    older = table.call(f"/api/log?before={state['log'][-1]['id']}")[1]
    ids = [e["id"] for e in state["log"] + older["log"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids) and not older["log_more"]
    assert table.call("/api/log?before=x")[0] == 400


def test_every_action_is_pushed_to_listening_pages_as_it_happens(table):
    """Server-sent events: a page listening on /api/events hears of an action without asking."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", table.server.server_port, timeout=10)
    connection.request("GET", "/api/events")
    stream = connection.getresponse()
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")

    def event() -> list[str]:
        lines = []
        while not lines or lines[-1] != "":
            lines.append(stream.readline().decode().rstrip("\n"))
        return lines

    first = event()
    assert "event: change" in first
    table.call("/api/draw", {"player": "Cleo"})
    pushed = event()  # the read would time out (10 s) if nothing came
    assert "event: change" in pushed and pushed[pushed.index("event: change") + 1] != first[first.index("event: change") + 1]
    connection.close()


def test_an_empty_hell_library_answers_empty(table):
    for _ in range(97):
        settle(table, "Cleo")
        assert table.call("/api/draw", {"player": "Cleo"})[0] == 200
    settle(table, "Cleo")
    status, answer = table.call("/api/draw", {"player": "Cleo"})
    assert status == 409 and "empty" in answer["error"]


@pytest.mark.parametrize("path, body, status", [
    ("/api/draw", {"player": "Zed"}, 404),
    ("/api/draw", b"not json", 400),
    ("/api/draw", {"player": ""}, 400),
    ("/api/draw", ["Anna"], 400),
    ("/api/end-game", {"returned": [1]}, 400),
    ("/api/mulligan", {"player": "Anna", "positions": "all"}, 400),
    ("/api/nowhere", {"player": "Anna"}, 404),
])
def test_bad_requests_get_a_clear_json_error(table, path, body, status):
    got, answer = table.call(path, body)
    assert got == status and isinstance(answer["error"], str) and answer["error"]


# --- reliability ----------------------------------------------------------------------------------------------


def test_draws_at_the_same_instant_never_share_or_lose_a_card(legacy_cache, library, tmp_path):
    players = {f"P{i}": tuple("WUBRGP") for i in range(8)}
    table = Table(tmp_path / "race.sqlite", library, legacy_cache, players=players)
    drawn: list[int] = []
    try:
        for _ in range(6):
            start = threading.Barrier(len(players))

            def draw(name: str, start: threading.Barrier = start) -> None:
                start.wait()
                status, card = table.call("/api/draw", {"player": name})
                assert status == 200
                drawn.append(card["position"])

            threads = [threading.Thread(target=draw, args=(name,)) for name in players]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for name in players:
                settle(table, name)
        assert len(drawn) == 48 and len(set(drawn)) == 48  # no card twice
        assert set(drawn).isdisjoint(positions_in(table.session.path, "library"))  # none still in the library
        assert table.call("/api/state")[1]["library_count"] == 97 - 48
    finally:
        table.stop()


def test_a_restart_in_the_middle_of_a_session_goes_on_where_it_was(legacy_cache, library, tmp_path):
    state_file = tmp_path / "session.sqlite"
    first = Table(state_file, library, legacy_cache)
    first.call("/api/opening-hand", {"player": "Anna"})
    first.call("/api/draw", {"player": "Cleo"})
    settle(first, "Cleo")
    first.call("/api/to-sideboard", {"position": 1})
    before = first.call("/api/state")[1]
    order = positions_in(state_file, "library")
    first.stop()
    second = Table(state_file, library, legacy_cache)  # hhd table started again
    try:
        assert second.resumed
        assert second.call("/api/state")[1] == before
        assert positions_in(state_file, "library") == order
    finally:
        second.stop()


def test_off_loopback_a_join_code_is_needed(legacy_cache, library, tmp_path):
    table = Table(tmp_path / "coded.sqlite", library, legacy_cache, code="s3cret")
    try:
        assert table.call("/api/state")[0] == 403
        assert table.call("/api/state?code=wrong")[0] == 403
        assert table.call("/api/state?code=s3cret")[0] == 200
        assert table.call("/api/draw", {"player": "Anna"}, headers={"X-Join-Code": "s3cret"})[0] == 200
    finally:
        table.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_hhd_table_starts_from_the_command_line_and_guards_the_network(legacy_cache, library, tmp_path):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "hhdcli", "--cache-dir", str(legacy_cache), "table",
                                "-l", str(library), "--player", "Anna=RG", "--host", "0.0.0.0", "--port", str(port),
                                "--state", str(tmp_path / "cli.sqlite"), "--offline"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("open http://") and "?code=" in line
        code = line.strip().split("?code=")[1]
        base = f"http://127.0.0.1:{port}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + "/api/state", timeout=5)
        assert refused.value.code == 403
        with urllib.request.urlopen(f"{base}/api/state?code={code}", timeout=5) as answer:
            assert json.loads(answer.read())["library_count"] == 97
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
    assert "anyone on this network can reach the table" in errors


# --- the page, in a real browser -----------------------------------------------------------------------


CHROMEDRIVER = shutil.which("chromedriver")


@pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver (the CI script installs it)")
def test_the_page_on_a_phone(table, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or ""
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        start = time.monotonic()
        browser.get(table.url + "/")
        wait = WebDriverWait(browser, 10)
        wait.until(lambda b: b.find_element(By.ID, "library").text == "97")
        Select(browser.find_element(By.ID, "player")).select_by_visible_text("Ben")
        browser.find_element(By.CSS_SELECTOR, "button[data-action=draw]").click()
        wait.until(lambda b: b.find_element(By.ID, "library").text == "96" and
                   b.find_element(By.ID, "drawn").get_attribute("hidden") is None)
        verdict = browser.find_element(By.ID, "drawn-verdict").text.lower()
        assert verdict.split()[0] in ("land", "take", "choice")
        dealt = table.call("/api/opening-hand", {"player": "Cleo"})[1]["cards"]  # another phone (a script) acts
        wait.until(lambda b: b.find_element(By.ID, "library").text == "94")  # shown within the polling second
        assert time.monotonic() - start < 10
        button = browser.find_element(By.CSS_SELECTOR, "button[data-action=draw]")
        assert button.size["width"] >= 300 and button.size["height"] >= 48  # big enough for a thumb
        # the London mulligan on the page: Cleo ticks one of her two Hell cards; only it goes to the bottom
        Select(browser.find_element(By.ID, "player")).select_by_visible_text("Cleo")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#mine li")) == 2 and
                   next(p for p in table.call("/api/state")[1]["players"] if p["name"] == "Cleo")["joined"])
        wait.until(lambda b: tick(b, "#mine li input[type=checkbox]", 1))
        browser.find_element(By.CSS_SELECTOR, "button[data-action=mulligan]").click()
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#mine li")) == 1)
        assert positions_in(table.session.path, "library")[-1] == dealt[1]["position"]
        # this browser joined as Ben, then Cleo (never as Anna, whom nobody picked): their hands are private now
        others = {p["name"]: p for p in table.call("/api/state")[1]["players"]}
        assert [n for n, p in others.items() if p["joined"]] == ["Ben", "Cleo"]
        assert others["Cleo"]["cards"] == [] and others["Cleo"]["card_count"] == 1
        shot = tmp_path / "phone.png"
        browser.save_screenshot(str(shot))
        if os.environ.get("HHD_KEEP_SCREENSHOT"):
            shutil.copy(shot, os.environ["HHD_KEEP_SCREENSHOT"])
        assert shot.stat().st_size > 10_000
    finally:
        browser.quit()


def chromium(width: int = 390, height: int = 844):
    """A headless Chromium of its own (cookies and storage apart from any other: another phone)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or ""
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def tick(browser, css: str, index: int) -> bool:
    """Click the index-th element matching css; False (to be tried again) when the page re-rendered it."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        browser.find_elements(By.CSS_SELECTOR, css)[index].click()
        return True
    except (StaleElementReferenceException, IndexError):
        return False


class Phone:
    """One player's phone at the table: a browser of its own, driven through the page alone."""

    def __init__(self, table: Table, name: str) -> None:
        from selenium.webdriver.support.ui import Select, WebDriverWait

        self.name, self.browser = name, chromium()
        self.browser.get(table.url + "/")
        self.wait = WebDriverWait(self.browser, 30)  # three browsers on two cores, beside the rest of the suite
        self.wait.until(lambda b: self.text("library") not in ("", "–"))
        Select(self.find("#player")).select_by_visible_text(name)
        self.wait.until(lambda b: any(p["name"] == name and p["joined"] for p in table.call("/api/state")[1]["players"]))

    def find(self, css: str):
        from selenium.webdriver.common.by import By
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str) -> list:
        from selenium.webdriver.common.by import By
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def text(self, element_id: str) -> str:
        return str(self.browser.execute_script(f"return document.getElementById('{element_id}').textContent"))

    def press(self, action: str) -> None:
        self.until(lambda: tick(self.browser, f"button[data-action={action}]", 0))

    def texts(self, css: str) -> list[str]:
        """The elements' texts, read in one go (the page may re-render between two reads)."""
        script = f"return [...document.querySelectorAll('{css}')].map(e => e.textContent.trim())"
        return list(self.browser.execute_script(script))

    def mine(self) -> list[str]:
        return self.texts("#mine li label")

    def sideboard(self) -> list[str]:
        return self.texts("#sideboard li")

    def until(self, check) -> None:
        self.wait.until(lambda _b: check())


@pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver (the CI script installs it)")
def test_three_players_play_two_games_through_the_page_alone(table):
    phones = {name: Phone(table, name) for name in ("Anna", "Ben", "Cleo")}
    anna, ben, cleo = phones["Anna"], phones["Ben"], phones["Cleo"]
    try:
        everyone = list(phones.values())
        # opening hands: two Hell cards each, seen by their own phone only
        for phone in everyone:
            phone.press("opening-hand")
            phone.until(lambda p=phone: len(p.mine()) == 2)
        for phone in everyone:
            phone.until(lambda p=phone: p.text("library") == "91")
        annas = anna.mine()
        assert not any(card.split(" (")[0] in ben.browser.page_source for card in annas)  # private hands
        # the London mulligan: Anna ticks her second card, which alone goes to the Hell library's bottom
        anna.until(lambda: tick(anna.browser, "#mine li input[type=checkbox]", 1))
        anna.press("mulligan")
        anna.until(lambda: len(anna.mine()) == 1)
        assert table.session.cards[positions_in(table.session.path, "library")[-1]].name in annas[1]
        # draws: each verdict the rules know, a choice card declined onto the open sideboard
        seen: set[str] = set()
        for turn in range(60):
            phone = everyone[turn % 3]
            before = phone.text("library")
            phone.press("draw")
            phone.until(lambda p=phone, b=before: p.text("library") != b and
                        p.find("#drawn").get_attribute("hidden") is None)
            verdict = phone.text("drawn-verdict").split()[0].lower()
            seen.add(verdict)
            assert phone.text("drawn-text").strip()  # the card's words as text beside its image
            if verdict == "choice":
                if "choice" in seen and len(phone.sideboard()) == 0 and phone is not cleo:
                    phone.until(lambda p=phone: tick(p.browser, "#choice button[data-action=decline]", 0))
                    for other in everyone:  # pushed to every phone
                        other.until(lambda o=other: len(o.sideboard()) == 1)
                else:
                    phone.until(lambda p=phone: tick(p.browser, "#choice button[data-action=take]", 0))
                    phone.until(lambda p=phone: p.find("#choice").get_attribute("hidden") is not None)
            if {"land", "take", "choice"} <= seen and len(anna.sideboard()) == 1:
                break
        assert {"land", "take", "choice"} <= seen and len(cleo.sideboard()) == 1
        # Cleo plays the sideboard's top card; it becomes hers
        declined = cleo.sideboard()[0]
        held = len(cleo.mine())
        cleo.press("play-sideboard")
        cleo.until(lambda: len(cleo.mine()) == held + 1 and cleo.sideboard() == [])
        # a Hell card of Cleo's is exiled: onto the sideboard's top, with its owner shown to all
        exiled = cleo.mine()[0].split(" (")[0].strip()
        cleo.until(lambda: tick(cleo.browser, "#mine li button", 0))
        for phone in everyone:
            phone.until(lambda p=phone: p.sideboard() and exiled in p.sideboard()[0] and "Cleo" in p.sideboard()[0])
        # a card of Anna's own deck leaves the game: by name, onto the sideboard's top
        anna.find("#own-name").send_keys("Llanowar Elves")
        anna.find("#own-send").click()
        for phone in everyone:
            phone.until(lambda p=phone: "Llanowar Elves" in p.sideboard()[0] and len(p.sideboard()) == 2)
        sideboard = ben.sideboard()
        # end of game: every Hell card outside the library and the sideboard to the bottom; the sideboard stays
        library_before = int(ben.text("library"))
        outside = sum(len(p.mine()) for p in everyone)
        ben.find("button[data-action=end-game]").click()
        for phone in everyone:
            phone.until(lambda p=phone: p.text("game") == "2" and p.mine() == [])
        assert int(ben.text("library")) == library_before + outside and ben.sideboard() == sideboard
        # the second game: the same library goes on, opening hands again, the sideboard as it was
        for phone in everyone:
            phone.press("opening-hand")
            phone.until(lambda p=phone: len(p.mine()) == 2)
        anna.press("play-sideboard")  # Anna plays back her own card from the sideboard's top
        anna.until(lambda: any("Llanowar Elves" in card for card in anna.mine()))
        cleo.until(lambda: [c.lstrip("▶ ") for c in cleo.sideboard()] == [c.lstrip("▶ ") for c in sideboard[1:]])
        assert int(cleo.text("library")) == library_before + outside - 6
        assert declined  # the declined card went through the open sideboard
    finally:
        for phone in phones.values():
            phone.browser.quit()


AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js.gz"


@pytest.mark.skipif(CHROMEDRIVER is None, reason="needs Chromium's chromedriver (the CI script installs it)")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_axe_core_finds_no_serious_accessibility_violation_on_the_page(table, lang):
    import gzip

    phone = Phone(table, "Ben")
    try:
        phone.press("opening-hand")
        phone.press("draw")
        phone.until(lambda: phone.find("#drawn").get_attribute("hidden") is None)
        table.call("/api/opening-hand", {"player": "Cleo"})
        cleo_card = table.call("/api/state")[1]["players"][2]["cards"][0]["position"]
        table.call("/api/to-sideboard", {"position": cleo_card})  # the sideboard holds a card with its buttons
        phone.browser.get(table.url + f"/?lang={lang}")
        phone.until(lambda: len(phone.sideboard()) == 1 and phone.mine())
        phone.browser.execute_script(gzip.decompress(AXE.read_bytes()).decode("utf-8"))
        result = phone.browser.execute_async_script(
            "const done = arguments[arguments.length - 1]; axe.run(document).then(done, e => done(String(e)));")
        assert isinstance(result, dict), result
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        assert bad == [] and len(result["passes"]) > 20
    finally:
        phone.browser.quit()


# --- hardening ----------------------------------------------------------------------------------------------


def raw_post(table: Table, path: str, data: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(table.url + path, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        json.loads(refused.read())  # every refusal is a JSON error
        return refused.code


@pytest.mark.parametrize("data, headers, status", [
    (b'{"player": "Anna"}', {"Content-Type": "application/json", "Origin": "https://evil.example"}, 403),
    (b'player=Anna', {"Content-Type": "application/x-www-form-urlencoded"}, 415),
    (b'{"player": "Anna"}', {"Content-Type": "text/plain"}, 415),
    (b'{"player": "' + b"x" * 70_000 + b'"}', {"Content-Type": "application/json"}, 413),
    (b"[" * 5000 + b"]" * 5000, {"Content-Type": "application/json"}, 400),
    (b'{"player": "\\ud800"}', {"Content-Type": "application/json"}, 400),
    (b'{"position": 9223372036854775808}', {"Content-Type": "application/json"}, 400),
    (b'{"player": NaN}', {"Content-Type": "application/json"}, 400),
])
def test_hostile_requests_are_a_4xx_json_error(table, data, headers, status):
    path = "/api/to-sideboard" if b"position" in data else "/api/draw"
    assert raw_post(table, path, data, headers) == status


def test_a_loopback_table_answers_only_to_loopback_names(table):
    request = urllib.request.Request(table.url + "/api/state", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403


@pytest.mark.parametrize("content, said", [(b"", "empty"), (b"not a database at all, just text", "not SQLite")])
def test_an_empty_or_foreign_state_file_is_a_one_line_error_naming_it(synced, library, tmp_path, content, said):
    state = tmp_path / "state.sqlite"
    state.write_bytes(content)
    result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state))
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2 and len(lines) == 1 and str(state) in lines[0] and said in lines[0]
    assert state.read_bytes() == content  # nothing was written over it


def test_a_library_drawn_again_with_other_options_is_not_resumed(synced, legacy_cache, library, tmp_path):
    state = tmp_path / "state.sqlite"
    Table(state, library, legacy_cache).stop()
    assert synced("generate", "--seed", "ember-tide-42", "--basics-per-type", "40", "--force",
                  "-o", str(library)).exit_code == 0
    result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state))
    assert result.exit_code == 2 and "another library with the seed" in result.output


def test_table_decks_take_land_colors_and_name_the_lands_not_known(legacy_cache, library, tmp_path):
    import os
    import subprocess
    import sys

    deck = tmp_path / "anna.txt"
    deck.write_text("20 Mountain\n4 Steam Vents\n4 Mystery Land Of Doom\n", encoding="utf-8")
    import socket

    with socket.socket() as probe:  # a free port for the table
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "HHD_CACHE_DIR": str(legacy_cache)}
    args = [sys.executable, "-m", "hhdcli", "table", "-l", str(library), "--deck", f"Anna={deck}", "--offline",
            "--land", "Steam Vents=UR", "--port", str(port), "--state", str(tmp_path / "s.sqlite")]
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().startswith("open http://")  # type: ignore[union-attr]
    finally:
        process.terminate()
        said = process.communicate(timeout=10)[1]
    assert "not known, so not counted: Mystery Land Of Doom" in said and "Steam Vents" not in said
    db = sqlite3.connect(tmp_path / "s.sqlite")
    try:
        colors = db.execute("SELECT colors FROM players WHERE name = 'Anna'").fetchone()[0]
    finally:
        db.close()
    assert set(colors) == {"U", "R"}  # Mountain's R, and Steam Vents' U from --land


def test_phones_get_this_computers_interface_addresses_likeliest_first():
    from hhdcli.table.serve import addresses

    assert addresses("::1", 8071, None) == ["http://[::1]:8071/"]
    every = addresses("0.0.0.0", 8040, "c0de")
    assert every and all(u.endswith(":8040/?code=c0de") for u in every)
    assert not any("127." in u or "127.0.1.1" in u for u in every) or every == ["http://127.0.0.1:8040/?code=c0de"]
    both = addresses("::", 8040, None)
    assert all("[" in u for u in both if u.count(":") > 2)  # IPv6 addresses in brackets


def test_the_join_code_is_kept_across_restarts_until_rotated(tmp_path, legacy_cache, library):
    table = Table(tmp_path / "s.sqlite", library, legacy_cache)
    table.stop()
    codes = iter(["first", "second"])
    assert table.session.join_code(lambda: next(codes)) == "first"
    again = Table(tmp_path / "s.sqlite", library, legacy_cache)  # a restart
    again.stop()
    assert again.session.join_code(lambda: "never asked") == "first"
    assert again.session.join_code(lambda: next(codes), new=True) == "second"


def test_a_card_still_in_the_hell_library_cannot_be_looked_at(table):
    hidden = positions_in(table.session.path, "library")[5]
    for guess in (f"/cards/{hidden}.png", f"/cards/{table.session._face_of[hidden]}.png"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(table.url + guess, timeout=10)
        assert refused.value.code == 404
    token = table.call("/api/join", {"player": "Cleo"})[1]["token"]
    mine = {"X-Player-Token": token}
    drawn = table.call("/api/draw", {"player": "Cleo"}, mine)[1]
    face_id = drawn["face"].removeprefix("/cards/").removesuffix(".png")  # an opaque id, not its library position
    assert len(face_id) == 20 and int(face_id, 16) != drawn["position"]
    request = urllib.request.Request(table.url + drawn["face"], headers=mine)
    assert urllib.request.urlopen(request, timeout=10).read().startswith(b"\x89PNG")  # Cleo sees her card
    with pytest.raises(urllib.error.HTTPError):  # nobody else does
        urllib.request.urlopen(table.url + drawn["face"], timeout=10)


def test_an_opening_hand_is_dealt_once_a_game_and_again_only_after_a_mulligan(table):
    assert table.call("/api/opening-hand", {"player": "Anna"})[0] == 200
    status, refused = table.call("/api/opening-hand", {"player": "Anna"})
    assert status == 409 and "mulligan" in refused["error"]
    assert table.call("/api/mulligan", {"player": "Anna"})[0] == 200
    assert table.call("/api/opening-hand", {"player": "Anna"})[0] == 200
    table.call("/api/end-game", {})
    assert table.call("/api/opening-hand", {"player": "Anna"})[0] == 200  # a new game, a new hand


def test_the_end_of_a_game_returns_a_card_still_waiting_for_take_or_decline(table):
    while True:  # Ben's lands make W U B: draw until a card waits for his choice
        status, card = table.call("/api/draw", {"player": "Ben"})
        assert status == 200
        if card["verdict"] == "choice":
            break
        if table.call("/api/state")[1]["library_count"] < 3:
            pytest.skip("no choice card in this library for Ben")
    status, ended = table.call("/api/end-game", {})
    assert status == 200 and card["position"] in ended["to_bottom"]
    ben = next(p for p in table.call("/api/state")[1]["players"] if p["name"] == "Ben")
    assert ben["pending"] is None


def test_undo_takes_back_a_players_own_action_and_anothers_only_when_confirmed(table):
    table.call("/api/opening-hand", {"player": "Anna"})
    status, refused = table.call("/api/undo", {"player": "Ben"})
    assert status == 409 and "Anna's" in refused["error"]
    assert table.call("/api/undo", {"player": "Ben", "anyone": True})[1]["undone"] == "opening hand"
    table.call("/api/opening-hand", {"player": "Anna"})
    assert table.call("/api/undo", {"player": "Anna"})[1]["undone"] == "opening hand"


def test_a_hell_cards_owner_is_the_first_player_to_take_it_out_of_hell(table):
    hand = table.call("/api/opening-hand", {"player": "Anna"})[1]["cards"]
    leaving = hand[0]["position"]
    table.call("/api/to-sideboard", {"position": leaving})
    state = table.call("/api/state")[1]
    assert state["sideboard"][0]["position"] == leaving and state["sideboard"][0]["owner"] == "Anna"
    played = table.call("/api/play-sideboard", {"player": "Ben"})[1]
    assert played["position"] == leaving
    ben = next(p for p in table.call("/api/state")[1]["players"] if p["name"] == "Ben")
    assert next(c for c in ben["cards"] if c["position"] == leaving)["owner"] == "Anna"  # the first stays owner
    table.call("/api/undo", {"player": "Ben"})
    assert table.call("/api/state")[1]["sideboard"][0]["owner"] == "Anna"


def page_text(url: str, headers: dict[str, str] | None = None) -> str:
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read().decode()


def test_the_page_speaks_russian_from_the_browsers_language_and_remembers_a_switch(table):
    russian = page_text(table.url + "/", {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert '<html lang="ru">' in russian and "Адская библиотека" in russian and "Взять из Адской библиотеки" in russian
    assert "сайдборд" in russian and "Муллиган" in russian
    english = page_text(table.url + "/", {"Accept-Language": "en-GB"})
    assert '<html lang="en">' in english and "Draw from Hell" in english
    request = urllib.request.Request(table.url + "/?lang=ru", headers={"Accept-Language": "en"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert "hhd_lang=ru" in answer.headers.get("Set-Cookie", "")
    remembered = page_text(table.url + "/", {"Accept-Language": "en", "Cookie": "hhd_lang=ru"})
    assert '<html lang="ru">' in remembered


def test_every_message_of_the_page_has_its_russian():
    import re

    from hhdcli.table.app import PAGE_SCRIPT_MESSAGES
    from hhdcli.table.i18n import translations

    package = Path(__file__).parents[1] / "hhdcli"
    template = (package / "templates" / "table.html.j2").read_text(encoding="utf-8")
    used = set(re.findall(r"""_\(["']([^"']+)["']\)""", template)) | set(PAGE_SCRIPT_MESSAGES)
    # the API's refusals the page shows: every TableError given a plain (not f-) string, and gettext()'s
    sources = "".join((package / "table" / name).read_text(encoding="utf-8") for name in ("app.py", "state.py"))
    refusals = set(re.findall(r"""(?:TableError|NeedsConfirmation|gettext\(\))\(\s*(?:"([^"]+)"|'([^']+)')""", sources))
    used |= {a or b for a, b in refusals}
    russian = translations("ru")
    untranslated = sorted(m for m in used if russian.gettext(m) == m)
    assert len(refusals) > 25 and untranslated == []


def test_a_refusal_comes_in_the_players_language(table):
    table.call("/api/opening-hand", {"player": "Anna"})
    status, refused = table.call("/api/opening-hand", {"player": "Anna"}, {"Accept-Language": "ru-RU,ru;q=0.9"})
    assert status == 409 and refused["error"].startswith("у игрока Anna уже есть стартовая рука")
    status, refused = table.call("/api/undo", {"player": "Ben"}, {"Cookie": "hhd_lang=ru"})
    assert status == 409 and refused["confirm"] and refused["error"] == "последнее действие — игрока Anna (стартовая рука)"
    assert "opening hand this game" in table.call("/api/opening-hand", {"player": "Anna"})[1]["error"]  # English



def test_hands_are_private_once_players_join_and_a_name_is_one_phones(table):
    anna = {"X-Player-Token": table.call("/api/join", {"player": "Anna"})[1]["token"]}
    ben = {"X-Player-Token": table.call("/api/join", {"player": "Ben"})[1]["token"]}
    hand = table.call("/api/opening-hand", {"player": "Anna"}, anna)[1]["cards"]
    seen_by_ben = table.call("/api/state", None, ben)[1]
    anna_for_ben = next(p for p in seen_by_ben["players"] if p["name"] == "Anna")
    assert anna_for_ben["cards"] == [] and anna_for_ben["card_count"] == 2
    assert all(h["name"] not in json.dumps(seen_by_ben) for h in hand)  # not in the log either
    anna_for_anna = next(p for p in table.call("/api/state", None, anna)[1]["players"] if p["name"] == "Anna")
    assert [c["position"] for c in anna_for_anna["cards"]] == [c["position"] for c in hand]
    assert table.call("/api/draw", {"player": "Anna"}, ben)[0] == 403  # Ben's phone cannot act for Anna
    assert table.call("/api/join", {"player": "Anna"})[0] == 403  # nor can a new phone take her name
    restarted = Table(table.session.path, Path(table.library), table.cache_dir)  # her token survives a restart
    try:
        assert restarted.call("/api/state", None, anna)[0] == 200
        me = next(p for p in restarted.call("/api/state", None, anna)[1]["players"] if p["name"] == "Anna")
        assert me["card_count"] == 2 and len(me["cards"]) == 2
    finally:
        restarted.stop()
