"""The colors of a card's frame, shared by the text proxies, the checklist's color dots and its HTML.

A module of its own, without ReportLab: the Markdown and HTML checklists need these and nothing that draws.
"""

from __future__ import annotations

RGB = tuple[float, float, float]
FRAME: dict[str, RGB] = {
    "W": (0.86, 0.82, 0.68), "U": (0.22, 0.47, 0.76), "B": (0.24, 0.22, 0.22), "R": (0.78, 0.24, 0.18),
    "G": (0.20, 0.52, 0.28), "P": (0.50, 0.28, 0.70), "M": (0.82, 0.66, 0.24), "C": (0.62, 0.62, 0.65),
    "L": (0.58, 0.47, 0.36),
}
