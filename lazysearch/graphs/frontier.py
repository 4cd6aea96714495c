"""Counting Hamiltonian cycles and paths by the frontier program over an order of the
vertices (:mod:`._order`), and the graphs' ``counting`` capability.

A search of :mod:`.hamilton` is one for cycles through its anchor.  The program counts
the undirected cycles of a graph (``closed``) or its undirected paths, each edge set
once, so a search is turned into one such count (:func:`terms`):

* a cycle search (every cycle once): the cycles of the graph; when the anchor is joined
  to every other vertex (a complete graph), the paths of the graph without it, which
  are the same in number and far narrower;
* the paths with both ends fixed: the cycles of the graph with the extra vertex, which
  has those two neighbours only;
* the paths from a fixed start: the paths of the graph with the extra vertex joined to
  the start alone (so every path ends there);
* the paths with no end fixed: the paths of the graph itself.

A directed graph is counted by the program's directed step (a fragment is joined from
its last vertex to another's first only): its cycles, or, for the cycles through an
anchor joined both ways to every other vertex or to one (a path search), the directed
paths of the graph without it, a fixed start's arcs in and a fixed end's arcs out taken
away.  The order comes from :mod:`.orders`: the greedy order from a few first vertices
(every one, in a graph of up to :data:`EVERY_FIRST` vertices), searched on when its
frontiers are wide; a directed graph's, of its arcs taken as edges.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine import _native
from ..errors import LazysearchError
from ..search import Search
from .graph import GraphError
from .orders import (
    CLOSED_FACTOR,
    SEARCH_FROM,
    OrderCount,
    find_order,
    greedy_order,
    order_cost,
    run,
    searched_order,
)

if TYPE_CHECKING:
    from ..search import Partial


class TooWideError(GraphError):
    """A count by the frontier program that would need more memory than it may take:
    the message names the frontier's width and the estimated size."""


#: The counting methods of a graph's stream: ``count(method=...)``.
METHODS = ("auto", "enumerate", "frontier")

#: ``auto`` walks a graph of at most this many vertices: below 10 vertices the walk takes
#: under a millisecond, whatever the density; from 10 on, the program is the quicker on
#: all but the sparsest (random graphs, each pair an edge with probability 1/2: 4 ms by
#: walking, 0.9 ms by the program at 10 vertices; 0.37 s and 0.025 s at 12).
WALK_UP_TO = 9

#: ... and a directed graph of at most this many: a directed frontier holds more states
#: (which end of its fragment a vertex is), so the walk stays the quicker further on.
#: Random digraphs, each arc with probability 1/2, medians of 3 (CPU, compiled, a busy
#: 2-core machine): at 14 vertices 142 ms by walking and 152 ms by the program for the
#: cycles (3.3 s and 2.8 s for the paths, neither end fixed), at 15 0.58 s and 0.31 s
#: (19.5 s and 4.1 s); at 12, 2.6 ms and 10 ms; sparser ones (1/3) walk in a
#: millisecond or less up to 15.  Wide structured digraphs gain most: the 8x8 grid's
#: 9,277,152 directed cycles take 0.08 s by the program.
WALK_UP_TO_DIRECTED = 14

#: :func:`choose_order` tries every first vertex up to this many vertices, else a few.
EVERY_FIRST = 64

#: What :func:`lazysearch.graphs._order.plan` is asked to pack: any width it can (keys
#: of as many words as the frontier needs).
ANY_WIDTH = 1 << 30

#: Bytes a frontier costs in the compiled tables, a word of key and of count each: two
#: tables (the step's and the next), each at most half full, doubling.
BYTES_PER_WORD = 8 * 2 * 2 * 2


