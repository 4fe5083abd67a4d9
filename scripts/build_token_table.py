"""Build hhd's reviewed token table for Hellscube v1.2 (hhdcli/data/tokens-v1.2.json) from the hand readings in
scripts/tokens/reviewed.jsonl.

The registry relates most token makers to their tokens; hhdcli.tokens reads a card it does not relate by its
text. The text alone is not enough for some of the 720 cards: they make token copies of other cards, tokens
whose stats the game sets, or tokens the registry has no record of, or they speak of tokens without making
any. This script finds those cards (every card of the built-in data the registry does not relate whose text
speaks of tokens or a keyword action that makes one) and writes the reading of each (one JSON object a line:
{"name", "tokens": [registry token ids or names], "note"}; "tokens": [] is "reviewed: none to bring").

Usage (from the repository root; re-runnable, the output is byte-identical for the same inputs):
    python scripts/build_token_table.py            # write the table
    python scripts/build_token_table.py --check    # exit 1 when the committed table is not what the inputs give

It refuses (naming the file and line) a line that is not JSON, a name that is no card of the set, a token no
registry token is, and a card that needs a reading and has none.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from hhdcli.cache import load_builtin
from hhdcli.cards import Card, CardIndex, drive_id, normalize_name
from hhdcli.files import write_atomic
from hhdcli.tokens import TABLE_FILE, builtin_tokens, tokens_for

ROOT = Path(__file__).resolve().parents[1]
READINGS = ROOT / "scripts" / "tokens" / "reviewed.jsonl"
SPEAKS_OF_TOKENS = re.compile(r"\btokens?\b|\b(investigate|amass|incubate|fabricate|populate|afterlife|embalm|"
                              r"eternalize|encore|myriad)", re.IGNORECASE)


def needing_review(cards: list[Card]) -> list[Card]:
    """The cards whose tokens the registry does not say and whose text speaks of tokens."""
    related = {id(card) for _, makers in tokens_for(cards, builtin_tokens()) for card, _ in makers}
    return [c for c in cards if id(c) not in related
            and SPEAKS_OF_TOKENS.search("\n".join(face.oracle_text for face in c.faces))]


def read_readings(path: Path, index: CardIndex) -> dict[str, dict[str, Any]]:
    tokens = builtin_tokens()
    by_name = {normalize_name(t.name): t.id for t in tokens}
    ids = {t.id for t in tokens}
    readings = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            reading = json.loads(line)
        except json.JSONDecodeError as error:
            sys.exit(f"{path}:{number}: not JSON ({error})")
        card = index.by_key.get(normalize_name(reading.get("name", "")))
        if card is None:
            sys.exit(f"{path}:{number}: {reading.get('name')!r} is no card of Hellscube v1.2")
        made = []
        for token in reading.get("tokens", []):
            found = token if token in ids else by_name.get(normalize_name(token))
            if found is None:
                sys.exit(f"{path}:{number}: {token!r} is no registry token")
            made.append(found)
        readings[card.id] = {"name": card.name, "drive": drive_id(card.image), "tokens": made,
                             "note": reading.get("note", "")}
    return readings


def build() -> bytes:
    cards = [c for c in load_builtin().cards if not c.is_basic]
    readings = read_readings(READINGS, CardIndex(cards))
    missing = [c.name for c in needing_review(cards) if c.id not in readings]
    if missing:
        sys.exit(f"{READINGS}: no reading of {', '.join(missing)}")
    document = {"set": "Hellscube v1.2", "about": "Which registry tokens the v1.2 cards whose text alone does "
                "not say make, read by hand; built by scripts/build_token_table.py from scripts/tokens/.",
                "cards": dict(sorted(readings.items()))}
    return (json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table differs")
    args = parser.parse_args()
    data = build()
    if args.check:
        sys.exit(0 if TABLE_FILE.read_bytes() == data else f"{TABLE_FILE} is not what the readings give")
    write_atomic(TABLE_FILE, data)
    print(f"wrote {TABLE_FILE}: {len(json.loads(data)['cards'])} cards")


if __name__ == "__main__":
    main()
