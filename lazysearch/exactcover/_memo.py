"""Counting exact covers by memoized subproblems (Nishino et al.'s DXZ), as an
explicit-stack machine.

In Algorithm X the solutions below a node depend only on the subproblem left there:
which items are still uncovered and, with colours, which colour each secondary item
took.  The same subproblem is reached along many paths (two dominoes side by side or
one above the other leave the same board), so its count is remembered and reused.
This is DXZ ("Dancing with Decision Diagrams", Nishino, Yasuda, Minato, Inoue and
Nagata, AAAI 2017) on dancing links, keeping counts instead of diagram nodes.

The table is keyed by the exact subproblem, never by a hash of it: a Python int with
one bit per primary item (set when covered) and, for each secondary item, a field of
``width`` bits holding ``0`` (free), its colour ``c`` (taken in colour ``c``) or
``colours + 1`` (taken without a colour).  An option's own pattern ``optkey[j]`` is
or-ed into its parent's key to give its child's: a compatible option only ever writes
a primary bit or a free field, or writes a colour over the same colour.  The options
still live at a node are exactly those compatible with that key, so the item the walk
branches on, chosen by a fixed rule from the live lists, is a function of the key too,
and so is the count.

Rules for the branching item (``rule``):

* ``0`` (MRV): the primary item with the fewest live options, leftmost on ties, the
  first with at most one at once (as the enumerating engine does);
* ``1`` (first): the leftmost primary item still uncovered.  With a tiling's cells
  numbered in a sweep order this is "the first empty cell": the subproblems are then
  a filled prefix plus a ragged frontier, few of them.

The walk is Knuth's Algorithm C with its steps' names, on an explicit stack: at level
``l`` it has covered item ``items[l]`` and is on option node ``xs[l]``; ``keys[l]`` is
the subproblem and ``acc[l]`` the count of the options tried so far.  A child whose key
is in the table is added without being entered.  The counts are Python ints (no
overflow), the table a dict.  Plain Python when no compiler is present, like the other
engines.

With ``record`` the walk also keeps the diagram (DXZ's ZDD): the table then maps a key
to a node id, and each node finished keeps its branching item, its count and its edges
``(option, child)`` in flat lists, the edges of a node contiguous and in the order of
its item's options.  Ids are given as nodes finish, so a child's id is below its
parent's.  Id ``0`` is every subproblem with no solution (no edge leads to it) and id
``1`` the one with nothing left to cover.  A node's edges are found while its children
are walked, and those find their own meanwhile, so they wait on a stack, ``pstart[l]``
marking where level ``l``'s begin, and move to the node's lists when it is finished.
The count walk pays one test of the flag per step for this.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from collections.abc import Sequence
from typing import Any

from lazysearch.engine import _buffers, _native

COMPILED: bool = cython.compiled

MRV = 0
FIRST = 1


class TableFull(Exception):
    """The table reached its bound; the walk stops (the caller names the bound)."""


_build_links: object = None


def _links() -> Any:
    """The dancing-links engine's ``build_links``, in the same build as this module: its
    source when this module runs uncompiled beside a compiled one (its buffers are then
    lists, which compiled code cannot take)."""
    global _build_links
    if _build_links is None:
        dlx = _native.load("lazysearch.exactcover._dlx")
        if dlx.COMPILED and not COMPILED:
            dlx = _native.load_source("lazysearch.exactcover._dlx")
        _build_links = dlx.build_links
    return _build_links


@cython.cclass
class MemoEngine:
    """The memoized count of one exact-cover problem (items and options as ints, in the
    layout of :class:`lazysearch.exactcover._dlx.DLXEngine`)."""

    top: cython.int[::1]
    ulink: cython.int[::1]
    dlink: cython.int[::1]
    color: cython.int[::1]
    length: cython.int[::1]
    llink: cython.int[::1]
    rlink: cython.int[::1]
    option_of: cython.int[::1]
    items: cython.int[::1]
    xs: cython.int[::1]
    optkey: list
    keys: list
    acc: list
    table: dict
    record: cython.bint
    node_item: list
    node_first: list
    node_count: list
    edge_option: list
    edge_child: list
    pend_option: list
    pend_child: list
    pstart: list

    n_items: cython.int
    rule: cython.int
    level: cython.int
    phase: cython.int
    max_entries: cython.longlong
    nodes = cython.declare(cython.longlong, visibility="public")
    hits = cython.declare(cython.longlong, visibility="public")
    done = cython.declare(cython.bint, visibility="public")
    total: object
    root: object

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
        rule: int = MRV,
        max_entries: int = 0,
        record: bool = False,
    ) -> None:
        n: cython.int = primary + secondary
        m: cython.int = n + 2 + sum([len(o) + 1 for o in option_items])
        self.n_items = n
        self.rule = rule
        self.max_entries = max_entries
        self.top = _buffers.zeros(m, COMPILED)
        self.ulink = _buffers.zeros(m, COMPILED)
        self.dlink = _buffers.zeros(m, COMPILED)
        self.color = _buffers.zeros(m, COMPILED)
        self.option_of = _buffers.ints([-1] * m, COMPILED)
        self.length = _buffers.zeros(n + 2, COMPILED)
        self.llink = _buffers.zeros(n + 2, COMPILED)
        self.rlink = _buffers.zeros(n + 2, COMPILED)
        self._build(primary, option_items, option_colors)
        self.optkey = _keys(primary, option_items, option_colors)
        self.items = _buffers.zeros(primary + 2, COMPILED)
        self.xs = _buffers.zeros(primary + 2, COMPILED)
        self.keys = [0] * (primary + 2)
        self.acc = [0] * (primary + 2)
        self.table = {}
        self.level = 0
        self.phase = 0  # 0: enter the node at ``level``; 1: try its next option
        self.nodes = 0
        self.hits = 0
        self.done = False
        self.total = 0
        self.root = 0
        self.record = record
        # The two terminals: 0 (no solution) and 1 (nothing left to cover).
        self.node_item = [0, 0]
        self.node_first = [0, 0]
        self.node_count = [0, 1]
        self.edge_option = []
        self.edge_child = []
        self.pend_option = []
        self.pend_child = []
        self.pstart = [0] * (primary + 2)

    def _build(
        self,
        primary: cython.int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
    ) -> None:
        """C1: the links, built as the dancing-links engine builds its own."""
        _links()(
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

    # -- Knuth's operations (TAOCP 7.2.2.1, Algorithm C) ----------------------------------

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _hide(self, p: cython.int) -> cython.void:
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        dlink: cython.int[::1] = self.dlink
        color: cython.int[::1] = self.color
        length: cython.int[::1] = self.length
        q: cython.int = p + 1
        x: cython.int
        u: cython.int
        d: cython.int
        while q != p:
            x = top[q]
            if x <= 0:
                q = ulink[q]
            else:
                if color[q] >= 0:
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = d
                    ulink[d] = u
                    length[x] -= 1
                q += 1

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _unhide(self, p: cython.int) -> cython.void:
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        dlink: cython.int[::1] = self.dlink
        color: cython.int[::1] = self.color
        length: cython.int[::1] = self.length
        q: cython.int = p - 1
        x: cython.int
        u: cython.int
        d: cython.int
        while q != p:
            x = top[q]
            if x <= 0:
                q = dlink[q]
            else:
                if color[q] >= 0:
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = q
                    ulink[d] = q
                    length[x] += 1
                q -= 1

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _cover(self, i: cython.int) -> cython.void:
        dlink: cython.int[::1] = self.dlink
        llink: cython.int[::1] = self.llink
        rlink: cython.int[::1] = self.rlink
        p: cython.int = dlink[i]
        while p != i:
            self._hide(p)
            p = dlink[p]
        rlink[llink[i]] = rlink[i]
        llink[rlink[i]] = llink[i]

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _uncover(self, i: cython.int) -> cython.void:
        ulink: cython.int[::1] = self.ulink
        llink: cython.int[::1] = self.llink
        rlink: cython.int[::1] = self.rlink
        rlink[llink[i]] = i
        llink[rlink[i]] = i
        p: cython.int = ulink[i]
        while p != i:
            self._unhide(p)
            p = ulink[p]

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _commit(self, p: cython.int) -> cython.void:
        """Cover item ``top[p]`` (no colour) or purify it (colour ``c``: keep the
        options of colour ``c``, marked ``-1``, and hide the others)."""
        top: cython.int[::1] = self.top
        dlink: cython.int[::1] = self.dlink
        color: cython.int[::1] = self.color
        c: cython.int = color[p]
        i: cython.int = top[p]
        q: cython.int
        if c == 0:
            self._cover(i)
        elif c > 0:
            q = dlink[i]
            while q != i:
                if color[q] == c:
                    if q != p:
                        color[q] = -1
                else:
                    self._hide(q)
                q = dlink[q]

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _uncommit(self, p: cython.int) -> cython.void:
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        color: cython.int[::1] = self.color
        c: cython.int = color[p]
        i: cython.int = top[p]
        q: cython.int
        if c == 0:
            self._uncover(i)
        elif c > 0:
            q = ulink[i]
            while q != i:
                if color[q] < 0:
                    color[q] = c
                elif q != p:
                    self._unhide(q)
                q = ulink[q]

    # -- the walk ----------------------------------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def run(self, budget: cython.longlong) -> bool:
        """Walk on until the count is known (True) or ``budget`` more nodes were entered
        (False; 0: no budget).  Raises :class:`TableFull` when the table would hold more
        than ``max_entries`` subproblems (0: no bound)."""
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        dlink: cython.int[::1] = self.dlink
        length: cython.int[::1] = self.length
        rlink: cython.int[::1] = self.rlink
        option_of: cython.int[::1] = self.option_of
        items: cython.int[::1] = self.items
        xs: cython.int[::1] = self.xs
        optkey: list = self.optkey
        keys: list = self.keys
        acc: list = self.acc
        table: dict = self.table
        record: cython.bint = self.record
        node_item: list = self.node_item
        node_first: list = self.node_first
        node_count: list = self.node_count
        edge_option: list = self.edge_option
        edge_child: list = self.edge_child
        pend_option: list = self.pend_option
        pend_child: list = self.pend_child
        pstart: list = self.pstart
        rule: cython.int = self.rule
        max_entries: cython.longlong = self.max_entries
        level: cython.int = self.level
        phase: cython.int = self.phase
        nodes: cython.longlong = self.nodes
        hits: cython.longlong = self.hits
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        i: cython.int = 0
        x: cython.int = 0
        p: cython.int
        best: cython.int
        ck: object = None
        value: object = None
        found: object
        nid: cython.longlong = 0
        s: cython.Py_ssize_t

        if self.done:
            return True
        if phase == 1:
            i = items[level]
            x = xs[level]
        while True:
            if phase == 0:
                # C2: enter the node at ``level`` (its key is not in the table).
                if nodes == stop_at:
                    break
                nodes += 1
                value = None
                if rlink[0] == 0:
                    value = 1
                    nid = 1
                else:
                    # C3: choose the item i to branch on, by the rule.
                    i = rlink[0]
                    if rule == MRV:
                        best = 0x7FFFFFFF
                        p = i
                        while p != 0:
                            if length[p] < best:
                                best = length[p]
                                i = p
                                if best <= 1:
                                    break
                            p = rlink[p]
                    if length[i] == 0:
                        value = 0
                        nid = 0
                    else:
                        # C4: cover i and go to its first option.
                        self._cover(i)
                        items[level] = i
                        acc[level] = 0
                        if record:
                            pstart[level] = len(pend_option)
                        x = dlink[i]
                        phase = 1
            if phase == 1:
                # C5: try options of i from x on, adding the counts already known.
                while x != i:
                    ck = keys[level] | optkey[option_of[x]]
                    found = table.get(ck)
                    if found is None:
                        break
                    if record:
                        # An edge to every child with solutions, in the options' order.
                        if found != 0:
                            pend_option.append(option_of[x])
                            pend_child.append(found)
                        found = node_count[found]
                    acc[level] += found
                    hits += 1
                    x = dlink[x]
                if x != i:
                    # Commit the other items of x and enter the child.
                    p = x + 1
                    while p != x:
                        if top[p] <= 0:
                            p = ulink[p]
                        else:
                            self._commit(p)
                            p += 1
                    xs[level] = x
                    level += 1
                    keys[level] = ck
                    phase = 0
                    continue
                # C7: every option of i is counted; uncover i.
                self._uncover(i)
                value = acc[level]
                if record:
                    nid = 0
                    if value != 0:
                        # A new node: its item, count and the edges waiting above pstart.
                        nid = len(node_item)
                        s = pstart[level]
                        node_item.append(i)
                        node_first.append(len(edge_option))
                        node_count.append(value)
                        edge_option.extend(pend_option[s:])
                        edge_child.extend(pend_child[s:])
                        del pend_option[s:]
                        del pend_child[s:]
                phase = 0
            # C8: the count of the node at ``level`` is ``value``: remember it, go up.
            if max_entries > 0 and len(table) >= max_entries:
                self.level = level
                self.nodes = nodes
                self.hits = hits
                raise TableFull(len(table))
            if record:
                table[keys[level]] = nid
            else:
                table[keys[level]] = value
            if level == 0:
                self.total = value
                if record:
                    self.root = nid
                self.done = True
                break
            level -= 1
            acc[level] += value
            i = items[level]
            x = xs[level]
            if record and nid != 0:
                pend_option.append(option_of[x])
                pend_child.append(nid)
            # C6: uncommit the other items of x, right to left, and go to the next.
            p = x - 1
            while p != x:
                if top[p] <= 0:
                    p = dlink[p]
                else:
                    self._uncommit(p)
                    p -= 1
            x = dlink[x]
            phase = 1
        self.level = level
        self.phase = phase
        if phase == 1:
            xs[level] = x
        self.nodes = nodes
        self.hits = hits
        return bool(self.done)

    def count(self) -> object:
        """The count, once :meth:`run` returned True."""
        return self.total

    def entries(self) -> int:
        """How many subproblems the table holds."""
        return len(self.table)

    def saved(self) -> dict:
        """The table itself (subproblem key to count): all a stopped count needs to go
        on, for the finished subproblems are what the walk would otherwise redo."""
        return self.table

    def restore(self, table: dict) -> None:
        """Start from ``table`` (a :meth:`saved` one of the same problem): the walk
        then re-enters only the unfinished nodes on its way down and adds the rest
        from the table.  Only before the first :meth:`run`, and not with ``record``
        (a diagram's table holds node ids)."""
        if self.nodes != 0 or self.done or self.record:
            raise ValueError("restore() takes a table before the walk begins, without record")
        self.table = dict(table)

    def walked(self) -> tuple[object, list]:
        """Where a stopped walk is: the solutions of the subproblems already finished
        below the open nodes (the count so far), and per open level ``(k, d)``, the
        ``k``-th of the ``d`` options of its item being walked (k from 0)."""
        found: object = 0
        at: list = []
        last: cython.int = self.level if self.phase == 1 else self.level - 1
        lv: cython.int
        i: cython.int
        x: cython.int
        k: cython.int
        p: cython.int
        for lv in range(last + 1):
            i = self.items[lv]
            x = self.xs[lv]
            k = 0
            p = self.dlink[i]
            while p != x and p != i:
                k += 1
                p = self.dlink[p]
            found += self.acc[lv]
            at.append((k, self.length[i]))
        return found, at

    def diagram(self) -> tuple[object, list, list, list, list, list]:
        """With ``record``, once :meth:`run` returned True: the root's id, and per node
        its item, the index of its first edge and its count, and per edge its option
        and child (see the module's docstring)."""
        return (
            self.root,
            self.node_item,
            self.node_first,
            self.node_count,
            self.edge_option,
            self.edge_child,
        )


def _keys(
    primary: int, option_items: Sequence[Sequence[int]], option_colors: Sequence[Sequence[int]]
) -> list[object]:
    """Each option's pattern in the key: a bit per primary item, a field per secondary."""
    colours = max([max(c) if c else 0 for c in option_colors] or [0])
    width = (colours + 1).bit_length()
    taken = colours + 1
    out: list[object] = []
    for its, cols in zip(option_items, option_colors, strict=True):
        key = 0
        for i, c in zip(its, cols, strict=True):
            if i <= primary:
                key |= 1 << (i - 1)
            else:
                key |= (c if c > 0 else taken) << (primary + (i - primary - 1) * width)
        out.append(key)
    return out
