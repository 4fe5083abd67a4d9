"""hhd — tools for Hell's Half-Draft (Hellscube v1.2)."""

# The one place the version is written: the build reads it from here (pyproject's `dynamic`), and so does
# `hhd --version`, without importlib.metadata's ~20 ms at every start.
__version__ = "0.3.0"
