"""Build hhd's list of Hellscube v1.2 names that are also real Magic card names (hhdcli/data/real-names.json).

Cockatrice keys its card database by name (and loads decks by the name simplified), so a Hell card called
Watch Wolf would merge into the real Watch Wolf. The Cockatrice export renames such cards with " (HC)"; this
script finds them from the registry's own list of real card names.

Usage (from the repository root, re-runnable; the output is byte-identical for the same inputs):
    python scripts/build_real_names.py ORACLE_NAMES_JSON REGISTRY_FILE [REGISTRY_FILE ...]

ORACLE_NAMES_JSON is `packages/shared/src/data/oracle-names.json` of the public-domain Hellfall repository
(bones-bones/hellfall; {"data": [lower-case names]}); the registry files are read as `hhd sync --source` reads
them (tests/data holds two). Commit the result.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from pathlib import Path

from hhdcli.cards import normalize_name, parse_registry

OUTPUT = Path(__file__).resolve().parents[1] / "hhdcli" / "data" / "real-names.json"


def colliding(oracle: bytes, registries: list[Path]) -> list[str]:
    """The names of the registries' cards and faces that are also real card names (`oracle`: oracle-names.json)."""
    real = {normalize_name(name) for name in json.loads(oracle.decode("utf-8"))["data"]}
    names: set[str] = set()
    for registry in registries:
        raw = registry.read_bytes()
        raw = gzip.decompress(raw) if registry.suffix == ".gz" else raw
        for card in parse_registry(raw).cards:
            names |= {n for n in (card.name, *(f.name for f in card.faces)) if n and normalize_name(n) in real}
    return sorted(names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("oracle_names", type=Path)
    parser.add_argument("registries", type=Path, nargs="+")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    oracle = args.oracle_names.read_bytes()
    document = {"source": "bones-bones/hellfall packages/shared/src/data/oracle-names.json",
                "sha256": hashlib.sha256(oracle).hexdigest(), "names": colliding(oracle, args.registries)}
    args.output.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.output} ({len(document['names'])} names)")


if __name__ == "__main__":
    main()
