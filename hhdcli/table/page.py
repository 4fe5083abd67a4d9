"""The table's page in the asker's language: the template with every word of its script translated on the
server (the script asks T("…") and P("…", "…", n); they are read out of the template once, so a new word cannot
be left out of the catalog), the plural rule of the language, and the mana symbols drawn as styled symbols."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from typing import Any

from hhdcli.table.i18n import translations
from hhdcli.table.session import Session
from hhdcli.table.views import REMINDERS, VERDICTS

PAGE = "table.html.j2"
_T = re.compile(r'\bT\("((?:[^"\\]|\\.)*)"\)')
_P = re.compile(r'\bP\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"')
# CLDR plural rules as the page's script evaluates them (n a whole number): which form of a message to use
PLURAL_RULES = {
    "en": "n == 1 ? 0 : 1",
    "ru": "n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2",
}
# a number of each form, in order, to ask the catalog for the form itself
FORM_SAMPLES = {"en": (1, 2), "ru": (1, 2, 5)}
SYMBOL = re.compile(r"\{([^{}]{1,12})\}")


@lru_cache(maxsize=1)
def script_messages() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The messages and plural messages the page's script uses, read from its template."""
    source = (files("hhdcli") / "templates" / PAGE).read_text(encoding="utf-8")
    unescape = lambda text: text.replace('\\"', '"')  # noqa: E731
    singles = tuple(dict.fromkeys(unescape(m) for m in _T.findall(source)))
    plurals = tuple(dict.fromkeys((unescape(s), unescape(p)) for s, p in _P.findall(source)))
    return singles, plurals


def page_messages(lang: str) -> dict[str, Any]:
    """The script's words in `lang`: plain messages, and each plural message's forms in the language's order."""
    catalog = translations(lang)
    singles, plurals = script_messages()
    words = {m: catalog.gettext(m) for m in (*singles, *REMINDERS.values(), *VERDICTS)}
    forms = {s: [catalog.ngettext(s, p, n) for n in FORM_SAMPLES[lang]] for s, p in plurals}
    return {"T": words, "P": forms}


def symbol_styles(session: Session) -> dict[str, dict[str, str]]:
    """Each mana symbol the session's cards and the page's reminders name, as the page draws it: the background
    and letters hhd's HTML costs have (hhdcli/render/symbols.py's cost_html), and its Phyrexian mark; a symbol
    the registry does not know ({+1}), boxed by its name."""
    from hhdcli.cards import card_text
    from hhdcli.render.symbols import FILL, NOT_MANA_LABELS, css_background, css_color, glyph, label_text

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


def page_html(session: Session, lang: str) -> str:
    from hhdcli.render.templates import render

    catalog = translations(lang)
    return render(PAGE, seed=session.seed, lang=lang, _=catalog.gettext, messages=page_messages(lang),
                  plural_rule=PLURAL_RULES[lang], symbols=symbol_styles(session))


def qr_svg(url: str) -> str:
    """A QR code as an SVG image (no raster library needed; scales sharp on a laptop's screen)."""
    import qrcode
    import qrcode.image.svg

    code = qrcode.QRCode(border=2, image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(url)
    return str(code.make_image().to_string(encoding="unicode"))
