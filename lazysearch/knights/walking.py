"""Counting knight's tours by walking them, within a budget: the several searches a count
adds up (one per orbit of start squares, or the one from the corner for closed tours),
stopped anywhere and resumed from a checkpoint of which are finished and the position of
the one under way.

>>> part = count_within(5, 6, nodes=100_000)
>>> part.done, part.finished < part.searches, part.count < 37568
(False, True, True)
>>> rest = count_within(5, 6, resume=part.checkpoint)
>>> rest.done, rest.count
(True, 37568)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import CheckpointError, LazysearchError, other_problem
from ..search import CHUNK, Search

Square = tuple[int, int]

WALK_FORMAT = "lazysearch-knights-walk"
#: A walk whose search under way is counted by a plan of subtrees (``workers=`` or
#: ``executor=``) writes version 2, with the plan; one without, version 1 (so a file of a
#: one-process walk is still read by the versions before plans). Both are read.
WALK_VERSION = 2


@dataclass
class WalkCount:
    """A count by walking, whole or stopped (:func:`count_within`).

    ``count``: the tours counted so far, in :func:`lazysearch.knights.count_tours`'s
    terms (directed open tours; closed tours as cycles), the whole count when ``done``;
    ``searches``: how many searches the count adds up, ``finished`` how many are done;
    ``progress``: the fraction of the tree of the search under way already walked
    (Knuth's measure, :meth:`lazysearch.Search.progress`; for a search counted by a
    plan of subtrees, the fraction of its subtrees finished); ``nodes``: the nodes
    entered by all the runs so far; ``checkpoint``: the record to go on from (JSON-able);
    ``limit``: why a stopped count stopped (``"time limit"``, ``"node limit"`` or
    ``"stop"``), None when it is done.
    """

    count: int
    done: bool
    searches: int
    finished: int
    progress: float
    nodes: int
    checkpoint: dict[str, Any]
    limit: str | None = None


def walks(
    rows: int, cols: int, start: Square | None, closed: bool
) -> list[tuple[Square | None, int]]:
    """The searches a count by walking adds up: ``(start square, weight)`` each (for
    closed tours, ``None``: the cycles through the corner, as
    :func:`lazysearch.knights.count_closed` walks them)."""
    from .solver import no_tour_reason, start_orbits

    if closed:
        return [] if no_tour_reason(rows, cols, closed=True) else [(None, 1)]
    if start is not None:
        return [] if no_tour_reason(rows, cols, start=start) else [(start, 1)]
    return [] if no_tour_reason(rows, cols) else list(start_orbits(rows, cols))


def _search(rows: int, cols: int, square: Square | None, closed: bool) -> Search:
    from .solver import KnightsProblem, tours

    if square is None:
        return Search(KnightsProblem(rows, cols, [0], True, second=cols + 2))
    return tours(rows, cols, start=square).search


def _board_words(rows: object, cols: object, closed: object, start: object) -> str:
    kind = "closed tours" if closed else "open tours"
    where = f" from {tuple(start)}" if isinstance(start, list) and not closed else ""
    return f"{rows}x{cols} {kind}{where}"


def _record(
    rows: int,
    cols: int,
    start: Square | None,
    closed: bool,
    finished: list[int],
    current: dict[str, Any] | None,
    found: int,
    nodes: int,
    plan: dict[str, Any] | None = None,
) -> dict[str, Any]:
    from ..longrun import seal

    done = [str(n) for n in finished]
    record = {
        "format": WALK_FORMAT,
        "version": 1 if plan is None else 2,
        "rows": rows,
        "cols": cols,
        "closed": closed,
        "start": None if start is None or closed else list(start),
        "finished": done,
        "current": current,
        "found": str(found),
        "nodes": nodes,
    }
    if plan is not None:
        record["plan"] = plan
    return seal(record)


def _legacy_digest(record: dict[str, Any]) -> str:
    """The digest of a checkpoint written before the digest covered every field."""
    from ..longrun import digest

    mine = [record[key] for key in ("finished", "current", "found", "nodes")]
    return digest([*mine, record["plan"]] if record["version"] == 2 else mine)


class Saved(NamedTuple):
    """A checkpoint of a count by walking, read and checked (:func:`read_checkpoint`)."""

    #: The finished searches' counts, in order.
    finished: list[int]
    #: The position of the search under way (where its plan begins, if it has one).
    current: dict[str, Any] | None
    #: The tours of the search under way counted so far.
    found: int
    #: The nodes entered so far, by all the runs.
    nodes: int
    #: The plan of subtrees the search under way is counted by, with the finished ones
    #: (a parallel count's run-file ``plan``: :class:`lazysearch.longrun.PlanFile`).
    plan: dict[str, Any] | None


def read_checkpoint(
    source: str | os.PathLike[str] | dict[str, Any],
    rows: int,
    cols: int,
    start: Square | None,
    closed: bool,
    searches: int,
) -> Saved:
    """The finished searches' counts, the position of the one under way (or None), its
    count so far, the nodes so far and its plan (or None), from a checkpoint of this
    count (a file, or the record itself).

    Raises :class:`~lazysearch.errors.CheckpointError` naming the file when it is torn
    (not JSON), not such a checkpoint, of another version, board, kind or start, or
    altered (its sha256 does not match); ``OSError`` when it cannot be read.
    """
    from ..longrun import check_plan, check_seal, read_record

    what = "a checkpoint of a knight's tour count by walking"
    if isinstance(source, dict):
        name, record = "the checkpoint given", source
        version = record.get("version")
        if record.get("format") != WALK_FORMAT or type(version) is not int or version not in (1, 2):
            raise CheckpointError(f"{name} is not {what} (version 1 or 2)")
        check_seal(record, name, _legacy_digest)
    else:
        name = os.fspath(source)
        # Version 1: a one-process walk's file, as the versions before plans wrote it.
        record = read_record(name, WALK_FORMAT, (1, WALK_VERSION), what, legacy=_legacy_digest)
    theirs = (record.get("rows"), record.get("cols"), record.get("closed"))
    ours_start = None if start is None or closed else list(start)
    their_start = None if record.get("closed") else record.get("start")
    if theirs != (rows, cols, closed) or their_start != ours_start:
        raise other_problem(
            f"{name} is a checkpoint of {_board_words(*theirs, their_start)}, "
            f"not of {_board_words(rows, cols, closed, ours_start)}"
        )
    finished, current = record.get("finished"), record.get("current")
    found, nodes = record.get("found"), record.get("nodes")
    plan = record.get("plan") if record.get("version") == 2 else None
    if not (
        isinstance(finished, list)
        and len(finished) <= searches
        and all(isinstance(n, str) and n.isascii() and n.isdigit() for n in finished)
        and (current is None or (isinstance(current, dict) and len(finished) < searches))
        and (plan is None or isinstance(current, dict))
        and isinstance(found, str)
        and found.isascii()
        and found.isdigit()
        and isinstance(nodes, int)
        and not isinstance(nodes, bool)
        and nodes >= 0
    ):
        raise CheckpointError(
            f"{name}: checkpoint is damaged (finished={finished!r}, nodes={nodes!r})"
        )
    if plan is not None:
        check_plan(name, {"plan": plan})
        done = plan["done"]
        if sum(entry[1] for entry in done) > int(found) or _plan_nodes(plan) > nodes:
            raise CheckpointError(
                f"{name}: checkpoint is damaged (its plan's subtrees counted more than "
                f"found={found!r} or nodes={nodes!r})"
            )
    return Saved([int(n) for n in finished], current, int(found), nodes, plan)


def _plan_nodes(plan: dict[str, Any]) -> int:
    """The nodes a plan's count has entered: those above its subtrees (walked when it
    was made) and those of its finished subtrees."""
    return int(plan["above"]) + sum(int(entry[2]) for entry in plan["done"])


def _run_record(current: dict[str, Any], plan: dict[str, Any] | None) -> dict[str, Any]:
    """The run record :func:`lazysearch.parallel.count` goes on from: the search under way
    at ``current``, counted by ``plan`` (its unfinished subtrees only), or planned anew
    from ``current`` when there is no plan (a one-process walk's position)."""
    from ..longrun import RUN_FORMAT, RUN_VERSION

    record: dict[str, Any] = {
        "format": RUN_FORMAT,
        "version": RUN_VERSION,
        "command": "library",
        "mode": "count",
        "found": 0 if plan is None else sum(entry[1] for entry in plan["done"]),
        "search": current,
    }
    if plan is not None:
        record["plan"] = plan
    return record


def count_within(
    rows: int,
    cols: int,
    *,
    start: Square | None = None,
    closed: bool = False,
    seconds: float | None = None,
    nodes: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: float = 5.0,
    resume: str | os.PathLike[str] | dict[str, Any] | None = None,
    stop: Callable[[], bool] | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
) -> WalkCount:
    """Count the tours by walking them for at most ``seconds`` and ``nodes`` nodes
    entered (both exact to a chunk of 65,536 nodes at most; the nodes exactly), then
    stop where the walk is.

    The count adds up several searches (:func:`walks`); the checkpoint records the
    counts of the finished ones and the position of the one under way
    (:meth:`lazysearch.Search.checkpoint`), written atomically to the file
    ``checkpoint`` every ``every`` seconds, at the stop and at the end.  ``resume`` (a
    file or a :class:`WalkCount`'s ``checkpoint``) goes on from one, for the same board
    only; the count is the same as one run's.  ``stop`` is looked at between chunks:
    True stops the walk as a budget does (how the command line hears Ctrl-C).

    ``workers`` (more than 1) or ``executor`` count each search in parallel, by
    :func:`lazysearch.parallel.count`: the search is cut into subtrees, and the
    checkpoint records its plan (the subtrees, by position) and each finished
    subtree's count, as a parallel count's run file does.  The node budget is then
    looked at as subtrees finish, ``stop`` every few milliseconds and the time budget
    too (the subtrees under way are given up; before any has finished, the one this
    process walks is cut where it stands, its part kept): a run counts something.  A
    checkpoint of either kind is resumed with any ``workers``: a plan's unfinished
    subtrees are counted (in this process alone for ``workers`` None or 1), and a
    one-process walk's search under way is cut into subtrees from its position on.

    >>> part = count_within(6, 6, closed=True, nodes=20_000, workers=2)
    >>> part.done, part.count < 9862, part.checkpoint["plan"] is not None
    (False, True, True)
    >>> count_within(6, 6, closed=True, resume=part.checkpoint).count
    9862

    Raises
    ------
    LazysearchError
        For a bad budget (``seconds`` < 0 or not finite, ``nodes`` < 1) or ``workers``
        < 1.
    CheckpointError
        When ``resume`` is not a checkpoint of this count, or ``checkpoint`` exists and
        is not one (it is never overwritten).
    """
    _check_budget(seconds, nodes, workers)
    if checkpoint is not None and not (
        isinstance(resume, (str, os.PathLike)) and os.fspath(checkpoint) == os.fspath(resume)
    ):
        check_checkpoint_path(checkpoint)
    walk = _Walk(rows, cols, start, closed, seconds, nodes, checkpoint, stop)
    if resume is not None:
        walk.finished, walk.current, walk.found, walk.spent_before, walk.under = read_checkpoint(
            resume, rows, cols, start, closed, len(walk.searches)
        )
    in_parallel = executor is not None or (workers is not None and workers > 1)
    while len(walk.finished) < len(walk.searches) and walk.limit is None:
        square, _ = walk.searches[len(walk.finished)]
        walk.search = _search(rows, cols, square, closed)
        if in_parallel or walk.under is not None:
            if not walk.count_planned(workers if in_parallel else 1, executor, every):
                break
        else:
            walk.walk_alone(every)
    return walk.result()


def _check_budget(seconds: float | None, nodes: int | None, workers: int | None) -> None:
    """Refuse a budget or a number of workers :func:`count_within` cannot take."""
    if seconds is not None and not 0 <= seconds < math.inf:
        raise LazysearchError(f"count_within() needs seconds >= 0, got {seconds!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise LazysearchError(f"count_within() needs nodes >= 1, got {nodes!r}")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise LazysearchError(f"count_within() needs workers >= 1, got {workers!r}")


class _Walk:
    """A count by walking under way (:func:`count_within`): the counts of the finished
    searches, where the one under way is, and the budget left."""

    def __init__(
        self,
        rows: int,
        cols: int,
        start: Square | None,
        closed: bool,
        seconds: float | None,
        nodes: int | None,
        checkpoint: str | os.PathLike[str] | None,
        stop: Callable[[], bool] | None,
    ) -> None:
        self.rows, self.cols, self.start, self.closed = rows, cols, start, closed
        self.searches = walks(rows, cols, start, closed)
        self.finished: list[int] = []
        self.current: dict[str, Any] | None = None
        self.under: dict[str, Any] | None = None  # the plan of the search under way, if any
        self.found = self.spent_before = 0
        self.nodes = nodes
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.checkpoint = checkpoint
        self.stop = stop
        self.spent = 0  # nodes entered by this run
        self.last_saved = time.monotonic()
        self.search: Search | None = None
        self.limit: str | None = None

    def record(self) -> dict[str, Any]:
        here = self.current
        if self.under is None:
            search = self.search
            here = None if search is None or search.done else search.checkpoint()
        total_nodes = self.spent_before + self.spent
        return _record(
            self.rows,
            self.cols,
            self.start,
            self.closed,
            self.finished,
            here,
            self.found,
            total_nodes,
            self.under,
        )

    def total(self) -> int:
        searches, finished = self.searches, self.finished
        so_far = sum(weight * n for (_, weight), n in zip(searches, finished, strict=False))
        if len(finished) < len(searches):
            so_far += searches[len(finished)][1] * self.found
        return so_far

    def out_of_budget(self) -> str | None:
        if self.nodes is not None and self.nodes - self.spent <= 0:
            return "node limit"
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return "time limit"
        if self.stop is not None and self.stop():
            return "stop"
        return None

    def count_planned(self, workers: int | None, executor: Executor | None, every: float) -> bool:
        """Count the search under way by a plan of subtrees; False when the budget was
        spent before its first subtree (the search then stays where it is)."""
        from .. import longrun, parallel

        search = self.search
        assert search is not None
        self.limit = self.out_of_budget()
        if self.limit is not None:
            if self.under is None:
                self.search = None if self.current is None else search.resume(self.current)
            return False
        # What was counted of the search outside the plan (a one-process walk's part of
        # it) stays as it is, and the plan's finished subtrees are added to it as they
        # finish.
        under = self.under
        outside_found = self.found - (0 if under is None else sum(e[1] for e in under["done"]))
        outside_nodes = (
            self.spent_before + self.spent - (0 if under is None else _plan_nodes(under))
        )
        run_began = self.spent_before + self.spent

        def planned(run: dict[str, Any]) -> None:
            """The plan's run record, as the parallel count saves it: into the walk's."""
            self.under, self.current = run["plan"], run["search"]
            self.found = outside_found + int(run["found"])
            self.spent = outside_nodes + _plan_nodes(self.under) - self.spent_before
            if self.checkpoint is not None:
                longrun.save(self.checkpoint, self.record())

        resumed = None if self.current is None else _run_record(self.current, under)
        try:
            parallel.count_planned(
                search,
                workers=workers,
                executor=executor,
                resume=resumed,
                every=every,
                stop=self.stop,
                deadline=self.deadline,
                nodes=None if self.nodes is None else self.nodes - (run_began - self.spent_before),
                saved=planned,
            )
        except longrun.OutOfBudget as out:
            self.limit = str(out.args[0])
        except longrun.Stop:
            self.limit = "stop"
        else:
            self.finished.append(self.found)
            self.found = 0
            self.under = self.current = self.search = None
        return True

    def walk_alone(self, every: float) -> None:
        """Walk the search under way in this process, a chunk at a time, until it ends
        or the budget does."""
        from .. import longrun

        search = self.search
        assert search is not None
        if self.current is not None:
            search = self.search = search.resume(self.current)
            self.current = None
        while not search.done:
            left = None if self.nodes is None else self.nodes - self.spent
            self.limit = self.out_of_budget()
            if self.limit is not None:
                break
            before = search.stats.nodes
            part = search.count_within(nodes=CHUNK if left is None else min(CHUNK, left), samples=1)
            self.found += part.found
            self.spent += search.stats.nodes - before
            if self.checkpoint is not None and time.monotonic() - self.last_saved >= every:
                longrun.save(self.checkpoint, self.record())
                self.last_saved = time.monotonic()
        if search.done:
            self.finished.append(self.found)
            self.found = 0
            self.search = None

    def result(self) -> WalkCount:
        """The count so far, its checkpoint saved (to the file, if any)."""
        from .. import longrun

        saved = self.record()
        if self.checkpoint is not None:
            longrun.save(self.checkpoint, saved)
        if self.under is not None:
            progress = len(self.under["done"]) / max(1, len(self.under["tasks"]))
        else:
            progress = 0.0 if self.search is None else self.search.progress()
        done = len(self.finished) == len(self.searches)
        return WalkCount(
            self.total(),
            done,
            len(self.searches),
            len(self.finished),
            1.0 if done else progress,
            self.spent_before + self.spent,
            saved,
            None if done else self.limit,
        )


def check_checkpoint_path(path: str | os.PathLike[str]) -> None:
    """Refuse to overwrite a file that is not a checkpoint of a count by walking."""
    from ..longrun import check_overwritable

    check_overwritable(path, WALK_FORMAT, "a checkpoint of a knight's tour count by walking")
