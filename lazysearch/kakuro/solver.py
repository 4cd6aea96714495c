"""Solving kakuro: the puzzle turned into the engine's numbers, and each raw solution
turned back into a filled board.

>>> from lazysearch import kakuro
>>> p = kakuro.Puzzle(3, 3, white=[(1, 1), (1, 2), (2, 1), (2, 2)],
...                   across={(1, 0): 4, (2, 0): 6}, down={(0, 1): 3, (0, 2): 7})
>>> board = kakuro.solve(p).one()
>>> board[(1, 1)], board[(1, 2)], board[(2, 1)], board[(2, 2)]
(1, 3, 2, 4)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import _native
from ..errors import InvalidSolutionError
from ..search import Search, fingerprint
from ..stream import Solutions
from . import guide
from .formats import read, write_grid
from .puzzle import Cell, Puzzle

if TYPE_CHECKING:
    from ..search import Engine


class Filling(dict[Cell, int]):
    """A solved board: a mapping from every white cell ``(row, col)`` to its digit, with
    the puzzle it fills (for pictures).  ``str()`` is the grid with the digits in."""

    __slots__ = ("puzzle",)

    def __init__(self, puzzle: Puzzle, digits: Mapping[Cell, int]) -> None:
        super().__init__(digits)
        self.puzzle = puzzle

    def __str__(self) -> str:
        return write_grid(self.puzzle, self)

    def grid(self) -> list[list[int | None]]:
        """The board as rows: the digit of each white cell, None elsewhere."""
        return [
            [self.get((r, c)) for c in range(self.puzzle.cols)] for r in range(self.puzzle.rows)
        ]

    def svg(self, *, size: int = 40) -> str:
        """An SVG picture: black cells, clues split by a diagonal, givens in black and
        found digits in blue."""
        from ..render.svg import kakuro_board

        return kakuro_board(self.puzzle, self, size=size)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Filling, (self.puzzle, dict(self)))


class KakuroProblem:
    """A puzzle as the engine sees it: the number of empty cells, and for each run its
    empty cells (by number), the sum they must make and the mask of digits its givens
    use.  Plain data, so it pickles to worker processes.

    ``guide``: a digit per cell that the tree tries first (see :mod:`.guide`); ``()``
    for smallest first; ``None`` (the default) to work it out when the first engine is
    built (once; it is then pickled with the problem).
    """

    __slots__ = ("_fingerprint", "_spare", "guide", "n", "runs")

    def __init__(
        self,
        n: int,
        runs: tuple[tuple[tuple[int, ...], int, int], ...],
        guide: tuple[int, ...] | None = None,
    ) -> None:
        self.n = n
        self.runs = runs
        self.guide = guide
        self._fingerprint: str | None = None
        # The engine that tried the plain tree while the guide was worked out, at its
        # root: the next engine() hands it out instead of building one.
        self._spare: Engine | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return self.n, self.runs, self.guide

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    @property
    def kind(self) -> str:
        return "kakuro"

    def order(self) -> tuple[int, ...]:
        """The guide, worked out on first use."""
        if self.guide is None:
            self.guide, self._spare = guide.find_with_engine(self)
        return self.guide

    def engine(self) -> Engine:
        order = self.order()
        if self._spare is not None:
            spare, self._spare = self._spare, None
            return spare
        module = _native.load("lazysearch.sums._engine")
        engine: Engine = module.KakuroEngine(self.n, self.runs, order)
        return engine

    def fingerprint(self) -> str:
        """Names the tree: the puzzle, and the guide when there is one (it orders the
        children, so positions depend on it)."""
        if self._fingerprint is None:
            order = self.order()
            state = (self.n, self.runs, order) if order else (self.n, self.runs)
            self._fingerprint = fingerprint(state)
        return self._fingerprint


def problem(puzzle: Puzzle) -> tuple[KakuroProblem, list[Cell]]:
    """The engine's problem for ``puzzle`` and its empty cells in the engine's numbering
    (reading order)."""
    empty = sorted(puzzle.white - set(puzzle.givens))
    number = {cell: i for i, cell in enumerate(empty)}
    runs = []
    for run in puzzle.runs:
        cells = tuple(number[c] for c in run.cells if c in number)
        if not cells:
            continue  # full of givens (checked when the puzzle was built)
        given = [puzzle.givens[c] for c in run.cells if c in puzzle.givens]
        used = 0
        for d in given:
            used |= 1 << (d - 1)
        # A sum the givens overshoot (negative here) has no combination: no solution.
        runs.append((cells, run.total - sum(given), used))
    return KakuroProblem(len(empty), tuple(runs)), empty


def solve(puzzle: Puzzle | str | os.PathLike[str]) -> Solutions[Filling]:
    """Every filling of a kakuro puzzle, as a lazy stream of :class:`Filling` boards.

    >>> from lazysearch import kakuro
    >>> p = kakuro.read("\\\\  3\\\\ 3\\\\\\n\\\\3  _   _\\n\\\\3  _   _\\n")
    >>> kakuro.solve(p).count()
    2

    (1 2 over 2 1, and 2 1 over 1 2.)  ``puzzle`` is a :class:`Puzzle`, or a path or
    text that :func:`read` reads (it must hold one puzzle).  The engine keeps every
    run arc consistent and branches on the cell with the fewest digits left (see
    docs/kakuro.md); a puzzle with no solution gives an empty stream.  When that tree
    finds no first solution in :data:`.guide.DIVE_NODES` nodes, a SAT search looks
    for one before this returns, and the tree visits it first (:mod:`.guide`).

    Raises
    ------
    KakuroError
        If the puzzle is malformed (when it is read, before any search).
    """
    if not isinstance(puzzle, Puzzle):
        puzzle = read(puzzle)
    engine_problem, empty = problem(puzzle)
    givens = dict(puzzle.givens)
    board = puzzle

    def decode(digits: tuple[int, ...]) -> Filling:
        filled = dict(zip(empty, digits, strict=True))
        filled.update(givens)
        return Filling(board, dict(sorted(filled.items())))

    return Solutions(Search(engine_problem), decode)


def verify(puzzle: Puzzle, board: Mapping[Cell, int]) -> None:
    """Check a filled board against the puzzle from scratch; raise if it fails.

    Every white cell and no other has a digit 1..9, the givens are kept, and every run
    has distinct digits adding up to its clue.

    Raises
    ------
    InvalidSolutionError
        Naming the first cell or run at fault.
    """
    for cell in sorted(set(board) | puzzle.white):
        if cell not in puzzle.white:
            raise InvalidSolutionError(f"cell {cell} is not white but holds {board[cell]!r}")
        digit = board.get(cell)
        if not isinstance(digit, int) or not 1 <= digit <= 9:
            raise InvalidSolutionError(f"white cell {cell} holds {digit!r}, not a digit 1..9")
        if cell in puzzle.givens and puzzle.givens[cell] != digit:
            raise InvalidSolutionError(
                f"cell {cell} holds {digit}, but {puzzle.givens[cell]} is given there"
            )
    for run in puzzle.runs:
        digits = [board[c] for c in run.cells]
        if len(set(digits)) != len(digits):
            raise InvalidSolutionError(
                f"the {run.direction} run at {run.clue} repeats a digit: {digits}"
            )
        if sum(digits) != run.total:
            raise InvalidSolutionError(
                f"the {run.direction} run at {run.clue} adds up to {sum(digits)}, "
                f"not {run.total}: {digits}"
            )
