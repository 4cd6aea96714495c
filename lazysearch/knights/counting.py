"""Counting knight's tours by dynamic programming over the board's cross-sections.

The engine (:mod:`lazysearch.knights._count`) keeps, square by square, every frontier of
partial tours with the number of ways it is reached; this module drives it: the board
turned so that the sweep goes along the long side, the tables (fixed-size ones in the
compiled core while counts stay below ``2**64``, Python dicts beyond), a bound on their
size, progress, and the statistics.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import _native
from ..errors import CheckpointError, other_problem
from .limits import BYTES_PER_STATE, check_width
from .limits import TooManyStatesError as TooManyStatesError  # (its documented home)

Square = tuple[int, int]

CHECKPOINT_FORMAT = "lazysearch-knights-count"
CHECKPOINT_VERSION = 1
#: Seconds between the checkpoints of a count (a table may take a second to write).
DEFAULT_CHECKPOINT_EVERY = 60.0


#: Boards the program was measured not to fit: (short side, long side, closed) of tours
#: of every start, to the frontiers its one table passed and after which square (one
#: run, the table counted in parts that never merge, 70 % of them summed here;
#: docs/knights.md, "8x8 open").
MEASURED_PAST: dict[tuple[int, int, bool], tuple[int, int]] = {
    (8, 8, False): (187_781_774, 30),
}


def check_measured(
    rows: int, cols: int, closed: bool, start: object, limit: int, what: str
) -> None:
    """Raise :class:`TooManyStatesError` at once, before any square is swept, when a
    table of this board (tours of every start) was measured past ``limit`` frontiers:
    the count would only stop there, after minutes of work and gigabytes of memory."""
    k, n = min(rows, cols), max(rows, cols)
    known = MEASURED_PAST.get((k, n, closed))
    if start is not None or known is None or limit >= known[0]:
        return
    states, square = known
    raise TooManyStatesError(
        f"{what} {rows}x{cols} needs more than max_states={limit:,} frontiers: its table "
        f"was measured past {states:,} after square {square} of {k * n} and still growing "
        "(docs/knights.md, '8x8 open'); raise max_states if the machine has the memory "
        f"(about {BYTES_PER_STATE} bytes a frontier)"
    )


def default_max_states() -> int:
    """How many frontiers a count may hold: half the machine's memory at about
    200 bytes each."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        memory = 8 << 30
    return max(1 << 20, memory // 2 // BYTES_PER_STATE)


@dataclass
class FrontierCount:
    """The outcome of :func:`frontier_count`.

    ``count`` is in the caller's terms (directed open tours, or closed tours as cycles);
    ``states[i]`` is the number of different frontiers after the ``i``-th square of the
    sweep; ``peak_bytes`` what the tables took at their largest (compiled tables only,
    else an estimate at :data:`BYTES_PER_STATE` a frontier).
    """

    rows: int
    cols: int
    closed: bool
    start: Square | None
    count: int = 0
    states: list[int] = field(default_factory=list)
    peak_bytes: int = 0
    seconds: float = 0.0

    @property
    def peak_states(self) -> int:
        return max(self.states, default=0)


def _fast_square(
    counter: Any, tables: Any, i: int, state: tuple[Any, ...], bounds: tuple[int, ...]
) -> tuple[Any, Any, int, Any]:
    """Square ``i`` of :func:`frontier_count` on the compiled tables, from ``state``
    (the table before it as a dict, the tables ``src`` and ``dst`` or None, the 64-bit
    words per count and per frontier): ``src`` (the table after it), ``dst``, the words
    per count, and the dict table.  Counts are made wider while they overflow."""
    table, src, dst, limbs, kw = state
    limit, rows, cols, total = bounds
    while True:
        if src is None:  # (re)made from ``table``, the table before square i
            src = tables.Table(limit, limbs=limbs, kw=kw)
            dst = tables.Table(limit, limbs=limbs, kw=kw)
            status = tables.STATUS[src.load(table)]
            if status == "overflow":  # a count of ``table`` is wider still
                limbs *= 2
                src = dst = None
                continue
            if status in ("full", "memory"):
                raise _too_many(limit, rows, cols, i, total, used=src.used, memory=status)
        status = tables.STATUS[counter.step_fast(i, src, dst)]
        if status in ("full", "memory"):
            raise _too_many(limit, rows, cols, i, total, used=dst.used, memory=status)
        if status == "ok":
            return src, dst, limbs, table
        # A count past 2**(64 * limbs): the same square again, counts twice as wide
        # (step_fast only writes dst, so src is the table before square i).
        table = src.items()
        limbs *= 2
        src = dst = None


def frontier_count(
    rows: int,
    cols: int,
    *,
    start: Square | None = None,
    closed: bool = False,
    max_states: int | None = None,
    progress: Callable[[float], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_every: float = DEFAULT_CHECKPOINT_EVERY,
    resume: str | os.PathLike[str] | None = None,
) -> FrontierCount:
    """Count the tours of a ``rows x cols`` board without building any.

    Open tours are directed: twice the Hamiltonian paths (once from ``start`` when it is
    given: the paths with an end there).  Closed tours are counted as cycles, each once.
    ``progress`` is called with the fraction of squares swept after each square.

    ``checkpoint`` names a file to save the count in (:func:`save_checkpoint`: the
    current square's table as JSON): every ``checkpoint_every`` seconds, at the end, and
    when ``progress`` raises, which is how a caller stops a count at a square's end (the
    exception goes on once the file is written).  ``resume`` names such a file to go
    on from, for this board only; the count is the same as one run's.

    Raises :class:`TooManyStatesError` when a table would pass ``max_states`` frontiers
    (default: :func:`default_max_states`), before memory runs out, or the board is more
    than :data:`~lazysearch.knights.limits.WIDEST` squares across;
    :class:`~lazysearch.errors.CheckpointError` when ``resume`` is not a checkpoint of
    this count (another board, a torn or altered file), or ``checkpoint`` exists and is
    not a checkpoint (it is never overwritten).

    >>> frontier_count(3, 10, closed=True).count
    16
    >>> frontier_count(3, 4).count
    16
    """
    check_width(rows, cols, "counting the tours of")
    limit = default_max_states() if max_states is None else max_states
    check_measured(rows, cols, closed, start, limit, "counting the tours of")
    began = time.perf_counter()
    result = FrontierCount(rows, cols, closed, start)
    if checkpoint is not None and os.fspath(checkpoint) != (resume and os.fspath(resume)):
        check_checkpoint_path(checkpoint)
    k, n = min(rows, cols), max(rows, cols)
    total = k * n
    if total == 1:
        result.count = 0 if closed else 1
        return result
    sweep_start = -1
    if start is not None and not closed:
        sweep_start = to_sweep(rows, cols, start)
    module = _native.load("lazysearch.knights._count")
    counter = module.FrontierCounter(k, n, sweep_start, closed, fold=True)
    tables = _native.load("lazysearch.graphs._table")
    table: dict[int, int] = counter.initial()
    first = 0
    if resume is not None:
        saved = load_checkpoint(resume, rows, cols, start=start, closed=closed)
        first, table = saved.square, saved.table
        counter.finished = saved.finished
        result.states = list(saved.states)
    fast = module.COMPILED and 2 * k + 1 <= 29
    kw = 1 if 2 * k + 1 <= 15 else 2  # 64-bit words per frontier in the compiled tables
    src: Any = None
    dst: Any = None
    peak = 0
    last_saved = time.monotonic()

    def save(squares: int) -> None:
        nonlocal last_saved
        if checkpoint is not None:
            now = src.items() if src is not None else table
            saved = Checkpoint(rows, cols, closed, start, squares, counter.finished, now)
            saved.states = list(result.states)
            save_checkpoint(checkpoint, saved)
        last_saved = time.monotonic()

    limbs = 1  # 64-bit words per count in the compiled tables: doubled as counts grow
    for i in range(first, total):
        if fast:
            src, dst, limbs, table = _fast_square(
                counter, tables, i, (table, src, dst, limbs, kw), (limit, rows, cols, total)
            )
            peak = max(peak, 8 * (limbs + kw) * (src.size + dst.size))
            src, dst = dst, src
            dst.clear()
            result.states.append(src.used)
        else:
            table = counter.step(i, table)
            if len(table) > limit:
                raise _too_many(limit, rows, cols, i, total)
            result.states.append(len(table))
            peak = max(peak, BYTES_PER_STATE * len(table))
        if checkpoint is not None and time.monotonic() - last_saved >= checkpoint_every:
            save(i + 1)
        if progress is not None:
            try:
                progress((i + 1) / total)
            except BaseException:
                save(i + 1)
                raise
    if checkpoint is not None:
        save(total)
    paths: int = counter.finished
    result.count = paths if closed or start is not None else 2 * paths
    result.peak_bytes = peak
    result.seconds = time.perf_counter() - began
    return result


# -- checkpoints ---------------------------------------------------------------------------


@dataclass
class Checkpoint:
    """A count by :func:`frontier_count` stopped after ``square`` squares of the sweep:
    the table of frontiers then (packed keys to counts), the tours finished so far (in
    the program's terms: paths or cycles), and the frontiers after each square so far.

    Saved by :func:`save_checkpoint` as one JSON object::

        {"format": "lazysearch-knights-count", "version": 1,
         "rows": 6, "cols": 8, "closed": true, "start": null,
         "square": 20, "squares": 48, "finished": "0", "states": [1, 1, ...],
         "table": [["key", "count"], ...], "sha256": "..."}

    Keys and counts are decimal strings (any size, exact in any JSON reader), the
    table sorted by key; ``sha256`` is the digest of all the rest
    (:func:`lazysearch.longrun.seal`), so an altered or torn file is refused.  Never
    pickle: a checkpoint may come from anywhere.
    """

    rows: int
    cols: int
    closed: bool
    start: Square | None
    square: int
    finished: int
    table: dict[int, int]
    states: list[int] = field(default_factory=list)


def _legacy_digest(record: dict[str, Any]) -> str:
    """The digest of a checkpoint written before the digest covered every field: its
    table's."""
    from ..longrun import digest

    return digest(record["table"])


def save_checkpoint(path: str | os.PathLike[str], saved: Checkpoint) -> None:
    """Write ``saved`` to ``path`` atomically (a temporary file beside it, flushed,
    then renamed over it: a crash leaves the old file or the new, never a torn one)."""
    from ..longrun import save

    pairs = [[str(key), str(saved.table[key])] for key in sorted(saved.table)]
    record = {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "rows": saved.rows,
        "cols": saved.cols,
        "closed": saved.closed,
        "start": None if saved.start is None else list(saved.start),
        "square": saved.square,
        "squares": saved.rows * saved.cols,
        "finished": str(saved.finished),
        "states": saved.states,
        "table": pairs,
    }
    save(path, record)


def _board_words(rows: object, cols: object, closed: object, start: object) -> str:
    kind = "closed tours" if closed else "open tours"
    where = f" from {tuple(start)}" if isinstance(start, list) and not closed else ""
    return f"{rows}x{cols} {kind}{where}"


def load_checkpoint(
    path: str | os.PathLike[str],
    rows: int,
    cols: int,
    *,
    start: Square | None = None,
    closed: bool = False,
) -> Checkpoint:
    """Read a checkpoint written by :func:`save_checkpoint` for this count.

    Raises :class:`~lazysearch.errors.CheckpointError` naming the file when it is not
    JSON (a torn file), not a checkpoint, of another version, of another board, kind
    or start, or when its table does not match its digest; ``OSError`` when it cannot
    be read.
    """
    from ..longrun import read_record

    name = os.fspath(path)
    record = read_record(
        name,
        CHECKPOINT_FORMAT,
        CHECKPOINT_VERSION,
        "a checkpoint of a knight's tour count",
        legacy=_legacy_digest,
    )
    theirs = (record.get("rows"), record.get("cols"), record.get("closed"))
    their_start = record.get("start")
    ours_start = None if start is None or closed else list(start)
    if their_start is not None and record.get("closed"):
        their_start = None
    if theirs != (rows, cols, closed) or their_start != ours_start:
        raise other_problem(
            f"{name} is a checkpoint of {_board_words(*theirs, their_start)}, "
            f"not of {_board_words(rows, cols, closed, ours_start)}"
        )
    square, states, pairs = record.get("square"), record.get("states"), record.get("table")
    ok = (
        type(square) is int
        and 0 <= square <= rows * cols
        and isinstance(states, list)
        and len(states) == square
        and all(type(x) is int and x >= 0 for x in states)
        and isinstance(pairs, list)
        and all(
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(x, str) and x.isdigit() and x.isascii() for x in pair)
            for pair in pairs
        )
        and isinstance(record.get("finished"), str)
        and record["finished"].isdigit()
    )
    if not ok:
        raise CheckpointError(f"{name}: checkpoint is damaged (square={square!r})")
    assert isinstance(pairs, list) and isinstance(square, int) and isinstance(states, list)
    table = {int(key): int(count) for key, count in pairs}
    return Checkpoint(rows, cols, closed, start, square, int(record["finished"]), table, states)


def check_checkpoint_path(path: str | os.PathLike[str]) -> None:
    """Refuse to overwrite a file that is not a checkpoint of a count (a typo in a path
    must not destroy the user's data)."""
    from ..longrun import check_overwritable

    check_overwritable(path, CHECKPOINT_FORMAT, "a checkpoint of a knight's tour count")


def _too_many(
    limit: int,
    rows: int,
    cols: int,
    i: int,
    total: int,
    what: str = "counting the tours of",
    used: int = 0,
    memory: str = "full",
) -> TooManyStatesError:
    if memory == "memory":  # the machine refused a table before max_states was reached
        return TooManyStatesError(
            f"{what} {rows}x{cols}: the machine had no memory for a table of more than "
            f"{used:,} frontiers (reached at square {i + 1} of {total}; "
            f"max_states={limit:,})"
        )
    return TooManyStatesError(
        f"{what} {rows}x{cols} needs more than max_states={limit:,} "
        f"frontiers (reached at square {i + 1} of {total}); raise max_states if the "
        f"machine has the memory (about {BYTES_PER_STATE} bytes a frontier)"
    )


def to_sweep(rows: int, cols: int, square: Square) -> int:
    """The sweep index ``column * k + row`` of ``square`` (``k`` the short side)."""
    r, c = square
    if rows > cols:  # the sweep goes down the rows: (r, c) is column r, row c
        return r * cols + c
    return c * rows + r


def from_sweep(rows: int, cols: int, i: int) -> Square:
    """The square at sweep index ``i`` (:func:`to_sweep` undone)."""
    if rows > cols:
        return divmod(i, cols)
    c, r = divmod(i, rows)
    return r, c


class TourSampler:
    """Exactly uniform random tours of one board, from the program's tables.

    Building it runs the program forward, keeping every square's frontiers, then
    backward, replacing each frontier's count by the number of ways it has to *finish*
    the tour (its completions).  :meth:`draw` then walks forward from the empty
    frontier, choosing each square's edges back with probability in proportion to the
    completions of the frontier they lead to: every tour is drawn with probability
    exactly ``1 / count`` (integers only, ``random.Random.randrange`` on the counts).

    ``count`` and the tours drawn follow :func:`frontier_count`: open tours are directed
    (a path drawn, then its direction, or from ``start``), closed tours are cycles,
    returned from ``start`` (default ``(0, 0)``) in a direction drawn at random.

    >>> sampler = TourSampler(3, 10, closed=True)
    >>> sampler.count
    16
    >>> tour = sampler.draw(random.Random(1))
    >>> tour[0], len(tour)
    ((0, 0), 30)

    Raises :class:`TooManyStatesError` when the tables of all the squares together
    would pass ``max_states`` frontiers (default :func:`default_max_states`): sampling
    keeps them all, where counting keeps one.

    Notes
    -----
    Time: two passes of the program (the backward one in Python objects), then
    ``O(squares)`` steps a tour.  Memory: every square's frontiers, about
    :data:`BYTES_PER_STATE` bytes each.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        start: Square | None = None,
        closed: bool = False,
        max_states: int | None = None,
    ) -> None:
        check_width(rows, cols, "sampling the tours of")
        limit = default_max_states() if max_states is None else max_states
        self.rows = rows
        self.cols = cols
        self.start = start
        self.closed = closed
        k, n = min(rows, cols), max(rows, cols)
        self._total = total = k * n
        self._sweep_start = -1
        if start is not None and not closed:
            self._sweep_start = to_sweep(rows, cols, start)
        module = _native.load("lazysearch.knights._count")
        self._counter = counter = module.FrontierCounter(k, n, self._sweep_start, closed)
        self._paths = 0
        #: ``_done[i]``: the frontiers before square ``i`` that can finish a tour, with
        #: how many ways each has to.
        self._done: list[dict[int, int]] = []
        if total == 1:
            self._paths = 0 if closed else 1
            self.count = self._paths
            return
        table: dict[int, int] = counter.initial()
        self._initial = next(iter(table))
        levels: list[list[int]] = []
        kept = 0
        for i in range(total):
            levels.append(list(table))
            kept += len(table)
            if kept > limit:
                raise _too_many(limit, rows, cols, i, total, what="sampling the tours of")
            table = counter.step(i, table)
        after: dict[int, int] = {}
        done: list[dict[int, int]] = [after] * total
        for i in range(total - 1, -1, -1):
            after = done[i] = counter.completions(i, levels[i], after)
            levels[i] = []
        self._done = done
        self._paths = done[0].get(self._initial, 0)
        if self._paths != counter.finished:  # pragma: no cover - the two passes disagree
            raise RuntimeError(
                f"the backward pass found {self._paths} tours of {rows}x{cols}, "
                f"the forward one {counter.finished}"
            )
        self.count = self._paths if closed or start is not None else 2 * self._paths

    def draw(self, rng: random.Random) -> list[Square]:
        """One tour drawn uniformly at random with ``rng``, as a list of squares.

        Raises :class:`LookupError` when the board has no tour of this kind.
        """
        rows, cols = self.rows, self.cols
        if self._paths == 0:
            raise LookupError(f"the {rows}x{cols} board has no such tour to draw")
        if self._total == 1:
            return [(0, 0)]
        total = self._total
        done = self._done
        successors = self._counter.successors
        neighbours: list[list[int]] = [[] for _ in range(total)]
        key = self._initial
        for i in range(total):
            pick = rng.randrange(done[i][key])
            for way in successors(i, key):
                weight = 1 if way[2] == -1 else done[i + 1].get(way[2], 0)
                if pick < weight:
                    break
                pick -= weight
            else:  # pragma: no cover - the completions add up by construction
                raise RuntimeError(f"square {i}: the completions do not add up")
            a, b, after = way
            for j in (a, b):
                if j >= 0:
                    neighbours[i].append(j)
                    neighbours[j].append(i)
            key = after
        # The edges drawn make one path or cycle: walk it from its first square.
        if self.closed:
            first = 0 if self.start is None else to_sweep(rows, cols, self.start)
            ahead = sorted(neighbours[first])[rng.randrange(2)]
        else:
            if self.start is not None:
                first = self._sweep_start
            else:
                ends = [j for j in range(total) if len(neighbours[j]) == 1]
                first = ends[rng.randrange(2)]
            ahead = neighbours[first][0]
        path = [first]
        before = first
        while len(path) < total:
            path.append(ahead)
            here = neighbours[ahead]
            before, ahead = ahead, here[0] if here[0] != before else here[-1]
        return [from_sweep(rows, cols, j) for j in path]
