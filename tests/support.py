"""Test helpers: the real registry data in tests/data, a loopback HTTP server, the CLI run in-process."""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hhdcli.cli import cli

DATA = Path(__file__).resolve().parent / "data"  # copies of the public-domain registry files (see its README)


def _unpacked(name: str) -> Path:
    """A gzipped data file unpacked once into the temporary folder (by content, so a new copy is a new file)."""
    packed = DATA / f"{name}.gz"
    raw = gzip.decompress(packed.read_bytes())
    target = Path(tempfile.gettempdir()) / f"hhd-tests-{hashlib.sha256(raw).hexdigest()[:16]}" / name
    if not target.exists():
        target.parent.mkdir(exist_ok=True)
        partial = target.with_name(f".{name}.{os.getpid()}")
        partial.write_bytes(raw)
        partial.replace(target)
    return target


LEGACY = _unpacked("Hellscube-Database.legacy-2024-04-22.json")
CURRENT_SAMPLE = DATA / "Hellscube-Database.current-sample.json"
EXCERPT = DATA / "Hellscube-Database.current-excerpt.json"
PIPS = DATA / "pips.json"


@dataclass
class Reply:
    """What the loopback server answers for one path."""

    body: bytes = b""
    status: int = 200
    content_type: str = "application/json"
    etag: str | None = None
    gzip: bool = False
    delay: float = 0.0
    truncate_to: int | None = None  # announce the full length, send only this many bytes
    trickle: tuple[int, float] | None = None  # send the body this many bytes at a time, this many seconds apart
    headers: dict[str, str] = field(default_factory=dict)
    slow_headers: float = 0.0  # send the status line and headers one byte per this many seconds


Route = Callable[["Handler"], Reply]


class _QuietServer(ThreadingHTTPServer):
    # socketserver's default backlog is 5: a sixth connection made at once had its SYN dropped and came a second
    # later, as no real server answers (hhd's eight download workers connect together)
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        """A client hanging up on a deliberately slow or huge answer is expected here, not news."""
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class LoopbackServer:
    def __init__(self) -> None:
        self.routes: dict[str, Reply | Route] = {}
        self.hits: list[tuple[str, str, dict[str, str]]] = []  # method, path, headers
        self.bodies: list[bytes] = []
        server = self

        class _Handler(Handler):
            owner = server

        self.httpd = _QuietServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)  # close() waits one
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def serve_file(self, path: str, file: Path, gzip_it: bool = False) -> None:
        data = file.read_bytes()
        self.routes[path] = Reply(data, etag='"' + hashlib.sha256(data).hexdigest()[:16] + '"', gzip=gzip_it)

    def count(self, path: str, method: str = "GET") -> int:
        return sum(1 for m, p, _ in self.hits if p == path and m == method)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Handler(BaseHTTPRequestHandler):
    owner: LoopbackServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def _answer(self, method: str) -> None:
        path = self.path.split("?")[0]
        body = b""
        if method == "POST":
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.owner.bodies.append(body)
        self.owner.hits.append((method, path, dict(self.headers)))
        route = self.owner.routes.get(path)
        reply = route(self) if callable(route) else route
        if reply is None:
            reply = Reply(b"not found", 404, "text/plain")
        if reply.delay:
            time.sleep(reply.delay)
        if reply.etag and self.headers.get("If-None-Match") == reply.etag:
            self.send_response(304)
            self.send_header("ETag", reply.etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        payload = gzip.compress(reply.body, mtime=0) if reply.gzip else reply.body
        if reply.slow_headers:
            self._send_slowly(reply, payload)
            return
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(payload)))
        if reply.gzip:
            self.send_header("Content-Encoding", "gzip")
        if reply.etag:
            self.send_header("ETag", reply.etag)
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        if reply.truncate_to is not None:
            payload = payload[: reply.truncate_to]
            self.close_connection = True
        try:
            step, pause = reply.trickle or (len(payload) or 1, 0.0)
            for start in range(0, len(payload), step):
                self.wfile.write(payload[start:start + step])
                self.wfile.flush()
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send_slowly(self, reply: Reply, payload: bytes) -> None:
        head = f"HTTP/1.1 {reply.status} OK\r\nContent-Type: {reply.content_type}\r\n" \
               f"Content-Length: {len(payload)}\r\n\r\n".encode()
        try:
            for i in range(len(head)):
                self.wfile.write(head[i:i + 1])
                self.wfile.flush()
                time.sleep(reply.slow_headers)
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")


