"""The registry's tokens made by Hellscube v1.2 cards, for exports that put tokens beside the cards (Cockatrice).

The registry keeps tokens in their own file (bones-bones/hellfall, packages/shared/src/data/tokens.json), apart
from the card catalog that `hhd sync` reads; each token's `all_parts` names the cards that make it (component
`token_maker`, with `count` and `persistent` where the card says so). Hellscube v1.2 is finished, so hhd carries
the 190 tokens its cards make (hhdcli/export/data/hellscube-tokens.json.gz, built from the token file by
scripts/build_tokens.py), as it carries the cards themselves.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hhdcli.cards import Card, normalize_name, stat_text


@dataclass(frozen=True)
class Maker:
    """A card that makes the token: the registry's id and name, how many it makes, whether it stays."""

    id: str
    name: str
    count: str = ""
    persistent: bool = False


@dataclass(frozen=True)
class Token:
    id: str
    name: str
    type_line: str
    mana_cost: str = ""
    mana_value: float = 0
    oracle_text: str = ""
    colors: tuple[str, ...] = ()
    color_identity: tuple[str, ...] = ()
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    image: str | None = None
    makers: tuple[Maker, ...] = ()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _mana_value(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else 0


def token_from_record(record: dict[str, Any]) -> Token | None:
    """One token of the registry's token file (current format), or None for a record of the wrong shape."""
    name, parts = record.get("name"), record.get("all_parts") or []
    if not isinstance(name, str) or not name or not isinstance(parts, list):
        return None
    makers = tuple(Maker(_text(p.get("id")), _text(p.get("name")), str(p.get("count") or ""),
                         bool(p.get("persistent")))
                   for p in parts if isinstance(p, dict) and p.get("component") == "token_maker")
    colors = tuple(c for c in record.get("colors") or () if isinstance(c, str))
    identity = tuple(c for c in record.get("color_identity") or () if isinstance(c, str))
    return Token(id=_text(record.get("id")), name=name, type_line=_text(record.get("type_line")),
                 mana_cost=_text(record.get("mana_cost")), mana_value=_mana_value(record.get("mana_value")),
                 oracle_text=_text(record.get("oracle_text")),
                 colors=colors, color_identity=identity, power=stat_text(record.get("power")),
                 toughness=stat_text(record.get("toughness")), loyalty=stat_text(record.get("loyalty")),
                 image=_text(record.get("image")) or None, makers=makers)


def tokens_from_records(records: Iterable[dict[str, Any]]) -> list[Token]:
    return [t for t in (token_from_record(r) for r in records if isinstance(r, dict)) if t is not None]


@lru_cache(maxsize=1)
def builtin_tokens() -> tuple[Token, ...]:
    from importlib.resources import files

    data = (files("hhdcli.export") / "data" / "hellscube-tokens.json.gz").read_bytes()
    return tuple(tokens_from_records(json.loads(gzip.decompress(data))["data"]))


def tokens_for(cards: Sequence[Card], tokens: Iterable[Token]) -> list[tuple[Token, list[tuple[Card, Maker]]]]:
    """The tokens the cards make, each with its makers among the cards (matched by the registry's id, else by
    name: the legacy sheet's cards have ids of hhd's own), in the order of the token file."""
    by_id = {c.id: c for c in cards}
    by_name = {normalize_name(c.name): c for c in cards}
    made = []
    for token in tokens:
        makers: list[tuple[Card, Maker]] = []
        for maker in token.makers:
            card = by_id.get(maker.id) or by_name.get(normalize_name(maker.name))
            if card is not None and all(card is not c for c, _ in makers):
                makers.append((card, maker))
        if makers:
            made.append((token, makers))
    return made
