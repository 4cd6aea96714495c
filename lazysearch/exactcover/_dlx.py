"""Algorithm C (exact cover with colours) on dancing links, as an explicit-stack machine.

This is the hot loop of the library.  It is written in Cython's pure-Python mode: the
same file is compiled to C when a compiler is present and runs, slower, as plain Python
when it is not.  The data structure is Knuth's (TAOCP 7.2.2.1, Algorithms X and C; his
programs DLX1 and DLX2), with every node four consecutive ints in one array ``nd``:

    nd[x + TOP]    the item of node x (its header's address), or <= 0 for a spacer;
                   in an item's header node: the number of options left in its list (LEN)
    nd[x + ULINK]  the node above x in its item's list
    nd[x + DLINK]  the node below x
    nd[x + COLOR]  x's colour: 0 none, > 0 a colour, -1 known compatible (after purify)

so one node is one 16-byte record, and an address x is 4 times the node's number.
Item ``j`` (1-based) has its header at address ``4j``; ``llink``/``rlink`` (indexed by
header address) link the primary items into a circular list headed by 0 and the
secondary items into one headed by ``4(n+1)``.  Options follow the headers, each a run
of nodes, separated by *spacers*: a spacer's ULINK is the first node of the option
before it and its DLINK the last node of the option after it.

The search state is the stack ``x[0..level)`` of chosen nodes together with ``k`` (the
index of the chosen option in its item's list) and ``d`` (that list's length when the
item was chosen): the *position* is ``k[0..level)``, plain data from which the whole
stack can be rebuilt.

There are no node objects, no recursion and no allocation per node.  The covering of
the chosen item is done by the same code as the commits of the other items of the
option (the header is treated as a colourless node of it), and likewise for uncovering,
so each of Knuth's loops is written once, in place, rather than called: a call per
option costs more than its work when the file runs uncompiled.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

import array

COMPILED: bool = cython.compiled

# Engine states.
ENTER = 0  # about to enter the node at ``level`` (nothing done there yet)
LEAF = 1  # the node at ``level`` was just reported; next step backs up
DONE = 2  # the whole (sub)tree has been walked

# What ``run`` reports for the leaf it stopped at.
SOLUTION = 1
CUT = 2  # a node at ``cut_depth`` (used to list subtrees)

# Offsets of the fields of a node (see the module docstring); C constants when compiled.
TOP = cython.declare(cython.int, 0)
ULINK = cython.declare(cython.int, 1)
DLINK = cython.declare(cython.int, 2)
COLOR = cython.declare(cython.int, 3)


def _ints(values: list[int]) -> object:
    """A mutable int buffer: ``array('i')`` for compiled code, a list for plain Python."""
    if COMPILED:
        return array.array("i", values)
    return values


@cython.cclass
class DLXEngine:
    """The dancing-links machine for one exact-cover problem (items and options as ints).

    ``primary`` and ``secondary`` count the items; ``option_items[j]`` lists the items of
    option ``j`` (1-based item numbers, primary first) and ``option_colors[j]`` their
    colours (``0`` for none).
    """

    nd: cython.int[::1]
    llink: cython.int[::1]
    rlink: cython.int[::1]
    option_of: cython.int[::1]
    x: cython.int[::1]
    k: cython.int[::1]
    d: cython.int[::1]
    replay_k: cython.int[::1]
    _pristine: object

    n_items: cython.int
    replay_end: cython.int
    bad_replay: cython.bint
    n_primary = cython.declare(cython.int, visibility="public")
    level = cython.declare(cython.int, visibility="public")
    floor = cython.declare(cython.int, visibility="public")
    state = cython.declare(cython.int, visibility="public")
    cut_depth = cython.declare(cython.int, visibility="public")
    leaf_kind = cython.declare(cython.int, visibility="public")
    nodes = cython.declare(cython.longlong, visibility="public")
    solutions = cython.declare(cython.longlong, visibility="public")

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: list[list[int]],
        option_colors: list[list[int]],
    ) -> None:
        n = primary + secondary
        # Build with node numbers (x), then scale to addresses (4x) at the end.
        top = [0] * (n + 1)  # a header's TOP is its LEN, counted below
        ulink = list(range(n + 1))
        dlink = list(range(n + 1))
        color = [0] * (n + 1)
        option_of = [-1] * (n + 1)
        # The two circular item lists: primary headed by 0, secondary by n+1.
        llink = [0] * (n + 2)
        rlink = [0] * (n + 2)
        for i in range(primary + 1):
            llink[i] = i - 1 if i > 0 else primary
            rlink[i] = i + 1 if i < primary else 0
        head = n + 1
        prev = head
        for i in range(primary + 1, n + 1):
            llink[i] = prev
            rlink[prev] = i
            prev = i
        llink[head] = prev
        rlink[prev] = head
        # The first spacer.
        top.append(0)
        ulink.append(0)
        dlink.append(0)
        color.append(0)
        option_of.append(-1)
        spacer = n + 1
        for j, items in enumerate(option_items):
            colors = option_colors[j]
            first = len(top)
            for t, i in enumerate(items):
                p = len(top)
                q = ulink[i]
                top.append(4 * i)
                ulink.append(q)
                dlink.append(i)
                dlink[q] = p
                ulink[i] = p
                color.append(colors[t])
                option_of.append(j)
                top[i] += 1
            dlink[spacer] = len(top) - 1
            spacer = len(top)
            top.append(-(j + 1))
            ulink.append(first)
            dlink.append(0)
            color.append(0)
            option_of.append(-1)
        nd = [0] * (4 * len(top))
        for x in range(len(top)):
            nd[4 * x + TOP] = top[x]
            nd[4 * x + ULINK] = 4 * ulink[x]
            nd[4 * x + DLINK] = 4 * dlink[x]
            nd[4 * x + COLOR] = color[x]
        item_llink = [0] * (4 * (n + 2))
        item_rlink = [0] * (4 * (n + 2))
        for i in range(n + 2):
            item_llink[4 * i] = 4 * llink[i]
            item_rlink[4 * i] = 4 * rlink[i]
        depth = primary + 1
        self.n_primary = primary
        self.n_items = n
        self.nd = _ints(nd)
        self.llink = _ints(item_llink)
        self.rlink = _ints(item_rlink)
        self.option_of = _ints(option_of)
        self.x = _ints([0] * depth)
        self.k = _ints([0] * depth)
        self.d = _ints([0] * depth)
        self.replay_k = _ints([0] * depth)
        self._pristine = (list(nd), list(item_llink), list(item_rlink))
        self.level = 0
        self.floor = 0
        self.state = ENTER
        self.cut_depth = depth + 1
        self.replay_end = 0
        self.leaf_kind = 0
        self.bad_replay = False
        self.nodes = 0
        self.solutions = 0

    def restart(self) -> None:
        """Go back to the root with the links as they were built."""
        nd, llink, rlink = self._pristine
        i: cython.Py_ssize_t
        for i in range(len(nd)):
            self.nd[i] = nd[i]
        for i in range(len(llink)):
            self.llink[i] = llink[i]
            self.rlink[i] = rlink[i]
        self.level = 0
        self.floor = 0
        self.state = ENTER
        self.replay_end = 0
        self.bad_replay = False
        self.leaf_kind = 0

    def replay(self, ks: list[int]) -> bool:
        """From the node about to be entered, take choice ``ks[0]``, then ``ks[1]``, ...

        Returns False when a choice does not exist (an index out of range, or a leaf
        reached too early); the engine must then be ``restart()``-ed before further use.
        """
        if not ks:
            return self.state == ENTER
        if self.state != ENTER or self.level + len(ks) >= len(self.x):
            return False
        start: cython.int = self.level
        t: cython.int
        for t in range(len(ks)):
            if ks[t] < 0:
                return False
            self.replay_k[start + t] = ks[t]
        self.replay_end = start + len(ks)
        self.bad_replay = False
        saved_nodes = self.nodes
        self.run(0, 0)
        self.nodes = saved_nodes
        ok = not self.bad_replay and self.level == start + len(ks) and self.state == ENTER
        self.replay_end = 0
        return ok

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children."""
        if self.rlink[0] == 0:
            return -1
        best: cython.int = 0x7FFFFFFF
        p: cython.int = self.rlink[0]
        while p != 0:
            if self.nd[p + TOP] < best:
                best = self.nd[p + TOP]
                if best <= 1:
                    break  # the same rule as C3 in run()
            p = self.rlink[p]
        return best

    def position(self) -> list[int]:
        return [self.k[t] for t in range(self.level)]

    def degrees(self) -> list[int]:
        return [self.d[t] for t in range(self.level)]

    def solution(self) -> tuple[int, ...]:
        """The options (0-based, ascending) of the partial solution on the stack."""
        return tuple(sorted([self.option_of[self.x[t] >> 2] for t in range(self.level)]))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.

        The field offsets are written as numbers here (``nd[x]`` TOP, ``nd[x + 1]``
        ULINK, ``nd[x + 2]`` DLINK, ``nd[x + 3]`` COLOR): named globals would be memory
        loads that the C compiler must repeat after every store into ``nd``.
        """
        nd: cython.int[::1] = self.nd
        llink: cython.int[::1] = self.llink
        rlink: cython.int[::1] = self.rlink
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        replay_k: cython.int[::1] = self.replay_k
        last_header: cython.int = 4 * self.n_items
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
        descend: cython.bint
        entering: cython.bint = self.state == ENTER

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
                    # C3: choose the item i with the fewest options (leftmost on ties;
                    # the first with at most one option at once).
                    best = 0x7FFFFFFF
                    p = rlink[0]
                    while p != 0:
                        if nd[p] < best:
                            best = nd[p]
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
                        xl = nd[i + 2]
                        kk = 0
                        if level < replay_end:
                            kk = replay_k[level]
                            if kk >= best:
                                self.bad_replay = True
                                break
                            while kk > 0:
                                xl = nd[xl + 2]
                                kk -= 1
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
                    i = nd[xl]
                    nxt = nd[xl + 2]
                    # C6: uncommit the other items of xl going left; when xl was the
                    # last option of i, go on to C7 and uncover i as well.
                    p = xl - 4
                    while True:
                        if p == xl:
                            if nxt != i:
                                break
                            p = i
                        if p <= last_header:
                            j = p
                            c = 0
                        else:
                            j = nd[p]
                            if j <= 0:
                                p = nd[p + 2]
                                continue
                            c = nd[p + 3]
                        if c >= 0:
                            q = nd[j + 1]
                            while q != j:
                                if c > 0 and (q == p or nd[q + 3] < 0):
                                    if q != p:
                                        nd[q + 3] = c
                                else:
                                    # unhide(q)
                                    r = q - 4
                                    while r != q:
                                        jj = nd[r]
                                        if jj <= 0:
                                            r = nd[r + 2]
                                        else:
                                            if nd[r + 3] >= 0:
                                                u = nd[r + 1]
                                                dn = nd[r + 2]
                                                nd[u + 2] = r
                                                nd[dn + 1] = r
                                                nd[jj] += 1
                                            r -= 4
                                q = nd[q + 1]
                            if c == 0:
                                r = llink[j]
                                q = rlink[j]
                                rlink[r] = j
                                llink[q] = j
                        if p <= last_header:
                            break
                        p -= 4
                    if nxt != i:
                        xs[level] = nxt
                        ks[level] += 1
                        xl = nxt
                        p = xl + 4
                        descend = True
                        break
                if not descend:
                    break
            # C5: commit the items of option xl, starting at node p (the header of the
            # chosen item when the level is new, so that it is covered first).
            while p != xl:
                if p <= last_header:
                    j = p
                    c = 0
                else:
                    j = nd[p]
                    if j <= 0:
                        p = nd[p + 1]
                        continue
                    c = nd[p + 3]
                if c >= 0:
                    if c == 0:
                        r = llink[j]
                        q = rlink[j]
                        rlink[r] = q
                        llink[q] = r
                    q = nd[j + 2]
                    while q != j:
                        if c > 0 and (q == p or nd[q + 3] == c):
                            if q != p:
                                nd[q + 3] = -1
                        else:
                            # hide(q)
                            r = q + 4
                            while r != q:
                                jj = nd[r]
                                if jj <= 0:
                                    r = nd[r + 1]
                                else:
                                    if nd[r + 3] >= 0:
                                        u = nd[r + 1]
                                        dn = nd[r + 2]
                                        nd[u + 2] = dn
                                        nd[dn + 1] = u
                                        nd[jj] -= 1
                                    r += 4
                        q = nd[q + 2]
                p = xl + 4 if p <= last_header else p + 4
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
