"""Counting in parallel: split the tree into subtrees, count each, add up.

Any ``concurrent.futures.Executor`` does the work: a ``ProcessPoolExecutor`` on one
machine, or a Dask ``Client.get_executor()`` across many.  Each task carries only the
problem (plain, picklable data) and a position, and rebuilds its own engine.

With ``workers=N`` and no executor, the calling process is one of the N: it counts
subtrees itself beside N - 1 helper processes, which are kept for later calls (started
once, stopped at exit), so a count of a few milliseconds is not swamped by starting
processes (:mod:`lazysearch._helpers`).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, NamedTuple

from . import _helpers
from .errors import LazysearchError
from .search import DONE, ENTER, Search, probe

if TYPE_CHECKING:
    from . import longrun
    from .search import Partial, Problem

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
#: An executor's count is sent in about this many batches of subtrees per worker
#: (interleaved, so each batch holds big and small ones): few round trips, yet some left
#: to even out at the end.
BATCHES_PER_WORKER = 8
#: A listing's pool of processes is replaced when one of them is killed, up to this many
#: times in a row (without a subtree read in between); then the listing fails.
MAX_BROKEN_POOLS = 3
#: A listing's task hands back at most this many solutions of its subtree, and the rest
#: of the subtree is searched next as a task of its own: so a huge subtree is never held
#: whole in memory (``queens 20`` printed nothing for a minute), and its solutions
#: stream out piece by piece, in order.
PIECE = 4096

Task = tuple[tuple[int, ...], tuple[int, ...], int]


class _Top(NamedTuple):
    """A walk of the tree's top, cut at a depth: the positions it lists (the nodes at
    the cut, and solutions above it), the nodes entered up to and including each, and
    all the nodes it entered (dead ends above the cut too)."""

    found: list[tuple[int, ...]]
    entered: list[int]
    nodes: int


class WorkerLostWarning(RuntimeWarning):
    """A process counting or listing subtrees died (killed from outside); its unfinished
    subtrees were searched again by another, so the result is still exact."""


def _lost(what: str) -> None:
    import warnings

    warnings.warn(what, WorkerLostWarning, stacklevel=3)


def _count_beside_helpers(
    problem: Problem,
    tasks: list[Task],
    size: int,
    finished: Callable[[int, int, int], None] | None = None,
    interrupt: Callable[[], None] | None = None,
) -> list[tuple[int, int]]:
    """Count ``tasks`` in the calling process and ``size`` kept helper processes: each
    takes the next subtree no one has taken yet until none is left (see
    :func:`lazysearch._helpers.claimed`), so nobody waits to be given work and the last
    to finish is at most one subtree behind.

    Every subtree's count is known as it finishes (helpers :func:`report` each one):
    ``finished(index, found, nodes)`` is called for each, in the caller, between the
    caller's own subtrees.  A helper killed meanwhile loses only what it had not
    reported: those subtrees are counted again in the caller (a
    :class:`WorkerLostWarning` says so), so the total is exact.

    ``interrupt()`` is called every few milliseconds of the caller's own counting and
    while it waits for the helpers; it may raise (Ctrl-C), and the helpers are stopped.
    """
    if size == 0 or len(tasks) < 2:
        results = []
        one: Search | None = None
        for i, task in enumerate(tasks):
            found, nodes, one = _count_one(problem, task, one, interrupt)
            if finished is not None:
                finished(i, found, nodes)
            results.append((found, nodes))
        return results
    done: dict[int, tuple[int, int]] = {}

    def part(value: tuple[int, int, int]) -> None:
        i, found, nodes = value
        done[i] = (found, nodes)
        if finished is not None:
            finished(i, found, nodes)

    team = _start_team(problem, tasks, size)
    try:
        search: Search | None = None
        lost = False
        try:
            for i, task in _helpers.claimed_indexed(tasks, team.counter):
                found, nodes, search = _count_one(problem, task, search, interrupt)
                part((i, found, nodes))
                team.poll(part)
        except _helpers.CounterLost:
            lost = True  # a helper died holding the counter: the rest is counted below
        dead = team.drain(lambda answer: None, part, interrupt)
        left = [i for i in range(len(tasks)) if i not in done]
        if dead or left or lost:
            who = f"{len(dead)} helper processes" if len(dead) > 1 else "a helper process"
            _lost(
                f"{who} died (killed from outside?); the {len(left)} subtree"
                f"{'' if len(left) == 1 else 's'} it had not finished counted again by the "
                "caller, so the count is exact"
            )
            for i in left:
                found, nodes, search = _count_one(problem, tasks[i], search, interrupt)
                part((i, found, nodes))
            team.close()
        else:
            team.share(None)  # the helpers need not hold the problem until the next count
            _helpers.put_back(team)
    except BaseException:
        team.close()
        raise
    return list(done.values())


def _start_team(problem: Problem, tasks: list[Task], size: int) -> _helpers.Helpers:
    """``size`` kept helpers set to count ``tasks`` of ``problem``; a kept team of which
    one died since (between the check and the first message) is replaced, once."""
    for attempt in (1, 2):
        team = _helpers.helpers(size)
        try:
            team.share(problem)
            team.start(_count_claimed, tasks)
            return team
        except _helpers.HelperDied:
            team.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _count_one(
    problem: Problem,
    task: Task,
    search: Search | None,
    interrupt: Callable[[], None] | None = None,
) -> tuple[int, int, Search]:
    """Count one subtree, reusing ``search``'s engine when there is one; ``interrupt()``
    every chunk of work (a few milliseconds)."""
    prefix, position, state = task
    if search is None:
        search = Search(problem, prefix)
    else:
        search._move_to(prefix)
    if tuple(position) != tuple(prefix) or state != ENTER:
        search._restore(position, state)
    found = search.count(None if interrupt is None else lambda _: interrupt())
    return found, search.stats.nodes, search


def _count_claimed(problem: Problem, tasks: list[Task]) -> None:
    """In a helper: count the subtrees of ``tasks`` it takes before the others do,
    reporting each as it finishes (its index, count and nodes)."""
    search: Search | None = None
    try:
        for i, task in _helpers.claimed_indexed(tasks):
            found, nodes, search = _count_one(problem, task, search)
            _helpers.report((i, found, nodes))
    except _helpers.CounterLost:
        return  # the caller counts what is left


def count_task(problem: Problem, tasks: Iterable[Task]) -> tuple[int, int]:
    """Count the solutions of each subtree ``(prefix, position, state)`` of ``tasks``
    not yet passed at its position; returns the total and the nodes entered to find it."""
    found = nodes = 0
    search: Search | None = None
    for prefix, position, state in tasks:
        if search is None:
            search = Search(problem, prefix)
        else:
            search._move_to(prefix)
        if tuple(position) != tuple(prefix) or state != ENTER:
            search._restore(position, state)
        found += search.count()
        nodes += search.stats.nodes
    return found, nodes


def split_depth(search: Search, tasks: int) -> int:
    """The smallest depth with at least ``tasks`` subtrees, or where every node left is a
    leaf (a level with a single forced choice is not the end of the tree)."""
    return _split(search, tasks)[0]


def _split(search: Search, tasks: int) -> tuple[int, _Top]:
    """:func:`split_depth`, and the walk of the tree above it."""
    for depth in range(1, MAX_DEPTH + 1):
        top = _walk_top(search, depth)
        bottom = len(search.prefix) + depth
        if len(top.found) >= tasks or all(len(p) < bottom for p in top.found):
            break
    return depth, top


def _walk_top(search: Search, depth: int) -> _Top:
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
    return _Top(found, entered, int(engine.nodes))


def remaining_tasks(
    search: Search, depth: int, subtrees: list[tuple[int, ...]] | None = None
) -> list[Task]:
    """(prefix, position, state) for every subtree at ``depth`` that still has work.

    A subtree wholly ahead of the search's position is counted from its root; the one
    the search is inside is counted from the search's position on.  ``subtrees``, if
    given, are ``search.subtrees(depth)``, already found.
    """
    engine = search._engine
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


def _remaining(search: Search, depth: int, top: _Top) -> tuple[list[Task], int]:
    """:func:`remaining_tasks`, and how many nodes of the ``top`` walk a plain walk from
    the search's position on would still enter besides the tasks' own (a task counts
    its root): all of them but the tasks' roots for a fresh search; for a search under
    way, those after its position (the search's counter has the others)."""
    tasks = remaining_tasks(search, depth, top.found)
    here, state = search.position, search._engine.state
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
    rest._restore(here, state)
    engine = rest._engine
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


def _plan(
    search: Search, workers: int | None, executor: Executor | None, depth: int | None
) -> tuple[int, list[Task], list[float] | None, int]:
    """How many workers, the tasks in the walk's order, their estimated sizes when
    known, and the nodes a plain walk would enter outside the tasks (above the cut:
    see :func:`_remaining`): subtrees at ``depth``, or by default at the depth giving
    :data:`TASKS_PER_WORKER` per worker, big ones split further.  A tree that random
    probes estimate small is cut into :data:`SMALL_SPLIT` subtrees per worker and not
    probed further: there, probing each would cost more than its work."""
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
    depth, top = _split(search, TASKS_PER_WORKER * n_workers)
    tasks, above = _remaining(search, depth, top)
    sized, between = _sized_refine(search, tasks, n_workers)
    return (
        n_workers,
        [task for task, _ in sized],
        [estimate for _, estimate in sized],
        above + between,
    )


def count(
    search: Search,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    depth: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
    every: float | None = None,
    stop: Callable[[], bool] | None = None,
    command: str = "library",
    deadline: float | None = None,
    nodes: int | None = None,
) -> int:
    """Count the solutions ``search`` has left, in parallel; the search is then done.

    Parameters
    ----------
    workers:
        How many processes count, the caller included (default: the number of CPUs);
        the other ``workers - 1`` are helper processes kept for later calls
        (:mod:`lazysearch._helpers`).
        Ignored when ``executor`` is given.
    executor:
        Any ``concurrent.futures.Executor``; it does all the counting, and is not shut
        down afterwards.
    depth:
        Split at this depth; by default the smallest depth giving about
        :data:`TASKS_PER_WORKER` subtrees per worker, and then the subtrees that a few
        random probes estimate big split further (:func:`refine`).
    checkpoint:
        A run file to keep the plan (the subtrees) and each finished subtree's count
        in, written atomically every ``every`` seconds (default 5) as subtrees finish
        and at the end (:class:`lazysearch.longrun.PlanFile`).
    resume:
        A run file to go on from: of a parallel count (only its unfinished subtrees are
        counted, with any number of workers) or of a one-process run (the rest of it is
        planned anew); or its record as a dict (a :class:`OutOfBudget`'s ``record``, a
        :func:`count_within`'s ``checkpoint``).  ``search`` must be fresh: it is moved
        to the file's start.
    stop:
        Asked after each subtree the caller sees finish; when true, the run file is
        written and :class:`lazysearch.longrun.Stop` raised (Ctrl-C on the command line).
    command:
        Recorded in the run file, and checked when resuming from it.
    deadline, nodes:
        A budget: when ``time.monotonic()`` has passed ``deadline``, or the subtrees
        finished in this call have entered ``nodes`` nodes or more, looked at as
        subtrees finish (so a run may go on past it by the subtrees under way), the
        run file is written and :class:`lazysearch.longrun.OutOfBudget` raised with
        the limit reached, the solutions of the finished subtrees, and how many of the
        plan's subtrees are finished and planned.

    Returns the count of what ``search`` had left (with ``resume``: what it had left at
    the start of the run the file began).
    """
    return _count(
        search,
        workers=workers,
        executor=executor,
        depth=depth,
        checkpoint=checkpoint,
        resume=resume,
        every=every,
        stop=stop,
        command=command,
        deadline=deadline,
        nodes=nodes,
    )[0]


def _count(
    search: Search,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    depth: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
    every: float | None = None,
    stop: Callable[[], bool] | None = None,
    command: str = "library",
    deadline: float | None = None,
    nodes: int | None = None,
    saved: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[int, longrun.PlanFile | None]:
    """:func:`count`, and its plan (None for a count in one process without one);
    ``saved(record)`` is called with the run record each time it is saved (a count of
    knight's tours keeps it inside its own checkpoint)."""
    from . import longrun

    every = longrun.DEFAULT_EVERY if every is None else every
    plan: longrun.PlanFile | None = None
    if resume is not None:
        if isinstance(resume, dict):
            record = longrun.check_run(resume, "run record", command=command, mode="count")
            record = json.loads(json.dumps(record))  # its own copy, to keep the plan in
        else:
            record = longrun.load(resume, command=command, mode="count")
        _become(search, search.resume(record["search"]))
        if "plan" in record:
            plan = longrun.PlanFile(os.fspath(checkpoint) if checkpoint else None, record, every)
            plan.saved = saved
    if plan is None:
        one = workers == 1 and executor is None and depth is None and checkpoint is None
        if one and deadline is None and nodes is None:
            return search.count(), None
        n_workers, tasks, sizes, above = _plan(search, workers, executor, depth)
        if sizes is not None:  # biggest first, so that the last tasks to finish are small
            order = sorted(range(len(tasks)), key=lambda i: -sizes[i])
            tasks = [tasks[i] for i in order]
        path = os.fspath(checkpoint) if checkpoint is not None else None
        plan = longrun.PlanFile.new(path, search, tasks, above, command=command, every=every)
        plan.saved = saved
        plan.save()
    else:
        if workers is not None and workers < 1:
            raise ValueError(f"parallel search needs workers >= 1, got {workers}")
        n_workers = workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    left = plan.left()
    tasks = [plan.tasks[i] for i in left]

    spent = 0  # nodes of the subtrees finished in this call

    def finished(j: int, found: int, entered: int) -> None:
        nonlocal spent
        plan.finished(left[j], found, entered)
        spent += entered
        if stop is not None and stop():
            plan.save()
            raise longrun.Stop(plan.record["found"])
        which = None
        if deadline is not None and time.monotonic() >= deadline:
            which = "time limit"
        elif nodes is not None and spent >= nodes:
            which = "node limit"
        if which is not None and len(plan.done) < len(plan.tasks):
            plan.save()
            out = longrun.OutOfBudget(
                which, plan.record["found"], len(plan.done), len(plan.tasks), spent
            )
            out.record = plan.record
            raise out

    def interrupt() -> None:
        if stop is not None and stop():  # Ctrl-C: at once, not when a subtree finishes
            plan.save()
            raise longrun.Stop(plan.record["found"])

    try:
        if executor is not None:
            _count_on(executor, search.problem, tasks, n_workers, finished, interrupt)
        else:
            _count_beside_helpers(search.problem, tasks, n_workers - 1, finished, interrupt)
    except BaseException:
        plan.save()  # what finished is kept, to go on from
        raise
    plan.save()
    total = sum(found for found, _ in plan.done.values())
    search._finish(total, plan.above + sum(nodes for _, nodes in plan.done.values()))
    return total, plan


def count_within(
    search: Search,
    seconds: float | None = None,
    nodes: int | None = None,
    samples: int = 1000,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
) -> Partial:
    """Count in parallel for at most ``seconds`` and ``nodes`` nodes, then stop: a
    :class:`~lazysearch.search.Partial` whose ``checkpoint`` is the run record (the
    plan and the finished subtrees), to go on with ``resume=`` (any number of workers).

    >>> from lazysearch import queens
    >>> part = count_within(queens(10).search, nodes=3000, workers=2)
    >>> part.done, part.found < 724
    (False, True)
    >>> rest = count_within(queens(10).search, workers=3, resume=part.checkpoint)
    >>> rest.done, part.found + rest.found
    (True, 724)

    The budget is looked at as subtrees finish (see :func:`count`), so a call goes on
    past it by the subtrees under way, and finishes at least one.  ``found`` is what
    this call counted; ``progress`` the fraction of the plan's subtrees finished (each
    weighing the same, so rough); ``rest`` Knuth's estimate of the whole tree's
    solutions from ``samples`` seeded probes times the fraction not finished.
    ``checkpoint`` (a path) also keeps the run file.

    Raises
    ------
    ValueError
        For a negative or not finite ``seconds``, ``nodes`` < 1, or ``workers`` < 1.
    CheckpointError
        For a ``resume`` record of another problem, or damaged.
    """
    from . import longrun
    from .search import Partial

    if seconds is not None and not 0 <= seconds < math.inf:
        raise ValueError(f"count_within() needs seconds >= 0, got {seconds!r}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"count_within() needs nodes >= 1, got {nodes!r}")
    if workers is not None and workers < 1:
        raise ValueError(f"parallel search needs workers >= 1, got {workers}")
    before = 0  # the solutions of the plan's subtrees finished before this call
    if resume is not None:
        if isinstance(resume, dict):
            given = longrun.check_run(resume, "run record", command="library", mode="count")
        else:
            given = longrun.load(resume, command="library", mode="count")
        before = int(given["found"]) if "plan" in given else 0
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        total, plan_file = _count(
            search,
            workers=workers,
            executor=executor,
            checkpoint=checkpoint,
            resume=resume,
            deadline=deadline,
            nodes=nodes,
        )
    except longrun.OutOfBudget as out:
        if out.record is None:
            raise
        record = out.record
    else:
        if plan_file is None:  # one process, no run file: its search's own record
            finished = longrun.run_record(search, command="library", mode="count", found=total)
        else:
            finished = plan_file.record
        return Partial(total - before, True, 1.0, 0.0, finished)
    plan = record["plan"]
    walked = len(plan["done"]) / max(1, len(plan["tasks"]))
    rest = search.estimate(samples, seed=0).solutions * (1.0 - walked)
    return Partial(int(record["found"]) - before, False, walked, rest, record)


def _become(search: Search, other: Search) -> None:
    """Make ``search`` (fresh) the search ``other`` is: the same subtree and place."""
    search._prefix = other._prefix
    search._engine = other._engine
    search._progress = 0.0


def _count_on(
    executor: Executor,
    problem: Problem,
    tasks: list[Task],
    n_workers: int,
    finished: Callable[[int, int, int], None],
    interrupt: Callable[[], None] | None = None,
) -> None:
    """Count ``tasks`` on ``executor``, ``finished(index, found, nodes)`` for each as its
    batch comes back (a batch's count is given to its first subtree, 0 to the others);
    ``interrupt()`` every :data:`LOOK_EVERY_STOP` seconds while waiting."""
    from concurrent.futures import FIRST_COMPLETED, wait

    if len(tasks) >= SMALL_SPLIT * n_workers:
        # many small ones: a round trip for each would cost more than its work
        n_batches = BATCHES_PER_WORKER * n_workers
        batches = [list(range(len(tasks)))[b::n_batches] for b in range(n_batches)]
    else:
        batches = [[i] for i in range(len(tasks))]
    batches = [batch for batch in batches if batch]
    futures = {
        executor.submit(count_task, problem, [tasks[i] for i in batch]): batch for batch in batches
    }
    alive = _Liveness(executor)
    try:
        lost: list[BaseException] = []
        pending = set(futures)
        looked = time.monotonic()
        while pending:
            ready, pending = wait(pending, timeout=LOOK_EVERY_STOP, return_when=FIRST_COMPLETED)
            if interrupt is not None:
                interrupt()
            if not ready and alive.gone():  # (see _Liveness.gone)
                from concurrent.futures import CancelledError

                lost.extend(CancelledError("the client lost its scheduler") for _ in pending)
                break
            if not ready:
                if time.monotonic() - looked >= LOOK_EVERY:
                    alive.check(len(pending), len(futures))
                    looked = time.monotonic()
                continue
            for future in ready:
                try:
                    found, nodes = future.result()
                except LazysearchError:
                    raise
                except Exception as exc:  # the cluster lost it (a scheduler gone):
                    lost.append(exc)  # the others may still come back, and are kept
                    continue
                _finish_batch(finished, futures[future], found, nodes)
        if lost:
            first = lost[0]
            reason = f"{first}" or "no reason given"
            if alive.client is not None and all(_cancelled(exc) for exc in lost):
                reason = (
                    "the Dask scheduler is gone or dropped this client, and every task it "
                    "held was cancelled"
                )
            why = f"{type(first).__name__}: {reason}"
            raise LazysearchError(
                f"the executor lost {len(lost)} of {len(futures)} batches of subtrees "
                f"({why}); the subtrees that finished are kept in the run file, if there "
                "is one (--resume)"
            )
    finally:
        for future in futures:
            future.cancel()


def _finish_batch(
    finished: Callable[[int, int, int], None], batch: list[int], found: int, nodes: int
) -> None:
    """``finished()`` for each subtree of a batch that came back (its count given to the
    first), all of them before a stop or a budget that one of the calls raises goes on
    (the first raised): else a run file could hold the batch's count with only part of
    its subtrees done, and a resumed run count the others again (an executor's count
    stopped at a node limit and resumed counted 2,893 11-queens instead of 2,680)."""
    raised: BaseException | None = None
    for k, i in enumerate(batch):
        try:
            finished(i, found, nodes) if k == 0 else finished(i, 0, 0)
        except BaseException as exc:
            raised = raised or exc
    if raised is not None:
        raise raised


#: Seconds between looks at a cluster's workers while a count waits on it.
LOOK_EVERY = 1.0
#: Seconds a Dask cluster may have no worker at all (all killed, none restarted) before
#: a count on it fails, rather than wait for ever: a nanny restarts a killed worker in a
#: few seconds, and a cluster being scaled up may start empty.
NO_WORKERS_GRACE = 30.0


def _cancelled(exc: BaseException) -> bool:
    from concurrent.futures import CancelledError

    return isinstance(exc, CancelledError) or "Cancelled" in type(exc).__name__


class _Liveness:
    """Whether the cluster behind an executor still has workers (for a Dask
    ``Client.get_executor()``, whose client it asks; other executors are trusted: a
    process pool breaks, and says so, when its processes die)."""

    def __init__(self, executor: Executor) -> None:
        self.client: Any = getattr(executor, "_client", None)
        self.since: float | None = None  # when the cluster was first seen without workers
        self.address = getattr(getattr(self.client, "scheduler", None), "address", None)

    def gone(self) -> bool:
        """Whether the client has lost its scheduler: Dask then cancels every task it
        held, but a piece whose result was being fetched as the scheduler died is never
        settled (Dask's cascade to the executor's future fails), and the client tries
        to reconnect for as long as its timeout; so this is asked while waiting."""
        return self.client is not None and getattr(self.client, "status", "running") not in (
            "running",
            "newly-created",
        )

    def check(
        self,
        pending: int,
        total: int,
        waiting: str = "batches of subtrees not counted; the subtrees that finished are",
    ) -> None:
        """Raise :class:`LazysearchError` when the cluster has had no worker for
        :data:`NO_WORKERS_GRACE` seconds while ``pending`` of ``total`` batches wait
        (``waiting`` says what they are, and what the run file keeps)."""
        if self.client is None:
            return
        if self.gone():
            return  # the scheduler lost: said by gone()
        try:
            # Not longer than a look: a scheduler just killed is reconnected to for as
            # long as the client's timeout (60 s in a test), while its futures are
            # cancelled at once, which the caller would not see meanwhile.
            workers = len(self.client.nthreads(callback_timeout=LOOK_EVERY))
        except Exception:  # the scheduler unreachable: its futures say so when cancelled
            return
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        elif now - self.since >= NO_WORKERS_GRACE:
            where = f" at {self.address}" if self.address else ""
            raise LazysearchError(
                f"the Dask cluster{where} has had no worker for {NO_WORKERS_GRACE:g} s "
                f"(all killed or gone), with {pending} of {total} {waiting} kept in the "
                "run file, if "
                "there is one (--resume on a cluster with workers)"
            )


def _own_pool(n_workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers end with the caller, whatever kills it
    (:func:`lazysearch._helpers.watch_parent`)."""
    import threading

    main = threading.current_thread() is threading.main_thread()
    return ProcessPoolExecutor(n_workers, initializer=_pool_worker, initargs=(os.getpid(), main))


#: Seconds a stopped listing pool's manager thread gets to end by itself before the
#: results' pipe is closed under it (:func:`_stop_pool`).
STUCK_MANAGER = 10.0


def _stop_pool(pool: Executor) -> None:
    """Shut down a listing's own process pool without waiting for the pieces its
    processes are searching (a piece of a sparse tree can take hours): they are
    killed."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # The pool's manager thread, taken before shutdown() forgets it: it closes its
    # wake-up pipe on the way out, and CPython 3.11's exit hook, writing to that pipe,
    # races with the closing ("Bad file descriptor", a traceback after the run's one
    # line), so it is waited for below.  (Read after shutdown(wait=False), as it was
    # first, it is already None: the soak of the signal tests still caught the race in
    # two runs at once.)
    manager = getattr(pool, "_executor_manager_thread", None)
    # The results' pipe, also forgotten by shutdown().  A worker killed halfway through
    # writing a result leaves the manager reading the rest of it, and this process holds
    # the pipe's other end open, so the read waited for ever: the manager outlived its
    # join, and the exit hook's join of it (no time limit) hung the run at exit (1 soak
    # run in 22).  With the workers dead, closing this end ends the read.
    results = getattr(pool, "_result_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()  # (SIGTERM is the caller's handler, inherited: it does nothing)
    for process in processes:
        process.join()
    if manager is None:
        return
    # Only for a manager that did not end by itself: the pool is then shut down the way
    # the soaks have run it, through the manager's own cancelling of what has not
    # started (and it is kept alive meanwhile: a manager that finds it collected
    # cancels nothing).
    manager.join(STUCK_MANAGER)
    if manager.is_alive() and results is not None:
        results._writer.close()  # (the manager only reads: this end is ours alone)
        manager.join(60)


def _pool_broken(pool: Executor) -> bool:
    """Whether a listing's own process pool has lost a process (or says it is broken).

    Asked before each submission and while waiting for a piece, rather than trusting
    the pool to fail every future: in CPython 3.11 the thread that breaks a pool marks
    it broken without the lock ``submit()`` holds, so a piece submitted as a worker
    dies can land in the pool's table after the futures in it were failed, and never
    be settled (the listing waited for ever; the test killing a worker failed once
    under load)."""
    from multiprocessing.connection import wait

    if getattr(pool, "_broken", False):
        return True
    processes = list((getattr(pool, "_processes", None) or {}).values())
    try:  # a dead process's sentinel is ready (read, not reaped: the pool reaps it)
        return bool(processes) and bool(wait([p.sentinel for p in processes], timeout=0))
    except (OSError, ValueError):  # a process closed: the pool is shutting down
        return True


def _pool_worker(parent: int, death_signal: bool) -> None:
    """A listing pool's worker: Ctrl-C is its caller's to handle (it printed a
    ``KeyboardInterrupt`` traceback per worker), and it ends with its caller."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _helpers.watch_parent(parent, death_signal)


def solutions_task(
    problem: Problem,
    prefix: Sequence[int],
    position: Sequence[int],
    state: int,
    most: int | None = None,
) -> tuple[list[tuple[Any, ...]], int, Task | None]:
    """The raw solutions of the subtree at ``prefix`` not yet passed at ``position`` (at
    most ``most`` of them), the number of nodes entered to find them, and the rest of
    the subtree as a task to search next (None when the subtree is done)."""
    search = Search(problem, prefix)
    if tuple(position) != tuple(prefix) or state != ENTER:
        search._restore(position, state)
    found = list(search if most is None else itertools.islice(search, most))
    rest: Task | None = None
    if most is not None and len(found) == most and not search.done:
        rest = (tuple(prefix), search.position, search._engine.state)
    return found, search.stats.nodes, rest


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
    :class:`Listing` does the same with a run file, to stop and go on.
    """
    return iter(Listing(search, workers=workers, executor=executor, depth=depth))


class Listing:
    """A parallel listing of the raw solutions ``search`` has left, in a plain walk's
    order, that can keep a run file to stop and go on without writing a solution twice.

    >>> import os, tempfile
    >>> from lazysearch import queens
    >>> path = os.path.join(tempfile.mkdtemp(), "run.json")
    >>> listing = Listing(queens(6).search, workers=2, checkpoint=path)
    >>> first = next(iter(listing))
    >>> listing.save()  # the first is written: the file says so
    >>> rest = list(Listing(queens(6).search, workers=1, resume=path))
    >>> [first, *rest] == list(queens(6).search)
    True

    A solution counts as *written* once the consumer asks for the next one (or calls
    :meth:`save` after its last, as when it stops at a limit); the run file then says so.

    Parameters
    ----------
    workers, executor, depth:
        As for :func:`count`.  The calling process only reads; ``workers`` processes of
        a pool search (or the executor's).
    checkpoint:
        The run file: the plan (the subtrees whose solutions are not all written, in
        order, and how many of the first one's were), written atomically at most every
        ``every`` seconds (default 5) between solutions, when ``stop()`` says so, at
        :meth:`save`, and at the end.
    resume:
        A run file to go on from (any number of workers): of a parallel listing, or of a
        one-process listing (the rest is planned anew).  ``search`` must be fresh.
    stop:
        Asked between solutions and, while waiting for a worker, every
        :data:`LOOK_EVERY_STOP` seconds; when true, the run file is written and
        :class:`lazysearch.longrun.Stop` raised.
    note:
        Called at each write: fields to add to the run file (the command line's count
        of printed solutions, ``found``, and the length of its output file).
    command:
        Recorded in the run file, and checked when resuming from it.
    deadline, nodes:
        A budget: when ``time.monotonic()`` has passed ``deadline``, or the pieces read
        to the end in this run have entered ``nodes`` nodes or more, the run file is
        written and :class:`lazysearch.longrun.OutOfBudget` raised (its arguments: the
        limit reached, the solutions written in the whole run, and the nodes of this
        run's pieces).  Looked at after each solution written and each piece read, so a
        run writes at least one solution or piece, and goes on past the limit by the
        wait for it (and, for ``nodes``, by the rest of the piece being read).
    """

    def __init__(
        self,
        search: Search,
        *,
        workers: int | None = None,
        executor: Executor | None = None,
        depth: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | None = None,
        every: float | None = None,
        stop: Callable[[], bool] | None = None,
        note: Callable[[], dict[str, Any]] | None = None,
        command: str = "library",
        deadline: float | None = None,
        nodes: int | None = None,
    ) -> None:
        from . import longrun

        if workers is not None and workers < 1:
            raise ValueError(f"parallel search needs workers >= 1, got {workers}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"a listing's node budget needs nodes >= 1, got {nodes!r}")
        self.search = search
        self.deadline = deadline
        self.node_limit = nodes
        #: Nodes of the pieces read to the end in this run (the node budget's measure),
        #: and those of the piece being read (searched already, not yet all written).
        self.spent = 0
        self._spent_reading = 0
        self.path = os.fspath(checkpoint) if checkpoint is not None else None
        self.every = longrun.DEFAULT_EVERY if every is None else every
        self.stop = stop
        self.note = note
        self.executor = executor
        self.command = command
        record: dict[str, Any] | None = None
        if resume is not None:
            record = longrun.load(resume, command=command, mode="list")
            _become(search, search.resume(record["search"]))
        self.start = search.checkpoint()  # where the plan begins (a resumed run's start)
        # Solutions written before the plan (a one-process run file planned anew).
        self.before = 0 if record is None else int(record["found"])
        if record is not None and "plan" in record:
            plan = record["plan"]
            self.start = record["search"]
            self.n_workers: int = (
                workers or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
            )
            self.tasks: list[Task] = [
                (tuple(prefix), tuple(position), int(state))
                for prefix, position, state in plan["tasks"]
            ]
            self.written = int(plan["written"])
            self.above = int(plan["above"])
            self.solutions = int(plan["solutions"])
            self.nodes = int(plan["nodes"])
            self.before = max(0, self.before - self.solutions)
        else:
            self.n_workers, self.tasks, _, self.above = _plan(search, workers, executor, depth)
            self.written = self.solutions = 0
            self.nodes = self.above
        # What is read: the piece being read (its task, and how many of the task's
        # solutions are written), the tasks sent to the workers, and those not yet sent.
        self._reading: list[Any] | None = None
        self._pending: deque[tuple[Task, Future[tuple[list[tuple[Any, ...]], int, Task | None]]]]
        self._pending = deque()
        self._todo: deque[Task] = deque(self.tasks)
        self._last = time.monotonic()
        self._used = False
        self._walker: Generator[tuple[Any, ...]] | None = None
        self._credited = False
        self.save()  # the plan, before any solution is written

    def left(self) -> list[Task]:
        """The subtrees whose solutions are not all written yet, in order."""
        sent = [task for task, _ in self._pending]
        if self._reading is None:
            return sent + list(self._todo)
        task, _, rest = self._reading
        # The task being read stands for its whole subtree: the rest of it, sent on
        # ahead, is not listed twice.
        return [task, *sent[1 if rest else 0 :], *self._todo]

    def save(self) -> None:
        """Write the run file now (nothing without a ``checkpoint``): every solution
        yielded so far counts as written."""
        from . import longrun

        self._last = time.monotonic()
        if self.path is None:
            return
        written = self._reading[1] if self._reading is not None else self.written
        record: dict[str, Any] = {
            "format": longrun.RUN_FORMAT,
            "version": longrun.RUN_VERSION,
            "command": self.command,
            "mode": "list",
            "found": self.before + self.solutions,
            "search": self.start,
            "plan": longrun.list_plan(
                self.left(),
                written=written,
                above=self.above,
                solutions=self.solutions,
                nodes=self.nodes,
            ),
        }
        if self.note is not None:
            record.update(self.note())
        longrun.save(self.path, record)

    def _between(self) -> None:
        """Between two solutions (the one before is written): stop if asked or when the
        budget is spent, write the run file when due."""
        self._stop_if_asked()
        self._budget()
        if self.path is not None and time.monotonic() - self._last >= self.every:
            self.save()

    def _stop_if_asked(self) -> None:
        """Write the run file and raise :class:`lazysearch.longrun.Stop` if ``stop()``
        says so."""
        from . import longrun

        if self.stop is not None and self.stop():
            self.save()
            raise longrun.Stop

    def _budget(self) -> None:
        """Write the run file and raise :class:`lazysearch.longrun.OutOfBudget` when the
        time or the nodes are spent."""
        from . import longrun

        which = None
        if self.deadline is not None and time.monotonic() >= self.deadline:
            which = "time limit"
        elif self.node_limit is not None and self.spent >= self.node_limit:
            which = "node limit"
        if which is not None:
            self.save()
            raise longrun.OutOfBudget(which, self.before + self.solutions, self.spent)

    def close(self) -> None:
        """Stop the listing where it is (its own processes are killed, not waited for)
        and, if it did not read to the end, give its search the statistics of what was
        read: the solutions written, and the nodes of the pieces they came from (as the
        command line's statistics line at a ``--limit`` shows)."""
        if self._walker is not None:
            self._walker.close()
        if self._credited or self.search.done:
            return
        self._credited = True
        engine = self.search._engine
        engine.solutions += self.solutions
        engine.nodes += self.nodes + self._spent_reading

    def _result(
        self,
        future: Future[tuple[list[tuple[Any, ...]], int, Task | None]],
        alive: _Liveness | None,
        pool: Executor | None = None,
    ) -> tuple[list[tuple[Any, ...]], int, Task | None]:
        """The piece ``future`` brings, asking ``stop()`` while waiting for it, and
        whether a cluster still has workers (``alive``) every :data:`LOOK_EVERY` s.

        ``pool``, the listing's own process pool, is looked at too: a future it will
        never settle (see :func:`_pool_broken`) raises ``BrokenProcessPool``."""
        if self.stop is None and alive is None and pool is None:
            return future.result()
        looked = time.monotonic()
        while True:
            try:
                return future.result(timeout=LOOK_EVERY_STOP)
            except TimeoutError:
                if pool is not None and _pool_broken(pool) and not future.done():
                    raise BrokenProcessPool("a worker process died") from None
                if alive is not None and alive.gone() and not future.done():
                    from concurrent.futures import CancelledError

                    raise CancelledError("the Dask client lost its scheduler") from None
                self._stop_if_asked()
                if self.path is not None and time.monotonic() - self._last >= self.every:
                    self.save()
                if alive is not None and time.monotonic() - looked >= LOOK_EVERY:
                    waiting = len(self._pending)
                    alive.check(
                        waiting,
                        waiting + len(self._todo),
                        "pieces of subtrees waiting; the solutions written are",
                    )
                    looked = time.monotonic()

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        if self._used:
            raise ValueError("a Listing is read once: make a new one to read again")
        self._used = True
        self._walker = self._walk()
        return self._walker

    def _walk(self) -> Generator[tuple[Any, ...]]:
        from . import longrun

        search = self.search
        own = self.executor is None
        n_workers = self.n_workers
        pool: Executor = _own_pool(n_workers) if self.executor is None else self.executor
        window = 2 * n_workers + 1
        pending, todo = self._pending, self._todo

        def submit(task: Task) -> Future[tuple[list[tuple[Any, ...]], int, Task | None]]:
            try:
                if own and _pool_broken(pool):  # not into a pool that is breaking
                    raise BrokenProcessPool("a worker process died")
                return pool.submit(solutions_task, search.problem, *task, PIECE)
            except BrokenProcessPool as exc:  # seen when its turn to be read comes
                failed: Future[tuple[list[tuple[Any, ...]], int, Task | None]] = Future()
                failed.set_exception(exc)
                return failed

        def submit_next() -> None:
            if todo:
                task = todo.popleft()
                pending.append((task, submit(task)))

        broken = 0  # pools broken in a row, without a subtree read in between
        finished = False
        alive = None if own else _Liveness(pool)
        try:
            for _ in range(window):
                submit_next()
            while pending:
                try:
                    solutions, spent, rest = self._result(
                        pending[0][1], alive, pool if own else None
                    )
                except longrun.Stop:
                    raise  # asked for while waiting: the run file is written
                except Exception as exc:
                    # (Between pieces: every solution yielded was asked past, so written.)
                    if not own and not isinstance(exc, LazysearchError):
                        self.save()  # what was written is kept, to go on from
                        raise _piece_lost(exc, alive) from None
                    if not isinstance(exc, BrokenProcessPool):
                        self.save()
                        raise
                    # A worker was killed: its subtree, and those waiting behind it, are
                    # searched again in a new pool (nothing of them was yielded yet).
                    broken += 1
                    if broken > MAX_BROKEN_POOLS:
                        self.save()
                        raise LazysearchError(
                            f"the worker processes died {broken} times in a row "
                            "(killed from outside, or out of memory?)"
                        ) from None
                    _lost(
                        "a worker process died (killed from outside?); "
                        "its subtrees are searched again"
                    )
                    _stop_pool(pool)  # not waited for: a broken pool's queues may block
                    pool = _own_pool(n_workers)
                    for i, (task, _) in enumerate(pending):
                        pending[i] = (task, submit(task))
                    continue
                broken = 0
                task, _ = pending.popleft()
                # Solutions of this task written before (a resumed run): not again.
                skip = min(self.written, len(solutions))
                self.written -= skip
                self._reading = [task, skip, rest is not None]
                self._spent_reading = spent
                if rest is not None:  # the rest of this subtree comes next, before the others
                    pending.appendleft((rest, submit(rest)))
                else:
                    submit_next()
                reading = self._reading
                for solution in itertools.islice(solutions, skip, None):
                    reading[1] += 1
                    self.solutions += 1
                    yield solution
                    self._between()
                self.nodes += spent
                self.spent += spent
                self._spent_reading = 0
                self._reading = None
                if pending:  # not after the last piece: the listing is done
                    self._budget()
            self.save()
            search._finish(self.solutions, self.nodes)
            finished = True
        finally:
            if not own:
                for _, future in pending:
                    future.cancel()
            elif finished:
                pool.shutdown(cancel_futures=True)
            else:  # stopped (Ctrl-C, a limit, an error): not after the pieces under way
                # Its own pool's pieces are cancelled by the pool's manager thread, not
                # here: one cancelled here and still in the pool's table when the manager
                # took the killed workers for a broken pool (before it saw the shutdown)
                # made it raise InvalidStateError, a thread's traceback after the run's
                # one line (2 soak runs in about 40).
                _stop_pool(pool)


def _piece_lost(exc: BaseException, alive: _Liveness | None) -> LazysearchError:
    """The one-line error for a piece of a listing an executor lost for good (a Dask
    cluster whose scheduler is gone cancels every task it held)."""
    reason = f"{exc}" or "no reason given"
    if alive is not None and alive.client is not None and _cancelled(exc):
        reason = (
            "the Dask scheduler is gone or dropped this client, and every task it held "
            "was cancelled"
        )
    return LazysearchError(
        f"the executor lost a piece of the listing ({type(exc).__name__}: {reason}); "
        "the solutions written are kept in the run file, if there is one (--resume)"
    )


#: Seconds between looks at ``stop()`` while a listing waits for a worker's piece.
LOOK_EVERY_STOP = 0.05
