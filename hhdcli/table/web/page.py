"""The table's page in the asker's language: an HTML template with no script or style of its own, the static
stylesheet and ES modules (hhdcli/table/web/static/), and a JSON bootstrap the modules read: the catalog's messages
the scripts use (marked in them as T("…") and P("…", "…", n) and read out with Babel's JavaScript extractor, so
a new word cannot be left out of the catalog), the catalog's plural rule, the mana symbols drawn as styled
symbols, and every value of the rules the scripts compare with what the server sends: the names of the zones,
actions, ends, destinations, turn steps, counters, verdicts, opening hands, coins and moments, and the names of
the zones Hell cards create."""

from __future__ import annotations

import gettext
import re
from enum import StrEnum
from functools import lru_cache
from importlib.resources import files
from threading import Lock
from typing import Any

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

from hhdcli.mana import Take
from hhdcli.moments import Moment
from hhdcli.table.game.rules import (
    COMMANDER_KEY,
    Action,
    CardCounter,
    Coin,
    Destination,
    End,
    Opening,
    PlayerCounter,
    Step,
    Zone,
)
from hhdcli.table.game.session import Session
from hhdcli.table.game.views import REMINDER_MESSAGES, VERDICTS
from hhdcli.table.game.zones import made_zones
from hhdcli.table.web.i18n import plural_rule, translations

PAGE = "table.html.j2"
# what marks a message in the scripts (Babel's keyword spec: P's first two arguments are its singular and plural)
SCRIPT_KEYWORDS = {"T": None, "P": (1, 2)}
SYMBOL = re.compile(r"\{([^{}]{1,12})\}")


@lru_cache(maxsize=1)
def script_messages() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The messages and plural messages the page's scripts (every module in static/) use, as Babel's JavaScript
    extractor reads them: the page's bootstrap sends their words, and scripts/update_catalog.py puts them in the
    table's catalog."""
    from babel.messages.extract import extract

    singles: dict[str, None] = {}
    plurals: dict[tuple[str, str], None] = {}
    static = files("hhdcli") / "table" / "web" / "static"
    for script in sorted((s for s in static.iterdir() if s.name.endswith(".js")), key=lambda s: s.name):
        with script.open("rb") as source:
            for _line, message, _comments, _context in extract("javascript", source, SCRIPT_KEYWORDS):
                if isinstance(message, str):
                    singles[message] = None
                else:
                    plurals[(message[0], message[1])] = None
    return tuple(singles), tuple(plurals)


def form_samples(expression: str) -> tuple[int, ...]:
    """A number of each plural form, in order, to ask the catalog for the form itself (1, 2, 5 in Russian)."""
    rule = gettext.c2py(expression)
    firsts: dict[int, int] = {}
    for n in range(1, 200):
        firsts.setdefault(rule(n), n)
    return tuple(firsts[form] for form in sorted(firsts))


def page_messages(lang: str, catalog: gettext.NullTranslations | None = None, plural: str | None = None
                  ) -> dict[str, Any]:
    """The scripts' words in `lang` (or in `catalog`, whose plural rule is `plural`): plain messages, and each
    plural message's forms in the language's order."""
    catalog = catalog or translations(lang)
    singles, plurals = script_messages()
    words = {m: catalog.gettext(m) for m in (*singles, *REMINDER_MESSAGES, *VERDICTS)}
    samples = form_samples(plural or plural_rule(lang))
    forms = {s: [catalog.ngettext(s, p, n) for n in samples] for s, p in plurals}
    return {"T": words, "P": forms}


def symbol_styles(session: Session) -> dict[str, dict[str, str]]:
    """Each mana symbol the session's cards and the page's reminders name, as the page draws it: the background
    and letters hhd's HTML costs have (hhdcli/render/draw/symbols.py's cost_html), and its Phyrexian mark; a symbol
    the registry does not know ({+1}), boxed by its name."""
    from hhdcli.cards import card_text
    from hhdcli.render.draw.symbols import FILL, NOT_MANA_LABELS, css_background, css_color, glyph, label_text

    found = {"2"} | {s for card in session.cards.values() for s in SYMBOL.findall(card.mana_cost + card_text(card))}
    styles = {symbol: {"bg": css_color(FILL["C"]), "label": label, "phyrexian": ""}  # tap and untap, as the PDFs
              for symbol, label in NOT_MANA_LABELS.items() if symbol in found}
    for symbol in sorted(found - set(styles)):
        g = glyph(symbol, session.table)
        if g.unknown:  # boxed by its own name, as the drawn face and the PDFs show it (symbols.py's _draw_glyph)
            styles[symbol] = {"bg": "#fff", "label": symbol, "phyrexian": "", "unknown": "1"}
        else:
            styles[symbol] = {"bg": css_background(g), "label": label_text(g), "phyrexian": "1" if g.phyrexian else ""}
    return styles


def bootstrap(lang: str, symbols: dict[str, dict[str, str]], catalog: gettext.NullTranslations | None = None,
              plural: str | None = None, community: bool = False) -> dict[str, Any]:
    """What the page's scripts read from its JSON data island: everything the server knows that they need
    (`community`: the table is one of hhd serve's, whose page, not answered, speaks of a server, not a laptop)."""
    plural = plural or plural_rule(lang)
    return {"lang": lang, "messages": page_messages(lang, catalog, plural), "plural": plural, "community": community,
            "symbols": symbols, "actions": names(Action), "zones": names(Zone), "ends": names(End),
            "destinations": names(Destination), "steps": names(Step), "card_counters": names(CardCounter),
            "player_counters": names(PlayerCounter), "commander_key": COMMANDER_KEY, "verdicts": names(Take),
            "openings": names(Opening), "coins": names(Coin), "moments": names(Moment),
            "made_zones": {z.id: z.name(lang) for z in made_zones().values()},  # the zones cards create, named
            "step_order": [str(s) for s in Step]}  # the steps in a turn's order (the JSON's objects come sorted by key)


def names(members: type[StrEnum]) -> dict[str, str]:
    """An enum of the rules as the page's scripts read it: ZONES.BATTLEFIELD is "battlefield"."""
    return {m.name: m.value for m in members}


# The pages last made, for the whole server, by table (its state file), language and static address: a page is
# 55 KB (most of it the language's messages) and 5 ms to make, asked for once per phone and table; kept per table,
# 100 tables kept 5.6 MB of them for the whole evening. Locked: hhd table's tests serve it from threads.
@cached(LRUCache(maxsize=16), key=lambda session, lang, static, community=False:
        hashkey(session.path, lang, static, community), lock=Lock())
def page_html(session: Session, lang: str, static: str, community: bool = False) -> str:
    """The page in `lang`; `static` is the address its stylesheet and modules are served under; `community`: a
    table of hhd serve's."""
    from hhdcli.render.documents.templates import render

    catalog = translations(lang)
    return render(PAGE, seed=session.seed, lang=lang, _=catalog.gettext, static=static,
                  bootstrap=bootstrap(lang, symbol_styles(session), community=community))


def qr_svg(url: str) -> str:
    """A QR code as an SVG image (no raster library needed; scales sharp on a laptop's screen)."""
    import qrcode
    import qrcode.image.svg

    code = qrcode.QRCode(border=2, image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(url)
    return str(code.make_image().to_string(encoding="unicode"))
