"""hhd speaks the user's language: one choice per run, every message and document from the catalogs.

The key check is a pseudo-locale: a language `xx` made at test time from the catalogs themselves (every
msgid wrapped in ⁅…⁆ and lengthened by a third), selected with HHD_LANG=xx and a test-only catalog folder
(HHD_LOCALE_DIR). Every command and document is run in it; a word outside the marks that is not card data,
a path, a number, an option or a metavar is a string that did not go through the catalog."""

from __future__ import annotations

import dataclasses
import gettext
import gzip
import io
import json
import re
import runpy
import shutil
import string
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.plural import PluralRule
from click.testing import CliRunner
from pypdf import PdfReader

from hhdcli import i18n
from hhdcli.cli import cli
from hhdcli.i18n import LANGUAGES, choose_language, language_from_args, translator
from support import LEGACY, PIPS, ROOT, code_messages

LOCALE = ROOT / "hhdcli" / "locale"
DOMAINS = ("hhd", "table")
OPEN, CLOSE = "⁅", "⁆"  # marks the bundled DejaVu font can print, so that PDFs keep them
PLURAL_SAMPLES = (0, 1, 2, 5, 11, 21, 22)


# --- the catalogs ----------------------------------------------------------------------------------------


def _catalog(domain: str, lang: str = "ru"):
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


def _fields(text: str) -> set[str]:
    """The placeholders of a message: {name} fields (str.format) and %(name)s (Click's own)."""
    names = {field.split("!")[0].split(":")[0].split(".")[0].split("[")[0]
             for _literal, field, _spec, _conv in string.Formatter().parse(text) if field is not None}
    return names | set(re.findall(r"%\((\w+)\)", text))


def _forms(message) -> list[str]:
    return list(message.string) if isinstance(message.id, tuple) else [message.string]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_russian_translation_that_is_not_fuzzy(domain):
    catalog = _catalog(domain)
    assert not catalog.fuzzy, "the catalog's header is marked fuzzy"
    untranslated = [m.id for m in catalog if m.id and not all(_forms(m))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_every_placeholder(domain):
    wrong = []
    for message in _catalog(domain):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*map(_fields, ids))
        for form in _forms(message):
            # a plural form may leave out the count (Russian "одно" for 1), never add or rename one
            if not _fields(form) <= wanted or (_fields(form) | {"n", "num", "count", "len"}) < wanted:
                wrong.append((message.id, form))
    assert wrong == []


def test_russian_plural_forms_follow_cldr():
    """The catalog's Plural-Forms picks CLDR's form for every count: 1 карта, 2 карты, 5 карт, 11 карт,
    21 карта, 22 карты, 0 карт — checked against Babel's CLDR rule, then on real messages of both kinds."""
    rule = PluralRule.parse({"one": "n % 10 = 1 and n % 100 != 11",
                             "few": "n % 10 = 2..4 and n % 100 != 12..14"})
    from babel import Locale

    cldr = Locale("ru").plural_form
    order = ["one", "few", "many"]
    catalog = translator("ru")
    for n in (*PLURAL_SAMPLES, 3, 4, 12, 14, 100, 101, 111, 1001):
        assert catalog.plural(n) == order.index(cldr(n)) == order.index(rule(n) if rule(n) != "other" else "many")
    said = {n: catalog.ngettext("{n} card", "{n} cards", n).format(n=n) for n in PLURAL_SAMPLES}
    assert said == {0: "0 карт", 1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта",
                    22: "22 карты"}
    groups = [catalog.ngettext("{n} group", "{n} groups", n).format(n=n) for n in PLURAL_SAMPLES]
    assert groups == ["0 групп", "1 группа", "2 группы", "5 групп", "11 групп", "21 группа", "22 группы"]


def test_every_plural_message_has_three_russian_forms_and_english_has_two():
    catalog = _catalog("hhd")
    for message in catalog:
        if isinstance(message.id, tuple):
            assert len(message.string) == 3, message.id
    english = translator("en")
    assert [english.ngettext("{n} proxy", "{n} proxies", n).format(n=n) for n in (1, 2, 21)] == \
        ["1 proxy", "2 proxies", "21 proxies"]


