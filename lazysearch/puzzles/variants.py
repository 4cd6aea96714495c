"""Sudoku variants: jigsaw regions, X diagonals and killer cages, in any combination.

>>> from lazysearch import sudoku
>>> cages = [(3, [(0, 0), (0, 1)]), (7, [(0, 2), (0, 3)]), (7, [(1, 0), (1, 1)]),
...          (3, [(1, 2), (1, 3)]), (5, [(2, 0), (3, 0)]), (5, [(2, 1), (3, 1)]),
...          (5, [(2, 2), (3, 2)]), (5, [(2, 3), (3, 3)])]
>>> sudoku.solve("." * 16, cages=cages).count()
16

A variant is a list of *units* (sets of ``n`` cells holding every value once: rows,
columns, boxes or jigsaw regions, the two diagonals) and of *cages* (cells holding
distinct values that add up to a clue).  With cages and ``n <= 9`` it is solved on the
kakuro engine (:mod:`lazysearch.kakuro._engine`): a unit is a run of ``n`` cells adding
up to ``n(n + 1)/2``, a cage a run without its clue cell, and a cell lies in three to
six runs.  Without cages, or past 9x9, it is exact cover (one item per cell and per
(unit, value); a cage is one option per way of filling it).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ParseError, brief, json_line
from ..search import Search
from ..stream import Solutions
from .sudoku import SYMBOLS, SudokuError, box_shape

if TYPE_CHECKING:
    from ..exactcover.problem import DLXProblem
    from ..search import Engine
    from .sudoku import SolvedGrid

Cell = tuple[int, int]
Cage = tuple[int, tuple[Cell, ...]]

#: The most options a cage may add to the exact cover (larger cages past 9x9 refused).
MAX_CAGE_OPTIONS = 200_000


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
    fault = _region_fault(grid, n, {k: label for label, k in number.items()})
    if fault is not None:
        raise SudokuError(fault[0])
    return grid


def _region_fault(
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
                f"{len(members)} cells; a {n}x{n} jigsaw needs {n}",
                (r, c),
            )
        apart = _apart(members)
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
        raise SudokuError(f"{what} has {len(rows)} rows; a {n}x{n} grid needs {n}")
    for r, row in enumerate(rows):
        if len(row) != n:
            raise SudokuError(f"{what} row {r + 1} has {len(row)} labels; a {n}x{n} grid needs {n}")
    return rows


def _apart(cells: Sequence[Cell]) -> Cell | None:
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
            raise SudokuError(f"cage {k} has {size} cells; a {n}x{n} cage holds 1 to {n}")
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
    from .sudoku import _box

    if type(diagonals) is not bool:
        raise SudokuError(f"diagonals must be True or False; got {brief(diagonals)}")
    if regions is not None:
        if box is not None:
            raise SudokuError("give box or regions, not both (jigsaw regions replace the boxes)")
        region = regions_grid(regions, n)
    else:
        region = box_regions(n, _box(box, n))
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


#: Innies and outies in one unit (their digits differ) with at most this many cells
#: become ordinary runs (walked, arc consistent); longer ones, and those spread over
#: several units, become sums (bounds only) when they have at most ``SUM_CELLS`` cells.
#: A longer set's bounds rarely narrow a cell, and each costs a pass at every change of
#: its cells: on the benchmark's generated killers, 4 and 8 took the engine's time for
#: the five from 29 ms to 13 ms (all of them kept) with 541 nodes against 356.  With
#: runs revised by their combinations (cheaper than the walk), 5 and 8 take the 20 hard
#: published killers (scratch data) to 30,785 nodes against 36,881 with 4, and the
#: slowest from 46 ms to 33 ms (solve + proof, CPU); 6 saves more nodes, not time.
RUN_CELLS = 5
SUM_CELLS = 8


def kakuro_problem(
    rows: Sequence[Sequence[int]], rules: Variant
) -> tuple[KillerProblem, list[Cell]]:
    """The variant as the kakuro engine's runs (``n <= 9``), and its empty cells in the
    engine's numbering.

    Units are the engine's *houses* (all-different reasoning on bitmasks), cages its
    ordinary runs, and the 45 rule's innies and outies (:func:`innies_and_outies`) extra
    runs: ordinary ones when their cells share a unit (so their digits differ), sums of
    digits that may repeat otherwise (see :data:`RUN_CELLS`).

    The engine branches on the first cell, in its numbering, of the smallest domain; so
    the cells are numbered by weight, heaviest first (reading order among equals): 10
    less the length for each cage or innie/outie run a cell lies in, short runs pinning
    a cell down best.  On the benchmark's generated killers that takes the trees from
    541 nodes to 377, and finds seed 484's solution at node 123 of 207 instead of 292
    of 311.
    """
    from ..kakuro._combos import REFUTED

    n = rules.n
    value = [v for row in rows for v in row]
    # The units each cell lies in, as a bitmask of unit numbers.
    units_of = [0] * (n * n)
    groups: list[tuple[int, list[int], bool]] = []
    for u, (_, cells) in enumerate(rules.units):
        places = [r * n + c for r, c in cells]
        for i in places:
            units_of[i] |= 1 << u
        groups.append((n * (n + 1) // 2, places, True))
    groups += [(total, [r * n + c for r, c in cells], True) for total, cells in rules.cages]
    longest = max(RUN_CELLS, SUM_CELLS)
    for mask, total in _innies_and_outies(rules):
        if mask.bit_count() > longest:
            continue
        places = _bits(mask)
        shared = -1
        for i in places:
            shared &= units_of[i]
        distinct = shared != 0 and len(places) <= RUN_CELLS
        if distinct or len(places) <= SUM_CELLS:
            groups.append((total, places, distinct))
    weight = [0] * (n * n)
    for k, (_, places, distinct) in enumerate(groups):
        if distinct and k >= len(rules.units):
            length = sum(not value[i] for i in places)
            for i in places:
                weight[i] += max(0, 10 - length)
    empty = sorted(
        ((r, c) for r in range(n) for c in range(n) if not rows[r][c]),
        key=lambda cell: -weight[cell[0] * n + cell[1]],
    )
    number = {r * n + c: i for i, (r, c) in enumerate(empty)}
    runs: list[tuple[tuple[int, ...], int, int]] = []
    houses: list[int] = []
    sums: list[tuple[tuple[int, ...], int]] = []
    refuted = False
    for k, (total, places, distinct) in enumerate(groups):
        used = 0
        left = total
        for i in places:
            if value[i]:
                used |= 1 << (value[i] - 1)
                left -= value[i]
        members = tuple(number[i] for i in places if i in number)
        if not members:
            refuted = refuted or left != 0  # cells full of givens that miss their sum
        elif not distinct:
            sums.append((members, left))
        else:
            if k < len(rules.units):
                houses.append(len(runs))
            runs.append((members, left, used))
    if any(v > 9 for v in value):  # pragma: no cover - n <= 9 here
        raise SudokuError("the kakuro engine holds the values 1..9")
    problem = KillerProblem(
        len(empty), tuple(runs), REFUTED if refuted else None, tuple(houses), tuple(sums)
    )
    return problem, empty


class KillerProblem:
    """A variant with cages as the kakuro engine sees it: the engine's ``n`` empty cells
    and ``runs`` as for kakuro (:class:`lazysearch.kakuro.KakuroProblem`), which of the
    runs are ``houses``, and the ``sums`` of cells whose digits may repeat.  Plain
    data, so it pickles to worker processes.

    ``guide``: as for kakuro, a digit per cell tried first, or ``()`` (also for
    ``None``) for smallest first.  Unlike kakuro's, no guide is worked out: kakuro walks
    the tree up to its first solution before the search (and asks the SAT search for a
    guide when that takes more than :data:`lazysearch.kakuro.guide.DIVE_NODES` nodes),
    which the search then walks again.  A killer's tree is small (at most 6,716 nodes on
    the hardest published puzzles we know), so that dive only doubled the way to the
    first solution: on the 20 hard killers of the benchmark, 0.84 s of CPU for all of
    them without it against 1.23 s (the slowest 115 ms against 215 ms, which ran the SAT
    search).
    """

    __slots__ = ("guide", "houses", "n", "runs", "sums")

    def __init__(
        self,
        n: int,
        runs: tuple[tuple[tuple[int, ...], int, int], ...],
        guide: tuple[int, ...] | None = None,
        houses: tuple[int, ...] = (),
        sums: tuple[tuple[tuple[int, ...], int], ...] = (),
    ) -> None:
        self.n = n
        self.runs = runs
        self.guide = guide
        self.houses = houses
        self.sums = sums

    def __getstate__(self) -> tuple[Any, ...]:
        return self.n, self.runs, self.guide, self.houses, self.sums

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    @property
    def kind(self) -> str:
        return "kakuro"

    def _build(self, guide: tuple[int, ...]) -> Engine:
        from ..engine import _native

        module = _native.load("lazysearch.kakuro._engine")
        engine: Engine = module.KakuroEngine(self.n, self.runs, guide, self.houses, self.sums)
        return engine

    def order(self) -> tuple[int, ...]:
        """The guide: ``()`` when none was given."""
        return self.guide or ()

    def engine(self) -> Engine:
        return self._build(self.order())

    def fingerprint(self) -> str:
        """Names the tree: the runs, houses and sums, and the guide when there is one."""
        from ..search import fingerprint

        order = self.order()
        state = (self.n, self.runs, self.houses, self.sums, order)
        return fingerprint(state if order else state[:4])


def innies_and_outies(rules: Variant) -> list[tuple[tuple[Cell, ...], int]]:
    """The 45 rule: sums the cages force on cells of other cages, as ``(cells, total)``.

    >>> rules = variant(4, cages=[(3, [(0, 0), (0, 1)]), (8, [(0, 2), (0, 3), (1, 3)])])
    >>> innies_and_outies(rules)[:2]
    [(((0, 2), (0, 3)), 7), (((1, 3),), 1)]

    A *region* (a unit, or ``k <= n/2`` neighbouring rows or columns) holds every value ``k``
    times, so its cells add up to ``k n(n + 1)/2``.  Taking away the cages inside it
    leaves the sum of its *innies* (its cells in cages that reach out of it, or in no
    cage); when every cell of the region is in a cage, the cages that reach in add up
    to their sums, so their cells outside it (the *outies*) make the rest.  Each set of
    innies or outies smaller than its region is returned once (the first region that
    gives it), with its sum.  O(cages) big-integer steps for each of the O(n^2) regions.
    """
    n = rules.n
    return [
        (tuple(divmod(i, n) for i in _bits(mask)), total)
        for mask, total in _innies_and_outies(rules)
    ]


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@functools.cache
def _bands(n: int) -> tuple[tuple[int, int], ...]:
    """Each run of 2 to ``n // 2`` neighbouring rows, then columns, as a bitmask of cells
    (bit ``r * n + c``) with the sum of its values.  Longer ones are left out: at an
    edge a band's innies are the outies of the band of the other rows (and the other
    way round), and in the middle their sets are long; on the benchmark's killers bands
    up to 4 rows give the same trees as bands up to 8, 0.8 ms against 1.0 ms for
    Wikipedia's killer."""
    row = (1 << n) - 1
    column = sum(1 << (r * n) for r in range(n))
    out = []
    for k in range(2, n // 2 + 1):
        for start in range(n - k + 1):
            rows = sum(row << (r * n) for r in range(start, start + k))
            columns = sum(column << c for c in range(start, start + k))
            out += [(rows, k * n * (n + 1) // 2), (columns, k * n * (n + 1) // 2)]
    return tuple(out)


def _innies_and_outies(rules: Variant) -> list[tuple[int, int]]:
    """:func:`innies_and_outies` with cell sets as bitmasks (bit ``r * n + c``)."""
    n = rules.n
    whole = n * (n + 1) // 2
    cages = []
    caged = 0
    for total, cells in rules.cages:
        mask = 0
        for r, c in cells:
            mask |= 1 << (r * n + c)
        cages.append((mask, total))
        caged |= mask
    regions = []
    for _, cells in rules.units:
        mask = 0
        for r, c in cells:
            mask |= 1 << (r * n + c)
        regions.append((mask, whole))
    regions += _bands(n)
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for region, total in regions:
        inside = 0
        reaching = 0
        innies = region & ~caged
        outies = 0
        for mask, cage_sum in cages:
            if mask & region:
                if mask & ~region:
                    reaching += cage_sum
                    innies |= mask & region
                    outies |= mask & ~region
                else:
                    inside += cage_sum
        found = [(innies, total - inside)]
        if not region & ~caged:  # else the outies' sum is unknown
            found.append((outies, reaching - total + inside))
        for mask, cells_sum in found:
            if mask and mask != region and mask not in seen:
                seen.add(mask)
                out.append((mask, cells_sum))
    return out


def cover_problem(rows: Sequence[Sequence[int]], rules: Variant) -> DLXProblem:
    """The variant as exact cover: items cell, (unit, value); options one per candidate
    of a cell outside the cages, one per filling of a cage (distinct values making its
    sum).  Values the givens rule out are left out."""
    from ..errors import TooLargeError
    from ..exactcover.problem import DLXProblem

    n = rules.n
    nn = n * n
    units_of: dict[Cell, list[int]] = {}
    for u, (_, cells) in enumerate(rules.units):
        for cell in cells:
            units_of.setdefault(cell, []).append(u)
    # Values each cell may take given the givens of its units.
    blocked: dict[Cell, set[int]] = {}
    for _, cells in rules.units:
        present = {rows[r][c] for r, c in cells if rows[r][c]}
        for cell in cells:
            blocked.setdefault(cell, set()).update(present)

    def allowed(cell: Cell) -> list[int]:
        given = rows[cell[0]][cell[1]]
        if given:
            return [given]
        return [v for v in range(1, n + 1) if v not in blocked[cell]]

    def items(cell: Cell, v: int) -> list[int]:
        r, c = cell
        return [1 + r * n + c] + [1 + nn + u * n + v - 1 for u in units_of[cell]]

    options: list[tuple[int, ...]] = []
    caged: set[Cell] = set()
    for k, (total, cells) in enumerate(rules.cages, start=1):
        caged.update(cells)
        choices = [allowed(cell) for cell in cells]
        before = len(options)
        for values in itertools.product(*choices):
            if sum(values) != total or len(set(values)) != len(values):
                continue
            option: list[int] = []
            for cell, v in zip(cells, values, strict=True):
                option += items(cell, v)
            options.append(tuple(option))
            if len(options) - before > MAX_CAGE_OPTIONS:
                raise TooLargeError(
                    f"cage {k} ({len(cells)} cells, sum {total}) has more than "
                    f"{MAX_CAGE_OPTIONS:,} fillings to list as exact-cover options"
                )
    for r in range(n):
        for c in range(n):
            if (r, c) not in caged:
                options.extend(tuple(items((r, c), v)) for v in allowed((r, c)))
    primary = nn + len(rules.units) * n
    return DLXProblem(primary, 0, tuple(options), tuple((0,) * len(o) for o in options))


def decode_cover(problem: DLXProblem, n: int, solution: Sequence[int]) -> list[list[int]]:
    """The grid an exact-cover solution of :func:`cover_problem` fills in."""
    out = [[0] * n for _ in range(n)]
    nn = n * n
    for j in solution:
        option = problem.option_items[j]
        # An option lists, per cell, the cell's item then its (unit, value) items.
        i = 0
        while i < len(option):
            r, c = divmod(option[i] - 1, n)
            out[r][c] = (option[i + 1] - 1 - nn) % n + 1
            i += 1
            while i < len(option) and option[i] > nn:
                i += 1
    return out


def verify(
    givens: Sequence[Sequence[int]],
    solution: Sequence[Sequence[int]],
    rules: Variant,
) -> None:
    """Raise :class:`SudokuError` unless ``solution`` keeps the givens, holds 1..n once
    in every unit and fills every cage with distinct values adding up to its sum
    (checked from scratch, not with the solver's structures)."""
    n = rules.n
    if len(solution) != n or any(len(row) != n for row in solution):
        raise SudokuError(f"the solution is not a {n}x{n} grid")
    for r in range(n):
        for c in range(n):
            if givens[r][c] and givens[r][c] != solution[r][c]:
                raise SudokuError(f"row {r + 1}, column {c + 1}: the solution changes a given")
    full = set(range(1, n + 1))
    for name, cells in rules.units:
        if sorted(solution[r][c] for r, c in cells) != sorted(full):
            raise SudokuError(f"{name} does not hold 1..{n} once each")
    for k, (total, cells) in enumerate(rules.cages, start=1):
        values = [solution[r][c] for r, c in cells]
        if len(set(values)) != len(values) or sum(values) != total:
            raise SudokuError(f"cage {k} holds {values}, not distinct values adding up to {total}")


# -- text -------------------------------------------------------------------------------

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


def write(grid: Sequence[Sequence[int]], rules: Variant, *, box: bool = True) -> str:
    """The variant text format (:func:`loads`): the grid, then its regions (when not
    boxes), its cages and sums, and ``diagonals``.

    >>> rules = variant(4, cages=[(3, [(0, 0), (0, 1)])])
    >>> print(write([[0] * 4] * 4, rules))
    givens:
    ....
    ....
    ....
    ....
    cages:
    aa..
    ....
    ....
    ....
    sums: a=3
    """
    lines = ["givens:"]
    lines += ["".join(SYMBOLS[v - 1] if v else "." for v in row) for row in grid]
    if not box:
        lines.append("regions:")
        lines += ["".join(LABELS[k % len(LABELS)] for k in row) for row in rules.region]
    if rules.cages:
        labels = cage_labels(rules)
        lines.append("cages:")
        lines += ["".join(row) for row in labels]
        sums = [f"{labels[cells[0][0]][cells[0][1]]}={total}" for total, cells in rules.cages]
        lines.append("sums: " + " ".join(sums))
    if rules.diagonals:
        lines.append("diagonals")
    return "\n".join(lines)


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


_SECTION = re.compile(r"(givens|grid|regions|cages|sums)\s*:\s*", re.IGNORECASE)
_SUM = re.compile(r"(\S)\s*=\s*(\S*)")


class VariantText:
    """A variant puzzle as read from text (see :func:`loads`): the givens as a line of
    symbols, and the keyword arguments of :func:`lazysearch.sudoku.solve`."""

    __slots__ = ("cages", "diagonals", "givens", "regions")

    def __init__(
        self,
        givens: str,
        regions: list[str] | None,
        cages: list[tuple[int, list[Cell]]] | None,
        diagonals: bool,
    ) -> None:
        self.givens = givens
        self.regions = regions
        self.cages = cages
        self.diagonals = diagonals

    def kind(self) -> str:
        """``killer``, ``jigsaw``, ``x`` or their combination (``killer jigsaw x``)."""
        parts = [
            name
            for name, on in (
                ("killer", self.cages is not None),
                ("jigsaw", self.regions is not None),
                ("x", self.diagonals),
            )
            if on
        ]
        return " ".join(parts) or "classic"


def is_variant_text(text: str) -> bool:
    """Whether ``text`` reads as the variant format (a section header, a sums line or a
    ``diagonals`` line, or a generated variant's JSON: an object with ``regions``,
    ``cages`` or ``diagonals`` set) rather than a file of classic puzzles."""
    if text.lstrip().startswith("{"):
        import json

        try:
            data = json.loads(text.splitlines()[0] if text.strip() else text)
        except (ValueError, RecursionError):
            return False
        return isinstance(data, dict) and any(
            data.get(key) for key in ("regions", "cages", "diagonals")
        )
    for line in text.splitlines():
        word = line.strip()
        if _SECTION.match(word) or word.lower() in ("diagonals", "x"):
            return True
        if _SUM.match(word) and all(_SUM.fullmatch(t) for t in word.split()):
            return True
    return False


def loads(text: str, *, source: str = "<text>") -> VariantText:
    """One variant puzzle from text.

    >>> p = loads('''
    ... givens: 1...............
    ... cages:
    ... aabb
    ... ccdd
    ... efgh
    ... efgh
    ... sums: a=3 b=7 c=7 d=3 e=5 f=5 g=5 h=5
    ... ''')
    >>> p.kind(), p.cages[0]
    ('killer', (3, [(0, 0), (0, 1)]))

    Sections, each a header line (``givens:``, ``regions:``, ``cages:``) with its
    grid as one line of ``n * n`` symbols after the colon or as the ``n`` lines after
    it; ``sums:`` then ``label=sum`` pairs (the header is optional: a line of such pairs
    is sums); a line ``diagonals`` (or ``x``) for X-sudoku.  Lines before any header are
    the givens, and a line of two words of equal length, ``givens cages`` side by side
    (CodinGame's killer format: ``..3.5.... aabbbcdde``), fills both.  Blank lines and
    ``#`` comments are skipped.  A killer puzzle needs no givens: an all-blank grid is
    assumed.  Mistakes raise :class:`ParseError` naming the line and column.

    A text that starts with ``{`` is one line of ``lazysearch generate sudoku --variant
    ... --format json`` (:meth:`.generate_variants.GeneratedVariant.json`): ``puzzle``,
    and ``regions`` (rows of labels), ``diagonals``, ``cages`` (``[sum, [[row, col],
    ...]]``) where set.
    """
    if text.lstrip().startswith("{"):
        return _from_json(text, source)
    grids: dict[str, list[tuple[int, int, str]]] = {"givens": [], "regions": [], "cages": []}
    sums: dict[str, tuple[int, int, int]] = {}
    diagonals = False
    section = "givens"
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.strip()
        lead = len(line) - len(line.lstrip())
        if not word or word.startswith("#"):
            continue
        header = _SECTION.match(word)
        is_sums = False
        if header:
            section = header.group(1).lower()
            section = "givens" if section == "grid" else section
            if section == "givens" and grids["givens"]:
                raise ParseError(
                    "a second givens grid: the variant format holds one puzzle a text "
                    "(write each to its own file)",
                    source=source,
                    line=number,
                    column=lead + 1,
                )
            is_sums = section == "sums"
            lead += header.end()
            word = word[header.end() :]
            if not word:
                continue
        if word.lower() in ("diagonals", "x"):
            diagonals = True
            continue
        if is_sums or all("=" in token for token in word.split()):
            for match in re.finditer(r"\S+", word):
                pair = _SUM.fullmatch(match.group())
                column = lead + match.start() + 1
                if pair is None or not pair.group(2).isascii() or not pair.group(2).isdigit():
                    raise ParseError(
                        f"a sum is label=number, like a=12; got {brief(match.group())}",
                        source=source,
                        line=number,
                        column=column,
                    )
                if pair.group(1) in sums:
                    raise ParseError(
                        f"cage {pair.group(1)!r} has two sums",
                        source=source,
                        line=number,
                        column=column,
                    )
                if len(pair.group(2)) > 6:
                    raise ParseError(
                        f"the sum {pair.group(2)[:12]}... is larger than any cage's",
                        source=source,
                        line=number,
                        column=column,
                    )
                sums[pair.group(1)] = (int(pair.group(2)), number, column)
            continue
        if section == "sums":
            raise ParseError(
                "a grid after the sums: give its section header (givens:, regions:, cages:)",
                source=source,
                line=number,
                column=lead + 1,
            )
        parts = word.split()
        if section == "givens" and len(parts) == 2 and len(parts[0]) == len(parts[1]):
            second = lead + line[lead:].index(parts[1], len(parts[0]))
            grids["givens"].append((number, lead, parts[0]))
            grids["cages"].append((number, second, parts[1]))
            continue
        if len(parts) > 1:
            # spaces between symbols: keep the symbols, with the column of each
            column = lead
            for part in parts:
                column = line.index(part, column)
                grids[section].append((number, column, part))
                column += len(part)
            continue
        grids[section].append((number, lead, word))
    return _assemble(grids, sums, diagonals, source, text)


def _from_json(text: str, source: str) -> VariantText:
    """A generated variant's JSON line read back (see :func:`loads`)."""

    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > 1:
        raise ParseError(
            "one puzzle a text: a variant's JSON is a single line (this is a second one)",
            source=source,
            line=lines[1][0],
            column=1,
        )
    number, line = lines[0]
    lead = len(line) - len(line.lstrip()) + 1
    data = json_line(line, source=source, number=number)
    if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str):
        raise ParseError(
            "a JSON object with a 'puzzle' string", source=source, line=number, column=lead
        )
    givens = "".join(data["puzzle"].split())
    regions = data.get("regions")
    if regions is not None and not (
        isinstance(regions, list) and all(isinstance(row, str) for row in regions)
    ):
        raise ParseError(
            f"'regions' is {brief(regions)}, not a list of rows of labels",
            source=source,
            line=number,
            column=lead,
        )
    diagonals = data.get("diagonals", False)
    if type(diagonals) is not bool:
        raise ParseError(
            f"'diagonals' is {brief(diagonals)}, not true or false",
            source=source,
            line=number,
            column=lead,
        )
    raw = data.get("cages")
    cages: list[tuple[int, list[Cell]]] | None = None
    if raw is not None:
        cages = []
        for k, cage in enumerate(raw if isinstance(raw, list) else [raw], start=1):
            if (
                not isinstance(cage, list)
                or len(cage) != 2
                or type(cage[0]) is not int
                or not isinstance(cage[1], list)
                or not all(
                    isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)
                    for cell in cage[1]
                )
            ):
                raise ParseError(
                    f"cage {k} is {brief(cage)}, not [sum, [[row, col], ...]]",
                    source=source,
                    line=number,
                    column=lead,
                )
            cages.append((cage[0], [(cell[0], cell[1]) for cell in cage[1]]))
    return VariantText(givens, regions, cages, diagonals)


def _grid_rows(
    pieces: list[tuple[int, int, str]], source: str, what: str
) -> list[list[tuple[str, int, int]]]:
    """Symbols with their (line, column) places, as rows of a square grid."""
    symbols = [
        (ch, number, column + i + 1) for number, column, word in pieces for i, ch in enumerate(word)
    ]
    lines: dict[int, list[tuple[str, int, int]]] = {}
    for entry in symbols:
        lines.setdefault(entry[1], []).append(entry)
    total = len(symbols)
    n = len(lines) if len(lines) > 1 else round(total**0.5)
    if n < 1 or n * n != total:
        number, column, word = pieces[-1]
        raise ParseError(
            f"the {what} grid has {total} cells, not a square number (81 for 9x9)",
            source=source,
            line=number,
            column=column + len(word) + 1,
        )
    return [symbols[i : i + n] for i in range(0, total, n)]


def _assemble(
    grids: dict[str, list[tuple[int, int, str]]],
    sums: dict[str, tuple[int, int, int]],
    diagonals: bool,
    source: str,
    text: str,
) -> VariantText:
    lines = text.splitlines()
    where = (len(lines) or 1, 1)
    found = {what: _grid_rows(p, source, what) for what, p in grids.items() if p}
    sizes = {what: len(rows) for what, rows in found.items()}
    if not sizes:
        raise ParseError("no grid in this text", source=source, line=where[0], column=where[1])
    n = max(sizes.values())
    for what, rows in found.items():
        if len(rows) != n:
            raise ParseError(
                f"the {what} grid is {len(rows)}x{len(rows)} and another {n}x{n}",
                source=source,
                line=rows[0][0][1],
                column=rows[0][0][2],
            )
    givens = "." * (n * n)
    if "givens" in found:
        out = []
        for row in found["givens"]:
            for ch, number, column in row:
                if ch in ".0":
                    out.append(".")
                elif 0 <= SYMBOLS.find(ch.upper()) < n:
                    out.append(ch.upper())
                else:
                    raise ParseError(
                        f"{ch!r} is not a value of a {n}x{n} sudoku",
                        source=source,
                        line=number,
                        column=column,
                    )
        givens = "".join(out)
    regions = None
    if "regions" in found:
        regions = ["".join(ch for ch, _, _ in row) for row in found["regions"]]
    cages = None
    if "cages" in found or sums:
        if "cages" not in found:
            _, number, column = next(iter(sums.values()))
            raise ParseError("sums but no cages grid", source=source, line=number, column=column)
        members: dict[str, list[Cell]] = {}
        first: dict[str, tuple[int, int]] = {}
        for r, row in enumerate(found["cages"]):
            for c, (ch, number, column) in enumerate(row):
                if ch == ".":
                    continue
                members.setdefault(ch, []).append((r, c))
                first.setdefault(ch, (number, column))
        for label, (_, number, column) in sums.items():
            if label not in members:
                raise ParseError(
                    f"a sum for cage {label!r}, which no cell is in",
                    source=source,
                    line=number,
                    column=column,
                )
        cages = []
        for label, cells in members.items():
            if label not in sums:
                number, column = first[label]
                raise ParseError(
                    f"cage {label!r} has no sum (add {label}=... to the sums)",
                    source=source,
                    line=number,
                    column=column,
                )
            total, number, column = sums[label]
            try:
                cages_checked([(total, cells)], n)
            except SudokuError as exc:
                message = str(exc).replace("cage 1", f"cage {label!r}")
                raise ParseError(message, source=source, line=number, column=column) from None
            if _apart(cells) is not None:
                number, column = first[label]
                raise ParseError(
                    f"cage {label!r} is not connected (a cage is one piece; give the parts "
                    "two labels)",
                    source=source,
                    line=number,
                    column=column,
                )
            cages.append((total, cells))
    if regions is not None:
        number_of: dict[str, int] = {}
        grid = tuple(
            tuple(number_of.setdefault(ch, len(number_of)) for ch in row) for row in regions
        )
        fault = _region_fault(grid, n, {k: ch for ch, k in number_of.items()})
        if fault is not None:
            r, c = fault[1]
            _, number, column = found["regions"][r][c]
            raise ParseError(fault[0], source=source, line=number, column=column)
    return VariantText(givens, regions, cages, diagonals)


def read(path: str) -> VariantText:
    """One variant puzzle from a file; see :func:`loads`."""
    with open(path, encoding="utf-8") as f:
        return loads(f.read(), source=path)


def solve_variant(
    rows: list[list[int]],
    *,
    box: tuple[int, int] | None = None,
    regions: object = None,
    diagonals: bool = False,
    cages: object = None,
    engine: str = "auto",
) -> Solutions[SolvedGrid]:
    """The solutions of a variant grid (:func:`lazysearch.sudoku.solve` with regions,
    diagonals or cages).  ``engine``: ``"kakuro"`` (cages, ``n <= 9``), ``"cover"``
    (exact cover), or ``"auto"``: the kakuro engine when there are cages and ``n <= 9``,
    exact cover otherwise."""
    from .sudoku import SolvedGrid, _check_memory

    n = len(rows)
    rules = variant(n, box=box, regions=regions, diagonals=diagonals, cages=cages)
    givens_clash(rows, rules)
    if engine not in ("auto", "kakuro", "cover"):
        raise SudokuError(f"engine must be 'auto', 'kakuro' or 'cover'; got {brief(engine)}")
    if engine == "kakuro" and n > 9:
        raise SudokuError(f"the kakuro engine holds the values 1..9; this grid is {n}x{n}")
    if engine == "auto":
        engine = "kakuro" if rules.cages and n <= 9 else "cover"
    given = tuple(tuple(row) for row in rows)
    shape = box if regions is None else None
    if regions is None and box is None:
        shape = box_shape(n)
    if engine == "kakuro":
        problem, empty = kakuro_problem(rows, rules)

        def decode_digits(digits: tuple[int, ...]) -> SolvedGrid:
            out = [list(row) for row in rows]
            for (r, c), d in zip(empty, digits, strict=True):
                out[r][c] = d
            return SolvedGrid(out, shape, given, rules)

        return Solutions(Search(problem), decode_digits)
    _check_memory(n)
    cover = cover_problem(rows, rules)

    def decode_options(solution: tuple[int, ...]) -> SolvedGrid:
        return SolvedGrid(decode_cover(cover, n, solution), shape, given, rules)

    return Solutions(Search(cover), decode_options)
