"""Counting knight's tours by the frontier program over an order of the squares chosen
to keep the frontier narrow (:mod:`lazysearch.knights._order`).

The program of :mod:`.counting` takes the squares column by column, so it always holds
two columns and a square (13 squares on 6 across).  Any order of the squares will do
for a frontier program; what it costs is the frontiers it holds, and those grow with
the number of squares placed that still have a neighbour to come.  :func:`find_order`
picks the order greedily: from a first square, each next square is the one that leaves
the fewest such squares (ties: the one with the most neighbours placed, then the
lowest), and of the orders from every first square the one whose frontiers are
smallest, summed as ``3 ** size``, is kept.  On 6x6 that is 9 squares at the most, and
the count of its open tours holds 36,861 frontiers at a step where the columns' program
holds 945,059 (docs/knights.md, "Any order of the squares").  :func:`improve_order`
searches on from an order, one square moved at a time; :data:`ORDERS` keeps what it
found for 6x6.

The tours from a given start are the paths of the board with one more vertex, joined
to the start alone: every path through it ends there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import _native
from .counting import TooManyStatesError, default_max_states

#: Orders better than :func:`find_order`'s, as ``(rows, cols)`` to the order (square
#: ``row * cols + col``): 6x6's is ``improve_order(nb, find_order(nb), tries=1000,
#: seed=0)`` for ``nb = knight_neighbours(6, 6)`` (60 s of CPU; the gated benchmark
#: ``test_the_stored_6x6_order_is_improve_orders`` makes it again): 247,654 frontiers
#: summed against the greedy order's 361,614, 6x6's open tours in 0.056 s against
#: 0.072 s (compiled, CPU, best of 5, one run).
ORDERS: dict[tuple[int, int], tuple[int, ...]] = {
    (6, 6): (
        30, 15, 14, 20, 5, 0, 21, 32, 4, 13, 17, 8, 24, 28, 9, 19, 26, 2,
        23, 6, 10, 34, 27, 16, 12, 1, 25, 29, 33, 22, 3, 18, 31, 7, 11, 35,
    ),
}  # fmt: skip


@dataclass
class OrderCount:
    """What :func:`order_count` found: the ``count`` of directed tours (open) or of
    cycles (closed), the ``order`` of the squares, the widest frontier (squares, the
    one being placed included) and the frontiers held after each step."""

    count: int
    order: list[int]
    widest: int
    states: list[int] = field(default_factory=list)

    @property
    def peak_states(self) -> int:
        """The most frontiers held after any one step."""
        return max(self.states, default=0)


def knight_neighbours(rows: int, cols: int) -> list[list[int]]:
    """Each square's knight neighbours, squares numbered ``row * cols + col``."""
    out: list[list[int]] = []
    for r in range(rows):
        for c in range(cols):
            out.append(
                [
                    (r + dr) * cols + c + dc
                    for dr, dc in (
                        (-2, -1),
                        (-2, 1),
                        (-1, -2),
                        (-1, 2),
                        (1, -2),
                        (1, 2),
                        (2, -1),
                        (2, 1),
                    )
                    if 0 <= r + dr < rows and 0 <= c + dc < cols
                ]
            )
    return out


def greedy_order(neighbours: list[list[int]], first: int) -> tuple[list[int], list[int]]:
    """The greedy order from square ``first`` (see the module doc) and the frontier's
    size after each step."""
    n = len(neighbours)
    placed = [False] * n
    to_come = [len(a) for a in neighbours]
    order: list[int] = []
    sizes: list[int] = []
    frontier = 0
    v = first
    while True:
        placed[v] = True
        order.append(v)
        for u in neighbours[v]:
            to_come[u] -= 1
            if placed[u] and to_come[u] == 0:
                frontier -= 1
        if to_come[v]:
            frontier += 1
        sizes.append(frontier)
        if len(order) == n:
            return order, sizes
        best = (n + 1, 0, n)
        for w in range(n):
            if placed[w]:
                continue
            size = frontier + (1 if any(not placed[u] for u in neighbours[w]) else 0)
            links = 0
            for u in neighbours[w]:
                if placed[u]:
                    links += 1
                    if to_come[u] == 1:
                        size -= 1
            if (size, -links, w) < best:
                best = (size, -links, w)
        v = best[2]


