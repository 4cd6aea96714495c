"""Orders of a graph's vertices for the frontier program (:mod:`._order`), and running it.

A frontier program takes the vertices one at a time in some order; what it costs is the
frontiers it holds, and those grow with the vertices placed that still have a neighbour
to come (the *frontier*).  :func:`find_order` picks an order greedily: from a first
vertex, each next vertex is the one that leaves the fewest such vertices (ties: the one
with the most neighbours placed, then the lowest), and of the orders from every first
vertex the one whose frontiers are smallest, summed as ``3 ** size``, is kept.
:func:`searched_order` searches on from it (a compiled local search over the same
measure), :func:`improve_order` by running the program itself.

The knights' counts over an order (:mod:`lazysearch.knights.ordering`) and the graphs'
(:mod:`.frontier`) use these.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import _native


@dataclass
class OrderCount:
    """What a count over an order found: the ``count``, the ``order`` of the vertices,
    the widest frontier (vertices, the one being placed included) and the frontiers held
    after each step."""

    count: int
    order: list[Any]
    widest: int
    states: list[int] = field(default_factory=list)

    @property
    def peak_states(self) -> int:
        """The most frontiers held after any one step."""
        return max(self.states, default=0)


def greedy_order(
    neighbours: list[list[int]], first: int, weighted: bool = False
) -> tuple[list[int], list[int]]:
    """The greedy order from vertex ``first`` (see the module doc) and the frontier's
    size after each step.  ``weighted``: each next vertex is the one that leaves the
    frontier lightest, a vertex with one neighbour to come weighing ``log 2`` and one
    with more ``log 3`` (what its states can be: the former is never free), which
    sweeps a grid row by row where the plain rule fills it by diagonals."""
    n = len(neighbours)
    placed = [False] * n
    to_come = [len(a) for a in neighbours]
    order: list[int] = []
    sizes: list[int] = []
    frontier = 0
    # The vertices not placed with a neighbour placed: only they (and vertices with no
    # neighbour at all) can be the best next one, since any other adds one vertex to
    # the frontier and has no neighbour placed (the tie-break), unless none is left.
    near: set[int] = set()
    lonely = [v for v in range(n) if not neighbours[v]]
    weight = _WEIGHTS if weighted else _SIZES
    v = first
    while True:
        placed[v] = True
        near.discard(v)
        order.append(v)
        for u in neighbours[v]:
            to_come[u] -= 1
            if placed[u]:
                if to_come[u] == 0:
                    frontier -= 1
            else:
                near.add(u)
        if to_come[v]:
            frontier += 1
        sizes.append(frontier)
        if len(order) == n:
            return order, sizes
        best: tuple[float, int, int] = (float(n + 1) * 2, 0, n)
        candidates: Any = near if near else range(n)
        for w in (*candidates, *lonely) if near else candidates:
            if placed[w]:
                continue
            size = 0.0
            links = 0
            ahead = 0
            for u in neighbours[w]:
                if placed[u]:
                    links += 1
                    left = to_come[u]
                    size += weight[min(left - 1, 2)] - weight[min(left, 2)]
                else:
                    ahead += 1
            size += weight[min(ahead, 2)]
            if (size, -links, w) < best:
                best = (size, -links, w)
        v = best[2]


#: What a frontier vertex with 0, 1 and 2 or more neighbours to come weighs for
#: :func:`greedy_order`: one each (the frontier's size), or the logarithm of the states
#: it can be in (``weighted``).
_SIZES = (0.0, 1.0, 1.0)
_WEIGHTS = (0.0, math.log(2), math.log(3))


def order_cost(sizes: list[int]) -> int:
    """What an order's frontier sizes cost, roughly: ``3 ** size`` summed."""
    return sum(3**s for s in sizes)


