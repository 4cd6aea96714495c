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
``limbs`` 64-bit words; a count that would not fit says so (:data:`OVERFLOW`), and the
step is taken again with one word more.

A key packs a frontier in one 64-bit word up to 15 vertices, four bits a vertex and the
ends' two bits at 60 (the program's fast path); wider frontiers take more words, the
first packed the same way and each next one 16 vertices more (past 24 vertices, whose
fragments need more labels than four bits hold, eight bits a vertex: 7 in the first
word, 8 in each next).  :func:`plan` says how many words (``kw``) and how many bits.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from collections.abc import Callable

from lazysearch.engine import _buffers
from lazysearch.graphs import _table

COMPILED: bool = cython.compiled

# The frontiers' table (:mod:`lazysearch.graphs._table`), compiled or as plain Python.
if cython.compiled:
    from cython.cimports.lazysearch.graphs._table import (
        EMPTY,
        MASK64,
        NO_MEMORY,
        OK,
        OVERFLOW,
        Table,
    )
else:
    _plain = _table.plain()
    EMPTY, MASK64, NO_MEMORY = _plain.EMPTY, _plain.MASK64, _plain.NO_MEMORY
    OK, OVERFLOW, Table = _plain.OK, _plain.OVERFLOW, _plain.Table

FREE = cython.declare(cython.int, 0)
FULL = cython.declare(cython.int, 1)
TAIL = cython.declare(cython.int, 2)
#: The widest frontier one word packs: four bits a vertex below the ends' two bits at 60.
WIDEST = cython.declare(cython.int, 15)
ENDS_AT = cython.declare(cython.int, 60)
#: The widest frontier four bits a vertex can label (fragments labelled 3 to 14; 15 is
#: the label a fragment made by the current vertex gets before renumbering) ...
NARROW = cython.declare(cython.int, 24)
#: ... and the widest any key packs, at eight bits a vertex.
WIDEST_ANY = cython.declare(cython.int, 240)
#: Directed, a fragment end shows its label and which end it is (codes ``4 + 2 * label``
#: for the first vertex of a fragment, which lacks its arc in, and one more for the last,
#: which lacks its arc out): four bits label six fragments, 13 vertices.
NARROW_DIRECTED = cython.declare(cython.int, 13)
#: Directed, the fragment end whose other end is the path's start (it lacks its arc
#: out), and the one whose other end is the path's end (it lacks its arc in); ``TAIL``
#: is the former.
TO_END = cython.declare(cython.int, 3)
#: Directed, the label (code ``2 * FRESH``, first end, and one more) of a fragment made by
#: the current vertex, before renumbering.
FRESH = cython.declare(cython.int, 127)
# (No key packs to the table's EMPTY: the ends field is at most 2, so the first word's
# top two bits stay clear.)

#: What :meth:`OrderCounter.run` ended with, by name (the table's statuses).
STATUS = _table.STATUS


