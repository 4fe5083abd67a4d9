"""hhd — tools for Hell's Half-Draft (Hellscube v1.2)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hhd")  # written once, in pyproject.toml
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
