"""Counting closed knight's tours by joining two halves of the board (Cython pure mode).

The square-by-square program of :mod:`lazysearch.knights._count` holds, at a cross
section, every frontier of the partial tours to its left.  On wide boards those tables
grow past what one machine holds before the sweep is through (8x8: 7.9 million
frontiers at the middle, about 29 million two squares later and growing), so this
module meets the sweep in the middle instead (McKay 1997 split 8x8 the same way).

Cut a ``k x n`` board (``k`` the short side, columns along the long one) between
columns ``c - 1`` and ``c``.  A knight's move changes the column by one or two, so the
edges that cross the cut join the *left boundary* (columns ``c - 2`` and ``c - 1``) to
the *right boundary* (columns ``c`` and ``c + 1``).  Every closed tour is one edge set:

* its edges inside the left half: the program's table after the first ``c`` columns,
  read at the left boundary (each square's degree 0, 1 or 2 so far, and which ends are
  joined by a path inside the half: no cycle is ever closed inside a half);
* its edges inside the right half: the same table of the mirrored board, after the
  first ``n - c`` columns (for even ``n`` and ``c = n / 2``, the very same table);
* its crossing edges.

The *transfer* (:class:`Transfer`) starts from the left table and takes the right
boundary's squares one at a time, choosing each one's crossing edges (none, one or two)
exactly as the program takes a square: the state is the left boundary and the right
boundary squares taken, each ``FREE``, ``FULL`` or an end labelled by its fragment.  A
left square whose last crossing edge has been decided must be ``FULL``.  When every right
boundary square is taken the left boundary is all ``FULL`` and the state is a frontier of
the right boundary seen from the left: each square's crossing degree and which ends the
left half and the crossing edges join.  The *join* (:func:`join_tables`) pairs it with the
right half's frontiers: the degrees must add up to two everywhere and the two pairings
of the ends together must make one cycle.  Both sides are grouped by their degrees, so
only frontiers that fit are ever paired.

The count is exact for the reason the program is: what lies beyond a frontier sees only
the frontier, so the count of tours is the sum, over frontiers that fit, of the products
of the ways each side reaches its own.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

import time
from typing import Any

from lazysearch import _buffers
from lazysearch.knights.counting import TooManyStatesError

COMPILED: bool = cython.compiled

FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
#: The first fragment label; labels are renumbered in order of appearance from it.
FIRST = cython.declare(cython.int, 2)
#: The label a new fragment gets before the state is renumbered.
FRESH = cython.declare(cython.int, 120)


def crossing_neighbours(k: int, c: int) -> list[list[tuple[int, int]]]:
    """For each right boundary square, in the transfer's order (column ``c`` rows
    ``0..k-1``, then column ``c + 1``), its knight neighbours in the left boundary
    (columns ``c - 2`` and ``c - 1``), as ``(row, column)``."""
    out: list[list[tuple[int, int]]] = []
    for col in (c, c + 1):
        for row in range(k):
            near = []
            for dr, dc in ((-2, 1), (2, 1), (-1, 2), (1, 2)):
                r, left = row + dr, col - dc
                if 0 <= r < k and c - 2 <= left <= c - 1:
                    near.append((r, left))
            out.append(sorted(near, key=lambda square: (square[1], square[0])))
    return out


@cython.cclass
class Transfer:
    """The crossing edges of a ``k``-row board cut before column ``c``, taken one right
    boundary square at a time: :meth:`step` takes square ``s`` (``0 .. 2k - 1``).

    A state is ``bytes`` of length ``4k``: the left boundary (column ``c - 2`` rows
    ``0..k-1``, then column ``c - 1``) and then the right boundary in the same order,
    each ``FREE`` (no edge yet), ``FULL`` (two edges) or a label ``>= FIRST`` shared by
    the two ends of a path fragment, numbered in order of appearance.
    """

    nb: cython.int[::1]  # left neighbours of right square s, 4 a square
    nbn: cython.int[::1]
    settle: cython.int[::1]  # left squares whose last crossing edge is square s's
    settle_at: cython.int[::1]
    remain: cython.int[::1]  # crossing neighbours of left square x after square s
    cur: cython.int[::1]
    nxt: cython.int[::1]
    relabel: cython.int[::1]
    free: cython.int[::1]
    out: cython.uchar[::1]
    buffer: bytearray
    k: cython.int
    m: cython.int
    #: How many crossing neighbours each left square has in all.
    degrees = cython.declare(list, visibility="public")
    #: ``allowed[s]``: the degree patterns of right squares ``0..s`` (two bits each,
    #: square ``t`` at bits ``2t``: 0 no crossing edge, 1 two, 2 one) that the right
    #: half can complete, or ``None`` to allow every one.
    allowed = cython.declare(list, visibility="public")

    def __init__(self, k: int, c: int) -> None:
        compiled = COMPILED
        self.k = k
        self.m = 4 * k
        near = crossing_neighbours(k, c)
        nb = [0] * (4 * 2 * k)
        nbn = [0] * (2 * k)
        last = [-1] * (2 * k)
        degrees = [0] * (2 * k)
        for s, squares in enumerate(near):
            nbn[s] = len(squares)
            for t, (r, col) in enumerate(squares):
                x = (col - (c - 2)) * k + r
                nb[4 * s + t] = x
                last[x] = s
                degrees[x] += 1
        settle: list[int] = []
        settle_at = [0]
        remain = [0] * (2 * k * 2 * k)
        for s in range(2 * k):
            settle += [x for x in range(2 * k) if last[x] == s]
            settle_at.append(len(settle))
            for u in range(s + 1, 2 * k):
                for t in range(nbn[u]):
                    remain[s * 2 * k + nb[4 * u + t]] += 1
        self.degrees = degrees
        self.nb = _buffers.ints(nb, compiled)  # type: ignore[assignment]
        self.nbn = _buffers.ints(nbn, compiled)  # type: ignore[assignment]
        self.settle = _buffers.ints(settle or [0], compiled)  # type: ignore[assignment]
        self.settle_at = _buffers.ints(settle_at, compiled)  # type: ignore[assignment]
        self.remain = _buffers.ints(remain, compiled)  # type: ignore[assignment]
        self.cur = _buffers.zeros(4 * k, compiled)  # type: ignore[assignment]
        self.nxt = _buffers.zeros(4 * k, compiled)  # type: ignore[assignment]
        self.relabel = _buffers.zeros(FRESH + 1, compiled)  # type: ignore[assignment]
        self.free = _buffers.zeros(4, compiled)  # type: ignore[assignment]
        self.buffer = bytearray(4 * k)
        self.out = self.buffer  # type: ignore[assignment]
        self.allowed = [None] * (2 * k)

    def restrict(self, right: dict[bytes, int]) -> None:
        """Allow only the crossing degrees that some frontier of the right half's table
        ``right`` (:func:`mirrored` order) completes: a state whose right squares so far
        fit none is dropped at once instead of at the join."""
        k2 = 2 * self.k
        allowed: list[set[int]] = [set() for _ in range(k2)]
        for key in right:
            code = 0
            for t in range(k2):
                v = key[t]
                # The right half's FREE needs two crossing edges (our FULL), its FULL none.
                code |= (FULL if v == FREE else FREE if v == FULL else FIRST) << (2 * t)
                allowed[t].add(code)
        self.allowed = list(allowed)

    def step(self, s: cython.int, table: dict[bytes, int]) -> dict[bytes, int]:
        """The states after right boundary square ``s`` is taken, from those before it
        (counts of any size)."""
        out: dict[bytes, int] = {}
        key: bytes
        count: object
        found: object
        after: bytes
        m: cython.int = self.m
        t: cython.int
        a: cython.int
        b: cython.int
        nfree: cython.int
        k2: cython.int = 2 * self.k
        v: cython.int
        code: cython.ulonglong
        allowed: object = self.allowed[s]
        for key, count in table.items():
            for t in range(m):
                self.cur[t] = key[t]
            nfree = 0
            for t in range(self.nbn[s]):
                if self.cur[self.nb[4 * s + t]] != FULL:
                    self.free[nfree] = self.nb[4 * s + t]
                    nfree += 1
            for a in range(-1, nfree):
                for b in range(a + 1 if a >= 0 else 0, nfree + 1 if a >= 0 else 1):
                    # a == -1: no edge; b == nfree: one edge (to free[a]); else two.
                    if not self._advance(
                        s,
                        self.free[a] if a >= 0 else -1,
                        self.free[b] if a >= 0 and b < nfree else -1,
                    ):
                        continue
                    if allowed is not None:
                        code = 0
                        for t in range(s + 1):
                            v = self.out[k2 + t]
                            code |= cython.cast(cython.ulonglong, v if v < FIRST else FIRST) << (
                                2 * t
                            )
                        if code not in allowed:
                            continue
                    after = bytes(self.buffer)
                    found = out.get(after)
                    out[after] = count if found is None else found + count
        return out

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _advance(self, s: cython.int, xa: cython.int, xb: cython.int) -> cython.bint:
        """Right square ``s`` with crossing edges to left squares ``xa`` and ``xb``
        (``-1``: none), from :attr:`cur`: the state after it in :attr:`buffer`, or
        ``False`` when it cannot be part of a tour."""
        m: cython.int = self.m
        k2: cython.int = 2 * self.k
        y: cython.int = k2 + s
        t: cython.int
        x: cython.int
        v: cython.int
        va: cython.int
        vb: cython.int
        label: cython.int
        for t in range(m):
            self.nxt[t] = self.cur[t]
        if xa >= 0 and xb < 0:  # one edge: y becomes an end of the fragment through xa
            va = self.cur[xa]
            if va == FREE:
                self.nxt[xa] = FRESH
                self.nxt[y] = FRESH
            else:
                self.nxt[xa] = FULL
                self.nxt[y] = va
        elif xa >= 0:  # two edges: y joins the fragments through xa and xb
            self.nxt[y] = FULL
            va = self.cur[xa]
            vb = self.cur[xb]
            if va == FREE and vb == FREE:
                self.nxt[xa] = FRESH
                self.nxt[xb] = FRESH
            elif va == FREE:
                self.nxt[xb] = FULL
                self.nxt[xa] = vb
            elif vb == FREE:
                self.nxt[xa] = FULL
                self.nxt[xb] = va
            elif va == vb:  # a cycle closed with the right half left out
                return False
            else:
                self.nxt[xa] = FULL
                self.nxt[xb] = FULL
                for t in range(m):
                    if self.nxt[t] == vb:
                        self.nxt[t] = va
        # Left squares: settled ones must be FULL; the others need no more edges than
        # they have crossing neighbours still to come.
        for t in range(self.settle_at[s], self.settle_at[s + 1]):
            if self.nxt[self.settle[t]] != FULL:
                return False
        for t in range(self.nbn[s]):
            x = self.nb[4 * s + t]
            v = self.nxt[x]
            if v != FULL and (2 if v == FREE else 1) > self.remain[s * k2 + x]:
                return False
        # Renumber the labels in order of appearance.
        for t in range(FRESH + 1):
            self.relabel[t] = 0
        label = FIRST
        for t in range(m):
            v = self.nxt[t]
            if v >= FIRST:
                if self.relabel[v] == 0:
                    self.relabel[v] = label
                    label += 1
                v = self.relabel[v]
            self.out[t] = v
        return True


def renumber(values: list[int]) -> list[int]:
    """``values`` with their labels (``>= FIRST``) renumbered in order of appearance."""
    seen: dict[int, int] = {}
    out = []
    for v in values:
        if v >= FIRST:
            v = seen.setdefault(v, FIRST + len(seen))
        out.append(v)
    return out


def partners(labels: bytes) -> tuple[list[int], list[int]]:
    """The ends of a boundary state (positions whose value is a label) and, for each
    position, the position of the other end of its fragment (``-1`` if not an end)."""
    first: dict[int, int] = {}
    other = [-1] * len(labels)
    ends = []
    for t, v in enumerate(labels):
        if v >= FIRST:
            ends.append(t)
            if v in first:
                other[t] = first[v]
                other[first[v]] = t
            else:
                first[v] = t
    return ends, other


def one_cycle(ends: list[int], left: list[int], right: list[int]) -> bool:
    """Whether the two pairings ``left`` and ``right`` of ``ends`` make one cycle."""
    start = ends[0]
    here = start
    walked = 0
    while True:
        here = right[left[here]]
        walked += 2
        if here == start:
            return walked == len(ends)


def join_tables(seen_left: dict[bytes, int], right: dict[bytes, int]) -> int:
    """The number of closed tours: the right boundary's frontiers as the left half and
    the crossing edges leave them (``seen_left``) paired with the right half's own
    (``right``, same positions), where the degrees add up to two and the ends make one
    cycle."""
    # Group by degree: a FREE square on one side must be FULL on the other.
    groups: dict[bytes, list[tuple[bytes, int]]] = {}
    for key, count in right.items():
        pattern = bytes(FULL if v == FREE else FREE if v == FULL else FIRST for v in key)
        groups.setdefault(pattern, []).append((key, count))
    pairings: dict[bytes, list[int]] = {}
    total = 0
    for key, count in seen_left.items():
        pattern = bytes(v if v < FIRST else FIRST for v in key)
        theirs = groups.get(pattern)
        if not theirs:
            continue
        ends, mine = partners(key)
        if not ends:
            continue
        for other, their_count in theirs:
            partner = pairings.get(other)
            if partner is None:
                partner = pairings[other] = partners(other)[1]
            if one_cycle(ends, mine, partner):
                total += count * their_count
    return total


# -- the halves ------------------------------------------------------------------------------


def boundary(frontiers: dict[int, int], k: int, c: int) -> dict[bytes, int]:
    """The program's table after the first ``c`` columns of a ``k``-row board, read at
    the boundary (columns ``c - 2`` and ``c - 1``: ``2k`` bytes, ``FREE`` / ``FULL`` /
    labels from ``FIRST`` in order of appearance).  Raises :class:`RuntimeError` if a
    frontier has an unsettled square left of the boundary (never, by construction)."""
    w = 2 * k + 1
    out: dict[bytes, int] = {}
    for key, count in frontiers.items():
        values = []
        for p in range(w):
            v = (key >> (4 * p if p < 15 else 64 + 4 * (p - 15))) & 15
            square = c * k - w + p
            if square < (c - 2) * k:
                if v != 1:  # the program's FULL
                    raise RuntimeError(f"frontier {key:#x}: square {square} is not settled")
                continue
            # The program's FREE (0) and FULL (1) are ours; its labels start at 3.
            values.append(v if v < 2 else v - 3 + FIRST)
        after = bytes(renumber(values))
        out[after] = out.get(after, 0) + count
    return out


def mirrored(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the mirrored board (columns swapped) in the other half's
    order: its column ``c' - 1`` is column ``c`` and its ``c' - 2`` column ``c + 1``."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        values = list(key[k:]) + list(key[:k])
        out[bytes(renumber(values))] = count
    return out


def sweep_tables(
    k: int, n: int, columns: list[int], limit: int, tick: Any = None
) -> dict[int, dict[int, int]]:
    """The closed-tour program's tables of a ``k x n`` board after each of ``columns``
    first columns (:mod:`lazysearch.knights._count`, compiled tables while the counts
    fit in 64 bits, then Python dicts).  Raises ``TooManyStatesError`` past ``limit``
    frontiers."""
    from lazysearch import _native

    module = _native.load("lazysearch.knights._count")
    counter = module.FrontierCounter(k, n, -1, True)
    table: dict[int, int] = counter.initial()
    kw = 1 if 2 * k + 1 <= 15 else 2
    fast = module.COMPILED and 2 * k + 1 <= 29
    src: Any = None
    dst: Any = None
    if fast:
        src = module.Table(limit, kw=kw)
        dst = module.Table(limit, kw=kw)
        if module.STATUS[src.load(table)] != "ok":  # pragma: no cover - one frontier
            fast = False
    out: dict[int, dict[int, int]] = {}
    for i in range(max(columns) * k):
        if fast:
            status = module.STATUS[counter.step_fast(i, src, dst)]
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


class JoinCount:
    """What :func:`join_count` found: the ``count`` of closed tours (cycles) and the
    sizes of what it held: ``left`` and ``right``, the boundary frontiers of each half;
    ``transfer[s]``, the states after the ``s``-th right boundary square (of the
    largest part, when the left table is cut into parts); ``seconds``
    for the halves (the program's sweep), the transfer and the join.  (A plain class:
    a dataclass needs its module in ``sys.modules``, which a plain-Python engine
    loaded beside its compiled one is not.)"""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.count = 0
        self.left = 0
        self.right = 0
        self.transfer: list[int] = []
        self.seconds: dict[str, float] = {}

    def __repr__(self) -> str:
        return (
            f"JoinCount({self.rows}x{self.cols}, count={self.count}, left={self.left}, "
            f"right={self.right}, transfer={self.transfer}, seconds={self.seconds})"
        )


def parts_of(left: dict[bytes, int], k: int, parts: int) -> list[dict[bytes, int]]:
    """``left`` cut into ``parts`` tables of about equal size, each frontier's part fixed
    by its column ``c - 1`` (the squares the transfer keeps longest: frontiers that
    differ there seldom meet, so little merging is lost).  Deterministic."""
    groups: dict[bytes, dict[bytes, int]] = {}
    for key, count in left.items():
        groups.setdefault(key[k:], {})[key] = count
    out: list[dict[bytes, int]] = [{} for _ in range(parts)]
    for group in sorted(groups.values(), key=lambda g: (-len(g), min(g))):
        smallest = min(range(parts), key=lambda p: len(out[p]))
        out[smallest].update(group)
    return out


def join_count(
    rows: int, cols: int, max_states: int | None = None, parts: int = 1, tick: Any = None
) -> JoinCount:
    """The closed tours of a ``rows x cols`` board, counted by joining its halves.

    >>> join_count(6, 6).count
    9862

    The board is cut across its long side before column ``n // 2`` (``n`` the long
    side, ``k`` the short one); it needs ``k >= 3`` and ``n >= 4``.  ``parts`` cuts the
    left half's table into that many parts, transferred and joined one after the other
    and the counts added (the join is linear in the left table, so the count is the
    same): the transfer then holds about one part's states at a time
    (:attr:`JoinCount.transfer` is the largest part's, square by square).

    ``tick(where)`` is called after each square of the halves' sweep and each crossing
    square of the transfer, ``where`` saying which in words; an exception it raises
    stops the count (how the command line's --time-limit does).

    Raises :class:`~lazysearch.knights.counting.TooManyStatesError` when a table would
    pass ``max_states`` entries (default
    :func:`~lazysearch.knights.counting.default_max_states`); ``ValueError`` for a board
    the cut does not fit or ``parts < 1``.
    """
    from lazysearch.knights.counting import default_max_states

    k, n = min(rows, cols), max(rows, cols)
    if k < 3 or n < 4:
        raise ValueError(f"join_count() needs a board at least 3x4, not {rows}x{cols}")
    if parts < 1:
        raise ValueError(f"join_count() needs parts >= 1, not {parts!r}")
    limit = default_max_states() if max_states is None else max_states
    result = JoinCount(rows, cols)
    began = time.perf_counter()
    c = n // 2
    tables = sweep_tables(k, n, sorted({c, n - c}), limit, tick)
    left = boundary(tables[c], k, c)
    right = mirrored(boundary(tables[n - c], k, n - c), k)
    del tables
    result.left, result.right = len(left), len(right)
    result.seconds["halves"] = time.perf_counter() - began
    result.seconds["transfer"] = result.seconds["join"] = 0.0
    transfer = Transfer(k, c)
    transfer.restrict(right)
    usable = {
        key: count
        for key, count in left.items()
        if all(key[x] == FULL for x in range(2 * k) if transfer.degrees[x] == 0)
    }
    del left
    result.transfer = [0] * (2 * k)
    for part in parts_of(usable, k, parts) if parts > 1 else [usable]:
        began = time.perf_counter()
        states = {key + bytes(2 * k): count for key, count in part.items()}
        for s in range(2 * k):
            states = transfer.step(s, states)
            result.transfer[s] = max(result.transfer[s], len(states))
            if len(states) > limit:
                raise _too_many(limit, k, n, f"states at crossing square {s + 1} of {2 * k}")
            if tick is not None:
                tick(f"crossing square {s + 1} of {2 * k}")
        seen = {key[2 * k :]: count for key, count in states.items()}
        del states
        result.seconds["transfer"] += time.perf_counter() - began
        began = time.perf_counter()
        result.count += join_tables(seen, right)
        result.seconds["join"] += time.perf_counter() - began
    return result


def _too_many(limit: int, k: int, n: int, where: str) -> TooManyStatesError:
    return TooManyStatesError(
        f"joining the halves of {k}x{n} needs more than max_states={limit:,} {where}; "
        "raise max_states if the machine has the memory"
    )