def catalog_script() -> dict:
    return runpy.run_path(str(ROOT / "scripts" / "update_catalog.py"))


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalog_holds_exactly_the_messages_of_the_code(domain):
    """scripts/update_catalog.py --check, for each catalog: one extraction (babel.cfg's folders and keywords, plus
    what pybabel cannot see: Click's own texts and the commands' help for hhd, the page's scripts and the take
    rule's words for the table) against hhd.po or table.po (a string added to the code and not to its catalog, or
    left in a catalog when the code dropped it, fails here)."""
    assert catalog_script()["update"](check=True, domains=(domain,)) == []


def test_one_extraction_puts_each_message_in_the_catalog_of_its_folder():
    """babel.cfg, by folder: the table's game, web and front page (with their refusals, the routes'
    gettext()("…"), a refusal's hint, the templates, the page's T() and P(), the log's words, the take rule's
    verdicts and the HTTP errors' names) are table.po's; the terminal's lines of hhd table and hhd serve
    (hosting/serve.py, online.py, opening.py) and the CLI's are hhd.po's."""
    hhd, table = code_messages("hhd"), code_messages("table")
    where = {
        "the Hell library is empty: the rules forbid drawing from it": "hhdcli/table/game/rules.py",
        "requests from another site are refused": "hhdcli/table/web/routes.py",  # gettext()("…")
        "paste the deck list as text": "hhdcli/table/hosting/community.py",  # Refused's hint
        "too many requests from your address: try again in {seconds} s": "hhdcli/table/hosting/throttle.py",
        "Open a table": "hhdcli/templates/serve-front.html.j2",
        "Draw from Hell": "hhdcli/templates/table.html.j2",
        "connected": "hhdcli/table/web/static",  # T("…")
        "draw": "hhdcli/table/game/rules.py",  # Action.DRAW, the log's word
        "choice": "hhdcli/table/game/views.py",  # a verdict the page names
        "Bad Request": "hhdcli/table/web/i18n.py",
    }
    for message, path in where.items():
        assert message in table and path in {p for p, _line in table[message].locations}, message
    assert table["{count} card"].id == ("{count} card", "{count} cards")  # P("…", "…", n): a plural
    for message in ("cannot keep tables in {folder}: {reason}", "--public-url {url} is not the address of a host",
                    "Usage:"):
        assert message in hhd and message not in table, message
    assert "requests from another site are refused" not in hhd and "{reason}" not in table  # a field alone: no words


def test_the_catalog_script_lists_what_is_missing_or_unused_and_keeps_the_order_of_the_rest(tmp_path):
    """--check names a message the code has and the catalog lacks, and one the catalog has and no code uses,
    changing nothing; the update then adds the first (untranslated) at the end of the .po and drops the other,
    every other entry where it was, and compiles the .mo anew."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    po = locale / "ru" / "LC_MESSAGES" / "table.po"
    text = po.read_text(encoding="utf-8")
    dropped = 'msgid "requests from another site are refused"\nmsgstr "'
    at = text.index(dropped)
    cut = text[at:text.index("\n\n", at) + 2]
    po.write_text(text.replace(cut, "") + '\nmsgid "a word no code says"\nmsgstr "слово"\n', encoding="utf-8")
    before = po.read_bytes()
    update = catalog_script()["update"]
    assert update(check=True, domains=("table",), locale=locale) == [
        "table.po [ru]: missing 'requests from another site are refused'",
        "table.po [ru]: no longer used 'a word no code says'", "table.mo [ru]: not the compiled table.po"]
    assert po.read_bytes() == before
    update(domains=("table",), locale=locale)
    after = po.read_text(encoding="utf-8")
    assert after.rstrip().endswith('msgid "requests from another site are refused"\nmsgstr ""')
    assert "a word no code says" not in after
    ids = re.findall(r'(?m)^msgid "(.+)"$', text)
    assert re.findall(r'(?m)^msgid "(.+)"$', after)[:-1] == [m for m in ids if m != "requests from another site are refused"]
    assert update(check=True, domains=("table",), locale=locale) == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_committed_mo_is_its_po_compiled_by_babel(domain):
    """hhd reads the compiled catalog (.mo), committed beside its .po: the .po compiled here by Babel says the
    very same messages and plural rule (a .po edited without `python scripts/update_catalog.py` fails here)."""
    with (LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        catalog = read_po(po, locale="ru", domain=domain)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    compiled = gettext.GNUTranslations(fresh)
    with (LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.mo").open("rb") as mo:
        shipped = gettext.GNUTranslations(mo)
    without_version = {"generated-by": None, "pot-creation-date": None}  # when, and by which Babel
    assert shipped._catalog.keys() == compiled._catalog.keys()
    assert {k: v for k, v in shipped._catalog.items() if k} == {k: v for k, v in compiled._catalog.items() if k}
    assert shipped.info() | without_version == compiled.info() | without_version
    assert [shipped.plural(n) for n in range(200)] == [compiled.plural(n) for n in range(200)]
    assert translator("ru", domain).info() == shipped.info()  # and it is the catalog hhd reads


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_catalog_decoding_its_messages_when_asked_says_what_the_standard_library_says(domain):
    """hhd's Catalog reads a message when it is first asked for: every message, every plural form for counts
    0 to 200, its header and plural rule are the standard library's, and a message it lacks falls back alike."""
    from hhdcli.i18n import Catalog

    path = LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.mo"
    with path.open("rb") as whole, path.open("rb") as lazy_file:
        full, lazy = gettext.GNUTranslations(whole), Catalog(lazy_file)
    assert lazy.info() == full.info() and lazy.info()["plural-forms"]
    singulars = {key[0] for key in full._catalog if isinstance(key, tuple)}
    plain = [key for key in full._catalog if isinstance(key, str)]
    assert len(plain) > 100 and singulars
    assert [lazy.gettext(m) for m in plain] == [full.gettext(m) for m in plain]
    assert all(lazy.ngettext(m, m + "s", n) == full.ngettext(m, m + "s", n) for m in singulars for n in range(201))
    for absent in ("no such message", "{n} no such thing"):
        assert lazy.gettext(absent) == absent and lazy.ngettext(absent, absent + "s", 5) == absent + "s"
    assert lazy.gettext(next(iter(singulars))) == full.gettext(next(iter(singulars)))  # a plural asked plainly


