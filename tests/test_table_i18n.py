"""The table in both languages: every message of the page, its script and the API has its Russian, plurals
follow CLDR (ru: one, few, many), and the page and the API answer in the asker's language."""

from __future__ import annotations

import ast
import gettext
import re
import urllib.request
from pathlib import Path

import pytest
from tablekit import authorization, kept

from hhdcli.table.web.i18n import plural_rule, translations
from hhdcli.table.web.page import page_messages, script_messages
from support import code_messages

PACKAGE = Path(__file__).parents[1] / "hhdcli"


def every_message() -> set[str]:
    """The table catalog's messages as the code says them: the page's, its scripts', the API's refusals and
    answers, the front page's, the log's words and the verdicts (scripts/update_catalog.py's one extraction).
    Plural messages are the plural tests' below."""
    return {m.id for m in code_messages("table") if isinstance(m.id, str) and m.id}


def test_every_message_of_the_page_and_the_api_has_its_russian():
    russian = translations("ru")
    messages = every_message()
    untranslated = sorted(m for m in messages if russian.gettext(m) == m)
    assert len(messages) > 120 and untranslated == []


class TableErrors:
    """Every message a TableError of the table (hhdcli/, any module) is raised with, read from the code: the first
    argument of TableError, or of a subclass keeping its constructor (NeedsConfirmation), and of super().__init__
    in a subclass with a constructor of its own (BadColors, Damaged). A message is a string, N_("…"), a name
    assigned one (a module's constant, one imported, a local `said`) or a dict of them subscripted; anything else
    is listed as unread, so a message built at run time cannot slip past the catalog."""

    def __init__(self, root: Path) -> None:
        self.trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}
        self.modules = {".".join(path.relative_to(root.parent).with_suffix("").parts): tree
                        for path, tree in self.trees.items()}
        self.family, self.own_init = self._family()
        self.messages: dict[str, str] = {}  # message: where
        self.unread: list[str] = []

    def _family(self) -> tuple[set[str], set[str]]:
        classes = [node for tree in self.trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        family, grown = {"TableError"}, True
        while grown:
            found = {c.name for c in classes if any(isinstance(b, ast.Name) and b.id in family for b in c.bases)}
            grown, family = not found <= family, family | found
        own_init = {c.name for c in classes if c.name in family - {"TableError"}
                    and any(isinstance(f, ast.FunctionDef) and f.name == "__init__" for f in c.body)}
        return family, own_init

    def read(self) -> TableErrors:
        for path, tree in self.trees.items():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name in self.own_init:
                    for call in ast.walk(node):
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                                and call.func.attr == "__init__" and call.args:
                            self._message(call.args[0], tree, f"{path.name}:{call.lineno}")
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args \
                        and node.func.id in self.family - self.own_init:
                    self._message(node.args[0], tree, f"{path.name}:{node.lineno}")
        return self

    def _message(self, node: ast.expr, tree: ast.Module, where: str) -> None:
        texts = self._texts(node, tree, set())
        if texts is None:
            self.unread.append(f"{where}: {ast.unparse(node)}")
        for text in texts or ():
            self.messages.setdefault(text, where)

    def _texts(self, node: ast.expr, tree: ast.Module, seen: set[str]) -> list[str] | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_" and node.args:
            return self._texts(node.args[0], tree, seen)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
            found = [self._texts(value, tree, seen) for value in node.value.values]
            return None if any(f is None for f in found) else [t for f in found for t in f or ()]
        if isinstance(node, ast.Name) and node.id not in seen:
            return self._named(node.id, tree, seen | {node.id})
        return None

    def _named(self, name: str, tree: ast.Module, seen: set[str]) -> list[str] | None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return self._texts(node.value, tree, seen)
            if isinstance(node, ast.ImportFrom) and node.module in self.modules \
                    and any((a.asname or a.name) == name for a in node.names):
                original = next(a.name for a in node.names if (a.asname or a.name) == name)
                return self._named(original, self.modules[node.module], seen)
        return None


def test_every_table_error_of_the_table_has_its_russian():
    """Every refusal the table raises (the rules', the session's, the web's: a TableError) is a message of the
    table's catalog with its Russian, found from the code rather than from what the extraction saw: a message
    held in a constant the extraction does not mark, or raised outside the table's folders, would be English to
    a Russian player (as the draw's "has not kept their opening hand yet…" was)."""
    found = TableErrors(PACKAGE).read()
    assert found.unread == []
    assert len(found.messages) > 60 and "{player} has not kept their opening hand yet: keep it (or mulligan) " \
        "before drawing" in found.messages and "no card found in the deck list: paste the list itself, one card " \
        "a line (4 Forest), or its link" in found.messages  # a subclass's own, and a message of rules.py
    russian = translations("ru")
    untranslated = sorted(f"{where}: {message}" for message, where in found.messages.items()
                          if russian.gettext(message) == message)
    assert untranslated == []


def test_every_russian_message_keeps_the_fields_of_its_english():
    russian = translations("ru")
    for message in every_message():
        fields = set(re.findall(r"\{(\w*)\}", message))
        assert set(re.findall(r"\{(\w*)\}", russian.gettext(message))) == fields, message


def cldr_ru(n: int) -> int:
    return 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


@pytest.mark.parametrize("n, form", [(0, 2), (1, 0), (2, 1), (5, 2), (11, 2), (21, 0), (22, 1), (111, 2), (104, 1)])
def test_russian_plurals_follow_cldr_in_the_catalog_and_the_pages_rule(n, form):
    russian = translations("ru")
    assert cldr_ru(n) == form
    assert russian.ngettext("{count} card", "{count} cards", n) == ["{count} карта", "{count} карты",
                                                                    "{count} карт"][form]
    assert gettext.c2py(plural_rule("ru"))(n) == form  # the rule the page's script evaluates, read by Python


def test_every_plural_message_has_three_distinct_russian_forms():
    _, plurals = script_messages()
    forms = page_messages("ru")["P"]
    assert plurals and all(len(set(forms[s])) == 3 for s, _p in plurals), forms
    assert all(len(page_messages("en")["P"][s]) == 2 for s, _p in plurals)


def test_the_catalog_header_names_russians_three_plural_forms():
    from babel.messages.pofile import read_po

    with (PACKAGE / "locale" / "ru" / "LC_MESSAGES" / "table.po").open("rb") as po:  # read as gettext reads it,
        header = dict(read_po(po).mime_headers)  # however a tool wrapped its lines
    assert header["Plural-Forms"] == "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && " \
                                     "(n%100<10 || n%100>=20) ? 1 : 2);"
    assert translations("ru").info()["plural-forms"] == header["Plural-Forms"]  # and the compiled catalog too


def page_text(url: str, headers: dict[str, str] | None = None) -> str:
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read().decode()


def test_the_page_speaks_russian_from_the_browsers_language_and_remembers_a_switch(table):
    russian = page_text(table.url + "/", {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert '<html lang="ru">' in russian and "Адская библиотека" in russian and "Взять из Ада" in russian
    english = page_text(table.url + "/", {"Accept-Language": "en-GB"})
    assert '<html lang="en">' in english and "Draw from Hell" in english
    request = urllib.request.Request(table.url + "/?lang=ru", headers={"Accept-Language": "en"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert "hhd_lang=ru" in answer.headers.get("Set-Cookie", "")
    remembered = page_text(table.url + "/", {"Accept-Language": "en", "Cookie": "hhd_lang=ru"})
    assert '<html lang="ru">' in remembered


def test_a_refusal_comes_in_the_players_language_without_a_gender_for_names(table):
    table.as_("Anna", "/api/opening-hand")
    anna = table.tokens["Anna"]
    status, refused = table.call("/api/opening-hand", {}, {"Accept-Language": "ru-RU,ru;q=0.9"}, token=anna)
    assert status == 409 and refused["error"].startswith("Anna: стартовая рука в этой игре уже есть")
    status, refused = table.call("/api/undo", {}, {"Cookie": "hhd_lang=ru"}, token=table.seat("Ben"))
    assert status == 409 and refused["confirm"] and "Anna" in refused["error"] and "стартовая рука" in refused["error"]
    assert "opening hand this game" in table.as_("Anna", "/api/opening-hand")[1]["error"]  # English


def test_rulings_on_the_page_come_in_the_askers_language(table):
    """A drawn card's Hell's Half-Draft rulings, in the answer to the draw and in its description, are Russian
    for a Russian page (hhdcli.rulings keeps both languages)."""
    from hhdcli.rulings import card_rulings

    token = table.seat("Cleo")  # Cleo's lands make every color: every card goes to her hand
    kept(table, "Cleo")
    russian = {"Accept-Language": "ru-RU,ru;q=0.9"}
    for _ in range(95):
        status, card = table.call("/api/draw", {}, russian, token=token)
        assert status == 200
        if card["hell_rulings"]:
            break
    else:
        pytest.skip("no card with a ruling in this library")
    expected = [r.text("ru") for r in card_rulings(table.session.cards[card["position"]])]
    assert [r["text"] for r in card["hell_rulings"]] == expected != [r.text("en") for r in
                                                                     card_rulings(table.session.cards[card["position"]])]
    described = table.call(f"/api/cards?ids={card['id']}", headers=russian, token=token)[1][card["id"]]
    assert [r["text"] for r in described["hell_rulings"]] == expected
    english = table.call(f"/api/cards?ids={card['id']}", token=token)[1][card["id"]]
    assert english["hell_rulings"][0]["text"] != expected[0]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_plural_message_picks_the_same_form_in_the_catalog_and_on_the_page(lang):
    """For 0, 1, 2, 5, 11, 21, 22 (and more), the form gettext picks by the catalog's Plural-Forms is the form the
    page's script picks by its CLDR rule, for every plural message; English: one for 1, other otherwise."""
    catalog = translations(lang)
    _, plurals = script_messages()
    forms = page_messages(lang)["P"]
    for singular, plural in plurals:
        for n in (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1001):
            index = (0 if n == 1 else 1) if lang == "en" else cldr_ru(n)
            assert catalog.ngettext(singular, plural, n) == forms[singular][index], (singular, n)
    said = {n: catalog.ngettext("{count} Hell card", "{count} Hell cards", n).format(count=n) for n in (1, 2, 5, 21, 22)}
    assert said == ({1: "1 Hell card", 2: "2 Hell cards", 5: "5 Hell cards", 21: "21 Hell cards", 22: "22 Hell cards"}
                    if lang == "en" else {1: "1 Адская карта", 2: "2 Адские карты", 5: "5 Адских карт",
                                          21: "21 Адская карта", 22: "22 Адские карты"})


def test_a_basic_land_reads_in_the_askers_language_like_its_proxy(table):
    """A basic land drawn from Hell shows its type line in the page's language ("Базовая земля — Остров"), as its
    proxy and its checklist line do; a Hellscube card's stays as its data has it."""
    token = table.seat("Cleo")
    kept(table, "Cleo")
    russian = {"Accept-Language": "ru-RU,ru;q=0.9"}
    drawn = [table.call("/api/draw", {}, russian, token=token)[1] for _ in range(40)]
    basic = next(card for card in drawn if table.session.cards[card["position"]].is_basic)
    spell = next(card for card in drawn if not table.session.cards[card["position"]].is_basic)
    assert basic["type_line"].startswith("Базовая земля — ") and "Базовая земля" in basic["text"]
    english = table.call(f"/api/cards?ids={basic['id']}", token=token)[1][basic["id"]]
    assert english["type_line"].startswith("Basic Land — ")
    assert spell["type_line"] == table.session.cards[spell["position"]].type_line


def face_words(card, table, lang: str) -> str:
    """The words on a card's drawn face in `lang`, read back from the face's PDF (the page the PNG is made of)."""
    import pypdfium2 as pdfium

    from hhdcli.render.draw.faces import face_pdf
    from hhdcli.render.draw.fonts import load_fonts

    document = pdfium.PdfDocument(face_pdf(card, table.session.table, load_fonts(None), lang))
    try:
        return " ".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()


def fetched(table, path: str, token: str, headers: dict[str, str]) -> tuple[bytes, str]:
    request = urllib.request.Request(f"{table.url}/{path.lstrip('/')}", headers={**authorization(player=token), **headers})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return answer.read(), answer.headers["Cache-Control"]


def test_a_drawn_face_has_its_words_in_each_phones_language(table):
    """A basic land's picture on a Russian phone says "Базовая земля — …" and on an English phone "Basic Land —
    …", as the text beside it does; a card the format rules on shows its rulings in the phone's language too.
    Each language's picture has an address of its own, so a day's browser cache (private, max-age) or the
    server's cache of one language never answers for the other, whatever the request's Accept-Language."""
    from hhdcli.i18n import translator
    from hhdcli.render.draw.faces import face_png
    from hhdcli.render.texts import basic_type_line
    from hhdcli.rulings import card_rulings, hell_lines

    token = table.seat("Cleo")  # Cleo's lands make every color: every card goes to her hand
    kept(table, "Cleo")
    russian, english = {"Accept-Language": "ru-RU,ru;q=0.9"}, {"Accept-Language": "en"}
    basic = ruled = None
    for _ in range(95):
        card = table.call("/api/draw", {}, russian, token=token)[1]
        played = table.session.cards[card["position"]]
        basic = basic or (card if played.is_basic else None)
        ruled = ruled or (card if card_rulings(played) and not played.is_basic else None)
        if basic and ruled:
            break
    assert basic and ruled, "the library has a basic land and a card the format rules on"
    for drawn in (basic, ruled):
        played = table.session.cards[drawn["position"]]
        faces = {lang: table.call(f"/api/cards?ids={drawn['id']}", headers=said, token=token)[1][drawn["id"]]["face"]
                 for lang, said in (("en", english), ("ru", russian))}
        assert faces["ru"] == drawn["face"] != faces["en"]
        # the English picture first (the server keeps it), then the Russian address asked with English headers
        en, caching = fetched(table, faces["en"], token, russian)
        ru, _ = fetched(table, faces["ru"], token, english)
        assert caching == "private, max-age=86400"
        assert en == face_png(played, table.session.table, dpi=150, lang="en")
        assert ru == face_png(played, table.session.table, dpi=150, lang="ru") != en
        words = {lang: face_words(played, table, lang) for lang in ("en", "ru")}
        assert "прокси Адского полудрафта" in words["ru"] and "Half-Draft proxy" in words["en"]
        if played.is_basic:
            assert basic_type_line(played.name, "ru") in words["ru"] and "Базовая" not in words["en"]
            assert basic_type_line(played.name, "en") in words["en"]
        else:
            # the rulings' own lines when they fit in the text box, else only their names in the footer: either
            # in the phone's language, a Russian face naming them in Russian, never by their English ids
            for lang in ("en", "ru"):
                names = ", ".join(r.name(lang) for r in card_rulings(played))
                footer = translator(lang).gettext("Hell: {rulings}").format(rulings=names)
                assert hell_lines(played, lang)[0] in words[lang] or footer in words[lang], lang
            english_ids = ", ".join(r.id for r in card_rulings(played))
            assert not any(f"Ад ({r.id})" in words["ru"] for r in card_rulings(played))
            assert f"Ад: {english_ids}" not in words["ru"]
