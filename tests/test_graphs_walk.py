"""The walker's cuts on large sparse graphs: the first cycle of seeded random cubic
graphs within a bound of nodes (no timing: the nodes walked are the same on every
machine), each cycle checked; and counts that the cuts leave as they were."""

from __future__ import annotations

import itertools
import random

import pytest

from lazysearch import graphs


def cubic(n: int, seed: int) -> dict[int, list[int]]:
    """A random simple cubic graph on ``n`` vertices (a random matching of 3n stubs,
    drawn again until it has no loop and no repeated edge)."""
    rng = random.Random(seed)
    while True:
        stubs = [v for v in range(n) for _ in range(3)]
        rng.shuffle(stubs)
        edges = list(zip(stubs[::2], stubs[1::2], strict=True))
        if all(u != v for u, v in edges) and len({frozenset(e) for e in edges}) == len(edges):
            break
    graph: dict[int, list[int]] = {v: [] for v in range(n)}
    for u, v in edges:
        graph[u].append(v)
        graph[v].append(u)
    return graph


def is_cycle(cycle: tuple[int, ...], graph: dict[int, list[int]]) -> bool:
    """Every vertex once, each step an edge, and back to the first."""
    if len(cycle) != len(graph) or set(cycle) != set(graph):
        return False
    return all(b in graph[a] for a, b in itertools.pairwise((*cycle, cycle[0])))


@pytest.mark.parametrize(("n", "seed"), [(100, 100), (300, 300), (300, 301), (300, 302)])
def test_first_cycle_of_random_cubic_graphs(n: int, seed: int) -> None:
    """Without the cuts (two edges forced on a vertex with two left, 2-connectivity of
    what is left), a 300-vertex cubic graph's first cycle took more than 10^8 nodes;
    with them, fewer than 2,000."""
    graph = cubic(n, seed)
    part = graphs.hamiltonian_cycles(graph).take_within(1, nodes=20_000, samples=1)
    assert len(part.solutions) == 1
    assert is_cycle(part.solutions[0], graph)


def test_cuts_leave_counts_and_order() -> None:
    """The cuts drop dead branches only: the same cycles, in the same order."""
    grid = graphs.hamiltonian_cycles(graphs.grid(6, 6))
    first = grid.take(5)
    assert first[0] == graphs.hamiltonian_cycles(graphs.grid(6, 6)).first()
    assert len(first) + grid.count() == 1072
    petersen = [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)]
    petersen += [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    assert graphs.hamiltonian_cycles(petersen).count() == 0
    assert graphs.hamiltonian_paths(petersen).count() == 120  # a brute force over 10! orders