def find_order(neighbours: list[list[int]]) -> list[int]:
    """The greedy order of the smallest frontiers (``3 ** size`` summed over the
    steps) among those from every first square; the lowest first square on a tie."""
    best: tuple[int, list[int]] | None = None
    for first in range(len(neighbours)):
        order, sizes = greedy_order(neighbours, first)
        cost = sum(3**s for s in sizes)
        if best is None or cost < best[0]:
            best = (cost, order)
    return best[1] if best else []


#: Moves of :func:`searched_order`'s local search (0.1 s compiled on 6x7 and 7x7) ...
SEARCH_MOVES = 100_000
#: ... made when the greedy order's ``sum(3 ** w)`` reaches this (6x7's is 1.8 million,
#: 7x7's 49 million; 5x8's 0.67 million, 6x6's 0.28 million): below it a count of open
#: tours by the program takes a few tenths of a second at most, and the search would
#: not pay.  Closed tours make far fewer frontiers (6x7's cycles: 0.067 s by the greedy
#: order, 0.17 s with the search), so for them the bound is :data:`CLOSED_FACTOR` times.
SEARCH_FROM = 1_000_000
CLOSED_FACTOR = 20


def searched_order(
    neighbours: list[list[int]], moves: int = SEARCH_MOVES, seed: int = 0
) -> list[int]:
    """:func:`find_order`'s order, then ``moves`` of the local search
    :func:`lazysearch.knights._order.width_search` from it (``seed`` its draws)."""
    engine = _native.load("lazysearch.knights._order")
    starts = [0]
    links: list[int] = []
    for near in neighbours:
        links += near
        starts.append(len(links))
    found: list[int] = engine.width_search(starts, links, find_order(neighbours), moves, seed)[0]
    return found


def board_order(rows: int, cols: int, closed: bool = False) -> list[int]:
    """The order for the board: :data:`ORDERS`' if it has one; else :func:`find_order`'s,
    searched on by :func:`searched_order` when its frontiers are wide enough for the
    search to pay (:data:`SEARCH_FROM`)."""
    known = ORDERS.get((rows, cols))
    if known is not None:
        return list(known)
    neighbours = knight_neighbours(rows, cols)
    order = find_order(neighbours)
    _, sizes = greedy_order(neighbours, order[0])
    if sum(3**s for s in sizes) >= SEARCH_FROM * (CLOSED_FACTOR if closed else 1):
        return searched_order(neighbours)
    return order


def order_count(
    rows: int,
    cols: int,
    *,
    closed: bool = False,
    start: tuple[int, int] | None = None,
    max_states: int | None = None,
    order: list[int] | None = None,
    on_step: Callable[[int, int], object] | None = None,
) -> OrderCount:
    """Count the directed open tours of ``rows x cols`` (from ``start``, or from every
    square), or its closed tours as cycles (``closed``), by the program over ``order``
    (:func:`board_order` when None).

    >>> order_count(6, 6).count
    6637920
    >>> order_count(5, 5, start=(0, 0)).count
    304
    >>> order_count(6, 6, closed=True).count
    9862

    Raises
    ------
    TooManyStatesError
        When a step holds more than ``max_states`` frontiers (default: sized from the
        machine's memory), or the order's frontier is wider than the program packs.
    ValueError
        If a side is not a whole number >= 1, ``start`` not a square of the board, or
        ``order`` not an order of the board's squares.
    """
    engine = _native.load("lazysearch.knights._order")
    for side in (rows, cols):
        if isinstance(side, bool) or not isinstance(side, int) or side < 1:
            raise ValueError(
                f"order_count() needs a board of whole sides >= 1, not {rows!r}x{cols!r}"
            )
    if start is not None and not (
        isinstance(start, tuple)
        and len(start) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in start)
        and 0 <= start[0] < rows
        and 0 <= start[1] < cols
    ):
        raise ValueError(f"start {start!r} is not a square of the {rows}x{cols} board")
    if rows * cols == 1:
        # The one square is the whole open tour; a cycle needs a move.
        return OrderCount(0 if closed else 1, [0], 1, [1])
    neighbours = knight_neighbours(rows, cols)
    if order is None:
        order = board_order(rows, cols, closed)
    order = list(order)
    if closed and start is not None:
        raise ValueError("order_count() counts closed tours as cycles: leave out start")
    if start is not None:
        # One more vertex, joined to the start alone, placed just before it.
        s = start[0] * cols + start[1]
        extra = len(neighbours)
        neighbours = [list(a) + ([extra] if v == s else []) for v, a in enumerate(neighbours)]
        neighbours.append([s])
        if sorted(order) != list(range(extra)):
            raise ValueError(f"order must list each of the {extra} squares once, got {order!r}")
        at = order.index(s)
        placed = [*order[:at], extra, *order[at:]]
    else:
        placed = order
    limit = default_max_states() if max_states is None else max_states
    try:
        steps, widest = engine.plan(neighbours, placed, closed)
    except ValueError as error:
        if "packs" in str(error):
            raise TooManyStatesError(f"{rows}x{cols}: {error}") from None
        raise
    counter, status, found = _run(engine, steps, closed, limit, on_step)
    if engine.STATUS[status] == "full":
        raise TooManyStatesError(
            f"{rows}x{cols}: more than max_states={limit:,} frontiers at step "
            f"{len(counter.states) + 1} of {len(placed)} of the program over an order"
        )
    if not closed and start is None:
        found *= 2  # each path, either way round
    return OrderCount(found, order, widest, list(counter.states))


