"""The docs say what the code does: docs/cli.md is every command's --help as it is now, docs/http-api.md lists every
route the table's and the front page's apps register, and the README links every page of docs/."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from support import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import cli_reference  # noqa: E402  # the script that writes docs/cli.md

HTTP_API = ROOT / "docs" / "http-api.md"


def test_the_cli_reference_is_every_command_s_help_as_it_is_now():
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == cli_reference.reference(), \
        "docs/cli.md is not current: run python scripts/cli_reference.py"


def test_the_cli_reference_has_every_command_and_group():
    from hhdcli.cli import cli

    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    titles = re.findall(r"^## `(hhd[^`]*)`$", written, re.M)
    assert titles[0] == "hhd" and {"hhd cache", "hhd cache clean", "hhd table", "hhd serve"} <= set(titles)
    assert len(titles) == 1 + sum(1 + len(getattr(c, "commands", {})) for c in cli.commands.values() if not c.hidden)


def routes(app) -> set[str]:
    """`METHOD /path` of every route an app registers but its static files, a converter's name alone
    (`<any(en, ru):lang>` is `<lang>`)."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.endswith("static"):
            continue
        path = re.sub(r"<(?:[^:>]*:)?([^>]+)>", r"<\1>", rule.rule)
        found |= {f"{method} {path}" for method in rule.methods - {"HEAD", "OPTIONS"}}
    return found


def listed(text: str) -> set[str]:
    """The routes the rows of the doc's tables name (`| `POST /api/draw` | who | …`)."""
    return set(re.findall(r"^\| `((?:GET|POST) /[^`? ]*)", text, re.M))


def test_every_route_of_the_table_and_of_the_front_page_is_in_the_http_api_doc(legacy_cache, library, tmp_path):
    """Built as tests/tablekit.py builds `hhd table`'s app, and as `hhd serve` builds its front page."""
    from tablekit import PLAYERS

    from hhdcli.cache import load_cache
    from hhdcli.library import load_library, resolve
    from hhdcli.table.hosting.community import Community
    from hhdcli.table.hosting.front import front_app
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.opening import open_session, stream_changes
    from hhdcli.table.hosting.throttle import Throttle
    from hhdcli.table.web.routes import create_app

    cache = load_cache(legacy_cache)
    session, _resumed = open_session(resolve(load_library(library), cache.cards), cache, PLAYERS,
                                     tmp_path / "session.sqlite")
    text = HTTP_API.read_text(encoding="utf-8")
    tables, front = text.split("## The front page")
    documented = listed(tables)
    table_routes = routes(create_app(session))
    assert len(table_routes) > 35 and table_routes - documented == set()
    assert documented - table_routes == set(), "documented routes the table does not have"

    community = Community(tmp_path / "community", cache, Public(), Throttle(), stream_changes)
    front_routes = routes(front_app(community))
    assert {"GET /", "POST /open", "POST /join"} <= front_routes
    assert front_routes - listed(front) == set()


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M),
                          re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_the_readme_links_every_page_of_the_docs_and_every_link_finds_its_place():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert {f"docs/{page}" for page in pages} <= set(re.findall(r"\]\((docs/[^)#]+)", readme))
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")]:
        for target, anchor in re.findall(r"\]\(([^)#:]*)(?:#([^)]*))?\)", page.read_text(encoding="utf-8")):
            linked = page.parent / target if target else page
            assert linked.exists(), f"{page.name} links {target}, which is not there"
            if anchor and linked.suffix == ".md":
                assert anchor in anchors(linked), f"{page.name} links {target}#{anchor}, which is no heading"
