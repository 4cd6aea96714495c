"""Helper processes that count beside the caller, driven over pipes with no threads.

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

A helper never outlives its caller, whatever kills the caller (``kill -9`` included):
see :func:`watch_parent`.
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
from typing import Any, TypeVar

from .errors import LazysearchError

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
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    watch_parent(parent, death_signal)
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
        main = threading.current_thread() is threading.main_thread()
        for _ in range(size):
            mine, theirs = context.Pipe()
            # A forked helper holds copies of the caller's ends of the pipes made so
            # far, its own included: it closes them (spawned ones hold none).
            ours = [c.fileno() for c in (*self.conns, mine, *_kept_conns())] if forked else []
            proc = context.Process(
                target=_serve,
                args=(theirs, self.counter, os.getpid(), main, ours),
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
