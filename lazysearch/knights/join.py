"""Counting closed knight's tours by joining two halves of the board: the driver.

The compiled kernels (:mod:`lazysearch.knights._join`: the transfer of the crossing
edges, its packed tables, the packed join) are explained there; this module runs them:
the program's sweep of the halves, the transfer split into parts (depth first, in this
process or in forked ones), the transfer in Python dicts when counts pass 64 bits, and
the plain join of dicts it checks them against.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine import _native
from . import counting
from .limits import TooManyStatesError, check_width

#: A boundary square's values in the join's states, as :mod:`lazysearch.knights._join`
#: has them: no edge, two edges, then the fragments' labels from ``FIRST``.
FREE, FULL, FIRST = 0, 1, 2


def _kernels() -> Any:
    """The compiled kernels of the join (or their plain-Python source)."""
    return _native.load("lazysearch.knights._join")


def partners(labels: bytes) -> tuple[list[int], list[int]]:
    """The ends of a boundary state (positions whose value is a label) and, for each
    position, the position of the other end of its fragment (``-1`` if not an end)."""
    return _kernels().partners(labels)  # type: ignore[no-any-return]


def one_cycle(ends: list[int], left: list[int], right: list[int]) -> bool:
    """Whether the two pairings ``left`` and ``right`` of ``ends`` make one cycle."""
    return _kernels().one_cycle(ends, left, right)  # type: ignore[no-any-return]


def join_tables(seen_left: dict[bytes, int], right: dict[bytes, int]) -> int:
    """The number of closed tours: the right boundary's frontiers as the left half and
    the crossing edges leave them (``seen_left``) paired with the right half's own
    (``right``, same positions), where the degrees add up to two and the ends make one
    cycle."""
    return _kernels().join_tables(seen_left, right)  # type: ignore[no-any-return]


def boundary(frontiers: dict[int, int], k: int, c: int) -> dict[bytes, int]:
    """The program's table after the first ``c`` columns of a ``k``-row board, read at
    the boundary (columns ``c - 2`` and ``c - 1``: ``2k`` bytes, ``FREE`` / ``FULL`` /
    labels from ``FIRST`` in order of appearance).  Raises :class:`RuntimeError` if a
    frontier has an unsettled square left of the boundary (never, by construction)."""
    return _kernels().boundary(frontiers, k, c)  # type: ignore[no-any-return]


def mirrored(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the mirrored board (columns swapped) in the other half's
    order: its column ``c' - 1`` is column ``c`` and its ``c' - 2`` column ``c + 1``."""
    return _kernels().mirrored(table, k)  # type: ignore[no-any-return]