def test_a_ruling_and_the_rules_sheet_have_one_text_each_translated_by_the_catalog():
    """Every ruling (its text, its proxy line and its name) and every heading and paragraph of the rules sheet is written
    once, in English, and is a msgid of hhd.po: Russian comes from the catalog, as any message's."""
    from hhdcli.render.texts import EXAMPLE_INTRO, EXAMPLES, RULES, rules_sections
    from hhdcli.rulings import RULINGS, Ruling

    assert [f.name for f in dataclasses.fields(Ruling)] == ["id", "en", "patterns", "short", "unless", "title"]
    english = [text for r in RULINGS for text in (r.en, r.short, r.title)]
    english += [text for section in RULES for text in (section.heading, *section.paragraphs)]
    english += [EXAMPLE_INTRO, *(text for e in EXAMPLES for text in (e.verdict, e.why))]
    catalog = _catalog("hhd")
    assert [text for text in english if not (catalog.get(text) and catalog.get(text).string)] == []
    russian = translator("ru")
    assert [r.text("ru") for r in RULINGS] == [russian.gettext(r.en) for r in RULINGS]
    assert rules_sections("en") == RULES and rules_sections("ru")[0].heading == "Адская библиотека"


def test_a_message_untranslated_or_fuzzy_in_a_po_shows_in_english(tmp_path, monkeypatch):
    """The compile step (scripts/update_catalog.py's, Babel's) leaves out what is not ready to be read."""
    compiled = runpy.run_path(str(ROOT / "scripts" / "update_catalog.py"))["compiled"]
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "hhd.po"
    po.write_text('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  'msgid "Seed"\nmsgstr "Zaad"\n\n#, fuzzy\nmsgid "Date"\nmsgstr "Datum"\n\n'
                  'msgid "Total"\nmsgstr ""\n', encoding="utf-8")
    (folder / "hhd.mo").write_bytes(compiled(po))
    monkeypatch.setenv(i18n.EXTRA_CATALOGS, str(tmp_path))
    catalog = translator("xx")
    assert [catalog.gettext(m) for m in ("Seed", "Date", "Total")] == ["Zaad", "Date", "Total"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_plural_rule_for_the_page_is_the_catalogs_own(domain):
    """plural_forms: the Plural-Forms expression of the catalog (what the table page's script evaluates), which
    picks CLDR's Russian form for every count; English, which has no catalog, says one for 1."""
    from babel import Locale

    rule = i18n.plural_forms("ru", domain)
    catalog = translator("ru", domain)
    cldr = Locale("ru").plural_form
    picks = gettext.c2py(rule)
    assert [picks(n) for n in range(300)] == [catalog.plural(n) for n in range(300)] == \
        [["one", "few", "many"].index(cldr(n)) for n in range(300)]
    assert i18n.plural_forms("en", domain) == "n != 1"
    assert [gettext.c2py(i18n.plural_forms("en", domain))(n) for n in (0, 1, 2)] == [1, 0, 1]


def test_the_plural_rule_picks_the_same_form_as_javascript_in_chromium(browser):
    """The table page's script evaluates plural_forms' expression (as `Number(rule)`, a comparison being a
    boolean there): Chromium picks, for every count, the form the catalog picks (English: one for 1 alone)."""
    for lang in LANGUAGES:
        for domain in DOMAINS:
            rule = i18n.plural_forms(lang, domain)
            picked = browser.execute_script(f"return Array.from({{length: 300}}, (_, n) => Number({rule}));")
            catalog = translator(lang, domain)
            expected = [catalog.plural(n) if lang != "en" else int(n != 1) for n in range(300)]
            assert picked == expected, (lang, domain, rule)


def test_russian_uses_the_rules_sheets_terms_and_guillemets():
    catalog = translator("ru")
    assert catalog.gettext("Hell library checklist") == "Опись Адской библиотеки"
    from hhdcli.export import RULES_NOTE

    notecard = catalog.gettext(RULES_NOTE)
    assert "Адской библиотеки" in notecard and "общего сайдборда" in notecard and "пурпурный" in notecard
    assert catalog.gettext("Nebula") == "Туманность" and catalog.gettext("Purple") == "Пурпурные"
    from hhdcli.render.texts import rules_sections

    sheet = " ".join(p for section in rules_sections("ru") for p in (section.heading, *section.paragraphs))
    assert all(term in sheet for term in ("Адская библиотека", "сайдборд", "Туманность", "правило взятия"))
    assert catalog.gettext("No such option {name!r}.") == "Нет такого параметра: «{name}»."
    english_quotes = [m.id for m in _catalog("hhd") if m.id and any("'" in f or '"' in f for f in _forms(m))
                      and not any(re.search(r"--\w|\{\"|\bhhd\b|`|\"\w+\": ", f) for f in _forms(m))]
    assert english_quotes == []  # quotes in Russian prose are «ёлочки»


def test_the_russian_rules_sheet_and_rulings_call_purple_by_the_glossarys_one_name():
    """The glossary's Purple is «пурпурный»: the checklist's group, the notecard and the rules sheet say it, so
    the sheet's take rule and Nebula line, and the rulings' list of colors, do not switch to «фиолетовый»."""
    from hhdcli.render.texts import rules_sections
    from hhdcli.rulings import RULINGS

    texts = [p for section in rules_sections("ru") for p in (section.heading, *section.paragraphs)]
    texts += [text for r in RULINGS for text in (r.text("ru"), r.short_text("ru"))]
    assert not [t for t in texts if "фиолетов" in t.lower()]
    assert sum("пурпурн" in t.lower() for t in texts) >= 3


# --- choosing the language ------------------------------------------------------------------------------


@pytest.mark.parametrize(("asked", "environ", "expected"), [
    (None, {}, ("en", "default")),
    (None, {"LANG": "ru_RU.UTF-8"}, ("ru", "LANG")),
    (None, {"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, ("en", "LC_MESSAGES")),
    (None, {"LANG": "ru_RU.UTF-8", "LC_ALL": "C"}, ("en", "LC_ALL")),
    (None, {"LANG": "de_DE.UTF-8"}, ("en", "LANG")),
    (None, {"LANG": "en_US.UTF-8", "HHD_LANG": "ru"}, ("ru", "HHD_LANG")),
    ("en", {"HHD_LANG": "ru", "LC_ALL": "ru_RU.UTF-8"}, ("en", "--lang")),
    ("de", {"HHD_LANG": "fr", "LANG": "ru_RU.UTF-8"}, ("ru", "LANG")),  # unknown choices are passed over
])
def test_the_language_comes_from_lang_then_hhd_lang_then_the_locale(asked, environ, expected):
    assert choose_language(asked, environ) == expected


@pytest.mark.parametrize(("asked", "remembered", "header", "expected"), [
    (None, None, "", ("en", "default")),
    (None, None, "ru-RU,ru;q=0.9,en;q=0.5", ("ru", "Accept-Language")),
    (None, None, "de-DE,de;q=0.9", ("en", "default")),
    (None, "ru", "en-US,en", ("ru", "remembered")),
    ("en", "ru", "ru", ("en", "--lang")),
    ("de", "xx", "fr;q=0.9,ru;q=0.5", ("ru", "Accept-Language")),  # unknown choices are passed over
])
def test_the_table_page_chooses_by_the_same_rule_from_lang_the_cookie_then_the_browser(asked, remembered, header,
                                                                                          expected):
    """One choose_language for a run and a request: the page's ?lang=, its remembered choice, then the browser's
    Accept-Language as werkzeug parses it (the server's own locale plays no part)."""
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    accept = parse_accept_header(header, LanguageAccept)
    assert choose_language(asked, remembered=remembered, accept_language=accept) == expected


def test_lang_is_read_anywhere_on_the_command_line_before_click_parses_it():
    assert language_from_args(["--lang", "ru", "status"]) == "ru"
    assert language_from_args(["rules", "--lang=ru", "-o", "x.pdf"]) == "ru"
    assert language_from_args(["cards", "--", "--lang", "ru"]) is None


def _run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False, prog_name="hhd")


def test_status_says_which_language_and_why(legacy_cache):
    base = ("--cache-dir", str(legacy_cache))
    text = _run(*base, "status", env={"LANG": "ru_RU.UTF-8", "HHD_LANG": None, "LC_ALL": None,
                                      "LC_MESSAGES": None}).output
    assert "язык:      русский (из локали (LANG))" in text and "карты:     " in text
    document = json.loads(_run(*base, "--lang", "en", "status", "--json", env={"LANG": "ru_RU.UTF-8"}).output)
    assert document["language"] == {"code": "en", "source": "--lang"}
    assert "cards" in document and "by_color" in document  # the same keys in every language
    russian = json.loads(_run(*base, "status", "--json", env={"HHD_LANG": "ru"}).output)
    assert russian.keys() == document.keys() and russian["language"] == {"code": "ru", "source": "HHD_LANG"}


def test_click_speaks_russian_usage_errors_and_help_too(legacy_cache):
    result = _run("--lang", "ru", "status", "--bogus")
    assert result.exit_code == 2
    assert "Использование: hhd status [ПАРАМЕТРЫ]" in result.output
    assert "Ошибка: Нет такого параметра: «--bogus»." in result.output
    helped = _run("rules", "--help", "--lang", "ru").output
    assert "Параметры:" in helped and "Показать эту справку и выйти." in helped and "Примеры:" in helped
    assert "Options:" not in helped
    refused = _run("rules", "--lang", "de", env={"LANG": "ru_RU.UTF-8", "HHD_LANG": None, "LC_ALL": None,
                                                 "LC_MESSAGES": None})
    assert refused.exit_code == 2 and "Неверное значение '--lang' (переменная окружения: 'HHD_LANG'): «de» — не одно из" in \
        refused.output
    english = _run("rules", "--help", env={"LANG": "C.UTF-8", "HHD_LANG": None, "LC_ALL": None}).output
    assert "Options:" in english and "Show this message and exit." in english


def test_a_run_leaves_the_next_one_in_its_own_language(legacy_cache):
    """The run's language is per run: a Russian invocation in a test's process does not leak."""
    _run("--lang", "ru", "--cache-dir", str(legacy_cache), "status")
    assert i18n.current_language() == "en"
    assert "Options:" in _run("--help", env={"HHD_LANG": "en"}).output


def test_hhd_help_does_not_import_babel():
    """The start-up path reads no catalog and imports no Babel, in English or in Russian."""
    for lang in ("en", "ru"):
        probe = ("import sys, runpy; sys.argv = ['hhd', '--help'];\n"
                 "try:\n    runpy.run_module('hhdcli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
                 "print('BABEL' if any(m == 'babel' or m.startswith('babel.') for m in sys.modules) else 'clean')")
        found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                               env={"HHD_LANG": lang, "PATH": "/usr/bin:/bin"}, check=True).stdout
        assert found.strip().endswith("clean"), (lang, found[-300:])


# --- the pseudo-locale ------------------------------------------------------------------------------------


def _pseudo(text: str) -> str:
    """A msgid marked and a third longer: what the translation of a string that went through the catalog looks
    like (placeholders, line breaks and Click's \\b paragraphs kept)."""
    return OPEN + text + "~" * max(1, len(text) // 3) + CLOSE


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def write_pseudo_locale(folder: Path) -> Path:
    """LANG=xx for both domains, from the Russian catalogs' msgids (the English text itself), compiled."""
    for domain in DOMAINS:
        lines = ['msgid ""', 'msgstr ""', '"Language: xx\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', ""]
        for message in _catalog(domain):
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                lines += [f"msgid {_po_string(message.id[0])}", f"msgid_plural {_po_string(message.id[1])}",
                          f"msgstr[0] {_po_string(_pseudo(message.id[0]))}",
                          f"msgstr[1] {_po_string(_pseudo(message.id[1]))}", ""]
            else:
                lines += [f"msgid {_po_string(message.id)}", f"msgstr {_po_string(_pseudo(message.id))}", ""]
        target = folder / "xx" / "LC_MESSAGES" / f"{domain}.po"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines), encoding="utf-8")
        with target.open("rb") as po, target.with_suffix(".mo").open("wb") as mo:  # compiled, as hhd reads it
            write_mo(mo, read_po(po))
    return folder


