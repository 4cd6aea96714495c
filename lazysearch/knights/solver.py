"""Knight's tours: every tour of a board as a lazy stream, counts, and one tour of a huge
board, fast.

Squares are ``(row, col)`` pairs, 0-based, row 0 at the top.  A *tour* visits every
square once; it is *closed* when its last square is a knight's move from its first.
Tours are *directed*: a path and its reversal are two tours, and so are the same cycle
entered at two squares; :func:`count_closed` counts cycles (``directed=True``: tours).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from ..errors import LazysearchError
from ..search import DONE, ENTER, LEAF, Search
from ..stream import Solutions
from ._frontier import frontier_path
from .board import (
    MOVES,
    KnightsError,
    KnightsProblem,
    NoTourError,
    Square,
    Tour,
    check_board,
    is_move,
    no_tour_reason,
    square_index,
    start_squares,
    verify,
)

__all__ = [
    "BLOCKS_UP_TO",
    "FRONTIER_FIRST",
    "FRONTIER_UP_TO",
    "METHODS",
    "MOVES",
    "REACH",
    "KnightsError",
    "KnightsProblem",
    "NoTourError",
    "Square",
    "Tour",
    "choose_method",
    "count_closed",
    "count_tours",
    "cycles",
    "draw_tours",
    "make_sampler",
    "no_tour_reason",
    "sample",
    "sample_method",
    "start_orbits",
    "tour",
    "tours",
    "verify",
]


def _decoder(rows: int, cols: int) -> Any:
    def decode(path: tuple[Square, ...]) -> Tour:
        return Tour(path, rows, cols)

    return decode


# -- every tour --------------------------------------------------------------------------


def tours(
    rows: int,
    cols: int | None = None,
    *,
    start: Square | None = None,
    closed: bool = False,
    shortcuts: bool = True,
) -> Solutions[Tour]:
    """Every directed knight's tour of a ``rows x cols`` board, as a lazy stream.

    ``start=None`` means from every square, in row-major order; ``closed=True`` gives the
    tours that end a knight's move from their start (the search prunes as soon as that
    becomes impossible).  From each square the moves are tried in Warnsdorff order:
    fewest onward moves first, then the square farther from the centre of the board,
    then the first in :data:`MOVES`; so the order of the tours is fixed.

    >>> from lazysearch import knights
    >>> knights.tours(5, start=(0, 0)).count()
    304
    >>> print(knights.tours(5, start=(0, 0)).first())
     1 20  9 14  3
    10 15  2 19 24
    21  8 25  4 13
    16 11  6 23 18
     7 22 17 12  5

    ``shortcuts=False`` searches even where a theorem (:func:`no_tour_reason`) already
    says there is nothing to find; the tests use it to check the theorems.

    Raises
    ------
    KnightsError
        If a side is < 1 or ``start`` is off the board.
    """
    rows, cols = check_board(rows, cols)
    if shortcuts:
        starts = start_squares(rows, cols, start, closed)
    elif start is not None:
        starts = [square_index(start, rows, cols)]
    else:
        starts = list(range(rows * cols))
    problem = KnightsProblem(rows, cols, starts, closed)
    return Solutions(Search(problem), _decoder(rows, cols))


def _square_symmetries(rows: int, cols: int) -> list[Any]:
    """The rotations and reflections of the board, as maps of ``(r, c)``."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    return maps


def start_orbits(rows: int, cols: int | None = None) -> list[tuple[Square, int]]:
    """One square per orbit of the board's symmetries, with the orbit's size.

    A symmetry of the board maps tours from one square onto tours from its image, so
    the tours from every square are the sum of ``size * tours(rep)``.

    >>> start_orbits(4)
    [((0, 0), 4), ((0, 1), 8), ((1, 1), 4)]
    """
    rows, cols = check_board(rows, cols)
    maps = _square_symmetries(rows, cols)
    seen: set[Square] = set()
    out = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in seen:
                orbit = {g(r, c) for g in maps}
                seen |= orbit
                out.append(((r, c), len(orbit)))
    return out