def find_order(neighbours: list[list[int]], firsts: list[int] | None = None) -> list[int]:
    """The greedy order of the smallest frontiers (:func:`order_cost`) among those from
    every first vertex (or from each of ``firsts``); the lowest first vertex on a tie."""
    best: tuple[int, list[int]] | None = None
    for first in range(len(neighbours)) if firsts is None else sorted(firsts):
        order, sizes = greedy_order(neighbours, first)
        cost = order_cost(sizes)
        if best is None or cost < best[0]:
            best = (cost, order)
    return best[1] if best else []


#: Moves of :func:`searched_order`'s local search (0.1 s compiled on 6x7 and 7x7) ...
SEARCH_MOVES = 100_000
#: ... made when the greedy order's ``sum(3 ** w)`` reaches this (6x7's knight graph is
#: 1.8 million, 7x7's 49 million; 5x8's 0.67 million, 6x6's 0.28 million): below it a
#: count of open tours by the program takes a few tenths of a second at most, and the
#: search would not pay.  Cycles make far fewer frontiers (6x7's: 0.067 s by the greedy
#: order, 0.17 s with the search), so for them the bound is :data:`CLOSED_FACTOR` times.
SEARCH_FROM = 1_000_000
CLOSED_FACTOR = 20


def rows_of(neighbours: list[list[int]]) -> tuple[list[int], list[int]]:
    """The neighbour lists as compressed rows: ``links[starts[v] : starts[v + 1]]``."""
    starts = [0]
    links: list[int] = []
    for near in neighbours:
        links += near
        starts.append(len(links))
    return starts, links


def searched_order(
    neighbours: list[list[int]],
    moves: int = SEARCH_MOVES,
    seed: int = 0,
    order: list[int] | None = None,
) -> list[int]:
    """``order`` (default :func:`find_order`'s), then ``moves`` of the local search
    :func:`lazysearch.graphs._order.width_search` from it (``seed`` its draws)."""
    engine = _native.load("lazysearch.graphs._order")
    starts, links = rows_of(neighbours)
    first = find_order(neighbours) if order is None else order
    found: list[int] = engine.width_search(starts, links, first, moves, seed)[0]
    return found


def run(
    engine: Any,
    steps: list[list[int]],
    closed: bool,
    limit: int,
    on_step: Callable[[int, int], object] | None = None,
    directed: bool = False,
) -> tuple[Any, int, int]:
    """The engine's counter, its status and count, the counts in as many 64-bit words
    as they need (``directed``: steps planned with a directed graph's arcs)."""
    limbs = 1
    while True:
        counter = engine.OrderCounter(steps, closed, limbs, limit, directed)
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
    engine = _native.load("lazysearch.graphs._order")
    try:
        steps, _ = engine.plan(neighbours, order, closed)
    except ValueError:
        return None
    counter, status, _ = run(engine, steps, closed, bound)
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
    """A local search from ``order``: ``tries`` times, one vertex moved to another
    place in the order or two swapped (drawn from ``random.Random(seed)``), the change
    kept when the frontiers summed (:func:`frontiers_summed`) go down.  Each try runs
    the program once, stopped as soon as a step holds more frontiers than the best
    order's busiest step, so it is for graphs where a count takes well under a second.

    >>> nb = [[1, 3], [0, 2, 4], [1, 5], [0, 4], [1, 3, 5], [2, 4]]
    >>> start = find_order(nb)
    >>> better = improve_order(nb, start, tries=20)
    >>> frontiers_summed(nb, better) <= frontiers_summed(nb, start)
    True
    """
    rng = random.Random(seed)
    engine = _native.load("lazysearch.graphs._order")
    best = list(order)
    steps, _ = engine.plan(neighbours, best, closed)
    counter, status, _ = run(engine, steps, closed, 2**62)
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
        counter, status, _ = run(engine, steps, closed, max(peak, 1) * 2)
        if engine.STATUS[status] != "ok":
            continue
        summed = sum(counter.states)
        if summed < cost:
            best, cost, peak = trial, summed, max(counter.states, default=0)
    return best
