"""The output path (hhdcli/output.py) and the one write guard (hhdcli/terminal.py): whatever the data holds and
wherever stdout goes, a command prints what it can or says in one line why it cannot, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hhdcli.output import OutputError
from support import EXCERPT, PIPS, Hhd

ROOT = Path(__file__).resolve().parents[1]
# what a terminal would act on: C0 controls but tab and line feed, DEL, C1 (the test's own marks)
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
OSC_TITLE = "\x1b]0;pwned\x07"
CSI = "\x9b31m"
WHALE = f"Whale Visions{OSC_TITLE}{CSI}\x7f"  # the excerpt's first card, as the hostile registry names it


def run_hhd(*args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess:
    """hhd as a user starts it: a process of its own, with its own stdout."""
    environ = {**os.environ, "HHD_LANG": "en", **(env or {})}
    return subprocess.run([sys.executable, "-m", "hhdcli", *args], env=environ, cwd=kwargs.pop("cwd", ROOT),
                          capture_output="stdout" not in kwargs, timeout=60, **kwargs)


# --- encodings, closed and full streams ------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
@pytest.mark.parametrize("command", [["check", "--colors", "WU", "--all", "--offline"], ["--lang", "ru", "status"],
                                     ["--lang", "ru", "--help"], ["card", "pickle krrik", "--offline"]])
def test_a_narrow_stdout_encoding_gets_what_it_can_show(legacy_cache, encoding, command):
    """Windows with output redirected writes cp1252: what it cannot hold is replaced, the rest printed."""
    done = run_hhd("--cache-dir", str(legacy_cache), *command, env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")
    assert b"Traceback" not in done.stderr
    assert done.stdout.strip()
    done.stdout.decode(encoding)  # every byte is the stream's own encoding


@pytest.mark.parametrize("command", [["--help"], ["--version"], ["cards", "--offline"], ["status", "--json"],
                                     ["serve", "--help"], ["cache", "clean", "--help"]])
def test_a_full_stdout_is_one_line_and_a_failure(legacy_cache, command):
    with open("/dev/full", "wb") as full:
        done = run_hhd("--cache-dir", str(legacy_cache), *command, stdout=full, stderr=subprocess.PIPE)
    errors = done.stderr.decode()
    assert "Traceback" not in errors and "Exception ignored" not in errors
    # the same line, next step and exit code whoever wrote (Click's --version and --help once said no next step)
    assert errors.splitlines() == ["error: cannot print to standard output: No space left on device",
                                   "  → send the output to a terminal or a file with room in it"]
    assert done.returncode == OutputError.exit_code != 0


def test_a_closed_stdout_is_one_line_and_a_failure(legacy_cache):
    """`hhd cards >&-`: Python starts with no sys.stdout at all."""
    done = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "hhdcli", "--cache-dir",
                           str(legacy_cache), "cards", "--offline"], env={**os.environ, "HHD_LANG": "en"},
                          stderr=subprocess.PIPE, timeout=60)
    errors = done.stderr.decode()
    assert done.returncode != 0 and "Traceback" not in errors
    assert "error: standard output is closed" in errors


def test_a_reader_that_goes_away_ends_the_run_quietly(legacy_cache):
    """`hhd cards --json | head -1`: the rest is not wanted, which is nothing to complain about."""
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert reader.stdin is not None
    with reader.stdin:
        done = run_hhd("--cache-dir", str(legacy_cache), "cards", "--json", "--offline", stdout=reader.stdin,
                       stderr=subprocess.PIPE)
    reader.wait(10)
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr


def _into_a_pipe_head_left(*args: str, stderr_too: bool = False) -> subprocess.CompletedProcess:
    """hhd run with its stdout (and its stderr: `2>&1`) the write end of a real pipe whose reader, `head -1`, has
    taken its line and gone before hhd writes, as when a warning on stderr filled that line first."""
    read, write = os.pipe()
    head = subprocess.Popen(["head", "-1"], stdin=read, stdout=subprocess.PIPE)
    os.close(read)
    try:
        os.write(write, b"a first line\n")
        assert head.communicate(timeout=30)[0] == b"a first line\n"  # head has gone: the pipe is closed
        return run_hhd(*args, stdout=write, stderr=write if stderr_too else subprocess.PIPE)
    finally:
        os.close(write)


@pytest.mark.parametrize("command", [["cards", "--json", "--offline"], ["card", "pickle krrik", "--offline"],
                                     ["--help"], ["--version"], ["status"], ["check", "--colors", "WU", "--all"]])
def test_output_cut_by_head_ends_the_run_as_unix_tools_end(legacy_cache, command):
    """`hhd cards | head -1`: the status a shell gives a tool that a closed pipe stopped (141, as `yes | head -1`),
    and not a word: the rest was not wanted."""
    done = _into_a_pipe_head_left("--cache-dir", str(legacy_cache), *command)
    assert done.returncode == 141
    assert done.stderr == b""


def test_show_cut_by_head_with_its_messages_ends_the_run_as_unix_tools_end(legacy_cache, library):
    """`hhd show … 2>&1 | head -1`: stdout and stderr both the closed pipe."""
    done = _into_a_pipe_head_left("--cache-dir", str(legacy_cache), "show", "-l", str(library), stderr_too=True)
    assert done.returncode == 141


# --- the write guard: an escape in every field, every command and format ----------------------------------


def hostile_registry(folder: Path) -> Path:
    """The real excerpt with an escape sequence in every text field a command prints, and a lone surrogate."""
    records = json.loads(EXCERPT.read_text(encoding="utf-8"))["data"]
    for record in records:
        for key in ("name", "type_line", "oracle_text", "mana_cost"):
            if isinstance(record.get(key), str) and record[key]:
                record[key] = record[key] + (OSC_TITLE + CSI + "\x7f" if key != "mana_cost" else "")
        record["oracle_text"] = str(record.get("oracle_text") or "") + " \x7f"
    records[-1]["name"] += "\ud800"  # a lone surrogate no file can hold: the record is skipped, and named
    path = folder / "registry.json"
    path.write_text(json.dumps({"data": records}), encoding="utf-8")
    return path


def assert_guarded(text: str, where: str) -> None:
    found = RAW_CONTROL.search(text)
    assert found is None, f"{where}: raw {found.group()!r} near {text[max(0, found.start() - 40):found.end() + 10]!r}"


def test_every_command_and_format_prints_an_escape_only_escaped(tmp_path):
    cache_dir = tmp_path / f"cache{OSC_TITLE}"
    hhd = Hhd(cache_dir)
    registry = hostile_registry(tmp_path)
    seed = f"seed{OSC_TITLE}{CSI}"
    library = tmp_path / "lib.json"
    runs = [("sync", "--source", str(registry), "--symbols", str(PIPS)), ("status",), ("status", "--json"),
            ("cards",), ("cards", "--json"), ("card", WHALE), ("card", WHALE, "--json"),
            ("generate", "--seed", seed, "-o", str(library), "--size", "60")]
    runs += [("generate", "--seed", seed, "-o", str(library), "--size", "60", "--format", fmt)
             for fmt in ("text", "csv", "md", "json", "summary")]
    runs += [("generate", "--seed", seed, "-o", str(library), "--size", "60", "--json")]
    runs += [("show", "-l", str(library), "--format", fmt) for fmt in ("text", "csv", "md", "json", "summary")]
    runs += [("show", "-l", str(library), "--json"), ("check", "--colors", "WU", "-l", str(library)),
             ("check", "--colors", "WU", "-l", str(library), "--json")]
    files = {fmt: tmp_path / f"out.{ext}" for fmt, ext in (("csv", "csv"), ("tts", "tts.json"),
                                                           ("cockatrice", "cockatrice.xml"))}
    runs += [("export", "-l", str(library), "--format", fmt, "-o", str(path), "--offline") for fmt, path in
             files.items()]
    for document in ("check.md", "check.html"):
        runs.append(("check", "--colors", "WU", "-l", str(library), "-o", str(tmp_path / document)))
    for document in ("list.md", "list.html"):
        runs.append(("checklist", "-l", str(library), "-o", str(tmp_path / document)))
    runs.append(("rules", "-l", str(library), "-o", str(tmp_path / "rules.md")))
    for args in runs:
        result = hhd(*args)
        assert result.exit_code == 0, (args, result.output)
        assert_guarded(result.stdout, f"stdout of {args}")
        assert_guarded(result.stderr, f"stderr of {args}")
    assert "pwned" in hhd("show", "-l", str(library)).stdout  # the name is there, shown escaped
    written = [*files.values(), tmp_path / "out.cod", *(tmp_path / n for n in ("check.md", "check.html", "list.md",
                                                                                "list.html", "rules.md"))]
    for path in written:
        assert_guarded(path.read_text(encoding="utf-8"), path.name)


def test_json_printed_escaped_reads_back_as_the_data():
    from hhdcli.terminal import json_text

    document = {"name": f"a{OSC_TITLE}{CSI}\x7f\ud800b"}
    shown = json_text(document)
    assert RAW_CONTROL.search(shown) is None
    assert json.loads(shown) == document


def test_a_file_gets_no_control_character_and_no_lone_surrogate():
    from hhdcli.terminal import file_text

    assert file_text(f"Elf\x7f{OSC_TITLE}\ud800\u0085 Lord\n") == "Elf]0;pwned? Lord\n"
