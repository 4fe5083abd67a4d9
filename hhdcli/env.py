"""The run's environment, shared by the command line and the Hell table: output, warnings, cache, HTTP."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from hhdcli.i18n import _, ngettext, quote
from hhdcli.output import echo, is_terminal

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.decklists import Deck
    from hhdcli.http import HttpSettings
    from hhdcli.library import ResolvedLibrary
    from hhdcli.mana import SymbolTable
    from hhdcli.registry import Syncer, SyncResult
    from hhdcli.scryfall import ScryfallLands

DEFAULT_LIBRARY = "hell-library.json"  # the library file every command reads unless told otherwise


@dataclass
class Env:
    """What every command shares: where the cache is, how to reach the network, how loud to be."""

    cache_dir: Path
    registry_url: str | None
    timeout: float
    quiet: bool
    debug: bool
    offline: bool = False
    cache_max_mb: int = 2048  # the image cache's cap
    deck_sites_url: str | None = None  # a mirror of the deck sites (HHD_DECK_SITES_URL), else the sites themselves
    _cache: CardCache | None = field(default=None, repr=False)
    _symbols: SymbolTable | None = field(default=None, repr=False)

    def info(self, message: str) -> None:
        if not self.quiet:
            echo(message, err=True)

    def warn(self, message: str) -> None:
        if not self.quiet:
            echo(_("warning: {message}").format(message=message), err=True, fg="yellow")

    def notice(self, message: str) -> None:
        """A wait long enough to wonder about (a server's Retry-After, Scryfall's back-off): say what it is."""
        self.info(f"… {message}")

    def write(self, path: Path, data: bytes | str | Callable[[BinaryIO], object],
              what: str | Callable[[], str] = "") -> None:
        """Write an output atomically and say so (`what` may be worked out once it is written)."""
        from hhdcli.files import write_output

        write_output(path, data)
        said = what() if callable(what) else what
        self.info(_("wrote {path}: {what}").format(path=path, what=said) if said else
                  _("wrote {path}").format(path=path))

    def counting_progress(self, total: int, label: str) -> tuple[Callable[[], None] | None, Callable[[], None]]:
        """A bar counting `total` steps on a terminal (one step per call, from any thread) and its finish;
        nothing when piped or quiet."""
        if self.quiet or not is_terminal(err=True) or total == 0:
            return None, lambda: None
        import click

        bar: Any = click.progressbar(length=total, label=label, file=sys.stderr)
        bar.render_progress()
        import threading

        lock = threading.Lock()  # downloads finish on several threads; the bar must count them one at a time

        def step() -> None:
            with lock:
                bar.update(1)

        return step, bar.render_finish

    def symbols(self) -> SymbolTable:
        """The symbol table of the card cache once it is loaded; before that the cached table alone (a rules
        sheet needs no cards), else the built-in one."""
        if self._cache is not None:
            return self._cache.symbol_table
        if self._symbols is None:
            from hhdcli.cache import symbols_or_builtin
            from hhdcli.mana import SymbolTable

            self._symbols = SymbolTable.from_records(symbols_or_builtin(self.cache_dir))
        return self._symbols

    def http(self, **kwargs: float) -> HttpSettings:
        from hhdcli.http import HttpSettings

        return HttpSettings.for_timeout(self.timeout, **kwargs)

    def scryfall(self, url: str | None = None) -> ScryfallLands:
        """Land colors from Scryfall (its API at `url`, else the public one), answers cached in the cache folder;
        offline, the cached answers alone."""
        from hhdcli.scryfall import DEFAULT_SCRYFALL_URL, ScryfallLands

        # the table has no --scryfall-url of its own: it takes check's HHD_SCRYFALL_URL (a mirror, a test server)
        url = url or os.environ.get("HHD_SCRYFALL_URL") or DEFAULT_SCRYFALL_URL
        return ScryfallLands(self.cache_dir, url, self.http(), warn=self.warn, notice=self.notice, offline=self.offline)

    def syncer(self, progress: Callable[[int, int | None], None] | None = None) -> Syncer:
        from hhdcli.registry import DEFAULT_URLS, RegistryUrls, Syncer

        urls = RegistryUrls.from_base(self.registry_url) if self.registry_url else DEFAULT_URLS
        return Syncer(self.cache_dir, urls=urls, settings=self.http(), progress=progress, notice=self.notice)

    def read_pasted_deck(self, text: str) -> Deck:
        """What a player pasted (on their phone at the table): a deck's link, read from its site, or the list."""
        from hhdcli.decksites import is_deck_url, read_deck_text

        pasted = text.strip()
        if "\n" not in pasted and is_deck_url(pasted):
            return self.read_deck(pasted)
        return read_deck_text(text)

    def read_deck(self, source: str, sideboard_after_blank: bool | None = None) -> Deck:
        """A deck from a file, or from its link on a deck site (Moxfield, Archidekt…) through the one HTTP client."""
        from hhdcli.deck import read_deck
        from hhdcli.decksites import is_deck_url, read_deck_url
        from hhdcli.errors import InputError, NetworkError

        if is_deck_url(source):
            from hhdcli.http import Client

            if self.offline:
                raise NetworkError(_("{link}: a deck link needs the network (--offline)").format(link=source),
                                   _("export the deck as text on the site and give hhd the file"))
            client = Client(self.http(), accept="application/json, text/html;q=0.9, */*;q=0.8", notice=self.notice)
            return read_deck_url(source, client, self.deck_sites_url)
        path = Path(source)
        if not path.exists():  # a folder, a FIFO or a device is refused by read_deck, saying which
            raise InputError(_("{path}: no such deck file").format(path=source),
                             _("give a deck file, or a deck's link on Moxfield, Archidekt, MTGGoldfish, TappedOut, "
                               "Deckstats or AetherHub"))
        return read_deck(path, sideboard_after_blank)

    def __post_init__(self) -> None:
        from hhdcli.files import sweep_leftovers

        sweep_leftovers(self.cache_dir)  # what a killed run left in the cache: temp files whose writer has gone

    def cards(self) -> CardCache:
        if self._cache is None:
            self._cache = self._load_cards()
        return self._cache

    def _load_cards(self) -> CardCache:
        """The card cache; with none yet, one sync (unless offline or one failed within the hour), else built-in."""
        from hhdcli.cache import cache_exists, load_builtin, load_cache, note_failed_sync, recent_failed_sync
        from hhdcli.errors import DataError, NetworkError

        if cache_exists(self.cache_dir):
            return load_cache(self.cache_dir)
        if not self.offline and not recent_failed_sync(self.cache_dir):
            self.info(_("no card cache yet: syncing from the registry once…"))
            try:
                self.report_sync(self.syncer().run())
                return load_cache(self.cache_dir)
            except (NetworkError, DataError) as exc:  # a cache that cannot be written is still an error
                self.warn(_("could not sync: {reason}").format(reason=exc.message))
                note_failed_sync(self.cache_dir)  # say it once: the next hour's commands do not try again
        builtin = load_builtin()
        self.info(_("offline: using the built-in Hellscube v1.2 data of {date}; `hhd sync` fetches the live "
                    "registry").format(date=builtin.meta.fetched_at[:10]))
        return builtin

    def report_sync(self, result: SyncResult) -> None:
        for warning in result.warnings:
            self.warn(warning)
        meta = result.meta
        if result.updated:
            self.info(ngettext("synced {n} Hellscube v1.2 card from {source} into {folder}",
                               "synced {n} Hellscube v1.2 cards from {source} into {folder}", meta.card_count).format(
                n=meta.card_count, source=meta.source, folder=self.cache_dir))
        else:
            version = meta.registry_version or meta.etag or meta.sha256[:12]
            self.info(ngettext("up to date (version {version}, {n} card)", "up to date (version {version}, {n} cards)",
                               meta.card_count).format(version=version, n=meta.card_count))

    def open_library(self, path: Path) -> ResolvedLibrary:
        from hhdcli.library import open_library

        cache = self.cards()
        resolved = open_library(path, cache.cards, cache.meta.sha256)
        for warning in resolved.warnings:
            self.warn(warning)
        for entry, card in resolved.renamed:
            self.info(_("{path}: card {position} {old} is called {new} now").format(
                path=path, position=entry.position, old=quote(entry.name), new=quote(card.name)))

        return resolved
