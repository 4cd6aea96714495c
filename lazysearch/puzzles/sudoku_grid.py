"""The sudoku grid: its symbols, boxes and errors, a solution that draws itself, and
the exact cover of a plain grid.  What every sudoku module below the front door
(:mod:`.sudoku`) shares; :mod:`.sudoku` shows all of it.

>>> parse("1.3." "...." "...." ".2.4")[0]
[1, 0, 3, 0]
>>> print(render(((1, 4, 3, 2), (2, 3, 4, 1), (4, 1, 2, 3), (3, 2, 1, 4))))
1 4 | 3 2
2 3 | 4 1
----+----
4 1 | 2 3
3 2 | 1 4
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ..engine.memory import available_memory as _available_memory
from ..errors import LazysearchError, article, brief
from ..exactcover.problem import DLXProblem
from ..race import Race

if TYPE_CHECKING:
    from .variant_rules import Variant

Grid = tuple[tuple[int, ...], ...]

#: Symbols for the values 1, 2, ... in text grids: digits, then letters (A = 10).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0"


class SudokuError(LazysearchError):
    """A grid that is malformed, or whose givens already clash."""

    # Its users meet it as lazysearch.sudoku's (messages, pickles, the docs' examples).
    __module__ = "lazysearch.puzzles.sudoku"


class SolvedGrid(tuple[tuple[int, ...], ...]):
    """A solution as :func:`~lazysearch.puzzles.sudoku.solve` yields it: a :data:`Grid`
    (a tuple of rows of ints) that also knows its box and the puzzle's givens, to draw
    itself.

    >>> from lazysearch import sudoku
    >>> g = sudoku.solve("1.3." "...." "...." ".2.4").first()
    >>> g[0], g.box
    ((1, 4, 3, 2), (2, 2))
    >>> g == ((1, 4, 3, 2), (2, 3, 4, 1), (4, 1, 2, 3), (3, 2, 1, 4))
    True
    """

    __module__ = "lazysearch.puzzles.sudoku"

    box: tuple[int, int]
    givens: Grid | None
    #: The rules of a variant (jigsaw regions, diagonals, cages), None for a classic grid.
    rules: Variant | None

    def __new__(
        cls,
        rows: Sequence[Sequence[int]] = (),
        box: tuple[int, int] | None = None,
        givens: Grid | None = None,
        rules: Variant | None = None,
    ) -> SolvedGrid:
        self = super().__new__(cls, (tuple(row) for row in rows))
        if box is None and rules is None:
            box = box_shape(len(self)) if self else (0, 0)
        self.box = box or (0, 0)
        self.givens = givens
        self.rules = rules
        return self

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture, givens in black and the rest in blue; see :func:`svg`."""
        if self.rules is not None:
            from ..render.svg import sudoku_variant

            return sudoku_variant(self, self.rules, givens=self.givens, square=square)
        return svg(self, box=self.box, puzzle=self.givens, square=square)

    def text(self) -> str:
        """The grid as text: :func:`render`, or for a variant its region borders and
        cages (:meth:`.variant_rules.Variant.draw`)."""
        if self.rules is not None:
            return self.rules.draw(self)
        return render(self, box=self.box)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()


def box_shape(n: int) -> tuple[int, int]:
    """The usual box (rows, columns) for an ``n x n`` grid: square when ``n`` is a
    square, else the most nearly square split with fewer rows (6: 2x3, 12: 3x4)."""
    root = math.isqrt(n)
    if root * root == n:
        return root, root
    for rows in range(root, 0, -1):
        if n % rows == 0 and rows > 1:
            return rows, n // rows
    raise SudokuError(f"{article(n)} {n}x{n} grid cannot be split into boxes")