def _run(
    engine: Any,
    steps: list[list[int]],
    closed: bool,
    limit: int,
    on_step: Callable[[int, int], object] | None = None,
) -> tuple[Any, int, int]:
    """The engine's counter, its status and count, the counts in as many 64-bit words
    as they need."""
    limbs = 1
    while True:
        counter = engine.OrderCounter(steps, closed, limbs, limit)
        status, found = counter.run(on_step)
        if engine.STATUS[status] != "overflow":
            return counter, status, found
        limbs *= 2


def frontiers_summed(
    neighbours: list[list[int]], order: list[int], closed: bool = False, bound: int = 2**62
) -> int | None:
    """The frontiers the program over ``order`` holds, summed over its steps (what it
    costs, near enough), or None when a step passes ``bound`` frontiers or the frontier
    gets wider than the program packs."""
    engine = _native.load("lazysearch.knights._order")
    try:
        steps, _ = engine.plan(neighbours, order, closed)
    except ValueError:
        return None
    counter, status, _ = _run(engine, steps, closed, bound)
    if engine.STATUS[status] != "ok":
        return None
    summed: int = sum(counter.states)
    return summed


def improve_order(
    neighbours: list[list[int]],
    order: list[int],
    *,
    closed: bool = False,
    tries: int = 500,
    seed: int = 0,
) -> list[int]:
    """A local search from ``order``: ``tries`` times, one square moved to another
    place in the order or two swapped (drawn from ``random.Random(seed)``), the change
    kept when the frontiers summed (:func:`frontiers_summed`) go down.  Each try runs
    the program once, stopped as soon as a step holds more frontiers than the best
    order's busiest step, so it is for boards where a count takes well under a second;
    the result can be given to :func:`order_count` as ``order``.

    >>> nb = knight_neighbours(4, 5)
    >>> start = find_order(nb)
    >>> better = improve_order(nb, start, tries=50)
    >>> frontiers_summed(nb, better) <= frontiers_summed(nb, start)
    True
    """
    rng = random.Random(seed)
    engine = _native.load("lazysearch.knights._order")
    best = list(order)
    steps, _ = engine.plan(neighbours, best, closed)
    counter, status, _ = _run(engine, steps, closed, 2**62)
    cost = sum(counter.states)
    peak = max(counter.states, default=0)
    n = len(best)
    if n < 2:
        return best
    for _ in range(tries):
        i, j = rng.sample(range(n), 2)
        trial = list(best)
        if rng.random() < 0.5:
            trial[i], trial[j] = trial[j], trial[i]
        else:
            trial.insert(j, trial.pop(i))
        try:
            steps, _ = engine.plan(neighbours, trial, closed)
        except ValueError:
            continue
        counter, status, _ = _run(engine, steps, closed, max(peak, 1) * 2)
        if engine.STATUS[status] != "ok":
            continue
        summed = sum(counter.states)
        if summed < cost:
            best, cost, peak = trial, summed, max(counter.states, default=0)
    return best
