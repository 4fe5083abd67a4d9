"""A font with wide Unicode coverage (Cyrillic, Greek, symbols) for every printed page."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hhdcli.errors import InputError

# Families in order of preference; each needs a regular and a bold face.
_CANDIDATES = [
    ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansCondensed-Oblique.ttf"),
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"),
    ("LiberationSansNarrow-Regular.ttf", "LiberationSansNarrow-Bold.ttf", "LiberationSansNarrow-Italic.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSans-Italic.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf"),
]
_FONT_DIRS = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts",
              Path("/Library/Fonts"), Path("/System/Library/Fonts"), Path("C:/Windows/Fonts")]


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    italic: str
    unicode: bool  # False when only ReportLab's built-in Helvetica (Latin-1) is available

    def can_show(self, text: str, bold: bool = False) -> bool:
        """True when every character of `text` has a glyph in the font."""
        return not missing_glyphs(self.bold if bold else self.regular, text)


def _find(filename: str) -> Path | None:
    for folder in _FONT_DIRS:
        if folder.is_dir():
            hit = next(folder.rglob(filename), None)
            if hit:
                return hit
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}", filename.rsplit(".", 1)[0]], capture_output=True,
                             text=True, timeout=5).stdout
        return Path(out) if out.endswith(filename) else None
    except (OSError, subprocess.SubprocessError):
        return None


@lru_cache(maxsize=8)
def load_fonts(font_path: str | None = None) -> Fonts:
    """Register the font family with ReportLab: --font PATH, else the first system family found."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    if font_path:
        path = Path(font_path).expanduser()
        try:
            pdfmetrics.registerFont(TTFont("hhd-custom", str(path)))
        except (OSError, TTFError) as exc:
            raise InputError(f"--font {path}: not a usable TrueType font ({exc})", "give a .ttf file") from exc
        return Fonts("hhd-custom", "hhd-custom", "hhd-custom", True)
    for regular, bold, italic in _CANDIDATES:
        regular_path, bold_path = _find(regular), _find(bold)
        if regular_path and bold_path:
            italic_path = _find(italic) or regular_path
            names = ("hhd-regular", "hhd-bold", "hhd-italic")
            for name, path in zip(names, (regular_path, bold_path, italic_path), strict=True):
                pdfmetrics.registerFont(TTFont(name, str(path)))
            return Fonts(*names, unicode=True)
    return _shipped_fonts()


def _shipped_fonts() -> Fonts:
    """Bitstream Vera, which ReportLab ships: Latin only, but a real TrueType font (glyph checks work)."""
    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(reportlab.__file__).parent / "fonts"
    names = ("hhd-vera", "hhd-vera-bold", "hhd-vera-italic")
    files = ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf")
    if not all((folder / f).is_file() for f in files):
        return Fonts("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", unicode=False)
    for name, file in zip(names, files, strict=True):
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    return Fonts(*names, unicode=False)


def missing_glyphs(font_name: str, text: str) -> set[str]:
    """Characters of `text` that the registered font cannot draw."""
    from reportlab.pdfbase import pdfmetrics

    font = pdfmetrics.getFont(font_name)
    face = getattr(font, "face", None)
    if face is None or not hasattr(face, "charToGlyph"):  # a built-in Type 1 font: Latin-1 only
        return {ch for ch in text if ord(ch) > 255}
    return {ch for ch in set(text) if ch.isprintable() and not ch.isspace() and ord(ch) not in face.charToGlyph}


def safe_text(fonts: Fonts, text: str, bold: bool = False) -> str:
    """Replace characters the font lacks with '?', so no page shows a missing-glyph box."""
    missing = missing_glyphs(fonts.bold if bold else fonts.regular, text)
    return "".join("?" if ch in missing else ch for ch in text) if missing else text


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
