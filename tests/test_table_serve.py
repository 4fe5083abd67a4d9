"""`hhd table` starts and stops as hhd: a busy port, a bad --host and Ctrl-C are its own one-line messages, the
--help examples run as written, and the session is kept across a stop."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tablekit import Table, free_port, kept


def hhd_table(cache: Path, *args: str, cwd: Path | None = None, port: int | None = None,
              scryfall_url: str | None = None) -> subprocess.Popen:
    env = {**os.environ, "HHD_CACHE_DIR": str(cache), "HHD_TABLE_PORT": str(port or free_port()),
           **({"HHD_SCRYFALL_URL": scryfall_url} if scryfall_url else {})}
    # SIGINT as a terminal sends it, even when this run inherited it ignored (a test worker, a background job)
    return subprocess.Popen([sys.executable, "-m", "hhdcli", *args], env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def stop_with_ctrl_c(process: subprocess.Popen) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    return out, err


def served_once(cache: Path, state: Path, *args: str, scryfall_url: str | None = None) -> None:
    """`hhd … table ARGS --state STATE` started until it says where to open it, then stopped with Ctrl-C."""
    process = hhd_table(cache, *args, "--state", str(state), scryfall_url=scryfall_url)
    try:
        assert process.stdout.readline().startswith("open http://")  # type: ignore[union-attr]
    finally:
        stop_with_ctrl_c(process)


def state_value(state: Path, query: str) -> object:
    """The first column of the first row a query finds in a stopped table's state file."""
    db = sqlite3.connect(state)
    try:
        return db.execute(query).fetchone()[0]
    finally:
        db.close()


def test_hhd_table_starts_from_the_command_line_and_guards_the_network(legacy_cache, library, tmp_path):
    port = free_port()
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG", "--host", "0.0.0.0",
                        "--state", str(tmp_path / "cli.sqlite"), "--offline", port=port)
    try:
        line = process.stdout.readline()
        assert line.startswith("open http://") and "/#code=" in line
        code = line.strip().split("#code=")[1]
        base = f"http://127.0.0.1:{port}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + "/api/state", timeout=5)
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as refused:  # an address never carries the code
            urllib.request.urlopen(f"{base}/api/state?code={code}", timeout=5)
        assert refused.value.code == 403
        asked = urllib.request.Request(f"{base}/api/state", headers={"Authorization": f"Table code={code}"})
        with urllib.request.urlopen(asked, timeout=5) as answer:
            assert json.loads(answer.read())["library_count"] == 97
        board = next(line for line in iter(process.stdout.readline, "") if "&host=" in line)
        assert board.startswith(f"the board (on this computer, the host's): http://127.0.0.1:{port}/#code={code}&host=")
        secret = board.strip().split("&host=")[1]
        db = sqlite3.connect(tmp_path / "cli.sqlite")
        try:
            assert db.execute("SELECT value FROM meta WHERE key = 'host'").fetchone()[0] == secret
        finally:
            db.close()
    finally:
        out, errors = stop_with_ctrl_c(process)
    assert "anyone on this network can reach the table" in errors
    assert process.returncode == 0 and "Traceback" not in errors
    last = errors.strip().splitlines()[-1]
    assert last.startswith("stopped; the session is kept in") and "cli.sqlite" in last


def test_a_port_in_use_is_hhds_one_line_error(legacy_cache, library, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG",
                            "--state", str(tmp_path / "s.sqlite"), "--offline", port=port)
        out, err = process.communicate(timeout=60)
    lines = err.strip().splitlines()  # hhd's error line, and its line of what to do
    assert process.returncode == 2 and len(lines) == 2 and out == "" and lines[0].startswith("error: ")
    assert f"port {port} is in use" in lines[0] and "--port" in lines[1]
    assert not (tmp_path / "s.sqlite").exists()  # nothing started


@pytest.mark.parametrize("host", ["999.1.1.1", "192.0.2.77"])  # no address at all; one of another computer
def test_a_host_not_of_this_computer_is_one_line_before_any_warning(legacy_cache, library, tmp_path, host):
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG", "--host", host,
                        "--state", str(tmp_path / "s.sqlite"), "--offline")
    out, err = process.communicate(timeout=60)
    lines = err.strip().splitlines()
    assert process.returncode == 2 and len(lines) == 2 and lines[0].startswith("error: "), err
    assert f"--host {host} is not an address of this computer" in lines[0] and "0.0.0.0" in lines[1]
    assert "anyone on this network" not in err and "Name or service" not in err


