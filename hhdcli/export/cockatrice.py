"""Cockatrice: a custom set file (cockatrice_carddatabase version 4) with every distinct Hell card of the
library, and a deck file (.cod) with the 97 cards in zone `main`, basic lands under their usual names.

Followed: Cockatrice's wiki page "Custom Cards & Sets" (set and card fields, picURL) and the registry's
own exporter (Hellfall's toCockCube.ts: one <card> per face, the back with side `back` and each face
pointing at the other with <reverse-related attach="transform">).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date
from functools import lru_cache

from hhdcli.cards import Card, Face, is_land_type, normalize_name
from hhdcli.rulings import hell_lines

SET_CODE = "HELL"
_LAYOUTS = {"modal": "modal_dfc", "inset": "adventure", "multi": "split", "token_in_inset": "normal"}
_TABLE_ROWS = {"land": 0, "creature": 2, "instant": 3, "sorcery": 3}  # Cockatrice's rows on the table


@lru_cache(maxsize=1)
def _real_names() -> frozenset[str]:
    """Hellscube names that are also real Magic card names (built by scripts/build_real_names.py)."""
    from importlib.resources import files

    document = json.loads((files("hhdcli") / "data" / "real-names.json").read_text(encoding="utf-8"))
    return frozenset(normalize_name(name) for name in document["names"])


def cockatrice_name(name: str) -> str:
    """The name Cockatrice gets: a Hell card sharing a real card's name (Watch Wolf) is "Watch Wolf (HC)",
    or Cockatrice, which keys cards by name, would merge it into the real card."""
    return f"{name} (HC)" if normalize_name(name) in _real_names() else name


def deck_name(card: Card) -> str:
    """The name a deck file uses for a card: a double-faced card by its front face, as Cockatrice does."""
    return cockatrice_name(card.faces[0].name if card.is_double_faced else card.name)


def set_file(cards: Sequence[Card], title: str, made: date) -> bytes:
    database = ET.Element("cockatrice_carddatabase", version="4")
    sets = ET.SubElement(ET.SubElement(database, "sets"), "set")
    for tag, value in (("name", SET_CODE), ("longname", title), ("settype", "Custom"),
                       ("releasedate", made.isoformat())):
        ET.SubElement(sets, tag).text = value
    listed = ET.SubElement(database, "cards")
    distinct = {c.id: c for c in cards if not c.is_basic}.values()
    for card in sorted(distinct, key=lambda c: c.name.lower()):
        if card.is_double_faced:
            front, back = card.faces[0], card.faces[1]
            _card(listed, card, front.name, front.oracle_text, front, "front", front.image, back.name)
            _card(listed, card, back.name, back.oracle_text, back, "back", back.image, front.name)
        else:
            image = card.print_images[0] if card.print_images else None
            text = "\n//\n".join(f.oracle_text for f in card.faces if f.oracle_text)
            _card(listed, card, card.name, text, card.faces[0], "front", image, None)
    ET.indent(database)
    return ET.tostring(database, encoding="utf-8", xml_declaration=True) + b"\n"


def _card(parent: ET.Element, card: Card, name: str, text: str, face: Face, side: str, image: str | None,
          other_side: str | None) -> None:
    """One <card>, its children in the order of Cockatrice's cards.xsd: name, text, prop, set, reverse-related,
    tablerow."""
    node = ET.SubElement(parent, "card")
    ET.SubElement(node, "name").text = cockatrice_name(name)
    ET.SubElement(node, "text").text = "\n".join([text, *hell_lines(card)]) if side == "front" else text
    prop = ET.SubElement(node, "prop")
    main_type = _main_type(face.type_line)
    double = side == "back" or card.is_double_faced
    values = {
        "layout": _LAYOUTS.get(card.layout, card.layout), "side": side,
        "type": face.type_line if double else _whole(f.type_line for f in card.faces),
        "maintype": main_type,
        # the costs of the faces the registry counts: an inset token's (Warp World) is not the card's
        "manacost": face.mana_cost if double else _whole(f.mana_cost for f in card.faces if f.counts),
        "cmc": _number(card.mana_value), "colors": "".join(face.colors or card.colors),
        "coloridentity": "".join(card.color_identity) if side == "front" else "",
        "pt": f"{face.power}/{face.toughness}" if face.power and face.toughness else "",
        "loyalty": face.loyalty or "",
    }
    for tag, value in values.items():
        if value:
            ET.SubElement(prop, tag).text = value
    ET.SubElement(node, "set", picurl=image or "", uuid=f"{card.id}{'-back' if side == 'back' else ''}").text = SET_CODE
    if other_side:
        ET.SubElement(node, "reverse-related", attach="transform").text = cockatrice_name(other_side)
    ET.SubElement(node, "tablerow").text = str(_TABLE_ROWS.get(main_type.lower(), 1))


def _whole(parts: Iterable[str]) -> str:
    """Every face's part, as a split card writes it: "Instant // Sorcery"."""
    return " // ".join(p for p in parts if p)


def _main_type(type_line: str) -> str:
    words = type_line.split("—")[0].split()
    if is_land_type(type_line):
        return "Land"
    for known in ("Creature", "Planeswalker", "Instant", "Sorcery", "Artifact", "Enchantment", "Battle"):
        if known in words:
            return known
    return words[-1] if words else ""


def _number(value: float | None) -> str:
    return "0" if value is None else str(int(value)) if float(value).is_integer() else str(value)


def deck_file(cards: Sequence[Card], title: str, comments: str) -> bytes:
    deck = ET.Element("cockatrice_deck", version="1")
    ET.SubElement(deck, "deckname").text = title
    ET.SubElement(deck, "comments").text = comments
    main = ET.SubElement(deck, "zone", name="main")
    for name, count in Counter(deck_name(c) for c in cards).items():
        ET.SubElement(main, "card", number=str(count), name=name)
    ET.indent(deck)
    return ET.tostring(deck, encoding="utf-8", xml_declaration=True) + b"\n"
