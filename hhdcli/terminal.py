"""The one write guard: text from outside (the registry, a deck, a library file, a seed, a path, the environment)
may hold control characters or lone surrogates. Echoed raw, an escape sequence retitles the window, hides text or
worse, and a lone surrogate cannot be encoded at all. Every output goes through one of the three functions here,
which share one character class: `printable` for the terminal (shown escaped), `json_text` for JSON printed there
(escaped as JSON), `file_text` for files a program reads back (dropped)."""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but line feed and tab, DEL, the C1 controls (a lone 0x9b is CSI on some terminals) and lone
# surrogates (bytes that were not UTF-8, which no encoder takes)
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff"
_CONTROL = re.compile(f"[{_UNSAFE}]")
# JSON escapes C0 itself; DEL, C1 and surrogates it leaves raw when ensure_ascii is off
_JSON_RAW = re.compile("[\x7f-\x9f\ud800-\udfff]")
# what no file format here may hold: the same class, and the two non-characters XML 1.0 refuses
_NOT_IN_FILES = re.compile(f"[{_UNSAFE}\ufffe\uffff]")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every unsafe character shown escaped (`ESC` as `\\x1b`), the rest as it is."""
    return _CONTROL.sub(lambda m: _escape(m.group()), text)


def json_text(document: Any) -> str:
    """`document` as indented JSON that a terminal shows safely and any JSON reader reads back the same."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def file_text(text: str) -> str:
    """Text every written format can hold: unsafe characters dropped (a lone surrogate becomes "?")."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        text = text.encode("utf-8", "replace").decode("utf-8")
    return _NOT_IN_FILES.sub("", text)