def default_max_states() -> int:
    """How many frontiers a count may hold at one step: half the machine's memory at
    :data:`BYTES_PER_WORD` times three words a frontier."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        memory = 8 << 30
    return max(1 << 20, memory // 2 // (3 * BYTES_PER_WORD))


def terms(problem: Any) -> tuple[list[list[int]], bool, list[int]] | None:
    """What the program counts for ``problem`` (a :class:`.HamiltonProblem`): the
    neighbour lists of the graph it runs on (of a directed graph, its out-neighbour
    lists), whether it counts cycles (else paths), and which vertex of the problem each
    of that graph's vertices is; None when it cannot (an anchor's limit no public call
    makes)."""
    if problem.directed:
        return directed_terms(problem)
    offsets, targets = problem.offsets, problem.targets
    n = len(offsets) - 1
    arcs = [list(targets[offsets[v] : offsets[v + 1]]) for v in range(n)]
    a = problem.anchor
    near = arcs[a]
    if problem.limit >= len(near) - 1:
        if len(near) == n - 1 and n > 3:
            # Every cycle through a vertex joined to all the others: a path of the rest.
            rest = [[u - (u > a) for u in arcs[v] if u != a] for v in range(n) if v != a]
            return rest, False, [v for v in range(n) if v != a]
        return arcs, True, list(range(n))
    if problem.limit == 1 and len(near) == n - 1:
        # The cycles through the anchor and its first neighbour, closed by any other:
        # the paths with the anchor an end joined to that neighbour alone.
        first = near[0]
        pendant = [[u for u in arcs[v] if u != a or v == first] for v in range(n)]
        pendant[a] = [first]
        return pendant, False, list(range(n))
    return None


def directed_terms(problem: Any) -> tuple[list[list[int]], bool, list[int]] | None:
    """:func:`terms` for a directed ``problem``: every cycle through the anchor (all
    its arcs out may come second) is a cycle of the graph; when the anchor's arcs out
    and in each go to every other vertex or to one, the cycles through it are the
    paths of the graph without it (from that one, when one, to that one, when one),
    which are narrower."""
    offsets, targets = problem.offsets, problem.targets
    n = len(offsets) - 1
    arcs = [list(targets[offsets[v] : offsets[v + 1]]) for v in range(n)]
    a = problem.anchor
    if problem.limit < len(arcs[a]):
        return None
    heads = arcs[a]
    tails = [v for v in range(n) if a in arcs[v]]
    if n <= 3 or len(heads) not in (1, n - 1) or len(tails) not in (1, n - 1):
        return arcs, True, list(range(n))
    first = heads[0] if len(heads) == 1 else -1
    last = tails[0] if len(tails) == 1 else -1
    rest = [
        [w - (w > a) for w in arcs[v] if w != a and w != first and v != last]
        for v in range(n)
        if v != a
    ]
    return rest, False, [v for v in range(n) if v != a]


def undirected(arcs: list[list[int]]) -> list[list[int]]:
    """The neighbour lists of the arcs ``arcs`` taken as edges, each neighbour once."""
    both = [dict.fromkeys(out) for out in arcs]
    for v, out in enumerate(arcs):
        for w in out:
            both[w][v] = None
    return [list(near) for near in both]


def choose_order(neighbours: list[list[int]], closed: bool) -> list[int]:
    """An order of narrow frontiers for ``neighbours``: the better (narrowest, then
    :func:`states_cost`) of :func:`.orders.find_order`'s from every first vertex (or,
    past :data:`EVERY_FIRST` vertices, from :func:`_far_vertices`), searched on by
    :func:`.orders.searched_order` when its frontiers are wide enough for that to pay,
    and the weighted greedy order (:func:`.orders.greedy_order`) from the far
    vertices, which sweeps grids row by row: the 12x12 grid's cycles hold 0.9 million
    frontiers summed over the steps by it, 1.8 million by the other."""
    n = len(neighbours)
    far = _far_vertices(neighbours)
    order = find_order(neighbours, None if n <= EVERY_FIRST else far)
    best = (*states_cost(neighbours, order), order)
    weighted = min(
        (*states_cost(neighbours, w), w)
        for w in (greedy_order(neighbours, first, weighted=True)[0] for first in far)
    )
    if weighted < best:
        return weighted[2]  # (no search: it starts from the plain order)
    _, sizes = greedy_order(neighbours, order[0])
    if order_cost(sizes) >= SEARCH_FROM * (CLOSED_FACTOR if closed else 1):
        searched = searched_order(neighbours, order=order)
        best = min(best, (*states_cost(neighbours, searched), searched))
    return best[2]


def states_cost(neighbours: list[list[int]], order: list[int]) -> tuple[int, int]:
    """The widest frontier of ``order`` and, roughly, the frontiers the program holds
    over it: after each step, ``2`` for each frontier vertex with one neighbour to come
    (it is covered or a path's end) times ``3`` for each with more (or free), summed."""
    n = len(neighbours)
    where = [0] * n
    for i, v in enumerate(order):
        where[v] = i
    # Each vertex is in the frontier from its place up to its last neighbour's, with
    # one neighbour to come from its last but one neighbour's place on.
    ones = [0] * (n + 1)
    more = [0] * (n + 1)
    for v in range(n):
        after = sorted(where[u] for u in neighbours[v] if where[u] > where[v])
        if not after:
            continue
        split = after[-2] if len(after) > 1 else where[v]
        more[where[v]] += 1
        more[split] -= 1
        ones[split] += 1
        ones[after[-1]] -= 1
    cost = 0
    widest = 0
    a = b = 0
    for i in range(n):
        a += ones[i]
        b += more[i]
        cost += 2**a * 3**b
        widest = max(widest, a + b)
    return widest, cost


def _far_vertices(neighbours: list[list[int]]) -> list[int]:
    """A few first vertices worth trying: the last vertex reached by a breadth-first
    search from vertex 0, the last from there, and the first four of fewest neighbours."""
    n = len(neighbours)
    found: list[int] = []
    v = 0
    for _ in range(2):
        seen = [False] * n
        seen[v] = True
        queue = [v]
        for u in queue:
            for w in neighbours[u]:
                if not seen[w]:
                    seen[w] = True
                    queue.append(w)
        v = queue[-1]
        found.append(v)
    found += sorted(range(n), key=lambda u: (len(neighbours[u]), u))[:4]
    return sorted(set(found))


def estimate(widths: list[int], ends: list[int] | None = None) -> int:
    """The frontiers the busiest step may hold, estimated from the frontier's widths:
    ``3 ** w / w`` for a frontier of ``w`` vertices (a frontier vertex is free, covered
    or a path's end, with the ends paired).  Directed, a frontier vertex that may end a
    fragment (one with an edge to a vertex placed before it: ``ends``, a step) does so
    as its first or its last vertex, four ways: ``3 ** (w - e) * 4 ** e / w``.

    Measured against the frontiers the busiest step holds: undirected grids hold a
    tenth of the estimate at every width, king and knight graphs a third to four
    fifths, the 5-cube four times it, random graphs (each edge there with probability
    1/2) four to fifteen times it; directed, grids with both arcs of each edge a quarter
    to a third for their cycles and up to eight times it for their paths (the 10x10's,
    width 11: 2,265,418 frontiers, 285,975 estimated), random digraphs a tenth to twice
    it.  A ring (two neighbours a vertex) holds a handful at any width: the estimate
    only refuses what is far past the limit (:func:`_count_terms`: sixteen times)."""
    if ends is None:
        return max((3**w // max(w, 1) for w in widths), default=1)
    return max(
        (
            3 ** (w - min(e, w)) * 4 ** min(e, w) // max(w, 1)
            for w, e in zip(widths, ends, strict=True)
        ),
        default=1,
    )


def _endable(neighbours: list[list[int]], order: list[int]) -> list[int]:
    """For each step of ``order``, how many frontier vertices (placed, with a neighbour
    still to come) have a neighbour placed: the vertices that may end a fragment."""
    placed = [False] * len(neighbours)
    late = [len(near) for near in neighbours]  # neighbours still to come
    early = [0] * len(neighbours)  # neighbours placed
    frontier: set[int] = set()
    out = []
    for v in order:
        placed[v] = True
        frontier.add(v)
        for w in neighbours[v]:
            late[w] -= 1
            early[w] += 1
            if placed[w] and late[w] == 0:
                frontier.discard(w)
        if late[v] == 0:
            frontier.discard(v)
        out.append(sum(1 for u in frontier if early[u]))
    return out


def count_problem(
    problem: Any,
    *,
    order: list[int] | None = None,
    max_states: int | None = None,
    on_step: Callable[[int, int], object] | None = None,
) -> OrderCount:
    """Count the cycles of ``problem`` (a :class:`.HamiltonProblem`) by the program
    over ``order`` (of the problem's vertices; a vertex the count adds goes before its
    first neighbour) or, when None, :func:`choose_order`'s.

    Raises
    ------
    GraphError
        For a search no public call makes (an anchor's limit of its own).
    TooWideError
        When a step would hold more than ``max_states`` frontiers (default: sized from
        the machine's memory), found before the count from the order's widths when
        the estimate is far past it, or during the count.
    """
    n = len(problem.offsets) - 1
    if n <= 2:
        # One or two vertices (a path of one vertex is a cycle of the directed graph
        # with the extra vertex): nothing to fill tables for.
        return OrderCount(Search(problem).count(), list(order or range(n)), 0, [])
    if problem.limit == 0:
        return OrderCount(0, list(order or range(n)), 0, [])
    found = terms(problem)
    if found is None:
        raise GraphError(
            "count(method='frontier') counts the searches hamiltonian_cycles() and "
            "hamiltonian_paths() make; count this one with method='enumerate'"
        )
    neighbours, closed, own = found
    arcs = None
    if problem.directed:
        arcs, neighbours = neighbours, undirected(neighbours)
    return _count_terms(problem, neighbours, closed, own, order, max_states, on_step, arcs)


def count_graph(
    neighbours: list[list[int]],
    closed: bool,
    max_states: int | None = None,
    order: list[int] | None = None,
) -> int:
    """The undirected cycles (``closed``) or paths of the graph ``neighbours``, by the
    program over ``order`` (a vertex it leaves out goes just before its first
    neighbour) or, when None, :func:`choose_order`'s."""
    n = len(neighbours)
    return _count_terms(None, neighbours, closed, list(range(n)), order, max_states, None).count


def count_digraph(
    arcs: list[list[int]], max_states: int | None = None, order: list[int] | None = None
) -> int:
    """The directed cycles of the digraph ``arcs`` (out-neighbour lists), by the
    program's directed step over ``order`` (as for :func:`count_graph`) or the order
    :func:`choose_order` gives its arcs taken as edges."""
    n = len(arcs)
    both = undirected(arcs)
    return _count_terms(None, both, True, list(range(n)), order, max_states, None, arcs).count


def _count_terms(
    problem: Any,
    neighbours: list[list[int]],
    closed: bool,
    own: list[int],
    order: list[int] | None,
    max_states: int | None,
    on_step: Callable[[int, int], object] | None,
    arcs: list[list[int]] | None = None,
) -> OrderCount:
    n = len(neighbours) if problem is None else len(problem.offsets) - 1
    engine = _native.load("lazysearch.graphs._order")
    given = order
    if order is None:
        order = choose_order(neighbours, closed)
    else:
        order = _completed(neighbours, own, order)
    limit = default_max_states() if max_states is None else max_states
    try:
        steps, widest = engine.plan(neighbours, order, closed, ANY_WIDTH, arcs)
    except ValueError as error:
        if "packs" not in str(error):
            raise
        raise TooWideError(f"the frontier program's {error}") from None
    widths = [step[0] + 1 for step in steps]
    guess = estimate(widths, None if arcs is None else _endable(neighbours, order))
    if guess > 16 * limit:
        raise TooWideError(
            f"the frontier program's frontier reaches {widest} vertices: an estimated "
            f"{guess:,} frontiers at its busiest step, about {_size(guess)}, past the "
            f"{limit:,} it may hold (max_states)"
        )
    counter, status, total = run(engine, steps, closed, limit, on_step, arcs is not None)
    if engine.STATUS[status] == "full":
        raise TooWideError(
            f"the frontier program's frontier reaches {widest} vertices: more than "
            f"max_states={limit:,} frontiers at step {len(counter.states) + 1} of "
            f"{len(order)}"
        )
    if given is not None:
        told = list(given)
    else:
        told = [own[v] for v in order]
        told = [v for v in range(n) if v not in set(told)] + told  # (a vertex left out)
    return OrderCount(total, told, widest, list(counter.states))


def _completed(neighbours: list[list[int]], own: list[int], given: list[int]) -> list[int]:
    """The order ``given`` (of the problem's vertices) as an order of the vertices of
    the graph counted: a vertex it leaves out (one added) goes just before its first
    neighbour in it, a vertex the graph counted leaves out is dropped."""
    where = {v: i for i, v in enumerate(own)}
    order = [where[v] for v in given if v in where]
    placed = set(order)
    out: list[int] = []
    extra = [v for v in range(len(own)) if v not in placed]
    for v in order:
        for x in extra:
            if x not in placed and v in neighbours[x]:
                out.append(x)
                placed.add(x)
        out.append(v)
    return out + [x for x in extra if x not in placed]


def _size(states: int) -> str:
    """About what ``states`` frontiers take in memory, in words for users."""
    size = states * 3 * BYTES_PER_WORD
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:,.0f} {unit}"
        size //= 1024
    return ""  # pragma: no cover


# The ``counting`` capability of a graph's search (lazysearch.capabilities.Counting).


def check_method(method: object, max_nodes: object) -> None:
    """Raise unless ``method`` and ``max_nodes`` (the most frontiers a step may hold)
    are values ``count`` takes."""
    if method not in METHODS:
        raise LazysearchError(
            f"count() method must be one of {', '.join(map(repr, METHODS))}, got {method!r}"
        )
    if max_nodes is not None:
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise LazysearchError(f"count() max_nodes must be an int >= 1, got {max_nodes!r}")
        if method == "enumerate":
            raise LazysearchError(
                "count() max_nodes bounds the frontier program's tables, and "
                "method='enumerate' keeps none"
            )


def wide(problem: Any) -> bool:
    """Whether ``auto`` counts ``problem`` by the program: an undirected graph of more
    than :data:`WALK_UP_TO` vertices, a directed one of more than
    :data:`WALK_UP_TO_DIRECTED`."""
    return len(problem.offsets) - 1 > (WALK_UP_TO_DIRECTED if problem.directed else WALK_UP_TO)


def count(search: Search, method: str, max_nodes: int | None) -> int | None:
    """The count of ``search`` by the program, or None when ``method`` is
    ``"enumerate"`` or ``"auto"`` decides to walk (a small graph, or a search already
    read from).

    Raises
    ------
    LazysearchError
        With ``method='frontier'``, for a search already read from.
    TooWideError
        When the tables would hold more than ``max_nodes`` frontiers a step.
    """
    problem = search.problem
    fresh = search.prefix == () and search.stats.nodes == 0 and not search.done
    if method == "enumerate" or (method == "auto" and not (fresh and wide(problem))):
        return None
    if not fresh:
        raise LazysearchError(
            "count(method='frontier') counts a whole search from its start, and this one "
            f"was already read ({search.stats.nodes:,} nodes in, or a subtree)"
        )
    if method == "auto" and terms(problem) is None:
        return None
    try:
        total = count_problem(problem, max_states=max_nodes).count
    except TooWideError as error:
        if method != "auto":
            raise
        raise TooWideError(
            f"{error}; count(method='enumerate') walks them instead, however long that takes"
        ) from None
    search.finish(min(total, (1 << 63) - 1), 0)
    return total


def count_within(
    search: Search,
    seconds: float | None = None,
    nodes: int | None = None,
    samples: int = 1000,
    *,
    max_nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
) -> Partial:
    """Refused: the program counts in one go (a count by walking stops and goes on)."""
    raise LazysearchError(
        "the frontier program counts in one go, with no checkpoint: count(method="
        "'frontier'), or count_within() by walking"
    )


def diagram(
    search: Search, decode: Callable[[tuple[int, ...]], Any] | None, max_nodes: int | None
) -> Sampler:
    """What ``Solutions.sample`` draws from: a :class:`Sampler` of the search's cycles
    (a graph's cycles have no decision diagram; ``diagram()`` gives the sampler)."""
    problem: Any = search.problem
    if problem.directed and len(problem.offsets) > 3:
        return DirectedSampler(problem, decode, max_nodes)
    return Sampler(problem, decode, max_nodes)


def check_sample(k: object, seed: object) -> None:
    """Raise unless ``k`` (an int >= 0) and ``seed`` (None or an int) are values
    ``sample`` takes."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise LazysearchError(f"sample() needs k an int >= 0, got {k!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise LazysearchError(f"sample() needs seed None or an int, got {seed!r}")


def paths_between(
    neighbours: list[list[int]],
    alive: frozenset[int],
    u: int,
    y: int,
    max_states: int | None,
    order: list[int] | None = None,
) -> int:
    """The Hamiltonian paths from ``u`` to ``y`` of the graph ``neighbours`` keeps on
    the vertices ``alive``: the cycles of that graph with one more vertex joined to
    ``u`` and ``y``, by the program (or at once, for two vertices or fewer), over
    ``order`` (of the graph's vertices; the alive ones are taken in it) when given."""
    if len(alive) <= 2:
        return 1 if (u == y and len(alive) == 1) or (u != y and y in neighbours[u]) else 0
    if u == y:
        return 0
    number = {v: i for i, v in enumerate(sorted(alive))}
    rows = [[number[w] for w in neighbours[v] if w in number] for v in sorted(alive)]
    z = len(rows)
    rows[number[u]].append(z)
    rows[number[y]].append(z)
    rows.append([number[u], number[y]])
    if any(len(row) < 2 for row in rows):
        return 0
    return count_graph(rows, True, max_states, _sub_order(rows, z, order, number))


def _sub_order(
    neighbours: list[list[int]], z: int, order: list[int] | None, number: dict[int, int]
) -> list[int]:
    """An order for a count on ``neighbours`` (a graph's vertices ``number`` keeps, and
    ``z`` joined to some of them): the cheaper by :func:`states_cost` of the plain
    greedy order from ``z`` and the graph's own ``order`` on the vertices kept (``z``
    just before its first neighbour).  Both cost a pass, where :func:`choose_order`
    costs dozens: on the 12x12 grid's subgraphs left by a path from a corner, the
    greedy order from ``z`` is as narrow as the order :func:`choose_order` finds, and
    the graph's own is the narrower while little of the graph is drawn."""
    n = len(neighbours)
    candidates = [greedy_order(neighbours, z)[0]]
    if order is not None:
        candidates.append(
            _completed(neighbours, list(range(n)), [number[v] for v in order if v in number])
        )
    return min(candidates, key=lambda o: states_cost(neighbours, o))


def directed_paths(
    arcs: list[list[int]],
    alive: frozenset[int],
    u: int,
    ends: frozenset[int],
    max_states: int | None,
    order: list[int] | None = None,
) -> int:
    """The directed Hamiltonian paths of the digraph ``arcs`` keeps on the vertices
    ``alive`` that start at ``u`` and stop at a vertex of ``ends``: the directed cycles
    of that digraph with one more vertex, ``z``, an arc from ``z`` to ``u`` and one to
    ``z`` from each end (by the program, or at once for two vertices or fewer), over
    ``order`` as for :func:`paths_between`."""
    if len(alive) <= 2:
        (w,) = alive - {u} or {u}
        return int(w in ends and (w == u or w in arcs[u]))
    number = {v: i for i, v in enumerate(sorted(alive))}
    # (An arc into u can never be taken: u comes first.)
    rows = [[number[w] for w in arcs[v] if w in number and w != u] for v in sorted(alive)]
    z = len(rows)
    for t in ends & alive:
        if t != u:
            rows[number[t]].append(z)
    rows.append([number[u]])
    return count_digraph(rows, max_states, _sub_order(undirected(rows), z, order, number))


class Sampler:
    """Exactly uniform random cycles of a search of :mod:`.hamilton`, from counts of
    the frontier program.

    A cycle through the anchor ``a`` is drawn a vertex at a time: first the anchor's
    two neighbours on it, ``x`` then ``y`` (``x`` among the anchor's first ``limit``
    neighbours, ``y`` after it), with weight the Hamiltonian paths from ``x`` to ``y``
    of the graph without ``a``; then, from ``c = x``, each next vertex ``u`` with
    weight the Hamiltonian paths from ``u`` to ``y`` of the vertices not yet drawn.
    The weights of a step's choices add up to the weight of the choice before it, so
    each cycle comes with probability exactly ``1 / count`` (integers only,
    ``random.Random.randrange`` on the counts).  A draw costs a count a vertex, on
    graphs that shrink as it goes; counts already made are kept.

    Undirected graphs (and a directed search of two vertices or fewer, whose cycles
    are those of the graph taken undirected); :class:`DirectedSampler` draws from the
    others.
    """

    def __init__(
        self,
        problem: Any,
        decode: Callable[[tuple[int, ...]], Any] | None = None,
        max_states: int | None = None,
    ) -> None:
        self.problem = problem
        self.decode = decode
        self.max_states = max_states
        n = len(problem.offsets) - 1
        self.neighbours = [
            list(problem.targets[problem.offsets[v] : problem.offsets[v + 1]]) for v in range(n)
        ]
        self._known: dict[tuple[Any, ...], int] = {}  # counts made, by their terms

    def _paths(self, alive: frozenset[int], u: int, y: int) -> int:
        key = (alive, u, y)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = paths_between(
                self.neighbours, alive, u, y, self.max_states, self._order
            )
        return found

    @functools.cached_property
    def _order(self) -> list[int]:
        """The whole graph's order, chosen once: each count of a draw takes it on the
        vertices it keeps, or the greedy order from the vertex it adds, the cheaper
        (:func:`_sub_order`).  Choosing an order for each count took nine tenths of a
        draw (the 10x10 grid: 3.6 s of 4.0 s)."""
        directed = self.problem.directed and len(self.neighbours) > 2
        return choose_order(undirected(self.neighbours) if directed else self.neighbours, True)

    def choices(self, drawn: tuple[int, ...]) -> list[tuple[int, int]]:
        """The vertices that may come after ``drawn`` (the anchor, ``x``, ``y``, then
        the path from ``x``'s next vertex up to ``y``), each with its weight: the cycles
        it leads to."""
        problem = self.problem
        n = len(self.neighbours)
        a = problem.anchor
        near = self.neighbours[a]
        if problem.limit == 0:
            return []
        rest = frozenset(range(n)) - {a}
        if len(drawn) == 1:
            return [
                (x, sum(self._paths(rest, x, y) for y in near[rank + 1 :]))
                for rank, x in enumerate(near[: problem.limit])
            ]
        x = drawn[1]
        if len(drawn) == 2:
            return [(y, self._paths(rest, x, y)) for y in near[near.index(x) + 1 :]]
        if len(drawn) > 3 and drawn[-1] == drawn[2]:
            return []  # the path has reached y: the cycle is whole
        left = rest - {x, *drawn[3:]}
        c = drawn[-1] if len(drawn) > 3 else x
        return [(u, self._paths(left, u, drawn[2])) for u in self.neighbours[c] if u in left]

    def cycle(self, drawn: tuple[int, ...]) -> tuple[int, ...]:
        """The cycle a whole draw ``drawn`` (the anchor, ``x``, ``y``, then the path
        from ``x``'s next vertex up to ``y``) stands for: the anchor, ``x``, ..., ``y``."""
        return (drawn[0], drawn[1], *drawn[3:])

    def count(self) -> int:
        """The number of cycles."""
        if len(self.neighbours) <= 2:
            return 0 if self.problem.limit == 0 else 1
        return sum(weight for _, weight in self.choices((self.problem.anchor,)))

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        """One cycle drawn uniformly with ``rng``, as the search gives it (the anchor,
        then the vertices in order)."""
        if len(self.neighbours) <= 2:
            # One vertex's path: the one cycle (z, v) of its directed search.
            if self.problem.limit == 0:
                raise LookupError("the graph has no such cycle or path to draw")
            return (self.problem.anchor, self.neighbours[self.problem.anchor][0])
        drawn: tuple[int, ...] = (self.problem.anchor,)
        while True:
            ways = self.choices(drawn)
            total = sum(weight for _, weight in ways)
            if total == 0:
                break
            pick = rng.randrange(total)
            for vertex, weight in ways:
                if pick < weight:
                    drawn = (*drawn, vertex)
                    break
                pick -= weight
        if len(drawn) == 1:
            raise LookupError("the graph has no such cycle or path to draw")
        return self.cycle(drawn)

    def sample(self, k: int = 1, seed: int | None = None, *, replace: bool = True) -> list[Any]:
        """``k`` cycles drawn uniformly (``replace=False``: ``k`` different ones), decoded
        as the stream gives them; the same seed gives the same ones.  A graph without
        such a cycle gives none, as every stream's ``sample`` does."""
        rng = random.Random(seed)
        decode = self.decode or (lambda cycle: cycle)
        total = self.count() if k else 0  # (its counts are the first draw's)
        if replace:
            return [decode(self.draw(rng)) for _ in range(k)] if total else []
        if k > total:
            raise LazysearchError(f"sample(k={k}, replace=False): only {total} to draw from")
        seen: dict[tuple[int, ...], None] = {}
        while len(seen) < k:
            seen.setdefault(self.draw(rng))
        return [decode(cycle) for cycle in seen]


class DirectedSampler(Sampler):
    """Exactly uniform random cycles of a directed search of :mod:`.hamilton` (of more
    than two vertices), from counts of the program's directed step.

    A cycle through the anchor ``a`` is drawn in its own direction, a vertex at a time:
    after ``c`` (first the anchor, whose first ``limit`` arcs out may be taken), each
    next vertex ``u`` with weight the directed Hamiltonian paths from ``u`` through the
    vertices not yet drawn to a vertex with an arc back to ``a``.  Those weights add up
    to the weight of ``c``, so each cycle comes with probability exactly ``1 / count``,
    at a count a vertex as for :class:`Sampler`.
    """

    @functools.cached_property
    def _back(self) -> frozenset[int]:
        """The vertices with an arc to the anchor."""
        a = self.problem.anchor
        return frozenset(v for v, out in enumerate(self.neighbours) if a in out)

    def _onward(self, alive: frozenset[int], u: int) -> int:
        key = (alive, u)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = directed_paths(
                self.neighbours, alive, u, self._back, self.max_states, self._order
            )
        return found

    def choices(self, drawn: tuple[int, ...]) -> list[tuple[int, int]]:
        """The vertices that may come after ``drawn`` (the anchor, then the cycle so
        far in its direction), each with its weight: the cycles it leads to."""
        problem = self.problem
        left = frozenset(range(len(self.neighbours))) - set(drawn)
        if problem.limit == 0 or not left:
            return []
        if len(drawn) == 1:
            near = self.neighbours[problem.anchor][: problem.limit]
        else:
            near = [u for u in self.neighbours[drawn[-1]] if u in left]
        return [(u, self._onward(left, u)) for u in near]

    def cycle(self, drawn: tuple[int, ...]) -> tuple[int, ...]:
        """The cycle a whole draw stands for: the draw itself."""
        return drawn
