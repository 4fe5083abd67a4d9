"""Nothing lost, nothing hangs: outputs never replace inputs, every wait has a bound, a sync never makes
the cache worse, and input that says nothing is told so."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from hhdcli.cards import parse_registry
from hhdcli.deck import read_deck
from hhdcli.render.fonts import shorten
from support import EXCERPT, LEGACY, PIPS, Hhd, Reply, cards_with_served_images

# --- outputs never clobber inputs ------------------------------------------------------------------------


def unchanged(path: Path, before: bytes) -> bool:
    return path.read_bytes() == before


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(synced, library, tmp_path):
    before = library.read_bytes()
    for args in (["proxies", str(library), "-o", str(library), "--text-only"],
                 ["checklist", "-l", str(library), "-o", str(library)],
                 ["check", "--colors", "R", "-l", str(library), "-o", str(library)]):
        result = synced(*args)
        assert result.exit_code == 2 and "would destroy" in result.output, args
        assert unchanged(library, before)
    deck = tmp_path / "deck.md"
    deck.write_text("4 Mountain\n", encoding="utf-8")
    deck_bytes = deck.read_bytes()
    for option in ("-o", "--report"):
        result = synced("check", str(deck), "--all", option, str(deck))
        assert result.exit_code == 2 and unchanged(deck, deck_bytes)
    lost = tmp_path / "lost.txt"
    lost.write_text("Pill Bug\n", encoding="utf-8")
    lost_bytes = lost.read_bytes()
    assert synced("generate", "--seed", "x", "--exclude-file", str(lost), "-o", str(lost)).exit_code == 2
    assert unchanged(lost, lost_bytes)


def test_two_outputs_of_one_command_may_not_be_one_file(synced, library):
    before = library.read_bytes()
    result = synced("generate", "--seed", "ember-tide-42", "-o", str(library), "--proxies", str(library))
    assert result.exit_code == 2 and unchanged(library, before)


def test_a_link_to_the_input_is_the_input(synced, library, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(library)
    before = library.read_bytes()
    assert synced("proxies", "-l", str(library), "-o", str(link), "--text-only").exit_code == 2
    assert unchanged(library, before) and link.is_symlink()


def test_a_second_generate_does_not_replace_another_library_without_force(synced, tmp_path):
    out = tmp_path / "hell-library.json"
    assert synced("generate", "--seed", "first", "-o", str(out)).exit_code == 0
    printed = out.read_bytes()
    assert synced("generate", "--seed", "first", "-o", str(out)).exit_code == 0  # the same bytes: harmless
    refused = synced("generate", "--seed", "second", "-o", str(out))
    assert refused.exit_code == 2 and "--force" in refused.output and unchanged(out, printed)
    assert synced("generate", "--seed", "second", "-o", str(out), "--force").exit_code == 0
    assert out.read_bytes() != printed


# --- every wait has a bound --------------------------------------------------------------------------------


def timed(run, *args: str) -> tuple[float, object]:
    start = time.monotonic()
    result = run(*args)
    return time.monotonic() - start, result


def test_a_silent_registry_ends_within_three_timeouts(server, tmp_path):
    for path in ("/catalog-manifest.json", "/catalog.json", "/Hellscube-Database.json", "/pips.json"):
        server.routes[path] = Reply(b"{}", delay=60)  # accepts the connection, never answers
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "--timeout", "1", "sync")
    assert result.exit_code == 4 and "timed out" in result.output
    assert elapsed < 3 * 1 + 2


def test_two_unreachable_hosts_in_a_row_are_one_line(tmp_path):
    """Offline, the catalog's host and the repository's both fail: the second failure happens while the
    first is being handled, and must still be said in one line."""
    from hhdcli.errors import NetworkError
    from hhdcli.registry import RegistryUrls, Syncer

    urls = RegistryUrls(manifest="http://127.0.0.1:9/m.json", catalog="http://127.0.0.1:9/c.json",
                        database="http://127.0.0.2:9/db.json", symbols="http://127.0.0.2:9/pips.json")
    with pytest.raises(NetworkError) as failed:
        Syncer(tmp_path / "cache", urls=urls).run()
    assert "127.0.0.2 refused the connection" in failed.value.message


def test_a_trickling_body_ends_at_the_deadline(server, tmp_path):
    server.routes["/db.json"] = Reply(LEGACY.read_bytes(), trickle=(1024, 0.5))
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "--timeout", "2", "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "timed out" in result.output
    assert elapsed < 2 * 2 + 2


def test_a_long_retry_after_is_not_waited_but_said(server, tmp_path):
    server.routes["/db.json"] = Reply(b"busy", 503, "text/plain", headers={"Retry-After": "3600"})
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "asks to wait until" in result.output and "try again after" in result.output
    assert elapsed < 2


def test_a_short_retry_after_is_waited_and_said(server, tmp_path):
    answers = iter([Reply(b"slow down", 429, "text/plain", headers={"Retry-After": "3"})])
    server.routes["/db.json"] = lambda handler: next(answers, Reply(LEGACY.read_bytes()))
    result = Hhd(tmp_path / "cache", server.url)("--timeout", "10", "sync", "--source", server.url + "/db.json",
                                                  "--symbols", str(PIPS))  # 3 s of waiting fits in 10
    assert result.exit_code == 0 and "waiting 3 s: the server asked to (Retry-After)" in result.output


def test_a_silent_image_host_costs_one_timeout_not_one_per_image(server, tmp_path):
    run, names = cards_with_served_images(server, tmp_path / "cache", 74, Reply(b"", delay=60))
    elapsed, result = timed(run, "--timeout", "2", "proxies", *names, "-o", str(tmp_path / "p.pdf"))
    # 74 cards; one too long for a card continues on a second proxy
    assert result.exit_code == 0 and re.search(r"(\d+) proxies: \1 from card data \(images unreachable\)", result.output)
    assert elapsed < 2 * 2 + 5


# --- a sync never makes the cache worse ---------------------------------------------------------------------


def test_a_much_smaller_card_list_is_refused_and_names_both_counts(synced, tmp_path, server):
    cache = tmp_path / "cache"
    import shutil

    shutil.copytree(synced.cache_dir, cache)
    before = (cache / "cards.json").read_bytes()
    records = [r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC")][:16]
    server.routes["/db.json"] = Reply(json.dumps({"data": records}).encode())
    result = Hhd(cache)("sync", "--source", server.url + "/db.json", "--symbols", str(PIPS))
    assert result.exit_code == 3 and "16 Hellscube v1.2 cards, the cache has 720" in result.output
    assert (cache / "cards.json").read_bytes() == before


def test_records_listed_many_times_are_one_card_each():
    document = json.loads(LEGACY.read_text())
    document["data"] = document["data"] * 14
    parsed = parse_registry(json.dumps(document).encode())
    assert len(parsed.cards) == 720 and parsed.records == 14 * 3059


def test_the_symbol_table_is_refreshed_alone_offline(synced, tmp_path):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(synced.cache_dir, cache)
    cards_before = json.loads((cache / "cards.json").read_text())["cards"]
    (cache / "pips.json").write_text("{damaged")
    result = Hhd(cache, "http://127.0.0.1:9")("sync", "--symbols-only", "--symbols", str(PIPS))
    assert result.exit_code == 0 and "refreshed" in result.output
    assert json.loads((cache / "pips.json").read_text())["data"][0]["symbol"]
    assert json.loads((cache / "cards.json").read_text())["cards"] == cards_before


def test_a_damaged_symbol_table_is_replaced_not_kept(synced, tmp_path, server):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(synced.cache_dir, cache)
    (cache / "pips.json").write_text("{damaged")
    result = Hhd(cache, "http://127.0.0.1:9")("sync", "--symbols-only")  # the registry is unreachable
    assert result.exit_code == 0 and "using the built-in one" in result.output
    assert len(json.loads((cache / "pips.json").read_text())["data"]) == 324


# --- text input ----------------------------------------------------------------------------------------------


def test_a_windows_notepad_deck_keeps_its_apostrophes(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_bytes("4 Urza’s Saga\r\n20 Island\r\n".encode("cp1252"))
    assert [e.name for e in read_deck(deck).main] == ["Urza’s Saga", "Island"]
    deck.write_bytes("\ufeff4 Urza’s Saga\n".encode())  # UTF-8 with a BOM
    assert read_deck(deck).main[0].name == "Urza’s Saga"


def test_a_very_long_seed_is_refused_at_once(synced, tmp_path):
    elapsed, result = timed(synced, "generate", "--seed", "x" * 10_000, "-o", str(tmp_path / "l.json"))
    assert result.exit_code == 2 and "1 to 200 characters" in result.output and elapsed < 2


def test_shortening_text_is_linear():
    from hhdcli.render.fonts import load_fonts

    fonts = load_fonts()
    start = time.monotonic()
    cut = shorten("a very long footer " * 5_000, fonts.regular, 6, 500)
    assert time.monotonic() - start < 0.5 and cut.endswith("…") and len(cut) < 200


@pytest.mark.parametrize("query", ["🐻", "!!!", ""])
def test_a_filter_that_says_nothing_is_an_input_error(synced, query):
    result = synced("cards", query)
    assert result.exit_code == 2 and "no letters or digits" in result.output


# --- say when an option does nothing ----------------------------------------------------------------------


def test_an_unknown_exclusion_tag_is_named(synced, tmp_path):
    result = synced("generate", "--seed", "t", "--exclude-tag", "offensive", "-o", str(tmp_path / "l.json"))
    assert result.exit_code == 0 and "--exclude-tag 'offensive': no card has this tag" in result.output
    quiet = synced("-q", "generate", "--seed", "t", "--exclude-tag", "offensive", "-o", str(tmp_path / "l.json"))
    assert "warning" not in quiet.output  # -q silences warnings too


@pytest.mark.parametrize("args", [["--paper", "99999x99999mm"], ["--back-offset", "100,100"]])
def test_paper_and_offsets_a_printer_cannot_take_are_refused(synced, library, tmp_path, args):
    result = synced("proxies", "-l", str(library), "--text-only", "-o", str(tmp_path / "p.pdf"), *args)
    assert result.exit_code == 2 and not (tmp_path / "p.pdf").exists()


# --- reproducible library files ----------------------------------------------------------------------------


def test_the_same_seed_and_data_give_the_same_bytes_from_anywhere(tmp_path):
    outputs = []
    for where in ("one", "two"):
        folder = tmp_path / where / "deeper"
        folder.mkdir(parents=True)
        source = folder / LEGACY.name
        os.symlink(LEGACY, source) if where == "one" else source.write_bytes(LEGACY.read_bytes())
        run = Hhd(tmp_path / where / "cache")
        assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
        out = tmp_path / where / "lib.json"
        assert run("generate", "--seed", "anywhere", "-o", str(out)).exit_code == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
