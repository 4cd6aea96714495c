"""Counting exact covers by memoized subproblems: which problems can, how, and when
``count(method="auto")`` does.

The engine is :mod:`lazysearch.exactcover._memo` (compiled like the other engines).
This module finds the exact cover behind a search's problem (a :class:`DLXProblem`, a
:class:`~lazysearch.race.Race` of them, the queens' orders, a tiling's bitboards), lays
its items out in the order the walk should branch in, and runs the walk in chunks so
that Ctrl-C is heard.
"""

from __future__ import annotations

import math
import os
import time
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import _native
from ..errors import CheckpointError, LazysearchError, MemoLimitError, other_problem
from ..search import CHUNK, Partial
from .diagram import check_sample as check_sample  # (a sample's arguments: the stream's)

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


#: What a search of each kind with no exact cover behind it is, and why a count by memo
#: (which remembers a subproblem by the items left to cover) cannot count it.
_WITHOUT_COVER = {
    "exact-cover": "its items have multiplicities or its options costs (Algorithm M), and "
    "how often each item is still to be covered is not in the items left",
    "kakuro": "it places digits by sums (a kakuro, or a sudoku variant with cages or sums), "
    "with no items and options to cover",
    "knights-tour": "a knight's tour is a path, with no items and options to cover",
    "graph-hamilton": "a Hamiltonian path or cycle has no items and options to cover",
}


def _no_cover(kind: str) -> str:
    """Why a count by memo cannot count a search of ``kind``, and what to use instead.

    >>> _no_cover("kakuro")[:30]
    'it places digits by sums (a ka'
    """
    why = _WITHOUT_COVER.get(kind, f"a {kind} search has no items and options to cover")
    return f"{why}; count it with method='enumerate' (--method enumerate)"


def _whole_cover(search: Search, what: str) -> MemoCover:
    """The exact cover of ``search`` for a memo count ``what`` names, refused when it
    has none or the search was already read from (a memo count starts at the root)."""
    cover = cover_of(search.problem)
    if cover is None:
        raise LazysearchError(f"{what} cannot count this search: {_no_cover(search.problem.kind)}")
    if not (search.prefix == () and search.stats.nodes == 0 and not search.done):
        raise LazysearchError(
            f"{what} counts a whole search from its start, and this one "
            f"was already read ({search.stats.nodes:,} nodes in, or a subtree)"
        )
    return cover


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
        cover = _whole_cover(search, "count(method='memo')")
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
    search.finish(min(total, (1 << 63) - 1), int(memo.nodes))
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


# -- counts within a budget, and their checkpoints -----------------------------------------

CHECKPOINT_FORMAT = "lazysearch-memo-count"
CHECKPOINT_VERSION = 1
#: Seconds between the checkpoints of a count (a table of millions of subproblems takes
#: seconds to write).
DEFAULT_CHECKPOINT_EVERY = 60.0


def problem_digest(cover: MemoCover) -> str:
    """The sha256 of what decides a memo count: the items, the options (numbered in the
    walk's order) and their colours, and the branching rule.  A checkpoint carries it,
    so that a table is never read into the count of another problem."""
    from ..longrun import digest

    p = cover.problem
    order = None if cover.order is None else list(cover.order)
    items = [list(option) for option in p.option_items]
    colours = [list(option) for option in p.option_colors]
    return digest([p.primary, p.secondary, order, items, colours])


def _problem_words(primary: object, options: object) -> str:
    return f"a problem of {primary} primary items and {options} options"


def checkpoint_record(
    cover: MemoCover, table: dict[int, int], found: int, progress: float, nodes: int
) -> dict[str, Any]:
    """A memo count's checkpoint as one JSON object (its table: the count's state)::

        {"format": "lazysearch-memo-count", "version": 1, "problem": "<sha256>",
         "primary": 16, "options": 24, "found": "36", "progress": 0.25, "nodes": 80,
         "table": [["key", "count"], ...], "sha256": "..."}

    ``problem`` is :func:`problem_digest`; ``found`` the solutions below the finished
    subproblems on the walk's way (the count so far), ``progress`` the fraction of the
    tree walked (Knuth's measure), ``nodes`` the nodes entered so far.  Keys and counts
    are decimal strings (exact in any JSON reader), in the table's order, and
    ``sha256`` the digest of all the rest (:func:`lazysearch.longrun.seal`), so an
    altered or torn file is refused.  Never pickle.
    """
    pairs = [[str(key), str(n)] for key, n in table.items()]
    problem = problem_digest(cover)
    from ..longrun import seal

    return seal(
        {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "problem": problem,
            "primary": cover.problem.primary,
            "options": len(cover.problem.option_items),
            "found": str(found),
            "progress": progress,
            "nodes": nodes,
            "table": pairs,
        }
    )


