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
* the *join* (:func:`join_open`) pairs them: on each shared square the two degrees add
  up to two, or to one at a tour end; there are two tour ends in all; and the fragments
  of both halves make one path.  The right half's frontiers are grouped by their
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

import time
from typing import Any

from lazysearch.knights.counting import TooManyStatesError

COMPILED: bool = cython.compiled

FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
TAIL = cython.declare(cython.int, 2)
#: The first fragment label (the program's own numbering); labels are renumbered in
#: order of appearance from it.
FIRST = cython.declare(cython.int, 3)
#: Fibonacci hashing's multiplier (2**64 over the golden ratio), for the patterns.
GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
# Where :meth:`Joiner.join` starts walking a pair's fragments.
START_LEFT = cython.declare(cython.int, 0)
START_RIGHT_END = cython.declare(cython.int, 1)
START_RIGHT_TAIL = cython.declare(cython.int, 2)


# -- the join ----------------------------------------------------------------------------


def _degree(v: int) -> int:
    return 0 if v == FREE else 2 if v == FULL else 1


@cython.boundscheck(False)
@cython.wraparound(False)
def one_path(mine: bytes, theirs: bytes, k2: int) -> bool:
    """Whether the left half's frontier of the shared columns (``mine``) and the right
    half's frontier of them (``theirs``), whose degrees fit
    (two on every square, or one at a tour end; two tour ends in all), make one path:
    walked from one tour end, it goes through every fragment of both sides."""
    side: list[bytes] = [mine, theirs]
    partner: list[list[int]] = [[-1] * k2, [-1] * k2]
    fragments = 0
    for h in range(2):
        seen: dict[int, int] = {}
        values = side[h]
        for y in range(k2):
            v = values[y]
            if v == TAIL:
                fragments += 1
            elif v >= FIRST:
                if v in seen:
                    partner[h][y] = seen[v]
                    partner[h][seen[v]] = y
                    fragments += 1
                else:
                    seen[v] = y
    # A tour end to walk from: a TAIL (its fixed end is behind it), or a square that is
    # an end on one side and FREE on the other.
    here = -1
    h = 0
    walked = 0
    for y in range(k2):
        if mine[y] == TAIL or theirs[y] == TAIL:
            here, h, walked = y, 0 if mine[y] == TAIL else 1, 1
            break
    if here < 0:
        for y in range(k2):
            if _degree(mine[y]) + _degree(theirs[y]) == 1:
                h = 0 if mine[y] != FREE else 1
                walked = 1
                if side[h][y] == TAIL:  # pragma: no cover - TAILs were looked for first
                    return walked == fragments
                here = partner[h][y]
                break
    if here < 0:
        return False
    # At ``here``, arrived along side h's fragment: go on along the other side's.
    while True:
        o = 1 - h
        v = side[o][here]
        if v == FREE:  # a square with one edge: the other tour end
            return walked == fragments
        walked += 1
        if v == TAIL:
            return walked == fragments
        here = partner[o][here]
        h = o


def join_open(seen: dict[bytes, int], right: dict[bytes, int], k2: int) -> int:
    """The number of open tours (paths, undirected): the left half's frontiers of the
    shared columns (``seen``, each ``k2`` values and the tour ends fixed) paired with
    the right half's (``right``, the same), where the degrees fit and the fragments
    make one path.  Dicts of ``bytes``: the plain reference for :class:`Joiner`."""
    groups: dict[bytes, list[tuple[bytes, int]]] = {}
    for key, count in right.items():
        pattern = bytes(_degree(v) for v in key[:k2]) + key[k2:]
        groups.setdefault(pattern, []).append((key, count))
    total = 0
    for key, count in seen.items():
        ends = key[k2]
        need = [2 - _degree(v) for v in key[:k2]]
        # The right half's degrees: 2 - mine everywhere, but one less at a new tour end.
        spare = [y for y in range(k2) if need[y] > 0]
        options: list[list[int]] = [[]]
        if ends <= 1:
            options += [[y] for y in spare]
        if ends == 0:
            options += [[y, z] for i, y in enumerate(spare) for z in spare[i + 1 :]]
        for lowered in options:
            theirs = list(need)
            for y in lowered:
                theirs[y] -= 1
            pattern = bytes(theirs) + bytes([2 - ends - len(lowered)])
            for other, their_count in groups.get(pattern, ()):
                if one_path(key, other, k2):
                    total += count * their_count
    return total


