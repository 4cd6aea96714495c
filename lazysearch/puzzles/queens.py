"""N-queens as exact cover: rows and columns primary, diagonals secondary.

:func:`queens_problem` builds the cover with labelled items, to read; :func:`queens`
searches the same cover built straight as numbers (the million options of 1000 queens
in 0.15 s, where the labels take 11 s), and from :data:`RACE_FROM` queens up races
orders of trying the columns (:class:`QueensOrder`), because list order then sinks into
fruitless subtrees before a first placement: 6.2M nodes for 50 queens, none in 10M for
54.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from itertools import repeat
from typing import TYPE_CHECKING, Any

from ..engine import _native
from ..exactcover.problem import DLXProblem, ExactCover
from ..race import Race
from ..search import Search, fingerprint
from ..stream import Solutions

if TYPE_CHECKING:
    from ..search import Engine

#: The smallest board on which :func:`queens` races orders.  Below it list order finds
#: a first placement within 432 nodes (28 queens); from 36 on it takes from 104 nodes
#: to more than 10M (34,758 for 36 queens, 6.2M for 50, none in 10M for 46 or 54).
RACE_FROM = 32

#: The seeds of the orders :func:`queens` races, before list order.  Of 40 seeds on
#: each of 32, 40, 50, 64, 100 and 200 queens (and 10 on 500), every one found a first
#: placement within the race's first slice of 4,096 nodes, and 240 of 250 within 4n
#: nodes; racing four makes a long wait unlikely.
SEEDS = (1, 2, 3, 4)


def _check(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"queens() needs a board size n >= 1, got {n!r}")
    return n


def queens_problem(n: int) -> ExactCover:
    """The exact-cover problem of ``n`` non-attacking queens on an ``n x n`` board.

    >>> queens_problem(4).options[6]
    (('r', 1), ('c', 2), ('a', 3), ('b', -1))

    Option ``r * n + c`` puts a queen on row ``r``, column ``c``; items are
    ``("r", r)``, ``("c", c)`` (primary) and the diagonals ``("a", r + c)``,
    ``("b", r - c)`` (secondary: at most one queen each).  Its numbered form
    (``.problem``) is what :func:`queens` searches below :data:`RACE_FROM`.
    """
    _check(n)
    # Rows and columns from the middle outwards, as Knuth does: the search then
    # branches on the most constrained lines first.
    order = sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i))
    primary = [x for i in order for x in (("r", i), ("c", i))]
    secondary = [("a", s) for s in range(2 * n - 1)] + [("b", d) for d in range(-(n - 1), n)]
    options = [[("r", r), ("c", c), ("a", r + c), ("b", r - c)] for r in range(n) for c in range(n)]
    return ExactCover(options, primary=primary, secondary=secondary)


def _options(n: int, columns: list[int], shifts: list[int]) -> list[tuple[int, ...]]:
    """The items of the queens' options, row by row: row ``r`` tries the columns
    ``columns[shifts[r]:] + columns[:shifts[r]]``.  Items are numbered as
    :func:`queens_problem` numbers them, so with the columns in order and no shifts
    this is its ``.problem.option_items``.  Built from slices, zips and maps, not item
    by item: 0.15 s for the million options of 1000 queens, where the labelled
    :class:`ExactCover` takes 11 s.
    """
    middle_out = sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i))
    row_item = [0] * n
    column_item = [0] * n
    for rank, i in enumerate(middle_out):
        row_item[i] = 2 * rank + 1
        column_item[i] = 2 * rank + 2
    sums = list(range(2 * n + 1, 4 * n))  # the item of diagonal r + c
    diffs = list(range(4 * n, 6 * n - 1))  # the item of diagonal r - c, at r - c + n - 1
    column_items = [column_item[c] for c in columns]
    options: list[tuple[int, ...]] = []
    for r in range(n):
        a = sums[r : r + n]  # a[c] is the item of r + c
        b = diffs[r : r + n][::-1]  # b[c] is the item of r - c
        row = list(
            zip(
                repeat(row_item[r], n),
                column_items,
                map(a.__getitem__, columns),
                map(b.__getitem__, columns),
                strict=True,
            )
        )
        s = shifts[r]
        options += row[s:]
        options += row[:s]
    return options


def _numbers(n: int) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """The primary and secondary item counts, and every option's colours (none)."""
    return 2 * n, 4 * n - 2, ((0, 0, 0, 0),) * (n * n)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: the collector would walk the million
    option tuples of 1000 queens again and again as they are made, for nothing (they
    hold only ints): 0.1 s of 0.55."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_ENGINE_TYPES: dict[str, Any] = {}


def _engine_type(dlx: Any) -> Any:
    """The DLX engine of module ``dlx`` (compiled or plain), reporting each option by
    its number in list order, ``r * n + c``, whatever order it tries them in."""
    engine_type = _ENGINE_TYPES.get(dlx.__name__)
    if engine_type is None:

        class QueensEngine(dlx.DLXEngine):  # type: ignore[misc]
            def solution(self) -> tuple[int, ...]:
                n: int = self.size
                columns: list[int] = self.columns
                shifts: list[int] = self.shifts
                chosen = []
                for j in super().solution():
                    r, k = divmod(j, n)
                    chosen.append(r * n + columns[(k + shifts[r]) % n])
                return tuple(sorted(chosen))

        engine_type = _ENGINE_TYPES[dlx.__name__] = QueensEngine
    return engine_type


