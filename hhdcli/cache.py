"""The local card cache: where it lives, atomic writes, and reading it back with damage detected."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hhdcli import DATA
from hhdcli.cards import Card, no_collection
from hhdcli.errors import CacheError
from hhdcli.files import cache_write_error, os_reason, sha256_hex, sweep_leftovers, write_cache_file
from hhdcli.i18n import _
from hhdcli.jsonio import load_json

if TYPE_CHECKING:
    from hhdcli.mana import SymbolTable

SCHEMA_VERSION = 1
CARDS_FILE = "cards.json"
SYMBOLS_FILE = "pips.json"
STAGED_SYMBOLS_FILE = "pips.json.next"  # the symbol table of a sync between its two writes (see write_cache)
BUILTIN_FILE = DATA / "hellscube-v1.2.json.gz"  # built by scripts/build_builtin_data.py
BUILTIN_PREFIX = "built-in:"
FAILED_SYNC_FILE = ".sync-failed"  # when an automatic sync last failed: the next hour's commands go offline
FAILED_SYNC_QUIET_SECONDS = 3600


def default_cache_dir() -> Path:
    """A source checkout keeps its cache in ./cache beside pyproject.toml; an install uses the user cache."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "cache").is_dir():
        return checkout / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("hhd"))


def resolve_cache_dir(option: str | os.PathLike[str] | None) -> Path:
    """--cache-dir beats HHD_CACHE_DIR beats the default."""
    chosen = option or os.environ.get("HHD_CACHE_DIR")
    return Path(chosen).expanduser() if chosen else default_cache_dir()


@dataclass
class CacheMeta:
    """Where the cached cards came from and when: the metadata cards.json keeps beside them."""

    source: str
    format: str
    registry_version: str | None
    fetched_at: str
    sha256: str
    card_count: int
    etag: str | None = None
    last_modified: str | None = None
    symbols_source: str | None = None
    symbols_sha256: str | None = None
    symbols_etag: str | None = None
    symbols_last_modified: str | None = None
    schema: int = SCHEMA_VERSION


@dataclass
class CardCache:
    """The cards of Hellscube v1.2 as synced, with where they came from."""

    meta: CacheMeta
    cards: list[Card]
    symbols: list[dict[str, Any]] = field(default_factory=list)

    @cached_property
    def symbol_table(self) -> SymbolTable:
        """The symbol table built once per run: every document, check and export of it reads this one."""
        from hhdcli.mana import SymbolTable

        return SymbolTable.from_records(self.symbols)

    @property
    def builtin(self) -> bool:
        """The Hellscube v1.2 data that ships inside hhd, used when there is no cache."""
        return self.meta.source.startswith(BUILTIN_PREFIX)

    @property
    def fingerprint(self) -> dict[str, Any]:
        """Which card data a library was drawn from, the same on every machine: a URL, or a file's name
        (never a local path), the registry version and the hash of what was read."""
        return {"source": source_name(self.meta.source), "registry_version": self.meta.registry_version,
                "sha256": self.meta.sha256}


def source_name(source: str) -> str:
    if source.startswith(("http://", "https://", BUILTIN_PREFIX)):
        return source
    return Path(source).name


def _damaged(path: Path, why: str) -> CacheError:
    return CacheError(_("the card cache {path} is damaged: {why}").format(path=path, why=why), _("run `hhd sync --force` to rebuild it"))


def cache_exists(cache_dir: Path) -> bool:
    return (cache_dir / CARDS_FILE).is_file()


def read_meta(cache_dir: Path) -> CacheMeta | None:
    """The metadata of the cache, or None when there is no usable cache (no Card objects are built)."""
    try:
        meta = load_json((cache_dir / CARDS_FILE).read_bytes())["meta"]
        return CacheMeta(**meta) if meta.get("schema") == SCHEMA_VERSION else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class MixedSyncs(CacheError):
    """cards.json and pips.json of different syncs: a sync interrupted, or one finishing as they were read."""


READS = 5  # tries to read a cache whose pair of files is changing (a sync commits, then moves its table in)


def load_cache(cache_dir: Path, with_symbols: bool = True) -> CardCache:
    """The cache as one sync left it. A sync finishing while it is read (its cards.json read before the commit and
    its pips.json after, or the other way) is not a mix: the pair is read again, and only a mix that stays is an
    error."""
    for attempt in range(1, READS):
        try:
            return _load_cache(cache_dir, with_symbols)
        except MixedSyncs:
            time.sleep(0.02 * attempt)
    return _load_cache(cache_dir, with_symbols)  # a mix that stays is one


