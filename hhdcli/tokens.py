"""The tokens a Hell library needs: the registry's Hellscube tokens, which card makes which, and how hhd knows.

The registry keeps tokens in their own file (bones-bones/hellfall, packages/shared/src/data/tokens.json), apart
from the card catalog that `hhd sync` reads; each token's `all_parts` names the cards that make it (component
`token_maker`, with `count` and `persistent` where the card says so). Hellscube v1.2 is finished, so hhd carries
the 190 tokens its cards make (hhdcli/data/hellscube-tokens.json.gz, built from the token file by
scripts/build_tokens.py), as it carries the cards themselves.

Which tokens a card makes, in this order: the registry's relation (`registry`); for a card it does not relate,
the reviewed table of the v1.2 cards whose text alone does not say (hhdcli/data/tokens-v1.2.json, built by
scripts/build_token_table.py; `reviewed`); else the card's own text matched against the token list (`text`,
inferred: shown as such).
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from hhdcli import DATA
from hhdcli.cards import TOKEN_SET, Card, CardIndex, Face, drive_id, normalize_name, rules_text, stat_text

HELLSCUBE_SET = re.compile(r"^HLC(?:[._][0-2])?$")  # Hellscube v1.2's sets, written with . or _
TABLE_FILE = DATA / "tokens-v1.2.json"
TOKENS_FILE = DATA / "hellscube-tokens.json.gz"


@dataclass(frozen=True)
class Maker:
    """A card that makes the token, as the registry names it: its id, name, set and image, how many it makes,
    whether it stays."""

    id: str
    name: str
    count: str = ""
    persistent: bool = False
    set_code: str = ""
    image: str | None = None


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


class Source(StrEnum):
    """How hhd knows a card makes a token."""

    REGISTRY = "registry"  # the registry's token file relates them
    REVIEWED = "reviewed"  # hhd's reviewed table of v1.2 cards (the text alone does not say)
    TEXT = "text"  # inferred from the card's text


@dataclass(frozen=True)
class Making:
    """One card of the library that makes the token: how many at a time (the registry's count, "" when it does
    not say) and how hhd knows."""

    card: Card
    source: Source
    count: str = ""
    persistent: bool = False


@dataclass(frozen=True)
class NeededToken:
    """A token the library needs, with every card of it that makes it (each card once, in library order)."""

    token: Token
    makers: tuple[Making, ...]

    @property
    def inferred(self) -> bool:
        """Only the cards' texts say so."""
        return all(m.source is Source.TEXT for m in self.makers)

    def copies(self, per_token: int | None = None) -> int:
        """How many to bring: `per_token` when given, else one per card that makes it."""
        return per_token if per_token is not None else len(self.makers)


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
                         bool(p.get("persistent")), _text(p.get("set")), _text(p.get("image")) or None)
                   for p in parts if isinstance(p, dict) and p.get("component") == "token_maker")
    colors = tuple(c for c in record.get("colors") or () if isinstance(c, str))
    identity = tuple(c for c in record.get("color_identity") or () if isinstance(c, str))
    return Token(id=_text(record.get("id")), name=name, type_line=_text(record.get("type_line")),
                 mana_cost=_text(record.get("mana_cost")), mana_value=_mana_value(record.get("mana_value")),
                 oracle_text=rules_text(_text(record.get("oracle_text"))),  # a literal \\n is a line break, as in cards
                 colors=colors, color_identity=identity, power=stat_text(record.get("power")),
                 toughness=stat_text(record.get("toughness")), loyalty=stat_text(record.get("loyalty")),
                 image=_text(record.get("image")) or None, makers=makers)


def tokens_from_records(records: Iterable[dict[str, Any]]) -> list[Token]:
    return [t for t in (token_from_record(r) for r in records if isinstance(r, dict)) if t is not None]


@lru_cache(maxsize=1)
def builtin_tokens() -> tuple[Token, ...]:
    data = TOKENS_FILE.read_bytes()
    return tuple(tokens_from_records(json.loads(gzip.decompress(data))["data"]))


_REGISTRY_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")  # the registry's ids


