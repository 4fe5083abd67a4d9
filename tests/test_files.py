"""Inputs and outputs (hhdcli/files.py): special files refused, outputs never replace inputs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support import Hhd, one_line_error, unchanged


@pytest.fixture
def fifo(tmp_path) -> Path:

    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_fifo_or_a_device_is_refused_as_input_at_once(fifo, synced, legacy_cache, tmp_path):
    start = time.monotonic()
    for args in (["check", str(fifo), "--all"], ["show", "-l", str(fifo)], ["show", "-l", "/dev/zero"],
                 ["sync", "--source", str(fifo)], ["sync", "--source", "/dev/zero"],
                 ["generate", "--exclude-file", "/dev/zero", "-o", str(tmp_path / "l.json")],
                 ["rules", "--font", "/dev/zero", "-o", str(tmp_path / "r.pdf")]):
        line = one_line_error(Hhd(legacy_cache)(*args))
        assert "not a regular file" in line, (args, line)
    assert time.monotonic() - start < 20


def test_an_output_onto_a_fifo_is_refused_and_the_fifo_kept(synced, tmp_path):

    fifo = tmp_path / "rules.pdf"
    os.mkfifo(fifo)
    line = one_line_error(synced("rules", "-o", str(fifo)))
    assert "not a regular file" in line and fifo.exists() and not fifo.is_file()


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
