"""Counting in parallel: split the tree into subtrees, count each, add up.

Any ``concurrent.futures.Executor`` does the work: a ``ProcessPoolExecutor`` on one
machine, or a Dask ``Client.get_executor()`` across many.  Each task carries only the
problem (plain, picklable data) and a position, and rebuilds its own engine.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING

from .search import DONE, ENTER, Search

if TYPE_CHECKING:
    from .search import Problem

#: Aim for this many subtrees per worker, so that uneven subtrees even out.
TASKS_PER_WORKER = 8
#: Never split deeper than this when choosing the depth automatically.
MAX_DEPTH = 12


def count_task(
    problem: Problem, prefix: Sequence[int], position: Sequence[int], state: int
) -> tuple[int, int]:
    """Count the solutions of the subtree at ``prefix`` not yet passed at ``position``.

    Returns the count and the number of nodes entered to find it.
    """
    search = Search(problem, prefix)
    if tuple(position) != tuple(prefix) or state != ENTER:
        search._restore(position, state)
    found = search.count()
    return found, search.stats.nodes


def split_depth(search: Search, tasks: int) -> int:
    """The smallest depth with at least ``tasks`` subtrees (or where the tree stops growing)."""
    previous = -1
    for depth in range(1, MAX_DEPTH + 1):
        n = len(search.subtrees(depth))
        if n >= tasks or n == previous:
            return depth
        previous = n
    return MAX_DEPTH


def remaining_tasks(
    search: Search, depth: int
) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """(prefix, position, state) for every subtree at ``depth`` that still has work.

    A subtree wholly ahead of the search's position is counted from its root; the one
    the search is inside is counted from the search's position on.
    """
    engine = search._engine
    if engine.state == DONE:
        return []
    here = search.position
    state = engine.state
    tasks = []
    for prefix in search.subtrees(depth):
        if here[: len(prefix)] == prefix:
            tasks.append((prefix, here, state))
        elif prefix > here:
            tasks.append((prefix, prefix, ENTER))
    return tasks


def count(
    search: Search,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    depth: int | None = None,
) -> int:
    """Count the solutions ``search`` has left, in parallel; the search is then done.

    Parameters
    ----------
    workers:
        Size of the process pool to start (default: the number of CPUs).  Ignored when
        ``executor`` is given.
    executor:
        Any ``concurrent.futures.Executor``; it is not shut down afterwards.
    depth:
        Split at this depth; by default the smallest depth giving about
        ``TASKS_PER_WORKER`` subtrees per worker.
    """
    if workers is not None and workers < 1:
        raise ValueError(f"count() needs workers >= 1, got {workers}")
    n_workers = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    if depth is None:
        depth = split_depth(search, TASKS_PER_WORKER * n_workers)
    tasks = remaining_tasks(search, depth)
    own = executor is None
    pool: Executor = ProcessPoolExecutor(n_workers) if executor is None else executor
    try:
        futures = [pool.submit(count_task, search.problem, p, pos, st) for p, pos, st in tasks]
        results = [f.result() for f in futures]
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    total = sum(found for found, _ in results)
    search._finish(total, sum(nodes for _, nodes in results))
    return total
