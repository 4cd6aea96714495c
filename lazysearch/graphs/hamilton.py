"""Hamiltonian cycles and paths of any graph, as lazy streams.

Every search is one for cycles through a fixed vertex, the *anchor*
(:mod:`lazysearch.graphs._walk`).  A cycle search anchors at a vertex of fewest
neighbours.  A path search adds one vertex, ``z``, joined to the vertices that may begin
or end the path, and lists the cycles through ``z``: leaving ``z`` out of such a cycle
leaves exactly one Hamiltonian path, and each path comes from one cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine import _native
from ..errors import LazysearchError
from ..search import Search, fingerprint
from ..stream import Solutions
from . import frontier
from .graph import Graph, GraphError
from .orders import OrderCount

if TYPE_CHECKING:
    from ..search import Engine

Rows = tuple[tuple[int, ...], tuple[int, ...]]


def _in_rows(n: int, offsets: Sequence[int], targets: Sequence[int]) -> Rows:
    """The in-neighbour rows of the out-neighbour rows ``offsets``/``targets``."""
    inside: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for t in range(offsets[u], offsets[u + 1]):
            inside[targets[t]].append(u)
    offs = [0]
    adj: list[int] = []
    for v in range(n):
        adj.extend(inside[v])
        offs.append(len(adj))
    return tuple(offs), tuple(adj)


class HamiltonProblem:
    """A cycle search as the engine sees it: the graph's rows (vertex numbers), directed
    or not, the anchor, how many of the anchor's first neighbours may come second, and
    the rank that breaks Warnsdorff's ties.  Plain data, so it pickles to workers.

    ``METHODS`` names the ways :meth:`count` counts besides ``"enumerate"`` (walking
    every cycle): ``"frontier"``, the frontier program over an order of the vertices
    (:mod:`.frontier`), and ``"auto"``, the program on a graph wide enough for it to
    win and the walk on others.  ``counting`` is the search's counting capability
    (``Solutions.count(method=...)``, :mod:`lazysearch.capabilities`).
    """

    __slots__ = ("_fingerprint", "anchor", "directed", "limit", "offsets", "targets", "tie")

    METHODS: ClassVar[dict[str, Callable[[HamiltonProblem], int]]] = {}
    counting: ClassVar[Any] = frontier

    def __init__(
        self,
        offsets: Sequence[int],
        targets: Sequence[int],
        directed: bool,
        anchor: int,
        limit: int,
        tie: Sequence[int],
    ) -> None:
        self.offsets = tuple(offsets)
        self.targets = tuple(targets)
        self.directed = directed
        self.anchor = anchor
        self.limit = limit
        self.tie = tuple(tie)
        self._fingerprint: str | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return self.offsets, self.targets, self.directed, self.anchor, self.limit, self.tie

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    @property
    def kind(self) -> str:
        return "graph-hamilton"

    def engine(self) -> Engine:
        module = _native.load("lazysearch.graphs._walk")
        n = len(self.offsets) - 1
        ioffs, iadj = (
            _in_rows(n, self.offsets, self.targets)
            if self.directed
            else (self.offsets, self.targets)
        )
        engine: Engine = module.CycleEngine(
            self.offsets,
            self.targets,
            ioffs,
            iadj,
            self.directed,
            self.anchor,
            self.limit,
            self.tie,
        )
        return engine

    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.__getstate__())
        return self._fingerprint

    def count(self, method: str = "enumerate") -> int:
        """The number of cycles, by ``method`` (a name in :attr:`METHODS`).

        Raises
        ------
        LazysearchError
            For a method not in :attr:`METHODS`.
        """
        if method == "enumerate":
            return Search(self).count()
        counter = self.METHODS.get(method)
        if counter is None:
            names = ", ".join(repr(m) for m in ("enumerate", *self.METHODS))
            raise LazysearchError(f"count() method must be one of {names}, got {method!r}")
        return counter(self)


HamiltonProblem.METHODS["frontier"] = lambda problem: frontier.count_problem(problem).count
# The frontier program where the graph is wide enough for it to win, else the walk (as
# ``Solutions.count()`` chooses: :func:`.frontier.wide`).
HamiltonProblem.METHODS["auto"] = lambda problem: (
    frontier.count_problem(problem).count if frontier.wide(problem) else Search(problem).count()
)


def _rows(arcs: list[list[int]]) -> tuple[list[int], list[int]]:
    offsets = [0]
    targets: list[int] = []
    for out in arcs:
        targets.extend(out)
        offsets.append(len(targets))
    return offsets, targets


def _impossible(arcs: list[list[int]], directed: bool) -> bool:
    """Whether a degree alone rules out every Hamiltonian cycle of ``arcs`` (a vertex
    with fewer than two neighbours; directed, one with no arc in or none out)."""
    if not directed:
        return len(arcs) < 3 or any(len(out) < 2 for out in arcs)
    entered = [False] * len(arcs)
    for out in arcs:
        for v in out:
            entered[v] = True
    return len(arcs) < 2 or not all(entered) or not all(arcs)


def _cycle_problem(
    arcs: list[list[int]], directed: bool, anchor: int, limit: int
) -> HamiltonProblem:
    if _impossible(arcs, directed):
        limit = 0
    offsets, targets = _rows(arcs)
    return HamiltonProblem(offsets, targets, directed, anchor, limit, range(len(arcs)))


def _arcs(g: Graph) -> list[list[int]]:
    return [g.neighbours(v) for v in range(g.n)]


def hamiltonian_cycles(G: object, *, directed: bool | None = None) -> Solutions[tuple[Any, ...]]:
    """Every Hamiltonian cycle of ``G`` as a lazy stream of tuples of its vertices.

    >>> from lazysearch import graphs
    >>> graphs.hamiltonian_cycles({1: [2, 4], 2: [3], 3: [4]}).take(5)
    [(1, 2, 3, 4)]

    A cycle visits every vertex once and comes back to its first; it is given once, as
    the tuple of its vertices from one fixed vertex (one of fewest neighbours, the first
    of them), without the return to it.  Undirected, a cycle and its reversal are the
    same cycle, given once; directed, a cycle follows the arcs.  A graph of fewer than
    three vertices has no undirected cycle (it would use an edge twice).

    Parameters
    ----------
    G:
        A networkx ``Graph``/``DiGraph`` (read by its ``nodes`` and ``adj``), a mapping
        vertex -> neighbours, or a list of ``(u, v)`` edges; see
        :meth:`lazysearch.graphs.Graph.read`.  Self-loops and repeated edges are ignored.
    directed:
        Whether a mapping's or edge list's pairs are arcs (default: undirected).

    Raises
    ------
    GraphError
        For a graph that cannot be read (:class:`UnhashableVertexError`,
        :class:`EmptyGraphError`, :class:`EdgeError`), at the call.
    """
    g = Graph.read(G, directed)
    problem = _cycles_problem(g)
    labels = g.labels

    def decode(cycle: tuple[int, ...]) -> tuple[Any, ...]:
        return tuple([labels[v] for v in cycle])

    return Solutions(Search(problem), decode)


def _cycles_problem(g: Graph) -> HamiltonProblem:
    arcs = _arcs(g)
    anchor = min(range(g.n), key=lambda v: len(arcs[v]))
    limit = len(arcs[anchor]) - (0 if g.directed else 1)
    return _cycle_problem(arcs, g.directed, anchor, limit)


def hamiltonian_paths(
    G: object,
    start: Hashable | None = None,
    end: Hashable | None = None,
    *,
    directed: bool | None = None,
) -> Solutions[tuple[Any, ...]]:
    """Every Hamiltonian path of ``G`` as a lazy stream of tuples of its vertices.

    >>> from lazysearch import graphs
    >>> graphs.hamiltonian_paths([("a", "b"), ("b", "c"), ("c", "a")]).take(5)
    [('a', 'b', 'c'), ('a', 'c', 'b'), ('b', 'a', 'c')]
    >>> graphs.hamiltonian_paths([("a", "b"), ("b", "c"), ("c", "a")], start="c").take(5)
    [('c', 'a', 'b'), ('c', 'b', 'a')]

    A path visits every vertex once.  With ``start`` (``end``) every path given begins
    (ends) there.  Undirected and with neither end fixed, a path and its reversal are
    the same path, given once (from its end that comes first in the graph's order of
    vertices); directed, a path follows the arcs.

    Parameters
    ----------
    G, directed:
        As for :func:`hamiltonian_cycles`.
    start, end:
        Vertices of ``G``, or None for any.

    Raises
    ------
    GraphError
        For a graph that cannot be read, at the call.
    UnknownVertexError
        For a ``start`` or ``end`` that is not a vertex of ``G``.
    GraphError
        For ``start == end`` in a graph of more than one vertex (a path's ends differ:
        for cycles through a vertex, see :func:`hamiltonian_cycles`).
    """
    g = Graph.read(G, directed)
    problem, backwards = _paths_problem(g, start, end)
    labels = g.labels

    def decode(cycle: tuple[int, ...]) -> tuple[Any, ...]:
        path = [labels[v] for v in cycle[1:]]
        if backwards:
            path.reverse()
        return tuple(path)

    return Solutions(Search(problem), decode)


def _paths_problem(
    g: Graph, start: Hashable | None, end: Hashable | None
) -> tuple[HamiltonProblem, bool]:
    """The cycle search of ``g``'s paths from ``start`` to ``end`` (see the module doc),
    and whether its paths are to be reversed."""
    n = g.n
    first = None if start is None else g.vertex(start, "start")
    last = None if end is None else g.vertex(end, "end")
    if first is not None and first == last and n > 1:
        raise GraphError(
            f"start and end are both {start!r}: a path's ends differ (the cycles through a "
            "vertex are hamiltonian_cycles())"
        )
    arcs = _arcs(g)
    z = n
    backwards = False
    if n == 1:
        # One vertex: the cycle z -> v -> z, whatever the graph's kind.
        arcs.append([0])
        arcs[0] = [z]
        problem = _cycle_problem(arcs, True, z, 1)
    elif g.directed:
        heads = list(range(n)) if first is None else [first]
        tails = list(range(n)) if last is None else [last]
        for v in tails:
            arcs[v].append(z)
        arcs.append(heads)
        problem = _cycle_problem(arcs, True, z, len(heads))
    else:
        if first is None and last is not None:
            first, last, backwards = last, None, True
        if first is None:
            ends = list(range(n))
            limit = n - 1
        elif last is None:
            ends = [first, *(v for v in range(n) if v != first)]
            limit = 1
        else:
            ends = [first, last]
            limit = 1
        for v in ends:
            arcs[v].append(z)
        arcs.append(ends)
        problem = _cycle_problem(arcs, False, z, limit)
    return problem, backwards


def frontier_count(
    G: object,
    *,
    paths: bool = False,
    start: Hashable | None = None,
    end: Hashable | None = None,
    directed: bool | None = None,
    order: Sequence[Hashable] | None = None,
    max_states: int | None = None,
) -> OrderCount:
    """Count the Hamiltonian cycles of ``G`` (or, with ``paths``, its Hamiltonian paths
    from ``start`` to ``end``) by the frontier program over an order of its vertices,
    and say how: the order, the widest frontier and the frontiers held after each step.

    >>> from lazysearch import graphs
    >>> found = graphs.frontier_count(graphs.grid(6, 6))
    >>> found.count, found.widest
    (1072, 7)
    >>> graphs.frontier_count(graphs.grid(3, 3), paths=True, start=(0, 0)).count
    8

    The count is what :func:`hamiltonian_cycles` (:func:`hamiltonian_paths`) would list:
    each cycle once, each path once (both ends free: either way round, once; of a
    directed graph, each directed cycle and path once).  The order
    is of ``G``'s vertices, in its labels (a vertex the count adds, joined to a fixed
    end, is left out; ``widest`` counts it).  ``order`` gives one instead of the
    searched one; ``max_states`` bounds the frontiers a step may hold (default: sized
    from the machine's memory).

    Raises
    ------
    GraphError
        For a graph that cannot be read, an unknown ``start`` or ``end``, or an
        ``order`` that is not one of ``G``'s vertices.
    TooWideError
        For a graph whose frontiers would not fit in ``max_states`` (refused at once
        when its widths make that certain enough, with the width and the size).
    """
    g = Graph.read(G, directed)
    if paths:
        problem, _ = _paths_problem(g, start, end)
    elif start is not None or end is not None:
        raise GraphError("frontier_count() takes start and end with paths=True")
    else:
        problem = _cycles_problem(g)
    numbers = None
    if order is not None:
        numbers = [g.vertex(v, "order's vertex") for v in order]
        if sorted(numbers) != list(range(g.n)):
            raise GraphError(f"order must list each of the {g.n} vertices of the graph once")
    found = frontier.count_problem(problem, order=numbers, max_states=max_states)
    found.order = [g.labels[v] for v in found.order if v < g.n]
    return found
