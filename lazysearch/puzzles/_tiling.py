"""Tilings of a board of at most 64 cells, on bitboards, as an explicit-stack machine.

The exact cover of a tiling is special: every option is one piece plus the cells it
covers, and a board of up to 64 cells fits in one machine word.  So instead of dancing
links this engine keeps the covered cells as a 64-bit mask and branches on the first
empty cell in a fixed fill order: the children of a node are the placements whose first
cell (in that order) is that cell, whose cells are all empty, whose piece has a copy
left, and whose secondary bits (the symmetry cut) are free.  A node costs a scan of a
few dozen words instead of relinking lists, which is several times faster on the
pentomino rectangles although the tree is bigger (25.8M nodes for the 9,356 tilings of
6x10, against 4.1M for dancing links with its fewest-options rule).

The fill order runs along the short side of the board (column by column on 6x10), so
that a dead corner is found while the pieces that could have filled it are still near.
With ``first_piece``, level 0 branches on that piece's placements instead (the symmetry
cut keeps a few of them; placing it first makes the cut prune at once).

With ``fewest`` (a depth), the levels above it branch instead on the empty cell that the
fewest placements still fitting cover, as dancing links do, without links: each level
keeps its live list (the placements that still fit, in three flat arrays), made from its
parent's in one pass that also counts, per cell, the placements covering it in five bit
planes (a saturating bit-sliced counter, exact below 32: a few word operations per
placement, whatever its size; compiled, the pass has no branch).  An empty cell no
placement covers, or a piece still to place with none left, ends the node.  On the
Bedlam cube that is 16 times fewer nodes (32.8M against 536.6M for the 19,186 classes)
and 3.3 times less time; on the pentomino rectangles the fixed order stays faster.

Same file compiled by Cython or run as plain Python, like the other engines.  The state
is the stack of chosen placements; ``k`` and ``d`` (index among the node's children and
their number) are the position, as for every engine.
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

__all__ = ["CUT", "DONE", "ENTER", "LEAF", "SOLUTION", "TilingEngine"]

#: The index of a word's lowest set bit, by de Bruijn's multiplication (Leiserson,
#: Prokop and Randall 1998): ``DEBRUIJN * low`` puts a distinct 6-bit pattern on top.
#: (Compiled only; as Python, ``int.bit_length`` does it.)
DEBRUIJN = 0x03F79D71B4CB0A89


def _lowest_bit_table() -> list[int]:
    table = [0] * 64
    for i in range(64):
        table[(((1 << i) * DEBRUIJN) & ((1 << 64) - 1)) >> 58] = i
    return table


@cython.cclass
class TilingEngine(Machine):
    """``cells`` cells numbered in fill order; placement ``q`` puts piece ``piece[q]``
    on the cells of ``masks[q]`` and takes the secondary bits ``secs[q]``; ``option[q]``
    names it in :meth:`solution`; piece ``p`` has ``copies[p]`` copies."""

    mask: cython.ulonglong[::1]
    sec: cython.ulonglong[::1]
    piece: cython.int[::1]
    option: cython.int[::1]
    start: cython.int[::1]
    left: cython.int[::1]
    lowest: cython.int[::1]
    boards: cython.ulonglong[::1]
    taken: cython.ulonglong[::1]
    base: cython.int[::1]
    alt: cython.int[::1]
    halo: cython.ulonglong[::1]
    nbr: cython.ulonglong[::1]
    live_id: cython.int[::1]
    live_mask: cython.ulonglong[::1]
    live_ext: cython.ulonglong[::1]
    live_n: cython.int[::1]
    need: cython.ulonglong

    full: cython.ulonglong
    check_dead: cython.bint
    n_pieces: cython.int
    first_to: cython.int
    fewest: cython.int
    stride: cython.int
    n_rest: cython.int

    def __init__(
        self,
        cells: int,
        anchored: Sequence[Sequence[tuple[int, int, int, int]]],
        first: Sequence[tuple[int, int, int, int]],
        copies: Sequence[int],
        neighbours: Sequence[int] = (),
        fewest: int = 0,
    ) -> None:
        # ``neighbours[c]``, when given, is the mask of cell ``c``'s neighbours: a node
        # where the last piece placed walled in one empty cell, or two, is a dead end
        # at once (the caller gives them only when every piece has 3 cells or more).
        # ``anchored[c]`` lists the placements (piece, mask, secondary bits, option)
        # whose first cell is ``c``; ``first`` those branched on at level 0.
        # Placements sorted by first cell, then piece: ``start[c * P + p]`` is where
        # piece ``p``'s placements at cell ``c`` begin, so used pieces are skipped whole.
        n_pieces = len(copies)
        placements = list(first)
        starts = []
        for group in anchored:
            for p in range(n_pieces):
                starts.append(len(placements))
                placements.extend(sorted([g for g in group if g[0] == p], key=lambda g: g[3]))
        starts.append(len(placements))
        self.n_pieces = n_pieces
        self.full = (1 << cells) - 1
        self.first_to = len(first)
        self.piece = _buffers.ints([p[0] for p in placements], COMPILED)
        self.mask = _buffers.words([p[1] for p in placements], COMPILED)
        self.sec = _buffers.words([p[2] for p in placements], COMPILED)
        self.option = _buffers.ints([p[3] for p in placements], COMPILED)
        self.start = _buffers.ints(starts, COMPILED)
        self.check_dead = len(neighbours) > 0
        nbr = list(neighbours) if neighbours else [0]
        halo = []
        for p in placements:
            near = 0
            m = p[1]
            while m:
                low = m & -m
                near |= nbr[low.bit_length() - 1] if neighbours else 0
                m ^= low
            halo.append(near & ~p[1])
        self.nbr = _buffers.words(nbr, COMPILED)
        self.halo = _buffers.words(halo or [0], COMPILED)
        left = _buffers.ints(list(copies), COMPILED)
        self.left = left
        self.lowest = _buffers.ints(_lowest_bit_table(), COMPILED)
        depth = sum(copies) + 1
        widest = max([len(first)] + [len(g) for g in anchored])
        # With ``fewest`` (a depth), the levels above it branch on the empty cell the
        # fewest placements still fitting cover.  Level ``t`` keeps those placements
        # (its live list) at ``[(t + 1) * stride:]`` of ``live_id`` (the placement),
        # ``live_mask`` (its cells) and ``live_ext`` (its cut bits and its piece's bit),
        # ``live_n[t]`` of them; ``[:stride]`` holds every placement but the first
        # piece's, the list level 0 starts from.  ``sec`` then has the piece bits too.
        cut_bits = 0
        for p in placements:
            cut_bits |= p[2]
        shift = cut_bits.bit_length()
        if max(copies, default=0) > 1 or shift + n_pieces > 64:
            fewest = 0  # every piece needs a bit of its own, used once
        self.fewest = fewest
        self.stride = len(placements) + 1
        size = [0] * n_pieces
        for p in placements:
            size[p[0]] = p[1].bit_count()
        # When the pieces fill the board exactly, every piece must be placed: a node
        # where one has no live placement left is a dead end.
        exact = sum(c * z for c, z in zip(copies, size, strict=True)) == cells
        self.need = 0
        rest: list[int] = []
        rows = 1
        if fewest:
            widest = self.stride
            rows = self.stride * (depth + 1)
            self.sec = _buffers.words(
                [p[2] | 1 << (shift + p[0]) for p in placements] or [0], COMPILED
            )
            if exact:
                self.need = sum(1 << (shift + p) for p in range(n_pieces) if copies[p] > 0)
            rest = [q for q in range(len(first), len(placements)) if copies[placements[q][0]]]
        pad = [0] * (rows - len(rest))
        self.live_id = _buffers.ints(rest + pad, COMPILED)
        self.live_mask = _buffers.words([placements[q][1] for q in rest] + pad, COMPILED)
        self.live_ext = _buffers.words([self.sec[q] for q in rest] + pad, COMPILED)
        self.n_rest = len(rest)
        self.live_n = _buffers.zeros(depth + 1, COMPILED)
        self.boards = _buffers.words([0] * (depth + 1), COMPILED)
        self.taken = _buffers.words([0] * (depth + 1), COMPILED)
        self.base = _buffers.zeros(depth + 1, COMPILED)
        self.alt = _buffers.zeros(depth * widest + 1, COMPILED)
        # The machine's stack and replay; restart() puts every copy back in hand.
        self._allocate(n_pieces, cells + n_pieces, depth)
        self._keep([left])

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children."""
        board = self.boards[self.level]
        if board == self.full:
            return -1
        if self.level < self.fewest:
            return len(self._fewest_children(self.level, board))
        if self._dead(self.level, board):
            return 0
        lo, hi = self._range(self.level, board)
        taken = self.taken[self.level]
        return sum(
            1
            for q in range(lo, hi)
            if self.left[self.piece[q]] > 0 and not self.mask[q] & board and not self.sec[q] & taken
        )

    def _fewest_children(self, level: int, board: int) -> list[int]:
        """The children ``run`` finds above depth ``fewest`` (not the hot path)."""
        taken = self.taken[level]
        live = [
            self.live_id[i]
            for i in range(self.n_rest)
            if not self.live_mask[i] & board and not self.live_ext[i] & taken
        ]
        empty = ~board & self.full
        cells = [c for c in range(64) if empty >> c & 1]
        covering = {c: sum(1 for q in live if self.mask[q] >> c & 1) for c in cells}
        if 0 in covering.values():
            return []
        alive = 0
        for q in live:
            alive |= self.sec[q]
        if (level > 0 or self.first_to == 0) and self.need & ~taken & ~alive:
            return []
        if level == 0 and self.first_to > 0:
            return [
                q
                for q in range(self.first_to)
                if not self.mask[q] & board and not self.sec[q] & taken
            ]
        cell = min((min(covering[c], 32), c) for c in cells)[1]
        return [q for q in live if self.mask[q] >> cell & 1]

    def _dead(self, level: int, board: int) -> bool:
        """Whether the last placement left an empty cell walled in (not the hot path)."""
        if not self.check_dead or level == 0:
            return False
        empty = ~board & self.full
        near = self.halo[self.x[level - 1]] & empty
        while near:
            low = near & -near
            around = self.nbr[low.bit_length() - 1] & empty
            if not around:
                return True
            if around & (around - 1) == 0 and self.nbr[around.bit_length() - 1] & empty == low:
                return True
            near ^= low
        return False

    def _range(self, level: int, board: int) -> tuple[int, int]:
        """The placements to try at a node (not the hot path: ``run`` has its own copy)."""
        if level == 0 and self.first_to > 0:
            return 0, self.first_to
        free = ~board & self.full
        c = (free & -free).bit_length() - 1
        return self.start[c * self.n_pieces], self.start[(c + 1) * self.n_pieces]

    def solution(self) -> tuple[int, ...]:
        """The options (as numbered by the caller, ascending) of the placements made."""
        return tuple(sorted([self.option[self.x[t]] for t in range(self.level)]))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget); as :meth:`DLXEngine.run`."""
        boards: cython.ulonglong[::1] = self.boards
        taken: cython.ulonglong[::1] = self.taken
        mask: cython.ulonglong[::1] = self.mask
        sec: cython.ulonglong[::1] = self.sec
        piece: cython.int[::1] = self.piece
        left: cython.int[::1] = self.left
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        bases: cython.int[::1] = self.base
        alt: cython.int[::1] = self.alt
        replay_k: cython.int[::1] = self.replay_k
        full: cython.ulonglong = self.full
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        found: cython.longlong = 0
        board: cython.ulonglong
        q: cython.int
        kk: cython.int
        n: cython.int
        b: cython.int
        c: cython.int
        used: cython.ulonglong
        free: cython.ulonglong
        db: cython.ulonglong = 0x03F79D71B4CB0A89  # DEBRUIJN, as a C constant
        start: cython.int[::1] = self.start
        lowest: cython.int[::1] = self.lowest
        first_to: cython.int = self.first_to
        n_pieces: cython.int = self.n_pieces
        p: cython.int
        halo: cython.ulonglong[::1] = self.halo
        nbr: cython.ulonglong[::1] = self.nbr
        check_dead: cython.bint = self.check_dead
        near: cython.ulonglong
        low: cython.ulonglong
        empty: cython.ulonglong
        dead: cython.bint
        descend: cython.bint
        entering: cython.bint = self.state == ENTER
        fewest: cython.int = self.fewest
        need: cython.ulonglong = self.need
        live_id: cython.int[::1] = self.live_id
        live_mask: cython.ulonglong[::1] = self.live_mask
        live_ext: cython.ulonglong[::1] = self.live_ext
        live_n: cython.int[::1] = self.live_n
        stride: cython.int = self.stride
        n_rest: cython.int = self.n_rest
        i: cython.int
        m: cython.int
        src: cython.int
        src_end: cython.int
        dst: cython.int
        mr: cython.ulonglong
        mq: cython.ulonglong
        sq: cython.ulonglong
        alive: cython.ulonglong
        carry: cython.ulonglong
        t: cython.ulonglong
        c0: cython.ulonglong
        c1: cython.ulonglong
        c2: cython.ulonglong
        c3: cython.ulonglong
        c4: cython.ulonglong
        over: cython.ulonglong
        cand: cython.ulonglong

        if self.state == DONE:
            return 0
        while True:
            descend = False
            if entering:
                if nodes == stop_at and replay_end == 0:
                    self.state = ENTER
                    break
                nodes += 1
                board = boards[level]
                if board == full:
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
                    # The children: placements at the first empty cell (or of the first
                    # piece, at level 0) that fit, kept in ``alt`` from ``base[level]``.
                    b = bases[level]
                    used = taken[level]
                    n = 0
                    dead = False
                    if level < fewest:
                        # F1: the live placements, the parent's that keep clear of the
                        # last placement's cells, piece and cut bits, counted per cell
                        # in five bit planes (``over``: 32 or more).
                        if level == 0:
                            src = 0
                            src_end = n_rest
                            mq = 0
                            sq = 0
                        else:
                            src = level * stride
                            src_end = src + live_n[level - 1]
                            mq = mask[xs[level - 1]]
                            sq = sec[xs[level - 1]]
                        dst = (level + 1) * stride
                        m = 0
                        c0 = 0
                        c1 = 0
                        c2 = 0
                        c3 = 0
                        c4 = 0
                        over = 0
                        alive = 0
                        if not cython.compiled:
                            # As Python, the plain filter (fewer steps).
                            for i in range(src, src_end):
                                mr = live_mask[i]
                                if (mr & mq) == 0 and (live_ext[i] & sq) == 0:
                                    live_mask[dst + m] = mr
                                    live_ext[dst + m] = live_ext[i]
                                    live_id[dst + m] = live_id[i]
                                    alive |= live_ext[i]
                                    m += 1
                                    carry = c0 & mr
                                    c0 ^= mr
                                    t = c1 & carry
                                    c1 ^= carry
                                    carry = c2 & t
                                    c2 ^= t
                                    t = c3 & carry
                                    c3 ^= carry
                                    carry = c4 & t
                                    c4 ^= t
                                    over |= carry
                        else:
                            for i in range(src, src_end):
                                # Without a branch (whether a placement stays is a coin
                                # toss to the processor): copied always, kept by moving on.
                                mr = live_mask[i]
                                t = live_ext[i]
                                live_mask[dst + m] = mr
                                live_ext[dst + m] = t
                                live_id[dst + m] = live_id[i]
                                carry = 1 if ((mr & mq) | (t & sq)) == 0 else 0
                                m += cython.cast(cython.int, carry)
                                carry = 0 - carry
                                mr &= carry
                                alive |= t & carry
                                carry = c0 & mr
                                c0 ^= mr
                                t = c1 & carry
                                c1 ^= carry
                                carry = c2 & t
                                c2 ^= t
                                t = c3 & carry
                                c3 ^= carry
                                carry = c4 & t
                                c4 ^= t
                                over |= carry
                        live_n[level] = m
                        # F2: an empty cell no live placement covers, or a piece still
                        # to place with none, is a dead end; else branch on the empty
                        # cell covered by the fewest (the first in fill order of those).
                        empty = ~board & full
                        if level == 0 and first_to > 0:
                            alive = need  # the first piece's placements are not listed
                        else:
                            alive |= used
                        if (empty & ~(c0 | c1 | c2 | c3 | c4 | over)) != 0 or (need & ~alive) != 0:
                            dead = True
                        else:
                            cand = empty & ~over
                            if cand != 0:
                                if (cand & ~c4) != 0:
                                    cand &= ~c4
                                if (cand & ~c3) != 0:
                                    cand &= ~c3
                                if (cand & ~c2) != 0:
                                    cand &= ~c2
                                if (cand & ~c1) != 0:
                                    cand &= ~c1
                                if (cand & ~c0) != 0:
                                    cand &= ~c0
                                free = cand & (~cand + 1)
                            else:
                                free = empty & (~empty + 1)
                        # F3: the children.
                        if dead:
                            pass
                        elif level == 0 and first_to > 0:
                            for q in range(first_to):
                                if (mask[q] & board) == 0 and (sec[q] & used) == 0:
                                    alt[b + n] = q
                                    n += 1
                        else:
                            for i in range(dst, dst + m):
                                if (live_mask[i] & free) != 0:
                                    alt[b + n] = live_id[i]
                                    n += 1
                    elif check_dead and level > 0:
                        # An empty cell next to the last piece with no empty neighbour
                        # can never be covered: no children.
                        empty = ~board & full
                        near = halo[xs[level - 1]] & empty
                        while near != 0:
                            low = near & (~near + 1)
                            if cython.compiled:
                                c = lowest[(low * db) >> 58]
                            else:
                                c = low.bit_length() - 1
                            low = nbr[c] & empty
                            if low == 0:
                                dead = True
                                break
                            if (low & (low - 1)) == 0:
                                # One empty neighbour: walled in together unless it has
                                # another (a pocket of two cells; every piece has 3+).
                                if cython.compiled:
                                    p = lowest[(low * db) >> 58]
                                else:
                                    p = low.bit_length() - 1
                                if (nbr[p] & empty) == (near & (~near + 1)):
                                    dead = True
                                    break
                            near &= near - 1
                    if dead or level < fewest:
                        pass
                    elif level == 0 and first_to > 0:
                        for q in range(first_to):
                            if (mask[q] & board) == 0 and (sec[q] & used) == 0:
                                alt[b + n] = q
                                n += 1
                    else:
                        free = ~board & full
                        free = free & (~free + 1)
                        if cython.compiled:
                            c = lowest[(free * db) >> 58]
                        else:
                            c = free.bit_length() - 1
                        c *= n_pieces
                        for p in range(n_pieces):
                            if left[p] > 0:
                                for q in range(start[c + p], start[c + p + 1]):
                                    if (mask[q] & board) == 0 and (sec[q] & used) == 0:
                                        alt[b + n] = q
                                        n += 1
                    if n == 0:
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
                            if kk >= n:
                                self.bad_replay = True
                                break
                        bases[level + 1] = bases[level] + n
                        ks[level] = kk
                        ds[level] = n
                        descend = True
            if not descend:
                while True:
                    if level == floor:
                        self.state = DONE
                        break
                    level -= 1
                    left[piece[xs[level]]] += 1
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        descend = True
                        break
                if not descend:
                    break
            # Place the ``ks[level]``-th child of the node at ``level``.
            q = alt[bases[level] + ks[level]]
            xs[level] = q
            left[piece[q]] -= 1
            boards[level + 1] = boards[level] | mask[q]
            taken[level + 1] = taken[level] | sec[q]
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
