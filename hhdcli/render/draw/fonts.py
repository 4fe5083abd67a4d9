"""A font with wide Unicode coverage (Cyrillic, Greek, symbols) for every printed page."""

from __future__ import annotations

import hashlib
import io
import struct
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.files import read_input
from hhdcli.i18n import _

if TYPE_CHECKING:
    from reportlab.pdfbase.ttfonts import TTFont

# The font hhd ships (DejaVu Sans Condensed: Latin, Greek, Cyrillic and symbols; see scripts/build_fonts.py):
# every machine prints the same pages, whatever fonts it has.
SHIPPED = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansCondensed-Oblique.ttf")


class Fonts:
    """The three faces' registered names. The shipped faces are read when a page first uses them (each is a
    10 ms parse): a sheet of scans prints its footer in the regular face only, and never reads the other two."""

    __slots__ = ("_names", "_files", "unicode")

    def __init__(self, regular: str, bold: str, italic: str, unicode: bool,
                 files: dict[str, str] | None = None) -> None:
        self._names = (regular, bold, italic)
        self._files = dict(files or {})  # a name not registered yet → its font file
        self.unicode = unicode  # False when only ReportLab's built-in Helvetica (Latin-1) is available

    @property
    def regular(self) -> str:
        return self._registered(self._names[0])

    @property
    def bold(self) -> str:
        return self._registered(self._names[1])

    @property
    def italic(self) -> str:
        return self._registered(self._names[2])

    def _registered(self, name: str) -> str:
        if name in self._files:
            with _REGISTERING:
                file = self._files.pop(name, None)
                if file is not None:
                    from reportlab.pdfbase import pdfmetrics
                    from reportlab.pdfbase.ttfonts import TTFont

                    pdfmetrics.registerFont(TTFont(name, file))
        return name

    def can_show(self, text: str, bold: bool = False) -> bool:
        """True when every character of `text` has a glyph in the font."""
        return not missing_glyphs(self.bold if bold else self.regular, text)


_REGISTERING = threading.Lock()  # two threads drawing at once register a face once


MAX_FONT_BYTES = 64 * 1024 * 1024  # CJK fonts run to ~20 MB; more is not a font


def load_fonts(font_path: str | None = None) -> Fonts:
    """Register the fonts with ReportLab: --font PATH for everything, else the DejaVu hhd ships (once a process:
    `load_fonts()` and `load_fonts(None)` are one call, where lru_cache alone would parse the fonts twice)."""
    return _load_fonts(font_path or None)


@lru_cache(maxsize=8)
def _load_fonts(font_path: str | None) -> Fonts:
    from importlib.resources import as_file, files

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    if font_path:
        path = Path(font_path).expanduser()
        # one registered name per font file (a stable one: PDFs stay the same bytes from run to run)
        name = "hhd-custom-" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
        data = read_input(path, _("a font"), MAX_FONT_BYTES, _("give a .ttf file"))
        if len(data) > MAX_FONT_BYTES:
            raise InputError(_("--font {path}: over {number} MB, not a font").format(path=path, number=MAX_FONT_BYTES // 2**20), _("give a .ttf file"))
        try:
            pdfmetrics.registerFont(_whole_font(name, data))
        except (OSError, TTFError, ValueError, struct.error, IndexError, KeyError) as exc:
            raise InputError(_("--font {path}: not a usable TrueType font ({exc})").format(path=path, exc=exc), _("give a .ttf file")) from exc
        return Fonts(name, name, name, True)
    names = ("hhd-regular", "hhd-bold", "hhd-italic")
    folder = files("hhdcli") / "fonts"
    shipped = {}
    for name, file in zip(names, SHIPPED, strict=True):
        resource = folder / file
        if isinstance(resource, Path):  # a file on disk (any pip install): read when a page first uses it
            shipped[name] = str(resource)
            continue
        with as_file(resource) as path:  # inside an archive: the copy as_file makes lasts only this long
            pdfmetrics.registerFont(TTFont(name, str(path)))
    return Fonts(*names, unicode=True, files=shipped)


def _whole_font(name: str, data: bytes) -> TTFont:
    """The font, with every glyph it maps copied out as a PDF would (256 a subset): a damaged glyph table passes
    the parse and would fail only as the PDF is saved, after all the work (60 ms for DejaVu's 2,839)."""
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(name, io.BytesIO(data))
    codes = sorted(font.face.charToGlyph)
    for start in range(0, len(codes), 255):
        font.face.makeSubset([0, *codes[start:start + 255]])
    return font


def missing_glyphs(font_name: str, text: str) -> set[str]:
    """Characters of `text` that the registered font cannot draw (spaces aside: see `safe_text`)."""
    return {ch for ch in _unmapped(font_name, text) if not ch.isspace()}


def _unmapped(font_name: str, text: str) -> set[str]:
    """The characters of `text` a page would show as a missing-glyph box: printable ones and spaces (Unicode's
    Zs) that the font has no glyph for. Line breaks and tabs are layout, never drawn."""
    from reportlab.pdfbase import pdfmetrics

    font = pdfmetrics.getFont(font_name)
    face = getattr(font, "face", None)
    if face is None or not hasattr(face, "charToGlyph"):  # a built-in Type 1 font: Latin-1 only
        return {ch for ch in text if ord(ch) > 255 and (ch.isprintable() or _is_space(ch))}
    glyphs = face.charToGlyph
    return {ch for ch in set(text) if ord(ch) not in glyphs and (ch.isprintable() or _is_space(ch))}


def _is_space(ch: str) -> bool:
    import unicodedata

    return unicodedata.category(ch) == "Zs"


def safe_text(fonts: Fonts, text: str, bold: bool = False) -> str:
    """Replace characters the font lacks with '?', so no page shows a missing-glyph box. A space the font lacks
    becomes a plain one: Babel's Russian dates hold a narrow no-break space (U+202F, "1 декабря 2026 г."),
    which Latin fonts such as Vera lack, and "2026?г." would read as a question."""
    missing = _unmapped(fonts.bold if bold else fonts.regular, text)
    if not missing:
        return text
    return "".join((" " if ch.isspace() else "?") if ch in missing else ch for ch in text)


def shorten(text: str, font: str, size: float, width: float) -> str:
    """The longest start of `text` that fits `width` with an ellipsis (all of it when it fits). A binary
    search over the length, so a 10,000-character line costs a dozen measurements, not 10,000."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if stringWidth(text, font, size) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "…" fits; text[:high] + "…" does not
    while high - low > 1:
        middle = (low + high) // 2
        if stringWidth(text[:middle] + "…", font, size) <= width:
            low = middle
        else:
            high = middle
    return text[:low] + "…" if low or stringWidth("…", font, size) <= width else ""


def wrap_words(canvas, text: str, font: str, size: float, width: float) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` (a word wider than the line has one alone)."""
    lines: list[str] = []
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and canvas.stringWidth(candidate, font, size) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines
