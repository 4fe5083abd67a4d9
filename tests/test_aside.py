"""The forked download child (hhdcli/render/scans/aside.py, used by images.Fetching) stops when told, when its parent
ends, and is given up when it stops answering; Ctrl-C ends a run within a second, however silent the image host.
hhd runs as its own process here, as the user runs it (a process with threads, like pytest's, never forks)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from support import Reply, cards_with_served_images, session_processes

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
                                reason="the child processes are forked; they are found in /proc")

SILENT = Reply(b"", content_type="image/jpeg", delay=120)  # a host that takes the request and never answers


def _scan() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (745, 1040), (90, 20, 200)).save(out, "JPEG", quality=80)
    return out.getvalue()


def _start(cache: Path, names: list[str], out: Path, timeout: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "hhdcli", "--cache-dir", str(cache), "--timeout", str(timeout),
                             "proxies", *names, "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, env={**os.environ, "HHD_LANG": "en"},
                            # Ctrl-C as a terminal sends it, even when this run inherited it ignored (a test worker)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))



def _download_child(process: subprocess.Popen[str], server) -> int:
    """The child downloading half the images, once both halves have asked for some."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        children = [pid for pid, threads in session_processes(process.pid).items() if pid != process.pid and threads > 1]
        if children and len(server.hits) >= 4:
            return children[0]
        time.sleep(0.02)
    raise AssertionError("no download child started")


def _ended_within(sid: int, seconds: float) -> float:
    """Seconds until no process of the session runs (at most `seconds`, then the test fails)."""
    started = time.monotonic()
    while session_processes(sid):
        assert time.monotonic() - started < seconds, f"still running: {session_processes(sid)}"
        time.sleep(0.02)
    return time.monotonic() - started


def test_a_stopped_download_child_is_given_up_and_its_half_fetched_here(server, tmp_path):
    """SIGSTOP the child mid-run: after a request's deadline and a little more without a word from it, hhd
    stops it for good and fetches the images it did not send itself."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, Reply(_scan(), content_type="image/jpeg",
                                                                                 delay=0.4))
    process = _start(tmp_path / "cache", names, tmp_path / "p.pdf", timeout=2)
    child = _download_child(process, server)
    os.kill(child, signal.SIGSTOP)
    stopped = time.monotonic()
    _, stderr = process.communicate(timeout=60)
    took = time.monotonic() - stopped
    assert process.returncode == 0, stderr
    assert "12 proxies: 12 from 12 images" in stderr
    assert took < 2 + 5 + 2 + 4  # the deadline, the child's slack, its grace to stop, the images fetched here
    assert session_processes(process.pid) == {}


def _layout_child(process: subprocess.Popen[str]) -> int:
    """The child laying the pages out: the first one hhd forks (before the download child)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        children = sorted(pid for pid in session_processes(process.pid) if pid != process.pid)
        if children:
            return children[0]
        time.sleep(0.002)
    raise AssertionError("no layout child started")


def test_a_stopped_layout_child_is_given_up_once_the_downloads_are_done_and_the_pages_laid_out_here(server,
                                                                                                    tmp_path):
    """SIGSTOP the child laying the pages out as it starts: once the downloads are done and it has been silent past
    its bound (5 s and 20 ms a proxy), hhd stops it for good and lays the pages out itself."""
    from hhdcli.render.proxies import LAYOUT_PER_PROXY, LAYOUT_SLACK

    run, names = cards_with_served_images(server, tmp_path / "cache", 40, Reply(_scan(), content_type="image/jpeg",
                                                                                 delay=0.2))
    process = _start(tmp_path / "cache", names, tmp_path / "p.pdf", timeout=10)
    os.kill(_layout_child(process), signal.SIGSTOP)
    stopped = time.monotonic()
    _, stderr = process.communicate(timeout=90)
    took = time.monotonic() - stopped
    assert process.returncode == 0, stderr
    assert "40 proxies: 40 from 40 images" in stderr
    bound = LAYOUT_SLACK + LAYOUT_PER_PROXY * 40
    assert bound <= took < bound + 15  # the child waited for (it was stopped mid-work), then the rest done here
    assert session_processes(process.pid) == {}


@pytest.mark.parametrize("to", ["hhd alone", "its process group"])
def test_sigterm_ends_the_download_child_with_its_parent(server, tmp_path, to):
    """SIGTERM ends hhd at once (no handler of its own); the child sees its parent gone and stops too, rather
    than downloading on from a silent host until its deadline."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, SILENT)
    process = _start(tmp_path / "cache", names, tmp_path / "p.pdf", timeout=20)
    _download_child(process, server)
    (os.kill if to == "hhd alone" else os.killpg)(process.pid, signal.SIGTERM)
    took = _ended_within(process.pid, 30)  # the child holds hhd's stderr: reading it to the end would wait too
    process.communicate(timeout=30)
    assert took < 2.5, f"{took:.1f} s"  # about 0.3 s; the margin is for a loaded machine


def test_ctrl_c_during_downloads_from_a_silent_host_acts_at_once(server, tmp_path):
    """Downloads under way are cut off (their connections shut), not waited for until their --timeout."""
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, SILENT)
    process = _start(tmp_path / "cache", names, tmp_path / "p.pdf", timeout=20)
    _download_child(process, server)
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    _ended_within(process.pid, 30)
    took = time.monotonic() - started
    _, stderr = process.communicate(timeout=30)
    assert process.returncode != 0 and "Traceback" not in stderr
    assert took < 2.5, f"{took:.1f} s"  # about 0.3 s; the margin is for a loaded machine
    assert not (tmp_path / "p.pdf").exists()
