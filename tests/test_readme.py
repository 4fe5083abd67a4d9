"""The README and the docs run as written. The newcomer's promise first: the README's first command in a bare copy
with no network (a venv, an install, a library with its proxies and checklist). Then every example of every page,
wherever it now lives, each with the exit code its comment documents: one test per ```sh block, so that the
workers share them out, each block's examples in order in a folder of its own, prepared as the README's first
command and the tour's sync leave one (a synced cache, the ember-tide-42 library, the repository's test decks), and
run by the suite's own installed hhd, offline. Then the library examples. docs/cli.md is generated
(tests/test_docs.py checks it), so it has no examples of its own."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from support import ROOT, bare_copy

UNREACHABLE = "http://127.0.0.1:9"  # nothing listens there: the registry and Scryfall are out of reach
README = ROOT / "README.md"
# the pages whose examples run: every one but docs/cli.md (--help, generated)
PAGES = [README, *sorted(page for page in (ROOT / "docs").glob("*.md") if page.name != "cli.md")]


@dataclass(frozen=True)
class Example:
    command: str
    exit_code: int  # what its comment says: "(exit N)", else 0
    serves: bool  # "until Ctrl-C" ("до Ctrl-C"): started, opened, then stopped


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
        serves = any(said in comment for said in ("until Ctrl-C", "до Ctrl-C"))
        out.append(Example(command.strip(), int(code.group(1)) if code else 0, serves))
    return out


FIRST_TWO = code_blocks(README.read_text(encoding="utf-8"), "sh")[:2]  # the install and the tests: not examples


def example_blocks() -> list[tuple[str, str]]:
    """Every ```sh block of the pages but the README's two commands (which README.ru.md repeats): (its id, block)."""
    found = []
    for page in PAGES:
        blocks = [b for b in code_blocks(page.read_text(encoding="utf-8"), "sh") if b not in FIRST_TWO]
        found += [(f"{page.name}:{n + 1}", block) for n, block in enumerate(blocks)]
    return found


def first_runs(blocks: list[tuple[str, str]]) -> list[list[Example]]:
    """Each block's examples; of the Russian summary's, those an English block runs word for word are left out (in
    the same prepared folder they do the same, and they are the slow ones: proxies, a table)."""
    english = {example.command for name, block in blocks if not name.startswith("README.ru")
               for example in examples(block)}
    return [[example for example in examples(block) if not name.startswith("README.ru") or
             example.command not in english] for name, block in blocks]


BLOCKS = example_blocks()


def test_every_example_is_one_alternative_per_line_with_no_placeholder():
    assert len(BLOCKS) >= 15 and {name.split(":")[0] for name, _ in BLOCKS} >= {"README.md", "guide.md"}
    for _name, block in BLOCKS:
        for example in examples(block):
            assert example.command.startswith("hhd "), example
            assert "|" not in example.command and "[" not in example.command, f"not runnable: {example.command}"
            assert "…" not in example.command and "FILE" not in example.command, example.command


def test_every_example_the_readme_s_tour_had_lives_on():
    """Moved, not lost: the examples of the README's tour (tests/tour-examples.txt, as it was before the README was
    cut to a few screens) are each, as written, in a block of some page."""
    gone = [line for line in (ROOT / "tests" / "tour-examples.txt").read_text(encoding="utf-8").splitlines()
            if line and not any(line in block.splitlines() for _name, block in BLOCKS)]
    assert gone == []


def run(command: str, folder: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=timeout)


def offline(home: Path, path: str) -> dict[str, str]:
    return {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "HHD_REGISTRY_URL": UNREACHABLE,
            "HHD_SCRYFALL_URL": UNREACHABLE, **{k: v for k, v in os.environ.items() if k.startswith("PIP_")}}


# --- the newcomer's promise: the first command, as written, in a bare copy -------------------------------------


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return bare_copy(tmp_path_factory.mktemp("somewhere") / "hhd")


@pytest.fixture(scope="module")
def user_env(tmp_path_factory, project: Path) -> dict[str, str]:
    return offline(tmp_path_factory.mktemp("home"), f"{project / '.venv' / 'bin'}:{os.environ['PATH']}")


def test_the_readme_s_first_command_runs_in_a_bare_copy_with_no_network(project, user_env):
    first = run(FIRST_TWO[0], project, user_env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "offline: using the built-in Hellscube v1.2 data" in first.stderr
    assert "97 proxies: 23 basics, 74 from card data (images unreachable)" in first.stderr
    assert len(PdfReader(project / "hell-proxies.pdf").pages) == 11
    assert "97" in PdfReader(project / "hell-checklist.pdf").pages[0].extract_text()


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


# --- every other example: the suite's own hhd in a prepared folder --------------------------------------------


@pytest.fixture(scope="module")
def shims(tmp_path_factory) -> Path:
    """`hhd` and `python` as the examples call them: the suite's own interpreter and its installed hhdcli."""
    folder = tmp_path_factory.mktemp("bin")
    for name, command in (("hhd", f"{shlex.quote(sys.executable)} -m hhdcli"), ("python", shlex.quote(sys.executable))):
        (folder / name).write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        (folder / name).chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def prepared(tmp_path_factory, legacy_cache: Path, shims: Path) -> Path:
    """A folder as the README's first command and the tour's sync leave it: the legacy data synced into ./cache,
    hell-library.json of ember-tide-42 drawn from it, and the repository's test decks and examples beside."""
    folder = tmp_path_factory.mktemp("prepared")
    shutil.copytree(legacy_cache, folder / "cache")
    for name in ("tests", "examples"):
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)
    done = run("hhd generate --seed ember-tide-42", folder, folder_env(folder, shims))
    assert done.returncode == 0, done.stderr
    return folder


def folder_env(folder: Path, shims: Path) -> dict[str, str]:
    home = folder / ".home"
    home.mkdir(exist_ok=True)
    return {**offline(home, f"{shims}:{os.environ['PATH']}"), "HHD_CACHE_DIR": str(folder / "cache"),
            "HHD_LANG": "en"}


@pytest.fixture
def folder(tmp_path: Path, prepared: Path) -> Path:
    """A copy of the prepared folder for one block: its examples write over what they like."""
    return Path(shutil.copytree(prepared, tmp_path / "hhd", symlinks=True))


def serve_then_stop(command: str, folder: Path, env: dict[str, str]) -> str:
    """A server example: started as written, stopped with Ctrl-C once it says where it listens."""
    # SIGINT as a terminal sends it, even when this run inherited it ignored (a background job, some CI)
    from tablekit import free_port

    env = {**env, "HHD_TABLE_PORT": str(free_port())}  # as written, on a port no other test's server holds
    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=folder, env=env, stdout=subprocess.PIPE,
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


@pytest.mark.parametrize("block", first_runs(BLOCKS), ids=[name for name, _block in BLOCKS])
def test_each_example_runs_as_written_offline(block: list[Example], folder: Path, shims: Path):
    env = folder_env(folder, shims)
    for example in block:
        if example.serves:
            output = serve_then_stop(example.command, folder, env)
            assert "http://" in output and "Traceback" not in output, output
            continue
        done = run(example.command, folder, env, timeout=300)
        said = done.stdout[-1500:] + done.stderr[-1500:]
        assert done.returncode == example.exit_code, f"{example.command}\n{said}"
        assert "Traceback" not in said, said


def test_the_library_examples_run(folder: Path, shims: Path):
    """The guide's Python: the workflows first (a library with its proxies and checklist), then the pure pieces
    beneath them."""
    env = folder_env(folder, shims)
    workflows, pieces = code_blocks((ROOT / "docs" / "guide.md").read_text(encoding="utf-8"), "python")
    done = run(f"python - <<'EOF'\n{workflows}EOF", folder, env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (folder / "mine.pdf").read_bytes().startswith(b"%PDF") and (folder / "mine.md").exists()
    library = run(f"python - <<'EOF'\n{pieces}EOF", folder, env, timeout=120)
    assert library.returncode == 0, library.stderr
    assert library.stdout.strip() in ("land", "take", "choice")
    assert (folder / "check.html").exists() and (folder / "checklist.pdf").read_bytes().startswith(b"%PDF")
