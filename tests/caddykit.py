"""Debian's Caddy on loopback in front of `hhd serve`, as docs/server.md's community server runs it: the Caddyfile's
site block is read from docs/server.md itself (so a test or a benchmark runs the documented proxy, not a copy of
it), given a loopback address, Caddy's internal CA and free ports. Used by tests/test_table_caddy.py and
benchmarks/caddy_posts.py; imports no test framework."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CADDY = shutil.which("caddy")
DOCUMENTED_HOST, DOCUMENTED_UPSTREAM = "hell.example.org", "127.0.0.1:8040"
CADDY_DEFAULT_KEEPALIVE = 120.0  # seconds: Caddy 2's reverse_proxy keeps an idle upstream connection 2 minutes

GLOBAL = """{{
\tadmin off
\tauto_https disable_redirects
\tskip_install_trust
\tstorage file_system {storage}
\thttp_port {http_port}
\thttps_port {https_port}
}}

"""


def documented_site() -> str:
    """The Caddyfile's site block as docs/server.md gives it (its one ```caddyfile block, comments dropped)."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    block = re.search(r"```caddyfile\n(.*?)```", text, re.S)
    assert block is not None, "docs/server.md has no ```caddyfile block"
    return "".join(line + "\n" for line in block.group(1).splitlines() if not line.lstrip().startswith("#"))


def upstream_keepalive(site: str) -> float:
    """Seconds Caddy keeps an idle upstream connection for reuse: the site's `transport http { keepalive D }`, else
    Caddy's default. (`keepalive off` is 0: no reuse at all.)"""
    said = re.search(r"^\s*keepalive\s+(\S+)\s*$", site, re.M)
    if said is None:
        return CADDY_DEFAULT_KEEPALIVE
    return 0.0 if said.group(1) == "off" else duration(said.group(1))


def duration(text: str) -> float:
    """A Caddyfile duration of one unit ("5s", "2m", "500ms") in seconds."""
    number, unit = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)", text).groups()  # type: ignore[union-attr]
    return float(number) * {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}[unit]


def on_loopback(site: str, https_port: int, upstream: int, log: Path | None = None) -> str:
    """The documented site block served at https://localhost:PORT with Caddy's internal CA, proxying to `upstream`
    on 127.0.0.1, with an access log when `log` is given."""
    assert DOCUMENTED_HOST in site and DOCUMENTED_UPSTREAM in site, site
    extra = "\tbind 127.0.0.1\n\ttls internal\n"  # loopback only
    if log is not None:
        extra += f"\tlog {{\n\t\toutput file {log}\n\t\tformat json\n\t}}\n"
    site = site.replace(f"{DOCUMENTED_HOST} {{\n", f"localhost:{https_port} {{\n{extra}", 1)
    return site.replace(DOCUMENTED_UPSTREAM, f"127.0.0.1:{upstream}", 1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Caddy:
    """`caddy run` with the site block on loopback, answering over https (its internal CA's root trusted by
    `context`); its standard error (the reverse proxy's errors) in `errors`."""

    def __init__(self, folder: Path, upstream: int, site: str | None = None, log: bool = False) -> None:
        self.folder, self.upstream, self.site = folder, upstream, site or documented_site()
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "access.log" if log else None  # every request's URI and headers, as Caddy logs them
        self.errors = folder / "caddy.err"
        assert CADDY is not None, "needs Debian's caddy"
        for _attempt in range(3):  # a free port found here may be taken by another worker before Caddy binds it
            said = self._started(CADDY)
            if not said:
                return
            if "address already in use" not in said:
                break
        raise AssertionError("caddy did not start: " + said)

    def _started(self, caddy: str) -> str:
        """Caddy on two free ports, answering over https: "" once it does, else what it said before it stopped."""
        self.port = free_port()
        config = self.folder / "Caddyfile"
        config.write_text(GLOBAL.format(storage=self.folder / "data", http_port=free_port(), https_port=self.port)
                          + on_loopback(self.site, self.port, self.upstream, self.log), encoding="utf-8")
        env = {**os.environ, "HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder / "xdg"),
               "XDG_CONFIG_HOME": str(self.folder / "xdg")}
        with self.errors.open("wb") as errors:
            self.process = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                                            env=env, stdout=subprocess.DEVNULL, stderr=errors)
        self.url = f"https://localhost:{self.port}"
        root = self.folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            if root.exists():
                try:
                    self.context = ssl.create_default_context(cafile=str(root))
                    self.ask("GET", "/")
                    return ""
                except (OSError, ssl.SSLError):
                    pass
            time.sleep(0.2)
        return self.stop()

    def connection(self, source: str | None = None, timeout: float = 20) -> http.client.HTTPSConnection:
        """A connection to Caddy, from `source` (a loopback address: 127.0.0.2 and on are loopback too on Linux)."""
        return http.client.HTTPSConnection("localhost", self.port, timeout=timeout, context=self.context,
                                           source_address=(source, 0) if source else None)

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], bytes]:
        connection = self.connection()
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data

    def stop(self) -> str:
        """Caddy stopped; the end of what it wrote on standard error."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.errors.read_text(encoding="utf-8", errors="replace")[-2000:]
