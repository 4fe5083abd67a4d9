"""A cold `hhd proxies` (no image cached) works in three processes: the pages are laid out in a forked child,
half the scans download in another, the other half here (hhdcli/render/scans/aside.py says why). These tests run
hhd as its own process, as the user does: the pytest process has threads (the loopback server), and a
process with threads never forks, so an in-process run takes the one-process path the other tests cover."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from support import Reply, cards_with_served_images, on_a_terminal, session_processes

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
                                reason="the child processes are forked; their count is read from /proc")


def _scan(i: int) -> bytes:
    """A card-sized JPEG of its own (745 x 1040: embedded as it is, byte for byte)."""
    out = io.BytesIO()
    Image.new("RGB", (745, 1040), (20 * i % 256, 90, 200 - 7 * i % 200)).save(out, "JPEG", quality=80)
    return out.getvalue()


def _hhd(cache: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "hhdcli", "--cache-dir", str(cache), "--timeout", "5", *args]



def _downloading(sid: int) -> int:
    """How many processes of the session run threads (download), seen at once during a short watch."""
    seen = 0
    for _ in range(20):
        seen = max(seen, sum(1 for threads in session_processes(sid).values() if threads > 1))
        time.sleep(0.01)
    return seen


def _temp_files(*folders: Path) -> list[Path]:
    return [p for folder in folders for p in folder.rglob("*") if p.name.endswith(".tmp")]


def _run_aside(code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh Python with no thread but its main one (the only kind of process that forks)."""
    return subprocess.run([sys.executable, "-c", "from hhdcli.render.scans.aside import Aside\n" + code],
                          capture_output=True, text=True, timeout=60)


# --- the child process itself -------------------------------------------------------------------------------


