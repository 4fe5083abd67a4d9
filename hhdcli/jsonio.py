"""The one JSON reader for everything hhd reads: registry answers, caches, library files, Scryfall.

Every failure is a `ValueError` (what `json.loads` raises for bad syntax), so callers catch one type and turn
it into their own one-line error: nesting deeper than Python's recursion limit (a `RecursionError` otherwise)
and the non-standard constants NaN and Infinity, which no registry writes and which break sums and JSON out.
"""

from __future__ import annotations

import json
from typing import Any

JSON_SCHEMA = 1  # the "schema" of every --json answer: its keys change only with a new number


class JsonProblem(ValueError):
    """JSON that hhd will not read; the message says why in a few words."""


class JsonTooDeep(JsonProblem):
    """JSON nested deeper than Python's recursion limit: no data hhd reads is."""


def _refuse_constant(name: str) -> Any:
    raise JsonProblem(f"{name} is not a number JSON allows")


# A registry download (3.7 MB legacy, ~18 MB current) is read by msgspec's decoder, 2.3 times as fast as json's;
# below this size its import (~7 ms) would cost more than it saves (cards.json, 0.5 MB, is read by every command).
LARGE = 1 << 20


def load_json(raw: bytes | str) -> Any:
    if len(raw) > LARGE:
        import msgspec

        try:
            return msgspec.json.decode(raw)
        except (ValueError, RecursionError):
            pass  # what it refuses, json reads as before and says why in its words (UTF-16, a BOM, NaN, depth)
    try:
        return json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise JsonTooDeep("JSON nested too deeply to be card data") from None
    except UnicodeDecodeError as exc:
        raise JsonProblem(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def load_json_at(text: str, start: int) -> tuple[Any, int]:
    """The JSON value that begins at `text[start]` (a page's `init(...{...})` script) and where it ends, refused
    as `load_json` refuses (nesting too deep, NaN)."""
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    try:
        return decoder.raw_decode(text, start)
    except RecursionError:
        raise JsonTooDeep("JSON nested too deeply to be card data") from None