def help_examples(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("hhd table ")]


def test_the_help_examples_run_as_written(synced, legacy_cache, tmp_path):
    """In a folder holding hell-library.json, each example of `hhd table --help` starts the table; Ctrl-C stops
    it with the line that says the session is kept."""
    assert synced("generate", "--seed", "help-1", "-o", str(tmp_path / "hell-library.json")).exit_code == 0
    examples = help_examples(synced("table", "--help").output)
    assert len(examples) == 2
    for example in examples:
        args = example.split()[1:]
        process = hhd_table(legacy_cache, *args, cwd=tmp_path)
        first = process.stdout.readline()
        out, err = stop_with_ctrl_c(process)
        assert first.startswith("open http://"), (example, err)
        assert process.returncode == 0 and "Traceback" not in err
        assert re.search(r"stopped; the session is kept in \S*hell-library\.table\.sqlite", err)


def test_a_restart_in_the_middle_of_a_session_goes_on_where_it_was(legacy_cache, library, tmp_path):
    state_file = tmp_path / "session.sqlite"
    first = Table(state_file, library, legacy_cache)
    first.as_("Anna", "/api/opening-hand")
    kept(first, "Cleo")
    first.as_("Cleo", "/api/draw")
    before = first.state("Anna")
    first.stop()
    second = Table(state_file, library, legacy_cache)  # hhd table started again: the seats are kept
    try:
        assert second.resumed and second.session.host_secret() == first.host
        again = second.call("/api/state", token=first.tokens["Anna"])[1]
        assert {k: again[k] for k in ("library_count", "sideboard", "game", "log")} == \
            {k: before[k] for k in ("library_count", "sideboard", "game", "log")}
        assert [p["cards"] for p in again["players"]] == [p["cards"] for p in before["players"]]
    finally:
        second.stop()


def test_the_join_code_is_kept_across_restarts_until_rotated(tmp_path, legacy_cache, library):
    table = Table(tmp_path / "s.sqlite", library, legacy_cache)
    table.stop()
    codes = iter(["first", "second"])
    assert table.session.join_code(lambda: next(codes)) == "first"
    again = Table(tmp_path / "s.sqlite", library, legacy_cache)  # a restart
    again.stop()
    assert again.session.join_code(lambda: "never asked") == "first"
    assert again.session.join_code(lambda: next(codes), new=True) == "second"
    assert again.session.host_secret(new=True) != again.host


@pytest.mark.parametrize("content, said", [(b"", "empty"), (b"not a database at all, just text", "not SQLite")])
def test_an_empty_or_foreign_state_file_is_a_one_line_error_naming_it(synced, library, tmp_path, content, said):
    state = tmp_path / "state.sqlite"
    state.write_bytes(content)
    result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state),
                    "--port", str(free_port()))
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2 and len(lines) == 1 and str(state) in lines[0] and said in lines[0]
    assert state.read_bytes() == content  # nothing was written over it


def test_a_library_drawn_again_with_other_options_is_not_resumed(synced, legacy_cache, library, tmp_path):
    state = tmp_path / "state.sqlite"
    Table(state, library, legacy_cache).stop()
    assert synced("generate", "--seed", "ember-tide-42", "--basics-per-type", "40", "--force",
                  "-o", str(library)).exit_code == 0
    result = synced("table", "-l", str(library), "--player", "Anna=RG", "--state", str(state),
                    "--port", str(free_port()))
    assert result.exit_code == 2 and "another library with the seed" in result.output


def test_table_decks_take_land_colors_and_name_the_lands_not_known(legacy_cache, library, tmp_path):
    deck = tmp_path / "anna.txt"
    deck.write_text("20 Mountain\n4 Steam Vents\n4 Mystery Land Of Doom\n", encoding="utf-8")
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--deck", f"Anna={deck}", "--offline",
                        "--land", "Steam Vents=UR", "--state", str(tmp_path / "s.sqlite"))
    try:
        assert process.stdout.readline().startswith("open http://")
    finally:
        said = stop_with_ctrl_c(process)[1]
    assert "not known, so not counted: 'Mystery Land Of Doom'" in said and "Steam Vents" not in said
    db = sqlite3.connect(tmp_path / "s.sqlite")
    try:
        colors = db.execute("SELECT colors FROM players WHERE name = 'Anna'").fetchone()[0]
    finally:
        db.close()
    assert set(colors) == {"U", "R"}  # Mountain's R, and Steam Vents' U from --land


