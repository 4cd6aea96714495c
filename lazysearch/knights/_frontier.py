"""One knight's tour of a narrow board, by a search over the board's cross-sections.

Warnsdorff's rule goes wrong on long thin boards (3, 4 or 5 squares across): it leaves
a pocket of squares behind that it can no longer reach, and backing up to the mistake
takes time exponential in how far back it was.  This search never looks back further
than a knight can jump.

The squares are taken column by column along the long side (``i = column * k + row``,
``k`` the short side).  A knight's move changes the column by one or two, so each edge
joins square ``i`` to one of the ``W = 2k + 1`` squares before it.  Taking square ``i``
means choosing which of its edges back are in the tour (at most two); the edges chosen
so far form paths ("fragments"), and all that matters for the rest of the board is the
*frontier*: for each of the last ``W`` squares, its number of tour edges so far (0, 1
or 2) and, for an end of a fragment, where that fragment's other end is.  A square
leaving the frontier keeps its degree for good: 2, or 1 if it is one of the tour's two
ends (the start is one of them; a closed tour has none).  Closing a fragment into a
cycle is allowed only as the last edge of a closed tour.

The search is depth first on an explicit stack, and a frontier from which no tour could
be completed is remembered: the same cross-section reached along another way is not
searched again.  There are few different frontiers on a board a few squares wide, so
the search is complete (it proves that there is no tour, when there is none) in time
about linear in the length of the board.
"""

from __future__ import annotations

from collections.abc import Sequence

Square = tuple[int, int]

#: A fragment end whose other end is one of the tour's two ends (it left the frontier
#: with one edge, or it is the start): it may grow, but never join another such end.
TERMINAL = -1


def neighbours_back(k: int, n: int) -> list[list[int]]:
    """For each square ``i = column * k + row`` of a ``k``-row board ``n`` columns long,
    the earlier squares a knight's move away (each within ``2k + 1`` of it)."""
    out: list[list[int]] = []
    for i in range(k * n):
        c, r = divmod(i, k)
        found = []
        for dc, dr in ((2, 1), (2, -1), (1, 2), (1, -2)):
            rr, cc = r + dr, c - dc
            if 0 <= rr < k and cc >= 0:
                found.append(cc * k + rr)
        out.append(sorted(found))
    return out


def frontier_path(rows: int, cols: int, start: Square, closed: bool) -> list[Square] | None:
    """The squares of one tour from ``start`` (a closed one if ``closed``), or ``None``
    when there is none.  Meant for boards a few squares across (any length)."""
    k, n = min(rows, cols), max(rows, cols)
    flip = rows > cols  # then rows run along the long side: square (r, c) is (c, r) here
    # The search goes along the board from the end nearer the start (measured: from the
    # far end, 3 x n from (1, n - 3) takes time growing as n squared).
    along = start[0] if flip else start[1]
    mirror = 2 * along > n - 1

    def index(square: Square) -> int:
        r, c = (square[1], square[0]) if flip else square
        return (n - 1 - c if mirror else c) * k + r

    def square_of(i: int) -> Square:
        c, r = divmod(i, k)
        if mirror:
            c = n - 1 - c
        return (c, r) if flip else (r, c)

    total = k * n
    if total == 1:
        return None if closed else [start]
    s = index(start)
    window = 2 * k + 1
    back = neighbours_back(k, n)
    inner: tuple[int, int] | None = None
    if k == 4 and not closed:
        # On a 4-wide board the outer rows' squares (half of them) have all their
        # neighbours on the inner rows, so an open tour alternates outer and inner
        # squares but for one step between the two inner rows, and ends on outer rows.
        inner = (1, 2)
    edges = _search(total, window, back, s, closed, k, inner)
    if edges is None:
        return None
    links: list[list[int]] = [[] for _ in range(total)]
    for i, chosen in enumerate(edges):
        for j in chosen:
            links[i].append(j)
            links[j].append(i)
    path = [s]
    previous, here = -1, s
    while len(path) < total:
        nxt = links[here][0] if links[here][0] != previous else links[here][-1]
        previous, here = here, nxt
        path.append(here)
    return [square_of(i) for i in path]


