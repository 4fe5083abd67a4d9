"""The card model and the two registry formats (legacy sheet export, current Scryfall-like) → model."""

from __future__ import annotations

import gc
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache, cached_property, lru_cache
from typing import Any, NamedTuple

from hhdcli import colors
from hhdcli.colors import BASIC_LANDS, Group
from hhdcli.costs import is_cost, parse_cost
from hhdcli.errors import DataError
from hhdcli.i18n import N_, _
from hhdcli.jsonio import JsonProblem, load_json

# Hellscube v1.2 lives in set HLC and its children; the registry writes both HLC.0 and HLC_0.
V12_SETS = {"HLC", "HLC.0", "HLC.1", "HLC.2"}
BASIC_SET = "BASIC"  # the built-in basic lands of the Hell pool
TOKEN_SET = "TOKEN"  # a token drawn, printed or exported as a card (hhdcli.tokens.token_card)

# The registry's own color rules (its Layout.ts): faces of these layouts never add to a card's colors or
# cost (a token printed in an inset, a reminder card, a dungeon…), and cards of these layouts take their
# colors from the front face alone.
NO_IDENTITY_FACE_LAYOUTS = {"meld_result", "token", "emblem", "reminder", "stickers", "dungeon", "draft_partner",
                            "specialize"}
FRONT_IDENTITY_LAYOUTS = {"specialize", "meld_part", "draft_partner", "reminder_on_back", "token_on_back",
                          "token_in_inset", "dungeon_on_back", "dungeon_in_inset", "stickers_on_back"}


class Kind(StrEnum):
    """What a physical card of the Hell library is, for the take rule and the library file."""

    SPELL = "spell"
    LAND = "land"
    BASIC = "basic"


class CardType(StrEnum):
    """A card's main type, for sorting and the summary: the first of these its front face has."""

    LAND = "Land"
    CREATURE = "Creature"
    PLANESWALKER = "Planeswalker"
    INSTANT = "Instant"
    SORCERY = "Sorcery"
    ARTIFACT = "Artifact"
    ENCHANTMENT = "Enchantment"
    OTHER = "Other"


_TYPE_WORDS = tuple((t, t.value.lower()) for t in CardType)  # once: a summary asks each of ~1,000 cards


@dataclass(frozen=True)
class Face:
    """One face of a card: its name, cost, type line, rules text and stats."""

    name: str
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    colors: tuple[str, ...] = ()
    image: str | None = None
    counts: bool = True  # part of the card's cost and colors (False: an inset token, a reminder face…)


