"""The global options (--cache-dir, --registry-url, --deck-sites-url, --timeout, --cache-max, -q, --debug, --lang)
work after the command as well as before it, on every command, and --help says so."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hhdcli.cli import cli
from support import LoopbackServer, Reply

SITES = Path(__file__).parent / "decks" / "sites"
LINK = "https://www.archidekt.com/decks/1365846/"
DECK_PATH = "/archidekt.com/api/decks/1365846/"
NO_LANDS_KNOWN = Reply(b'{"object": "list", "not_found": [], "data": []}')


def run(*args: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(cli, list(args), env=env)
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def sites():
    server = LoopbackServer()
    server.routes[DECK_PATH] = Reply(gzip.decompress((SITES / "archidekt-deck.json.gz").read_bytes()))
    server.routes["/cards/collection"] = NO_LANDS_KNOWN
    yield server
    server.close()


def test_deck_sites_url_and_timeout_after_check_are_used(legacy_cache, sites):
    result = run("check", LINK, "--all", "--scryfall-url", sites.url, "--json", "--cache-dir", str(legacy_cache),
                 "--deck-sites-url", sites.url, "--timeout", "5")
    assert result.exit_code == 0, result.output
    assert sorted(json.loads(result.stdout)["deck"]["commander"]) == ["Kraum, Ludevic's Opus",
                                                                        "Vial Smasher the Fierce"]
    assert sites.count(DECK_PATH) == 1


def test_the_option_after_the_command_wins_over_the_one_before(legacy_cache, sites):
    sites.routes[DECK_PATH] = Reply(b"{}", delay=1.5)  # answers after the later --timeout, within the earlier one
    result = run("--timeout", "30", "--cache-dir", str(legacy_cache), "check", LINK, "--all",
                 "--deck-sites-url", sites.url, "--timeout", "1")
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert result.exit_code == 4 and len(errors) == 1 and "timed out" in errors[0] and "1 s" in errors[0]


def test_cache_dir_after_status_is_the_cache_it_reports(legacy_cache, tmp_path):
    result = run("--cache-dir", str(tmp_path / "elsewhere"), "status", "--json", "--cache-dir", str(legacy_cache))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cache_dir"] == str(legacy_cache)


def test_quiet_after_generate_says_nothing_but_the_result(legacy_cache, tmp_path):
    loud = run("--cache-dir", str(legacy_cache), "generate", "--seed", "s", "-o", str(tmp_path / "a.json"))
    quiet = run("generate", "--seed", "s", "-o", str(tmp_path / "b.json"), "-q", "--cache-dir", str(legacy_cache))
    assert loud.exit_code == quiet.exit_code == 0
    assert "wrote" in loud.stderr and quiet.stderr == ""


def test_debug_after_the_command_shows_the_traceback_of_an_error(tmp_path):
    missing = str(tmp_path / "nope.txt")
    assert run("check", missing, "--all", "--offline").exit_code == 2  # one line, no traceback
    result = CliRunner().invoke(cli, ["check", missing, "--all", "--offline", "--debug"])
    assert type(result.exception).__name__ == "InputError"  # raised for the traceback, not said in one line


def test_lang_after_a_command_without_its_own_is_the_runs_language(tmp_path):
    result = run("check", str(tmp_path / "nope.txt"), "--all", "--offline", "--lang", "ru")
    assert result.exit_code == 2 and "ошибка" in result.stderr


def test_registry_url_after_sync_is_checked_and_asked(tmp_path, server):
    bad = run("sync", "--registry-url", "ftp://example.com", "--cache-dir", str(tmp_path / "c"))
    assert bad.exit_code == 2 and "not an http(s) URL" in bad.output
    run("sync", "--registry-url", server.url, "--cache-dir", str(tmp_path / "c"), "--timeout", "2")
    assert server.hits  # the mirror named after the command was the one asked


def test_cache_max_after_a_subcommand_of_a_group(tmp_path):
    result = run("cache", "clean", "--cache-max", "100", "--cache-dir", str(tmp_path / "c"))
    assert result.exit_code == 0, result.output
    assert run("cache", "clean", "--cache-max", "10").exit_code == 2  # checked as before the command


@pytest.mark.parametrize("command", [["check"], ["status"], ["sync"], ["table"], ["cache", "clean"]])
def test_every_commands_help_says_the_global_options_may_follow_it(command):
    text = run(*command, "--help").output
    said = text.split("Global options:", 1)[1]
    for name in ("--cache-dir", "--registry-url", "--deck-sites-url", "--timeout", "--cache-max", "--quiet",
                 "--debug", "--lang"):
        assert name in said
    assert "may also follow the command" in " ".join(said.split())
    assert "may also follow the command" in " ".join(run("--help").output.split())
