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
left half and the crossing edges join.  The *join* (:class:`Joiner`; in Python dicts
:func:`lazysearch.knights.join.join_tables`) pairs it with the
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
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import array
import itertools

from lazysearch.engine import _buffers
from lazysearch.knights import _table
from lazysearch.knights.limits import TooManyStatesError

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


# -- the packed tables of the compiled transfer -------------------------------------------

#: Bits a square takes in a packed state, and squares a 64-bit word holds.
SQUARE_BITS = cython.declare(cython.int, 5)
PER_WORD = cython.declare(cython.int, 12)
MASK32 = cython.declare(cython.ulonglong, 0xFFFFFFFF)

# The frontier table (:mod:`lazysearch.knights._table`), its constants and what adding
# to it did, compiled or as plain Python.
if cython.compiled:
    from cython.cimports.lazysearch.knights._table import EMPTY, GOLDEN, MASK64, OK, Table
else:
    _plain = _table.plain()
    EMPTY, GOLDEN, MASK64 = _plain.EMPTY, _plain.GOLDEN, _plain.MASK64
    OK, Table = _plain.OK, _plain.Table
#: The statuses' names, for Python code.
STATUS = _table.STATUS
#: Labels renumbered in order of appearance (the frontier table's).
renumber = _table.renumber


#: Numbers the :class:`Packed` tables made, for their hash salts.
_TABLES = itertools.count(1)


def words_for(squares: int) -> int:
    """The 64-bit words a packed state of ``squares`` squares takes (12 a word)."""
    return (squares + PER_WORD - 1) // PER_WORD


