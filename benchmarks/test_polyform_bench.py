"""Polyforms on other grids (issue 20): the Soma cube, the Bedlam cube, solid pentomino
boxes and hexiamond parallelograms.

Run:  python -m pytest benchmarks/test_polyform_bench.py --benchmark-group-by=group
Every benchmark asserts the count it timed (published values: see
tests/test_polyomino_grids.py).  Targets (compiled): every Soma cube solution and the
240 classes, each under 0.5 s; the Bedlam cube's 19,186 classes counted under 60 s (one
run, loaded machine: 23.9 s, 10.2 s of CPU, 32.8M nodes, branching on the cell the fewest
placements cover; the fixed fill order took 84.2 s, 33.9 s of CPU, 536.6M nodes).  The
boxes that take minutes run only with LAZYSEARCH_SLOW_BENCH=1.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from lazysearch.puzzles.polyomino import (
    BEDLAM,
    HEXIAMONDS,
    PENTOMINOES,
    SOMA,
    box,
    parallelogram,
    solid,
    tile,
)

slow = pytest.mark.skipif(
    not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
    reason="minutes each: set LAZYSEARCH_SLOW_BENCH=1",
)


@pytest.mark.parametrize(("distinct", "count"), [(False, 11520), (True, 240)])
def test_soma_cube(benchmark: Any, distinct: bool, count: int) -> None:
    """The Soma cube, the pieces turned but not mirrored; the problem built in the timing."""
    benchmark.group = "polycubes, Soma cube 3x3x3"
    found = benchmark.pedantic(
        lambda: tile(box(3, 3, 3), SOMA, reflect=False, distinct=distinct).count(),
        rounds=5,
        iterations=1,
    )
    assert found == count


def test_solid_pentominoes_2x3x10(benchmark: Any) -> None:
    benchmark.group = "polycubes, solid pentominoes"
    pieces = solid(PENTOMINOES)
    found = benchmark.pedantic(
        lambda: tile(box(2, 3, 10), pieces, distinct=True).count(), rounds=3, iterations=1
    )
    assert found == 12


@slow
@pytest.mark.parametrize(("sides", "count"), [((2, 5, 6), 264), ((3, 4, 5), 3940)])
def test_solid_pentomino_boxes(benchmark: Any, sides: tuple[int, int, int], count: int) -> None:
    benchmark.group = "polycubes, solid pentominoes"
    pieces = solid(PENTOMINOES)
    found = benchmark.pedantic(
        lambda: tile(box(*sides), pieces, distinct=True).count(), rounds=1, iterations=1
    )
    assert found == count


def test_bedlam_cube(benchmark: Any) -> None:
    """The Bedlam cube's classes under the cube's rotations (its pieces are not mirror
    closed, so no reflection maps a solution onto one); ``extra_info['nodes']``."""
    benchmark.group = "polycubes, Bedlam cube 4x4x4"
    stream = tile(box(4, 4, 4), BEDLAM, reflect=False, distinct=True)
    found = benchmark.pedantic(stream.count, rounds=1, iterations=1)
    benchmark.extra_info["nodes"] = stream.search.stats.nodes
    assert found == 19186


@pytest.mark.parametrize(("rows", "cols", "count"), [(4, 9, 74), (6, 6, 156)])
def test_hexiamond_parallelograms(benchmark: Any, rows: int, cols: int, count: int) -> None:
    """72 triangles: more than 64 cells, so dancing links."""
    benchmark.group = "polyiamonds, hexiamond parallelograms"
    found = benchmark.pedantic(
        lambda: tile(parallelogram(rows, cols, "triangle"), HEXIAMONDS, distinct=True).count(),
        rounds=3,
        iterations=1,
    )
    assert found == count
