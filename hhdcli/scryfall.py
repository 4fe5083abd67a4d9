"""Other Magic lands' colours from Scryfall's /cards/collection, cached on disk.

Scryfall asks for a User-Agent and Accept header, at most 75 identifiers a request and 50–100 ms
between requests; 429 is retried by the session's Retry (which honours Retry-After).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hhdcli.cards import normalize_name
from hhdcli.errors import NetworkError
from hhdcli.files import dump_json, write_cache_file
from hhdcli.http import HttpSettings, make_session, network_error

DEFAULT_SCRYFALL_URL = "https://api.scryfall.com"
BATCH = 75
MIN_INTERVAL = 0.1  # seconds between requests
CACHE_FILE = "scryfall-lands.json"

Answer = tuple[str, tuple[str, ...]]  # type line, produced mana


@dataclass
class ScryfallLands:
    cache_dir: Path
    base_url: str = DEFAULT_SCRYFALL_URL
    settings: HttpSettings = HttpSettings()
    warn: Callable[[str], None] = lambda message: None
    requests_made: int = 0
    _known: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.cache_dir / CACHE_FILE

    def _load(self) -> dict[str, Any]:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def lookup(self, names: list[str]) -> dict[str, Answer | None]:
        """Each name's (type line, produced mana); None when Scryfall does not know it."""
        known = self._load()
        wanted = [n for n in names if normalize_name(n) not in known]
        if wanted:
            try:
                known.update(self._fetch(wanted))
            except NetworkError as exc:
                self.warn(f"Scryfall lookup failed ({exc.message}); name the lands with --land NAME=COLOURS")
            else:
                write_cache_file(self.path, dump_json(known))
        result: dict[str, Answer | None] = {}
        for name in names:
            entry = known.get(normalize_name(name))
            result[name] = (entry["type_line"], tuple(entry["produced_mana"])) if entry else None
        return result

    def _fetch(self, names: list[str]) -> dict[str, Any]:
        import requests

        session = make_session(self.settings)
        found: dict[str, Any] = {}
        for start in range(0, len(names), BATCH):
            if self.requests_made:
                time.sleep(MIN_INTERVAL)
            batch = names[start:start + BATCH]
            url = f"{self.base_url.rstrip('/')}/cards/collection"
            try:
                response = session.post(url, json={"identifiers": [{"name": n} for n in batch]},
                                        timeout=self.settings.timeout)
            except requests.exceptions.RequestException as exc:
                raise network_error(exc, url) from exc
            self.requests_made += 1
            if response.status_code != 200:
                raise NetworkError(f"{url} answered HTTP {response.status_code}")
            try:
                cards = response.json()["data"]
            except (ValueError, KeyError, TypeError) as exc:
                raise NetworkError(f"{url} answered something that is not a card list") from exc
            for name in batch:
                found[normalize_name(name)] = None  # remembered as unknown unless a card matches
            for card in cards:
                entry = {"name": card.get("name", ""), "type_line": card.get("type_line", ""),
                         "produced_mana": list(card.get("produced_mana") or [])}
                found[normalize_name(entry["name"])] = entry
                front = entry["name"].split(" // ")[0]
                found[normalize_name(front)] = entry
        return found
