"""A small conflict-driven clause-learning SAT solver (Cython pure mode, like the
engines), used to find one filling of a kakuro that the tree search cannot reach soon.

Literals are numbers: ``2 * v`` is variable ``v`` true, ``2 * v + 1`` it false.  The
solver is the textbook loop: unit propagation with two watched literals per clause;
at a conflict, the first-UIP clause is learnt (with its literals that other learnt
literals already imply left out), the search backs up to the level where that clause
forces its first literal, and the variables met are bumped (VSIDS, kept in a heap);
decisions take the most active free variable at its last value (false at first);
restarts follow the Luby sequence times ``RESTART_UNIT`` conflicts; when the learnt
clauses grow past a bar (as MiniSat sets it), half of those that span the most decision
levels are forgotten (Glucose's measure), which keeps propagation fast on long runs.
Nothing random, so one clause list always gives the same answer.  No recursion anywhere.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

import array
from collections.abc import Iterable

COMPILED: bool = cython.compiled

SAT = 1
UNSAT = 0
UNKNOWN = -1

RESTART_UNIT = 100
DECAY = 0.95
#: Learnt clauses are thinned when there are more than this many, or a third of the
#: problem's clauses if more; the bar then rises by a tenth each time.
KEEP_LEARNT = 20_000
KEEP_GROWTH = 1.1


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    size = 1
    while size < i:
        size = 2 * size + 1
    while size != i:
        size //= 2
        if i > size:
            i -= size
    return (size + 1) // 2


def _buffer(kind: str, size: int) -> object:
    if COMPILED:
        return array.array(kind, bytes(array.array(kind).itemsize * size))
    return [0.0 if kind == "d" else 0] * size


def _enlarged(buf: object, size: int) -> object:
    """A copy of ``buf`` (a typed memoryview's array, or a list) with room for ``size``."""
    base = getattr(buf, "base", buf)
    if isinstance(base, list):
        return base + [0] * (size - len(base))
    grown = array.array(base.typecode, base)
    grown.extend(array.array(base.typecode, bytes(grown.itemsize * (size - len(grown)))))
    return grown


@cython.cclass
class Solver:
    """A clause set over variables ``0 .. n - 1`` and the search for a model of it."""

    val: cython.int[::1]
    level: cython.int[::1]
    reason: cython.int[::1]
    phase: cython.int[::1]
    seen: cython.int[::1]
    trail: cython.int[::1]
    lim: cython.int[::1]
    learnt: cython.int[::1]
    lits: cython.int[::1]
    cstart: cython.int[::1]
    csize: cython.int[::1]
    clbd: cython.int[::1]
    stamp: cython.int[::1]
    wnext: cython.int[::1]
    whead: cython.int[::1]
    heap: cython.int[::1]
    hpos: cython.int[::1]
    act: cython.double[::1]

    n: cython.int
    ntrail: cython.int
    qhead: cython.int
    nlevels: cython.int
    nlits: cython.int
    nclauses: cython.int
    hsize: cython.int
    stamps: cython.int
    forgotten = cython.declare(cython.int, visibility="public")
    var_inc: cython.double
    restarts: cython.longlong
    originals: cython.int
    bar: cython.double
    ok: cython.bint
    conflicts = cython.declare(cython.longlong, visibility="public")
    decisions = cython.declare(cython.longlong, visibility="public")

    def __init__(self, n: int) -> None:
        self.n = n
        self.val = _buffer("i", n)
        self.level = _buffer("i", n)
        self.reason = _buffer("i", n)
        self.phase = _buffer("i", n)
        self.seen = _buffer("i", n)
        self.trail = _buffer("i", n)
        self.lim = _buffer("i", n + 1)
        self.learnt = _buffer("i", n + 16)
        self.lits = _buffer("i", 1024)
        self.cstart = _buffer("i", 256)
        self.csize = _buffer("i", 256)
        self.clbd = _buffer("i", 256)
        self.stamp = _buffer("i", n + 1)
        self.wnext = _buffer("i", 512)
        self.whead = _buffer("i", 2 * n)
        self.heap = _buffer("i", n)
        self.hpos = _buffer("i", n)
        self.act = _buffer("d", n)
        self.ntrail = self.qhead = self.nlevels = 0
        self.nlits = self.nclauses = 0
        self.stamps = self.forgotten = 0
        self.var_inc = 1.0
        # The search's place, kept between calls of solve(): restarts so far, the
        # clauses of the problem (-1 until the first call) and the learnt clauses' bar.
        self.restarts = 0
        self.originals = -1
        self.bar = 0.0
        self.ok = True
        self.conflicts = self.decisions = 0
        t: cython.int
        for t in range(2 * n):
            self.whead[t] = -1
        for t in range(n):
            self.reason[t] = -1
            self.heap[t] = t  # all activities are 0: any order is a heap
            self.hpos[t] = t
        self.hsize = n

    # -- building ------------------------------------------------------------------

    def add_clause(self, clause: Iterable[int]) -> None:
        """Add a clause (before solving): at least one of its literals must hold."""
        kept: list[int] = []
        for lit in clause:
            if not 0 <= lit < 2 * self.n:
                raise ValueError(f"literal {lit} is not one of the {self.n} variables'")
            if lit ^ 1 in kept:
                return  # a tautology
            if lit not in kept:
                kept.append(lit)
        for t, lit in enumerate(kept):
            self.learnt[t] = lit
        self.push(len(kept))

    def add_cells(self, cells: int) -> None:
        """Clauses that give each of ``cells`` kakuro cells exactly one digit: variable
        ``9 * c + d`` is cell ``c`` holding digit ``d + 1``."""
        c: cython.int
        d: cython.int
        e: cython.int
        for c in range(cells):
            for d in range(9):
                self.learnt[d] = 2 * (9 * c + d)
            self.push(9)
            for d in range(9):
                for e in range(d + 1, 9):
                    self.learnt[0] = 2 * (9 * c + d) + 1
                    self.learnt[1] = 2 * (9 * c + e) + 1
                    self.push(2)

    def add_run(self, cells: list[int], combos: list[int], first: int) -> None:
        """Clauses for a kakuro run over ``cells`` (numbers as in :meth:`add_cells`) whose
        digits must form one of ``combos`` (9-bit masks); variables ``first ..
        first + len(combos) - 1`` say which.  Exactly one combination is taken; a digit
        is in at most one cell; a digit of the combination taken is in some cell, one
        outside it in none."""
        length: cython.int = len(cells)
        count: cython.int = len(combos)
        base: cython.int = first
        i: cython.int
        j: cython.int
        k: cython.int
        d: cython.int
        size: cython.int
        for k in range(count):
            self.learnt[k] = 2 * (base + k)
        self.push(count)
        for k in range(count):
            for j in range(k + 1, count):
                self.learnt[0] = 2 * (base + k) + 1
                self.learnt[1] = 2 * (base + j) + 1
                self.push(2)
        for d in range(9):
            for i in range(length):
                for j in range(i + 1, length):
                    self.learnt[0] = 2 * (9 * cells[i] + d) + 1
                    self.learnt[1] = 2 * (9 * cells[j] + d) + 1
                    self.push(2)
            for k in range(count):
                if combos[k] >> d & 1:
                    self.learnt[0] = 2 * (base + k) + 1
                    for i in range(length):
                        self.learnt[1 + i] = 2 * (9 * cells[i] + d)
                    self.push(1 + length)
                else:
                    for i in range(length):
                        self.learnt[0] = 2 * (base + k) + 1
                        self.learnt[1] = 2 * (9 * cells[i] + d) + 1
                        self.push(2)
            for i in range(length):
                self.learnt[0] = 2 * (9 * cells[i] + d) + 1
                size = 1
                for k in range(count):
                    if combos[k] >> d & 1:
                        self.learnt[size] = 2 * (base + k)
                        size += 1
                self.push(size)

    def model(self) -> list[bool]:
        """After :meth:`solve` returned ``SAT``: the value of every variable."""
        return [self.val[t] == 1 for t in range(self.n)]

    @cython.cfunc
    def is_true(self, lit: cython.int) -> cython.bint:
        return self.val[lit >> 1] == 1 + (lit & 1)

    @cython.cfunc
    def is_false(self, lit: cython.int) -> cython.bint:
        return self.val[lit >> 1] == 2 - (lit & 1)

    @cython.cfunc
    def push(self, size: cython.int) -> cython.void:
        """Add the clause in ``learnt[0 .. size)`` at level 0: literals already false are
        left out and a clause already true is dropped; a clause of one literal is put on
        the trail (propagated when the search starts); none makes the set unsatisfiable."""
        keep: cython.int = 0
        t: cython.int
        lit: cython.int
        for t in range(size):
            lit = self.learnt[t]
            if self.is_true(lit):
                return
            if not self.is_false(lit):
                self.learnt[keep] = lit
                keep += 1
        if keep == 0:
            self.ok = False
        elif keep == 1:
            self.enqueue(self.learnt[0], -1)
        else:
            self.store(keep)

    @cython.cfunc
    def store(self, size: cython.int) -> cython.int:
        """Keep the clause held in ``learnt[0 .. size)``, watching its first two literals;
        returns its number."""
        ci: cython.int = self.nclauses
        if self.nlits + size > len(self.lits):
            self.lits = _enlarged(self.lits, 2 * (self.nlits + size))
        if ci == len(self.cstart):
            self.cstart = _enlarged(self.cstart, 2 * ci)
            self.csize = _enlarged(self.csize, 2 * ci)
            self.clbd = _enlarged(self.clbd, 2 * ci)
            self.wnext = _enlarged(self.wnext, 4 * ci)
        start: cython.int = self.nlits
        t: cython.int
        for t in range(size):
            self.lits[start + t] = self.learnt[t]
        self.cstart[ci] = start
        self.csize[ci] = size
        self.clbd[ci] = 0  # a clause of the problem: kept for good
        self.nlits = start + size
        self.nclauses = ci + 1
        for t in range(2):
            self.wnext[2 * ci + t] = self.whead[self.learnt[t]]
            self.whead[self.learnt[t]] = 2 * ci + t
        return ci

    @cython.cfunc
    def enqueue(self, lit: cython.int, why: cython.int) -> cython.void:
        v: cython.int = lit >> 1
        self.val[v] = 1 + (lit & 1)
        self.level[v] = self.nlevels
        self.reason[v] = why
        self.trail[self.ntrail] = lit
        self.ntrail += 1

    # -- the search ----------------------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.cfunc
    def propagate(self) -> cython.int:
        """Unit propagation of the trail from ``qhead``; a conflicting clause or -1."""
        val: cython.int[::1] = self.val
        lits: cython.int[::1] = self.lits
        cstart: cython.int[::1] = self.cstart
        csize: cython.int[::1] = self.csize
        clbd: cython.int[::1] = self.clbd
        wnext: cython.int[::1] = self.wnext
        whead: cython.int[::1] = self.whead
        p: cython.int
        f: cython.int
        s: cython.int
        nxt: cython.int
        prev: cython.int
        ci: cython.int
        j: cython.int
        st: cython.int
        k: cython.int
        end: cython.int
        lit: cython.int
        other: cython.int
        moved: cython.bint
        while self.qhead < self.ntrail:
            p = self.trail[self.qhead]
            self.qhead += 1
            f = p ^ 1  # the literal that just became false
            prev = -1
            s = whead[f]
            while s >= 0:
                nxt = wnext[s]
                ci = s >> 1
                if clbd[ci] < 0:  # deleted: unlink its watch on the way
                    if prev < 0:
                        whead[f] = nxt
                    else:
                        wnext[prev] = nxt
                    s = nxt
                    continue
                j = s & 1
                st = cstart[ci]
                other = lits[st + 1 - j]
                if val[other >> 1] == 1 + (other & 1):
                    prev = s
                    s = nxt
                    continue
                moved = False
                end = st + csize[ci]
                for k in range(st + 2, end):
                    lit = lits[k]
                    if val[lit >> 1] != 2 - (lit & 1):
                        lits[k] = f
                        lits[st + j] = lit
                        if prev < 0:
                            whead[f] = nxt
                        else:
                            wnext[prev] = nxt
                        wnext[s] = whead[lit]
                        whead[lit] = s
                        moved = True
                        break
                if moved:
                    s = nxt
                    continue
                prev = s
                if val[other >> 1] == 2 - (other & 1):
                    self.qhead = self.ntrail
                    return ci
                self.enqueue(other, ci)
                s = nxt
        return -1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.cfunc
    def analyze(self, confl: cython.int) -> cython.int:
        """Learn the first-UIP clause of conflict ``confl`` into ``learnt``; returns its
        size (the asserting literal first, one of the highest other level second)."""
        seen: cython.int[::1] = self.seen
        level: cython.int[::1] = self.level
        reason: cython.int[::1] = self.reason
        lits: cython.int[::1] = self.lits
        learnt: cython.int[::1] = self.learnt
        trail: cython.int[::1] = self.trail
        top: cython.int = self.nlevels
        paths: cython.int = 0
        p: cython.int = -1
        idx: cython.int = self.ntrail - 1
        size: cython.int = 1
        ci: cython.int = confl
        k: cython.int
        q: cython.int
        v: cython.int
        st: cython.int
        keep: cython.int
        best: cython.int
        redundant: cython.bint
        while True:
            st = self.cstart[ci]
            for k in range(st, st + self.csize[ci]):
                q = lits[k]
                v = q >> 1
                if p >= 0 and v == p >> 1:
                    continue
                if seen[v] == 0 and level[v] > 0:
                    self.bump(v)
                    seen[v] = 1
                    if level[v] >= top:
                        paths += 1
                    else:
                        learnt[size] = q
                        size += 1
            while seen[trail[idx] >> 1] == 0:
                idx -= 1
            p = trail[idx]
            idx -= 1
            ci = reason[p >> 1]
            seen[p >> 1] = 0
            paths -= 1
            if paths <= 0:
                break
        learnt[0] = p ^ 1
        # Leave out a literal whose reason's other literals are all in the clause
        # (marked 2; reasons come before what they imply, so marks cannot go round).
        for k in range(1, size):
            v = learnt[k] >> 1
            if reason[v] < 0:
                continue
            redundant = True
            st = self.cstart[reason[v]]
            for q in range(st, st + self.csize[reason[v]]):
                if lits[q] >> 1 != v and seen[lits[q] >> 1] == 0 and level[lits[q] >> 1] > 0:
                    redundant = False
                    break
            if redundant:
                seen[v] = 2
        keep = 1
        for k in range(1, size):
            v = learnt[k] >> 1
            if seen[v] != 2:
                learnt[keep] = learnt[k]
                keep += 1
            seen[v] = 0
        best = 1
        for k in range(2, keep):
            if level[learnt[k] >> 1] > level[learnt[best] >> 1]:
                best = k
        if keep > 1:
            q = learnt[1]
            learnt[1] = learnt[best]
            learnt[best] = q
        return keep

    @cython.cfunc
    def cancel_until(self, target: cython.int) -> cython.void:
        t: cython.int
        v: cython.int
        if self.nlevels <= target:
            return
        for t in range(self.ntrail - 1, self.lim[target] - 1, -1):
            v = self.trail[t] >> 1
            self.phase[v] = self.val[v]
            self.val[v] = 0
            self.reason[v] = -1
            if self.hpos[v] < 0:
                self.heap_insert(v)
        self.ntrail = self.qhead = self.lim[target]
        self.nlevels = target

    @cython.cfunc
    def bump(self, v: cython.int) -> cython.void:
        t: cython.int
        self.act[v] += self.var_inc
        if self.act[v] > 1e100:
            for t in range(self.n):
                self.act[t] *= 1e-100
            self.var_inc *= 1e-100
        if self.hpos[v] >= 0:
            self.sift_up(self.hpos[v])

    @cython.cfunc
    def sift_up(self, i: cython.int) -> cython.void:
        v: cython.int = self.heap[i]
        a: cython.double = self.act[v]
        parent: cython.int
        while i > 0:
            parent = (i - 1) >> 1
            if self.act[self.heap[parent]] >= a:
                break
            self.heap[i] = self.heap[parent]
            self.hpos[self.heap[i]] = i
            i = parent
        self.heap[i] = v
        self.hpos[v] = i

    @cython.cfunc
    def heap_insert(self, v: cython.int) -> cython.void:
        self.heap[self.hsize] = v
        self.hpos[v] = self.hsize
        self.hsize += 1
        self.sift_up(self.hsize - 1)

    @cython.cfunc
    def heap_pop(self) -> cython.int:
        """The most active variable, taken out of the heap."""
        top: cython.int = self.heap[0]
        v: cython.int
        i: cython.int = 0
        child: cython.int
        a: cython.double
        self.hpos[top] = -1
        self.hsize -= 1
        if self.hsize > 0:
            v = self.heap[self.hsize]
            a = self.act[v]
            while True:
                child = 2 * i + 1
                if child >= self.hsize:
                    break
                if (
                    child + 1 < self.hsize
                    and self.act[self.heap[child + 1]] > self.act[self.heap[child]]
                ):
                    child += 1
                if self.act[self.heap[child]] <= a:
                    break
                self.heap[i] = self.heap[child]
                self.hpos[self.heap[i]] = i
                i = child
            self.heap[i] = v
            self.hpos[v] = i
        return top

    @cython.cfunc
    def lbd(self, size: cython.int) -> cython.int:
        """How many decision levels the clause in ``learnt[0 .. size)`` spans (its
        "literal block distance": the fewer, the more useful the clause tends to be)."""
        t: cython.int
        lv: cython.int
        count: cython.int = 0
        self.stamps += 1
        for t in range(size):
            lv = self.level[self.learnt[t] >> 1]
            if self.stamp[lv] != self.stamps:
                self.stamp[lv] = self.stamps
                count += 1
        return count

    def reduce(self) -> None:
        """Forget half of the learnt clauses that span more than two levels, those
        spanning the most first, but none that is the reason of a current value (their
        watches are unlinked as propagation meets them)."""
        candidates = []
        ci: cython.int
        v: cython.int
        t: cython.int
        locked: cython.bint
        for ci in range(self.nclauses):
            if self.clbd[ci] <= 2:
                continue
            locked = False
            for t in range(2):
                v = self.lits[self.cstart[ci] + t] >> 1
                if self.val[v] != 0 and self.reason[v] == ci:
                    locked = True
            if not locked:
                candidates.append((-self.clbd[ci], -self.csize[ci], ci))
        candidates.sort()
        for _, _, ci in candidates[: len(candidates) // 2]:
            self.clbd[ci] = -1
            self.forgotten += 1

    def solve(self, max_conflicts: int) -> int:
        """Search for a model: ``SAT``, ``UNSAT``, or ``UNKNOWN`` once ``max_conflicts``
        conflicts have been met in all (0: no limit).  After ``UNKNOWN`` a call with a
        higher limit goes on where the search stopped (learnt clauses, activities,
        restarts and the learnt clauses' bar kept), so a long search can run in slices
        with the caller's signal handlers between them; add no clause in between."""
        if not self.ok or self.propagate() >= 0:
            self.ok = False
            return UNSAT
        if self.originals < 0:
            self.originals = self.nclauses
            self.bar = max(KEEP_LEARNT, self.originals / 3)
        restarts: cython.longlong = self.restarts
        originals: cython.int = self.originals
        bar: cython.double = self.bar
        allowed: cython.longlong
        since: cython.longlong
        confl: cython.int
        size: cython.int
        ci: cython.int
        v: cython.int
        while True:
            restarts += 1
            self.restarts = restarts
            allowed = RESTART_UNIT * luby(restarts)
            since = 0
            while True:
                confl = self.propagate()
                if confl >= 0:
                    self.conflicts += 1
                    since += 1
                    if self.nlevels == 0:
                        self.ok = False
                        return UNSAT
                    size = self.analyze(confl)
                    if size == 1:
                        self.cancel_until(0)
                        self.enqueue(self.learnt[0], -1)
                    else:
                        self.cancel_until(self.level[self.learnt[1] >> 1])
                        ci = self.store(size)
                        self.clbd[ci] = self.lbd(size)
                        self.enqueue(self.learnt[0], ci)
                    self.var_inc /= DECAY
                    if self.nclauses - originals - self.forgotten > bar:
                        self.reduce()
                        bar *= KEEP_GROWTH
                        self.bar = bar
                    if max_conflicts and self.conflicts >= max_conflicts:
                        self.cancel_until(0)
                        return UNKNOWN
                elif since >= allowed:
                    self.cancel_until(0)
                    break
                else:
                    v = -1
                    while self.hsize > 0:
                        v = self.heap_pop()
                        if self.val[v] == 0:
                            break
                        v = -1
                    if v < 0:
                        return SAT
                    self.decisions += 1
                    self.lim[self.nlevels] = self.ntrail
                    self.nlevels += 1
                    self.enqueue(2 * v + (0 if self.phase[v] == 1 else 1), -1)
