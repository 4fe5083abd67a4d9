"""A server that runs for months: every stop (SIGTERM, Ctrl-C, of `hhd serve` and of `hhd table`) leaves each
table's state file complete alone (its log folded in, no -wal), and `hhd serve --backups DIR` backs the tables
up while it runs, consistently, on a schedule, the last few kept, each restored by the commands docs/server.md
gives and played on through the server."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from tablekit import authorization, free_port
from test_table_community import Server, opened, table_client
from test_table_damage import folder_hash, replace_by_copy
from test_table_serve import hhd_table

from hhdcli.cache import load_cache
from hhdcli.table.hosting.backups import Backups, Plan, backup_name, dropped, due, is_backup
from hhdcli.table.hosting.community import UNLOAD_AFTER, Community, Seat, table_id
from hhdcli.table.hosting.online import Public
from hhdcli.table.hosting.opening import stream_changes
from hhdcli.table.hosting.throttle import Throttle

ROOT = Path(__file__).resolve().parents[1]


class Served(Server):
    """`hhd serve` as a process that a Ctrl-C stops as a terminal's would (SIGINT not inherited as ignored)."""

    def __init__(self, cache: Path, root: Path, *args: str) -> None:
        self.port, self.root = free_port(), root
        env = {**os.environ, "HHD_CACHE_DIR": str(cache), "HHD_TABLE_PORT": str(self.port)}
        self.process = subprocess.Popen([sys.executable, "-m", "hhdcli", "serve", "--dir", str(root), *args],
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        line = self.process.stdout.readline()
        if not line.startswith("open http://"):
            self.process.kill()
            raise AssertionError(line or self.process.communicate(timeout=10)[1][-2000:])


def read_alone(state: Path, into: Path) -> dict:
    """The session in a copy of the state file alone (no -wal, no -shm beside it): its version, its log's
    actions, the players' life."""
    into.mkdir(parents=True, exist_ok=True)
    copy = into / "alone.sqlite"
    shutil.copyfile(state, copy)
    db = sqlite3.connect(copy)
    try:
        return {"version": int(db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]),
                "log": [row[0] for row in db.execute("SELECT action FROM log ORDER BY id")],
                "life": {name: int(life) for name, life in db.execute("SELECT name, life FROM players")
                         if life is not None}}
    finally:
        db.close()


def served_state(answer: dict) -> dict:
    """The same, as the server answered it (a life at the start is no row's)."""
    return {"version": answer["version"], "life": {p["name"]: p["life"] for p in answer["players"]
                                                   if p["life"] != answer["life_start"]}}


def play(server: Server, code: str, token: str, times: int) -> None:
    for _ in range(times):
        assert server.api("/api/life", code, {"whose": "Ben", "delta": -1}, token)[0] == 200
        assert server.api("/api/player-counter", code, {"whose": "Ben", "kind": "poison", "delta": 1}, token)[0] == 200


def a_table(server: Server, seed: str) -> tuple[dict[str, str], str]:
    status, page = server.open({"name0": "Anna", "colors0": "R", "name1": "Ben", "colors1": "G", "seed": seed})
    assert status == 201, page
    table = opened(page)
    return table, server.api("/api/join", table["code"], {"player": "Anna"})[1]["token"]


# --- every stop leaves each table's file complete alone ---------------------------------------------------


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_hhd_serve_stopped_leaves_each_tables_state_file_complete_alone(legacy_cache, tmp_path, stop):
    """The issue: after SIGTERM a table's .sqlite alone lacked its last actions (a 304 KB -wal beside it). Every
    action answered is read back from a copy of the .sqlite alone."""
    server = Served(legacy_cache, tmp_path / "tables")
    answered = {}
    try:
        for seed in ("stop-1", "stop-2"):
            table, token = a_table(server, seed)
            play(server, table["code"], token, 40)
            answered[table_id(table["code"])] = served_state(server.api("/api/state", table["code"])[1])
        folders = {key: tmp_path / "tables" / "tables" / key for key in answered}
        assert all((folder / "state.sqlite-wal").stat().st_size > 0 for folder in folders.values())
    finally:
        _out, err = server.stop(stop)
    assert server.process.returncode == 0 and "Traceback" not in err, err
    for key, folder in folders.items():
        assert sorted(p.name for p in folder.iterdir()) == ["library.json", "short", "state.sqlite"]
        alone = read_alone(folder / "state.sqlite", tmp_path / "copies" / key)
        assert {k: alone[k] for k in ("version", "life")} == answered[key]
        assert alone["log"].count("life") == 40 and alone["log"].count("player counter") == 40


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_hhd_table_stopped_leaves_its_state_file_complete_alone(legacy_cache, library, tmp_path, stop):
    state = tmp_path / "session.sqlite"
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=R", "--player", "Ben=G",
                        "--state", str(state))
    try:
        base = process.stdout.readline().strip().removeprefix("open ").rstrip("/")
        assert base.startswith("http://127.0.0.1:"), base

        def post(path: str, body: dict, token: str | None = None) -> dict:
            headers = {"Content-Type": "application/json"} | ({"Authorization": f"Table player={token}"} if token
                                                               else {})
            request = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
            with urllib.request.urlopen(request, timeout=20) as answer:
                return json.loads(answer.read())

        token = post("/api/join", {"player": "Anna"})["token"]
        for _ in range(30):
            post("/api/life", {"whose": "Ben", "delta": -1}, token)
        with urllib.request.urlopen(base + "/api/state", timeout=20) as answer:
            answered = served_state(json.loads(answer.read()))
        assert Path(f"{state}-wal").stat().st_size > 0
    finally:
        process.send_signal(stop)
        _out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("session")) == ["session.sqlite"]
    alone = read_alone(state, tmp_path / "copy")
    assert {k: alone[k] for k in ("version", "life")} == answered and alone["log"].count("life") == 30