def parse(
    grid: str | Sequence[Sequence[int | None]], *, symbols: str | None = None
) -> list[list[int]]:
    """A grid as rows of ints (0 for blank) from text or from lists.

    Text: whitespace is ignored, ``.`` and ``0`` are blanks, ``1``-``9`` then ``A``-``Z``
    are the values 1, 2, ...; the length must be a square (81 for 9x9).  Lists: ints
    with 0 or None for blanks.

    ``symbols`` names the values of a text grid in order when they are not ``1``-``9``,
    ``A``-``Z``: ``"0123456789ABCDEF"`` reads ``0`` as the value 1 (and only ``.`` as a
    blank).  A grid larger than 9x9 that holds both ``.`` and ``0`` but not its own
    last symbol (``G`` for 16x16) could be either alphabet, and is refused unless
    ``symbols`` says which:

    >>> parse("0123" + "." * 12, symbols="0123")[0]
    [1, 2, 3, 4]
    """
    if isinstance(grid, str):
        text = "".join(grid.split())
        n = math.isqrt(len(text))
        if n < 1 or n * n != len(text):
            raise SudokuError(
                f"a sudoku grid has a square number of cells (81 for 9x9); got {len(text)}"
            )
        alphabet = _alphabet(text, n, symbols)
        blanks = "".join(ch for ch in BLANKS if ch not in alphabet)
        rows = []
        for r in range(n):
            row = []
            for c in range(n):
                ch = text[r * n + c]
                if ch in blanks:
                    row.append(0)
                    continue
                v = alphabet.find(ch if symbols is not None else ch.upper()) + 1
                if v == 0 or v > n:
                    raise SudokuError(
                        f"row {r + 1}, column {c + 1}: {ch!r} is not a value of "
                        f"{article(n)} {n}x{n} sudoku"
                    )
                row.append(v)
            rows.append(row)
        return rows
    if symbols is not None:
        raise SudokuError("symbols= names the values of a text grid; this grid is lists of ints")
    if isinstance(grid, bytes) or not isinstance(grid, Sequence):
        raise SudokuError(
            f"a sudoku grid is a string of cells or a sequence of rows, got {brief(grid)}"
        )
    for r, line in enumerate(cast("Sequence[object]", grid)):
        if isinstance(line, str | bytes) or not isinstance(line, Sequence):
            raise SudokuError(f"row {r + 1} must be a sequence of ints, got {brief(line)}")
    rows = [
        [0 if v is None else v for v in row]
        for row in cast("Grid | Sequence[Sequence[int | None]]", grid)
    ]
    n = len(rows)
    if n < 1:
        raise SudokuError("a sudoku grid has at least one row; got none")
    for r, row in enumerate(rows):
        if len(row) != n:
            raise SudokuError(
                f"row {r + 1} has {len(row)} cells; {article(n)} {n}x{n} grid needs {n}"
            )
        for c, v in enumerate(row):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= n:
                raise SudokuError(
                    f"row {r + 1}, column {c + 1}: {v!r} is not a value of "
                    f"{article(n)} {n}x{n} sudoku"
                )
    return rows


def _alphabet(text: str, n: int, symbols: str | None) -> str:
    """The symbols of the values 1..n of a text grid: ``symbols`` checked, or SYMBOLS,
    refusing a grid that reads two ways (``0`` a blank beside ``.``, or the value 1)."""
    if symbols is None:
        if n > 9 and "0" in text and "." in text and SYMBOLS[n - 1] not in text.upper():
            raise SudokuError(
                f"this {n}x{n} grid holds both '.' and '0' and no {SYMBOLS[n - 1]!r}: it reads "
                f"as values 1-9, A-{SYMBOLS[n - 1]} with two blanks, or as values 0-9, "
                f"A-{SYMBOLS[n - 2]} with '.' blank; say which with "
                f"symbols={SYMBOLS[:n]!r} or symbols={'0' + SYMBOLS[: n - 1]!r}"
            )
        return SYMBOLS
    if not isinstance(symbols, str) or len(symbols) != n or len(set(symbols)) != n:
        raise SudokuError(
            f"symbols must be a string of {n} different characters for {article(n)} {n}x{n} grid, "
            f"got {symbols!r}"
        )
    if "." in symbols or any(ch.isspace() for ch in symbols):
        raise SudokuError(f"symbols {symbols!r} must not hold '.' (the blank) or white space")
    return symbols


