"""Algorithm C (exact cover with colours) on *dancing cells*, as an explicit-stack machine.

The data are those of Knuth's SSXC1 (after Christine Solnon's XCC with dancing cells);
the code is this project's.  Each item keeps the nodes of its options in a segment of
one array ``sets``: an item *is* the address of its segment, with its size just before
(``sets[x - 1]``) and its place in the list of items to cover before that
(``sets[x - 2]``).  Each node knows its item and where it sits in that item's segment
(``nd[2w]``, ``nd[2w + 1]``); an option's nodes are consecutive, followed by a spacer.
Removing a node from its item swaps it with the last live node of the segment and
shrinks the size; the removed nodes stay where they were put, past the end, so undoing
removals is only giving sizes back.  Nothing is ever linked back.

How the sizes come back depends on the problem (:func:`snapshots`): a *trail* of the
items shrunk, one entry per node moved, or a snapshot of the sizes of all the items still
to cover, taken once per level and put back after each option, as SSXC1 does (cheaper
when an option moves hundreds of nodes: pentominoes).  Both walk the same tree.

**The tree is not that of dancing links** (:mod:`._dlx`), though it finds the same
solutions:

* a try whose update leaves a primary item with no option ends there (Knuth's SSXC), and
  that child is no node: on the generic 6x10 pentominoes 1.21 M nodes against 4.06 M;
* the item to branch on is the first one with one option in the list of items to cover,
  else the one with the fewest options (smallest number on ties).  That list is a sparse
  set whose order changes as items leave it; every change is undone in reverse, so its
  order at a node depends only on the path to it, and so does the tree;
* the options of that item are tried in the problem's order (sorted when the level is
  entered: the segments' order does depend on the walk so far).

So positions replay on this engine (checkpoints, subtrees, parallel counts), but a
position of one engine means another node, or none, on the other: the problem's
fingerprint says which engine walks it, and a checkpoint is refused by the other engine
(:meth:`.problem.DLXProblem.explain_mismatch`).  A choice whose update fails cannot be
replayed (:attr:`CellsEngine.prunes`; Knuth's estimate counts it as a dead end).  Only
``least_constraining`` orders are left to the links engine.
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


def snapshots(
    option_items: Sequence[Sequence[int]],
    option_colors: Sequence[Sequence[int]],
    n_items: int,
) -> bool:
    """Whether the cells engine puts sizes back from snapshots rather than a trail.

    Never with colours: a snapshot holds the items still to cover, and an option that
    shares a colour stays possible with an item covered, so that item's size would
    drift below what it is (below zero, over sibling tries) where no snapshot restores
    it.  Without colours an item covered is in no option still possible: its size is
    not touched until the level that covered it puts it back.

    Committing an option of length ``L`` whose items have ``D`` options on average moves
    about ``L * L * D`` nodes; a snapshot costs the number of items.  Measured (compiled,
    one run): 6x10 pentominoes (``L*L*D`` 100 times the items) 0.76 of the links time with
    snapshots against 0.88 with the trail; Langford 11 (4 times) and 12-queens (2 times)
    are as fast or faster with the trail.
    """
    nodes = sum(len(o) for o in option_items)
    if not option_items or n_items == 0 or any(any(c) for c in option_colors):
        return False
    length = nodes / len(option_items)
    return length * length * (nodes / n_items) > 16 * n_items


@cython.cclass
class CellsEngine(Machine):
    """The dancing-cells machine for one exact-cover problem (items and options as ints).

    Takes the arguments of :class:`._dlx.DLXEngine` (``labels`` too) without its
    ``least_constraining``; ``snap`` forces snapshots (True) or the trail (False) where
    :func:`snapshots` would choose (the tree is the same).
    """

    nd: cython.int[::1]
    sets: cython.int[::1]
    color: cython.int[::1]
    opt: cython.int[::1]
    addr: cython.int[::1]
    ilist: cython.int[::1]
    ppos: cython.int[::1]
    trail: cython.int[::1]
    tbase: cython.int[::1]
    ibase: cython.int[::1]
    pkept: cython.int[::1]
    skept: cython.int[::1]
    alt: cython.int[::1]
    base: cython.int[::1]

    second: cython.int
    snap: cython.bint
    pact: cython.int
    sact: cython.int
    ttop: cython.int
    ptop: cython.int
    pick: cython.int

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
        labels: Sequence[int] | None = None,
        snap: bool | None = None,
    ) -> None:
        n: int = primary + secondary
        depth = primary + 1
        self._allocate(primary, n, depth)
        counts = [0] * (n + 1)
        for items in option_items:
            for i in items:
                counts[i] += 1
        # Item i lives at address addr[i] of ``sets``: its segment of nodes starts there,
        # its size is at addr[i] - 1 and its place in ``ilist`` at addr[i] - 2.
        # Addresses grow with item numbers, primary items first.
        addr = [0] * (n + 2)
        a = 2
        for i in range(1, n + 2):
            addr[i] = a
            if i <= n:
                a += counts[i] + 2
        sets = [0] * (a + 1)
        # Nodes, option by option, each option followed by a spacer: node w is
        # nd[2w] (an item's address; at a spacer, minus the length of the option before
        # it) and nd[2w + 1] (where w sits in that item's segment).
        nd = [0, 0]
        col = [0]
        opt = [-1]
        fill = [0] * (n + 1)
        for j, items in enumerate(option_items):
            for t, i in enumerate(items):
                w = len(col)
                x = addr[i]
                sets[x + fill[i]] = w
                nd += [x, x + fill[i]]
                fill[i] += 1
                col.append(option_colors[j][t])
                opt.append(j if labels is None else labels[j])
            nd += [-len(items), 0]
            col.append(0)
            opt.append(-1)
        for i in range(1, n + 1):
            sets[addr[i] - 1] = counts[i]
            sets[addr[i] - 2] = i - 1
        self.second = addr[primary + 1]
        nodes = _buffers.ints(nd, COMPILED)
        segments = _buffers.ints(sets, COMPILED)
        self.nd = nodes
        self.sets = segments
        self.color = _buffers.ints(col, COMPILED)
        self.opt = _buffers.ints(opt, COMPILED)
        self.addr = _buffers.ints(addr, COMPILED)
        # The items still to cover (their addresses), a sparse set: the primary ones in
        # ilist[0:pact], the secondary ones in ilist[primary : primary + sact].
        todo = _buffers.ints(addr[1 : n + 1] or [0], COMPILED)
        self.ilist = todo
        self._keep([segments, nodes, todo])  # the buffers themselves, not views
        # Where each primary item left ``ilist`` from, to put it back in its place.
        self.ppos = _buffers.zeros(primary + 1, COMPILED)
        # Each node leaves its item's segment at most once on a path: one trail entry.
        # How sizes come back: by a trail of the items shrunk, one entry per node
        # moved; or, when an option moves many nodes for few items (long options of
        # items with many options), by a snapshot of all sizes per level, as Knuth's
        # SSXC1 does (see ``snapshots``).
        if snap and any(any(c) for c in option_colors):
            raise ValueError("snapshots do not take colours (see snapshots())")
        self.snap = snapshots(option_items, option_colors, n) if snap is None else snap
        self.trail = _buffers.zeros(len(col) + 1 if not self.snap else 4 * (n + 1), COMPILED)
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
        self.ptop = 0

    def _grow(self, need: int) -> None:
        """Room for ``need`` entries on the trail (snapshots only: their number is not
        known in advance)."""
        old = self.trail
        size = max(need, 2 * len(old))
        grown = _buffers.zeros(size, COMPILED)
        grown[: len(old)] = _buffers.ints(list(old), COMPILED)
        self.trail = grown

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _choose(self, pact: cython.int) -> cython.int:
        """The number of options of the item to branch on, whose address is left in
        ``pick``: the first item with the fewest options (smallest number on ties)."""
        ilist: cython.int[::1] = self.ilist
        sets: cython.int[::1] = self.sets
        best: cython.int = 0x7FFFFFFF
        item: cython.int = 0x7FFFFFFF
        t: cython.int
        x: cython.int
        s: cython.int
        for t in range(pact):
            x = ilist[t]
            s = sets[x - 1]
            if s < best or (s == best and x < item):
                best = s
                item = x
                if s <= 1:
                    break
        self.pick = item
        return best

    @property
    def prunes(self) -> bool:
        """True: a choice that leaves an item with no option is refused by
        :meth:`replay` (it is no node of this engine's tree; see ``search.probe``)."""
        return True

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
        nd: cython.int[::1] = self.nd
        sets: cython.int[::1] = self.sets
        color: cython.int[::1] = self.color
        ilist: cython.int[::1] = self.ilist
        ppos: cython.int[::1] = self.ppos
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
        second: cython.int = self.second
        snap: cython.bint = self.snap
        pact: cython.int = self.pact
        sact: cython.int = self.sact
        ttop: cython.int = self.ttop
        ptop: cython.int = self.ptop
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
        p: cython.int
        r: cython.int
        e: cython.int
        z: cython.int
        w: cython.int
        y: cython.int
        u: cython.int
        b: cython.int
        s: cython.int
        xn: cython.int
        lim: cython.int
        best: cython.int = 0
        kk: cython.int
        step: cython.int  # 0: back up, 1: try the option ks[level], 2: stop
        dead: cython.bint
        entering: cython.bint = self.state == ENTER

        if self.state == DONE:
            return 0
        while True:
            step = 0
            if entering:
                entering = False
                # C2: enter the node at ``level``.
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
                    # C3: the item i to branch on.
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
                        # C4: the live options of i in the problem's order (nodes are
                        # numbered option by option): an insertion sort, short lists.
                        b = bases[level]
                        for e in range(best):
                            w = sets[i + e]
                            u = b + e
                            while u > b and alt[u - 1] > w:
                                alt[u] = alt[u - 1]
                                u -= 1
                            alt[u] = w
                        bases[level + 1] = b + best
                        ks[level] = kk
                        ds[level] = best
                        ibase[level] = ttop
                        # Cover i: out of the items to cover, and each of its options out
                        # of the segments of its other items (once for all its options).
                        pact -= 1
                        r = ilist[pact]
                        p = sets[i - 2]
                        ppos[ptop] = p
                        ptop += 1
                        ilist[pact] = i
                        ilist[p] = r
                        sets[r - 2] = p
                        sets[i - 2] = pact
                        for e in range(i, i + best):
                            z = sets[e]
                            w = z + 1
                            while w != z:
                                jj = nd[2 * w]
                                if jj <= 0:
                                    w += jj
                                    continue
                                s = sets[jj - 1] - 1
                                u = jj + s
                                p = nd[2 * w + 1]
                                r = sets[u]
                                sets[u] = w
                                sets[p] = r
                                nd[2 * w + 1] = u
                                nd[2 * r + 1] = p
                                sets[jj - 1] = s
                                if not snap:
                                    trail[ttop] = jj
                                    ttop += 1
                                w += 1
                        tbase[level] = ttop
                        if snap:
                            # Keep the sizes of the items still to cover, to be put back
                            # after each option (and, one level up, after this cover).
                            if ttop + 2 * (pact + sact) > len(trail):
                                self._grow(ttop + 2 * (pact + sact))
                                trail = self.trail
                            for e in range(pact):
                                r = ilist[e]
                                trail[ttop] = r
                                trail[ttop + 1] = sets[r - 1]
                                ttop += 2
                            for e in range(primary, primary + sact):
                                r = ilist[e]
                                trail[ttop] = r
                                trail[ttop + 1] = sets[r - 1]
                                ttop += 2
                        pkept[level] = pact
                        skept[level] = sact
                        step = 1
            if step == 0:
                # C8: leave the node at ``level``; back up to the next option to try.
                while True:
                    if level == floor:
                        self.state = DONE
                        step = 2
                        break
                    level -= 1
                    e = tbase[level]
                    if snap:
                        for e in range(tbase[level], ttop, 2):
                            sets[trail[e] - 1] = trail[e + 1]
                    else:
                        while ttop > e:
                            ttop -= 1
                            sets[trail[ttop] - 1] += 1
                    while pact < pkept[level]:
                        ptop -= 1
                        p = ppos[ptop]
                        j = ilist[pact]
                        r = ilist[p]
                        ilist[p] = j
                        ilist[pact] = r
                        sets[j - 2] = p
                        sets[r - 2] = pact
                        pact += 1
                    sact = skept[level]
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        step = 1
                        break
                    # No option left: uncover the item branched on, too.
                    e = ibase[level]
                    if snap:
                        ttop = e  # the level above puts the sizes back
                    while ttop > e:
                        ttop -= 1
                        sets[trail[ttop] - 1] += 1
                    ptop -= 1
                    p = ppos[ptop]
                    j = ilist[pact]
                    r = ilist[p]
                    ilist[p] = j
                    ilist[pact] = r
                    sets[j - 2] = p
                    sets[r - 2] = pact
                    pact += 1
                if step == 2:
                    break
            while step == 1:
                # C5: commit option ks[level].  First its other items leave the items
                # to cover (so that none of them is taken for an item left with no
                # option: covering i took the option out of their segments).
                xn = alt[bases[level] + ks[level]]
                w = xn + 1
                while w != xn:
                    j = nd[2 * w]
                    if j <= 0:
                        w += j
                        continue
                    w += 1
                    p = sets[j - 2]
                    if j < second:
                        pact -= 1
                        r = ilist[pact]
                        ppos[ptop] = p
                        ptop += 1
                    else:
                        if p >= primary + sact:
                            continue  # given this colour higher up
                        sact -= 1
                        r = ilist[primary + sact]
                    ilist[sets[r - 2]] = j
                    ilist[p] = r
                    sets[j - 2] = sets[r - 2]
                    sets[r - 2] = p
                # Then every other option still possible for them (but those of the
                # same colour) leaves the segments of its other items.  A primary item
                # still to cover left with no option ends the try at once (Knuth's
                # SSXC): the child is no node, and the sizes are given back.
                lim = primary + skept[level]
                dead = False
                y = xn + 1
                while y != xn:
                    j = nd[2 * y]
                    if j <= 0:
                        y += j
                        continue
                    if j >= second and sets[j - 2] >= lim:
                        y += 1
                        continue  # left before this option (see above)
                    c = color[y]
                    for e in range(j, j + sets[j - 1]):
                        z = sets[e]
                        if c > 0 and color[z] == c:
                            continue
                        w = z + 1
                        while w != z:
                            jj = nd[2 * w]
                            if jj <= 0:
                                w += jj
                                continue
                            s = sets[jj - 1] - 1
                            u = jj + s
                            p = nd[2 * w + 1]
                            r = sets[u]
                            sets[u] = w
                            sets[p] = r
                            nd[2 * w + 1] = u
                            nd[2 * r + 1] = p
                            sets[jj - 1] = s
                            if not snap:
                                trail[ttop] = jj
                                ttop += 1
                            w += 1
                            if s == 0 and jj < second and sets[jj - 2] < pact:
                                dead = True
                                break
                        if dead:
                            break
                    if dead:
                        break
                    y += 1
                if not dead:
                    xs[level] = xn
                    level += 1
                    entering = True
                    break
                e = tbase[level]
                if snap:
                    for e in range(tbase[level], ttop, 2):
                        sets[trail[e] - 1] = trail[e + 1]
                else:
                    while ttop > e:
                        ttop -= 1
                        sets[trail[ttop] - 1] += 1
                while pact < pkept[level]:
                    ptop -= 1
                    p = ppos[ptop]
                    j = ilist[pact]
                    r = ilist[p]
                    ilist[p] = j
                    ilist[pact] = r
                    sets[j - 2] = p
                    sets[r - 2] = pact
                    pact += 1
                sact = skept[level]
                if level < replay_end:
                    self.bad_replay = True
                    step = 2
                    break
                if ks[level] + 1 < ds[level]:
                    ks[level] += 1
                    continue
                e = ibase[level]
                if snap:
                    ttop = e  # the level above puts the sizes back
                while ttop > e:
                    ttop -= 1
                    sets[trail[ttop] - 1] += 1
                ptop -= 1
                p = ppos[ptop]
                j = ilist[pact]
                r = ilist[p]
                ilist[p] = j
                ilist[pact] = r
                sets[j - 2] = p
                sets[r - 2] = pact
                pact += 1
                step = 0
            if step == 2:
                break
            if step == 0:
                continue  # every option of this level failed in C5: back up
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.pact = pact
        self.sact = sact
        self.ttop = ttop
        self.ptop = ptop
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        return found
