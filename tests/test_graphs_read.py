"""Reading graphs: networkx graphs by duck typing, mappings, edge lists, and one clear
error for each kind of bad input."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest

from lazysearch import graphs
from lazysearch.graphs import (
    EdgeError,
    EmptyGraphError,
    GraphError,
    UnhashableVertexError,
    UnknownVertexError,
)


class FakeNetworkx:
    """What the reader uses of a networkx graph: is_directed(), nodes and adj."""

    def __init__(self, adj: dict[Hashable, dict[Hashable, dict[str, Any]]], directed: bool) -> None:
        self.adj = adj
        self.nodes = list(adj)
        self._directed = directed

    def is_directed(self) -> bool:
        return self._directed


def test_networkx_by_duck_typing() -> None:
    square = {
        "a": {"b": {}, "d": {}},
        "b": {"a": {}, "c": {}},
        "c": {"b": {}, "d": {}},
        "d": {"c": {}, "a": {}},
    }
    assert graphs.hamiltonian_cycles(FakeNetworkx(square, False)).take(3) == [("a", "b", "c", "d")]
    ring = {"a": {"b": {}}, "b": {"c": {}}, "c": {"a": {}}}
    assert graphs.hamiltonian_cycles(FakeNetworkx(ring, True)).take(3) == [("a", "b", "c")]
    with pytest.raises(GraphError, match="directed"):
        graphs.hamiltonian_cycles(FakeNetworkx(ring, True), directed=False)


def test_real_networkx_when_installed() -> None:
    nx = pytest.importorskip("networkx")
    assert graphs.hamiltonian_cycles(nx.dodecahedral_graph()).count() == 30
    assert graphs.hamiltonian_cycles(nx.petersen_graph()).count() == 0


def test_loops_and_repeats_are_ignored() -> None:
    g = graphs.Graph.read([(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (1, 2)])
    assert (g.loops, g.repeats) == (1, 1)
    assert graphs.Graph.read(graphs.grid(3, 3)).repeats == 0
    assert graphs.hamiltonian_cycles(g).take(5) == [(1, 2, 3)]


def test_bad_input_is_refused_at_the_call() -> None:
    with pytest.raises(UnhashableVertexError, match=r"vertex \[1\] cannot be hashed"):
        graphs.hamiltonian_cycles([([1], 2)])
    with pytest.raises(UnhashableVertexError, match="cannot be hashed"):
        graphs.hamiltonian_cycles({1: [{2}]})
    with pytest.raises(EmptyGraphError, match="no vertex"):
        graphs.hamiltonian_cycles({})
    with pytest.raises(EmptyGraphError):
        graphs.hamiltonian_paths([])
    with pytest.raises(UnknownVertexError, match="start 9 is not a vertex"):
        graphs.hamiltonian_paths(graphs.grid(2, 2), start=9)
    with pytest.raises(UnknownVertexError, match=r"end \[0\] is not a vertex"):
        graphs.hamiltonian_paths(graphs.grid(2, 2), end=[0])
    with pytest.raises(EdgeError, match="edge 1 of the edge list is not a pair"):
        graphs.hamiltonian_cycles([(1, 2), (1, 2, 3)])
    with pytest.raises(GraphError, match="networkx graph, a mapping"):
        graphs.hamiltonian_cycles(42)
    with pytest.raises(GraphError, match="neighbours of vertex 1"):
        graphs.hamiltonian_cycles({1: 2})
    for bad in (graphs.grid, graphs.king):
        with pytest.raises(GraphError, match="rows"):
            bad(0, 3)
    with pytest.raises(GraphError, match="dimension"):
        graphs.hypercube(-1)
    with pytest.raises(GraphError, match="move"):
        graphs.leaper(3, 3, (0, 0))
    with pytest.raises(GraphError, match="3x3 board"):
        graphs.leaper(3, 3, (1, 2), board=["###", "##"])


def test_errors_are_lazysearch_errors() -> None:
    from lazysearch.errors import LazysearchError

    for cls in (EdgeError, EmptyGraphError, UnhashableVertexError, UnknownVertexError):
        assert issubclass(cls, GraphError)
    assert issubclass(GraphError, LazysearchError)
