"""A small conflict-driven clause-learning SAT solver (Cython pure mode, like the
engines), used to find one filling of a kakuro that the tree search cannot reach soon.

Literals are numbers: ``2 * v`` is variable ``v`` true, ``2 * v + 1`` it false.  The
solver is the textbook loop: unit propagation, with the problem's two-literal clauses
in a table by literal and two watched literals (each with a blocker) for the others;
at a conflict, the first-UIP clause is learnt (with its literals that other learnt
literals already imply left out), the search backs up to the level where that clause
forces its first literal, and the variables met are bumped (VSIDS, kept in a heap).
The search switches between two modes, as CaDiCaL and Kissat do: *focused*, which
restarts when the glue (LBD) of recent learnt clauses runs above its long-run average
(Glucose) and decides each variable at its last value (phase saving); and *stable*,
which restarts on the Luby sequence times ``RESTART_UNIT`` conflicts and decides each
variable at its value in the longest conflict-free trail since the last restart (the
target phase).  On the random 40x40 kakuro every first filling seen was found in a
stable phase, but the focused phases' clauses are needed: either mode alone took more
conflicts.  When the learnt clauses grow past a bar (as MiniSat sets it), half of those
that span the most decision levels are forgotten (Glucose's measure), which keeps
propagation fast on long runs.  Every so often (at a restart after 1,000, 2,000,
3,000 ... more conflicts) the saved and target phases are *rephased*, as CaDiCaL and
Kissat do, to the values of the longest conflict-free trail since the last time
(:data:`REPHASE_CYCLE` can add all false, all true and random values in turn), which
takes the search off a path it keeps coming back to.  The random phases are a
fixed xorshift sequence, so one clause list always gives the same answer, compiled or
not.  No recursion anywhere.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import array
from collections.abc import Iterable

COMPILED: bool = cython.compiled

SAT = 1
UNSAT = 0
UNKNOWN = -1

#: Stable mode restarts after ``RESTART_UNIT`` times the next Luby term conflicts.
RESTART_UNIT = 512
DECAY = 0.95
#: Focused mode restarts when the glue (LBD) of recent learnt clauses, an average with
#: weight ``FAST`` per conflict, exceeds ``MARGIN`` times the long-run one (weight
#: ``SLOW``), and at least ``RESTART_MIN`` conflicts came since the last restart.
FAST: cython.double = 0.03125
SLOW: cython.double = 0.000244140625
MARGIN: cython.double = 1.1
RESTART_MIN = 20
#: The search starts focused; it switches between the modes after this many conflicts,
#: then after twice as many each time the switch comes back to focused.
MODE_FIRST = 2_000
#: Learnt clauses are thinned when there are more than this many, or a third of the
#: problem's clauses if more; the bar then rises by a tenth each time.
KEEP_LEARNT = 20_000
KEEP_GROWTH = 1.1
#: Saved and target phases are reset (rephased) at the first restart after
#: ``REPHASE_UNIT`` times the number of rephases so far plus one conflicts, in the
#: cycle of :data:`REPHASE_CYCLE`.
REPHASE_UNIT = 1_000
#: B: the best trail's values (the longest conflict-free one since the last reset),
#: O: every variable false (the start), I: every variable true, R: random (a fixed
#: xorshift sequence, so still deterministic).  Best alone does best on the random
#: grids (conflicts to a first filling, one numbering each): rand_40 112k, 54k, 198k
#: against 141k, >400k, >400k with "BOBIBR" (CaDiCaL's kinds, less its local search)
#: and 110k, 289k, 349k with no rephasing; rand_50 16k, 270k, 56k, 100k against 99k,
#: 380k, 197k, 98k and >400k, >400k, 27k, >400k.
REPHASE_CYCLE = "B"


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
    target: cython.int[::1]
    best: cython.int[::1]
    seen: cython.int[::1]
    trail: cython.int[::1]
    lim: cython.int[::1]
    learnt: cython.int[::1]
    lits: cython.int[::1]
    cstart: cython.int[::1]
    csize: cython.int[::1]
    clbd: cython.int[::1]
    stamp: cython.int[::1]
    wnode: cython.int[::1]
    whead: cython.int[::1]
    bstart: cython.int[::1]
    bother: cython.int[::1]
    bclause: cython.int[::1]
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
    restarts = cython.declare(cython.longlong, visibility="public")
    switches = cython.declare(cython.longlong, visibility="public")
    stable: cython.bint
    luby_index: cython.longlong
    next_switch: cython.longlong
    mode_length: cython.longlong
    since: cython.longlong
    target_size: cython.int
    best_size: cython.int
    rephases = cython.declare(cython.longlong, visibility="public")
    next_rephase: cython.longlong
    rng: cython.ulonglong
    fast_sum: cython.double
    fast_rest: cython.double
    slow_sum: cython.double
    slow_rest: cython.double
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
        self.target = _buffer("i", n)
        self.best = _buffer("i", n)
        self.seen = _buffer("i", n)
        self.trail = _buffer("i", n)
        self.lim = _buffer("i", n + 1)
        self.learnt = _buffer("i", n + 16)
        self.lits = _buffer("i", 1024)
        self.cstart = _buffer("i", 256)
        self.csize = _buffer("i", 256)
        self.clbd = _buffer("i", 256)
        self.stamp = _buffer("i", n + 1)
        self.wnode = _buffer("i", 1024)
        self.whead = _buffer("i", 2 * n)
        self.bstart = _buffer("i", 2 * n + 1)
        self.bother = _buffer("i", 0)
        self.bclause = _buffer("i", 0)
        self.heap = _buffer("i", n)
        self.hpos = _buffer("i", n)
        self.act = _buffer("d", n)
        self.ntrail = self.qhead = self.nlevels = 0
        self.nlits = self.nclauses = 0
        self.stamps = self.forgotten = 0
        self.var_inc = 1.0
        # The search's place, kept between calls of solve(): restarts so far, the
        # clauses of the problem (-1 until the first call) and the learnt clauses' bar.
        self.restarts = self.switches = 0
        self.stable = False
        self.luby_index = 0
        self.next_switch = MODE_FIRST
        self.mode_length = MODE_FIRST
        self.since = 0
        self.target_size = self.best_size = 0
        self.rephases = 0
        self.next_rephase = REPHASE_UNIT
        self.rng = 88172645463325252
        self.fast_sum = self.slow_sum = 0.0
        self.fast_rest = self.slow_rest = 1.0
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

    def add_one_of(self, lits: list[int]) -> None:
        """Add clauses (before solving) that make exactly one of ``lits`` hold: the
        clause of them all, and one of two negations for each pair (unit propagation
        then makes all the others false once one holds)."""
        size: cython.int = len(lits)
        i: cython.int
        j: cython.int
        for i in range(size):
            if not 0 <= lits[i] < 2 * self.n:
                raise ValueError(f"literal {lits[i]} is not one of the {self.n} variables'")
        if size + 16 > len(self.learnt):
            self.learnt = _enlarged(self.learnt, size + 16)
        for i in range(size):
            self.learnt[i] = lits[i]
        self.push(size)
        for i in range(size):
            for j in range(i + 1, size):
                self.learnt[0] = lits[i] ^ 1
                self.learnt[1] = lits[j] ^ 1
                self.push(2)

    def prefer(self, lits: list[int]) -> None:
        """Decide each variable of ``lits`` first the way that makes the literal hold
        (its saved, target and best phases set so), for a search that looks for a model
        near a known assignment (the sudoku generator starts from its full grid)."""
        t: cython.int
        v: cython.int
        for t in range(len(lits)):
            if not 0 <= lits[t] < 2 * self.n:
                raise ValueError(f"literal {lits[t]} is not one of the {self.n} variables'")
            v = lits[t] >> 1
            self.phase[v] = 1 + (lits[t] & 1)
            self.target[v] = self.phase[v]
            self.best[v] = self.phase[v]

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
        first + len(combos) - 1`` say which, and the next 9 whether the run uses digit
        1 .. 9.  Exactly one combination is taken; a digit is in at most one cell; the
        run uses a digit exactly when some cell holds it, and exactly when the
        combination taken has it.

        The digit variables make unit propagation stronger than clauses between cells
        and combinations only: when every combination left has a digit, the run uses
        it, so the one cell left that can hold it does (the tree's arc consistency
        finds that).  On the random 40x40 grid (8 relabellings) they took the
        conflicts to a first filling from about 420,000 to 255,000 on average."""
        length: cython.int = len(cells)
        count: cython.int = len(combos)
        base: cython.int = first
        i: cython.int
        j: cython.int
        k: cython.int
        d: cython.int
        size: cython.int
        used: cython.int
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
            used = base + count + d
            # The run uses digit d: some cell holds it, and a cell holding it says so.
            self.learnt[0] = 2 * used + 1
            for i in range(length):
                self.learnt[1 + i] = 2 * (9 * cells[i] + d)
            self.push(1 + length)
            for i in range(length):
                self.learnt[0] = 2 * (9 * cells[i] + d) + 1
                self.learnt[1] = 2 * used
                self.push(2)
            # ... exactly when the combination taken has it.
            for k in range(count):
                self.learnt[0] = 2 * (base + k) + 1
                self.learnt[1] = 2 * used + (0 if combos[k] >> d & 1 else 1)
                self.push(2)
            for j in range(2):
                self.learnt[0] = 2 * used + 1 - j
                size = 1
                for k in range(count):
                    if (combos[k] >> d & 1) != j:
                        self.learnt[size] = 2 * (base + k)
                        size += 1
                self.push(size)
        # Each cell holds a digit of the combination taken: implied by the clauses above,
        # but with it the combination is ruled out as soon as one cell has none of its
        # digits left (unit propagation alone would wait for a conflict).
        for k in range(count):
            for i in range(length):
                self.learnt[0] = 2 * (base + k) + 1
                size = 1
                for d in range(9):
                    if combos[k] >> d & 1:
                        self.learnt[size] = 2 * (9 * cells[i] + d)
                        size += 1
                self.push(size)

    def fixed(self) -> list[int] | None:
        """The literals that hold before any decision: the unit clauses and what unit
        propagation draws from them, in the order found; None when it meets a
        conflict (there is no model).  Add no clause after this."""
        if self.originals < 0:
            self.start()
        if not self.ok or self.propagate() >= 0:
            self.ok = False
            return None
        end: cython.int = self.lim[0] if self.nlevels > 0 else self.ntrail
        return [self.trail[t] for t in range(end)]

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
            self.wnode = _enlarged(self.wnode, 8 * ci)
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
            self.watch(2 * ci + t, self.learnt[t], self.learnt[1 - t])
        return ci

    @cython.cfunc
    def watch(self, s: cython.int, lit: cython.int, blocker: cython.int) -> cython.void:
        """Put watch ``s`` (clause ``s >> 1``'s literal ``s & 1``) at the head of the list
        of ``lit``, with ``blocker``, a literal of the clause: while it is true the
        clause is satisfied and propagation passes by without reading it."""
        self.wnode[2 * s] = self.whead[lit]
        self.wnode[2 * s + 1] = blocker
        self.whead[lit] = s

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
        wnode: cython.int[::1] = self.wnode
        whead: cython.int[::1] = self.whead
        bstart: cython.int[::1] = self.bstart
        bother: cython.int[::1] = self.bother
        bclause: cython.int[::1] = self.bclause
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
            for k in range(bstart[f], bstart[f + 1]):
                other = bother[k]
                if val[other >> 1] == 0:
                    self.enqueue(other, bclause[k])
                elif val[other >> 1] == 2 - (other & 1):
                    self.qhead = self.ntrail
                    return bclause[k]
            prev = -1
            s = whead[f]
            while s >= 0:
                nxt = wnode[2 * s]
                lit = wnode[2 * s + 1]
                if val[lit >> 1] == 1 + (lit & 1):  # the blocker holds
                    prev = s
                    s = nxt
                    continue
                ci = s >> 1
                j = s & 1
                st = cstart[ci]
                other = lits[st + 1 - j]
                if val[other >> 1] == 1 + (other & 1):
                    wnode[2 * s + 1] = other
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
                            wnode[2 * prev] = nxt
                        wnode[2 * s] = whead[lit]
                        wnode[2 * s + 1] = other
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
        spanning the most first, but none that is the reason of a current value; the
        watch lists are then built afresh without them."""
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
        self.rewatch()

    def start(self) -> None:
        """Before the first propagation: the clauses so far are the problem's; its
        clauses of two literals leave the watch lists for a table by literal of the
        literal each implies (read in order, no clause touched: most of a kakuro's
        clauses have two literals)."""
        self.originals = self.nclauses
        self.bar = max(KEEP_LEARNT, self.originals / 3)
        count = [0] * (2 * self.n + 1)
        ci: cython.int
        t: cython.int
        st: cython.int
        for ci in range(self.nclauses):
            if self.csize[ci] == 2:
                st = self.cstart[ci]
                count[self.lits[st]] += 1
                count[self.lits[st + 1]] += 1
        total = 0
        for t in range(2 * self.n):
            self.bstart[t] = total
            total += count[t]
            count[t] = self.bstart[t]
        self.bstart[2 * self.n] = total
        self.bother = _buffer("i", total)
        self.bclause = _buffer("i", total)
        for ci in range(self.nclauses):
            st = self.cstart[ci]
            if self.csize[ci] == 2:
                for t in range(2):
                    self.bother[count[self.lits[st + t]]] = self.lits[st + 1 - t]
                    self.bclause[count[self.lits[st + t]]] = ci
                    count[self.lits[st + t]] += 1
        self.rewatch()

    def rewatch(self) -> None:
        """Build the watch lists afresh: both watched literals of every clause kept,
        except the problem's two-literal ones (in the table by literal)."""
        ci: cython.int
        st: cython.int
        t: cython.int
        for t in range(2 * self.n):
            self.whead[t] = -1
        for ci in range(self.nclauses):
            if self.clbd[ci] < 0 or (ci < self.originals and self.csize[ci] == 2):
                continue
            st = self.cstart[ci]
            for t in range(2):
                self.watch(2 * ci + t, self.lits[st + t], self.lits[st + 1 - t])

    @cython.cfunc
    def keep_best(self) -> cython.void:
        """At a conflict (either mode): when the trail below the conflict's level is the
        longest since the last rephase to best, keep its values as the best phases."""
        safe: cython.int = self.lim[self.nlevels - 1]
        t: cython.int
        v: cython.int
        if safe <= self.best_size:
            return
        for t in range(safe):
            v = self.trail[t] >> 1
            self.best[v] = self.val[v]
        self.best_size = safe

    @cython.cfunc
    def rephase(self) -> cython.void:
        """Reset the saved and target phases, at level 0, to the next kind in
        :data:`REPHASE_CYCLE`."""
        kind: cython.int = ord(REPHASE_CYCLE[self.rephases % len(REPHASE_CYCLE)])
        v: cython.int
        x: cython.ulonglong
        self.rephases += 1
        self.next_rephase = self.conflicts + REPHASE_UNIT * (self.rephases + 1)
        for v in range(self.n):
            if kind == 66:  # B
                if self.best[v] != 0:
                    self.phase[v] = self.best[v]
            elif kind == 79:  # O
                self.phase[v] = 2
            elif kind == 73:  # I
                self.phase[v] = 1
            else:
                x = self.rng
                x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
                x ^= x >> 7
                x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
                self.rng = x
                self.phase[v] = 1 + (x >> 40 & 1)
            self.target[v] = self.phase[v]
        if kind == 66:
            self.best_size = 0
        self.target_size = 0

    @cython.cfunc
    def keep_target(self) -> cython.void:
        """Stable mode, at a conflict: when the trail below the conflict's level (values
        that raised no conflict) is the longest since the last restart, keep its values
        as the target phases that decisions follow."""
        safe: cython.int = self.lim[self.nlevels - 1]
        t: cython.int
        v: cython.int
        if safe <= self.target_size:
            return
        for t in range(safe):
            v = self.trail[t] >> 1
            self.target[v] = self.val[v]
        self.target_size = safe

    @cython.cfunc
    def restart_due(self) -> cython.bint:
        """Whether to restart now: in stable mode after the Luby term's share of
        conflicts, in focused mode when recent glue runs high against the long run."""
        if self.stable:
            return self.since >= RESTART_UNIT * luby(self.luby_index)
        if self.since < RESTART_MIN:
            return False
        # Exponential averages, each divided by its weight so far (no bias to 0 early).
        fast: cython.double = self.fast_sum / (1.0 - self.fast_rest)
        slow: cython.double = self.slow_sum / (1.0 - self.slow_rest)
        return fast > MARGIN * slow

    @cython.cfunc
    def restart(self) -> cython.void:
        """Back to level 0; switch modes when it is time (a stable phase starts its Luby
        sequence and its target afresh)."""
        self.cancel_until(0)
        self.restarts += 1
        self.since = 0
        self.target_size = 0
        if self.stable:
            self.luby_index += 1
        if self.conflicts >= self.next_switch:
            self.stable = not self.stable
            self.switches += 1
            if not self.stable:
                self.mode_length *= 2
            self.next_switch = self.conflicts + self.mode_length
            self.luby_index = 1
        if self.conflicts >= self.next_rephase:
            self.rephase()

    def solve(self, max_conflicts: int) -> int:
        """Search for a model: ``SAT``, ``UNSAT``, or ``UNKNOWN`` once ``max_conflicts``
        conflicts have been met in all (0: no limit).  After ``UNKNOWN`` a call with a
        higher limit goes on where the search stopped (learnt clauses, activities,
        phases, mode, restart averages and the learnt clauses' bar kept), so a long
        search can run in slices with the caller's signal handlers between them; add no
        clause in between."""
        if self.originals < 0:
            self.start()
        if not self.ok or self.propagate() >= 0:
            self.ok = False
            return UNSAT
        originals: cython.int = self.originals
        bar: cython.double = self.bar
        confl: cython.int
        size: cython.int
        glue: cython.int
        ci: cython.int
        v: cython.int
        while True:
            confl = self.propagate()
            if confl >= 0:
                self.conflicts += 1
                self.since += 1
                if self.nlevels == 0:
                    self.ok = False
                    return UNSAT
                if self.stable:
                    self.keep_target()
                self.keep_best()
                size = self.analyze(confl)
                if size == 1:
                    glue = 1
                    self.cancel_until(0)
                    self.enqueue(self.learnt[0], -1)
                else:
                    glue = self.lbd(size)
                    self.cancel_until(self.level[self.learnt[1] >> 1])
                    ci = self.store(size)
                    self.clbd[ci] = glue
                    self.enqueue(self.learnt[0], ci)
                self.fast_sum += FAST * (glue - self.fast_sum)
                self.fast_rest *= 1.0 - FAST
                self.slow_sum += SLOW * (glue - self.slow_sum)
                self.slow_rest *= 1.0 - SLOW
                self.var_inc /= DECAY
                if self.nclauses - originals - self.forgotten > bar:
                    self.reduce()
                    bar *= KEEP_GROWTH
                    self.bar = bar
                if max_conflicts and self.conflicts >= max_conflicts:
                    self.cancel_until(0)
                    return UNKNOWN
            elif self.restart_due():
                self.restart()
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
                if self.stable and self.target[v] != 0:
                    self.enqueue(2 * v + (0 if self.target[v] == 1 else 1), -1)
                else:
                    self.enqueue(2 * v + (0 if self.phase[v] == 1 else 1), -1)
