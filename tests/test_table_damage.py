"""A table whose files are damaged is refused, never emptied: `hhd table --state FILE` exits with one line and
`hhd serve` refuses that table alone (one line in its log, a page for its players in their language), and every
refusal leaves the files byte for byte. A session's data lives in its write-ahead log (-wal) until SQLite folds
it into the file, so each kind of damage is made to what a kill -9 leaves: the file, its -wal and its -shm."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from tablekit import Table, authorization, free_port
from test_table_community import Server, at, opened
from test_table_serve import hhd_table

from hhdcli.table.hosting.community import table_id
from support import Hhd


def folder_hash(folder: Path) -> dict[str, str]:
    """Every file of a folder by name, with its content's hash."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def truncate(path: Path, keep: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])


def overwrite(path: Path, at: float | int) -> None:
    """64 random bytes written at a fraction of the file, or at a byte offset."""
    with path.open("r+b") as handle:
        handle.seek(at if isinstance(at, int) else int(path.stat().st_size * at))
        handle.write(os.urandom(64))


def wal(state: Path) -> Path:
    return state.with_name(state.name + "-wal")


def shm(state: Path) -> Path:
    return state.with_name(state.name + "-shm")


# each kind of damage, done to a state file as a kill -9 left it (its actions still in its -wal: SQLite folds them
# into the file at its close, or every 1000 pages)…
DAMAGE: dict[str, Callable[[Path], None]] = {
    "state emptied": lambda state: state.write_bytes(b""),
    "state deleted, its wal kept": lambda state: state.unlink(),
    "wal deleted after actions": lambda state: wal(state).unlink(),
    "wal and shm deleted after actions": lambda state: (wal(state).unlink(), shm(state).unlink()),
    "wal truncated": lambda state: truncate(wal(state), 0.5),
    "garbage in the wal": lambda state: overwrite(wal(state), 0.4),
}
# … or as a stop left it (every action in the file)
DAMAGE_STOPPED: dict[str, Callable[[Path], None]] = {
    "state truncated": lambda state: truncate(state, 0.5),
    # (over the head of its second page: PRAGMA quick_check reads a file's structure, not its text)
    "garbage in the state file": lambda state: overwrite(state, 4096),
}


def crashed_session(state: Path, library: Path, cache: Path) -> None:
    """A session with a few actions, as a kill -9 leaves it (its file, its -wal and its -shm copied while open),
    and as a stop leaves it (`state` with .stopped after its name)."""
    table = Table(state.parent / "live.sqlite", library, cache)
    try:
        for _ in range(4):
            assert table.as_("Anna", "/api/life", {"whose": "Ben", "delta": -1})[0] == 200
        for suffix in ("", "-wal", "-shm"):
            shutil.copyfile(f"{table.session.path}{suffix}", f"{state}{suffix}")
    finally:
        table.stop()
    (state.parent / "live.sqlite").rename(state.with_name(state.name + ".stopped"))


@pytest.fixture(name="crashed", scope="module")
def crashed_fixture(legacy_cache, tmp_path_factory) -> Path:
    """A crashed session's three files and its library, made once: each test damages a copy."""
    folder = tmp_path_factory.mktemp("crashed")
    library = folder / "lib.json"
    assert Hhd(legacy_cache)("generate", "--seed", "ember-tide-42", "-o", str(library)).exit_code == 0
    crashed_session(folder / "state.sqlite", library, legacy_cache)
    return folder


def damaged_copy(crashed: Path, into: Path, damage: str) -> Path:
    """A copy of the crashed session (or of the stopped one), damaged."""
    into.mkdir()
    if damage in DAMAGE_STOPPED:
        shutil.copyfile(crashed / "state.sqlite.stopped", into / "state.sqlite")
        DAMAGE_STOPPED[damage](into / "state.sqlite")
        return into / "state.sqlite"
    for name in ("state.sqlite", "state.sqlite-wal", "state.sqlite-shm"):
        shutil.copyfile(crashed / name, into / name)
    DAMAGE[damage](into / "state.sqlite")
    return into / "state.sqlite"


def test_the_undamaged_copies_are_whole_sessions(crashed):
    """The control: the crashed and the stopped session, undamaged, are read as they were (so each refusal below
    is its damage's)."""
    from hhdcli.table.game.store import inspect_state

    assert inspect_state(crashed / "state.sqlite")["seed"] == "ember-tide-42"
    assert inspect_state(crashed / "state.sqlite.stopped")["seed"] == "ember-tide-42"


