"""What a problem can do besides being walked, found by name: the stream's counting
methods, diagrams and samples, and counting and listing in other processes.

The stream (:mod:`lazysearch.stream`) and the search (:mod:`lazysearch.search`) know no
engine family and no driver: they ask the problem behind a search for a capability,
as :meth:`lazysearch.Solutions.cheapest` asks it for ``cheapest``.  A problem offers
one as an attribute of the capability's name (a family's own way of counting);
otherwise the default provided for that name is used, which the package wires in when
it is imported (counting in parallel works on any search).

A capability is an object with the functions its protocol below names; a module will
do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator
    from concurrent.futures import Executor
    from typing import Protocol

    from .exactcover.diagram import Diagram
    from .search import Partial, Search

    class Counting(Protocol):
        """Counting methods besides the walk (``count(method=...)``), the diagram of
        the solutions and exact samples; :mod:`lazysearch.exactcover.memo` is the
        model.  ``METHODS`` are the names ``count(method=...)`` takes: ``"auto"``,
        ``"enumerate"`` (the walk, the stream's own) and the problem's own methods."""

        METHODS: tuple[str, ...]

        def check_method(self, method: object, max_nodes: object) -> None: ...
        def count(self, search: Search, method: str, max_nodes: int | None) -> int | None: ...
        def count_within(
            self,
            search: Search,
            seconds: float | None = None,
            nodes: int | None = None,
            samples: int = 1000,
            *,
            max_nodes: int | None = None,
            checkpoint: str | os.PathLike[str] | None = None,
            resume: str | os.PathLike[str] | dict[str, Any] | None = None,
        ) -> Partial: ...
        def diagram(
            self,
            search: Search,
            decode: Callable[[tuple[int, ...]], Any] | None,
            max_nodes: int | None,
        ) -> Diagram[Any]: ...
        def check_sample(self, k: object, seed: object) -> None: ...

    class Parallel(Protocol):
        """Counting and listing a search in other processes; :mod:`lazysearch.parallel`
        is the model."""

        def count(
            self,
            search: Search,
            *,
            workers: int | None = None,
            executor: Executor | None = None,
            checkpoint: str | os.PathLike[str] | None = None,
            resume: str | os.PathLike[str] | dict[str, Any] | None = None,
        ) -> int: ...
        def count_within(
            self,
            search: Search,
            seconds: float | None = None,
            nodes: int | None = None,
            samples: int = 1000,
            *,
            workers: int | None = None,
        ) -> Partial: ...
        def iterate(
            self,
            search: Search,
            *,
            workers: int | None = None,
            executor: Executor | None = None,
        ) -> Iterator[tuple[Any, ...]]: ...


#: The capability every problem has unless it offers its own, by name: a function that
#: returns it (so that it is imported on first use).
_DEFAULTS: dict[str, Callable[[], object]] = {}


def provide(name: str, load: Callable[[], object]) -> None:
    """Make ``load()`` the capability ``name`` of every problem that offers none."""
    _DEFAULTS[name] = load


def of(problem: object, name: str) -> object | None:
    """The capability ``name`` of ``problem``: its own attribute of that name, or else
    the default provided for it (None when there is neither)."""
    own: object = getattr(problem, name, None)
    if own is not None:
        return own
    load = _DEFAULTS.get(name)
    return None if load is None else load()


def counting(problem: object) -> Counting:
    """The counting methods of ``problem`` (its ``counting`` capability)."""
    return cast("Counting", _needed(problem, "counting"))


def parallel(problem: object) -> Parallel:
    """How ``problem`` is counted and listed in other processes (its ``parallel``
    capability)."""
    return cast("Parallel", _needed(problem, "parallel"))


def _needed(problem: object, name: str) -> Any:
    found = of(problem, name)
    if found is None:
        raise LookupError(f"no {name!r} capability: import lazysearch to provide the defaults")
    return found
