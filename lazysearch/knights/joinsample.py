"""Exactly uniform random closed tours drawn through the join of two halves.

:class:`~lazysearch.knights.counting.TourSampler` keeps every square's frontiers of the
whole board, which the middle columns of wide boards do not fit in (docs/knights.md).
The join (:mod:`lazysearch.knights._join`) counts closed tours as three parts of one edge
set: the left half's edges, the crossing edges, the right half's edges.  This module
draws a tour the same way round, each part given the next:

1. a final state ``F`` of the transfer (the right boundary as the left half and the
   crossing edges leave it) and a right half's frontier ``R`` that fit, in proportion to
   ``count(F) * count(R)``: the pairs the join adds up;
2. the crossing edges, walking the transfer back from ``F`` one right boundary square
   at a time: a state's predecessors (the states of the step before that lead to it)
   are chosen in proportion to their forward counts.  The walk ends at a left boundary
   frontier ``L``;
3. each half's edges, walking the program's per-square tables of that half back the
   same way from a frontier read as ``L`` (or, mirrored, as ``R``).

Why every tour is equally likely: a tour has one left edge set, one crossing edge set
and one right edge set, and the crossing edges are one path through the transfer's
tables.  Walking back from a state ``X`` whose count is ``count(X)``, a predecessor ``p``
is chosen with probability ``count(p) / count(X)`` (the predecessors' counts add up to
``count(X)``: that is how the forward step made it), so a path from ``L`` to ``F`` is
drawn with probability ``count(L) / count(F)``, the product telescoping; the same holds
in the halves, down to the empty board (count 1).  So a tour is drawn with probability
``count(F) * count(R) / total * count(L) / count(F) * 1 / count(L) * 1 / count(R) =
1 / total``.  Integers only: ``random.Random.randrange`` on exact counts, candidates in
sorted order, so a seed gives the same tours compiled and as plain Python.

The tables are kept in Python dicts (counts of any size): every square's table of the
longer half, and every step's table of the transfer.  That is the cost, in memory.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .. import _native
from .counting import (
    Square,
    TooManyStatesError,
    _check_width,
    _from_sweep,
    _to_sweep,
    default_max_states,
)

#: A boundary square's values in the join's states (:mod:`lazysearch.knights._join`: no
#: edge, two edges, then the fragments' labels).
_FREE, _FULL, _FIRST = 0, 1, 2

#: Bits a target's multiplicity takes in :meth:`JoinSampler._walk_half`'s scan.
_DIGIT = 8


class JoinSampler:
    """Closed tours of one board drawn exactly uniformly through the join of its halves.

    >>> sampler = JoinSampler(5, 6)
    >>> sampler.count
    8
    >>> tour = sampler.draw(random.Random(1))
    >>> tour[0], len(tour)
    ((0, 0), 30)

    The board is cut as :func:`~lazysearch.knights._join.join_count` cuts it (before
    column ``n // 2`` of the long side ``n``; it needs at least 3 squares across and 4
    along).  Tours are cycles, returned from ``start`` (default ``(0, 0)``) in a
    direction drawn at random, as :class:`~lazysearch.knights.counting.TourSampler`
    returns them.  ``seconds`` says what building took, ``kept`` how many entries the
    tables kept.

    Raises :class:`~lazysearch.knights.counting.TooManyStatesError` when the tables
    kept would pass ``max_states`` entries (default
    :func:`~lazysearch.knights.counting.default_max_states`), ``ValueError`` for a
    board the cut does not fit.

    Notes
    -----
    Time: the program's sweep of the longer half and the transfer, each once, in
    Python dicts; a batch of draws (:meth:`draw_many`) then scans each kept table once
    more.  Memory: every square's table of the half and every step's of the transfer.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        start: Square | None = None,
        max_states: int | None = None,
    ) -> None:
        k, n = min(rows, cols), max(rows, cols)
        if k < 3 or n < 4:
            raise ValueError(f"JoinSampler() needs a board at least 3x4, not {rows}x{cols}")
        _check_width(rows, cols, "sampling through the join the tours of")
        limit = default_max_states() if max_states is None else max_states
        began = time.perf_counter()
        self.rows, self.cols, self.start = rows, cols, start
        self.k, self.n = k, n
        self.c = c = n // 2
        join = _native.load("lazysearch.knights._join")
        program = _native.load("lazysearch.knights._count")
        self._join = join
        self._counter = counter = program.FrontierCounter(k, n, -1, True)
        self.kept = 0
        # The program's table before each square, up to the longer half's last column.
        table: dict[int, int] = counter.initial()
        levels = [table]
        for i in range((n - c) * k):
            table = counter.step(i, table)
            levels.append(table)
            self._keep(len(table), limit, f"square {i + 1} of the halves")
        self._levels = levels
        # Each half's boundary frontiers, with the program's frontiers read as each.
        self._left_keys: dict[bytes, list[tuple[int, int]]] = {}
        for key, count in levels[c * k].items():
            (seen,) = join.boundary({key: count}, k, c)
            self._left_keys.setdefault(seen, []).append((key, count))
        self._right_keys: dict[bytes, list[tuple[int, int]]] = {}
        for key, count in levels[(n - c) * k].items():
            (seen,) = join.mirrored(join.boundary({key: count}, k, n - c), k)
            self._right_keys.setdefault(seen, []).append((key, count))
        right = {key: sum(x for _, x in ways) for key, ways in self._right_keys.items()}
        self._right = right
        # The transfer, every step's table kept (as join._dict_transfer counts it).
        transfer = join.Transfer(k, c)
        transfer.restrict(right)
        self._transfer = transfer
        states: dict[bytes, int] = {}
        for seen, ways in sorted(self._left_keys.items()):
            if all(seen[x] == _FULL for x in range(2 * k) if transfer.degrees[x] == 0):
                states[seen + bytes(2 * k)] = sum(x for _, x in ways)
        steps = [states]
        for s in range(2 * k):
            states = transfer.step(s, states)
            steps.append(states)
            self._keep(len(states), limit, f"crossing square {s + 1} of {2 * k}")
        self._steps = steps
        self._final = {key[2 * k :]: key for key in states}
        self.count = sum(weight for _, _, weight in self._pairs())
        self.seconds = time.perf_counter() - began

    def _keep(self, more: int, limit: int, where: str) -> None:
        self.kept += more
        if self.kept > limit:
            raise TooManyStatesError(
                f"sampling the closed tours of {self.rows}x{self.cols} through the join "
                f"keeps more than max_states={limit:,} frontiers (at {where}); raise "
                "max_states if the machine has the memory"
            )

    def _pairs(self) -> Any:
        """The join's pairs in a fixed order: ``(F, R, count(F) * count(R))`` for each
        final transfer state ``F`` (its right boundary part) and right frontier ``R``
        whose degrees add up to two and whose ends make one cycle."""
        join = self._join
        full, free, first = _FULL, _FREE, _FIRST
        groups: dict[bytes, list[tuple[bytes, list[int]]]] = {}
        for key in sorted(self._right):
            pattern = bytes(full if v == free else free if v == full else first for v in key)
            groups.setdefault(pattern, []).append((key, join.partners(key)[1]))
        final = self._steps[-1]
        for seen in sorted(self._final):
            theirs = groups.get(bytes(v if v < first else first for v in seen))
            if not theirs:
                continue
            ends, mine = join.partners(seen)
            if not ends:
                continue
            count = final[self._final[seen]]
            for other, partner in theirs:
                if join.one_cycle(ends, mine, partner):
                    yield seen, other, count * self._right[other]

    def draw(self, rng: random.Random) -> list[Square]:
        """One tour drawn uniformly at random with ``rng``, as a list of squares.

        Raises :class:`LookupError` when the board has no closed tour."""
        return self.draw_many(1, rng)[0]

    def draw_many(self, k: int, rng: random.Random) -> list[list[Square]]:
        """``k`` tours drawn independently and uniformly with ``rng`` (each kept table
        is scanned once for all of them).

        Raises :class:`LookupError` when the board has no closed tour."""
        if self.count == 0:
            raise LookupError(f"the {self.rows}x{self.cols} board has no closed tour to draw")
        if k == 0:
            return []
        kk, n, c = self.k, self.n, self.c
        # 1. The pairs of the join, in proportion to their products.
        picks = sorted((rng.randrange(self.count), j) for j in range(k))
        finals: list[bytes] = [b""] * k
        rights: list[bytes] = [b""] * k
        at = 0
        passed = 0
        for seen, other, weight in self._pairs():
            while at < k and picks[at][0] < passed + weight:
                finals[picks[at][1]] = self._final[seen]
                rights[picks[at][1]] = other
                at += 1
            passed += weight
            if at == k:
                break
        # 2. The crossing edges, the transfer walked back.
        edges: list[list[tuple[int, int]]] = [[] for _ in range(k)]
        current = finals
        for s in range(2 * kk - 1, -1, -1):
            before = self._steps[s]
            targets = set(current)
            found: dict[bytes, list[tuple[bytes, int, int, int]]] = {x: [] for x in targets}
            for key in sorted(before):
                for xa, xb, after in self._transfer.successors(s, key):
                    if after in found:
                        found[after].append((key, xa, xb, before[key]))
            y = (c + s // kk) * kk + s % kk  # right square s, as a sweep index
            for j in range(k):
                key, xa, xb = self._choose(found[current[j]], rng, f"crossing square {s}")
                for x in (xa, xb):
                    if x >= 0:
                        edges[j].append((y, (c - 2 + x // kk) * kk + x % kk))
                current[j] = key
        # 3. The halves, each walked back from a frontier read as its boundary.
        lefts = [self._pick_key(self._left_keys[x[: 2 * kk]], rng) for x in current]
        rights_at = [self._pick_key(self._right_keys[x], rng) for x in rights]
        for j, found_edges in enumerate(self._walk_half(lefts, c * kk, rng)):
            edges[j] += found_edges
        for j, found_edges in enumerate(self._walk_half(rights_at, (n - c) * kk, rng)):
            for a, b in found_edges:  # the right half is the mirror image's left
                edges[j].append(((n - 1 - a // kk) * kk + a % kk, (n - 1 - b // kk) * kk + b % kk))
        return [self._tour(found_edges, rng) for found_edges in edges]

    @staticmethod
    def _choose(
        ways: list[tuple[Any, int, int, int]], rng: random.Random, where: str
    ) -> tuple[Any, int, int]:
        """One of ``ways`` (``(key, a, b, weight)``), in proportion to the weights."""
        pick = rng.randrange(sum(way[3] for way in ways)) if ways else -1
        for key, a, b, weight in ways:
            if pick < weight:
                return key, a, b
            pick -= weight
        raise RuntimeError(f"{where}: no predecessor to walk back to")  # pragma: no cover

    @staticmethod
    def _pick_key(ways: list[tuple[int, int]], rng: random.Random) -> int:
        """One of the program's frontiers ``ways`` (``(key, count)``), by count."""
        pick = rng.randrange(sum(count for _, count in ways))
        for key, count in sorted(ways):
            if pick < count:
                return key
            pick -= count
        raise RuntimeError("the frontiers' counts do not add up")  # pragma: no cover

    def _walk_half(
        self, keys: list[int], top: int, rng: random.Random
    ) -> list[list[tuple[int, int]]]:
        """The edges of a half (sweep indices), for each of the program's frontiers
        ``keys`` after ``top`` squares, walked back to the empty board.  A square's
        predecessors of all the draws' frontiers are found in one scan of the table
        before it (:meth:`FrontierCounter.completions` with each target weighted by
        its own :data:`_DIGIT` bits: a frontier's digits are its ways to each)."""
        counter = self._counter
        edges: list[list[tuple[int, int]]] = [[] for _ in keys]
        current = list(keys)
        for i in range(top - 1, -1, -1):
            before = self._levels[i]
            targets = sorted(set(current))
            place = {q: t for t, q in enumerate(targets)}
            after = {q: 1 << (_DIGIT * t) for t, q in enumerate(targets)}
            hits = counter.completions(i, list(before), after)
            found: list[list[tuple[int, int, int, int]]] = [[] for _ in targets]
            for key in sorted(hits):
                for a, b, later in counter.successors(i, key):
                    if later in place:
                        found[place[later]].append((key, a, b, before[key]))
            for j, q in enumerate(current):
                key, a, b = self._choose(found[place[q]], rng, f"square {i}")
                for x in (a, b):
                    if x >= 0:
                        edges[j].append((i, x))
                current[j] = key
        return edges

    def _tour(self, edges: list[tuple[int, int]], rng: random.Random) -> list[Square]:
        """The cycle of ``edges`` (sweep indices), from ``start`` in a random direction."""
        rows, cols = self.rows, self.cols
        total = rows * cols
        neighbours: list[list[int]] = [[] for _ in range(total)]
        for a, b in edges:
            neighbours[a].append(b)
            neighbours[b].append(a)
        if any(len(x) != 2 for x in neighbours):  # pragma: no cover - by construction
            raise RuntimeError("the edges drawn are not a cycle through every square")
        first = 0 if self.start is None else _to_sweep(rows, cols, self.start)
        ahead = sorted(neighbours[first])[rng.randrange(2)]
        path = [first]
        before = first
        while ahead != first:
            path.append(ahead)
            here = neighbours[ahead]
            before, ahead = ahead, here[0] if here[0] != before else here[1]
        if len(path) != total:  # pragma: no cover - by construction
            raise RuntimeError(f"the edges drawn make a cycle of {len(path)} squares")
        return [_from_sweep(rows, cols, j) for j in path]
