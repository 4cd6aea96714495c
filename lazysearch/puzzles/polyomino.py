"""Polyomino tilings as exact cover: every piece once, every cell of the board once.

>>> from lazysearch import polyomino
>>> tilings = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES)
>>> tilings.count()
8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from ..exactcover.problem import ExactCover
from ..stream import Solutions

Cell = tuple[int, int]


class Piece(NamedTuple):
    """A polyomino: a name and its cells, normalized to touch row 0 and column 0."""

    name: str
    cells: frozenset[Cell]

    def orientations(self, *, rotate: bool = True, reflect: bool = True) -> list[frozenset[Cell]]:
        """The distinct shapes of this piece under the allowed rotations and reflections,
        in a fixed order (the piece as drawn first)."""
        shapes: dict[frozenset[Cell], None] = {}
        for t in _transforms(rotate, reflect):
            shapes.setdefault(_normalized({t(r, c) for r, c in self.cells}), None)
        return list(shapes)


def _transforms(rotate: bool, reflect: bool) -> list[Callable[[int, int], Cell]]:
    out: list[Callable[[int, int], Cell]] = [lambda r, c: (r, c)]
    if rotate:
        out += [lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r)]
    if reflect:
        out += [lambda r, c: (r, -c)]
        if rotate:
            out += [lambda r, c: (c, r), lambda r, c: (-r, c), lambda r, c: (-c, -r)]
    return out


def _normalized(cells: Iterable[Cell]) -> frozenset[Cell]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _picture_cells(picture: str) -> list[Cell]:
    lines = picture.strip("\n").splitlines()
    return [(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch not in " ."]


def piece(name: str, picture: str) -> Piece:
    """A piece from an ASCII picture: ``.`` and spaces are empty, anything else a cell.

    >>> piece("T", '''
    ... ###
    ... .#.
    ... ''').cells == {(0, 0), (0, 1), (0, 2), (1, 1)}
    True
    """
    cells = _picture_cells(picture)
    if not cells:
        raise ValueError(f"piece {name!r} has no cells in its picture")
    if not _connected(set(cells)):
        raise ValueError(f"piece {name!r} is not connected")
    return Piece(name, _normalized(cells))


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _pieces(pictures: Mapping[str, str]) -> dict[str, Piece]:
    return {name: piece(name, pic) for name, pic in pictures.items()}


#: The 12 pentominoes with their usual letter names (Golomb's, as in Conway's puzzles).
PENTOMINOES: dict[str, Piece] = _pieces(
    {
        "F": ".##\n##.\n.#.",
        "I": "#####",
        "L": "####\n#...",
        "N": "###.\n..##",
        "P": "##\n##\n#.",
        "T": "###\n.#.\n.#.",
        "U": "#.#\n###",
        "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##",
        "X": ".#.\n###\n.#.",
        "Y": "####\n.#..",
        "Z": "##.\n.#.\n.##",
    }
)

#: The 5 free tetrominoes.
TETROMINOES: dict[str, Piece] = _pieces(
    {"I": "####", "O": "##\n##", "T": "###\n.#.", "S": ".##\n##.", "L": "###\n#.."}
)


def free_polyominoes(size: int) -> list[frozenset[Cell]]:
    """Every free polyomino of ``size`` cells (one shape per class under rotation and
    reflection), in a fixed order: grown cell by cell, each class kept by its least form.
    """
    if size < 1:
        raise ValueError(f"free_polyominoes() needs size >= 1, got {size}")
    shapes: set[frozenset[Cell]] = {frozenset({(0, 0)})}
    for _ in range(size - 1):
        grown: set[frozenset[Cell]] = set()
        for shape in shapes:
            for r, c in shape:
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n not in shape:
                        grown.add(_canonical(shape | {n}))
        shapes = grown
    return sorted(shapes, key=lambda s: sorted(s))


def _canonical(cells: frozenset[Cell]) -> frozenset[Cell]:
    forms = Piece("", _normalized(cells)).orientations()
    return min(forms, key=lambda s: sorted(s))


_hexominoes: dict[str, Piece] = {}


def __getattr__(name: str) -> dict[str, Piece]:
    """``HEXOMINOES``: the 35 free hexominoes, named H01..H35 in the order of
    :func:`free_polyominoes`; generated on first use, so that importing costs nothing."""
    if name == "HEXOMINOES":
        if not _hexominoes:
            for k, shape in enumerate(free_polyominoes(6), start=1):
                _hexominoes[f"H{k:02d}"] = Piece(f"H{k:02d}", shape)
        return _hexominoes
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Board(NamedTuple):
    """A set of cells to be tiled, with the size of the rectangle that frames it."""

    rows: int
    cols: int
    cells: frozenset[Cell]


def rectangle(rows: int, cols: int) -> Board:
    """The ``rows x cols`` rectangle."""
    if rows < 1 or cols < 1:
        raise ValueError(f"rectangle() needs sides >= 1, got {rows}x{cols}")
    return Board(rows, cols, frozenset((r, c) for r in range(rows) for c in range(cols)))


def board(picture: str) -> Board:
    """A board from an ASCII picture: ``.`` and spaces are holes, anything else a cell.

    >>> b = board('''
    ... ###
    ... #.#
    ... ###
    ... ''')
    >>> b.rows, b.cols, len(b.cells)
    (3, 3, 8)
    """
    lines = picture.strip("\n").splitlines()
    cells = frozenset(_picture_cells(picture))
    if not cells:
        raise ValueError("the board picture has no cells")
    return Board(len(lines), max(len(line) for line in lines), cells)


class Tiling(NamedTuple):
    """A tiling: which piece covers each cell."""

    board: Board
    pieces: tuple[tuple[str, frozenset[Cell]], ...]

    def grid(self) -> list[list[str | None]]:
        """Rows of piece names (``None`` for holes)."""
        out: list[list[str | None]] = [[None] * self.board.cols for _ in range(self.board.rows)]
        for name, cells in self.pieces:
            for r, c in cells:
                out[r][c] = name
        return out

    def __str__(self) -> str:
        return "\n".join("".join((n or ".")[0] for n in row) for row in self.grid())


def tiling_problem(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool = True,
) -> ExactCover:
    """The exact cover of a tiling: items are the piece names and the board's cells;
    an option is one placement of one piece (its name and the cells it covers).

    Every cell must be covered and every piece used, so the pieces' areas must add up
    to the board's.
    """
    plist = list(pieces.values()) if isinstance(pieces, Mapping) else list(pieces)
    names = [p.name for p in plist]
    if len(set(names)) != len(names):
        raise ValueError(f"piece names must differ, got {names}")
    area = sum(len(p.cells) for p in plist)
    if area != len(board.cells):
        raise ValueError(f"the pieces cover {area} cells but the board has {len(board.cells)}")
    cells = sorted(board.cells)
    options: list[list[object]] = []
    for p in plist:
        for shape in p.orientations(rotate=rotate, reflect=reflect):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for r0 in range(board.rows - height + 1):
                for c0 in range(board.cols - width + 1):
                    placed = [(r + r0, c + c0) for r, c in sorted(shape)]
                    if all(cell in board.cells for cell in placed):
                        options.append([p.name, *placed])
    return ExactCover(options, primary=[*names, *cells])


def tile(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool = True,
) -> Solutions[Tiling]:
    """Every tiling of ``board`` by ``pieces``, each piece used once.

    >>> t = tile(rectangle(6, 10), PENTOMINOES).first()
    >>> print(t)
    LLXFFTTTWW
    LXXXFFTWWN
    LUXUFZTWNN
    LUUUYZZZNV
    PPPYYYYZNV
    PPIIIIIVVV
    """
    problem = tiling_problem(board, pieces, rotate=rotate, reflect=reflect)

    def decode(solution: tuple[int, ...]) -> Tiling:
        placed: list[tuple[str, frozenset[Cell]]] = []
        for j in solution:
            name, *cells = problem.options[j]
            placed.append((str(name), frozenset(cells)))  # type: ignore[arg-type]
        return Tiling(board, tuple(sorted(placed, key=lambda p: p[0])))

    return Solutions(problem.search(), decode)
