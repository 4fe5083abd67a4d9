"""Bring hhd's two message catalogs up to date with the code, and compile them into the .mo hhd reads: "hhd"
(hhdcli/locale/LANG/LC_MESSAGES/hhd.po: the CLI, its documents, the terminal's lines) and "table" (table.po:
the table's game, page, API and front page).

    python scripts/update_catalog.py           # add new msgids (untranslated), drop gone ones; compile
    python scripts/update_catalog.py --check   # exit 1 and list the differences, changing nothing

One extraction for both: babel.cfg says which files hold which domain's messages, by folder, and how each is
read (pybabel's extractors for Python and Jinja, with each section's keywords); this script adds what pybabel
cannot see. For hhd: the Click commands' help (their docstrings, translated when shown) and Click's own texts
("Usage:", "Options:", usage errors), extracted from the installed Click, which calls gettext for them
(hhdcli.i18n hands Click our catalog). For the table: the page's scripts' T("…") and P("…", "…", n), read by
the one reader the page's bootstrap uses (hhdcli/table/web/page.py's script_messages), and the take rule's
verdicts and reminders the page shows (hhdcli/table/game/views.py). tests/test_i18n.py runs --check; the
table's tests read the table's messages from `extracted` here.

An existing .po keeps its entries in their order (new ones at its end, gone ones dropped), so a merge of two
branches that each added messages stays a merge of two appended blocks.

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
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import (
    DEFAULT_KEYWORDS,
    extract_from_dir,
    extract_from_file,
    extract_python,
)
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

TABLE_GLOSSARY = """\
Russian messages of the Hell table (hhd table): its page, its API's answers and refusals,
in the terms of the format's rules. Names are not declined and no sentence needs a name's gender:
"{player}: …" or the present tense ("{player} берёт")."""


DOMAINS = ("hhd", "table")
GLOSSARIES = {"hhd": GLOSSARY, "table": TABLE_GLOSSARY}
# hhd.po says where each message is (#: file); table.po never did, and a new column of them would be all its diff
LOCATIONS = {"hhd": True, "table": False}
GETTEXT_CALLED = re.compile(rb"\bgettext\(\)\(")
# a message that is one field alone ("{reason}": words said, and translated, where they were made) has no words
FIELD_ALONE = re.compile(r"\{\w+\}")


def table_python(fileobj: Any, keywords: Any, comment_tags: Any, options: dict[str, Any]) -> Iterator[Any]:
    """Babel's Python extractor, which also reads `gettext()("…")` (the table's routes call the asker's
    language's gettext at once: read as gettext("…"), on the same line) and, for the calls babel.cfg names in
    `second_message`, a message in the second argument too (a refusal's hint: Refused(message, hint, …))."""
    second = set(options.get("second_message", "").split())
    source = io.BytesIO(GETTEXT_CALLED.sub(b"gettext(", fileobj.read()))
    for lineno, funcname, messages, comments in extract_python(source, keywords, comment_tags, options):
        yield lineno, funcname, messages, comments
        if funcname in second and isinstance(messages, tuple | list) and len(messages) > 1 and messages[1]:
            yield lineno, funcname, [messages[1]], comments


EXTRACTORS: dict[str, Callable[..., Iterator[Any]]] = {"table_python": table_python}  # babel.cfg's own methods


def mapping(domain: str) -> tuple[list[tuple[str, Any]], dict[str, dict[str, Any]]]:
    """babel.cfg for one domain: the other domain's sections read nothing, so that a file is the first matching
    section's whichever domain is extracted."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    return [(pattern, EXTRACTORS.get(method, method) if options_map[pattern].get("domain") == domain else "ignore")
            for pattern, method in method_map], options_map


def _click_help(command, seen: list[str]) -> None:
    """The help of every command (a docstring, cleaned as Click shows it)."""
    if command.help:
        seen.append(inspect.cleandoc(command.help))
    for sub in getattr(command, "commands", {}).values():
        _click_help(sub, seen)


def click_messages() -> Iterator[tuple[str, str]]:
    """What hhd's catalog holds that pybabel cannot see in hhd: Click's own texts, and every command's help."""
    import click

    click_dir = Path(click.__file__).parent
    for path in sorted(click_dir.glob("*.py")):
        for _line, message, _comments, _context in extract_from_file("python", path, keywords=KEYWORDS):
            yield message, f"click/{path.name}"
    from hhdcli.cli import cli

    docstrings: list[str] = []
    _click_help(cli, docstrings)
    for text in docstrings:
        yield text, "hhdcli/cli.py"


def page_messages() -> Iterator[tuple[Any, str]]:
    """What the table's catalog holds that pybabel cannot see in the table's Python: the page's scripts'
    messages (the reader the page's bootstrap uses), and the take rule's verdicts and reminders the page shows."""
    from hhdcli.table.game.views import REMINDER_MESSAGES, VERDICTS
    from hhdcli.table.web.page import script_messages

    singles, plurals = script_messages()
    for message in (*singles, *plurals):
        yield message, "hhdcli/table/web/static"
    for message in (*VERDICTS, *REMINDER_MESSAGES):
        yield message, "hhdcli/table/game/views.py"


UNSEEN: dict[str, Callable[[], Iterable[tuple[Any, str]]]] = {"hhd": click_messages, "table": page_messages}


def in_package(path: str) -> bool:
    """The folders the walk goes into: hhdcli's (babel.cfg names no file elsewhere), but hidden or __pycache__."""
    parts = Path(path).relative_to(ROOT).parts
    return parts[:1] in ((), ("hhdcli",)) and not any(part.startswith((".", "_")) for part in parts)


def extracted(domain: str) -> Catalog:
    """Every msgid of `domain`, with where it comes from (a path relative to the checkout)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    catalog = Catalog(domain=domain, project="hhd", fuzzy=False)
    method_map, options_map = mapping(domain)
    for path, line, message, comments, _context in extract_from_dir(ROOT, method_map, options_map, KEYWORDS,
                                                                     comment_tags=("TRANSLATORS:",),
                                                                     directory_filter=in_package):
        if not FIELD_ALONE.fullmatch(message if isinstance(message, str) else message[0]):
            catalog.add(message, locations=[(path, line)], auto_comments=comments)
    for message, path in UNSEEN[domain]():
        catalog.add(message, locations=[(path, 0)])
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


def compile_all(check: bool = False, locale: Path = LOCALE) -> list[str]:
    """Every catalog's .mo written from its .po (or, with `check`, the ones that are not)."""
    stale = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        fresh = compiled(po)
        if mo.exists() and messages(mo.read_bytes()) == messages(fresh):
            continue
        stale.append(f"{mo.name} [{po.parent.parent.name}]: not the compiled {po.name}")
        if not check:
            mo.write_bytes(fresh)
    return stale


def merged(catalog: Catalog, wanted: Catalog) -> None:
    """`catalog` holding exactly `wanted`'s messages: its own kept in their order (their translations and where
    they now are), gone ones dropped, new ones (untranslated) at its end."""
    need, have = _msgids(wanted), _msgids(catalog)
    for message in list(catalog):
        if message.id and message.id not in need:
            del catalog[message.id]
    for message in wanted:
        if not message.id:
            continue
        if message.id in have:
            kept = catalog[message.id]
            kept.locations, kept.auto_comments = message.locations, message.auto_comments
        else:
            catalog.add(message.id, locations=message.locations, auto_comments=message.auto_comments)


def read_catalog(path: Path, lang: str, domain: str) -> Catalog:
    """A catalog as its .po has it, header and all; a new one for a language that has none yet."""
    if path.exists():
        with path.open("rb") as po:
            return read_po(po, locale=lang, domain=domain)
    return Catalog(locale=lang, domain=domain, project="hhd", version="", msgid_bugs_address="", copyright_holder="",
                   fuzzy=False)


def update(check: bool = False, domains: Iterable[str] = DOMAINS, locale: Path = LOCALE) -> list[str]:
    """The differences between the catalogs of `domains` (in `locale`/LANG/LC_MESSAGES/) and the code (and, unless
    `check`, the catalogs brought up to date), and every .mo that is not its .po compiled."""
    problems = []
    for domain in domains:
        wanted = extracted(domain)
        for lang in LANGS:
            path = locale / lang / "LC_MESSAGES" / f"{domain}.po"
            catalog = read_catalog(path, lang, domain)
            have, need = _msgids(catalog), _msgids(wanted)
            problems += [f"{path.name} [{lang}]: missing {m!r}" for m in sorted(need - have, key=str)]
            problems += [f"{path.name} [{lang}]: no longer used {m!r}" for m in sorted(have - need, key=str)]
            if check:
                continue
            merged(catalog, wanted)
            catalog.obsolete.clear()
            catalog.fuzzy = False  # the header: a catalog in use is no draft
            catalog.header_comment = "\n".join("# " + line if line else "#" for line in GLOSSARIES[domain].splitlines())
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as po:
                write_po(po, catalog, width=100, include_lineno=False, no_location=not LOCATIONS[domain],
                         omit_header=False, sort_output=False)
    return problems + compile_all(check, locale)


if __name__ == "__main__":
    check = "--check" in sys.argv
    found = update(check)
    for problem in found:
        print(problem)
    sys.exit(1 if check and found else 0)
