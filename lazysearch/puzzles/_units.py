"""Counting the fillings of a grid of units, for the puzzle generators (Cython pure mode,
like the other engines).

A *unit* is a group of ``n`` cells that holds each digit ``1..n`` once: the rows,
columns and boxes of a sudoku, or a jigsaw's regions, or an X sudoku's diagonals.
Each cell keeps a bitmask of the digits it may still take (bit ``d - 1`` for ``d``).

Propagation, to a fixed point at every node, is the rules a human solver starts
with: a *naked single* (a cell with one digit left) takes that digit out of every cell
that shares a unit with it, and a *hidden single* (a digit that only one cell of a unit
can take) is placed there; when neither applies, *locked candidates*: where two units
meet in two cells or more (a box and a row), a digit that one unit can place only in
the meeting leaves the rest of the other.  A unit where some digit has no cell left, or
a cell with no digit left, is a dead end.  The search branches on the cell with the
fewest digits left (the first in cell order among equals), trying its digits in the
order of a rank table (smallest rank first: by default the digit order; the generators
pass a random one to fill a blank grid at random); or, when some digit has fewer places
left in a unit than that cell has digits, on those places (as exact cover's smallest item
would: on sparse 16x16 grids this cut the proofs of uniqueness from 24 s to 1.2 s a
puzzle).  When a digit is avoided in a cell (a clue's proof), the cell chosen among
those with the fewest digits is the nearest to it (rows plus columns apart, on grids
numbered row by row): the contradiction lies around the clue, and a choice far from it
only doubles the tree.  A clue's proof also runs *naked pairs* (two cells of a unit left
with the same two digits take them out of the unit's other cells) and *hidden pairs*
(two digits only the same two cells of a unit can take leave those cells no other
digit) when the rules above are done; fills and ratings keep to singles and locked
candidates (the same grids from a seed, the same scale of ratings).  The clue proofs of
two 16x16 puzzles took 7,384 nodes (24,826 nearest first without pairs, 43,917 first in
reading order); of 44 clue proofs of a sparse 25x25 puzzle, 42 end within 20,000 nodes
(6.0 s; 34 in 8.6 s without pairs, 11 in 15.0 s first in reading order).  A node with
pairs costs about 2.5 times as much.

Every level keeps its own copy of the masks (``n * n`` 64-bit words), so backing up is
only a step down the stack; nothing is allocated per node.  ``nodes`` counts the nodes
entered (the root included) and ``dead_ends`` those whose propagation failed: a puzzle
that singles alone solve has one node and no dead end.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from collections.abc import Sequence

from lazysearch.engine import _buffers

COMPILED: bool = cython.compiled

if cython.compiled:
    from cython.cimports.lazysearch.engine.bitops import lowest64
else:
    from lazysearch.engine.bitops import lowest64

#: Set in a cell's mask once its single digit has been taken out of its peers.
PLACED = 1 << 40
#: The largest number of digits: masks and the PLACED flag share a 64-bit word.
MAX_DIGITS = 36
#: ``count`` ran out of its node budget before the answer was known.
UNKNOWN = -1


@cython.cfunc
@cython.inline
def two_bits(v: cython.longlong) -> cython.bint:
    """Whether exactly two bits of ``v`` are set."""
    w: cython.longlong = v & (v - 1)
    return v != 0 and w != 0 and (w & (w - 1)) == 0


@cython.cclass
class UnitsEngine:
    """The counting machine for one shape of grid: ``cells`` cells, units of ``n`` cells.

    ``units`` lists each unit's cells (numbers ``0 .. cells - 1``).  Build it once and
    call :meth:`count` for every set of givens of that shape.
    """

    masks: cython.longlong[::1]
    unit_cells: cython.int[::1]
    peer_start: cython.int[::1]
    peers: cython.int[::1]
    rank: cython.int[::1]
    cellat: cython.int[::1]
    untried: cython.longlong[::1]
    digitat: cython.int[::1]
    first: cython.int[::1]
    near: cython.int[::1]
    where: cython.longlong[::1]

    n: cython.int
    cells: cython.int
    n_units: cython.int
    n_locks: cython.int
    lock_start: cython.int[::1]
    lock_cells: cython.int[::1]
    full: cython.longlong
    pairs: cython.bint
    nodes = cython.declare(cython.longlong, visibility="public")
    dead_ends = cython.declare(cython.longlong, visibility="public")

    def __init__(self, n: int, cells: int, units: Sequence[Sequence[int]]) -> None:
        if not 1 <= n <= MAX_DIGITS:
            raise ValueError(f"units of {n} cells: the engine takes 1 to {MAX_DIGITS}")
        self.n = n
        self.cells = cells
        self.n_units = len(units)
        self.full = (1 << n) - 1
        flat: list[int] = []
        mates: list[set[int]] = [set() for _ in range(cells)]
        for unit in units:
            if len(unit) != n:
                raise ValueError(f"a unit of {len(unit)} cells in a grid of {n} digits")
            flat.extend(unit)
            for c in unit:
                mates[c].update(unit)
        start = [0]
        peers: list[int] = []
        for c in range(cells):
            peers.extend(sorted(mates[c] - {c}))
            start.append(len(peers))
        self.unit_cells = _buffers.ints(flat or [0], COMPILED)
        # Where two units meet in two cells or more: the meeting, then the rest of
        # each unit.
        lock_start = [0]
        lock_cells: list[int] = []
        for a in range(len(units)):
            for b in range(a + 1, len(units)):
                meet = sorted(set(units[a]) & set(units[b]))
                if len(meet) < 2:
                    continue
                for part in (
                    meet,
                    sorted(set(units[a]) - set(meet)),
                    sorted(set(units[b]) - set(meet)),
                ):
                    lock_cells.extend(part)
                    lock_start.append(len(lock_cells))
        self.n_locks = (len(lock_start) - 1) // 3
        self.lock_start = _buffers.ints(lock_start, COMPILED)
        self.lock_cells = _buffers.ints(lock_cells or [0], COMPILED)
        self.peer_start = _buffers.ints(start, COMPILED)
        self.peers = _buffers.ints(peers or [0], COMPILED)
        self.rank = _buffers.ints([d for _ in range(cells) for d in range(n)], COMPILED)
        self.masks = _buffers.zeros64((cells + 2) * cells, COMPILED)
        self.cellat = _buffers.zeros(cells + 2, COMPILED)
        self.untried = _buffers.zeros64(cells + 2, COMPILED)
        self.digitat = _buffers.zeros(cells + 2, COMPILED)
        self.first = _buffers.zeros(cells, COMPILED)
        self.near = _buffers.zeros(cells, COMPILED)
        self.pairs = False
        self.where = _buffers.zeros64(n, COMPILED)
        self.nodes = 0
        self.dead_ends = 0

    def set_rank(self, rank: Sequence[int]) -> None:
        """The order in which each cell's digits are tried: ``rank[c * n + d - 1]`` for
        digit ``d`` of cell ``c``, smallest first."""
        if len(rank) != self.cells * self.n:
            raise ValueError(f"a rank table has {self.cells * self.n} entries, not {len(rank)}")
        self.rank = _buffers.ints(list(rank), COMPILED)

    def solution(self) -> list[int]:
        """The first filling the last :meth:`count` found: a digit per cell."""
        return [self.first[c] for c in range(self.cells)]

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.cfunc
    def propagate(self, base: cython.Py_ssize_t) -> cython.bint:
        """Naked and hidden singles, then locked candidates, on the masks at ``base``
        until nothing changes; False at a dead end."""
        masks: cython.longlong[::1] = self.masks
        unit_cells: cython.int[::1] = self.unit_cells
        peer_start: cython.int[::1] = self.peer_start
        peers: cython.int[::1] = self.peers
        full: cython.longlong = self.full
        placed: cython.longlong = PLACED
        n: cython.int = self.n
        cells: cython.int = self.cells
        n_units: cython.int = self.n_units
        lock_start: cython.int[::1] = self.lock_start
        lock_cells: cython.int[::1] = self.lock_cells
        n_locks: cython.int = self.n_locks
        changed: cython.bint = True
        k: cython.int
        i0: cython.int
        i1: cython.int
        i2: cython.int
        i3: cython.int
        c: cython.int
        p: cython.int
        u: cython.int
        i: cython.int
        v: cython.longlong
        w: cython.longlong
        h: cython.longlong
        once: cython.longlong
        twice: cython.longlong
        while changed:
            changed = False
            # Naked singles: a cell's only digit leaves its peers.
            for c in range(cells):
                v = masks[base + c]
                if v & placed:
                    continue
                if v == 0:
                    return False
                if v & (v - 1):
                    continue
                masks[base + c] = v | placed
                for i in range(peer_start[c], peer_start[c + 1]):
                    p = peers[i]
                    w = masks[base + p]
                    if w & v:
                        if w & placed:
                            return False
                        w &= ~v
                        if w == 0:
                            return False
                        masks[base + p] = w
                        changed = True
            # Hidden singles: a digit one cell of a unit can take goes there.
            for u in range(n_units):
                once = 0
                twice = 0
                for i in range(u * n, u * n + n):
                    v = masks[base + unit_cells[i]] & full
                    twice |= once & v
                    once |= v
                if once != full:
                    return False
                h = once & ~twice
                if h == 0:
                    continue
                for i in range(u * n, u * n + n):
                    c = unit_cells[i]
                    v = masks[base + c]
                    w = v & h
                    if w == 0 or v & placed:
                        continue
                    if w & (w - 1):
                        return False
                    if w != v:
                        masks[base + c] = w
                        changed = True
            if changed:
                continue
            # Locked candidates: a digit of one unit that lies only where it meets
            # another leaves the rest of the other.
            for k in range(n_locks):
                i0 = lock_start[3 * k]
                i1 = lock_start[3 * k + 1]
                i2 = lock_start[3 * k + 2]
                i3 = lock_start[3 * k + 3]
                once = 0
                for i in range(i0, i1):
                    once |= masks[base + lock_cells[i]]
                twice = 0
                for i in range(i1, i2):
                    twice |= masks[base + lock_cells[i]]
                h = 0
                for i in range(i2, i3):
                    h |= masks[base + lock_cells[i]]
                once &= full
                # Digits of the first unit only in the meeting leave the second's rest.
                v = once & ~twice & h & full
                if v:
                    for i in range(i2, i3):
                        c = lock_cells[i]
                        w = masks[base + c]
                        if w & v:
                            if w & placed:
                                return False
                            w &= ~v
                            if w == 0:
                                return False
                            masks[base + c] = w
                            changed = True
                v = once & ~h & twice & full
                if v:
                    for i in range(i1, i2):
                        c = lock_cells[i]
                        w = masks[base + c]
                        if w & v:
                            if w & placed:
                                return False
                            w &= ~v
                            if w == 0:
                                return False
                            masks[base + c] = w
                            changed = True
            if changed or not self.pairs:
                continue
            # Naked pairs: two cells of a unit left with the same two digits take them
            # out of the unit's other cells.
            for u in range(n_units):
                for i in range(u * n, u * n + n):
                    v = masks[base + unit_cells[i]]
                    if v & placed or not two_bits(v):
                        continue
                    for k in range(i + 1, u * n + n):
                        if masks[base + unit_cells[k]] != v:
                            continue
                        for i0 in range(u * n, u * n + n):
                            if i0 in (i, k):
                                continue
                            c = unit_cells[i0]
                            w = masks[base + c]
                            if w & v:
                                if w & placed:
                                    return False
                                w &= ~v
                                if w == 0:
                                    return False
                                masks[base + c] = w
                                changed = True
                        break
            if changed:
                continue
            # Hidden pairs: two digits that only the same two cells of a unit can take
            # leave those cells no other digit.
            if self.hidden_pairs(base):
                changed = True
        return True

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.cfunc
    def hidden_pairs(self, base: cython.Py_ssize_t) -> cython.bint:
        """Hidden pairs on the masks at ``base``: two digits that only the same two
        cells of a unit can take leave those cells no other digit.  The places of each
        digit are gathered from the bits of the unit's open cells (a digit some placed
        cell holds is left out).  True when a mask changed."""
        masks: cython.longlong[::1] = self.masks
        unit_cells: cython.int[::1] = self.unit_cells
        where: cython.longlong[::1] = self.where
        placed: cython.longlong = PLACED
        n: cython.int = self.n
        n_units: cython.int = self.n_units
        changed: cython.bint = False
        u: cython.int
        d: cython.int
        k: cython.int
        i: cython.int
        c: cython.int
        v: cython.longlong
        w: cython.longlong
        h: cython.longlong
        once: cython.longlong
        for u in range(n_units):
            for d in range(n):
                where[d] = 0
            h = 0
            for i in range(n):
                v = masks[base + unit_cells[u * n + i]]
                if v & placed:
                    h |= v
                    continue
                w = cython.cast(cython.longlong, 1) << i
                while v:
                    d = lowest64(v)
                    v &= v - 1
                    where[d] |= w
            for d in range(n):
                if h >> d & 1:
                    continue
                v = where[d]
                if not two_bits(v):
                    continue
                for k in range(d + 1, n):
                    if where[k] != v or h >> k & 1:
                        continue
                    w = (cython.cast(cython.longlong, 1) << d) | (
                        cython.cast(cython.longlong, 1) << k
                    )
                    for i in range(n):
                        if v >> i & 1:
                            c = unit_cells[u * n + i]
                            once = masks[base + c]
                            if once & ~w:
                                masks[base + c] = once & w
                                changed = True
                    break
        return changed

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def count(
        self,
        givens: Sequence[int],
        limit: int,
        budget: int = 0,
        avoid_cell: int = -1,
        avoid_digit: int = 0,
    ) -> int:
        """The number of fillings of ``givens`` (a digit per cell, 0 for blank), stopping
        at ``limit`` (0: no limit); :data:`UNKNOWN` when ``budget`` nodes (0: no budget)
        were entered first.  ``nodes`` and ``dead_ends`` count this call's tree.

        With ``avoid_cell``, only the fillings that do not put ``avoid_digit`` there
        count: a clue taken away keeps the puzzle unique exactly when no filling avoids
        its digit, a smaller tree than counting to two."""
        masks: cython.longlong[::1] = self.masks
        rank: cython.int[::1] = self.rank
        cellat: cython.int[::1] = self.cellat
        untried: cython.longlong[::1] = self.untried
        first: cython.int[::1] = self.first
        full: cython.longlong = self.full
        n: cython.int = self.n
        cells: cython.int = self.cells
        digitat: cython.int[::1] = self.digitat
        near: cython.int[::1] = self.near
        placed: cython.longlong = PLACED
        unit_cells: cython.int[::1] = self.unit_cells
        n_units: cython.int = self.n_units
        lim: cython.longlong = limit
        key: cython.int
        best_key: cython.int
        stop_at: cython.longlong = budget if budget > 0 else -1
        nodes: cython.longlong = 0
        dead: cython.longlong = 0
        found: cython.longlong = 0
        level: cython.int = 0
        base: cython.Py_ssize_t
        below: cython.Py_ssize_t
        c: cython.int
        best: cython.int
        size: cython.int
        least: cython.int
        k: cython.int
        d: cython.int
        g: cython.int
        u: cython.int
        i: cython.int
        v: cython.longlong
        bit: cython.longlong
        places: cython.longlong
        entering: cython.bint = True
        if len(givens) != cells:
            raise ValueError(f"{len(givens)} givens for a grid of {cells} cells")
        for c in range(cells):
            g = givens[c]
            if not 0 <= g <= n:
                raise ValueError(f"cell {c}: {g} is not a digit 1..{n} or 0")
            masks[c] = full if g == 0 else cython.cast(cython.longlong, 1) << (g - 1)
        focused: cython.bint = 0 <= avoid_cell < cells and 1 <= avoid_digit <= n
        # Pairs only in a clue's proof: a fill and a rating keep singles and locked
        # candidates (the same grids from a seed, the same scale of ratings).
        self.pairs = focused
        if focused:
            masks[avoid_cell] &= ~(cython.cast(cython.longlong, 1) << (avoid_digit - 1))
            # Branch near the avoided digit: the contradiction that proves a clue is
            # not needed lies around it, and a choice far away only doubles the tree.
            for c in range(cells):
                if cells == n * n:
                    near[c] = abs(c // n - avoid_cell // n) + abs(c % n - avoid_cell % n)
                else:
                    near[c] = 0
        while True:
            if entering:
                # Enter the node at this level: propagate, then a leaf or a branch.
                base = level * cells
                nodes += 1
                if not self.propagate(base):
                    dead += 1
                else:
                    best = -1
                    least = n + 1
                    best_key = 1 << 30
                    for c in range(cells):
                        v = masks[base + c] & full
                        if masks[base + c] & placed or not v & (v - 1):
                            continue
                        size = 0
                        while v:
                            v &= v - 1
                            size += 1
                        if focused:
                            key = size * 4096 + near[c]
                            if key < best_key:
                                best_key = key
                                least = size
                                best = c
                        elif size < least:
                            least = size
                            best = c
                            if size == 2:
                                break
                    if best < 0:
                        found += 1
                        if found == 1:
                            for c in range(cells):
                                v = masks[base + c] & full
                                d = 0
                                while v > 1:
                                    v >>= 1
                                    d += 1
                                first[c] = d + 1
                        if found == lim:
                            break
                    else:
                        cellat[level] = best
                        untried[level] = masks[base + best] & full
                        if least > 2:
                            # A digit with fewer places in a unit than the cell has
                            # digits: branch on its places instead.
                            for u in range(n_units):
                                for d in range(n):
                                    bit = cython.cast(cython.longlong, 1) << d
                                    size = 0
                                    places = 0
                                    for i in range(n):
                                        v = masks[base + unit_cells[u * n + i]]
                                        if v & bit:
                                            if v & placed:
                                                size = n + 1
                                                break
                                            size += 1
                                            places |= cython.cast(cython.longlong, 1) << i
                                    if size < least:
                                        least = size
                                        cellat[level] = -1 - u
                                        digitat[level] = d
                                        untried[level] = places
                                if least == 2:
                                    break
                        level += 1
                # Out of budget with nodes left to see (a root that is a leaf answers).
                if stop_at >= 0 and nodes >= stop_at and level > 0:
                    found = -1  # UNKNOWN
                    break
                entering = False
            # Try the next digit of the cell chosen one level up, or back up.
            if level == 0:
                break
            k = level - 1
            v = untried[k]
            if v == 0:
                level -= 1
                continue
            c = cellat[k]
            base = k * cells
            below = level * cells
            for g in range(cells):
                masks[below + g] = masks[base + g]
            if c < 0:
                # The next place of a digit in a unit.
                bit = v & -v
                untried[k] = v & ~bit
                i = 0
                while bit > 1:
                    bit >>= 1
                    i += 1
                masks[below + unit_cells[(-1 - c) * n + i]] = (
                    cython.cast(cython.longlong, 1) << digitat[k]
                )
            else:
                d = -1
                least = 1 << 30
                for g in range(n):
                    if v >> g & 1 and rank[c * n + g] < least:
                        least = rank[c * n + g]
                        d = g
                bit = cython.cast(cython.longlong, 1) << d
                untried[k] = v & ~bit
                masks[below + c] = bit
            entering = True
        self.nodes = nodes
        self.dead_ends = dead
        return found
