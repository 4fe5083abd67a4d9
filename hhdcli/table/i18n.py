"""The Hell table page in the players' language: gettext message catalogs (hhdcli/locale/LANG/LC_MESSAGES/
table.po, compiled in memory with Babel when first used), chosen from ?lang=, the remembered choice, or the
browser's Accept-Language. Card names stay as printed."""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from importlib.resources import files

LANGUAGES = ("en", "ru")


@lru_cache(maxsize=len(LANGUAGES))
def translations(lang: str) -> gettext.NullTranslations:
    """The page's messages in `lang` (English, the messages themselves, when there is no catalog)."""
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = files("hhdcli") / "locale" / lang / "LC_MESSAGES" / "table.po"
    with source.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def choose_language(asked: str | None, remembered: str | None, accept_language: object) -> str:
    """?lang= first, then the choice the page remembered (a cookie), then the browser's preference."""
    for choice in (asked, remembered):
        if choice in LANGUAGES:
            return str(choice)
    best = getattr(accept_language, "best_match", lambda _options: None)(LANGUAGES)
    return str(best) if best in LANGUAGES else "en"


@lru_cache(maxsize=len(LANGUAGES))
def plural_expression(lang: str) -> str:
    """The catalog's plural rule, as its Plural-Forms header writes it (C: `n%10==1 && n%100!=11 ? 0 : …`);
    English, which has no catalog, by Babel's CLDR data."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    if lang == "en":
        return str(Catalog(locale="en").plural_expr)
    with (files("hhdcli") / "locale" / lang / "LC_MESSAGES" / "table.po").open("rb") as po:
        return str(read_po(po, locale=lang).plural_expr)
