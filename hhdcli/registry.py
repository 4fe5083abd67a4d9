"""Talk to the Hellfall registry over HTTP and keep the local cache in step with it.

A sync downloads and validates everything first and writes only at the end, so any failure leaves
the previous cache exactly as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hhdcli.cache import (
    BUILTIN_PREFIX,
    SYMBOLS_FILE,
    CacheMeta,
    builtin_symbols_file,
    has_symbols,
    load_cache,
    parse_symbols,
    read_meta,
    sync_lock,
    write_cache,
)
from hhdcli.cards import Parsed, parse_registry
from hhdcli.errors import DataError, HhdError, InputError
from hhdcli.files import read_input, sha256_hex, write_cache_file
from hhdcli.http import Client, Download, HttpSettings, Notice, Progress
from hhdcli.i18n import N_, _
from hhdcli.jsonio import load_json

EXPECTED_CARDS = 720
SHRINK_LIMIT = 0.9  # a sync that would leave fewer than this share of the cached cards needs --force
MAX_DOWNLOAD = 200 * 1024 * 1024  # the whole registry is ~18.5 MB; anything far larger is not it
RETRY_HINT = N_("nothing was changed; check the connection and try again, or sync offline with --source FILE")


@dataclass(frozen=True)
class RegistryUrls:
    manifest: str
    catalog: str
    database: str
    symbols: str

    @classmethod
    def from_base(cls, base: str) -> RegistryUrls:
        """One base URL serving all four files (a mirror, or the tests' loopback server)."""
        base = base.rstrip("/")
        return cls(
            manifest=f"{base}/catalog-manifest.json",
            catalog=f"{base}/catalog.json",
            database=f"{base}/Hellscube-Database.json",
            symbols=f"{base}/pips.json",
        )


_REPO = "https://raw.githubusercontent.com/bones-bones/hellfall/main/packages/shared/src/data"
DEFAULT_URLS = RegistryUrls(
    manifest="https://storage.googleapis.com/hellscube-images/catalog-manifest.json",
    catalog="https://storage.googleapis.com/hellscube-images/catalog.json",
    database=f"{_REPO}/Hellscube-Database.json",
    symbols=f"{_REPO}/pips.json",
)


@dataclass(frozen=True)
class Manifest:
    """The registry's catalog-manifest.json: the catalog's version and how many records it holds."""

    version: str | None = None
    card_count: int | None = None


@dataclass
class SymbolsResult:
    updated: bool
    source: str | None
    warnings: list[str] = field(default_factory=list)


@dataclass
class SyncResult:
    updated: bool
    meta: CacheMeta
    warnings: list[str] = field(default_factory=list)


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def _local_path(given: str) -> str:
    """A local file named on the command line, made absolute but not resolved: a shell's <(…) is /dev/fd/N, a
    link to a pipe with no name of its own to open."""
    return os.path.abspath(os.path.expanduser(given))


def _read_local(path_text: str) -> bytes:
    """A registry file as it is, or gzipped (the registry serves its catalog gzipped; tests/data keeps it so)."""
    path = Path(path_text).expanduser()
    raw = read_input(path, _("a registry file"), MAX_DOWNLOAD, _("check the path given to --source/--symbols"))
    if raw.startswith(b"\x1f\x8b"):
        raw = _gunzip(raw, path)
    if len(raw) > MAX_DOWNLOAD:
        raise InputError(_("{path} is over {number} MB: not a registry file").format(path=path, number=MAX_DOWNLOAD // 2**20),
                         _("check the path given to --source/--symbols"))
    return raw


def _gunzip(raw: bytes, path: Path) -> bytes:
    import zlib

    unpack = zlib.decompressobj(wbits=31)
    try:
        data = unpack.decompress(raw, MAX_DOWNLOAD + 1)  # a bound: a small file must not unpack into gigabytes
    except zlib.error as exc:
        raise DataError(_("{path} is a damaged gzip file ({exc})").format(path=path, exc=exc), _("download the registry file again")) from exc
    return data


@dataclass
class Syncer:
    """One sync run: the cache it updates, where it reads from, and how it talks HTTP."""

    cache_dir: Path
    urls: RegistryUrls = DEFAULT_URLS
    settings: HttpSettings = HttpSettings()
    progress: Progress | None = None
    notice: Notice | None = None
    warnings: list[str] = field(default_factory=list)
    client: Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = Client(self.settings, notice=self.notice)

    def run(self, source: str | None = None, symbols: str | None = None, force: bool = False) -> SyncResult:
        with sync_lock(self.cache_dir, self.notice):  # two syncs at once would mix their cards and symbols
            return self._run(source, symbols, force)

    def _run(self, source: str | None, symbols: str | None, force: bool) -> SyncResult:
        old = read_meta(self.cache_dir)
        manifest = Manifest()
        if source is None:
            download, manifest = self._from_registry(old, force)
        elif is_url(source):
            download = self._from_url(source, old, force)
        else:
            path = _local_path(source)
            download = Download(path, _read_local(path))
            if old and not force and old.source == path and old.sha256 == sha256_hex(download.data):
                download.not_modified = True
        if download.not_modified and old is not None:
            return SyncResult(False, old, self.warnings)
        parsed = self._parse(download)
        version = manifest.version
        if manifest.card_count is not None and manifest.card_count != parsed.records:
            # the catalog is cached for days, the manifest for minutes: this catalog may be an old one
            self.warnings.append(_("the catalog holds {records} cards but its manifest says {card_count}: it may be a stale "
                                   "copy; try again in a few minutes").format(records=parsed.records, card_count=manifest.card_count))
            if old is not None:
                self.warnings.append(_("kept the previous card data"))
                return SyncResult(False, old, self.warnings)
            version = None  # stored, but not as that version: the next sync fetches again
        fmt, cards = parsed.format, parsed.cards
        from hhdcli.library import MAX_CARD_DATA

        if len(cards) > MAX_CARD_DATA:  # its library would be more than a library file holds
            raise DataError(_("{url} has {n} Hellscube v1.2 cards, more than hhd reads ({most}): it is not the "
                              "Hellscube v1.2 card list").format(url=download.url, n=len(cards), most=MAX_CARD_DATA),
                            _("nothing was changed; check the source given to --source or --registry-url"))
        if old is not None and not force and len(cards) < SHRINK_LIMIT * old.card_count:
            raise DataError(_("{url} has {n} Hellscube v1.2 cards, the cache has {card_count}: refusing to replace the "
                              "cache with far fewer cards").format(url=download.url, n=len(cards), card_count=old.card_count),
                            _("nothing was changed; if that is really the new card list, pass --force"))
        symbols_download = self._symbols(symbols, source, old, force)
        meta = CacheMeta(
            source=download.url, format=fmt, registry_version=version,
            fetched_at=datetime.now(UTC).replace(microsecond=0).isoformat(),
            sha256=sha256_hex(download.data), card_count=len(cards),
            etag=download.etag, last_modified=download.last_modified,
        )
        self._carry_symbols_meta(meta, symbols_download, old)
        write_cache(self.cache_dir, meta, cards,
                    None if symbols_download is None or symbols_download.not_modified else symbols_download.data)
        return SyncResult(True, meta, self.warnings)

    def _from_registry(self, old: CacheMeta | None, force: bool) -> tuple[Download, Manifest]:
        """Manifest first, then the catalog; on failure the repository's database file."""
        try:
            manifest = self._manifest()
            if old and not force and old.source == self.urls.catalog and old.registry_version == manifest.version:
                return Download(self.urls.catalog, not_modified=True), manifest
            return self._from_url(self.urls.catalog, old, force), manifest
        except HhdError as exc:
            self.warnings.append(_("the registry catalog failed ({message}); trying the repository database").format(message=exc.message))
            return self._from_url(self.urls.database, old, force), Manifest()

    def _manifest(self) -> Manifest:
        download = self._get(self.urls.manifest)
        try:
            document = load_json(download.data)
            count = document.get("cardCount")
            return Manifest(str(document["version"]), count if isinstance(count, int) else None)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DataError(_("the manifest {manifest} has no version").format(manifest=self.urls.manifest)) from exc

    def _from_url(self, url: str, old: CacheMeta | None, force: bool) -> Download:
        same = old is not None and old.source == url and not force
        return self._get(url, etag=old.etag if same and old else None,
                         last_modified=old.last_modified if same and old else None, progress=self.progress)

    def _get(self, url: str, **kwargs: Any) -> Download:
        return self.client.get(url, limit=MAX_DOWNLOAD, hint=RETRY_HINT, **kwargs)

    def _parse(self, download: Download) -> Parsed:
        try:
            parsed = parse_registry(download.data)
        except DataError as exc:
            raise DataError(f"{download.url}: {exc.message}", exc.hint or _("nothing was changed")) from exc
        shown = 5  # a feed of broken records is a few lines and a count, not a screenful
        self.warnings.extend(f"{download.url}: {line}" for line in parsed.skipped[:shown])
        if len(parsed.skipped) > shown:
            self.warnings.append(_("… and {number} more records skipped").format(number=len(parsed.skipped) - shown))
        if not parsed.cards:
            raise DataError(_("{url}: no Hellscube v1.2 cards (set HLC) in {format} data").format(url=download.url, format=parsed.format),
                            _("nothing was changed; check that --source is the Hellscube database"))
        if len(parsed.cards) != EXPECTED_CARDS:
            self.warnings.append(_("found {n} Hellscube v1.2 cards, expected {EXPECTED_CARDS}").format(n=len(parsed.cards), EXPECTED_CARDS=EXPECTED_CARDS))
        return parsed

    def _symbols(self, symbols: str | None, source: str | None, old: CacheMeta | None,
                 force: bool) -> Download | None:
        """The symbol table: --symbols, else pips.json beside a local source, else the registry's. A sync from
        a local file never goes online: without pips.json beside it, the cached table stays (or the
        built-in one is used)."""
        explicit = symbols is not None
        if symbols is None and source is not None and not is_url(source):
            beside = Path(_local_path(source)).parent / "pips.json"
            if not beside.is_file():
                keep = old is not None and has_symbols(self.cache_dir)
                return None if keep else Download(f"{BUILTIN_PREFIX} pips.json", builtin_symbols_file())
            symbols = str(beside)
        symbols = symbols or self.urls.symbols
        try:
            if is_url(symbols):
                # a conditional request only when the cached table is sound: a damaged one is replaced
                same = old is not None and old.symbols_source == symbols and not force and has_symbols(self.cache_dir)
                download = self._get(symbols, etag=old.symbols_etag if same and old else None,
                                     last_modified=old.symbols_last_modified if same and old else None)
            else:
                path = _local_path(symbols)
                download = Download(path, _read_local(path))
            if not download.not_modified:
                parse_symbols(download.data)
            return download
        except (HhdError, ValueError) as exc:
            message = exc.message if isinstance(exc, HhdError) else f"{symbols}: {exc}"
            if explicit:
                raise DataError(_("symbol table: {message}").format(message=message), _("nothing was changed; check --symbols")) from exc
            if has_symbols(self.cache_dir):
                self.warnings.append(_("no new symbol table ({message}); keeping the previous one").format(message=message))
                return None
            self.warnings.append(_("no new symbol table ({message}); using the built-in one").format(message=message))
            return Download(f"{BUILTIN_PREFIX} pips.json", builtin_symbols_file())

    def run_symbols(self, symbols: str | None = None, force: bool = False) -> SymbolsResult:
        """Refresh the symbol table alone (--symbols-only): from --symbols, else the registry."""
        with sync_lock(self.cache_dir, self.notice):
            return self._run_symbols(symbols, force)

    def _run_symbols(self, symbols: str | None, force: bool) -> SymbolsResult:
        old = read_meta(self.cache_dir)
        download = self._symbols(symbols, None, old, force)
        if download is None or download.not_modified:
            return SymbolsResult(False, old.symbols_source if old else None, self.warnings)
        if old is not None:  # the cards stay; only where their symbol table came from changes
            cache = load_cache(self.cache_dir, with_symbols=False)  # the old table may be the damaged one
            self._carry_symbols_meta(cache.meta, download, old)
            write_cache(self.cache_dir, cache.meta, cache.cards, download.data)
        else:
            write_cache_file(self.cache_dir / SYMBOLS_FILE, download.data)
        return SymbolsResult(True, download.url, self.warnings)

    @staticmethod
    def _carry_symbols_meta(meta: CacheMeta, download: Download | None, old: CacheMeta | None) -> None:
        if download is None or download.not_modified:
            if old:
                meta.symbols_source, meta.symbols_sha256 = old.symbols_source, old.symbols_sha256
                meta.symbols_etag, meta.symbols_last_modified = old.symbols_etag, old.symbols_last_modified
            return
        meta.symbols_source, meta.symbols_sha256 = download.url, sha256_hex(download.data)
        meta.symbols_etag, meta.symbols_last_modified = download.etag, download.last_modified

