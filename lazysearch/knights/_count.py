"""Counting knight's tours by dynamic programming over cross-sections (Cython pure mode).

No tour is built.  The squares of a ``k x n`` board (``k`` the short side) are taken one
at a time, column by column along the long side (square ``i = column * k + row``).  A
knight's move changes the column by one or two, so every edge joins a square to one of
the ``W = 2k + 1`` squares before it.  Taking square ``i`` means choosing which of its
edges back are in the tour: none, one or two.  What the edges chosen so far leave for
the rest of the board is the *frontier*: for each of the last ``W`` squares,

* ``FULL``: it has all its edges (two; one for the given start of an open tour), or it
  can get no more and was accepted as it was;
* ``FREE``: no edge yet;
* an *end*: one edge, so it is an end of a path fragment.  Either the fragment's other
  end is another end of the frontier, and both carry the same label (``3, 4, ...``,
  numbered in the order they appear, so that equal frontiers look equal), or the other
  end is one of the tour's two ends, already fixed, and it shows ``TAIL``;

and, for open tours, how many of the tour's ends have been fixed.  The table maps every
frontier reached to the number of edge sets that reach it; taking a square sends each
entry to its successors, adding counts where they meet.  That is the transfer-matrix
method; the count is exact because two edge sets with the same frontier can be completed
in exactly the same ways (what lies ahead sees only the frontier).

A square is settled when its last neighbour ahead has been taken: it must then be
``FULL``, or (open tours, while fewer than two ends are fixed) an end, which becomes one
of the tour's ends.  A fragment whose two ends are both fixed is the whole tour, and a
fragment closed into a cycle is the whole closed tour: either is allowed only with the
last square.  A square that needs more edges than it has neighbours ahead is dropped at
once (it can only become a tour end, one edge short).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from lazysearch.engine import _buffers
from lazysearch.knights import _table
from lazysearch.knights._frontier import neighbours_back

COMPILED: bool = cython.compiled

# The frontiers' table (:mod:`lazysearch.knights._table`) and bit counting, compiled or
# as plain Python.
if cython.compiled:
    from cython.cimports.lazysearch.engine.bitops import popcount64
    from cython.cimports.lazysearch.knights._table import EMPTY, OK, Table, home
else:
    EMPTY, OK, home = _table.plain().EMPTY, _table.plain().OK, _table.plain().home

    def popcount64(v: int) -> int:
        """The number of bits set in ``v``."""
        return v.bit_count()


FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
TAIL = cython.declare(cython.int, 2)
#: The label a new fragment gets before the frontier is renumbered (at most one new
#: label per step, and the renumbered labels stay below it).
FRESH = cython.declare(cython.int, 15)
#: Bits per square of the frontier in a packed key; the fixed tour ends sit above them.
BITS = cython.declare(cython.int, 4)

#: Successor frontiers gathered before they are added to a table (one frontier's
#: successors, 11 at most, always fit after the batch's threshold).
BATCH = cython.declare(cython.int, 256)

# What taking a square does to one frontier (:meth:`FrontierCounter._advance`).
DROPPED = cython.declare(cython.int, 0)
FINISHED = cython.declare(cython.int, 1)
NEXT = cython.declare(cython.int, 2)


@cython.cclass
class FrontierCounter:
    """The table's step for one board: :meth:`step` takes square ``i``.

    ``start`` is the sweep index of an open tour's given start (``-1``: any start);
    ``closed`` asks for cycles.  Complete tours found with the last square are added to
    :attr:`finished`.  ``fold`` merges each frontier with its mirror image at the end of
    every column (:meth:`_pack`): the table's keys are then no longer the frontiers the
    edges chosen reach, only their classes, so :class:`TourSampler` does not fold.
    ``cut`` (from 2) leaves out the edges between columns ``cut - 2`` and ``cut - 1``:
    the table after ``cut`` columns is then the left half of a join through those two
    columns (:mod:`lazysearch.knights._openjoin`), whose right half has those edges.
    The edges left out still count as edges a square may get (the other half may give
    them), so every frontier the join needs is kept.
    """

    nb: cython.int[::1]  # back neighbours of square i, as frontier positions, 4 a square
    nbn: cython.int[::1]  # how many
    cap: cython.int[::1]  # edges a square needs: 2, or 1 for the start of an open tour
    fin: cython.int[::1]  # positions settled after square i, from fin_at[i] to fin_at[i+1]
    fin_at: cython.int[::1]
    rem: cython.int[::1]  # neighbours still ahead of position p after square i: [i*(W+1)+p]
    cur: cython.int[::1]
    nxt: cython.int[::1]
    relabel: cython.int[::1]
    free: cython.int[::1]
    cpa: cython.int[::1]  # square i's ways back: edges to positions cpa[c] and cpb[c]
    cpb: cython.int[::1]
    sign: cython.int[::1]  # +1 or -1 by the square's colour
    surplus: cython.int[::1]  # sum of 2 * sign (1 * sign for a start) over squares >= i
    # Squares not yet taken that depend on the frontier for their edges (fewer untaken
    # neighbours than they need), after square i: entries look_at[i] to look_at[i+1],
    # each the edges still missing with every frontier neighbour FULL (look_need), the
    # edges it needs (look_cap: 1 for a given start, which cannot be one short) and its
    # frontier neighbours' positions (look_mask, a bit each).
    look_at: cython.int[::1]
    look_need: cython.int[::1]
    look_cap: cython.int[::1]
    look_mask: cython.ulonglong[::1]
    open_cur: cython.ulonglong  # a bit for each position of cur that is not FULL
    fold_at: cython.int[::1]  # 1 after the last square of a column whose frontiers fold
    mirror: cython.int[::1]  # the position a position's square goes to, rows turned over

    # What :meth:`_load` works out once for all of a frontier's ways: its free back
    # neighbours' count, and the short squares and colour balance of the positions that
    # no way changes (:meth:`_advance` adds the rest).
    nfree: cython.int
    base_short: cython.int
    base_balance: cython.int

    k: cython.int
    n: cython.int
    total: cython.int
    W: cython.int
    closed: cython.bint
    ends_allowed: cython.int
    ends: cython.int
    key_lo: cython.ulonglong
    key_hi: cython.ulonglong
    # Successor frontiers waiting to be added (:meth:`_flush`): keys and where in the
    # source table their counts are.
    batch_lo: cython.ulonglong[::1]
    batch_hi: cython.ulonglong[::1]
    batch_at: cython.longlong[::1]
    sink: cython.ulonglong
    finished = cython.declare(object, visibility="public")
    #: How many ways (a square's choices of edges back, from one frontier) were
    #: followed, by :meth:`step` and :meth:`step_fast` (a measure of the work done).
    tried = cython.declare(cython.longlong, visibility="readonly")

    def __init__(
        self, k: int, n: int, start: int, closed: bool, fold: bool = False, cut: int = 0
    ) -> None:
        compiled = COMPILED
        self.k = k
        self.n = n
        self.total = k * n
        self.W = 2 * k + 1
        self.closed = closed
        if closed:
            self.ends_allowed = 0
        elif start >= 0:
            self.ends_allowed = 1  # the start is one end already
        else:
            self.ends_allowed = 2
        self.finished = 0
        self.tried = 0
        total = k * n
        w = 2 * k + 1
        back = neighbours_back(k, n)
        last = list(range(total))  # the last neighbour ahead (the square itself if none)
        for i in range(total):
            for j in back[i]:
                last[j] = max(last[j], i)
        # A cut (see the class's docstring): the edges between columns cut - 2 and
        # cut - 1 are left out, for the other half of a join.
        left_out: list[list[int]] = [[] for _ in range(total)]
        if cut >= 2:
            for i in range((cut - 1) * k, min(cut * k, total)):
                left_out[i] = [j for j in back[i] if j // k == cut - 2]
        nb = [0] * (4 * total)
        nbn = [0] * total
        for i in range(total):
            taken_back = [j for j in back[i] if j not in left_out[i]]
            nbn[i] = len(taken_back)
            for t, j in enumerate(taken_back):
                nb[4 * i + t] = w - (i - j)
        caps = [2] * total
        if start >= 0 and not closed:
            caps[start] = 1
        fin: list[int] = []
        fin_at = [0]
        for i in range(total):
            fin += [p for p in range(w + 1) if i - w + p >= 0 and last[i - w + p] == i]
            fin_at.append(len(fin))
        ahead: list[list[int]] = [[] for _ in range(total)]
        for i in range(total):
            for j in back[i]:
                ahead[j].append(i)
        rem = [0] * (total * (w + 1))
        for i in range(total):
            for p in range(w + 1):
                j = i - w + p
                if j >= 0:
                    rem[i * (w + 1) + p] = sum(1 for x in ahead[j] if x > i)
                    # An edge left out stays the other half's to give, taken or not.
                    rem[i * (w + 1) + p] += sum(1 for x in ahead[j] if x <= i and j in left_out[x])
                    rem[i * (w + 1) + p] += sum(1 for x in left_out[j] if j <= i)
        self.nb = _buffers.ints(nb, compiled)  # type: ignore[assignment]
        self.nbn = _buffers.ints(nbn, compiled)  # type: ignore[assignment]
        self.cap = _buffers.ints(caps, compiled)  # type: ignore[assignment]
        self.fin = _buffers.ints(fin or [0], compiled)  # type: ignore[assignment]
        self.fin_at = _buffers.ints(fin_at, compiled)  # type: ignore[assignment]
        self.rem = _buffers.ints(rem, compiled)  # type: ignore[assignment]
        self.cur = _buffers.zeros(w + 1, compiled)  # type: ignore[assignment]
        self.nxt = _buffers.zeros(w + 1, compiled)  # type: ignore[assignment]
        self.relabel = _buffers.zeros(FRESH + 1, compiled)  # type: ignore[assignment]
        self.free = _buffers.zeros(4, compiled)  # type: ignore[assignment]
        self.cpa = _buffers.zeros(11, compiled)  # type: ignore[assignment]
        self.cpb = _buffers.zeros(11, compiled)  # type: ignore[assignment]
        self.batch_lo = _buffers.filled64(BATCH, 0, compiled)  # type: ignore[assignment]
        self.batch_hi = _buffers.filled64(BATCH, 0, compiled)  # type: ignore[assignment]
        self.batch_at = _buffers.zeros64(BATCH, compiled)  # type: ignore[assignment]
        sign = [1 if (i // k + i % k) % 2 == 0 else -1 for i in range(total)]
        surplus = [0] * (total + 1)
        for i in range(total - 1, -1, -1):
            surplus[i] = surplus[i + 1] + caps[i] * sign[i]
        self.sign = _buffers.ints(sign, compiled)  # type: ignore[assignment]
        self.surplus = _buffers.ints(surplus, compiled)  # type: ignore[assignment]
        look_at = [0]
        look_need: list[int] = []
        look_cap: list[int] = []
        look_mask: list[int] = []
        for i in range(total):
            for j in range(i + 1, min(total, i + w + 1)):
                untaken = sum(1 for x in back[j] if x > i) + sum(1 for x in ahead[j])
                taken = [x for x in back[j] if x <= i]
                if taken and untaken < caps[j]:
                    look_need.append(caps[j] - untaken)
                    look_cap.append(caps[j])
                    look_mask.append(sum(1 << (x - i + w) for x in taken))
            look_at.append(len(look_need))
        self.look_at = _buffers.ints(look_at, compiled)  # type: ignore[assignment]
        self.look_need = _buffers.ints(look_need or [0], compiled)  # type: ignore[assignment]
        self.look_cap = _buffers.ints(look_cap or [0], compiled)  # type: ignore[assignment]
        self.look_mask = _buffers.words(look_mask or [0], compiled)  # type: ignore[assignment]
        # After the last square of column c, the frontier's first position is settled
        # (its neighbours ahead are in columns c - 1 and c) and the others are columns
        # c - 1 and c whole: turning the rows over maps it onto another frontier of the
        # same square, with as many completions when the rest of the board and its
        # needs are symmetric (no given start, or one on the middle row).
        symmetric = start < 0 or closed or start % k == k - 1 - start % k
        fold_at = [0] * total
        for i in range(k - 1, total - 1, k):
            fold_at[i] = 1 if fold and symmetric and k > 1 else 0
        mirror = list(range(w + 1))
        for p in range(2, w + 1):
            column, row = divmod(p - 2, k)
            mirror[p] = 2 + column * k + (k - 1 - row)
        self.fold_at = _buffers.ints(fold_at, compiled)  # type: ignore[assignment]
        self.mirror = _buffers.ints(mirror, compiled)  # type: ignore[assignment]

    def initial(self) -> dict[int, int]:
        """The table before any square is taken: every position ``FULL`` (no square)."""
        key = 0
        for p in range(self.W):
            key |= FULL << (BITS * p if p < 15 else 64 + BITS * (p - 15))
        return {key: 1}

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _load(self, i: cython.int, lo: cython.ulonglong, hi: cython.ulonglong) -> cython.int:
        """Unpack a frontier into :attr:`cur` and list square ``i``'s ways back into
        :attr:`cpa` / :attr:`cpb`: none, one edge, two edges.  Returns the number of
        ways; the fixed tour ends go to :attr:`ends`."""
        w: cython.int = self.W
        p: cython.int
        a: cython.int
        b: cython.int
        nfree: cython.int = 0
        ways: cython.int
        for p in range(w):
            if p < 15:
                self.cur[p] = (lo >> (BITS * p)) & 15
            else:
                self.cur[p] = (hi >> (BITS * (p - 15))) & 15
        self.ends = (hi >> (BITS * (w - 15))) & 3 if w > 15 else (lo >> 60) & 3
        self.cur[w] = FREE
        opened: cython.ulonglong = 0
        for p in range(w + 1):
            if self.cur[p] != FULL:
                opened |= cython.cast(cython.ulonglong, 1) << p
        self.open_cur = opened
        for a in range(self.nbn[i]):
            p = self.nb[4 * i + a]
            if self.cur[p] != FULL:
                self.free[nfree] = p
                nfree += 1
        # The squares settled with square i that need an edge from it: one with none
        # (it would leave with too few), and, once the tour's ends are all fixed, any
        # end (it could not be another).  Ways that leave one out are not listed.
        must: cython.longlong = 0
        for a in range(self.fin_at[i], self.fin_at[i + 1]):
            p = self.fin[a]
            if p < w and (
                self.cur[p] == FREE or (self.cur[p] != FULL and self.ends >= self.ends_allowed)
            ):
                must |= cython.cast(cython.longlong, 1) << p
        self.nfree = nfree
        # The squares a way may change: square i's back neighbours, the squares settled
        # with it, and square i.  The others are as they were: count their shortfalls
        # and colour balance once here (a way's edges leave the balance as it is: each
        # joins two colours).
        touched: cython.longlong = cython.cast(cython.longlong, 1) << w
        for a in range(self.nbn[i]):
            touched |= cython.cast(cython.longlong, 1) << self.nb[4 * i + a]
        for a in range(self.fin_at[i], self.fin_at[i + 1]):
            touched |= cython.cast(cython.longlong, 1) << self.fin[a]
        short: cython.int = 0
        balance: cython.int = self.surplus[i + 1]
        need: cython.int
        at: cython.int = i * (w + 1)
        for p in range(1, w + 1):
            if self.cur[p] == FULL:
                continue
            need = (2 if self.cur[p] == FREE else 1) - (2 - self.cap[i - w + p])
            balance += need * self.sign[i - w + p]
            if (touched >> p) & 1:
                continue
            if need > self.rem[at + p]:
                if need - 1 > self.rem[at + p]:
                    return 0
                short += 1
        self.base_short = short
        self.base_balance = balance
        ways = 0
        if must == 0:
            self.cpa[0] = -1
            self.cpb[0] = -1
            ways = 1
        for a in range(nfree):
            if must & ~(cython.cast(cython.longlong, 1) << self.free[a]) == 0:
                self.cpa[ways] = self.free[a]
                self.cpb[ways] = -1
                ways += 1
        if self.cap[i] == 2:
            for a in range(nfree):
                for b in range(a + 1, nfree):
                    if (
                        must
                        & ~(
                            (cython.cast(cython.longlong, 1) << self.free[a])
                            | (cython.cast(cython.longlong, 1) << self.free[b])
                        )
                        == 0
                    ):
                        self.cpa[ways] = self.free[a]
                        self.cpb[ways] = self.free[b]
                        ways += 1
        return ways

    def step(self, i: cython.int, table: dict[int, int]) -> dict[int, int]:
        """The table after square ``i`` is taken, from the table before it (counts of
        any size)."""
        out: dict[int, int] = {}
        last: cython.bint = i == self.total - 1
        key: object
        count: object
        found: object
        high: object
        ways: cython.int
        c: cython.int
        r: cython.int
        for key, count in table.items():
            ways = self._load(i, key & 0xFFFFFFFFFFFFFFFF, key >> 64)
            self.tried += ways
            for c in range(ways):
                r = self._advance(i, self.cpa[c], self.cpb[c], self.ends, last)
                if r == FINISHED:
                    self.finished = self.finished + count
                elif r == NEXT:
                    high = self.key_hi
                    key = (high << 64) | self.key_lo
                    found = out.get(key)
                    out[key] = count if found is None else found + count
        return out

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def step_fast(self, i: cython.int, src: Table, dst: Table) -> cython.int:
        """:meth:`step` on fixed-size tables (frontiers up to ``W = 15`` squares in
        one-word keys, up to 29 in two, counts of ``src.limbs`` words, as ``dst``'s):
        ``dst`` gets the table after square ``i``.  Returns ``OK``, or ``OVERFLOW`` /
        ``FULL_UP`` when a count or the number of frontiers went past what ``dst`` may
        hold (then ``dst`` is incomplete and :attr:`finished` unchanged)."""
        last: cython.bint = i == self.total - 1
        slots = src.slots
        kw: cython.Py_ssize_t = src.kw
        stride: cython.Py_ssize_t = kw + src.limbs
        slot: cython.Py_ssize_t
        ways: cython.int
        c: cython.int
        r: cython.int
        status: cython.int
        waiting: cython.int = 0
        done: object = 0
        for slot in range(src.size):
            if slots[stride * slot] == EMPTY:
                continue
            ways = self._load(i, slots[stride * slot], slots[stride * slot + 1] if kw == 2 else 0)
            self.tried += ways
            for c in range(ways):
                r = self._advance(i, self.cpa[c], self.cpb[c], self.ends, last)
                if r == FINISHED:  # only with the last square: no hurry
                    done = done + src.count_at(stride * slot + kw)
                elif r == NEXT:
                    self.batch_lo[waiting] = self.key_lo
                    self.batch_hi[waiting] = self.key_hi
                    self.batch_at[waiting] = stride * slot + kw
                    waiting += 1
            if waiting > BATCH - 12:
                status = self._flush(waiting, slots, dst)
                waiting = 0
                if status != OK:
                    return status
        status = self._flush(waiting, slots, dst)
        if status != OK:
            return status
        self.finished = self.finished + done
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _flush(self, waiting: cython.int, counts: cython.ulonglong[::1], dst: Table) -> cython.int:
        """Add the ``waiting`` frontiers of the batch to ``dst``, their counts in
        ``counts``.  Their home slots are read first, all at once, so that the memory
        fetches overlap (each would otherwise stall its own add)."""
        e: cython.int
        status: cython.int
        seen: cython.ulonglong = 0
        stride: cython.Py_ssize_t = dst.kw + dst.limbs
        for e in range(waiting):
            seen ^= dst.slots[stride * home(self.batch_lo[e], self.batch_hi[e], dst.shift)]
        self.sink = seen
        for e in range(waiting):
            status = dst.add(self.batch_lo[e], self.batch_hi[e], counts, self.batch_at[e])
            if status != OK:
                return status
        return OK

    def successors(self, i: cython.int, key: object) -> list[tuple[int, int, object]]:
        """Square ``i``'s ways from one frontier ``key`` of the table before it, in the
        order of the ways (none, one edge back, two), those not dropped only: for each,
        ``(a, b, after)``, the squares its edges back go to (``-1``: no edge) and the
        frontier after square ``i`` (``-1``: the tour is finished).  Sampling walks the
        tables with it; :meth:`step` does the same for a whole table."""
        out: list[tuple[int, int, object]] = []
        last: cython.bint = i == self.total - 1
        base: cython.int = i - self.W
        ways: cython.int
        c: cython.int
        r: cython.int
        pa: cython.int
        pb: cython.int
        high: object
        after: object
        ways = self._load(i, key & 0xFFFFFFFFFFFFFFFF, key >> 64)
        for c in range(ways):
            pa = self.cpa[c]
            pb = self.cpb[c]
            r = self._advance(i, pa, pb, self.ends, last)
            if r == DROPPED:
                continue
            if r == FINISHED:
                after = -1
            else:
                high = self.key_hi
                after = (high << 64) | self.key_lo
            out.append((base + pa if pa >= 0 else -1, base + pb if pb >= 0 else -1, after))
        return out

    def completions(self, i: cython.int, keys: list[int], after: dict[int, int]) -> dict[int, int]:
        """How many ways each frontier in ``keys`` (before square ``i``) has to finish
        the tour, from ``after``, the same for the frontiers after square ``i`` (the
        backward pass of the program); frontiers with none are left out."""
        out: dict[int, int] = {}
        last: cython.bint = i == self.total - 1
        key: object
        total: object
        found: object
        high: object
        ways: cython.int
        c: cython.int
        r: cython.int
        for key in keys:
            total = 0
            ways = self._load(i, key & 0xFFFFFFFFFFFFFFFF, key >> 64)
            for c in range(ways):
                r = self._advance(i, self.cpa[c], self.cpb[c], self.ends, last)
                if r == FINISHED:
                    total = total + 1
                elif r == NEXT:
                    high = self.key_hi
                    found = after.get((high << 64) | self.key_lo)
                    if found is not None:
                        total = total + found
            if total:
                out[key] = total
        return out

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.inline
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _partner(self, p: cython.int) -> cython.int:
        """The other position carrying the label at position ``p``."""
        q: cython.int
        for q in range(self.W + 1):
            if q != p and self.nxt[q] == self.nxt[p]:
                return q
        return -1  # pragma: no cover - labels always come in pairs

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _far(self, i: cython.int, p: cython.int) -> cython.int:
        """Give position ``p`` one more edge; return the position of the far end of the
        fragment it now belongs to (``p`` itself for a square that had none), or ``-1``
        when that end is a fixed tour end."""
        v: cython.int = self.nxt[p]
        q: cython.int
        if v == FREE:
            if self.cap[i - self.W + p] == 1:
                self.nxt[p] = FULL
                return -1
            return p
        if v == TAIL:
            self.nxt[p] = FULL
            return -1
        q = self._partner(p)
        self.nxt[p] = FULL
        return q

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _pack(self, ends: cython.int, mirrored: cython.bint) -> cython.int:
        """Pack :attr:`nxt`'s positions 1..W (read through :attr:`mirror` when
        ``mirrored``) and ``ends`` into :attr:`key_lo` and :attr:`key_hi`, the labels
        renumbered in order of appearance so that equal frontiers pack equal."""
        w: cython.int = self.W
        p: cython.int
        v: cython.int
        for p in range(FRESH + 1):
            self.relabel[p] = 0
        label: cython.int = TAIL
        lo: cython.ulonglong = 0
        hi: cython.ulonglong = 0
        for p in range(1, w + 1):
            v = self.nxt[self.mirror[p] if mirrored else p]
            if v > TAIL:
                if self.relabel[v] == 0:
                    label += 1
                    self.relabel[v] = label
                v = self.relabel[v]
            if p <= 15:
                lo |= cython.cast(cython.ulonglong, v) << (BITS * (p - 1))
            else:
                hi |= cython.cast(cython.ulonglong, v) << (BITS * (p - 16))
        if w > 15:
            hi |= cython.cast(cython.ulonglong, ends) << (BITS * (w - 15))
        else:
            lo |= cython.cast(cython.ulonglong, ends) << 60
        self.key_lo = lo
        self.key_hi = hi
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _advance(
        self,
        i: cython.int,
        pa: cython.int,
        pb: cython.int,
        ends: cython.int,
        last: cython.bint,
    ) -> cython.int:
        """Square ``i`` with edges back to positions ``pa`` and ``pb`` (``-1``: none):
        settle what must be settled.  Returns ``DROPPED``, ``FINISHED`` (a whole tour)
        or ``NEXT``, with the successor frontier packed in :attr:`key_lo` and
        :attr:`key_hi`."""
        w: cython.int = self.W
        p: cython.int
        q: cython.int
        v: cython.int
        fa: cython.int
        fb: cython.int
        need: cython.int
        short: cython.int
        c: cython.int
        settled: cython.int = 0  # the colours of the ends settled as tour ends
        complete: cython.bint = False
        for p in range(w + 1):
            self.nxt[p] = self.cur[p]
        if pa >= 0 and pb < 0:
            # One edge: square i becomes an end of the fragment through pa.
            fa = self._far(i, pa)
            if self.cap[i] == 1:
                self.nxt[w] = FULL
                if fa < 0:
                    complete = True
                else:
                    self.nxt[fa] = TAIL
            elif fa < 0:
                self.nxt[w] = TAIL
            else:
                self.nxt[w] = FRESH
                self.nxt[fa] = FRESH
        elif pb >= 0:
            # Two edges: square i joins the fragments through pa and pb.
            self.nxt[w] = FULL
            v = self.nxt[pa]
            if v > TAIL and v == self.nxt[pb]:  # the two ends of one fragment: a cycle
                if not (self.closed and last):
                    return DROPPED
                self.nxt[pa] = FULL
                self.nxt[pb] = FULL
                complete = True
            else:
                fa = self._far(i, pa)
                fb = self._far(i, pb)
                if fa < 0 and fb < 0:
                    complete = True
                elif fa < 0:
                    self.nxt[fb] = TAIL
                elif fb < 0:
                    self.nxt[fa] = TAIL
                else:
                    self.nxt[fa] = FRESH
                    self.nxt[fb] = FRESH
        # Which positions are not FULL: as in cur but for square i's edges' ends.
        opened: cython.ulonglong = self.open_cur
        if self.nxt[w] == FULL:
            opened &= ~(cython.cast(cython.ulonglong, 1) << w)
        if pa >= 0 and self.nxt[pa] == FULL:
            opened &= ~(cython.cast(cython.ulonglong, 1) << pa)
        if pb >= 0 and self.nxt[pb] == FULL:
            opened &= ~(cython.cast(cython.ulonglong, 1) << pb)
        # Settle the squares whose last neighbour ahead was square i.
        for q in range(self.fin_at[i], self.fin_at[i + 1]):
            p = self.fin[q]
            v = self.nxt[p]
            if v == FULL:
                continue
            if v == FREE or ends >= self.ends_allowed:
                return DROPPED
            ends += 1  # an end with nowhere to go: one of the tour's two ends
            if p > 0:
                settled += self.sign[i - w + p]
            opened &= ~(cython.cast(cython.ulonglong, 1) << p)
            if v == TAIL:
                complete = True
            else:
                self.nxt[self._partner(p)] = TAIL
            self.nxt[p] = FULL
        if complete:
            # The whole tour is made: right only with the last square, all settled.
            if not last:
                return DROPPED
            for p in range(w + 1):
                if self.nxt[p] != FULL:
                    return DROPPED
            if self.closed or ends == self.ends_allowed:
                return FINISHED
            return DROPPED
        if last:
            return DROPPED
        # Drop frontiers with a square that needs more edges than it has ahead (it could
        # only be a tour end, one edge short, and only so many ends are left).
        # Every edge joins the two colours, so the edges still needed by each colour
        # (the frontier's and two for each square not yet taken) must balance, but for
        # the tour ends not yet fixed, each one edge short.
        # The positions no way changes were counted by _load; an edge to position 0
        # (gone from the frontier) leaves square i's side of the balance alone.
        short = self.base_short
        balance: cython.int = self.base_balance - settled
        if pa == 0:
            balance -= self.sign[i]
        if pb == 0:
            balance -= self.sign[i]
        q = i * (w + 1)
        for c in range(self.nfree + 1):
            p = self.free[c] if c < self.nfree else w
            v = self.nxt[p]
            if v == FULL:
                continue
            need = (2 if v == FREE else 1) - (2 - self.cap[i - w + p])
            if need > self.rem[q + p]:
                if need - 1 > self.rem[q + p]:
                    return DROPPED
                short += 1
        # The squares ahead that only the frontier can still give their edges: each one
        # short is a tour end, two short is no tour.
        for q in range(self.look_at[i], self.look_at[i + 1]):
            need = self.look_need[q] - popcount64(opened & self.look_mask[q])
            if need > 0:
                if need > 1 or self.look_cap[q] == 1:
                    return DROPPED
                short += 1
        open_ends: cython.int = self.ends_allowed - ends
        if short > open_ends or balance > open_ends or -balance > open_ends:
            return DROPPED
        if (balance + open_ends) % 2 != 0:
            return DROPPED
        self._pack(ends, False)
        if self.fold_at[i]:
            lo: cython.ulonglong = self.key_lo
            hi: cython.ulonglong = self.key_hi
            self._pack(ends, True)
            if self.key_hi > hi or (self.key_hi == hi and self.key_lo > lo):
                self.key_lo = lo
                self.key_hi = hi
        return NEXT
