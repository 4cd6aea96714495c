"""The memo walk that records the diagram against the one that only counts, and the
diagram's samples.

Run:  python -m pytest benchmarks/test_diagram_bench.py --benchmark-group-by=group
Every benchmark asserts the count it timed; nodes and edges go in extra_info.
"""

from __future__ import annotations

from typing import Any

import pytest

import lazysearch
from lazysearch import sudoku
from lazysearch.puzzles.polyomino import piece, rectangle, tile

DOMINO = piece("D", "DD")

# 12x12: OEIS A004003.  12x16: what count(method="memo") gives (tests/test_memo.py checks
# the memo count against enumeration and the published counts where they exist).
DOMINOES = {(12, 12): 53060477521960000, (12, 16): 35457442115448212075033}


@pytest.mark.parametrize("shape", sorted(DOMINOES))
@pytest.mark.parametrize("kind", ["count", "diagram"])
def test_count_or_diagram(benchmark: Any, shape: tuple[int, int], kind: str) -> None:
    """``count(method="memo")`` or ``diagram()`` of the domino tilings of a rectangle, the
    board built in the timing."""
    rows, cols = shape

    def run() -> int:
        stream = tile(rectangle(rows, cols), [DOMINO], copies={"D": None})
        if kind == "count":
            return stream.count(method="memo")
        d = stream.diagram()
        benchmark.extra_info["nodes"] = d.size
        benchmark.extra_info["edges"] = d.edges
        return d.count()

    benchmark.group = f"diagram, dominoes {rows}x{cols}: count or record"
    assert benchmark.pedantic(run, rounds=5, iterations=1) == DOMINOES[shape]
    benchmark.extra_info["compiled"] = lazysearch.compiled()


@pytest.mark.parametrize("k", [1000])
def test_samples(benchmark: Any, k: int) -> None:
    """``sample(k)`` on built diagrams: the 12x16 dominoes and the 288 4x4 sudoku grids."""
    tilings = tile(rectangle(12, 16), [DOMINO], copies={"D": None}).diagram()
    grids = sudoku.solve("." * 16).diagram()

    def run() -> int:
        return len(tilings.sample(k, seed=1)) + len(grids.sample(k, seed=1))

    benchmark.group = "diagram, samples"
    assert benchmark.pedantic(run, rounds=5, iterations=1) == 2 * k
