"""hhd in the user's language: gettext message catalogs, one mechanism for every word hhd shows.

Every user-facing string goes through `_` (or `ngettext` where a number meets a noun); `N_` marks a string
for extraction where it is translated later (a module-level table, a Click help text, the rules sheet's prose,
a ruling's text: English in the code, translated when shown). The language is chosen once per run by
`set_language` (the CLI does it from --lang, HHD_LANG, the locale: `choose_language`); code that answers
several people at once (the table) asks `translator(lang, domain)` instead. Two domains: "hhd" (the CLI, its
documents, the rules sheet, the rulings) and "table" (the table page).

The catalogs are written as .po (hhdcli/locale/LANG/LC_MESSAGES/DOMAIN.po) and read compiled, as the .mo
beside each, by the standard library's GNUTranslations (`Catalog`, which decodes a message when it is first
asked for): start-up time. Opening hhd.mo so takes under a millisecond, where the standard library's reading of
every message took 4 and reading hhd.po with plain Python 10; it imports no Babel (which
formats Russian dates and numbers, and compiles the .mo in scripts/update_catalog.py; a test fails when a
committed .mo is not its .po compiled). The plural rule is the catalog's own Plural-Forms header
(written by Babel from CLDR), which `plural_forms` hands to the table page's script too.

HHD_LOCALE_DIR (for tests, not shown to users) adds a folder of compiled catalogs: the pseudo-locale `xx`.
"""

from __future__ import annotations

import gettext
import io  # loaded already: the standard streams are its objects
import os
import re
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datetime import date  # only for the annotation: importing datetime is a millisecond of every start

LANGUAGES = ("en", "ru")
DOMAIN = "hhd"
EXTRA_CATALOGS = "HHD_LOCALE_DIR"  # tests only: a folder with LANG/LC_MESSAGES/DOMAIN.mo for more languages
LOCALE_DIR = Path(__file__).parent / "locale"  # beside this module: importlib.resources costs ms of a start
ENGLISH_PLURAL = "n != 1"  # the messages themselves: one form for 1, the other for any other count
_language = "en"
_source = "default"  # what chose it: --lang, HHD_LANG, LC_ALL, LC_MESSAGES, LANG or default

_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")  # what may name a catalog folder: never a path or a long string


def catalog_path(lang: str, domain: str = DOMAIN, extra: str | None = None) -> Path | None:
    """The compiled catalog (.mo) of `lang` in `domain`: hhd's own, else one under HHD_LOCALE_DIR (`extra`)."""
    if not _LANGUAGE_CODE.fullmatch(lang):
        return None
    here = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    if lang in LANGUAGES and here.is_file():
        return here
    extra = extra if extra is not None else os.environ.get(EXTRA_CATALOGS)
    if extra:
        there = Path(extra) / lang / "LC_MESSAGES" / f"{domain}.mo"
        if there.is_file():
            return there
    return None


def available(lang: str) -> bool:
    """Whether `lang` can be chosen: English, Russian, or a test catalog under HHD_LOCALE_DIR."""
    return lang == "en" or catalog_path(lang) is not None


@lru_cache(maxsize=8)
def _load(lang: str, domain: str, where: str | None) -> gettext.NullTranslations:
    """`where` (HHD_LOCALE_DIR as the caller read it) is part of the cache key and the folder looked in.
    Untranslated and fuzzy messages are not in a .mo: they fall back to the English msgid."""
    path = catalog_path(lang, domain, where)
    if path is None:
        return gettext.NullTranslations()
    with path.open("rb") as compiled:
        return Catalog(compiled)


class Catalog(gettext.GNUTranslations):
    """The standard library's compiled catalog, its messages decoded when first asked for instead of all ~1,000 as
    it opens (4 ms of each Russian run, a twentieth of `hhd --help`): its header (charset, plural rule) is read
    by the standard library itself, the rest found through an index of the file's table of msgids."""

    _catalog: dict[Any, str]  # the standard library's, set by its _parse
    _charset: str | None

    def _parse(self, fp: IO[bytes]) -> None:  # type: ignore[override]  # the standard library's hook
        import struct

        buf = fp.read()
        magic, _version, count, originals, translations = struct.unpack_from("<5I", buf)
        if magic != self.LE_MAGIC:  # a big-endian file (no tool of ours writes one): read it all as before
            super()._parse(io.BytesIO(buf))
            return
        ids = struct.unpack_from(f"<{2 * count}I", buf, originals)  # each msgid's length and offset
        texts = struct.unpack_from(f"<{2 * count}I", buf, translations)
        header = [i for i in range(count) if ids[2 * i] == 0]
        length, offset = (texts[2 * header[0]], texts[2 * header[0] + 1]) if header else (0, 0)
        # a catalog of the header alone, which the standard library reads as it reads any: 44 bytes, the text, a NUL
        alone = struct.pack("<11I", self.LE_MAGIC, 0, 1, 28, 36, 0, 0, 0, 44, length, 44)
        super()._parse(io.BytesIO(alone + buf[offset:offset + length] + b"\0"))
        self._catalog = _Messages(self._catalog, buf, ids, texts, self._charset or "ascii")


