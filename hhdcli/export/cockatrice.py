"""Cockatrice: a custom set file (cockatrice_carddatabase version 4) with every distinct Hell card of the
library, and a deck file (.cod) with the 97 cards in zone `main`, basic lands under their usual names.

Followed: Cockatrice's wiki page "Custom Cards & Sets" (set and card fields, picURL) and the registry's
own exporter (bones-bones/hellfall packages/shared/src/utils/cockatrice/toCockCube.ts and HCToCockCard.ts:
one <card> per face of a double-faced card, the back with side `back` and each face pointing at the other
with <reverse-related attach="transform">; every face's colors and P/T on a one-<card> card; the tokens the
cards make as cards of their own with <token>1</token> and a <reverse-related> naming each card that makes
them). tests/test_export.py compares the two field by field and lists where hhd differs on purpose.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date
from functools import lru_cache

from hhdcli import DATA
from hhdcli.cards import Card, Face, is_land_type, normalize_name
from hhdcli.colors import COLORS
from hhdcli.rulings import hell_lines
from hhdcli.tokens import Maker, Token

SET_CODE = "HELL"
# The registry's layouts as Cockatrice knows them (Hellfall's HCToCockCard.ts, hcToCockLayout): Cockatrice
# has no saga, leveler or cube layout, and an inset is drawn as an adventure
_LAYOUTS = {"multi": "split", "inset": "adventure", "prepare": "prepare", "split": "split", "aftermath": "aftermath",
            "meld_part": "meld", "meld_result": "meld", "draft_partner": "draft_partner", "modal": "modal_dfc",
            "transform": "transform", "specialize": "transform", "flip": "flip",
            **dict.fromkeys(("token", "multi_token", "emblem", "reminder", "multi_reminder", "stickers", "dungeon",
                             "real_card_token", "real_card_multi_token", "checklist", "misc"), "token")}
_TABLE_ROWS = {"land": 0, "creature": 2, "instant": 3, "sorcery": 3}  # Cockatrice's rows on the table


@lru_cache(maxsize=1)
def _real_names() -> frozenset[str]:
    """Hellscube names that are also real Magic card names (built by scripts/build_real_names.py)."""
    document = json.loads((DATA / "real-names.json").read_text(encoding="utf-8"))
    return frozenset(normalize_name(name) for name in document["names"])


def cockatrice_name(name: str) -> str:
    """The name Cockatrice gets: a Hell card sharing a real card's name (Watch Wolf) is "Watch Wolf (HC)",
    or Cockatrice, which keys cards by name, would merge it into the real card."""
    return f"{name} (HC)" if normalize_name(name) in _real_names() else name


def deck_name(card: Card) -> str:
    """The name a deck file uses for a card: a double-faced card by its front face, as Cockatrice does."""
    return cockatrice_name(card.faces[0].name if card.is_double_faced else card.name)


def set_file(cards: Sequence[Card], title: str, made: date,
             tokens: Sequence[tuple[Token, list[tuple[Card, Maker]]]] = ()) -> bytes:
    """The custom set: every distinct card of the library, then the tokens they make (see `tokens_for`)."""
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
            # the faces' texts apart as the registry's exporter and Cockatrice's own database write a split
            # card's; an inset token's text is its own card's (the token), not this one's
            text = "\n\n---\n\n".join(f.oracle_text for f in card.counted_faces or card.faces if f.oracle_text)
            _card(listed, card, card.name, text, card.faces[0], "front", image, None)
    names = {normalize_name(cockatrice_name(name)) for c in distinct
             for name in ([f.name for f in c.faces[:2]] if c.is_double_faced else [c.name])}  # the <card>s' names
    for token, makers in tokens:
        _token(listed, token, makers, clash=normalize_name(cockatrice_name(token.name)) in names)
    ET.indent(database)
    return ET.tostring(database, encoding="utf-8", xml_declaration=True) + b"\n"


def _card(parent: ET.Element, card: Card, name: str, text: str, face: Face, side: str, image: str | None,
          other_side: str | None) -> None:
    """One <card>, its children in the order of Cockatrice's cards.xsd: name, text, prop, set, reverse-related,
    tablerow."""
    node = ET.SubElement(parent, "card")
    ET.SubElement(node, "name").text = cockatrice_name(name)
    ET.SubElement(node, "text").text = "\n".join([text, *hell_lines(card)]) if side == "front" else text
    main_type = _main_type(face.type_line)
    double = side == "back" or card.is_double_faced
    # a one-<card> card (split, flip, inset…) is every face the registry counts: an inset token's (Warp
    # World) type, cost, colors and P/T are not the card's
    faces = (face,) if double else card.counted_faces or card.faces[:1]
    _props(node, {
        "layout": _LAYOUTS.get(card.layout, "normal"), "side": side,
        "type": _whole(f.type_line for f in faces), "maintype": main_type,
        "manacost": _whole(f.mana_cost for f in faces),
        # a face's own colors; a one-<card> card's are the card's (the registry's: both halves of a split card,
        # an adventurer's own alone, as the rules color them)
        "cmc": _number(card.mana_value), "colors": _colors(face.colors if double else card.colors),
        "coloridentity": _colors(card.color_identity) if side == "front" else "",
        "pt": _pt(faces), "loyalty": face.loyalty or "",
    })
    ET.SubElement(node, "set", picurl=image or "", uuid=f"{card.id}{'-back' if side == 'back' else ''}").text = SET_CODE
    if other_side:
        ET.SubElement(node, "reverse-related", attach="transform").text = cockatrice_name(other_side)
    ET.SubElement(node, "tablerow").text = str(_TABLE_ROWS.get(main_type.lower(), 1))


def _props(node: ET.Element, values: dict[str, str]) -> None:
    """A card's <prop>: one element per value that is not empty, in the order given (cards.xsd's)."""
    prop = ET.SubElement(node, "prop")
    for tag, value in values.items():
        if value:
            ET.SubElement(prop, tag).text = value


def _colors(letters: Iterable[str]) -> str:
    """Color letters once each, in WUBRG order with purple last."""
    found = set(letters)
    return "".join(c for c in COLORS if c in found)


def _pt(faces: Sequence[Face]) -> str:
    """Every face's P/T, as the registry's exporter writes them: "2/3 // 6/6" for a flip card, "/ // 3/3" for a
    split card whose second half is the creature; nothing when no face has one."""
    faces = list(faces)
    while faces and not (faces[-1].power or faces[-1].toughness):
        faces.pop()  # an adventurer's spell half adds no "/" (Bill Nye is 2/3)
    return " // ".join(f"{f.power or ''}/{f.toughness or ''}" for f in faces)


def _token(parent: ET.Element, token: Token, makers: list[tuple[Card, Maker]], clash: bool = False) -> None:
    """A token as a card of the set: <token>1</token>, and a <reverse-related> naming each card of the export
    that makes it (Cockatrice then offers the token on that card), with the count and persistence the card
    gives (Hellfall's hcRelatedToCockRelated). A token named like a card of the set (Hell's Cube makes a
    Hell's Cube) is "Name (token)": Cockatrice keys cards by name and would merge the two."""
    node = ET.SubElement(parent, "card")
    ET.SubElement(node, "name").text = f"{token.name} (token)" if clash else cockatrice_name(token.name)
    ET.SubElement(node, "text").text = token.oracle_text
    main_type = _main_type(token.type_line)
    _props(node, {"layout": "token", "side": "front", "type": token.type_line, "maintype": main_type,
              "manacost": token.mana_cost, "cmc": _number(token.mana_value), "colors": _colors(token.colors),
              "coloridentity": _colors(token.color_identity),
              "pt": f"{token.power or ''}/{token.toughness or ''}" if token.power or token.toughness else "",
              "loyalty": token.loyalty or ""})
    ET.SubElement(node, "set", picurl=token.image or "", uuid=token.id or token.name).text = SET_CODE
    for card, maker in makers:
        attributes = {"count": maker.count} if maker.count else {}
        if maker.persistent:
            attributes["persistent"] = "persistent"
        ET.SubElement(node, "reverse-related", attributes).text = deck_name(card)
    ET.SubElement(node, "token").text = "1"
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