def sudoku_problem(rows: list[list[int]], box: tuple[int, int] | None = None) -> DLXProblem | Race:
    """The exact cover of a grid, built straight as numbers, as the search walks it.

    Items (all primary): cell (r, c), row r has v, column c has v, box b has v.  Only
    the candidates the givens allow become options, so a published puzzle is small.

    From 16x16 up the search tries least constraining values first (see
    :class:`DLXProblem`), and races two ways of weighing them (:class:`Race`): on sparse
    25x25 grids the first solution otherwise sometimes hides behind millions of nodes.
    Of the 14 shared 25x25 samples, in list order one has no solution in 365M nodes;
    weighing by squares, 13 take at most 6,034 nodes and one 1.92M (cubes: 310k); by
    cubes, one takes 1.48M (squares: 1,869).  Racing the two in slices of 4,096 nodes,
    each is found within twice the better one's nodes.  A count or a proof of uniqueness
    walks the same tree whichever wins, about 10% slower per node than list order; a 9x9
    grid is so small that it keeps the list order.
    """
    n = len(rows)
    br, bc = checked_box(box, n)
    check_memory(n)
    seen: dict[tuple[str, int, int], tuple[int, int]] = {}
    for r in range(n):
        for c in range(n):
            v = rows[r][c]
            if v:
                b = (r // br) * br + c // bc
                for unit in (("row", r, v), ("column", c, v), ("box", b, v)):
                    if unit in seen:
                        r0, c0 = seen[unit]
                        raise SudokuError(
                            f"the givens clash: {SYMBOLS[v - 1]} at row {r0 + 1}, column {c0 + 1} "
                            f"and at row {r + 1}, column {c + 1} share a {unit[0]}"
                        )
                    seen[unit] = (r, c)
    nn = n * n
    options: list[tuple[int, int, int, int]] = []
    for r in range(n):
        for c in range(n):
            b = (r // br) * br + c // bc
            given = rows[r][c]
            for v in range(1, n + 1):
                if given and v != given:
                    continue
                if not given and (
                    ("row", r, v) in seen or ("column", c, v) in seen or ("box", b, v) in seen
                ):
                    continue
                options.append(
                    (
                        1 + r * n + c,
                        1 + nn + r * n + (v - 1),
                        1 + 2 * nn + c * n + (v - 1),
                        1 + 3 * nn + b * n + (v - 1),
                    )
                )
    items = tuple(options)
    colours = tuple((0, 0, 0, 0) for _ in items)
    if n < 16:
        return DLXProblem(4 * nn, 0, items, colours)
    # The runners share one tuple of options: built once, and pickled once to workers.
    return Race(tuple(DLXProblem(4 * nn, 0, items, colours, True, p) for p in (2, 3)))


#: Bytes of memory a blank n x n grid takes per option (n**3 of them), measured: a
#: blank 200x200 grid (8M options) took 4.4 GB.
_BYTES_PER_OPTION = 600


def check_memory(n: int) -> None:
    """Refuse a grid whose exact cover cannot fit in the memory available."""
    from ..errors import TooLargeError

    needed = n**3 * _BYTES_PER_OPTION
    available = _available_memory()
    if available is not None and needed > available:
        raise TooLargeError(
            f"{article(n)} {n}x{n} sudoku has up to {n**3:,} options, about {needed / 1e9:,.1f} GB "
            f"of memory, and this machine has {available / 1e9:,.1f} GB available"
        )


def checked_box(box: object, n: int) -> tuple[int, int]:
    """``box`` checked as (rows, columns) of whole numbers >= 1 that tile an n x n grid
    (None: :func:`box_shape`)."""
    if box is None:
        return box_shape(n)
    if (
        not isinstance(box, tuple | list)
        or len(box) != 2
        or not all(type(side) is int and side >= 1 for side in box)
    ):
        raise SudokuError(f"box must be (rows, columns), two whole numbers >= 1; got {brief(box)}")
    br, bc = box
    if br * bc != n:
        raise SudokuError(f"boxes of {br}x{bc} do not tile {article(n)} {n}x{n} grid")
    return br, bc


def render(grid: Grid, *, box: tuple[int, int] | None = None) -> str:
    """A grid as text with box lines (blanks, 0, shown as ``.``)."""
    n = len(grid)
    br, bc = checked_box(box, n)
    width = 1 if n <= len(SYMBOLS) else len(str(n))
    segment = bc * (width + 1) - 1
    rule = "-+-".join("-" * segment for _ in range(n // bc))
    lines = []
    for r, row in enumerate(grid):
        if r and r % br == 0:
            lines.append(rule)
        cells = [(SYMBOLS[v - 1] if v else ".").rjust(width) for v in row]
        lines.append(" | ".join(" ".join(cells[c : c + bc]) for c in range(0, n, bc)))
    return "\n".join(lines)


def svg(
    grid: Grid,
    *,
    box: tuple[int, int] | None = None,
    puzzle: str | Sequence[Sequence[int | None]] | None = None,
    square: int = 40,
) -> str:
    """An SVG picture of a grid; with ``puzzle``, its givens in black and the rest in blue."""
    from ..render.svg import sudoku_grid

    n = len(grid)
    givens = parse(puzzle) if puzzle is not None else None
    symbols = SYMBOLS if n <= len(SYMBOLS) and n > 9 else ""
    return sudoku_grid(grid, box=box or box_shape(n), givens=givens, symbols=symbols, square=square)
