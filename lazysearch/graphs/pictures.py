"""Cycles and paths of a board's graph (a grid, a leaper on a board with holes) as
pictures: move numbers in text, and SVG."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from ..errors import brief
from .graph import GraphError

Cell = tuple[int, int]


class BoardPath(Sequence[Cell]):
    """A path or cycle through the cells ``(row, col)`` of a board, for its pictures.

    >>> from lazysearch import graphs
    >>> cycle = graphs.hamiltonian_cycles(graphs.grid(2, 3)).first()
    >>> p = BoardPath(cycle, closed=True)
    >>> print(p)
    1 2 3
    6 5 4
    >>> p.rows, p.cols, p.closed, len(p.svg()) > 0
    (2, 3, True, True)

    The board is ``rows x cols`` (by default just large enough for the path); its cells
    are ``cells`` (by default those of the path), the others are holes, drawn as ``.``
    in text and left blank in SVG.  ``closed`` says whether the last cell goes back to
    the first (the picture draws that step dashed).

    Raises
    ------
    GraphError
        For a cell that is not a pair of whole numbers >= 0 inside ``rows x cols``.
    """

    __slots__ = ("_path", "cells", "closed", "cols", "rows")

    def __init__(
        self,
        path: Iterable[Cell],
        *,
        closed: bool,
        rows: int | None = None,
        cols: int | None = None,
        cells: Iterable[Cell] | None = None,
    ) -> None:
        self._path = tuple(path)
        board = frozenset(self._path if cells is None else cells) | frozenset(self._path)
        for cell in board:
            if not (
                isinstance(cell, tuple)
                and len(cell) == 2
                and all(type(x) is int and x >= 0 for x in cell)
            ):
                raise GraphError(
                    f"a cell is a pair (row, col) of whole numbers >= 0, got {brief(cell)}"
                )
        self.rows = max((r for r, _ in board), default=-1) + 1 if rows is None else rows
        self.cols = max((c for _, c in board), default=-1) + 1 if cols is None else cols
        outside = [cell for cell in board if not (cell[0] < self.rows and cell[1] < self.cols)]
        if outside:
            raise GraphError(
                f"cell {brief(min(outside))} is outside the {self.rows}x{self.cols} board"
            )
        self.cells = board
        self.closed = bool(closed)

    def __len__(self) -> int:
        return len(self._path)

    @overload
    def __getitem__(self, index: int) -> Cell: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Cell, ...]: ...

    def __getitem__(self, index: int | slice) -> Cell | tuple[Cell, ...]:
        return self._path[index]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._path)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BoardPath):
            return self._path == other._path and self.cells == other.cells
        if isinstance(other, tuple):
            return self._path == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._path)

    def __repr__(self) -> str:
        return repr(self._path)

    def lines(self) -> Iterator[str]:
        """The lines of ``str(path)``: each cell's place along the path, 1 for the first,
        ``.`` for a hole (and for a cell the path does not visit)."""
        width = len(str(len(self._path)))
        numbers = {cell: str(i) for i, cell in enumerate(self._path, start=1)}
        for r in range(self.rows):
            yield " ".join(numbers.get((r, c), ".").rjust(width) for c in range(self.cols))

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def svg(self, *, square: int = 40, title: str = "") -> str:
        """An SVG picture; see :func:`lazysearch.render.svg.board_path`."""
        from ..render.svg import board_path

        return board_path(self, square=square, title=title)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()


def board_of(lines: Sequence[str]) -> list[list[bool]]:
    """A board's cells from its picture: ``.`` and blanks are holes, any other
    character a cell; rows shorter than the longest end in holes.

    >>> board_of(["##", "#"])
    [[True, True], [True, False]]
    """
    cols = max((len(line) for line in lines), default=0)
    return [[c < len(line) and line[c] not in ". \t" for c in range(cols)] for line in lines]
