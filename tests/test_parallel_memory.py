"""Memory stays flat: over ten thousand solves in one process, over repeated parallel
counts (the kept helpers and the caller), and through one long parallel count.

tracemalloc counts the Python allocations exactly, so the bounds are deterministic: what
a leak of one object per solve would break (10,000 objects of 16 bytes or more)."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Iterator

import pytest

from lazysearch import compiled, queens

#: Queens counted again and again in parallel, and the long count's: smaller as plain
#: Python (200 counts of queens 9 take 110 s there, 9 s compiled).
REPEATED, LONG = (9, 12) if compiled() else (7, 11)
COUNTS = {7: 40, 9: 352, 11: 2680, 12: 14200}


@pytest.fixture
def traced() -> Iterator[Callable[[], int]]:
    """The bytes Python holds now (after a full collection), while tracing."""

    def now() -> int:
        gc.collect()
        return int(tracemalloc.get_traced_memory()[0])

    tracemalloc.start()
    try:
        yield now
    finally:
        tracemalloc.stop()


def test_ten_thousand_solves_leave_memory_flat(traced: Callable[[], int]) -> None:
    for _ in range(1000):  # caches, interned names and the like settle first
        assert queens(4).count() == 2
    before = traced()
    for _ in range(9000):
        assert queens(4).count() == 2
    grown = traced() - before
    assert grown < 16 * 1024, f"{grown:,} bytes more after 9,000 solves"  # 24-56 measured


def test_repeated_parallel_counts_leave_memory_flat(traced: Callable[[], int]) -> None:
    for _ in range(20):  # the helpers started and kept
        assert queens(REPEATED).count(workers=2) == COUNTS[REPEATED]
    before = traced()
    for _ in range(200):
        assert queens(REPEATED).count(workers=2) == COUNTS[REPEATED]
    grown = traced() - before
    assert grown < 16 * 1024, f"{grown:,} bytes more after 200 parallel counts"  # 32 measured


def _peak(count: Callable[[], int], now: Callable[[], int]) -> int:
    """The most bytes Python held above what it held before, while ``count()`` ran."""
    before = now()
    tracemalloc.reset_peak()
    count()
    peak = int(tracemalloc.get_traced_memory()[1]) - before
    assert now() - before < 64 * 1024  # and gave back after
    return peak


def test_a_long_parallel_count_holds_no_more_than_a_short_one(traced: Callable[[], int]) -> None:
    assert queens(8).count(workers=2) == 92  # the helpers started and kept
    short = _peak(lambda: queens(10).count(workers=2), traced)  # 724 solutions, 35k nodes
    long = _peak(lambda: queens(LONG).count(workers=2), traced)  # 12: 14,200 in 860k nodes
    # measured: 113 KB and 185 KB compiled; 195 KB and 240 KB as plain Python (queens 14,
    # 100 times longer than 12: 305 KB)
    assert long < 2 * short + 256 * 1024, f"{long:,} bytes at the peak, {short:,} for a short one"