def _maker_card(maker: Maker, index: CardIndex) -> Card | None:
    """The card of `index` a token's maker names: the card with its id; else, for a Hellscube v1.2 maker, the
    card of the legacy sheet (ids of hhd's own) it is as a library entry is found (its image's Drive id, its
    name, a rename: the registry writes "Johnny Appleseed // Apple Planting" where the sheet has "Johnny
    Appleseed"). A card with a registry id other than the maker's is another card, as Hellfall's exporter
    reads them, and a maker of a later cube is never a v1.2 card."""
    found = index.by_id.get(maker.id)
    if found is not None or not HELLSCUBE_SET.match(maker.set_code):
        return found
    found = index.match("", maker.name, maker.image)
    return found if found is not None and not _REGISTRY_ID.match(found.id) else None


def tokens_for(cards: Sequence[Card], tokens: Iterable[Token]) -> list[tuple[Token, list[tuple[Card, Maker]]]]:
    """The tokens the registry relates to the cards, each with its makers among the cards, in the order of the
    token file."""
    index = CardIndex([c for c in cards if not c.is_basic])
    made = []
    for token in tokens:
        makers: list[tuple[Card, Maker]] = []
        for maker in token.makers:
            card = _maker_card(maker, index)
            if card is not None and all(card is not c for c, _ in makers):
                makers.append((card, maker))
        if makers:
            made.append((token, makers))
    return made


# --- the reviewed table ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reviewed:
    """A v1.2 card read by hand: the ids of the registry tokens it makes (none: it makes copies, or tokens the
    registry has no card for), and why."""

    name: str
    tokens: tuple[str, ...]
    note: str = ""
    drive: str | None = None


@dataclass(frozen=True)
class ReviewedTable:
    entries: dict[str, Reviewed]  # by the built-in data's card id

    def entry(self, card: Card) -> Reviewed | None:
        """A card's entry by id, by its image's Drive id, or by name (a sync of the current registry format
        has other ids)."""
        if card.id in self.entries:
            return self.entries[card.id]
        key = drive_id(card.image)
        by_name = normalize_name(card.name)
        return next((e for e in self.entries.values()
                     if (key and e.drive == key) or normalize_name(e.name) == by_name), None)


def parse_reviewed(document: dict[str, Any]) -> ReviewedTable:
    return ReviewedTable({card_id: Reviewed(e["name"], tuple(e["tokens"]), e.get("note", ""), e.get("drive"))
                          for card_id, e in document["cards"].items()})


@cache
def reviewed_table() -> ReviewedTable:
    """The table that ships with hhd (beside this module: the wheel installs the package as files)."""
    return parse_reviewed(json.loads(TABLE_FILE.read_text(encoding="utf-8")))


# --- tokens found in a card's text ----------------------------------------------------------------------------

# "create(s) … token(s)", the clause that names what a card makes; and the keyword actions that make a named
# token without saying "create"
_CREATES = re.compile(r"\bcreates?\b[^.;\n]*?\btokens?\b", re.IGNORECASE)
_KEYWORDS = {"investigate": "Clue", "amass": "Army"}
_STATS = re.compile(r"(?<![\w/])([\dX*]+)/([\dX*]+)(?![\w/])")


def _face(token: Token) -> tuple[Any, ...]:
    return (token.name, token.type_line, token.power, token.toughness, token.colors, token.oracle_text)


def _named(name: str, clause: str) -> bool:
    return re.search(r"(?<![\w'])" + re.escape(name) + r"(?![\w'])", clause, re.IGNORECASE) is not None


def text_candidates(card: Card, tokens: Sequence[Token]) -> list[list[Token]]:
    """For each token the card's text says it makes, the registry tokens that could be it: a name found in a
    "create … token" clause (the longest: "Human Soldier", not "Human"), narrowed by the P/T the clause gives."""
    text = "\n".join(face.oracle_text for face in card.faces)
    clauses = _CREATES.findall(text) + [word for word in _KEYWORDS if re.search(rf"\b{word}", text, re.I)]
    found: list[list[Token]] = []
    for clause in clauses:
        if clause in _KEYWORDS:
            names = {_KEYWORDS[clause]}
        else:
            names = {t.name for t in tokens if _named(t.name, clause)}
            names = {n for n in names if not any(n != m and _named(n, m) for m in names)}
        stats = _STATS.search(clause)
        for name in sorted(names):
            same = [t for t in tokens if t.name == name]
            fitting = [t for t in same if not stats or (t.power, t.toughness) == stats.groups()] or same
            if fitting and all(fitting[0] is not group[0] for group in found):
                found.append(fitting)
    return found


