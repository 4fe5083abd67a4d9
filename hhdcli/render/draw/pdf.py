"""The one way hhd makes a PDF: a ReportLab canvas with the same settings for every document."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

_SETTINGS_LOCK = threading.Lock()


@contextmanager
def _binary_streams() -> Iterator[None]:
    """ReportLab wraps streams in ASCII85 unless its process-wide `useA85` is off (25 % larger, slower).
    It reads the flag while drawing and saving, so it is set for exactly that span and then restored:
    no document depends on which other document was made before it in the same process."""
    from reportlab import rl_config

    with _SETTINGS_LOCK:
        before = rl_config.useA85
        rl_config.useA85 = 0
        try:
            yield
        finally:
            rl_config.useA85 = before


def make_pdf(pagesize: tuple[float, float], title: str, draw: Callable[[Canvas], None],
             print_at_actual_size: bool = False) -> bytes:
    """Run `draw` on a fresh canvas and return the finished PDF's bytes (reproducible: invariant mode)."""
    from reportlab.pdfgen.canvas import Canvas

    from hhdcli.render.draw.fonts import load_fonts

    buffer = io.BytesIO()
    with _binary_streams():
        # the canvas's first font is the one hhd ships, not Helvetica: a PDF names no font it does not embed
        canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1,
                        initialFontName=load_fonts().regular)  # type: ignore[arg-type]  # the stubs say float; it is a name
        canvas.setTitle(title)
        canvas.setCreator("hhd")
        if print_at_actual_size:
            canvas.setViewerPreference("PrintScaling", "None")  # ask viewers to print at 100 %
        draw(canvas)
        canvas.save()
    return buffer.getvalue()
