"""Counting exact covers by memoized subproblems: which problems can, how, and when
``count(method="auto")`` does.

The engine is :mod:`lazysearch.exactcover._memo` (compiled like the other engines).
This module finds the exact cover behind a search's problem (a :class:`DLXProblem`, a
:class:`~lazysearch.race.Race` of them, the queens' orders, a tiling's bitboards), lays
its items out in the order the walk should branch in, and runs the walk in chunks so
that Ctrl-C is heard.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _native
from ..errors import LazysearchError, MemoLimitError
from ..search import CHUNK

if TYPE_CHECKING:
    from ..search import Search
    from .diagram import Diagram
    from .problem import DLXProblem

#: The counting methods ``Solutions.count`` knows.
METHODS = ("auto", "enumerate", "memo")

#: The subproblems the table may hold by default (about 100 bytes each as Python ints
#: on a 144-cell board, measured: some 400 MB at the bound).
MAX_NODES = 1 << 22

#: ``auto``'s probe: the memo walk may enter this many nodes before the rule decides.
PROBE_NODES = 256

#: ``auto`` goes on by memo when at least this share of the probe's look-ups hit.
PROBE_HITS = 0.25


class MemoCover(NamedTuple):
    """An exact cover as the memo walk takes it.

    ``order`` lists the primary items (1-based) in the order the walk branches on them,
    the first uncovered one each time (a sweep of a tiling's cells); ``None`` branches
    on the item with the fewest options.  ``likely`` says that subproblems are known to
    recur (tilings with pieces used any number of times): ``auto`` then counts by memo
    without a probe.
    """

    problem: DLXProblem
    order: tuple[int, ...] | None = None
    likely: bool = False


def cover_of(problem: Any) -> MemoCover | None:
    """The exact cover behind ``problem`` (what :class:`Search` walks), or None when it
    has none (kakuro, knight's tours)."""
    from ..race import Race

    if isinstance(problem, Race):
        return cover_of(problem.problems[0])
    own = getattr(problem, "memo_cover", None)
    if own is None:
        return None
    cover: MemoCover = own()
    return cover


def check_method(method: object, max_nodes: object) -> None:
    """Raise unless ``method`` and ``max_nodes`` are values ``count`` takes."""
    if method not in METHODS:
        raise LazysearchError(
            f"count() method must be one of {', '.join(map(repr, METHODS))}, got {method!r}"
        )
    if max_nodes is not None:
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise LazysearchError(f"count() max_nodes must be an int >= 1, got {max_nodes!r}")
        if method == "enumerate":
            raise LazysearchError(
                "count() max_nodes bounds the memo table, and method='enumerate' keeps none"
            )


def engine(cover: MemoCover, max_nodes: int, record: bool = False) -> Any:
    """A memo engine for ``cover``, its primary items renumbered in the branching order
    (with ``record``, one that keeps the diagram)."""
    module = _native.load("lazysearch.exactcover._memo")
    p = cover.problem
    items = p.option_items
    rule = module.MRV
    if cover.order is not None:
        rule = module.FIRST
        number = [0] * (p.primary + 1)
        for k, i in enumerate(cover.order):
            number[i] = k + 1
        items = tuple(tuple(number[i] if i <= p.primary else i for i in option) for option in items)
    return module.MemoEngine(
        p.primary, p.secondary, items, p.option_colors, rule, max_nodes, record
    )


def walk(memo: Any, max_nodes: int, what: str = "count(method='memo')") -> int:
    """Run ``memo`` to its count, in chunks (so Ctrl-C is heard between them); ``what``
    names the call in the error when the table outgrows ``max_nodes``."""
    module = _native.load("lazysearch.exactcover._memo")
    try:
        while not memo.run(CHUNK):
            pass
    except module.TableFull:
        instead = ", or count by method='enumerate'" if what.startswith("count") else ""
        raise MemoLimitError(
            f"{what} needs more than max_nodes={max_nodes:,} subproblems "
            f"in its table ({memo.nodes:,} nodes entered); raise max_nodes{instead}"
        ) from None
    total: int = memo.count()
    return total


def count(search: Search, method: str, max_nodes: int | None) -> int | None:
    """The count of ``search`` by memo, or None when ``method='auto'`` decides to
    enumerate (or the search has no exact cover, or has already begun).

    Raises
    ------
    LazysearchError
        With ``method='memo'``, when the search has no exact cover behind it or has
        already been read from (a memo count starts at the root).
    MemoLimitError
        When the table would outgrow ``max_nodes``.
    """
    cover = cover_of(search.problem)
    fresh = search.prefix == () and search.stats.nodes == 0 and not search.done
    if method == "memo":
        if cover is None:
            raise LazysearchError(
                f"count(method='memo') counts exact covers; a {search.problem.kind} search "
                "has none behind it"
            )
        if not fresh:
            raise LazysearchError(
                "count(method='memo') counts a whole search from its start, and this one "
                f"was already read ({search.stats.nodes:,} nodes in, or a subtree)"
            )
    elif cover is None or not fresh:
        return None
    bound = MAX_NODES if max_nodes is None else max_nodes
    memo = engine(cover, bound)
    if method == "auto" and not cover.likely:
        # A short probe: the count if it ends within it, else memo only if its
        # subproblems already recur (see docs/exact-cover.md for the measurements).
        try:
            if not memo.run(PROBE_NODES) and memo.hits < PROBE_HITS * memo.nodes:
                return None
        except _native.load("lazysearch.exactcover._memo").TableFull:
            return None
    total = walk(memo, bound)
    search._finish(min(total, (1 << 63) - 1), int(memo.nodes))
    return total


def diagram(
    search: Search, decode: Callable[[tuple[int, ...]], Any] | None, max_nodes: int | None
) -> Diagram[Any]:
    """The diagram of the exact cover behind ``search`` (the whole problem, wherever the
    search is), its solutions decoded by ``decode``.

    Raises
    ------
    LazysearchError
        When ``max_nodes`` is not an int >= 1, the search has no exact cover behind it,
        or it is a subtree's (the diagram would hold solutions outside it).
    MemoLimitError
        When the table would outgrow ``max_nodes``.
    """
    from .diagram import Diagram

    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
    ):
        raise LazysearchError(f"diagram() max_nodes must be an int >= 1, got {max_nodes!r}")
    cover = cover_of(search.problem)
    if cover is None:
        raise LazysearchError(
            "diagram() is built by the memo walk of the exact cover behind a search, and "
            f"this {search.problem.kind} search exposes none"
        )
    if search.prefix != ():
        raise LazysearchError(
            "diagram() describes a whole problem, and this stream is a subtree's "
            f"(below {search.prefix})"
        )
    bound = MAX_NODES if max_nodes is None else max_nodes
    memo = engine(cover, bound, record=True)
    walk(memo, bound, "diagram()")
    root, items, first, counts, options, children = memo.diagram()
    if cover.order is not None:  # back to the problem's own item numbers
        order = (0, *cover.order)
        items = [order[i] for i in items]
    return Diagram(
        int(root),
        array("q", items),
        array("q", [*first, len(options)]),
        counts,
        array("q", options),
        array("q", children),
        decode,
    )
