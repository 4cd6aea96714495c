"""The kakuro puzzle as the library sees it, checked when it is built.

A puzzle is a ``rows x cols`` grid, clue row and column included, as the file draws it.
Cells are ``(row, col)``, 0-based.  White cells take digits 1..9; a clue cell may carry
an *across* sum (of the run of white cells to its right) and a *down* sum (of the run
below it); every other cell is black.  No digit repeats within a run.

>>> from lazysearch.kakuro import Puzzle
>>> p = Puzzle(3, 3, white=[(1, 1), (1, 2), (2, 1), (2, 2)],
...            across={(1, 0): 4, (2, 0): 6}, down={(0, 1): 3, (0, 2): 7})
>>> [(run.direction, run.clue, run.total, len(run.cells)) for run in p.runs]
[('across', (1, 0), 4, 2), ('across', (2, 0), 6, 2), ('down', (0, 1), 3, 2), ('down', (0, 2), 7, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple, NoReturn

from ..errors import LazysearchError, ParseError

Cell = tuple[int, int]

ACROSS = "across"
DOWN = "down"
_STEP = {ACROSS: (0, 1), DOWN: (1, 0)}


class KakuroError(LazysearchError):
    """A kakuro puzzle that is malformed: a run longer than 9, an impossible clue, a
    white cell in no run, a given that clashes, a grid that is not rectangular."""


class KakuroParseError(ParseError, KakuroError):
    """A kakuro file or text that cannot be read; the message names the source, line
    and column, and the format the reader assumed."""


def sum_range(length: int) -> tuple[int, int]:
    """The smallest and largest sums of ``length`` distinct digits 1..9.

    >>> sum_range(2), sum_range(9)
    ((3, 17), (45, 45))
    """
    return length * (length + 1) // 2, length * (19 - length) // 2


class Run(NamedTuple):
    """A run: its direction, the clue cell that heads it, its white cells and its sum."""

    direction: str
    clue: Cell
    cells: tuple[Cell, ...]
    total: int


class Location(NamedTuple):
    """Where a cell or an entry came from in a file: for error messages."""

    source: str
    format: str
    line: int
    column: int


class Puzzle:
    """A kakuro grid: size, white cells, clues and givens; checked when built.

    Parameters
    ----------
    rows, cols:
        The size of the whole grid, clue row and column included.
    white:
        The white cells.
    across, down:
        Clue sums by clue cell: ``across[(r, c)]`` is the sum of the run that starts
        at ``(r, c + 1)``, ``down[(r, c)]`` the sum of the run that starts at
        ``(r + 1, c)``.
    givens:
        Digits already in white cells.
    name:
        A name for messages and output (the file, or the puzzle's key in a collection).
    locations:
        Where each cell came from in a file, so errors can name the line and column.

    Raises
    ------
    KakuroError
        (:class:`KakuroParseError` when the cell's place in a file is known) for a cell
        off the grid, a clue on a white cell, a clue with no white cell after it, a run
        longer than 9, a sum impossible for its run's length, a white cell in no run, a
        given that is not a digit 1..9, two equal givens in a run, a run filled by
        givens with the wrong sum, or a grid with no white cell (nothing to fill).

    Notes
    -----
    A stretch of white cells with no clue before it is not a run: its cells are bound
    only by their runs in the other direction (a few published grids have one).
    """

    __slots__ = ("across", "cols", "down", "givens", "locations", "name", "rows", "runs", "white")

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        white: Iterable[Cell],
        across: Mapping[Cell, int] | None = None,
        down: Mapping[Cell, int] | None = None,
        givens: Mapping[Cell, int] | None = None,
        name: str = "",
        locations: Mapping[Cell, Location] | None = None,
    ) -> None:
        for side in (rows, cols):
            if isinstance(side, bool) or not isinstance(side, int) or side < 1:
                raise KakuroError(f"a kakuro grid needs sides >= 1, got {rows!r} x {cols!r}")
        self.rows = rows
        self.cols = cols
        self.name = name
        self.locations: dict[Cell, Location] = dict(locations or {})
        self.white: frozenset[Cell] = frozenset(self._cell(c, "white cell") for c in white)
        self.across: dict[Cell, int] = self._clues(across or {}, ACROSS)
        self.down: dict[Cell, int] = self._clues(down or {}, DOWN)
        self.givens: dict[Cell, int] = {}
        for cell, digit in (givens or {}).items():
            cell = self._cell(cell, "given")
            if cell not in self.white:
                self._fail(cell, f"given {digit!r} at {cell} is not on a white cell")
            if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= 9:
                self._fail(cell, f"given {digit!r} at {cell} is not a digit 1..9")
            self.givens[cell] = digit
        if not self.white:
            prefix = f"{self.name}: " if self.name else ""
            raise KakuroError(f"{prefix}a {rows}x{cols} grid with no white cell: nothing to fill")
        self.runs: tuple[Run, ...] = self._runs()
        self._check_cover()
        self._check_givens()

    # -- checks ------------------------------------------------------------------------

    def _fail(self, cell: Cell | None, message: str) -> NoReturn:
        where = self.locations.get(cell) if cell is not None else None
        if where is not None:
            raise KakuroParseError(
                f"{message} (read as {where.format})",
                source=where.source,
                line=where.line,
                column=where.column,
            )
        prefix = f"{self.name}: " if self.name else ""
        raise KakuroError(prefix + message)

    def _cell(self, cell: object, what: str) -> Cell:
        if (
            not isinstance(cell, tuple)
            or len(cell) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise KakuroError(f"a {what} must be a (row, col) pair of ints, got {cell!r}")
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            self._fail(cell, f"{what} {cell} is off the {self.rows}x{self.cols} grid")
        return (r, c)

    def _clues(self, clues: Mapping[Cell, int], direction: str) -> dict[Cell, int]:
        out: dict[Cell, int] = {}
        for cell, total in clues.items():
            cell = self._cell(cell, f"{direction} clue")
            if cell in self.white:
                self._fail(cell, f"{direction} clue {total!r} at {cell} is on a white cell")
            if isinstance(total, bool) or not isinstance(total, int):
                self._fail(cell, f"{direction} clue {total!r} at {cell} is not a whole number")
            out[cell] = total
        return out

    def _runs(self) -> tuple[Run, ...]:
        runs = []
        for direction, clues in ((ACROSS, self.across), (DOWN, self.down)):
            dr, dc = _STEP[direction]
            for (r, c), total in sorted(clues.items()):
                cells = []
                rr, cc = r + dr, c + dc
                while (rr, cc) in self.white:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                what = f"{direction} clue {total} at {(r, c)}"
                if not cells:
                    self._fail((r, c), f"{what} has no white cell after it")
                if len(cells) > 9:
                    self._fail((r, c), f"{what} heads a run of {len(cells)} cells (at most 9)")
                low, high = sum_range(len(cells))
                if not low <= total <= high:
                    self._fail(
                        (r, c),
                        f"{what} is impossible for a run of {len(cells)} cells "
                        f"(sums {low}..{high})",
                    )
                runs.append(Run(direction, (r, c), tuple(cells), total))
        return tuple(runs)

    def _check_cover(self) -> None:
        covered = {cell for run in self.runs for cell in run.cells}
        for cell in sorted(self.white - covered):
            self._fail(cell, f"white cell {cell} is in no run")

    def _check_givens(self) -> None:
        for run in self.runs:
            digits = [self.givens[c] for c in run.cells if c in self.givens]
            if len(set(digits)) < len(digits):
                twice = next(d for d in digits if digits.count(d) > 1)
                self._fail(run.clue, f"digit {twice} is given twice in the {_name(run)}")
            if len(digits) == len(run.cells) and sum(digits) != run.total:
                self._fail(run.clue, f"the givens of the {_name(run)} add up to {sum(digits)}")

    # -- views ---------------------------------------------------------------------------

    def kind(self, cell: Cell) -> str:
        """``"white"``, ``"clue"`` or ``"black"``."""
        if cell in self.white:
            return "white"
        if cell in self.across or cell in self.down:
            return "clue"
        return "black"

    def cells(self) -> Iterator[Cell]:
        """Every cell of the grid in reading order."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (
            self.rows,
            self.cols,
            tuple(sorted(self.white)),
            tuple(sorted(self.across.items())),
            tuple(sorted(self.down.items())),
            tuple(sorted(self.givens.items())),
        )

    def __repr__(self) -> str:
        name = f" {self.name!r}" if self.name else ""
        return (
            f"<kakuro Puzzle{name} {self.rows}x{self.cols}, {len(self.white)} white cells, "
            f"{len(self.runs)} runs, {len(self.givens)} givens>"
        )

    def __str__(self) -> str:
        return write_grid(self)


def _name(run: Run) -> str:
    return f"{run.direction} run of {run.total} at {run.clue}"


def write_grid(puzzle: Puzzle, digits: dict[Cell, int] | None = None) -> str:
    """The puzzle in the ``grid`` format, columns aligned; ``digits`` fill white cells
    (givens are always written).  :func:`.formats.read` reads it back.

    >>> from lazysearch.kakuro import Puzzle
    >>> p = Puzzle(3, 3, white=[(1, 1), (1, 2), (2, 1), (2, 2)],
    ...            across={(1, 0): 4, (2, 0): 6}, down={(0, 1): 3, (0, 2): 7})
    >>> print(write_grid(p))
    \\  3\\  7\\
    \\4   _   _
    \\6   _   _
    """
    filled = {**(digits or {}), **puzzle.givens}
    table = []
    for r in range(puzzle.rows):
        row = []
        for c in range(puzzle.cols):
            cell = (r, c)
            if cell in puzzle.white:
                row.append(str(filled[cell]) if cell in filled else "_")
            else:
                down = puzzle.down.get(cell)
                across = puzzle.across.get(cell)
                row.append(f"{down or ''}\\{across or ''}")
        table.append(row)
    width = max(len(token) for row in table for token in row)
    lines = [f"# {puzzle.name}"] if puzzle.name and "\n" not in puzzle.name else []
    for row in table:
        left = row[0].ljust(width)
        rest = "".join(" " + _aligned(token, width) for token in row[1:])
        lines.append((left + rest).rstrip())
    return "\n".join(lines) + "\n"


def _aligned(token: str, width: int) -> str:
    """Clues line up on their backslash; digits and blanks sit under it."""
    if "\\" in token:
        down, _, across = token.partition("\\")
        half = (width - 1) // 2
        return (down.rjust(half) + "\\" + across).ljust(width)
    return token.rjust((width + 1) // 2).ljust(width)