def test_work_aside_runs_in_another_process_and_its_items_arrive_in_order_then_it_is_reaped():
    done = _run_aside(
        "import os\n"
        "aside = Aside(lambda: ((os.getpid(), i) for i in range(3)))\n"
        "items = list(aside.items())\n"
        "aside.close()\n"
        "assert aside.forked and [i for _, i in items] == [0, 1, 2], items\n"
        "assert all(pid != os.getpid() for pid, _ in items), items\n"
        "try:\n"
        "    os.waitpid(-1, os.WNOHANG)\n"
        "    print('a child is left')\n"
        "except ChildProcessError:\n"
        "    print('no child left')\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "no child left"


def test_a_child_that_fails_sends_what_it_made_and_nothing_else_and_prints_no_traceback():
    """The caller sees a short answer and does the rest itself, where any error is raised as without a child."""
    done = _run_aside(
        "def work():\n"
        "    yield 1\n"
        "    raise ValueError('broken')\n"
        "aside = Aside(work)\n"
        "print(list(aside.items()))\n"
        "aside.close()\n")
    assert done.returncode == 0 and done.stdout.strip() == "[1]"
    assert "Traceback" not in done.stderr


def test_with_threads_running_nothing_is_forked_and_the_caller_does_the_work():
    from hhdcli.render.scans.aside import Aside

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        aside = Aside(lambda: [1])
        assert not aside.forked and list(aside.items()) == []
        aside.close()
    finally:
        stop.set()
        other.join()


def test_closing_a_child_mid_write_lets_it_remove_its_temp_file_first(tmp_path):
    """close() asks the child to stop as Ctrl-C would (SIGTERM taken as KeyboardInterrupt), and waits for it:
    the atomic write it was in removes its temp file, so nothing half-written is left."""
    target = tmp_path / "out.bin"
    done = _run_aside(
        "import time\n"
        "from pathlib import Path\n"
        "from hhdcli.files import write_atomic\n"
        "def slow(handle):\n"
        "    handle.write(b'half')\n"
        "    handle.flush()\n"
        "    time.sleep(30)\n"
        "def work():\n"
        f"    write_atomic(Path({str(target)!r}), slow, durable=False)\n"
        "    yield 'written'\n"
        "aside = Aside(work)\n"
        f"folder = Path({str(tmp_path)!r})\n"
        "while not list(folder.glob('.*.tmp')):\n"
        "    time.sleep(0.01)\n"
        "started = time.monotonic()\n"
        "aside.close()\n"
        "print(round(time.monotonic() - started), list(aside.items()))\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "[]"]  # stopped at once, not after its 30 s
    assert not target.exists() and _temp_files(tmp_path) == []


# --- hhd proxies as the user runs it ------------------------------------------------------------------------


def test_a_cold_run_downloads_in_a_second_process_and_embeds_every_scan_byte_for_byte(server, tmp_path):
    """Both halves arrive (every other image in the child), failures in either half become one line each,
    every other scan is in the PDF as it was served, and no temp file is left."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, Reply(b""))
    scans = {i: _scan(i) for i in range(12)}
    for i, data in scans.items():
        server.routes[f"/img/{i}.jpg"] = Reply(data, content_type="image/jpeg", delay=0.3)
    server.routes["/img/2.jpg"] = Reply(b"gone", 404, "text/plain")  # this process's half
    server.routes["/img/5.jpg"] = Reply(b"<html>a portal</html>", content_type="text/html")  # the child's half
    out = tmp_path / "p.pdf"
    process = subprocess.Popen(_hhd(tmp_path / "cache", "proxies", *names, "-o", str(out)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    while len(server.hits) < 3 and process.poll() is None:  # the downloads are under way, 0.3 s each
        time.sleep(0.01)
    during = _downloading(process.pid)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert during == 2  # this process and the one downloading the other half
    output = stdout + stderr
    assert "12 proxies: 10 from 10 images, 2 from card data" in output
    names_of = names[1::2]
    assert sum(1 for line in output.splitlines() if "HTTP 404" in line) == 1 and names_of[2] in output
    assert sum(1 for line in output.splitlines() if "not an image" in line) == 1 and names_of[5] in output
    pdf = out.read_bytes()
    assert [i for i, data in scans.items() if data in pdf] == [0, 1, 3, 4, 6, 7, 8, 9, 10, 11]
    assert all(server.count(f"/img/{i}.jpg") == 1 for i in range(12))  # each image asked for once
    assert _temp_files(tmp_path) == [] and session_processes(process.pid) == {}


def test_the_progress_bar_counts_the_images_of_both_processes(server, tmp_path):
    """The child's images are counted as they arrive here: the bar climbs past half and ends at 100 %."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, Reply(_scan(2), content_type="image/jpeg",
                                                                                 delay=0.1))
    seen = on_a_terminal(_hhd(tmp_path / "cache", "proxies", *names, "-o", str(tmp_path / "p.pdf"))).decode("utf-8", "replace")
    shown = [int(p) for p in re.findall(r"images\s+\[[#-]*\]\s+(\d+)%", seen)]
    assert shown and shown[-1] == 100 and shown == sorted(shown), seen[-400:]
    assert "12 proxies: 12 from 12 images" in seen


