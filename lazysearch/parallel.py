"""Counting in parallel: split the tree into subtrees, count each, add up.

Any ``concurrent.futures.Executor`` does the work: a ``ProcessPoolExecutor`` on one
machine, or a Dask ``Client.get_executor()`` across many.  Each task carries only the
problem (plain, picklable data) and a position, and rebuilds its own engine.
"""

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from .search import DONE, ENTER, Search, probe

if TYPE_CHECKING:
    from .search import Problem

#: Aim for this many subtrees per worker, so that uneven subtrees even out.
TASKS_PER_WORKER = 8
#: Never split deeper than this when choosing the depth automatically.
MAX_DEPTH = 12
#: Random probes per subtree when looking for subtrees worth splitting further.
PROBES = 12
#: A subtree estimated at more than this many times the average is split one level more.
TOO_BIG = 4.0
#: Trees estimated below this many nodes (well under a second of work) are split into
#: few tasks and not refined: there, each task's round trip costs more than unevenness.
SMALL_TREE = 2_000_000

Task = tuple[tuple[int, ...], tuple[int, ...], int]


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
    """The smallest depth with at least ``tasks`` subtrees, or where every node left is a
    leaf (a level with a single forced choice is not the end of the tree)."""
    for depth in range(1, MAX_DEPTH + 1):
        found = search.subtrees(depth)
        bottom = len(search.prefix) + depth
        if len(found) >= tasks or all(len(p) < bottom for p in found):
            return depth
    return MAX_DEPTH


def remaining_tasks(search: Search, depth: int) -> list[Task]:
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


def refine(search: Search, tasks: list[Task], probes: int = PROBES) -> list[Task]:
    """Split, one level further, the subtrees that Knuth's estimate says are much bigger
    than the rest (more than :data:`TOO_BIG` times the average), keeping the order.

    Only subtrees not yet started are split; a few random probes each, on one engine.
    """
    fresh = [i for i, (prefix, position, state) in enumerate(tasks) if position == prefix]
    if len(fresh) < 2:
        return tasks
    engine = search.problem.engine()
    rng = random.Random(0)
    sizes = {}
    for i in fresh:
        prefix = tasks[i][0]
        sizes[i] = sum(probe(engine, prefix, rng)[0] for _ in range(probes)) / probes
    average = sum(sizes.values()) / len(sizes)
    out: list[Task] = []
    for i, task in enumerate(tasks):
        if i in sizes and sizes[i] > TOO_BIG * average:
            children = search.subtree(task[0]).subtrees(1)
            out.extend((child, child, ENTER) for child in children)
        else:
            out.append(task)
    return out


def _plan(
    search: Search, workers: int | None, executor: Executor | None, depth: int | None
) -> tuple[int, list[Task]]:
    """How many workers, and the tasks: subtrees at ``depth``, or by default at the
    depth giving :data:`TASKS_PER_WORKER` per worker, big ones split further.  A tree
    that random probes estimate small gets only two tasks per worker: every task costs
    a round trip to a process, which on a tree of a few milliseconds is the whole bill."""
    if workers is not None and workers < 1:
        raise ValueError(f"parallel search needs workers >= 1, got {workers}")
    n_workers = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    if depth is not None:
        return n_workers, remaining_tasks(search, depth)
    engine = search.problem.engine()
    rng = random.Random(0)
    size = sum(probe(engine, search.prefix, rng)[0] for _ in range(PROBES)) / PROBES
    if size < SMALL_TREE:
        return n_workers, remaining_tasks(search, split_depth(search, 2 * n_workers))
    depth = split_depth(search, TASKS_PER_WORKER * n_workers)
    return n_workers, refine(search, remaining_tasks(search, depth))


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
        :data:`TASKS_PER_WORKER` subtrees per worker, and then the subtrees that a few
        random probes estimate much bigger than the rest split one level more
        (:func:`refine`).
    """
    n_workers, tasks = _plan(search, workers, executor, depth)
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


def solutions_task(
    problem: Problem, prefix: Sequence[int], position: Sequence[int], state: int
) -> tuple[list[tuple[Any, ...]], int]:
    """The raw solutions of the subtree at ``prefix`` not yet passed at ``position``, and
    the number of nodes entered to find them."""
    search = Search(problem, prefix)
    if tuple(position) != tuple(prefix) or state != ENTER:
        search._restore(position, state)
    found = list(search)
    return found, search.stats.nodes


def iterate(
    search: Search,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    depth: int | None = None,
) -> Iterator[tuple[Any, ...]]:
    """The raw solutions ``search`` has left, found in parallel and yielded in the order a
    plain walk would yield them (subtree after subtree, each in its own order).

    At most two tasks per worker are in flight beyond the one being read, so a consumer
    that stops early leaves little work behind.  Reading to the end marks the search
    done; stopping early leaves it where it was (use a fresh stream afterwards).
    """
    n_workers, tasks = _plan(search, workers, executor, depth)
    own = executor is None
    pool: Executor = ProcessPoolExecutor(n_workers) if executor is None else executor
    window = 2 * n_workers + 1
    pending: deque[Future[tuple[list[tuple[Any, ...]], int]]] = deque()
    queue = iter(tasks)

    def submit_next() -> None:
        task = next(queue, None)
        if task is not None:
            pending.append(pool.submit(solutions_task, search.problem, *task))

    found = nodes = 0
    try:
        for _ in range(window):
            submit_next()
        while pending:
            solutions, spent = pending.popleft().result()
            submit_next()
            found += len(solutions)
            nodes += spent
            yield from solutions
        search._finish(found, nodes)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
