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
kakuro engine (:mod:`lazysearch.sums._engine`): a unit is a run of ``n`` cells adding
up to ``n(n + 1)/2``, a cage a run without its clue cell, and a cell lies in three to
six runs.  Without cages, or past 9x9, it is exact cover (one item per cell and per
(unit, value); a cage is one option per way of filling it).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import article, brief
from ..search import Search
from ..stream import Solutions
from .sudoku_grid import SolvedGrid, SudokuError, box_shape, check_memory
from .variant_rules import LABELS as LABELS
from .variant_rules import Cage as Cage
from .variant_rules import Cell as Cell
from .variant_rules import Variant as Variant
from .variant_rules import box_regions as box_regions
from .variant_rules import cage_labels as cage_labels
from .variant_rules import cages_checked as cages_checked
from .variant_rules import givens_clash as givens_clash
from .variant_rules import regions_grid as regions_grid
from .variant_rules import render as render
from .variant_rules import variant as variant
from .variant_text import VariantText as VariantText
from .variant_text import is_variant_text as is_variant_text
from .variant_text import loads as loads
from .variant_text import read as read
from .variant_text import write as write

if TYPE_CHECKING:
    from ..exactcover.problem import DLXProblem
    from ..search import Engine

#: The most options a cage may add to the exact cover (larger cages past 9x9 refused).
MAX_CAGE_OPTIONS = 200_000

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
    from ..sums._combos import REFUTED

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

        module = _native.load("lazysearch.sums._engine")
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
        raise SudokuError(f"the solution is not {article(n)} {n}x{n} grid")
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
    check_memory(n)
    cover = cover_problem(rows, rules)

    def decode_options(solution: tuple[int, ...]) -> SolvedGrid:
        return SolvedGrid(decode_cover(cover, n, solution), shape, given, rules)

    return Solutions(Search(cover), decode_options)
