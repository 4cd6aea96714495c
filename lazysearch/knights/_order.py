"""Counting Hamiltonian paths and cycles by a frontier program over any order of the
vertices (Cython pure mode).

:mod:`._count` sweeps a board column by column, so its frontier always holds the last
``2k + 1`` squares.  This engine takes the vertices in an order it is given, one at a
time, and its frontier holds the vertices placed so far that still have a neighbour to
come: on 6x6 a good order keeps that to 9 vertices where the columns need 13, and the
tables shrink with it (docs/knights.md, "Any order of the squares").

Placing vertex ``v`` means choosing which of its edges to vertices already placed are
in the path: none, one or two, each to a vertex with fewer than two.  A frontier
vertex is, as in :mod:`._count`,

* ``FREE``: no edge yet;
* ``FULL``: two edges;
* an *end* of a fragment (one edge): either the fragment's other end is in the frontier
  too, and both carry the same label (``3, 4, ...``, renumbered in frontier order so
  that equal frontiers pack alike), or the other end is one of the path's two ends,
  already fixed, and it shows ``TAIL``;

and the key keeps how many of the path's two ends are fixed.  A vertex leaves the
frontier once its last neighbour is placed: ``FULL`` it just goes; an end becomes one
of the path's ends (never, for cycles); ``FREE`` it can never be covered, and the
frontier dies.  A vertex with fewer neighbours to come than the edges it lacks can only
become a path end, so a frontier with more such vertices than path ends left dies at
once.  A fragment whose two ends are fixed, or that closes into a cycle, is the whole
answer: allowed only when the last vertex is placed.

Two edge sets with the same frontier are completed in exactly the same ways (what is to
come sees only the frontier), so adding their counts is exact.  Counts are kept in
``limbs`` 64-bit words; a count that would not fit says so (:data:`OVERFLOW`) and the
driver counts again with more.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

from collections.abc import Callable

from lazysearch import _buffers

COMPILED: bool = cython.compiled

FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
TAIL = cython.declare(cython.int, 2)
#: The label a fragment made by the current vertex gets before renumbering.
FRESH = cython.declare(cython.int, 15)
#: The widest frontier a key packs: four bits a vertex below the ends' two bits at 60.
WIDEST = cython.declare(cython.int, 15)
ENDS_AT = cython.declare(cython.int, 60)
MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
#: No key packs to it (the ends field is at most 2, so the top two bits stay clear).
EMPTY = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)

# What :meth:`OrderCounter.run` ended with (``STATUS`` names them).
OK = cython.declare(cython.int, 0)
OVERFLOW = cython.declare(cython.int, 1)
FULL_UP = cython.declare(cython.int, 2)
STATUS = ("ok", "overflow", "full")


def plan(
    neighbours: list[list[int]], order: list[int], closed: bool
) -> tuple[list[list[int]], int]:
    """For each step, what :class:`OrderCounter` needs to know of it, and the widest
    frontier: the vertex placed goes into slot ``len(frontier)`` after the frontier it
    meets; the step lists that frontier's size, the slots of the vertex's neighbours
    already placed, the slots that stay (in order) and those that leave, and for each
    slot that stays how many of its neighbours are still to come.

    Raises ValueError if ``order`` is not an order of every vertex or the frontier gets
    wider than :data:`WIDEST`.
    """
    n = len(neighbours)
    if sorted(order) != list(range(n)):
        raise ValueError(f"order must list each of the {n} vertices once, got {order!r}")
    where = [0] * n
    for i, v in enumerate(order):
        where[v] = i
    last = [max([where[u] for u in neighbours[v]] + [where[v]]) for v in range(n)]
    frontier: list[int] = []
    steps: list[list[int]] = []
    widest = 0
    for i, v in enumerate(order):
        grown = [*frontier, v]
        back = [s for s, u in enumerate(frontier) if u in neighbours[v]]
        keep = [s for s, u in enumerate(grown) if last[u] > i]
        leave = [s for s, u in enumerate(grown) if last[u] <= i]
        ahead = [sum(1 for w in neighbours[grown[s]] if where[w] > i) for s in keep]
        steps.append(
            [len(frontier), len(back), *back, len(keep), *keep, len(leave), *leave, *ahead]
        )
        frontier = [grown[s] for s in keep]
        widest = max(widest, len(grown))
        if widest > WIDEST:
            raise ValueError(
                f"the order's frontier reaches {widest} vertices at step {i}; "
                f"this program packs at most {WIDEST}"
            )
    return steps, widest


@cython.cclass
class OrderCounter:
    """The program over the steps :func:`plan` made: :meth:`run` counts Hamiltonian
    paths (``closed`` False; any two ends) or cycles (``closed`` True), in ``limbs``
    64-bit words, holding at most ``limit`` frontiers a step."""

    data: cython.int[::1]
    starts: list[int]
    closed: cython.bint
    limbs: cython.int
    limit: cython.Py_ssize_t
    # Two tables: keys, then counts (``limbs`` words a key), swapped after each step.
    keys: cython.ulonglong[::1]
    counts: cython.ulonglong[::1]
    keys2: cython.ulonglong[::1]
    counts2: cython.ulonglong[::1]
    size: cython.Py_ssize_t
    size2: cython.Py_ssize_t
    used: cython.Py_ssize_t
    used2: cython.Py_ssize_t
    shift2: cython.int
    total: cython.ulonglong[::1]
    status: cython.int
    states = cython.declare(list, visibility="readonly")

    def __init__(self, steps: list[list[int]], closed: bool, limbs: int, limit: int) -> None:
        flat: list[int] = []
        self.starts = []
        for step in steps:
            self.starts.append(len(flat))
            flat += step
        self.data = _buffers.ints(flat or [0], COMPILED)  # type: ignore[assignment]
        self.closed = closed
        self.limbs = limbs
        self.limit = limit
        self.total = _buffers.filled64(limbs, 0, COMPILED)  # type: ignore[assignment]
        self.states = []
        self.status = OK

    def _tables(self, size: int, second: bool) -> None:
        keys = _buffers.filled64(size, EMPTY, COMPILED)
        counts = _buffers.filled64(size * self.limbs, 0, COMPILED)
        if second:
            self.keys2 = keys  # type: ignore[assignment]
            self.counts2 = counts  # type: ignore[assignment]
            self.size2 = size
            self.used2 = 0
            self.shift2 = 64 - (size.bit_length() - 1)
        else:
            self.keys = keys  # type: ignore[assignment]
            self.counts = counts  # type: ignore[assignment]
            self.size = size

    def run(self, on_step: Callable[[int, int], object] | None = None) -> tuple[int, int]:
        """Take every step; returns (status, count).  ``on_step(i, frontiers)`` hears of
        each step done.  The frontiers after each step are in :attr:`states`."""
        t: cython.int
        self._tables(2, False)
        self.keys[0] = 0
        self.counts[0] = 1
        for t in range(1, self.limbs):
            self.counts[t] = 0
        self.used = 1
        steps = len(self.starts)
        for i in range(steps):
            self._tables(max(1024, 1 << (2 * self.used).bit_length()), True)
            if self._step(self.starts[i], i == steps - 1) != OK:
                return self.status, 0
            self.keys, self.keys2 = self.keys2, self.keys
            self.counts, self.counts2 = self.counts2, self.counts
            self.size = self.size2
            self.used = self.used2
            self.states.append(self.used)
            if on_step is not None:
                on_step(i, self.used)
        total = 0
        for t in range(self.limbs):
            total |= int(self.total[t]) << (64 * t)
        return OK, total

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _step(self, at: cython.Py_ssize_t, final: cython.bint) -> cython.int:
        data: cython.int[::1] = self.data
        if cython.compiled:
            code = cython.declare(cython.int[16])
            work = cython.declare(cython.int[16])
            relabel = cython.declare(cython.int[16])
            avail = cython.declare(cython.int[16])
        else:
            code, work, relabel, avail = [0] * 16, [0] * 16, [0] * 16, [0] * 16
        width: cython.int = data[at]
        nback: cython.int = data[at + 1]
        back: cython.Py_ssize_t = at + 2
        nkeep: cython.int = data[back + nback]
        keep: cython.Py_ssize_t = back + nback + 1
        nleave: cython.int = data[keep + nkeep]
        leave: cython.Py_ssize_t = keep + nkeep + 1
        ahead: cython.Py_ssize_t = leave + nleave
        closed: cython.bint = self.closed
        limbs: cython.int = self.limbs
        slot: cython.Py_ssize_t
        key: cython.ulonglong
        out: cython.ulonglong
        j: cython.int
        k: cython.int
        s: cython.int
        z: cython.int
        x: cython.int = width
        navail: cython.int
        first: cython.int
        second: cython.int
        choice: cython.int
        ends: cython.int
        cv: cython.int
        cu: cython.int
        c: cython.int
        dead: cython.bint
        complete: cython.bint
        forced: cython.int
        label: cython.int
        for slot in range(self.size):
            key = self.keys[slot]
            if key == EMPTY:
                continue
            for j in range(width):
                code[j] = cython.cast(cython.int, (key >> (4 * j)) & 15)
            code[x] = FREE
            navail = 0
            for j in range(nback):
                s = data[back + j]
                if code[s] != FULL:
                    avail[navail] = s
                    navail += 1
            # Choices: no edge, one edge to avail[k], two edges to avail[k], avail[m].
            for choice in range(1 + navail + navail * (navail - 1) // 2):
                for j in range(width + 1):
                    work[j] = code[j]
                ends = cython.cast(cython.int, key >> ENDS_AT)
                dead = False
                complete = False
                first = -1
                second = -1
                if 1 <= choice <= navail:
                    first = avail[choice - 1]
                elif choice > navail:
                    k = choice - navail - 1
                    first = 0
                    while k >= navail - 1 - first:
                        k -= navail - 1 - first
                        first += 1
                    second = avail[first + 1 + k]
                    first = avail[first]
                # The edges, one after the other, from the new vertex x.
                for j in range(2):
                    s = first if j == 0 else second
                    if s < 0:
                        break
                    cv = work[x]
                    cu = work[s]
                    if cv == FREE:
                        if cu == FREE:
                            work[x] = FRESH
                            work[s] = FRESH
                        else:
                            work[x] = cu
                            work[s] = FULL
                        continue
                    work[x] = FULL
                    work[s] = FULL
                    if cu == FREE:
                        work[s] = cv
                    elif cv == TAIL and cu == TAIL:
                        complete = True
                    elif cv == cu:
                        if not closed:
                            dead = True
                        complete = True
                    else:
                        # The far end of cu's fragment takes cv's mark (TAIL or label).
                        label = cu if cu != TAIL else cv
                        for z in range(width + 1):
                            if work[z] == label and z != s:
                                work[z] = cv if cu != TAIL else TAIL
                                break
                if dead:
                    continue
                # The vertices whose last neighbour this was.
                for j in range(nleave):
                    s = data[leave + j]
                    c = work[s]
                    if c == FULL:
                        continue
                    if c == FREE or closed:
                        dead = True
                        break
                    ends += 1
                    if ends > 2:
                        dead = True
                        break
                    work[s] = FULL
                    if c == TAIL:
                        complete = True
                    else:
                        for z in range(width + 1):
                            if work[z] == c:
                                work[z] = TAIL
                                break
                if dead:
                    continue
                if complete:
                    if final and nkeep == 0 and self._add_total(slot * limbs) != OK:
                        return self.status
                    continue
                # Vertices that can only become path ends: no edge yet and one neighbour
                # to come (an end that stays has a neighbour to come by then).
                forced = 0
                for j in range(nkeep):
                    if work[data[keep + j]] == FREE and data[ahead + j] < 2:
                        forced += 1
                if (closed and forced) or ends + forced > 2:
                    continue
                # Renumber the labels in frontier order and pack.
                for j in range(16):
                    relabel[j] = 0
                label = 3
                out = cython.cast(cython.ulonglong, ends) << ENDS_AT
                for j in range(nkeep):
                    c = work[data[keep + j]]
                    if c > TAIL:
                        if relabel[c] == 0:
                            relabel[c] = label
                            label += 1
                        c = relabel[c]
                    out |= cython.cast(cython.ulonglong, c) << (4 * j)
                if self._add(out, slot * limbs) != OK:
                    return self.status
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _add_total(self, at: cython.Py_ssize_t) -> cython.int:
        """Add the current table's count at ``at`` to the total."""
        t: cython.int
        carry: cython.ulonglong = 0
        a: cython.ulonglong
        b: cython.ulonglong
        for t in range(self.limbs):
            a = self.total[t]
            b = (a + self.counts[at + t] + carry) & MASK64
            carry = 1 if (b < a or (carry and b == a)) else 0
            self.total[t] = b
        if carry:
            self.status = OVERFLOW
            return OVERFLOW
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _add(self, key: cython.ulonglong, at: cython.Py_ssize_t) -> cython.int:
        """Add the current table's count at ``at`` (``limbs`` words) to the next
        table's entry for ``key``."""
        mask: cython.Py_ssize_t = self.size2 - 1
        slot: cython.Py_ssize_t = cython.cast(
            cython.Py_ssize_t, ((key * GOLDEN) & MASK64) >> self.shift2
        )
        t: cython.int
        carry: cython.ulonglong = 0
        a: cython.ulonglong
        b: cython.ulonglong
        limbs: cython.int = self.limbs
        while True:
            if self.keys2[slot] == key:
                for t in range(limbs):
                    a = self.counts2[slot * limbs + t]
                    b = (a + self.counts[at + t] + carry) & MASK64
                    carry = 1 if (b < a or (carry and b == a)) else 0
                    self.counts2[slot * limbs + t] = b
                if carry:
                    self.status = OVERFLOW
                    return OVERFLOW
                return OK
            if self.keys2[slot] == EMPTY:
                break
            slot = (slot + 1) & mask
        if self.used2 >= self.limit:
            self.status = FULL_UP
            return FULL_UP
        if 2 * (self.used2 + 1) > self.size2:
            self._grow()
            return self._add(key, at)
        self.keys2[slot] = key
        for t in range(limbs):
            self.counts2[slot * limbs + t] = self.counts[at + t]
        self.used2 += 1
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _grow(self) -> cython.int:
        """Double the next table, its entries moved over."""
        keys: cython.ulonglong[::1] = self.keys2
        counts: cython.ulonglong[::1] = self.counts2
        size: cython.Py_ssize_t = self.size2
        used: cython.Py_ssize_t = self.used2
        limbs: cython.int = self.limbs
        old: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        t: cython.int
        self._tables(2 * size, True)
        mask: cython.Py_ssize_t = self.size2 - 1
        for old in range(size):
            if keys[old] == EMPTY:
                continue
            slot = cython.cast(cython.Py_ssize_t, ((keys[old] * GOLDEN) & MASK64) >> self.shift2)
            while self.keys2[slot] != EMPTY:
                slot = (slot + 1) & mask
            self.keys2[slot] = keys[old]
            for t in range(limbs):
                self.counts2[slot * limbs + t] = counts[old * limbs + t]
        self.used2 = used
        return OK