def hhd_table_refuses(cache: Path, *args: str) -> str:
    """`hhd table ARGS` run as a process that must end (a table it started would serve until stopped): its
    stderr. Run again on another port when another test took the free one first."""
    for _attempt in range(3):
        process = hhd_table(cache, *args)
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=20)
            raise AssertionError(f"the table started: {out} {err}") from None
        if "is in use by another program" not in err:
            break
    assert process.returncode == 2 and not out, (out, err)
    return err


@pytest.mark.parametrize("damage", [*DAMAGE, *DAMAGE_STOPPED])
def test_hhd_table_refuses_a_damaged_state_file_in_one_line_and_leaves_it_byte_for_byte(legacy_cache, crashed,
                                                                                      tmp_path, damage):
    state = damaged_copy(crashed, tmp_path / "table", damage)
    before = folder_hash(state.parent)
    err = hhd_table_refuses(legacy_cache, "table", "-l", str(crashed / "lib.json"), "--player", "Anna=RG",
                            "--state", str(state))
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(state) in errors[0] and "Traceback" not in err, err

    assert folder_hash(state.parent) == before


def test_hhd_table_refuses_another_librarys_session_and_leaves_its_files_byte_for_byte(synced, crashed, tmp_path):
    for name in ("state.sqlite", "state.sqlite.stopped"):  # as a kill -9 left it, and as a stop did
        folder = tmp_path / name
        damaged_copy(crashed, folder, "state truncated")  # (the folder made; the file replaced below)
        for suffix in ("", "-wal", "-shm"):
            if (crashed / f"{name}{suffix}").exists():
                shutil.copyfile(crashed / f"{name}{suffix}", folder / f"state.sqlite{suffix}")
        other = folder / "other.json"
        assert synced("generate", "--seed", "other-seed-7", "-o", str(other)).exit_code == 0
        before = folder_hash(folder)
        result = synced("table", "-l", str(other), "--player", "Anna=RG", "--state", str(folder / "state.sqlite"),
                        "--port", str(free_port()))
        assert result.exit_code == 2 and "holds the session of library 'ember-tide-42'" in result.output
        assert folder_hash(folder) == before


def test_hhd_serve_refuses_each_damaged_table_alone_with_one_log_line_and_a_page_in_its_players_language(
        legacy_cache, tmp_path):
    server = Server(legacy_cache, tmp_path / "tables")
    tables: dict[str, dict[str, str]] = {}
    # (a served table's opening is folded into its file when the opener closes it: its -wal and -shm both lost
    # after a kill -9 leave the session as it was opened, which no file can tell from a session never acted at)
    served_damage = [damage for damage in DAMAGE if damage != "wal and shm deleted after actions"]
    for n, damage in enumerate(["whole", *served_damage, *DAMAGE_STOPPED, "another table's library"]):
        status, page = server.open({"name0": "Anna", "colors0": "R", "name1": "Ben", "colors1": "G",
                                    "seed": f"damage-{n}"})
        assert status == 201, page
        tables[damage] = opened(page)
        if damage not in DAMAGE_STOPPED:  # loaded and acted at: its actions in its -wal
            assert server.api("/api/join", tables[damage]["code"], {"player": "Anna"})[0] == 200
    server.stop(signal.SIGKILL)
    folders = {damage: tmp_path / "tables" / "tables" / table_id(t["code"]) for damage, t in tables.items()}
    assert (folders["wal truncated"] / "state.sqlite-wal").stat().st_size > 0
    for damage, folder in folders.items():
        if damage == "another table's library":  # a library/state mismatch: the file of another seed
            shutil.copyfile(folders["whole"] / "library.json", folder / "library.json")
        elif damage != "whole":
            {**DAMAGE, **DAMAGE_STOPPED}[damage](folder / "state.sqlite")
    for name in ("state.sqlite", "state.sqlite-wal", "state.sqlite-shm"):  # a table's folder that lost its state
        (folders["state deleted, its wal kept"] / name).unlink(missing_ok=True)
    before = {damage: folder_hash(folder) for damage, folder in folders.items()}
    again = Server(legacy_cache, tmp_path / "tables")
    try:
        for damage, table in tables.items():
            if damage == "whole":
                continue
            status, answer = again.api("/api/state", table["code"])
            assert status == 503 and "damaged" in answer["error"], (damage, answer)
            status, _headers, page = again.ask("GET", at(table["code"], "/"),
                                               headers=authorization(table["code"]) | {"Accept-Language": "ru"})
            assert status == 503 and "повреждено" in page.decode(), damage
        status, answer = again.api("/api/state", tables["whole"]["code"])
        assert status == 200 and [p["name"] for p in answer["players"]] == ["Anna", "Ben"]
    finally:
        _out, err = again.stop()
    said = [line for line in err.splitlines() if "refused" in line]
    assert len(said) == len(tables) - 1 and "Traceback" not in err, err
    for damage, table in tables.items():
        assert damage == "whole" or sum(table_id(table["code"])[:12] in line for line in said) == 1
        assert table["code"] not in err
    assert {damage: folder_hash(folder) for damage, folder in folders.items() if damage != "whole"} == \
        {damage: hashes for damage, hashes in before.items() if damage != "whole"}


