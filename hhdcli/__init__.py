"""hhd — tools for Hell's Half-Draft (Hellscube v1.2)."""

__version__ = "0.1.0"
