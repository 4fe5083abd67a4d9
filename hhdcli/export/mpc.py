"""An MPC Autofill order (https://github.com/chilli-axe/mpc-autofill): one XML file the desktop tool reads to
fill a MakePlayingCards.com project. The shape follows the registry's own exporter (Hellfall's
toMPCAutofill.ts): <order><details>(quantity, bracket, stock, foil)</details><fronts><card>(id, slots, name,
query)</card>…</fronts><backs>…</backs><cardback>ID</cardback></order>. Card images are Google Drive files,
named by their Drive id.

An order holds at most 612 cards: the desktop tool reads an order's <quantity> (desktop-tool/src/order.py,
Details.from_element) and, for more than PROJECT_MAX_SIZE = 612 (desktop-tool/src/constants.py), stops to ask
how to split it (CardOrder.get_project_sizes). So a larger print run is written as several orders, each of
612 cards but the last, in the tool's own "split every 612 cards" way, and each with the bracket that holds it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from hhdcli.cards import Card, drive_id

# The print-run sizes MakePlayingCards sells; an order takes the smallest that holds every card.
BRACKETS = (18, 36, 55, 72, 90, 108, 126, 144, 162, 180, 198, 216, 234, 396, 504, 612)
PROJECT_MAX_SIZE = BRACKETS[-1]  # mpc-autofill's constants.PROJECT_MAX_SIZE
HELLFALL_CARDBACK = "17ggqviE7RYfYxcW3oJTHhKlTFA5TrJfX"  # the back the registry's own orders use
STOCK = "(S30) Standard Smooth"


def bracket_for(quantity: int) -> int:
    return next((b for b in BRACKETS if b >= quantity), BRACKETS[-1])


def mpc_orders(cards: Sequence[Card], cardback: str = HELLFALL_CARDBACK) -> tuple[list[bytes], list[str]]:
    """The orders (one per 612 cards), and the names of cards left out because they have no Drive image."""
    printable = [(c, [drive_id(u) for u in c.print_images]) for c in cards]
    kept = [(card, ids) for card, ids in printable if ids and all(ids)]
    missing = [card.name for card, ids in printable if not (ids and all(ids))]
    runs = [kept[start:start + PROJECT_MAX_SIZE] for start in range(0, len(kept), PROJECT_MAX_SIZE)] or [[]]
    return [_order(run, cardback) for run in runs], list(dict.fromkeys(missing))


def _order(kept: list[tuple[Card, list[str | None]]], cardback: str) -> bytes:
    order = ET.Element("order")
    details = ET.SubElement(order, "details")
    for tag, value in (("quantity", len(kept)), ("bracket", bracket_for(len(kept))), ("stock", STOCK),
                       ("foil", "false")):
        ET.SubElement(details, tag).text = str(value)
    fronts, backs = ET.SubElement(order, "fronts"), ET.SubElement(order, "backs")
    _slots(fronts, [(ids[0], card, slot) for slot, (card, ids) in enumerate(kept)])
    _slots(backs, [(ids[1], card, slot) for slot, (card, ids) in enumerate(kept) if len(ids) > 1])
    ET.SubElement(order, "cardback").text = cardback
    ET.indent(order)
    return ET.tostring(order, encoding="utf-8", xml_declaration=True) + b"\n"


def _slots(parent: ET.Element, entries: list[tuple[str | None, Card, int]]) -> None:
    """One <card> per image, listing every slot (0-based) it fills. A token's search query has MPC Autofill's
    token prefix ("t:", its frontend's CardTypePrefixes), so a search finds it among tokens."""
    by_id: dict[str, tuple[Card, list[int]]] = {}
    for image_id, found, slot in entries:
        by_id.setdefault(str(image_id), (found, []))[1].append(slot)
    for image_id, (found, slots) in by_id.items():
        card = ET.SubElement(parent, "card")
        ET.SubElement(card, "id").text = image_id
        ET.SubElement(card, "slots").text = ",".join(map(str, slots))
        ET.SubElement(card, "name").text = f"{found.name}.png"
        ET.SubElement(card, "query").text = ("t:" if found.is_token else "") + found.name.lower()
