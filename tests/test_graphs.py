"""Hamiltonian cycles and paths of any graph: against a brute force over permutations
written here, an independent verifier, and published counts."""

from __future__ import annotations

import itertools
import math
import pickle
from collections.abc import Hashable, Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import graphs
from lazysearch.errors import LazysearchError
from lazysearch.graphs import (
    GraphError,
)

# -- an independent verifier and a brute force --------------------------------------------

Edges = set[tuple[Hashable, Hashable]]
Cycle = tuple[Hashable, ...]
Case = tuple[list[Hashable], list[tuple[Hashable, Hashable]], bool]


def arcs_of(edges: Iterable[tuple[Hashable, Hashable]], directed: bool) -> Edges:
    out: Edges = set()
    for u, v in edges:
        if u != v:
            out.add((u, v))
            if not directed:
                out.add((v, u))
    return out


def check_path(p: tuple[Hashable, ...], vertices: list[Hashable], arcs: Edges) -> None:
    """Raise unless ``p`` visits every vertex once along arcs."""
    if sorted(map(repr, p)) != sorted(map(repr, vertices)) or len(set(p)) != len(p):
        raise AssertionError(f"{p} does not visit each of {vertices} once")
    for a, b in itertools.pairwise(p):
        if (a, b) not in arcs:
            raise AssertionError(f"{p}: no arc {a} -> {b}")


def check_cycle(c: tuple[Hashable, ...], vertices: list[Hashable], arcs: Edges) -> None:
    check_path(c, vertices, arcs)
    if len(c) < 2 or (c[-1], c[0]) not in arcs:
        raise AssertionError(f"{c} does not close")


def canonical_cycle(
    c: tuple[Hashable, ...], order: list[Hashable], directed: bool
) -> tuple[Hashable, ...]:
    i = c.index(order[0])
    turned = c[i:] + c[:i]
    if directed:
        return turned
    back = (turned[0], *reversed(turned[1:]))
    return min(turned, back, key=lambda t: [order.index(v) for v in t])


def brute_cycles(
    vertices: list[Hashable], arcs: Edges, directed: bool
) -> set[tuple[Hashable, ...]]:
    found = set()
    if len(vertices) < (2 if directed else 3):
        return found
    head, rest = vertices[0], vertices[1:]
    for p in itertools.permutations(rest):
        c = (head, *p)
        if all((a, b) in arcs for a, b in itertools.pairwise(c)) and (c[-1], head) in arcs:
            found.add(canonical_cycle(c, vertices, directed))
    return found


def brute_paths(
    vertices: list[Hashable], arcs: Edges, directed: bool, start: Any = None, end: Any = None
) -> list[tuple[Hashable, ...]]:
    found = []
    for p in itertools.permutations(vertices):
        if start is not None and p[0] != start:
            continue
        if end is not None and p[-1] != end:
            continue
        if all((a, b) in arcs for a, b in itertools.pairwise(p)):
            found.append(p)
    if not directed and start is None and end is None:
        found = [p for p in found if vertices.index(p[0]) <= vertices.index(p[-1])]
    return found


# -- random graphs -------------------------------------------------------------------------


@st.composite
def random_graphs(
    draw: Any, max_n: int = 9
) -> tuple[list[Hashable], list[tuple[Hashable, Hashable]], bool]:
    n = draw(st.integers(1, max_n))
    directed = draw(st.booleans())
    labels: list[Hashable] = draw(
        st.sampled_from([list(range(n)), [f"v{i}" for i in range(n)], [(i, -i) for i in range(n)]])
    )
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v)]
    p = draw(st.sampled_from([0.3, 0.5, 0.7, 0.9]))
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    bias = draw(st.randoms(use_true_random=False))
    edges = [
        (labels[u], labels[v])
        for (u, v), c in zip(pairs, chosen, strict=True)
        if c or bias.random() < p
    ]
    return labels, edges, directed


def as_input(labels: list[Hashable], edges: list[tuple[Hashable, Hashable]], form: str) -> Any:
    if form == "edges":
        return edges if edges else {v: [] for v in labels}
    mapping: dict[Hashable, list[Hashable]] = {v: [] for v in labels}
    for u, v in edges:
        mapping[u].append(v)
    return mapping


