"""hhd — tools for Hell's Half-Draft (Hellscube v1.2)."""

# The one place the version is written: the build reads it from here (pyproject's `dynamic`), and so does
# `hhd --version`, without importlib.metadata's ~20 ms at every start.
__version__ = "0.3.0"

from pathlib import Path  # noqa: E402  (every command imports it: its files are paths)

# The package's own data files (cards, tokens, rulings, real names), read as files beside the modules, which is how
# the wheel installs them: importing importlib.resources to reach them costs milliseconds of a start.
DATA = Path(__file__).parent / "data"
