"""The code's shape, read from its syntax (hhdcli/ walked with `ast`): what a reader of a call site must be able
to read there."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hhdcli"
MOST_POSITIONAL = 5  # past five, a reader counts commas to know which value is which: name them (issue 52)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(tree: ast.Module, module: str, is_package: bool) -> tuple[set[str], set[str]]:
    """The names this module imports from hhdcli's other modules, and the names it binds to those modules."""
    names: set[str] = set()
    modules: set[str] = set()
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            source = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if source.split(".")[0] == "hhdcli" and source != module:
                names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            modules.update(alias.asname or alias.name.split(".")[0] for alias in node.names
                           if alias.name.split(".")[0] == "hhdcli")
    return names, modules


def _calls_across_modules(path: Path, source: str | None = None) -> list[str]:
    """Each call in the module at `path` (its text, or `source`) into another of hhdcli's modules that passes more
    than five values by position."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, str(path))
    names, modules = _imported(tree, _module_name(path), path.name == "__init__.py")
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        while isinstance(func, ast.Attribute):  # hhdcli.x.f(…) or an imported class's Class.make(…)
            func = func.value
        if not (isinstance(func, ast.Name) and (func.id in names or func.id in modules)):
            continue
        positional = sum(not isinstance(arg, ast.Starred) for arg in node.args)
        if positional > MOST_POSITIONAL:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node.func)}(…) with "
                         f"{positional} positional arguments")
    return found


def test_no_call_to_another_module_passes_more_than_five_positional_arguments():
    """`serve(env, resolved, cache, colors, state, host, port, …)` cannot be read without the function beside it:
    a call into another module names what it passes past the fifth value (keyword-only parameters or an options
    object)."""
    found = [call for path in sorted(PACKAGE.rglob("*.py")) for call in _calls_across_modules(path)]
    assert not found, "\n".join(found)


def test_the_check_sees_a_long_call_into_another_module():
    """The walk itself: an imported function called with six values is found, one of this module is not."""
    source = ("from hhdcli.library import generate\nfrom . import cards as c\n"
              "def local(*a): pass\n"
              "generate(1, 2, 3, 4, 5, 6)\nc.Card(1, 2, 3, 4, 5, 6)\nlocal(1, 2, 3, 4, 5, 6)\ngenerate(1, 2, 3, 4, 5)\n")
    found = _calls_across_modules(PACKAGE / "render" / "probe.py", source)
    assert [line.split(": ", 1)[1] for line in found] == [
        "generate(…) with 6 positional arguments", "c.Card(…) with 6 positional arguments"]
