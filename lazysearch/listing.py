"""Listing in parallel: the raw solutions of a search found by many processes and
yielded in the order of a plain walk, with a run file to stop and go on without
writing a solution twice.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from . import planning, processes
from .errors import LazysearchError
from .executors import LOOK_EVERY, LOOK_EVERY_STOP, Liveness, cancelled, worker_lost
from .planning import Task
from .search import ENTER, Search

if TYPE_CHECKING:
    from .search import Problem

#: A listing's pool of processes is replaced when one of them is killed, up to this many
#: times in a row (without a subtree read in between); then the listing fails.
MAX_BROKEN_POOLS = 3
#: A listing's task hands back at most this many solutions of its subtree, and the rest
#: of the subtree is searched next as a task of its own: so a huge subtree is never held
#: whole in memory (``queens 20`` printed nothing for a minute), and its solutions
#: stream out piece by piece, in order.
PIECE = 4096


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
        search.restore(position, state)
    found = list(search if most is None else itertools.islice(search, most))
    rest: Task | None = None
    if most is not None and len(found) == most and not search.done:
        rest = (tuple(prefix), search.position, search.engine.state)
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
        As for :func:`lazysearch.parallel.count`.  The calling process only reads;
        ``workers`` processes of a pool search (or the executor's).
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
            search.become(search.resume(record["search"]))
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
            planned = planning.plan(search, workers, executor, depth)
            self.n_workers, self.tasks, _, self.above = planned
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
        engine = self.search.engine
        engine.solutions += self.solutions
        engine.nodes += self.nodes + self._spent_reading

    def _result(
        self,
        future: Future[tuple[list[tuple[Any, ...]], int, Task | None]],
        alive: Liveness | None,
        pool: Executor | None = None,
    ) -> tuple[list[tuple[Any, ...]], int, Task | None]:
        """The piece ``future`` brings, asking ``stop()`` while waiting for it, and
        whether a cluster still has workers (``alive``) every :data:`LOOK_EVERY` s.

        ``pool``, the listing's own process pool, is looked at too: a future it will
        never settle (see :func:`lazysearch.processes.pool_broken`) raises ``BrokenProcessPool``."""
        if self.stop is None and alive is None and pool is None:
            return future.result()
        looked = time.monotonic()
        while True:
            try:
                return future.result(timeout=LOOK_EVERY_STOP)
            except TimeoutError:
                if pool is not None and processes.pool_broken(pool) and not future.done():
                    raise BrokenProcessPool("a helper process died") from None
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
        pool: Executor = processes.pool(n_workers) if self.executor is None else self.executor
        window = 2 * n_workers + 1
        pending, todo = self._pending, self._todo

        def submit(task: Task) -> Future[tuple[list[tuple[Any, ...]], int, Task | None]]:
            try:
                if own and processes.pool_broken(pool):  # not into a pool that is breaking
                    raise BrokenProcessPool("a helper process died")
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
        alive = None if own else Liveness(pool)
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
                            f"the helper processes died {broken} times in a row "
                            "(killed from outside, or out of memory?)"
                        ) from None
                    worker_lost(
                        "a helper process died (killed from outside?); "
                        "its subtrees are searched again"
                    )
                    processes.stop_pool(pool)  # not waited for: a broken pool's queues may block
                    pool = processes.pool(n_workers)
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
            search.finish(self.solutions, self.nodes)
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
                processes.stop_pool(pool)


def _piece_lost(exc: BaseException, alive: Liveness | None) -> LazysearchError:
    """The one-line error for a piece of a listing an executor lost for good (a Dask
    cluster whose scheduler is gone cancels every task it held)."""
    reason = f"{exc}" or "no reason given"
    if alive is not None and alive.client is not None and cancelled(exc):
        reason = (
            "the Dask scheduler is gone or dropped this client, and every task it held "
            "was cancelled"
        )
    return LazysearchError(
        f"the executor lost a piece of the listing ({type(exc).__name__}: {reason}); "
        "the solutions written are kept in the run file, if there is one (--resume)"
    )
