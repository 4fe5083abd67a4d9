"""What hhd prints on a terminal: text that came from files (a deck's card names, a library's fields) may
hold control characters, and an escape sequence echoed raw would retitle the window, hide text or worse."""

from __future__ import annotations

import re

# C0 controls but line feed and tab, DEL, and the C1 controls (a lone 0x9b is CSI on some terminals)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with every control character shown escaped (`ESC` as `\\x1b`), the rest as it is."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
