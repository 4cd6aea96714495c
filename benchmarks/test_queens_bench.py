"""N-queens benchmarks: the first placement of large boards, build included (every
placement checked by the verifier), and the build alone against the labelled cover.

Run:  python -m pytest benchmarks/test_queens_bench.py --benchmark-group-by=group
(with LAZYSEARCH_PURE=1 for plain Python, on the small boards: -k "50 or 100").
"""

from __future__ import annotations

from typing import Any

import pytest

import lazysearch
from lazysearch import queens
from lazysearch.puzzles.queens import queens_problem, queens_search_problem, verify
from lazysearch.search import Search


@pytest.mark.parametrize("n", [50, 100, 200, 500, 1000, 2000])
def test_first_placement(benchmark: Any, n: int) -> None:
    """``queens(n).first()`` from nothing: items, options, engine, the race, the search."""
    if n >= 500 and not lazysearch.compiled():
        pytest.skip("plain Python: minutes on 500 queens and up")
    stats: list[Any] = []

    def first() -> tuple[int, ...]:
        stream = queens(n)
        placement = stream.first()
        stats.append(stream.search.stats)
        return placement

    benchmark.group = "queens, first placement"
    placement = benchmark.pedantic(first, rounds=1 if n >= 2000 else 3, iterations=1)
    verify(n, placement)
    benchmark.extra_info["compiled"] = lazysearch.compiled()
    benchmark.extra_info["nodes"] = stats[-1].nodes


@pytest.mark.parametrize("build", ["numbered", "labelled"])
def test_build_300_queens(benchmark: Any, build: str) -> None:
    """The search of 300 queens (90,000 options) up to its engine, numbered as queens()
    builds it now, or labelled (``queens_problem``) and numbered from the labels, as
    queens() built it before."""
    make = {
        "numbered": lambda: Search(queens_search_problem(300)),
        "labelled": lambda: Search(queens_problem(300).problem),
    }
    benchmark.group = "queens, build 300"
    search = benchmark.pedantic(make[build], rounds=3, iterations=1)
    assert search.stats.nodes == 0 and not search.done