#: ``method="auto"`` counts by dynamic programming (:mod:`.counting`) where it was
#: measured faster than walking every tour: see :func:`choose_method`.
METHODS = ("auto", "dp", "enumerate", "join", "order")


def choose_method(
    rows: int,
    cols: int,
    closed: bool,
    start: Square | None = None,
    *,
    method: str = "auto",
    parallel: bool = False,
    cluster: bool = False,
    stoppable: bool = False,
    bar: bool = False,
    nodes: bool = False,
) -> str:
    """``"dp"``, ``"order"``, ``"join"`` or ``"enumerate"``: which counts this board
    faster (measured on the 2-core development machine, compiled, CPU time;
    docs/knights.md has the table); a ``method`` other than ``"auto"`` is kept.

    What the count must do can change the choice: ``stoppable`` (a time or node limit,
    a checkpoint or a resumption), a progress ``bar``, stopping at a number of
    ``nodes``; the joins show no bar and enter no nodes, and the program over an order
    has neither bar nor checkpoint, so such a count goes to the columns' program (or
    the walk, for ``nodes``); the closed tours' join keeps its parts at a time limit.
    A ``parallel`` count (several processes, or a Dask ``cluster``) keeps ``"auto"``
    (:func:`count_tours` then picks) unless it is ``stoppable``: then the closed
    tours' join shares its parts among the processes (not on a cluster, nor for
    ``nodes``) and anything the walk or a join would count is walked in parallel.

    The walk costs about the number of tours, which grows exponentially with the board;
    the program costs about its frontiers, which grow with the short side and only
    linearly with the length.  So the walk wins on small boards and the program from a
    length that depends on the width: 4x7 open 0.011 s walking against 0.020 s, 4x8
    0.048 s against 0.015 s; 5x6 open 0.022 s against 0.057 s, 5x7 open 0.52 s against
    0.25 s; 5x6 closed walks in 0.2 ms, 5x8 closed 0.077 s against 0.030 s; 6x6 closed
    0.011 s against 0.046 s, 6x7 closed 1.13 s against 0.47 s.  The open tours of every
    start on 5 or 6 across are joined from two halves (:mod:`.openjoin`) where the
    program would count them: one run, 5x7 0.057 s against the program's 0.199 s, 5x8
    0.25 s against 0.80 s, 6x7 7.1 s against 16.8 s (2.0 s since), and 6x6 too, 0.91 s
    against the program's 2.44 s and the walk's 1.52 s (now by the program over a
    narrow order, below).  7x7 open is counted only by the join.
    """
    if method != "auto":
        return method
    how = "auto" if parallel else _fastest(rows, cols, closed, start)
    if stoppable and how == "auto":
        fastest = _fastest(rows, cols, closed, start)
        if fastest == "join" and closed and not cluster and not nodes:
            how = "join"
        elif fastest in ("enumerate", "join"):
            how = "enumerate"
    if how == "join" and not closed and (stoppable or bar):
        how = "enumerate" if nodes else "dp"
    elif how == "join" and closed and (bar or nodes):
        how = "dp"
    if how == "order" and (stoppable or bar):
        how = "enumerate" if nodes else "dp"
    return how


