"""Planning a parallel run: cutting a search's tree into subtrees (tasks) and
splitting those that Knuth's estimate says are big, so that the workers finish about
together.

A task is ``(prefix, position, state)``: the subtree at ``prefix``, searched from
``position`` on (its root, or where a search under way is) in engine state ``state``.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator
from concurrent.futures import Executor
from typing import NamedTuple

from .search import DONE, ENTER, Search, probe

#: Aim for this many subtrees per worker, so that uneven subtrees even out.
TASKS_PER_WORKER = 8
#: Never split deeper than this when choosing the depth automatically.
MAX_DEPTH = 12
#: Random probes per subtree when looking for subtrees worth splitting further.
PROBES = 12
#: A subtree estimated at more than this many times the average is split one level more.
TOO_BIG = 4.0
#: Trees estimated below this many nodes (well under a second of work) are not probed
#: subtree by subtree: there, the probes would cost more than the unevenness they fix.
SMALL_TREE = 2_000_000
#: ... and are cut, without probing, into at least this many subtrees per worker (a
#: subtree's share of the tree is unknown, so many; but each costs a replay of its
#: prefix: 6x6 closed tours, 2 workers, 80 rounds in turn: 32 gave a median 25.9 ms,
#: 16 24.2 ms, 8 24.5 ms).
SMALL_SPLIT = 16
#: A run that keeps a run file (and may be stopped) cuts its tree finer: into subtrees of
#: about this many nodes by the probes' estimate (a fraction of a second of work each),
#: so that a stop loses at most about one such subtree per worker ...
FINE_NODES = 2**23
#: ... and into at most this many subtrees per worker.
FINE_PER_WORKER = 256

Task = tuple[tuple[int, ...], tuple[int, ...], int]


class Top(NamedTuple):
    """A walk of the tree's top, cut at a depth: the positions it lists (the nodes at
    the cut, and solutions above it), the nodes entered up to and including each, and
    all the nodes it entered (dead ends above the cut too)."""

    found: list[tuple[int, ...]]
    entered: list[int]
    nodes: int


def split_depth(search: Search, tasks: int) -> int:
    """The smallest depth with at least ``tasks`` subtrees, or where every node left is a
    leaf (a level with a single forced choice is not the end of the tree)."""
    return _split(search, tasks)[0]


def _split(search: Search, tasks: int) -> tuple[int, Top]:
    """:func:`split_depth`, and the walk of the tree above it."""
    for depth in range(1, MAX_DEPTH + 1):
        top = _walk_top(search, depth)
        bottom = len(search.prefix) + depth
        if len(top.found) >= tasks or all(len(p) < bottom for p in top.found):
            break
    return depth, top


def _walk_top(search: Search, depth: int) -> Top:
    """``search.subtrees(depth)``, counting the nodes entered on the way (the same walk:
    the subtrees' own counts start at their roots, so the two add up to a plain walk's
    nodes, each node once)."""
    engine = search.problem.engine()
    if not engine.replay(list(search.prefix)):  # checked when the search was made
        raise ValueError(f"subtree prefix {list(search.prefix)} is not a node of this tree")
    engine.floor = len(search.prefix)
    engine.cut_depth = len(search.prefix) + depth
    found: list[tuple[int, ...]] = []
    entered: list[int] = []
    while engine.run(1, 0):
        found.append(tuple(engine.position()))
        entered.append(int(engine.nodes))
    return Top(found, entered, int(engine.nodes))


def remaining_tasks(
    search: Search, depth: int, subtrees: list[tuple[int, ...]] | None = None
) -> list[Task]:
    """(prefix, position, state) for every subtree at ``depth`` that still has work.

    A subtree wholly ahead of the search's position is counted from its root; the one
    the search is inside is counted from the search's position on.  ``subtrees``, if
    given, are ``search.subtrees(depth)``, already found.
    """
    engine = search.engine
    if engine.state == DONE:
        return []
    here = search.position
    state = engine.state
    tasks = []
    for prefix in search.subtrees(depth) if subtrees is None else subtrees:
        if here[: len(prefix)] == prefix:
            tasks.append((prefix, here, state))
        elif prefix > here:
            tasks.append((prefix, prefix, ENTER))
    return tasks


def _remaining(search: Search, depth: int, top: Top) -> tuple[list[Task], int]:
    """:func:`remaining_tasks`, and how many nodes of the ``top`` walk a plain walk from
    the search's position on would still enter besides the tasks' own (a task counts
    its root): all of them but the tasks' roots for a fresh search; for a search under
    way, those after its position (the search's counter has the others)."""
    tasks = remaining_tasks(search, depth, top.found)
    here, state = search.position, search.engine.state
    if state == DONE:
        return tasks, 0
    if here == search.prefix and state == ENTER:
        return tasks, top.nodes - len(top.found)
    cut = len(search.prefix) + depth
    if len(here) > cut:  # inside the first task's subtree: the top's nodes after it
        first = top.found.index(tasks[0][0])
        return tasks, top.nodes - top.entered[first] - (len(top.found) - first - 1)
    # At or above the cut: walk the top on from the search's position.
    rest = Search(search.problem, search.prefix)
    rest.restore(here, state)
    engine = rest.engine
    engine.cut_depth = cut
    listed = 0
    while engine.run(1, 0):
        listed += 1
    return tasks, int(engine.nodes) - listed


def refine(
    search: Search, tasks: list[Task], workers: int, probes: int = PROBES, levels: int = 3
) -> list[Task]:
    """Split the subtrees that Knuth's estimate says are big: more than :data:`TOO_BIG`
    times the average, or more than a quarter of one worker's fair share of the whole
    (the last task to finish delays everyone); keeping the order.  A part still too big
    is split again, down to ``levels`` levels below the tasks' depth.

    Only subtrees not yet started are split; a few random probes each, on one engine.
    """
    return [task for task, _ in _sized_refine(search, tasks, workers, probes, levels)[0]]


def _sized_refine(
    search: Search, tasks: list[Task], workers: int, probes: int = PROBES, levels: int = 3
) -> tuple[list[tuple[Task, float]], int]:
    """:func:`refine`, with each task's estimated size (infinite for a subtree already
    started, whose size is not estimated); and the nodes entered in splitting the tasks
    that are no task's own (a split subtree's root and its dead-end children: a plain
    walk enters them once, and the random probes, which are no part of any walk, not at
    all)."""
    fresh = [i for i, (prefix, position, state) in enumerate(tasks) if position == prefix]
    if len(fresh) < 2:
        return [(task, math.inf) for task in tasks], 0
    engine = search.problem.engine()
    rng = random.Random(0)

    def size(prefix: tuple[int, ...]) -> float:
        return sum(probe(engine, prefix, rng)[0] for _ in range(probes)) / probes

    sizes = {i: size(tasks[i][0]) for i in fresh}
    total = sum(sizes.values())
    limit = min(TOO_BIG * total / len(sizes), total / (4 * workers))

    between = 0  # nodes entered in splitting, that no task counts

    def parts(prefix: tuple[int, ...], estimate: float, left: int) -> Iterator[tuple[Task, float]]:
        nonlocal between
        if estimate <= limit or left == 0:
            yield (prefix, prefix, ENTER), estimate
            return
        top = _walk_top(search.subtree(prefix), 1)
        between += top.nodes - len(top.found)
        for child in top.found:
            yield from parts(child, size(child), left - 1)

    out: list[tuple[Task, float]] = []
    for i, task in enumerate(tasks):
        out.extend(parts(task[0], sizes[i], levels) if i in sizes else [(task, math.inf)])
    return out, between


def plan(
    search: Search,
    workers: int | None,
    executor: Executor | None,
    depth: int | None,
    fine: bool = False,
) -> tuple[int, list[Task], list[float] | None, int]:
    """How many workers, the tasks in the walk's order, their estimated sizes when
    known, and the nodes a plain walk would enter outside the tasks (above the cut:
    see :func:`_remaining`): subtrees at ``depth``, or by default at the depth giving
    :data:`TASKS_PER_WORKER` per worker, big ones split further.  A tree that random
    probes estimate small is cut into :data:`SMALL_SPLIT` subtrees per worker and not
    probed further: there, probing each would cost more than its work.  ``fine`` (a
    run that keeps a run file): a big tree is cut into subtrees of about
    :data:`FINE_NODES` nodes (at most :data:`FINE_PER_WORKER` a worker), so that a
    stop loses little of the work done: only the subtrees under way."""
    if workers is not None and workers < 1:
        raise ValueError(f"parallel search needs workers >= 1, got {workers}")
    n_workers = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    if depth is not None:
        tasks, above = _remaining(search, depth, _walk_top(search, depth))
        return n_workers, tasks, None, above
    engine = search.problem.engine()
    rng = random.Random(0)
    size = sum(probe(engine, search.prefix, rng)[0] for _ in range(PROBES)) / PROBES
    if size < SMALL_TREE:
        depth, top = _split(search, SMALL_SPLIT * n_workers)
        tasks, above = _remaining(search, depth, top)
        return n_workers, tasks, None, above
    per_worker = TASKS_PER_WORKER
    if fine:
        per_worker = int(min(max(per_worker, size / (FINE_NODES * n_workers)), FINE_PER_WORKER))
    depth, top = _split(search, per_worker * n_workers)
    tasks, above = _remaining(search, depth, top)
    sized, between = _sized_refine(search, tasks, n_workers)
    return (
        n_workers,
        [task for task, _ in sized],
        [estimate for _, estimate in sized],
        above + between,
    )