# -- the join, compiled ------------------------------------------------------------------


@cython.cclass
class Joiner:
    """:func:`join_open` on the program's tables as they come (packed keys), in typed
    loops: :meth:`add_right` takes the right half's table (folded, in the sweep's
    order), :meth:`join` the left half's and returns the paths.

    Each right frontier is kept in a record of ``stride`` bytes (``rec``; 32 up to 7
    across, so that one cache line holds it): its ``k2`` values, the position of each
    end's partner (``-1`` for none, ``-2`` for ``TAIL``), its fragments and its first
    ``TAIL`` (``-1`` for none); its count apart.  They are sorted by their degree
    pattern (base 3, the tour ends fixed above it), so that the frontiers of one
    pattern are a run of records, found through a hash table of the patterns (open
    addressing, ``codes`` to ``first`` and ``stop``).
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
    size: cython.Py_ssize_t
    counts: list  # the right counts as Python integers, when ``big``
    wide: cython.ulonglong[::1]  # the right counts, when not ``big``
    big: cython.bint
    lo: cython.ulonglong  # the sum of the products so far: lo + hi * 2**64 + spill
    hi: cython.ulonglong
    spill: object
    codes: cython.longlong[::1]  # the hash table of patterns: -1 where empty
    first: cython.longlong[::1]
    stop: cython.longlong[::1]
    mask: cython.longlong
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
        self.codes = array_of("q", 1)  # type: ignore[assignment]
        self.codes[0] = -1
        self.mask = 0
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
        # The patterns' hash table, at most half full: how many frontiers each has...
        slots: cython.Py_ssize_t = 2
        while slots < 2 * size:
            slots *= 2
        self.codes = array_of("q", slots)  # type: ignore[assignment]
        self.first = array_of("q", slots)  # type: ignore[assignment]
        self.stop = array_of("q", slots)  # type: ignore[assignment]
        self.mask = slots - 1
        slot: cython.Py_ssize_t
        for slot in range(slots):
            self.codes[slot] = -1
        where: cython.longlong[::1] = array_of("q", size or 1)  # type: ignore[assignment]
        for f in range(size):
            slot = self._slot(codes[f])
            self.codes[slot] = codes[f]
            self.stop[slot] += 1
            where[f] = slot
        # ... then where each one's run begins and ends, and the frontiers put in them.
        at: cython.longlong = 0
        for slot in range(slots):
            if self.codes[slot] >= 0:
                self.first[slot] = at
                at += self.stop[slot]
                self.stop[slot] = self.first[slot]
        self.size = size
        stride: cython.Py_ssize_t = self.stride
        rec: cython.schar[::1] = array_of("b", stride * size or 1)  # type: ignore[assignment]
        base: cython.Py_ssize_t
        placed: list[object] = [0] * size if big else []
        self.wide = array_of("Q", 1 if big else size or 1)  # type: ignore[assignment]
        for f in range(size):
            slot = where[f]
            e = self.stop[slot]
            self.stop[slot] = e + 1
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
        self.big = big

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _slot(self, code: cython.longlong) -> cython.Py_ssize_t:
        """The slot of pattern ``code`` in the hash table, or the empty slot where it
        would go."""
        slot: cython.Py_ssize_t = cython.cast(
            cython.Py_ssize_t,
            ((cython.cast(cython.ulonglong, code) * GOLDEN) & MASK64) >> 20,
        ) & cython.cast(cython.Py_ssize_t, self.mask)
        while self.codes[slot] >= 0 and self.codes[slot] != code:
            slot = (slot + 1) & cython.cast(cython.Py_ssize_t, self.mask)
        return slot

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
        first: cython.longlong[::1] = self.first
        stop: cython.longlong[::1] = self.stop
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
                    slot = self._slot(code)
                    if self.codes[slot] < 0:
                        continue
                    self.pairs += stop[slot] - first[slot]
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
                    for e in range(first[slot], stop[slot]):
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


# -- the halves ------------------------------------------------------------------------------


def renumber(values: list[int]) -> list[int]:
    """``values`` with their labels (``>= FIRST``) renumbered in order of appearance."""
    seen: dict[int, int] = {}
    out = []
    for v in values:
        if v >= FIRST:
            v = seen.setdefault(v, FIRST + len(seen))
        out.append(v)
    return out


def boundary(frontiers: dict[int, int], k: int, c: int) -> dict[bytes, int]:
    """The open-tour program's table after the first ``c`` columns of a ``k``-row board,
    read at the boundary (columns ``c - 2`` and ``c - 1``): ``2k`` values (``FREE``,
    ``FULL``, ``TAIL``, labels from ``FIRST`` in order of appearance) and the tour ends
    fixed.  Raises :class:`RuntimeError` if a frontier has an unsettled square left of
    the boundary (never, by construction)."""
    w = 2 * k + 1
    out: dict[bytes, int] = {}
    for key, count in frontiers.items():
        values = []
        for p in range(w):
            v = (key >> (4 * p if p < 15 else 64 + 4 * (p - 15))) & 15
            square = c * k - w + p
            if square < (c - 2) * k:
                if v != FULL:
                    raise RuntimeError(f"frontier {key:#x}: square {square} is not settled")
                continue
            values.append(v)
        ends = (key >> (60 if w <= 15 else 64 + 4 * (w - 15))) & 3
        after = bytes([*renumber(values), ends])
        out[after] = out.get(after, 0) + count
    return out


def mirror(key: bytes, k: int) -> bytes:
    """A boundary frontier with the rows of each of its two columns turned over."""
    values = list(key[k - 1 :: -1]) + list(key[2 * k - 1 : k - 1 : -1])
    return bytes(renumber(values)) + key[2 * k :]


def unfolded(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the folding program made whole again: a frontier and its
    mirror image have as many ways to be reached (the board is symmetric), so a class of
    two, kept under one of them with both counts, is half each.  Raises
    :class:`RuntimeError` on an odd count of such a class (never, by symmetry)."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        image = mirror(key, k)
        if image == key:
            out[key] = out.get(key, 0) + count
            continue
        if count % 2:
            raise RuntimeError(f"folded frontier {key!r} has an odd count {count}")
        out[key] = out.get(key, 0) + count // 2
        out[image] = out.get(image, 0) + count // 2
    return out


def turned(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the board turned round (columns reversed), in the other
    half's order: its column ``c' - 1`` is column ``c`` and its ``c' - 2`` column
    ``c + 1``."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        values = list(key[k : 2 * k]) + list(key[:k])
        out[bytes(renumber(values)) + key[2 * k :]] = count
    return out


class _Swept:
    """A table of the program between squares: a compiled ``Table`` (``fast``) while
    the counts fit in 64 bits, a dict of Python integers after."""

    def __init__(self, fast: Any, table: dict[int, int] | None) -> None:
        self.fast = fast
        self.table = table

    def export(self) -> Any:
        """The keys and counts as ``Table.export`` gives them, or the dict."""
        return self.fast.export() if self.fast is not None else self.table

    def __len__(self) -> int:
        return int(self.fast.used) if self.fast is not None else len(self.table or ())


def _sweep(
    counter: Any,
    module: Any,
    table: dict[int, int] | _Swept,
    squares: range,
    limit: int,
    k: int,
    n: int,
) -> _Swept:
    """``table`` taken through ``squares`` by ``counter``, in compiled tables while the
    counts fit in 64 bits (then Python dicts).  A :class:`_Swept` given is read, never
    changed (both halves are swept on from the same table).  Raises
    ``TooManyStatesError`` past ``limit`` frontiers.

    A table is never loaded from another's keys in their slot order: into a smaller
    table that piles them up in runs of linear probing (the 7x7 left half's first
    square ran minutes where it takes seconds)."""
    kw = 1 if 2 * k + 1 <= 15 else 2
    src: Any = None
    plain: Any
    if isinstance(table, _Swept):
        src, plain = table.fast, table.table
    else:
        plain = table
        if module.COMPILED and 2 * k + 1 <= 29:
            src = module.Table(limit, size=_room(len(table)), kw=kw)
            if module.STATUS[src.load(table)] != "ok":  # counts past 64 bits already
                src = None
    given = src
    spare: Any = None
    for i in squares:
        if src is not None:
            dst = spare if spare is not None else module.Table(limit, size=src.size, kw=kw)
            status = module.STATUS[counter.step_fast(i, src, dst)]
            if status == "overflow":  # counts past 64 bits: go on in Python ints
                plain = counter.step(i, src.items())
                src = spare = None
            elif status != "ok":
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
            else:
                spare = None if src is given else src
                if spare is not None:
                    spare.clear()
                src = dst
        else:
            plain = counter.step(i, plain)
            if len(plain) > limit:
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
    return _Swept(src, None if src is not None else plain)


def _room(size: int) -> int:
    """A table's slots for ``size`` frontiers: a power of two, at most half full."""
    slots = 1024
    while slots < 2 * size:
        slots *= 2
    return slots


