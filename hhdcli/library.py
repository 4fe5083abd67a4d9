"""The 970-card pool, the seeded 97-card Hell library, and the library file every printer reads."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from hhdcli.cards import BASIC_SET, Card, CardIndex, Face, Kind, normalize_name, pool_order_key, snapshot_problem
from hhdcli.colors import BASICS_PER_TYPE, POOL_BASICS
from hhdcli.errors import DataError, HhdError, InputError
from hhdcli.files import read_input, read_text_file
from hhdcli.i18n import N_, _
from hhdcli.jsonio import load_json

LIBRARY_FORMAT = "hhd-library"
OPENING_HAND = 2  # Hell cards in every opening hand
LIBRARY_VERSION = 2  # 2: each Hellscube entry carries the card itself, to print it when the data changes
READABLE_VERSIONS = (1, 2)
# What a library file keeps of a card: enough to print it, not the registry's bookkeeping.
_SNAPSHOT_DROPS = ("banned", "tags", "creators", "rotated_image")


# --- the pool ---------------------------------------------------------------------------------


def basic_card(name: str, copy: int) -> Card:
    """One physical basic land; built in, never fetched."""
    return Card(id=f"basic-{name.lower()}-{copy:02d}", name=name, set_code=BASIC_SET, faces=_basic_faces(name))


@cache
def _basic_faces(name: str) -> tuple[Face, ...]:
    """A basic's face, the same for its 50 copies (a face is immutable, so they share it)."""
    color = POOL_BASICS[name]
    return (Face(name=name, type_line=f"Basic Land — {name}", oracle_text=f"({{T}}: Add {{{color}}}.)"),)


def basic_cards(per_type: int = BASICS_PER_TYPE) -> list[Card]:
    return [basic_card(name, i) for name in POOL_BASICS for i in range(1, per_type + 1)]


@dataclass(frozen=True)
class Exclusions:
    """What a draw leaves out of the pool: banned cards, cards with these tags, these names."""

    banned: bool = False
    tags: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # from --exclude-file

    def excludes(self, card: Card, names: set[str]) -> bool:
        return (self.banned and card.banned) or any(t in card.tags for t in self.tags) \
            or bool(names) and normalize_name(card.name) in names


@dataclass
class Pool:
    """The cards a library is drawn from, and how they were chosen."""

    cards: list[Card]
    description: dict[str, Any]


def build_pool(hellscube: Sequence[Card], exclusions: Exclusions = Exclusions(),
               basics_per_type: int = BASICS_PER_TYPE) -> tuple[Pool, list[str]]:
    """The v1.2 cards left after exclusions, then the basics; also the exclude-file names not found."""
    # an exclude file names cards exactly (any case or punctuation): one look-up a name, however long the file
    by_key = CardIndex(list(hellscube)).by_key if exclusions.names else {}
    found = {name: by_key.get(normalize_name(name)) for name in dict.fromkeys(exclusions.names)}
    unknown = [name for name, card in found.items() if card is None]
    excluded_names = {normalize_name(card.name) for card in found.values() if card is not None}
    kept = sorted((c for c in hellscube if not exclusions.excludes(c, excluded_names)),
                  key=lambda c: (pool_order_key(c.name), c.id))
    basics = basic_cards(basics_per_type)
    description = {
        "cards": len(kept) + len(basics),
        "hellscube": len(kept),
        "basics": len(basics),
        "basics_per_type": basics_per_type,
        "excluded": {"count": len(hellscube) - len(kept), "banned": exclusions.banned,
                     "tags": list(exclusions.tags), "names": sorted(set(exclusions.names) - set(unknown))},
    }
    return Pool(kept + basics, description), unknown


def default_size(pool_size: int) -> int:
    """A tenth of the pool, rounded half up (970 → 97)."""
    return max(1, int(pool_size / 10 + 0.5))


# --- seeded sampling ---------------------------------------------------------------------------


def seeded_sample(items: Sequence[Any], size: int, seed: str) -> list[Any]:
    """Uniform sample without replacement, in draw order.

    A partial Fisher–Yates over `random.Random(seed).random()`: Python guarantees that stream for a
    given seed across versions and platforms, unlike `random.sample`/`shuffle`, whose use of it may
    change.
    """
    if not 1 <= size <= len(items):
        raise InputError(_("library size {size} is outside 1..{n} (the pool size)").format(size=size, n=len(items)),
                         _("choose --size within the pool"))
    rng = random.Random(f"hhd-library-v1:{seed}")
    order = list(items)
    for i in range(size):
        j = i + int(rng.random() * (len(order) - i))
        order[i], order[j] = order[j], order[i]
    return order[:size]


