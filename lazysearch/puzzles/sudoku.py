"""Sudoku of any box size as exact cover: each cell one digit, each digit once per row,
column and box.

>>> from lazysearch import sudoku
>>> grid = sudoku.solve(
...     "1.3." "...." "...." ".2.4"
... ).first()
>>> print(sudoku.render(grid))
1 4 | 3 2
2 3 | 4 1
----+----
4 1 | 2 3
3 2 | 1 4
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ..errors import ParseError, article, brief, json_line
from ..exactcover.problem import DLXProblem
from ..race import Race
from ..search import Search
from ..stream import Solutions
from ..textfiles import read_text
from . import janko
from .sudoku_grid import BLANKS as BLANKS
from .sudoku_grid import SYMBOLS as SYMBOLS
from .sudoku_grid import Grid as Grid
from .sudoku_grid import SolvedGrid as SolvedGrid
from .sudoku_grid import SudokuError as SudokuError
from .sudoku_grid import box_shape as box_shape
from .sudoku_grid import checked_box
from .sudoku_grid import parse as parse
from .sudoku_grid import render as render
from .sudoku_grid import sudoku_problem as sudoku_problem
from .sudoku_grid import svg as svg

if TYPE_CHECKING:
    from .generate import GeneratedSudoku
    from .rating import Rating


def solve(
    grid: str | Sequence[Sequence[int | None]],
    *,
    box: tuple[int, int] | None = None,
    regions: str | Sequence[Sequence[object]] | None = None,
    diagonals: bool = False,
    cages: Sequence[tuple[int, Sequence[tuple[int, int]]]] | None = None,
    symbols: str | None = None,
) -> Solutions[SolvedGrid]:
    """Every solution of a sudoku grid, as tuples of rows of ints (:class:`SolvedGrid`,
    which also draws itself: ``svg()``, and a picture in Jupyter).

    A text grid writes its values ``1``-``9``, ``A``-``Z`` with ``.`` or ``0`` for
    blanks; ``symbols`` gives another alphabet (see :func:`parse`), and the ints of
    a solution count in it from 1.

    ``box`` is (rows, columns) of a box; by default square, or 2x3 for 6x6 and so on.
    Variants, in any combination (see :mod:`.variants`): ``regions``, a picture of
    ``n`` rows of ``n`` labels, replaces the boxes by jigsaw regions; ``diagonals=True``
    asks the two main diagonals to hold every value once (X-sudoku); ``cages``, a list
    of ``(sum, [(row, col), ...])`` with rows and columns from 0, adds killer cages
    (distinct values adding up to the sum).
    The grid is checked when this is called: a wrong size, a symbol out of range, two
    givens that clash, a region of the wrong size or in two pieces, overlapping cages or
    a sum no cage of that size can make raise :class:`SudokuError` naming the place.

    >>> solve("." * 16).count()
    288
    >>> solve("." * 16, diagonals=True).count()
    48
    """
    rows = parse(grid, symbols=symbols)
    n = len(rows)
    if regions is not None or diagonals is not False or cages is not None:
        from .variants import solve_variant

        return solve_variant(rows, box=box, regions=regions, diagonals=diagonals, cages=cages)
    problem = sudoku_problem(rows, box)
    cover = cast(DLXProblem, problem.problems[0] if isinstance(problem, Race) else problem)
    option_items = cover.option_items
    nn = n * n
    shape = checked_box(box, n)
    givens = tuple(tuple(row) for row in rows)

    def decode(solution: tuple[int, ...]) -> SolvedGrid:
        out = [[0] * n for _ in range(n)]
        for j in solution:
            cell, row_value = option_items[j][:2]
            r, c = divmod(cell - 1, n)
            out[r][c] = (row_value - 1 - nn) % n + 1
        return SolvedGrid(out, shape, givens)

    return Solutions(Search(problem), decode)


def verify(
    grid: str | Sequence[Sequence[int | None]],
    solution: Grid,
    *,
    box: tuple[int, int] | None = None,
) -> None:
    """Raise :class:`SudokuError` unless ``solution`` fills ``grid`` correctly."""
    given = parse(grid)
    n = len(given)
    br, bc = checked_box(box, n)
    if len(solution) != n or any(len(row) != n for row in solution):
        raise SudokuError(f"the solution is not {article(n)} {n}x{n} grid")
    full = set(range(1, n + 1))
    for r in range(n):
        for c in range(n):
            if given[r][c] and given[r][c] != solution[r][c]:
                raise SudokuError(f"row {r + 1}, column {c + 1}: the solution changes a given")
    units = [[(r, c) for c in range(n)] for r in range(n)]
    units += [[(r, c) for r in range(n)] for c in range(n)]
    units += [
        [(r0 + r, c0 + c) for r in range(br) for c in range(bc)]
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    ]
    for unit in units:
        if {solution[r][c] for r, c in unit} != full:
            r, c = unit[0]
            raise SudokuError(
                f"the unit starting at row {r + 1}, column {c + 1} does not hold 1..{n} once each"
            )


def read(path: str | os.PathLike[str]) -> list[str]:
    """The puzzles of a file with one puzzle per line (``.`` or ``0`` for blanks), or
    with grids of numbers.

    Blank lines, ``#`` comments, and a first line that is only a count of puzzles (as
    in Norvig's ``top95.txt``) are skipped.  A file of ``lazysearch generate sudoku
    --format json`` lines reads too (see :func:`json_lines`, which also gives each
    puzzle's box).  A grid of numbers is ``n`` lines of ``n``
    numbers each, split by commas or spaces, ``0``, ``.`` or ``-`` for blanks (the
    25x25 files of shared/data), after a size header ``n n`` if it has one; grids are
    separated by blank lines.  A collection scraped from janko.at reads too
    (:func:`janko_collection`, the JSON ``kakuro.read_all`` takes).  Either way a
    puzzle comes back as one line of symbols (``1``-``9`` then ``A``-``Z``).  A line of
    the wrong length is a :class:`ParseError` naming the file, line and column.
    """
    return loads(read_text(path), source=os.fspath(path))


def loads(text: str, *, source: str = "<text>") -> list[str]:
    """The puzzles of a text with one puzzle per line; see :func:`read`."""
    return [cells for _, cells in numbered_lines(text, source=source)]


def json_lines(text: str, *, source: str = "<text>") -> list[tuple[int, str, tuple[int, int]]]:
    """The puzzles of ``lazysearch generate sudoku --format json`` lines (what
    :meth:`.generate.GeneratedSudoku.json` writes): for each, its line number, its grid as
    one line of symbols and its box, which a grid alone does not carry (a 6x6 may be
    2x3 or 3x2).  Keys other than ``puzzle`` and ``box`` are passed over.

    >>> json_lines('{"puzzle": "1..." "........" "....", "box": [2, 2]}')
    Traceback (most recent call last):
    ...
    lazysearch.errors.ParseError: <text>:1:1: not a line of JSON: Expecting ',' delimiter: ...
    >>> json_lines('{"puzzle": "1...............", "box": [2, 2], "clues": 1}')
    [(1, '1...............', (2, 2))]
    """
    puzzles: list[tuple[int, str, tuple[int, int]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        lead = len(line) - len(line.lstrip()) + 1
        data = json_line(line, source=source, number=number)
        puzzle = data.get("puzzle") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(puzzle, str):
            raise ParseError(
                "a JSON line needs a 'puzzle' string", source=source, line=number, column=lead
            )
        for key in ("regions", "cages", "diagonals"):
            if data.get(key):
                raise ParseError(
                    f"a {key} puzzle (a sudoku variant): read it with "
                    "lazysearch.puzzles.variants.read",
                    source=source,
                    line=number,
                    column=lead,
                )
        cells = "".join(puzzle.split())
        _check_line(cells, source, number, lead)
        size = math.isqrt(len(cells))
        box = data.get("box")
        if box is None:
            shape = box_shape(size)
        elif (
            isinstance(box, list)
            and len(box) == 2
            and all(type(v) is int and 0 < v <= size for v in box)
            and box[0] * box[1] == size
        ):
            shape = (box[0], box[1])
        else:
            raise ParseError(
                f"'box' is {brief(box)}, not [rows, columns] of {article(size)} {size}x{size} grid",
                source=source,
                line=number,
                column=lead,
            )
        puzzles.append((number, cells, shape))
    return puzzles


def _check_line(cells: str, source: str, number: int, lead: int) -> None:
    """A puzzle line's size and symbols, or a :class:`ParseError` at the first fault
    (``lead``: the line's column of its first cell, less one)."""
    size = math.isqrt(len(cells))
    if len(cells) > len(SYMBOLS) ** 2:
        raise ParseError(
            f"a puzzle line of {len(cells):,} cells is larger than the "
            f"{len(SYMBOLS)}x{len(SYMBOLS)} grid a line can write (values 1..9, A..Z)",
            source=source,
            line=number,
            column=lead + 1,
        )
    if size * size != len(cells) or size < 4:
        raise ParseError(
            f"a puzzle line has a square number of cells (81 for 9x9); this one has {len(cells)}",
            source=source,
            line=number,
            column=lead + len(cells) + 1,
        )
    for column, ch in enumerate(cells, start=lead + 1):
        if ch not in BLANKS and (SYMBOLS.find(ch.upper()) < 0 or SYMBOLS.find(ch.upper()) >= size):
            raise ParseError(
                f"{ch!r} is not a value of {article(size)} {size}x{size} sudoku",
                source=source,
                line=number,
                column=column,
            )


def numbered_lines(text: str, *, source: str = "<text>") -> list[tuple[int, str]]:
    """Like :func:`loads`, with the line number of each puzzle (a grid's first line)."""
    collection = janko_collection(text, source=source)
    if collection is not None:
        return collection
    if text.lstrip().startswith("{"):
        # Lines of 'generate sudoku --format json': the grids, if their boxes are the
        # usual ones (a grid alone cannot say 3x2; json_lines() keeps the box).
        found = []
        for number, cells, box in json_lines(text, source=source):
            usual = box_shape(math.isqrt(len(cells)))
            if box != usual:
                raise ParseError(
                    f"this puzzle's box is {box[0]}x{box[1]}, not the usual "
                    f"{usual[0]}x{usual[1]} a grid alone stands for: read it with "
                    "sudoku.json_lines(), which keeps the box",
                    source=source,
                    line=number,
                    column=1,
                )
            found.append((number, cells))
        return found
    puzzles: list[tuple[int, str]] = []
    lines = text.splitlines()
    grid: list[tuple[int, str]] = []  # the lines of a grid of numbers being read
    for number, line in enumerate([*lines, ""], start=1):
        cells = line.strip()
        lead = len(line) - len(line.lstrip())
        if _NUMBER.search(cells) and len(_TOKEN.findall(cells)) > 1:
            grid.append((number, line))
            continue
        if grid:
            puzzles.append((grid[0][0], _number_grid(grid, source)))
            grid = []
        if (
            not cells
            or cells.startswith("#")
            or (number == 1 and _is_number(cells) and len(cells) < 6)
        ):
            continue
        _check_line(cells, source, number, lead)
        puzzles.append((number, cells))
    return puzzles


def janko_collection(text: str, *, source: str = "<text>") -> list[tuple[int, str]] | None:
    """The puzzles of a collection scraped from janko.at (``{"data": {name: {"problem":
    "16 16\\n1 - 3 ...", ...}}}``, the JSON kakuro reads too), each with the line of
    its name; None when ``text`` is no such collection."""
    if not text.lstrip().startswith("{"):
        return None
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None  # not one JSON object: lines of JSON, read by json_lines()
    if not janko.is_collection(data):
        return None
    puzzles = []
    for name, problem in janko.entries(data, source, "a janko collection"):
        line = text.count("\n", 0, max(0, text.find(json.dumps(name)))) + 1
        where = f"{source}#{janko.label(name)}"
        found = numbered_lines(problem, source=where)
        if len(found) != 1:
            raise ParseError(
                f"puzzle {brief(name)} holds {len(found)} grids, not one",
                source=source,
                line=line,
                column=1,
            )
        puzzles.append((line, found[0][1]))
    return puzzles


_TOKEN = re.compile(r"[^,;\s]+")
# ASCII digits only: ``\d`` and str.isdigit() accept an Arabic-Indic 3 or a ``²``.
_NUMBER = re.compile(r"\d[,;\s]+[\d.-]|[.-][,;\s]+[\d.-]", re.ASCII)


def _is_number(word: str) -> bool:
    """``word`` is a whole number in ASCII digits, short enough for int() (at most 9)."""
    return word.isascii() and word.isdigit() and len(word) <= 9


def _number_grid(lines: list[tuple[int, str]], source: str) -> str:
    """The symbol line of a grid given as rows of numbers (see :func:`read`), after a
    size header ``n n`` if it has one (janko.at's)."""
    head = _TOKEN.findall(lines[0][1])
    if (
        len(lines) > 2
        and len(head) == 2
        and all(map(_is_number, head))
        and len(_TOKEN.findall(lines[1][1])) != 2
    ):
        size = (int(head[0]), int(head[1]))
        if size != (len(lines) - 1, len(lines) - 1):
            raise ParseError(
                f"the size header says {size[0]}x{size[1]}, and {len(lines) - 1} rows follow",
                source=source,
                line=lines[0][0],
                column=1,
            )
        lines = lines[1:]
    n = len(lines)
    if n > len(SYMBOLS):
        raise ParseError(
            f"a grid of {n} rows is larger than the {len(SYMBOLS)}x{len(SYMBOLS)} "
            "this reader writes",
            source=source,
            line=lines[0][0],
            column=1,
        )
    out = []
    width = len(_TOKEN.findall(lines[0][1]))
    if width != n and all(len(_TOKEN.findall(line)) == width for _, line in lines):
        raise ParseError(
            f"a grid of {n} rows of {width} numbers is not square",
            source=source,
            line=lines[0][0],
            column=1,
        )
    for number, line in lines:
        tokens = list(_TOKEN.finditer(line))
        if len(tokens) != width:
            raise ParseError(
                f"this row has {len(tokens)} numbers and the grid's first row {width}",
                source=source,
                line=number,
                column=len(line.rstrip()) + 1,
            )
        for token in tokens:
            word = token.group()
            if word in (".", "-") or (_is_number(word) and int(word) == 0):
                out.append(".")
            elif _is_number(word) and 1 <= int(word) <= n:
                out.append(SYMBOLS[int(word) - 1])
            else:
                raise ParseError(
                    f"{brief(word)} is not a value of {article(n)} {n}x{n} sudoku (1..{n}, "
                    "or 0, . or - for a blank)",
                    source=source,
                    line=number,
                    column=token.start() + 1,
                )
    return "".join(out)


def generate(
    box: tuple[int, int] = (3, 3),
    *,
    seed: int | None = None,
    minimal: bool = True,
    symmetric: bool = False,
    variant: str | None = None,
    max_nodes: int | None = None,
) -> GeneratedSudoku:
    """A random sudoku with exactly one solution, rated; see :mod:`.generate`.

    >>> puzzle = generate((2, 3), seed=1)
    >>> solve(puzzle).count()
    1
    """
    from .generate import VARIANTS
    from .generate import generate as generate_plain

    if variant is not None and variant not in VARIANTS:
        from .generate_variants import generate_variant

        return generate_variant(
            box,
            seed=seed,
            minimal=minimal,
            symmetric=symmetric,
            variant_name=variant,
            max_nodes=max_nodes,
        )
    return generate_plain(
        box, seed=seed, minimal=minimal, symmetric=symmetric, variant=variant, max_nodes=max_nodes
    )


def rate(
    grid: str | Sequence[Sequence[int | None]],
    *,
    box: tuple[int, int] | None = None,
    regions: str | Sequence[Sequence[object]] | None = None,
    diagonals: bool = False,
    cages: Sequence[tuple[int, Sequence[tuple[int, int]]]] | None = None,
) -> Rating:
    """How much search a puzzle with one solution needs (variants too, with the
    arguments of :func:`solve`); see :func:`.generate.rate` and
    :func:`.generate_variants.rate_variant`."""
    if regions is not None or diagonals is not False or cages is not None:
        from .generate_variants import rate_variant

        return rate_variant(grid, box=box, regions=regions, diagonals=diagonals, cages=cages)
    from .generate import rate as rate_plain

    return rate_plain(grid, box=box)