class OpenJoinCount:
    """What :func:`open_join_count` found: the ``count`` of directed open tours (every
    start), the ``cut`` (the shared columns are ``cut - 2`` and ``cut - 1``), the
    frontiers of each half at the shared columns (``left`` folded, ``right`` whole),
    ``pairs`` of them compared, and ``seconds`` (wall) for the halves (the program's
    sweeps: ``first columns`` swept once for both, then ``left half``, both within
    ``halves``) and the join (``right records``, the right half's records, within
    ``join``).  (A plain class, as :class:`lazysearch.knights._join.JoinCount`.)"""

    def __init__(self, rows: int, cols: int, cut: int) -> None:
        self.rows = rows
        self.cols = cols
        self.cut = cut
        self.count = 0
        self.left = 0
        self.right = 0
        self.pairs = 0
        self.seconds: dict[str, float] = {}

    def __repr__(self) -> str:
        return (
            f"OpenJoinCount({self.rows}x{self.cols}, cut={self.cut}, count={self.count}, "
            f"left={self.left}, right={self.right}, pairs={self.pairs}, "
            f"seconds={self.seconds})"
        )


def open_join_count(
    rows: int,
    cols: int,
    cut: int | None = None,
    max_states: int | None = None,
    reference: bool = False,
    workers: int = 1,
) -> OpenJoinCount:
    """The directed open tours of a ``rows x cols`` board (every start), counted by
    joining two halves that share columns ``cut - 2`` and ``cut - 1``.

    >>> open_join_count(5, 5).count
    1728

    ``n`` is the long side and ``k`` the short one; ``cut`` must be from 3 to ``n - 1``
    and the board at least 3x4.  The default, ``(n + 3) // 2``, makes the halves as
    equal as may be, the left one (whose edges between the shared columns are left out,
    so it holds fewer frontiers) the longer when they differ: measured the faster cut
    on 4x8, 5x6, 5x7, 5x8 and 6x6.
    The program sweeps ``cut`` columns for the left half and ``n - cut + 2`` for the
    right, the first ``min(cut - 1, n - cut + 2)`` of them once for both.

    ``workers`` forked processes (this one and ``workers - 1`` more) share the join's
    left frontiers, when there are :data:`PARTS_FROM` or more: they read the right
    half's arrays without a copy, and their counts are added.

    ``reference=True`` joins with :func:`join_open` (dicts of ``bytes``, slow, written
    apart from :class:`Joiner` to check it).

    Raises :class:`~lazysearch.knights.counting.TooManyStatesError` when a table would
    pass ``max_states`` frontiers (default
    :func:`~lazysearch.knights.counting.default_max_states`); ``ValueError`` for a board
    or cut that does not fit.
    """
    from lazysearch.engine import _native
    from lazysearch.knights.counting import check_measured, default_max_states

    k, n = min(rows, cols), max(rows, cols)
    if k < 3 or n < 4:
        raise ValueError(f"open_join_count() needs a board at least 3x4, not {rows}x{cols}")
    c = (n + 3) // 2 if cut is None else cut
    if not (isinstance(c, int) and 3 <= c <= n - 1):
        raise ValueError(f"open_join_count() needs 3 <= cut <= {n - 1} on {k}x{n}, not cut={c!r}")
    limit = default_max_states() if max_states is None else max_states
    check_measured(rows, cols, False, None, limit, "joining the halves of")
    result = OpenJoinCount(rows, cols, c)
    began = time.perf_counter()
    module = _native.load("lazysearch.knights._count")
    plain = module.FrontierCounter(k, n, -1, False, fold=True)
    shared = min(c - 1, n - c + 2)  # the cut changes column c - 1 only
    common = _sweep(plain, module, plain.initial(), range(shared * k), limit, k, n)
    result.seconds["first columns"] = time.perf_counter() - began
    cutting = module.FrontierCounter(k, n, -1, False, fold=True, cut=c)
    left_swept = _sweep(cutting, module, common, range(shared * k, c * k), limit, k, n)
    result.seconds["left half"] = time.perf_counter() - began - result.seconds["first columns"]
    right_swept = _sweep(plain, module, common, range(shared * k, (n - c + 2) * k), limit, k, n)
    del common
    if reference:
        left_table, right_table = _as_dict(left_swept), _as_dict(right_swept)
    else:
        left_table, right_table = left_swept.export(), right_swept.export()
    del left_swept, right_swept
    result.seconds["halves"] = time.perf_counter() - began
    began = time.perf_counter()
    if reference:
        left = boundary(left_table, k, c)
        right = turned(unfolded(boundary(right_table, k, n - c + 2), k), k)
        result.left, result.right = len(left), len(right)
        result.count = 2 * join_open(left, right, 2 * k)
    else:
        joiner = Joiner(k)
        joiner.add_right(right_table)
        del right_table
        result.seconds["right records"] = time.perf_counter() - began
        result.left = len(left_table) if isinstance(left_table, dict) else len(left_table[1])
        result.right = joiner.size
        parts = workers if result.left >= PARTS_FROM else 1
        count, result.pairs = _join_in_parts(joiner, left_table, parts)
        result.count = 2 * count
    result.seconds["join"] = time.perf_counter() - began
    return result


