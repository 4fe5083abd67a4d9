"""Build hhdcli/data/hellscube-tokens.json.gz: the registry's tokens made by Hellscube v1.2 cards.

    python scripts/build_tokens.py TOKENS_FILE

TOKENS_FILE is the registry's token file (bones-bones/hellfall packages/shared/src/data/tokens.json,
`{"data": [...]}`). Kept: the tokens one of whose `all_parts` is a `token_maker` in a Hellscube v1.2 set (HLC,
HLC.0–HLC.2, written with `.` or `_`), with the fields the exporters read. Re-runnable: the same input gives the
same bytes (sorted keys, no gzip time stamp).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

KEPT = ("object", "kind", "id", "hcid", "name", "set", "layout", "image", "mana_cost", "mana_value", "type_line",
        "oracle_text", "colors", "color_identity", "power", "toughness", "loyalty", "all_parts")
HELLSCUBE = re.compile(r"^HLC(?:[._][0-2])?$")
OUT = Path(__file__).resolve().parent.parent / "hhdcli" / "data" / "hellscube-tokens.json.gz"


def main(source: Path, out: Path = OUT) -> None:
    records = json.loads(source.read_text(encoding="utf-8"))["data"]
    kept = [{k: r[k] for k in KEPT if k in r} for r in records
            if any(p.get("component") == "token_maker" and HELLSCUBE.match(str(p.get("set", "")))
                   for p in r.get("all_parts") or [])]
    data = json.dumps({"data": kept}, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    out.write_bytes(gzip.compress(data, 9, mtime=0))
    print(f"wrote {out}: {len(kept)} tokens")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("tokens_file", type=Path, help="the registry's tokens.json")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args()
    main(args.tokens_file, args.output)
