"""How a text proxy's words fit its card, measured with the fonts' metrics and no canvas: the room each face
takes, its rules text laid out at a size, a card too long for one proxy split over several. The planner measures
and the painter draws with the same layouts (one per text, size and width), so nothing is laid out twice."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from hhdcli.cards import Card, Face
from hhdcli.mana import SymbolTable
from hhdcli.render.draw.fonts import Fonts
from hhdcli.render.draw.textbox import TextBox, break_lines, paragraphs
from hhdcli.render.plan.sheet import MM

BORDER = 1.4 * MM
INSET = BORDER + 1.8 * MM  # from the card's edge to its bars and text box
PAD = 1.6 * MM  # rules text from each side of its box
MIN_PT = 6.0  # nothing on a card is smaller
RULINGS_PT = 7.5  # the format's rulings join a text box only when all of it still fits at this size


@dataclass(frozen=True)
class Slot:
    x: float
    y: float
    w: float
    h: float
    bleed: float = 0.0


@dataclass
class TextLayouts:
    boxes: dict[tuple[str, float, float], TextBox] = field(default_factory=dict)  # (text, size, width) → layout
    lines: dict[str, Any] = field(default_factory=dict)  # a line of rules text → its words, measured


@dataclass
class Measure:
    """The card's words against its room, for the fonts and symbols the sheet is drawn with; `texts` keeps every
    layout made, for the painter to draw as measured."""

    fonts: Fonts
    symbols: SymbolTable
    texts: TextLayouts = field(default_factory=TextLayouts)

    @staticmethod
    def text_area(slot: Slot) -> tuple[float, float, float, float]:
        """The room the faces share: top, bottom (above the footer), left and width."""
        return slot.y + slot.h - INSET, slot.y + 5 * MM, slot.x + INSET, slot.w - 2 * INSET

    @staticmethod
    def printed_faces(card: Card) -> list[Face]:
        """The faces a text proxy prints: a slot holding only stray text (Gristly Bear's flavour in a cost slot)
        is not a face."""
        return [f for f in card.faces if f.type_line or f.oracle_text] or list(card.faces[:1])

    @staticmethod
    def named(card: Card, face: Face) -> bool:
        """A face with a name of its own gets a name bar; Hell's Cube's unnamed sides and the numbered
        faces of the legacy sheet ("Name (face 3)") do not."""
        return bool(face.name) and not (face.name.startswith(card.name) and face.name.endswith(")")
                                        and " (face " in face.name)

    def parts(self, card: Card, slot: Slot) -> list[tuple[Face, ...]]:
        """The card's faces over as many proxies as every word needs at 6 pt: whole faces while they fit,
        and a face too long for one card split between words."""
        top, bottom, _, w = self.text_area(slot)
        total, width = top - bottom, w - 2 * PAD
        parts: list[list[Face]] = [[]]
        for face in self.printed_faces(card):
            for piece in self._pieces(card, face, total, width):
                if parts[-1] and not self.fits([*parts[-1], piece], total, w, is_compact(len(parts[-1]) + 1), MIN_PT,
                                                 card):
                    parts.append([])
                parts[-1].append(piece)
        return [tuple(p) for p in parts]

    def _pieces(self, card: Card, face: Face, total: float, width: float) -> list[Face]:
        """A face, or its text cut between words into pieces that each fit one card at 6 pt."""
        room = total - self.fixed_height(face, False, self.named(card, face))
        if self.text_height(face.oracle_text, width, MIN_PT) <= room:
            return [face]  # the usual case: the whole text fits one card
        words, pieces = face.oracle_text.split(" "), []
        while words:
            low, high = 1, len(words)  # the most words that fit: a binary search over the count
            while low < high:
                mid = (low + high + 1) // 2
                if self.text_height(" ".join(words[:mid]), width, MIN_PT) <= room:
                    low = mid
                else:
                    high = mid - 1
            pieces.append(replace(face, oracle_text=" ".join(words[:low])))
            words = words[low:]
        return pieces or [face]

    def fits(self, faces: list[Face], total: float, width: float, compact: bool, size: float = RULINGS_PT,
              card: Card | None = None) -> bool:
        fixed = sum(self.fixed_height(face, compact, card is None or self.named(card, face)) for face in faces)
        return fixed + sum(self.text_height(f.oracle_text, width - 2 * PAD, size) for f in faces) <= total

    def face_heights(self, faces: list[Face], total: float, width: float, compact: bool,
                      card: Card | None = None) -> list[float]:
        """Each face's share of the card: its bars, and a rules box as tall as its text needs (what is left
        goes to the faces with the most text; a face without text gets no empty box)."""
        fixed = [self.fixed_height(face, compact, card is None or self.named(card, face)) for face in faces]
        needs = [self.text_height(face.oracle_text, width - 2 * PAD, MIN_PT) for face in faces]
        spare = total - sum(fixed)
        if sum(needs) <= 0:
            return [f + spare / len(faces) for f in fixed]
        if sum(needs) >= spare:  # not all fits even at 6 pt: share by need
            return [f + spare * need / sum(needs) for f, need in zip(fixed, needs, strict=True)]
        # each box gets what its text needs at 6 pt, and the rest of the room in proportion to it
        rest = spare - sum(needs)
        return [f + need + rest * need / sum(needs) for f, need in zip(fixed, needs, strict=True)]

    def fixed_height(self, face: Face, compact: bool, named: bool = True) -> float:
        """A face's height without its rules text: the name bar, the type line, the gaps, the stats' band."""
        bar = bar_height(compact)
        name = bar + 1.0 * MM if named else 0.0
        return name + bar * 0.8 + 1.0 * MM + stats_band(self.stats(face)) + 2.0 * MM

    def text_height(self, text: str, width: float, size: float) -> float:
        if not text.strip():
            return 0.0
        return self.laid_out(text, size, width).height

    def laid_out(self, text: str, size: float, width: float) -> TextBox:
        """The rules text broken into lines for `width` at `size` (the same layout measures and draws)."""
        key = (text, size, width)
        found = self.texts.boxes.get(key)
        if found is None:
            words = paragraphs(text, self.symbols, self.fonts, self.texts.lines)
            found = self.texts.boxes[key] = break_lines(words, size, width, self.fonts)
        return found

    @staticmethod
    def stats(face: Face) -> list[str]:
        """P/T only when both are printed; loyalty beside it (or alone)."""
        shown = []
        if face.loyalty:
            shown.append(f"◊ {face.loyalty}")
        if face.power is not None and face.toughness is not None:
            shown.append(f"{face.power}/{face.toughness}")
        return shown


def is_compact(faces: int) -> bool:
    """A card of more than two faces gets the lower bars, to leave its text boxes room."""
    return faces > 2


def stats_band(stats: list[str]) -> float:
    """The strip under the text box: room for the P/T box, else a hairline."""
    return 4.6 * MM if stats else 0.6 * MM


def bar_height(compact: bool) -> float:
    """A name bar's height (the type line's is 0.8 of it)."""
    return (5.2 if compact else 6.4) * MM
