"""Solutions: the lazy stream every solver returns.

A stream is a one-pass iterator, like a generator: reading a solution consumes it.
Combinators (``filter``, ``map``, ``slice``) return new streams that draw from the same
search, so nothing runs until a solution is asked for.  The stream also exposes its
search: checkpoints, subtrees, progress, estimates and statistics.
"""

from __future__ import annotations

import builtins
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from .errors import NotExactlyOneError
from .search import Estimate, Search, Stats

if TYPE_CHECKING:
    from concurrent.futures import Executor

T = TypeVar("T")
U = TypeVar("U")

_MISSING: Any = object()


def _more_itertools() -> Any:
    """more-itertools, imported on first use: importing it costs ~30 ms, more than the
    rest of ``import lazysearch`` and than proving a hard sudoku unique, so the plainest
    steps (``take``, ``first``, ``nth``) use ``itertools`` directly, as more-itertools'
    own recipes do."""
    import more_itertools

    return more_itertools


# A pipeline step: ("filter", predicate), ("map", function) or ("slice", (start, stop, step)).
_Step = tuple[str, Any]


class Solutions(Generic[T]):
    """A lazy stream of the solutions of one search.

    >>> from lazysearch import queens
    >>> s = queens(6)
    >>> s.first()
    (4, 2, 0, 5, 3, 1)
    >>> s.count()
    3

    ``count()`` counted the solutions *left*: the first one was already read.

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
    ) -> None:
        self._search = search
        self._decode = decode
        self._steps = steps
        self._iterator: Iterator[T] | None = None

    def _derive(self, step: _Step) -> Solutions[Any]:
        return Solutions(self._search, self._decode, (*self._steps, step))

    # -- iteration -------------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        if self._iterator is None:
            self._iterator = self._build()
        return next(self._iterator)

    def _build(self, raw: Iterator[tuple[Any, ...]] | None = None) -> Iterator[T]:
        it: Iterator[Any] = self._search if raw is None else raw
        if self._decode is not None:
            it = map(self._decode, it)
        for kind, arg in self._steps:
            if kind == "filter":
                it = filter(arg, it)
            elif kind == "map":
                it = map(arg, it)
            else:
                it = _more_itertools().islice_extended(it, *arg)
        return it

    # -- taking solutions ------------------------------------------------------------

    def take(self, n: int) -> list[T]:
        """The next ``n`` solutions as a list (fewer if the stream ends first).

        >>> from lazysearch import queens
        >>> queens(4).take(5)
        [(2, 0, 3, 1), (1, 3, 0, 2)]
        """
        if n < 0:
            raise ValueError(f"take() needs n >= 0, got {n}")
        return list(itertools.islice(self, n))

    def first(self, default: Any = _MISSING) -> T:
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

    def nth(self, i: int, default: Any = None) -> T:
        """The solution ``i`` places ahead (0: the next one), or ``default``; consumes up to it."""
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

    def exists(self) -> bool:
        """Whether there is a next solution; reads (and consumes) at most one."""
        return next(self, _MISSING) is not _MISSING

    def count(self, workers: int | None = None, executor: Executor | None = None) -> int:
        """How many solutions are left; consumes the stream.

        An unfiltered stream counts with the engine's own loop, building no solution
        objects.  With ``workers=N`` the tree is split into subtrees counted in a pool of
        N processes; with ``executor=`` any ``concurrent.futures.Executor`` does the work
        (a Dask ``Client.get_executor()`` spreads it over a cluster).

        Notes
        -----
        Parallel counting runs only the search, so it refuses a stream with ``filter``,
        ``map`` or ``slice`` steps; count those with ``count()``.
        """
        if workers is not None or executor is not None:
            if self._steps:
                raise ValueError(
                    "count(workers=..., executor=...) counts the search in other processes and "
                    "cannot run this stream's filter/map/slice steps there; call count() instead"
                )
            from .parallel import count as parallel_count

            return parallel_count(self._search, workers=workers, executor=executor)
        if not self._steps:
            return self._search.count()
        n: int = _more_itertools().ilen(self)
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
        from .parallel import iterate

        return self._build(iterate(self._search, workers=workers, executor=executor))

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
        return (
            self.nth(index, _MISSING)
            if index >= 0
            else _more_itertools().last(self.slice(index, None))
        )

    # -- the search behind the stream ------------------------------------------------

    @property
    def search(self) -> Search:
        return self._search

    @property
    def stats(self) -> Stats:
        return self._search.stats

    @property
    def position(self) -> tuple[int, ...]:
        return self._search.position

    def progress(self) -> float:
        """Fraction of the search tree already walked (never decreases)."""
        return self._search.progress()

    def checkpoint(self) -> dict[str, Any]:
        """The search's position as a JSON-able dict; see :meth:`resume`."""
        return self._search.checkpoint()

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
        s = self._search.stats
        state = "done" if self._search.done else f"{s.solutions} found so far"
        return f"<Solutions of {self._search.problem.kind}: {state}>"
