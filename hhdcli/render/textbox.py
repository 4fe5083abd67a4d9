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
from typing import TYPE_CHECKING, Any

from hhdcli.mana import SymbolTable
from hhdcli.render.fonts import Fonts, safe_text
from hhdcli.render.symbols import chip_label

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

LEADING = 1.16  # of the size, between baselines
RGB = tuple[float, float, float]


@dataclass(frozen=True)
class Piece:
    """Part of a word in one font: plain text, or a mana chip (bold letters on the symbol's colour)."""

    text: str
    chip: RGB | None = None
    unit_width: float = 0.0  # at 1 pt


@dataclass(frozen=True)
class Word:
    pieces: tuple[Piece, ...]
    unit_width: float


@dataclass(frozen=True)
class Line:
    words: tuple[Word, ...]


@dataclass(frozen=True)
class TextBox:
    """A rules text laid out at `size`: its lines, and the height they take."""

    lines: tuple[Line, ...]
    size: float
    space: float  # a space's width at 1 pt

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * LEADING

    def draw(self, canvas: Canvas, fonts: Fonts, x: float, top: float, ink: Any) -> None:
        """Draw from `top` down, left-aligned: the chips' colour first, then each line as runs of one font
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


def paragraphs(text: str, table: SymbolTable, fonts: Fonts) -> tuple[tuple[Word, ...], ...]:
    """The text's lines (as written) as words of pieces, each measured at 1 pt."""
    from hhdcli.costs import SYMBOL

    out = []
    for line in text.splitlines():
        pieces: list[Piece] = []
        position = 0
        for found in SYMBOL.finditer(line):
            pieces.extend(_plain(line[position:found.start()], fonts))
            label, fill = chip_label(found.group(1).strip(), table, fonts)
            pieces.append(Piece(f"\u00a0{label}\u00a0", fill, _width(f"\u00a0{label}\u00a0", fonts.bold)))
            position = found.end()
        pieces.extend(_plain(line[position:], fonts))
        out.append(_words(pieces))
    return tuple(out)


def _plain(text: str, fonts: Fonts) -> list[Piece]:
    """Text between symbols, split at spaces (a space piece marks a break); a brace left over from a symbol
    typed without its mate is dropped: braces only ever delimit symbols."""
    cleaned = safe_text(fonts, text.replace("{", "").replace("}", ""))
    pieces: list[Piece] = []
    for i, part in enumerate(cleaned.split(" ")):
        if i:
            pieces.append(Piece(" "))
        if part:
            pieces.append(Piece(part, None, _width(part, fonts.regular)))
    return pieces


def _words(pieces: list[Piece]) -> tuple[Word, ...]:
    words, current = [], []  # type: ignore[var-annotated]
    for piece in pieces:
        if piece.text == " " and piece.chip is None:
            if current:
                words.append(Word(tuple(current), sum(p.unit_width for p in current)))
            current = []
        else:
            current.append(piece)
    if current:
        words.append(Word(tuple(current), sum(p.unit_width for p in current)))
    return tuple(words)


@lru_cache(maxsize=65536)
def _width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, font, 1.0))


def lay_out(lines: tuple[tuple[Word, ...], ...], size: float, width: float, fonts: Fonts) -> TextBox:
    """Break each line into lines no wider than `width` at `size` (greedy, as a printed card does)."""
    room = width / size  # in 1 pt units: one set of widths serves every size
    space = _width(" ", fonts.regular)
    out: list[Line] = []
    for words in lines:
        current: list[Word] = []
        used = 0.0
        for word in _fitting(words, room, fonts):
            extra = word.unit_width + (space if current else 0.0)
            if current and used + extra > room:
                out.append(Line(tuple(current)))
                current, used = [], 0.0
                extra = word.unit_width
            current.append(word)
            used += extra
        out.append(Line(tuple(current)))
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
                out.append(Word((Piece(chunk, None, _width(chunk, fonts.regular)),), _width(chunk, fonts.regular)))
                chunk = ""
            chunk += ch
        out.append(Word((Piece(chunk, None, _width(chunk, fonts.regular)),), _width(chunk, fonts.regular)))
    return out