@settings(max_examples=60, deadline=None)
@given(random_graphs(), st.sampled_from(["edges", "mapping"]))
def test_cycles_equal_brute_force(case: Any, form: str) -> None:
    labels, edges, directed = case
    G = as_input(labels, edges, form)
    read = graphs.Graph.read(G, directed)
    vertices = list(read.labels)  # an edge list may leave out isolated vertices
    arcs = arcs_of(edges, directed)
    listed = graphs.hamiltonian_cycles(G, directed=directed).take(10**6)
    for c in listed:
        check_cycle(c, vertices, arcs)
    canon = [canonical_cycle(c, vertices, directed) for c in listed]
    assert len(set(canon)) == len(canon), "a cycle was listed twice"
    assert set(canon) == brute_cycles(vertices, arcs, directed)
    assert graphs.hamiltonian_cycles(G, directed=directed).count() == len(listed)


@settings(max_examples=60, deadline=None)
@given(random_graphs(), st.sampled_from(["edges", "mapping"]), st.data())
def test_paths_equal_brute_force(case: Any, form: str, data: Any) -> None:
    labels, edges, directed = case
    G = as_input(labels, edges, form)
    vertices = list(graphs.Graph.read(G, directed).labels)
    arcs = arcs_of(edges, directed)
    start = data.draw(st.sampled_from([None, *vertices]))
    end = data.draw(st.sampled_from([None, *vertices]))
    if start is not None and start == end and len(vertices) > 1:
        with pytest.raises(GraphError, match="ends differ"):
            graphs.hamiltonian_paths(G, start, end, directed=directed)
        return
    listed = graphs.hamiltonian_paths(G, start, end, directed=directed).take(10**6)
    for p in listed:
        check_path(p, vertices, arcs)
        assert start is None or p[0] == start
        assert end is None or p[-1] == end
    assert len(set(listed)) == len(listed)
    expected = brute_paths(vertices, arcs, directed, start, end)
    if not directed and start is None and end is None:
        assert {
            min(p, p[::-1], key=lambda t: [vertices.index(v) for v in t]) for p in listed
        } == set(expected)
        assert len(listed) == len(expected)
    else:
        assert set(listed) == set(expected)
    assert graphs.hamiltonian_paths(G, start, end, directed=directed).count() == len(listed)


# -- published counts ---------------------------------------------------------------------


def complete(n: int) -> dict[int, list[int]]:
    return {i: [j for j in range(n) if j != i] for i in range(n)}


@pytest.mark.parametrize("n", range(3, 9))
def test_complete_graphs(n: int) -> None:
    assert graphs.hamiltonian_cycles(complete(n)).count() == math.factorial(n - 1) // 2


