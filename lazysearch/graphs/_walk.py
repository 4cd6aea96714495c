"""Hamiltonian cycles of any graph as an explicit-stack machine (Cython pure mode, like
the knight's tour engine :mod:`lazysearch.knights._tour`, whose rules it generalises).

The graph comes as compressed rows: the out-neighbours of vertex ``v`` are
``adj[offs[v]:offs[v + 1]]`` and its in-neighbours ``iadj[ioffs[v]:ioffs[v + 1]]``
(the same arrays when the graph is undirected).  Every search is a search for cycles
through one vertex, the *anchor*: level 0 visits it, level 1 chooses the second vertex
among the anchor's first ``limit`` out-neighbours, and a leaf is a path through every
vertex whose last vertex goes back to the anchor.  (Paths are cycles of the graph with
one more vertex as the anchor; see :mod:`lazysearch.graphs.hamilton`.)

Undirected, each cycle is listed once: its two directions are told apart by the
positions, in the anchor's neighbour list, of the second vertex and the last one, and
only the direction whose last comes after its second is kept.  So once the second is
chosen (position ``srank``), the anchor's neighbours before it can no longer close the
cycle.

For each vertex the machine keeps ``deg``, its number of free (out-)neighbours, the
anchor counting for the vertices that may still close the cycle with it; a directed
search keeps ``indeg`` too, its free in-neighbours.  Before listing the choices at a
node, rules that never discard a cycle prune it (``F`` the free vertices, ``s`` the
last vertex of the path):

* undirected (the knight engine's closed-tour rules): a vertex of ``F`` needs two
  neighbours on the cycle, its predecessor in ``F`` or ``s`` and its successor in ``F``
  or the anchor.  So a vertex of ``F`` with ``deg`` 0 is a dead end; one with ``deg`` 1
  must come next, so two such neighbours of ``s`` are a dead end and one is the forced
  move.  A vertex's ``deg`` drops only when a neighbour is visited, which is ``s``, so
  looking at the neighbours of ``s`` is enough (and, once, at the anchor's neighbours
  that lost the anchor when the second was chosen).  A vertex of ``F`` that may close
  the cycle and has one free neighbour besides (``deg`` 2: ``ends`` counts them, kept
  up to date on every move) must come next or last (the knight engine's open-tour rule):
  more than two of them, or more than one that is not a neighbour of ``s``, is a dead
  end, and when there are two the next vertex is one of them.  (A path search, whose
  anchor is joined to every vertex that may end the path, prunes by this rule the way
  the knight engine's open tours do.)
* directed: a vertex of ``F`` with no free out-neighbour (``zeros``, kept up to date on
  every move) is a dead end; one with no free in-neighbour must come next from ``s``:
  two such out-neighbours of ``s`` are a dead end, one is the forced move.
* both: when no vertex that may close the cycle is left free (``back``), the node is a
  dead end.
* what is left (``_forced``, ``_split``), at one level in ``every``: undirected, the
  graph of ``F``, ``s`` and the anchor, with an edge from ``s`` to the anchor and the
  anchor's edges to the vertices that may close the cycle, must have a Hamiltonian
  cycle through that edge.  So the edges forced by vertices with two edges left must
  not contradict each other (a vertex with three, or a cycle short of every vertex),
  and the graph without the edges they leave out must be 2-connected.  Directed: ``s``
  must reach every vertex of ``F`` through ``F``, and every vertex of ``F`` the anchor.
  Where the end before ``s`` had no free neighbour but ``s``, the graph is the last
  one with that step contracted, and the test is not run.

The choices at a node are the free out-neighbours of ``s`` in Warnsdorff order: fewer
free neighbours first, ties to the lower ``tie`` (a fixed rank of each vertex).  The
choices of the node after ``s`` are stored at ``cand[offs[s]:]``: ``s`` is on the
stack once, so the slices of the levels never overlap.
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

__all__ = ["CUT", "DONE", "ENTER", "LEAF", "SOLUTION", "CycleEngine"]


#: The tests of what is left (forced edges, 2-connectivity) run at one level in
#: ``max(SPLIT_LEAST, n / SPLIT_EVERY)``: on a 10x10 grid one in 4 (the first 1,000
#: cycles in 33,361 nodes and 5 ms of CPU, against 78,960 nodes and 1.7 ms without
#: them), on a random cubic graph of 1,000 vertices one in 4 (one in 16 finds no cycle
#: in 20 s), on a 100x100 grid one in 40.
SPLIT_EVERY = 256
SPLIT_LEAST = 4


USABLE: cython.uchar = 0
FORCED: cython.uchar = 1
GONE: cython.uchar = 2


def _reverse_slots(offs: Sequence[int], adj: Sequence[int], directed: bool) -> list[int]:
    """For each slot ``t`` of the rows (the edge from ``v`` to ``adj[t]``), the slot of
    the same edge from its other end (undirected; zeros when directed)."""
    n = len(offs) - 1
    out = [0] * (len(adj) + 1)
    if directed:
        return out
    slot = {(v, adj[t]): t for v in range(n) for t in range(offs[v], offs[v + 1])}
    for (v, w), t in slot.items():
        out[t] = slot[(w, v)]
    return out


def _bytes(size: int) -> object:
    """``size`` zeros a byte each when compiled; a list when plain Python (lists index
    faster there)."""
    return bytearray(size) if COMPILED else [0] * size


@cython.cclass
class CycleEngine(Machine):
    """The cycle machine for one graph; see the module notes for the rules it applies.

    ``offs``/``adj`` are the out-neighbour rows, ``ioffs``/``iadj`` the in-neighbour
    rows (the same for an undirected graph); ``anchor`` is the vertex every cycle starts
    at and ``limit`` how many of its first out-neighbours may come second; ``tie`` ranks
    the vertices for Warnsdorff's ties.  The path is the machine's stack ``x``.
    """

    offs: cython.int[::1]
    adj: cython.int[::1]
    ioffs: cython.int[::1]
    iadj: cython.int[::1]
    tie: cython.int[::1]
    arank: cython.int[::1]
    free: cython.uchar[::1]
    deg: cython.int[::1]
    indeg: cython.int[::1]
    keys: cython.longlong[::1]
    cand: cython.int[::1]
    disc: cython.longlong[::1]
    low: cython.longlong[::1]
    parent: cython.int[::1]
    stack: cython.int[::1]
    at: cython.int[::1]
    stamp: cython.longlong
    every: cython.int
    rev: cython.int[::1]
    mark: cython.uchar[::1]
    hdeg: cython.int[::1]
    fdeg: cython.int[::1]
    root: cython.int[::1]

    n: cython.int
    anchor: cython.int
    limit: cython.int
    directed: cython.bint
    srank: cython.int
    back: cython.int
    zeros: cython.int
    ends: cython.int
    children: cython.int

    def __init__(
        self,
        offs: Sequence[int],
        adj: Sequence[int],
        ioffs: Sequence[int],
        iadj: Sequence[int],
        directed: bool,
        anchor: int,
        limit: int,
        tie: Sequence[int],
    ):
        n = len(offs) - 1
        self.n = n
        self.directed = directed
        self.anchor = anchor
        self.limit = limit
        self.offs = _buffers.ints(list(offs), COMPILED)
        self.adj = _buffers.ints(list(adj) or [0], COMPILED)
        self.ioffs = _buffers.ints(list(ioffs), COMPILED)
        self.iadj = _buffers.ints(list(iadj) or [0], COMPILED)
        self.tie = _buffers.ints(list(tie), COMPILED)
        # The position of each vertex among the anchor's neighbours that may close the
        # cycle (undirected: its neighbours; directed: its in-neighbours), else -1.
        rank = [-1] * n
        for t in range(ioffs[anchor], ioffs[anchor + 1]):
            rank[iadj[t]] = t - ioffs[anchor]
        self.arank = _buffers.ints(rank, COMPILED)
        self.free = _bytes(n)
        self.deg = _buffers.zeros(n, COMPILED)
        self.indeg = _buffers.zeros(n, COMPILED)
        widest = max([offs[v + 1] - offs[v] for v in range(n)] + [1])
        self.keys = _buffers.zeros64(widest + 1, COMPILED)
        self.cand = _buffers.zeros(len(adj) + 1, COMPILED)
        # The split test's depth-first search: discovery order and low points (above
        # ``stamp``: met in this test), parents, and its stack of vertices and places
        # in their rows.
        self.disc = _buffers.zeros64(n + 1, COMPILED)
        self.low = _buffers.zeros64(n + 1, COMPILED)
        self.parent = _buffers.zeros(n + 1, COMPILED)
        self.stack = _buffers.zeros(n + 1, COMPILED)
        self.at = _buffers.zeros(n + 1, COMPILED)
        self.stamp = 0
        # The forced-edge test: each slot's reverse (undirected), its state (USABLE,
        # FORCED or GONE), and each vertex's usable and forced edges and union-find root.
        self.rev = _buffers.ints(_reverse_slots(offs, adj, directed), COMPILED)
        self.mark = _bytes(len(adj) + 1)
        self.hdeg = _buffers.zeros(n + 1, COMPILED)
        self.fdeg = _buffers.zeros(n + 1, COMPILED)
        self.root = _buffers.zeros(n + 1, COMPILED)
        # The levels at which it runs: one in SPLIT_LEAST up to SPLIT_EVERY *
        # SPLIT_LEAST vertices, then one in n / SPLIT_EVERY, so that it costs
        # O(SPLIT_EVERY) a node.
        self.every = max(SPLIT_LEAST, (n + SPLIT_EVERY - 1) // SPLIT_EVERY)
        self._allocate(0, n, n + 1, True)  # the stack, replayed only if asked
        self.restart()

    def restart(self) -> None:
        """Back to the root: every vertex free, nothing on the stack."""
        offs: cython.int[::1] = self.offs
        ioffs: cython.int[::1] = self.ioffs
        arank: cython.int[::1] = self.arank
        free: cython.uchar[::1] = self.free
        deg: cython.int[::1] = self.deg
        indeg: cython.int[::1] = self.indeg
        v: cython.int
        zeros: cython.int = 0
        ends: cython.int = 0
        for v in range(self.n):
            free[v] = 1
            deg[v] = offs[v + 1] - offs[v]
            indeg[v] = ioffs[v + 1] - ioffs[v]
            if deg[v] == 0:
                zeros += 1
            if arank[v] >= 0 and deg[v] == 2:
                ends += 1
        self.zeros = zeros
        self.ends = ends
        self.srank = -1
        self.back = 0
        self._root()

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a complete cycle, else its number of
        children (entered with the walk fenced to the node, then put back)."""
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

    def solution(self) -> tuple[int, ...]:
        """The path on the stack, as vertex numbers (the anchor first)."""
        path: cython.int[::1] = self.x
        out: list[int] = [0] * self.level
        t: cython.int
        for t in range(self.level):
            out[t] = path[t]
        return tuple(out)

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _forced(self, s: cython.int, left: cython.int, srank: cython.int) -> cython.bint:
        """Whether the edges that a cycle through the free vertices, ``s`` and the anchor
        must use (undirected) contradict each other.

        In that graph (the anchor joined to ``s`` and to the vertices that may close the
        cycle) every vertex has two edges on the cycle: a vertex with two edges left
        must use both (the edge from ``s`` to the anchor is used from the start), and a
        vertex with two edges used loses its others, which may leave another with two,
        and so on.  A vertex with fewer than two edges left or more than two used, or
        used edges closing a cycle short of every vertex, is a contradiction.  The
        edges left out are marked GONE for the 2-connectivity test that follows.
        Cost: O(vertices + edges).
        """
        offs: cython.int[::1] = self.offs
        adj: cython.int[::1] = self.adj
        rev: cython.int[::1] = self.rev
        arank: cython.int[::1] = self.arank
        free: cython.uchar[::1] = self.free
        mark: cython.uchar[::1] = self.mark
        hdeg: cython.int[::1] = self.hdeg
        fdeg: cython.int[::1] = self.fdeg
        root: cython.int[::1] = self.root
        queue: cython.int[::1] = self.stack
        a: cython.int = self.anchor
        size: cython.int = left + 2
        used: cython.int = 1  # the edge from s to the anchor
        top: cython.int = 0
        v: cython.int
        w: cython.int
        x: cython.int
        y: cython.int
        t: cython.int
        u: cython.int
        d: cython.int
        ok: cython.bint
        for v in range(self.n):
            if not (free[v] or v in (s, a)):
                continue
            d = 0
            for t in range(offs[v], offs[v + 1]):
                w = adj[t]
                if w == a:
                    ok = v != s and arank[v] > srank
                elif v == a:
                    ok = w != s and free[w] and arank[w] > srank
                else:
                    ok = free[w] or w == s
                if ok:
                    mark[t] = USABLE
                    d += 1
                else:
                    mark[t] = GONE
            if v in (s, a):
                d += 1  # the edge from s to the anchor
            hdeg[v] = d
            fdeg[v] = 1 if v in (s, a) else 0
            root[v] = v
            if d < 2:
                return True
            if d == 2:
                queue[top] = v
                top += 1
        root[s] = a
        while top > 0:
            top -= 1
            v = queue[top]
            if fdeg[v] >= 2:
                continue
            # v has two edges left: it uses both.
            for t in range(offs[v], offs[v + 1]):
                if mark[t] != USABLE:
                    continue
                w = adj[t]
                mark[t] = FORCED
                mark[rev[t]] = FORCED
                used += 1
                fdeg[v] += 1
                fdeg[w] += 1
                if fdeg[w] > 2 or fdeg[v] > 2:
                    return True
                # The used edges must not close a cycle short of every vertex.
                x = v
                while root[x] != x:
                    root[x] = root[root[x]]
                    x = root[x]
                y = w
                while root[y] != y:
                    root[y] = root[root[y]]
                    y = root[y]
                if x == y:
                    return used != size
                root[x] = y
                for d in range(2):
                    x = v if d == 0 else w
                    if fdeg[x] != 2:
                        continue
                    # x uses two edges: its others are gone.
                    for u in range(offs[x], offs[x + 1]):
                        if mark[u] != USABLE:
                            continue
                        y = adj[u]
                        mark[u] = GONE
                        mark[rev[u]] = GONE
                        hdeg[x] -= 1
                        hdeg[y] -= 1
                        if hdeg[y] < 2:
                            return True
                        if hdeg[y] == 2 and fdeg[y] < 2:
                            queue[top] = y
                            top += 1
        return False

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _split(self, s: cython.int, left: cython.int, srank: cython.int) -> cython.bint:
        """Whether the ``left`` free vertices cannot be the rest of a cycle from the
        path's end ``s`` back to the anchor, by their connections alone.

        Undirected: the graph on the free vertices, ``s`` and the anchor (the anchor
        joined to the vertices that may still close the cycle, and to ``s``) has a
        Hamiltonian cycle through the edge from ``s`` to the anchor, so it is
        2-connected: a depth-first search from the anchor through ``s`` (Tarjan's low
        points) must reach every vertex and find no cut vertex.  Directed: ``s`` must
        reach every free vertex through free vertices, and every free vertex the anchor.
        Cost: O(vertices + edges) of that graph.
        """
        offs: cython.int[::1] = self.offs
        adj: cython.int[::1] = self.adj
        ioffs: cython.int[::1] = self.ioffs
        iadj: cython.int[::1] = self.iadj
        free: cython.uchar[::1] = self.free
        disc: cython.longlong[::1] = self.disc
        low: cython.longlong[::1] = self.low
        parent: cython.int[::1] = self.parent
        stack: cython.int[::1] = self.stack
        at: cython.int[::1] = self.at
        a: cython.int = self.anchor
        base: cython.longlong = self.stamp
        order: cython.longlong = base
        mark: cython.uchar[::1]
        top: cython.int
        reached: cython.int = 0
        v: cython.int
        w: cython.int
        u: cython.int
        t: cython.int
        if self.directed:
            # Forwards from s through free vertices, then backwards from the anchor.
            for u in range(2):
                order += 1
                top = 0
                if u == 0:
                    stack[0] = s
                else:
                    stack[0] = a
                disc[stack[0]] = order
                reached = 0
                while top >= 0:
                    v = stack[top]
                    top -= 1
                    if u == 0:
                        for t in range(offs[v], offs[v + 1]):
                            w = adj[t]
                            if free[w] and disc[w] != order:
                                disc[w] = order
                                reached += 1
                                top += 1
                                stack[top] = w
                    else:
                        for t in range(ioffs[v], ioffs[v + 1]):
                            w = iadj[t]
                            if free[w] and disc[w] != order:
                                disc[w] = order
                                reached += 1
                                top += 1
                                stack[top] = w
                if reached != left:
                    self.stamp = order
                    return True
            self.stamp = order
            return False
        if self._forced(s, left, srank):
            self.stamp = order
            return True
        mark = self.mark
        order += 1
        disc[a] = order
        low[a] = order
        order += 1
        disc[s] = order
        low[s] = order
        parent[s] = a
        stack[0] = s
        at[0] = offs[s]
        top = 0
        while top >= 0:
            v = stack[top]
            t = at[top]
            if t < offs[v + 1]:
                at[top] = t + 1
                w = adj[t]
                if mark[t] == GONE:
                    pass  # not an edge of the graph tested, or left out by the forced ones
                elif w == a:
                    # The anchor (v may close the cycle): a back edge to the root.
                    if disc[a] < low[v]:
                        low[v] = disc[a]
                elif free[w] or w == s:
                    if disc[w] > base:
                        if w != parent[v] and disc[w] < low[v]:
                            low[v] = disc[w]
                    else:
                        order += 1
                        disc[w] = order
                        low[w] = order
                        parent[w] = v
                        reached += 1
                        top += 1
                        stack[top] = w
                        at[top] = offs[w]
            else:
                top -= 1
                if top >= 0:
                    u = stack[top]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] >= disc[u]:
                        self.stamp = order
                        return True  # u cuts v and what hangs below it off the anchor
        self.stamp = order
        return reached != left

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.

        Listing a node's choices, visiting a vertex and leaving it again are each written
        once, in place, in this loop: see the module notes for the rules.
        """
        offs: cython.int[::1] = self.offs
        adj: cython.int[::1] = self.adj
        ioffs: cython.int[::1] = self.ioffs
        iadj: cython.int[::1] = self.iadj
        tie: cython.int[::1] = self.tie
        arank: cython.int[::1] = self.arank
        free: cython.uchar[::1] = self.free
        deg: cython.int[::1] = self.deg
        indeg: cython.int[::1] = self.indeg
        keys: cython.longlong[::1] = self.keys
        cand: cython.int[::1] = self.cand
        path: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        replay_k: cython.int[::1] = self.replay_k
        n: cython.int = self.n
        anchor: cython.int = self.anchor
        first: cython.int = self.limit
        every: cython.int = self.every
        directed: cython.bint = self.directed
        srank: cython.int = self.srank
        back: cython.int = self.back
        zeros: cython.int = self.zeros
        ends: cython.int = self.ends
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        found: cython.longlong = 0
        b: cython.int = 0
        kk: cython.int
        sq: cython.int = 0
        s: cython.int
        w: cython.int
        t: cython.int
        u: cython.int
        i: cython.int
        j: cython.int
        dw: cython.int
        base: cython.int
        near: cython.int
        near_ends: cython.int
        forced: cython.int
        key: cython.longlong
        descend: cython.bint
        check: cython.bint
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
                # List the choices at ``level``: b of them, 0 at a dead end, -1 at a cycle.
                if level == 0:
                    b = 1
                elif level == n:
                    s = path[level - 1]
                    b = 0
                    if arank[s] > srank:
                        b = -1
                elif level > 1 and (back == 0 or (directed and zeros > 0)):
                    b = 0
                else:
                    s = path[level - 1]
                    base = offs[s]
                    b = 0
                    near = 0  # free neighbours of s that must come next
                    near_ends = 0  # free neighbours of s that must come next or last
                    forced = -1
                    u = offs[s + 1]
                    if level == 1:
                        u = base + first
                    for t in range(base, u):
                        w = adj[t]
                        if free[w]:
                            dw = deg[w]
                            if directed:
                                if indeg[w] == 0:
                                    near += 1
                                    forced = w
                            elif dw <= 1 and level > 1:
                                if dw == 0:
                                    b = -2  # w has no way on
                                    break
                                near += 1
                                forced = w
                            elif dw == 2 and arank[w] > srank:
                                near_ends += 1
                            # Fewer free neighbours first, then the lower rank.
                            key = (cython.cast(cython.longlong, dw) << 32) + tie[w]
                            i = b
                            while i > 0 and keys[i - 1] > key:
                                keys[i] = keys[i - 1]
                                cand[base + i] = cand[base + i - 1]
                                i -= 1
                            keys[i] = key
                            cand[base + i] = w
                            b += 1
                    if b == -2 or near >= 2:
                        b = 0
                    elif (
                        not directed
                        and level > 1
                        and (ends > 2 or ends - near_ends > 1 or (near == 1 and ends > 1))
                    ):
                        b = 0  # more vertices than one must be last
                    elif near == 1:
                        cand[base] = forced
                        b = 1
                    elif not directed and level > 1 and ends == 2:
                        # One of the two must come next: a neighbour of s.
                        j = 0
                        for i in range(b):
                            w = cand[base + i]
                            if deg[w] == 2 and arank[w] > srank:
                                cand[base + j] = w
                                j += 1
                        b = j
                    if level == 2 and not directed and b > 0:
                        # The anchor's neighbours before the second lost the anchor: each
                        # needs two free neighbours, or one and to come next.
                        for t in range(ioffs[anchor], ioffs[anchor] + srank):
                            dw = deg[iadj[t]]
                            if dw == 0 or (dw == 1 and (b != 1 or cand[base] != iadj[t])):
                                b = 0
                                break
                    if b > 0 and level >= 2 and n - level >= 2 and level % every == 0:
                        # The split test, unless (undirected) the end before s had no
                        # free neighbour but s: the test's graph is then the last one
                        # with the step from it to s contracted, 2-connected as that was.
                        check = directed or level == 2
                        if not check:
                            u = path[level - 2]
                            for t in range(offs[u], offs[u + 1]):
                                if free[adj[t]]:
                                    check = True
                                    break
                        if check and self._split(path[level - 1], n - level, srank):
                            b = 0
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
                    # Leave path[level]: it is free again, its neighbours regain it.
                    sq = path[level]
                    free[sq] = 1
                    if level > 1 and arank[sq] > srank:
                        back += 1
                    if level > 0:
                        if directed:
                            if deg[sq] == 0:
                                zeros += 1
                            for t in range(ioffs[sq], ioffs[sq + 1]):
                                w = iadj[t]
                                if free[w] and deg[w] == 0:
                                    zeros -= 1
                                deg[w] += 1
                        else:
                            if level == 1:
                                for t in range(ioffs[anchor], ioffs[anchor] + srank):
                                    w = iadj[t]
                                    deg[w] += 1
                                    if deg[w] == 2:
                                        ends += 1
                                srank = -1
                            for t in range(offs[sq], offs[sq + 1]):
                                w = adj[t]
                                if free[w] and arank[w] > srank:
                                    if deg[w] == 2:
                                        ends -= 1
                                    elif deg[w] == 1:
                                        ends += 1
                                deg[w] += 1
                            if arank[sq] > srank and deg[sq] == 2:
                                ends += 1
                    if directed:
                        for t in range(offs[sq], offs[sq + 1]):
                            indeg[adj[t]] += 1
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        descend = True
                        break
                if not descend:
                    break
            if level == 0:
                sq = anchor
            else:
                sq = cand[offs[path[level - 1]] + ks[level]]
            # Visit sq: the vertices it leads to lose a free in-neighbour, those that
            # lead to it a free out-neighbour (but the anchor's: they may come back to
            # it, so it keeps counting for them).
            path[level] = sq
            free[sq] = 0
            if directed:
                for t in range(offs[sq], offs[sq + 1]):
                    indeg[adj[t]] -= 1
            if level > 0:
                if directed:
                    if deg[sq] == 0:
                        zeros -= 1
                    for t in range(ioffs[sq], ioffs[sq + 1]):
                        w = iadj[t]
                        deg[w] -= 1
                        if free[w] and deg[w] == 0:
                            zeros += 1
                else:
                    if arank[sq] > srank and deg[sq] == 2:
                        ends -= 1
                    for t in range(offs[sq], offs[sq + 1]):
                        w = adj[t]
                        deg[w] -= 1
                        if free[w] and arank[w] > srank:
                            if deg[w] == 2:
                                ends += 1
                            elif deg[w] == 1:
                                ends -= 1
                if level == 1:
                    # The second vertex: only the anchor's neighbours after it may close.
                    if directed:
                        back = ioffs[anchor + 1] - ioffs[anchor] - (1 if arank[sq] >= 0 else 0)
                    else:
                        srank = arank[sq]
                        back = ioffs[anchor + 1] - ioffs[anchor] - 1 - srank
                        for t in range(ioffs[anchor], ioffs[anchor] + srank):
                            w = iadj[t]
                            if deg[w] == 2:
                                ends -= 1
                            deg[w] -= 1
                elif arank[sq] > srank:
                    back -= 1
            level += 1
            entering = True
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        self.srank = srank
        self.back = back
        self.zeros = zeros
        self.ends = ends
        return found