#: Left frontiers from which the join is shared among workers (6x7 has 413,872; 6x6
#: 74,696, whose join takes about as long as forking a process).
PARTS_FROM = 200_000


def _join_in_parts(joiner: Joiner, table: object, parts: int) -> tuple[int, int]:
    """The paths and the pairs compared: :meth:`Joiner.join` of ``table`` in ``parts``
    parts, part 0 in this process and each other in a forked one (on a machine that
    forks; else all of them here, in turn)."""
    import multiprocessing

    from lazysearch import processes

    if parts <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        total: int = 0
        for part in range(max(1, parts)):
            total += joiner.join(table, part, max(1, parts))  # type: ignore[operator]
        return total, joiner.pairs
    context = multiprocessing.get_context("fork")
    readers = []
    children = []
    try:
        for part in range(1, parts):
            reader, writer = context.Pipe(duplex=False)
            child = processes.start_forked(_join_part, (joiner, table, part, parts, writer))
            writer.close()
            readers.append(reader)
            children.append(child)
        total = joiner.join(table, 0, parts)  # type: ignore[assignment]
        pairs = joiner.pairs
        for reader in readers:
            try:
                status, count, their_pairs = reader.recv()
            except EOFError:
                raise RuntimeError("a worker of the open join ended without its count") from None
            if status != "ok":
                raise RuntimeError(f"a worker of the open join failed: {count}")
            total += count
            pairs += their_pairs
        return total, pairs
    finally:
        processes.stop_forked(children)


def _join_part(joiner: Joiner, table: object, part: int, parts: int, writer: Any) -> None:
    """A forked worker's part of the join, sent back as ``("ok", paths, pairs)`` (or
    ``("error", why, 0)``).  It leaves Ctrl-C to the caller, which stops it
    (:func:`lazysearch.processes.start_forked`)."""
    try:
        result: tuple[str, object, int] = (
            "ok",
            joiner.join(table, part, parts),
            joiner.pairs,
        )
    except Exception as error:  # pragma: no cover - a worker's own failure, sent back
        result = ("error", repr(error), 0)
    try:
        writer.send(result)
    except OSError:  # pragma: no cover - the caller is gone
        pass
    finally:
        writer.close()


def _as_dict(swept: _Swept) -> dict[int, int]:
    return swept.fast.items() if swept.fast is not None else dict(swept.table or {})


def _too_many(limit: int, k: int, n: int, where: str) -> TooManyStatesError:
    return TooManyStatesError(
        f"joining the halves of {k}x{n} for open tours needs more than max_states="
        f"{limit:,} {where}; raise max_states if the machine has the memory"
    )