@dataclass(frozen=True)
class Card:
    """A Hellscube card as hhd keeps it, whichever registry format it was read from."""

    id: str
    name: str
    set_code: str
    faces: tuple[Face, ...]
    colors: tuple[str, ...] = ()  # the card's colors by the rules: its cost, plus a color indicator
    mana_value: float | None = None
    layout: str = "normal"
    image: str | None = None  # the whole card's print image (print_image preferred)
    banned: bool = False
    tags: tuple[str, ...] = ()
    creators: tuple[str, ...] = ()
    color_identity: tuple[str, ...] = ()  # cost and rules-text colors (the registry's; Commander's sense)
    rotated_image: str | None = None  # a split card's picture turned to lie sideways, as a table shows it

    @property
    def counted_faces(self) -> tuple[Face, ...]:
        """The faces whose costs the take rule reads."""
        return tuple(face for face in self.faces if face.counts)

    @property
    def is_land(self) -> bool:
        """A land for the take rule: the front face has the type Land."""
        return is_land_type(self.faces[0].type_line) if self.faces else False

    @property
    def is_token(self) -> bool:
        """A token drawn as a card (hhdcli.tokens.token_card), not a Hellscube card."""
        return self.set_code == TOKEN_SET

    @property
    def is_basic(self) -> bool:
        """One of the pool's built-in basic lands (not a Hellscube card)."""
        return self.set_code == BASIC_SET

    @property
    def kind(self) -> Kind:
        if self.is_basic:
            return Kind.BASIC
        return Kind.LAND if self.is_land else Kind.SPELL

    @property
    def color_group(self) -> Group:
        """By color alone: W U B R G P for one color, MULTI for several, COLORLESS for none."""
        return colors.group_of(self.colors)

    @property
    def group(self) -> Group:
        """How lists group the card: basic lands, other lands, else its color group."""
        if self.is_basic:
            return Group.BASIC
        return Group.LAND if self.is_land else self.color_group

    @property
    def frame(self) -> Group:
        """The color a proxy's frame shows: a basic its mana's color; a colorless land is LAND."""
        if self.is_basic:
            return Group(BASIC_LANDS[self.name])
        group = self.color_group
        return Group.LAND if group is Group.COLORLESS and self.is_land else group

    @property
    def primary_type(self) -> CardType:
        return primary_type_of(self.faces[0].type_line) if self.faces else CardType.OTHER

    @property
    def type_line(self) -> str:
        return " // ".join(f.type_line for f in self.faces if f.type_line)

    @property
    def mana_cost(self) -> str:
        """Every face's cost, for display; a cost slot holding stray text (Gristly Bear) is left out."""
        return " // ".join(f.mana_cost for f in self.faces if is_cost(f.mana_cost))

    @property
    def is_double_faced(self) -> bool:
        """Its faces are printed on its two sides: each face has an image of its own."""
        return sum(1 for f in self.faces if f.image) > 1

    @property
    def print_images(self) -> tuple[str, ...]:
        """One image per physical proxy: each face's own image (double-faced), else the card's."""
        if self.is_double_faced:
            return tuple(f.image for f in self.faces if f.image)
        return (self.image,) if self.image else tuple(f.image for f in self.faces if f.image)

    def to_json(self) -> dict[str, Any]:
        # vars() rather than dataclasses.asdict: the same dict for these flat records, ten times faster
        return {**vars(self), "faces": [vars(face) for face in self.faces]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Card:
        fast = _from_own_json(data)
        if fast is not None:
            return fast
        faces = tuple(Face(**{**f, "colors": tuple(f.get("colors", ()))}) for f in data["faces"])
        return cls(
            **{
                **data,
                "faces": faces,
                "colors": tuple(data.get("colors", ())),
                "color_identity": tuple(data.get("color_identity", ())),
                "tags": tuple(data.get("tags", ())),
                "creators": tuple(data.get("creators", ())),
            }
        )


_CARD_FIELDS = [f.name for f in fields(Card)]
_FACE_FIELDS = [f.name for f in fields(Face)]


def _from_own_json(data: Any) -> Card | None:
    """The card of a record exactly as Card.to_json wrote it (every field, in order: the cache), built without
    the constructor's keyword merging, a third of the time of loading the cache's 720 cards; None for any
    other record, which the constructor reads (and refuses) as before."""
    if type(data) is not dict or list(data) != _CARD_FIELDS or type(data["faces"]) is not list:
        return None
    faces = []
    for raw in data["faces"]:
        if type(raw) is not dict or list(raw) != _FACE_FIELDS:
            return None
        face = object.__new__(Face)
        face.__dict__.update(raw)  # a frozen dataclass's fields, set as its own __init__ sets them
        face.__dict__["colors"] = tuple(raw["colors"])
        faces.append(face)
    card = object.__new__(Card)
    values = card.__dict__
    values.update(data)
    values.update(faces=tuple(faces), colors=tuple(data["colors"]), color_identity=tuple(data["color_identity"]),
                  tags=tuple(data["tags"]), creators=tuple(data["creators"]))
    return card


def card_text(card: Card) -> str:
    """A card's faces as plain text: name and cost, type line, rules text, P/T or loyalty."""
    blocks = []
    for face in card.faces:
        stats = f"{face.power}/{face.toughness}" if face.power and face.toughness else ""
        lines = [f"{face.name} {face.mana_cost}".strip(), face.type_line, face.oracle_text, stats,
                 f"Loyalty {face.loyalty}" if face.loyalty else ""]
        blocks.append("\n".join(line for line in lines if line))
    return "\n----\n".join(blocks)


def _sha1(data: bytes) -> Any:
    import hashlib  # only a sync from the legacy sheet names cards by hash: not every command's start-up

    return hashlib.sha1(data)


# A type line's answers, worked out once per line: a pool of 970 has ~300 lines (its 250 basics share 5),
# and a summary asks each card four questions that read it.
@lru_cache(maxsize=4096)
def is_land_type(type_line: str) -> bool:
    main_types = type_line.split("—")[0]
    return "land" in main_types.lower().split()


@lru_cache(maxsize=4096)
def primary_type_of(type_line: str) -> CardType:
    words = type_line.split("—")[0].lower().split()
    return next((t for t, word in _TYPE_WORDS if word in words), CardType.OTHER)


def normalize_name(name: str) -> str:
    """The key names are matched by: case, accents, punctuation and spacing do not matter; letters and
    digits of every script count (`Lim-Dûl` is `limdul`, `日本語のカード` is itself)."""
    if name.isascii():  # most names: NFKD changes nothing and casefold is lower (~40 % of loading 720 cards)
        return _NOT_WORD.sub("", name.lower())
    folded = unicodedata.normalize("NFKD", name).casefold().replace("æ", "ae").replace("œ", "oe")
    return _NOT_WORD.sub("", folded)


_NOT_WORD = re.compile(r"[\W_]+")  # after NFKD, accents are combining marks, which \w does not match


def pool_order_key(name: str) -> str:
    """The order the pool is sorted in before the seeded draw. Frozen as it was first written (Latin and
    Cyrillic letters, digits): a new key would draw other libraries from the same seeds."""
    return _not_pool_order().sub("", name.lower())


@cache
def _not_pool_order() -> re.Pattern[str]:
    """Compiled when a pool is first sorted, not by every command that imports this module."""
    return re.compile(r"[^0-9a-zа-яё]+")


_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_SUFFIX = re.compile(r"\s*\([^()]*\)\s*$")  # "Corpse Knight (HC)", "Time Spiral (Not The Urza's Saga One)"
_DRIVE_ID = re.compile(r"(?:/d/|[?&]id=)([\w-]{20,})")


def loose_name(name: str) -> str:
    """A name as renames leave it: without a leading article or a bracketed suffix."""
    return normalize_name(_ARTICLE.sub("", _SUFFIX.sub("", name.strip())))


def drive_id(url: str | None) -> str | None:
    """The Google Drive file id in a registry image URL; it survives most renames of a card."""
    found = _DRIVE_ID.search(url or "")
    return found.group(1) if found else None


def one_edit_apart(a: str, b: str) -> bool:
    """True when one inserted, deleted or changed letter turns a into b (a typo fixed in a rename)."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + 1:] == b[i + 1:] if len(a) == len(b) else a[i:] == b[i + 1:]


def _legacy_sheet(raw: bytes) -> dict[str, list[dict[str, Any]]] | None:
    """A legacy sheet download with only the columns hhd reads (LEGACY_SCHEMA's) decoded: msgspec skips the
    sheet's others (flavour text, rulings, ten empty FIELDnn) without building them, and reading the 3.7 MB
    file takes a third of the time. Each record keeps exactly the keys it had of those, so everything after
    reads it as it would the whole record. None for anything else (the current format, a list, a record that
    is no object, bad JSON): load_json reads that, and says what is wrong."""
    if b'"Supertype(s)"' not in raw[:65536]:  # not the legacy sheet: no need to try
        return None
    import msgspec

    try:
        sheet = _legacy_decoder().decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None
    return msgspec.to_builtins(sheet)  # a column a record lacks stays absent (it was UNSET)


@cache
def _legacy_decoder() -> Any:
    import msgspec

    columns = [(f"c{i}", Any, msgspec.field(name=key, default=msgspec.UNSET)) for i, key in enumerate(LEGACY_SCHEMA)]
    record = msgspec.defstruct("LegacyRecord", columns)
    return msgspec.json.Decoder(msgspec.defstruct("LegacySheet", [("data", list[record])]))  # type: ignore[valid-type]


def detect_format(document: Any) -> str:
    """'legacy' or 'current', or a DataError saying what the document looks like instead."""
    if isinstance(document, list):
        records = document
    elif isinstance(document, dict) and isinstance(document.get("data"), list):
        records = document["data"]
    else:
        raise DataError(
            _("the download is JSON but not a card database: expected {\"data\": [...]}"),
            _("check --source points at Hellscube-Database.json or catalog.json"),
        )
    if not records:
        raise DataError(_("the card database is empty (no cards)"), _("check --source; the registry may be mid-update"))
    first = next((r for r in records if isinstance(r, dict)), None)
    if first is None:
        raise DataError(_("the card database holds no card records"), _("check --source"))
    if "Name" in first and "Cost" in first:
        return "legacy"
    if "name" in first and ("type_line" in first or "card_faces" in first):
        return "current"
    raise DataError(
        _("unrecognised card record with keys {value}").format(value=sorted(first)[:6]),
        _("expected the registry's legacy or current format"),
    )


class Parsed(NamedTuple):
    format: str  # "legacy" or "current"
    cards: list[Card]  # the Hellscube v1.2 cards
    records: int  # every record of the download (all cubes), to check against the manifest's cardCount
    skipped: list[str] = []  # one line per Hellscube v1.2 record that breaks the schema, naming it


def parse_registry(raw: bytes) -> Parsed:
    """Parse a registry download: its format, its Hellscube v1.2 cards, how many records it holds. A record
    that breaks the format's schema is skipped and named in `skipped`; only a bad file is a DataError."""
    try:
        with no_collection():
            document = _legacy_sheet(raw) or load_json(raw)
    except ValueError as exc:
        snippet = raw[:40].decode("utf-8", "replace").strip()
        why = str(exc) if isinstance(exc, JsonProblem) else f"{exc.__class__.__name__}: starts with {snippet!r}"
        raise DataError(_("the download is not valid JSON ({why})").format(why=why),
                        _("the registry may have answered with an error page; try again later")) from exc
    fmt = detect_format(document)
    records = document["data"] if isinstance(document, dict) else document
    records = [r for r in records if isinstance(r, dict)]
    from msgspec.json import encode as encode_json

    parse = _legacy_card if fmt == "legacy" else _current_card
    selected = _legacy_is_v12 if fmt == "legacy" else _current_is_v12
    schema = LEGACY_SCHEMA if fmt == "legacy" else CURRENT_SCHEMA
    parsed, skipped = [], []
    with no_collection():
        for number, record in enumerate(records, 1):
            if not selected(record):
                continue
            problem = schema_problem(record, schema)
            if problem is None:
                try:
                    card = parse(record)
                    encode_json(card.to_json())  # a lone surrogate (JSON's "\ud800") no file can hold
                    parsed.append(card)
                    continue
                except (TypeError, ValueError, AttributeError, KeyError) as exc:  # the schema's last defence
                    problem = f"cannot be read ({exc.__class__.__name__}: {exc})"
            name = record.get("name", record.get("Name"))
            skipped.append(f"skipped record {number} ({str(name)[:60]!r}): {problem}")
    # a record listed twice (same id) is one card: the first of them is kept
    cards = list({card.id: card for card in reversed(parsed)}.values())[::-1]
    return Parsed(fmt, cards, len(records), skipped)


@contextmanager
def no_collection() -> Iterator[None]:
    """The garbage collector paused while thousands of cards are built: each of its passes would walk the
    whole parsed registry (nothing built here is garbage), a tenth of a sync's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# the legacy format's 4-slot columns, one slot per face
_SLOT_KEYS = ("Cost", "Supertype(s)", "Card Type(s)", "Subtype(s)", "Text Box", "power", "toughness", "Loyalty")


# --- the schema: what hhd reads of a record, and the JSON type each field may hold (null always may) -----


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _scalar(value: Any) -> bool:
    """Power, toughness, loyalty, a legacy CMC: "3", 3, "*", "1+*"."""
    return _text(value) or _number(value)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_SLOT_TYPES = frozenset((str, int, float, type(None)))  # exact types: a bool is no number here


def _slot_column(value: Any) -> bool:
    """A legacy 4-slot column: a list of text, numbers or nulls (or one text). By exact type, in one pass:
    8 columns of each of 720 records are checked on every sync."""
    return type(value) is str or type(value) is list and _SLOT_TYPES.issuperset(map(type, value))


def _mapping(value: Any) -> bool:
    return isinstance(value, dict)


def _faces(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(f, dict) and schema_problem(f, FACE_SCHEMA) is None
                                           for f in value)


_EXPECTED = {_text: N_("text"), _number: N_("a number"), _scalar: N_("text or a number"),
             _texts: N_("a list of text"), _slot_column: N_("a list of face slots"), _mapping: N_("an object"),
             _faces: N_("a list of faces")}

FACE_SCHEMA = {"name": _text, "mana_cost": _text, "type_line": _text, "oracle_text": _text, "power": _scalar,
               "toughness": _scalar, "loyalty": _scalar, "colors": _texts, "image": _text, "print_image": _text,
               "still_image": _text, "layout": _text}
CURRENT_SCHEMA = {**FACE_SCHEMA, "id": _text, "set": _text, "kind": _text, "mana_value": _number,
                  "color_identity": _texts, "tags": _texts, "creators": _texts, "legalities": _mapping,
                  "card_faces": _faces, "rotated_image": _text}
LEGACY_SCHEMA = {"Name": _text, "Set": _text, "Image": _text, "CMC": _scalar, "Color(s)": _text,
                 "Constructed": _text, "Tags": _text, "Creator": _text,
                 **dict.fromkeys(_SLOT_KEYS, _slot_column)}


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _snapshot_faces(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(f, dict) and isinstance(f.get("name"), str) and schema_problem(f, SNAPSHOT_FACE_SCHEMA) is None
        for f in value)


_EXPECTED.update({_flag: N_("true or false"), _snapshot_faces: N_("a list of faces with names")})

# A card as hhd itself writes it (Card.to_json): the copy a library file keeps of each card, which a person
# may have edited by hand. Every field's type is checked before a Card is built from it.
SNAPSHOT_FACE_SCHEMA = {"name": _text, "mana_cost": _text, "type_line": _text, "oracle_text": _text,
                        "power": _text, "toughness": _text, "loyalty": _text, "colors": _texts, "image": _text,
                        "counts": _flag}
SNAPSHOT_SCHEMA = {"id": _text, "name": _text, "set_code": _text, "faces": _snapshot_faces, "colors": _texts,
                   "mana_value": _number, "layout": _text, "image": _text, "banned": _flag, "tags": _texts,
                   "creators": _texts, "color_identity": _texts, "rotated_image": _text}


def snapshot_problem(record: Any) -> str | None:
    """What is wrong with a card copy hhd wrote (and someone edited), or None."""
    if not isinstance(record, dict):
        return _("is {value}, expected an object").format(value=_shown(record))
    unknown = sorted(set(record) - set(SNAPSHOT_SCHEMA))
    if unknown:
        return _('has a field hhd does not write ("{field}")').format(field=_shown(unknown[0])[1:-1][:30])
    for key in ("id", "name", "faces"):
        if record.get(key) is None:
            return _('has no "{field}"').format(field=key)
    faces = record["faces"]
    if isinstance(faces, list):
        for i, face in enumerate(faces):
            problem = schema_problem(face, SNAPSHOT_FACE_SCHEMA) if isinstance(face, dict) else _("is not an object")
            if problem or (isinstance(face, dict) and not isinstance(face.get("name"), str)):
                return f"faces[{i}]: {problem or _('has no name')}"
            extra = sorted(set(face) - set(SNAPSHOT_FACE_SCHEMA))
            if extra:
                return f"faces[{i}] " + _('has a field hhd does not write ("{field}")').format(
                    field=_shown(extra[0])[1:-1][:30])
    return schema_problem(record, SNAPSHOT_SCHEMA)


def schema_problem(record: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """What is wrong with a record, in a few words, or None."""
    for key, valid in schema.items():
        value = record.get(key)
        if value is not None and not valid(value):
            if key == "card_faces" and isinstance(value, list):
                bad = next((f for f in value if not isinstance(f, dict) or schema_problem(f, FACE_SCHEMA)), None)
                inner = schema_problem(bad, FACE_SCHEMA) if isinstance(bad, dict) else "a face is not an object"
                return f'"card_faces": {inner}'
            return _('"{field}" is {value}, expected {expected}').format(field=key, value=_shown(value),
                                                                         expected=_(_EXPECTED[valid]))
    return None


def _shown(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 30 else text[:27] + "…"


# --- legacy sheet export -------------------------------------------------------------------


def _legacy_is_v12(record: dict[str, Any]) -> bool:
    return str(record.get("Set") or "").strip() == "HLC"




def _slots(record: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Each 4-slot column of a legacy record as four stripped strings (one per face; "" when unused)."""
    return {key: _column(record.get(key)) for key in _SLOT_KEYS}


_NO_SLOTS = ("", "", "", "")


def _column(values: Any) -> tuple[str, ...]:
    if type(values) is list and len(values) == 4:  # the sheet's usual column: four texts, stripped in one go
        a, b, c, d = values
        if type(a) is str and type(b) is str and type(c) is str and type(d) is str:
            return a.strip(), b.strip(), c.strip(), d.strip()
    if not values:
        return _NO_SLOTS
    if type(values) is str:
        return (values.strip(), "", "", "")
    out = tuple([v.strip() if type(v) is str else "" if v is None else str(v).strip() for v in values[:4]])
    return out + _NO_SLOTS[len(out):]


def _legacy_face_count(slots: dict[str, tuple[str, ...]]) -> int:
    used = [i for i in range(4) if slots["Cost"][i] or slots["Card Type(s)"][i] or slots["Text Box"][i]]
    return used[-1] + 1 if used else 1


def _split_list(value: str) -> list[str]:
    return [part.strip() for part in value.split(";") if part.strip()]


def _fix_case(word: str) -> str:
    return word.title() if word.isupper() and len(word) > 1 else word


def _legacy_type_line(slots: dict[str, tuple[str, ...]], index: int) -> str:
    supertypes = _split_list(slots["Supertype(s)"][index])
    types = [_fix_case(t) for t in _split_list(slots["Card Type(s)"][index])]
    subtypes = _split_list(slots["Subtype(s)"][index])
    line = " ".join(supertypes + types)
    return f"{line} — {' '.join(subtypes)}" if subtypes else line


def _legacy_colors(value: str) -> tuple[str, ...]:
    return colors.known(colors.color_letter(name) for name in _split_list(value))


def cost_colors(faces: Iterable[Face]) -> tuple[str, ...]:
    """The colors of the mana symbols in the faces' costs: `{2/R}` is red, `{H/B}` black, `{U/BB}` blue
    and black; numbers and `{Pickle}` have none."""
    letters = {letter for face in faces for symbol in parse_cost(face.mana_cost).symbols
               for part in symbol.split("/") if _COLOR_LETTERS.issuperset(part) for letter in part}
    return colors.known(letters)


_COLOR_LETTERS = frozenset(colors.COLORS)


def _legacy_card(record: dict[str, Any]) -> Card:
    name = str(record.get("Name") or "").strip()
    slots = _slots(record)
    count = _legacy_face_count(slots)
    names = [n.strip() for n in name.split(" // ")]
    if len(names) > count:
        names = [name]
    # faces without a name of their own (adventures, melds) are numbered after the named ones
    names += [f"{name} (face {i + 1})" for i in range(len(names), count)]
    faces = tuple(
        Face(
            name=names[i],
            mana_cost=slots["Cost"][i],
            type_line=_legacy_type_line(slots, i),
            oracle_text=slots["Text Box"][i].replace("\\n", "\n"),
            power=slots["power"][i] or None,
            toughness=slots["toughness"][i] or None,
            loyalty=slots["Loyalty"][i] or None,
        )
        for i in range(count)
    )
    cmc = record.get("CMC")
    own_colors = cost_colors(faces)
    return Card(
        id="hlc-" + _sha1(name.encode()).hexdigest()[:12],
        name=name,
        set_code="HLC",
        faces=faces,
        # The legacy sheet has no color indicator and no layout: a card's colors are its costs' colors,
        # and its loose `Color(s)` column (Watch Wolf: "White;Green" for its suspend cost) is identity.
        colors=own_colors,
        color_identity=colors.known((*_legacy_colors(str(record.get("Color(s)") or "")), *own_colors)),
        mana_value=float(cmc) if isinstance(cmc, (int, float)) else None,
        layout="normal" if count == 1 else "multi",
        image=str(record.get("Image") or "").strip() or None,
        banned=str(record.get("Constructed") or "").strip().lower() == "banned",
        tags=tuple(_split_list(str(record.get("Tags") or "").replace(",", ";"))),
        creators=tuple(_split_list(str(record.get("Creator") or ""))),
    )


# --- current (Scryfall-like) format --------------------------------------------------------


def _current_is_v12(record: dict[str, Any]) -> bool:
    set_code = str(record.get("set") or "").replace("_", ".")
    return record.get("kind", "card") == "card" and set_code in V12_SETS


def _optional(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def stat_text(value: Any) -> str | None:
    """A power, toughness or loyalty as a card shows it ("2", "*", "1+*"): a number read as its text (2.0 is
    "2"), anything else that is no text (true, a list) as none."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}"
    return value if isinstance(value, str) and value else None


def rules_text(value: Any) -> str:
    """The live catalog sometimes holds a literal backslash-n for a line break; the registry unescapes it."""
    return str(value or "").replace("\\n", "\n")


def _print_image(record: dict[str, Any]) -> str | None:
    """The image to print: the print version, else the still (not animated) one, as the registry's exports do."""
    for key in ("print_image", "still_image", "image"):
        if record.get(key):
            return str(record[key])
    return None


def _colors(listed: Any) -> tuple[str, ...]:
    """Color letters in WUBRGP order, whatever order the registry lists them in."""
    return colors.known(listed or ())


def _current_face(face: dict[str, Any], with_image: bool, counts: bool) -> Face:
    return Face(
        name=str(face.get("name") or ""),
        mana_cost=str(face.get("mana_cost") or ""),
        type_line=str(face.get("type_line") or ""),
        oracle_text=rules_text(face.get("oracle_text")),
        power=stat_text(face.get("power")),
        toughness=stat_text(face.get("toughness")),
        loyalty=stat_text(face.get("loyalty")),
        colors=_colors(face.get("colors")),
        image=_print_image(face) if with_image else None,
        counts=counts,
    )


def _face_counts(card_layout: str, face: dict[str, Any], index: int) -> bool:
    """Whether the registry counts this face for the card's colors (and so the take rule its cost)."""
    if face.get("drop_face") or str(face.get("layout") or "") in NO_IDENTITY_FACE_LAYOUTS:
        return False
    return index == 0 or card_layout not in FRONT_IDENTITY_LAYOUTS


def _current_card(record: dict[str, Any]) -> Card:
    layout = str(record.get("layout") or "normal")
    raw_faces: list[dict[str, Any]] = record.get("card_faces") or [record]
    with_images = bool(record.get("card_faces"))
    faces = tuple(_current_face(f, with_images, _face_counts(layout, f, i)) for i, f in enumerate(raw_faces))
    legal = record.get("legalities") or {}
    mana_value = record.get("mana_value")
    listed = record.get("colors")
    return Card(
        id=str(record.get("id") or "hlc-" + _sha1(str(record.get("name")).encode()).hexdigest()[:12]),
        name=str(record.get("name") or ""),
        set_code=str(record.get("set") or "").replace("_", "."),
        faces=faces,
        # the registry's `colors` are the card's colors by the rules (cost and color indicator)
        colors=_colors(listed) if listed is not None else colors.known(c for f in faces if f.counts for c in f.colors),
        mana_value=float(mana_value) if isinstance(mana_value, (int, float)) else None,
        layout=layout,
        image=_print_image(record),
        banned=legal.get("standard") == "banned",
        tags=tuple(str(t) for t in record.get("tags") or ()),
        creators=tuple(str(c) for c in record.get("creators") or ()),
        color_identity=_colors(record.get("color_identity")),
        rotated_image=_optional(record.get("rotated_image")),
    )


@dataclass
class CardIndex:
    """Cards by id and by normalised name, with "did you mean" suggestions."""

    cards: list[Card]
    by_id: dict[str, Card] = field(init=False)
    _drive: dict[str, Card] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {}
        for card in self.cards:
            self.by_id.setdefault(card.id, card)

    @cached_property
    def by_key(self) -> dict[str, Card]:
        """Ids and normalised names (of every face) to cards, worked out when first asked by name: a library
        read back by its ids never needs its 970 names normalised. (A normalised name has no "-", which every
        id has, so the two never meet.)"""
        keys = dict(self.by_id)
        for card in self.cards:
            # a name with no letters or digits (Hell's Cube's faces are named "") names nothing
            # a face is mostly named as its card: each name normalised once
            for key in {normalize_name(name) for name in {card.name, *(face.name for face in card.faces)}} - {""}:
                keys.setdefault(key, card)
        return keys

    def match(self, card_id: str, name: str, image: str | None = None) -> Card | None:
        """The card a library entry names, after a re-sync: by id, by the image's Drive id, by name, then
        by a rename (an article or bracketed suffix added or dropped, one letter fixed). Never a guess
        between two cards."""
        found = self.by_id.get(card_id) or self._by_drive().get(drive_id(image) or "")
        if found is None and normalize_name(name):
            found = self.by_key.get(normalize_name(name)) or self._renamed(name)
        return found

    def _by_drive(self) -> dict[str, Card]:
        if self._drive is None:
            self._drive = {key: card for card in self.cards for url in (card.image, *card.print_images)
                           if (key := drive_id(url))}
        return self._drive

    @cached_property
    def _loose(self) -> dict[int, list[tuple[str, Card]]]:
        """Each card's loose name, worked out once, by its length (one edit changes it by one at most): a
        library's tokens ask for a few hundred makers by name, and each asking loosened all 97 names again (a
        table's first draw took a third of a second)."""
        found: dict[int, list[tuple[str, Card]]] = {}
        for card in self.cards:
            loose = loose_name(card.name)
            found.setdefault(len(loose), []).append((loose, card))
        return found

    def _renamed(self, name: str) -> Card | None:
        key = loose_name(name)
        same = {id(c): c for loose, c in self._loose.get(len(key), []) if loose == key}
        if not same and len(key) >= 8:
            near = (pair for size in (len(key) - 1, len(key), len(key) + 1) for pair in self._loose.get(size, []))
            same = {id(c): c for loose, c in near if one_edit_apart(loose, key)}
        return next(iter(same.values())) if len(same) == 1 else None

    def find(self, name_or_id: str) -> Card | None:
        """Exact id or name (any face), else the one card whose name starts with or contains it."""
        key = normalize_name(name_or_id)
        if not key:
            return None
        found = self.by_id.get(name_or_id) or self.by_key.get(key)
        if found:
            return found
        for match in (str.startswith, str.__contains__):
            hits = {id(c): c for c in self.cards if match(normalize_name(c.name), key)}
            if hits:
                return next(iter(hits.values())) if len(hits) == 1 else None
        return None

    def suggest(self, name: str, count: int = 3) -> list[str]:
        import difflib

        key = normalize_name(name)
        containing = [c.name for c in self.cards if key and key in normalize_name(c.name)]
        if containing:
            return sorted(containing)[:count]
        names = {card.name.lower(): card.name for card in self.cards}
        close = difflib.get_close_matches(name.lower(), list(names), n=count, cutoff=0.4)
        return [names[n] for n in close]
