"""The library as CSV, for spreadsheets: one row per physical card, in library order."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from hhdcli.cards import Card

COLUMNS = ["position", "name", "kind", "cost", "type_line", "colors", "image"]


def library_csv(cards: Sequence[Card]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for position, card in enumerate(cards, start=1):
        writer.writerow([position, card.name, card.kind, card.mana_cost, card.type_line, "".join(card.colors),
                         (card.print_images or ("",))[0]])
    return out.getvalue().encode("utf-8")
