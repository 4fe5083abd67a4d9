"""Players' names, however they arrive (the front page's seats, `hhd table --player`/`--deck`, a late player
added from the board): one check, so that no two players at a table look alike and no name carries what the
eye does not see.

A name is its words with the spaces between them folded to one; it is refused when it holds a control character
(ESC, NUL…: category Cc) or a format character (category Cf: the bidi controls U+202A–202E and U+2066–2069, the
marks U+200E/200F, the zero-width U+200B–200D, U+2060, U+FEFF…), which turn a page's text around or hide in
it. Two names are the same player when their TR39 skeletons (NFKC, case folded, confusables mapped to their
prototype: disarm's `skeleton_key`, a maintained implementation of Unicode's tables) are equal: `Anna`, `ANNA`,
full-width `Ａnna` and Cyrillic `Аnna` are one name, seated once."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from hhdcli.i18n import N_
from hhdcli.table.game.errors import TableError

MAX_NAME = 40  # characters of a player's name, its spaces folded

HIDDEN = N_("a player's name cannot hold control or direction characters: {name}")
TOO_LONG = N_("a player's name is at most {most} characters: {name}")
LOOKS_LIKE = N_("{name} looks the same as {seated}, who is at this table already: write it another way "
                "(add a letter or an initial)")


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf")


def shown(name: str) -> str:
    """The name as it may be shown in a message: what the eye would not see spelled as its code point."""
    return "".join(f"[U+{ord(c):04X}]" if _hidden(c) else c for c in name)[:3 * MAX_NAME]


def player_name(typed: str) -> str:
    """The name as typed, its spaces folded (empty when nothing was typed); refused when it holds a control or
    format character or is too long."""
    name = " ".join(typed.split())
    if any(_hidden(c) for c in name):
        raise TableError(HIDDEN, status=400, name=shown(name))
    if len(name) > MAX_NAME:
        raise TableError(TOO_LONG, status=400, most=MAX_NAME, name=name[:MAX_NAME] + "…")
    return name


def name_key(name: str) -> str:
    """What two names that look the same have in common: their TR39 skeleton."""
    from disarm import skeleton_key

    return str(skeleton_key(name))


def look_alike(name: str, seated: Iterable[str]) -> str | None:
    """The seated player whose name looks the same as `name`, if any."""
    key = name_key(name)
    return next((other for other in seated if name_key(other) == key), None)


def check_new(name: str, seated: Iterable[str]) -> None:
    """A name to seat beside `seated`: refused when it looks the same as one of theirs."""
    found = look_alike(name, seated)
    if found is not None:
        raise TableError(LOOKS_LIKE, status=409, name=name, seated=found)


def seat_names(typed: Iterable[str], seated: Iterable[str] = ()) -> list[str]:
    """Names typed together (the front page's seats, the command line's players), each checked and each unlike
    the others and the seated players' (a seated player's own name, typed again, is that player); empty ones
    left out."""
    names: list[str] = []
    seated = list(seated)
    for each in typed:
        name = player_name(each)
        if name:
            check_new(name, [*(other for other in seated if other != name), *names])
            names.append(name)
    return names
