"""Hamiltonian cycles and paths of graphs: counts by walking (asserted against the
published ones) and the time to the first cycles of large graphs (each checked).

Run:  python -m pytest benchmarks/test_graphs_bench.py --benchmark-group-by=group
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable
from typing import Any

import pytest

from lazysearch import graphs

COUNTS: dict[str, tuple[Callable[[], int], int]] = {
    "6x6 grid cycles (1072)": (lambda: graphs.hamiltonian_cycles(graphs.grid(6, 6)).count(), 1072),
    "6x6 knight graph cycles (9862)": (
        lambda: graphs.hamiltonian_cycles(graphs.leaper(6, 6, (1, 2))).count(),
        9862,
    ),
    "5x5 knight graph paths (864)": (
        lambda: graphs.hamiltonian_paths(graphs.leaper(5, 5, (1, 2))).count(),
        864,
    ),
    "4-cube cycles (1344)": (lambda: graphs.hamiltonian_cycles(graphs.hypercube(4)).count(), 1344),
    "K_9 cycles (20160)": (
        lambda: graphs.hamiltonian_cycles({i: list(range(9)) for i in range(9)}).count(),
        20160,
    ),
}


@pytest.mark.parametrize("name", list(COUNTS))
def test_count(benchmark: Any, name: str) -> None:
    function, expected = COUNTS[name]
    benchmark.group = "graphs: counts"
    assert benchmark.pedantic(function, rounds=5, iterations=1) == expected


def is_cycle(cycle: tuple[Hashable, ...], graph: dict[Any, list[Any]]) -> bool:
    """Every vertex once, each step an edge, and back to the first."""
    if len(cycle) != len(graph) or set(cycle) != set(graph):
        return False
    return all(b in graph[a] for a, b in itertools.pairwise((*cycle, cycle[0])))


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


FIRSTS: dict[str, tuple[Callable[[], dict[Any, list[Any]]], int]] = {
    "first 1,000 cycles of a 10x10 grid": (lambda: graphs.grid(10, 10), 1000),
    "first cycle of a 100x100 grid": (lambda: graphs.grid(100, 100), 1),
    "first cycle of a random cubic graph, 100 vertices": (lambda: cubic(100, 100), 1),
    "first cycle of a random cubic graph, 300 vertices": (lambda: cubic(300, 300), 1),
    "first cycle of a random cubic graph, 1,000 vertices": (lambda: cubic(1000, 1000), 1),
}


@pytest.mark.parametrize("name", list(FIRSTS))
def test_first_cycles(benchmark: Any, name: str) -> None:
    make, k = FIRSTS[name]
    graph = make()
    benchmark.group = "graphs: first cycles"
    found = benchmark.pedantic(
        lambda: graphs.hamiltonian_cycles(graph).take(k), rounds=3, iterations=1
    )
    assert len(found) == k == len(set(found))
    assert all(is_cycle(c, graph) for c in found)


def _both_ways(graph: dict[Any, list[Any]]) -> dict[Any, list[Any]]:
    return {v: list(near) for v, near in graph.items()}


#: Uniform samples (each draw a count of the frontier program per vertex, on the
#: vertices left); the graph's arcs, and whether they are read as directed.
SAMPLES: dict[str, tuple[Callable[[], dict[Any, list[Any]]], bool]] = {
    "2 cycles of the 10x10 grid": (lambda: graphs.grid(10, 10), False),
    "2 cycles of the 6x6 knight graph": (lambda: graphs.leaper(6, 6, (1, 2)), False),
    "2 directed cycles of the 6x6 grid, both arcs": (lambda: _both_ways(graphs.grid(6, 6)), True),
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_samples(benchmark: Any, name: str) -> None:
    make, directed = SAMPLES[name]
    graph = make()
    benchmark.group = "graphs: uniform samples"
    found = benchmark.pedantic(
        lambda: graphs.hamiltonian_cycles(graph, directed=directed).sample(2, seed=1),
        rounds=3,
        iterations=1,
    )
    assert len(found) == 2
    assert all(is_cycle(c, graph) for c in found)