def _fastest(rows: int, cols: int, closed: bool, start: Square | None) -> str:
    k, n = sorted((rows, cols))
    # The program over a narrow order (:mod:`.ordering`), CPU, one run, its order found
    # afresh (6x6 open: 0.095 s; 0.056 s with its stored order) against the join's
    # 0.69 s; from a corner 5x7 0.022 s against the columns' program's 0.18 s, 5x8
    # 0.29 s against 0.61 s, 6x6 0.050 s against the walk's 0.54 s, 6x7 1.18 s against
    # 9.7 s, and 7x7 in 24-35 s where the columns' program passes its bound (6x8 41 s
    # against 28 s, 5x6 0.010 s against the walk's 0.005 s); 6x7 closed 0.067 s
    # against the join's 0.110 s.
    if not closed and start is None and k == 6 and n in (6, 7):
        # 6x7 (its order searched on, 0.1 s of it): 0.92 s wall and CPU against the
        # join's 1.97 to 2.99 s wall in two processes (two runs alternating).
        return "order"
    if not closed and start is not None and (k, n) in ((5, 7), (5, 8), (6, 6), (6, 7), (7, 7)):
        return "order"
    if closed and (k, n) == (6, 7):
        return "order"
    if not closed and start is None and k in (5, 6) and n >= (6 if k == 6 else 7):
        return "join"
    if not closed and start is None and k == n == 7:
        return "join"  # about 70 s of CPU; the program would hold billions of frontiers
    if closed and (k >= 7 or (k == 6 and 7 <= n <= 11)):
        # 7x8 closed: 22 s CPU against the program's 287 s; 8x8: see the docs.  6 across,
        # one process, one run: 6x7 0.12 s against 0.40 s, 6x8 0.53 s against 1.41 s, 6x9
        # and 6x10 0.72 of the program's time, 6x12 0.96 (the program is linear in the
        # length, the join's transfer is not).  Both can be stopped and resumed; with
        # --progress the command line counts by the program, which shows a bar.
        return "join"
    shortest = {4: 8, 5: 7, 6: 7}
    if k <= 3 or k >= 7 or n >= shortest[k]:
        return "dp"
    return "enumerate"


def _method(method: object, workers: int | None, executor: Executor | None) -> str:
    if method not in METHODS:
        raise KnightsError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method in ("dp", "order") and (workers is not None or executor is not None):
        raise KnightsError(
            f"method={method!r} counts in one process: leave out workers and executor"
        )
    if method == "join" and executor is not None:
        raise KnightsError("method='join' shares its parts among forked processes: give workers")
    assert isinstance(method, str)
    return method


def count_tours(
    rows: int,
    cols: int | None = None,
    *,
    start: Square | None = None,
    closed: bool = False,
    workers: int | None = None,
    executor: Executor | None = None,
    method: str = "auto",
) -> int:
    """The number of directed tours (every start, both directions).

    ``method="enumerate"`` walks the tours, counting only what symmetry leaves to count:
    open tours from every square are searched from one square per orbit of the board's
    symmetries, each weighed by its orbit's size; closed tours are cycles counted once by
    :func:`count_closed`, each giving ``2 * rows * cols`` directed tours (2 from a given
    start).  ``workers`` / ``executor`` count in parallel, as ``Solutions.count`` does.
    ``method="dp"`` counts by dynamic programming over the board's cross-sections
    (:func:`lazysearch.knights.counting.frontier_count`), in one process, without
    building a tour; ``"join"`` counts the open tours of every start by the same
    program on two halves of the board, joined through two columns they share
    (:func:`lazysearch.knights.openjoin.open_join_count`, its join shared among
    ``workers`` forked processes; closed tours as :func:`count_closed` does);
    ``method="order"`` counts by the same kind of program over an order of the squares
    chosen to keep its frontier narrow (:func:`lazysearch.knights.ordering.order_count`,
    one process); ``"auto"`` picks the faster for the board (and walks in parallel when
    ``workers`` or ``executor`` is given and the walk is picked; a join picked takes as
    many processes as the machine has cores unless ``workers`` says; the program over an
    order counts in one).

    >>> count_tours(5)
    1728
    >>> count_tours(3, 4)
    16
    >>> count_tours(3, 12, method="dp")  # shared/ORACLES.md (A383660)
    114496
    """
    rows, cols = check_board(rows, cols)
    how = _method(method, workers, executor)
    if start is not None:
        square_index(start, rows, cols)
    if closed:
        cycles = count_closed(rows, cols, workers=workers, executor=executor, method=method)
        if start is not None:
            return 2 * cycles
        return 2 * rows * cols * cycles
    if how == "join" and start is not None:
        raise KnightsError(
            f"method='join' counts the open tours of every start, not from start={start!r}: "
            "leave out start, or use method='dp'"
        )
    if how == "auto":
        how = choose_method(rows, cols, closed, start)
        if how == "join" and executor is None and workers is None:
            workers = os.cpu_count() or 1
    if no_tour_reason(rows, cols, start=start):
        return 0
    if how == "join":
        if min(rows, cols) >= 3 and max(rows, cols) >= 4:
            from .openjoin import open_join_count

            joined: int = open_join_count(rows, cols, workers=workers or 1).count
            return joined
        how = "dp"  # too small to cut in two
    if how == "order":
        from .ordering import order_count

        return order_count(rows, cols, start=start).count
    if how == "dp":
        from .counting import frontier_count

        return frontier_count(rows, cols, start=start).count
    if start is not None:
        return tours(rows, cols, start=start).count(workers=workers, executor=executor)
    total = 0
    for square, size in start_orbits(rows, cols):
        stream = tours(rows, cols, start=square)
        total += size * stream.count(workers=workers, executor=executor)
    return total


