"""Parallel counting over subtrees, with any Executor."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from lazysearch import langford, queens
from lazysearch.parallel import count, remaining_tasks


def test_process_pool_count_matches_sequential() -> None:
    assert queens(9).count(workers=2) == 352


def test_any_executor_works() -> None:
    with ThreadPoolExecutor(3) as pool:
        assert langford(8).count(executor=pool) == 150


@pytest.mark.parametrize("taken", [0, 1, 17, 92])
def test_parallel_count_of_a_started_stream_counts_what_is_left(taken: int) -> None:
    s = queens(8)
    s.take(taken)
    with ThreadPoolExecutor(2) as pool:
        assert s.count(executor=pool) == 92 - taken
    assert s.take(1) == []


@pytest.mark.parametrize("depth", [1, 2, 4, 8])
def test_remaining_tasks_at_any_depth_cover_the_rest(depth: int) -> None:
    s = queens(7)
    s.take(13)
    with ThreadPoolExecutor(2) as pool:
        assert count(s.search, executor=pool, depth=depth) == 40 - 13
    assert remaining_tasks(s.search, depth) == []


def test_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="workers >= 1"):
        queens(5).count(workers=0)
