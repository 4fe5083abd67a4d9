"""Build hhd's curated ruling table for Hellscube v1.2 (hhdcli/data/rulings-v1.2.json) from the card-by-card
readings in scripts/rulings/.

Every one of the 720 cards of the built-in data was read against the format's rules twice, by two readers
each: the first readings (scripts/rulings/part-{1,2,3}.jsonl, one JSON object a line: {"id", "name",
"rulings", "note", "why"}; a card with no ruling has "rulings": [], so "reviewed, none" is an entry and "not
reviewed" is a missing one) make the table; the second (part-{1,2,3}b.jsonl) must agree with them on every
card's rulings, and lends its note where the first has none. The review (scripts/rulings/review.jsonl, the
same shape; "note" may be left out to keep the reader's) settles the cards the two readings disagree on and
corrects a reading after a third look; its "why" says what was wrong.

Usage (from the repository root; re-runnable, the output is byte-identical for the same inputs):
    python scripts/build_rulings_table.py            # write the table
    python scripts/build_rulings_table.py --check    # exit 1 when the committed table is not what the inputs give

It refuses (naming the file and line) a line that is not JSON, an id that is no card of the set, a name that
is not that card's, a ruling id hhdcli.rulings does not know, a clarification without both languages, two
readings of one card that disagree with no review entry to settle them, and a set with a card nobody read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hhdcli.cache import load_builtin
from hhdcli.cards import Card, drive_id
from hhdcli.files import write_atomic
from hhdcli.rulings import BY_ID, RULINGS

ROOT = Path(__file__).resolve().parents[1]
READINGS = ROOT / "scripts" / "rulings"
OUTPUT = ROOT / "hhdcli" / "data" / "rulings-v1.2.json"
CARDS = 720
ORDER = [r.id for r in RULINGS]  # a card's rulings are listed in the table's order


class TableError(Exception):
    """A reading the table cannot be built from: the message names the file and line."""


def _read_lines(path: Path) -> list[tuple[str, dict[str, Any]]]:
    out = []
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{shown}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TableError(f"{where}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict):
            raise TableError(f"{where}: not a JSON object")
        out.append((where, record))
    return out


def _entry(where: str, record: dict[str, Any], cards: dict[str, Card], keep_note: Any = None) -> dict[str, Any]:
    card = cards.get(str(record.get("id")))
    if card is None:
        raise TableError(f"{where}: {record.get('id')!r} is no card of Hellscube v1.2")
    if record.get("name") != card.name:
        raise TableError(f"{where}: {record.get('name')!r} is not the name of {card.id} ({card.name!r})")
    rulings = record.get("rulings")
    if not isinstance(rulings, list) or any(r not in BY_ID for r in rulings):
        raise TableError(f"{where}: rulings {rulings!r}: each must be one of {', '.join(BY_ID)}")
    note = record["note"] if "note" in record else keep_note
    if note is not None and not (isinstance(note, dict) and all(isinstance(note.get(k), str) and note[k].strip()
                                                                for k in ("en", "ru"))):
        raise TableError(f"{where}: the note must be null or {{\"en\": \"…\", \"ru\": \"…\"}}")
    return {"name": card.name, "drive": drive_id(card.image),
            "rulings": sorted(set(rulings), key=ORDER.index),
            "clarification": {"en": note["en"].strip(), "ru": note["ru"].strip()} if note else None}


def _read_part(parts: list[Path], cards: dict[str, Card]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Entries by card id from reading files, and where each was read; one card read twice must read the same."""
    table: dict[str, dict[str, Any]] = {}
    seen: dict[str, str] = {}
    for part in parts:
        for where, record in _read_lines(part):
            entry = _entry(where, record, cards)
            card_id = record["id"]
            if card_id in table and table[card_id] != entry:
                raise TableError(f"{where}: {entry['name']} was read differently at {seen[card_id]}")
            table[card_id], seen[card_id] = entry, where
    return table, seen


def build(readings: Path = READINGS, allow_missing: bool = False) -> dict[str, Any]:
    cards = {card.id: card for card in load_builtin().cards}
    table, seen = _read_part(sorted(readings.glob("part-[0-9].jsonl")), cards)
    second, _ = _read_part(sorted(readings.glob("part-[0-9]b.jsonl")), cards)
    review = readings / "review.jsonl"
    reviewed = _read_lines(review) if review.exists() else []
    settled = {str(record.get("id")) for _, record in reviewed}
    for card_id, other in second.items():
        first = table.get(card_id)
        if first is None or card_id in settled:
            continue
        if first["rulings"] != other["rulings"]:
            raise TableError(f"{seen[card_id]}: the two readings of {first['name']} differ ({first['rulings']} and "
                             f"{other['rulings']}): settle it in {review.name}")
        if first["clarification"] is None:  # the same rulings: the second reader's note when the first wrote none
            first["clarification"] = other["clarification"]
    for where, record in reviewed:
        before = table.get(str(record.get("id")), {}).get("clarification")
        table[record["id"]] = _entry(where, record, cards, keep_note=before)
    missing = [cards[i].name for i in cards if i not in table]
    if missing and allow_missing:
        print(f"warning: {len(missing)} cards not read: hhd guesses their rulings from their text", file=sys.stderr)
    elif missing:
        raise TableError(f"{len(missing)} of {len(cards)} cards were not read: {', '.join(sorted(missing)[:10])}"
                         + (" …" if len(missing) > 10 else ""))
    if len(table) != CARDS and not allow_missing:
        raise TableError(f"the table has {len(table)} cards, Hellscube v1.2 has {CARDS}")
    return {"set": "Hellscube v1.2",
            "about": "The Hell's Half-Draft rulings of every card, read card by card; built by "
                     "scripts/build_rulings_table.py from scripts/rulings/.",
            "rulings": [r.id for r in RULINGS],
            "cards": {card_id: table[card_id] for card_id in sorted(table)}}


def render(document: dict[str, Any]) -> bytes:
    """JSON with one line a card, so that a change to one card's reading is a one-line diff."""
    head = {k: v for k, v in document.items() if k != "cards"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "cards": {']
    items = list(document["cards"].items())
    for n, (card_id, entry) in enumerate(items, 1):
        lines.append(f" {json.dumps(card_id)}: {json.dumps(entry, ensure_ascii=False)}" + ("," if n < len(items) else ""))
    return ("\n".join([*lines, "}}"]) + "\n").encode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--readings", type=Path, default=READINGS)
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with the committed table, write nothing")
    parser.add_argument("--allow-missing", action="store_true",
                        help="leave out the cards nobody read (hhd guesses theirs, marked as guessed)")
    args = parser.parse_args()
    try:
        data = render(build(args.readings, args.allow_missing))
    except TableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        same = args.output.exists() and args.output.read_bytes() == data
        print(f"{args.output}: {'up to date' if same else 'NOT what the readings give: run the script'}")
        return 0 if same else 1
    write_atomic(args.output, data)
    cards = json.loads(data)["cards"]
    with_rulings = sum(1 for e in cards.values() if e["rulings"])
    notes = sum(1 for e in cards.values() if e["clarification"])
    print(f"wrote {args.output}: {len(cards)} cards, {with_rulings} with rulings, {notes} clarifications")
    return 0


if __name__ == "__main__":
    sys.exit(main())