def count_closed(
    rows: int,
    cols: int | None = None,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    method: str = "auto",
    directed: bool = False,
) -> int:
    """The number of closed tours counted as cycles (each once, whatever its start and
    direction); ``directed=True``: as :func:`tours` counts, ``2 * rows * cols`` a cycle.

    >>> count_closed(6), count_closed(6, directed=True), tours(6, closed=True).count()
    (9862, 710064, 710064)

    ``method="enumerate"`` walks them: every cycle passes through the corner ``(0, 0)``,
    whose only two neighbours ``(1, 2)`` and ``(2, 1)`` are then both on it; so the
    cycles are the closed tours that start at the corner and go to ``(1, 2)`` first.
    ``method="dp"`` counts them by dynamic programming, ``"order"`` by a program over an
    order of the squares (:func:`lazysearch.knights.ordering.order_count`), ``"join"`` by
    the columns' program run on the two halves of the board and joined across the middle
    (:func:`lazysearch.knights.join.join_count`; ``workers`` forked processes share
    its parts), ``"auto"`` picks (see :func:`count_tours`): the join on boards 7 or
    more across, then in as many processes as the machine has cores unless
    ``workers`` says, and on 6x7 to 6x11 in one.

    >>> count_closed(3, 10)
    16
    >>> count_closed(3, 12, method="dp")  # shared/ORACLES.md (A383660)
    176
    >>> count_closed(5, 8, method="join")
    44202
    """
    rows, cols = check_board(rows, cols)
    if directed:
        once = count_closed(rows, cols, workers=workers, executor=executor, method=method)
        return 2 * rows * cols * once
    how = _method(method, workers, executor)
    if no_tour_reason(rows, cols, closed=True):
        return 0
    if how == "auto":
        how = choose_method(rows, cols, True)
        if how == "join" and executor is None and workers is None and min(rows, cols) >= 7:
            workers = os.cpu_count() or 1  # (6 across takes a second or two in one)
    if how == "order":
        from .ordering import order_count

        return order_count(rows, cols, closed=True).count
    if how == "dp":
        from .counting import frontier_count

        return frontier_count(rows, cols, closed=True).count
    if how == "join" and executor is None:
        from .join import join_count

        joined: int = join_count(rows, cols, workers=workers or 1).count
        return joined
    return cycles(rows, cols).count(workers=workers, executor=executor)


def cycles(rows: int, cols: int | None = None) -> Solutions[Tour]:
    """Every closed tour once, entered at ``(0, 0)`` and run to ``(1, 2)`` first: the
    stream :func:`count_closed` walks, its estimate one of cycles, not of tours.

    >>> cycles(6).count(), cycles(6).first()[:2]
    (9862, ((0, 0), (1, 2)))
    """
    rows, cols = check_board(rows, cols)
    corner = [] if no_tour_reason(rows, cols, closed=True) else [0]
    problem = KnightsProblem(rows, cols, corner, True, second=cols + 2 if corner else -1)
    return Solutions(Search(problem), _decoder(rows, cols))


# -- uniformly random tours -----------------------------------------------------------------