@pytest.fixture
def pseudo(tmp_path, monkeypatch):
    monkeypatch.setenv(i18n.EXTRA_CATALOGS, str(write_pseudo_locale(tmp_path / "locale")))
    monkeypatch.setenv("HHD_LANG", "xx")
    return tmp_path


def test_the_pseudo_locale_is_read_like_any_catalog(pseudo):
    catalog = translator("xx")
    assert catalog.gettext("Usage:") == "⁅Usage:~~⁆"  # 6 characters, 2 more
    assert catalog.ngettext("{n} card", "{n} cards", 2) == "⁅{n} cards~~~⁆"
    assert catalog.gettext("not a message") == "not a message"
    assert "xx" not in i18n.LANGUAGES  # never offered to users


def _outside_marks(text: str) -> str:
    """The text at depth 0 of ⁅…⁆ (marks nest where one translated message is put inside another)."""
    depth, out = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
            out.append(" ")
        elif char == CLOSE:
            depth = max(0, depth - 1)
            out.append(" ")
        else:
            out.append(char if depth == 0 else (char if char == "\n" else " "))
    return "".join(out)


ALLOWED = [
    r"https?://\S+", r"(?<![\w-])--?[a-z][\w-]*", r"\b[A-Z][A-Z0-9_]+\b",  # URLs, options, metavars/env vars
    r"\S+\.(?:pdf|html|md|json|xml|csv|cod|dek|txt|sqlite|ttf|gz|png|jpg)\b", r"\{[^}\s]*\}",  # files, mana
    r"\b[0-9a-f]{12,64}\b", r"\bhhd\b", r"\bsha256\b", r"\bx\d+\b", r"\b\d+(?:[.,]\d+)?\s?(?:mm|MB|KB|s|%)?",
    r"\bHellscube v1\.2\b", r"\bHellscube\b", r"\bHLC\b",  # the set's own name
]
COMMANDS = ("sync", "status", "cards", "card", "generate", "show", "check", "proxies", "checklist", "rules",
            "export", "table", "cache", "clean", "tts", "cockatrice", "mpc", "csv", "text", "summary", "pdf", "html",
            "md", "json", "en", "ru", "corners", "full", "red", "none", "sleeve", "return", "color", "type",
            "name", "position")


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("style", "script")

    def handle_endtag(self, tag):
        self._skip -= tag in ("style", "script")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def _card_strings(cache_dir: Path) -> list[str]:
    """Card data as hhd shows it: names, ids, type lines, rules text (in pieces between mana symbols, which a
    PDF draws as pictures), tags; the basics hhd adds; longest first, whitespace as one space."""
    from hhdcli.cache import load_cache
    from hhdcli.colors import BASIC_LANDS

    found: set[str] = set(BASIC_LANDS) | {f"Basic Land — {name}" for name in BASIC_LANDS}
    for card in load_cache(cache_dir).cards:
        found |= {card.name, card.id, card.type_line, card.set_code, *card.tags}
        for face in card.faces:
            found |= {face.name, face.type_line, face.mana_cost}
            found |= {piece for line in face.oracle_text.splitlines() for piece in re.split(r"\{[^}]*\}", line)}
    from hhdcli.tokens import builtin_tokens

    for token in builtin_tokens():  # the registry's tokens are card data too (the checklist lists them)
        found |= {token.name, token.type_line, token.mana_cost}
        found |= {piece for line in token.oracle_text.splitlines() for piece in re.split(r"\{[^}]*\}", line)}
    flat = {re.sub(r"\s+", " ", text).strip() for text in found}
    return sorted((text for text in flat if len(text) > 2), key=len, reverse=True)