def _legacy_digest(record: dict[str, Any]) -> str:
    """The digest of a checkpoint written before the digest covered every field."""
    from ..longrun import digest

    return digest([record["problem"], record["found"], record["nodes"], record["table"]])


class Saved(NamedTuple):
    """A memo count's checkpoint, read and checked (:func:`read_checkpoint`)."""

    table: dict[int, int]
    found: int
    progress: float
    nodes: int


def read_checkpoint(source: str | os.PathLike[str] | dict[str, Any], cover: MemoCover) -> Saved:
    """The checkpoint in file ``source`` (or the record itself: a :class:`Partial`'s
    ``checkpoint``), checked to be of the count of ``cover``.

    Raises :class:`~lazysearch.errors.CheckpointError` naming the file when it is not
    JSON (a torn file), not a memo count's checkpoint, of another version or another
    problem, or when its contents do not match their sha256; ``OSError`` when it cannot
    be read.
    """
    from ..longrun import check_seal, check_version, read_record

    what = "a checkpoint of a memo count"
    if isinstance(source, dict):
        name = "the checkpoint given"
        record = source
        if record.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{name} is not {what}")
        check_version(record, name, CHECKPOINT_VERSION)
    else:
        name = os.fspath(source)
        record = read_record(
            name, CHECKPOINT_FORMAT, CHECKPOINT_VERSION, what, legacy=_legacy_digest
        )
    if record.get("problem") != problem_digest(cover):
        theirs = _problem_words(record.get("primary"), record.get("options"))
        ours = _problem_words(cover.problem.primary, len(cover.problem.option_items))
        raise other_problem(
            f"{name} is a checkpoint of another problem ({theirs}; this count's is {ours}, "
            "or its items, options or colours differ)"
        )
    if isinstance(source, dict):  # (a file's digest was checked as it was read)
        check_seal(record, name, _legacy_digest)
    found, progress, nodes, pairs = (record.get(k) for k in ("found", "progress", "nodes", "table"))
    if not (
        isinstance(found, str)
        and found.isascii()
        and found.isdigit()
        and isinstance(progress, (int, float))
        and not isinstance(progress, bool)
        and 0 <= progress <= 1
        and isinstance(nodes, int)
        and not isinstance(nodes, bool)
        and nodes >= 0
        and isinstance(pairs, list)
    ):
        raise CheckpointError(f"{name}: checkpoint is damaged (found={found!r}, nodes={nodes!r})")
    # The digest matched, so the pairs are as written; read them in one pass (checking
    # each string first cost more than the rest of a resumed run of 20,000 nodes).
    try:
        table = {int(key): int(n) for key, n in pairs}
    except (TypeError, ValueError):
        table = {-1: -1}
    if table and (min(table) < 0 or min(table.values()) < 0):
        raise CheckpointError(f"{name}: checkpoint is damaged (a key or count is no count)")
    return Saved(table, int(found), float(progress), nodes)


def check_checkpoint_path(path: str | os.PathLike[str]) -> None:
    """Refuse to overwrite a file that is not a memo count's checkpoint (a typo in a
    path must not destroy the user's data)."""
    from ..longrun import check_overwritable

    check_overwritable(path, CHECKPOINT_FORMAT, "a checkpoint of a memo count")


def where(memo: Any) -> tuple[int, float]:
    """The count so far of a stopped walk (the solutions below its finished
    subproblems) and the fraction of the tree walked: each open level adds
    ``k / (d_1 * ... * d_level)`` for its ``k``-th of ``d`` options (Knuth's measure,
    every child weighing the same, as :meth:`lazysearch.Search.progress`)."""
    if memo.done:
        return int(memo.count()), 1.0
    found, levels = memo.walked()
    fraction = 0.0
    weight = 1.0
    for k, d in levels:
        weight /= d
        fraction += k * weight
    return int(found), min(fraction, 1.0)


