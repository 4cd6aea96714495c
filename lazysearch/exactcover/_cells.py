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

The options of the item branched on come in the problem's order, so on a tiling those
that put one piece over the cell follow each other.  Hiding the options of that piece
(their *head*: the first item other than the one branched on) is the same work for each
of them; when the next option has the same head, it is done once for the run and the
sizes after it are kept, each option of the run starting from there (:func:`groups`
says when this is worth it).  The tree is the same: only the order of the hiding changes.

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
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from collections.abc import Sequence

from lazysearch.engine import _buffers, _machine
from lazysearch.engine.states import CUT, DONE, ENTER, LEAF, SOLUTION

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.engine._machine import Machine
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


def groups(option_items: Sequence[Sequence[int]]) -> bool:
    """Whether the cells engine hides the options of a *head* once for a run of options.

    The options of an item come in the problem's order; an option's head is its first
    item other than the one branched on.  When next options share their head (the
    placements of one piece over a cell), the work of hiding the head's options is done
    once for the run.  That costs a little at every option, so it is done when at
    least a third of next options in the items' lists share their head.
    """
    last: dict[int, int] = {}
    pairs = 0
    same = 0
    for items in option_items:
        for t, i in enumerate(items):
            head = items[1] if t == 0 and len(items) > 1 else items[0] if t else -1
            if i in last:
                pairs += 1
                same += last[i] == head
            last[i] = head
    return 3 * same >= pairs > 0


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
    lead: cython.int[::1]
    aend: cython.int[::1]
    bend: cython.int[::1]
    ghead: cython.int[::1]
    gcolor: cython.int[::1]
    ebase: cython.int[::1]
    eend: cython.int[::1]
    empty: cython.int[::1]

    second: cython.int
    snap: cython.bint
    grouped: cython.bint
    reused: cython.longlong
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
        group: bool | None = None,
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
        lead = [0]
        for j, items in enumerate(option_items):
            first = len(col)
            for t, i in enumerate(items):
                w = len(col)
                lead.append(first)
                x = addr[i]
                sets[x + fill[i]] = w
                nd += [x, x + fill[i]]
                fill[i] += 1
                col.append(option_colors[j][t])
                opt.append(j if labels is None else labels[j])
            nd += [-len(items), 0]
            lead.append(0)
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
        # lead[w]: the first node of w's option.  Per level: where the sizes kept
        # after covering i end (aend; they start at tbase) and after hiding the
        # options of the head of the group being tried (bend), that head and its
        # colour, and the primary items its hiding left with no option,
        # empty[ebase : eend] (an item is there at most once on a path).
        self.lead = _buffers.ints(lead, COMPILED)
        self.grouped = groups(option_items) if group is None else group
        self.reused = 0
        self.aend = _buffers.zeros(depth, COMPILED)
        self.bend = _buffers.zeros(depth, COMPILED)
        self.ghead = _buffers.zeros(depth, COMPILED)
        self.gcolor = _buffers.zeros(depth, COMPILED)
        self.ebase = _buffers.zeros(depth + 1, COMPILED)
        self.eend = _buffers.zeros(depth, COMPILED)
        self.empty = _buffers.zeros(n + 1, COMPILED)
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
    def shared(self) -> int:
        """How many options were tried from the sizes kept after hiding the options of
        their head (see :func:`groups`), replays included."""
        return int(self.reused)

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
        lead: cython.int[::1] = self.lead
        aend: cython.int[::1] = self.aend
        bend: cython.int[::1] = self.bend
        ghead: cython.int[::1] = self.ghead
        gcolor: cython.int[::1] = self.gcolor
        ebase: cython.int[::1] = self.ebase
        eend: cython.int[::1] = self.eend
        empty: cython.int[::1] = self.empty
        h: cython.int
        hn: cython.int
        hc: cython.int
        primary: cython.int = self.n_primary
        second: cython.int = self.second
        snap: cython.bint = self.snap
        grouped: cython.bint = self.grouped
        reused: cython.longlong = self.reused
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
        jj: cython.Py_ssize_t
        c: cython.int
        p: cython.Py_ssize_t
        r: cython.Py_ssize_t
        e: cython.int
        z: cython.Py_ssize_t
        w: cython.Py_ssize_t
        y: cython.int
        u: cython.Py_ssize_t
        b: cython.int
        s: cython.Py_ssize_t
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
                    # C3: the item i to branch on: the first with the fewest options
                    # (smallest number on ties), as _choose (written here again: a call
                    # takes hold of its memoryviews, atomically, at every node).
                    best = 0x7FFFFFFF
                    i = 0x7FFFFFFF
                    for e in range(pact):
                        r = ilist[e]
                        s = sets[r - 1]
                        if s < best or (s == best and r < i):
                            best = s
                            i = r
                            if s <= 1:
                                break
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
                        aend[level] = ttop
                        ghead[level] = 0
                        step = 1
            if step == 0:
                # C8: leave the node at ``level``; back up to the next option to try
                # (C5 puts back what the option before it did).
                while True:
                    if level == floor:
                        self.state = DONE
                        step = 2
                        break
                    level -= 1
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        step = 1
                        break
                    # No option left: uncover the item branched on, too.
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
                # C5: try option ks[level].  Its *head* is its first item other than i.
                # The options of i come in the problem's order, so those with the same
                # head follow each other (pentominoes: the placements of one piece over
                # the cell i); hiding the options of the head is the same work for all
                # of them, and is done once for the run (a *group*): the sizes after it
                # are kept (B), and the next option of the group starts from there.
                xn = alt[bases[level] + ks[level]]
                h = 0
                hn = -1
                hc = 0
                if grouped:
                    hn = lead[xn]
                    if hn == xn:
                        hn += 1
                    h = nd[2 * hn]
                    if h > 0:
                        hc = color[hn]
                    if h > 0 and (h != ghead[level] or hc != gcolor[level]):
                        # A new head: a group only if the next option has it too
                        # (alone, the option is better tried in its own order, which
                        # may find an item left with no option sooner).
                        u = -1
                        if ks[level] + 1 < ds[level]:
                            z = alt[bases[level] + ks[level] + 1]
                            u = lead[z]
                            if u == z:
                                u += 1
                        if u < 0 or nd[2 * u] != h or color[u] != hc:
                            h = 0
                            hn = -1
                            hc = 0
                # Put back what the option before this one did: its items to cover
                # again, and the sizes as B (same head) or as after covering i (A).
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
                lim = primary + sact
                if h > 0 and h == ghead[level] and hc == gcolor[level]:
                    reused += 1
                    if snap:
                        for e in range(aend[level], bend[level], 2):
                            sets[trail[e] - 1] = trail[e + 1]
                        ttop = bend[level]
                    else:
                        e = bend[level]
                        while ttop > e:
                            ttop -= 1
                            sets[trail[ttop] - 1] += 1
                else:
                    if snap:
                        for e in range(tbase[level], aend[level], 2):
                            sets[trail[e] - 1] = trail[e + 1]
                        ttop = aend[level]
                    else:
                        e = aend[level]
                        while ttop > e:
                            ttop -= 1
                            sets[trail[ttop] - 1] += 1
                    # A new group: hide the options of the head (but those of the same
                    # colour), noting the primary items it leaves with no option; an
                    # option of the group that does not cover them all fails.
                    ghead[level] = h
                    gcolor[level] = hc
                    b = ebase[level]
                    if h > 0 and not (h >= second and sets[h - 2] >= lim):
                        for e in range(h, h + sets[h - 1]):
                            z = sets[e]
                            if hc > 0 and color[z] == hc:
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
                                    empty[b] = jj
                                    b += 1
                    eend[level] = b
                    if snap and h > 0:
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
                    bend[level] = ttop
                # Its items leave the items to cover (so that none of them is taken
                # for an item left with no option: covering i took the option out of
                # their segments).
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
                dead = False
                for e in range(ebase[level], eend[level]):
                    if sets[empty[e] - 2] < pact:
                        dead = True  # left with no option by the head, not covered here
                        break
                # Then every other option still possible for its other items (but
                # those of the same colour) leaves the segments of its other items.  A
                # primary item still to cover left with no option ends the try at once
                # (Knuth's SSXC): the child is no node.
                y = xn + 1
                while y != xn and not dead:
                    j = nd[2 * y]
                    if j <= 0:
                        y += j
                        continue
                    if y == hn or (j >= second and sets[j - 2] >= lim):
                        y += 1
                        continue  # the head's, or left before this option
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
                    y += 1
                if not dead:
                    xs[level] = xn
                    ebase[level + 1] = eend[level]
                    level += 1
                    entering = True
                    break
                if level < replay_end:
                    self.bad_replay = True
                    step = 2
                    break
                if ks[level] + 1 < ds[level]:
                    ks[level] += 1
                    continue
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
        self.reused = reused
        self.pact = pact
        self.sact = sact
        self.ttop = ttop
        self.ptop = ptop
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        return found
