"""Counting Hamiltonian cycles and paths by the frontier program over an order: equal to
the walk and a brute force on random graphs, with and without fixed ends; the published
counts; what it reports; bad input."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, graphs
from lazysearch.errors import LazysearchError
from lazysearch.graphs import GraphError, TooWideError
from lazysearch.search import Search
from lazysearch.stream import Solutions

from .test_graphs import (
    arcs_of,
    as_input,
    brute_cycles,
    brute_paths,
    check_cycle,
    check_path,
    complete,
    dodecahedron,
    petersen,
    random_graphs,
)

# -- against the walk and a brute force ----------------------------------------------------


@settings(max_examples=80 if compiled() else 30, deadline=None)
@given(
    random_graphs(max_n=10 if compiled() else 8), st.sampled_from(["edges", "mapping"]), st.data()
)
def test_the_frontier_equals_the_walk_and_a_brute_force(case: Any, form: str, data: Any) -> None:
    labels, edges, directed = case
    G = as_input(labels, edges, form)
    vertices = list(graphs.Graph.read(G, directed).labels)
    arcs = arcs_of(edges, directed)
    small = len(vertices) <= 8  # the brute force's permutations
    start = data.draw(st.sampled_from([None, *vertices]))
    end = data.draw(st.sampled_from([None, *vertices]))
    if start is not None and start == end and len(vertices) > 1:
        end = None
    cycles = graphs.hamiltonian_cycles(G, directed=directed)
    paths = graphs.hamiltonian_paths(G, start, end, directed=directed)
    walked = graphs.hamiltonian_cycles(G, directed=directed).count(method="enumerate")
    assert cycles.count(method="frontier") == walked
    assert graphs.frontier_count(G, directed=directed).count == walked
    walked_paths = graphs.hamiltonian_paths(G, start, end, directed=directed).count(
        method="enumerate"
    )
    assert paths.count(method="frontier") == walked_paths
    found = graphs.frontier_count(G, paths=True, start=start, end=end, directed=directed)
    assert found.count == walked_paths
    if small:
        assert walked == len(brute_cycles(vertices, arcs, directed))
        assert walked_paths == len(brute_paths(vertices, arcs, directed, start, end))


@settings(max_examples=30 if compiled() else 10, deadline=None)
@given(random_graphs(max_n=9), st.randoms(use_true_random=False))
def test_any_order_gives_the_same_count(case: Any, rng: Any) -> None:
    labels, edges, _ = case
    G = as_input(labels, edges, "mapping")
    order = list(graphs.Graph.read(G).labels)
    rng.shuffle(order)
    expected = graphs.hamiltonian_cycles(G).count(method="enumerate")
    found = graphs.frontier_count(G, order=order)
    assert found.count == expected
    assert found.order == order
    start = order[0]
    assert graphs.frontier_count(
        G, paths=True, start=start, order=order
    ).count == graphs.hamiltonian_paths(G, start).count(method="enumerate")


# -- published counts ----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 13 if compiled() else 10))
def test_complete_graphs(n: int) -> None:
    assert graphs.frontier_count(complete(n)).count == math.factorial(n - 1) // 2
    assert graphs.hamiltonian_cycles(complete(n)).count() == math.factorial(n - 1) // 2


def test_petersen_and_the_dodecahedron() -> None:
    assert graphs.frontier_count(petersen()).count == 0
    assert graphs.frontier_count(dodecahedron()).count == 30
    assert graphs.hamiltonian_cycles(dodecahedron()).count(method="frontier") == 30


#: A003763: Hamiltonian cycles of the 2n x 2n grid.
GRIDS = {
    2: 1,
    4: 6,
    6: 1072,
    8: 4_638_576,
    10: 467_260_456_608,
    12: 1_076_226_888_605_605_706,
}


@pytest.mark.parametrize("side", [2, 4, 6, 8, 10, 12] if compiled() else [2, 4, 6, 8])
def test_grid_cycles_a003763(side: int) -> None:
    assert graphs.hamiltonian_cycles(graphs.grid(side, side)).count() == GRIDS[side]


def test_hypercubes_a066037() -> None:
    assert graphs.frontier_count(graphs.hypercube(4)).count == 1344
    if compiled():
        assert graphs.frontier_count(graphs.hypercube(5)).count == 906_545_760


def test_king_graphs_a140519() -> None:
    # A140519: Hamiltonian cycles of the n x n king graph.
    assert graphs.frontier_count(graphs.king(2, 2)).count == 3
    assert graphs.frontier_count(graphs.king(3, 3)).count == 16
    assert graphs.frontier_count(graphs.king(4, 4)).count == 2_830
    assert graphs.frontier_count(graphs.king(5, 5)).count == 2_462_064
    if compiled():
        assert graphs.frontier_count(graphs.king(7, 7)).count == 1_622_043_117_414_624


@pytest.mark.parametrize(
    ("rows", "cols", "cycles"),
    [(6, 6, 9_862), (6, 7, 1_067_638), (6, 8, 55_488_142)],
)
def test_knight_graphs(rows: int, cols: int, cycles: int) -> None:
    if not compiled() and rows * cols > 36:
        pytest.skip("seconds as plain Python")
    found = graphs.frontier_count(graphs.leaper(rows, cols, (1, 2)))
    assert found.count == cycles


def test_grid_paths() -> None:
    # A096969 counts the directed paths of the n x n grid: twice the undirected ones.
    for side, directed_paths in ((2, 8), (3, 40), (4, 552), (5, 8648), (6, 458_696)):
        found = graphs.frontier_count(graphs.grid(side, side), paths=True).count
        assert 2 * found == directed_paths
    # The corner-to-corner paths of 3x3 and from a corner.
    assert graphs.frontier_count(graphs.grid(3, 3), paths=True, start=(0, 0), end=(2, 2)).count == 2
    assert graphs.frontier_count(graphs.grid(3, 3), paths=True, start=(0, 0)).count == 8


# -- directed graphs -----------------------------------------------------------------------

#: A096969 (OEIS): directed Hamiltonian paths of the n x n grid, n = 1, 2, ...
GRID_PATHS_DIRECTED = [1, 8, 40, 552, 8_648, 458_696, 27_070_560, 6_046_626_568, 1_490_832_682_992]


@pytest.mark.parametrize("side", range(1, 9 if compiled() else 6))
def test_directed_grid_paths_a096969(side: int) -> None:
    # The grid read as a digraph (both arcs of each edge): each path either way round.
    found = graphs.frontier_count(graphs.grid(side, side), paths=True, directed=True)
    assert found.count == GRID_PATHS_DIRECTED[side - 1]


def test_directed_grid_cycles_twice_a003763() -> None:
    # A cycle of the grid as a digraph is one of the grid's, either way round.
    for side in (2, 4, 6, 8) if compiled() else (2, 4):
        found = graphs.hamiltonian_cycles(graphs.grid(side, side), directed=True)
        assert found.count(method="frontier") == 2 * GRIDS[side]


@pytest.mark.parametrize("n", range(2, 11 if compiled() else 8))
def test_complete_digraphs(n: int) -> None:
    # The complete digraph on n vertices: (n - 1)! directed cycles, n! directed paths,
    # (n - 1)! from a fixed start, (n - 2)! between two fixed ends.
    K = complete(n)
    assert graphs.frontier_count(K, directed=True).count == math.factorial(n - 1)
    assert graphs.frontier_count(K, paths=True, directed=True).count == math.factorial(n)
    found = graphs.frontier_count(K, paths=True, start=1, directed=True)
    assert found.count == math.factorial(n - 1)
    found = graphs.frontier_count(K, paths=True, start=0, end=1, directed=True)
    assert found.count == math.factorial(n - 2)


def test_transitive_tournaments_and_one_way_grids() -> None:
    # A digraph without cycles has one Hamiltonian path when its order by arcs is the
    # only one (a transitive tournament: i -> j for i < j) and none otherwise (the grid
    # with arcs right and down only, from 2 x 2 on: two vertices follow the corner).
    for n in range(2, 12):
        tournament = [(i, j) for i in range(n) for j in range(i + 1, n)]
        assert graphs.frontier_count(tournament, directed=True).count == 0
        assert graphs.frontier_count(tournament, paths=True, directed=True).count == 1
        reversed_path = graphs.frontier_count(tournament, paths=True, start=n - 1, directed=True)
        assert reversed_path.count == 0
    for rows, cols in ((1, 7), (2, 2), (3, 5), (4, 4)):
        one_way = {
            (r, c): [
                (r + dr, c + dc) for dr, dc in ((0, 1), (1, 0)) if r + dr < rows and c + dc < cols
            ]
            for r in range(rows)
            for c in range(cols)
        }
        assert graphs.frontier_count(one_way, paths=True, directed=True).count == (rows == 1)
    # A directed cycle of n vertices: one cycle, n paths (one from each start).
    ring = {i: [(i + 1) % 9] for i in range(9)}
    assert graphs.frontier_count(ring, directed=True).count == 1
    assert graphs.frontier_count(ring, paths=True, directed=True).count == 9


@settings(max_examples=40 if compiled() else 10, deadline=None)
@given(random_graphs(max_n=9 if compiled() else 7), st.data())
def test_a_symmetric_digraph_counts_each_undirected_cycle_twice(case: Any, data: Any) -> None:
    labels, edges, _ = case
    G = as_input(labels, edges, "mapping")
    both = as_input(labels, [*edges, *((v, u) for u, v in edges)], "mapping")
    start = data.draw(st.sampled_from([None, *labels]))
    if len(labels) > 2:  # (two vertices and an edge: a directed cycle, no undirected one)
        cycles = graphs.frontier_count(G).count
        assert graphs.frontier_count(both, directed=True).count == 2 * cycles
    paths = graphs.frontier_count(G, paths=True, start=start).count
    assert graphs.frontier_count(both, paths=True, start=start, directed=True).count == (
        paths if start is not None or len(labels) == 1 else 2 * paths
    )


def test_directed_counts_past_64_bits() -> None:
    # The 3 x 28 king graph has 3,927,750,773,074,732,682,526 cycles (past 2**64): as a
    # digraph with both arcs, twice as many, counted in two words.
    king = graphs.king(3, 28)
    cycles = graphs.frontier_count(king).count
    assert cycles > 2**64
    assert graphs.frontier_count(king, directed=True).count == 2 * cycles
    paths = graphs.frontier_count(king, paths=True).count
    assert graphs.frontier_count(king, paths=True, directed=True).count == 2 * paths


def test_wide_directed_frontiers_take_keys_of_more_words() -> None:
    # A ring of 34 vertices, the even ones placed first: the frontier reaches 17 vertices
    # or more, past the 13 that four bits a vertex label, so keys take eight bits a
    # vertex and three words. One way round: one cycle, a path from each vertex; both
    # ways: each twice.
    n = 34
    order = [*range(0, n, 2), *range(1, n, 2)]
    one_way = {i: [(i + 1) % n] for i in range(n)}
    both = {i: [(i + 1) % n, (i - 1) % n] for i in range(n)}
    found = graphs.frontier_count(one_way, order=order, directed=True)
    assert found.count == 1 and found.widest >= 17
    assert graphs.frontier_count(one_way, paths=True, order=order, directed=True).count == n
    assert graphs.frontier_count(both, order=order, directed=True).count == 2
    assert graphs.frontier_count(both, paths=True, order=order, directed=True).count == 2 * n
    found = graphs.frontier_count(both, paths=True, start=3, order=order, directed=True)
    assert found.count == 2


# -- what it reports -----------------------------------------------------------------------


def test_it_reports_the_order_the_widest_frontier_and_the_states() -> None:
    found = graphs.frontier_count(graphs.grid(4, 6))
    assert found.count == graphs.hamiltonian_cycles(graphs.grid(4, 6)).count(method="enumerate")
    assert sorted(found.order) == sorted(graphs.grid(4, 6))
    assert found.widest <= 6
    assert len(found.states) == 24 and found.states[-1] == 0
    assert found.peak_states == max(found.states)
    # A path from a fixed start: the added vertex is left out of the order.
    path = graphs.frontier_count(graphs.grid(4, 6), paths=True, start=(0, 0))
    assert sorted(path.order) == sorted(graphs.grid(4, 6))
    assert len(path.states) == 25


def test_small_graphs() -> None:
    assert graphs.frontier_count({1: []}, paths=True).count == 1
    assert graphs.frontier_count({1: []}).count == 0
    assert graphs.frontier_count([(1, 2)]).count == 0
    assert graphs.frontier_count([(1, 2)], paths=True).count == 1
    assert graphs.frontier_count([(1, 2)], paths=True, start=2).count == 1
    assert graphs.frontier_count([(1, 2), (2, 3), (3, 1)]).count == 1


# -- bad input -----------------------------------------------------------------------------


def test_bad_input_is_refused() -> None:
    with pytest.raises(LazysearchError, match="'auto', 'enumerate', 'frontier'"):
        graphs.hamiltonian_cycles(graphs.grid(4, 4)).count(method="memo")
    with pytest.raises(LazysearchError, match="max_nodes must be an int >= 1"):
        graphs.hamiltonian_cycles(graphs.grid(4, 4)).count(method="frontier", max_nodes=0)
    with pytest.raises(GraphError, match="start and end with paths=True"):
        graphs.frontier_count(graphs.grid(4, 4), start=(0, 0))
    with pytest.raises(graphs.UnknownVertexError, match=r"start \(9, 9\)"):
        graphs.frontier_count(graphs.grid(4, 4), paths=True, start=(9, 9))
    with pytest.raises(GraphError, match="order must list each of the 16 vertices"):
        graphs.frontier_count(graphs.grid(4, 4), order=[(0, 0)])
    stream = graphs.hamiltonian_cycles(graphs.grid(4, 4))
    stream.first()
    with pytest.raises(LazysearchError, match="was already read"):
        stream.count(method="frontier")
    with pytest.raises(LazysearchError, match="counts in one go"):
        graphs.hamiltonian_cycles(graphs.grid(4, 4)).count_within(method="frontier")


def test_a_graph_too_wide_is_refused_with_its_width() -> None:
    with pytest.raises(TooWideError, match=r"more than max_states=30 frontiers at step"):
        graphs.frontier_count(graphs.grid(6, 6), max_states=30)
    with pytest.raises(TooWideError, match=r"an estimated 312 frontiers .* past the 10 it"):
        graphs.frontier_count(graphs.grid(6, 6), max_states=10)
    with pytest.raises(TooWideError, match=r"frontier reaches \d+ vertices: an estimated"):
        graphs.frontier_count(complete(40), order=list(range(40)))
    with pytest.raises(TooWideError) as refused:
        graphs.hamiltonian_cycles(graphs.grid(6, 6)).count(method="frontier", max_nodes=10)
    assert "enumerate" not in str(refused.value)  # the program was asked for by name
    # count() chose the program itself: it says how to walk instead.
    with pytest.raises(TooWideError, match=r"; count\(method='enumerate'\) walks them instead"):
        graphs.hamiltonian_cycles(graphs.grid(6, 6)).count(max_nodes=10)


# -- exact samples -------------------------------------------------------------------------


def _leaves(sampler: Any, drawn: tuple[int, ...], p: Fraction, out: dict[Any, Fraction]) -> None:
    """Every cycle the sampler can draw, with its probability: its choice tree walked
    whole, each choice taken with its weight over the weights of its step."""
    ways = sampler.choices(drawn)
    total = sum(w for _, w in ways)
    if total == 0:
        cycle = sampler.cycle(drawn)
        out[cycle] = out.get(cycle, Fraction(0)) + p
        return
    for v, w in ways:
        if w:
            _leaves(sampler, (*drawn, v), p * Fraction(w, total), out)


@pytest.mark.parametrize(
    "make",
    [
        lambda: graphs.hamiltonian_cycles(graphs.grid(4, 4)),
        lambda: graphs.hamiltonian_cycles(complete(6)),
        lambda: graphs.hamiltonian_cycles(graphs.king(3, 3)),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 3)),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 4), start=(0, 0)),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 4), end=(2, 3)),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 4), start=(0, 0), end=(2, 3)),
        lambda: graphs.hamiltonian_paths(complete(5), start=2),
        lambda: graphs.hamiltonian_cycles(complete(5), directed=True),
        lambda: graphs.hamiltonian_cycles(graphs.king(3, 3), directed=True),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 3), directed=True),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 4), start=(0, 0), directed=True),
        lambda: graphs.hamiltonian_paths(graphs.grid(3, 4), end=(2, 3), directed=True),
        lambda: graphs.hamiltonian_paths(
            graphs.grid(3, 4), start=(0, 0), end=(2, 3), directed=True
        ),
    ],
)
def test_the_sampler_draws_every_cycle_with_probability_one_over_the_count(make: Any) -> None:
    _draws_each_with_probability_one_over_the_count(make)


def _draws_each_with_probability_one_over_the_count(make: Any) -> None:
    stream = make()
    listed = make().take(10**6)
    sampler = stream.diagram()
    assert sampler.count() == len(listed)
    if len(sampler.neighbours) <= 2 or not listed:
        return  # (one cycle at most, drawn without weights; or none to draw)
    drawn: dict[Any, Fraction] = {}
    _leaves(sampler, (stream.search.problem.anchor,), Fraction(1), drawn)
    # The leaves are exactly the cycles the walk lists (as the engine gives them,
    # before decoding), each with probability 1 / count.
    assert set(drawn) == set(Solutions(Search(stream.search.problem)).take(10**6))
    assert len(drawn) == len(listed)
    assert set(drawn.values()) == {Fraction(1, len(listed))}


@settings(max_examples=40 if compiled() else 15, deadline=None)
@given(random_graphs(max_n=7), st.data())
def test_the_sampler_is_exact_on_random_graphs(case: Any, data: Any) -> None:
    labels, edges, directed = case
    G = as_input(labels, edges, "mapping")
    start = data.draw(st.sampled_from([None, *labels]))
    end = data.draw(st.sampled_from([None, *labels]))
    if start is not None and start == end:
        end = None
    if data.draw(st.booleans()):
        _draws_each_with_probability_one_over_the_count(
            lambda: graphs.hamiltonian_cycles(G, directed=directed)
        )
    else:
        _draws_each_with_probability_one_over_the_count(
            lambda: graphs.hamiltonian_paths(G, start, end, directed=directed)
        )


def test_directed_samples_are_verified_and_seeded() -> None:
    grid = graphs.grid(5, 6) if compiled() else graphs.grid(3, 4)
    both = {u: list(grid[u]) for u in grid}
    one_way = {v: [w for w in grid[v] if w > v] for v in grid}  # arcs down and right only
    arcs = arcs_of(((u, v) for u in both for v in both[u]), True)
    cycles = graphs.hamiltonian_cycles(both, directed=True).sample(4, seed=5)
    assert cycles == graphs.hamiltonian_cycles(both, directed=True).sample(4, seed=5)
    for c in cycles:
        check_cycle(c, list(both), arcs)
    paths = graphs.hamiltonian_paths(both, start=(0, 0), directed=True).sample(3, seed=2)
    for p in paths:
        check_path(p, list(both), arcs)
        assert p[0] == (0, 0)
    # With arcs down and right only, there is neither a cycle nor a Hamiltonian path:
    # none drawn (as every stream's sample), none to draw without replacement.
    assert graphs.hamiltonian_cycles(one_way, directed=True).sample(3) == []
    assert graphs.hamiltonian_paths(one_way, directed=True).sample(2, seed=1) == []
    with pytest.raises(LazysearchError, match="only 0 to draw from"):
        graphs.hamiltonian_paths(one_way, directed=True).sample(1, replace=False)
    with pytest.raises(LookupError, match="no such cycle"):
        graphs.hamiltonian_cycles(one_way, directed=True).diagram().draw(random.Random(0))
    ring = {i: [(i + 1) % 9, (i + 2) % 9, (i + 4) % 9] for i in range(9)}  # 33 cycles
    ring_arcs = arcs_of(((u, v) for u in ring for v in ring[u]), True)
    assert graphs.hamiltonian_cycles(ring, directed=True).count() == len(
        brute_cycles(list(ring), ring_arcs, True)
    )
    different = graphs.hamiltonian_cycles(ring, directed=True).sample(3, seed=0, replace=False)
    assert len(set(different)) == 3
    for c in different:
        check_cycle(c, list(ring), ring_arcs)


def test_samples_are_verified_cycles_and_seeded() -> None:
    grid = graphs.grid(6, 6) if compiled() else graphs.grid(4, 4)
    cycles = graphs.hamiltonian_cycles(grid).sample(5, seed=3)
    assert cycles == graphs.hamiltonian_cycles(grid).sample(5, seed=3)
    arcs = arcs_of(((u, v) for u in grid for v in grid[u]), False)
    for c in cycles:
        check_cycle(c, list(grid), arcs)
    paths = graphs.hamiltonian_paths(grid, start=(0, 0)).sample(3, seed=1)
    for p in paths:
        check_path(p, list(grid), arcs)
        assert p[0] == (0, 0)
    different = graphs.hamiltonian_cycles(graphs.grid(4, 4)).sample(6, seed=2, replace=False)
    assert len(set(different)) == 6
    with pytest.raises(LazysearchError, match="only 6 to draw from"):
        graphs.hamiltonian_cycles(graphs.grid(4, 4)).sample(7, replace=False)
    with pytest.raises(LazysearchError, match="k an int >= 0"):
        graphs.hamiltonian_cycles(grid).sample(-1)
    assert graphs.hamiltonian_cycles(petersen()).sample(1) == []
    with pytest.raises(LookupError, match="no such cycle"):
        graphs.hamiltonian_cycles(petersen()).diagram().draw(random.Random(0))
    assert graphs.hamiltonian_cycles({1: [2], 2: [3], 3: [1]}, directed=True).sample(2) == [
        (1, 2, 3),
        (1, 2, 3),
    ]
    assert graphs.hamiltonian_paths({1: []}).sample(2, seed=0) == [(1,), (1,)]


def test_a_directed_graph_is_estimated_with_its_ends_two_ways() -> None:
    # A frontier vertex of a digraph that may end a fragment ends it as its first or its
    # last vertex: at the 10x10 grid's busiest step (both arcs, width 11) ten of the
    # eleven may, so 4 ** 10 * 3 / 11 frontiers are estimated, and 10,000 a step is
    # refused up front.
    grid = graphs.grid(10, 10)
    both = {u: list(grid[u]) for u in grid}
    with pytest.raises(TooWideError, match=r"reaches 11 vertices: an estimated 285,975 frontiers"):
        graphs.frontier_count(both, directed=True, max_states=10_000)
    # Undirected, the same width is estimated at 3 ** 11 / 11 = 16,104 and holds 1,413.
    assert graphs.frontier_count(grid, max_states=10_000).count == 467_260_456_608
    # A ring with its even vertices placed first: at the busiest step (11 vertices) only
    # two have a neighbour placed, so 3 ** 9 * 4 ** 2 / 11, not 4 ** 11 / 11.
    ring = {i: [(i + 1) % 20, (i - 1) % 20] for i in range(20)}
    with pytest.raises(TooWideError, match=r"reaches 11 vertices: an estimated 28,629 frontiers"):
        graphs.frontier_count(
            ring, order=[*range(0, 20, 2), *range(1, 20, 2)], directed=True, max_states=100
        )
