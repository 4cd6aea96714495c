"""Counting in parallel: split the tree into subtrees, count each, add up.

Any ``concurrent.futures.Executor`` does the work: a ``ProcessPoolExecutor`` on one
machine, or a Dask ``Client.get_executor()`` across many.  Each task carries only the
problem (plain, picklable data) and a position, and rebuilds its own engine.

With ``workers=N`` and no executor, the calling process is one of the N: it counts
subtrees itself beside N - 1 helper processes, which are kept for later calls (started
once, stopped at exit), so a count of a few milliseconds is not swamped by starting
processes (:mod:`lazysearch.processes`).

The plan (which subtrees) is :mod:`lazysearch.planning`'s, listing in parallel
:mod:`lazysearch.listing`'s (:class:`Listing` and :func:`iterate`, named here too), and
every process is started by :mod:`lazysearch.processes`.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from . import planning, processes
from .errors import LazysearchError
from .executors import (
    LOOK_EVERY,
    LOOK_EVERY_STOP,
    NO_WORKERS_GRACE,
    Liveness,
    WorkerLostWarning,
    cancelled,
    worker_lost,
)
from .listing import Listing, iterate, solutions_task
from .planning import SMALL_SPLIT, Task, refine, remaining_tasks, split_depth
from .search import ENTER, Search

if TYPE_CHECKING:
    from . import longrun
    from .search import Partial, Problem

__all__ = [
    "NO_WORKERS_GRACE",
    "Listing",
    "Task",
    "WorkerLostWarning",
    "count",
    "count_planned",
    "count_task",
    "count_within",
    "iterate",
    "refine",
    "remaining_tasks",
    "solutions_task",
    "split_depth",
]

#: An executor's count is sent in about this many batches of subtrees per worker
#: (interleaved, so each batch holds big and small ones): few round trips, yet some left
#: to even out at the end.
BATCHES_PER_WORKER = 8


def _count_beside_helpers(
    problem: Problem,
    tasks: list[Task],
    size: int,
    finished: Callable[[int, int, int], None] | None = None,
    interrupt: Callable[[Search | None], None] | None = None,
) -> list[tuple[int, int]]:
    """Count ``tasks`` in the calling process and ``size`` kept helper processes: each
    takes the next subtree no one has taken yet until none is left (see
    :func:`lazysearch.processes.claimed`), so nobody waits to be given work and the last
    to finish is at most one subtree behind.

    Every subtree's count is known as it finishes (helpers :func:`report` each one):
    ``finished(index, found, nodes)`` is called for each, in the caller, between the
    caller's own subtrees.  A helper killed meanwhile loses only what it had not
    reported: those subtrees are counted again in the caller (a
    :class:`WorkerLostWarning` says so), so the total is exact.

    ``interrupt(search)`` is called every few milliseconds of the caller's own counting
    (with the search under way) and while it waits for the helpers (with None); it may
    raise (Ctrl-C, a time limit), and the helpers are stopped.  A :class:`Cut` it raises
    is told which subtree the caller was in and how far it had come.
    """
    if size == 0 or len(tasks) < 2:
        results = []
        one: Search | None = None
        for i, task in enumerate(tasks):
            found, nodes, one = _count_one(problem, task, one, interrupt, i)
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
            for i, task in processes.claimed_indexed(tasks, team.counter):
                found, nodes, search = _count_one(problem, task, search, interrupt, i)
                part((i, found, nodes))
                team.poll(part)
        except processes.CounterLost:
            lost = True  # a helper died holding the counter: the rest is counted below
        idle = None if interrupt is None else _idle(interrupt)
        dead = team.drain(lambda answer: None, part, idle)
        left = [i for i in range(len(tasks)) if i not in done]
        if dead or left or lost:
            who = f"{len(dead)} helper processes" if len(dead) > 1 else "a helper process"
            worker_lost(
                f"{who} died (killed from outside?); the {len(left)} subtree"
                f"{'' if len(left) == 1 else 's'} it had not finished counted again by the "
                "caller, so the count is exact"
            )
            for i in left:
                found, nodes, search = _count_one(problem, tasks[i], search, interrupt, i)
                part((i, found, nodes))
            team.close()
        else:
            team.share(None)  # the helpers need not hold the problem until the next count
            processes.put_back(team)
    except BaseException:
        team.close()
        raise
    return list(done.values())


def _start_team(problem: Problem, tasks: list[Task], size: int) -> processes.Helpers:
    """``size`` kept helpers set to count ``tasks`` of ``problem``; a kept team of which
    one died since (between the check and the first message) is replaced, once."""
    for attempt in (1, 2):
        team = processes.helpers(size)
        try:
            team.share(problem)
            team.start(_count_claimed, tasks)
            return team
        except processes.HelperDied:
            team.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class Cut(Exception):
    """Raised by a count's ``interrupt(search)`` to give up the subtree the caller is
    counting, keeping what it has counted of it: :func:`_count_one` fills in ``part``,
    ``(index, found, nodes, rest)``, with ``rest`` the task of the subtree's uncounted
    remainder (its prefix, and the position and state it stopped at)."""

    part: tuple[int, int, int, Task] | None = None


def _idle(interrupt: Callable[[Search | None], None]) -> Callable[[], None]:
    return lambda: interrupt(None)


def _count_one(
    problem: Problem,
    task: Task,
    search: Search | None,
    interrupt: Callable[[Search | None], None] | None = None,
    index: int = 0,
) -> tuple[int, int, Search]:
    """Count one subtree (task ``index``), reusing ``search``'s engine when there is
    one; ``interrupt(search)`` every chunk of work (a few milliseconds)."""
    prefix, position, state = task
    if search is None:
        search = Search(problem, prefix)
    else:
        search.move_to(prefix)
    if tuple(position) != tuple(prefix) or state != ENTER:
        search.restore(position, state)
    try:
        found = search.count(interrupt)
    except Cut as cut:
        stats = search.stats
        rest = (search.prefix, search.position, int(search.engine.state))
        cut.part = (index, stats.solutions, stats.nodes, rest)
        raise
    return found, search.stats.nodes, search


def _count_claimed(problem: Problem, tasks: list[Task]) -> None:
    """In a helper: count the subtrees of ``tasks`` it takes before the others do,
    reporting each as it finishes (its index, count and nodes)."""
    search: Search | None = None
    try:
        for i, task in processes.claimed_indexed(tasks):
            found, nodes, search = _count_one(problem, task, search)
            processes.report((i, found, nodes))
    except processes.CounterLost:
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
            search.move_to(prefix)
        if tuple(position) != tuple(prefix) or state != ENTER:
            search.restore(position, state)
        found += search.count()
        nodes += search.stats.nodes
    return found, nodes


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
        (:mod:`lazysearch.processes`).
        Ignored when ``executor`` is given.
    executor:
        Any ``concurrent.futures.Executor``; it does all the counting, and is not shut
        down afterwards.
    depth:
        Split at this depth; by default the smallest depth giving about
        :data:`lazysearch.planning.TASKS_PER_WORKER` subtrees per worker, and then
        the subtrees that a few random probes estimate big split further
        (:func:`lazysearch.planning.refine`).
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
        A budget: when ``time.monotonic()`` has passed ``deadline`` (looked at every
        few milliseconds), or the subtrees finished in this call have entered
        ``nodes`` nodes or more (looked at as subtrees finish), the subtrees under
        way are given up, the run file is written and
        :class:`lazysearch.longrun.OutOfBudget` raised with the limit reached, the
        solutions of the finished subtrees, and how many of the plan's subtrees are
        finished and planned.  A time limit that passes before any subtree of this
        call has finished cuts the subtree the caller walks where it stands: its part
        counted is a finished subtree, and its rest a new one at the plan's end
        (:meth:`lazysearch.longrun.PlanFile.split`).  So every call counts something.

    Returns
    -------
    int
        The count of what ``search`` had left (with ``resume``: what it had left at
        the start of the run the file began).
    """
    return count_planned(
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


def count_planned(
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
        search.become(search.resume(record["search"]))
        if "plan" in record:
            plan = longrun.PlanFile(os.fspath(checkpoint) if checkpoint else None, record, every)
            plan.saved = saved
    if plan is None:
        one = workers == 1 and executor is None and depth is None and checkpoint is None
        if one and deadline is None and nodes is None:
            return search.count(), None
        # A run that may stop (a run file or a budget): cut fine, so that little is
        # lost when it does and a time limit is not passed by a subtree of hours.
        fine = checkpoint is not None or deadline is not None or nodes is not None
        n_workers, tasks, sizes, above = planning.plan(search, workers, executor, depth, fine)
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
    ran = False  # whether a subtree finished in this call

    def out_of(which: str) -> longrun.OutOfBudget:
        plan.save()
        out = longrun.OutOfBudget(
            which, plan.record["found"], len(plan.done), len(plan.tasks), spent
        )
        out.record = plan.record
        return out

    def finished(j: int, found: int, entered: int) -> None:
        nonlocal spent, ran
        plan.finished(left[j], found, entered)
        spent += entered
        ran = True
        if stop is not None and stop():
            plan.save()
            raise _stopped(plan)
        which = None
        if deadline is not None and time.monotonic() >= deadline:
            which = "time limit"
        elif nodes is not None and spent >= nodes:
            which = "node limit"
        if which is not None and len(plan.done) < len(plan.tasks):
            raise out_of(which)

    def interrupt(walking: Search | None) -> None:
        if stop is not None and stop():  # Ctrl-C: at once, not when a subtree finishes
            plan.save()
            raise _stopped(plan)
        # The time limit too: the subtrees under way are given up, as at a stop, once
        # this run has finished a subtree; before that, the caller's own subtree is cut
        # where it stands (what it counted kept, its remainder a subtree of the plan).
        # Either way every run counts something, so that a run resumed again and again
        # under a short limit ends.
        if deadline is None or time.monotonic() < deadline or len(plan.done) == len(plan.tasks):
            return
        if ran:
            raise out_of("time limit")
        if walking is not None and walking.stats.nodes > 0 and not walking.done:
            raise Cut()

    try:
        try:
            if executor is not None:
                _count_on(executor, search.problem, tasks, n_workers, finished, _idle(interrupt))
            else:
                _count_beside_helpers(search.problem, tasks, n_workers - 1, finished, interrupt)
        except Cut as cut:
            assert cut.part is not None
            j, found, entered, rest = cut.part
            plan.split(left[j], found, entered, rest)
            spent += entered
            raise out_of("time limit") from None
    except BaseException:
        plan.save()  # what finished is kept, to go on from
        raise
    plan.save()
    total = sum(found for found, _ in plan.done.values())
    search.finish(total, plan.above + sum(nodes for _, nodes in plan.done.values()))
    return total, plan


def _stopped(plan: longrun.PlanFile) -> longrun.Stop:
    """The :class:`~lazysearch.longrun.Stop` of a count by ``plan`` (its file saved)."""
    from . import longrun

    stop = longrun.Stop(plan.record["found"])
    stop.subtrees = (len(plan.done), len(plan.tasks))
    return stop


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

    The time is looked at every few milliseconds and the nodes as subtrees finish (see
    :func:`count`); a call counts at least part of a subtree.  ``found`` is what
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
        total, plan_file = count_planned(
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
    rest = search.estimate(samples, seed=0).rest(walked)
    return Partial(int(record["found"]) - before, False, walked, rest, record)


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
    alive = Liveness(executor)
    try:
        lost: list[BaseException] = []
        pending = set(futures)
        looked = time.monotonic()
        while pending:
            ready, pending = wait(pending, timeout=LOOK_EVERY_STOP, return_when=FIRST_COMPLETED)
            if interrupt is not None:
                interrupt()
            if not ready and alive.gone():  # (see Liveness.gone)
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
            if alive.client is not None and all(cancelled(exc) for exc in lost):
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
