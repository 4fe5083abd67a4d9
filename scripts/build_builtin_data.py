"""Build hhd's built-in Hellscube v1.2 data (hhdcli/data/hellscube-v1.2.json.gz) from a registry file.

Usage (from the repository root, re-runnable; the output is byte-identical for the same inputs):
    python scripts/build_builtin_data.py tests/data/Hellscube-Database.legacy-2024-04-22.json.gz \\
        --symbols tests/data/pips.json

The source may be either registry format (the legacy sheet export or the current catalog); the date of
the data is taken from the file name (YYYY-MM-DD) unless --date says otherwise. Commit the result.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

from hhdcli.cache import BUILTIN_FILE, BUILTIN_PREFIX, CacheMeta, parse_symbols
from hhdcli.cards import parse_registry
from hhdcli.registry import EXPECTED_CARDS

# What hhd reads of a symbol: its meaning, and the SVG file name only to tell how the registry draws it
# (symbols.py: {Pickle} is drawn as another symbol); the drawing hints (no_shadow, clip_type) are left out.
SYMBOL_FIELDS = ("symbol", "represents_mana", "colors", "hybrid", "phyrexian", "mana_value", "english", "filename")


def build(source: Path, symbols: Path, date: str) -> bytes:
    raw = source.read_bytes()
    if source.suffix == ".gz":  # the test data's compressed copy: the same file, the same output
        raw, source = gzip.decompress(raw), source.with_suffix("")
    parsed = parse_registry(raw)
    if len(parsed.cards) != EXPECTED_CARDS:
        raise SystemExit(f"{source}: {len(parsed.cards)} Hellscube v1.2 cards, expected {EXPECTED_CARDS}")
    symbols_raw = symbols.read_bytes()
    table = [{k: r[k] for k in SYMBOL_FIELDS if k in r} for r in parse_symbols(symbols_raw)]
    meta = CacheMeta(source=f"{BUILTIN_PREFIX} {source.name}", format=parsed.format, registry_version=None,
                     fetched_at=f"{date}T00:00:00+00:00", sha256=hashlib.sha256(raw).hexdigest(), card_count=len(parsed.cards),
                     symbols_source=f"{BUILTIN_PREFIX} {symbols.name}",
                     symbols_sha256=hashlib.sha256(symbols_raw).hexdigest())
    document = {"meta": vars(meta), "cards": [card.to_json() for card in parsed.cards], "symbols": table}
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a registry database file (legacy or current format)")
    parser.add_argument("--symbols", type=Path, required=True, help="the registry's pips.json")
    parser.add_argument("--date", help="the date of the data (default: from the source's file name)")
    parser.add_argument("-o", "--output", type=Path, default=BUILTIN_FILE)
    args = parser.parse_args(argv)
    found = re.search(r"\d{4}-\d{2}-\d{2}", args.source.name)
    date = args.date or (found.group(0) if found else None)
    if not date:
        parser.error("the source's file name has no date: pass --date YYYY-MM-DD")
    data = build(args.source, args.symbols, date)
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data) / 1024:.0f} KB)", file=sys.stderr)


if __name__ == "__main__":
    main()