def _begin(
    search: Search,
    seconds: float | None,
    nodes: int | None,
    max_nodes: int | None,
    checkpoint: str | os.PathLike[str] | None,
    resume: str | os.PathLike[str] | dict[str, Any] | None,
) -> tuple[Any, Any, Saved, int]:
    """:func:`count_within`'s arguments checked, and what it counts with: the cover,
    the memo engine (its table restored from ``resume``), the checkpoint it began with
    and the bound on the table."""
    if seconds is not None and not 0 <= seconds < math.inf:
        raise LazysearchError(f"count_within() needs seconds >= 0, got {seconds!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise LazysearchError(f"count_within() needs nodes >= 1, got {nodes!r}")
    check_method("memo", max_nodes)
    cover = _whole_cover(search, "count_within(method='memo')")
    if checkpoint is not None and not (
        isinstance(resume, (str, os.PathLike)) and os.fspath(checkpoint) == os.fspath(resume)
    ):
        check_checkpoint_path(checkpoint)
    bound = MAX_NODES if max_nodes is None else max_nodes
    memo = engine(cover, bound)
    began = Saved({}, 0, 0.0, 0)
    if resume is not None:
        began = read_checkpoint(resume, cover)
        memo.restore(began.table)
    return cover, memo, began, bound


def count_within(
    search: Search,
    seconds: float | None = None,
    nodes: int | None = None,
    samples: int = 1000,
    *,
    max_nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: float = DEFAULT_CHECKPOINT_EVERY,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> Partial:
    """Count ``search`` by memo for at most ``seconds`` and ``nodes`` nodes entered,
    then stop; the :class:`~lazysearch.search.Partial`'s checkpoint is the memo table.

    >>> from lazysearch import polyomino
    >>> domino = polyomino.piece("D", "DD")
    >>> def board():
    ...     return polyomino.tile(polyomino.rectangle(6, 6), [domino], copies={"D": None})
    >>> part = count_within(board().search, nodes=100)
    >>> part.done, 0 < part.progress < 1
    (False, True)
    >>> rest = count_within(board().search, resume=part.checkpoint)
    >>> rest.done, part.found + rest.found
    (True, 6728)

    ``found`` is this call's share of the count, so that the shares of a count stopped
    and resumed add up to the whole: the count so far (the solutions below the
    subproblems finished on the walk's way down) less the count the checkpoint began
    with.  ``progress`` is the fraction of the tree walked, by Knuth's measure over the
    open levels (each option of a level weighing the same, as
    :meth:`lazysearch.Search.progress`), never less than the checkpoint's; ``rest`` is
    Knuth's estimate of the solutions left, from ``samples`` probes of the search
    (seeded), as in :meth:`lazysearch.Search.count_within`.

    ``checkpoint`` names a file to keep the record in (written atomically every
    ``every`` seconds, at the stop, and at the end); ``resume`` a file or a record
    (``part.checkpoint``) to go on from.  Resuming reads the table and walks from the
    root again: the subproblems in the table are added without being entered, and only
    the open nodes on the way down (at most one per primary item) are entered again,
    so a node budget must be larger than that for a resumed count to get further.
    ``stop`` is called between chunks of the walk: True stops the count as at its
    budget, the checkpoint written (how the command line hears Ctrl-C).  ``progress``
    is called between chunks with the fraction walked so far, as ``progress`` above
    (how the command line's bar follows a count by memo).

    Raises
    ------
    LazysearchError
        For a bad budget, a search with no exact cover behind it, or one already read.
    CheckpointError
        When ``resume`` is not a checkpoint of this problem's count (torn, altered, or
        another problem's), or ``checkpoint`` exists and is no such checkpoint.
    MemoLimitError
        When the table would outgrow ``max_nodes`` (the checkpoint is written first).
    """
    what = "count_within(method='memo')"
    cover, memo, began, bound = _begin(search, seconds, nodes, max_nodes, checkpoint, resume)
    deadline = None if seconds is None else time.monotonic() + seconds
    module = _native.load("lazysearch.exactcover._memo")
    last_saved = time.monotonic()

    def record(whole: bool) -> dict[str, Any]:
        # Not ``whole``: stopped inside a step of the plain-Python walk (Ctrl-C), whose
        # stack may be half updated; its table is right (a count is stored only once
        # known), so the record keeps it with the count and progress it began with.
        found, fraction = where(memo) if whole else (began.found, began.progress)
        return checkpoint_record(
            cover,
            memo.saved(),
            max(found, began.found),
            max(fraction, began.progress),
            began.nodes + int(memo.nodes),
        )

    def save(whole: bool = True) -> dict[str, Any]:
        nonlocal last_saved
        now = record(whole)
        if checkpoint is not None:
            from ..longrun import save as save_atomically

            save_atomically(checkpoint, now)
        last_saved = time.monotonic()
        return now

    try:
        while not memo.done:
            budget = CHUNK if nodes is None else min(CHUNK, nodes - int(memo.nodes))
            if budget <= 0 or (deadline is not None and time.monotonic() >= deadline):
                break
            if stop is not None and stop():
                break
            memo.run(budget)
            if progress is not None:
                progress(max(where(memo)[1], began.progress))
            if checkpoint is not None and time.monotonic() - last_saved >= every:
                save()
    except module.TableFull:
        if checkpoint is not None:
            save()
        raise MemoLimitError(
            f"{what} needs more than max_nodes={bound:,} subproblems in its table "
            f"({int(memo.nodes):,} nodes entered); raise max_nodes"
        ) from None
    except KeyboardInterrupt:
        if checkpoint is not None:
            save(whole=False)
        raise
    saved = save()
    found = int(saved["found"])
    share = found - began.found
    if memo.done:
        search.finish(min(found, (1 << 63) - 1), int(saved["nodes"]))
        return Partial(share, True, 1.0, 0.0, saved)
    walked = float(saved["progress"])
    rest = search.estimate(samples, seed=0).rest(walked)
    return Partial(share, False, walked, rest, saved)
