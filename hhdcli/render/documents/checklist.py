"""The red-sleeve checklist: one line per physical card, grouped (drawn as PDF by checklist_pdf.py, as HTML or
Markdown by the templates)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from hhdcli.cards import Card, CardType, Kind, normalize_name
from hhdcli.colors import GROUP_ORDER, Group, group_of
from hhdcli.i18n import format_date, translator
from hhdcli.library import Library
from hhdcli.render.texts import labels, shown_type_line
from hhdcli.rulings import card_rulings
from hhdcli.tokens import NeededToken, library_tokens


class Sort(StrEnum):
    """How the checklist groups its lines."""

    COLOR = "color"
    TYPE = "type"
    NAME = "name"
    POSITION = "position"

    @classmethod
    def _missing_(cls, value: object) -> Sort | None:
        return cls.COLOR if value == "colour" else None  # the British spelling keeps working


class Mode(StrEnum):
    SLEEVE = "sleeve"  # building the library
    RETURN = "return"  # counting it back at the end of a session


@dataclass(frozen=True)
class Line:
    name: str
    cost: str
    type_line: str
    group: Group
    kind: CardType | Kind  # the main type, or Kind.BASIC for the basic lands
    frame: Group  # the frame color, for the little color mark
    boxes: int  # physical cards on this line (basics are aggregated)
    position: int  # first library position
    hell: bool = False  # a ruling of the format applies to the card (marked ⚑, with a legend)


@dataclass
class Section:
    heading: str
    lines: list[Line] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(line.boxes for line in self.lines)


@dataclass
class Checklist:
    title: str
    subtitle: str
    header: list[tuple[str, str]]
    groups: list[Section]
    total: int
    labels: dict[str, str]
    lang: str
    has_rulings: bool = False  # some card is marked ⚑: the legend is printed
    total_text: str = ""  # "Total: 97 cards", in the checklist's language and plural
    tokens: Section | None = None  # the tokens to bring, under the cards: each with the cards that make it


def lines_for(cards: Sequence[Card], lang: str = "en") -> list[Line]:
    """One line per card; copies of a basic become one line with a box per copy."""
    copies = Counter(c.name for c in cards if c.is_basic)
    lines, seen = [], set()
    for position, card in enumerate(cards, start=1):
        if card.is_basic:
            if card.name in seen:
                continue
            seen.add(card.name)
            boxes = copies[card.name]
        else:
            boxes = 1
        kind = Kind.BASIC if card.is_basic else card.primary_type
        type_line = shown_type_line(card, lang)
        lines.append(Line(card.name, card.mana_cost, type_line, card.group, kind, card.frame, boxes, position,
                          bool(card_rulings(card))))
    return lines


def token_lines(needed: Sequence[NeededToken], text: dict[str, str]) -> list[Line]:
    """One line per token to bring, a box per copy: its name and stats, and the cards that make it (marked when
    only their texts say so) where a card's type line goes: on a two-column sheet the makers matter more."""
    lines = []
    for position, item in enumerate(needed, start=1):
        token = item.token
        stats = f" {token.power}/{token.toughness}" if token.power or token.toughness else ""
        makers = text["made_by"].format(cards=", ".join(m.card.name for m in item.makers))
        inferred = " " + text["inferred"] if item.inferred else ""
        group = group_of(token.colors)
        lines.append(Line(token.name + stats, token.mana_cost, makers + inferred, group,
                          CardType.OTHER, group, item.copies(), position))
    return lines


def build_checklist(library: Library, cards: Sequence[Card], card_version: str, sort: Sort = Sort.COLOR,
                    mode: Mode = Mode.SLEEVE, lang: str = "en", today: date | None = None,
                    tokens: Sequence[NeededToken] | None = None) -> Checklist:
    """The checklist of a library's cards, then the tokens they make (`tokens`: default, those hhd finds)."""
    text = labels(lang)
    mode = Mode(mode)
    lines = lines_for(cards, lang)
    groups = _grouped(lines, Sort(sort), text)
    header = [(text["seed"], library.seed), (text["date"], format_date(today or date.today(), lang)),
              (text["data"], card_version), (text["sleeves"], text["red"])]
    total = sum(g.count for g in groups)
    total_text = translator(lang).ngettext("Total: {n} card", "Total: {n} cards", total).format(n=total)
    needed = library_tokens(cards) if tokens is None else tokens
    made = Section(text["tokens"], token_lines(needed, text)) if needed else None
    return Checklist(text[f"title_{mode}"], text[f"subtitle_{mode}"], header, groups, total,
                     text, lang, any(line.hell for line in lines), total_text, made)


def _grouped(lines: list[Line], sort: Sort, text: dict[str, str]) -> list[Section]:
    by_name = sorted(lines, key=lambda line: normalize_name(line.name))
    if sort is Sort.POSITION:
        return [Section(text["order"], sorted(lines, key=lambda line: line.position))]
    if sort is Sort.NAME:
        return [Section(text["A"], by_name)]
    by_type = sort is Sort.TYPE
    order: list[str] = [*CardType, Kind.BASIC] if by_type else list(GROUP_ORDER)
    sections = []
    for key in order:
        members = [line for line in by_name if (line.kind if by_type else line.group) == key]
        if members:
            sections.append(Section(text[key], members))
    return sections
