"""The README runs as written: its first command in a bare copy with no network, then every example of the tour
in order, each with the exit code its comment documents, then the library example."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from support import ROOT, bare_copy

UNREACHABLE = "http://127.0.0.1:9"  # nothing listens there: the registry and Scryfall are out of reach


@dataclass(frozen=True)
class Example:
    command: str
    exit_code: int  # what its comment says: "(exit N)", else 0
    serves: bool  # "until Ctrl-C": started, opened, then stopped


def code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


def examples(block: str) -> list[Example]:
    """One example a line; what follows `  # ` is its comment."""
    out = []
    for line in block.splitlines():
        command, _, comment = line.partition("  #")
        if not command.strip():
            continue
        code = re.search(r"\bexit (\d+)", comment)
        out.append(Example(command.strip(), int(code.group(1)) if code else 0, "until Ctrl-C" in comment))
    return out


README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_tour_is_one_alternative_per_line_with_no_placeholder():
    for block in code_blocks(README, "sh")[2:]:
        for example in examples(block):
            assert example.command.startswith("hhd "), example
            assert "|" not in example.command and "[" not in example.command, f"not runnable: {example.command}"
            assert "…" not in example.command and "FILE" not in example.command, example.command


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return bare_copy(tmp_path_factory.mktemp("somewhere") / "hhd")


@pytest.fixture(scope="module")
def user_env(tmp_path_factory, project: Path) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")
    return {"PATH": f"{project / '.venv' / 'bin'}:{os.environ['PATH']}", "HOME": str(home), "LANG": "C.UTF-8",
            "HHD_REGISTRY_URL": UNREACHABLE, "HHD_SCRYFALL_URL": UNREACHABLE,
            **{k: v for k, v in os.environ.items() if k.startswith("PIP_")}}


def run(command: str, project: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True,
                          timeout=timeout)


def serve_then_stop(command: str, project: Path, env: dict[str, str]) -> str:
    """A server example: started as written, stopped with Ctrl-C once it says where it listens."""
    # SIGINT as a terminal sends it, even when this run inherited it ignored (a background job, some CI)
    from tablekit import free_port

    env = {**env, "HHD_TABLE_PORT": str(free_port())}  # as written, on a port no other test's server holds
    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=project, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = []
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            seen.append(line)
            if "http://" in line:
                break
        proc.send_signal(signal.SIGINT)
        seen.append(proc.communicate(timeout=30)[0])
    finally:
        proc.kill()
    return "".join(seen)


def test_the_readme_runs_in_order_in_a_bare_copy_with_no_network(project, user_env):
    first = run(code_blocks(README, "sh")[0], project, user_env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "offline: using the built-in Hellscube v1.2 data" in first.stderr
    assert "97 proxies: 23 basics, 74 from card data (images unreachable)" in first.stderr
    assert len(PdfReader(project / "hell-proxies.pdf").pages) == 11
    assert "97" in PdfReader(project / "hell-checklist.pdf").pages[0].extract_text()

    for block in code_blocks(README, "sh")[2:]:
        for example in examples(block):
            if example.serves:
                output = serve_then_stop(example.command, project, user_env)
                assert "http://" in output and "Traceback" not in output, output
                continue
            done = run(example.command, project, user_env, timeout=300)
            said = done.stdout[-1500:] + done.stderr[-1500:]
            assert done.returncode == example.exit_code, f"{example.command}\n{said}"
            assert "Traceback" not in said, said

    # the workflows first (a library with its proxies and checklist), then the pure pieces beneath them
    workflows = run(f"python - <<'EOF'\n{code_blocks(README, 'python')[0]}EOF", project, user_env, timeout=120)
    assert workflows.returncode == 0, workflows.stderr
    assert (project / "mine.pdf").read_bytes().startswith(b"%PDF") and (project / "mine.md").exists()
    library = run(f"python - <<'EOF'\n{code_blocks(README, 'python')[1]}EOF", project, user_env, timeout=120)
    assert library.returncode == 0, library.stderr
    assert library.stdout.strip() in ("land", "take", "choice")
    assert (project / "check.html").exists() and (project / "checklist.pdf").read_bytes().startswith(b"%PDF")


def test_offline_later_commands_say_it_once_and_do_not_retry(project, user_env):
    """After the first command's failed sync, the next hour's commands use the built-in data with one line."""
    fresh = {**user_env, "HHD_CACHE_DIR": str(project / "other-cache")}
    # the bare copy's own code, whether or not another test installed it there (tests run in any order, on
    # any worker): `python -m hhdcli` from the copy imports the copy's hhdcli
    hhd = f"{shlex.quote(sys.executable)} -m hhdcli"
    first = run(f"{hhd} cards --color R", project, fresh)
    assert "could not sync" in first.stderr
    again = run(f"{hhd} cards --color R", project, fresh)
    assert again.returncode == 0
    assert again.stderr.strip().splitlines()[0] == \
        "offline: using the built-in Hellscube v1.2 data of 2024-04-22; `hhd sync` fetches the live registry"
    assert "sync" not in again.stderr.split("\n", 1)[1], again.stderr  # no retry, no second word of it
