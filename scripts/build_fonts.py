"""Build the fonts hhd ships (hhdcli/fonts/): DejaVu Sans Condensed, regular, bold and oblique, cut down
to the scripts cards and checklists use (Latin, Greek, Cyrillic, punctuation, arrows, shapes and symbols).

Usage (re-runnable; needs `pip install fonttools` and the DejaVu fonts, e.g. Debian's fonts-dejavu-extra):
    python scripts/build_fonts.py [/usr/share/fonts/truetype/dejavu]

DejaVu's licence (Bitstream Vera's, with the DejaVu changes in the public domain) allows redistribution; it
is copied beside the fonts as LICENSE.txt.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

FONTS = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansCondensed-Oblique.ttf")
UNICODES = ("U+0000-024F,U+0250-02FF,U+0300-036F,U+0370-03FF,U+0400-052F,U+1E00-1EFF,U+2000-206F,"
            "U+2070-209F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,U+2200-22FF,U+2300-23FF,"
            "U+2460-24FF,U+2500-257F,U+25A0-25FF,U+2600-26FF,U+2700-27BF,U+2B00-2BFF,U+FB00-FB06,U+FFFD")
LICENSE = Path("/usr/share/doc/fonts-dejavu-core/copyright")


def main(source: Path, target: Path = Path("hhdcli") / "fonts") -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in FONTS:
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        font = subset.load_font(str(source / name), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
        subsetter.subset(font)
        subset.save_font(font, str(target / name), options)
        print(f"wrote {target / name} ({(target / name).stat().st_size // 1024} KB)", file=sys.stderr)
    if LICENSE.is_file():
        (target / "LICENSE.txt").write_text(LICENSE.read_text(encoding="utf-8"), encoding="utf-8")
    else:  # the licence must travel with the fonts: say so rather than ship them without it unnoticed
        print(f"warning: no {LICENSE}: keep {target / 'LICENSE.txt'} (DejaVu's licence) as it is", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/fonts/truetype/dejavu"))
