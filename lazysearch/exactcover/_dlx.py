"""Algorithm C (exact cover with colours) on dancing links, as an explicit-stack machine.

This is the hot loop of the library.  It is written in Cython's pure-Python mode: the
same file is compiled to C when a compiler is present and runs, slower, as plain Python
when it is not.  The layout follows Knuth's DLX2 (TAOCP 7.2.2.1, Algorithm C):

* items ``1..n`` have header nodes ``1..n``; ``llink``/``rlink`` link the primary items
  into a circular list headed by ``0`` and the secondary items into one headed by ``n+1``;
* option nodes follow the headers, one block per option, separated by *spacer* nodes
  whose ``top`` is ``<= 0``; a spacer's ``ulink`` is the first node of the option before
  it and its ``dlink`` the last node of the option after it;
* ``ulink``/``dlink`` link the nodes of one item vertically, ``top`` names the item,
  ``length`` counts the nodes still in an item's list, ``color`` holds a node's colour
  (``0`` none, ``-1`` already known compatible after a *purify*).

The search state is the stack ``x[0..level)`` of chosen nodes together with ``k`` (the
index of the chosen option in its item's list) and ``d`` (that list's length when the
item was chosen): the *position* is ``k[0..level)``, plain data from which the whole
stack can be rebuilt.

There are no node objects, no recursion and no allocation per node.  The covering of
the chosen item is done by the same code as the commits of the other items of its option
(the item's header is treated as a colourless node of the option), and likewise for
uncovering, so each of Knuth's loops is written once, in place, rather than called: a
call per option costs more than its work when the file runs uncompiled.

(Keeping a node's four fields side by side in one array, as Knuth's C does, was measured
and dropped: no faster compiled, and 50% slower as plain Python.)
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


@cython.boundscheck(False)
@cython.wraparound(False)
def build_links(
    top: cython.int[::1],
    ulink: cython.int[::1],
    dlink: cython.int[::1],
    color: cython.int[::1],
    option_of: cython.int[::1],
    length: cython.int[::1],
    llink: cython.int[::1],
    rlink: cython.int[::1],
    n: cython.int,
    primary: cython.int,
    option_items: Sequence[Sequence[int]],
    option_colors: Sequence[Sequence[int]],
) -> None:
    """Knuth's links for ``n`` items (the first ``primary`` of them primary) and the
    options, in buffers the caller allocated: headers, the two circular item lists
    (primary headed by 0, secondary by ``n + 1``), and each option's nodes followed by
    a spacer (``top <= 0``).  Shared by the engines on dancing links (typed loops: fast
    when compiled)."""
    i: cython.int
    j: cython.int
    t: cython.int
    p: cython.int
    q: cython.int
    first: cython.int
    spacer: cython.int
    prev: cython.int
    # Headers: a header's ``top`` is unused (kept positive); empty vertical lists.
    for i in range(n + 1):
        top[i] = i
        ulink[i] = i
        dlink[i] = i
    # The two circular item lists, primary headed by 0, secondary by n+1.
    for i in range(primary + 1):
        llink[i] = i - 1 if i > 0 else primary
        rlink[i] = i + 1 if i < primary else 0
    prev = n + 1
    for i in range(primary + 1, n + 1):
        llink[i] = prev
        rlink[prev] = i
        prev = i
    llink[n + 1] = prev
    rlink[prev] = n + 1
    # The first spacer, then each option followed by a spacer.
    spacer = n + 1
    p = n + 2
    for j in range(len(option_items)):
        items = option_items[j]
        colors = option_colors[j]
        first = p
        for t in range(len(items)):
            i = items[t]
            q = ulink[i]
            top[p] = i
            ulink[p] = q
            dlink[p] = i
            dlink[q] = p
            ulink[i] = p
            color[p] = colors[t]
            option_of[p] = j
            length[i] += 1
            p += 1
        dlink[spacer] = p - 1
        spacer = p
        top[p] = -(j + 1)
        ulink[p] = first
        p += 1


@cython.cclass
class DLXEngine(Machine):
    """The dancing-links machine for one exact-cover problem (items and options as ints).

    ``primary`` and ``secondary`` count the items; ``option_items[j]`` lists the items of
    option ``j`` (1-based item numbers, primary first) and ``option_colors[j]`` their
    colours (``0`` for none).  ``least_constraining`` is 0 for list order, or the power
    ``p`` for trying options in the order of the sum of their other items' lengths to
    the ``p``-th (see below).  ``labels[j]``, when given, is the number solutions
    give option ``j`` (a seeded order: the options come shuffled, solutions name them
    as the user did).
    """

    top: cython.int[::1]
    ulink: cython.int[::1]
    dlink: cython.int[::1]
    color: cython.int[::1]
    length: cython.int[::1]
    llink: cython.int[::1]
    rlink: cython.int[::1]
    option_of: cython.int[::1]
    alt: cython.int[::1]
    score: cython.int[::1]
    base: cython.int[::1]

    plain: cython.bint
    lcv_power: cython.int

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
        least_constraining: int = 0,
        labels: Sequence[int] | None = None,
    ) -> None:
        n: cython.int = primary + secondary
        m: cython.int = n + 2 + sum([len(o) + 1 for o in option_items])  # headers, nodes, spacers
        depth = primary + 1
        self._allocate(primary, n, depth)
        buffers = [_buffers.zeros(m, COMPILED) for _ in range(4)] + [
            _buffers.zeros(n + 2, COMPILED) for _ in range(3)
        ]
        self.top, self.ulink, self.dlink, self.color, self.length, self.llink, self.rlink = buffers
        self.option_of = _buffers.ints([-1] * m, COMPILED)
        self._build(primary, option_items, option_colors)
        if labels is not None:  # the options were given shuffled: name them as the user did
            of = self.option_of
            for p in range(m):
                if of[p] >= 0:
                    of[p] = labels[of[p]]
        # Without colours no node is ever purified (``color`` stays 0), so hide/unhide may
        # skip reading it: one memory load less per node moved, about 8% of the time.
        self.plain = not any(any(c) for c in option_colors)
        # Least constraining first: the options of a branching item are tried in the
        # order of the sum of the lengths of their other items to the power p, least
        # first, ties in list order.  (ExactCover uses squares: on the 25x25 sudoku
        # samples the worst first-solution search fell from 3M+ nodes with plain
        # lengths to 1.9M, and all the others to at most 6,100 nodes.  Sudoku races
        # squares against cubes, which find that worst one in 310k.)  Level ``t`` keeps
        # its order in ``alt[base[t]:base[t+1]]``; an option sits in at most one level's
        # list on the stack (choosing an item hides every other option of its list), so
        # room for one entry per option is enough.
        self.lcv_power = least_constraining
        self.alt = _buffers.zeros(len(option_items) + 1, COMPILED)
        self.score = _buffers.zeros(len(option_items) + 1, COMPILED)
        self.base = _buffers.zeros(depth + 1, COMPILED)
        self._keep(buffers[1:])  # all but ``top``, which never changes

    def _build(
        self,
        primary: cython.int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
    ) -> None:
        """X1: fill the preallocated buffers (see :func:`build_links`)."""
        build_links(
            self.top,
            self.ulink,
            self.dlink,
            self.color,
            self.option_of,
            self.length,
            self.llink,
            self.rlink,
            self.n_items,
            primary,
            option_items,
            option_colors,
        )

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children."""
        if self.rlink[0] == 0:
            return -1
        best: cython.int = 0x7FFFFFFF
        p: cython.int = self.rlink[0]
        while p != 0:
            if self.length[p] < best:
                best = self.length[p]
                if best <= 1:
                    break  # the same rule as C3 in run()
            p = self.rlink[p]
        return best

    def solution(self) -> tuple[int, ...]:
        """The options (0-based, ascending) of the partial solution on the stack."""
        return tuple(sorted([self.option_of[self.x[t]] for t in range(self.level)]))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.
        """
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        dlink: cython.int[::1] = self.dlink
        color: cython.int[::1] = self.color
        length: cython.int[::1] = self.length
        llink: cython.int[::1] = self.llink
        rlink: cython.int[::1] = self.rlink
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        replay_k: cython.int[::1] = self.replay_k
        alt: cython.int[::1] = self.alt
        score: cython.int[::1] = self.score
        bases: cython.int[::1] = self.base
        n: cython.int = self.n_items
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
        p: cython.int = 0
        q: cython.int
        r: cython.int
        u: cython.int
        dn: cython.int
        xl: cython.int = 0
        nxt: cython.int
        best: cython.int
        kk: cython.int
        b: cython.int
        s: cython.longlong
        t: cython.int
        descend: cython.bint
        entering: cython.bint = self.state == ENTER
        plain: cython.bint = self.plain
        lcv: cython.bint = self.lcv_power > 0
        power: cython.int = self.lcv_power
        w: cython.longlong
        v: cython.longlong
        _e: cython.int
        big: cython.longlong

        if self.state == DONE:
            return 0
        while True:
            descend = False
            if entering:
                # C2: enter the node at ``level``.
                if nodes == stop_at and replay_end == 0:
                    self.state = ENTER
                    break
                nodes += 1
                if rlink[0] == 0:
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
                    # C3: choose the item i with the fewest options (leftmost on ties; the
                    # first with at most one option at once).
                    best = 0x7FFFFFFF
                    p = rlink[0]
                    while p != 0:
                        if length[p] < best:
                            best = length[p]
                            i = p
                            if best <= 1:
                                break  # a forced move (or a dead end): look no further
                        p = rlink[p]
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
                        # C4: take the first option of i (or the one being replayed);
                        # the commit below covers i itself first, as a colourless node.
                        xl = dlink[i]
                        kk = 0
                        if level < replay_end:
                            kk = replay_k[level]
                            if kk >= best:
                                self.bad_replay = True
                                break
                        if lcv:
                            b = bases[level]
                            if best > 1:
                                # Order i's options by the sum of the squared lengths
                                # of their other items (insertion sort: stable, and
                                # the lists are short).
                                q = xl
                                t = 0
                                while q != i:
                                    s = 0
                                    r = q + 1
                                    while r != q:
                                        jj = top[r]
                                        if jj <= 0:
                                            r = ulink[r]
                                        else:
                                            w = length[jj]
                                            v = w * w
                                            for _e in range(2, power):
                                                v *= w
                                            s += w if power == 1 else v
                                            r += 1
                                    big = 0x7FFFFFFF
                                    if s > big:
                                        s = big  # ``score`` holds ints: saturate
                                    u = b + t
                                    while u > b and score[u - 1] > s:
                                        alt[u] = alt[u - 1]
                                        score[u] = score[u - 1]
                                        u -= 1
                                    alt[u] = q
                                    score[u] = s
                                    t += 1
                                    q = dlink[q]
                                xl = alt[b + kk]
                                b += best
                            bases[level + 1] = b
                        else:
                            while kk > 0:
                                xl = dlink[xl]
                                kk -= 1
                        if level < replay_end:
                            kk = replay_k[level]
                        xs[level] = xl
                        ks[level] = kk
                        ds[level] = best
                        p = i
                        descend = True
            if not descend:
                while True:
                    # C8: leave the node at ``level``.
                    if level == floor:
                        self.state = DONE
                        break
                    level -= 1
                    xl = xs[level]
                    i = top[xl]
                    if not lcv:
                        nxt = dlink[xl]
                    elif ks[level] + 1 < ds[level]:
                        nxt = alt[bases[level] + ks[level] + 1]
                    else:
                        nxt = i
                    # C6: uncommit the other items of xl going left; when xl was the
                    # last option of i, go on to C7 and uncover i as well.
                    p = xl - 1
                    while True:
                        if p == xl:
                            if nxt != i:
                                break
                            p = i
                        j = top[p]
                        if j <= 0:
                            p = dlink[p]
                            continue
                        c = color[p]
                        if c >= 0:
                            q = ulink[j]
                            while q != j:
                                if c > 0 and (q == p or color[q] < 0):
                                    if q != p:
                                        color[q] = c
                                else:
                                    # unhide(q)
                                    r = q - 1
                                    while r != q:
                                        jj = top[r]
                                        if jj <= 0:
                                            r = dlink[r]
                                        else:
                                            if plain or color[r] >= 0:
                                                u = ulink[r]
                                                dn = dlink[r]
                                                dlink[u] = r
                                                ulink[dn] = r
                                                length[jj] += 1
                                            r -= 1
                                q = ulink[q]
                            if c == 0:
                                r = llink[j]
                                q = rlink[j]
                                rlink[r] = j
                                llink[q] = j
                        if p <= n:
                            break
                        p -= 1
                    if nxt != i:
                        xs[level] = nxt
                        ks[level] += 1
                        xl = nxt
                        p = xl + 1
                        descend = True
                        break
                if not descend:
                    break
            # C5: commit the items of option xl, starting at node p (the header of the
            # chosen item when the level is new, so that it is covered first).
            while p != xl:
                j = top[p]
                if j <= 0:
                    p = ulink[p]
                    continue
                c = color[p]
                if c >= 0:
                    if c == 0:
                        r = llink[j]
                        q = rlink[j]
                        rlink[r] = q
                        llink[q] = r
                    q = dlink[j]
                    while q != j:
                        if c > 0 and (q == p or color[q] == c):
                            if q != p:
                                color[q] = -1
                        else:
                            # hide(q)
                            r = q + 1
                            while r != q:
                                jj = top[r]
                                if jj <= 0:
                                    r = ulink[r]
                                else:
                                    if plain or color[r] >= 0:
                                        u = ulink[r]
                                        dn = dlink[r]
                                        dlink[u] = dn
                                        ulink[dn] = u
                                        length[jj] -= 1
                                    r += 1
                        q = dlink[q]
                p = xl + 1 if p <= n else p + 1
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
