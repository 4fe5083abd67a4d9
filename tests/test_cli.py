"""The command line as a user meets it: one option vocabulary, examples that run as written, no color
when NO_COLOR says so, and a one-line error (never a traceback) when a file cannot be written."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hhdcli.cli import cli
from support import CURRENT_SAMPLE, LEGACY, PIPS, Hhd, Reply, on_a_terminal, one_line_error

COMMANDS = list(cli.commands)
WRITES_A_FILE = {"generate", "proxies", "checklist", "rules", "check", "export"}
READS_A_LIBRARY = {"show", "check", "proxies", "checklist", "export", "table"}
CAN_USE_THE_NETWORK = {"cards", "card", "generate", "show", "check", "proxies", "checklist", "export", "table"}
SEVERAL_FORMATS = {"check", "checklist", "rules"}


def visible_options(name: str) -> dict[str, click.Option]:
    """Each visible option of a command by its long name."""
    command = cli.commands[name]
    return {next(o for o in p.opts if o.startswith("--")): p for p in command.params
            if isinstance(p, click.Option) and not p.hidden}


def help_text(name: str) -> str:
    result = CliRunner().invoke(cli, [name, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def examples(name: str) -> list[str]:
    """The lines under "Examples:" in a command's --help."""
    text = help_text(name)
    block = text.split("Examples:", 1)[1].split("\nOptions:", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip().startswith("hhd ")]


# --- one vocabulary --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", COMMANDS)
def test_the_same_idea_has_the_same_option_everywhere(name):
    options = visible_options(name)
    if name in WRITES_A_FILE:
        assert options["--output"].opts == ["-o", "--output"]
    if name in READS_A_LIBRARY:
        assert options["--library"].opts == ["-l", "--library"] and options["--library"].envvar == "HHD_LIBRARY"
    if name in CAN_USE_THE_NETWORK:
        assert "--offline" in options and options["--offline"].envvar == "HHD_OFFLINE"
    if name in SEVERAL_FORMATS:
        assert "--format" in options
    if "--json" in options:
        assert options["--json"].help.startswith("Print the whole result as JSON")
    for gone in ("--report", "--colour", "--colours"):
        assert gone not in options  # old spellings still work, hidden
    for option in options.values():
        assert option.metavar != "PATH" and "PATH" not in (option.metavar or "")  # FILE, DIR, URL, …


def test_shared_options_read_the_same_environment_variables_and_say_so():
    for name, option in (("proxies", "--paper"), ("generate", "--paper"), ("checklist", "--lang"),
                         ("rules", "--lang"), ("proxies", "--font"), ("checklist", "--font")):
        assert visible_options(name)[option].envvar == "HHD_" + option.strip("-").upper()
    assert "HHD_LIBRARY" in help_text("proxies") and "HHD_OFFLINE" in help_text("check")
    top = CliRunner().invoke(cli, ["--help"]).output
    assert "HHD_CACHE_DIR" in top and "HHD_REGISTRY_URL" in top and "HHD_TIMEOUT" in top


def test_every_command_has_examples_on_lines_of_their_own():
    for name in COMMANDS:
        lines = examples(name)
        assert lines, name
        assert all(line.split()[1] == name for line in lines), lines