RULING_IDS = r"(?:⚑|\[)(?:draft|game-start|ante|companion|freeze|sideboard|owner|zones|numbers|token-card|token-copy|colors)\]?"


def english_left(text: str, card_data: list[str], extra: tuple[str, ...] = (), words: frozenset[str] = frozenset()
                 ) -> list[str]:
    """What is left of `text` outside the marks once card data, paths, numbers, options, metavars, ruling ids
    and choice lists are taken out: words there went through no catalog."""
    outside = re.sub(r"\\(.)", r"\1", _outside_marks(text))  # Markdown's escapes
    outside = re.sub(r"\[[\w|-]+\]", " ", outside)  # Click's choice lists: [draft|game-start|...]
    outside = re.sub(RULING_IDS, " ", outside)
    outside = re.sub(r"[ \t\r\f\v\n]+", " ", outside)
    for known in (*extra, *card_data):
        if known in outside:
            outside = outside.replace(known, "  ")
    for pattern in (*ALLOWED, r"\w+…"):
        outside = re.sub(pattern, "  ", outside)
    left = []
    for chunk in re.split(r"\s{2,}", outside):
        found = [w for w in re.findall(r"[A-Za-z][A-Za-z']+", chunk) if w.lower() not in COMMANDS and w not in words]
        if found:
            left.append(chunk.strip())
    return left


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def _html_text(path: Path) -> str:
    parser = _HtmlText()
    parser.feed(path.read_text(encoding="utf-8"))
    return "\n".join(parser.parts)