def _search(
    total: int,
    window: int,
    back: Sequence[Sequence[int]],
    s: int,
    closed: bool,
    k: int,
    inner: tuple[int, int] | None,
) -> list[tuple[int, ...]] | None:
    """For each square, the earlier squares its tour edges go to; ``None`` if no tour.

    ``inner``: two rows between which the tour may take one step at most, and off
    which it must end (see :func:`frontier_path`)."""
    # A knight's move changes colour: sign +1 for one colour, -1 for the other.
    sign = [1 if (i // k + i % k) % 2 == 0 else -1 for i in range(total)]
    # How many more squares of the +1 colour than of the -1 colour from i to the end.
    surplus = [0] * (total + 1)
    for i in range(total - 1, -1, -1):
        surplus[i] = surplus[i + 1] + sign[i]
    row_kind = [0] * total  # 1 for a square of the ``inner`` rows
    if inner is not None:
        for i in range(total):
            row_kind[i] = 1 if i % k in inner else 0
    ahead: list[list[int]] = [[] for _ in range(total)]  # each square's later neighbours
    for i in range(total):
        for j in back[i]:
            ahead[j].append(i)
    deg = [0] * total
    # For a square with one edge: the other end of its fragment, or TERMINAL.
    mate = [TERMINAL] * total
    cap = [2] * total
    if not closed:
        cap[s] = 1  # the start is an end of the tour: one edge
    ends_allowed = 0 if closed else 1  # tour ends besides the start
    trail: list[tuple[list[int], int, int]] = []
    dead: set[tuple[object, ...]] = set()

    def put(array: list[int], at: int, value: int) -> None:
        trail.append((array, at, array[at]))
        array[at] = value

    def far(u: int) -> int:
        """The other end of the fragment ending at ``u``, as it will be once ``u`` has
        one more edge (TERMINAL if that end can no longer grow)."""
        if deg[u] == 0:
            return TERMINAL if cap[u] == 1 else u
        return mate[u]

    def link(a: int, b: int, last: bool) -> bool:
        """Make ``a`` and ``b`` the ends of one fragment; two TERMINAL ends make the
        whole tour, which is only right once every square is taken."""
        if a == TERMINAL and b == TERMINAL:
            return last
        if a != TERMINAL:
            put(mate, a, b)
        if b != TERMINAL:
            put(mate, b, a)
        return True

    def inner_steps(i: int, chosen: tuple[int, ...]) -> int:
        return sum(1 for j in chosen if row_kind[i] and row_kind[j])

    def join(i: int, chosen: tuple[int, ...], last: bool) -> bool:
        """Take square ``i`` with edges to ``chosen``; False if that cannot be part of
        a tour (a cycle that is not the finished closed tour, a finished path too soon)."""
        if not chosen:
            return True
        if len(chosen) == 1:
            (u,) = chosen
            f = far(u)
            put(deg, u, deg[u] + 1)
            put(deg, i, 1)
            return link(TERMINAL if cap[i] == 1 else i, f, last)
        u, v = chosen
        fu, fv = far(u), far(v)
        put(deg, u, deg[u] + 1)
        put(deg, v, deg[v] + 1)
        put(deg, i, 2)
        if deg[u] == 2 and deg[v] == 2 and fu == v:  # the two ends of one fragment
            return closed and last
        return link(fu, fv, last)

    def leave(j: int, ends: int, last: bool) -> int:
        """Square ``j`` leaves the frontier: the tour ends used so far, or -1 if its
        degree can no longer be made right."""
        d = deg[j]
        if d == cap[j]:
            return ends
        if d == 1 and ends < ends_allowed and not row_kind[j]:  # the far end of the tour
            m = mate[j]
            if m == TERMINAL:
                return ends + 1 if last else -1
            put(mate, m, TERMINAL)
            return ends + 1
        return -1

    def short(i: int, ends: int) -> bool:
        """Whether, with squares ``0..i-1`` taken, some square of the frontier can no
        longer get the edges it needs (or too many of them must be tour ends)."""
        spare = ends_allowed - ends
        colours = 0  # edges the frontier still needs, +1 colour minus -1 colour
        for j in range(max(0, i - window), i):
            need = cap[j] - deg[j]
            colours += need * sign[j]
            if need == 0:
                continue
            later = sum(1 for f in ahead[j] if f >= i)  # squares not yet taken
            if need > later:
                if need - 1 > later or j == s or spare == 0:
                    return True
                spare -= 1
        # Every edge joins the two colours, so the edges the frontier still needs from
        # the squares not yet taken must match what those squares have to give (two
        # each, one for a tour end among them): an exact count, up to the far end of
        # an open tour, whose colour and place are not known yet.
        d = colours + 2 * surplus[i] - (sign[s] if s >= i and not closed else 0)
        if ends < ends_allowed:
            if d != 1 and d != -1:
                return True
        elif d != 0:
            return True
        return False

    def key(i: int, ends: int) -> tuple[object, ...]:
        out: list[object] = [i, ends]
        for j in range(max(0, i - window), i):
            if deg[j] == 1 and cap[j] == 2:
                m = mate[j]
                out.append(m - i if m != TERMINAL else "t")
            else:
                out.append(("d", deg[j]))
        return tuple(out)

    def choices(i: int) -> list[tuple[int, ...]]:
        """The sets of edges back from square ``i`` to try: one edge (the path goes
        on), then two, then none; earlier squares first.  (Two edges first, which
        closes fragments early, was measured 100x slower on 4 x 40: it makes
        frontiers that fail only at the far end of the board.)"""
        free = [j for j in back[i] if deg[j] < cap[j]]
        out: list[tuple[int, ...]] = []
        out += [(a,) for a in free]
        if cap[i] == 2:
            out += [(a, b) for x, a in enumerate(free) for b in free[x + 1 :]]
        out.append(())
        return out

    # The explicit stack: per square taken, the trail length before it, its choices,
    # the one being tried, its frontier's key and the tour ends used before it.
    marks: list[int] = [0]
    options: list[list[tuple[int, ...]]] = [choices(0)]
    tried: list[int] = [-1]
    keys: list[tuple[object, ...]] = [(0, *key(0, 0))]
    ends_before: list[int] = [0]
    steps_before: list[int] = [0]  # steps between the ``inner`` rows before each square
    step_budget = 1 if inner is not None else total
    while True:
        i = len(tried) - 1
        while len(trail) > marks[i]:
            array, where, value = trail.pop()
            array[where] = value
        tried[i] += 1
        if tried[i] == len(options[i]):
            dead.add(keys[i])
            for stack in (marks, options, tried, keys, ends_before, steps_before):
                stack.pop()
            if not tried:
                return None
            continue
        last = i == total - 1
        ends = ends_before[i]
        steps = steps_before[i] + inner_steps(i, options[i][tried[i]])
        if steps > step_budget:
            continue
        ok = join(i, options[i][tried[i]], last)
        if ok and i >= window:
            ends = leave(i - window, ends, last)
            ok = ends >= 0
        if ok and last:
            for j in range(max(0, total - window), total):
                ends = leave(j, ends, True)
                if ends < 0:
                    break
            if ends == ends_allowed:
                return [options[t][tried[t]] for t in range(total)]
            continue
        if not ok:
            continue
        if short(i + 1, ends):
            continue
        state = (steps, *key(i + 1, ends))
        if state in dead:
            continue
        marks.append(len(trail))
        options.append(choices(i + 1))
        tried.append(-1)
        keys.append(state)
        ends_before.append(ends)
        steps_before.append(steps)
