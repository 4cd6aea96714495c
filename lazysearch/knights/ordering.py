"""Counting knight's tours by the frontier program over an order of the squares chosen
to keep the frontier narrow (:mod:`lazysearch.graphs._order`, any graph's; the
orders and the searches for them are :mod:`lazysearch.graphs.orders`).

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

from collections.abc import Callable

from ..engine import _native
from ..graphs.orders import (
    CLOSED_FACTOR,
    SEARCH_FROM,
    SEARCH_MOVES,
    OrderCount,
    find_order,
    frontiers_summed,
    greedy_order,
    improve_order,
    run,
    searched_order,
)
from .counting import TooManyStatesError, default_max_states

__all__ = [
    "CLOSED_FACTOR",
    "ORDERS",
    "SEARCH_FROM",
    "SEARCH_MOVES",
    "OrderCount",
    "board_order",
    "find_order",
    "frontiers_summed",
    "greedy_order",
    "improve_order",
    "knight_neighbours",
    "order_count",
    "searched_order",
]

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
    engine = _native.load("lazysearch.graphs._order")
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
    counter, status, found = run(engine, steps, closed, limit, on_step)
    if engine.STATUS[status] == "full":
        raise TooManyStatesError(
            f"{rows}x{cols}: more than max_states={limit:,} frontiers at step "
            f"{len(counter.states) + 1} of {len(placed)} of the program over an order"
        )
    if not closed and start is None:
        found *= 2  # each path, either way round
    return OrderCount(found, order, widest, list(counter.states))
