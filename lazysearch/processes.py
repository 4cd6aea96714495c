"""Every process lazysearch starts is started here, under one rule.

The rule, for every child (a helper, a pool's worker, a forked part of a join):

- Ctrl-C (SIGINT) is its caller's to handle: the child ignores it (a terminal's Ctrl-C
  reaches the whole process group, and a child's ``KeyboardInterrupt`` traceback is
  noise), and a child forked directly is forked with SIGINT held back, so that not even
  its first moments hear it (:func:`start_forked`);
- SIGTERM is left as the fork leaves it (the caller's handler, which on the command
  line asks the caller for a stop at a safe point): a child ends when its work or its
  pipe does, or its caller kills it (:func:`stop_pool`, :func:`stop_forked`,
  :meth:`Helpers.close`), never by asking it with a signal;
- it never outlives its caller, whatever kills the caller (``kill -9`` included):
  :func:`watch_parent`.

Three ways of starting them, by what the work needs:

- :class:`Helpers`, a team of helper processes that count beside the caller, driven
  over pipes with no threads (below);
- :func:`pool`, a ``concurrent.futures`` process pool (a parallel listing's pieces,
  a knight's-tour join's parts), and :func:`stop_pool` that ends it without waiting
  for the work under way;
- :func:`start_forked`, one forked process that runs a function on the caller's
  memory as it is (an open join's part of a table).

Helper processes
----------------
``concurrent.futures.ProcessPoolExecutor`` hands work to its processes from a thread of
its own.  While the caller counts (compiled code that keeps the GIL for milliseconds at
a time), that thread waits for the GIL, so helpers that finish a batch sit idle: on a
tree of a few milliseconds the caller ended up doing nearly everything.  Here nobody
hands work out while it runs: the caller sends every helper the same list of jobs once,
and each process, the caller included, takes the next job not yet taken from a counter
in memory shared by the team (:func:`claimed`), so no process waits for another to
give it work, and at the end they differ by at most one job.

The processes are started on first use and kept for later calls (a count of a few
milliseconds is not swamped by starting processes); they are daemons, stopped at exit,
and replaced whenever a call ends abnormally (an error, Ctrl-C), so no stale answer is
ever read.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import LazysearchError

if TYPE_CHECKING:
    from concurrent.futures import Executor, ProcessPoolExecutor

T = TypeVar("T")

#: Seconds to wait for the team's counter, which a process holds for a microsecond: a
#: longer wait means one died holding it (killed from outside), and the count fails
#: with an error instead of hanging.
LOCK_TIMEOUT = 10.0

#: In a helper process: its team's shared counter of jobs taken (see :func:`claimed`).
_team_counter: Any = None

#: Seconds between a helper's looks at who its parent is (see :func:`watch_parent`).
WATCH_EVERY = 0.2

#: prctl(2) option: the signal a process gets when the thread that made it ends.
_PR_SET_PDEATHSIG = 1


def child_starts(parent: int, death_signal: bool) -> None:
    """In a child, first thing: the house rule (see the module notes).  Ctrl-C is left
    to the caller (ignored, then let through if it was held back at the fork), and the
    child ends with ``parent``, the caller (:func:`watch_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # (not on Windows, which forks nothing)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    watch_parent(parent, death_signal)


def _caller() -> tuple[int, bool]:
    """The caller's pid, and whether the kernel may watch it for its children (only a
    child started by the main thread, which ends only with the process)."""
    return os.getpid(), threading.current_thread() is threading.main_thread()


def watch_parent(parent: int, death_signal: bool = True) -> None:
    """In a child process: end it as soon as ``parent`` (its caller's pid) is gone.

    Two watches, so that a caller killed by anything (``kill -9`` included) takes its
    helpers with it: on Linux, when ``death_signal``, the kernel sends this process
    SIGKILL when the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``; so only
    for processes started by the main thread, which ends only with the process); and on
    any system a daemon thread looks every :data:`WATCH_EVERY` seconds whether the
    process has been handed to another parent (its parent died) and then exits.  The
    thread sleeps in between and takes the GIL only to look.
    """
    if death_signal and sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl in this C library: the thread does it
            pass
    if os.getppid() != parent:  # the caller died before the watch was set
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="lazysearch-watch-parent", daemon=True).start()


#: In a helper process: its pipe to the caller (see :func:`report`).
_team_conn: Connection | None = None


class CounterLost(LazysearchError):
    """The team's count of jobs taken stayed locked: a process died holding it."""


def claimed(jobs: Sequence[T], counter: Any = None) -> Iterator[T]:
    """The jobs of ``jobs`` that this process takes, in order: each process of a team
    iterating over the same list gets a different share, and together they get every
    job once.  ``counter`` is the team's (:attr:`Helpers.counter`); a helper leaves it
    out and uses its own team's."""
    for _, job in claimed_indexed(jobs, counter):
        yield job


def claimed_indexed(jobs: Sequence[T], counter: Any = None) -> Iterator[tuple[int, T]]:
    """:func:`claimed`, each job with its index in ``jobs``.

    Raises :class:`CounterLost` if the counter stays locked :data:`LOCK_TIMEOUT`
    seconds (a process was killed holding it, for a microsecond)."""
    counter = _team_counter if counter is None else counter
    lock = counter.get_lock()
    while True:
        if not lock.acquire(timeout=LOCK_TIMEOUT):
            raise CounterLost(
                f"the team's count of jobs taken stayed locked for {LOCK_TIMEOUT} s "
                "(a process died holding it)"
            )
        try:
            taken = counter.value
            counter.value = taken + 1
        finally:
            lock.release()
        if taken >= len(jobs):
            return
        yield taken, jobs[taken]


def report(part: object) -> None:
    """In a helper: send ``part`` of its answer to the caller now (the caller reads it
    with :meth:`Helpers.poll` or :meth:`Helpers.drain`), so that what a helper finished
    is known even if it is killed before its answer."""
    if _team_conn is not None:
        try:
            _team_conn.send(("part", part))
        except OSError:  # the caller stopped the call (or died): nobody reads the rest
            raise _CallerGone from None


class _CallerGone(BaseException):
    """In a helper: its caller closed the pipe; the helper ends quietly."""


def _serve(
    conn: Connection, counter: Any, parent: int, death_signal: bool, inherited: list[int]
) -> None:
    """A helper's loop: ``("set", value)`` keeps ``value`` (the problem, sent once per
    call); ``("run", function, args)`` answers ``(True, function(value, *args))`` or
    ``(False, error)``; ``None`` or a closed pipe ends it.  ``counter`` is the team's
    shared count of jobs taken; ``parent``, the caller's pid, is watched
    (:func:`watch_parent`); ``inherited`` are the caller's ends of the team's pipes,
    copied into this process by ``fork``: closed here, so that the caller's death closes
    the pipe this helper reads."""
    global _team_counter, _team_conn
    _team_counter = counter
    _team_conn = conn
    child_starts(parent, death_signal)
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    # A forked helper inherits the caller's heap: left to the collector, every full
    # collection would walk (and so copy, page by page) all of it.
    gc.freeze()
    value: Any = None
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        if message[0] == "set":
            value = message[1]
            continue
        _, function, args = message
        try:
            answer: tuple[bool, Any] = (True, function(value, *args))
        except _CallerGone:
            return
        except Exception as exc:  # sent back and raised by the caller
            answer = (False, exc)
        try:
            conn.send(answer)
        except OSError:  # the caller stopped the call (or died)
            return
        except Exception as exc:  # the error itself would not pickle
            conn.send((False, LazysearchError(f"{type(exc).__name__}: {exc}")))


class HelperDied(LazysearchError):
    """A helper process died (killed from outside) during a call."""


def _died(exc: BaseException) -> HelperDied:
    return HelperDied(f"a helper process died ({exc or 'its pipe closed'})")


def _send(conn: Connection, message: object) -> None:
    try:
        conn.send(message)
    except OSError as exc:
        raise _died(exc) from None


class Helpers:
    """``size`` helper processes and their pipes; see :func:`helpers`."""

    def __init__(self, size: int) -> None:
        context = multiprocessing.get_context()
        #: How many jobs of the current list the team has taken (see :func:`claimed`).
        self.counter = context.Value("q", 0)
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        forked = context.get_start_method() == "fork"
        caller, main = _caller()
        for _ in range(size):
            mine, theirs = context.Pipe()
            # A forked helper holds copies of the caller's ends of the pipes made so
            # far, its own included: it closes them (spawned ones hold none).
            ours = [c.fileno() for c in (*self.conns, mine, *_kept_conns())] if forked else []
            proc = context.Process(
                target=_serve,
                args=(theirs, self.counter, caller, main, ours),
                daemon=True,
            )
            proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)
        self.busy = [0] * size
        # An answer :meth:`poll` read before its time, by helper: :meth:`drain` takes it.
        self._early: dict[int, tuple[Any, ...]] = {}

    def share(self, value: object) -> None:
        """Give every helper ``value`` (the first argument of what it runs next)."""
        for conn in self.conns:
            _send(conn, ("set", value))

    def start(self, function: Callable[..., Any], *args: Any) -> None:
        """Start ``function(value, *args)`` in every helper, with the count of jobs taken
        set back to 0: ``function`` is to take its jobs with :func:`claimed`."""
        # Set without its lock: no helper is at work, and one killed while holding it
        # (its claims then fail, see claimed_indexed) must not hang the caller here.
        self.counter.get_obj().value = 0
        for i, conn in enumerate(self.conns):
            _send(conn, ("run", function, args))
            self.busy[i] += 1

    def drain(
        self,
        done: Callable[[Any], None],
        part: Callable[[Any], None] | None = None,
        idle: Callable[[], None] | None = None,
    ) -> list[int]:
        """Wait for every helper's answer, ``done(answer)`` for each, and
        ``part(value)`` for each part sent first (:func:`report`).

        A helper that died (killed from outside) raises, unless ``part`` is given: then
        the others are still waited for, and the indices of the dead are returned (the
        caller then knows from the parts what they finished, and the team is not to be
        kept).  ``idle()`` is called every :data:`IDLE_EVERY` seconds while nothing
        comes (it may raise, to stop waiting: Ctrl-C)."""
        dead = []
        for i, conn in enumerate(self.conns):
            try:
                while self.busy[i]:
                    while idle is not None and i not in self._early and not conn.poll(IDLE_EVERY):
                        idle()
                    answer = self._answer(conn, part)
                    self.busy[i] -= 1
                    done(answer)
            except HelperDied:
                if part is None:
                    raise
                self.busy[i] = 0
                dead.append(i)
        return dead

    def poll(self, part: Callable[[Any], None]) -> None:
        """``part(value)`` for the parts the helpers have sent and not yet been read,
        without waiting (a helper's answer, if one comes first, is left to drain)."""
        for i, conn in enumerate(self.conns):
            try:
                while self.busy[i] and i not in self._early and conn.poll():
                    message = conn.recv()
                    if message[0] != "part":  # an answer: put back in front for drain
                        self._early[i] = message
                        break
                    part(message[1])
            except (EOFError, OSError):
                continue  # drain finds it dead

    def _answer(self, conn: Connection, part: Callable[[Any], None] | None = None) -> Any:
        i = self.conns.index(conn)
        while True:
            message = self._early.pop(i, None)
            if message is None:
                try:
                    message = conn.recv()
                except (EOFError, OSError) as exc:
                    raise _died(exc) from None
            if message[0] != "part":
                break
            if part is not None:
                part(message[1])
        ok, value = message
        if not ok:
            raise value
        return value

    def alive(self) -> bool:
        """Whether every helper is still running (one killed from outside is not)."""
        return all(proc.is_alive() for proc in self.procs)

    def close(self) -> None:
        for conn, proc in zip(self.conns, self.procs, strict=True):
            try:
                conn.send(None)
                conn.close()
            except OSError:
                pass
            proc.join(timeout=1)
            if proc.is_alive():
                proc.kill()
                proc.join()  # reaped, so that it no longer shows as alive


#: Seconds between calls of ``drain``'s ``idle`` while it waits.
IDLE_EVERY = 0.05

_kept: dict[int, Helpers] = {}


def _kept_conns() -> list[Connection]:
    return [conn for team in _kept.values() for conn in team.conns]


def helpers(size: int) -> Helpers:
    """``size`` helper processes, kept for later calls (one size at a time).

    They are the caller's for one call: it hands them back with :func:`put_back` only
    if the call ended normally, and otherwise closes them.
    """
    found = _kept.pop(size, None)
    if found is not None and not found.alive():  # one was killed since the last call
        found.close()
        found = None
    if found is None:
        close_all()
        found = Helpers(size)
    return found


def put_back(found: Helpers) -> None:
    """Keep ``found`` for the next call (every job handed out has been answered)."""
    close_all()
    _kept[len(found.conns)] = found


@atexit.register
def close_all() -> None:
    """Stop the kept helpers (done at exit; call it to free the processes sooner)."""
    while _kept:
        _kept.popitem()[1].close()


# -- process pools -----------------------------------------------------------------------


def pool(workers: int, *, fork: bool = False) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes under the house rule: Ctrl-C left to the
    caller, and workers that end with the caller, whatever kills it (:func:`child_starts`).
    With ``fork``, forked whatever the default start method (a knight's-tour join's
    workers read the caller's tables as they are)."""
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork") if fork else None
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=child_starts, initargs=_caller()
    )


#: Seconds a stopped pool's manager thread gets to end by itself before the results'
#: pipe is closed under it (:func:`stop_pool`).
STUCK_MANAGER = 10.0


def stop_pool(pool: Executor) -> None:
    """Shut down a process pool without waiting for the work its processes are doing
    (a piece of a sparse tree can take hours): they are killed."""
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


def pool_broken(pool: Executor) -> bool:
    """Whether a process pool has lost a process (or says it is broken).

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


# -- one forked process ------------------------------------------------------------------


def start_forked(target: Callable[..., object], args: tuple[Any, ...]) -> BaseProcess:
    """Fork a daemon process that runs ``target(*args)`` under the house rule, on the
    caller's memory as it is (nothing is pickled); stop it with :func:`stop_forked`.

    It is forked with Ctrl-C held back: the child ignores it before letting it through
    (a terminal's Ctrl-C reaches the child too, and one in its first moments printed
    multiprocessing's traceback); here it is let through after the fork."""
    context = multiprocessing.get_context("fork")
    caller, main = _caller()
    child = context.Process(target=_forked, args=(caller, main, target, args), daemon=True)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        child.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return child


def _forked(
    parent: int, death_signal: bool, target: Callable[..., object], args: tuple[Any, ...]
) -> None:
    child_starts(parent, death_signal)
    target(*args)


def stop_forked(children: Sequence[BaseProcess]) -> None:
    """Stop the processes of :func:`start_forked` still running (killed: the caller's
    SIGTERM handler, inherited, may do nothing) and reap them all."""
    for child in children:
        if child.is_alive():
            child.kill()
        child.join()