def sample(
    rows: int,
    cols: int | None = None,
    *,
    closed: bool = False,
    start: Square | None = None,
    k: int = 1,
    seed: int | None = None,
    max_states: int | None = None,
    method: str = "auto",
    parts: str | os.PathLike[str] | None = None,
    workers: int = 1,
) -> list[Tour]:
    """``k`` tours drawn independently and exactly uniformly from all the tours that
    :func:`count_tours` (open) or :func:`count_closed` (closed) counts.

    Open tours are directed: each start (or ``start``) and direction is as likely as
    any other.  Closed tours are drawn as cycles, each as likely as any other, and
    returned from ``start`` (default ``(0, 0)``) in a direction drawn at random.  The
    same ``seed`` gives the same tours, compiled or as plain Python.

    >>> from lazysearch import knights
    >>> tours = knights.sample(3, 10, closed=True, k=2, seed=1)
    >>> [t[0] for t in tours], all(t.closed for t in tours)
    ([(0, 0), (0, 0)], True)

    A board without such a tour gives an empty list (``no_tour_reason`` may say why).

    Parameters
    ----------
    k
        How many tours (drawn with replacement: a tour may come twice).
    seed
        For :class:`random.Random`; ``None``: from the system.
    max_states
        Bounds the frontiers kept for all the squares together (see Notes).
    method
        ``"dp"``: the counting program's tables of the whole board
        (:class:`lazysearch.knights.counting.TourSampler`); ``"join"`` (closed tours
        only): the join of two halves (:class:`lazysearch.knights.joinsample.JoinSampler`);
        ``"parts"`` (closed tours only): the packed join one part at a time
        (:class:`lazysearch.knights.joinsample.PartsSampler`: it keeps one part's
        tables, so it reaches 7x8); ``"auto"`` (default): the join for closed tours 5
        or 6 across from 42 squares on, where it was measured faster, the parts 7 or
        more across, the program elsewhere.
    parts
        Drawing in parts only: the checkpoint of a count of the same board by the join
        (:func:`lazysearch.knights.joinrun.count_joined`'s ``checkpoint``, or
        ``lazysearch knights 8 --closed --count --checkpoint FILE``), whose parts'
        counts are then not counted again (8x8: about 1,000 s of CPU saved).
    workers
        Drawing in parts only: the processes that count the parts not known yet.

    Raises
    ------
    KnightsError
        If a side is < 1, ``start`` is off the board, ``k`` is not a whole number >= 0,
        ``seed`` not a whole number, ``method`` not one of those above (``"join"``
        for open tours), or ``parts`` or ``workers`` given to another method than the
        parts.
    CheckpointError
        If ``parts`` is not a checkpoint of a count of this board by the join.
    TooManyStatesError
        If the tables would pass ``max_states`` frontiers, or at once for closed tours
        7 or more across by ``"join"``: it keeps every table of the transfer in Python
        dicts, and there they outgrow the machine (8x8: 2 billion states).

    Notes
    -----
    The program is run forward and backward once, keeping every square's frontiers
    (6x6 closed: 0.14 s; 6x8 closed: about 10 s of CPU and 0.3 GB), then each tour
    takes ``O(rows * cols)`` steps.  The join runs the program over the longer half
    and the transfer once, keeping every step's table (6x8 closed: 2.5 s, 0.33 GB),
    then scans each table once more for all ``k`` tours together (2.6 s).  The parts
    count the board's parts once (7x8 closed: 50 s of CPU), then count the parts
    under the one chosen for each tour (7x8: 17 to 71 s of CPU a tour).
    """
    rows, cols = check_board(rows, cols)
    if start is not None:
        square_index(start, rows, cols)
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise KnightsError(f"k is how many tours to draw, a whole number >= 0, got {k!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise KnightsError(f"seed must be a whole number or None, got {seed!r}")
    chosen = sample_method(rows, cols, closed, method)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise KnightsError(f"workers must be a whole number >= 1, got {workers!r}")
    if chosen != "parts" and (parts is not None or workers != 1):
        raise KnightsError(
            f"parts= and workers= are for drawing in parts (method='parts', or 'auto' for "
            f"closed tours 7 or more across); {rows}x{cols} draws by {chosen!r}"
        )
    if k == 0 or no_tour_reason(rows, cols, start=start, closed=closed):
        return []
    import random

    sampler = make_sampler(rows, cols, start, closed, method, max_states, parts, workers)
    if sampler.count == 0:
        return []
    return [Tour(tour, rows, cols) for tour in draw_tours(sampler, k, random.Random(seed))]


def sample_method(rows: int, cols: int, closed: bool, method: str) -> str:
    """How :func:`sample` draws: ``"dp"``, ``"join"`` or ``"parts"`` (``method`` checked
    and, when ``"auto"``, chosen).

    >>> sample_method(6, 7, True, "auto"), sample_method(8, 8, True, "auto")
    ('join', 'parts')

    Raises :class:`KnightsError` for a ``method`` not one of :func:`sample`'s, or the
    join's for open tours; ``TooManyStatesError`` for ``"join"`` on a board it cannot
    keep.  Measured (compiled, CPU, one loaded run, building and ten
    tours): the join 0.14 s against the program's 0.14 s on 6x6 closed, 0.34 s against
    0.45 s on 5x10, 0.64 s against 1.83 s on 6x7, 5.2 s against 9.8 s on 6x8."""
    if method not in ("auto", "dp", "join", "parts"):
        raise KnightsError(f"method must be 'auto', 'dp', 'join' or 'parts', got {method!r}")
    if method in ("join", "parts") and not closed:
        raise KnightsError(f"method={method!r} draws closed tours only: give closed=True")
    k, n = sorted((rows, cols))
    if method == "auto":
        if closed and k >= 7:
            method = "parts"
        else:
            method = "join" if closed and k >= 5 and k * n >= 42 else "dp"
    if closed and method == "join" and k >= 7 and k * n % 2 == 0:
        raise _too_wide_to_sample(rows, cols)
    return method


def _too_wide_to_sample(rows: int, cols: int) -> LazysearchError:
    from .counting import TooManyStatesError

    return TooManyStatesError(
        f"sampling the closed tours of {rows}x{cols} with method='join' is not reached: "
        "it keeps every table of the transfer in Python dicts, which 7 or more squares "
        "across outgrow the machine (8x8: 2 billion states); method='parts' keeps one "
        "part's"
    )


def make_sampler(
    rows: int,
    cols: int,
    start: Square | None,
    closed: bool,
    method: str,
    max_states: int | None,
    parts: str | os.PathLike[str] | None = None,
    workers: int = 1,
) -> Any:
    """The sampler :func:`sample` draws with: its ``count`` of tours, and tours drawn by
    :func:`draw_tours` (``method`` as :func:`sample_method` takes it).

    >>> make_sampler(5, 6, None, True, "auto", None).count
    8
    """
    chosen = sample_method(rows, cols, closed, method)
    if chosen == "parts":
        from .joinsample import PartsSampler

        return PartsSampler(
            rows, cols, start=start, max_states=max_states, parts=parts, workers=workers
        )
    if chosen == "join":
        from .joinsample import JoinSampler

        return JoinSampler(rows, cols, start=start, max_states=max_states)
    from .counting import TourSampler

    return TourSampler(rows, cols, start=start, closed=closed, max_states=max_states)


def draw_tours(sampler: Any, k: int, rng: Any) -> list[list[Square]]:
    """``k`` tours drawn with ``rng`` from a sampler of :func:`make_sampler` (the
    join's in one batch), each a list of squares.

    >>> import random
    >>> len(draw_tours(make_sampler(5, 6, None, True, "auto", None), 2, random.Random(1)))
    2
    """
    if hasattr(sampler, "draw_many"):
        drawn: list[list[Square]] = sampler.draw_many(k, rng)
        return drawn
    return [sampler.draw(rng) for _ in range(k)]


# -- one tour, fast -------------------------------------------------------------------------


def _rotated_moves(shift: int) -> tuple[Square, ...]:
    return MOVES[shift:] + MOVES[:shift]


def _budgeted_path(rows: int, cols: int, start: int, closed: bool) -> array[int] | None:
    """The path (square indices, :meth:`Tour.indices`) of one tour from ``start``, or
    ``None`` when eight short tries all ran out of budget.

    Warnsdorff's rule with ties toward the edge almost never needs to back up; when it
    does, backing up far enough can take very long.  So each of the eight rotations of
    the move order (a different last tie-break) gets a budget of a few nodes per square.
    """
    budget = 4 * rows * cols + 10_000
    for shift in range(8):
        problem = KnightsProblem(rows, cols, [start], closed, moves=_rotated_moves(shift))
        engine: Any = problem.engine()  # a KnightEngine (it has squares())
        engine.run(1, budget)
        if engine.state == LEAF:
            squares: array[int] = engine.squares()
            return squares
        if engine.state == DONE:
            return None  # the whole tree was walked: there is no tour
        del engine  # before the next is made: each takes about 22 bytes a square
    return None


def _complete_path(rows: int, cols: int, start: int, closed: bool) -> array[int] | None:
    """The path (square indices) of the first tour from ``start`` in the documented
    order, or ``None`` when there is none (the whole tree is walked: this can take very
    long)."""
    engine: Any = KnightsProblem(rows, cols, [start], closed).engine()
    while engine.state == ENTER:
        if engine.run(1, 1 << 20):
            squares: array[int] = engine.squares()
            return squares
    return None


#: Boards whose short side is at most this get closed tours joined from blocks when
#: Warnsdorff's rule struggles (long thin boards, and some squarish ones: 22x24 ran out
#: of budget in all eight move orders).  Measured, blocks joined and verified: 22x24 in
#: 8 ms, 50x60 in 41 ms, 20x5000 3.7 s, 30x3000 10 s, 50x2000 4.0 s; from 60 across the
#: complete search for one block's closed tour (60x6) did not end within minutes.
BLOCKS_UP_TO = 50


#: How many columns either side of a cut the edges exchanged to join two cycles may use
#: (the windows of a block's two cuts may overlap: an edge given up at one cut is no
#: longer in the cycle when the next cut looks for one).
REACH = 5


def _block_widths(k: int, n: int) -> list[int]:
    """Split ``n`` columns into blocks ``k x w`` that each have closed tours (``k >= 5``
    the short side, ``k * n`` even): widths of 6 and a last one of 6 to 11, even when
    ``k`` is odd."""
    step = 6
    widths = []
    while n >= 2 * step:
        widths.append(step)
        n -= step
    return [*widths, n]


def _closed_by_blocks(rows: int, cols: int) -> list[Square] | None:
    """A closed tour of a long thin board, joined from closed tours of small blocks.

    The board is cut across its long side into blocks with closed tours (found by the
    ordinary search: they have at most a couple of hundred squares).  Going along, the
    cycle built so far and the next block's cycle become one by an exchange of edges:
    an edge ``a1-a2`` of the one near the cut and an edge ``b1-b2`` of the other, with
    ``a1-b1`` and ``a2-b2`` knight's moves, are replaced by those two moves.  If no pair
    fits, the block's next closed tour is tried.  Returns ``None`` if that fails, and
    for boards three squares wide, where no single exchange joins two cycles (measured
    on 3x10 and 3x12 blocks).
    """
    if min(rows, cols) < 5:
        return None
    if rows > cols:
        flipped = _closed_by_blocks(cols, rows)
        return None if flipped is None else [(c, r) for r, c in flipped]
    k = rows
    links: dict[Square, list[Square]] = {}
    x = 0
    for w in _block_widths(k, cols):
        joined = False
        for block in tours(k, w, start=(0, 0), closed=True).take(64):
            cycle = [(r, c + x) for r, c in block]
            if not links:
                exchange: tuple[Square, Square, Square, Square] | None = None
            else:
                exchange = _exchange(links, cycle, x)
                if exchange is None:
                    continue
            for i, square in enumerate(cycle):
                links[square] = [cycle[i - 1], cycle[(i + 1) % len(cycle)]]
            if exchange is not None:
                a1, a2, b1, b2 = exchange
                for p, old, new in ((a1, a2, b1), (a2, a1, b2), (b1, b2, a1), (b2, b1, a2)):
                    links[p][links[p].index(old)] = new
            joined = True
            break
        if not joined:
            return None
        x += w
    # Walk the cycle from the corner.
    path = [(0, 0)]
    previous, here = (0, 0), links[(0, 0)][0]
    while here != (0, 0):
        path.append(here)
        a, b = links[here]
        previous, here = here, (b if a == previous else a)
    return path if len(path) == rows * cols else None


def _exchange(
    links: dict[Square, list[Square]], cycle: list[Square], x: int
) -> tuple[Square, Square, Square, Square] | None:
    """Edges ``a1-a2`` (of ``links``, left of column ``x``) and ``b1-b2`` (of ``cycle``,
    right of it) with ``a1-b1`` and ``a2-b2`` knight's moves, or ``None``."""
    left = [
        (a, b)
        for a, pair in links.items()
        if a[1] >= x - REACH
        for b in pair
        if b[1] >= x - REACH and a < b
    ]
    right = [
        (cycle[i - 1], cycle[i])
        for i in range(len(cycle))
        if cycle[i - 1][1] < x + REACH and cycle[i][1] < x + REACH
    ]
    for a1, a2 in left:
        for b1, b2 in right:
            if is_move(a1, b1) and is_move(a2, b2):
                return a1, a2, b1, b2
            if is_move(a1, b2) and is_move(a2, b1):
                return a1, a2, b2, b1
    return None


#: Boards at most this many squares across get their one tour from the search over
#: cross-sections (:mod:`lazysearch.knights._frontier`) straight away: Warnsdorff's rule
#: goes wrong on them.
FRONTIER_FIRST = 4
#: ... and boards at most this many across get it when Warnsdorff's rule, with its
#: budget, does not find one (on wider boards that search can take long).
FRONTIER_UP_TO = 7


def tour(
    rows: int,
    cols: int | None = None,
    *,
    start: Square = (0, 0),
    closed: bool = False,
) -> Tour:
    """One knight's tour from ``start``; fast on boards of millions of squares.

    On boards three or four squares across, a search over the board's cross-sections
    (:mod:`lazysearch.knights._frontier`) finds the tour, or proves there is none, in
    time about linear in the length.  Elsewhere, where the board has closed tours, one
    is found from the corner (Warnsdorff's rule, ties to the square farther from the
    centre, backing up on the explicit stack when stuck) and entered at ``start``: a
    closed tour is also an open tour from each of its squares.  Otherwise, or if that
    takes too long, the same search runs from ``start`` itself.  Each try has a budget
    of a few nodes per square and is retried with the move order rotated.  When all of
    that fails, boards up to seven across go to the cross-section search, and wider
    ones to a complete search of the tours from ``start`` in the documented order.

    >>> t = tour(8, start=(3, 4), closed=True)
    >>> t[0], t.closed, len(t)
    ((3, 4), True, 64)

    Raises
    ------
    NoTourError
        If there is no such tour (with the reason).
    KnightsError
        If a side is < 1 or ``start`` is off the board.
    """
    rows, cols = check_board(rows, cols)
    index = square_index(start, rows, cols)
    reason = no_tour_reason(rows, cols, start=start, closed=closed)
    if reason is not None:
        raise NoTourError(reason)
    k = min(rows, cols)
    path: array[int] | None = None
    if k > FRONTIER_FIRST and no_tour_reason(rows, cols, closed=True) is None:
        path = _budgeted_path(rows, cols, 0, True)
        if path is None and k <= BLOCKS_UP_TO:
            path = _indices(_closed_by_blocks(rows, cols), rows, cols)
        if path is not None and path[0] != index:  # enter the cycle at ``start``
            at = path.index(index)
            tail = path[:at]
            del path[:at]
            path.extend(tail)
            del tail
    if path is None and not closed and k > FRONTIER_FIRST:
        path = _budgeted_path(rows, cols, index, False)
    if path is None:  # both searches below are complete: None means there is no tour
        if k <= FRONTIER_UP_TO:
            path = _indices(frontier_path(rows, cols, divmod(index, cols), closed), rows, cols)
        else:
            path = _complete_path(rows, cols, index, closed)
    if path is None:
        kind = "closed" if closed else "open"
        raise NoTourError(f"there is no {kind} tour of {rows}x{cols} from {tuple(start)}")
    return Tour.from_indices(path, rows, cols)


def _indices(path: Sequence[Square] | None, rows: int, cols: int) -> array[int] | None:
    """``path``'s squares as indices (``None`` stays ``None``)."""
    return None if path is None else Tour(path, rows, cols).indices()


# -- checking a tour -------------------------------------------------------------------------
