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
:class:`PartsSampler`, for boards 7 or more across, keeps one path of one part's
transfer at a time in the compiled core's tables instead, the tours numbered part by
part.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from ..engine import _native
from ._table import renumber
from .counting import Square, default_max_states, from_sweep, to_sweep
from .join import (
    SHARED,
    JoinCount,
    Stopped,
    in_trie,
    packed_transfer,
    transfer_part,
    transfer_step,
)
from .limits import TooManyStatesError, check_width

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

    The board is cut as :func:`~lazysearch.knights.join.join_count` cuts it (before
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
        check_width(rows, cols, "sampling the tours of")
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
        # The transfer, every step's table kept (as join.dict_transfer counts it).
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
        full, free, first = _FULL, _FREE, _FIRST
        partners, one_cycle = self._join.partners, self._join.one_cycle
        groups: dict[bytes, list[tuple[bytes, list[int]]]] = {}
        for key in sorted(self._right):
            pattern = bytes(full if v == free else free if v == full else first for v in key)
            groups.setdefault(pattern, []).append((key, partners(key)[1]))
        final = self._steps[-1]
        for seen in sorted(self._final):
            theirs = groups.get(bytes(v if v < first else first for v in seen))
            if not theirs:
                continue
            ends, mine = partners(seen)
            if not ends:
                continue
            count = final[self._final[seen]]
            for other, partner in theirs:
                if one_cycle(ends, mine, partner):
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

    def _level(self, i: int) -> dict[int, int]:
        """The program's table before square ``i``."""
        return self._levels[i]

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
            before = self._level(i)
            targets = sorted(set(current))
            place = {q: t for t, q in enumerate(targets)}
            after = {q: 1 << (_DIGIT * t) for t, q in enumerate(targets)}
            hits = counter.completions(i, list(before), after)
            found: list[list[tuple[int, int, int, int]]] = [[] for _ in targets]
            for key in sorted(hits):
                for a, b, later in counter.successors(i, key):
                    if later in place:
                        found[place[later]].append((key, a, b, before[key]))
            del before, hits
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
        first = 0 if self.start is None else to_sweep(rows, cols, self.start)
        ahead = sorted(neighbours[first])[rng.randrange(2)]
        path = [first]
        before = first
        while ahead != first:
            path.append(ahead)
            here = neighbours[ahead]
            before, ahead = ahead, here[0] if here[0] != before else here[1]
        if len(path) != total:  # pragma: no cover - by construction
            raise RuntimeError(f"the edges drawn make a cycle of {len(path)} squares")
        return [from_sweep(rows, cols, j) for j in path]


def _decode(key: int, squares: int) -> bytes:
    """A packed transfer state (:class:`~lazysearch.knights._join.Packed`'s key, words
    low first as one integer: square ``t`` at bits ``5 * (t % 12)`` of word
    ``t // 12``) as :meth:`Transfer.step`'s ``bytes``."""
    return bytes((key >> (64 * (t // 12) + 5 * (t % 12))) & 31 for t in range(squares))


def _program_key(seen: bytes, w: int) -> int:
    """The program's frontier (``w = 2k + 1`` positions, 4 bits each, no ends: a closed
    tour's) that :func:`~lazysearch.knights.join.boundary` reads as ``seen``: its first
    position settled (``FULL``), then the boundary, labels from 3 in order of appearance
    (``seen``'s are from :data:`_FIRST` in that order)."""
    values = [_FULL] + [v if v < _FIRST else v - _FIRST + 3 for v in seen]
    key = 0
    for p, v in enumerate(values[:w]):
        key |= v << (4 * p if p < 15 else 64 + 4 * (p - 15))
    return key


def _turned(seen: bytes, k: int) -> bytes:
    """A boundary state of two columns with the rows turned over, relabelled."""
    values = [seen[(q // k) * k + (k - 1 - q % k)] for q in range(len(seen))]
    return bytes(renumber(values, _FIRST))


class PartsSampler(JoinSampler):
    """Closed tours drawn through the packed, folded join, one part at a time.

    >>> sampler = PartsSampler(5, 6)
    >>> sampler.count
    8
    >>> PartsSampler(6, 6).draw(random.Random(1))[:3]
    [(0, 0), (2, 1), (4, 0)]

    Where :class:`JoinSampler` keeps every step's table of the whole transfer, this one
    keeps one part's path of tables at a time.  A tour's crossing degrees (none, one or
    two edges on each right boundary square) stay in the transfer's states, so the
    tours that take given degrees on the first right squares are a part the join counts
    on its own (:func:`~lazysearch.knights.join.transfer_part`).  The tours
    are numbered part after part in the count's depth-first order: a draw takes a
    number below :attr:`count`, goes down the parts whose counts are known to the one
    it falls in, and takes that part's transfer depth first with the tables of the
    current path kept, until the final table the number falls in; there it picks the
    final state and the right frontier by the number and walks the transfer back
    (:meth:`_draw_in_part`, :meth:`_walk_back`).  The left table is folded (one of
    each frontier and its mirror image, with both counts): the left half's edges are
    drawn from either, and when they reach the image, the crossing and right edges
    drawn are turned over with it (the halves and the cut are symmetric), so each tour
    is still drawn with probability ``1 / count``.  The program's tables of the longer
    half are kept in the compiled core's tables.  ``tick(where)``, if given, is called
    after each square of the halves, each part counted and each crossing square of a
    part drawn in, ``where`` saying which in words.  ``parts`` names a checkpoint of the
    join's count of this board (:mod:`lazysearch.knights.joinrun`: its parts by the
    degrees of the first three right squares, the same folded counts): the parts it
    records are not counted again (8x8's take 1,042 s of CPU), those it lacks are;
    :class:`~lazysearch.errors.CheckpointError` if it is not one of this board.
    ``workers > 1`` counts the parts the file lacks (all of them without one) in that
    many forked processes, by the degrees of the first three right squares.

    Notes
    -----
    Building counts the first square's three parts (about one count of the board:
    8x8's is 1,042 s of CPU) unless ``parts`` gives them; a batch of draws then walks,
    once each, part of the parts its numbers fall in (8x8 with a checkpoint: three
    tours in 261 s of CPU).  What is kept is the halves' tables, the left and right
    boundary tables and one path of a part's tables.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        start: Square | None = None,
        max_states: int | None = None,
        tick: Any = None,
        parts: str | os.PathLike[str] | None = None,
        workers: int = 1,
    ) -> None:
        if workers < 1:
            raise ValueError(f"PartsSampler() needs workers >= 1, not {workers!r}")
        self._tick = tick
        k, n = min(rows, cols), max(rows, cols)
        if k < 3 or n < 4:
            raise ValueError(f"PartsSampler() needs a board at least 3x4, not {rows}x{cols}")
        check_width(rows, cols, "sampling the tours of")
        self._limit = limit = default_max_states() if max_states is None else max_states
        began = time.perf_counter()
        self.rows, self.cols, self.start = rows, cols, start
        self.k, self.n = k, n
        self.c = c = n // 2
        join = _native.load("lazysearch.knights._join")
        program = _native.load("lazysearch.knights._count")
        tables = _native.load("lazysearch.knights._table")
        self._join = join
        self._counter = counter = program.FrontierCounter(k, n, -1, True)
        self.kept = 0
        table: dict[int, int] = counter.initial()
        levels: list[Any] = [table]
        fast = program.COMPILED and 2 * k + 1 <= 29
        kw = 1 if 2 * k + 1 <= 15 else 2
        src: Any = table
        if fast:
            src = tables.Table(limit, kw=kw)
            src.load(table)
        for i in range((n - c) * k):
            if fast:
                dst = tables.Table(limit, kw=kw)
                status = tables.STATUS[counter.step_fast(i, src, dst)]
                if status != "ok":
                    raise TooManyStatesError(
                        f"sampling the closed tours of {rows}x{cols} through the join: "
                        f"square {i + 1} of the halves went {status} (max_states={limit:,})"
                    )
                src = dst
                self._keep(dst.used, limit, f"square {i + 1} of the halves")
            else:
                src = counter.step(i, src)
                self._keep(len(src), limit, f"square {i + 1} of the halves")
            levels.append(src)
            if tick is not None:
                tick(f"square {i + 1} of {(n - c) * k} of the halves")
        self._levels = levels
        transfer = join.Transfer(k, c)
        need_full = [x for x in range(2 * k) if transfer.degrees[x] == 0]
        self._w = join.words_for(4 * k)
        left = join.boundary_packed(self._level(c * k), k, c, 4 * k, False, need_full, limit, True)
        right = join.boundary_packed(self._level((n - c) * k), k, n - c, 2 * k, True, [], limit)
        if left is None or right is None:
            raise TooManyStatesError(
                f"sampling the closed tours of {rows}x{cols} in parts: counts past 2**64"
            )
        self._keep(left.used + right.used, limit, "the boundary tables")
        if tick is not None:
            tick(f"the boundary tables: {left.used:,} left (folded), {right.used:,} right")
        self._right_packed = right
        self._transfer = transfer
        joiner = join.Joiner(right, 2 * k)
        self._shared = {
            "transfer": transfer,
            "joiner": joiner,
            "trie": join.trie_of(joiner.patterns(), 2 * k),
            "left": left,
            "limit": limit,
            "split": k,  # depth first over column c, as join_count counts
            "tick": None,
        }
        #: The count of the tours by the crossing degrees of the first right squares.
        self.parts: dict[tuple[int, ...], int] = {}
        #: The most states one table of the parts' counts held.
        self.peak = 0
        self._seeded = 0
        if parts is not None:
            from .joinrun import read_parts

            for prefix, (found, _, _) in read_parts(os.fspath(parts), k, n).items():
                self.parts[prefix] = found
                self._seeded = max(self._seeded, len(prefix))
        if workers > 1:
            self._count_in_processes(workers)
        self.count = sum(self._part((d,)) for d in range(3))
        self.seconds = time.perf_counter() - began

    def _count_in_processes(self, workers: int) -> None:
        """Count the parts by the degrees of the first three right squares that are not
        known yet in ``workers`` forked processes, as the join's count shares them
        (:func:`~lazysearch.knights.join.packed_transfer`)."""
        depth = min(3, 2 * self.k)
        done = {p: (found, 0, 0) for p, found in self.parts.items() if len(p) == depth}

        def on_part(prefix: tuple[int, ...], summary: tuple[int, int, int]) -> None:
            self.parts[prefix] = summary[0]
            self.peak = max(self.peak, summary[1])

        shared = self._shared
        try:
            packed_transfer(
                JoinCount(self.rows, self.cols),
                shared["transfer"],
                shared["left"],
                shared["joiner"],
                shared["limit"],
                workers,
                shared["split"],
                self._tick,
                done,
                on_part,
            )
        except Stopped as stop:
            raise TooManyStatesError(
                f"sampling the closed tours of {self.rows}x{self.cols} in parts: a "
                f"table went {stop.why} at crossing square {stop.square + 1}"
            ) from None
        self._seeded = max(self._seeded, depth)

    def _level(self, i: int) -> dict[int, int]:
        level = self._levels[i]
        return level if isinstance(level, dict) else level.items()

    def _part(self, prefix: tuple[int, ...]) -> int:
        """The tours whose first right squares took the crossing degrees ``prefix``."""
        found = self.parts.get(prefix)
        if found is None:
            if not in_trie(self._shared["trie"], prefix):
                found = 0
            elif len(prefix) < self._seeded:  # the sum of the parts read under it
                found = sum(self._part((*prefix, d)) for d in range(3))
            else:
                SHARED.update(self._shared)
                try:
                    found, _, peak, _ = transfer_part(prefix)
                    self.peak = max(self.peak, peak)
                except Stopped as stop:
                    raise TooManyStatesError(
                        f"sampling the closed tours of {self.rows}x{self.cols} in parts: a "
                        f"table went {stop.why} at crossing square {stop.square + 1}"
                    ) from None
                finally:
                    SHARED.clear()
                if self._tick is not None:
                    self._tick(f"part {prefix} counted: {found:,} tours")
            self.parts[prefix] = found
        return found

    def draw_many(self, k: int, rng: random.Random) -> list[list[Square]]:
        """``k`` tours drawn independently and uniformly with ``rng``: ``k`` numbers
        below :attr:`count` first, each naming one tour, then each part the numbers
        fall in walked once for all of them (:meth:`_draw_in_part`).

        Raises :class:`LookupError` when the board has no closed tour."""
        if self.count == 0:
            raise LookupError(f"the {self.rows}x{self.cols} board has no closed tour to draw")
        picks = [rng.randrange(self.count) for _ in range(k)]
        drawn: list[Any] = [None] * k
        # Down the parts whose counts are known, then a part's own transfer.
        todo: list[tuple[tuple[int, ...], list[tuple[int, int]]]] = [
            ((), sorted((pick, j) for j, pick in enumerate(picks)))
        ]
        while todo:
            prefix, inside = todo.pop(0)
            counts = [self._known((*prefix, d)) for d in range(3)]
            if len(prefix) == 2 * self.k or None in counts:
                self._draw_in_part(prefix, inside, drawn, rng)
                continue
            passed = 0
            for d, known in enumerate(counts):
                count = known or 0
                here = [(pick - passed, j) for pick, j in inside if 0 <= pick - passed < count]
                if here:
                    todo.append(((*prefix, d), here))
                passed += count
        return self._halves(drawn, rng)

    def _known(self, prefix: tuple[int, ...]) -> int | None:
        """The count of the part ``prefix`` if known without a transfer (0 off the trie,
        counted or read before, or the sum of those read under it), else ``None``."""
        if not in_trie(self._shared["trie"], prefix):
            return 0
        if prefix in self.parts or len(prefix) < self._seeded:
            return self._part(prefix)
        return None

    def _draw_in_part(
        self,
        prefix: tuple[int, ...],
        inside: list[tuple[int, int]],
        drawn: list[Any],
        rng: random.Random,
    ) -> None:
        """The tours numbered ``inside`` (``(number within the part, draw)``, sorted) of
        the part ``prefix``: its transfer taken depth first as the count takes it
        (:func:`~lazysearch.knights.join.transfer_part`), each table kept
        while the tables after it are taken, so that the tables before every right
        square are at hand when a final table holds a number: the tours are the
        final tables' in order, each final table's by its states in order of their
        keys.  Stops after the last number."""
        join = self._join
        transfer = self._transfer
        trie = self._shared["trie"]
        joiner = self._shared["joiner"]
        limit = self._limit
        k2 = 2 * self.k
        split = self._shared["split"]
        w = self._w
        chain: list[Any] = [self._shared["left"]]
        try:
            for s, d in enumerate(prefix):
                out = join.Packed(w, limit)
                transfer_step(
                    transfer, s, chain[-1], [out if d == e else None for e in range(3)], trie
                )
                chain.append(out)
                self.peak = max(self.peak, out.used)
            # (the square the table is before, the table, the tables before it)
            stack: list[tuple[int, Any, tuple[Any, ...]]] = [
                (len(prefix), chain[-1], tuple(chain[:-1]))
            ]
            del chain
            at = passed = 0
            while stack and at < len(inside):
                s, table, before = stack.pop()
                if self._tick is not None:
                    self._tick(f"drawing in part {prefix}: crossing square {min(s + 1, k2)}")
                if s == k2:
                    found = joiner.join(table)
                    if at < len(inside) and inside[at][0] < passed + found:
                        ranked = sorted(joiner.weights(table))
                        while at < len(inside) and inside[at][0] < passed + found:
                            pick, j = inside[at]
                            drawn[j] = self._walk_back(before, ranked, pick - passed, rng)
                            at += 1
                        del ranked
                    passed += found
                    continue
                outs = (
                    [join.Packed(w, limit) for _ in range(3)]
                    if s < split
                    else [join.Packed(w, limit)] * 3
                )
                transfer_step(transfer, s, table, list(outs), trie)
                for out in reversed(outs if s < split else outs[:1]):
                    self.peak = max(self.peak, out.used)
                    if out.used:
                        stack.append((s + 1, out, (*before, table)))
                del outs, table
        except Stopped as stop:
            raise TooManyStatesError(
                f"sampling the closed tours of {self.rows}x{self.cols} in parts: a "
                f"table went {stop.why} at crossing square {stop.square + 1}"
            ) from None
        if at < len(inside):  # pragma: no cover - the parts' counts add up
            raise RuntimeError(f"part {prefix}: its tours do not reach number {inside[at][0]}")

    def _walk_back(
        self,
        before: tuple[Any, ...],
        ranked: list[tuple[int, int, int]],
        pick: int,
        rng: random.Random,
    ) -> tuple[list[tuple[int, int]], bytes, bytes]:
        """The tour numbered ``pick`` of a final table (``ranked``: its states'
        ``(key, count, inner)`` by key, :meth:`Joiner.weights`), the tables before each
        right square in ``before``: its crossing edges (sweep indices), its folded left
        boundary frontier and its right one (:func:`~lazysearch.knights.join.mirrored`
        order).

        The final state ``F`` covers ``count(F) * inner(F)`` numbers; the number's
        remainder by ``inner(F)`` is uniform below it and picks the right frontier
        among those that complete ``F`` (:meth:`Joiner.matches`, by their counts).
        Then each right square's predecessors of the current state (one compiled scan
        of the table before it, :meth:`Transfer.predecessors`) are chosen with ``rng``
        in proportion to their counts, in order of key."""
        kk, c = self.k, self.c
        at = 0
        while pick >= ranked[at][1] * ranked[at][2]:
            pick -= ranked[at][1] * ranked[at][2]
            at += 1
        key, _, inner = ranked[at]
        pick %= inner
        rights = self._shared["joiner"].matches(key)
        at = 0
        while pick >= rights[at][1]:
            pick -= rights[at][1]
            at += 1
        other = rights[at][0]
        edges: list[tuple[int, int]] = []
        for s in range(2 * kk - 1, -1, -1):
            ways = sorted(self._transfer.predecessors(s, before[s], key))
            chosen = self._choose(
                [(x, xa, xb, n) for x, _, xa, xb, n in ways], rng, f"crossing square {s}"
            )
            key, xa, xb = chosen
            y = (c + s // kk) * kk + s % kk
            for x in (xa, xb):
                if x >= 0:
                    edges.append((y, (c - 2 + x // kk) * kk + x % kk))
        return edges, _decode(key, 4 * kk)[: 2 * kk], other

    def _halves(
        self, drawn: list[tuple[list[tuple[int, int]], bytes, bytes]], rng: random.Random
    ) -> list[list[Square]]:
        """The tours of ``drawn`` (each its crossing edges, left boundary frontier and
        right one), both halves of every tour walked back together
        (:meth:`_walk_halves`).  The left half's edges come from the folded frontier or
        its image; when from the image, the crossing and right edges are turned over
        with it."""
        kk, n, c = self.k, self.n, self.c
        w = 2 * kk + 1
        keys, counts = self._exported(c * kk)
        wanted = {_program_key(x, w) for _, seen, _ in drawn for x in (seen, _turned(seen, kk))}
        top_left = {key: count for key, count in zip(keys, counts, strict=True) if key in wanted}
        del keys, counts
        starts: list[tuple[int, int]] = []
        turns: list[bool] = []
        rights: list[tuple[int, int]] = []
        for _, seen, other in drawn:
            options = {_program_key(x, w) for x in (seen, _turned(seen, kk))}
            left_key = self._pick_key([(x, top_left[x]) for x in options if x in top_left], rng)
            starts.append((left_key, c * kk))
            turns.append(left_key != _program_key(seen, w))
            unmirrored = bytes(renumber(list(other[kk:]) + list(other[:kk]), _FIRST))
            rights.append((_program_key(unmirrored, w), (n - c) * kk))
        walked = self._walk_halves(starts + rights, rng)
        tours = []
        for j, (edges, _, _) in enumerate(drawn):
            half, image = walked[j], walked[len(drawn) + j]
            rest = edges + [
                ((n - 1 - a // kk) * kk + a % kk, (n - 1 - b // kk) * kk + b % kk) for a, b in image
            ]
            if turns[j]:
                rest = [
                    ((a // kk) * kk + kk - 1 - a % kk, (b // kk) * kk + kk - 1 - b % kk)
                    for a, b in rest
                ]
            tours.append(self._tour(half + rest, rng))
        return tours

    def _exported(self, i: int) -> tuple[list[int], list[int]]:
        """The program's table before square ``i`` as its keys and their counts, in one
        order (from the compiled table's buffer, without a dict)."""
        level = self._levels[i]
        if isinstance(level, dict):
            return list(level), list(level.values())
        buffer, counts = level.export()
        used = len(counts)
        if level.kw == 1:
            return buffer[:used].tolist(), counts
        low = buffer[0 : 2 * used : 2].tolist()
        high = buffer[1 : 2 * used : 2].tolist()
        return [a | (b << 64) for a, b in zip(low, high, strict=True)], counts

    def _walk_halves(
        self, starts: list[tuple[int, int]], rng: random.Random
    ) -> list[list[tuple[int, int]]]:
        """The edges of a half (sweep indices) for each ``(key, top)`` of ``starts``,
        a program's frontier after ``top`` squares, walked back to the empty board:
        :meth:`JoinSampler._walk_half` for all of them at once, so each table is read
        once for both halves of every tour (the right half is the mirror image's
        left, the same tables)."""
        counter = self._counter
        edges: list[list[tuple[int, int]]] = [[] for _ in starts]
        current = [key for key, _ in starts]
        for i in range(max(top for _, top in starts) - 1, -1, -1):
            active = [j for j, (_, top) in enumerate(starts) if i < top]
            targets = sorted({current[j] for j in active})
            place = {q: t for t, q in enumerate(targets)}
            after = {q: 1 << (_DIGIT * t) for t, q in enumerate(targets)}
            keys, counts = self._exported(i)
            hits = counter.completions(i, keys, after)
            weight = {key: count for key, count in zip(keys, counts, strict=True) if key in hits}
            del keys, counts
            found: list[list[tuple[int, int, int, int]]] = [[] for _ in targets]
            for key in sorted(hits):
                for a, b, later in counter.successors(i, key):
                    if later in place:
                        found[place[later]].append((key, a, b, weight[key]))
            for j in active:
                key, a, b = self._choose(found[place[current[j]]], rng, f"square {i}")
                for x in (a, b):
                    if x >= 0:
                        edges[j].append((i, x))
                current[j] = key
        return edges
