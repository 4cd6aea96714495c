"""Counting open knight's tours by joining two halves of the board (Cython pure mode).

The square-by-square program of :mod:`lazysearch.knights._count` sweeps the whole board;
on open tours most of its frontiers come late (6x6: 5.0 of its 5.2 million after the
middle) and most of those can never be completed.  This module meets the sweep in the
middle, as :mod:`lazysearch.knights._join` does for closed tours, but through two whole
columns that both halves share instead of through the edges that cross a cut.

A knight's move changes the column by one or two, so columns ``c - 2`` and ``c - 1`` of
a ``k x n`` board (``k`` the short side) separate the squares left of them from those
right of them.  Give the *left half* every edge among columns ``0 .. c - 1`` except those
between the two shared columns, and the *right half* every edge among columns
``c - 2 .. n - 1``: each edge of the board is in exactly one half.  An open tour (a
Hamiltonian path, undirected) is then a pair of edge sets, one in each half, and:

* the left half's are the program's table after ``c`` columns with the edges between
  columns ``c - 2`` and ``c - 1`` left out (``FrontierCounter(..., cut=c)``), read at the
  shared columns: each square ``FREE``, ``FULL``, an end labelled by its fragment, or
  ``TAIL`` (an end whose fragment's other end is one of the tour's ends, fixed inside
  the half), and how many tour ends are fixed;
* the right half's are the plain program's table after ``n - c + 2`` columns, turned
  round (columns reversed: a board turned round is the same board), read at the same
  columns;
* the *join* (:class:`Joiner`; in Python dicts
  :func:`lazysearch.knights.openjoin.join_open`) pairs them: on each shared square the
  two degrees add up to two, or to one at a tour end; there are two tour ends in all;
  and the fragments of both halves make one path.  The right half's frontiers are grouped by their
  degrees, so only frontiers that fit are compared.

It is exact for the reason the program is: what lies beyond a frontier sees only the
frontier.  Both tables are the folding program's (a frontier and its mirror image, rows
turned over, kept as one class): the left is used folded (the right half is symmetric,
so a frontier and its mirror image have as many completions) and the right unfolded (a
class of two frontiers holds twice the count of each).  Open tours of every start only:
the directed tours are twice the paths counted.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

COMPILED: bool = cython.compiled

FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
TAIL = cython.declare(cython.int, 2)
#: The first fragment label (the program's own numbering); labels are renumbered in
#: order of appearance from it.
FIRST = cython.declare(cython.int, 3)
# The patterns' index is the frontier table (:mod:`lazysearch.knights._table`),
# compiled or as plain Python.
if cython.compiled:
    from cython.cimports.lazysearch.knights._table import EMPTY, OK, Table
else:
    from lazysearch.knights import _table

    EMPTY, OK, Table = _table.plain().EMPTY, _table.plain().OK, _table.plain().Table
# Where :meth:`Joiner.join` starts walking a pair's fragments.
START_LEFT = cython.declare(cython.int, 0)
START_RIGHT_END = cython.declare(cython.int, 1)
START_RIGHT_TAIL = cython.declare(cython.int, 2)


# -- the join, compiled ------------------------------------------------------------------


@cython.cclass
class Joiner:
    """:func:`~lazysearch.knights.openjoin.join_open` on the program's tables as they
    come (packed keys), in typed loops: :meth:`add_right` takes the right half's table
    (folded, in the sweep's order), :meth:`join` the left half's and returns the paths.

    Each right frontier is kept in a record of ``stride`` bytes (``rec``; 32 up to 7
    across, so that one cache line holds it): its ``k2`` values, the position of each
    end's partner (``-1`` for none, ``-2`` for ``TAIL``), its fragments and its first
    ``TAIL`` (``-1`` for none); its count apart.  They are sorted by their degree
    pattern (base 3, the tour ends fixed above it), so that the frontiers of one
    pattern are a run of records, found through the patterns' index (``index``, a
    frontier table from each pattern to where its run begins and stops).
    Counts below ``2**64`` (every count of a compiled table) are kept in a typed array
    and summed in 128 bits (:meth:`_mul_add`), a left frontier's fitting right counts
    first; larger ones (a dict's) as Python integers (``counts``)."""

    rec: cython.schar[::1]
    stride: cython.int
    mine: cython.schar[::1]
    mine_part: cython.schar[::1]
    work: cython.int[::1]
    relabel: cython.int[::1]
    power: cython.longlong[::1]
    k: cython.int
    k2: cython.int
    w: cython.int
    #: How many right frontiers it keeps.
    size = cython.declare(cython.Py_ssize_t, visibility="readonly")
    counts: list  # the right counts as Python integers, when ``big``
    wide: cython.ulonglong[::1]  # the right counts, when not ``big``
    big: cython.bint
    lo: cython.ulonglong  # the sum of the products so far: lo + hi * 2**64 + spill
    hi: cython.ulonglong
    spill: object
    index: Table  # each pattern's run: where it begins and stops
    probe: cython.ulonglong[::1]  # a pattern to look up
    #: Pairs of frontiers of fitting degrees compared by :meth:`join`.
    pairs = cython.declare(cython.longlong, visibility="readonly")

    def __init__(self, k: int) -> None:
        self.k = k
        self.k2 = 2 * k
        self.w = 2 * k + 1
        self.mine = array_of("b", 2 * k)  # type: ignore[assignment]
        self.stride = 16
        while self.stride < 4 * k + 2:
            self.stride *= 2
        self.mine_part = array_of("b", 2 * k)  # type: ignore[assignment]
        self.work = array_of("i", 2 * k)  # type: ignore[assignment]
        self.relabel = array_of("i", 16)  # type: ignore[assignment]
        self.power = array_of("q", 2 * k + 2)  # type: ignore[assignment]
        for y in range(2 * k + 2):
            self.power[y] = 3**y
        self.counts = []
        self.wide = array_of("Q", 1)  # type: ignore[assignment]
        self.big = False
        self.lo = 0
        self.hi = 0
        self.spill = 0
        self.index = Table(1)
        self.probe = array_of("Q", 1)  # type: ignore[assignment]
        self.size = 0
        self.pairs = 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _decode(
        self, lo: cython.ulonglong, hi: cython.ulonglong, turn: cython.bint, flip: cython.bint
    ) -> cython.int:
        """The shared columns of a packed frontier (positions 1 to ``2k``) into
        :attr:`work`: the two columns swapped when ``turn`` (the right half, swept from
        the other end), the rows of each turned over when ``flip``; labels renumbered
        in order of appearance.  Returns the tour ends fixed."""
        k: cython.int = self.k
        y: cython.int
        p: cython.int
        v: cython.int
        label: cython.int = FIRST
        column: cython.int
        row: cython.int
        for y in range(16):
            self.relabel[y] = 0
        for y in range(self.k2):
            column = y // k
            row = y % k
            if turn:
                column = 1 - column
            if flip:
                row = k - 1 - row
            p = 1 + column * k + row
            if p < 15:
                v = cython.cast(cython.int, (lo >> (4 * p)) & 15)
            else:
                v = cython.cast(cython.int, (hi >> (4 * (p - 15))) & 15)
            if v >= FIRST:
                if self.relabel[v] == 0:
                    self.relabel[v] = label
                    label += 1
                v = self.relabel[v]
            self.work[y] = v
        if self.w > 15:
            return cython.cast(cython.int, (hi >> (4 * (self.w - 15))) & 3)
        return cython.cast(cython.int, (lo >> 60) & 3)

    def add_right(self, table: object) -> None:
        """Take the right half's (folded) table, after ``n - c + 2`` columns of the
        sweep (a dict, or the keys and counts of ``Table.export``): each frontier,
        turned round and unfolded (a class of two frontiers, a frontier and its mirror
        image, holds twice the count of each)."""
        kw: cython.Py_ssize_t = 1 if self.w <= 15 else 2
        buffer, given = _words(table, kw)
        keys: cython.ulonglong[::1] = buffer
        big: cython.bint = _big(table, given)
        typed: cython.ulonglong[::1] = array_of("Q", 1) if big else _typed(given)  # type: ignore[assignment]
        count64: cython.ulonglong = 0
        lo: cython.ulonglong
        hi: cython.ulonglong
        g: cython.Py_ssize_t
        k2: cython.int = self.k2
        y: cython.int
        ends: cython.int
        same: cython.bint
        e: cython.Py_ssize_t = 0
        f: cython.Py_ssize_t
        room: cython.Py_ssize_t = 2 * len(given) or 1
        # Decoded in the table's order first, then put in runs of one pattern.
        rows: cython.uchar[::1] = bytearray(k2 * room)  # type: ignore[assignment]
        codes: cython.longlong[::1] = array_of("q", room)  # type: ignore[assignment]
        counts: list[object] = []
        wide: cython.ulonglong[::1] = array_of("Q", 1 if big else room)  # type: ignore[assignment]
        count: object = 0
        for g in range(len(given)):
            if big:
                count = given[g]
            else:
                count64 = typed[g]
            lo = keys[g * kw]
            hi = keys[g * kw + 1] if kw == 2 else 0
            ends = self._decode(lo, hi, True, True)
            for y in range(k2):
                rows[e * k2 + y] = self.work[y]
            ends = self._decode(lo, hi, True, False)
            same = True
            for y in range(k2):
                if rows[e * k2 + y] != self.work[y]:
                    same = False
            if not same:
                if (count % 2) if big else (count64 % 2):
                    odd = count if big else count64
                    raise RuntimeError(f"folded frontier {lo:#x} has an odd count {odd}")
                if big:
                    count = count // 2
                    counts.append(count)
                else:
                    count64 = count64 // 2
                    wide[e] = count64
                codes[e] = self._code(rows, e * k2, ends)
                e += 1
            for y in range(k2):
                rows[e * k2 + y] = self.work[y]
            codes[e] = self._code(rows, e * k2, ends)
            if big:
                counts.append(count)
            else:
                wide[e] = count64
            e += 1
        size: cython.Py_ssize_t = e
        # The patterns' index, as sparse as the old table of patterns was (a lookup
        # that finds nothing stops at once): each pattern's number, in order of first
        # appearance, and how many frontiers each has...
        room: cython.Py_ssize_t = 2
        while room < 2 * size:
            room *= 2
        index: Table = Table(size + 1, room, 2, 1)
        span: cython.ulonglong[::1] = array_of("Q", 2)  # type: ignore[assignment]
        group: cython.longlong[::1] = array_of("q", size or 1)  # type: ignore[assignment]
        start: cython.longlong[::1] = array_of("q", size + 2)  # type: ignore[assignment]
        groups: cython.longlong = 0
        at: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        for f in range(size):
            self.probe[0] = codes[f]
            at = index.find(self.probe, 0)
            if at >= 0:
                group[f] = index.slots[at + 1]
            else:
                span[0] = groups
                if index.put(codes[f], 0, self.probe, 0, span, 0, False) != OK:
                    raise MemoryError("no memory for the patterns of the right half")
                group[f] = groups
                groups += 1
            start[group[f] + 1] += 1
        # ... then where each one's run begins and stops, and the frontiers put in them.
        for f in range(groups):
            start[f + 1] += start[f]
        slots: cython.ulonglong[::1] = index.slots
        for slot in range(index.size):
            if slots[3 * slot] != EMPTY:
                f = slots[3 * slot + 1]
                slots[3 * slot + 1] = start[f]
                slots[3 * slot + 2] = start[f + 1]
        self.size = size
        stride: cython.Py_ssize_t = self.stride
        rec: cython.schar[::1] = array_of("b", stride * size or 1)  # type: ignore[assignment]
        base: cython.Py_ssize_t
        placed: list[object] = [0] * size if big else []
        self.wide = array_of("Q", 1 if big else size or 1)  # type: ignore[assignment]
        for f in range(size):
            e = start[group[f]]
            start[group[f]] = e + 1
            if big:
                placed[e] = counts[f]
            else:
                self.wide[e] = wide[f]
            base = e * stride
            for y in range(k2):
                rec[base + y] = rows[f * k2 + y]
        # Each one's partners, in the order they are kept.
        for e in range(size):
            base = e * stride
            rec[base + 2 * k2] = self._partners(rec, base, rec, base + k2)
            rec[base + 2 * k2 + 1] = -1
            for y in range(k2 - 1, -1, -1):
                if rec[base + k2 + y] == -2:
                    rec[base + 2 * k2 + 1] = y
        self.counts = placed
        self.rec = rec
        self.index = index
        self.big = big

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _code(
        self, rows: cython.uchar[::1], at: cython.Py_ssize_t, ends: cython.int
    ) -> cython.longlong:
        """A right frontier's degrees (``rows[at:at + k2]``), base 3 (square ``y`` at
        ``3**y``), its tour ends fixed above them."""
        y: cython.int
        v: cython.int
        code: cython.longlong = ends * self.power[self.k2]
        for y in range(self.k2):
            v = rows[at + y]
            if v == FULL:
                code += 2 * self.power[y]
            elif v != FREE:
                code += self.power[y]
        return code

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _partners(
        self,
        vals: cython.schar[::1],
        at: cython.Py_ssize_t,
        part: cython.schar[::1],
        to: cython.Py_ssize_t,
    ) -> cython.int:
        """Fill ``part[to:to + k2]`` from ``vals[at:at + k2]``: each end's partner
        (``-2`` for ``TAIL``, ``-1`` for no end); returns the fragments."""
        k2: cython.int = self.k2
        y: cython.int
        z: cython.int
        v: cython.int
        fragments: cython.int = 0
        for y in range(k2):
            part[to + y] = -1
        for y in range(k2):
            v = vals[at + y]
            if v == TAIL:
                part[to + y] = -2
                fragments += 1
            elif v >= FIRST and part[to + y] == -1:
                for z in range(y + 1, k2):
                    if vals[at + z] == v:
                        part[to + y] = z
                        part[to + z] = y
                        fragments += 1
                        break
        return fragments

    def join(self, table: object, part: int = 0, parts: int = 1) -> object:
        """The paths: the left half's (folded) table, after ``c`` columns of the cutting
        sweep (a dict, or the keys and counts of ``Table.export``), paired with the
        right half's frontiers (:meth:`add_right`); only the left frontiers of part
        ``part`` of ``parts`` (in the table's order, as equal as may be) with ``parts``
        given."""
        kw: cython.Py_ssize_t = 1 if self.w <= 15 else 2
        buffer, given = _words(table, kw)
        keys: cython.ulonglong[::1] = buffer
        left_big: cython.bint = _big(table, given)
        typed: cython.ulonglong[::1] = array_of("Q", 1) if left_big else _typed(given)  # type: ignore[assignment]
        right_big: cython.bint = self.big
        wide: cython.ulonglong[::1] = self.wide
        inner_lo: cython.ulonglong
        inner_hi: cython.ulonglong
        inner: object
        g: cython.Py_ssize_t
        k2: cython.int = self.k2
        y: cython.int
        z: cython.int
        ends: cython.int
        fragments: cython.int
        need: cython.longlong
        code: cython.longlong
        e: cython.Py_ssize_t
        total: object = 0
        counts = self.counts
        slot: cython.Py_ssize_t
        spare: cython.int[::1] = array_of("i", k2)  # type: ignore[assignment]
        nspare: cython.int
        mine: cython.schar[::1] = self.mine
        mine_part: cython.schar[::1] = self.mine_part
        rec: cython.schar[::1] = self.rec
        stride: cython.Py_ssize_t = self.stride
        index: Table = self.index
        runs: cython.ulonglong[::1] = index.slots
        left_tail: cython.int
        start: cython.int
        mode: cython.int
        here: cython.int
        h: cython.int
        v: cython.int
        walked: cython.int
        fragments_all: cython.int
        at: cython.Py_ssize_t
        self.lo = 0
        self.hi = 0
        self.spill = 0
        begin: cython.Py_ssize_t = len(given) * part // parts
        end: cython.Py_ssize_t = len(given) * (part + 1) // parts
        for g in range(begin, end):
            inner_lo = 0
            inner_hi = 0
            inner = 0
            ends = self._decode(keys[g * kw], keys[g * kw + 1] if kw == 2 else 0, False, False)
            need = 0
            nspare = 0
            for y in range(k2):
                self.mine[y] = self.work[y]
                if self.work[y] == FREE:
                    need += 2 * self.power[y]
                    spare[nspare] = y
                    nspare += 1
                elif self.work[y] != FULL:
                    need += self.power[y]
                    spare[nspare] = y
                    nspare += 1
            fragments = self._partners(self.mine, 0, self.mine_part, 0)
            left_tail = -1
            for y in range(k2 - 1, -1, -1):
                if mine_part[y] == -2:
                    left_tail = y
            # The right half's degrees: 2 - mine on every square, one less at each new
            # tour end (at most 2 - ends of them); its own tour ends make up the rest.
            for y in range(-1, nspare if ends <= 1 else 0):
                for z in range(y, nspare if ends == 0 and y >= 0 else y + 1):
                    code = need + (2 - ends) * self.power[k2]
                    if y >= 0:
                        code -= self.power[spare[y]] + self.power[k2]
                    if z > y:
                        code -= self.power[spare[z]] + self.power[k2]
                    self.probe[0] = code
                    slot = index.find(self.probe, 0)
                    if slot < 0:
                        continue
                    self.pairs += runs[slot + 2] - runs[slot + 1]
                    # Where the walk of the fragments starts (a tour end; any of the
                    # two will do): a TAIL of the left, else the first new tour end,
                    # where the left has an end (START_LEFT) or the right has
                    # (START_RIGHT_END), else a TAIL of the right (START_RIGHT_TAIL).
                    start = -1
                    if left_tail >= 0:
                        mode = START_LEFT
                        start = left_tail
                    elif y >= 0:
                        start = spare[y]
                        if mine[start] == FREE:
                            mode = START_RIGHT_END
                        else:
                            mode = START_LEFT
                            start = mine_part[start]
                    else:
                        mode = START_RIGHT_TAIL
                    for e in range(
                        cython.cast(cython.Py_ssize_t, runs[slot + 1]),
                        cython.cast(cython.Py_ssize_t, runs[slot + 2]),
                    ):
                        at = e * stride
                        fragments_all = fragments + rec[at + 2 * k2]
                        walked = 1
                        h = 0
                        here = start
                        if mode == START_RIGHT_END:
                            h = 1
                            here = rec[at + k2 + start]
                            if here == -2:  # the right's fragment from it is the path
                                if fragments_all != 1:
                                    continue
                                here = -1
                        elif mode == START_RIGHT_TAIL:
                            h = 1
                            here = rec[at + 2 * k2 + 1]
                            if here < 0:
                                continue
                        if here >= 0:
                            # At ``here``, arrived along side h's fragment: go on along
                            # the other side's, until a tour end.
                            while True:
                                if h == 1:
                                    v = mine[here]
                                else:
                                    v = rec[at + here]
                                if v == FREE:
                                    break
                                walked += 1
                                if v == TAIL or walked > fragments_all:
                                    break
                                here = mine_part[here] if h == 1 else rec[at + k2 + here]
                                h = 1 - h
                            if walked != fragments_all:
                                continue
                        # One path: add the right count.
                        if right_big:
                            inner = inner + counts[e]
                        else:
                            inner_lo += wide[e]
                            if inner_lo < wide[e]:
                                inner_hi += 1
            # This left frontier's count times the right counts that fit it.
            if left_big or right_big or inner_hi:
                inner = inner + (cython.cast(object, inner_hi) << 64) + inner_lo
                total = total + given[g] * inner
            elif inner_lo:
                self._mul_add(typed[g], inner_lo)
        return total + self.product_sum()

    def add_product(self, a: int, b: int) -> None:
        """Add ``a * b`` (each below ``2**64``) to the sum :meth:`join` keeps (it starts
        it again), as the join adds a left count times its right counts."""
        self._mul_add(a, b)

    def product_sum(self) -> int:
        """The sum of the products added so far."""
        return int(self.spill + (cython.cast(object, self.hi) << 64) + self.lo)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _mul_add(self, a: cython.ulonglong, b: cython.ulonglong) -> cython.void:
        """Add ``a * b`` to the sum ``lo + hi * 2**64`` (its 128 bits, spilled to
        :attr:`spill` before they could fill up)."""
        half: cython.ulonglong = 0xFFFFFFFF
        a_lo: cython.ulonglong = a & half
        a_hi: cython.ulonglong = a >> 32
        b_lo: cython.ulonglong = b & half
        b_hi: cython.ulonglong = b >> 32
        low: cython.ulonglong = a_lo * b_lo
        cross1: cython.ulonglong = a_hi * b_lo
        cross2: cython.ulonglong = a_lo * b_hi
        # The middle 64 bits' column: at most 3 * (2**32 - 1), no overflow.
        middle: cython.ulonglong = (low >> 32) + (cross1 & half) + (cross2 & half)
        product_lo: cython.ulonglong = (low & half) | ((middle & half) << 32)
        product_hi: cython.ulonglong = (
            a_hi * b_hi + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32)
        )
        self.lo += product_lo
        if self.lo < product_lo:
            product_hi += 1
        self.hi += product_hi
        if self.hi >> 62:
            self.spill = self.spill + (cython.cast(object, self.hi) << 64) + self.lo
            self.lo = 0
            self.hi = 0


