"""Fixtures shared by every test; the helpers they use live in support.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import CURRENT_SAMPLE, EXCERPT, LEGACY, PIPS, Hhd, LoopbackServer, Reply, chromium

# The longest tests are handed out first: a parallel run ends when its last test does, and the README's first
# command in a bare copy (a venv and an install: a minute or more) or a browser game begun near the end would run
# on alone.
LONGEST_FIRST = ("test_readme.py", "test_table_caddy.py", "test_table_page.py")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores. A good part of the suite's time is waiting (a browser laying a
    page out, a server answering, a child's deadline), which a third worker fills on two cores: the whole suite
    took 393 s on 2 workers, 323 s on 3 and 395 s on 4 (a quiet 2-core machine, the same tree)."""
    import os

    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)  # a stable sort: the rest keep their order


@pytest.fixture
def server():
    srv = LoopbackServer()
    yield srv
    srv.close()


@pytest.fixture
def registry(server: LoopbackServer) -> LoopbackServer:
    """A registry mirror: current-format catalog (gzip) + manifest, legacy database, symbol table."""
    server.serve_file("/catalog.json", CURRENT_SAMPLE, gzip_it=True)
    server.routes["/catalog-manifest.json"] = Reply(b'{"version": "2026-08-01T00:00:00Z", "cardCount": 18}')
    server.serve_file("/Hellscube-Database.json", LEGACY)
    server.serve_file("/pips.json", PIPS)
    return server


@pytest.fixture
def hhd(tmp_path: Path) -> Hhd:
    return Hhd(tmp_path / "cache")


def _synced_cache(tmp_path_factory, name: str, source: Path) -> Path:
    cache_dir = tmp_path_factory.mktemp(name)
    result = Hhd(cache_dir)("sync", "--source", str(source), "--symbols", str(PIPS))
    assert result.exit_code == 0, result.output
    return cache_dir


@pytest.fixture(scope="session")
def legacy_cache(tmp_path_factory) -> Path:
    """A cache synced once from the legacy snapshot, shared read-only by tests that only read cards."""
    return _synced_cache(tmp_path_factory, "legacy-cache", LEGACY)


@pytest.fixture(scope="session")
def excerpt_cache(tmp_path_factory) -> Path:
    """A cache synced once from the 105 real current-format records, shared read-only."""
    return _synced_cache(tmp_path_factory, "excerpt-cache", EXCERPT)


@pytest.fixture
def synced(legacy_cache: Path) -> Hhd:
    return Hhd(legacy_cache)


@pytest.fixture
def library(synced: Hhd, tmp_path: Path) -> Path:
    """The ember-tide-42 library of the legacy data, in a file of its own."""
    path = tmp_path / "lib.json"
    assert synced("generate", "--seed", "ember-tide-42", "-o", str(path)).exit_code == 0
    return path


@pytest.fixture(scope="session")
def index(legacy_cache: Path):
    """The 720 cards of the legacy data, indexed by id and name."""
    from hhdcli.cache import load_cache
    from hhdcli.cards import CardIndex

    return CardIndex(load_cache(legacy_cache).cards)


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch):
    """The suite reads hhd's English: a developer's LANG=ru_RU.UTF-8 must not change what it sees (the tests of
    other languages ask for them with --lang, HHD_LANG or their own environment)."""
    monkeypatch.setenv("HHD_LANG", "en")


@pytest.fixture
def table(legacy_cache, library, tmp_path):
    """`hhd table` of tablekit's PLAYERS on the ember-tide-42 library, served on 127.0.0.1 (tests/tablekit.py)."""
    from tablekit import Table

    running = Table(tmp_path / "session.sqlite", library, legacy_cache)
    yield running
    running.stop()


@pytest.fixture
def hell_table(legacy_cache, library, tmp_path):
    """As `table`, its library holding the Hell cards every action kind needs (tablekit.HELL_CARDS)."""
    from tablekit import HELL_CARDS, Table, library_with

    running = Table(tmp_path / "session.sqlite", library_with(library, legacy_cache, HELL_CARDS, tmp_path / "hell.json"),
                    legacy_cache)
    yield running
    running.stop()


# --- a browser per worker --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_session():
    """One headless Chromium (through chromedriver) for this worker's whole run: starting one costs a second or
    more on a loaded machine. Tests take it through `browser`, which hands it over clean. Skips without
    chromedriver (the CI script installs it)."""
    driver = chromium()
    if driver is None:
        pytest.skip("needs Chromium's chromedriver (the CI script installs it)")
    yield driver
    driver.quit()


@pytest.fixture
def browser(browser_session):
    """The worker's Chromium as a fresh phone: a blank page, no cookies, no storage of an earlier test (each
    test's server has its own port, so its own origin; cookies are per host, so they are cleared too)."""
    browser_session.set_window_size(390, 844)
    yield browser_session
    origin = browser_session.execute_script("return location.origin")
    browser_session.execute_cdp_cmd("Network.clearBrowserCookies", {})
    if origin and origin != "null":
        browser_session.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    browser_session.get("about:blank")
