"""Algorithm M (exact cover with multiplicities and colours) on dancing links, with
option costs, as an explicit-stack machine.

Knuth's DLX3 (TAOCP 7.2.2.1, Algorithm M): a primary item ``i`` is covered between
``u`` and ``v`` times.  The header keeps ``bound[i]`` (how many more options may still
cover it, ``v`` at the start) and ``slack[i]`` (``v - u``, fixed).  Branching on ``i``
offers, in turn, each option of its list and, once its lower bound no longer needs
them, the *null move* (no more options for ``i``).  An option that was tried and left
is *tweaked*: taken out of ``i``'s list (and hidden from the other lists), so the later
branches never use it: each set of options is visited once.

The links are built by :func:`lazysearch.exactcover._dlx.build_links` (same layout as
the DLX engine).  Options are laid out in order of cost (stable), so every item's list
runs from its cheapest option; with ``seed``, options of equal cost are first shuffled.

Costs (Knuth's DLX5): a node where an item that still needs covering has no option
cheap enough (its cost plus the option's within ``cost_hi``) is a dead end; an item to
cover once more is scored by its options cheap enough; a list is left at its first
option too dear; covers hide only the options cheap enough to be chosen below them (the
threshold kept per level for the uncover); solutions dearer than ``cost_hi`` or cheaper
than ``cost_lo`` are not reported.  A cost search may lower ``cost_hi`` between calls;
:meth:`MCCEngine.bounds` and ``replay(ks, bounds)`` keep the bound each level was
walked with, so such a walk can be resumed.

Position: level ``t`` is at choice ``k[t]`` of ``d[t]``, the branching degree
``len + 1 - max(bound - slack, 0)`` (DLX3's score), the null move being the last.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import array
import random
from collections.abc import Sequence
from typing import Any

from lazysearch.engine import _buffers, _machine, _native
from lazysearch.engine.states import CUT, DONE, ENTER, LEAF, SOLUTION

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.engine._machine import Machine
else:
    Machine = _machine.plain()

#: A cost bound meaning "none" (costs are checked to stay far below it).
NO_LIMIT = (1 << 62) - 1

#: With costs, how many options of an item's list are counted before its length is
#: taken for their number (Knuth's DLX5, ``lenthresh``).
LENTHRESH = 10


def _links() -> Any:
    """The DLX engine's ``build_links`` in the same build as this module (its source when
    this module runs uncompiled beside a compiled one: lists are not buffers)."""
    dlx = _native.load("lazysearch.exactcover._dlx")
    if dlx.COMPILED and not COMPILED:
        dlx = _native.load_source("lazysearch.exactcover._dlx")
    return dlx.build_links


def _net_costs(
    primary: int,
    option_items: Sequence[Sequence[int]],
    lower: Sequence[int],
    upper: Sequence[int],
    costs: Sequence[int],
) -> tuple[list[int], int]:
    """DLX5's taxes: each primary item covered a fixed number of times (``u == v``) is
    taxed the least cost, net of the taxes already laid, of an option naming it, and
    every option's cost becomes its net cost (its cost less its items' taxes).  Every
    cover then costs its net cost plus the same total tax (each taxed item's tax times
    the times it is covered), all net costs stay >= 0, and each taxed item has an option
    of net cost 0: a partial cover's net cost is a lower bound that counts the items
    still to cover (Knuth's DLX5, after Garfinkel and Nemhauser, 1969).  Returns the
    net costs and the total tax."""
    net = list(costs)
    if not any(net):
        return net, 0
    naming: list[list[int]] = [[] for _ in range(primary + 1)]
    for j, items in enumerate(option_items):
        for i in items:
            if i <= primary:
                naming[i].append(j)
    total = 0
    for i in range(1, primary + 1):
        if lower[i - 1] != upper[i - 1] or not naming[i]:
            continue
        tax = min(net[j] for j in naming[i])
        for j in naming[i]:
            net[j] -= tax
        total += tax * upper[i - 1]
    return net, total


def _longs(values: list[int]) -> object:
    """``values`` in a mutable 64-bit buffer (a list when running as Python)."""
    return array.array("q", values) if COMPILED else list(values)


@cython.cclass
class MCCEngine(Machine):
    """The Algorithm M machine for one problem (items and options as ints).

    ``lower[i]``/``upper[i]`` are the bounds of primary item ``i + 1``; ``costs[j]`` the
    cost of option ``j``; ``seed`` (or None) shuffles the options of equal cost.
    """

    top: cython.int[::1]
    ulink: cython.int[::1]
    dlink: cython.int[::1]
    color: cython.int[::1]
    length: cython.int[::1]
    llink: cython.int[::1]
    rlink: cython.int[::1]
    option_of: cython.int[::1]
    bound: cython.int[::1]
    slack: cython.int[::1]
    ocost: cython.longlong[::1]
    ncost: cython.longlong[::1]
    ft: cython.int[::1]
    acc: cython.longlong[::1]
    th0: cython.longlong[::1]
    th1: cython.longlong[::1]
    hs0: cython.longlong[::1]
    hs1: cython.longlong[::1]
    replay_h0: cython.longlong[::1]
    replay_h1: cython.longlong[::1]

    cost_lo = cython.declare(cython.longlong, visibility="public")
    cost_hi = cython.declare(cython.longlong, visibility="public")
    tax_total: cython.longlong
    priced: cython.bint

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
        lower: Sequence[int],
        upper: Sequence[int],
        costs: Sequence[int],
        seed: int | None = None,
        cost_lo: int = 0,
        cost_hi: int = NO_LIMIT,
    ) -> None:
        n: cython.int = primary + secondary
        order = list(range(len(option_items)))
        if seed is not None:
            random.Random(seed).shuffle(order)
        net, self.tax_total = _net_costs(primary, option_items, lower, upper, costs)
        order.sort(key=net.__getitem__)  # stable: the seed's order among equal costs
        m: cython.int = n + 2 + sum([len(o) + 1 for o in option_items])
        buffers = [_buffers.zeros(m, COMPILED) for _ in range(4)] + [
            _buffers.zeros(n + 2, COMPILED) for _ in range(3)
        ]
        self.top, self.ulink, self.dlink, self.color, self.length, self.llink, self.rlink = buffers
        self.option_of = _buffers.ints([-1] * m, COMPILED)
        _links()(
            self.top,
            self.ulink,
            self.dlink,
            self.color,
            self.option_of,
            self.length,
            self.llink,
            self.rlink,
            n,
            primary,
            [option_items[j] for j in order],
            [option_colors[j] for j in order],
        )
        p: cython.Py_ssize_t
        for p in range(m):
            if self.option_of[p] >= 0:
                self.option_of[p] = order[self.option_of[p]]
        bound = _buffers.ints([0, *upper] + [0] * (secondary + 1), COMPILED)
        self.bound = bound
        self.slack = _buffers.ints(
            [0] + [v - u for u, v in zip(lower, upper, strict=True)] + [0] * (secondary + 1),
            COMPILED,
        )
        self.ocost = _longs([*net, 0])
        self.ncost = _longs([net[j] if j >= 0 else 0 for j in self.option_of])
        self.priced = any(costs)
        # Each level chooses an option or the null move of an item; every option adds
        # at least one to a primary item's count, every null move retires an item.
        depth = min(sum(upper), len(option_items) + primary) + 1
        self._allocate(primary, n, depth)
        self.ft = _buffers.zeros(depth, COMPILED)
        self.acc = _longs([0] * (depth + 1))
        self.th0 = _longs([0] * depth)
        self.th1 = _longs([0] * depth)
        self.hs0, self.hs1, self.replay_h0, self.replay_h1 = (_longs([0] * depth) for _ in range(4))
        self._keep([*buffers[1:], bound])
        self.cost_lo = cost_lo
        self.cost_hi = cost_hi

    def replay(self, ks: list[int], bounds: list[int] | None = None) -> bool:
        """From the node about to be entered, take choice ``ks[0]``, then ``ks[1]``, ...;
        False when a choice does not exist (then ``restart()`` before further use).

        ``bounds`` (as :meth:`bounds` gives them) are the cost bounds each level was
        walked with, when a cost search lowered ``cost_hi`` on the way (else all are
        ``cost_hi``): the choices of a level depend on its bound."""
        if not ks:
            return self.state == ENTER
        if self.state != ENTER or self.level + len(ks) >= len(self.x):
            return False
        if bounds is not None and len(bounds) != 2 * len(ks):
            return False
        start: cython.int = self.level
        t: cython.int
        for t in range(len(ks)):
            if ks[t] < 0:
                return False
            self.replay_k[start + t] = ks[t]
            if bounds is None:
                self.replay_h0[start + t] = self.cost_hi - self.tax_total
                self.replay_h1[start + t] = self.cost_hi - self.tax_total
            else:
                self.replay_h0[start + t] = bounds[2 * t] - self.tax_total
                self.replay_h1[start + t] = bounds[2 * t + 1] - self.tax_total
        self.replay_end = start + len(ks)
        self.bad_replay = False
        saved_nodes = self.nodes
        saved_solutions = self.solutions
        self.run(0, 0)
        self.nodes = saved_nodes
        self.solutions = saved_solutions
        ok = not self.bad_replay and self.level == start + len(ks) and self.state == ENTER
        self.replay_end = 0
        return ok

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children
        (0 for a dead end, a pruned node, or a cover outside the cost window)."""
        cost = self.acc[self.level] + self.tax_total
        if self.rlink[0] == 0:
            return -1 if self.cost_lo <= cost <= self.cost_hi else 0
        if cost > self.cost_hi:
            return 0
        return max(self._choose(self.cost_hi - cost), 0)

    def _choose(self, room: int) -> int:
        """M3 as :meth:`run` does it: the least branching degree, ``room`` being what
        the options still to choose may cost (net)."""
        best = 0x3FFFFFFF if self.priced else 0x7FFFFFFF
        best_s = best_l = 0
        best_c = 0
        p: cython.int = self.rlink[0]
        while p != 0:
            b = self.bound[p]
            s = min(self.slack[p], b)
            q = self.dlink[p]
            mc = self.ncost[q]
            if not self.priced:
                theta = self.length[p] + s - b + 1
            elif b == 1 and s == 0:
                theta = 0
                while q != p and self.ncost[q] <= room:
                    theta += 1
                    if theta > best:
                        break
                    if theta > LENTHRESH:
                        theta = self.length[p]
                        break
                    q = self.dlink[q]
            else:
                theta = self.length[p] + s - b + 1
                if b > s and (q == p or mc > room):
                    theta = 0
            if self.priced:
                better = theta < best or (
                    theta == best and (s < best_s or (s == best_s and mc > best_c))
                )
            else:
                better = theta < best or (
                    theta == best and (s < best_s or (s == best_s and self.length[p] > best_l))
                )
            if better:
                best, best_s, best_l, best_c = theta, s, self.length[p], mc
                if best <= 0:
                    break
            p = self.rlink[p]
        return best

    def bounds(self) -> list[int]:
        """The cost bound each level on the stack chose its item with, and the one its
        current choice was taken with (two per level; see :meth:`replay`)."""
        tax = self.tax_total
        out: list[int] = []
        for t in range(self.level):
            out += [int(self.hs0[t] + tax), int(self.hs1[t] + tax)]
        return out

    def solution(self) -> tuple[int, ...]:
        """The options (0-based, ascending) of the partial solution on the stack."""
        n = self.n_items
        return tuple(
            sorted([self.option_of[self.x[t]] for t in range(self.level) if self.x[t] > n])
        )

    def cost(self) -> int:
        """The total cost of the options on the stack."""
        return int(self.acc[self.level] + self.tax_total)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget); the number of leaves reported.

        Knuth's hide and unhide of an option are written in place wherever they are
        needed (cover, commit, tweak and their inverses), not called: a call that binds
        the buffers costs more than the few links it moves (5x slower compiled).
        """
        top: cython.int[::1] = self.top
        ulink: cython.int[::1] = self.ulink
        dlink: cython.int[::1] = self.dlink
        color: cython.int[::1] = self.color
        length: cython.int[::1] = self.length
        llink: cython.int[::1] = self.llink
        rlink: cython.int[::1] = self.rlink
        bound: cython.int[::1] = self.bound
        slack: cython.int[::1] = self.slack
        option_of: cython.int[::1] = self.option_of
        ocost: cython.longlong[::1] = self.ocost
        ncost: cython.longlong[::1] = self.ncost
        hs0: cython.longlong[::1] = self.hs0
        hs1: cython.longlong[::1] = self.hs1
        replay_h0: cython.longlong[::1] = self.replay_h0
        replay_h1: cython.longlong[::1] = self.replay_h1
        th0: cython.longlong[::1] = self.th0
        th1: cython.longlong[::1] = self.th1
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        ft: cython.int[::1] = self.ft
        acc: cython.longlong[::1] = self.acc
        replay_k: cython.int[::1] = self.replay_k
        n: cython.int = self.n_items
        n1: cython.int = self.n_primary
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        # The engine adds net costs (see _net_costs); the window is shifted to match.
        cost_lo: cython.longlong = self.cost_lo - self.tax_total
        hi: cython.longlong = self.cost_hi - self.tax_total  # lowered between calls only
        priced: cython.bint = self.priced
        lenthresh: cython.int = LENTHRESH
        found: cython.longlong = 0
        i: cython.int = 0
        j: cython.int
        jj: cython.int
        c: cython.int
        p: cython.int
        q: cython.int
        r: cython.int
        u: cython.int
        dn: cython.int
        x: cython.int
        y: cython.int
        z: cython.int
        cnt: cython.int
        xl: cython.int = 0
        best: cython.int
        best_s: cython.int
        best_l: cython.int
        best_c: cython.longlong
        s: cython.int
        theta: cython.int
        act: cython.bint
        covered: cython.bint
        passed: cython.bint
        oc: cython.longlong
        mc: cython.longlong
        room: cython.longlong
        hl: cython.longlong
        cost: cython.longlong
        # What to do next: 0 enter a node (M2), 1 try xs[level] for item i (M5),
        # 2 leave the level (M9), 3 restore item i, then leave (M8).
        step: cython.int = 0 if self.state == ENTER else 2

        if self.state == DONE:
            return 0
        while True:
            if step == 0:
                # M2: enter the node at ``level``.
                if nodes == stop_at and replay_end == 0:
                    self.state = ENTER
                    break
                nodes += 1
                cost = acc[level]
                # The bound this node is walked with (a replay's: as it was walked).
                hl = replay_h0[level] if level < replay_end else hi
                hs0[level] = hl
                step = 2
                if rlink[0] == 0:
                    if cost_lo <= cost <= hl:
                        if replay_end != 0:
                            self.bad_replay = True
                            break
                        self.leaf_kind = SOLUTION
                        self.solutions += 1
                        found += 1
                        if found == limit:
                            self.state = LEAF
                            break
                    elif replay_end != 0:
                        self.bad_replay = True
                        break
                    continue
                # M3: choose the item i of least branching degree (then least slack,
                # then longest list; with costs, then dearest first option).
                best = 0x7FFFFFFF
                best_s = 0
                best_l = 0
                p = rlink[0]
                if not priced:
                    while p != 0:
                        s = slack[p]
                        if s > bound[p]:
                            s = bound[p]
                        theta = length[p] + s - bound[p] + 1
                        if theta < best or (
                            theta == best and (s < best_s or (s == best_s and length[p] > best_l))
                        ):
                            best = theta
                            best_s = s
                            best_l = length[p]
                            i = p
                            if best <= 0:
                                break
                        p = rlink[p]
                else:
                    # DLX5: an item to cover once more offers only the options that
                    # leave the cost within bound (its list runs cheapest first; counted
                    # up to the best degree so far, or LENTHRESH, then its length); an
                    # item still short of its lower bound whose cheapest option is too
                    # dear is a dead end.
                    room = hl - cost
                    best = 0x3FFFFFFF if room >= 0 else 0
                    best_c = 0
                    while p != 0 and best > 0:
                        s = slack[p]
                        if s > bound[p]:
                            s = bound[p]
                        q = dlink[p]
                        mc = ncost[q]
                        if bound[p] == 1 and s == 0:
                            theta = 0
                            while q != p and ncost[q] <= room:
                                theta += 1
                                if theta > best:
                                    break
                                if theta > lenthresh:
                                    theta = length[p]
                                    break
                                q = dlink[q]
                        else:
                            theta = length[p] + s - bound[p] + 1
                            if bound[p] > s and (q == p or mc > room):
                                theta = 0
                        if theta < best or (
                            theta == best and (s < best_s or (s == best_s and mc > best_c))
                        ):
                            best = theta
                            best_s = s
                            best_c = mc
                            i = p
                        p = rlink[p]
                if best <= 0:
                    if replay_end != 0:
                        self.bad_replay = True
                        break
                    continue
                if level == cut_depth and replay_end == 0:
                    self.leaf_kind = CUT
                    found += 1
                    if found == limit:
                        self.state = LEAF
                        break
                    continue
                if level < replay_end and replay_k[level] >= best:
                    self.bad_replay = True
                    break
                # M4: prepare to branch on i; cover it when its bound is spent.
                xl = dlink[i]
                bound[i] -= 1
                if bound[i] == 0:
                    # DLX5: only the options cheap enough to be chosen later are
                    # hidden (when i must take an option here, at least its cheapest).
                    room = hl - cost
                    if slack[i] == 0 and xl != i:
                        room -= ncost[xl]
                    th0[level] = room
                    r = llink[i]
                    q = rlink[i]
                    rlink[r] = q
                    llink[q] = r
                    q = dlink[i]
                    while q != i:
                        if priced and ncost[q] > room:
                            break
                        # hide(q)
                        r = q + 1
                        while r != q:
                            jj = top[r]
                            if jj <= 0:
                                r = ulink[r]
                            else:
                                if color[r] >= 0:
                                    u = ulink[r]
                                    dn = dlink[r]
                                    dlink[u] = dn
                                    ulink[dn] = u
                                    length[jj] -= 1
                                r += 1
                        q = dlink[q]
                ft[level] = xl
                xs[level] = xl
                ks[level] = 0
                ds[level] = best
                step = 1
                continue
            if step == 2:
                # M9: leave the level.
                if level == floor:
                    self.state = DONE
                    break
                level -= 1
                xl = xs[level]
                if xl <= n:
                    # Back from i's null move: reactivate i (unless covered), then M8.
                    i = xl
                    if bound[i] != 0:
                        r = llink[i]
                        q = rlink[i]
                        rlink[r] = i
                        llink[q] = i
                    step = 3
                    continue
                i = top[xl]
                # M7: uncommit the items of xl other than i, going left (with the
                # threshold they were committed with).
                room = th1[level]
                p = xl - 1
                while p != xl:
                    j = top[p]
                    if j <= 0:
                        p = dlink[p]
                        continue
                    if j != i:
                        act = False
                        c = 0
                        if j <= n1:
                            act = bound[j] == 0
                            bound[j] += 1
                        else:
                            c = color[p]
                            act = c >= 0
                        if act:
                            # DLX5: going down again, up to the same threshold
                            q = dlink[j]
                            while q != j:
                                if priced and ncost[q] > room:
                                    break
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
                                            if color[r] >= 0:
                                                u = ulink[r]
                                                dn = dlink[r]
                                                dlink[u] = r
                                                ulink[dn] = r
                                                length[jj] += 1
                                            r -= 1
                                q = dlink[q]
                            if j <= n1:
                                r = llink[j]
                                q = rlink[j]
                                rlink[r] = j
                                llink[q] = j
                    p -= 1
                xs[level] = dlink[xl]
                ks[level] += 1
                step = 1
                continue
            if step == 3:
                # M8: undo the level's work on item i (its tweaks from ft[level] on,
                # and its cover) and give back the option its bound lent.
                covered = bound[i] == 0
                if not (covered and slack[i] == 0):
                    # untweak: relink the tweaked options, unhiding them if not covered
                    z = dlink[i]
                    x = ft[level]
                    dlink[i] = x
                    y = i
                    cnt = 0
                    while x != z:
                        ulink[x] = y
                        cnt += 1
                        if not covered:
                            r = x - 1
                            while r != x:
                                jj = top[r]
                                if jj <= 0:
                                    r = dlink[r]
                                else:
                                    if color[r] >= 0:
                                        u = ulink[r]
                                        dn = dlink[r]
                                        dlink[u] = r
                                        ulink[dn] = r
                                        length[jj] += 1
                                    r -= 1
                        y = x
                        x = dlink[x]
                    ulink[z] = y
                    length[i] += cnt
                if covered:
                    # DLX5: going down again, up to the threshold of the cover
                    room = th0[level]
                    q = dlink[i]
                    while q != i:
                        if priced and ncost[q] > room:
                            break
                        # unhide(q)
                        r = q - 1
                        while r != q:
                            jj = top[r]
                            if jj <= 0:
                                r = dlink[r]
                            else:
                                if color[r] >= 0:
                                    u = ulink[r]
                                    dn = dlink[r]
                                    dlink[u] = r
                                    ulink[dn] = r
                                    length[jj] += 1
                                r -= 1
                        q = dlink[q]
                    r = llink[i]
                    q = rlink[i]
                    rlink[r] = i
                    llink[q] = i
                bound[i] += 1
                step = 2
                continue
            # M5 (step 1): try xs[level] for the item i of this level.
            xl = xs[level]
            if acc[level] > hi and level >= replay_end:
                # The cost bound fell below this level's cost (a cost search lowered it
                # since): no choice left here can be cheap enough.
                step = 3
                continue
            if bound[i] == 0 and slack[i] == 0:
                if xl == i:
                    step = 3
                    continue
                if priced and acc[level] + ncost[xl] > hi and level >= replay_end:
                    # DLX5: i's list runs cheapest first, so the rest are too dear.
                    step = 3
                    continue
            elif length[i] <= bound[i] - slack[i]:
                step = 3
                continue
            elif xl != i and (bound[i] != 0 or not priced or ncost[xl] <= th0[level]):
                # tweak(xl): hide it (unless i is covered: then it is hidden already)
                # and take it out of i's list.  (An option too dear for the cover of i
                # was left visible, as are those after it: they stay in place, passed.)
                if bound[i] != 0:
                    r = xl + 1
                    while r != xl:
                        jj = top[r]
                        if jj <= 0:
                            r = ulink[r]
                        else:
                            if color[r] >= 0:
                                u = ulink[r]
                                dn = dlink[r]
                                dlink[u] = dn
                                ulink[dn] = u
                                length[jj] -= 1
                            r += 1
                dn = dlink[xl]
                dlink[i] = dn
                ulink[dn] = i
                length[i] -= 1
            elif xl == i and bound[i] != 0:
                r = llink[i]
                q = rlink[i]
                rlink[r] = q
                llink[q] = r
            oc = ocost[option_of[xl]] if xl > n else 0
            # A choice too dear is passed over, except by a replay, which enters it as
            # a dead end (so every index below the branching degree is a child).
            passed = level < replay_end and ks[level] < replay_k[level]
            if not passed and acc[level] + oc > hi and level >= replay_end:
                passed = True
            hl = replay_h1[level] if level < replay_end else hi
            hs1[level] = hl
            if passed:
                # On to the next choice.  The null move, always last, costs nothing, so
                # only a replay past the last choice passes it.
                if xl == i:
                    self.bad_replay = True
                    break
                xs[level] = dlink[xl]
                ks[level] += 1
                continue
            if xl > n:
                # M6: commit the items of xl other than i, going right: a primary item
                # whose bound is spent is covered, a secondary one covered or purified
                # (DLX5: as far as options cheap enough to be chosen below go).
                room = hl - acc[level] - oc
                th1[level] = room
                p = xl + 1
                while p != xl:
                    j = top[p]
                    if j <= 0:
                        p = ulink[p]
                        continue
                    if j != i:
                        act = False
                        c = 0
                        if j <= n1:
                            bound[j] -= 1
                            act = bound[j] == 0
                            if act:
                                r = llink[j]
                                q = rlink[j]
                                rlink[r] = q
                                llink[q] = r
                        else:
                            c = color[p]
                            act = c >= 0
                        if act:
                            q = dlink[j]
                            while q != j:
                                if priced and ncost[q] > room:
                                    break
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
                                            if color[r] >= 0:
                                                u = ulink[r]
                                                dn = dlink[r]
                                                dlink[u] = dn
                                                ulink[dn] = u
                                                length[jj] -= 1
                                            r += 1
                                q = dlink[q]
                    p += 1
            acc[level + 1] = acc[level] + oc
            level += 1
            step = 0
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        return found
