"""hhd in the user's language: gettext message catalogs (hhdcli/locale/LANG/LC_MESSAGES/hhd.po).

Every user-facing string goes through `_` (or `ngettext` where a number meets a noun); `N_` marks a string
for extraction where it is translated later (a module-level table, a Click help text translated when shown).
The language is chosen once per run by `set_language` (the CLI does it from --lang, HHD_LANG, the locale:
`choose_language`); code that answers several people at once (the table) asks `translator(lang)` instead.

Why the .po files are read as they are, with no compiled .mo and no Babel: start-up time. Reading a .po is a
few milliseconds of plain Python (only when the language is not English), nothing generated is committed or
has to be built at install time, and the wheel ships the .po files it already ships. The plural rule comes
from the catalog's own Plural-Forms header (written by Babel from CLDR: `pybabel init`/`update`), compiled
by the standard library as msgfmt's does. Babel itself is imported only to format dates and numbers in
Russian (`format_decimal`, `format_date`) and by the tooling (scripts/update-catalog.py).

HHD_LOCALE_DIR (for tests, not shown to users) adds a folder of catalogs: the pseudo-locale `xx` lives there.
"""

from __future__ import annotations

import gettext
import os
import re
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import date  # only for the annotation: importing datetime is a millisecond of every start

LANGUAGES = ("en", "ru")
DOMAIN = "hhd"
EXTRA_CATALOGS = "HHD_LOCALE_DIR"  # tests only: a folder with LANG/LC_MESSAGES/hhd.po for more languages
_language = "en"
_source = "default"  # what chose it: --lang, HHD_LANG, LC_ALL, LC_MESSAGES, LANG or default

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


class Catalog(gettext.NullTranslations):
    """One language's messages, read from a .po file: untranslated and fuzzy entries fall back to English."""

    def __init__(self, messages: Mapping[str | tuple[str, int], str], plural_rule: str) -> None:
        super().__init__()
        self.messages = messages
        self.plural = gettext.c2py(plural_rule)  # msgfmt's own compiler of the C plural expression

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self.messages.get((msgid1, self.plural(n)))
        return found or (msgid1 if n == 1 else msgid2)


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


def read_po(text: str) -> tuple[dict[str | tuple[str, int], str], str]:
    """The translated messages of a .po file's text and its plural rule (as msgfmt reads it; fuzzy skipped)."""
    messages: dict[str | tuple[str, int], str] = {}
    plural_rule = "n != 1"
    for block in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        current = None
        fuzzy = False
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if not line or line.startswith("#"):
                continue
            if line.startswith('"'):
                if current is not None:
                    fields[current] += _unquote(line)
                continue
            key, _space, rest = line.partition(" ")
            current = key
            fields[key] = _unquote(rest)
        msgid = fields.get("msgid")
        if msgid is None:
            continue
        if msgid == "":
            found = re.search(r"Plural-Forms:.*?plural=([^;\n]+)", fields.get("msgstr", ""))
            plural_rule = found.group(1) if found else plural_rule
            continue
        if fuzzy:
            continue
        if "msgid_plural" in fields:
            for key, value in fields.items():
                index = re.fullmatch(r"msgstr\[(\d+)\]", key)
                if index and value:
                    messages[(msgid, int(index.group(1)))] = value
        elif fields.get("msgstr"):
            messages[msgid] = fields["msgstr"]
    return messages, plural_rule


_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")  # what may name a catalog folder: never a path or a long string


def _catalog_path(lang: str, domain: str, extra: str | None = None) -> Path | None:
    if not _LANGUAGE_CODE.fullmatch(lang):
        return None
    here = Path(__file__).parent / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    if lang in LANGUAGES and here.is_file():
        return here
    extra = extra if extra is not None else os.environ.get(EXTRA_CATALOGS)
    if extra:
        there = Path(extra) / lang / "LC_MESSAGES" / f"{domain}.po"
        if there.is_file():
            return there
    return None


def available(lang: str) -> bool:
    """Whether `lang` can be chosen: English, Russian, or a test catalog under HHD_LOCALE_DIR."""
    return lang == "en" or _catalog_path(lang, DOMAIN) is not None


