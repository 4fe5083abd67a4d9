"""The Hell table page in the players' language: the "table" domain of hhd's catalogs
(hhdcli/locale/LANG/LC_MESSAGES/table.po, read compiled as hhdcli.i18n reads every catalog), the language
chosen by hhdcli.i18n.choose_language from ?lang=, the remembered choice, or the browser's Accept-Language.
Card names stay as printed."""

from __future__ import annotations

import gettext
from typing import Any

from hhdcli.i18n import LANGUAGES, N_, choose_language, plural_forms, translator

__all__ = ["DOMAIN", "HTTP_NAMES", "LANGUAGES", "asker_language", "choose_language", "plural_rule", "translations"]

DOMAIN = "table"
# The names Werkzeug gives the HTTP errors a table and its front page answer with (an exception's .name, said in
# the asker's language by routes.py and front.py): not literal where they are said, so marked here for the catalog
HTTP_NAMES = (N_("Bad Request"), N_("Not Found"), N_("Method Not Allowed"), N_("Request Entity Too Large"),
              N_("Unsupported Media Type"))


def translations(lang: str) -> gettext.NullTranslations:
    """The page's messages in `lang` (English, the messages themselves, when there is no catalog)."""
    return translator(lang, DOMAIN)


def plural_rule(lang: str) -> str:
    """The page's plural rule in `lang`: its catalog's Plural-Forms expression (hhdcli.i18n.plural_forms), for
    the page's script to evaluate as `Number(rule)` (a comparison is a boolean in JavaScript)."""
    return plural_forms(lang, DOMAIN)


def asker_language(environ: dict[str, Any]) -> str:
    """The language of a request a WSGI answer is written for outside Flask (the dispatcher's, the server's own):
    chosen as a table's page chooses it."""
    from werkzeug.wrappers import Request

    asker = Request(environ)
    return choose_language(asker.args.get("lang"), remembered=asker.cookies.get("hhd_lang"),
                           accept_language=asker.accept_languages)[0]