@pytest.mark.parametrize("to", ["the terminal's process group", "hhd alone"])
def test_ctrl_c_mid_download_leaves_no_temp_file_and_no_process(server, tmp_path, to):
    """Ctrl-C reaches every process of the terminal's group; `kill -INT` only hhd, which stops its children.
    Either way hhd ends at once with no traceback, and when it has ended no child runs and no file is half-written."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 40, Reply(_scan(1), content_type="image/jpeg",
                                                                                 delay=0.5))
    out = tmp_path / "p.pdf"
    # SIGINT as a terminal sends it, even when this run inherited it ignored (a background job, some CI)
    process = subprocess.Popen(_hhd(tmp_path / "cache", "proxies", *names, "-o", str(out)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while len(server.hits) < 12 and process.poll() is None:  # both halves part-way through their images
        time.sleep(0.01)
    assert _downloading(process.pid) == 2
    started = time.monotonic()
    if to == "hhd alone":
        os.kill(process.pid, signal.SIGINT)
    else:
        os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode != 0 and "Traceback" not in stderr
    assert time.monotonic() - started < 3  # the downloads under way end; the other 28 are not begun
    assert session_processes(process.pid) == {}
    assert _temp_files(tmp_path) == [] and not out.exists()
    assert len(server.hits) < 40


def test_an_image_cache_that_cannot_be_written_is_one_line_and_leaves_no_process(server, tmp_path):
    run, names = cards_with_served_images(server, tmp_path / "cache", 6, Reply(_scan(3), content_type="image/jpeg"))
    (tmp_path / "cache" / "images").write_text("a file where the image cache's folder should be")
    process = subprocess.Popen(_hhd(tmp_path / "cache", "proxies", *names, "-o", str(tmp_path / "p.pdf")),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _, stderr = process.communicate(timeout=60)
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert process.returncode == 5, stderr
    assert len(lines) == 2 and lines[0].startswith("error: cannot write the cache file")  # the error, its hint
    assert lines[1].strip().startswith("→") and "--cache-dir" in lines[1]
    assert session_processes(process.pid) == {} and not (tmp_path / "p.pdf").exists()



def test_hhd_killed_mid_download_leaves_a_child_that_stops_at_its_next_image_with_nothing_half_written(server,
                                                                                                     tmp_path):
    """kill -9 gives hhd no chance to stop its child: the child finds the pipe broken when it next has an image
    to send, lets the downloads under way finish (each written whole, or not at all) and ends."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 40, Reply(_scan(1), content_type="image/jpeg",
                                                                                 delay=0.5))
    process = subprocess.Popen(_hhd(tmp_path / "cache", "proxies", *names, "-o", str(tmp_path / "p.pdf")),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    while len(server.hits) < 12 and process.poll() is None:
        time.sleep(0.01)
    assert _downloading(process.pid) == 2
    process.kill()
    asked_before = len(server.hits)
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session_processes(process.pid) == {}
    # after the kill, at most the requests both processes had under way (four workers each) reach the server;
    # a child that ran on would ask for the rest of its half (over a dozen)
    assert _temp_files(tmp_path) == [] and len(server.hits) - asked_before <= 8


# --- progress, counted in one place for both halves ---------------------------------------------------------

_COUNTED_LAY_OUT = """
import sys, threading
from pathlib import Path
from hhdcli.cache import load_cache
from hhdcli.mana import SymbolTable
from hhdcli.render.scans.images import ImageStore
from hhdcli.render.proxies import ProxyOptions, lay_out

cache = load_cache(Path(sys.argv[1]))
lock, counted = threading.Lock(), [0]
def progress():
    with lock:
        counted[0] += 1
store = ImageStore(Path(sys.argv[1]) / "images")
laid = lay_out(cache.cards, SymbolTable.from_records(cache.symbols), ProxyOptions(), store, progress)
print(counted[0], laid.report.images, len(laid.report.fallbacks))
"""


def _lay_out_counting(cache: Path) -> subprocess.Popen[str]:
    """`lay_out` of every card in `cache` in a fresh Python (one thread: it forks), with a progress callback that
    counts its calls; prints the count, the images in the PDF and the cards that fell back to text."""
    return subprocess.Popen([sys.executable, "-c", _COUNTED_LAY_OUT, str(cache)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def test_progress_is_called_exactly_once_per_image_when_half_are_fetched_in_the_child(server, tmp_path):
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, Reply(b""))
    for i in range(12):
        server.routes[f"/img/{i}.jpg"] = Reply(_scan(i), content_type="image/jpeg", delay=0.2)
    process = _lay_out_counting(tmp_path / "cache")
    while len(server.hits) < 3 and process.poll() is None:
        time.sleep(0.01)
    during = _downloading(process.pid)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert during == 2  # the child fetched its half
    assert stdout.split() == ["12", "12", "0"]


def test_a_child_killed_mid_download_leaves_its_rest_to_this_process_and_progress_still_ends_at_n(server, tmp_path):
    """What the child did not send is fetched here: every image arrives, and each is counted once, whether the
    child sent it before it died or this process fetched it after."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 24, Reply(b""))
    for i in range(24):
        server.routes[f"/img/{i}.jpg"] = Reply(_scan(i), content_type="image/jpeg", delay=0.3)
    process = _lay_out_counting(tmp_path / "cache")
    while len(server.hits) < 6 and process.poll() is None:  # both halves under way, most of their images to come
        time.sleep(0.01)
    children = [pid for pid, threads in session_processes(process.pid).items() if pid != process.pid and threads > 1]
    assert len(children) == 1
    os.kill(children[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert stdout.split() == ["24", "24", "0"]
    assert session_processes(process.pid) == {}
