"""SVG pictures, written as text with no dependency.

Coordinates are in board squares (``viewBox`` of ``cols x rows``), so a picture of a
2000x2000 board is as sharp as one of 8x8; ``square`` only sets the default size in
pixels, capped so that a huge board opens at a sensible size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..knights.solver import Tour

#: The largest default picture side, in pixels.
MAX_PIXELS = 2000

LIGHT = "#f0d9b5"
DARK = "#b58863"


def _number(x: float) -> str:
    """``3``, ``2.5``, ``0.125``: short, exact for the halves and eighths used here."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def document(
    rows: int, cols: int, body: Sequence[str], *, square: int = 40, title: str = ""
) -> str:
    """An SVG document ``cols x rows`` squares in size around the elements of ``body``."""
    scale = min(square, max(1, MAX_PIXELS // max(rows, cols)))
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * scale}" '
        f'height="{rows * scale}" viewBox="0 0 {cols} {rows}">\n'
    )
    if title:
        head += f"<title>{escape(title)}</title>\n"
    return head + "".join(line + "\n" for line in body) + "</svg>\n"


def escape(text: str) -> str:
    """``text`` safe inside an SVG element or attribute."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


#: Above this many squares a chessboard is drawn as a repeating pattern, not square by square.
PATTERN_FROM = 40_000


def checkerboard(rows: int, cols: int) -> list[str]:
    """A chessboard: the dark squares as one path, or for a huge board a pattern (a few
    elements, however large; some renderers blur it, hence not always)."""
    if rows * cols > PATTERN_FROM:
        return [
            '<defs><pattern id="board" width="2" height="2" patternUnits="userSpaceOnUse">'
            f'<rect width="2" height="2" fill="{LIGHT}"/>'
            f'<rect x="1" width="1" height="1" fill="{DARK}"/>'
            f'<rect y="1" width="1" height="1" fill="{DARK}"/></pattern></defs>',
            f'<rect width="{cols}" height="{rows}" fill="url(#board)"/>',
        ]
    dark = "".join(f"M{c} {r}h1v1h-1z" for r in range(rows) for c in range(cols) if (r + c) % 2)
    return [
        f'<rect width="{cols}" height="{rows}" fill="{LIGHT}"/>',
        f'<path d="{dark}" fill="{DARK}" shape-rendering="crispEdges"/>',
    ]


def knights_tour(tour: Tour, *, square: int = 40) -> str:
    """The board with the tour drawn as one path through the squares' centres; the
    start is a green disc, the end a red one, and a closed tour's closing move a dashed
    line."""
    rows, cols = tour.rows, tour.cols
    body = checkerboard(rows, cols)
    if tour:
        points = " ".join([f"{c}.5,{r}.5" for r, c in tour])  # the squares' centres
        body.append(
            f'<polyline points="{points}" fill="none" stroke="#1f3a93" stroke-width="0.08" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
        )
        (r0, c0), (r1, c1) = tour[0], tour[-1]
        if tour.closed:
            body.append(
                f'<line x1="{_number(c1 + 0.5)}" y1="{_number(r1 + 0.5)}" '
                f'x2="{_number(c0 + 0.5)}" y2="{_number(r0 + 0.5)}" stroke="#1f3a93" '
                'stroke-width="0.08" stroke-dasharray="0.2 0.15"/>'
            )
        body.append(
            f'<circle cx="{_number(c0 + 0.5)}" cy="{_number(r0 + 0.5)}" r="0.25" fill="#2e7d32">'
            "<title>start</title></circle>"
        )
        body.append(
            f'<circle cx="{_number(c1 + 0.5)}" cy="{_number(r1 + 0.5)}" r="0.25" fill="#c62828">'
            "<title>end</title></circle>"
        )
    kind = "closed" if tour.closed else "open"
    return document(rows, cols, body, square=square, title=f"{kind} knight's tour of {rows}x{cols}")