class _Messages(dict[Any, str]):
    """A catalog's messages by msgid, as the standard library keeps them (a plural's forms by (msgid, form)),
    each decoded from the file's bytes the first time it is asked for."""

    def __init__(self, header: dict[Any, str], buf: bytes, ids: tuple[int, ...], texts: tuple[int, ...],
                 charset: str) -> None:
        super().__init__(header)
        self._buf, self._texts, self._charset = buf, texts, charset
        self._where: dict[bytes, tuple[int, bool]] = {}  # each entry's place and whether it is a plural
        for i in range(len(ids) // 2):
            msgid = buf[ids[2 * i + 1]:ids[2 * i + 1] + ids[2 * i]]
            if msgid:  # the header is read already
                singular, _, plural = msgid.partition(b"\0")  # a plural by its singular, as it is looked up
                self._where[singular] = i, bool(plural)

    def __missing__(self, key: Any) -> str:
        message, form = (key, None) if isinstance(key, str) else key
        i, plural = self._where.get(message.encode(self._charset, "replace"), (-1, False))
        if i < 0:
            raise KeyError(key)
        length, offset = self._texts[2 * i], self._texts[2 * i + 1]
        forms = self._buf[offset:offset + length].split(b"\0")
        if plural != (form is not None) or (form is not None and form >= len(forms)):
            raise KeyError(key)  # a plural asked as a plain message, or the other way round: not there
        self[key] = text = forms[form or 0].decode(self._charset)
        return text

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default


def translator(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalog of `lang` (English, the messages themselves, when there is none)."""
    if lang == "en":
        return gettext.NullTranslations()
    return _load(lang, domain, os.environ.get(EXTRA_CATALOGS))


def plural_forms(lang: str, domain: str = DOMAIN) -> str:
    """The plural rule of `lang`'s catalog: the C expression of its Plural-Forms header, which gives the index
    of a message's form for a count n ("n != 1" in English, which has no catalog). The table page's script
    evaluates it as JavaScript, where it means the same for a whole n, but for a comparison being a boolean:
    `Number(…)` makes it an index there."""
    header = translator(lang, domain).info().get("plural-forms", "")
    found = re.search(r"plural=\s*([^;]+?)\s*(?:;|$)", header)
    return found.group(1) if found else ENGLISH_PLURAL


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


def choose_language(asked: str | None, environ: Mapping[str, str] | None = None, *, remembered: str | None = None,
                    accept_language: object = None) -> tuple[str, str]:
    """The language and what chose it, for the CLI (a run) and the table page (a request) alike: the one asked
    for (--lang; the page's ?lang=), the one remembered (the page's cookie), HHD_LANG, the locale (LC_ALL,
    LC_MESSAGES, LANG), the browser's Accept-Language, else English. A locale such as ru_RU.UTF-8 means ru; C,
    POSIX and languages hhd does not speak, English. An asked, remembered or HHD_LANG language hhd does not
    speak is passed over (Click then says what --lang accepts, in the language the rest chose)."""
    environ = environ or {}
    for value, source in ((asked, "--lang"), (remembered, "remembered"), (environ.get("HHD_LANG"), "HHD_LANG")):
        chosen = (value or "").strip()
        if chosen and available(chosen):
            return chosen, source
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:  # the first one set decides, as in setlocale(): LC_ALL=C means C even when LANG is ru
            lang = re.split(r"[_.@-]", value)[0].lower()
            return (lang if lang in LANGUAGES else "en"), variable
    # werkzeug's parsed Accept-Language header: the best of hhd's languages by the browser's weights
    best = getattr(accept_language, "best_match", lambda _options: None)(LANGUAGES)
    if best in LANGUAGES:
        return str(best), "Accept-Language"
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
