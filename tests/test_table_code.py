"""The table's code keeps its shape: zones, destinations and ends are the rules' enums, never bare strings; no
class grows past 300 lines; every action has its handler; every route that changes the table declares who may
take it."""

from __future__ import annotations

import ast
from pathlib import Path

from hhdcli.table.game.handlers import HANDLERS
from hhdcli.table.game.rules import MOVES, Action, Destination, End, Zone

TABLE = Path(__file__).parents[1] / "hhdcli" / "table"
WORDS = {member.value for enum in (Zone, End, Destination) for member in enum}
ENUMS = {"Zone", "End", "Destination", "Action"}  # in rules.py: where the words are written, once
NAMING = {"get", "meta", "set_meta", "unset_meta", "pop"}  # a field's name (a JSON key, a meta key), not a zone


def _unchecked(tree: ast.AST, path: Path) -> set[int]:
    """The string constants that may spell a zone's word: docstrings, the enums' own definitions, and names of
    fields (dict keys, subscripts, the key a get/meta call reads, a form field's f-string, a deck's source name)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        if isinstance(node, ast.ClassDef) and node.name in ENUMS and path.name == "rules.py":
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.Dict):
            skip |= {id(k) for k in node.keys if k is not None}
        if isinstance(node, ast.Subscript):
            skip.add(id(node.slice))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in NAMING \
                and node.args:
            skip.add(id(node.args[0]))
        if isinstance(node, ast.JoinedStr):
            skip |= {id(n) for n in node.values}
        if isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args][-len(node.defaults):] if node.defaults else []
            skip |= {id(d) for a, d in zip(named, node.defaults, strict=True) if a.arg == "source"}
    return skip


def bare_zone_words() -> list[str]:
    found = []
    for path in sorted(TABLE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _unchecked(tree, path)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            quoted = [w for w in WORDS if f"'{w}'" in node.value]  # SQL: bind the enum's value instead
            if node.value in WORDS and id(node) not in skip or quoted:
                found.append(f"{path.relative_to(TABLE)}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_no_zone_destination_or_end_is_a_bare_string_in_the_tables_python_or_sql():
    assert bare_zone_words() == []


def test_the_scan_finds_a_bare_zone_where_one_is_written(tmp_path, monkeypatch):
    """The scan would fail: a zone compared as a string, passed as one, or written into SQL is found."""
    import sys

    scan = sys.modules[__name__]
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "bad.py").write_text(
        'def f(place, tx):\n    """A docstring may say "battlefield"."""\n'
        '    if place.zone == "battlefield":\n        tx.move(1, "hand", "top")\n'
        '    tx.db.execute("SELECT 1 FROM cards WHERE zone = \'sideboard\'")\n    return {"hand": 1}\n')
    monkeypatch.setattr(scan, "TABLE", tmp_path)
    assert sorted(line.split(": ")[0] for line in scan.bare_zone_words()) == [
        "game/bad.py:3", "game/bad.py:4", "game/bad.py:4", "game/bad.py:5"]


def test_no_class_of_the_table_is_over_300_lines():
    long = []
    for path in sorted(TABLE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and (node.end_lineno or 0) - node.lineno + 1 > 300:
                long.append(f"{path.relative_to(TABLE)}:{node.name}")
    assert long == []


def test_every_action_a_player_or_the_host_takes_has_its_handler_in_one_table():
    """Each log action a request may ask for has its handler; the moves asked by their destination share one
    (the log then names the move it was), and nothing but an action keys the table."""
    # a discard is asked as a move to a graveyard, an untap as a tap ({"tapped": false}), a card taken from the
    # sideboard as a move of it, a card put face down as a move with {"face_down": true}
    asked = set(Action) - {Action.DISCARD, Action.UNTAP, Action.FROM_SIDEBOARD, Action.FACE_DOWN}
    assert set(HANDLERS) == asked
    assert {HANDLERS[action] for action in MOVES.values()} == {HANDLERS[Action.TO_HAND]}


def test_every_route_that_changes_the_table_declares_who_may_take_it(table):
    """Only a phone entering (its code for cookies) and a phone taking its seat act before anyone is known."""
    from hhdcli.table.web.context import Who
    from hhdcli.table.web.routes import create_app

    app = create_app(table.session)
    undeclared, declared = [], {}
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        who = getattr(app.view_functions[rule.endpoint], "who", None)
        if who is None:
            undeclared.append(rule.rule)
        else:
            declared[rule.rule] = who
    assert sorted(undeclared) == ["/api/enter", "/api/join"]
    assert {path for path, who in declared.items() if who == Who.HOST} == {
        "/api/host/add-player", "/api/host/life-start", "/api/host/release", "/api/host/reseat"}
    assert declared["/api/draw"] == Who.PLAYER and declared["/api/move"] == Who.PLAYER_OR_HOST
