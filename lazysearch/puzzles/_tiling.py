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

Same file compiled by Cython or run as plain Python, like the other engines.  The state
is the stack of chosen placements; ``k`` and ``d`` (index among the node's children and
their number) are the position, as for every engine.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch import _cython as cython  # type: ignore[no-redef]

from collections.abc import Sequence

from lazysearch import _buffers

COMPILED: bool = cython.compiled

ENTER = 0
LEAF = 1
DONE = 2
SOLUTION = 1
CUT = 2

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
class TilingEngine:
    """``cells`` cells numbered in fill order; placement ``q`` puts piece ``piece[q]``
    on the cells of ``masks[q]`` and takes the secondary bits ``secs[q]``; ``option[q]``
    names it in :meth:`solution`; piece ``p`` has ``copies[p]`` copies."""

    mask: cython.ulonglong[::1]
    sec: cython.ulonglong[::1]
    piece: cython.int[::1]
    option: cython.int[::1]
    start: cython.int[::1]
    left: cython.int[::1]
    copies0: object
    lowest: cython.int[::1]
    boards: cython.ulonglong[::1]
    taken: cython.ulonglong[::1]
    x: cython.int[::1]
    k: cython.int[::1]
    d: cython.int[::1]
    base: cython.int[::1]
    alt: cython.int[::1]
    replay_k: cython.int[::1]
    halo: cython.ulonglong[::1]
    nbr: cython.ulonglong[::1]

    full: cython.ulonglong
    check_dead: cython.bint
    n_pieces: cython.int
    first_to: cython.int
    level = cython.declare(cython.int, visibility="public")
    floor = cython.declare(cython.int, visibility="public")
    state = cython.declare(cython.int, visibility="public")
    cut_depth = cython.declare(cython.int, visibility="public")
    leaf_kind = cython.declare(cython.int, visibility="public")
    replay_end: cython.int
    bad_replay: cython.bint
    nodes = cython.declare(cython.longlong, visibility="public")
    solutions = cython.declare(cython.longlong, visibility="public")

    def __init__(
        self,
        cells: int,
        anchored: Sequence[Sequence[tuple[int, int, int, int]]],
        first: Sequence[tuple[int, int, int, int]],
        copies: Sequence[int],
        neighbours: Sequence[int] = (),
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
        self.copies0 = list(copies)
        self.left = _buffers.ints(list(copies), COMPILED)
        self.lowest = _buffers.ints(_lowest_bit_table(), COMPILED)
        depth = sum(copies) + 1
        widest = max([len(first)] + [len(g) for g in anchored])
        self.boards = _buffers.words([0] * (depth + 1), COMPILED)
        self.taken = _buffers.words([0] * (depth + 1), COMPILED)
        self.x = _buffers.zeros(depth, COMPILED)
        self.k = _buffers.zeros(depth, COMPILED)
        self.d = _buffers.zeros(depth, COMPILED)
        self.replay_k = _buffers.zeros(depth, COMPILED)
        self.base = _buffers.zeros(depth + 1, COMPILED)
        self.alt = _buffers.zeros(depth * widest + 1, COMPILED)
        self.cut_depth = depth + 1
        self.nodes = 0
        self.solutions = 0
        self.restart()

    def restart(self) -> None:
        """Back to the root, every copy in hand."""
        i: cython.Py_ssize_t
        for i in range(len(self.copies0)):
            self.left[i] = self.copies0[i]
        self.level = 0
        self.floor = 0
        self.state = ENTER
        self.replay_end = 0
        self.bad_replay = False
        self.leaf_kind = 0

    def replay(self, ks: list[int]) -> bool:
        """From the node about to be entered, take choice ``ks[0]``, then ``ks[1]``, ..."""
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
        board = self.boards[self.level]
        if board == self.full:
            return -1
        if self._dead(self.level, board):
            return 0
        lo, hi = self._range(self.level, board)
        taken = self.taken[self.level]
        return sum(
            1
            for q in range(lo, hi)
            if self.left[self.piece[q]] > 0 and not self.mask[q] & board and not self.sec[q] & taken
        )

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

    def position(self) -> list[int]:
        return [self.k[t] for t in range(self.level)]

    def degrees(self) -> list[int]:
        return [self.d[t] for t in range(self.level)]

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
                    if check_dead and level > 0:
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
                    if dead:
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
