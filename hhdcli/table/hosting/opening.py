"""A table's session opened from a library (for `hhd table` and each table of `hhd serve`), the join code that
admits its players, and the change counter of the production server's streams."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.i18n import _, current_language
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.session import Session
from hhdcli.table.game.store import Damaged, StateUnwritable

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.cards import Card
    from hhdcli.library import ResolvedLibrary
    from hhdcli.table.game.changes import Changes


def open_session(resolved: ResolvedLibrary, cache: CardCache, players: dict[str, tuple[str, ...]],
                 state_file: Path, life: int | None = None,
                 check: Callable[[dict[str, str]], None] | None = None) -> tuple[Session, bool]:
    import hashlib

    from hhdcli.files import dump_json

    content = hashlib.sha256(dump_json(resolved.library.to_json())).hexdigest()
    session = Session(state_file, table_cards(resolved.by_position), cache.symbol_table,
                      resolved.library.seed, content, hellscube=list(cache.cards))
    try:
        return session, session.start(players, life, check)
    except TableError as exc:
        from hhdcli.table.web.i18n import translations

        said = exc.said(translations(current_language()).gettext)  # the table's catalog, in the host's language
        if isinstance(exc, StateUnwritable):  # the file may hold a healthy session: never advise leaving it
            raise InputError(said, _("make room on the disk or make its folder writable, then start the table "
                                     "again: the session in it is kept")) from exc
        if isinstance(exc, Damaged):  # the file stays as it is: it may be mended, or restored from a backup
            raise InputError(said, _("restore it (and its -wal file) from a backup, or pass another --state FILE: "
                                     "it is left as it is")) from exc
        raise InputError(said, _("pass another --state FILE for this library")) from exc


def table_cards(cards: dict[int, Card]) -> dict[int, Card]:
    """The library's cards as a table shows them: a control character in a card's name (ESC, BEL, NUL: a library
    file uploaded to hhd serve holds what its sender wrote; a registry's name too) is dropped, as every file hhd
    writes drops it, so that no page, API answer or log carries it raw."""
    from dataclasses import replace

    from hhdcli.terminal import file_text

    def shown(card: Card) -> Card:
        if all(file_text(name) == name for name in (card.name, *(face.name for face in card.faces))):
            return card
        return replace(card, name=file_text(card.name),
                       faces=tuple(replace(face, name=file_text(face.name)) for face in card.faces))

    return {position: shown(card) for position, card in cards.items()}


JOIN_CODE_BYTES = 10  # 80 bits: a code in a link cannot be guessed from the internet


JOIN_CODE_LENGTH = 14  # its letters (base64, 6 bits each)


def new_join_code() -> str:
    return secrets.token_urlsafe(JOIN_CODE_BYTES)


def stream_changes() -> Changes:
    """The change counter for the production server: its streams wait as greenlets, so hundreds may listen
    (each address's share is bounded by the server)."""
    import gevent.event

    from hhdcli.table.game.changes import Changes

    return Changes(max_streams=2000, event=gevent.event.Event)

