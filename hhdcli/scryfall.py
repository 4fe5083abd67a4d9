"""Other Magic lands' colors from Scryfall's /cards/collection, cached on disk, with Scryfall's etiquette.

Scryfall's API documentation asks for a User-Agent and an Accept header, at most 75 identifiers a request,
no more than about 2 requests a second to /cards/collection, and, after a 429, a pause (we wait 30 s; a
longer Retry-After ends the command with the time to come back) before one more try. Answers are matched back to the names asked through
Scryfall's own answer (`data` in the order asked, less those in `not_found`), so names with Æ, û or
`//` faces come back to the name the deck wrote.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from hhdcli.errors import NetworkError
from hhdcli.files import dump_json, write_cache_file
from hhdcli.http import Client, HttpSettings, Notice, clock, retry_after_at
from hhdcli.i18n import _
from hhdcli.jsonio import load_json

DEFAULT_SCRYFALL_URL = "https://api.scryfall.com"
BATCH = 75
MIN_INTERVAL = 0.5  # seconds between requests: at most 2 a second
BACK_OFF = 30.0  # seconds to wait after a 429 before the one retry
NOT_FOUND_DAYS = 7  # a name Scryfall did not know is asked again after this (new sets come out)
CACHE_FILE = "scryfall-lands.json"
LIMIT = 8 * 1024 * 1024

Answer = tuple[str, tuple[str, ...]]  # type line, produced mana


def cache_key(name: str) -> str:
    """How a name is remembered: as written, ignoring case and surrounding spaces (Æ stays Æ)."""
    return " ".join(name.split()).casefold()


@dataclass
class ScryfallLands:
    cache_dir: Path
    base_url: str = DEFAULT_SCRYFALL_URL
    settings: HttpSettings = HttpSettings()
    warn: Callable[[str], None] = lambda message: None
    notice: Notice | None = None
    clock: Callable[[], float] = time.monotonic  # the spacing between requests
    sleep: Callable[[float], None] = time.sleep
    now: Callable[[], float] = time.time  # when a "not found" was recorded
    request_times: list[float] = field(default_factory=list)
    offline: bool = False  # answer from the cache alone (--offline): what an earlier run looked up, asking nothing

    @property
    def path(self) -> Path:
        return self.cache_dir / CACHE_FILE

    def _load(self) -> dict[str, Any]:
        try:
            known = load_json(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return known if isinstance(known, dict) else {}

    def _fresh(self, entry: Any) -> bool:
        if not isinstance(entry, dict):
            return False  # older caches wrote null for "not found": ask again
        if entry.get("not_found"):
            checked = entry.get("checked")
            return isinstance(checked, (int, float)) and self.now() - checked < NOT_FOUND_DAYS * 86400
        return _answer(entry) is not None  # a hand-edited or damaged entry is asked again

    def lookup(self, names: list[str]) -> dict[str, Answer | None]:
        """Each name's (type line, produced mana); None when Scryfall does not know it."""
        known = self._load()
        wanted = list(dict.fromkeys(n for n in names if not self._fresh(known.get(cache_key(n)))))
        if wanted and not self.offline:
            try:
                known.update(self._fetch(wanted))
            except NetworkError as exc:
                self.warn(_("Scryfall lookup failed ({message}); name the lands with --land NAME=COLORS").format(message=exc.message))
            else:
                write_cache_file(self.path, dump_json(known))
        result: dict[str, Answer | None] = {}
        for name in names:
            result[name] = _answer(known.get(cache_key(name)))
        return result

    def _fetch(self, names: list[str]) -> dict[str, Any]:
        # retries=0: a 429 is answered here, by Scryfall's rules, not by urllib3's
        client = Client(HttpSettings(self.settings.timeout, retries=0), notice=self.notice)
        found: dict[str, Any] = {}
        for start in range(0, len(names), BATCH):
            batch = names[start:start + BATCH]
            document = self._post(client, [{"name": n} for n in batch])
            found.update(match_answers(batch, document, self.now()))
        return found

    def _post(self, client: Client, identifiers: list[dict[str, str]]) -> dict[str, Any]:
        url = f"{self.base_url.rstrip('/')}/cards/collection"
        for attempt in (1, 2):
            self._space()
            answer = client.request("POST", url, limit=LIMIT, json={"identifiers": identifiers}, ok=(200, 429))
            if answer.status != 429:
                try:
                    document = load_json(answer.data)
                    document["data"]  # noqa: B018 - the shape is checked here, used by the caller
                    return dict(document)
                except (ValueError, KeyError, TypeError) as exc:
                    raise NetworkError(_("{url} answered something that is not a card list").format(url=url)) from exc
            if attempt == 2:
                raise NetworkError(_("{url} is still busy (HTTP 429 twice)").format(url=url), _("try again in a few minutes"))
            back = retry_after_at(str(answer.headers.get("Retry-After", "")))
            wait = max(BACK_OFF, (back - datetime.now().astimezone()).total_seconds() if back else 0.0)
            if wait > BACK_OFF:  # longer than the back-off this command budgets for: not worth waiting
                assert back is not None
                raise NetworkError(_("{url} asks to wait until {clock} (HTTP 429): try again after {clock}").format(url=url, clock=clock(back)),
                                   _("or pass --offline, naming lands with --land NAME=COLORS"))
            if self.notice:
                self.notice(_("waiting {wait:.0f} s: Scryfall asked to slow down (HTTP 429)").format(wait=wait))
            self.sleep(wait)
        raise AssertionError("unreachable")

    def _space(self) -> None:
        """At most 2 requests a second: wait out what is left of the interval since the last one."""
        if self.request_times:
            left = MIN_INTERVAL - (self.clock() - self.request_times[-1])
            if left > 0:
                self.sleep(left)
        self.request_times.append(self.clock())


def _answer(entry: Any) -> Answer | None:
    """A cached land's (type line, produced mana), or None when the entry is not one (of any shape)."""
    if not isinstance(entry, dict):
        return None
    type_line, mana = entry.get("type_line"), entry.get("produced_mana")
    if isinstance(type_line, str) and isinstance(mana, list) and all(isinstance(m, str) for m in mana):
        return type_line, tuple(mana)
    return None


def _records(value: Any) -> list[dict[str, Any]]:
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def match_answers(asked: list[str], document: dict[str, Any], now: float) -> dict[str, Any]:
    """Scryfall's answer keyed by the names asked: `data` holds the found cards in the order asked, less
    the identifiers listed in `not_found`. Fields of the wrong type count as absent."""
    missing = {cache_key(str(i.get("name", ""))) for i in _records(document.get("not_found"))}
    found_names = [n for n in asked if cache_key(n) not in missing]
    cards = _records(document.get("data"))
    out: dict[str, Any] = {cache_key(n): {"not_found": True, "checked": now} for n in asked}
    for name, card in zip(found_names, cards, strict=False):
        faces = _records(card.get("card_faces"))
        type_line = card.get("type_line") or " // ".join(str(f.get("type_line", "")) for f in faces)
        mana = card.get("produced_mana")
        entry = {"name": str(card.get("name", name)), "type_line": str(type_line),
                 "produced_mana": [str(m) for m in mana] if isinstance(mana, list) else []}
        out[cache_key(name)] = entry
    return out
