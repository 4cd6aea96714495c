"""SVG pictures, written as text with no dependency.

Coordinates are in board squares (``viewBox`` of ``cols x rows``), so a picture of a
2000x2000 board is as sharp as one of 8x8; ``square`` only sets the default size in
pixels, capped so that a huge board opens at a sensible size.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .protocols import BoardPath, KakuroPuzzle, Path, Tiling, Tour, Variant

#: The largest default picture side, in pixels.
MAX_PIXELS = 2000

#: The longest attribute these pictures write, in characters.  librsvg 2.54 (with
#: libxml2 2.9) refuses an attribute of 10,000,000 characters or more ("Couldn't find end
#: of Start Tag"), and stops at the 10th megabyte of a document whose tags are longer than
#: about 100,000 characters ("Premature end of data"); a tenth of that leaves room.
MAX_ATTRIBUTE = 10_000

LIGHT = "#f0d9b5"
DARK = "#b58863"


def _number(x: float) -> str:
    """``3``, ``2.5``, ``0.125``: short, exact for the halves and eighths used here."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _scale(rows: int, cols: int, square: int) -> int:
    """Pixels per square at the picture's default size."""
    return min(square, max(1, MAX_PIXELS // max(rows, cols)))


def document(
    rows: int, cols: int, body: Sequence[str], *, square: int = 40, title: str = ""
) -> str:
    """An SVG document ``cols x rows`` squares in size around the elements of ``body``."""
    scale = _scale(rows, cols, square)
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


def checkerboard(rows: int, cols: int, *, dark: str = DARK) -> list[str]:
    """A chessboard: the dark squares as paths (one per :data:`MAX_ATTRIBUTE` characters),
    or for a huge board a pattern (a few elements, however large; some renderers blur it,
    hence not always)."""
    if rows * cols > PATTERN_FROM:
        # The light squares are a rect under the pattern: librsvg draws a pattern of
        # tiles under a pixel partly transparent.
        return [
            '<defs><pattern id="board" width="2" height="2" patternUnits="userSpaceOnUse">'
            f'<rect x="1" width="1" height="1" fill="{dark}"/>'
            f'<rect y="1" width="1" height="1" fill="{dark}"/></pattern></defs>',
            f'<rect width="{cols}" height="{rows}" fill="{LIGHT}"/>',
            f'<rect width="{cols}" height="{rows}" fill="url(#board)"/>',
        ]
    squares = [f"M{c} {r}h1v1h-1z" for r in range(rows) for c in range(cols) if (r + c) % 2]
    body = [f'<rect width="{cols}" height="{rows}" fill="{LIGHT}"/>']
    for d in _joined(squares):
        body.append(f'<path d="{d}" fill="{dark}" shape-rendering="crispEdges"/>')
    return body


def _joined(parts: Sequence[str]) -> list[str]:
    """``parts`` joined into as few strings as keep each within :data:`MAX_ATTRIBUTE`."""
    out: list[str] = []
    piece: list[str] = []
    size = 0
    for part in parts:
        if piece and size + len(part) > MAX_ATTRIBUTE:
            out.append("".join(piece))
            piece, size = [], 0
        piece.append(part)
        size += len(part)
    if piece:
        out.append("".join(piece))
    return out


#: Below this many pixels per square, a tour's board is drawn faint (the squares are
#: too small to count, and at full contrast they drown the tour).
FAINT_BELOW = 24
FAINT = "#e0c39c"

#: A tour is cut into at least this many pieces, each in its own colour.
TOUR_COLOURS = 64


def tour_colour(t: float) -> str:
    """The colour at fraction ``t`` of the way along a tour: red at the start, through
    yellow, green, cyan and blue to purple at the end (hue 0 to 300 degrees).

    >>> tour_colour(0.0), tour_colour(0.4), tour_colour(1.0)
    ('#bd0f0f', '#0fbd0f', '#bd0fbd')
    """
    red, green, blue = colorsys.hls_to_rgb(t * 300 / 360, 0.4, 0.85)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def _step(dr: int, dc: int) -> str:
    """The two numbers of a relative ``l`` step, each after a space or after its minus
    sign, which separates it by itself: ``(2, -1)`` is ``-1 2``, ``(-2, 1)`` is `` 1-2``."""
    return "".join(("-" if d < 0 else " ") + str(abs(d)) for d in (dc, dr))


def tour_pieces(tour: Path, pieces: int = TOUR_COLOURS) -> list[tuple[int, int, str]]:
    """The tour as path data in pieces: ``(first, last, d)`` where ``d`` draws squares
    ``first..last`` (indices into ``tour``) through their centres.

    >>> tour_pieces([(0, 0), (2, 1), (0, 2), (1, 0)], pieces=2)
    [(0, 2, 'M0.5 0.5l 1 2 1-2'), (2, 3, 'M2.5 0.5l-2 1')]

    Consecutive pieces share a square, so together they draw one line.  The moves are
    shared out evenly among ``pieces`` pieces (one per move on a shorter tour), and a
    piece is cut again where its ``d`` would pass :data:`MAX_ATTRIBUTE` characters.
    """
    moves = len(tour) - 1
    if moves < 1:
        return []
    bands = min(pieces, moves)
    out = []
    steps: dict[tuple[int, int], str] = {}
    first = 0
    r, c = tour[0]
    d = [f"M{c}.5 {r}.5l"]
    size = len(d[0])
    band = 1
    for i in range(1, moves + 1):
        nr, nc = tour[i]
        key = (nr - r, nc - c)
        step = steps.get(key)
        if step is None:
            step = steps[key] = _step(*key)
        if size + len(step) > MAX_ATTRIBUTE:  # cut here: the piece ends at square i - 1
            out.append((first, i - 1, "".join(d)))
            first = i - 1
            d = [f"M{c}.5 {r}.5l"]
            size = len(d[0])
        d.append(step)
        size += len(step)
        r, c = nr, nc
        if i * bands >= band * moves and i < moves:  # the end of a colour band
            out.append((first, i, "".join(d)))
            first = i
            d = [f"M{c}.5 {r}.5l"]
            size = len(d[0])
            band += 1
    out.append((first, moves, "".join(d)))
    return out


def knights_tour(tour: Tour, *, square: int = 40) -> str:
    """The board with the tour drawn through the squares' centres, its colour going
    round the colour wheel from start to end (:func:`tour_colour`); the start is a
    green disc, the end a red one, and a closed tour's closing move a dashed line.

    The line is in pieces of at most :data:`MAX_ATTRIBUTE` characters (and at least
    :data:`TOUR_COLOURS` on a long tour), each titled with the move numbers it joins
    (``1-2500``: a browser shows it on hovering).
    On a board of few pixels per square the line and the discs grow, so that a huge
    tour reads as a map of when each part of the board was visited.

    >>> from lazysearch import knights
    >>> svg = knights_tour(knights.tour(8))
    >>> svg.count("<path"), svg.count("<title>1-2</title>"), "<polyline" in svg
    (64, 1, False)
    """
    rows, cols = tour.rows, tour.cols
    scale = _scale(rows, cols, square)
    body = checkerboard(rows, cols, dark=DARK if scale >= FAINT_BELOW else FAINT)
    body += _path_line(tour, scale, tour.closed)
    kind = "closed" if tour.closed else "open"
    return document(rows, cols, body, square=square, title=f"{kind} knight's tour of {rows}x{cols}")


def _path_line(tour: Path, scale: int, closed: bool) -> list[str]:
    """The elements of a path drawn through its squares' centres at ``scale`` pixels a
    square: the line in colour bands, a closed path's closing step dashed, the start a
    green disc and the end a red one (see :func:`knights_tour`)."""
    body: list[str] = []
    if tour:
        width = _number(min(0.6, max(0.08, 2 / scale)))
        radius = max(0.25, 10 / scale)
        pieces = tour_pieces(tour)
        body.append(
            f'<g fill="none" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round">'
        )
        for first, last, d in pieces:
            colour = tour_colour((first + last) / 2 / (len(tour) - 1))
            body.append(
                f'<path d="{d}" stroke="{colour}"><title>{first + 1}-{last + 1}</title></path>'
            )
        body.append("</g>")
        (r0, c0), (r1, c1) = tour[0], tour[-1]
        if closed:
            dash = float(width)
            body.append(
                f'<line x1="{_number(c1 + 0.5)}" y1="{_number(r1 + 0.5)}" '
                f'x2="{_number(c0 + 0.5)}" y2="{_number(r0 + 0.5)}" '
                f'stroke="{tour_colour(1.0)}" stroke-width="{width}" '
                f'stroke-dasharray="{_number(2.5 * dash)} {_number(1.875 * dash)}"/>'
            )
        # On a huge board the discs are wider than a move: the end's then sits, smaller,
        # on the start's, so that both show.
        apart = ((r1 - r0) ** 2 + (c1 - c0) ** 2) ** 0.5 >= 2 * radius
        for (r, c), size, colour, name in (
            ((r0, c0), radius, "#2e7d32", "start"),
            ((r1, c1), radius if apart else radius / 2, "#c62828", "end"),
        ):
            body.append(
                f'<circle cx="{_number(c + 0.5)}" cy="{_number(r + 0.5)}" r="{_number(size)}" '
                f'fill="{colour}" stroke="#fff" stroke-width="{_number(size / 5)}">'
                f"<title>{name}</title></circle>"
            )
    return body


def board_path(path: BoardPath, *, square: int = 40, title: str = "") -> str:
    """The board (its cells light and dark, its holes left blank) with the path drawn
    through the cells' centres as :func:`knights_tour` draws a tour: coloured from start
    to end, a closed path's closing step dashed, the start a green disc, the end a red
    one.

    >>> from lazysearch.graphs import BoardPath
    >>> svg = board_path(BoardPath([(0, 0), (0, 1), (1, 1), (1, 0)], closed=True))
    >>> svg.count("<path"), svg.count("<line")
    (5, 1)
    """
    rows, cols = path.rows, path.cols
    scale = _scale(rows, cols, square)
    dark = DARK if scale >= FAINT_BELOW else FAINT
    body = []
    for colour, parity in ((LIGHT, 0), (dark, 1)):
        cells = [f"M{c} {r}h1v1h-1z" for r, c in sorted(path.cells) if (r + c) % 2 == parity]
        for d in _joined(cells):
            body.append(f'<path d="{d}" fill="{colour}" shape-rendering="crispEdges"/>')
    body += _path_line(path, scale, path.closed)
    kind = "closed" if path.closed else "open"
    return document(rows, cols, body, square=square, title=title or f"{kind} path on {rows}x{cols}")


#: Fill colours for the pieces of a tiling, in the order of the pieces' names.
PALETTE = (
    "#e6194b",
    "#3cb44b",
    "#ffe119",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#46f0f0",
    "#f032e6",
    "#bcf60c",
    "#fabebe",
    "#008080",
    "#e6beff",
    "#9a6324",
    "#fffac8",
    "#800000",
    "#aaffc3",
    "#808000",
    "#ffd8b1",
)


def tiling(t: Tiling, *, square: int = 40) -> str:
    """The board with each piece in its own colour, its name in its middle, and a heavy
    border wherever two pieces (or a piece and the outside) meet."""
    rows, cols = t.board.rows, t.board.cols
    owner: dict[tuple[int, ...], int] = {}
    for k, (_, cells) in enumerate(t.pieces):
        for cell in cells:
            owner[cell] = k
    body = []
    for k, (name, cells) in enumerate(t.pieces):
        colour = PALETTE[k % len(PALETTE)]
        shape = "".join(f"M{c} {r}h1v1h-1z" for r, c in sorted(cells))
        body.append(
            f'<path d="{shape}" fill="{colour}" shape-rendering="crispEdges">'
            f"<title>{escape(name)}</title></path>"
        )
    # Borders: the edge between two cells goes in where their owners differ.
    edges = []
    for r in range(rows + 1):
        for c in range(cols):
            if owner.get((r - 1, c), -1) != owner.get((r, c), -1):
                edges.append(f"M{c} {r}h1")
    for r in range(rows):
        for c in range(cols + 1):
            if owner.get((r, c - 1), -1) != owner.get((r, c), -1):
                edges.append(f"M{c} {r}v1")
    body.append(
        f'<path d="{"".join(edges)}" stroke="#222" stroke-width="0.08" '
        'stroke-linecap="square" fill="none"/>'
    )
    for name, cells in t.pieces:
        mr = sum(r for r, _ in cells) / len(cells)
        mc = sum(c for _, c in cells) / len(cells)
        r, c = min(cells, key=lambda cell: ((cell[0] - mr) ** 2 + (cell[1] - mc) ** 2, cell))
        body.append(
            f'<text x="{c}.5" y="{r}.5" font-size="0.5" font-family="sans-serif" '
            f'text-anchor="middle" dominant-baseline="central">{escape(name)}</text>'
        )
    return document(rows, cols, body, square=square, title=f"a tiling of {rows}x{cols}")


def sudoku_grid(
    grid: Sequence[Sequence[int]],
    *,
    box: tuple[int, int],
    givens: Sequence[Sequence[int]] | None = None,
    symbols: str = "",
    square: int = 40,
) -> str:
    """A sudoku grid: thin cell lines, heavy box lines, the givens in black and the
    digits filled in by the solver in blue (all black when ``givens`` is ``None``)."""
    n = len(grid)
    br, bc = box
    body = [f'<rect width="{n}" height="{n}" fill="#fff"/>']
    thin = "".join(f"M0 {i}h{n}" for i in range(1, n) if i % br)
    thin += "".join(f"M{i} 0v{n}" for i in range(1, n) if i % bc)
    body.append(f'<path d="{thin}" stroke="#999" stroke-width="0.03"/>')
    heavy = "".join(f"M0 {i}h{n}" for i in range(0, n + 1, br))
    heavy += "".join(f"M{i} 0v{n}" for i in range(0, n + 1, bc))
    body.append(f'<path d="{heavy}" stroke="#000" stroke-width="0.08" stroke-linecap="square"/>')
    size = "0.6" if n < 10 or symbols else "0.45"
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if not value:
                continue
            given = givens is None or bool(givens[r][c])
            text = symbols[value - 1] if symbols else str(value)
            colour = "#000" if given else "#1f3a93"
            body.append(
                f'<text x="{c}.5" y="{r}.5" font-size="{size}" font-family="sans-serif" '
                f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{text}</text>'
            )
    return document(n, n, body, square=square, title=f"sudoku {n}x{n}")


def sudoku_variant(
    grid: Sequence[Sequence[int]],
    rules: Variant,
    *,
    givens: Sequence[Sequence[int]] | None = None,
    square: int = 40,
) -> str:
    """A sudoku variant: thin cell lines, heavy lines between regions (boxes or jigsaw
    pieces), the diagonals faint when they count, each cage a dashed outline inside its
    cells with its sum in its first cell's corner, givens in black and found values in
    blue."""
    n = rules.n
    region = rules.region
    body = [f'<rect width="{n}" height="{n}" fill="#fff"/>']
    if rules.diagonals:
        body.append(f'<path d="M0 0L{n} {n}M{n} 0L0 {n}" stroke="#c8c8e8" stroke-width="0.05"/>')
    thin = "".join(f"M0 {i}h{n}M{i} 0v{n}" for i in range(1, n))
    body.append(f'<path d="{thin}" stroke="#999" stroke-width="0.03"/>')
    heavy = [f"M0 0h{n}v{n}h-{n}z"]
    for r in range(n):
        for c in range(n):
            if c + 1 < n and region[r][c] != region[r][c + 1]:
                heavy.append(f"M{c + 1} {r}v1")
            if r + 1 < n and region[r][c] != region[r + 1][c]:
                heavy.append(f"M{c} {r + 1}h1")
    body.extend(
        f'<path d="{part}" stroke="#000" stroke-width="0.08" stroke-linecap="square" fill="none"/>'
        for part in _joined(heavy)
    )
    inset = 0.12
    for total, cells in rules.cages:
        members = set(cells)
        edges = []
        for r, c in cells:
            up, down = (r - 1, c) in members, (r + 1, c) in members
            left, right = (r, c - 1) in members, (r, c + 1) in members
            x0 = c if left else c + inset
            x1 = c + 1 if right else c + 1 - inset
            y0 = r if up else r + inset
            y1 = r + 1 if down else r + 1 - inset
            if not up:
                edges.append(f"M{_number(x0)} {_number(y0)}H{_number(x1)}")
            if not down:
                edges.append(f"M{_number(x0)} {_number(y1)}H{_number(x1)}")
            if not left:
                edges.append(f"M{_number(x0)} {_number(y0)}V{_number(y1)}")
            if not right:
                edges.append(f"M{_number(x1)} {_number(y0)}V{_number(y1)}")
        body.append(
            f'<path d="{"".join(edges)}" stroke="#555" stroke-width="0.025" '
            'stroke-dasharray="0.08 0.06" fill="none"/>'
        )
        r, c = min(cells)
        # The baseline itself, not dominant-baseline="hanging": renderers that ignore
        # that attribute drew the top row's sums above the picture, cut off.
        body.append(
            f'<text x="{_number(c + 0.16)}" y="{_number(r + 0.34)}" font-size="0.22" '
            f'font-family="sans-serif">{total}</text>'
        )
    symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" if 9 < n <= 35 else ""
    size = "0.5" if rules.cages else "0.6" if n < 10 or symbols else "0.45"
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if not value:
                continue
            given = givens is None or bool(givens[r][c])
            text = symbols[value - 1] if symbols else str(value)
            colour = "#000" if given else "#1f3a93"
            body.append(
                f'<text x="{c}.5" y="{r}.55" font-size="{size}" font-family="sans-serif" '
                f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{text}</text>'
            )
    return document(n, n, body, square=square, title=f"sudoku variant {n}x{n}")


def kakuro_board(
    puzzle: KakuroPuzzle, digits: Mapping[tuple[int, int], int] | None = None, *, size: int = 40
) -> str:
    """A kakuro board: black cells, clue cells split by a diagonal (down sum below it on
    the left, across sum above it on the right), givens in black and the other digits
    (``digits``) in blue."""
    rows, cols = puzzle.rows, puzzle.cols
    body = [f'<rect width="{cols}" height="{rows}" fill="#fff"/>']
    dark = "".join(
        f"M{c} {r}h1v1h-1z" for r in range(rows) for c in range(cols) if (r, c) not in puzzle.white
    )
    if dark:
        body.append(f'<path d="{dark}" fill="#333"/>')
    clues = sorted(set(puzzle.across) | set(puzzle.down))
    if clues:
        diagonals = "".join(f"M{c} {r}l1 1" for r, c in clues)
        body.append(f'<path d="{diagonals}" stroke="#ddd" stroke-width="0.03"/>')
    lines = "".join(f"M0 {i}h{cols}" for i in range(rows + 1))
    lines += "".join(f"M{i} 0v{rows}" for i in range(cols + 1))
    body.append(f'<path d="{lines}" stroke="#000" stroke-width="0.04" stroke-linecap="square"/>')
    font = 'font-family="sans-serif" text-anchor="middle" dominant-baseline="central"'
    for (r, c), total in sorted(puzzle.down.items()):
        body.append(f'<text x="{c}.3" y="{r}.72" font-size="0.3" fill="#fff" {font}>{total}</text>')
    for (r, c), total in sorted(puzzle.across.items()):
        body.append(f'<text x="{c}.72" y="{r}.3" font-size="0.3" fill="#fff" {font}>{total}</text>')
    filled = {**(digits or {}), **puzzle.givens}
    for (r, c), digit in sorted(filled.items()):
        colour = "#000" if (r, c) in puzzle.givens else "#1f3a93"
        body.append(
            f'<text x="{c}.5" y="{r}.5" font-size="0.6" fill="{colour}" {font}>{digit}</text>'
        )
    title = f"kakuro {puzzle.name}" if puzzle.name else f"kakuro {rows}x{cols}"
    return document(rows, cols, body, square=size, title=title)


#: Height of a unit triangle, and half the width of a unit hexagon (circumradius 1).
ROOT3_2 = 0.8660254037844386


def _cell_polygon(grid: str, cell: tuple[int, ...], cols: int) -> list[tuple[float, float]]:
    """The corners of a cell, in board units: squares of side 1 (a polycube's layers side
    by side, one square apart), triangles of side 1, pointy-top hexagons of radius 1."""
    if grid == "cube":
        z, r, c = cell
        x = z * (cols + 1) + c
        return [(x, r), (x + 1, r), (x + 1, r + 1), (x, r + 1)]
    r, c = cell
    if grid == "triangle":
        left, top, bottom = c / 2, r * ROOT3_2, (r + 1) * ROOT3_2
        if (r + c) % 2 == 0:  # pointing up
            return [(left, bottom), (left + 0.5, top), (left + 1, bottom)]
        return [(left, top), (left + 1, top), (left + 0.5, bottom)]
    if grid == "hex":
        cx, cy = (c + 1) * ROOT3_2, r * 1.5 + 1
        return [
            (cx, cy - 1),
            (cx + ROOT3_2, cy - 0.5),
            (cx + ROOT3_2, cy + 0.5),
            (cx, cy + 1),
            (cx - ROOT3_2, cy + 0.5),
            (cx - ROOT3_2, cy - 0.5),
        ]
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


def polyform_tiling(t: Tiling, *, size: int = 40) -> str:
    """A tiling on any grid (see :mod:`lazysearch.puzzles.grids`): each piece in its own
    colour with its name on its middle cell and a heavy outline; a polycube's layers are
    drawn side by side, top layer first."""
    b = t.board
    grid = b.grid
    cols = b.cols
    body = []
    outlines = []
    labels = []
    for k, (name, cells) in enumerate(t.pieces):
        colour = PALETTE[k % len(PALETTE)]
        shapes = []
        # An edge drawn once by the piece's cells is on its outline; twice, inside it.
        edges: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
        for cell in sorted(cells):
            corners = [(round(x, 4), round(y, 4)) for x, y in _cell_polygon(grid, cell, cols)]
            shapes.append("M" + "L".join(f"{_number(x)} {_number(y)}" for x, y in corners) + "z")
            for a, z in zip(corners, corners[1:] + corners[:1], strict=True):
                key = (min(a, z), max(a, z))
                edges[key] = edges.get(key, 0) + 1
        body.append(
            f'<path d="{"".join(shapes)}" fill="{colour}" stroke="{colour}" '
            f'stroke-width="0.02"><title>{escape(name)}</title></path>'
        )
        outlines += [
            f"M{_number(a[0])} {_number(a[1])}L{_number(z[0])} {_number(z[1])}"
            for (a, z), n in sorted(edges.items())
            if n == 1
        ]
        # The name on the middle cell (of each layer the piece is in, for polycubes).
        parts: dict[int, list[tuple[int, ...]]] = {}
        for cell in cells:
            parts.setdefault(cell[0] if grid == "cube" else 0, []).append(cell)
        for part in parts.values():
            polygons = [_cell_polygon(grid, cell, cols) for cell in part]
            centres = [
                (sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)) for p in polygons
            ]
            mx = sum(x for x, _ in centres) / len(centres)
            my = sum(y for _, y in centres) / len(centres)
            x, y = min(centres, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))
            labels.append(
                f'<text x="{_number(x)}" y="{_number(y)}" font-size="0.45" '
                'font-family="sans-serif" text-anchor="middle" dominant-baseline="central">'
                f"{escape(name)}</text>"
            )
    for start in range(0, len(outlines), 500):
        body.append(
            f'<path d="{"".join(outlines[start : start + 500])}" stroke="#222" '
            'stroke-width="0.08" stroke-linecap="round" fill="none"/>'
        )
    body += labels
    corners = [p for cell in b.cells for p in _cell_polygon(grid, cell, cols)]
    width = max(x for x, _ in corners) + 0.1
    height = max(y for _, y in corners) + 0.1
    kind = {"cube": "polycube", "triangle": "polyiamond", "hex": "polyhex"}.get(grid, "polyomino")
    w, h = math.ceil(width), math.ceil(height)
    return document(h, w, body, square=size, title=f"a {kind} tiling")