def text_tokens(card: Card, tokens: Sequence[Token]) -> tuple[list[Token], bool]:
    """The tokens the card's text makes, and whether the text was clear: every token it names is one face
    (several registry records of one face are the same token to print)."""
    candidates = text_candidates(card, tokens)
    clear = all(len({_face(t) for t in group}) == 1 for group in candidates)
    return [group[0] for group in candidates if len({_face(t) for t in group}) == 1], clear


# --- what a library needs -------------------------------------------------------------------------------------


def library_tokens(cards: Sequence[Card], tokens: Sequence[Token] | None = None,
                   reviewed: ReviewedTable | None = None) -> list[NeededToken]:
    """The tokens the cards make, each with the cards that make it: the registry's relations first; a card it
    does not relate by the reviewed table, else by its own text (inferred). In the token file's order."""
    tokens = builtin_tokens() if tokens is None else tokens
    reviewed = reviewed_table() if reviewed is None else reviewed
    distinct = list({c.id: c for c in cards if not c.is_basic}.values())
    makers: dict[int, list[Making]] = {}  # by the token's place in `tokens`
    place = {id(t): i for i, t in enumerate(tokens)}
    related: set[int] = set()
    for token, relations in tokens_for(distinct, tokens):
        makers[place[id(token)]] = [Making(card, Source.REGISTRY, m.count, m.persistent) for card, m in relations]
        related.update(id(card) for card, _ in relations)
    by_id = {t.id: t for t in tokens if t.id}
    for card in distinct:
        if id(card) in related:
            continue
        entry = reviewed.entry(card)
        if entry is not None:
            made, source = [by_id[i] for i in entry.tokens if i in by_id], Source.REVIEWED
        else:
            made, source = text_tokens(card, tokens)[0], Source.TEXT
        for token in made:
            makers.setdefault(place[id(token)], []).append(Making(card, source))
    # the registry keeps some tokens twice (two Food records); one face is one token to bring
    merged: dict[tuple[Any, ...], tuple[Token, list[Making]]] = {}
    for i, found in sorted(makers.items()):
        token, kept = merged.setdefault(_face(tokens[i]), (tokens[i], []))
        kept.extend(m for m in found if all(m.card is not k.card for k in kept))
    order = {id(c): i for i, c in enumerate(distinct)}
    return [NeededToken(token, tuple(sorted(kept, key=lambda m: order[id(m.card)])))
            for token, kept in merged.values()]


def token_card(token: Token) -> Card:
    """A token as a card, for what draws, prints or exports cards: its face from the token's data, its image
    the registry's, its set TOKEN (so a proxy, a TTS card and an MPC slot know it for a token)."""
    face = Face(name=token.name, mana_cost=token.mana_cost, type_line=token.type_line,
                oracle_text=token.oracle_text, power=token.power, toughness=token.toughness,
                loyalty=token.loyalty, colors=token.colors, image=token.image)
    return Card(id=f"token-{token.id or normalize_name(token.name)}", name=token.name, set_code=TOKEN_SET,
                faces=(face,), colors=token.colors, mana_value=token.mana_value, layout="token",
                image=token.image, color_identity=token.color_identity)


def token_copies(needed: Sequence[NeededToken], per_token: int | None = None) -> list[Card]:
    """The token cards to print or export: each needed token as often as it is brought."""
    return [card for item in needed for card in [token_card(item.token)] * item.copies(per_token)]


def needed_json(needed: Sequence[NeededToken], per_token: int | None = None) -> list[dict[str, Any]]:
    """The library's tokens as `show --json` has them."""
    return [{"id": n.token.id, "name": n.token.name, "type_line": n.token.type_line,
             "power": n.token.power, "toughness": n.token.toughness, "colors": list(n.token.colors),
             "image": n.token.image, "copies": n.copies(per_token), "inferred": n.inferred,
             "made_by": [{"card": m.card.name, "id": m.card.id, "source": str(m.source), "count": m.count}
                         for m in n.makers]}
            for n in needed]