def test_every_command_and_document_goes_through_the_catalogs(pseudo, tmp_path):
    """The whole CLI in the pseudo-locale: sync from a local file, status, cards, card, generate, show, check,
    proxies, the calibration sheet, checklist, rules, every export, cache clean, --help of every command,
    usage errors and an error with its hint; then the documents they wrote (PDF text, HTML, Markdown)."""
    cache = tmp_path / "cache"
    legacy = tmp_path / "legacy.json"
    legacy.write_bytes(LEGACY.read_bytes() if LEGACY.suffix != ".gz" else gzip.decompress(LEGACY.read_bytes()))
    deck = tmp_path / "deck.txt"
    deck.write_text("20 Forest\n4 Giant Growth\n16 Mountain\n4 Lightning Bolt\n1 Steam Vents\n", encoding="utf-8")
    library = tmp_path / "hell-library.json"
    base = ["--cache-dir", str(cache), "--timeout", "2"]
    paths = (str(tmp_path), str(cache), str(legacy), str(deck), str(library))
    outputs: dict[str, str] = {}

    def run(*args: str, code: int = 0) -> None:
        result = CliRunner().invoke(cli, [*base, *args], catch_exceptions=False, prog_name="hhd")
        assert result.exit_code == code, (args, result.output)
        outputs[" ".join(args)] = result.output

    run("sync", "--source", str(legacy), "--symbols", str(PIPS))
    run("status")
    run("cards", "bear")
    run("cards", "--land")
    run("card", "pickle krrik")
    run("card", "Pyrohyperspasm")
    run("generate", "--seed", "ember-tide-42", "-o", str(library), "--offline")
    run("generate", "--seed", "ember-tide-42", "-o", str(library), "--format", "summary", "--offline")
    run("show", "-l", str(library), "--offline")
    run("show", "-l", str(library), "--format", "md", "--offline")
    run("check", str(deck), "-l", str(library), "--offline", "-o", str(tmp_path / "check.html"))
    run("check", str(deck), "--all", "--offline", "-o", str(tmp_path / "check.md"))
    run("proxies", "-l", str(library), "--text-only", "--offline", "--backs", "red", "-o", str(tmp_path / "p.pdf"))
    run("proxies", "--calibration", "-o", str(tmp_path / "cal.pdf"))
    run("checklist", "-l", str(library), "-o", str(tmp_path / "cl.pdf"), "--offline")
    run("checklist", "-l", str(library), "-o", str(tmp_path / "cl.html"), "--sort", "type", "--offline")
    run("checklist", "-l", str(library), "-o", str(tmp_path / "cl.md"), "--mode", "return", "--offline")
    run("rules", "-o", str(tmp_path / "rules.md"))
    for fmt in ("tts", "cockatrice", "mpc", "csv"):
        run("export", "-l", str(library), "--format", fmt, "-o", str(tmp_path / f"e.{fmt}"), "--offline",
            "--cardback", "1abcdefghijklmnopqrstuvwxyz")
    run("cache", "clean")
    run("--help")
    for command in ("sync", "status", "cards", "card", "generate", "show", "check", "proxies", "checklist", "rules",
                    "export", "table", "cache"):
        run(command, "--help")
    run("cache", "clean", "--help")
    run("status", "--bogus", code=2)
    run("proxies", "--paper", "huge", "--calibration", "-o", str(tmp_path / "x.pdf"), code=2)
    run("cards", "--color", "Q", code=2)
    run("card", code=2)
    run("card", "zzqqxx", code=2)
    run("frobnicate", code=2)

    card_data = _card_strings(cache)
    paths += ("ember-tide-42", "Steam Vents")  # a real land, its colors from hhd's built-in list: data, not words
    problems = {name: english_left(text, card_data, paths) for name, text in outputs.items()}
    documents = {"check.html": _html_text(tmp_path / "check.html"), "check.md": (tmp_path / "check.md").read_text(),
                 "p.pdf": _pdf_text(tmp_path / "p.pdf"), "cal.pdf": _pdf_text(tmp_path / "cal.pdf"),
                 "cl.pdf": _pdf_text(tmp_path / "cl.pdf"), "cl.html": _html_text(tmp_path / "cl.html"),
                 "cl.md": (tmp_path / "cl.md").read_text(),
                 "tts notecard": json.loads((tmp_path / "e.tts").read_text())["ObjectStates"][-1]["Description"]}
    # A PDF's text comes back in drawing order, so a card name or rules text wrapped over two lines (a
    # footer, a text box, a shortened type line) is not one string there: in PDFs card data counts word by word.
    card_words = frozenset(w for text in card_data for w in re.findall(r"[A-Za-z][A-Za-z']+", text))
    problems |= {name: english_left(text, card_data, paths, card_words if name.endswith(".pdf") else frozenset())
                 for name, text in documents.items()}
    left = {name: lines for name, lines in problems.items() if lines}
    assert left == {}, "\n".join(f"{name}: {line}" for name, lines in left.items() for line in lines)


