"""Algorithm C (exact cover with colours) on *dancing cells*, as an explicit-stack machine.

The same search as :mod:`._dlx`, on other data.  Each item keeps the nodes of its options
in a segment of one array, ``cells[seg[i] : seg[i] + size[i]]`` being the options still
possible for item ``i``, and every node knows where it sits (``loc``).  Removing a node
from its item swaps it with the last live node of the segment and shrinks ``size``; the
removed nodes stay where they were put, past the end, so undoing a removal is only giving
``size`` back its old value.  The items shrunk are kept on a *trail*, and the items
still to cover in two sparse sets (``ilist``/``ipos``: the primary ones in
``ilist[0:pact]``, the secondary ones in ``ilist[primary : primary + sact]``), so undoing
a whole level is popping the trail and setting two counters.  Nothing is ever linked
back.  (Sparse sets for exact cover are Christine Solnon's idea, worked out by Knuth as
his SSXC programs; this file shares their data layout and nothing else.)

The engine visits the very same tree as the dancing-links engine, node for node: it
branches on the same item (the fewest options, smallest item number on ties, the first
item with at most one option at once, as ``_dlx``'s scan does) and tries its options in
the problem's order (the live nodes of the item are sorted when the level is entered).
So positions, node counts, subtrees and checkpoints are the same with either engine, and
a search may be continued on the other.  Only ``least_constraining`` orders are left to
the links engine.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

from collections.abc import Sequence

from lazysearch import _buffers
from lazysearch.exactcover import _machine
from lazysearch.exactcover._machine import CUT, DONE, ENTER, LEAF, SOLUTION

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.exactcover._machine import Machine
else:
    Machine = _machine.plain()


@cython.cclass
class CellsEngine(Machine):
    """The dancing-cells machine for one exact-cover problem (items and options as ints).

    Takes the arguments of :class:`._dlx.DLXEngine` without its ``least_constraining``.
    """

    itm: cython.int[::1]
    color: cython.int[::1]
    opt: cython.int[::1]
    ostart: cython.int[::1]
    cells: cython.int[::1]
    loc: cython.int[::1]
    seg: cython.int[::1]
    size: cython.int[::1]
    ilist: cython.int[::1]
    ipos: cython.int[::1]
    trail: cython.int[::1]
    tbase: cython.int[::1]
    ibase: cython.int[::1]
    pkept: cython.int[::1]
    skept: cython.int[::1]
    alt: cython.int[::1]
    base: cython.int[::1]

    pact: cython.int
    sact: cython.int
    ttop: cython.int
    pick: cython.int

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
    ) -> None:
        n: int = primary + secondary
        depth = primary + 1
        self._allocate(primary, n, depth)
        # Nodes, option by option: node w is item itm[w] of option opt[w], whose nodes
        # are ostart[opt[w]] .. ostart[opt[w] + 1] - 1.
        itm: list[int] = []
        col: list[int] = []
        opt: list[int] = []
        ostart: list[int] = [0]
        counts = [0] * (n + 1)
        for j, items in enumerate(option_items):
            for t, i in enumerate(items):
                itm.append(i)
                col.append(option_colors[j][t])
                opt.append(j)
                counts[i] += 1
            ostart.append(len(itm))
        m = len(itm)
        # Each item's segment holds its nodes in option order to begin with.
        seg = [0] * (n + 2)
        for i in range(1, n + 1):
            seg[i + 1] = seg[i] + counts[i]
        fill = seg[:]
        cells = [0] * max(m, 1)
        loc = [0] * max(m, 1)
        for w in range(m):
            i = itm[w]
            cells[fill[i]] = w
            loc[w] = fill[i]
            fill[i] += 1
        self.itm = _buffers.ints(itm or [0], COMPILED)
        self.color = _buffers.ints(col or [0], COMPILED)
        self.opt = _buffers.ints(opt or [0], COMPILED)
        self.ostart = _buffers.ints(ostart, COMPILED)
        self.cells = _buffers.ints(cells, COMPILED)
        self.loc = _buffers.ints(loc, COMPILED)
        self.seg = _buffers.ints(seg, COMPILED)
        size = _buffers.ints([*counts, 0], COMPILED)
        self.size = size
        self._keep([size])  # every segment whole
        # ilist holds item numbers; primary items in [0, primary), secondary after.
        self.ilist = _buffers.ints(list(range(1, n + 1)) or [0], COMPILED)
        self.ipos = _buffers.ints([0, *range(n)], COMPILED)
        # Each node leaves its item's segment at most once on a path: one trail entry.
        self.trail = _buffers.zeros(m + 1, COMPILED)
        self.tbase = _buffers.zeros(depth, COMPILED)
        self.ibase = _buffers.zeros(depth, COMPILED)
        self.pkept = _buffers.zeros(depth, COMPILED)
        self.skept = _buffers.zeros(depth, COMPILED)
        # Level t tries the options in alt[base[t] : base[t + 1]]; an option sits in at
        # most one level's list on the stack, so one entry per option is enough.
        self.alt = _buffers.zeros(len(option_items) + 1, COMPILED)
        self.base = _buffers.zeros(depth + 1, COMPILED)
        self.restart()

    def restart(self) -> None:
        """Go back to the root: every segment whole, every item to cover."""
        Machine.restart(self)
        self.pact = self.n_primary
        self.sact = self.n_items - self.n_primary
        self.ttop = 0

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _choose(self, pact: cython.int) -> cython.int:
        """The number of options of the item to branch on, which is left in ``pick``
        (``_dlx``'s rule: the smallest item with at most one option if there is one,
        else the smallest of those with the fewest)."""
        ilist: cython.int[::1] = self.ilist
        size: cython.int[::1] = self.size
        best: cython.int = 0x7FFFFFFF
        item: cython.int = 0x7FFFFFFF
        small: cython.int = 0x7FFFFFFF
        t: cython.int
        i: cython.int
        s: cython.int
        for t in range(pact):
            i = ilist[t]
            s = size[i]
            if s <= 1:
                if i < small:
                    small = i
            elif s < best or (s == best and i < item):
                best = s
                item = i
        if small != 0x7FFFFFFF:
            self.pick = small
            return size[small]
        self.pick = item
        return best

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children."""
        if self.pact == 0:
            return -1
        return int(self._choose(self.pact))

    def solution(self) -> tuple[int, ...]:
        """The options (0-based, ascending) of the partial solution on the stack."""
        return tuple(sorted([self.opt[self.x[t]] for t in range(self.level)]))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.
        """
        itm: cython.int[::1] = self.itm
        color: cython.int[::1] = self.color
        opt: cython.int[::1] = self.opt
        ostart: cython.int[::1] = self.ostart
        cells: cython.int[::1] = self.cells
        loc: cython.int[::1] = self.loc
        seg: cython.int[::1] = self.seg
        size: cython.int[::1] = self.size
        ilist: cython.int[::1] = self.ilist
        ipos: cython.int[::1] = self.ipos
        trail: cython.int[::1] = self.trail
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        tbase: cython.int[::1] = self.tbase
        ibase: cython.int[::1] = self.ibase
        pkept: cython.int[::1] = self.pkept
        skept: cython.int[::1] = self.skept
        replay_k: cython.int[::1] = self.replay_k
        alt: cython.int[::1] = self.alt
        bases: cython.int[::1] = self.base
        primary: cython.int = self.n_primary
        pact: cython.int = self.pact
        sact: cython.int = self.sact
        ttop: cython.int = self.ttop
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        found: cython.longlong = 0
        i: cython.int = 0
        j: cython.int
        jj: cython.int
        c: cython.int
        o: cython.int
        p: cython.int
        q: cython.int
        r: cython.int
        e: cython.int
        z: cython.int
        w: cython.int
        y: cython.int = 0
        u: cython.int
        b: cython.int
        s: cython.int
        best: cython.int = 0
        kk: cython.int
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
                if pact == 0:
                    if replay_end != 0:
                        self.bad_replay = True
                        break
                    self.leaf_kind = SOLUTION
                    self.solutions += 1
                    found += 1
                    if found == limit:
                        self.state = LEAF
                        break
                else:
                    best = self._choose(pact)
                    i = self.pick
                    if best == 0:
                        if replay_end != 0:
                            self.bad_replay = True
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
                            if kk >= best:
                                self.bad_replay = True
                                break
                        # The live options of i in the problem's order (nodes are
                        # numbered option by option): an insertion sort, short lists.
                        b = bases[level]
                        q = seg[i]
                        for e in range(best):
                            w = cells[q + e]
                            u = b + e
                            while u > b and alt[u - 1] > w:
                                alt[u] = alt[u - 1]
                                u -= 1
                            alt[u] = w
                        bases[level + 1] = b + best
                        xs[level] = alt[b + kk]
                        ks[level] = kk
                        ds[level] = best
                        ibase[level] = ttop
                        pkept[level] = pact
                        skept[level] = sact
                        y = -1  # cover i first (once for all its options)
                        descend = True
            if not descend:
                while True:
                    if level == floor:
                        self.state = DONE
                        break
                    level -= 1
                    # Undo the option tried at this level: sizes back from the trail.
                    e = tbase[level]
                    while ttop > e:
                        ttop -= 1
                        size[trail[ttop]] += 1
                    pact = pkept[level] - 1
                    sact = skept[level]
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        xs[level] = alt[bases[level] + ks[level]]
                        y = ostart[opt[xs[level]]]
                        descend = True
                        break
                    # No option left: uncover the item branched on, too.
                    e = ibase[level]
                    while ttop > e:
                        ttop -= 1
                        size[trail[ttop]] += 1
                    pact = pkept[level]
                if not descend:
                    break
            # Commit: each item still to cover, from node y on (y = -1: the item i
            # branched on, before the nodes of the option), leaves the sparse set of
            # items, and every other option still possible for it (but those of the same
            # colour) leaves the segments of its other items.
            o = opt[xs[level]]
            while y < ostart[o + 1]:
                if y < 0:
                    j = itm[xs[level]]
                    c = 0
                else:
                    j = itm[y]
                    c = color[y]
                p = ipos[j]
                if j <= primary:
                    if p >= pact:
                        y = ostart[o] if y < 0 else y + 1
                        continue
                    pact -= 1
                    r = ilist[pact]
                else:
                    if p >= primary + sact:
                        y += 1
                        continue
                    sact -= 1
                    r = ilist[primary + sact]
                # j swaps places with the last item still to cover of its kind.
                ilist[ipos[r]] = j
                ilist[p] = r
                ipos[j] = ipos[r]
                ipos[r] = p
                q = seg[j]
                for e in range(q, q + size[j]):
                    z = cells[e]
                    if z == y or (c > 0 and color[z] == c):
                        continue
                    # Hide z's option from the segments of its other items.  They are
                    # all still to cover but for secondary items already given z's
                    # colour (an option that is still possible has no other item that
                    # is covered), whose segments are not read again on this path:
                    # so no test is needed, and the trail restores them all alike.
                    for w in range(ostart[opt[z]], ostart[opt[z] + 1]):
                        if w == z:
                            continue
                        jj = itm[w]
                        s = size[jj] - 1
                        u = seg[jj] + s
                        p = loc[w]
                        r = cells[u]
                        cells[u] = w
                        cells[p] = r
                        loc[w] = u
                        loc[r] = p
                        size[jj] = s
                        trail[ttop] = jj
                        ttop += 1
                if y < 0:
                    tbase[level] = ttop
                    y = ostart[o]
                else:
                    y += 1
            level += 1
            entering = True
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.pact = pact
        self.sact = sact
        self.ttop = ttop
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        return found