@pytest.mark.parametrize("life", ["0", "1000", "twenty"])
def test_table_life_out_of_1_to_999_is_a_one_line_error(synced, library, tmp_path, life):
    result = synced("table", "-l", str(library), "--player", "Anna=RG", "--life", life,
                    "--state", str(tmp_path / "s.sqlite"), "--port", str(free_port()))
    errors = [line for line in result.output.splitlines() if "Error" in line or "error:" in line]
    assert result.exit_code == 2 and len(errors) == 1 and "--life" in errors[0] and "Traceback" not in result.output
    assert not (tmp_path / "s.sqlite").exists()


def test_table_life_sets_the_starting_life_of_the_session(legacy_cache, library, tmp_path):
    served_once(legacy_cache, tmp_path / "s.sqlite", "table", "-l", str(library), "--player", "Anna=RG", "--life", "40",
                "--offline")
    assert state_value(tmp_path / "s.sqlite", "SELECT value FROM meta WHERE key = 'life_start'") == "40"


def test_table_decks_offline_name_only_the_cards_that_may_be_lands_each_quoted(legacy_cache, library, tmp_path):
    """With no network (--offline) a deck's cards hhd does not know at all (they may be lands) are named in one
    warning line, but not those it knows are no lands: a spell Scryfall answered in an earlier run (its answers are
    kept in the cache folder), a real card of hhd's built-in list (Lightning Bolt, Kenrith) and the cards under the
    list's own spell headings (`Instants (4)`). Names are quoted and set apart by "; ", as a card's name may hold a
    comma."""
    cache = tmp_path / "cache"
    shutil.copytree(legacy_cache, cache)
    (cache / "scryfall-lands.json").write_text(json.dumps({
        "sol ring": {"name": "Sol Ring", "type_line": "Artifact", "produced_mana": ["C"]},
        "steam vents": {"name": "Steam Vents", "type_line": "Land — Island Mountain", "produced_mana": ["U", "R"]}}),
        encoding="utf-8")
    anna, ben = tmp_path / "anna.txt", tmp_path / "ben.txt"
    anna.write_text("20 Mountain\n4 Steam Vents\n1 Sol Ring\n4 Lightning Bolt\n2 Kenrith, the Returned King\n"
                    "2 Gloomy, Dank Cave\n", encoding="utf-8")
    ben.write_text("Lands (22)\n20 Island\n2 Gloomy, Dank Cave\nInstants (4)\n4 Lightning Bolt\n"
                   "Creatures (1)\n1 Kenrith, the Returned King\n", encoding="utf-8")
    process = hhd_table(cache, "table", "-l", str(library), "--deck", f"Anna={anna}", "--deck", f"Ben={ben}",
                        "--offline", "--state", str(tmp_path / "s.sqlite"))
    try:
        assert process.stdout.readline().startswith("open http://")
    finally:
        said = stop_with_ctrl_c(process)[1]
    lines = {who: next(line for line in said.splitlines() if f"{deck}:" in line) for who, deck in
             (("Anna", anna), ("Ben", ben))}
    assert "not known, so not counted: 'Gloomy, Dank Cave' (if any is a land" in lines["Anna"]  # made up
    assert "Lightning Bolt" not in said and "Kenrith" not in said  # real spells: Sol Ring, answered before, too
    assert "not known, so not counted: 'Gloomy, Dank Cave' (if any is a land" in lines["Ben"]
    db = sqlite3.connect(tmp_path / "s.sqlite")
    try:
        assert db.execute("SELECT colors FROM players WHERE name = 'Anna'").fetchone()[0] == "UR"
    finally:
        db.close()


def test_phones_get_this_computers_interface_addresses_likeliest_first():
    from hhdcli.table.hosting.serve import addresses

    assert addresses("::1", 8071, None) == ["http://[::1]:8071/"]
    every = addresses("0.0.0.0", 8040, "c0de")
    assert every and all(u.endswith(":8040/#code=c0de") for u in every)
    assert not any("127." in u or "127.0.1.1" in u for u in every) or every == ["http://127.0.0.1:8040/#code=c0de"]
    both = addresses("::", 8040, None)
    assert all("[" in u for u in both if u.count(":") > 2)  # IPv6 addresses in brackets