_SEED_WORDS = (
    "ember", "tide", "ash", "brimstone", "cinder", "pickle", "dread", "maw", "nebula", "sleeve",
    "crimson", "frost", "goblin", "hex", "lotus", "moss", "rune", "storm", "thorn", "void", "whale",
    "bear", "crow", "flame", "grave", "imp", "jinx", "karn", "omen", "quill",
)


MAX_SEED = 200  # characters: a seed is read out at the table, not pasted from a file


def check_seed(seed: str) -> str:
    if not seed.strip() or len(seed) > MAX_SEED:
        raise InputError(_("the seed must be 1 to {MAX_SEED} characters (this one has {n})").format(MAX_SEED=MAX_SEED, n=len(seed)),
                         _("choose a short seed such as ember-tide-42"))
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:  # a byte that is not UTF-8 in argv arrives as a lone surrogate
        raise InputError(_("the seed has a byte that is not UTF-8 text"), _("choose a seed such as ember-tide-42")) from None
    return seed


def unknown_tags(hellscube: Sequence[Card], tags: Sequence[str]) -> tuple[list[str], list[str]]:
    """The --exclude-tag values no card carries, and the tags the card data does have."""
    known = sorted({t for card in hellscube for t in card.tags})
    return [t for t in tags if t not in known], known


def memorable_seed() -> str:
    """Two words and a number, easy to read out at the table (ember-tide-42)."""
    import secrets  # here: a seeded draw, the usual one, never needs it

    return f"{secrets.choice(_SEED_WORDS)}-{secrets.choice(_SEED_WORDS)}-{secrets.randbelow(100)}"


# --- the library file --------------------------------------------------------------------------


@dataclass(frozen=True)
class LibraryEntry:
    """One card of a library file, with the copy of the card it was drawn as."""

    position: int
    id: str
    name: str
    kind: Kind
    card: Card | None = None  # the card as it was when the library was drawn (not for basics)

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"position": self.position, "id": self.id, "name": self.name, "kind": self.kind}
        if self.card is not None:
            entry["card"] = {k: v for k, v in self.card.to_json().items() if k not in _SNAPSHOT_DROPS}
        return entry

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LibraryEntry:
        card = Card.from_json(data["card"]) if data.get("card") else None
        return cls(int(data["position"]), str(data["id"]), str(data["name"]), Kind(data["kind"]), card)


@dataclass
class Library:
    """A drawn Hell library: its seed, its pool, the card data it came from, its cards."""

    seed: str
    pool: dict[str, Any]
    card_data: dict[str, Any]
    cards: list[LibraryEntry] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"format": LIBRARY_FORMAT, "version": LIBRARY_VERSION, "seed": self.seed, "size": self.size,
                "pool": self.pool, "card_data": self.card_data, "cards": [e.to_json() for e in self.cards]}


def generate(pool: Pool, size: int, seed: str, card_data: dict[str, Any]) -> Library:
    """A library drawn from the pool, never larger than a library file may be (so `show` reads what this writes)."""
    if size > MAX_LIBRARY_CARDS:
        raise InputError(_("a library of {size} cards is more than a library file holds ({most})").format(
            size=size, most=MAX_LIBRARY_CARDS), _("choose --size up to {most}").format(most=MAX_LIBRARY_CARDS))
    drawn = seeded_sample(pool.cards, size, seed)
    entries = [LibraryEntry(i + 1, c.id, c.name, c.kind, None if c.is_basic else c) for i, c in enumerate(drawn)]
    return Library(seed, pool.description, card_data, entries)


MAX_LIBRARY_BYTES = 64 * 1024 * 1024  # 970 cards with their text are ~1 MB


def draws_the_same(path: Path, library: Library) -> bool:
    """The file holds this draw (seed, pool, cards, card data by hash), perhaps with the data named otherwise:
    writing it again loses nothing, so it needs no --force."""
    try:
        old = load_json(read_input(Path(path), _("a library file"), MAX_LIBRARY_BYTES))
        return (old["seed"], old["pool"], old["card_data"]["sha256"], [e["id"] for e in old["cards"]]) == \
            (library.seed, library.pool, library.card_data["sha256"], [e.id for e in library.cards])
    except (HhdError, ValueError, KeyError, TypeError):
        return False


