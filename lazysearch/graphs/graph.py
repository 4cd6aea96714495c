"""Reading a graph as the user gave it: a networkx graph, a mapping or an edge list.

Vertices keep the user's own labels; inside, they are numbered ``0..n-1`` in the order
first met, and each vertex's out-neighbours are one slice of a single array (compressed
sparse rows: ``targets[offsets[v]:offsets[v + 1]]``, in increasing order).

A Hamiltonian cycle or path is a sequence of vertices, so self-loops (which no such
sequence uses) and repeated edges (which give no new sequence) are *ignored*, not
refused; :attr:`Graph.loops` and :attr:`Graph.repeats` say how many were dropped (a
repeat is a pair ``(u, v)`` given again as it was; an undirected edge given from both
ends, as a mapping of neighbours lists it, is no repeat).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from ..errors import LazysearchError, brief


class GraphError(LazysearchError):
    """A graph, or a vertex named with it, that cannot be used as given."""


class UnhashableVertexError(GraphError):
    """A vertex label that cannot be hashed (a list, a dict, a set)."""


class EmptyGraphError(GraphError):
    """A graph with no vertex."""


class UnknownVertexError(GraphError):
    """A start or end vertex that is not a vertex of the graph."""


class EdgeError(GraphError):
    """An item of an edge list that is not a pair of vertices."""


class Graph:
    """A graph read once: labels, numbering and compressed adjacency.

    >>> g = Graph.read({"a": ["b", "c"], "b": ["c"]})
    >>> g.labels, g.directed, g.neighbours(0)
    (('a', 'b', 'c'), False, [1, 2])

    Parameters
    ----------
    labels:
        The vertices, in the order of their numbers.
    given:
        For each vertex number ``u``, the numbers ``v`` it is joined to, as given; for
        an undirected graph each ``(u, v)`` is an edge (either way round).
    directed:
        Whether ``(u, v)`` is an arc from ``u`` to ``v`` only.
    """

    __slots__ = ("directed", "index", "labels", "loops", "offsets", "repeats", "targets")

    def __init__(
        self, labels: tuple[Hashable, ...], given: Sequence[Sequence[int]], directed: bool
    ) -> None:
        n = len(labels)
        self.labels = labels
        self.index: dict[Hashable, int] = {label: i for i, label in enumerate(labels)}
        self.directed = directed
        self.loops = 0
        self.repeats = 0
        rows: list[set[int]] = []
        for u in range(n):
            out = given[u] if u < len(given) else ()
            row = set(out)
            loops = 0
            if u in row:
                loops = out.count(u)
                row.discard(u)
            self.loops += loops
            self.repeats += len(out) - loops - len(row)
            rows.append(row)
        if not directed:
            for u in range(n):
                for v in list(rows[u]):
                    rows[v].add(u)
        offsets = [0]
        targets: list[int] = []
        for u in range(n):
            targets.extend(sorted(rows[u]))
            offsets.append(len(targets))
        self.offsets = tuple(offsets)
        self.targets = tuple(targets)

    @property
    def n(self) -> int:
        """The number of vertices."""
        return len(self.labels)

    def neighbours(self, v: int) -> list[int]:
        """The out-neighbours of vertex number ``v`` (its neighbours, undirected)."""
        return list(self.targets[self.offsets[v] : self.offsets[v + 1]])

    def vertex(self, label: object, what: str = "vertex") -> int:
        """The number of the vertex labelled ``label``.

        Raises
        ------
        UnknownVertexError
            If ``label`` is not a vertex of this graph.
        """
        try:
            return self.index[label]
        except (KeyError, TypeError):
            raise UnknownVertexError(
                f"{what} {brief(label)} is not a vertex of the graph ({self.n} vertices, "
                f"e.g. {brief(self.labels[0])})"
            ) from None

    @classmethod
    def read(cls, G: object, directed: bool | None = None) -> Graph:
        """Read ``G``: a :class:`Graph`, a networkx ``Graph``/``DiGraph`` (or anything
        with ``is_directed()``, ``nodes`` and ``adj``), a mapping vertex -> neighbours, or
        an iterable of ``(u, v)`` edges.

        >>> Graph.read([(1, 2), (2, 3)]).labels
        (1, 2, 3)

        ``directed`` says whether a mapping's neighbours and an edge list's pairs are
        arcs (default: undirected); a networkx graph says so itself.

        Raises
        ------
        UnhashableVertexError
            For a vertex label that cannot be hashed.
        EdgeError
            For an edge-list item that is not a pair.
        EmptyGraphError
            For a graph with no vertex.
        GraphError
            For ``directed`` given for a networkx graph that says otherwise.
        """
        if isinstance(G, Graph):
            if directed is not None and directed != G.directed:
                raise GraphError(f"the graph is {_kind(G.directed)}, but directed={directed!r}")
            return G
        if hasattr(G, "is_directed") and hasattr(G, "adj") and hasattr(G, "nodes"):
            own = bool(G.is_directed())
            if directed is not None and bool(directed) != own:
                raise GraphError(f"the networkx graph is {_kind(own)}, but directed={directed!r}")
            return cls._from_mapping(G.nodes, G.adj, own)
        if isinstance(directed, bool) or directed is None:
            pass
        else:
            raise GraphError(f"directed is True, False or None, got {brief(directed)}")
        if isinstance(G, Mapping):
            return cls._from_mapping(G, G, bool(directed))
        if isinstance(G, (str, bytes)) or not isinstance(G, Iterable):
            raise GraphError(
                "a graph is a networkx graph, a mapping vertex -> neighbours or a list of "
                f"(u, v) edges, got {brief(G)}"
            )
        return cls._from_edges(G, bool(directed))

    @classmethod
    def _from_mapping(cls, nodes: Iterable[Any], adj: Any, directed: bool) -> Graph:
        numbers: dict[Hashable, int] = {}
        try:
            numbers = {u: i for i, u in enumerate(dict.fromkeys(nodes))}
        except TypeError:
            for u in nodes:
                _number(numbers, u)  # names the label that cannot be hashed
            raise
        get = numbers.get
        given: list[list[int]] = []
        for u in list(numbers):
            neighbours = adj[u]
            if type(neighbours) not in _COLLECTIONS and (
                isinstance(neighbours, (str, bytes)) or not isinstance(neighbours, Iterable)
            ):
                raise GraphError(
                    f"the neighbours of vertex {brief(u)} are a collection of vertices, "
                    f"got {brief(neighbours)}"
                )
            row: list[int] = []
            try:
                for v in neighbours:
                    j = get(v)
                    if j is None:
                        j = numbers[v] = len(numbers)
                    row.append(j)
            except TypeError:
                for v in neighbours:
                    _number(numbers, v)  # names the label that cannot be hashed
                raise
            given.append(row)
        return cls._made(numbers, given, directed)

    @classmethod
    def _from_edges(cls, edges: Iterable[Any], directed: bool) -> Graph:
        numbers: dict[Hashable, int] = {}
        given: list[list[int]] = []
        for t, edge in enumerate(edges):
            try:
                u, v = edge
            except (TypeError, ValueError):
                raise EdgeError(
                    f"edge {t} of the edge list is not a pair (u, v), got {brief(edge)}"
                ) from None
            iu = _number(numbers, u)
            iv = _number(numbers, v)
            while len(given) < len(numbers):
                given.append([])
            given[iu].append(iv)
        return cls._made(numbers, given, directed)

    @classmethod
    def _made(cls, numbers: dict[Hashable, int], given: list[list[int]], directed: bool) -> Graph:
        if not numbers:
            raise EmptyGraphError("the graph has no vertex")
        return cls(tuple(numbers), given, directed)

    def __repr__(self) -> str:
        edges = len(self.targets) if self.directed else len(self.targets) // 2
        return f"<{_kind(self.directed)} graph: {self.n} vertices, {edges} {_unit(self)}>"


#: The usual types of a mapping's neighbours, let through without a slower check.
_COLLECTIONS = (list, tuple, set, frozenset, dict)


def _kind(directed: bool) -> str:
    return "directed" if directed else "undirected"


def _unit(g: Graph) -> str:
    return "arcs" if g.directed else "edges"


def _number(numbers: dict[Hashable, int], label: object) -> int:
    """The number of vertex ``label``, given the next number if it is new."""
    try:
        found = numbers.get(label)
    except TypeError:
        raise UnhashableVertexError(
            f"vertex {brief(label)} cannot be hashed ({type(label).__name__}): a vertex "
            "label is a hashable value, e.g. a tuple rather than a list"
        ) from None
    if found is None:
        found = numbers[label] = len(numbers)
    return found