def key_words(widest: int, directed: bool = False) -> tuple[int, int]:
    """The words of a key for frontiers of up to ``widest`` vertices (of a directed
    graph: :data:`NARROW_DIRECTED` at four bits a vertex), and the bits a vertex takes
    in it."""
    bits = 4 if widest <= (NARROW_DIRECTED if directed else NARROW) else 8
    first = 60 // bits
    return 1 + max(0, -(-(widest - first) // (64 // bits))), bits


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _lacks_in(c: cython.int) -> cython.bint:
    """Whether a directed frontier vertex of code ``c`` lacks its arc in: free, or the
    first vertex of its fragment."""
    return c in (FREE, TO_END) or (c > TO_END and not c & 1)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _lacks_out(c: cython.int) -> cython.bint:
    """Whether a directed frontier vertex of code ``c`` lacks its arc out: free, or the
    last vertex of its fragment."""
    return c in (FREE, TAIL) or (c > TO_END and c & 1 == 1)


def plan(
    neighbours: list[list[int]],
    order: list[int],
    closed: bool,
    widest_packed: int = WIDEST,
    arcs: list[list[int]] | None = None,
) -> tuple[list[list[int]], int]:
    """For each step, what :class:`OrderCounter` needs to know of it, and the widest
    frontier: the vertex placed goes into slot ``len(frontier)`` after the frontier it
    meets; the step lists that frontier's size, the slots of the vertex's neighbours
    already placed, the slots that stay (in order) and those that leave, and for each
    slot that stays how many of its neighbours are still to come.

    For a directed graph, ``arcs`` are its out-neighbour lists (``neighbours`` those
    and the in-neighbours together): a slot's neighbours to come are those with an arc
    into it, and the step goes on with, for each slot that stays, its out-neighbours to
    come, then for each neighbour already placed ``1`` for an arc from it to the vertex
    placed, ``2`` for one the other way, ``3`` for both.

    Raises ValueError if ``order`` is not an order of every vertex or the frontier gets
    wider than ``widest_packed`` vertices (default :data:`WIDEST`, one word a key; at
    most :data:`WIDEST_ANY`).
    """
    n = len(neighbours)
    if sorted(order) != list(range(n)):
        raise ValueError(f"order must list each of the {n} vertices once, got {order!r}")
    where = [0] * n
    for i, v in enumerate(order):
        where[v] = i
    last = [max([where[u] for u in neighbours[v]] + [where[v]]) for v in range(n)]
    into: list[list[int]] = [[] for _ in range(n)]
    for u, out in enumerate(arcs or ()):
        for w in out:
            into[w].append(u)
    frontier: list[int] = []
    steps: list[list[int]] = []
    widest = 0
    for i, v in enumerate(order):
        grown = [*frontier, v]
        back = [s for s, u in enumerate(frontier) if u in neighbours[v]]
        keep = [s for s, u in enumerate(grown) if last[u] > i]
        leave = [s for s, u in enumerate(grown) if last[u] <= i]
        ahead = [
            sum(1 for w in (into if arcs else neighbours)[grown[s]] if where[w] > i) for s in keep
        ]
        step = [len(frontier), len(back), *back, len(keep), *keep, len(leave), *leave, *ahead]
        if arcs is not None:
            step += [sum(1 for w in arcs[grown[s]] if where[w] > i) for s in keep]
            step += [(v in arcs[frontier[s]]) + 2 * (frontier[s] in arcs[v]) for s in back]
        steps.append(step)
        frontier = [grown[s] for s in keep]
        widest = max(widest, len(grown))
        if widest > min(widest_packed, WIDEST_ANY):
            raise ValueError(
                f"the order's frontier reaches {widest} vertices at step {i}; "
                f"this program packs at most {min(widest_packed, WIDEST_ANY)}"
            )
    return steps, widest


@cython.cclass
class OrderCounter:
    """The program over the steps :func:`plan` made: :meth:`run` counts Hamiltonian
    paths (``closed`` False; any two ends) or cycles (``closed`` True), in ``limbs``
    64-bit words, holding at most ``limit`` frontiers a step; of a ``directed`` graph
    (steps planned with its arcs), directed paths and cycles."""

    data: cython.int[::1]
    starts: list[int]
    closed: cython.bint
    directed: cython.bint
    limbs: cython.int
    limit: cython.Py_ssize_t
    # The words of a key, the bits a vertex takes in it, and how many vertices the
    # first word and each next one hold.
    kw: cython.int
    bits: cython.int
    first: cython.int
    per: cython.int
    # The frontiers before the step and after it (``kw``-word keys, ``limbs``-word counts).
    cur: Table
    nxt: Table
    total: cython.ulonglong[::1]
    packed: cython.ulonglong[::1]
    status: cython.int
    states = cython.declare(list, visibility="readonly")

    def __init__(
        self,
        steps: list[list[int]],
        closed: bool,
        limbs: int,
        limit: int,
        directed: bool = False,
    ) -> None:
        flat: list[int] = []
        self.starts = []
        for step in steps:
            self.starts.append(len(flat))
            flat += step
        self.data = _buffers.ints(flat or [0], COMPILED)  # type: ignore[assignment]
        self.closed = closed
        self.directed = directed
        self.limbs = limbs
        self.limit = limit
        widest = max((step[0] + 1 for step in steps), default=1)
        self.kw, self.bits = key_words(widest, directed)
        self.first = 60 // self.bits
        self.per = 64 // self.bits
        self.packed = _buffers.filled64(self.kw, 0, COMPILED)  # type: ignore[assignment]
        self.total = _buffers.filled64(limbs, 0, COMPILED)  # type: ignore[assignment]
        self.states = []
        self.status = OK

    @property
    def words(self) -> int:
        """The words of a key."""
        return int(self.kw)

    def run(self, on_step: Callable[[int, int], object] | None = None) -> tuple[int, int]:
        """Take every step; returns (status, count).  ``on_step(i, frontiers)`` hears of
        each step done.  The frontiers after each step are in :attr:`states`.  A count
        that passes its words takes the step again with one word more."""
        t: cython.int
        self.cur = Table(self.limit, size=2, limbs=self.limbs, kw=self.kw)
        self.cur.load({0: 1})
        steps = len(self.starts)
        for i in range(steps):
            while True:
                size = max(1024, 1 << (2 * self.cur.used).bit_length())
                self.nxt = Table(self.limit, size=size, limbs=self.limbs, kw=self.kw)
                if self.directed:
                    if self._step_directed(self.starts[i], i == steps - 1) == OK:
                        break
                elif self._step(self.starts[i], i == steps - 1) == OK:
                    break
                if self.status != OVERFLOW:
                    if self.status == NO_MEMORY:
                        raise MemoryError("no memory for the next step's table")
                    return self.status, 0
                self.nxt = None
                self.limbs += 1
                self.cur = self.cur.widened(self.limbs)
                self.total = _buffers.filled64(self.limbs, 0, COMPILED)  # type: ignore[assignment]
                self.status = OK
            self.cur = self.nxt
            self.states.append(self.cur.used)
            if on_step is not None:
                on_step(i, self.cur.used)
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
        src: Table = self.cur
        dst: Table = self.nxt
        slots: cython.ulonglong[::1] = src.slots
        packed: cython.ulonglong[::1] = self.packed
        kw: cython.int = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        status: cython.int
        if cython.compiled:
            code = cython.declare(cython.int[256])
            work = cython.declare(cython.int[256])
            relabel = cython.declare(cython.int[256])
            avail = cython.declare(cython.int[256])
        else:
            code, work, relabel, avail = [0] * 256, [0] * 256, [0] * 256, [0] * 256
        width: cython.int = data[at]
        nback: cython.int = data[at + 1]
        back: cython.Py_ssize_t = at + 2
        nkeep: cython.int = data[back + nback]
        keep: cython.Py_ssize_t = back + nback + 1
        nleave: cython.int = data[keep + nkeep]
        leave: cython.Py_ssize_t = keep + nkeep + 1
        ahead: cython.Py_ssize_t = leave + nleave
        closed: cython.bint = self.closed
        bits: cython.int = self.bits
        cell: cython.ulonglong = (cython.cast(cython.ulonglong, 1) << bits) - 1
        fresh: cython.int = cython.cast(cython.int, cell)
        first_word: cython.int = self.first
        per: cython.int = self.per
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
        start_ends: cython.int
        ends: cython.int
        cv: cython.int
        cu: cython.int
        c: cython.int
        dead: cython.bint
        complete: cython.bint
        forced: cython.int
        label: cython.int
        for slot in range(src.size):
            key = slots[stride * slot]
            if key == EMPTY:
                continue
            start_ends = cython.cast(cython.int, key >> ENDS_AT)
            if kw == 1:
                for j in range(width):
                    code[j] = cython.cast(cython.int, (key >> (4 * j)) & 15)
            else:
                for j in range(width):
                    if j < first_word:
                        key = slots[stride * slot]
                        k = j
                    else:
                        key = slots[stride * slot + 1 + (j - first_word) // per]
                        k = (j - first_word) % per
                    code[j] = cython.cast(cython.int, (key >> (bits * k)) & cell)
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
                ends = start_ends
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
                            work[x] = fresh
                            work[s] = fresh
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
                    if final and nkeep == 0 and self._add_total(slots, stride * slot + kw) != OK:
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
                for j in range(nkeep):
                    relabel[work[data[keep + j]]] = 0
                label = 3
                out = cython.cast(cython.ulonglong, ends) << ENDS_AT
                if kw == 1:
                    for j in range(nkeep):
                        c = work[data[keep + j]]
                        if c > TAIL:
                            if relabel[c] == 0:
                                relabel[c] = label
                                label += 1
                            c = relabel[c]
                        out |= cython.cast(cython.ulonglong, c) << (4 * j)
                    status = dst.add(out, 0, slots, stride * slot + kw)
                else:
                    for j in range(1, kw):
                        packed[j] = 0
                    for j in range(nkeep):
                        c = work[data[keep + j]]
                        if c > TAIL:
                            if relabel[c] == 0:
                                relabel[c] = label
                                label += 1
                            c = relabel[c]
                        if j < first_word:
                            out |= cython.cast(cython.ulonglong, c) << (bits * j)
                        else:
                            k = (j - first_word) % per
                            packed[1 + (j - first_word) // per] |= cython.cast(
                                cython.ulonglong, c
                            ) << (bits * k)
                    packed[0] = out
                    status = dst.add_wide(packed, 0, slots, stride * slot + kw)
                if status != OK:
                    self.status = status
                    return status
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _step_directed(self, at: cython.Py_ssize_t, final: cython.bint) -> cython.int:
        """:meth:`_step` for a directed graph.  A vertex with one arc is the first of its
        fragment (it lacks the arc in: code ``2 * label``, or ``TO_END`` when the
        fragment's last vertex is the path's end) or the last (it lacks the arc out:
        ``2 * label + 1``, or ``TAIL`` when the fragment's first is the path's start), so
        an arc joins a last vertex to a first one only; the key's ends field has a bit
        for the path's start (1) and one for its end (2)."""
        data: cython.int[::1] = self.data
        src: Table = self.cur
        dst: Table = self.nxt
        slots: cython.ulonglong[::1] = src.slots
        packed: cython.ulonglong[::1] = self.packed
        kw: cython.int = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        status: cython.int
        if cython.compiled:
            code = cython.declare(cython.int[256])
            work = cython.declare(cython.int[256])
            relabel = cython.declare(cython.int[256])
            ins = cython.declare(cython.int[256])
            outs = cython.declare(cython.int[256])
        else:
            code, work, relabel = [0] * 256, [0] * 256, [0] * 256
            ins, outs = [0] * 256, [0] * 256
        width: cython.int = data[at]
        nback: cython.int = data[at + 1]
        back: cython.Py_ssize_t = at + 2
        nkeep: cython.int = data[back + nback]
        keep: cython.Py_ssize_t = back + nback + 1
        nleave: cython.int = data[keep + nkeep]
        leave: cython.Py_ssize_t = keep + nkeep + 1
        ahead_in: cython.Py_ssize_t = leave + nleave
        ahead_out: cython.Py_ssize_t = ahead_in + nkeep
        ways: cython.Py_ssize_t = ahead_out + nkeep
        closed: cython.bint = self.closed
        bits: cython.int = self.bits
        cell: cython.ulonglong = (cython.cast(cython.ulonglong, 1) << bits) - 1
        first_word: cython.int = self.first
        per: cython.int = self.per
        slot: cython.Py_ssize_t
        key: cython.ulonglong
        out: cython.ulonglong
        j: cython.int
        k: cython.int
        s: cython.int
        z: cython.int
        x: cython.int = width
        nin: cython.int
        nout: cython.int
        a: cython.int
        b: cython.int
        tail: cython.int
        head: cython.int
        start_ends: cython.int
        ends: cython.int
        ct: cython.int
        ch: cython.int
        c: cython.int
        dead: cython.bint
        complete: cython.bint
        lack_in: cython.bint
        lack_out: cython.bint
        starts: cython.int
        stops: cython.int
        label: cython.int
        for slot in range(src.size):
            key = slots[stride * slot]
            if key == EMPTY:
                continue
            start_ends = cython.cast(cython.int, key >> ENDS_AT)
            for j in range(width):
                if j < first_word:
                    key = slots[stride * slot]
                    k = j
                else:
                    key = slots[stride * slot + 1 + (j - first_word) // per]
                    k = (j - first_word) % per
                code[j] = cython.cast(cython.int, (key >> (bits * k)) & cell)
            code[x] = FREE
            # The arcs that may be taken: into x from a vertex lacking its arc out, out
            # of x to one lacking its arc in.
            nin = 0
            nout = 0
            for j in range(nback):
                s = data[back + j]
                c = code[s]
                if data[ways + j] & 1 and _lacks_out(c):
                    ins[nin] = s
                    nin += 1
                if data[ways + j] & 2 and _lacks_in(c):
                    outs[nout] = s
                    nout += 1
            # Choices: an arc in from ins[a] or none (a == nin), one out to outs[b] or none.
            for a in range(nin + 1):
                for b in range(nout + 1):
                    if a < nin and b < nout and ins[a] == outs[b]:
                        continue  # a cycle of two vertices, never part of a longer one
                    for j in range(width + 1):
                        work[j] = code[j]
                    ends = start_ends
                    dead = False
                    complete = False
                    for j in range(2):
                        if j == 0:
                            if a == nin:
                                continue
                            tail = ins[a]
                            head = x
                        else:
                            if b == nout:
                                continue
                            tail = x
                            head = outs[b]
                        ct = work[tail]
                        ch = work[head]
                        if ct == FREE and ch == FREE:
                            work[tail] = 2 * FRESH
                            work[head] = 2 * FRESH + 1
                            continue
                        if ct == FREE:
                            work[tail] = ch
                            work[head] = FULL
                            continue
                        if ch == FREE:
                            work[head] = ct
                            work[tail] = FULL
                            continue
                        work[tail] = FULL
                        work[head] = FULL
                        if ct == TAIL and ch == TO_END:
                            complete = True
                            continue
                        if ct == (ch ^ 1):
                            if not closed:
                                dead = True
                            complete = True
                            continue
                        # The far end of head's fragment (its last vertex, or the path's
                        # end) goes on from the far end of tail's (its first vertex, or
                        # the path's start).
                        label = ch ^ 1 if ch != TO_END else ct ^ 1
                        for z in range(width + 1):
                            if work[z] == label:
                                work[z] = ct if ch != TO_END else TO_END
                                break
                    if dead:
                        continue
                    # The vertices whose last neighbour this was: one lacking its arc in
                    # is the path's start, one lacking its arc out its end.
                    for j in range(nleave):
                        s = data[leave + j]
                        c = work[s]
                        if c == FULL:
                            continue
                        if c == FREE or closed:
                            dead = True
                            break
                        work[s] = FULL
                        k = 2 if _lacks_out(c) else 1
                        if ends & k:
                            dead = True
                            break
                        ends |= k
                        if c in (TAIL, TO_END):
                            complete = True
                        else:
                            for z in range(width + 1):
                                if work[z] == (c ^ 1):
                                    work[z] = TAIL if k == 1 else TO_END
                                    break
                    if dead:
                        continue
                    if complete:
                        if (
                            final
                            and nkeep == 0
                            and self._add_total(slots, stride * slot + kw) != OK
                        ):
                            return self.status
                        continue
                    # Vertices with no arc in to come that lack one must start the path;
                    # with no arc out to come that lack one, end it.
                    starts = 0
                    stops = 0
                    for j in range(nkeep):
                        c = work[data[keep + j]]
                        if c == FULL:
                            continue
                        lack_in = _lacks_in(c)
                        lack_out = _lacks_out(c)
                        if lack_in and data[ahead_in + j] == 0:
                            starts += 1
                        if lack_out and data[ahead_out + j] == 0:
                            stops += 1
                    if closed and starts + stops:
                        continue
                    if starts + (ends & 1) > 1 or stops + (ends >> 1) > 1:
                        continue
                    # Renumber the labels in frontier order and pack.
                    for j in range(nkeep):
                        relabel[work[data[keep + j]] >> 1] = 0
                    label = 2
                    out = cython.cast(cython.ulonglong, ends) << ENDS_AT
                    for j in range(1, kw):
                        packed[j] = 0
                    for j in range(nkeep):
                        c = work[data[keep + j]]
                        if c > TO_END:
                            if relabel[c >> 1] == 0:
                                relabel[c >> 1] = label
                                label += 1
                            c = 2 * relabel[c >> 1] + (c & 1)
                        if j < first_word:
                            out |= cython.cast(cython.ulonglong, c) << (bits * j)
                        else:
                            k = (j - first_word) % per
                            packed[1 + (j - first_word) // per] |= cython.cast(
                                cython.ulonglong, c
                            ) << (bits * k)
                    if kw == 1:
                        status = dst.add(out, 0, slots, stride * slot + kw)
                    else:
                        packed[0] = out
                        status = dst.add_wide(packed, 0, slots, stride * slot + kw)
                    if status != OK:
                        self.status = status
                        return status
        return OK

    @cython.cfunc
    @cython.exceptval(-1)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _add_total(self, words: cython.ulonglong[::1], at: cython.Py_ssize_t) -> cython.int:
        """Add the count ``words[at : at + limbs]`` to the total."""
        t: cython.int
        carry: cython.ulonglong = 0
        a: cython.ulonglong
        b: cython.ulonglong
        for t in range(self.limbs):
            a = self.total[t]
            b = (a + words[at + t] + carry) & MASK64
            carry = 1 if (b < a or (carry and b == a)) else 0
            self.total[t] = b
        if carry:
            self.status = OVERFLOW
            return OVERFLOW
        return OK


#: xorshift64*'s multiplier: the local search's draws, the same compiled or not.
SCRAMBLE = cython.declare(cython.ulonglong, 0x2545F4914F6CDD1D)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _next(state: cython.ulonglong) -> cython.ulonglong:
    """xorshift64's next state (kept below ``2**64`` when run as Python)."""
    state ^= (state >> 12) & MASK64
    state ^= (state << 25) & MASK64
    state ^= (state >> 27) & MASK64
    return state & MASK64


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def width_search(
    starts: list[int], links: list[int], order: list[int], moves: int, seed: int
) -> tuple[list[int], int]:
    """A local search over orders of a graph's vertices (``links[starts[v] :
    starts[v + 1]]`` each vertex's neighbours) for a small ``sum(3 ** w)``, ``w`` the
    number of vertices placed with a neighbour still to come after each step.
    ``moves`` times (draws by xorshift64 from ``seed``) two vertices swap places or one
    moves to another place, mostly within six places; the move stays when the sum grows
    by no more than a threshold that falls from 1 % of it to nothing over the moves
    (threshold accepting: integers only, so the same compiled or not).  Returns the
    best order seen and its sum.  Microseconds a move, compiled, where a count by the
    program takes from a tenth of a second to minutes; the program's frontiers follow
    that sum, roughly."""
    n: cython.Py_ssize_t = len(order)
    at_buf = _buffers.zeros(n, COMPILED)
    by_buf = _buffers.ints(list(order), COMPILED)
    best_buf = _buffers.ints(list(order), COMPILED)
    last_buf = _buffers.zeros(n, COMPILED)
    wide_buf = _buffers.zeros(n + 1, COMPILED)
    keep_buf = _buffers.zeros(n + 1, COMPILED)
    seen_buf = _buffers.zeros(n, COMPILED)
    touched_buf = _buffers.zeros(n, COMPILED)
    start_buf = _buffers.ints(list(starts), COMPILED)
    link_buf = _buffers.ints(list(links) or [0], COMPILED)
    pow_buf = _buffers.zeros64(n + 2, COMPILED)
    at: cython.int[::1] = at_buf  # type: ignore[assignment]
    by: cython.int[::1] = by_buf  # type: ignore[assignment]
    best: cython.int[::1] = best_buf  # type: ignore[assignment]
    last: cython.int[::1] = last_buf  # type: ignore[assignment]
    wide: cython.int[::1] = wide_buf  # type: ignore[assignment]
    keep: cython.int[::1] = keep_buf  # type: ignore[assignment]
    seen: cython.int[::1] = seen_buf  # type: ignore[assignment]
    touched: cython.int[::1] = touched_buf  # type: ignore[assignment]
    first: cython.int[::1] = start_buf  # type: ignore[assignment]
    link: cython.int[::1] = link_buf  # type: ignore[assignment]
    power: cython.longlong[::1] = pow_buf  # type: ignore[assignment]
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    k: cython.Py_ssize_t
    t: cython.Py_ssize_t
    u: cython.int
    v: cython.int
    lo: cython.Py_ssize_t
    hi: cython.Py_ssize_t
    wlo: cython.Py_ssize_t
    whi: cython.Py_ssize_t
    count: cython.int
    swap: cython.bint
    stamp: cython.int = 0
    cost: cython.longlong = 0
    least: cython.longlong
    before: cython.longlong
    after: cython.longlong
    move: cython.longlong
    total: cython.longlong = moves
    state: cython.ulonglong = (cython.cast(cython.ulonglong, seed) * SCRAMBLE + 1) & MASK64
    power[0] = 1
    for i in range(1, n + 2):
        power[i] = 3 * power[i - 1]
    for i in range(n):
        at[by[i]] = cython.cast(cython.int, i)
    for v in range(n):
        last[v] = at[v]
        for k in range(first[v], first[v + 1]):
            if at[link[k]] > last[v]:
                last[v] = at[link[k]]
        for i in range(at[v], last[v]):
            wide[i] += 1
    for i in range(n):
        cost += power[wide[i]]
    least = cost
    if n < 2:
        return [int(x) for x in by], int(cost)
    for move in range(total):
        state = _next(state)
        swap = (state >> 40) & 1 == 1
        i = cython.cast(cython.Py_ssize_t, (state >> 8) & 0xFFFFFFFF) % n
        state = _next(state)
        if (state >> 40) & 3 == 0:
            j = cython.cast(cython.Py_ssize_t, (state >> 8) & 0xFFFFFFFF) % (n - 1)
            if j >= i:
                j += 1
        else:
            j = i + cython.cast(cython.Py_ssize_t, (state >> 8) & 0xFFFFFFFF) % 12 - 6
            if j >= i:
                j += 1
            if j < 0 or j >= n:
                continue
        lo = i if i < j else j
        hi = j if i < j else i
        # The vertices whose interval may change: those moved and their neighbours.
        stamp += 1
        count = 0
        for t in range(lo, hi + 1):
            if swap and t != lo and t != hi:
                continue
            u = by[t]
            if seen[u] != stamp:
                seen[u] = stamp
                touched[count] = u
                count += 1
            for k in range(first[u], first[u + 1]):
                v = link[k]
                if seen[v] != stamp:
                    seen[v] = stamp
                    touched[count] = v
                    count += 1
        wlo = lo
        whi = hi
        for t in range(count):
            u = touched[t]
            if at[u] < wlo:
                wlo = at[u]
            if last[u] > whi:
                whi = last[u]
        before = 0
        for t in range(wlo, whi + 1):
            keep[t] = wide[t]
            before += power[wide[t]]
        for t in range(count):
            u = touched[t]
            for k in range(at[u], last[u]):
                wide[k] -= 1
        _move(by, at, swap, i, j)
        _intervals(touched, count, at, last, wide, first, link)
        after = 0
        for t in range(wlo, whi + 1):
            after += power[wide[t]]
        if (after - before) * 100 * total <= cost * (total - move):
            cost += after - before
            if cost < least:
                least = cost
                for t in range(n):
                    best[t] = by[t]
            continue
        # Back as it was.
        _move(by, at, swap, j, i)
        for t in range(count):
            u = touched[t]
            for k in range(at[u], last[u]):
                wide[k] -= 1
        _intervals(touched, count, at, last, wide, first, link)
        for t in range(wlo, whi + 1):
            wide[t] = keep[t]
    return [int(x) for x in best], int(least)


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _move(
    by: cython.int[::1],
    at: cython.int[::1],
    swap: cython.bint,
    i: cython.Py_ssize_t,
    j: cython.Py_ssize_t,
) -> cython.int:
    """Swap the vertices at places ``i`` and ``j``, or move the one at ``i`` to ``j``
    (those between shift by one); ``_move(.., j, i)`` undoes either."""
    t: cython.Py_ssize_t
    v: cython.int = by[i]
    if swap:
        by[i] = by[j]
        by[j] = v
        at[by[i]] = cython.cast(cython.int, i)
        at[v] = cython.cast(cython.int, j)
        return 0
    if i < j:
        for t in range(i, j):
            by[t] = by[t + 1]
            at[by[t]] = cython.cast(cython.int, t)
    else:
        for t in range(i, j, -1):
            by[t] = by[t - 1]
            at[by[t]] = cython.cast(cython.int, t)
    by[j] = v
    at[v] = cython.cast(cython.int, j)
    return 0


@cython.cfunc
@cython.exceptval(check=False)
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.initializedcheck(False)
def _intervals(
    touched: cython.int[::1],
    count: cython.int,
    at: cython.int[::1],
    last: cython.int[::1],
    wide: cython.int[::1],
    first: cython.int[::1],
    link: cython.int[::1],
) -> cython.int:
    """Recompute the last neighbour of each of ``touched[:count]`` and add its
    interval in the frontier back to ``wide``."""
    t: cython.Py_ssize_t
    k: cython.Py_ssize_t
    u: cython.int
    for t in range(count):
        u = touched[t]
        last[u] = at[u]
        for k in range(first[u], first[u + 1]):
            if at[link[k]] > last[u]:
                last[u] = at[link[k]]
        for k in range(at[u], last[u]):
            wide[k] += 1
    return 0
