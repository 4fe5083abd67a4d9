"""The one write guard: text from outside (the registry, a deck, a library file, a seed, a path, the environment)
may hold control characters or lone surrogates. Echoed raw, an escape sequence retitles the window, hides text or
worse, and a lone surrogate cannot be encoded at all. Every output goes through one of the three functions here,
which share one character class: `printable` for the terminal (shown escaped), `json_text` for JSON printed there
(escaped as JSON), `file_text` for files a program reads back (dropped)."""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but line feed and tab, DEL and the C1 controls (a lone 0x9b is CSI on some terminals); and lone
# surrogates (bytes that were not UTF-8, which no encoder takes), found by the UTF-8 encoder rather than in a
# character class: a class reaching past U+00FF costs the regular expression compiler a millisecond or more at
# every start, for each of the three
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# JSON escapes C0 itself; DEL, C1 and surrogates it leaves raw when ensure_ascii is off
_JSON_RAW = re.compile("[\x7f-\x9f]")
# what no file format here may hold beside those: the two non-characters XML 1.0 refuses
_NOT_CHARACTERS = ("\ufffe", "\uffff")


def _escape(char: str) -> str:
    return f"\\x{ord(char):02x}"


def _surrogates(text: str, errors: str = "backslashreplace") -> str:
    """`text` with each lone surrogate written escaped (`\\udc80`), or as "?" with errors="replace";
    as it is when it has none (the encoder finds them at C speed)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors).decode("utf-8")
    return text


def printable(text: str) -> str:
    """`text` with every unsafe character shown escaped (`ESC` as `\\x1b`), the rest as it is."""
    return _surrogates(_CONTROL.sub(lambda m: _escape(m.group()), text))


def json_text(document: Any) -> str:
    """`document` as indented JSON that a terminal shows safely and any JSON reader reads back the same."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return _surrogates(_JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def file_text(text: str) -> str:
    """Text every written format can hold: unsafe characters dropped (a lone surrogate becomes "?")."""
    text = _CONTROL.sub("", _surrogates(text, "replace"))
    for char in _NOT_CHARACTERS:
        text = text.replace(char, "")
    return text
