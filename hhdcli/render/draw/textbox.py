"""Rules text laid out for a card's text box: words and mana chips broken into lines at a size and width.

A card's rules text is tried at several sizes until it fits its box. Widths scale with the size, so each
word is measured once (at 1 pt) and every size after that is arithmetic: laying out all 720 cards' texts
costs less than ReportLab's Paragraph parsing them once. Lines break at spaces, a word wider than the line
is split between characters, and explicit line breaks are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from typing import TYPE_CHECKING, Any, NamedTuple

from hhdcli.mana import SymbolTable
from hhdcli.render.draw.fonts import Fonts, safe_text
from hhdcli.render.draw.palette import RGB
from hhdcli.render.draw.symbols import chip_label

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

LEADING = 1.16  # of the size, between baselines


class Piece(NamedTuple):  # named tuples: a whole set's texts make 100,000 of these
    """Part of a word in one font: plain text, or a mana chip (bold letters on the symbol's color)."""

    text: str
    chip: RGB | None = None
    unit_width: float = 0.0  # at 1 pt


class Word(NamedTuple):
    pieces: tuple[Piece, ...]
    unit_width: float


class BoxLine(NamedTuple):
    """One printed line of a text box: its words."""

    words: tuple[Word, ...]


@dataclass(frozen=True)
class TextBox:
    """A rules text laid out at `size`: its lines, and the height they take."""

    lines: tuple[BoxLine, ...]
    size: float
    space: float  # a space's width at 1 pt

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * LEADING

    def draw(self, canvas: Canvas, fonts: Fonts, x: float, top: float, ink: Any) -> None:
        """Draw from `top` down, left-aligned: the chips' color first, then each line as runs of one font
        (a run per chip and per stretch of plain words: few text operators, a small PDF)."""
        size = self.size
        baseline = top - size
        for line in self.lines:
            runs: list[tuple[str, bool]] = []  # (text, bold)
            cursor = x
            for i, word in enumerate(line.words):
                if i:
                    runs.append((" ", False))
                    cursor += self.space * size
                for piece in word.pieces:
                    if piece.chip is not None:
                        canvas.setFillColorRGB(*piece.chip)
                        canvas.rect(cursor, baseline - 0.22 * size, piece.unit_width * size, 1.06 * size,
                                    stroke=0, fill=1)
                    runs.append((piece.text, piece.chip is not None))
                    cursor += piece.unit_width * size
            canvas.setFillColor(ink)
            text = canvas.beginText(x, baseline)
            text.setFillColor(ink)
            for bold, group in groupby(runs, key=lambda run: run[1]):
                text.setFont(fonts.bold if bold else fonts.regular, size)
                text.textOut("".join(t for t, _ in group))
            canvas.drawText(text)
            baseline -= size * LEADING


def paragraphs(text: str, symbols: SymbolTable, fonts: Fonts,
               known: dict[str, tuple[Word, ...]] | None = None) -> tuple[tuple[Word, ...], ...]:
    """The text's lines (as written) as words of pieces, each measured at 1 pt. `known` keeps lines already
    read: a card's text with its format rulings added is its text's lines and the rulings' lines."""
    known = {} if known is None else known
    out = []
    for line in safe_text(fonts, text).splitlines():  # a character the font lacks prints as "?"
        words = known.get(line)
        if words is None:
            words = known[line] = _line_words(line, symbols, fonts)
        out.append(words)
    return tuple(out)


def _line_words(line: str, symbols: SymbolTable, fonts: Fonts) -> tuple[Word, ...]:
    """One line as words: breaks at spaces only; a chip sticks to the text beside it ("{T}:")."""
    from hhdcli.costs import SYMBOL

    words: list[Word] = []
    current: list[Piece] = []

    def plain(segment: str) -> None:
        # a brace left over from a symbol typed without its mate is dropped: braces only delimit symbols
        for i, part in enumerate(segment.replace("{", "").replace("}", "").split(" ")):
            if i and current:
                words.append(_word(current))
                current.clear()
            if part:
                current.append(Piece(part, None, _width(part, fonts.regular)))

    position = 0
    for found in SYMBOL.finditer(line):
        plain(line[position:found.start()])
        label, fill = chip_label(found.group(1).strip(), symbols, fonts)
        chip = f"\u00a0{label}\u00a0"
        current.append(Piece(chip, fill, _width(chip, fonts.bold)))
        position = found.end()
    plain(line[position:])
    if current:
        words.append(_word(current))
    return tuple(words)


def _word(pieces: list[Piece]) -> Word:
    return Word(tuple(pieces), sum(p.unit_width for p in pieces))


@lru_cache(maxsize=65536)
def _width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, font, 1.0))


def break_lines(lines: tuple[tuple[Word, ...], ...], size: float, width: float, fonts: Fonts) -> TextBox:
    """Break each line into lines no wider than `width` at `size` (greedy, as a printed card does)."""
    room = width / size  # in 1 pt units: one set of widths serves every size
    space = _width(" ", fonts.regular)
    out: list[BoxLine] = []
    for words in lines:
        current: list[Word] = []
        used = 0.0
        for word in _fitting(words, room, fonts):
            extra = word.unit_width + (space if current else 0.0)
            if current and used + extra > room:
                out.append(BoxLine(tuple(current)))
                current, used = [], 0.0
                extra = word.unit_width
            current.append(word)
            used += extra
        out.append(BoxLine(tuple(current)))
    return TextBox(tuple(out), size, space)


def _fitting(words: tuple[Word, ...], room: float, fonts: Fonts) -> list[Word]:
    """The words, with a plain word wider than a whole line split between characters (a long URL)."""
    out: list[Word] = []
    for word in words:
        if word.unit_width <= room or len(word.pieces) != 1 or word.pieces[0].chip is not None:
            out.append(word)
            continue
        chunk = ""
        for ch in word.pieces[0].text:
            if chunk and _width(chunk + ch, fonts.regular) > room:
                out.append(_word([Piece(chunk, None, _width(chunk, fonts.regular))]))
                chunk = ""
            chunk += ch
        out.append(_word([Piece(chunk, None, _width(chunk, fonts.regular))]))
    return out
