"""Knight's tours as an explicit-stack machine (Cython pure mode, like the exact-cover engine).

The board is stored with a border two squares wide, so a knight's move is adding one of
eight constant offsets and never needs a bounds test: border squares are marked as
visited for ever.  For each square the engine keeps ``deg``, the number of its
neighbours still free.

Level ``L`` of the stack chooses the ``L``-th square of the path (level 0: the start).
Its choices are the free neighbours of the current square, in Warnsdorff order (fewest
free neighbours first; ties go to the square farther from the centre of the board, then
to the first of the eight moves in ``MOVES``).  Before listing them, rules that never
discard a tour prune the node (``F`` is the set of free squares, ``s`` the current one):

* open tours: a square of ``F`` with no free neighbour can only be the last square,
  entered from ``s``; a square with one free neighbour must be the last square, or the
  next one (entered from ``s``).  So: more than two squares of ``F`` with one free
  neighbour, or more than one of them not next to ``s``, is a dead end; when one of them
  must be the last square, a neighbour of ``s`` with one free neighbour is the forced
  next move.  ``ones`` counts the squares of ``F`` with one free neighbour, kept up to
  date on every move.
* closed tours: the start square counts as a free neighbour of its neighbours (the path
  must come back to it).  Every square of ``F`` then needs two neighbours on the cycle
  besides ``s``, except the next square, which needs one.  So a square with none is a
  dead end, two neighbours of ``s`` with one each is a dead end, one is the forced move;
  and the start square must keep a free neighbour to be re-entered from.

A square of ``F`` whose count drops did so because a neighbour was just visited: that
neighbour is ``s`` when the rules are applied, so looking at the neighbours of ``s`` is
enough to apply them to the whole board.

Memory, for boards of 10^8 squares: ``free`` and ``deg`` are a byte a square each, the
distance from the centre is worked out for each candidate from its row and column instead
of being stored, a level's choices are eight bytes (move numbers), and the buffer for
replaying a position is made only when one is replayed.  Compiled, the machine takes
about 22 bytes a square; :meth:`KnightEngine.squares` gives the path as 4-byte square
indices.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import array
from collections.abc import Sequence

from lazysearch.engine import _buffers, _machine
from lazysearch.engine.states import CUT, DONE, ENTER, LEAF, SOLUTION

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.engine._machine import Machine
else:
    Machine = _machine.plain()

__all__ = ["CUT", "DONE", "ENTER", "LEAF", "MOVES", "SOLUTION", "KnightEngine"]

#: The eight knight's moves in the order that breaks the last ties: (row, column) steps.
MOVES = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def _bytes(size: int, typecode: str) -> object:
    """``size`` zeros a byte each (``"b"`` signed, ``"B"`` not) when compiled; a list
    when plain Python (lists index faster there)."""
    return array.array(typecode, bytes(size)) if COMPILED else [0] * size


@cython.cclass
class KnightEngine(Machine):
    """The tour machine for one board; see the module notes for the rules it applies.

    ``starts`` lists the start squares (level 0's choices) as board indices
    ``row * cols + col``; ``closed`` asks for tours that end a move away from their
    start; ``second``, when ``>= 0``, is the only square allowed second (to count each
    closed tour through a corner once); ``moves`` orders the eight moves for the last
    tie-break.  The path is the machine's stack ``x`` (squares, as indices of the padded
    board).
    """

    offs: cython.int[::1]
    step_r: cython.int[::1]
    step_c: cython.int[::1]
    free: cython.uchar[::1]
    deg: cython.schar[::1]
    keys: cython.longlong[::1]
    cand: cython.uchar[::1]
    starts: cython.int[::1]

    rows: cython.int
    cols: cython.int
    width: cython.int
    n_squares: cython.int
    closed: cython.bint
    second: cython.int
    anchor: cython.int
    ones: cython.int
    _starts: tuple[int, ...]
    _second: int
    children: cython.int

    def __init__(
        self,
        rows: int,
        cols: int,
        starts: Sequence[int],
        closed: bool,
        second: int,
        moves: Sequence[tuple[int, int]] = MOVES,
    ):
        width: cython.int = cols + 4
        self.rows = rows
        self.cols = cols
        self.width = width
        self.n_squares = rows * cols
        self.closed = closed
        self._starts = tuple(starts)
        self._second = second
        self.offs = _buffers.ints([dr * width + dc for dr, dc in moves], COMPILED)
        self.step_r = _buffers.ints([dr for dr, _ in moves], COMPILED)
        self.step_c = _buffers.ints([dc for _, dc in moves], COMPILED)
        size = (rows + 4) * width
        self.free = _bytes(size, "B")
        self.deg = _bytes(size, "b")
        self.keys = _buffers.zeros64(8, COMPILED)
        depth = self.n_squares + 1
        self.cand = _bytes(8 * depth, "B")
        self.starts = _buffers.ints(
            [(s // cols + 2) * width + s % cols + 2 for s in starts] or [0], COMPILED
        )
        self.second = -1 if second < 0 else (second // cols + 2) * width + second % cols + 2
        self._allocate(0, self.n_squares, depth, True)  # the stack, replayed only if asked
        self.restart()

    def restart(self) -> None:
        """Back to the root: every square free, nothing on the stack."""
        free: cython.uchar[::1] = self.free
        deg: cython.schar[::1] = self.deg
        offs: cython.int[::1] = self.offs
        rows: cython.int = self.rows
        cols: cython.int = self.cols
        width: cython.int = self.width
        r: cython.int
        c: cython.int
        t: cython.int
        sq: cython.int
        ones: cython.int = 0
        for sq in range(len(free)):
            free[sq] = 0
            deg[sq] = 0
        for r in range(rows):
            for c in range(cols):
                free[(r + 2) * width + c + 2] = 1
        for r in range(rows):
            for c in range(cols):
                sq = (r + 2) * width + c + 2
                for t in range(8):
                    deg[sq] += free[sq + offs[t]]
                if deg[sq] == 1:
                    ones += 1
        self.ones = ones
        self.anchor = -1
        self._root()

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a complete tour, else its number of children.

        It enters the node with the walk fenced to it (``floor`` and ``cut_depth`` at the
        node), which lists the choices without taking one, and then puts everything back.
        """
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

    def solution(self) -> tuple[tuple[int, int], ...]:
        """The path on the stack as ``(row, col)`` pairs (a typed loop that shares the
        row and column numbers between pairs: boards of millions of squares)."""
        numbers: list[int] = list(range(max(self.rows, self.cols)))
        out: list[tuple[int, int]] = [(0, 0)] * self.level
        width: cython.int = self.width
        path: cython.int[::1] = self.x
        t: cython.int
        for t in range(self.level):
            out[t] = (numbers[path[t] // width - 2], numbers[path[t] % width - 2])
        return tuple(out)

    def squares(self) -> array.array[int]:
        """The path on the stack as square indices ``row * cols + col``, 4 bytes each (a
        typed loop, no Python object a square: boards of 10^8 squares)."""
        level: cython.int = self.level
        out = array.array("I", [0]) * level  # exactly (bytes() would add 1/16)
        codes: cython.uint[::1] = out
        path: cython.int[::1] = self.x
        width: cython.int = self.width
        cols: cython.uint = self.cols
        t: cython.int
        for t in range(level):
            codes[t] = cython.cast(cython.uint, path[t] // width - 2) * cols + (path[t] % width - 2)
        return out

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.

        Listing a node's choices, visiting a square and leaving it again are each written
        once, in place, in this loop (not called): see the module notes for the rules.
        """
        free: cython.uchar[::1] = self.free
        deg: cython.schar[::1] = self.deg
        keys: cython.longlong[::1] = self.keys
        offs: cython.int[::1] = self.offs
        step_r: cython.int[::1] = self.step_r
        step_c: cython.int[::1] = self.step_c
        path: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        cand: cython.uchar[::1] = self.cand
        starts: cython.int[::1] = self.starts
        replay_k: cython.int[::1] = self.replay_k
        closed: cython.bint = self.closed
        second: cython.int = self.second
        n_starts: cython.int = len(self._starts)
        n_squares: cython.int = self.n_squares
        width: cython.int = self.width
        # Doubled coordinates from the centre are 2 * row - (rows + 3) with the border.
        mid_r: cython.longlong = self.rows + 3
        mid_c: cython.longlong = self.cols + 3
        sr: cython.longlong
        sc: cython.longlong
        dr: cython.longlong
        dc: cython.longlong
        anchor: cython.int = self.anchor
        ones: cython.int = self.ones
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
        i: cython.int
        j: cython.int
        dw: cython.int
        base: cython.int
        near: cython.int
        forced: cython.int
        left: cython.int
        key: cython.longlong
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
                # List the choices at ``level``: b of them, 0 at a dead end, -1 at a tour.
                left = n_squares - level
                base = 8 * level
                if level == 0:
                    b = n_starts
                elif left == 0:
                    b = -1
                    if closed:
                        b = 0
                        s = path[level - 1]
                        for t in range(8):
                            if s + offs[t] == anchor:
                                b = -1
                elif closed and deg[anchor] == 0:
                    b = 0  # nothing is left to come back to the start from
                else:
                    s = path[level - 1]
                    sr = s // width
                    sc = s - sr * width
                    b = 0
                    near = 0  # neighbours of s with one free neighbour
                    forced = -1
                    for t in range(8):
                        w = s + offs[t]
                        if free[w]:
                            dw = deg[w]
                            if dw == 0:
                                b = -2  # only the last square may be a dead end
                                if not closed and left == 1:
                                    cand[base] = t
                                    b = -3
                                break
                            if dw == 1:
                                near += 1
                                forced = t
                            # Fewer free neighbours first, then farther from the centre.
                            dr = 2 * (sr + step_r[t]) - mid_r
                            dc = 2 * (sc + step_c[t]) - mid_c
                            key = (cython.cast(cython.longlong, dw) << 40) - (dr * dr + dc * dc)
                            i = b
                            while i > 0 and keys[i - 1] > key:
                                keys[i] = keys[i - 1]
                                cand[base + i] = cand[base + i - 1]
                                i -= 1
                            keys[i] = key
                            cand[base + i] = t
                            b += 1
                    if b == -2:
                        b = 0
                    elif b == -3:
                        b = 1
                    elif closed:
                        if near >= 2:
                            b = 0
                        elif near == 1:
                            cand[base] = forced
                            b = 1
                    elif ones > 2 or ones - near > 1:
                        b = 0
                    elif near > 0 and ones == 2:
                        j = 0
                        for i in range(b):
                            if deg[s + offs[cand[base + i]]] == 1:
                                cand[base + j] = cand[base + i]
                                j += 1
                        b = j
                    if level == 1 and second >= 0 and b > 0:
                        j = 0
                        for i in range(b):
                            if s + offs[cand[base + i]] == second:
                                cand[base] = cand[base + i]
                                j = 1
                        b = j
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
                    if closed:
                        if sq == anchor:
                            anchor = -1
                        else:
                            for t in range(8):
                                deg[sq + offs[t]] += 1
                    else:
                        for t in range(8):
                            w = sq + offs[t]
                            if free[w]:
                                if deg[w] == 1:
                                    ones -= 1
                                elif deg[w] == 0:
                                    ones += 1
                            deg[w] += 1
                        if deg[sq] == 1:
                            ones += 1
                    if ks[level] + 1 < ds[level]:
                        ks[level] += 1
                        descend = True
                        break
                if not descend:
                    break
            if level == 0:
                sq = starts[ks[0]]
            else:
                sq = path[level - 1] + offs[cand[8 * level + ks[level]]]
            # Visit sq: its neighbours lose a free neighbour (in a closed search the start
            # keeps counting for its neighbours, since the path must come back to it).
            path[level] = sq
            free[sq] = 0
            if closed:
                if anchor < 0:
                    anchor = sq
                else:
                    for t in range(8):
                        deg[sq + offs[t]] -= 1
            else:
                if deg[sq] == 1:
                    ones -= 1
                for t in range(8):
                    w = sq + offs[t]
                    deg[w] -= 1
                    if free[w]:
                        if deg[w] == 1:
                            ones += 1
                        elif deg[w] == 0:
                            ones -= 1
            level += 1
            entering = True
            if level == replay_end:
                replay_end = 0
                self.state = ENTER
                break
        self.level = level
        self.nodes = nodes
        self.replay_end = replay_end
        self.anchor = anchor
        self.ones = ones
        return found


# -- tours held as square indices (lazysearch.knights.solver.Tour) -----------------------


@cython.boundscheck(False)
@cython.wraparound(False)
def first_fault(codes: cython.uint[::1], rows: cython.uint, cols: cython.uint) -> tuple[int, int]:
    """``(i, why)`` for the first square ``i`` of a path of square indices that is not on
    the ``rows x cols`` board (``why`` 1), was visited before (2) or is not a knight's move
    from square ``i - 1`` (3); ``(-1, 0)`` when there is none.

    A check of its own, sharing nothing with the search: one byte a square marks the
    squares seen, and a step is a knight's move when its row and column differences are
    1 and 2 or 2 and 1.
    """
    n: cython.Py_ssize_t = len(codes)
    size: cython.ulonglong = cython.cast(cython.ulonglong, rows) * cols
    mark = bytearray(size if n else 0)
    seen: cython.uchar[::1] = mark
    i: cython.Py_ssize_t
    code: cython.uint
    dr: cython.int
    dc: cython.int
    r0: cython.int = 0
    c0: cython.int = 0
    r1: cython.int
    c1: cython.int
    for i in range(n):
        code = codes[i]
        if code >= size:
            return i, 1
        if seen[code]:
            return i, 2
        seen[code] = 1
        r1 = code // cols
        c1 = code % cols
        if i > 0:
            dr = r1 - r0
            dc = c1 - c0
            if dr * dr + dc * dc != 5:
                return i, 3
        r0 = r1
        c0 = c1
    return -1, 0


@cython.boundscheck(False)
@cython.wraparound(False)
def move_numbers(codes: cython.uint[::1], size: cython.uint) -> array.array[int]:
    """For each of ``size`` squares, the number of the move that visits it (1 for the
    first square of ``codes``, 0 for a square not visited): the tour's inverse, 4 bytes
    a square.  Every code must be below ``size``."""
    out = array.array("I", [0]) * size
    numbers: cython.uint[::1] = out
    i: cython.Py_ssize_t
    for i in range(len(codes)):
        numbers[codes[i]] = i + 1
    return out