def test_every_example_runs_as_written(tmp_path, server, monkeypatch):
    """Each `Examples:` line of every --help, pasted into a folder that has what the examples name."""
    server.serve_file("/catalog.json", LEGACY)
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "2024-04-22", "cardCount": 3059}')
    server.serve_file("/pips.json", PIPS)
    shutil.copy(LEGACY, tmp_path / "Hellscube-Database.json")
    shutil.copy(PIPS, tmp_path / "pips.json")
    (tmp_path / "deck.txt").write_text("20 Mountain\n20 Forest\n4 Pyrohyperspasm\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    env = {"HHD_CACHE_DIR": str(tmp_path / "cache"), "HHD_REGISTRY_URL": server.url, "HHD_OFFLINE": "1"}
    shutil.copy(tmp_path / "deck.txt", tmp_path / "anna.txt")
    (tmp_path / "ben.dek").write_text('<Deck><Cards Quantity="20" Sideboard="false" Name="Island"/></Deck>')
    ran = 0
    first = ("sync", "status", "cards", "card", "generate")
    for name in [*first, *[c for c in COMMANDS if c not in first]]:
        for line in examples(name):
            if name in ("table", "serve"):  # a server: it must start and say where to open it
                assert serves(line, {**os.environ, **env}, tmp_path), line
            else:
                result = CliRunner().invoke(cli, shlex.split(line)[1:], env=env, catch_exceptions=False)
                assert result.exit_code == 0, f"{line}\n{result.output}"
            ran += 1
    assert ran >= 2 * len(COMMANDS)


def serves(line: str, env: dict[str, str], cwd: Path) -> bool:
    """Start a server example, wait for its address, stop it."""
    from tablekit import free_port

    env = {**env, "HHD_TABLE_PORT": str(free_port())}  # not 8040, which another test's server may hold
    process = subprocess.Popen([sys.executable, "-m", "hhdcli", *shlex.split(line)[1:]], cwd=cwd, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        return process.stdout.readline().startswith(("open http://", "open https://"))  # type: ignore[union-attr]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_old_spellings_keep_working(synced, library, tmp_path):
    report = tmp_path / "old.md"
    assert synced("check", "--colours", "RG", "--library", str(library), "--report", str(report)).exit_code == 0
    assert report.read_text(encoding="utf-8").startswith("# Hell library check")
    assert synced("show", str(library), "--format", "summary").exit_code == 0  # the positional library file
    assert synced("checklist", str(library), "--sort", "colour", "-o", str(tmp_path / "c.md")).exit_code == 0


def test_json_means_the_whole_result(synced, tmp_path):
    out = tmp_path / "lib.json"
    document = json.loads(synced("-q", "generate", "--seed", "whole", "-o", str(out), "--json").stdout)
    assert document["schema"] == 1
    assert document["library"] == json.loads(out.read_text()) and "color" in document["summary"]
    shown = json.loads(synced("-q", "show", "-l", str(out), "--json").stdout)
    assert shown == document
    for command in (["status"], ["cards", "bear"], ["card", "Pill Bug"], ["check", "--colors", "R", "--all"]):
        assert json.loads(synced(*command, "--json").stdout)["schema"] == 1, command


# --- NO_COLOR ------------------------------------------------------------------------------------------


def test_no_color_means_no_escape_codes_on_a_terminal(legacy_cache):
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    args = ["--cache-dir", str(legacy_cache), "card", "no such card at all"]
    colored = on_a_terminal([sys.executable, "-m", "hhdcli", *args], env)
    assert b"error:" in colored and b"\x1b[" in colored  # the terminal really gets color by default
    plain = on_a_terminal([sys.executable, "-m", "hhdcli", *args], {**env, "NO_COLOR": "1"})
    assert b"error:" in plain and b"\x1b" not in plain


# --- nothing ends in a traceback ---------------------------------------------------------------------


@pytest.fixture
def blocked(tmp_path) -> Path:
    """A plain file: nothing can be created below it, whoever runs the tests (root included)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, not a folder")
    return blocker


def test_an_unwritable_output_is_one_line_for_every_command_that_writes(synced, library, blocked):
    runs = {
        "generate": ["generate", "--seed", "x", "-o", str(blocked / "lib.json")],
        "proxies": ["proxies", "-l", str(library), "--text-only", "-o", str(blocked / "p.pdf")],
        "checklist": ["checklist", "-l", str(library), "-o", str(blocked / "c.pdf")],
        "rules": ["rules", "-o", str(blocked / "r.pdf")],
        "check": ["check", "--colors", "R", "--all", "-o", str(blocked / "r.html")],
        "export": ["export", "-l", str(library), "--format", "csv", "-o", str(blocked / "l.csv")],
    }
    assert set(runs) == WRITES_A_FILE
    for name, args in runs.items():
        line = one_line_error(synced(*args))
        assert str(blocked) in line, name
    assert one_line_error(synced("generate", "--seed", "x", "-o", "/proc/x.json"))


OUTPUT = {"generate": "out.json", "check": "out.html", "proxies": "out.pdf", "checklist": "out.pdf", "rules": "out.pdf",
          "export": "out.csv"}
ARGUMENTS = {"card": ["Pill Bug"], "cache": ["clean"], "check": ["--colors", "R", "--all"], "proxies": ["--cards", "Pill Bug", "--text-only"],
             "table": ["--player", "Anna=RG"]}


@pytest.mark.parametrize("name", COMMANDS)
def test_an_unwritable_cache_folder_is_one_line(name, server, blocked, tmp_path):
    server.serve_file("/catalog.json", LEGACY)
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "v", "cardCount": 3059}')
    server.serve_file("/pips.json", PIPS)
    args = [name, *ARGUMENTS.get(name, [])]
    if name in WRITES_A_FILE:
        args += ["-o", str(tmp_path / OUTPUT[name])]
    result = Hhd(blocked / "cache", server.url)(*args)
    if name in ("rules", "status", "cache"):  # nothing to write in the cache (or, to clean, nothing there)
        assert result.exit_code == 0, result.output
        return
    assert "cache" in one_line_error(result)


def png_bytes(size: tuple[int, int] = (40, 56)) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_cache_files_written_while_working_fail_in_one_line(tmp_path, server):
    record = next(r for r in json.loads(CURRENT_SAMPLE.read_text())["data"] if r["set"].startswith("HLC"))
    record["image"] = f"{server.url}/card.png"
    server.routes["/card.png"] = Reply(png_bytes(), content_type="image/png")
    source = tmp_path / "one-card.json"
    source.write_text(json.dumps({"data": [record]}))
    run = Hhd(tmp_path / "cache")
    assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
    (tmp_path / "cache" / "images").write_text("a file where the image folder should be")
    line = one_line_error(run("proxies", "--cards", record["name"], "-o", str(tmp_path / "p.pdf")))
    assert "images" in line
    (tmp_path / "cache" / "scryfall-lands.json").mkdir()
    server.routes["/cards/collection"] = Reply(b'{"data": [], "not_found": []}')
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Steam Vents\n", encoding="utf-8")
    line = one_line_error(run("check", str(deck), "--all", "--scryfall-url", server.url))
    assert "scryfall-lands.json" in line


HOSTILE = ["nan", "-1", "\udcff", "9" * 5000, "/dev/zero", "http://[::1", "{}"]


def every_option():
    from hhdcli.cli import cli

    def walk(command, path):
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
            return
        for param in command.params:
            if param.name != "help" and not getattr(param, "is_flag", False) and param.param_type_name == "option":
                yield [*path, param.opts[0]]

    return list(walk(cli, []))


@pytest.mark.parametrize("args", [
    ["--timeout", "nan", "status"], ["--timeout", "inf", "status"], ["proxies", "--gap", "nan"],
    ["proxies", "--bleed", "-inf"], ["--registry-url", "http://[::1", "status"], ["--registry-url", "ftp://x", "sync"],
    ["check", "--colors", "R", "--all", "--scryfall-url", "http://[::1"], ["generate", "--seed", "\udcff"],
    ["generate", "--size", "9" * 5000], ["--cache-max", "-1", "status"],
])
def test_odd_option_values_are_one_line_errors(args, synced):
    result = synced(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "Error:" in result.output or "error:" in result.output


def test_odd_environment_values_are_usage_errors(synced):
    from click.testing import CliRunner

    from hhdcli.cli import cli

    for env in ({"HHD_TIMEOUT": "nan"}, {"HHD_REGISTRY_URL": "http://[::1"}):
        result = CliRunner().invoke(cli, ["status"], env=env)
        assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)


def test_a_sweep_of_hostile_values_over_every_option_finds_no_traceback(legacy_cache, library, tmp_path, monkeypatch):
    import socket

    from click.testing import CliRunner

    from hhdcli.cli import cli

    monkeypatch.chdir(tmp_path)
    # the servers' port is held here: an accepted value ends `hhd serve` (or `table`) in "port in use", one line,
    # instead of serving this test forever
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    env = {"HHD_CACHE_DIR": str(legacy_cache), "HHD_OFFLINE": "1", "HHD_REGISTRY_URL": "http://127.0.0.1:9",
           "HHD_TABLE_PORT": str(held.getsockname()[1])}
    ran = 0
    for *command, option in every_option():
        for value in HOSTILE:
            args = [*command, option, value] if command else [option, value, "status"]
            if command and command[0] in ("show", "proxies", "checklist", "export", "check") and option != "-l":
                args += ["-l", str(library)]
            result = CliRunner().invoke(cli, ["--timeout", "2", *args], env=env)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert "Traceback" not in result.output, args
            ran += 1
    held.close()
    assert ran > 300
