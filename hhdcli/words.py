"""Words in messages: counts said the way a person says them."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """`1 page`, `11 pages`: a noun that takes an s."""
    return f"{count} {noun}" + ("" if count == 1 else "s")
