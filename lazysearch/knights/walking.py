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
from dataclasses import dataclass
from typing import Any

from ..errors import CheckpointError, LazysearchError
from ..search import CHUNK, Search

Square = tuple[int, int]

WALK_FORMAT = "lazysearch-knights-walk"
WALK_VERSION = 1


@dataclass
class WalkCount:
    """A count by walking, whole or stopped (:func:`count_within`).

    ``count``: the tours counted so far, in :func:`lazysearch.knights.count_tours`'s
    terms (directed open tours; closed tours as cycles), the whole count when ``done``;
    ``searches``: how many searches the count adds up, ``finished`` how many are done;
    ``progress``: the fraction of the tree of the search under way already walked
    (Knuth's measure, :meth:`lazysearch.Search.progress`); ``nodes``: the nodes entered
    by all the runs so far; ``checkpoint``: the record to go on from (JSON-able).
    """

    count: int
    done: bool
    searches: int
    finished: int
    progress: float
    nodes: int
    checkpoint: dict[str, Any]


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
) -> dict[str, Any]:
    from ..longrun import digest

    done = [str(n) for n in finished]
    return {
        "format": WALK_FORMAT,
        "version": WALK_VERSION,
        "rows": rows,
        "cols": cols,
        "closed": closed,
        "start": None if start is None or closed else list(start),
        "finished": done,
        "current": current,
        "found": str(found),
        "nodes": nodes,
        "sha256": digest([done, current, str(found), nodes]),
    }


def read_checkpoint(
    source: str | os.PathLike[str] | dict[str, Any],
    rows: int,
    cols: int,
    start: Square | None,
    closed: bool,
    searches: int,
) -> tuple[list[int], dict[str, Any] | None, int, int]:
    """The finished searches' counts, the position of the one under way (or None), its
    count so far and the nodes so far, from a checkpoint of this count (a file, or
    the record itself).

    Raises :class:`~lazysearch.errors.CheckpointError` naming the file when it is torn
    (not JSON), not such a checkpoint, of another version, board, kind or start, or
    altered (its sha256 does not match); ``OSError`` when it cannot be read.
    """
    from ..longrun import digest, read_record

    what = "a checkpoint of a knight's tour count by walking"
    if isinstance(source, dict):
        name, record = "the checkpoint given", source
        if record.get("format") != WALK_FORMAT or record.get("version") != WALK_VERSION:
            raise CheckpointError(f"{name} is not {what} (version {WALK_VERSION})")
    else:
        name = os.fspath(source)
        record = read_record(name, WALK_FORMAT, WALK_VERSION, what)
    theirs = (record.get("rows"), record.get("cols"), record.get("closed"))
    ours_start = None if start is None or closed else list(start)
    their_start = None if record.get("closed") else record.get("start")
    if theirs != (rows, cols, closed) or their_start != ours_start:
        raise CheckpointError(
            f"{name} is a checkpoint of {_board_words(*theirs, their_start)}, "
            f"not of {_board_words(rows, cols, closed, ours_start)}"
        )
    finished, current = record.get("finished"), record.get("current")
    found, nodes = record.get("found"), record.get("nodes")
    if not (
        isinstance(finished, list)
        and len(finished) <= searches
        and all(isinstance(n, str) and n.isascii() and n.isdigit() for n in finished)
        and (current is None or (isinstance(current, dict) and len(finished) < searches))
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
    if record.get("sha256") != digest([finished, current, found, nodes]):
        raise CheckpointError(f"{name}: does not match its sha256: altered or damaged")
    return [int(n) for n in finished], current, int(found), nodes


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

    Raises
    ------
    LazysearchError
        For a bad budget (``seconds`` < 0 or not finite, ``nodes`` < 1).
    CheckpointError
        When ``resume`` is not a checkpoint of this count, or ``checkpoint`` exists and
        is not one (it is never overwritten).
    """
    from ..longrun import save

    if seconds is not None and not 0 <= seconds < math.inf:
        raise LazysearchError(f"count_within() needs seconds >= 0, got {seconds!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise LazysearchError(f"count_within() needs nodes >= 1, got {nodes!r}")
    if checkpoint is not None and not (
        isinstance(resume, (str, os.PathLike)) and os.fspath(checkpoint) == os.fspath(resume)
    ):
        check_checkpoint_path(checkpoint)
    plan = walks(rows, cols, start, closed)
    finished: list[int] = []
    current: dict[str, Any] | None = None
    found = spent_before = 0
    if resume is not None:
        finished, current, found, spent_before = read_checkpoint(
            resume, rows, cols, start, closed, len(plan)
        )
    deadline = None if seconds is None else time.monotonic() + seconds
    spent = 0  # nodes entered by this run
    last_saved = time.monotonic()
    search: Search | None = None

    def record() -> dict[str, Any]:
        here = None if search is None or search.done else search.checkpoint()
        return _record(rows, cols, start, closed, finished, here, found, spent_before + spent)

    def total() -> int:
        so_far = sum(weight * n for (_, weight), n in zip(plan, finished, strict=False))
        if len(finished) < len(plan):
            so_far += plan[len(finished)][1] * found
        return so_far

    stopped = False
    while len(finished) < len(plan) and not stopped:
        square, _ = plan[len(finished)]
        search = _search(rows, cols, square, closed)
        if current is not None:
            search = search.resume(current)
            current = None
        while not search.done:
            left = None if nodes is None else nodes - spent
            if (
                (left is not None and left <= 0)
                or (deadline is not None and time.monotonic() >= deadline)
                or (stop is not None and stop())
            ):
                stopped = True
                break
            before = search.stats.nodes
            part = search.count_within(nodes=CHUNK if left is None else min(CHUNK, left), samples=1)
            found += part.found
            spent += search.stats.nodes - before
            if checkpoint is not None and time.monotonic() - last_saved >= every:
                save(checkpoint, record())
                last_saved = time.monotonic()
        if search.done:
            finished.append(found)
            found = 0
            search = None
    saved = record()
    if checkpoint is not None:
        save(checkpoint, saved)
    progress = 0.0 if search is None else search.progress()
    done = len(finished) == len(plan)
    return WalkCount(
        total(),
        done,
        len(plan),
        len(finished),
        1.0 if done else progress,
        spent_before + spent,
        saved,
    )


def check_checkpoint_path(path: str | os.PathLike[str]) -> None:
    """Refuse to overwrite a file that is not a checkpoint of a count by walking."""
    import json

    name = os.fspath(path)
    if not os.path.exists(name):
        return
    try:
        with open(name, encoding="utf-8") as handle:
            head = json.loads(handle.read() or "null")
    except (OSError, ValueError):
        head = None
    if not isinstance(head, dict) or head.get("format") != WALK_FORMAT:
        raise CheckpointError(
            f"{name} exists and is not a checkpoint of a knight's tour count by walking; "
            "not overwriting"
        )