def petersen() -> list[tuple[int, int]]:
    outer = [(i, (i + 1) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    return outer + spokes + inner


def dodecahedron() -> list[tuple[int, int]]:
    # Four rings: 0-4 outer pentagon, 5-14 a ring of ten, 15-19 inner pentagon.
    edges = [(i, (i + 1) % 5) for i in range(5)]
    edges += [(i, 5 + 2 * i) for i in range(5)]
    edges += [(5 + i, 5 + (i + 1) % 10) for i in range(10)]
    edges += [(6 + 2 * i, 15 + i) for i in range(5)]
    edges += [(15 + i, 15 + (i + 1) % 5) for i in range(5)]
    return edges


def test_petersen_has_no_cycle() -> None:
    assert graphs.hamiltonian_cycles(petersen()).count() == 0
    assert graphs.hamiltonian_paths(petersen()).count() > 0


def test_dodecahedron() -> None:
    g = graphs.Graph.read(dodecahedron())
    assert all(len(g.neighbours(v)) == 3 for v in range(20))
    assert graphs.hamiltonian_cycles(dodecahedron()).count() == 30


@pytest.mark.parametrize(("side", "cycles"), [(2, 1), (4, 6), (6, 1072)])
def test_grid_cycles_a003763(side: int, cycles: int) -> None:
    assert graphs.hamiltonian_cycles(graphs.grid(side, side)).count() == cycles


@pytest.mark.parametrize(("d", "cycles"), [(2, 1), (3, 6), (4, 1344)])
def test_hypercube_cycles_a066037(d: int, cycles: int) -> None:
    assert graphs.hamiltonian_cycles(graphs.hypercube(d)).count() == cycles


def test_knight_graph_5x5_open_tours() -> None:
    knight = graphs.leaper(5, 5, (1, 2))
    assert graphs.hamiltonian_paths(knight).count() == 864  # 1,728 directed tours
    assert graphs.hamiltonian_paths(knight, start=(0, 0)).count() == 304
    # Directed, each move an arc both ways: a path and its reversal are two.
    assert graphs.hamiltonian_paths(knight, start=(0, 0), directed=True).count() == 304
    assert graphs.hamiltonian_paths(knight, end=(0, 0)).count() == 304


def test_knight_graph_6x6_cycles() -> None:
    assert graphs.hamiltonian_cycles(graphs.leaper(6, 6, (1, 2))).count() == 9862


# -- the stream ---------------------------------------------------------------------------


def test_checkpoint_resume_and_subtrees() -> None:
    g = graphs.grid(6, 6)
    s = graphs.hamiltonian_cycles(g)
    head = s.take(100)
    cp = s.checkpoint()
    rest = graphs.hamiltonian_cycles(g).resume(cp).take(10**6)
    assert head + rest == graphs.hamiltonian_cycles(g).take(10**6)
    assert len(head + rest) == 1072
    s = graphs.hamiltonian_cycles(g)
    assert sum(s.subtree(p).count() for p in s.subtrees(4)) == 1072
    other = graphs.hamiltonian_cycles(graphs.grid(4, 4))
    with pytest.raises(Exception, match="another problem"):
        other.resume(cp)


def test_count_in_workers() -> None:
    assert graphs.hamiltonian_cycles(graphs.grid(6, 6)).count(workers=2) == 1072
    knight = graphs.leaper(5, 5, (1, 2))
    assert graphs.hamiltonian_paths(knight).count(workers=2) == 864


def test_first_filter_and_progress() -> None:
    s = graphs.hamiltonian_cycles(graphs.grid(4, 4))
    assert s.first()[0] == (0, 0)
    assert 0 < s.progress() < 1
    corner = graphs.hamiltonian_cycles(graphs.grid(4, 4)).filter(lambda c: c[1] == (0, 1))
    assert corner.count() == 6  # the second vertex is the first neighbour in every one


def test_problem_pickles() -> None:
    s = graphs.hamiltonian_cycles(graphs.grid(4, 4))
    problem = s.search.problem
    again = pickle.loads(pickle.dumps(problem))
    assert again.fingerprint() == problem.fingerprint()
    assert again.count() == 6
    assert again.count("frontier") == 6
    with pytest.raises(LazysearchError, match="method must be one of 'enumerate', 'frontier'"):
        problem.count("memo")


def test_small_cases() -> None:
    assert graphs.hamiltonian_cycles({1: []}).count() == 0
    assert graphs.hamiltonian_paths({1: []}).take(3) == [(1,)]
    assert graphs.hamiltonian_paths({1: []}, start=1, end=1).take(3) == [(1,)]
    assert graphs.hamiltonian_cycles([(1, 2)]).count() == 0
    assert graphs.hamiltonian_cycles([(1, 2), (2, 1)], directed=True).take(3) == [(1, 2)]
    assert graphs.hamiltonian_paths([(1, 2)]).take(3) == [(1, 2)]
    assert graphs.hamiltonian_paths([(1, 2)], end=1).take(3) == [(2, 1)]


def test_leaper_boards_with_holes() -> None:
    board = ["#.##", "####", "####"]
    g = graphs.leaper(3, 4, (1, 2), board=board)
    assert (0, 1) not in g and all((0, 1) not in ns for ns in g.values())
    rows = [[c != "." for c in line] for line in board]
    assert graphs.leaper(3, 4, (1, 2), board=rows) == g