def _big(table: object, counts: list[int]) -> bool:
    """Whether a table's counts may reach ``2**64`` (a dict's may; a compiled table's,
    one 64-bit word a count, do not)."""
    return isinstance(table, dict) and any(count >> 64 for count in counts)


def _typed(counts: list[int]) -> object:
    """Counts below ``2**64`` in an ``array`` of 64-bit words."""
    import array

    return array.array("Q", counts or [0])


def _words(table: object, kw: int) -> tuple[object, list[int]]:
    """A table's keys in one buffer of 64-bit words (``kw`` a key) and its counts in a
    list, from a dict or as ``Table.export`` gives them."""
    import array

    if not isinstance(table, dict):
        return table  # type: ignore[return-value]
    keys = array.array("Q", bytes(8 * kw * max(1, len(table))))
    counts: list[int] = []
    for e, (key, count) in enumerate(table.items()):
        for t in range(kw):
            keys[e * kw + t] = (key >> (64 * t)) & 0xFFFFFFFFFFFFFFFF
        counts.append(count)
    return keys, counts


def array_of(kind: str, size: int) -> object:
    """A zeroed ``array`` of ``size`` items of ``kind`` (for the typed memoryviews)."""
    import array

    return array.array(kind, bytes(array.array(kind).itemsize * size))
