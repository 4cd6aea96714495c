"""The rules of a sudoku variant, checked: units (rows, columns, boxes or jigsaw
regions, diagonals) and killer cages; and a grid drawn as text under them.

>>> rules = variant(4, diagonals=True, cages=[(3, [(0, 0), (0, 1)])])
>>> len(rules.units), rules.cages
(14, ((3, ((0, 0), (0, 1))),))

What the solvers (:mod:`.variants`), the text format (:mod:`.variant_text`) and the
generator (:mod:`.generate_variants`) share; :mod:`.variants` shows all of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import article, brief
from .sudoku_grid import SYMBOLS, SudokuError, checked_box

Cell = tuple[int, int]
Cage = tuple[int, tuple[Cell, ...]]


class Variant:
    """The rules of one grid, checked: its size, its units (each ``n`` cells that hold
    every value once), its regions (a region number per cell: boxes or jigsaw pieces),
    whether the diagonals count, and its cages ``(sum, cells)``."""

    __slots__ = ("cages", "diagonals", "n", "region", "units")

    def __init__(
        self,
        n: int,
        region: tuple[tuple[int, ...], ...],
        diagonals: bool,
        cages: tuple[Cage, ...],
    ) -> None:
        self.n = n
        self.region = region
        self.diagonals = diagonals
        self.cages = cages
        units: list[tuple[str, tuple[Cell, ...]]] = []
        units += [(f"row {r + 1}", tuple((r, c) for c in range(n))) for r in range(n)]
        units += [(f"column {c + 1}", tuple((r, c) for r in range(n))) for c in range(n)]
        pieces: dict[int, list[Cell]] = {}
        for r in range(n):
            for c in range(n):
                pieces.setdefault(region[r][c], []).append((r, c))
        units += [(f"region {k + 1}", tuple(cells)) for k, cells in sorted(pieces.items())]
        if diagonals:
            units.append(("the main diagonal", tuple((i, i) for i in range(n))))
            units.append(("the anti-diagonal", tuple((i, n - 1 - i) for i in range(n))))
        self.units = tuple(units)

    def draw(self, grid: Sequence[Sequence[int]]) -> str:
        """``grid`` as text under these rules: :func:`render`."""
        return render(grid, self)


def box_regions(n: int, box: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """The region number of each cell when the regions are ``box``-shaped boxes."""
    br, bc = box
    return tuple(tuple((r // br) * (n // bc) + c // bc for c in range(n)) for r in range(n))


def regions_grid(regions: object, n: int) -> tuple[tuple[int, ...], ...]:
    """Jigsaw regions checked: a picture of ``n`` rows of ``n`` labels (a string of
    lines, a string of ``n * n`` labels, or rows of labels), ``n`` labels each on ``n``
    connected cells; returned as a region number per cell (labels in order of first
    appearance).

    >>> regions_grid("aabb aabb ccdd ccdd", 4)[2]
    (2, 2, 3, 3)
    """
    rows = _picture(regions, n, "regions")
    number: dict[object, int] = {}
    grid = tuple(tuple(number.setdefault(label, len(number)) for label in row) for row in rows)
    fault = region_fault(grid, n, {k: label for label, k in number.items()})
    if fault is not None:
        raise SudokuError(fault[0])
    return grid


def region_fault(
    grid: tuple[tuple[int, ...], ...], n: int, names: dict[int, object]
) -> tuple[str, Cell] | None:
    """What is wrong with a region picture, and the cell to point at; None if nothing."""
    cells: dict[int, list[Cell]] = {}
    for r in range(n):
        for c in range(n):
            cells.setdefault(grid[r][c], []).append((r, c))
    for k, members in cells.items():
        r, c = members[0]
        if len(members) != n:
            return (
                f"region {brief(names[k])} (first at row {r + 1}, column {c + 1}) has "
                f"{len(members)} cells; {article(n)} {n}x{n} jigsaw needs {n}",
                (r, c),
            )
        apart = cut_off(members)
        if apart is not None:
            return (
                f"region {brief(names[k])} is not connected: row {apart[0] + 1}, column "
                f"{apart[1] + 1} is cut off from row {r + 1}, column {c + 1}",
                apart,
            )
    return None


def _picture(picture: object, n: int, what: str) -> list[list[object]]:
    """``n`` rows of ``n`` labels from a string or from rows."""
    if isinstance(picture, str):
        words = picture.split()
        if len(words) == 1 and len(words[0]) == n * n:
            words = [words[0][i : i + n] for i in range(0, n * n, n)]
        rows: list[list[object]] = [list(word) for word in words]
    elif isinstance(picture, Sequence) and all(isinstance(row, Sequence) for row in picture):
        rows = [list(row) for row in picture]
    else:
        raise SudokuError(
            f"{what} must be a picture of {n} rows of {n} labels; got {brief(picture)}"
        )
    if len(rows) != n:
        raise SudokuError(f"{what} has {len(rows)} rows; {article(n)} {n}x{n} grid needs {n}")
    for r, row in enumerate(rows):
        if len(row) != n:
            raise SudokuError(
                f"{what} row {r + 1} has {len(row)} labels; {article(n)} {n}x{n} grid needs {n}"
            )
    return rows


def cut_off(cells: Sequence[Cell]) -> Cell | None:
    """A cell not joined to the first by steps between side neighbours in ``cells``,
    or None when they are connected."""
    todo = [cells[0]]
    inside = set(cells)
    seen = {cells[0]}
    while todo:
        r, c = todo.pop()
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell in inside and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return next((cell for cell in cells if cell not in seen), None)


def cages_checked(cages: object, n: int) -> tuple[Cage, ...]:
    """Killer cages checked: each ``(sum, cells)`` with cells ``(row, col)`` (from 0)
    inside the grid, no cell in two cages, at most ``n`` cells, and a sum that distinct
    values 1..n can make in that many cells.

    >>> cages_checked([(17, [(0, 0), (0, 1)])], 9)
    ((17, ((0, 0), (0, 1))),)
    """
    if not isinstance(cages, Iterable) or isinstance(cages, str | bytes):
        raise SudokuError(f"cages must be a list of (sum, [(row, col), ...]); got {brief(cages)}")
    out: list[Cage] = []
    owner: dict[Cell, int] = {}
    for k, cage in enumerate(cages, start=1):
        if not isinstance(cage, tuple | list) or len(cage) != 2:
            raise SudokuError(f"cage {k} must be (sum, [(row, col), ...]); got {brief(cage)}")
        total, members = cage
        if type(total) is not int:
            raise SudokuError(f"cage {k}: the sum must be a whole number; got {brief(total)}")
        if not isinstance(members, Iterable) or isinstance(members, str | bytes):
            raise SudokuError(f"cage {k}: the cells must be (row, col) pairs; got {brief(members)}")
        cells: list[Cell] = []
        for cell in members:
            if (
                not isinstance(cell, tuple | list)
                or len(cell) != 2
                or not all(type(x) is int for x in cell)
            ):
                raise SudokuError(f"cage {k}: a cell must be (row, col); got {brief(cell)}")
            r, c = cell
            if not (0 <= r < n and 0 <= c < n):
                raise SudokuError(
                    f"cage {k}: cell ({r}, {c}) is outside the {n}x{n} grid (rows and "
                    f"columns count from 0)"
                )
            if (r, c) in owner:
                other = owner[(r, c)]
                where = "twice in it" if other == k else f"also in cage {other}"
                raise SudokuError(f"cage {k}: cell ({r}, {c}) is {where}")
            owner[(r, c)] = k
            cells.append((r, c))
        size = len(cells)
        if not 1 <= size <= n:
            raise SudokuError(
                f"cage {k} has {size} cells; {article(n)} {n}x{n} cage holds 1 to {n}"
            )
        low = size * (size + 1) // 2
        high = size * (2 * n - size + 1) // 2
        if not low <= total <= high:
            raise SudokuError(
                f"cage {k}: {size} distinct values 1..{n} add up to {low}..{high}, not {total}"
            )
        out.append((total, tuple(cells)))
    return tuple(out)


def variant(
    n: int,
    *,
    box: tuple[int, int] | None = None,
    regions: object = None,
    diagonals: bool = False,
    cages: object = None,
) -> Variant:
    """The rules of an ``n x n`` grid, checked (see :func:`lazysearch.sudoku.solve`)."""
    if type(diagonals) is not bool:
        raise SudokuError(f"diagonals must be True or False; got {brief(diagonals)}")
    if regions is not None:
        if box is not None:
            raise SudokuError("give box or regions, not both (jigsaw regions replace the boxes)")
        region = regions_grid(regions, n)
    else:
        region = box_regions(n, checked_box(box, n))
    checked = cages_checked(cages, n) if cages is not None else ()
    return Variant(n, region, diagonals, checked)


def givens_clash(rows: Sequence[Sequence[int]], rules: Variant) -> None:
    """Raise :class:`SudokuError` when two givens share a unit or a cage."""
    groups = [(name, cells) for name, cells in rules.units]
    groups += [(f"cage {k}", cells) for k, (_, cells) in enumerate(rules.cages, start=1)]
    for name, cells in groups:
        seen: dict[int, Cell] = {}
        for r, c in cells:
            v = rows[r][c]
            if v and v in seen:
                r0, c0 = seen[v]
                raise SudokuError(
                    f"the givens clash: {SYMBOLS[v - 1]} at row {r0 + 1}, column {c0 + 1} "
                    f"and at row {r + 1}, column {c + 1} share {name}"
                )
            seen[v] = (r, c)


#: Labels of cages and regions in pictures: letters, then digits.
LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def cage_labels(rules: Variant) -> list[list[str]]:
    """A label per cell naming its cage (``.`` outside every cage), neighbouring cages
    told apart: each cage takes the first label no side neighbour's cage has taken."""
    n = rules.n
    label = [["."] * n for _ in range(n)]
    owner = {cell: k for k, (_, cells) in enumerate(rules.cages) for cell in cells}
    taken: dict[int, str] = {}
    for k, (_, cells) in enumerate(rules.cages):
        near = {
            taken[owner[(r + dr, c + dc)]]
            for r, c in cells
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if owner.get((r + dr, c + dc), k) != k and owner[(r + dr, c + dc)] in taken
        }
        # Distinct labels for every cage while they last, so the sums line is unambiguous.
        free = [x for x in LABELS if x not in near and x not in taken.values()]
        if not free:
            raise SudokuError(f"{len(rules.cages)} cages are more than {len(LABELS)} labels")
        taken[k] = free[0]
        for r, c in cells:
            label[r][c] = free[0]
    return label


