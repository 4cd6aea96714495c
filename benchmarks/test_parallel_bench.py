"""Parallel counting: the same counts with 1 and 2 worker processes (compare the two rows
of each group; the target is 2 workers in at most 0.6x the wall time of 1 on an idle
2-core machine).  Each benchmark asserts its count.

The helper processes are kept between counts, so the short count is timed after one
warm-up round: the first count of a session also pays about 10 ms to start them.
"""

from __future__ import annotations

from typing import Any

import pytest

from lazysearch import knights
from lazysearch.puzzles import polyomino


@pytest.mark.parametrize("workers", [1, 2])
def test_pentominoes_6x10(benchmark: Any, workers: int) -> None:
    benchmark.group = "parallel: 6x10 pentomino tilings (9356)"

    def run() -> int:
        stream = polyomino.tile(polyomino.rectangle(6, 10), polyomino.PENTOMINOES)
        return stream.count() if workers == 1 else stream.count(workers=workers)

    assert benchmark.pedantic(run, rounds=1, iterations=1) == 9356


@pytest.mark.parametrize("workers", [1, 2])
def test_knights_6x6_closed(benchmark: Any, workers: int) -> None:
    benchmark.group = "parallel: 6x6 closed knight's tours, each cycle once (9862)"
    found = benchmark.pedantic(
        knights.count_closed,
        args=(6,),
        kwargs={"workers": workers},
        rounds=30,
        iterations=1,
        warmup_rounds=1,
    )
    assert found == 9862


@pytest.mark.parametrize("workers", [1, 2])
def test_knights_6x6_all_directed(benchmark: Any, workers: int) -> None:
    benchmark.group = "parallel: 6x6 directed open knight's tours (6,637,920)"
    found = benchmark.pedantic(
        knights.count_tours, args=(6,), kwargs={"workers": workers}, rounds=1, iterations=1
    )
    assert found == 6_637_920