def _load_cache(cache_dir: Path, with_symbols: bool) -> CardCache:
    path = cache_dir / CARDS_FILE
    if not path.is_file():
        raise CacheError(_("no card cache in {cache_dir}").format(cache_dir=cache_dir),
                         _("run `hhd sync` (or `hhd sync --source FILE` offline)"))
    try:
        with no_collection():  # 720 cards' objects, none of them garbage: the collector's passes are wasted
            document = load_json(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise _damaged(path, _("not readable JSON ({exc})").format(exc=exc)) from exc
    if not isinstance(document, dict) or not isinstance(document.get("cards"), list):
        raise _damaged(path, _("it has no card list"))
    if not isinstance(document.get("meta"), dict):
        raise _damaged(path, _("it has no metadata"))
    if document["meta"].get("schema") != SCHEMA_VERSION:
        raise _damaged(path, _("schema {get!r}, this hhd reads {SCHEMA_VERSION}").format(get=document['meta'].get('schema'), SCHEMA_VERSION=SCHEMA_VERSION))
    try:
        meta = CacheMeta(**document["meta"])
        with no_collection():
            cards = [Card.from_json(c) for c in document["cards"]]
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        raise _damaged(path, _("a record has the wrong shape ({exc})").format(exc=exc)) from exc
    if len(cards) != meta.card_count:
        raise _damaged(path, _("it lists {n} cards but its metadata says {card_count}").format(n=len(cards), card_count=meta.card_count))
    return CardCache(meta=meta, cards=cards,
                     symbols=load_symbols(cache_dir, meta.symbols_sha256) if with_symbols else [])


def load_symbols(cache_dir: Path, expected_sha256: str | None = None) -> list[dict[str, Any]]:
    """The registry's symbol table, or [] when none was synced (symbols are then read by shape). With
    `expected_sha256` (what cards.json says it was synced with), a table of another sync is refused."""
    path = cache_dir / SYMBOLS_FILE
    if not path.is_file():
        return []
    raw = path.read_bytes()
    if expected_sha256 and sha256_hex(raw) != expected_sha256:  # hashed once: the table is read by every command
        staged = cache_dir / STAGED_SYMBOLS_FILE  # a sync killed after its commit: its table is the staged one
        staged_raw = _read_or_none(staged)
        if staged_raw is None or sha256_hex(staged_raw) != expected_sha256:
            raise MixedSyncs(_("{path} and {number} are from different syncs (one was interrupted, or two ran at "
                               "once)").format(path=path, number=cache_dir / CARDS_FILE),
                             _("run `hhd sync --force` to fetch both again"))
        path, raw = staged, staged_raw
    try:
        return parse_symbols(raw)
    except ValueError as exc:
        raise _damaged(path, str(exc)) from exc


@contextmanager
def sync_lock(cache_dir: Path, notice: Callable[[str], None] | None = None,
              patience: float = 300.0) -> Iterator[None]:
    """One sync of a cache folder at a time: a second waits (and says so) for the first, at most `patience` s."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; syncs there are not run in parallel by hhd itself
        yield
        return
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        handle = (cache_dir / ".sync.lock").open("a")
    except OSError as exc:
        raise CacheError(_("cannot use the cache folder {cache_dir}: {value}").format(cache_dir=cache_dir, value=os_reason(exc)),
                         _("make it writable, or choose another with --cache-dir or HHD_CACHE_DIR")) from exc
    with handle:
        start, said = time.monotonic(), False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() - start > patience:
                    raise CacheError(_("another hhd sync of {cache_dir} has run for {patience:.0f} s").format(cache_dir=cache_dir, patience=patience),
                                     _("wait for it to finish, or stop it and sync again")) from None
                if notice and not said:
                    notice(_("waiting for another hhd sync of this cache to finish"))
                    said = True
                time.sleep(0.1)
        try:
            sweep_cache(cache_dir)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def has_symbols(cache_dir: Path) -> bool:
    """A readable symbol table in the cache (a damaged one counts as none, to be replaced)."""
    try:
        return bool(load_symbols(cache_dir))
    except CacheError:
        return False


def parse_symbols(raw: bytes) -> list[dict[str, Any]]:
    """Validate the registry's symbol table (`{"data": [{"symbol": ...}, ...]}`)."""
    try:
        document = load_json(raw)
    except ValueError as exc:
        raise ValueError(_("the symbol table is not valid JSON ({__name__})").format(__name__=exc.__class__.__name__)) from exc
    records = document.get("data") if isinstance(document, dict) else document
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) and "symbol" in r for r in records):
        raise ValueError(_("the symbol table is not a list of {\"symbol\": ...} records"))
    return records