def render(grid: Sequence[Sequence[int]], rules: Variant) -> str:
    """A grid as text with its region borders (``|`` between cells of two regions,
    ``-`` under a cell whose neighbour below is in another region); the cages, when
    there are any, as a picture of cage labels beside it and their sums below.

    >>> from lazysearch import sudoku
    >>> print(sudoku.solve("." * 16, regions="aaab abbb cccd cddd").first().text())
    1 2 3|4
     +---+
    4|3 1 2
    -+---+-
    2 1 4|3
     +---+
    3|4 2 1
    """
    n = rules.n
    region = rules.region
    width = 1 if n <= len(SYMBOLS) else len(str(n))
    labels = cage_labels(rules) if rules.cages else None
    out = []
    for r in range(n):
        line = ""
        for c in range(n):
            v = grid[r][c]
            line += (SYMBOLS[v - 1] if v and width == 1 else str(v) if v else ".").rjust(width)
            if c + 1 < n:
                line += "|" if region[r][c] != region[r][c + 1] else " "
        if labels is not None:
            line += "   " + "".join(labels[r])
        out.append(line)
        if r + 1 < n:
            rule = ""
            for c in range(n):
                rule += ("-" if region[r][c] != region[r + 1][c] else " ") * width
                if c + 1 < n:
                    rule += _corner(region, r, c)
            if "-" in rule:  # no line between two rows of the same regions
                out.append(rule if labels is None else rule + "   ")
    if labels is not None:
        sums = [f"{labels[cells[0][0]][cells[0][1]]}={total}" for total, cells in rules.cages]
        out.append(" ".join(sums))
    return "\n".join(line.rstrip() for line in out)


def _corner(region: tuple[tuple[int, ...], ...], r: int, c: int) -> str:
    """The mark at the corner below and right of cell (r, c): ``+`` where borders
    cross or turn, ``|`` or ``-`` where one passes straight, else a space."""
    a, b = region[r][c], region[r][c + 1]
    d, e = region[r + 1][c], region[r + 1][c + 1]
    upright = a != b or d != e
    across = a != d or b != e
    if upright and across:
        return "+"
    return "|" if upright else "-" if across else " "