def load_library(path: Path) -> Library:
    """Read a library file back, refusing one of another format or edited into inconsistency."""
    try:
        raw = read_input(Path(path), _("a library file"), MAX_LIBRARY_BYTES)
        if len(raw) > MAX_LIBRARY_BYTES:
            raise DataError(_("{path} is over {number} MB: not a library file").format(path=path, number=MAX_LIBRARY_BYTES // 2**20),
                            _("make one with `hhd generate -o FILE`"))
        document = load_json(raw)
    except ValueError as exc:
        raise DataError(_("{path} is not a library file (not JSON: {__name__})").format(path=path, __name__=exc.__class__.__name__),
                        _("make one with `hhd generate -o FILE`")) from exc
    if not isinstance(document, dict) or document.get("format") != LIBRARY_FORMAT:
        raise DataError(_("{path} is not an hhd library file").format(path=path), _("make one with `hhd generate -o FILE`"))
    if document.get("version") not in READABLE_VERSIONS:
        raise DataError(_("{path} is library format version {get!r}; this hhd reads versions {join}").format(path=path, get=document.get('version'), join=', '.join(map(str, READABLE_VERSIONS))), _("update hhd, or generate it again"))
    problem = _field_problem(document)
    if problem:
        raise DataError(f"{path}: {problem}", _("generate the library again (hhd generate --seed SEED --force)"))
    try:
        entries = [LibraryEntry.from_json(e) for e in document["cards"]]
        library = Library(str(document["seed"]), dict(document["pool"]), dict(document["card_data"]), entries)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(_("{path}: a field is missing or of the wrong type ({exc})").format(path=path, exc=exc),
                        _("generate the library again")) from exc
    _check_consistent(path, library, document.get("size"))
    return library


MAX_LIBRARY_CARDS = 10_000  # a pool is 720 + 5 × basics_per_type (at most 1000): far fewer cards
# The most Hellscube v1.2 cards a sync takes (the set has 720): a tenth of them and 5,000 basics, the default
# library, stays within MAX_LIBRARY_CARDS, so what sync accepts, generate writes and show reads agree.
MAX_CARD_DATA = 20_000


def _field_problem(document: dict[str, Any]) -> str | None:
    """The first field of a library file that is missing or of the wrong type, named, or None. The checks
    run lazily and stop at the first problem: a file of millions of bad entries is refused at once."""
    return next((problem for problem in _field_problems(document) if problem), None)


def _bad(where: str, value: Any, ok: bool, expected: str) -> str | None:
    """`expected` is a catalog message (N_): translated here, with the value shown."""
    return None if ok else _("{where} is {value}, expected {expected}").format(
        where=where, value=_shown(value), expected=_(expected))


def _shown(value: Any) -> str:
    """A refused value in a few characters, never serialised whole (it may be huge or deeply nested)."""
    if isinstance(value, (dict, list)):
        return _("an object") if isinstance(value, dict) else _("a list")
    return json.dumps(value if not isinstance(value, str) else value[:40])[:40]


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _field_problems(document: dict[str, Any]) -> Iterator[str | None]:
    pool, cards = document.get("pool"), document.get("cards")
    yield _bad("seed", document.get("seed"), isinstance(document.get("seed"), str), N_("text"))
    yield _bad("pool", pool, isinstance(pool, dict), N_("an object"))
    yield _bad("card_data", document.get("card_data"), isinstance(document.get("card_data"), dict), N_("an object"))
    yield _bad("cards", cards, isinstance(cards, list), N_("a list"))
    if isinstance(pool, dict):
        yield from _pool_problems(pool)
    if isinstance(cards, list):
        if len(cards) > MAX_LIBRARY_CARDS:
            yield _("cards lists {n} entries, a library has at most {most}").format(n=len(cards), most=MAX_LIBRARY_CARDS)
        for i, entry in enumerate(cards):
            yield from _entry_problems(f"cards[{i}]", entry)


def _pool_problems(pool: dict[str, Any]) -> Iterator[str | None]:
    excluded = pool.get("excluded", {})
    for key in ("cards", "hellscube", "basics"):  # counts the views print
        yield _bad(f"pool.{key}", pool.get(key, 0), _is_int(pool.get(key, 0), 0, MAX_CARD_DATA + 5000),
                   N_("a number of cards"))
    yield _bad("pool.basics_per_type", pool.get("basics_per_type", BASICS_PER_TYPE),
               _is_int(pool.get("basics_per_type", BASICS_PER_TYPE), 0, 1000), N_("a whole number from 0 to 1000"))
    yield _bad("pool.excluded", excluded, isinstance(excluded, dict), N_("an object"))
    if isinstance(excluded, dict):
        for key in ("tags", "names"):
            value = excluded.get(key, [])
            yield _bad(f"pool.excluded.{key}", value,
                       isinstance(value, list) and all(isinstance(v, str) for v in value), N_("a list of text"))


def _entry_problems(where: str, entry: Any) -> Iterator[str | None]:
    yield _bad(where, entry, isinstance(entry, dict), N_("an object"))
    if not isinstance(entry, dict):
        return
    kind = entry.get("kind")
    yield _bad(f"{where}.position", entry.get("position"), _is_int(entry.get("position"), 1, 100_000),
               N_("a position from 1"))
    yield _bad(f"{where}.id", entry.get("id"), isinstance(entry.get("id"), str) and bool(entry.get("id")), N_("a card id"))
    yield _bad(f"{where}.name", entry.get("name"), isinstance(entry.get("name"), str), N_("text"))
    yield _bad(f"{where}.kind", kind, isinstance(kind, str) and kind in {k.value for k in Kind},
               " or ".join(k.value for k in Kind))
    if entry.get("card") is not None:
        problem = snapshot_problem(entry["card"])
        yield f"{where}.card {problem}" if problem else None


def _check_consistent(path: Path, library: Library, size: Any) -> None:
    problem = None
    if size != library.size:
        problem = _("says size {size} but lists {n} cards").format(size=size, n=library.size)
    elif [e.position for e in library.cards] != list(range(1, library.size + 1)):
        problem = _("card positions are not 1, 2, 3… in order")
    elif len({e.id for e in library.cards}) != library.size:
        problem = _("the same physical card is listed twice")
    if problem:
        raise DataError(_("{path} was edited into an inconsistent state: {problem}").format(path=path, problem=problem), _("generate the library again"))


@dataclass
class ResolvedLibrary:
    """A library file matched against today's card data."""

    library: Library
    cards: list[Card]  # library order; a card gone from the data is its copy in the file (v1 files: left out)
    missing: list[LibraryEntry]  # entries the card data no longer has
    renamed: list[tuple[LibraryEntry, Card]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # the library position of each card in `cards`

    @property
    def by_position(self) -> dict[int, Card]:
        return dict(zip(self.positions, self.cards, strict=True))


def open_library(path: Path, hellscube: Sequence[Card], card_sha256: str) -> ResolvedLibrary:
    """A library file with its cards, and warnings when the card data changed since it was made."""
    library = load_library(path)
    resolved = resolve(library, hellscube)
    made_from = str(library.card_data.get("sha256"))
    if made_from != card_sha256:
        resolved.warnings.append(_("{path}: the card data changed since this library was made (made from {value}, the cards "
                                   "now are {value2})").format(path=path, value=made_from[:12], value2=card_sha256[:12]))
    for entry in resolved.missing:
        what = _("printed from the library file") if entry.card else _("left out (an old library file keeps no copy)")
        resolved.warnings.append(_("{path}: card {position} {name!r} is not in the card data now; {what}").format(path=path, position=entry.position, name=entry.name, what=what))
    return resolved


def library_pool(library: Library, hellscube: Sequence[Card]) -> Pool:
    """The pool a library was drawn from, rebuilt from what its file says (for the expected values)."""
    excluded = library.pool.get("excluded", {})
    exclusions = Exclusions(bool(excluded.get("banned")), tuple(excluded.get("tags", ())),
                            tuple(excluded.get("names", ())))
    pool, _ = build_pool(hellscube, exclusions, int(library.pool.get("basics_per_type", BASICS_PER_TYPE)))
    return pool


def resolve(library: Library, hellscube: Iterable[Card]) -> ResolvedLibrary:
    """The library's entries as cards of the current data: basics built in; the rest by id, the image's
    Drive id, the name, or a rename; else the copy the library file keeps."""
    index = CardIndex(list(hellscube))
    resolved = ResolvedLibrary(library, [], [])
    for entry in library.cards:
        if entry.kind is Kind.BASIC and entry.name in POOL_BASICS:
            copy = int(entry.id.rsplit("-", 1)[-1]) if entry.id[-1].isdigit() else 1
            resolved.cards.append(basic_card(entry.name, copy))
            resolved.positions.append(entry.position)
            continue
        card = index.match(entry.id, entry.name, entry.card.image if entry.card else None)
        if card is None:
            resolved.missing.append(entry)
            card = entry.card
        elif card.name != entry.name and normalize_name(card.name) != normalize_name(entry.name):
            resolved.renamed.append((entry, card))
        if card is not None:
            resolved.cards.append(card)
            resolved.positions.append(entry.position)
    return resolved


def read_name_list(path: Path) -> tuple[str, ...]:
    """An exclude file: one card name per line; blank lines and # comments ignored."""
    text = read_text_file(path, _("name list"), _("give a text file, one card name per line"))
    names = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return tuple(n for n in names if n)
