"""Bring the "hhd" message catalogs (hhdcli/locale/LANG/LC_MESSAGES/hhd.po) up to date with the code, and
compile every catalog (hhd.po and the table page's table.po) into the .mo hhd reads.

    python scripts/update_catalog.py           # add new msgids (untranslated), drop gone ones; compile
    python scripts/update_catalog.py --check   # exit 1 and list the differences, changing nothing

The msgids are what `pybabel extract -F babel.cfg -k N_` finds in the Python sources and the check/checklist
templates, plus two kinds pybabel cannot see: the Click commands' help (their docstrings, translated when
shown) and Click's own texts ("Usage:", "Options:", usage errors), extracted from the installed Click, which
calls gettext for them (hhdcli.i18n hands Click our catalog).

hhd reads the compiled catalogs (the standard library's gettext, no Babel at start-up), committed beside
their .po so that a clone or a wheel needs no build step: each .mo is Babel's compilation of its .po
(untranslated and fuzzy messages left out, so that they show in English), and --check (run by
tests/test_i18n.py) fails when one is not.
"""

from __future__ import annotations

import gettext
import inspect
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "hhdcli" / "locale"
LANGS = ("ru",)
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}

GLOSSARY = """\
Russian messages of hhd (the "hhd" domain; the table page has its own, table.po).
Update with: python scripts/update_catalog.py (tests/test_i18n.py checks it is current and complete).

Glossary: the terms of the format's rules (docs/hells-half-draft-rules.ru.txt, hhdcli/templates/rules_body):
  Hell's Half-Draft        Адский полудрафт
  Hell library             Адская библиотека          Hell card      Адская карта
  the take rule            правило взятия             take           взять (verdict)
  choice                   выбор (verdict)            land           земля (verdict)
  sideboard (shared)       (общий) сайдборд           opening hand   стартовая рука
  mulligan                 муллиган                   draw step      шаг взятия карты
  seed                     сид                        red sleeves    красные протекторы
  proxy                    прокси                     checklist      опись
  card data                данные карт                registry       реестр
  Purple (the color)       пурпурный                  Nebula         Туманность (Nebula)
  Plains/Island/Swamp/Mountain/Forest   Равнина/Остров/Болото/Гора/Лес
  White/Blue/Black/Red/Green            белый/синий/чёрный/красный/зелёный
  multicolor / colorless   многоцветный / бесцветный  mana value     мана-стоимость
  token                    фишка (фишки)              emblem         эмблема
Card names, rules text, commands, options, file names and JSON keys stay as they are.
Quotes are «ёлочки»; a name is never inflected (phrasing with a colon or «карта …» needs no gender).
Plural forms: CLDR (Babel) for ru: one (1, 21), few (2–4, 22–24), many (0, 5–20, 11–14)."""


def _click_help(command, seen: list[str]) -> None:
    """The help of every command (a docstring, cleaned as Click shows it)."""
    if command.help:
        seen.append(inspect.cleandoc(command.help))
    for sub in getattr(command, "commands", {}).values():
        _click_help(sub, seen)


def template() -> Catalog:
    """Every msgid of the domain, with where it comes from."""
    catalog = Catalog(domain="hhd", project="hhd", fuzzy=False)
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    for path, line, message, comments, _context in extract_from_dir(ROOT, method_map, options_map, KEYWORDS,
                                                                     comment_tags=("TRANSLATORS:",)):
        catalog.add(message, locations=[(path, line)], auto_comments=comments)
    import click

    click_dir = Path(click.__file__).parent
    for path in sorted(click_dir.glob("*.py")):
        for line, message, _comments, _context in extract_from_file("python", path, keywords=KEYWORDS):
            catalog.add(message, locations=[(f"click/{path.name}", line)])
    sys.path.insert(0, str(ROOT))
    from hhdcli.cli import cli

    docstrings: list[str] = []
    _click_help(cli, docstrings)
    for text in docstrings:
        catalog.add(text, locations=[("hhdcli/cli.py", 0)])
    return catalog


def _msgids(catalog: Catalog) -> set:
    return {m.id for m in catalog if m.id}


def compiled(po: Path) -> bytes:
    """The .mo of a .po file, as Babel compiles it (its language is the folder's name: LANG/LC_MESSAGES/)."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def messages(mo: bytes) -> dict:
    """What a .mo says, as the standard library reads it: every message, and the header but for when and by
    which Babel it was compiled (a .po without a POT-Creation-Date gets the time of compiling)."""
    catalog = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]
    catalog[""] = re.sub(r"(?m)^(?:Generated-By|POT-Creation-Date):.*\n", "", catalog.get("", ""))
    return catalog


def compile_all(check: bool = False) -> list[str]:
    """Every catalog's .mo written from its .po (or, with `check`, the ones that are not)."""
    stale = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        fresh = compiled(po)
        if mo.exists() and messages(mo.read_bytes()) == messages(fresh):
            continue
        stale.append(f"{mo.name} [{po.parent.parent.name}]: not the compiled {po.name}")
        if not check:
            mo.write_bytes(fresh)
    return stale


def update(check: bool = False) -> list[str]:
    """The differences between the catalogs and the code (and, unless `check`, the catalogs brought up to date)."""
    wanted = template()
    problems = []
    for lang in LANGS:
        path = LOCALE / lang / "LC_MESSAGES" / "hhd.po"
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=lang, domain="hhd")
        else:
            catalog = Catalog(locale=lang, domain="hhd", project="hhd")
        have, need = _msgids(catalog), _msgids(wanted)
        problems += [f"{path.name} [{lang}]: missing {m!r}" for m in sorted(need - have, key=str)]
        problems += [f"{path.name} [{lang}]: no longer used {m!r}" for m in sorted(have - need, key=str)]
        if check:
            continue
        created = catalog.creation_date  # kept: a date that changes on every run would conflict in every merge
        catalog.update(wanted, no_fuzzy_matching=True, update_header_comment=False)
        catalog.creation_date = created
        catalog.obsolete.clear()
        catalog.fuzzy = False  # the header: a catalog in use is no draft
        catalog.header_comment = "\n".join("# " + line if line else "#" for line in GLOSSARY.splitlines())
        catalog.project, catalog.version = "hhd", ""
        catalog.msgid_bugs_address = ""
        catalog.copyright_holder = ""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, include_lineno=False, omit_header=False, sort_output=True)
    return problems + compile_all(check)


if __name__ == "__main__":
    check = "--check" in sys.argv
    found = update(check)
    for problem in found:
        print(problem)
    sys.exit(1 if check and found else 0)