# --- backups -----------------------------------------------------------------------------------------------


def test_the_backups_names_sort_by_time_and_the_newest_are_kept():
    from datetime import UTC, datetime

    names = [backup_name(datetime(2026, 12, day, hour, tzinfo=UTC)) for day in (9, 10) for hour in (3, 17)]
    assert names[0] == "state-2026-12-09T03-00-00Z.sqlite" and all(is_backup(name) for name in names)
    assert dropped([*reversed(names), "library.json", "short"], 3) == names[:1]
    assert dropped(names, 8) == [] and not is_backup(".state-2026-12-09T03-00-00Z.sqlite.7.tmp")
    assert due(10.0, None) and due(10.0, 9.5) and not due(10.0, 10.0)


def backups_of(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if is_backup(name)) if folder.is_dir() else []


def wait_for(found, seconds: float = 30.0):
    """`found()` once it is true (a round every 3 seconds), or the test fails."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not found within {seconds} s")


def restore_as_documented(tables: Path, backups: Path, key: str, backup: str) -> None:
    """docs/server.md's commands for restoring one table, run by the shell as written, on this server's paths
    (the systemctl lines are the test's own stop and start)."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text[text.index("**Restoring one table**"):]
    block = re.search(r"```shell\n(.*?)```", section, re.S).group(1)
    assert block.count("systemctl") == 2
    commands = "\n".join(line for line in block.splitlines() if "systemctl" not in line)
    commands = commands.replace("/var/lib/hhd/tables", str(tables)).replace("/var/backups/hhd", str(backups)) \
        .replace("3f2a…", key).replace("state-2026-12-06T19-20-00Z.sqlite", backup)
    done = subprocess.run(["bash", "-e", "-c", commands], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_a_table_backed_up_mid_game_is_restored_by_the_documented_commands_and_played_on(legacy_cache, tmp_path):
    tables, backups = tmp_path / "tables", tmp_path / "backups"
    server = Served(legacy_cache, tables, "--backups", str(backups), "--backup-every", "0.05")
    try:
        table, token = a_table(server, "backed-1")
        key = table_id(table["code"])
        play(server, table["code"], token, 10)
        at_backup = served_state(server.api("/api/state", table["code"])[1])
        first = wait_for(lambda: backups_of(backups / key))[0]
        play(server, table["code"], token, 5)  # played on after the backup
        later = served_state(server.api("/api/state", table["code"])[1])
        assert later["version"] == at_backup["version"] + 10
        assert sorted(os.listdir(backups / key)) == sorted(["library.json", first, "short"])
        copy = read_alone(backups / key / first, tmp_path / "read")
        assert {k: copy[k] for k in ("version", "life")} == at_backup
    finally:
        _out, err = server.stop()
    assert "Traceback" not in err and table["code"] not in err, err
    restore_as_documented(tables, backups, key, first)
    again = Served(legacy_cache, tables, "--backups", str(backups), "--backup-every", "0.05")
    try:
        restored = again.api("/api/state", table["code"])
        assert restored[0] == 200 and served_state(restored[1]) == at_backup  # the game as it was at the backup
        assert again.api("/api/life", table["code"], {"whose": "Ben", "delta": -1}, token)[0] == 200  # Anna's seat
        server_state = again.api("/api/state", table["code"])[1]
        assert served_state(server_state)["version"] == at_backup["version"] + 1
        assert served_state(server_state)["life"]["Ben"] == at_backup["life"]["Ben"] - 1
    finally:
        again.stop()


def test_only_changed_tables_are_backed_up_and_the_last_n_are_kept(legacy_cache, tmp_path):
    backups = tmp_path / "backups"
    server = Served(legacy_cache, tmp_path / "tables", "--backups", str(backups), "--backup-every", "0.05",
                    "--backups-kept", "2")
    try:
        played, token = a_table(server, "changed-1")
        still, _other = a_table(server, "still-1")
        busy, quiet = table_id(played["code"]), table_id(still["code"])
        seen = [wait_for(lambda: backups_of(backups / busy))[-1]]
        wait_for(lambda: backups_of(backups / quiet))  # (in the same round, after or before it)
        for _round in range(3):
            play(server, played["code"], token, 1)
            seen.append(wait_for(lambda: [name for name in backups_of(backups / busy) if name not in seen])[-1])
        assert backups_of(backups / busy) == seen[-2:]  # the newest two; the older ones gone
        assert len(backups_of(backups / quiet)) == 1  # not changed since its first backup: not copied again
        assert not [name for name in os.listdir(backups / busy) if name.endswith((".tmp", "-journal", "-wal"))]
    finally:
        _out, err = server.stop()
    assert "Traceback" not in err and "not backed up" not in err, err
    assert sorted(p.name for p in (tmp_path / "tables" / "tables" / busy).iterdir()) == \
        ["library.json", "short", "state.sqlite"]


def test_a_backup_folder_that_cannot_be_written_is_one_line_a_round_and_the_server_goes_on(legacy_cache, tmp_path):
    backups = tmp_path / "backups"
    server = Served(legacy_cache, tmp_path / "tables", "--backups", str(backups), "--backup-every", "0.05")
    try:
        table, token = a_table(server, "blocked-1")
        a_table(server, "blocked-2")
        shutil.rmtree(backups)
        backups.write_text("a file where the folder was", encoding="utf-8")
        time.sleep(7)  # two rounds at least
        play(server, table["code"], token, 2)  # the tables go on
        backups.unlink()  # the folder back: the next round copies them
        wait_for(lambda: len([key for key in os.listdir(backups) if len(key) == 64]) == 2 if backups.is_dir() else 0)
    finally:
        _out, err = server.stop()
    said = [line for line in err.splitlines() if "backups not written" in line]
    assert 2 <= len(said) <= 4 and all(str(backups) in line for line in said), err  # one line a round
    assert "Traceback" not in err and "not backed up" not in err, err


@pytest.mark.parametrize("args, said", [
    (["--backup-every", "10"], "need --backups DIR"),
    (["--backups-kept", "3"], "need --backups DIR"),
    (["--backups", "{dir}/tables/x"], "where the server keeps its tables"),
    (["--backups", "{file}/backups"], "cannot keep backups in"),
])
def test_a_bad_backup_option_is_one_line_and_writes_nothing(synced, tmp_path, args, said):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    given = [arg.format(dir=tmp_path / "tables", file=blocked) for arg in args]
    result = synced("serve", "--dir", str(tmp_path / "tables"), "--port", str(free_port()), *given)
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 2 and len(errors) == 1 and said in errors[0], result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


@pytest.mark.parametrize("value", ["0", "0.01", "-5", "nan", "lots"])
def test_a_backup_interval_out_of_range_is_refused(synced, tmp_path, value):
    result = synced("serve", "--dir", str(tmp_path / "tables"), "--backups", str(tmp_path / "b"),
                    "--backup-every", value)
    assert result.exit_code == 2 and "--backup-every" in result.output
    assert not (tmp_path / "tables").exists() and not (tmp_path / "b").exists()


def test_a_round_copies_tables_in_and_out_of_memory_and_leaves_alone_refused_crashed_and_gone_ones(legacy_cache,
                                                                                                 tmp_path):
    """One round, in this process, over real tables: one in memory (copied through its store), one out of memory
    (its file read as immutable: nothing made beside it), one refused while it ran and one left by a crash (both
    never touched); the backups of a table gone from --dir go --expire days after the newest."""
    community = Community(tmp_path / "served", load_cache(legacy_cache), Public(), Throttle(), stream_changes,
                          log=lambda line: None)
    opened_ = {name: community.open([Seat("Anna", "R")], f"round-{name}", None)
               for name in ("loaded", "unloaded", "refused", "crashed")}
    keys = {name: table_id(table.code) for name, table in opened_.items()}
    folders = {name: tmp_path / "served" / "tables" / key for name, key in keys.items()}
    for name, table in opened_.items():
        with table_client(community, table.code) as client:
            token = client.post("/api/join", json={"player": "Anna"}, headers=authorization(table.code)).json["token"]
            assert client.post("/api/first-player", json={},
                               headers=authorization(table.code, token)).status_code == 200
            if name == "refused":
                replace_by_copy(folders[name] / "state.sqlite")
                assert client.post("/api/first-player", json={},
                                   headers=authorization(table.code, token)).status_code == 503
    community.unload_idle(time.monotonic() + UNLOAD_AFTER + 1)  # all four leave memory; the first comes back
    assert not isinstance(community.table_for(opened_["loaded"].code), str)
    for suffix in ("-wal", "-shm"):  # as a kill -9 of an earlier server left it
        (folders["crashed"] / f"state.sqlite{suffix}").write_bytes(b"")
    untouched = {name: folder_hash(folders[name]) for name in ("unloaded", "refused", "crashed")}
    backups = tmp_path / "backups"
    gone, recent = backups / ("0" * 64), backups / ("1" * 64)
    for folder, age in ((gone, 15 * 86400), (recent, 86400)):
        folder.mkdir(parents=True)
        (folder / "state-2026-01-01T00-00-00Z.sqlite").write_bytes(b"")
        os.utime(folder / "state-2026-01-01T00-00-00Z.sqlite", (time.time() - age, time.time() - age))
    lines: list[str] = []
    copier = Backups(Plan(backups, kept=8, forget_after=14 * 86400), lines.append)

    assert copier.round(community.backup_view()) == 2 and lines == []
    assert {name for name, key in keys.items() if (backups / key).exists()} == {"loaded", "unloaded"}
    assert all(len(backups_of(backups / keys[name])) == 1 for name in ("loaded", "unloaded"))
    assert {name: folder_hash(folders[name]) for name in untouched} == untouched  # not a byte, not a file more
    assert not gone.exists() and recent.exists()
    with table_client(community, opened_["loaded"].code) as client:
        version = client.get("/api/state", headers=authorization(opened_["loaded"].code)).json["version"]
    copy = read_alone(backups / keys["loaded"] / backups_of(backups / keys["loaded"])[0], tmp_path / "read")
    assert copy["version"] == version and copy["log"] == ["first player"]
    assert copier.round(community.backup_view()) == 0  # nothing changed since
    community.unload_all()


def test_a_table_put_back_from_its_backup_after_it_expired_finds_its_short_code_again(legacy_cache, tmp_path):
    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes)
    table = community.open([Seat("Anna", "R")], "expired-1", None)
    folder = tmp_path / "tables" / table_id(table.code)
    kept = tmp_path / "kept"
    shutil.copytree(folder, kept)
    assert community.sweep(now=time.time() + 30 * 86400) == [table_id(table.code)]
    assert community.code_for_short(table.short) is None
    shutil.copytree(kept, folder)  # the backup's library.json, short and state put back
    assert community.code_for_short(table.short) is None and community.table_for(table.code) is not None
    assert community.code_for_short(table.short) == table.code
    community.unload_all()


@pytest.fixture(name="small_disk")
def small_disk_fixture(tmp_path):
    """A real file system of 320 KB (tmpfs), where this machine lets the tests mount one."""
    folder = tmp_path / "small-disk"
    folder.mkdir()
    mounted = shutil.which("mount") and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs",
                                                        str(folder)], capture_output=True).returncode == 0
    if not mounted:
        pytest.skip("needs a tmpfs this process may mount (root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_full_backup_disk_is_one_line_a_round_leaves_no_half_copy_and_the_server_goes_on(legacy_cache, tmp_path,
                                                                                            small_disk):
    from hhdcli.table.game.store import inspect_state

    server = Served(legacy_cache, tmp_path / "tables", "--backups", str(small_disk), "--backup-every", "0.05")
    try:
        tables = [a_table(server, f"full-{n}") for n in range(8)]
        for table, token in tables:
            play(server, table["code"], token, 3)
        time.sleep(10)  # three rounds at least: the disk fills in the first, and stays full
        for table, token in tables:  # every table goes on
            assert server.api("/api/life", table["code"], {"whose": "Ben", "delta": -1}, token)[0] == 200
    finally:
        _out, err = server.stop()
    said = [line for line in err.splitlines() if "backups not written" in line]
    assert 2 <= len(said) <= 5 and all(str(small_disk) in line for line in said), err  # one line a round
    assert "Traceback" not in err and any(backups_of(folder) for folder in small_disk.iterdir())
    assert not [line for line in err.splitlines() if "not backed up" in line], err
    for folder in small_disk.iterdir():
        for name in os.listdir(folder):
            assert is_backup(name) or name in ("library.json", "short"), name  # no temporary file left
            if is_backup(name):
                assert inspect_state(folder / name)["seed"].startswith("full-")  # each one whole