def test_a_log_cut_through_an_older_runs_frame_is_whole(crashed, tmp_path):
    """SQLite's journal_size_limit cuts a log at any length: past the current run's frames lie an older run's,
    which SQLite does not read. Half of such a frame at the end is no damage."""
    from hhdcli.table.game.store import inspect_state

    state = damaged_copy(crashed, tmp_path / "table", "state truncated")
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(crashed / f"state.sqlite{suffix}", f"{state}{suffix}")
    log = wal(state).read_bytes()
    older = bytes(8) + b"\xde\xad\xbe\xef" * 2 + bytes(8) + bytes(2048)  # another run's salts, half a page
    wal(state).write_bytes(log + older)
    assert inspect_state(state)["seed"] == "ember-tide-42"


def test_a_state_file_damaged_while_the_table_runs_is_said_once_and_left_as_it_is(legacy_cache, library, tmp_path,
                                                                                  capfd):
    """Damage found by a request of a running table (the file overwritten under it) is one line in the host's
    terminal and a 503 in the asker's language; from then on every request is refused at once, nothing is read
    or written again, and the files stay byte for byte as the damage left them."""
    from tablekit import kept

    running = Table(tmp_path / "state.sqlite", library, legacy_cache)
    try:
        kept(running, "Anna")
        assert running.as_("Anna", "/api/draw")[0] == 200
        for name in ("state.sqlite", "state.sqlite-wal"):  # pages of both overwritten, as a bad disk or a hand
            if (tmp_path / name).exists():
                data = bytearray((tmp_path / name).read_bytes())
                data[4096:40000:7] = b"U" * len(data[4096:40000:7])
                (tmp_path / name).write_bytes(bytes(data))
        capfd.readouterr()
        status, answer = running.as_("Anna", "/api/draw")
        assert status == 503 and "damaged" in answer["error"]
        left = folder_hash(tmp_path)
        assert running.call("/api/state", headers={"Accept-Language": "ru"}) == \
            (503, {"error": "Сохранённое состояние этого стола повреждено; администратор сервера уже знает об этом."})
        assert running.as_("Anna", "/api/undo")[0] == 503 and folder_hash(tmp_path) == left
        said = [line for line in capfd.readouterr().err.splitlines() if line.startswith("hhd table:")]
        assert len(said) == 1 and "damaged" in said[0] and "backup" in said[0], said
    finally:
        running.stop()


def replace_by_copy(path: Path) -> None:
    """The file replaced by a copy of itself (a restore over it, an editor's save): the same bytes, another file."""
    copy = path.with_name(path.name + ".copy")
    shutil.copyfile(path, copy)
    os.replace(copy, path)


def grow_in_place(path: Path) -> None:
    """Written into where it is (cp over it): the same file, other bytes."""
    with path.open("ab") as handle:
        handle.write(bytes(4096))


# each change made to a running table's files by another hand: the table must notice it at its next write
CHANGED_UNDER: dict[str, Callable[[Path], None]] = {
    "wal removed": lambda state: wal(state).unlink(),
    "wal replaced": lambda state: replace_by_copy(wal(state)),
    "wal truncated": lambda state: truncate(wal(state), 0.5),
    "wal written into": lambda state: grow_in_place(wal(state)),
    "state removed": lambda state: state.unlink(),
    "state replaced": lambda state: replace_by_copy(state),
    "state truncated": lambda state: truncate(state, 0.5),
}


