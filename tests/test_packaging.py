"""What leaves the checkout: the wheel (built from the sdist) holds every package and data file of the source tree."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import hhdcli

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hhdcli"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("dist")
    # --sdist --wheel builds the wheel from the sdist: what a user's pip builds from a source download
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out),
                    str(ROOT)], check=True, capture_output=True)
    return zipfile.ZipFile(next(out.glob("*.whl")))


def source_files() -> set[str]:
    """Every file under hhdcli/ that a run can need: modules, templates, fonts, built-in data."""
    return {str(p.relative_to(ROOT)).replace("\\", "/") for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def test_the_wheel_holds_every_package_and_data_file_of_the_source_tree(wheel):
    missing = source_files() - set(wheel.namelist())
    assert not missing, f"left out of the wheel: {sorted(missing)}"
    assert {"hhdcli/export/__init__.py", "hhdcli/table/__init__.py", "hhdcli/data/hellscube-v1.2.json.gz",
            "hhdcli/data/rulings-v1.2.json", "hhdcli/data/real-cards.json.gz",
            "hhdcli/templates/rules_cards.md.j2"} <= set(wheel.namelist())
    # the catalogs are read compiled (.mo, committed: no build step), and ship with the .po they are compiled from
    assert {f"hhdcli/locale/ru/LC_MESSAGES/{domain}.{kind}" for domain in ("hhd", "table") for kind in ("po", "mo")
            } <= set(wheel.namelist())


def test_the_wheel_carries_the_one_version_written_in_the_package(wheel):
    assert hhdcli.__version__ == "0.3.0"
    metadata = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    assert f"Version: {hhdcli.__version__}\n" in wheel.read(metadata).decode()
    assert Path(wheel.filename).name.startswith(f"hhd-{hhdcli.__version__}-")


def test_hhd_version_is_read_without_importlib_metadata():
    """importlib.metadata costs ~20 ms at every start; the version is a constant of the package."""
    probe = "import sys, hhdcli.cli; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"
    version = subprocess.run([sys.executable, "-m", "hhdcli", "--version"], check=True, capture_output=True,
                             text=True).stdout
    assert version.strip() == f"hhd, version {hhdcli.__version__}"


def test_the_hhd_command_starts_with_the_collector_set_aside_and_runs_with_it_on():
    """The `hhd` script's entry point imports the CLI with the collector off and freezes what the imports made
    (no pass walks it again, nor the final one at exit); the command itself then runs with it on, a pass per
    20,000 new objects rather than Python's 700."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"hhd": "hhdcli.start:main"}
    probe = """
import atexit, gc, sys
import hhdcli.start
seen = {}
def command_ran():
    seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count(), click="click" in sys.modules,
                threshold=gc.get_threshold()[0])
atexit.register(lambda: print(seen))
import click
click.Group.invoke = (lambda invoke: lambda self, ctx: (command_ran(), invoke(self, ctx))[1])(click.Group.invoke)
sys.argv = ["hhd", "rules", "--help"]  # the group runs, then the command's help
hhdcli.start.main()
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    seen = eval(done.stdout.splitlines()[-1])  # noqa: S307  # the dict the probe printed
    assert seen["enabled"] is True and seen["click"] is True
    assert seen["frozen"] > 5000  # Click's and hhd's modules, frozen by the entry point
    assert seen["threshold"] == 20_000