@dataclass
class Hhd:
    """Runs the real CLI in-process against one cache folder."""

    cache_dir: Path
    registry_url: str | None = None

    def __call__(self, *args: str, input: str | None = None):
        base = ["--cache-dir", str(self.cache_dir), "--timeout", "2"]
        if self.registry_url:
            base += ["--registry-url", self.registry_url]
        result = CliRunner().invoke(cli, base + list(args), input=input, catch_exceptions=False)
        return result


ROOT = Path(__file__).resolve().parents[1]


def bare_copy(target: Path) -> Path:
    """The checkout's tracked and new files in an empty folder: what a user who clones the project has."""
    import shutil
    import subprocess

    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_file() and (not name.startswith("cache/") or name == "cache/.gitkeep"):
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def cards_with_served_images(server: LoopbackServer, cache_dir: Path, count: int, reply: Reply) -> tuple[Hhd, list[str]]:
    """A cache of `count` Hellscube cards of the excerpt whose images the loopback server answers with `reply`;
    the runner and the `--cards` arguments that name them all."""
    import json

    records = [r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC")][:count]
    for i, record in enumerate(records):
        record.pop("card_faces", None)
        record["image"] = f"{server.url}/img/{i}.jpg"
        server.routes[f"/img/{i}.jpg"] = reply
    source = cache_dir.parent / "catalog.json"
    source.write_text(json.dumps({"data": records}))
    run = Hhd(cache_dir)
    assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
    return run, [arg for r in records for arg in ("--cards", r["name"])]


def on_a_terminal(command: list[str], env: dict[str, str] | None = None) -> bytes:
    """What a person at a terminal sees of a command run there: its output on a pseudo-terminal (colors and
    progress bars are drawn only on one)."""
    import pty
    import select
    import subprocess

    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    seen = b""
    while select.select([leader], [], [], 30)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the program ends
            break
        if not chunk:
            break
        seen += chunk
    process.wait(timeout=30)
    os.close(leader)
    return seen


# --- helpers of many test files -------------------------------------------------------------------------------

DEEP = b"[" * 100_000 + b"]" * 100_000  # JSON nested far deeper than Python's recursion limit


def excerpt_with(field: str, value: object) -> bytes:
    """The current-format excerpt with its first record's `field` set to `value`."""
    import json

    records = json.loads(EXCERPT.read_text())["data"]
    records[0] = {**records[0], field: value}
    return json.dumps({"data": records}).encode()


def one_line_error(result) -> str:
    """The one `error:` line of a failed run, which is no traceback."""
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code != 0 and len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


def unchanged(path: Path, before: bytes) -> bool:
    return path.read_bytes() == before


def timed(run, *args: str) -> tuple[float, object]:
    """How long a run took, and its result."""
    start = time.monotonic()
    result = run(*args)
    return time.monotonic() - start, result


def chromium(size: tuple[int, int] = (390, 844)):
    """A headless Chromium through chromedriver, as every browser test drives one (None without them: the CI
    script installs both). Its console is kept (goog:loggingPrefs), so a test reads what the page logged: a
    script's error, a Content-Security-Policy violation."""
    import shutil

    driver_path, binary = shutil.which("chromedriver"), shutil.which("chromium") or shutil.which("chromium-browser")
    if driver_path is None or binary is None:
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(argument)
    options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=options)


def session_processes(sid: int) -> dict[int, int]:
    """The live processes of a session (zombies have ended) and how many threads each runs: the one that
    lays pages out has one, those that download have more."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found[int(entry.name)] = int(fields[17])
    return found


@functools.cache
def code_messages(domain: str) -> Any:
    """Every message of a catalog ("hhd", "table") in the code, as scripts/update_catalog.py extracts them (by
    babel.cfg's folders, plus what pybabel cannot see): a Babel Catalog, each message with where it is."""
    import runpy

    return runpy.run_path(str(ROOT / "scripts" / "update_catalog.py"))["extracted"](domain)
