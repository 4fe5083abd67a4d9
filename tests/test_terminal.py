"""Text reaching the terminal (hhdcli/terminal.py): control characters escaped."""

from __future__ import annotations


def test_control_characters_from_a_deck_reach_the_terminal_escaped(synced, library, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("2 Fake \x1b]0;pwned\x07Card\n20 Mountain\n\x9b31mRed\n")
    result = synced("check", str(deck), "-l", str(library))
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "\x07" not in result.output and "\x9b" not in result.output
    assert "Fake \\x1b]0;pwned\\x07Card" in result.output
