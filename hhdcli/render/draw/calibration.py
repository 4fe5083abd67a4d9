"""The calibration sheet: a ruler and a card outline to check the scale, crosses front and back to measure the
duplex offset."""

from __future__ import annotations

from hhdcli.i18n import _
from hhdcli.render.draw.fonts import Fonts, load_fonts, safe_text, wrap_words
from hhdcli.render.draw.pdf import make_pdf
from hhdcli.render.plan.sheet import MM, ink

CALIBRATION_POINTS = ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))  # of the page's width, height


def calibration_pdf(paper_mm: tuple[float, float], font: str | None = None,
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """One duplex sheet: a 100 mm ruler and a card outline to check the scale; crosses front and back to
    measure the duplex offset, each with an arrow and a letter (F, B) that show how the sheet was turned. The
    back is drawn with `back_offset_mm`, so a corrected offset can be checked on a second print."""
    size = (paper_mm[0] * MM, paper_mm[1] * MM)
    fonts = load_fonts(font)

    def draw(canvas) -> None:
        _calibration_front(canvas, size, fonts)
        canvas.showPage()
        _calibration_back(canvas, size, fonts, back_offset_mm)
        canvas.showPage()

    return make_pdf(size, _("hhd calibration sheet"), draw, print_at_actual_size=True)


def calibration_crosses(size: tuple[float, float], side: str,
                        offset_mm: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """Where the crosses are, in points: the back's mirrored across the long edge (so that after a long-edge
    flip each lies behind the front's) and moved by the back offset."""
    w, h = size
    points = [(w * fx, h * fy) for fx, fy in CALIBRATION_POINTS]
    if side == "front":
        return points
    return [(w - x + offset_mm[0] * MM, y + offset_mm[1] * MM) for x, y in points]


def _cross(canvas, fonts: Fonts, x: float, y: float, letter: str) -> None:
    """A cross in a circle, and beside it an arrow pointing up with a letter to its right: not symmetric,
    so seen through the paper it shows which way the other side was turned."""
    canvas.line(x - 6 * MM, y, x + 6 * MM, y)
    canvas.line(x, y - 6 * MM, x, y + 6 * MM)
    canvas.circle(x, y, 3 * MM)
    ax = x + 10 * MM
    canvas.line(ax, y - 4 * MM, ax, y + 4 * MM)
    canvas.line(ax, y + 4 * MM, ax - 1.5 * MM, y + 2 * MM)
    canvas.line(ax, y + 4 * MM, ax + 1.5 * MM, y + 2 * MM)
    canvas.setFont(fonts.bold, 11)
    canvas.drawString(ax + 2 * MM, y - 1.5 * MM, letter)


def _calibration_front(canvas, size: tuple[float, float], fonts: Fonts) -> None:

    w, h = size
    canvas.setStrokeColor(ink())
    canvas.setFillColor(ink())
    canvas.setLineWidth(0.5)
    for x, y in calibration_crosses(size, "front"):
        _cross(canvas, fonts, x, y, "F")
    title = safe_text(fonts, _("hhd calibration sheet — print at 100 % (actual size), duplex"), bold=True)
    room = w - 30 * MM  # clear of any printer's margin, in every language
    canvas.setFont(fonts.bold, min(12.0, 12.0 * room / canvas.stringWidth(title, fonts.bold, 12)))
    canvas.drawCentredString(w / 2, h - 14 * MM, title)
    left, base = (w - 100 * MM) / 2, h / 2 + 20 * MM
    canvas.line(left, base, left + 100 * MM, base)
    for mm in range(0, 101):
        tick = 3 * MM if mm % 10 == 0 else 1.5 * MM if mm % 5 == 0 else 0.8 * MM
        canvas.line(left + mm * MM, base, left + mm * MM, base + tick)
    canvas.setFont(fonts.regular, 8)
    canvas.drawCentredString(w / 2, base - 5 * MM, safe_text(fonts, _("this ruler should measure exactly 100 mm")))
    canvas.rect((w - 63 * MM) / 2, h / 2 - 100 * MM, 63 * MM, 88 * MM)
    canvas.drawCentredString(w / 2, h / 2 - 56 * MM, safe_text(fonts, _("a card: 63 x 88 mm")))


def _calibration_back(canvas, size: tuple[float, float], fonts: Fonts, offset_mm: tuple[float, float]) -> None:

    w, h = size
    canvas.setStrokeColor(ink())
    canvas.setFillColor(ink())
    canvas.setLineWidth(0.5)
    for x, y in calibration_crosses(size, "back", offset_mm):
        _cross(canvas, fonts, x, y, "B")
    # paragraphs, wrapped to the sheet (a translation is longer than the English), later lines indented
    paragraphs = [
        (_("BACK — hold the sheet to a light, this side towards you"), fonts.bold, 11),
        (_("1. Each arrow B must point the same way as the arrow F you see through the paper. If it points the "
           "other way, set the printer to flip on the other edge."), fonts.regular, 8),
        (_("2. Measure how far this side's cross sits from the front's: X mm to the right (left: negative) and "
           "Y mm up (down: negative)."), fonts.regular, 8),
        (_("3. Pass the opposite: --back-offset -X,-Y"), fonts.bold, 9),
        (_("(1 mm right and 0.5 mm down → --back-offset -1,0.5; add it to the offset already used: this sheet "
           "was printed with --back-offset {x:g},{y:g}).").format(x=offset_mm[0], y=offset_mm[1]), fonts.regular, 8),
    ]
    y = h / 2 + 20 * MM
    for text, font, points in paragraphs:
        canvas.setFont(font, points)
        shown = safe_text(fonts, text, bold=font == fonts.bold)
        for i, line in enumerate(wrap_words(canvas, shown, font, points, w * 0.6)):
            canvas.drawString(w * 0.2 + (3 * MM if i else 0), y, line)
            y -= points * 1.5