def test_a_tables_files_changed_under_it_while_it_runs_refuse_its_next_write_before_the_answer_and_alone(
        legacy_cache, tmp_path):
    """The issue: a -wal removed under a running table went unnoticed, the table answering 200 for actions written
    where nobody would read them. Each change to a table's files (removed, replaced, cut short, written into) is
    noticed at its next write, before the answer: 503 in the asker's language, one line in the log, the version
    where it was, the files left as the change left them; the other tables go on."""
    server = Server(legacy_cache, tmp_path / "tables")
    tables, tokens = {}, {}
    try:
        for n, change in enumerate(["untouched", *CHANGED_UNDER]):
            status, page = server.open({"name0": "Anna", "colors0": "R", "name1": "Ben", "colors1": "G",
                                        "seed": f"changed-{n}"})
            assert status == 201, page
            tables[change] = opened(page)
            tokens[change] = server.api("/api/join", tables[change]["code"], {"player": "Anna"})[1]["token"]
            for _ in range(3):
                assert server.api("/api/life", tables[change]["code"], {"whose": "Ben", "delta": -1},
                                  tokens[change])[0] == 200
        folders = {change: tmp_path / "tables" / "tables" / table_id(t["code"]) for change, t in tables.items()}
        versions = {change: server.api("/api/state", t["code"])[1]["version"] for change, t in tables.items()}
        for change, make in CHANGED_UNDER.items():
            assert wal(folders[change] / "state.sqlite").stat().st_size > 0  # the table's actions in its log
            make(folders[change] / "state.sqlite")
        left = {change: folder_hash(folders[change]) for change in CHANGED_UNDER}
        for change, table in tables.items():
            if change == "untouched":
                continue
            status, answer = server.api("/api/life", table["code"], {"whose": "Ben", "delta": -1}, tokens[change])
            assert status == 503 and "damaged" in answer["error"], (change, answer)
            status, _headers, page = server.ask("POST", at(table["code"], "/api/draw"), b"{}",
                                                {"Content-Type": "application/json", "Accept-Language": "ru"}
                                                | authorization(table["code"], tokens[change]))
            assert status == 503 and "повреждено" in page.decode(), change
            assert folder_hash(folders[change]) == left[change], change  # nothing written since the change
        untouched = tables["untouched"]
        assert server.api("/api/life", untouched["code"], {"whose": "Ben", "delta": -1}, tokens["untouched"])[0] == 200
        assert server.api("/api/state", untouched["code"])[1]["version"] == versions["untouched"] + 1
    finally:
        _out, err = server.stop()
    said = [line for line in err.splitlines() if "damaged" in line]
    assert len(said) == len(CHANGED_UNDER) and "Traceback" not in err, err
    for change, table in tables.items():
        assert change == "untouched" or sum(str(folders[change]) in line for line in said) == 1, (change, said)
        assert table["code"] not in err
    assert "its write-ahead log was removed or replaced while the table ran" in err
    for change in CHANGED_UNDER:  # the stop left a refused table's files as the change left them
        assert folder_hash(folders[change]) == left[change], change


def test_a_write_refused_because_the_wal_was_removed_is_refused_again_after_a_restart_and_nothing_answered_is_lost(
        legacy_cache, tmp_path):
    """The issue's sequence: version 14, the -wal removed, the table asked to act again. The action is refused
    (no 200 for a write nobody will read); after a restart the table is refused too, never resumed without the
    actions it answered."""
    server = Server(legacy_cache, tmp_path / "tables")
    try:
        table = opened(server.open({"name0": "Anna", "colors0": "R", "name1": "Ben", "colors1": "G",
                                    "seed": "wal-gone-1"})[1])
        token = server.api("/api/join", table["code"], {"player": "Anna"})[1]["token"]
        for _ in range(5):
            assert server.api("/api/life", table["code"], {"whose": "Ben", "delta": -1}, token)[0] == 200
        state = tmp_path / "tables" / "tables" / table_id(table["code"]) / "state.sqlite"
        wal(state).unlink()
        answers = [server.api("/api/life", table["code"], {"whose": "Ben", "delta": -1}, token)[0]
                   for _ in range(5)]
        assert answers == [503] * 5
    finally:
        server.stop()
    again = Server(legacy_cache, tmp_path / "tables")
    try:
        status, answer = again.api("/api/state", table["code"])
        assert status == 503 and "damaged" in answer["error"]
    finally:
        _out, err = again.stop()
    assert "its write-ahead log is missing" in err