def sweep_tables(
    k: int, n: int, columns: list[int], limit: int, tick: Any = None
) -> dict[int, dict[int, int]]:
    """The closed-tour program's tables of a ``k x n`` board after each of ``columns``
    first columns (:mod:`lazysearch.knights._count`, compiled tables while the counts
    fit in 64 bits, then Python dicts).  Raises ``TooManyStatesError`` past ``limit``
    frontiers.  ``tick(where)``, if given, is called after each square."""
    module = _native.load("lazysearch.knights._count")
    tables = _native.load("lazysearch.knights._table")
    counter = module.FrontierCounter(k, n, -1, True)
    table: dict[int, int] = counter.initial()
    kw = 1 if 2 * k + 1 <= 15 else 2
    fast = module.COMPILED and 2 * k + 1 <= 29
    src: Any = None
    dst: Any = None
    if fast:
        src = tables.Table(limit, kw=kw)
        dst = tables.Table(limit, kw=kw)
        if tables.STATUS[src.load(table)] != "ok":  # pragma: no cover - one frontier
            fast = False
    out: dict[int, dict[int, int]] = {}
    for i in range(max(columns) * k):
        if fast:
            status = tables.STATUS[counter.step_fast(i, src, dst)]
            if status == "overflow":  # counts past 64 bits: go on in Python ints
                table = counter.step(i, src.items())
                fast = False
                src = dst = None
            elif status != "ok":
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
            else:
                src, dst = dst, src
                dst.clear()
        else:
            table = counter.step(i, table)
            if len(table) > limit:
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
        if (i + 1) % k == 0 and (i + 1) // k in columns:
            out[(i + 1) // k] = src.items() if fast else table
        if tick is not None:
            tick(f"square {i + 1} of {max(columns) * k} of the halves")
    return out


#: What the workers of a parallel transfer share (set before they are forked).
SHARED: dict[str, Any] = {}


def join_part(prefix: tuple[int, ...]) -> tuple[Any, ...]:
    """:func:`transfer_part`, or ``("stop", why, square)`` when a table went past
    ``max_states``, out of memory or a count past 64 bits (a value, not an exception:
    an exception of the plain-Python engine does not pickle back from a worker)."""
    try:
        return transfer_part(prefix)
    except Stopped as stop:
        return ("stop", stop.why, stop.square)


def transfer_part(
    prefix: tuple[int, ...],
) -> tuple[int, dict[tuple[int, ...], int], int, int]:
    """Transfer and join the states whose first right squares took the crossing degrees
    ``prefix`` (each 0 none, 1 two, 2 one): the count of tours, the states after each
    right square by the degrees taken up to it (only up to ``prefix``'s length, else by
    the square alone: parts that share a prefix share its tables), the most states one
    table held, and the pairs the join compared.  Depth first over the degrees of the
    squares before ``split``: tables that differ there never meet again."""
    transfer: Any = SHARED["transfer"]
    joiner: Any = SHARED["joiner"]
    trie = SHARED["trie"]
    limit: int = SHARED["limit"]
    split: int = SHARED["split"]
    k2 = 2 * transfer.k
    kernel = _kernels()
    w = kernel.words_for(4 * transfer.k)
    states: dict[tuple[int, ...], int] = {}
    peak = 0
    pairs = joiner.pairs
    table: Any = SHARED["left"]
    for s, d in enumerate(prefix):
        out = kernel.Packed(w, limit)
        transfer_step(transfer, s, table, [out if d == e else None for e in range(3)], trie)
        table = out
        states[prefix[: s + 1]] = out.used
        peak = max(peak, out.used)
    total = 0
    stack: list[tuple[int, Any]] = [(len(prefix), table)] if table.used else []
    del table
    tick = SHARED.get("tick")
    while stack:
        s, table = stack.pop()
        if tick is not None:
            tick(f"crossing square {min(s + 1, k2)} of {k2}")
        if s == k2:
            total += joiner.join(table)
            continue
        packed = kernel.Packed
        outs = [packed(w, limit) for _ in range(3)] if s < split else [packed(w, limit)] * 3
        transfer_step(transfer, s, table, list(outs), trie)
        del table
        for out in reversed(outs if s < split else outs[:1]):
            states[(s,)] = states.get((s,), 0) + out.used
            peak = max(peak, out.used)
            if out.used:
                stack.append((s + 1, out))
        del outs, out
    return total, states, peak, joiner.pairs - pairs


def transfer_step(transfer: Any, s: int, table: Any, into: list[Any | None], trie: object) -> None:
    status = transfer.step_packed(s, table, into, trie)
    if status != 0:  # the kernel's OK
        raise Stopped(_kernels().STATUS[status], s)


class Stopped(Exception):
    """The packed transfer stopped: a table full (``max_states``), out of memory, or a
    count past 64 bits."""

    def __init__(self, why: str, square: int) -> None:
        super().__init__(why, square)
        self.why = why
        self.square = square


class JoinCount:
    """What :func:`join_count` found: the ``count`` of closed tours (cycles) and the
    sizes of what it held: ``left``, the left half's boundary frontiers the transfer
    starts from, and ``right``, the right half's; ``transfer[s]``, the states after the
    ``s``-th right boundary square, all parts together (the parts never share a state,
    so this is what one table would hold); ``peak``, the most states one table held;
    ``pairs``, the pairs of frontiers the join compared; ``seconds`` for the halves (the
    program's sweep and reading its tables) and the transfer with the join; ``packed``,
    whether the compiled tables did it (else Python dicts: counts past 64 bits).  (A
    plain class: a dataclass needs its module in ``sys.modules``, which a plain-Python
    engine loaded beside its compiled one is not.)"""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.count = 0
        self.left = 0
        self.right = 0
        self.transfer: list[int] = []
        self.peak = 0
        self.pairs = 0
        self.packed = False
        self.seconds: dict[str, float] = {}

    def __repr__(self) -> str:
        return (
            f"JoinCount({self.rows}x{self.cols}, count={self.count}, left={self.left}, "
            f"right={self.right}, transfer={self.transfer}, peak={self.peak}, "
            f"seconds={self.seconds})"
        )


def join_count(
    rows: int,
    cols: int,
    max_states: int | None = None,
    *,
    workers: int = 1,
    split: int | None = None,
    packed: bool = True,
    fold: bool = True,
    tick: Any = None,
    done: Any = None,
    on_part: Any = None,
) -> JoinCount:
    """The closed tours of a ``rows x cols`` board, counted by joining its halves.

    >>> join_count(6, 6).count
    9862

    The board is cut across its long side before column ``n // 2`` (``n`` the long
    side, ``k`` the short one); it needs ``k >= 3`` and ``n >= 4``.  The transfer's
    states are packed in the compiled core's tables
    (:class:`~lazysearch.knights._join.Packed`), and split by the crossing degrees of
    the first ``split`` right squares (default ``k``, the column next to the cut): those
    stay in the state, so states that differ there never meet again, and each part is
    transferred and joined on its own, depth first, with its count exact.
    ``workers > 1`` shares the parts (by the degrees of the first three squares) among
    that many forked processes; the counts are added in a fixed order.
    ``fold`` transfers one of each left frontier and its image with the rows turned
    over, with both counts: the board, each half and the crossing edges are symmetric
    under turning the rows over, so the two have as many completions (about half the
    work).  ``packed=False``, or counts past 64 bits, takes the transfer in Python
    dicts (never folded).

    ``tick(where)`` is called after each square of the halves' sweep, and of the
    transfer in this process (with ``workers > 1``, as each part comes back and twice a
    second while the caller waits for one), ``where`` saying which in words; an
    exception it raises stops the count (how the command line's --time-limit and its
    Ctrl-C do: never an exception raised by a signal handler, which could land inside
    the compiled tables' code, where it is not passed on).

    ``on_part(prefix, (count, peak, pairs))``, if given, cuts the packed transfer into
    parts by the crossing degrees of its first three right squares (as ``workers > 1``
    does) and is called as each part is counted; ``done`` maps the prefixes of parts
    counted before (by a stopped run) to the same triples, and those parts are added
    without being counted again (:mod:`lazysearch.knights.joinrun` keeps them in a
    file).  The transfer in Python dicts is not cut: it counts everything, ignoring
    ``done``.

    Raises :class:`~lazysearch.knights.counting.TooManyStatesError` when a table would
    pass ``max_states`` entries (default
    :func:`~lazysearch.knights.counting.default_max_states`); ``ValueError`` for a board
    the cut does not fit, ``workers < 1`` or ``split < 0``.
    """
    k, n = min(rows, cols), max(rows, cols)
    if k < 3 or n < 4:
        raise ValueError(f"join_count() needs a board at least 3x4, not {rows}x{cols}")
    check_width(rows, cols, "joining the halves of")
    if workers < 1:
        raise ValueError(f"join_count() needs workers >= 1, not {workers!r}")
    if split is not None and split < 0:
        raise ValueError(f"join_count() needs split >= 0, not {split!r}")
    limit = counting.default_max_states() if max_states is None else max_states
    result = JoinCount(rows, cols)
    began = time.perf_counter()
    c = n // 2
    tables = sweep_tables(k, n, sorted({c, n - c}), limit, tick)
    kernel = _kernels()
    transfer = kernel.Transfer(k, c)
    if packed and kernel.words_for(4 * k) <= 4:  # (at most 48 squares: 12 a word)
        need_full = [x for x in range(2 * k) if transfer.degrees[x] == 0]
        left = kernel.boundary_packed(tables[c], k, c, 4 * k, False, need_full, limit, fold)
        right = kernel.boundary_packed(tables[n - c], k, n - c, 2 * k, True, [], limit)
        if left is not None and right is not None:
            try:
                joiner = kernel.Joiner(right, 2 * k)
            except OverflowError:
                pass
            else:
                result.left, result.right = left.used, right.used
                del tables, right
                result.seconds["halves"] = time.perf_counter() - began
                began = time.perf_counter()
                try:
                    packed_transfer(
                        result,
                        transfer,
                        left,
                        joiner,
                        limit,
                        workers,
                        split,
                        tick,
                        done or {},
                        on_part,
                    )
                except Stopped as stop:
                    if stop.why != "overflow":
                        raise _too_many(
                            limit, k, n, f"states at crossing square {stop.square + 1}"
                        ) from None
                else:
                    result.packed = True
                    result.seconds["transfer"] = time.perf_counter() - began
                    return result
                began = time.perf_counter()
    dict_transfer(result, transfer, tables, k, n, c, limit, tick)
    result.seconds["transfer"] = time.perf_counter() - began
    return result


def packed_transfer(
    result: JoinCount,
    transfer: Any,
    left: Any,
    joiner: Any,
    limit: int,
    workers: int,
    split: int | None,
    tick: Any = None,
    done: Any = None,
    on_part: Any = None,
) -> None:
    """The packed transfer and join, depth first over the parts (:func:`join_part`),
    in this process or in ``workers`` forked ones; the parts in ``done`` are added as
    they are, and ``on_part`` hears of each part counted (see :func:`join_count`)."""
    done = done or {}
    k2 = 2 * transfer.k
    trie = _kernels().trie_of(joiner.patterns(), k2)
    SHARED.update(
        transfer=transfer,
        joiner=joiner,
        trie=trie,
        left=left,
        limit=limit,
        split=transfer.k if split is None else split,
        tick=None,  # (set below for a transfer in this process: never in a worker)
    )
    parts: list[tuple[Any, ...]] = []
    try:
        prefixes: list[tuple[int, ...]] = [()]
        if workers > 1 or on_part is not None:
            for _ in range(min(3, k2)):
                prefixes = [(*p, d) for p in prefixes for d in range(3) if in_trie(trie, (*p, d))]
        for p in prefixes:
            if p in done:
                count, peak, pairs = done[p]
                result.count += count
                result.peak = max(result.peak, peak)
                result.pairs += pairs
        prefixes = [p for p in prefixes if p not in done]

        if workers > 1 and len(prefixes) > 1:
            parts = _parts_in_pool(prefixes, workers, tick, on_part)
        else:
            SHARED["tick"] = tick
            for p in prefixes:
                one = transfer_part(p)  # (no [-1]: compiled without wraparound)
                parts.append(one)
                if on_part is not None:
                    on_part(p, (one[0], one[2], one[3]))
                if tick is not None and len(prefixes) > 1:
                    tick(f"part {len(parts)} of {len(prefixes)} of the transfer")
    finally:
        SHARED.clear()
    result.transfer = [0] * k2
    shared: dict[tuple[int, ...], int] = {}
    for count, states, peak, pairs in parts:
        result.count += count
        result.peak = max(result.peak, peak)
        result.pairs += pairs
        for where, used in states.items():
            if len(where) == 1 and len(prefixes[0]) <= where[0]:
                result.transfer[where[0]] += used
            else:
                shared[where] = used
    for where, used in shared.items():
        result.transfer[len(where) - 1] += used


def _parts_in_pool(
    prefixes: list[tuple[int, ...]], workers: int, tick: Any, on_part: Any
) -> list[tuple[Any, ...]]:
    """The parts ``prefixes`` (:func:`transfer_part`'s answers, in their order) counted
    in a pool of ``workers`` forked processes (:mod:`lazysearch.processes`).  A helper
    killed meanwhile breaks the pool: the parts it had not sent back are counted again
    in this process (a :class:`~lazysearch.parallel.WorkerLostWarning` says so), so the
    count is exact."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from lazysearch import processes
    from lazysearch.executors import worker_lost

    parts: list[tuple[Any, ...]] = []

    def counted(part: tuple[Any, ...]) -> None:
        parts.append(part)
        if part[0] == "stop":
            raise Stopped(part[1], part[2])
        if on_part is not None:
            on_part(prefixes[len(parts) - 1], (part[0], part[2], part[3]))
        if tick is not None:
            tick(f"part {len(parts)} of {len(prefixes)} of the transfer")

    def wait(future: Future[tuple[Any, ...]]) -> tuple[Any, ...] | None:
        """The part ``future`` brings, or ``None`` when the pool lost it."""
        while True:  # a part can take minutes: ``tick`` hears of the wait
            try:
                return future.result(timeout=0.5)
            except TimeoutError:
                # (a pool's future may never settle when its worker dies: see
                # processes.pool_broken)
                if processes.pool_broken(pool) and not future.done():
                    return None
                if tick is not None:
                    tick(f"waiting for part {len(parts) + 1} of {len(prefixes)}")
            except BrokenProcessPool:
                return None

    pool = processes.pool(workers, fork=True)
    try:
        futures = [pool.submit(join_part, p) for p in prefixes]
        for future in futures:
            part = wait(future)
            if part is None:
                break
            counted(part)
    except BaseException:
        # A part can take many minutes: stop them all (Ctrl-C, a full table).
        processes.stop_pool(pool)
        raise
    if len(parts) == len(prefixes):
        pool.shutdown()
        return parts
    processes.stop_pool(pool)
    kept = [f.done() and not f.cancelled() and f.exception() is None for f in futures]
    left = kept[len(parts) :].count(False)
    worker_lost(
        f"a helper process died (killed from outside?); the {left} part"
        f"{'' if left == 1 else 's'} of the join it had not finished counted again by "
        "the caller, so the count is exact"
    )
    SHARED["tick"] = tick
    for i in range(len(parts), len(prefixes)):
        counted(futures[i].result() if kept[i] else join_part(prefixes[i]))
    return parts


def in_trie(trie: Any, prefix: tuple[int, ...]) -> bool:
    """Whether some degree pattern of the trie (:func:`~lazysearch.knights._join.trie_of`)
    begins with ``prefix``."""
    node = 0
    for d in prefix:
        node = trie[3 * node + d]
        if node < 0:
            return False
    return True


def dict_transfer(
    result: JoinCount,
    transfer: Any,
    tables: dict[int, dict[int, int]],
    k: int,
    n: int,
    c: int,
    limit: int,
    tick: Any = None,
) -> None:
    """The transfer and join in Python dicts (counts of any size)."""
    left = boundary(tables[c], k, c)
    right = mirrored(boundary(tables[n - c], k, n - c), k)
    transfer.restrict(right)
    usable = {
        key: count
        for key, count in left.items()
        if all(key[x] == FULL for x in range(2 * k) if transfer.degrees[x] == 0)
    }
    result.left, result.right = len(usable), len(right)
    del left
    result.transfer = [0] * (2 * k)
    states = {key + bytes(2 * k): count for key, count in usable.items()}
    del usable
    for s in range(2 * k):
        states = transfer.step(s, states)
        result.transfer[s] = len(states)
        result.peak = max(result.peak, len(states))
        if len(states) > limit:
            raise _too_many(limit, k, n, f"states at crossing square {s + 1} of {2 * k}")
        if tick is not None:
            tick(f"crossing square {s + 1} of {2 * k}")
    seen = {key[2 * k :]: count for key, count in states.items()}
    del states
    result.count = join_tables(seen, right)


def _too_many(limit: int, k: int, n: int, where: str) -> TooManyStatesError:
    return TooManyStatesError(
        f"joining the halves of {k}x{n} needs more than max_states={limit:,} {where}; "
        "raise max_states if the machine has the memory"
    )