def test_the_table_page_goes_through_its_own_catalog(pseudo):
    """The table's domain (table.po) in the pseudo-locale: its page, rendered as the app renders it, has no
    text outside the marks but the seed and the language switch's EN/RU (its script's messages are marked too)."""
    from hhdcli.render.documents.templates import render
    from hhdcli.table.web.page import PAGE, bootstrap

    catalog = translator("xx", "table")
    data = bootstrap("xx", {}, catalog, plural="(n != 1)")
    words, forms = data["messages"]["T"], data["messages"]["P"]
    page = render(PAGE, seed="ember-tide-42", lang="xx", _=catalog.gettext, static="/static", bootstrap=data)
    parser = _HtmlText()
    parser.feed(page)
    left = english_left("\n".join(parser.parts), [], ("ember-tide-42", "EN", "RU"))
    assert left == []
    assert all(text.startswith(OPEN) for text in words.values())
    assert all(form.startswith(OPEN) for both in forms.values() for form in both)


def test_russian_output_quotes_with_guillemets_and_formats_numbers_as_cldr(legacy_cache, tmp_path):
    base = ("--cache-dir", str(legacy_cache), "--lang", "ru")
    missing = _run(*base, "card", "zzqqxx")
    assert missing.exit_code == 2 and "ошибка: нет карты с названием «zzqqxx»" in missing.output
    deck = tmp_path / "deck.txt"
    deck.write_text("20 Forest\n20 Mountain\n", encoding="utf-8")
    checked = _run(*base, "check", str(deck), "--all", "--offline").output
    assert re.search(r"ожидается годных: \d,\d\d;", checked)  # a decimal comma, as CLDR writes Russian
    assert re.search(r"годны сразу \d+ %", checked) and "  взять  " in checked and "  выбор  " in checked


def test_english_says_its_counts_in_the_singular_too(legacy_cache, tmp_path):
    """Plural discipline in English: one group, one card, not "1 groups"."""
    base = ("--cache-dir", str(legacy_cache), "--lang", "en")
    library = tmp_path / "one.json"
    assert _run(*base, "generate", "--seed", "ember-tide-42", "--size", "1", "-o", str(library),
                "--basics-per-type", "0", "--offline").exit_code == 0
    assert len(json.loads(library.read_text())["cards"]) == 1
    written = _run(*base, "checklist", "-l", str(library), "--sort", "name", "-o", str(tmp_path / "c.md"),
                   "--offline").output
    assert "1 card in 1 group" in written
    listed = _run(*base, "cards", "pickle krrik").output
    assert listed.rstrip().endswith("1 card")