def test_the_check_of_a_tables_files_costs_a_few_microseconds_an_action(tmp_path, capsys):
    """What the check adds to an action (four stat calls and a PRAGMA in its transaction, two more after it for
    the next), the best of five batches: a small part of the 4.2 ms of the server's CPU an action takes
    (benchmarks/table_browserlike.py)."""
    import time

    from hhdcli.table.game.store import Store

    store = Store(tmp_path / "state.sqlite")
    store.open()
    with store.transaction() as tx:
        tx.set_meta("seed", "s")
    db = store._reader()

    def best(work: Callable[[], None], rounds: int = 300) -> float:
        timings = []
        for _batch in range(5):
            started = time.perf_counter()
            for _ in range(rounds):
                work()
            timings.append((time.perf_counter() - started) / rounds)
        return min(timings)

    def check() -> None:
        store._check_files(db, writing=False)
        store._check_files(db, writing=True)
        store._marks = store._marked(db, store._marks.data_version)

    def action() -> None:
        with store.transaction() as tx:
            tx.set_meta("n", "1")
            tx.changed()

    checked, whole = best(check), best(action)
    store.close()
    with capsys.disabled():
        print(f"\nthe files' check: {checked * 1e6:.1f} µs an action; a whole transaction with it: "
              f"{whole * 1e6:.0f} µs")
    assert checked < 150e-6  # under 4% of an action's CPU, on a loaded machine


def test_hhd_tables_own_table_refuses_a_write_after_its_wal_is_removed_and_says_so_once(legacy_cache, library,
                                                                                       tmp_path, capfd):
    """`hhd table`'s table as `hhd serve`'s: the -wal removed under it, its next action is refused (503) before
    any answer, one line in the host's terminal, and the stop leaves the files as the removal left them."""
    running = Table(tmp_path / "state.sqlite", library, legacy_cache)
    try:
        for _ in range(3):
            assert running.as_("Anna", "/api/life", {"whose": "Ben", "delta": -1})[0] == 200
        version = running.state()["version"]
        wal(tmp_path / "state.sqlite").unlink()
        left = folder_hash(tmp_path)
        capfd.readouterr()
        status, answer = running.as_("Anna", "/api/life", {"whose": "Ben", "delta": -1})
        assert status == 503 and "damaged" in answer["error"] and running.session.version() == version
        assert running.as_("Anna", "/api/draw")[0] == 503 and folder_hash(tmp_path) == left
        said = [line for line in capfd.readouterr().err.splitlines() if line.startswith("hhd table:")]
        assert len(said) == 1 and "its write-ahead log was removed or replaced while the table ran" in said[0], said
    finally:
        running.stop()
    assert folder_hash(tmp_path) == left  # closed without folding a log into a file that is not its own


def test_a_served_table_refused_while_it_ran_stays_refused_when_it_leaves_memory(legacy_cache, tmp_path):
    """Refused tables leave memory as the others do, their files untouched, and stay refused (never loaded again
    from files that changed under them) until the server starts again; the others go on."""
    import time

    from test_table_community import table_client

    from hhdcli.cache import load_cache
    from hhdcli.table.hosting.community import UNLOAD_AFTER, Community, Seat
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.opening import stream_changes
    from hhdcli.table.hosting.throttle import Throttle

    community = Community(tmp_path, load_cache(legacy_cache), Public(), Throttle(), stream_changes,
                          log=lambda line: None)
    changed, other = (community.open([Seat("Anna", "R")], seed, None) for seed in ("gone-1", "other-1"))
    tokens = {}
    for table in (changed, other):
        with table_client(community, table.code) as client:
            tokens[table.code] = client.post("/api/join", json={"player": "Anna"},
                                             headers=authorization(table.code)).json["token"]
    folder = tmp_path / "tables" / table_id(changed.code)
    replace_by_copy(folder / "state.sqlite")
    with table_client(community, changed.code) as client:
        assert client.post("/api/first-player", json={},
                           headers=authorization(changed.code, tokens[changed.code])).status_code == 503
    left = folder_hash(folder)
    assert sorted(community.unload_idle(time.monotonic() + UNLOAD_AFTER + 1)) == \
        sorted([table_id(changed.code), table_id(other.code)])
    assert folder_hash(folder) == left  # its connections left open: no log folded into the new file
    assert isinstance(community.table_for(changed.code), str)  # refused, not loaded again
    assert community.backup_view().refused == {table_id(changed.code)}
    with table_client(community, other.code) as client:
        assert client.post("/api/first-player", json={},
                           headers=authorization(other.code, tokens[other.code])).status_code == 200