@lru_cache(maxsize=8)
def _load(lang: str, domain: str, where: str | None) -> gettext.NullTranslations:
    """`where` (HHD_LOCALE_DIR as the caller read it) is part of the cache key and the folder looked in."""
    path = _catalog_path(lang, domain, where)
    if path is None:
        return gettext.NullTranslations()
    messages, plural_rule = read_po(path.read_text(encoding="utf-8"))
    return Catalog(messages, plural_rule)


def translator(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalog of `lang` (English, the messages themselves, when there is none)."""
    if lang == "en":
        return gettext.NullTranslations()
    return _load(lang, domain, os.environ.get(EXTRA_CATALOGS))


def set_language(lang: str, source: str = "--lang") -> None:
    """The run's language, and what chose it; Click's own texts (usage errors, --help headings) follow it too."""
    global _language, _source
    _language = lang if available(lang) else "en"
    _source = source
    _install_in_click()


def current_language() -> str:
    return _language


def language_source() -> str:
    """What chose the run's language: --lang, HHD_LANG, LC_ALL, LC_MESSAGES, LANG, or default (English)."""
    return _source


def _(message: str) -> str:
    return translator(_language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator(_language).ngettext(singular, plural, n)


def N_(message: str) -> str:
    return message


def quote(value: object) -> str:
    """A name or value quoted in a message: «ёлочки» in Russian, Python's quotes (escaping odd characters)
    otherwise. In a msgid it is a plain {placeholder}; a msgid's {name!r} is quoted «…» by the translation."""
    text = str(value)
    return f"«{text}»" if _language == "ru" else repr(text)


def _install_in_click() -> None:
    """Click translates its texts with `from gettext import gettext as _` (the global domain, which would need
    compiled .mo files and the process's locale variables): its modules get ours instead, so that "Usage:",
    "Options:" and every usage error speak the run's language. Only modules already imported are touched."""
    for name, module in list(sys.modules.items()):
        if name != "click" and not name.startswith("click."):
            continue
        if getattr(module, "_", None) in (gettext.gettext, _):
            module._ = _  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) in (gettext.ngettext, ngettext):
            module.ngettext = ngettext  # type: ignore[attr-defined]


# and now, for the Click modules loaded already: its decorators translate their default help at import
# (version_option), which gettext would look for in the system's catalogs (importing locale, 1 ms of start-up)
_install_in_click()


# --- choosing the language ------------------------------------------------------------------------------

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX precedence


def choose_language(asked: str | None, environ: Mapping[str, str]) -> tuple[str, str]:
    """The run's language and why: --lang, then HHD_LANG, then the locale (LC_ALL, LC_MESSAGES, LANG),
    then English. A locale such as ru_RU.UTF-8 means ru; C, POSIX and languages hhd does not speak, English.
    A --lang or HHD_LANG hhd does not speak is passed over (Click then says what --lang accepts, in the
    language the rest chose)."""
    if asked and available(asked):
        return asked, "--lang"
    chosen = environ.get("HHD_LANG", "").strip()
    if chosen and available(chosen):  # one hhd does not speak (de) is passed over, as an unknown --lang
        return chosen, "HHD_LANG"
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:  # the first one set decides, as in setlocale(): LC_ALL=C means C even when LANG is ru
            lang = re.split(r"[_.@-]", value)[0].lower()
            return (lang if lang in LANGUAGES else "en"), variable
    return "en", "default"


def language_from_args(args: list[str]) -> str | None:
    """The value of the last --lang among the arguments (global or a command's), read before Click parses them,
    so that --help and usage errors are already in that language."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


# --- numbers and dates ------------------------------------------------------------------------------------


def format_decimal(number: float, digits: int = 1) -> str:
    """A number with `digits` decimals in the run's language (Babel's CLDR data: 1,5 in Russian)."""
    if _language == "en" or not _language.isalpha():
        return f"{number:.{digits}f}"
    from babel.numbers import format_decimal as babel_decimal

    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return babel_decimal(number, format=pattern, locale=_babel_locale())


def format_date(day: date, lang: str | None = None) -> str:
    """A date as `lang` (default: the run's language) writes it: ISO in English, as it always was; in Russian
    Babel's CLDR long form (1 декабря 2026 г.)."""
    lang = lang or _language
    if lang not in LANGUAGES or lang == "en":
        return day.isoformat()
    from babel.dates import format_date as babel_date

    return babel_date(day, format="long", locale=lang)


def _babel_locale() -> str:
    return _language if _language in LANGUAGES else "en"