def write_cache(cache_dir: Path, meta: CacheMeta, cards: list[Card], symbols_raw: bytes | None) -> None:
    """cards.json and pips.json change as one unit. The new symbol table is staged beside the old one first;
    writing cards.json (which names the table it goes with by hash) is the commit; then the staged table
    takes the old one's place. A kill at any point leaves the old pair, or the new cards.json with a staged
    table that the next read moves in (`load_symbols`)."""
    staged = cache_dir / STAGED_SYMBOLS_FILE
    if symbols_raw is not None:
        write_cache_file(staged, symbols_raw)
    document = {"meta": meta.__dict__, "cards": [c.to_json() for c in cards]}
    # compact: the cache is read by hhd, not people (`hhd card NAME --json` shows a card readably); by msgspec,
    # which a sync has imported for the download, the same bytes as json.dumps(separators=(",", ":"),
    # ensure_ascii=False) in a tenth of the time
    import msgspec

    data = msgspec.json.encode(document)
    write_cache_file(cache_dir / CARDS_FILE, data)
    if symbols_raw is not None:
        _move_in(staged, cache_dir / SYMBOLS_FILE)
    forget_failed_sync(cache_dir)


def _move_in(staged: Path, target: Path) -> None:
    try:
        os.replace(staged, target)
    except OSError as exc:
        raise cache_write_error(target, exc) from exc


def written_folders(cache_dir: Path) -> tuple[Path, ...]:
    """The folders of the cache that hhd writes files into (where a killed run may leave a temp file)."""
    return cache_dir, cache_dir / "images" / "raw", cache_dir / "images" / "print"


def sweep_cache(cache_dir: Path) -> int:
    """Tidy what killed runs left in the cache: every temp file of ours whose writer has gone (in the cache
    and its image folder), and a staged symbol table: moved in when cards.json goes with it (the sync was
    killed after its commit), else removed. Run under the sync lock, where no other sync is writing."""
    removed = sum(sweep_leftovers(folder) for folder in written_folders(cache_dir))
    staged = cache_dir / STAGED_SYMBOLS_FILE
    if staged.exists():
        meta = read_meta(cache_dir)
        if meta is not None and meta.symbols_sha256 == _file_sha256(staged):
            _move_in(staged, cache_dir / SYMBOLS_FILE)
        else:
            staged.unlink(missing_ok=True)
            removed += 1
    return removed


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _file_sha256(path: Path) -> str | None:
    raw = _read_or_none(path)
    return None if raw is None else sha256_hex(raw)


# --- the built-in Hellscube v1.2 data --------------------------------------------------------------------


@lru_cache(maxsize=1)
def _builtin_document() -> dict[str, Any]:
    import gzip

    data = BUILTIN_FILE.read_bytes()
    document: dict[str, Any] = load_json(gzip.decompress(data))
    return document


def load_builtin() -> CardCache:
    """The 720 cards and the symbol table that ship with hhd (no network, no cache needed)."""
    document = _builtin_document()
    return CardCache(CacheMeta(**document["meta"]), [Card.from_json(c) for c in document["cards"]],
                     builtin_symbols())


def builtin_symbols() -> list[dict[str, Any]]:
    return list(_builtin_document()["symbols"])


def builtin_symbols_file() -> bytes:
    """The built-in symbol table as the registry's pips.json holds it."""
    return json.dumps({"data": builtin_symbols()}, ensure_ascii=False).encode("utf-8")


def load_cache_or_builtin(cache_dir: Path) -> CardCache:
    """The cache when there is one, else the built-in data; never the network."""
    return load_cache(cache_dir) if cache_exists(cache_dir) else load_builtin()


def symbols_or_builtin(cache_dir: Path) -> list[dict[str, Any]]:
    """The cached symbol table, else the built-in one."""
    return load_symbols(cache_dir) or builtin_symbols()


def note_failed_sync(cache_dir: Path) -> None:
    """Remember that an automatic sync failed (best effort: a read-only cache folder just means asking again)."""
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        (cache_dir / FAILED_SYNC_FILE).touch()
    except OSError:
        pass


def recent_failed_sync(cache_dir: Path, now: float | None = None) -> bool:
    try:
        failed_at = (cache_dir / FAILED_SYNC_FILE).stat().st_mtime
    except OSError:
        return False
    return 0 <= (now if now is not None else time.time()) - failed_at < FAILED_SYNC_QUIET_SECONDS


def forget_failed_sync(cache_dir: Path) -> None:
    (cache_dir / FAILED_SYNC_FILE).unlink(missing_ok=True)
