"""The production server under `hhd table` (gevent's pywsgi): pushes reach every open page at once, an address
holds a bounded share of event streams, and SIGTERM ends the streams and the process within 5 seconds."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import time

import pytest
from tablekit import authorization, free_port
from test_table_serve import hhd_table


def api(port: int, path: str, body: object = None, token: str | None = None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"} | authorization(player=token)
    connection.request("POST" if body is not None else "GET", path,
                       body=None if body is None else json.dumps(body), headers=headers)
    answer = connection.getresponse()
    status, data = answer.status, json.loads(answer.read() or b"{}")
    connection.close()
    return status, data


def open_stream(port: int) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/events")
    return connection.getresponse()


def next_event(stream: http.client.HTTPResponse) -> str:
    """The next `event:` line's data (keep-alive comments skipped)."""
    while True:
        line = stream.readline().decode()
        if not line:
            return ""
        if line.startswith("data: "):
            return line[6:].strip()


def started(legacy_cache, library, tmp_path, port: int):
    process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG", "--player", "Ben=WU",
                        "--state", str(tmp_path / "s.sqlite"), "--offline", port=port)
    assert process.stdout.readline().startswith("open http://")
    return process


def test_a_draw_is_pushed_to_every_open_page_and_sigterm_ends_them_within_5_seconds(legacy_cache, library,
                                                                                     tmp_path):
    port = free_port()
    process = started(legacy_cache, library, tmp_path, port)
    try:
        pages = [open_stream(port) for _ in range(10)]
        assert all(p.status == 200 and p.getheader("Content-Type").startswith("text/event-stream") for p in pages)
        firsts = {next_event(p) for p in pages}
        token = api(port, "/api/join", {"player": "Anna"})[1]["token"]
        assert api(port, "/api/opening-hand", {}, token)[0] == 200 and api(port, "/api/keep", {"bottom": []}, token)[0] == 200
        assert api(port, "/api/draw", {}, token)[0] == 200
        pushed = [next_event(p) for p in pages]  # each page hears the join, then the draw
        assert all(int(n) > int(max(firsts)) for n in pushed)
        asked = time.monotonic()
        process.send_signal(signal.SIGTERM)
        for page in pages:  # each stream ends (not at its next keep-alive, 15 s away)
            while next_event(page):
                pass
        process.wait(timeout=5)
        assert time.monotonic() - asked < 5
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate(timeout=10)
    assert process.returncode == 0 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("stopped; the session is kept in")


def test_one_address_holds_at_most_twelve_event_streams(legacy_cache, library, tmp_path):
    from hhdcli.table.hosting.server import Bounds

    port = free_port()
    process = started(legacy_cache, library, tmp_path, port)
    try:
        held = [open_stream(port) for _ in range(Bounds().streams_per_address)]
        assert all(p.status == 200 for p in held)
        refused = open_stream(port)
        assert refused.status == 429 and refused.getheader("Retry-After")
        held.pop().close()
        time.sleep(0.5)
        assert api(port, "/api/state")[0] == 200  # other requests of the address go on meanwhile
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=10)


def test_a_full_disk_refuses_new_actions_with_a_message_and_keeps_every_one_answered(legacy_cache, library,
                                                                                     tmp_path):
    """The state file on a small tmpfs (root only: mount), filled up mid-evening."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("needs to mount a small tmpfs (root)")
    port = free_port()
    process = None
    try:
        process = hhd_table(legacy_cache, "table", "-l", str(library), "--player", "Anna=RG", "--offline",
                            "--state", str(disk / "s.sqlite"), port=port)
        assert process.stdout.readline().startswith("open http://")
        token = api(port, "/api/join", {"player": "Anna"})[1]["token"]
        assert api(port, "/api/opening-hand", {}, token)[0] == 200
        assert api(port, "/api/keep", {"bottom": []}, token)[0] == 200
        before = api(port, "/api/state", token=token)[1]
        filler = disk / "filler"
        with filler.open("wb") as handle:  # the disk full to its last byte
            try:
                while True:
                    handle.write(b"\0" * 65536)
                    handle.flush()
            except OSError:
                pass
        status, refused = api(port, "/api/draw", {}, token)
        if status != 507:
            process.send_signal(signal.SIGTERM)
            raise AssertionError((status, refused, process.communicate(timeout=10)[1][-1500:]))
        assert "disk is full" in refused["error"]
        assert api(port, "/api/state", token=token)[1]["log"] == before["log"]  # nothing answered is lost
        filler.unlink()
        assert api(port, "/api/draw", {}, token)[0] == 200  # space again: the table goes on
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=10)
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_pages_coming_and_going_are_pushed_at_most_once_a_second_and_none_is_lost():
    """A page's coming or going is pushed at once, unless one was pushed within the last PRESENCE_EVERY: then
    once that has passed, by the next stream to wake (500 pages reconnecting at once bumped every table ten times)."""
    from hhdcli.table.game.changes import PRESENCE_EVERY, Changes

    changes = Changes()
    anna = changes.stream("Anna", keepalive=5.0)
    assert next(anna).startswith("retry:") and changes.count == 1  # Anna's page listens: pushed at once
    ben = changes.stream("Ben", keepalive=5.0)
    next(ben)
    assert changes.count == 1 and changes.presence_due  # Ben's, within the second: not yet
    started = time.monotonic()
    assert next(anna).startswith("event: change")  # Anna's stream wakes and pushes it
    assert time.monotonic() - started <= PRESENCE_EVERY + 0.5 and changes.count == 2 and not changes.presence_due
    assert next(ben).startswith("event: change")  # and Ben's page hears it
    anna.close()
    ben.close()


# A heap left in pieces, as a server's is after drawing faces and writing answers: 64 KB blocks (below glibc's
# mmap threshold, so on the heap) freed between small ones kept, which pin the heap's top.
FRAGMENTED = """
import sys
from hhdcli.table.hosting.server import trim_heap

def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20

kept, freed = [], []
for _ in range(1500):
    freed.append(bytearray(64 * 1024))
    kept.append(bytearray(64))
del freed
before = rss()
trimmed = trim_heap()
print(trimmed, before, rss())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim, /proc")
def test_the_server_gives_its_heaps_free_pages_back_to_the_system():
    done = subprocess.run([sys.executable, "-c", FRAGMENTED], capture_output=True, text=True, check=True)
    trimmed, before, after = done.stdout.split()
    assert trimmed == "True"
    assert float(before) - float(after) > 50, done.stdout  # of the ~94 MB freed, which the heap had kept
