"""Graphs to search, built as plain mappings vertex -> neighbours: grids, king's graphs,
hypercubes, and the graph of any leaper on a board of any shape."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import article, brief
from .graph import GraphError

Cell = tuple[int, int]


def _side(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise GraphError(f"{what} is a whole number >= 1, got {brief(value)}")
    return value


def _steps_graph(
    rows: int, cols: int, steps: Sequence[Cell], cells: set[Cell] | None = None
) -> dict[Cell, list[Cell]]:
    """The graph on the cells of a ``rows x cols`` board (those of ``cells`` when
    given) joining each cell to the cells one of ``steps`` away, in row-major order."""
    out: dict[Cell, list[Cell]] = {}
    for r in range(rows):
        for c in range(cols):
            if cells is not None and (r, c) not in cells:
                continue
            out[(r, c)] = [
                (r + dr, c + dc)
                for dr, dc in steps
                if 0 <= r + dr < rows
                and 0 <= c + dc < cols
                and (cells is None or (r + dr, c + dc) in cells)
            ]
    return out


def grid(rows: int, cols: int) -> dict[Cell, list[Cell]]:
    """The ``rows x cols`` grid graph: cells ``(row, col)``, each joined to the cells
    above, below, left and right of it.

    >>> grid(2, 3)[(0, 1)]
    [(0, 0), (0, 2), (1, 1)]
    """
    rows, cols = _side(rows, "rows"), _side(cols, "cols")
    return _steps_graph(rows, cols, ((-1, 0), (0, -1), (0, 1), (1, 0)))


def king(rows: int, cols: int) -> dict[Cell, list[Cell]]:
    """The king's graph of a ``rows x cols`` board: each cell joined to the up to eight
    cells around it.

    >>> len(king(3, 3)[(1, 1)])
    8
    """
    rows, cols = _side(rows, "rows"), _side(cols, "cols")
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    return _steps_graph(rows, cols, steps)


def hypercube(d: int) -> dict[int, list[int]]:
    """The ``d``-dimensional hypercube: vertices ``0 .. 2**d - 1``, joined when they
    differ in one bit.

    >>> hypercube(2)
    {0: [1, 2], 1: [0, 3], 2: [3, 0], 3: [2, 1]}
    """
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 24:
        raise GraphError(f"a hypercube's dimension is a whole number 0 to 24, got {brief(d)}")
    return {v: [v ^ (1 << i) for i in range(d)] for v in range(1 << d)}


def leaper(
    rows: int,
    cols: int,
    move: tuple[int, int],
    board: Sequence[str] | Sequence[Sequence[bool]] | None = None,
) -> dict[Cell, list[Cell]]:
    """The graph of the ``(a, b)``-leaper on a ``rows x cols`` board: each cell joined
    to the cells ``a`` rows and ``b`` columns away, or ``b`` rows and ``a`` columns.

    >>> leaper(3, 3, (1, 2))[(0, 0)]
    [(1, 2), (2, 1)]
    >>> sorted(leaper(3, 3, (1, 2), board=["##.", "###", "###"]))[:3]
    [(0, 0), (0, 1), (1, 0)]

    The knight is ``(1, 2)``, the camel ``(1, 3)``, the zebra ``(2, 3)`` and the giraffe
    ``(1, 4)``.  ``board`` gives the board's shape: ``rows`` strings of ``cols``
    characters (``.`` a hole, any other character a cell), or rows of booleans (False a
    hole); by default every cell is on the board.

    Raises
    ------
    GraphError
        For sides < 1, a move that is not two whole numbers >= 0 (not both 0), or a
        board whose size is not ``rows x cols``.
    """
    rows, cols = _side(rows, "rows"), _side(cols, "cols")
    ok = (
        isinstance(move, Sequence)
        and len(move) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in move)
        and any(move)
    )
    if not ok:
        raise GraphError(
            f"a leaper's move is a pair (a, b) of whole numbers >= 0, not both 0, got {brief(move)}"
        )
    a, b = move
    steps = sorted(
        {(sa * p, sb * q) for p, q in ((a, b), (b, a)) for sa in (-1, 1) for sb in (-1, 1)}
    )
    cells = None if board is None else _cells(board, rows, cols)
    return _steps_graph(rows, cols, steps, cells)


def _cells(board: Sequence[str] | Sequence[Sequence[bool]], rows: int, cols: int) -> set[Cell]:
    lines = list(board)
    if len(lines) != rows or any(len(line) != cols for line in lines):
        raise GraphError(
            f"{article(rows)} {rows}x{cols} board is {rows} rows of {cols} cells each, got "
            f"{brief([len(line) for line in lines])} (the rows' lengths)"
        )
    return {
        (r, c)
        for r, line in enumerate(lines)
        for c, cell in enumerate(line)
        if (cell != "." if isinstance(cell, str) else bool(cell))
    }
