"""Counting knight's tours by dynamic programming over the board's cross-sections.

The engine (:mod:`lazysearch.knights._count`) keeps, square by square, every frontier of
partial tours with the number of ways it is reached; this module drives it: the board
turned so that the sweep goes along the long side, the tables (fixed-size ones in the
compiled core while counts stay below ``2**64``, Python dicts beyond), a bound on their
size, progress, and the statistics.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import _native
from ..errors import LazysearchError

Square = tuple[int, int]

#: Bytes one frontier costs at most in the compiled tables (two tables of 16-byte slots,
#: at most half full, one of them doubling) and, roughly, in a Python dict.
_BYTES_PER_STATE = 200


class TooManyStatesError(LazysearchError):
    """A count by dynamic programming needed more frontiers than ``max_states``."""


def default_max_states() -> int:
    """How many frontiers a count may hold: half the machine's memory at about
    200 bytes each."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        memory = 8 << 30
    return max(1 << 20, memory // 2 // _BYTES_PER_STATE)


@dataclass
class FrontierCount:
    """The outcome of :func:`frontier_count`.

    ``count`` is in the caller's terms (directed open tours, or closed tours as cycles);
    ``states[i]`` is the number of different frontiers after the ``i``-th square of the
    sweep; ``peak_bytes`` what the tables took at their largest (compiled tables only,
    else an estimate at :data:`_BYTES_PER_STATE` a frontier).
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


def frontier_count(
    rows: int,
    cols: int,
    *,
    start: Square | None = None,
    closed: bool = False,
    max_states: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> FrontierCount:
    """Count the tours of a ``rows x cols`` board without building any.

    Open tours are directed: twice the Hamiltonian paths (once from ``start`` when it is
    given: the paths with an end there).  Closed tours are counted as cycles, each once.
    ``progress`` is called with the fraction of squares swept after each square.

    Raises :class:`TooManyStatesError` when a table would pass ``max_states`` frontiers
    (default: :func:`default_max_states`), before memory runs out.

    >>> frontier_count(3, 10, closed=True).count
    16
    >>> frontier_count(3, 4).count
    16
    """
    limit = default_max_states() if max_states is None else max_states
    began = time.perf_counter()
    result = FrontierCount(rows, cols, closed, start)
    k, n = min(rows, cols), max(rows, cols)
    total = k * n
    if total == 1:
        result.count = 0 if closed else 1
        return result
    sweep_start = -1
    if start is not None and not closed:
        r, c = start
        if rows > cols:  # the sweep goes down the rows: (r, c) is column r, row c
            r, c = c, r
        sweep_start = c * k + r
    module = _native.load("lazysearch.knights._count")
    counter = module.FrontierCounter(k, n, sweep_start, closed)
    table: dict[int, int] = counter.initial()
    fast = module.COMPILED and 2 * k + 1 <= 15
    src: Any = None
    dst: Any = None
    peak = 0
    for i in range(total):
        if fast and src is None:
            src, dst = module.Table(limit), module.Table(limit)
            src.load(table)
        if fast:
            status = counter.step_fast(i, src, dst)
            if module.STATUS[status] == "overflow":  # counts past 2**64: go on in Python
                fast = False
                table = src.items()
                src = dst = None
            elif module.STATUS[status] == "full":
                raise _too_many(limit, rows, cols, i, total)
            else:
                peak = max(peak, 16 * (src.size + dst.size))
                src, dst = dst, src
                dst.clear()
                result.states.append(src.used)
        if not fast:
            table = counter.step(i, table)
            if len(table) > limit:
                raise _too_many(limit, rows, cols, i, total)
            result.states.append(len(table))
            peak = max(peak, _BYTES_PER_STATE * len(table))
        if progress is not None:
            progress((i + 1) / total)
    paths: int = counter.finished
    result.count = paths if closed or start is not None else 2 * paths
    result.peak_bytes = peak
    result.seconds = time.perf_counter() - began
    return result


def _too_many(limit: int, rows: int, cols: int, i: int, total: int) -> TooManyStatesError:
    return TooManyStatesError(
        f"counting the tours of {rows}x{cols} needs more than max_states={limit:,} "
        f"frontiers (reached at square {i + 1} of {total}); raise max_states if the "
        f"machine has the memory (about {_BYTES_PER_STATE} bytes a frontier)"
    )
