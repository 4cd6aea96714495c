"""Kakuro as an explicit-stack machine with propagation (Cython pure mode, like the
other engines).

The engine sees only numbers: ``n`` empty cells, and runs, each a list of cells, a sum
still to make and the digits the givens already use.  ``COMBOS[length][sum]`` (built
once) lists every set of ``length`` distinct digits adding up to ``sum`` as a 9-bit mask;
each run keeps the ones that avoid its givens.  Every cell has a *domain*: the bitmask of
digits it may still take.

Propagation runs to a fixed point after every choice, and every domain change goes on a
trail, so backing up restores the domains exactly.  Revising a run makes it arc
consistent: a digit stays in a cell only if some filling of the whole run (distinct
digits from the cells' domains, forming one of the run's combinations) puts it there.
That one rule covers the usual kakuro deductions: a digit fixed in one cell leaves the
run's other cells, a sum reachable only by some combinations narrows every cell to
them, and a digit the run needs that only one cell can take is fixed there.  A cell
whose domain changes wakes its other runs: a kakuro cell lies in two runs, a killer
sudoku cell in four (its row, column, box and cage) or more, and the engine takes any
number.

Level ``L`` of the stack branches on the cell with the smallest domain of two digits or
more (the first in reading order among equals; the first with two digits is taken at
once), trying its digits smallest first.  A node whose propagation failed has no children;
a node where every domain holds one digit is a solution (every run is consistent, so its
digits are distinct and add up).  The domains at a node depend only on the choices above
it, so the tree is the same however a node is reached.

A *guide* (a digit per cell, usually a solution found by :mod:`._cdcl`) changes only the
order of the children: a cell's guide digit, when still in its domain, is tried first.
The nodes of the tree stay the same; when the guide is a solution the first path leads
straight to it, since propagation never removes a digit of a solution that agrees with
every choice made.  The guide ``REFUTED`` says the puzzle has no filling (the SAT search
proved it): the root is then a dead end.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import itertools
from collections.abc import Sequence

from lazysearch.engine import _buffers, _machine
from lazysearch.engine.states import CUT as CUT  # the states, for this engine's users
from lazysearch.engine.states import DONE as DONE
from lazysearch.engine.states import ENTER as ENTER
from lazysearch.engine.states import LEAF as LEAF
from lazysearch.engine.states import SOLUTION as SOLUTION
from lazysearch.sums._combos import COMBOS as COMBOS  # for this engine's users too
from lazysearch.sums._combos import REFUTED as REFUTED
from lazysearch.sums._combos import run_combos as run_combos

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.engine._machine import Machine
else:
    Machine = _machine.plain()

# A run's kind (rkind).
WALK = 0
HOUSE = 1
SUM = 2
CAGE = 3

_TABLES: dict[bool, tuple[object, object]] = {}


def _shared_tables() -> tuple[object, object]:
    """Popcount and n-th digit of every mask, built once per build mode."""
    if COMPILED not in _TABLES:
        counts = [bin(m).count("1") for m in range(512)]
        nth = [0] * (512 * 9)
        for m in range(512):
            for k, d in enumerate(d + 1 for d in range(9) if m >> d & 1):
                nth[m * 9 + k] = d
        _TABLES[COMPILED] = (_buffers.ints(counts, COMPILED), _buffers.ints(nth, COMPILED))
    return _TABLES[COMPILED]


@cython.cclass
class KakuroEngine(Machine):
    """The filling machine for one puzzle, as numbers, on the shared stack
    (:class:`lazysearch.engine._machine.Machine`: ``x[t]`` is the cell fixed at
    level ``t``, ``k[t]`` the index of its digit among ``d[t]``).

    ``runs`` holds, for each run, its empty cells (numbers ``0 .. n - 1``), the sum they
    must make and the mask of digits the givens already use in it.

    Two more kinds of constraint serve killer sudoku (kakuro passes neither):
    ``houses`` names runs whose cells take each digit of one set exactly once (a row,
    column or box: a run with a single combination and as many cells as digits); they
    are revised by all-different reasoning on bitmasks (naked and hidden singles, naked
    pairs) instead of the walk of partial fillings, a few passes over the cells in place
    of up to 512 sets.  ``sums`` are extra runs ``(cells, total)`` whose digits need not
    differ (the 45 rule's innies and outies): revised by bounds, each cell's digits kept
    between what the others' smallest and largest digits leave.  Beside houses, the
    ordinary runs (cages) are revised by their combinations instead of the walk: for
    each combination, the cells keep its digits narrowed by singles, and a cell keeps
    the union over the combinations left; a run whose cells all lie in a house takes the
    digits every combination left needs from the house's other cells.  Each rule is
    sound, none is arc consistency, so a tree with houses may differ from one without.
    """

    popcount: cython.int[::1]
    nth: cython.int[::1]
    dom: cython.int[::1]
    rstart: cython.int[::1]
    rcells: cython.int[::1]
    cstart: cython.int[::1]
    combos: cython.int[::1]
    cellstart: cython.int[::1]
    cellruns: cython.int[::1]
    queue: cython.int[::1]
    quick: cython.int[::1]
    queued: cython.int[::1]
    tcell: cython.int[::1]
    tdom: cython.int[::1]
    tmark: cython.int[::1]
    maskat: cython.int[::1]
    states: cython.int[::1]
    fmark: cython.longlong[::1]
    bmark: cython.longlong[::1]
    layer: cython.int[::1]
    support: cython.int[::1]
    guide: cython.int[::1]
    rkind: cython.int[::1]
    rvalue: cython.int[::1]
    hstart: cython.int[::1]
    hlist: cython.int[::1]
    cmark: cython.longlong[::1]

    stamp: cython.longlong
    n: cython.int
    n_runs: cython.int
    trail: cython.int
    failed: cython.bint
    refuted: cython.bint
    root_failed: cython.bint
    children: cython.int

    def __init__(
        self,
        n: int,
        runs: Sequence[tuple[Sequence[int], int, int]],
        guide: Sequence[int] = (),
        houses: Sequence[int] = (),
        sums: Sequence[tuple[Sequence[int], int]] = (),
    ):
        self.n = n
        # REFUTED: the puzzle is known to have no filling; the root is a dead end.
        self.refuted = tuple(guide) == REFUTED
        # A digit per cell tried before the others (0, or no guide: smallest first).
        self.guide = _buffers.ints(
            [1 << (d - 1) if 1 <= d <= 9 else 0 for d in guide] + [0] * (n + 1 - len(guide)),
            COMPILED,
        )
        self.n_runs = len(runs) + len(sums)
        self.popcount, self.nth = _shared_tables()
        rstart = [0]
        rcells: list[int] = []
        cstart = [0]
        combos: list[int] = []
        cell_runs: list[list[int]] = [[] for _ in range(n)]
        # A run's kind: WALK (partial fillings), HOUSE (all different, one digit set:
        # rvalue its mask) or SUM (digits may repeat, bounds only: rvalue its total).
        kind = [WALK] * self.n_runs
        value = [0] * self.n_runs
        for r, (cells, total, used) in enumerate(runs):
            rcells.extend(cells)
            rstart.append(len(rcells))
            masks = run_combos(len(cells), total, used)
            combos.extend(masks)
            cstart.append(len(combos))
            for c in cells:
                cell_runs[c].append(r)
        for r in houses:
            cells, total, used = runs[r]
            masks = run_combos(len(cells), total, used)
            if len(masks) != 1:
                raise ValueError(
                    f"run {r} is no house: {len(cells)} cells making {total} without the "
                    f"digits of mask {used} can take {len(masks)} digit sets, not one"
                )
            kind[r] = HOUSE
            value[r] = masks[0]
        for r, (cells, total) in enumerate(sums, start=len(runs)):
            rcells.extend(cells)
            rstart.append(len(rcells))
            cstart.append(len(combos))
            kind[r] = SUM
            value[r] = total
            for c in cells:
                cell_runs[c].append(r)
        # In an engine with houses, each run of distinct digits is revised by its
        # combinations (CAGE) instead of the walk, and lists the houses that hold all
        # its cells (the digits it needs leave their other cells).
        inside: list[list[int]] = [[] for _ in range(self.n_runs)]
        if houses:
            # The houses of each cell, as sets: a run's houses are among its first cell's.
            holding: list[list[tuple[int, set[int]]]] = [[] for _ in range(n)]
            for h in houses:
                members = set(runs[h][0])
                for c in members:
                    holding[c].append((h, members))
            for r, (cells, _, _) in enumerate(runs):
                if kind[r] != WALK:
                    continue
                kind[r] = CAGE
                if cells:
                    inside[r] = [h for h, hs in holding[cells[0]] if hs.issuperset(cells)]
        hstart = [0]
        for hs in inside:
            hstart.append(hstart[len(hstart) - 1] + len(hs))
        self.hstart = _buffers.ints(hstart, COMPILED)
        self.hlist = _buffers.ints([h for hs in inside for h in hs] or [0], COMPILED)
        self.cmark = _buffers.zeros64(n + 1, COMPILED)
        self.rkind = _buffers.ints(kind or [0], COMPILED)
        self.rvalue = _buffers.ints(value or [0], COMPILED)
        self.rstart = _buffers.ints(rstart, COMPILED)
        self.rcells = _buffers.ints(rcells or [0], COMPILED)
        self.cstart = _buffers.ints(cstart, COMPILED)
        self.combos = _buffers.ints(combos or [0], COMPILED)
        # Each cell's runs: cellruns[cellstart[c] .. cellstart[c + 1]).
        starts = [0]
        for rs in cell_runs:
            starts.append(starts[len(starts) - 1] + len(rs))  # no [-1]: wraparound is off
        self.cellstart = _buffers.ints(starts, COMPILED)
        self.cellruns = _buffers.ints([r for rs in cell_runs for r in rs] or [0], COMPILED)
        dom = _buffers.zeros(n + 1, COMPILED)
        self.dom = dom
        # Scratch for revising a run: its partial fillings by layer, and stamps.
        self.states = _buffers.zeros(512, COMPILED)
        self.fmark = _buffers.zeros64(512, COMPILED)
        self.bmark = _buffers.zeros64(512, COMPILED)
        self.layer = _buffers.zeros(11, COMPILED)
        longest = max((b - a for a, b in itertools.pairwise(rstart)), default=0)
        self.support = _buffers.zeros(max(10, longest + 1), COMPILED)
        self.stamp = 0
        self.queue = _buffers.zeros(self.n_runs + 1, COMPILED)
        # Houses, sums and cages wait here (see propagate).
        self.quick = _buffers.zeros(self.n_runs + 1, COMPILED)
        self.queued = _buffers.zeros(self.n_runs + 1, COMPILED)
        # A domain only shrinks along a path: at most 9 changes per cell.
        self.tcell = _buffers.zeros(9 * n + 9, COMPILED)
        self.tdom = _buffers.zeros(9 * n + 9, COMPILED)
        # Each level fixes a cell of two digits or more: at most n levels, then a leaf.
        depth = n + 2
        self.tmark = _buffers.zeros(depth, COMPILED)
        self.maskat = _buffers.zeros(depth, COMPILED)
        self._allocate(n, n, depth)
        # The root: every domain full, then propagated once.  Its domains depend on the
        # puzzle only; restart() puts them back.
        t: cython.int
        for t in range(n):
            self.dom[t] = 511
        for t in range(self.n_runs):
            self.queue[t] = t
            self.queued[t] = 1
        self.trail = 0
        self.failed = self.refuted or not self.propagate(self.n_runs)
        self.root_failed = self.failed
        self.trail = 0  # the root's domains are never undone
        self._keep([dom])

    def restart(self) -> None:
        """Back to the root: the root's domains copied back (no propagation again)."""
        Machine.restart(self)
        self.trail = 0
        self.failed = self.root_failed

    def rewind(self) -> None:
        """:meth:`restart` by undoing the trail (less to write after a short walk)."""
        t: cython.int = self.trail
        while t > 0:
            t -= 1
            self.dom[self.tcell[t]] = self.tdom[t]
        self.trail = 0
        self.failed = self.root_failed
        self._root()

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.cfunc
    def propagate(self, waiting: cython.int) -> cython.bint:
        """Revise the ``waiting`` runs in the queue (and those their changes wake) until
        nothing changes; False at a dead end.  Every domain change goes on the trail.

        Revising a run of kakuro (WALK) walks the layered graph of its partial fillings:
        layer ``j`` holds the sets of digits the first ``j`` cells can take (distinct,
        from their domains); an edge adds a digit of cell ``j``.  Forward from the empty
        set, then backward from the sets that are combinations of the run: a digit stays
        in cell ``j`` only when one of its edges lies on such a path.  That keeps exactly
        the digits that appear in some filling of the run (arc consistency for the run).

        Houses, sums and the runs revised by their combinations (killer sudoku; see the
        class) wait in a queue of their own and are revised before any walk: they cost
        far less, and a walk revised later sees more of their narrowing at once.  Kakuro
        has none, so its quick queue stays empty and its runs are walked in the order
        they wait, as when the walk had a function of its own.
        """
        dom: cython.int[::1] = self.dom
        rstart: cython.int[::1] = self.rstart
        rcells: cython.int[::1] = self.rcells
        cstart: cython.int[::1] = self.cstart
        combos: cython.int[::1] = self.combos
        cellstart: cython.int[::1] = self.cellstart
        cellruns: cython.int[::1] = self.cellruns
        queue: cython.int[::1] = self.queue
        quick: cython.int[::1] = self.quick
        queued: cython.int[::1] = self.queued
        tcell: cython.int[::1] = self.tcell
        tdom: cython.int[::1] = self.tdom
        states: cython.int[::1] = self.states
        fmark: cython.longlong[::1] = self.fmark
        bmark: cython.longlong[::1] = self.bmark
        layer: cython.int[::1] = self.layer
        support: cython.int[::1] = self.support
        rkind: cython.int[::1] = self.rkind
        rvalue: cython.int[::1] = self.rvalue
        popcount: cython.int[::1] = self.popcount
        nth: cython.int[::1] = self.nth
        n_runs: cython.int = self.n_runs
        trail: cython.int = self.trail
        stamp: cython.longlong = self.stamp
        head: cython.int = 0
        count: cython.int = 0
        qhead: cython.int = 0
        qcount: cython.int = 0
        ok: cython.bint = True
        r: cython.int
        i: cython.int
        j: cython.int
        c: cython.int
        s: cython.int
        x: cython.int
        m: cython.int
        v: cython.int
        length: cython.int
        first: cython.int
        top: cython.int
        state: cython.int
        rest: cython.int
        bit: cython.int
        kind: cython.int
        full: cython.int
        once: cython.int
        twice: cython.int
        fixed: cython.int
        alone: cython.int
        w: cython.int
        total: cython.int
        low: cython.int
        high: cython.int
        changed: cython.bint
        hstart: cython.int[::1] = self.hstart
        hlist: cython.int[::1] = self.hlist
        cmark: cython.longlong[::1] = self.cmark
        need: cython.int
        able: cython.int
        h: cython.int
        for i in range(waiting):
            r = queue[i]
            if rkind[r] == 0:
                queue[count] = r
                count += 1
            else:
                quick[qcount] = r
                qcount += 1
        while count > 0 or qcount > 0:
            if qcount > 0:
                r = quick[qhead]
                qhead += 1
                if qhead == n_runs:
                    qhead = 0
                qcount -= 1
            else:
                r = queue[head]
                head += 1
                if head == n_runs:
                    head = 0
                count -= 1
            queued[r] = 0
            first = rstart[r]
            length = rstart[r + 1] - first
            kind = rkind[r]
            if kind == 1:
                # A house: its cells take each digit of the mask once (all different).
                full = rvalue[r]
                for j in range(length):
                    support[j] = dom[rcells[first + j]] & full
                while ok:
                    # Naked singles: a digit fixed in one cell leaves the others;
                    # hidden singles: a digit only one cell can take is fixed there.
                    once = 0
                    twice = 0
                    fixed = 0
                    for j in range(length):
                        v = support[j]
                        twice |= once & v
                        once |= v
                        if popcount[v] <= 1:
                            if v == 0 or fixed & v:
                                ok = False
                                break
                            fixed |= v
                    if not ok or once != full:
                        ok = False
                        break
                    alone = full & ~twice & ~fixed
                    changed = False
                    for j in range(length):
                        v = support[j]
                        if popcount[v] > 1:
                            w = v & ~fixed
                            bit = w & alone
                            if bit:
                                if popcount[bit] > 1:  # one cell, the only place of two
                                    ok = False
                                    break
                                w = bit
                            if w != v:
                                support[j] = w
                                changed = True
                    if changed or not ok:
                        continue
                    # Naked pairs: two cells with the same two digits keep them.
                    for j in range(length):
                        v = support[j]
                        if popcount[v] == 2:
                            for i in range(j):
                                if support[i] == v:
                                    for s in range(length):
                                        w = support[s]
                                        if s != i and s != j and w & v:
                                            support[s] = w & ~v
                                            changed = True
                    if not changed:
                        break
                if not ok:
                    break
            elif kind == 2:
                # Innies or outies: digits that may repeat, adding up to rvalue[r];
                # each cell keeps the digits the others' least and most leave room for.
                total = rvalue[r]
                for j in range(length):
                    support[j] = dom[rcells[first + j]]
                changed = True
                while changed:
                    changed = False
                    low = 0
                    high = 0
                    for j in range(length):
                        v = support[j]
                        if v == 0:
                            ok = False
                            break
                        low += nth[v * 9]
                        high += nth[v * 9 + popcount[v] - 1]
                    if not ok or low > total or high < total:
                        ok = False
                        break
                    for j in range(length):
                        v = support[j]
                        # Digits from total - (high - most) to total - (low - least).
                        top = total - low + nth[v * 9]
                        state = total - high + nth[v * 9 + popcount[v] - 1]
                        w = v
                        if top < 1 or state > 9:
                            w = 0
                        else:
                            if top < 9:
                                w &= (1 << top) - 1
                            if state > 1:
                                w &= ~((1 << (state - 1)) - 1)
                        if w != v:
                            support[j] = w
                            changed = True
                if not ok:
                    break
            elif kind == 3:
                # A long run by its combinations.  For each, the cells keep its digits
                # and are narrowed to a fixed point by singles (a fixed digit leaves the
                # other cells, a digit only one cell can take is fixed there); the
                # combination is out when a cell or one of its digits is left with no
                # place.  Each cell keeps the union of what the others leave it.
                once = 0
                for j in range(length):
                    v = dom[rcells[first + j]]
                    once |= v
                    support[j] = 0
                able = 0
                for i in range(cstart[r], cstart[r + 1]):
                    m = combos[i]
                    if m & ~once:
                        continue
                    for j in range(length):
                        states[j] = dom[rcells[first + j]] & m
                    changed = True
                    while changed:
                        changed = False
                        full = 0
                        twice = 0
                        fixed = 0
                        for j in range(length):
                            v = states[j]
                            twice |= full & v
                            full |= v
                            if popcount[v] <= 1:
                                if v == 0 or fixed & v:
                                    full = -1
                                    break
                                fixed |= v
                        if full != m:
                            break
                        alone = m & ~twice & ~fixed
                        for j in range(length):
                            v = states[j]
                            if popcount[v] > 1:
                                w = v & ~fixed
                                bit = w & alone
                                if bit:
                                    if popcount[bit] > 1:
                                        full = -1
                                        break
                                    w = bit
                                if w != v:
                                    states[j] = w
                                    changed = True
                        if full == -1:
                            break
                    if full != m:
                        continue
                    able |= m
                    for j in range(length):
                        support[j] |= states[j]
                if able == 0:
                    ok = False
                    break
            else:
                stamp += 1
                # Forward: the sets of digits the first j cells can take.
                states[0] = 0
                layer[0] = 0
                layer[1] = 1
                top = 1
                for j in range(length):
                    v = dom[rcells[first + j]]
                    for i in range(layer[j], layer[j + 1]):
                        state = states[i]
                        rest = v & ~state
                        while rest:
                            bit = rest & -rest
                            rest ^= bit
                            if fmark[state | bit] != stamp:
                                fmark[state | bit] = stamp
                                states[top] = state | bit
                                top += 1
                    layer[j + 2] = top
                    if top == layer[j + 1]:
                        ok = False
                        break
                if not ok:
                    break
                # The combinations reached by all the cells end the paths that count.
                for i in range(cstart[r], cstart[r + 1]):
                    m = combos[i]
                    if fmark[m] == stamp:
                        bmark[m] = stamp
                # Backward: keep the edges whose end lies on a path to a combination.
                for j in range(length - 1, -1, -1):
                    v = dom[rcells[first + j]]
                    support[j] = 0
                    for i in range(layer[j], layer[j + 1]):
                        state = states[i]
                        rest = v & ~state
                        while rest:
                            bit = rest & -rest
                            rest ^= bit
                            if bmark[state | bit] == stamp:
                                support[j] |= bit
                                bmark[state] = stamp
                    if support[j] == 0:
                        ok = False
                        break
                if not ok:
                    break
            for j in range(length):
                c = rcells[first + j]
                if support[j] != dom[c]:
                    tcell[trail] = c
                    tdom[trail] = dom[c]
                    trail += 1
                    dom[c] = support[j]
                    for s in range(cellstart[c], cellstart[c + 1]):
                        x = cellruns[s]
                        if x != r and not queued[x]:
                            queued[x] = 1
                            if rkind[x] == 0:
                                queue[(head + count) % n_runs] = x
                                count += 1
                            else:
                                quick[(qhead + qcount) % n_runs] = x
                                qcount += 1
            if hstart[r] == hstart[r + 1]:
                continue
            # A run inside a house: the digits all its combinations need (with the
            # cells' digits now) leave the house's other cells.
            once = 0
            for j in range(length):
                once |= support[j]
            need = 511
            for i in range(cstart[r], cstart[r + 1]):
                m = combos[i]
                if m & ~once == 0:
                    for j in range(length):
                        if support[j] & m == 0:
                            break
                    else:
                        need &= m
            if need == 511:
                continue
            stamp += 1
            for j in range(length):
                cmark[rcells[first + j]] = stamp
            for s in range(hstart[r], hstart[r + 1]):
                h = hlist[s]
                for i in range(rstart[h], rstart[h + 1]):
                    c = rcells[i]
                    if cmark[c] == stamp or dom[c] & need == 0:
                        continue
                    tcell[trail] = c
                    tdom[trail] = dom[c]
                    trail += 1
                    dom[c] &= ~need
                    if dom[c] == 0:
                        ok = False
                        break
                    for v in range(cellstart[c], cellstart[c + 1]):
                        x = cellruns[v]
                        if not queued[x]:
                            queued[x] = 1
                            if rkind[x] == 0:
                                queue[(head + count) % n_runs] = x
                                count += 1
                            else:
                                quick[(qhead + qcount) % n_runs] = x
                                qcount += 1
                if not ok:
                    break
            if not ok:
                break
        if not ok:  # leave the queue empty for the next propagation
            while count > 0:
                queued[queue[head]] = 0
                head += 1
                if head == n_runs:
                    head = 0
                count -= 1
            while qcount > 0:
                queued[quick[qhead]] = 0
                qhead += 1
                if qhead == n_runs:
                    qhead = 0
                qcount -= 1
        self.stamp = stamp
        self.trail = trail
        return ok

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a full grid, else its number of children
        (entered with the walk fenced to the node, then everything put back)."""
        if self.state != ENTER:
            return 0
        saved = (self.floor, self.cut_depth, self.nodes, self.solutions, self.leaf_kind)
        self.floor = self.level
        self.cut_depth = self.level
        self.run(1, 0)
        b: cython.int = self.children
        self.floor, self.cut_depth, self.nodes, self.solutions, self.leaf_kind = saved
        self.state = ENTER
        return b

    def domains(self) -> list[int]:
        """The mask of digits each empty cell may still take, by cell number."""
        return [self.dom[t] for t in range(self.n)]

    def solution(self) -> tuple[int, ...]:
        """The digit of each empty cell, by cell number."""
        return tuple(self.nth[self.dom[t] * 9] for t in range(self.n))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``."""
        popcount: cython.int[::1] = self.popcount
        nth: cython.int[::1] = self.nth
        dom: cython.int[::1] = self.dom
        cellstart: cython.int[::1] = self.cellstart
        cellruns: cython.int[::1] = self.cellruns
        queue: cython.int[::1] = self.queue
        queued: cython.int[::1] = self.queued
        tcell: cython.int[::1] = self.tcell
        tdom: cython.int[::1] = self.tdom
        tmark: cython.int[::1] = self.tmark
        cellat: cython.int[::1] = self.x
        maskat: cython.int[::1] = self.maskat
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        replay_k: cython.int[::1] = self.replay_k
        guide: cython.int[::1] = self.guide
        n: cython.int = self.n
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        found: cython.longlong = 0
        b: cython.int = 0
        kk: cython.int
        g: cython.int
        c: cython.int
        s: cython.int
        x: cython.int
        cnt: cython.int
        best: cython.int
        waiting: cython.int
        t: cython.int
        mark: cython.int
        descend: cython.bint
        entering: cython.bint = self.state == ENTER

        if self.state == DONE:
            return 0
        while True:
            descend = False
            if entering:
                if nodes == stop_at and replay_end == 0:
                    self.state = ENTER
                    break
                nodes += 1
                # Choose the cell with the smallest domain of two digits or more.
                if self.failed:
                    b = 0
                else:
                    b = 10
                    best = -1
                    for c in range(n):
                        cnt = popcount[dom[c]]
                        if 1 < cnt < b:
                            b = cnt
                            best = c
                            if cnt == 2:
                                break
                    if best < 0:
                        b = -1
                    else:
                        cellat[level] = best
                        maskat[level] = dom[best]
                self.children = b
                if b <= 0:
                    if replay_end != 0:
                        self.bad_replay = True
                        break
                    if b < 0:
                        self.leaf_kind = SOLUTION
                        self.solutions += 1
                        found += 1
                        if found == limit:
                            self.state = LEAF
                            break
                elif level == cut_depth and replay_end == 0:
                    self.leaf_kind = CUT
                    found += 1
                    if found == limit:
                        self.state = LEAF
                        break
                else:
                    kk = 0
                    if level < replay_end:
                        kk = replay_k[level]
                        if kk >= b:
                            self.bad_replay = True
                            break
                    ks[level] = kk
                    ds[level] = b
                    descend = True
            if not descend:
                while True:
                    if level == floor:
                        self.state = DONE
                        break
                    level -= 1
                    # Undo the trail down to this level's mark.
                    mark = tmark[level]
                    t = self.trail
                    while t > mark:
                        t -= 1
                        dom[tcell[t]] = tdom[t]
                    self.trail = t
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        descend = True
                        break
                if not descend:
                    break
            # Fix cellat[level] to its ks[level]-th digit and propagate.
            c = cellat[level]
            t = self.trail
            tmark[level] = t
            tcell[t] = c
            tdom[t] = dom[c]
            self.trail = t + 1
            g = guide[c] & maskat[level]
            if g == 0:
                dom[c] = 1 << (nth[maskat[level] * 9 + ks[level]] - 1)
            elif ks[level] == 0:
                dom[c] = g
            else:
                dom[c] = 1 << (nth[(maskat[level] & ~g) * 9 + ks[level] - 1] - 1)
            waiting = 0
            for s in range(cellstart[c], cellstart[c + 1]):
                x = cellruns[s]
                queue[waiting] = x
                queued[x] = 1
                waiting += 1
            self.failed = not self.propagate(waiting)
            level += 1
            entering = True
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        return found
