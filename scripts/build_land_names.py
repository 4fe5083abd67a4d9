"""Build hhd's built-in list of real Magic cards (hhdcli/data/real-cards.json.gz): every real land with the colors
it makes, and the name of every other real card, so that a deck checked offline tells a land from a known non-land
from a name it does not know (a typo, a card newer than the list), and warns only about the last.

Usage (from the repository root, re-runnable; the output is byte-identical for the same inputs):
    python scripts/build_land_names.py LANDS_JSON ORACLE_NAMES_JSON

LANDS_JSON is `data/lands.json` of the public repository NirDine/Commander.Land (the Commander.Land site), a
Scryfall search (`type:land game:paper legal:commander -is:reprint`) its GitHub workflow runs daily: each card's
`name` (a double-faced card as `Front // Back`), `type_line` and `produced_mana`. Used: commit
72e0edd8f33d8971ed2a7fd29c04bed76e76ff75 (2026-08-22, version 10.79, 1,162 cards), sha256
c529402c690234fc56ab624c9e5679ad97dafb95bb1d54c0546c7bf92e01007b.

ORACLE_NAMES_JSON is `packages/shared/src/data/oracle-names.json` of the public-domain Hellfall repository
(bones-bones/hellfall): every name of MTGJSON's AtomicCards (each face of a multi-faced card too) and of
Cockatrice's token list, lower-cased (`{"data": [...]}`). Used: commit 44aefbffabb31325c3be0f1d535772d8abf1f336
(2026-08-04, 37,265 names), sha256 978005631cb207abea3d892623a4205d46caed1ad7995c4e182b0a0121a050ab — the same
file scripts/build_real_names.py reads.

Arena's rebalanced lands (`A-Thran Portal`: six) are lands with the colors of the land they rebalance. What the lists
leave out, so counted as non-lands offline (name them with --land NAME=COLORS): lands not legal in Commander
(Karakas, Library of Alexandria, Tolarian Academy; Alchemy's own digital lands; silver-bordered ones) and
transforming double-faced cards whose back is a land (Search for Azcanta), which Commander.Land leaves out.
Online, Scryfall answers for every name first. Commit the result.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from hhdcli.cards import normalize_name
from hhdcli.colors import known

OUTPUT = Path(__file__).resolve().parents[1] / "hhdcli" / "data" / "real-cards.json.gz"
SOURCES = {
    "lands": {"repository": "NirDine/Commander.Land", "path": "data/lands.json",
              "commit": "72e0edd8f33d8971ed2a7fd29c04bed76e76ff75", "date": "2026-08-22"},
    "names": {"repository": "bones-bones/hellfall", "path": "packages/shared/src/data/oracle-names.json",
              "commit": "44aefbffabb31325c3be0f1d535772d8abf1f336", "date": "2026-08-04"},
}


def land_colors(cards: list[dict[str, Any]]) -> dict[str, str]:
    """Each land's name → the colors it makes (WUBRG letters; colorless mana is no color)."""
    return {card["name"]: "".join(known(card.get("produced_mana") or ())) for card in cards}


def name_keys(name: str) -> set[str]:
    """The keys a deck may write a card by: its whole name and each face's (`Front // Back`)."""
    return {normalize_name(n) for n in (name, *name.split(" // "))} - {""}


def rebalanced(names: list[str], lands: dict[str, str]) -> dict[str, str]:
    """Arena's rebalanced versions (`A-Thran Portal`, digital only, so not in a paper search) of the lands: the same
    land with its abilities retuned, so it makes the colors of the land it rebalances."""
    by_key = {normalize_name(name): name for name in lands}
    return {f"A-{land}": lands[land] for name in names
            if name.startswith("a-") and (land := by_key.get(normalize_name(name[2:]))) is not None}


def build(lands_json: bytes, oracle_names: bytes) -> bytes:
    names = json.loads(oracle_names.decode("utf-8"))["data"]
    lands = land_colors(json.loads(lands_json.decode("utf-8"))["data"])
    lands |= rebalanced(names, lands)
    land_keys = {key for name in lands for key in name_keys(name)}
    # each part of a `Front // Back` name too: melded pairs are listed only as `Urza, Lord Protector // Urza, Planeswalker`
    others = {key for name in names for key in name_keys(name)} - land_keys
    sources = {kind: {**where, "sha256": hashlib.sha256(raw).hexdigest()}
               for (kind, where), raw in zip(SOURCES.items(), (lands_json, oracle_names), strict=True)}
    document = {"sources": sources, "key": "hhdcli.cards.normalize_name",
                "lands": sorted(lands.items()),  # [name, colors]
                "others": "\n".join(sorted(others))}  # one string: far smaller than a JSON list
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)  # mtime 0: byte-identical reruns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lands_json", type=Path)
    parser.add_argument("oracle_names", type=Path)
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    data = build(args.lands_json.read_bytes(), args.oracle_names.read_bytes())
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
