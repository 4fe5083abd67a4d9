"""Mana-cost syntax: `{…}` symbols and bare costs like `2U` (pure functions, no symbol meanings)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

SYMBOL = re.compile(r"\{([^{}]*)\}")
_BRACED_COST = re.compile(r"(?:\{[^{}]*\}\s*)+")
_BARE_COST = re.compile(r"(?:\d+|[WUBRGPCXS])+")
_BARE_TOKEN = re.compile(r"\d+|[WUBRGPCXS]")
# A symbol part that is a number, not a color: {3}, {1/2}, {-1}, {∞}, {X}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?|\d+/\d+|∞|[XYZ]")


@dataclass(frozen=True)
class ParsedCost:
    """A cost slot read: its mana symbols, or the stray text it holds instead."""

    symbols: tuple[str, ...]
    stray: str | None = None  # text in a cost slot that is not a mana cost (flavour text, a note)


def symbols_in(text: str) -> tuple[str, ...]:
    """Every `{…}` symbol in a text, without braces: `{T}: Add {G}.` → (T, G)."""
    return tuple(s.strip() for s in SYMBOL.findall(text or ""))


@lru_cache(maxsize=4096)
def parse_cost(text: str) -> ParsedCost:
    """`{3}{2/R}{H/R}` → symbols; a bare `U` or `2U` is read as `{U}`/`{2}{U}`; other text is stray."""
    text = (text or "").strip()
    if not text:
        return ParsedCost(())
    if _BRACED_COST.fullmatch(text):
        return ParsedCost(symbols_in(text))
    if _BARE_COST.fullmatch(text):
        return ParsedCost(tuple(_BARE_TOKEN.findall(text)))
    return ParsedCost((), stray=text)


def is_cost(text: str) -> bool:
    """A cost slot that holds a mana cost (braced or bare), not stray text."""
    parsed = parse_cost(text)
    return bool(parsed.symbols) and parsed.stray is None


def is_number(part: str) -> bool:
    return NUMBER.fullmatch(part.strip()) is not None
