"""Tabletop Simulator: a saved object (load it from Objects → Saved Objects) holding the Hell library as
one face-down deck in library order, a second deck with the two sides of every double-faced card, a deck of
the tokens the library's cards make (face up, beside the library, as players lay them out), and a notecard
with the take rule.

Followed: Tabletop Simulator's save-file format (the knowledge base's "Save File Format" and "Custom Deck"
pages: ObjectStates, DeckCustom with DeckIDs and CustomDeck, Card with CardID = deck key × 100 + index,
FaceURL/BackURL, NumWidth/NumHeight, BackIsHidden, UniqueBack, SidewaysCard) and the registry's own
exporter (Hellfall's HCToTTSDeck.ts: one CustomDeck entry per card, a separate deck for double-faced cards).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from hhdcli.cards import Card, card_text
from hhdcli.i18n import _
from hhdcli.rulings import hell_lines

FACE_DOWN = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
             "scaleX": 1, "scaleY": 1, "scaleZ": 1}


def _transform(x: float, face_down: bool = True) -> dict[str, float]:
    return {**FACE_DOWN, "posX": x, "rotZ": 180 if face_down else 0}


def _custom(face: str, back: str, unique_back: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"FaceURL": face, "BackURL": back, "NumWidth": 1, "NumHeight": 1, "BackIsHidden": True}
    if unique_back:
        entry["UniqueBack"] = True
    return entry


def _card(key: int, card: Card, custom: dict[str, Any], x: float, note: str = "") -> dict[str, Any]:
    # the format's rulings on a Hell card, as "Hell: …"; a token says which cards make it instead
    description = "\n".join([card_text(card), *([note] if card.is_token else hell_lines(card))])
    entry: dict[str, Any] = {"Name": "Card", "Nickname": card.name, "Description": description,
                             "CardID": key * 100, "CustomDeck": {str(key): custom}, "Transform": _transform(x)}
    if card.rotated_image:
        # Tabletop Simulator lays a SidewaysCard's picture on its side: right for the registry's rotated_image
        # (the face shown), wrong for an upright scan; Hellfall's HCToTTSDeck.ts marks exactly the cards with one
        entry["SidewaysCard"] = True
    return entry


def _deck(nickname: str, description: str, entries: list[tuple[Card, dict[str, Any]]], x: float,
          face_down: bool = True, first_key: int = 1, notes: Sequence[str] = ()) -> dict[str, Any]:
    """A deck whose CustomDeck keys start at `first_key`: keys (and so CardIDs) are unique across the save."""
    keyed = list(enumerate(entries, start=first_key))
    cards = [_card(key, card, custom, x, notes[i] if i < len(notes) else "")
             for i, (key, (card, custom)) in enumerate(keyed)]
    return {"Name": "DeckCustom", "Nickname": nickname, "Description": description,
            "Transform": _transform(x, face_down), "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": {str(key): custom for key, (_, custom) in keyed}, "ContainedObjects": cards}


def tts_save(cards: Sequence[Card], title: str, face_url: Callable[[Card, int], str], back_url: str,
             rules: str, *, tokens: Sequence[tuple[Card, str]] = ()) -> bytes:
    """The saved object. `face_url(card, side)` gives each side's image (side 0 front, 1 back); `tokens` are the
    token cards to lay beside the library, each with the line saying which cards make it."""
    library = _deck(title, _("The Hell library, top card first. Draw from the top; never shuffle it."),
                    [(card, _custom(face_url(card, 0), back_url)) for card in cards], 0)
    states = [library]
    dfcs = [(card, _custom(face_url(card, 0), face_url(card, 1), unique_back=True))
            for card in dict.fromkeys(c for c in cards if c.is_double_faced)]
    if len(dfcs) >= 2:  # a deck of one card is no deck to Tabletop Simulator: one card is a card
        states.append(_deck(_("Double-faced cards"), _("Both sides of the library's double-faced cards, to swap in "
                                                           "when one is drawn."), dfcs, 2.5, face_down=False, first_key=len(cards) + 1))
    elif dfcs:
        card, custom = dfcs[0]
        states.append({**_card(len(cards) + 1, card, custom, 2.5), "Transform": _transform(2.5, face_down=False)})
    first = len(cards) + len(dfcs) + 1
    entries = [(token, _custom(face_url(token, 0), back_url)) for token, note in tokens]
    if len(entries) >= 2:
        states.append(_deck(_("Tokens"), _("The tokens the library's cards make: take one when a card makes it."),
                            entries, 5, face_down=False, first_key=first, notes=[note for token, note in tokens]))
    elif entries:
        (card, custom), note = entries[0], tokens[0][1]
        states.append({**_card(first, card, custom, 5, note), "Transform": _transform(5, face_down=False)})
    states.append({"Name": "Notecard", "Nickname": _("Hell's Half-Draft: taking a Hell card"), "Description": rules,
                   "Transform": _transform(-2.5, face_down=False)})
    return (json.dumps({"SaveName": title, "ObjectStates": states}, indent=2, ensure_ascii=False) + "\n").encode()