class QueensOrder:
    """The exact cover of ``n`` queens, trying each row's columns in an order drawn from
    ``seed`` (0: in list order, as :func:`queens_problem`).

    >>> s = Search(QueensOrder(60, 1))
    >>> s.stats.nodes, len(next(s)), s.stats.nodes
    (0, 60, 95)

    The order shuffles the columns once, and turns each row's list of them by its own
    random amount (a rotation is sliced, not shuffled, so the options of a million
    squares are laid out in C loops).  The columns' lists keep the rows in order.  The
    engine reports solutions as list order does, option ``r * n + c`` for a queen on
    row ``r``, column ``c``, so orders can race.  The fingerprint names the order
    itself (the permutation and the turns), not the seed.

    The seeds draw with :meth:`random.Random.random`, whose sequence Python keeps
    from one version to the next, so positions replay in any Python.
    """

    __slots__ = ("_fingerprint", "columns", "n", "seed", "shifts")

    def __init__(self, n: int, seed: int) -> None:
        self.n = _check(n)
        if type(seed) is not int or seed < 0:
            raise ValueError(f"a queens order needs a seed that is an int >= 0, got {seed!r}")
        self.seed = seed
        columns = list(range(n))
        shifts = [0] * n
        if seed:
            import random  # only for the races of large boards (start-up stays small)

            rng = random.Random(seed)
            for i in range(n - 1, 0, -1):  # Fisher-Yates
                j = int(rng.random() * (i + 1))
                columns[i], columns[j] = columns[j], columns[i]
            shifts = [int(rng.random() * n) for _ in range(n)]
        self.columns = columns
        self.shifts = shifts
        self._fingerprint: str | None = None

    def __getstate__(self) -> tuple[int, int]:
        return self.n, self.seed

    def __setstate__(self, state: tuple[int, int]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    @property
    def kind(self) -> str:
        return "exact-cover"

    def engine(self) -> Engine:
        """A DLX engine on options built for it (not kept: at 1000 queens they weigh
        70 MB, and an engine is built once per search or worker)."""
        n = self.n
        dlx = _native.load("lazysearch.exactcover._dlx")
        primary, secondary, colours = _numbers(n)
        with _collector_paused():
            options = _options(n, self.columns, self.shifts)
            engine = _engine_type(dlx)(primary, secondary, options, colours, 0)
        engine.size = n
        engine.columns = self.columns
        engine.shifts = self.shifts
        built: Engine = engine
        return built

    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(["queens", self.n, self.columns, self.shifts])
        return self._fingerprint


def queens_search_problem(n: int) -> DLXProblem | Race:
    """What :func:`queens` searches: below :data:`RACE_FROM` queens the numbered
    :func:`queens_problem` (the same tree and fingerprint, built from slices rather than
    labels); from there a :class:`Race` of :class:`QueensOrder` with the :data:`SEEDS`,
    then list order.

    >>> queens_search_problem(8) == queens_problem(8).problem
    True
    >>> [p.seed for p in queens_search_problem(32).problems]
    [1, 2, 3, 4, 0]

    The race changes only the order of the placements, so counts are the same.  It is
    deterministic, so a position names the same node in any process, and it builds an
    engine only for the runners that get a turn: 1000 queens build one, in 0.5 s.
    """
    _check(n)
    if n < RACE_FROM:
        primary, secondary, colours = _numbers(n)
        with _collector_paused():
            options = tuple(_options(n, list(range(n)), [0] * n))
        return DLXProblem(primary, secondary, options, colours)
    return Race(tuple(QueensOrder(n, seed) for seed in (*SEEDS, 0)))


def queens(n: int) -> Solutions[tuple[int, ...]]:
    """All placements of ``n`` non-attacking queens; each is the column of the queen in
    row 0, 1, ..., n-1.

    >>> queens(4).take(3)
    [(2, 0, 3, 1), (1, 3, 0, 2)]
    >>> queens(8).count()
    92

    From :data:`RACE_FROM` queens on, the placements come in the order of the seeded
    order that wins the race (see :func:`queens_search_problem`): a first placement of
    1000 queens takes about 0.6 s, build included.

    Raises
    ------
    ValueError
        If ``n`` is not an int >= 1.
    """
    problem = queens_search_problem(n)

    def decode(solution: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(j % n for j in solution)

    return Solutions(Search(problem), decode)


def verify(n: int, placement: tuple[int, ...]) -> None:
    """Raise ``ValueError`` unless ``placement`` puts ``n`` non-attacking queens on an
    ``n x n`` board (one per row, the column of each).

    >>> verify(4, (1, 3, 0, 2))
    >>> verify(4, (0, 2, 1, 3))
    Traceback (most recent call last):
    ...
    ValueError: queens (0, 2, 1, 3): rows 1 and 2 share a diagonal
    """
    if len(placement) != n or any(type(c) is not int or not 0 <= c < n for c in placement):
        raise ValueError(f"queens {placement!r} is not one column in 0..{n - 1} per row")
    seen: dict[tuple[str, int], int] = {}
    for r, c in enumerate(placement):
        # A line: a column, a diagonal (r + c), an anti-diagonal (r - c).
        for line in (("column", c), ("diagonal", r + c), ("anti", r - c)):
            if line in seen:
                what = "column" if line[0] == "column" else "diagonal"
                raise ValueError(f"queens {placement!r}: rows {seen[line]} and {r} share a {what}")
            seen[line] = r