@cython.cclass
class Packed(Table):
    """The frontier table (:class:`~lazysearch.knights._table.Table`) of packed states
    (``w`` 64-bit words, square ``p`` in bits ``5 * (p % 12)`` of word ``p // 12``) with
    counts below ``2**64``, doubled when 70 % full: slot ``i`` takes words ``i * (w + 1)``
    on, the key, then the count.  ``limit`` bounds the states it takes (:meth:`add_key`
    says ``FULL_UP`` past it); about ``8 * (w + 1) / 0.5`` bytes a state (64 for 8x8's
    three-word states)."""

    def __init__(self, w: int, limit: int, size: int = 256) -> None:
        # Each table hashes its own way: a table filled in another's slot order, with
        # the same hash, piles its keys into one run while it is the smaller (8x8's
        # first square, 4 million states, did not finish in 40 minutes).
        super().__init__(limit, size, 1, w, (next(_TABLES) * GOLDEN) & MASK64, 70)


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
    pk: cython.ulonglong[::1]  # a packed state being built
    #: The rows of the board (the short side).
    k = cython.declare(cython.int, visibility="readonly")
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
        self.pk = _buffers.filled64(words_for(4 * k), 0, compiled)  # type: ignore[assignment]
        self.allowed = [None] * (2 * k)

    def restrict(self, right: dict[bytes, int]) -> None:
        """Allow only the crossing degrees that some frontier of the right half's table
        ``right`` (:func:`~lazysearch.knights.join.mirrored` order) completes: a state
        whose right squares so far fit none is dropped at once instead of at the join."""
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

    def successors(self, s: cython.int, key: bytes) -> list[tuple[int, int, bytes]]:
        """Right boundary square ``s``'s ways from one state ``key`` (:meth:`step`'s, in
        the same order, without :meth:`restrict`'s filter): for each, ``(xa, xb,
        after)``, the left boundary squares its crossing edges go to (``-1``: none) and
        the state after it.  Sampling walks the transfer back with it
        (:mod:`lazysearch.knights.joinsample`)."""
        out: list[tuple[int, int, bytes]] = []
        m: cython.int = self.m
        t: cython.int
        a: cython.int
        b: cython.int
        xa: cython.int
        xb: cython.int
        nfree: cython.int
        for t in range(m):
            self.cur[t] = key[t]
        nfree = 0
        for t in range(self.nbn[s]):
            if self.cur[self.nb[4 * s + t]] != FULL:
                self.free[nfree] = self.nb[4 * s + t]
                nfree += 1
        for a in range(-1, nfree):
            for b in range(a + 1 if a >= 0 else 0, nfree + 1 if a >= 0 else 1):
                xa = self.free[a] if a >= 0 else -1
                xb = self.free[b] if a >= 0 and b < nfree else -1
                if self._advance(s, xa, xb):
                    out.append((xa, xb, bytes(self.buffer)))
        return out

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def step_packed(self, s: cython.int, src: Packed, into: list, trie: cython.int[::1]) -> int:  # type: ignore[type-arg]
        """:meth:`step` on packed tables: the states after right boundary square ``s``,
        from ``src``'s, added to ``into[d]`` by what square ``s`` got (``d``: 0 no
        crossing edge, 1 two, 2 one; ``None`` drops those).  ``trie`` (:func:`trie_of`)
        holds the degree patterns of the right squares that the right half completes.
        Returns ``OK``, or ``OVERFLOW`` / ``FULL_UP`` / ``NO_MEMORY`` (then the tables
        in ``into`` are incomplete)."""
        m: cython.int = self.m
        k2: cython.int = 2 * self.k
        w: cython.Py_ssize_t = src.kw
        stride: cython.Py_ssize_t = w + 1
        slots = src.slots
        slot: cython.Py_ssize_t
        base: cython.Py_ssize_t
        t: cython.int
        a: cython.int
        b: cython.int
        v: cython.int
        d: cython.int
        node: cython.int
        nfree: cython.int
        status: cython.int
        word: cython.ulonglong
        keep = cython.declare(cython.int[3])
        dst = cython.declare(Packed)
        tables = [src, src, src]
        for d in range(3):
            keep[d] = into[d] is not None
            if keep[d]:
                tables[d] = into[d]
        to_none: Packed = tables[0]
        to_two: Packed = tables[1]
        to_one: Packed = tables[2]
        for slot in range(src.size):
            base = stride * slot
            if slots[base] == EMPTY:
                continue
            word = 0
            for t in range(m):
                if t % PER_WORD == 0:
                    word = slots[base + t // PER_WORD]
                self.cur[t] = cython.cast(cython.int, word & 31)
                word >>= SQUARE_BITS
            node = 0
            for t in range(s):
                v = self.cur[k2 + t]
                node = trie[3 * node + (v if v < FIRST else FIRST)]
            nfree = 0
            for t in range(self.nbn[s]):
                if self.cur[self.nb[4 * s + t]] != FULL:
                    self.free[nfree] = self.nb[4 * s + t]
                    nfree += 1
            for a in range(-1, nfree):
                for b in range(a + 1 if a >= 0 else 0, nfree + 1 if a >= 0 else 1):
                    # a == -1: no edge; b == nfree: one edge (to free[a]); else two.
                    d = 0 if a < 0 else (2 if b == nfree else 1)
                    if not keep[d] or trie[3 * node + d] < 0:
                        continue
                    if not self._advance(
                        s,
                        self.free[a] if a >= 0 else -1,
                        self.free[b] if a >= 0 and b < nfree else -1,
                    ):
                        continue
                    dst = to_none if d == 0 else (to_two if d == 1 else to_one)
                    status = dst.add_wide(self.pk, 0, slots, base + w)
                    if status != OK:
                        return status
        return OK

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def predecessors(self, s: cython.int, src: Packed, target: int) -> list:  # type: ignore[type-arg]
        """The states of ``src`` (the table before right boundary square ``s``) that
        square ``s`` takes to the state ``target`` (:meth:`Packed.items`' key), in one
        compiled scan of the table: for each way, ``(key, way, xa, xb, count)``, the
        state, the way's place in :meth:`successors`' order, the left squares its
        crossing edges go to (``-1``: none) and the state's count.  Sampling walks the
        packed transfer back with it."""
        out: list[tuple[int, int, int, int, int]] = []
        m: cython.int = self.m
        w: cython.Py_ssize_t = src.kw
        stride: cython.Py_ssize_t = w + 1
        slots = src.slots
        slot: cython.Py_ssize_t
        base: cython.Py_ssize_t
        count: cython.ulonglong
        t: cython.int
        a: cython.int
        b: cython.int
        xa: cython.int
        xb: cython.int
        way: cython.int
        nfree: cython.int
        same: cython.bint
        word: cython.ulonglong
        goal = _buffers.filled64(w, 0, COMPILED)
        want: cython.ulonglong[::1] = goal  # type: ignore[assignment]
        for t in range(w):
            want[t] = (target >> (64 * t)) & MASK64
        for slot in range(src.size):
            base = stride * slot
            if slots[base] == EMPTY:
                continue
            count = slots[base + w]
            word = 0
            for t in range(m):
                if t % PER_WORD == 0:
                    word = slots[base + t // PER_WORD]
                self.cur[t] = cython.cast(cython.int, word & 31)
                word >>= SQUARE_BITS
            nfree = 0
            for t in range(self.nbn[s]):
                if self.cur[self.nb[4 * s + t]] != FULL:
                    self.free[nfree] = self.nb[4 * s + t]
                    nfree += 1
            way = 0
            for a in range(-1, nfree):
                for b in range(a + 1 if a >= 0 else 0, nfree + 1 if a >= 0 else 1):
                    xa = self.free[a] if a >= 0 else -1
                    xb = self.free[b] if a >= 0 and b < nfree else -1
                    way += 1
                    if not self._advance(s, xa, xb):
                        continue
                    same = True
                    for t in range(w):
                        if self.pk[t] != want[t]:
                            same = False
                            break
                    if same:
                        key = 0
                        for t in range(w):
                            key |= int(slots[base + t]) << (64 * t)
                        out.append((key, way, xa, xb, int(count)))
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
        # Renumber the labels in order of appearance (the labels before it are below
        # FIRST + m, the new one FRESH).
        for t in range(FIRST, FIRST + m):
            self.relabel[t] = 0
        self.relabel[FRESH] = 0
        # Pack it too, 12 squares a word (:meth:`step_packed`).
        label = FIRST
        word: cython.ulonglong = 0
        shift: cython.int = 0
        at: cython.int = 0
        for t in range(m):
            v = self.nxt[t]
            if v >= FIRST:
                if self.relabel[v] == 0:
                    self.relabel[v] = label
                    label += 1
                v = self.relabel[v]
            self.out[t] = v
            word |= cython.cast(cython.ulonglong, v) << shift
            shift += SQUARE_BITS
            if shift == SQUARE_BITS * PER_WORD:
                self.pk[at] = word
                at += 1
                word = 0
                shift = 0
        if shift:
            self.pk[at] = word
        return True


def _signed_bytes(size: int, compiled: bool) -> object:
    """``size`` zeros in a mutable buffer of signed bytes (a list as plain Python)."""
    return array.array("b", bytes(size)) if compiled else [0] * size


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _value(slots: cython.ulonglong[::1], base: cython.Py_ssize_t, p: cython.int) -> cython.int:
    """Square ``p`` of the packed state whose first word is ``slots[base]``."""
    return cython.cast(
        cython.int, (slots[base + p // PER_WORD] >> (SQUARE_BITS * (p % PER_WORD))) & 31
    )


@cython.cfunc
@cython.exceptval(check=False)
def _needed(
    slots: cython.ulonglong[::1], base: cython.Py_ssize_t, k2: cython.int
) -> cython.ulonglong:
    """The crossing degrees a right half's boundary frontier (``k2`` squares, packed at
    ``slots[base]``) needs, as :func:`degree_code`: its ``FREE`` squares need two
    (``FULL``'s code), its ``FULL`` ones none, its ends one."""
    code: cython.ulonglong = 0
    t: cython.int
    v: cython.int
    for t in range(k2):
        v = _value(slots, base, t)
        code |= cython.cast(
            cython.ulonglong, FULL if v == FREE else FREE if v == FULL else FIRST
        ) << (2 * t)
    return code


@cython.final  # (its methods are called directly, so _one_cycle can be inlined in join)
@cython.cclass
class Joiner:
    """The join of the packed transfer: the right half's boundary frontiers grouped by
    the crossing degrees they need (:meth:`join` pairs a table of final transfer states
    with them).  Each right frontier keeps, for each of its ``2k`` squares, the square
    at its fragment's other end (``-1``: none) and its count; a group is the frontiers
    needing one degree pattern (two bits a square, as :func:`degree_code`), in order of
    the patterns."""

    k2: cython.int
    partner: cython.schar[::1]
    counts: cython.ulonglong[::1]
    start: cython.longlong[::1]
    mine: cython.int[::1]
    ends: cython.int[::1]
    first: cython.int[::1]
    hi: cython.ulonglong
    lo: cython.ulonglong
    _code: cython.ulonglong
    #: The group of each degree pattern the right half needs.
    groups = cython.declare(dict, visibility="public")
    #: How many pairs of frontiers :meth:`join` compared.
    pairs = cython.declare(cython.longlong, visibility="readonly")

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def __init__(self, right: Packed, k2: int) -> None:
        compiled = COMPILED
        self.k2 = k2
        sizes: dict[int, int] = {}
        stride: cython.Py_ssize_t = right.kw + 1
        slots = right.slots
        slot: cython.Py_ssize_t
        at: cython.Py_ssize_t
        g: cython.Py_ssize_t
        t: cython.int
        v: cython.int
        count: cython.ulonglong
        total: cython.ulonglong = 0
        for slot in range(right.size):
            count = slots[stride * slot + right.kw]
            if slots[stride * slot] != EMPTY:
                code = _needed(slots, stride * slot, k2)
                sizes[code] = sizes.get(code, 0) + 1
                total = (total + count) & MASK64
                if total < count:
                    raise OverflowError("the right half's counts add up past 2**64")
        self.groups = {}
        start = [0]
        n = 0
        for code in sorted(sizes):
            self.groups[code] = len(start) - 1
            n += sizes[code]
            start.append(n)
        self.partner = _signed_bytes(n * k2, compiled)  # type: ignore[assignment]
        self.counts = _buffers.filled64(n, 0, compiled)  # type: ignore[assignment]
        self.start = _buffers.zeros64(len(start), compiled)  # type: ignore[assignment]
        place = _buffers.zeros64(len(start), compiled)
        for g in range(len(start)):
            self.start[g] = start[g]
            place[g] = start[g]  # type: ignore[index]
        self.mine = _buffers.zeros(k2, compiled)  # type: ignore[assignment]
        self.ends = _buffers.zeros(k2, compiled)  # type: ignore[assignment]
        self.first = _buffers.zeros(64, compiled)  # type: ignore[assignment]
        for slot in range(right.size):
            count = slots[stride * slot + right.kw]
            if slots[stride * slot] != EMPTY:
                g = self.groups[_needed(slots, stride * slot, k2)]
                at = place[g]  # type: ignore[index]
                place[g] = at + 1  # type: ignore[index]
                self.counts[at] = count
                for t in range(64):
                    self.first[t] = -1
                for t in range(k2):
                    v = _value(slots, stride * slot, t)
                    self.partner[at * k2 + t] = -1
                    if v >= FIRST:
                        if self.first[v] >= 0:
                            self.partner[at * k2 + t] = self.first[v]
                            self.partner[at * k2 + self.first[v]] = t
                        else:
                            self.first[v] = t
        self.pairs = 0

    def patterns(self) -> list[int]:
        """The degree patterns the right half needs (:func:`degree_code`), in order."""
        return sorted(self.groups)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def join(self, table: Packed) -> int:
        """The closed tours made by the final transfer states of ``table`` (left
        boundary all ``FULL``; right boundary as the left half and the crossing edges
        leave it) and the right half's frontiers that fit: the sum, over pairs whose
        degrees add up to two on every square and whose pairings of the ends make one
        cycle, of the products of their counts."""
        w: cython.Py_ssize_t = table.kw
        stride: cython.Py_ssize_t = w + 1
        slots = table.slots
        slot: cython.Py_ssize_t
        base: cython.Py_ssize_t
        r: cython.Py_ssize_t
        count: cython.ulonglong
        inner: cython.ulonglong
        nends: cython.int
        g: object
        self.hi = 0
        self.lo = 0
        for slot in range(table.size):
            base = stride * slot
            if slots[base] == EMPTY:
                continue
            count = slots[base + w]
            nends = self._read_final(slots, base)
            if nends < 0:
                continue
            g = self.groups.get(self._code)
            if g is None:
                continue
            inner = 0
            for r in range(self.start[g], self.start[g + 1]):
                if self._one_cycle(r, nends):
                    inner += self.counts[r]
            self.pairs += self.start[g + 1] - self.start[g]
            if inner:
                self._add_product(count, inner)
        return (int(self.hi) << 64) | int(self.lo)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def weights(self, table: Packed) -> list:  # type: ignore[type-arg]
        """:meth:`join` state by state: for each final transfer state of ``table`` that
        some right frontier completes, ``(key, count, inner)``, its key
        (:meth:`Packed.items`' form), its count and the sum of the counts of the right
        frontiers that make one cycle with it (so it takes part in ``count * inner``
        tours).  In slot order; sampling sorts it."""
        out: list[tuple[int, int, int]] = []
        w: cython.Py_ssize_t = table.kw
        stride: cython.Py_ssize_t = w + 1
        slots = table.slots
        slot: cython.Py_ssize_t
        base: cython.Py_ssize_t
        r: cython.Py_ssize_t
        count: cython.ulonglong
        inner: object
        t: cython.int
        nends: cython.int
        g: object
        for slot in range(table.size):
            base = stride * slot
            if slots[base] == EMPTY:
                continue
            count = slots[base + w]
            nends = self._read_final(slots, base)
            if nends < 0:
                continue
            g = self.groups.get(self._code)
            if g is None:
                continue
            inner = 0
            for r in range(self.start[g], self.start[g + 1]):
                if self._one_cycle(r, nends):
                    inner += self.counts[r]
            if inner:
                key = 0
                for t in range(w):
                    key |= int(slots[base + t]) << (64 * t)
                out.append((key, int(count), inner))
        return out

    def matches(self, key: int) -> list[tuple[bytes, int]]:
        """The right half's frontiers that make one cycle with the final transfer state
        ``key`` (:meth:`Packed.items`' form), each as its ``2k`` squares in
        :func:`~lazysearch.knights.join.mirrored` order (``FREE``, ``FULL``, labels from
        ``FIRST`` in order of appearance: the right table's own key) with its count, in
        the order of those squares."""
        k2: cython.int = self.k2
        t: cython.int
        r: cython.Py_ssize_t
        w = words_for(2 * k2)
        words = _buffers.filled64(w, 0, COMPILED)
        for t in range(w):
            words[t] = (key >> (64 * t)) & MASK64  # type: ignore[index]
        nends: cython.int = self._read_final(words, 0)  # type: ignore[arg-type]
        g = self.groups.get(self._code) if nends >= 0 else None
        out: list[tuple[bytes, int]] = []
        if g is None:
            return out
        code: int = self._code
        for r in range(self.start[g], self.start[g + 1]):
            if not self._one_cycle(r, nends):
                continue
            values = []
            for t in range(k2):
                d = (code >> (2 * t)) & 3
                if d == FIRST:  # an end: a new label, or its partner's before it
                    p = self.partner[r * k2 + t]
                    values.append(values[p] if p < t else FIRST + len(set(values) - {0, 1}))
                else:  # no crossing edge: the right half's FULL; two: its FREE
                    values.append(FULL if d == FREE else FREE)
            out.append((bytes(values), int(self.counts[r])))
        out.sort()
        return out

    @cython.cfunc
    @cython.exceptval(-2)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _read_final(self, slots: cython.ulonglong[::1], base: cython.Py_ssize_t) -> cython.int:
        """Read the right boundary of the final state packed at ``slots[base]`` as
        :meth:`join` does (its degree code into ``_code``, its ends and pairing into
        ``ends`` and ``mine``): its number of ends, ``-1`` for none."""
        k2: cython.int = self.k2
        t: cython.int
        p: cython.int
        v: cython.int
        nends: cython.int = 0
        code: cython.ulonglong = 0
        for t in range(FIRST + k2):
            self.first[t] = -1
        for t in range(k2):
            p = k2 + t
            v = cython.cast(
                cython.int, (slots[base + p // PER_WORD] >> (SQUARE_BITS * (p % PER_WORD))) & 31
            )
            if v >= FIRST:
                code |= cython.cast(cython.ulonglong, FIRST) << (2 * t)
                self.ends[nends] = t
                nends += 1
                if self.first[v] < 0:
                    self.first[v] = t
                    self.mine[t] = -1
                else:
                    self.mine[t] = self.first[v]
                    self.mine[self.first[v]] = t
            else:
                code |= cython.cast(cython.ulonglong, v) << (2 * t)
        self._code = code
        return nends if nends else -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _one_cycle(self, r: cython.Py_ssize_t, nends: cython.int) -> cython.bint:
        """Whether right frontier ``r`` and the final state last read by
        :meth:`_read_final` make one cycle."""
        rp: cython.Py_ssize_t = r * self.k2
        here: cython.int = self.ends[0]
        walked: cython.int = 0
        while True:
            here = self.partner[rp + self.mine[here]]
            walked += 2
            if here == self.ends[0]:
                break
        return walked == nends

    @cython.cfunc
    @cython.exceptval(check=False)
    def _add_product(self, a: cython.ulonglong, b: cython.ulonglong) -> cython.void:
        """Add ``a * b`` to the 128-bit sum ``(hi, lo)``."""
        a0: cython.ulonglong = a & MASK32
        a1: cython.ulonglong = a >> 32
        b0: cython.ulonglong = b & MASK32
        b1: cython.ulonglong = b >> 32
        p00: cython.ulonglong = a0 * b0
        p01: cython.ulonglong = a0 * b1
        p10: cython.ulonglong = a1 * b0
        p11: cython.ulonglong = a1 * b1
        mid: cython.ulonglong = (p00 >> 32) + (p01 & MASK32) + (p10 & MASK32)
        low: cython.ulonglong = ((p00 & MASK32) | ((mid & MASK32) << 32)) & MASK64
        high: cython.ulonglong = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)
        self.lo = (self.lo + low) & MASK64
        if self.lo < low:
            high += 1
        self.hi = (self.hi + high) & MASK64


# -- the packed join ---------------------------------------------------------------------


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def boundary_packed(
    frontiers: dict[int, int],
    k: int,
    c: int,
    squares: int,
    mirror: bool,
    need_full: list[int],
    limit: int,
    fold: bool = False,
) -> Packed | None:
    """:func:`~lazysearch.knights.join.boundary` (or, with ``mirror``,
    :func:`~lazysearch.knights.join.mirrored` of it) as a packed table
    of states of ``squares`` squares (the boundary's ``2k`` first, the others ``FREE``),
    leaving out frontiers whose squares ``need_full`` are not ``FULL``.  ``fold`` keeps
    of each frontier and its image with the rows turned over the smaller key, with both
    counts.  ``None`` when a count is past ``2**64``; ``TooManyStatesError`` past
    ``limit`` states."""
    kk: cython.int = k
    w: cython.int = 2 * k + 1
    skip: cython.int = (c - 2) * k - (c * k - w)
    p: cython.int
    q: cython.int
    v: cython.int
    t: cython.int
    smaller: cython.int
    lo: cython.ulonglong
    hi: cython.ulonglong
    values = _buffers.zeros(2 * k, COMPILED)
    vals: cython.int[::1] = values  # type: ignore[assignment]
    turned = _buffers.zeros(2 * k, COMPILED)
    other: cython.int[::1] = turned  # type: ignore[assignment]
    relabel = _buffers.zeros(64, COMPILED)
    seen: cython.int[::1] = relabel  # type: ignore[assignment]
    nw: cython.int = words_for(squares)
    words = _buffers.filled64(nw, 0, COMPILED)
    pk: cython.ulonglong[::1] = words  # type: ignore[assignment]
    words2 = _buffers.filled64(nw, 0, COMPILED)
    pk2: cython.ulonglong[::1] = words2  # type: ignore[assignment]
    one = _buffers.filled64(1, 0, COMPILED)
    ones: cython.ulonglong[::1] = one  # type: ignore[assignment]
    out: Packed = Packed(nw, limit)
    for key, count in frontiers.items():
        if count >> 64:
            return None
        lo = key & MASK64
        hi = key >> 64
        for p in range(w):
            v = cython.cast(
                cython.int, ((lo >> (4 * p)) if p < 15 else (hi >> (4 * (p - 15)))) & 15
            )
            if p < skip:
                if v != 1:  # the program's FULL
                    raise RuntimeError(f"frontier {key:#x}: position {p} is not settled")
                continue
            q = p - skip
            if mirror:
                q = q + kk if q < kk else q - kk
            # The program's FREE (0) and FULL (1) are ours; its labels start at 3.
            vals[q] = v if v < 2 else v - 3 + FIRST
        for q in need_full:
            if vals[q] != FULL:
                break
        else:
            _pack_boundary(vals, 2 * kk, pk, seen)
            if fold:
                for q in range(2 * kk):
                    other[q] = vals[(q // kk) * kk + (kk - 1 - q % kk)]
                _pack_boundary(other, 2 * kk, pk2, seen)
                smaller = 0
                for t in range(nw - 1, -1, -1):
                    if pk2[t] != pk[t]:
                        smaller = 1 if pk2[t] < pk[t] else 0
                        break
                if smaller:
                    for t in range(nw):
                        pk[t] = pk2[t]
            ones[0] = count
            status = out.add_wide(pk, 0, ones, 0)
            if status != OK:
                raise TooManyStatesError(
                    f"a boundary table needs more than max_states={limit:,} frontiers "
                    f"({STATUS[status]})"
                )
    return out


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _pack_boundary(
    vals: cython.int[::1], n: cython.int, pk: cython.ulonglong[::1], seen: cython.int[::1]
) -> cython.void:
    """Pack the ``n`` squares ``vals`` into ``pk`` (the words after them zero), labels
    renumbered in order of appearance."""
    t: cython.int
    v: cython.int
    label: cython.int = FIRST
    for t in range(64):
        seen[t] = 0
    for t in range(len(pk)):
        pk[t] = 0
    for t in range(n):
        v = vals[t]
        if v >= FIRST:
            if seen[v] == 0:
                seen[v] = label
                label += 1
            v = seen[v]
        pk[t // PER_WORD] |= cython.cast(cython.ulonglong, v) << (SQUARE_BITS * (t % PER_WORD))


def trie_of(patterns: list[int], k2: int) -> object:
    """The degree patterns (:func:`degree_code`, two bits a square) as a trie over the
    squares in order: node ``u``'s child for degree ``d`` (0 no crossing edge, 1 two,
    2 one) is ``trie[3 * u + d]``, ``-1`` if no pattern goes on that way; node 0 is the
    root.  Returned as the transfer's buffer."""
    trie = [-1, -1, -1]
    for code in patterns:
        node = 0
        for t in range(k2):
            d = (code >> (2 * t)) & 3
            child = trie[3 * node + d]
            if child < 0:
                child = trie[3 * node + d] = len(trie) // 3
                trie += [-1, -1, -1]
            node = child
    return _buffers.ints(trie, COMPILED)


def degree_code(degrees: list[int]) -> int:
    """Crossing degrees as one integer, two bits a square, the first square lowest:
    0 for none, 1 for two, 2 for one (the value a state shows: ``FREE``, ``FULL``, an
    end)."""
    code = 0
    for t, d in enumerate(degrees):
        code |= (0 if d == 0 else 1 if d == 2 else 2) << (2 * t)
    return code


# -- the join and the boundaries in Python objects (counts of any size) -----------------


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
        after = bytes(renumber(values, FIRST))
        out[after] = out.get(after, 0) + count
    return out


def mirrored(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the mirrored board (columns swapped) in the other half's
    order: its column ``c' - 1`` is column ``c`` and its ``c' - 2`` column ``c + 1``."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        values = list(key[k:]) + list(key[:k])
        out[bytes(renumber(values, FIRST))] = count
    return out
