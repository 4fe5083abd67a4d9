"""The library as CSV, for spreadsheets: one row per physical card, in library order."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from hhdcli.cards import Card

COLUMNS = ["position", "name", "kind", "cost", "type_line", "colors", "image"]


def library_csv(cards: Sequence[Card]) -> bytes:
    """UTF-8 with a BOM (without one Excel reads every — as three letters), and no cell a spreadsheet would
    run as a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for position, card in enumerate(cards, start=1):
        writer.writerow([position, *(inert(str(v)) for v in (card.name, card.kind, card.mana_cost, card.type_line,
                                                              "".join(card.colors), (card.print_images or ("",))[0]))])
    return "\ufeff".encode() + out.getvalue().encode("utf-8")


def inert(cell: str) -> str:
    """A leading ' on text a spreadsheet would take as a formula (=, +, -, @; tab and CR, as OWASP lists)."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell
