"""Solutions: the lazy stream every solver returns.

A stream is a one-pass iterator, like a generator: reading a solution consumes it.
Combinators (``filter``, ``map``, ``slice``) return new streams that draw from the same
search, so nothing runs until a solution is asked for.  The stream also exposes its
search: checkpoints, subtrees, progress, estimates and statistics.

Shown at the prompt or in Jupyter, a stream reads a few solutions ahead (within a node
budget) to show them; it keeps them and yields them first, so nothing is lost.

Threads: reading one stream (or streams derived from it) from several threads is safe,
and so is reading the iterator :meth:`Solutions.parallel` returns.  The streams of one
search share a lock, taken for each solution read, so every solution goes to exactly
one reader and none is torn or repeated; the readers take turns, so this shares out
the work of one search, it does not speed it up (for that, :meth:`Solutions.parallel`
and ``count(workers=)`` run processes).  Other calls (``count()``, ``checkpoint()``,
``resume()``) are not synchronised with iteration: make them from one thread.
"""

from __future__ import annotations

import builtins
import itertools
import os
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from . import capabilities
from .errors import LazysearchError, NotExactlyOneError
from .search import CHUNK, Estimate, Partial, Search, Stats, Taken

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .exactcover.diagram import Diagram

T = TypeVar("T")
U = TypeVar("U")
D = TypeVar("D")

_MISSING: Any = object()

#: One lock per search, shared by every stream that reads it (see the module notes).
_LOCKS: weakref.WeakKeyDictionary[Search, threading.RLock] = weakref.WeakKeyDictionary()
_LOCKS_LOCK = threading.Lock()


def _lock_of(search: Search) -> threading.RLock:
    """The lock the streams of ``search`` take to read a solution."""
    with _LOCKS_LOCK:
        lock = _LOCKS.get(search)
        if lock is None:
            lock = _LOCKS[search] = threading.RLock()
        return lock


def _more_itertools() -> Any:
    """more-itertools, imported on first use: importing it costs ~30 ms, more than the
    rest of ``import lazysearch`` and than proving a hard sudoku unique, so the plainest
    steps (``take``, ``first``, ``nth``) use ``itertools`` directly, as more-itertools'
    own recipes do."""
    import more_itertools

    return more_itertools


# A pipeline step: ("filter", predicate), ("map", function) or ("slice", (start, stop, step)).
_Step = tuple[str, Any]

# Solutions read ahead and not yet yielded, each with the checkpoint of the search just
# before it (so that a checkpoint taken meanwhile still comes before them).
_Pending = deque[tuple[dict[str, Any], Any]]

#: How many solutions a stream's ``repr`` shows.
PREVIEW = 3
#: The nodes a stream's ``repr`` may search for them (a chunk more at most).
PREVIEW_NODES = CHUNK


class _OutOfBudget(Exception):
    """Raised inside a read-ahead when its node budget is spent; never seen by users."""


class _Source:
    """The raw solutions of a search; a read-ahead sets ``limit`` (in nodes entered) to
    stop before a solution that would be read past it."""

    __slots__ = ("limit", "search")

    def __init__(self, search: Search) -> None:
        self.search = search
        self.limit = -1

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self

    def __next__(self) -> tuple[Any, ...]:
        if self.limit >= 0 and self.search.stats.nodes >= self.limit:
            raise _OutOfBudget
        return next(self.search)


class _Drain:
    """Yields the solutions of a pending queue until it is empty; streams that share the
    queue share its solutions, each going to whichever reads it first."""

    __slots__ = ("_queue",)

    def __init__(self, queue: _Pending) -> None:
        self._queue = queue

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        if self._queue:
            return self._queue.popleft()[1]
        raise StopIteration


class _Locked:
    """An iterator read under a lock, so that several threads may read it: each item
    goes to one of them (a generator read by two threads at once raises ValueError)."""

    __slots__ = ("_iterator", "_lock")

    def __init__(self, iterator: Iterator[Any], lock: threading.RLock) -> None:
        self._iterator = iterator
        self._lock = lock

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        with self._lock:
            return next(self._iterator)


class Solutions(Generic[T]):
    """A lazy stream of the solutions of one search.

    >>> from lazysearch import queens
    >>> s = queens(6)
    >>> s.first()
    (4, 2, 0, 5, 3, 1)
    >>> s.count()
    3

    ``count()`` counted the solutions *left*: the first one was already read.

    ``repr()`` (and so the prompt and Jupyter) shows the next few solutions and the
    search's counters; see :meth:`__repr__`.

    Parameters
    ----------
    search:
        The search that produces raw solutions.
    decode:
        Turns a raw solution into the object users see (a grid, a tiling, a tour).
    """

    def __init__(
        self,
        search: Search,
        decode: Callable[[tuple[Any, ...]], T] | None = None,
        steps: tuple[_Step, ...] = (),
        heads: tuple[tuple[int, _Pending], ...] = (),
    ) -> None:
        self._search = search
        self._lock = _lock_of(search)
        self._decode = decode
        self._steps = steps
        self._iterator: Iterator[T] | None = None
        self._source = _Source(search)
        # Solutions this stream read ahead (for repr), yielded before any other.
        self._peeked: _Pending = deque()
        # Queues read ahead by the streams this one derives from, with how many of the
        # steps their solutions went through: they come before the search's next.
        self._heads = heads

    def _derive(self, step: _Step) -> Solutions[Any]:
        heads = (*self._heads, (len(self._steps), self._peeked))
        return Solutions(self._search, self._decode, (*self._steps, step), heads)

    # -- iteration -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        return self

    def __bool__(self) -> bool:
        """Refused: a lazy stream cannot say whether it holds a solution without
        searching, and a plain iterator would be true even with none.

        >>> from lazysearch import queens
        >>> bool(queens(2))
        Traceback (most recent call last):
        ...
        TypeError: a stream of solutions has no truth value: ask stream.exists() ...
        """
        raise TypeError(
            "a stream of solutions has no truth value: ask stream.exists() (it reads and "
            "consumes at most one solution) or stream.first(None)"
        )

    def __next__(self) -> T:
        with self._lock:  # one reader at a time steps the search (see the module notes)
            if self._peeked:
                found: T = self._peeked.popleft()[1]
                return found
            if self._iterator is None:
                self._iterator = self._build()
            return next(self._iterator)

    def _build(self, raw: Iterator[tuple[Any, ...]] | None = None) -> Iterator[T]:
        # The source gates the raw solutions only where a read-ahead may need more of
        # them than it keeps (behind a filter); elsewhere the search's chunks bound it.
        if raw is None:
            gated = any(kind == "filter" for kind, _ in self._steps)
            raw = self._source if gated else self._search
        it: Iterator[Any] = raw
        if self._decode is not None:
            it = map(self._decode, it)
        # A head's solutions went through its first `depth` steps: they join there.
        heads = self._heads
        for depth in range(len(self._steps) + 1):
            for at, queue in heads:
                if at == depth:
                    it = itertools.chain(_Drain(queue), it)
            if depth == len(self._steps):
                break
            kind, arg = self._steps[depth]
            if kind == "filter":
                it = filter(arg, it)
            elif kind == "map":
                it = map(arg, it)
            else:
                it = _more_itertools().islice_extended(it, *arg)
        return it

    def _resume_point(self, own: bool = True) -> dict[str, Any] | None:
        """The checkpoint just before the next solution this stream yields, when it was
        read ahead (None: the search's own position is the stream's); with ``own``
        False, the next its pipeline yields, past what this stream read ahead."""
        queues = (queue for _, queue in reversed(self._heads))
        for queue in itertools.chain((self._peeked,) if own else (), queues):
            if queue:
                return queue[0][0]
        return None

    def _read_ahead(self, n: int, nodes: int) -> bool:
        """Read solutions into this stream's queue until it holds ``n``, the stream
        ends, or about ``nodes`` more nodes were entered; False if the budget stopped it.

        A stream with a ``slice`` step is not read ahead (a slice interrupted by the
        budget could not go on).
        """
        with self._lock:
            return self._read_ahead_locked(n, nodes)

    def _read_ahead_locked(self, n: int, nodes: int) -> bool:
        if len(self._peeked) >= n:
            return True
        if any(kind == "slice" for kind, _ in self._steps):
            return False
        search = self._search
        if self._iterator is None:
            self._iterator = self._build()
        iterator = self._iterator
        source = self._source
        limit = search.stats.nodes + nodes
        previous = search.on_chunk

        def stop_at_budget(s: Search) -> None:
            if previous is not None:
                previous(s)
            if s.stats.nodes >= limit:
                raise _OutOfBudget

        search.on_chunk = stop_at_budget
        source.limit = limit
        try:
            while len(self._peeked) < n:
                before = self._resume_point(own=False) or search.checkpoint()
                self._peeked.append((before, next(iterator)))
        except StopIteration:
            pass
        except _OutOfBudget:
            return False
        finally:
            search.on_chunk = previous
            source.limit = -1
        return True

    # -- taking solutions ------------------------------------------------------------

    def take(self, n: int) -> list[T]:
        """The next ``n`` solutions as a list (fewer if the stream ends first).

        >>> from lazysearch import queens
        >>> queens(4).take(5)
        [(2, 0, 3, 1), (1, 3, 0, 2)]
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"take() needs a whole number n >= 0, got {n!r}")
        return list(itertools.islice(self, n))

    @overload
    def first(self) -> T: ...
    @overload
    def first(self, default: D) -> T | D: ...
    def first(self, default: Any = _MISSING) -> Any:
        """The next solution; ``default`` if there is none.

        Raises
        ------
        ValueError
            If there is no solution and no default was given.
        """
        found = next(self, default)
        if found is _MISSING:
            raise ValueError(
                "first() was called on an empty stream, and no default value was given"
            )
        return found

    @overload
    def nth(self, i: int) -> T | None: ...
    @overload
    def nth(self, i: int, default: D) -> T | D: ...
    def nth(self, i: int, default: Any = None) -> Any:
        """The solution ``i`` places ahead (0: the next one), or ``default`` (None unless
        given); consumes up to it."""
        if i < 0:
            raise ValueError(f"nth() needs i >= 0, got {i}")
        return next(itertools.islice(self, i, None), default)

    def one(self) -> T:
        """The only solution; raises unless there is exactly one.

        It stops reading after a second solution, so it never runs a whole long search.

        >>> from lazysearch import exact_cover
        >>> exact_cover(["a b", "a", "b"]).one()
        Traceback (most recent call last):
        ...
        lazysearch.errors.NotExactlyOneError: one() expected exactly one solution, found at least 2
        """
        only: T = _more_itertools().one(
            self,
            too_short=NotExactlyOneError("one() expected exactly one solution, found 0"),
            too_long=NotExactlyOneError("one() expected exactly one solution, found at least 2"),
        )
        return only

    def to_numpy(self, n: int | None = None, dtype: Any = None) -> Any:
        """The next ``n`` solutions (all the rest when ``n`` is None) as a NumPy array,
        one row a solution: for streams whose solutions all have the same length.

        >>> from lazysearch import queens
        >>> queens(6).to_numpy()
        array([[4, 2, 0, 5, 3, 1],
               [2, 5, 1, 4, 0, 3],
               [3, 0, 4, 1, 5, 2],
               [1, 3, 5, 0, 2, 4]])

        ``dtype`` is NumPy's (found from the solutions when None).  An empty stream
        gives an array of shape ``(0, 0)``.  This consumes the solutions it reads.

        Raises
        ------
        LazysearchError
            Naming the first solution whose length differs from the first one's, or
            that has no length; nothing is returned then.
        ModuleNotFoundError
            Without NumPy (``pip install 'lazysearch[numpy]'``).
        """
        try:
            import numpy
        except ModuleNotFoundError as exc:
            raise ModuleNotFoundError(
                "to_numpy() needs NumPy: pip install numpy (or 'lazysearch[numpy]')",
                name="numpy",
            ) from exc
        rows = list(self) if n is None else self.take(n)
        if not rows:
            return numpy.empty((0, 0), dtype=dtype if dtype is not None else int)
        width = -1
        for i, row in enumerate(rows):
            if not hasattr(row, "__len__"):
                raise LazysearchError(
                    f"to_numpy() needs solutions of one length; solution {i} has no length: "
                    f"{_short(repr(row))}"
                )
            if i == 0:
                width = len(row)
            elif len(row) != width:
                raise LazysearchError(
                    f"to_numpy() needs solutions of one length; solution {i} has {len(row)} "
                    f"entries where solution 0 has {width}: {_short(repr(row))}"
                )
        return numpy.array(rows, dtype=dtype)

    def exists(self) -> bool:
        """Whether there is a next solution; reads (and consumes) at most one."""
        return next(self, _MISSING) is not _MISSING

    def count(
        self,
        workers: int | None = None,
        executor: Executor | None = None,
        *,
        method: str = "auto",
        max_nodes: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | None = None,
    ) -> int:
        """How many solutions are left; consumes the stream.

        >>> from lazysearch import polyomino
        >>> domino = polyomino.piece("D", "DD")
        >>> polyomino.tile(polyomino.rectangle(8, 8), [domino], copies={"D": None}).count()
        12988816

        An unfiltered stream counts with the engine's own loop, building no solution
        objects.  With ``workers=N`` the tree is split into subtrees counted in a pool of
        N processes; with ``executor=`` any ``concurrent.futures.Executor`` does the work
        (a Dask ``Client.get_executor()`` spreads it over a cluster).

        Parameters
        ----------
        method:
            ``"enumerate"`` walks the search tree, leaf by leaf.  ``"memo"`` counts an
            exact cover by its subproblems, each counted once and remembered (DXZ; see
            docs/exact-cover.md): many orders of magnitude faster where subproblems
            recur (tilings), much slower where they do not (queens).  ``"auto"`` (the
            default) uses memo where recurrence is known (tilings with pieces used any
            number of times) or where a probe of 256 memo nodes finishes the count or
            finds a quarter of its look-ups already known; else it enumerates.
        max_nodes:
            The most subproblems the memo table may hold (default
            :data:`lazysearch.exactcover.memo.MAX_NODES`, about 4M).
        checkpoint, resume:
            With ``workers`` or ``executor``: a run file to keep the plan and each
            finished subtree's count in, and one to go on from (only the unfinished
            subtrees are counted, by any number of workers); see docs/long-runs.md.
            A resumed count returns the count of the whole run the file began.
            With ``method="memo"`` (one process): a file to keep the memo table in
            (every minute, at Ctrl-C and at the end) and one to go on from
            (:func:`lazysearch.exactcover.memo.count_within`); the count returned is
            the whole count.

        Raises
        ------
        LazysearchError
            For an unknown method; for ``method="memo"`` on a search with no exact
            cover, one already read from, or one with workers or steps.
        MemoLimitError
            When the memo table would hold more than ``max_nodes`` subproblems.

        Notes
        -----
        Parallel counting runs only the search, so it refuses a stream with ``filter``,
        ``map`` or ``slice`` steps; count those with ``count()``.  A memo count counts a
        whole search from its start, so it needs a stream not yet read from.
        """
        # The problem's counting methods (by memo, unless its family has its own): the
        # methods besides "enumerate" and "auto" are theirs.
        counting = capabilities.counting(self._search.problem)
        counting.check_method(method, max_nodes)
        own = method not in ("auto", "enumerate")
        if own and (self._steps or workers is not None or executor is not None):
            raise LazysearchError(
                f"count(method={method!r}) counts the exact cover itself, so it takes no "
                "workers and no filter/map/slice steps"
            )
        if own and (checkpoint is not None or resume is not None):
            # The table is the checkpoint: written every minute, at Ctrl-C and at the end.
            part = counting.count_within(
                self._search, max_nodes=max_nodes, checkpoint=checkpoint, resume=resume
            )
            return int(part.checkpoint["found"])
        if (checkpoint is not None or resume is not None) and workers is None and executor is None:
            raise LazysearchError(
                "count(checkpoint=..., resume=...) keeps a parallel count's plan: give "
                "workers= or executor= (a one-process run is checkpointed with "
                "checkpoint() and resume())"
            )
        if workers is not None or executor is not None:
            if self._steps:
                raise ValueError(
                    "count(workers=..., executor=...) counts the search in other processes and "
                    "cannot run this stream's filter/map/slice steps there; call count() instead"
                )
            pending = self._take_pending()
            counted = capabilities.parallel(self._search.problem).count(
                self._search,
                workers=workers,
                executor=executor,
                checkpoint=checkpoint,
                resume=resume,
            )
            return pending + counted
        if not self._steps:
            if own or (method == "auto" and not self._peeked):
                found = counting.count(self._search, method, max_nodes)
                if found is not None:
                    return found
            return self._take_pending() + self._search.count()
        n: int = _more_itertools().ilen(self)
        return n

    def count_within(
        self,
        seconds: float | None = None,
        nodes: int | None = None,
        samples: int = 1000,
        *,
        workers: int | None = None,
        method: str = "enumerate",
        max_nodes: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | dict[str, Any] | None = None,
    ) -> Partial:
        """Count for at most ``seconds`` and ``nodes`` nodes, then stop: what was counted,
        the fraction walked, Knuth's estimate of the rest and a checkpoint to go on with
        :meth:`resume` (:meth:`lazysearch.search.Search.count_within`; with ``workers``,
        in that many processes, and the checkpoint is a plan's run record).

        With ``method="memo"`` the count is by memoized subproblems from a fresh stream
        (:func:`lazysearch.exactcover.memo.count_within`): the checkpoint is the memo
        table, written to the file ``checkpoint`` too if given, and a fresh stream goes
        on from it with ``count_within(method="memo", resume=part.checkpoint)`` (or the
        file); ``max_nodes`` bounds the table as in :meth:`count`.

        >>> from lazysearch import queens
        >>> part = queens(8).count_within(nodes=500)
        >>> part.found + queens(8).resume(part.checkpoint).count()
        92

        Raises
        ------
        ValueError
            For a stream with ``filter``/``map``/``slice`` steps (the engine counts raw
            solutions), or a bad budget.
        """
        if self._steps:
            raise ValueError(
                "count_within() counts the search's own solutions and cannot run this "
                "stream's filter/map/slice steps; iterate with a budget of your own instead"
            )
        # Besides enumerating, the problem's own counting methods (by memo, unless its
        # family has its own).
        counting = capabilities.counting(self._search.problem)
        methods = ("enumerate", *(m for m in counting.METHODS if m not in ("auto", "enumerate")))
        if method not in methods:
            raise LazysearchError(
                f"count_within() method must be {' or '.join(map(repr, methods))}, got {method!r}"
            )
        if method != "enumerate":
            if workers is not None or self._peeked:
                raise LazysearchError(
                    f"count_within(method={method!r}) counts the exact cover from its start "
                    "in one process: no workers, and a stream not yet read from"
                )
            return counting.count_within(
                self._search,
                seconds,
                nodes,
                samples,
                max_nodes=max_nodes,
                checkpoint=checkpoint,
                resume=resume,
            )
        if max_nodes is not None or checkpoint is not None or resume is not None:
            raise LazysearchError(
                "count_within() takes max_nodes, checkpoint and resume with method='memo' "
                "(an enumeration goes on with resume(part.checkpoint))"
            )
        pending = self._take_pending()
        part = self._search.count_within(seconds, nodes, samples, workers=workers)
        return part._replace(found=pending + part.found)

    def take_within(
        self,
        n: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        samples: int = 1000,
    ) -> Taken:
        """Read up to ``n`` solutions (all, when None) for at most ``seconds`` and
        ``nodes`` nodes, then stop: the solutions read, whether the stream is done, the
        fraction walked, Knuth's estimate of the rest and a checkpoint to go on with
        :meth:`resume` (the listing's side of :meth:`count_within`).

        >>> from lazysearch import queens
        >>> part = queens(8).take_within(nodes=300)
        >>> part.done, 0 < len(part.solutions) < 92
        (False, True)
        >>> rest = queens(8).resume(part.checkpoint).take(100)
        >>> part.solutions + rest == queens(8).take(100)
        True

        The budget is looked at between the engine's chunks of work and after each
        solution, so a call that reads a solution may go past ``nodes`` by the rest of
        a chunk; the stream stays usable, and reading on goes on where it stopped.

        Raises
        ------
        ValueError
            For a negative ``n``, a bad budget, or a stream with ``slice`` steps (whose
            position a stopped read would lose).
        """
        import math
        import time

        if n is not None and n < 0:
            raise ValueError(f"take_within() needs n >= 0, got {n!r}")
        if seconds is not None and not 0 <= seconds < math.inf:
            raise ValueError(f"take_within() needs seconds >= 0, got {seconds!r}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"take_within() needs nodes >= 1, got {nodes!r}")
        if any(kind == "slice" for kind, _ in self._steps):
            raise ValueError(
                "take_within() cannot stop inside a slice step; take_within() first, "
                "then slice the solutions"
            )
        search = self._search
        deadline = None if seconds is None else time.monotonic() + seconds
        end = None if nodes is None else search.stats.nodes + nodes

        def spent() -> bool:
            return (end is not None and search.stats.nodes >= end) or (
                deadline is not None and time.monotonic() >= deadline
            )

        previous = search.on_chunk

        def stop_when_spent(s: Search) -> None:
            if previous is not None:
                previous(s)
            if spent():
                raise _OutOfBudget

        got: list[T] = []
        done = False
        with self._lock:
            search.on_chunk = stop_when_spent
            try:
                while (n is None or len(got) < n) and not spent():
                    if self._peeked:
                        got.append(self._peeked.popleft()[1])
                        continue
                    if self._iterator is None:
                        self._iterator = self._build()
                    got.append(next(self._iterator))
            except StopIteration:
                done = True
            except _OutOfBudget:
                pass
            finally:
                search.on_chunk = previous
        # Stopped by n or the budget just as the search ended: nothing is left either.
        done = done or (not self._peeked and not self._heads and search.done)
        walked = self.progress()
        rest = 0.0 if done else search.estimate(samples, seed=0).rest(walked)
        return Taken(got, done, walked, rest, self.checkpoint())

    def diagram(self, max_nodes: int | None = None) -> Diagram[T]:
        """The solutions of the exact cover behind this stream as a diagram of its
        subproblems (a ZDD), with their exact count, the ``i``-th without the ones
        before, and exactly uniform samples.

        >>> from lazysearch import sudoku
        >>> d = sudoku.solve(".... .... .... ....").diagram()
        >>> d.count(), d.size > 2
        (288, True)
        >>> d.nth(287)
        ((4, 3, 2, 1), (2, 1, 3, 4), (1, 2, 4, 3), (3, 4, 1, 2))

        It is built by the memo walk of ``count(method="memo")``, keeping each
        subproblem's edges besides its count; see
        :class:`lazysearch.exactcover.diagram.Diagram` and docs/exact-cover.md.  It
        describes the whole problem and does not read from (or consume) the stream.
        Its solutions are decoded as the stream's are, in the diagram's own order.

        Parameters
        ----------
        max_nodes:
            The most subproblems the table may hold (default
            :data:`lazysearch.exactcover.memo.MAX_NODES`).

        Raises
        ------
        LazysearchError
            For a stream with filter/map/slice steps, a subtree's stream, a search with
            no exact cover behind it (kakuro, knight's tours, queens from 32 on), or a
            bad ``max_nodes``.
        MemoLimitError
            When the table would hold more than ``max_nodes`` subproblems.
        """
        if self._steps:
            raise LazysearchError(
                "diagram() and sample() draw from the whole problem, so they take a stream "
                "with no filter/map/slice steps; call them on the stream before those steps"
            )
        counting = capabilities.counting(self._search.problem)
        found: Diagram[T] = counting.diagram(self._search, self._decode, max_nodes)
        return found

    def sample(
        self,
        k: int = 1,
        seed: int | None = None,
        *,
        max_nodes: int | None = None,
        replace: bool = True,
    ) -> list[T]:
        """``k`` solutions drawn exactly uniformly from the whole problem: independently
        (with replacement, so one may come twice, as ``random.choices`` draws) or, with
        ``replace=False``, ``k`` different ones (as ``random.sample`` draws); the same
        seed gives the same ones.

        >>> from lazysearch import queens
        >>> queens(8).sample(2, seed=5) == queens(8).sample(2, seed=5)
        True
        >>> len(set(queens(6).sample(4, seed=1, replace=False)))
        4

        ``diagram(max_nodes).sample(k, seed, replace=replace)``: see :meth:`diagram`.
        It does not consume the stream.  Without replacement, ``k`` more than the
        solutions there are raises :class:`~lazysearch.errors.LazysearchError`.
        """
        capabilities.counting(self._search.problem).check_sample(k, seed)
        return self.diagram(max_nodes).sample(k, seed, replace=replace)

    def cheapest(self, k: int | None = None) -> Solutions[T]:
        """The covers of an exact cover with costs in non-decreasing order of cost (the
        ``k`` cheapest, when given), as a new stream.

        >>> from lazysearch.exactcover import ExactCover
        >>> p = ExactCover(["a b", "a", "b", "b c", "c"], costs=[5, 1, 1, 1, 4])
        >>> [(cover, p.cost(cover)) for cover in p.solve().cheapest(2)]
        [((1, 3), 2), ((1, 2, 4), 6)]

        With ``k``, one branch-and-bound walk keeps the ``k`` best covers found so far
        (Knuth's DLX5) and lists them when it ends; without, each cost is found by such
        a walk, then its covers are listed (see :mod:`lazysearch.exactcover.cheapest`).
        Covers of equal cost come in the order found.  The new stream keeps this
        stream's ``filter``/``map``/``slice`` steps, its checkpoints resume it, and it
        has no subtrees.

        Raises
        ------
        LazysearchError
            For a stream already read from, of a subtree, or of a problem without costs
            (an :class:`~lazysearch.exactcover.ExactCover` made with ``costs=``).
        ValueError
            For ``k`` not an int >= 0.
        """
        if k is not None and (type(k) is not int or k < 0):
            raise ValueError(f"cheapest() needs k = None or an int >= 0, got {k!r}")
        search = self._search
        make = getattr(search.problem, "cheapest", None)
        if make is None or not getattr(search.problem, "costs", None):
            raise LazysearchError(
                "cheapest() needs an exact cover with costs (ExactCover(..., costs=[...]))"
            )
        if search.prefix or search.stats.nodes or self._peeked or self._heads:
            raise LazysearchError(
                "cheapest() orders the whole problem, so it needs a stream not read from "
                "and not of a subtree"
            )
        return Solutions(make(k), self._decode, self._steps)

    def _take_pending(self) -> int:
        """Drop the solutions read ahead (a stream without steps has only its own) and
        say how many there were: counting consumes them too."""
        queues = (self._peeked, *(queue for _, queue in self._heads))
        n = sum(len(queue) for queue in queues)
        for queue in queues:
            queue.clear()
        return n

    def parallel(self, workers: int | None = None, executor: Executor | None = None) -> Iterator[T]:
        """The solutions left, found by ``workers`` processes (or any ``executor``) and
        yielded in the same order as plain iteration; consumes the stream.

        >>> from lazysearch import queens
        >>> list(queens(6).parallel(workers=2)) == list(queens(6))
        True

        The tree is split into subtrees as for ``count(workers=...)``; each worker walks
        whole subtrees and sends their solutions back, and they are yielded subtree by
        subtree, in order, with this stream's ``filter``/``map``/``slice`` steps applied
        here.  A few subtrees are worked on ahead of the one being read.
        """
        iterate = capabilities.parallel(self._search.problem).iterate
        rest = self._build(iterate(self._search, workers=workers, executor=executor))
        # Read under the search's lock, as the stream is: each solution goes to one reader.
        return _Locked(itertools.chain(_Drain(self._peeked), rest), self._lock)

    def through(self, raw: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """The raw solutions ``raw`` of this stream's search, found elsewhere (a listing
        by other processes), decoded and passed through this stream's steps as its own
        would be, after those that the streams it derives from read ahead.

        >>> from lazysearch import queens
        >>> stream = queens(6).map(sorted)
        >>> list(stream.through([(1, 3, 5, 0, 2, 4)]))
        [[0, 1, 2, 3, 4, 5]]
        """
        return self._build(iter(raw))

    # -- combinators -----------------------------------------------------------------

    def filter(self, predicate: Callable[[T], object]) -> Solutions[T]:
        """The solutions for which ``predicate`` is true (lazy)."""
        return self._derive(("filter", predicate))

    def map(self, function: Callable[[T], U]) -> Solutions[U]:
        """``function`` applied to each solution (lazy)."""
        return self._derive(("map", function))

    def slice(
        self, start: int | None, stop: int | None = _MISSING, step: int | None = None
    ) -> Solutions[T]:
        """Solutions ``start:stop:step`` ahead, like ``itertools.islice`` (lazy).

        ``slice(n)`` alone means the first ``n``.  Negative indices work (they hold the
        needed tail in memory), as in ``more_itertools.islice_extended``.
        """
        if stop is _MISSING:
            start, stop = None, start
        return self._derive(("slice", (start, stop, step)))

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: builtins.slice) -> Solutions[T]: ...
    def __getitem__(self, index: int | builtins.slice) -> T | Solutions[T]:
        if isinstance(index, builtins.slice):
            return self.slice(index.start, index.stop, index.step)
        if index < 0:
            tail = deque(self, maxlen=-index)
            found = tail[0] if len(tail) == -index else _MISSING
        else:
            found = self.nth(index, _MISSING)
        if found is _MISSING:
            raise IndexError(f"stream index {index} is out of range")
        return found

    # -- the search behind the stream ------------------------------------------------

    @property
    def search(self) -> Search:
        return self._search

    @property
    def stats(self) -> Stats:
        """The search's counters, solutions read ahead for ``repr`` included."""
        return self._search.stats

    @property
    def position(self) -> tuple[int, ...]:
        """Where the stream is: the search's position, or before the solutions it read
        ahead and has not yielded yet."""
        before = self._resume_point()
        return self._search.position if before is None else tuple(before["position"])

    def progress(self) -> float:
        """Fraction of the search tree already walked (never decreases)."""
        return self._search.progress()

    def checkpoint(self) -> dict[str, Any]:
        """The stream's position as a JSON-able dict; see :meth:`resume`.

        Solutions read ahead for ``repr`` and not yet yielded come after it.
        """
        before = self._resume_point()
        return self._search.checkpoint() if before is None else dict(before)

    def resume(self, checkpoint: dict[str, Any]) -> Solutions[T]:
        """A new stream of this problem that goes on where ``checkpoint`` was taken.

        >>> from lazysearch import queens
        >>> s = queens(6)
        >>> s.take(1)
        [(4, 2, 0, 5, 3, 1)]
        >>> queens(6).resume(s.checkpoint()).take(5)
        [(2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (1, 3, 5, 0, 2, 4)]

        The new stream keeps this stream's ``filter``/``map`` steps; a ``slice`` starts
        counting afresh.
        """
        return Solutions(self._search.resume(checkpoint), self._decode, self._steps)

    def subtrees(self, depth: int) -> list[tuple[int, ...]]:
        """Positions of the nodes ``depth`` levels down; see :meth:`Search.subtrees`."""
        return self._search.subtrees(depth)

    def subtree(self, prefix: Sequence[int]) -> Solutions[T]:
        """A new stream of only the solutions below position ``prefix``."""
        return Solutions(self._search.subtree(prefix), self._decode, self._steps)

    def estimate(self, samples: int = 1000, seed: int | None = None) -> Estimate:
        """Knuth's random-probe estimate of the tree size and solution count."""
        return self._search.estimate(samples, seed)

    def __repr__(self) -> str:
        """The next few solutions and the counters: what the prompt and Jupyter show.

        >>> from lazysearch import exact_cover, queens
        >>> queens(8)
        <Solutions of exact-cover: 0 found in 0 nodes; next:
          (5, 3, 6, 0, 2, 4, 1, 7)
          (5, 3, 6, 0, 7, 1, 4, 2)
          (4, 7, 3, 0, 2, 5, 1, 6)
          ...>
        >>> s = exact_cover(["a", "b", "a b"])
        >>> s
        <Solutions of exact-cover: 0 found in 0 nodes; next:
          (0, 1)
          (2,)
          (no more)>
        >>> s.take(5)
        [(0, 1), (2,)]
        >>> s
        <Solutions of exact-cover: 2 found in 4 nodes; no more>

        To show them it reads up to :data:`PREVIEW` solutions ahead, searching at most
        about :data:`PREVIEW_NODES` nodes (one more chunk at worst) each time it is
        shown, so a solution far away costs a bounded wait, not a hang.  What it read
        is kept and yielded first by iteration, ``take``, ``count`` and the rest, and
        ``checkpoint()`` and ``position`` still come before it; only ``stats`` (the
        search's own counters) includes it.  The counters shown are the stream's:
        solutions found and nodes entered before the ones shown.  A stream with a
        ``slice`` step is not read ahead.
        """
        kind = self._search.problem.kind
        complete = self._read_ahead(PREVIEW, PREVIEW_NODES)
        before = self._resume_point()
        if before is None:
            stats = self._search.stats
            found, nodes = stats.solutions, stats.nodes
        else:
            found, nodes = before["solutions"], before["nodes"]
        head = f"<Solutions of {kind}: {found:,} found in {nodes:,} nodes"
        shown = [item for _, item in itertools.islice(self._peeked, PREVIEW)]
        # Nothing can follow what is shown: the search is over, no other queue holds
        # solutions for this stream, and its own holds no more than were shown.
        ended = (
            self._search.done
            and len(self._peeked) <= PREVIEW
            and not any(queue for _, queue in self._heads)
        )
        if any(kind == "slice" for kind, _ in self._steps) and not shown:
            return f"{head}; a sliced stream is not read ahead to be shown>"
        if not shown:
            if ended:
                return f"{head}; no more>"
            return f"{head}; none more within {PREVIEW_NODES:,} nodes of reading ahead>"
        lines = [f"{head}; next:", *(f"  {_short(repr(item))}" for item in shown)]
        if ended:
            lines.append("  (no more)")
        elif complete:
            lines.append("  ...")
        else:
            lines.append(f"  (none more within {PREVIEW_NODES:,} nodes of reading ahead)")
        return "\n".join(lines) + ">"


def _short(text: str, width: int = 200) -> str:
    """``text`` cut to ``width`` characters, ``...`` marking the cut."""
    return text if len(text) <= width else text[: width - 3] + "..."
