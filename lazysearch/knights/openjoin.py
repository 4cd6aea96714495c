"""Counting open knight's tours by joining two halves of the board: the driver.

The method, and the compiled join it runs, are in :mod:`lazysearch.knights._openjoin`;
this module sweeps the two halves with the columns' program
(:mod:`lazysearch.knights._count`), reads their tables at the shared columns, joins them
(in parts, in forked processes, for large tables), and keeps the plain join of dicts of
``bytes`` that checks the compiled one.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine import _native
from . import counting
from ._table import renumber
from .limits import TooManyStatesError

#: A shared square's values, as the program's frontiers have them: no edge, two edges,
#: an end whose fragment leads to a fixed tour end, then the fragments' labels.
FREE, FULL, TAIL, FIRST = 0, 1, 2, 3


def _kernels() -> Any:
    """The compiled join (or its plain-Python source)."""
    return _native.load("lazysearch.knights._openjoin")


def _degree(v: int) -> int:
    return 0 if v == FREE else 2 if v == FULL else 1


def one_path(mine: bytes, theirs: bytes, k2: int) -> bool:
    """Whether the left half's frontier of the shared columns (``mine``) and the right
    half's frontier of them (``theirs``), whose degrees fit
    (two on every square, or one at a tour end; two tour ends in all), make one path:
    walked from one tour end, it goes through every fragment of both sides."""
    side: list[bytes] = [mine, theirs]
    partner: list[list[int]] = [[-1] * k2, [-1] * k2]
    fragments = 0
    for h in range(2):
        seen: dict[int, int] = {}
        values = side[h]
        for y in range(k2):
            v = values[y]
            if v == TAIL:
                fragments += 1
            elif v >= FIRST:
                if v in seen:
                    partner[h][y] = seen[v]
                    partner[h][seen[v]] = y
                    fragments += 1
                else:
                    seen[v] = y
    # A tour end to walk from: a TAIL (its fixed end is behind it), or a square that is
    # an end on one side and FREE on the other.
    here = -1
    h = 0
    walked = 0
    for y in range(k2):
        if mine[y] == TAIL or theirs[y] == TAIL:
            here, h, walked = y, 0 if mine[y] == TAIL else 1, 1
            break
    if here < 0:
        for y in range(k2):
            if _degree(mine[y]) + _degree(theirs[y]) == 1:
                h = 0 if mine[y] != FREE else 1
                walked = 1
                if side[h][y] == TAIL:  # pragma: no cover - TAILs were looked for first
                    return walked == fragments
                here = partner[h][y]
                break
    if here < 0:
        return False
    # At ``here``, arrived along side h's fragment: go on along the other side's.
    while True:
        o = 1 - h
        v = side[o][here]
        if v == FREE:  # a square with one edge: the other tour end
            return walked == fragments
        walked += 1
        if v == TAIL:
            return walked == fragments
        here = partner[o][here]
        h = o


def join_open(seen: dict[bytes, int], right: dict[bytes, int], k2: int) -> int:
    """The number of open tours (paths, undirected): the left half's frontiers of the
    shared columns (``seen``, each ``k2`` values and the tour ends fixed) paired with
    the right half's (``right``, the same), where the degrees fit and the fragments
    make one path.  Dicts of ``bytes``: the plain reference for
    :class:`~lazysearch.knights._openjoin.Joiner`."""
    groups: dict[bytes, list[tuple[bytes, int]]] = {}
    for key, count in right.items():
        pattern = bytes(_degree(v) for v in key[:k2]) + key[k2:]
        groups.setdefault(pattern, []).append((key, count))
    total = 0
    for key, count in seen.items():
        ends = key[k2]
        need = [2 - _degree(v) for v in key[:k2]]
        # The right half's degrees: 2 - mine everywhere, but one less at a new tour end.
        spare = [y for y in range(k2) if need[y] > 0]
        options: list[list[int]] = [[]]
        if ends <= 1:
            options += [[y] for y in spare]
        if ends == 0:
            options += [[y, z] for i, y in enumerate(spare) for z in spare[i + 1 :]]
        for lowered in options:
            theirs = list(need)
            for y in lowered:
                theirs[y] -= 1
            pattern = bytes(theirs) + bytes([2 - ends - len(lowered)])
            for other, their_count in groups.get(pattern, ()):
                if one_path(key, other, k2):
                    total += count * their_count
    return total


def boundary(frontiers: dict[int, int], k: int, c: int) -> dict[bytes, int]:
    """The open-tour program's table after the first ``c`` columns of a ``k``-row board,
    read at the boundary (columns ``c - 2`` and ``c - 1``): ``2k`` values (``FREE``,
    ``FULL``, ``TAIL``, labels from ``FIRST`` in order of appearance) and the tour ends
    fixed.  Raises :class:`RuntimeError` if a frontier has an unsettled square left of
    the boundary (never, by construction)."""
    w = 2 * k + 1
    out: dict[bytes, int] = {}
    for key, count in frontiers.items():
        values = []
        for p in range(w):
            v = (key >> (4 * p if p < 15 else 64 + 4 * (p - 15))) & 15
            square = c * k - w + p
            if square < (c - 2) * k:
                if v != FULL:
                    raise RuntimeError(f"frontier {key:#x}: square {square} is not settled")
                continue
            values.append(v)
        ends = (key >> (60 if w <= 15 else 64 + 4 * (w - 15))) & 3
        after = bytes([*renumber(values, FIRST), ends])
        out[after] = out.get(after, 0) + count
    return out


def mirror(key: bytes, k: int) -> bytes:
    """A boundary frontier with the rows of each of its two columns turned over."""
    values = list(key[k - 1 :: -1]) + list(key[2 * k - 1 : k - 1 : -1])
    return bytes(renumber(values, FIRST)) + key[2 * k :]


def unfolded(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the folding program made whole again: a frontier and its
    mirror image have as many ways to be reached (the board is symmetric), so a class of
    two, kept under one of them with both counts, is half each.  Raises
    :class:`RuntimeError` on an odd count of such a class (never, by symmetry)."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        image = mirror(key, k)
        if image == key:
            out[key] = out.get(key, 0) + count
            continue
        if count % 2:
            raise RuntimeError(f"folded frontier {key!r} has an odd count {count}")
        out[key] = out.get(key, 0) + count // 2
        out[image] = out.get(image, 0) + count // 2
    return out


def turned(table: dict[bytes, int], k: int) -> dict[bytes, int]:
    """A boundary table of the board turned round (columns reversed), in the other
    half's order: its column ``c' - 1`` is column ``c`` and its ``c' - 2`` column
    ``c + 1``."""
    out: dict[bytes, int] = {}
    for key, count in table.items():
        values = list(key[k : 2 * k]) + list(key[:k])
        out[bytes(renumber(values, FIRST)) + key[2 * k :]] = count
    return out


class _Swept:
    """A table of the program between squares: a compiled ``Table`` (``fast``) while
    the counts fit in 64 bits, a dict of Python integers after."""

    def __init__(self, fast: Any, table: dict[int, int] | None) -> None:
        self.fast = fast
        self.table = table

    def export(self) -> Any:
        """The keys and counts as ``Table.export`` gives them, or the dict."""
        return self.fast.export() if self.fast is not None else self.table

    def __len__(self) -> int:
        return int(self.fast.used) if self.fast is not None else len(self.table or ())


def _sweep(
    counter: Any,
    module: Any,
    table: dict[int, int] | _Swept,
    squares: range,
    limit: int,
    k: int,
    n: int,
) -> _Swept:
    """``table`` taken through ``squares`` by ``counter``, in compiled tables while the
    counts fit in 64 bits (then Python dicts).  A :class:`_Swept` given is read, never
    changed (both halves are swept on from the same table).  Raises
    ``TooManyStatesError`` past ``limit`` frontiers.

    A table is never loaded from another's keys in their slot order: into a smaller
    table that piles them up in runs of linear probing (the 7x7 left half's first
    square ran minutes where it takes seconds)."""
    kw = 1 if 2 * k + 1 <= 15 else 2
    tables = _native.load("lazysearch.knights._table")
    src: Any = None
    plain: Any
    if isinstance(table, _Swept):
        src, plain = table.fast, table.table
    else:
        plain = table
        if module.COMPILED and 2 * k + 1 <= 29:
            src = tables.Table(limit, size=_room(len(table)), kw=kw)
            if tables.STATUS[src.load(table)] != "ok":  # counts past 64 bits already
                src = None
    given = src
    spare: Any = None
    for i in squares:
        if src is not None:
            dst = spare if spare is not None else tables.Table(limit, size=src.size, kw=kw)
            status = tables.STATUS[counter.step_fast(i, src, dst)]
            if status == "overflow":  # counts past 64 bits: go on in Python ints
                plain = counter.step(i, src.items())
                src = spare = None
            elif status != "ok":
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
            else:
                spare = None if src is given else src
                if spare is not None:
                    spare.clear()
                src = dst
        else:
            plain = counter.step(i, plain)
            if len(plain) > limit:
                raise _too_many(limit, k, n, f"frontiers at square {i + 1}")
    return _Swept(src, None if src is not None else plain)


def _room(size: int) -> int:
    """A table's slots for ``size`` frontiers: a power of two, at most half full."""
    slots = 1024
    while slots < 2 * size:
        slots *= 2
    return slots


class OpenJoinCount:
    """What :func:`open_join_count` found: the ``count`` of directed open tours (every
    start), the ``cut`` (the shared columns are ``cut - 2`` and ``cut - 1``), the
    frontiers of each half at the shared columns (``left`` folded, ``right`` whole),
    ``pairs`` of them compared, and ``seconds`` (wall) for the halves (the program's
    sweeps: ``first columns`` swept once for both, then ``left half``, both within
    ``halves``) and the join (``right records``, the right half's records, within
    ``join``).  (A plain class, as :class:`lazysearch.knights._join.JoinCount`.)"""

    def __init__(self, rows: int, cols: int, cut: int) -> None:
        self.rows = rows
        self.cols = cols
        self.cut = cut
        self.count = 0
        self.left = 0
        self.right = 0
        self.pairs = 0
        self.seconds: dict[str, float] = {}

    def __repr__(self) -> str:
        return (
            f"OpenJoinCount({self.rows}x{self.cols}, cut={self.cut}, count={self.count}, "
            f"left={self.left}, right={self.right}, pairs={self.pairs}, "
            f"seconds={self.seconds})"
        )


def open_join_count(
    rows: int,
    cols: int,
    cut: int | None = None,
    max_states: int | None = None,
    reference: bool = False,
    workers: int = 1,
) -> OpenJoinCount:
    """The directed open tours of a ``rows x cols`` board (every start), counted by
    joining two halves that share columns ``cut - 2`` and ``cut - 1``.

    >>> open_join_count(5, 5).count
    1728

    ``n`` is the long side and ``k`` the short one; ``cut`` must be from 3 to ``n - 1``
    and the board at least 3x4.  The default, ``(n + 3) // 2``, makes the halves as
    equal as may be, the left one (whose edges between the shared columns are left out,
    so it holds fewer frontiers) the longer when they differ: measured the faster cut
    on 4x8, 5x6, 5x7, 5x8 and 6x6.
    The program sweeps ``cut`` columns for the left half and ``n - cut + 2`` for the
    right, the first ``min(cut - 1, n - cut + 2)`` of them once for both.

    ``workers`` forked processes (this one and ``workers - 1`` more) share the join's
    left frontiers, when there are :data:`PARTS_FROM` or more: they read the right
    half's arrays without a copy, and their counts are added.

    ``reference=True`` joins with :func:`join_open` (dicts of ``bytes``, slow, written
    apart from :class:`~lazysearch.knights._openjoin.Joiner` to check it).

    Raises :class:`~lazysearch.knights.counting.TooManyStatesError` when a table would
    pass ``max_states`` frontiers (default
    :func:`~lazysearch.knights.counting.default_max_states`); ``ValueError`` for a board
    or cut that does not fit.
    """
    k, n = min(rows, cols), max(rows, cols)
    if k < 3 or n < 4:
        raise ValueError(f"open_join_count() needs a board at least 3x4, not {rows}x{cols}")
    c = (n + 3) // 2 if cut is None else cut
    if not (isinstance(c, int) and 3 <= c <= n - 1):
        raise ValueError(f"open_join_count() needs 3 <= cut <= {n - 1} on {k}x{n}, not cut={c!r}")
    limit = counting.default_max_states() if max_states is None else max_states
    counting.check_measured(rows, cols, False, None, limit, "joining the halves of")
    result = OpenJoinCount(rows, cols, c)
    began = time.perf_counter()
    module = _native.load("lazysearch.knights._count")
    plain = module.FrontierCounter(k, n, -1, False, fold=True)
    shared = min(c - 1, n - c + 2)  # the cut changes column c - 1 only
    common = _sweep(plain, module, plain.initial(), range(shared * k), limit, k, n)
    result.seconds["first columns"] = time.perf_counter() - began
    cutting = module.FrontierCounter(k, n, -1, False, fold=True, cut=c)
    left_swept = _sweep(cutting, module, common, range(shared * k, c * k), limit, k, n)
    result.seconds["left half"] = time.perf_counter() - began - result.seconds["first columns"]
    right_swept = _sweep(plain, module, common, range(shared * k, (n - c + 2) * k), limit, k, n)
    del common
    if reference:
        left_table, right_table = _as_dict(left_swept), _as_dict(right_swept)
    else:
        left_table, right_table = left_swept.export(), right_swept.export()
    del left_swept, right_swept
    result.seconds["halves"] = time.perf_counter() - began
    began = time.perf_counter()
    if reference:
        left = boundary(left_table, k, c)
        right = turned(unfolded(boundary(right_table, k, n - c + 2), k), k)
        result.left, result.right = len(left), len(right)
        result.count = 2 * join_open(left, right, 2 * k)
    else:
        joiner = _kernels().Joiner(k)
        joiner.add_right(right_table)
        del right_table
        result.seconds["right records"] = time.perf_counter() - began
        result.left = len(left_table) if isinstance(left_table, dict) else len(left_table[1])
        result.right = joiner.size
        parts = workers if result.left >= PARTS_FROM else 1
        count, result.pairs = _join_in_parts(joiner, left_table, parts)
        result.count = 2 * count
    result.seconds["join"] = time.perf_counter() - began
    return result


#: Left frontiers from which the join is shared among workers (6x7 has 413,872; 6x6
#: 74,696, whose join takes about as long as forking a process).
PARTS_FROM = 200_000


def _join_in_parts(joiner: Any, table: object, parts: int) -> tuple[int, int]:
    """The paths and the pairs compared:
    :meth:`~lazysearch.knights._openjoin.Joiner.join` of ``table`` in ``parts`` parts,
    part 0 in this process and each other in a forked one (on a machine that forks;
    else all of them here, in turn)."""
    import multiprocessing

    from lazysearch import processes
    from lazysearch.executors import worker_lost

    if parts <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        total: int = 0
        for part in range(max(1, parts)):
            total += joiner.join(table, part, max(1, parts))
        return total, joiner.pairs
    context = multiprocessing.get_context("fork")
    readers = []
    children = []
    try:
        for part in range(1, parts):
            reader, writer = context.Pipe(duplex=False)
            child = processes.start_forked(_join_part, (joiner, table, part, parts, writer))
            writer.close()
            readers.append(reader)
            children.append(child)
        total = joiner.join(table, 0, parts)
        pairs = joiner.pairs
        lost = []
        for part, reader in enumerate(readers, start=1):
            try:
                status, count, their_pairs = reader.recv()
            except EOFError:  # killed from outside: its part is joined again below
                lost.append(part)
                continue
            if status != "ok":
                raise RuntimeError(f"a worker of the open join failed: {count}")
            total += count
            pairs += their_pairs
        if lost:
            who = f"{len(lost)} helper processes" if len(lost) > 1 else "a helper process"
            worker_lost(
                f"{who} died (killed from outside?); the {len(lost)} part"
                f"{'' if len(lost) == 1 else 's'} of the join it had not finished counted "
                "again by the caller, so the count is exact"
            )
            for part in lost:
                before = joiner.pairs
                total += joiner.join(table, part, parts)
                pairs += joiner.pairs - before
        return total, pairs
    finally:
        processes.stop_forked(children)


def _join_part(joiner: Any, table: object, part: int, parts: int, writer: Any) -> None:
    """A forked worker's part of the join, sent back as ``("ok", paths, pairs)`` (or
    ``("error", why, 0)``).  It leaves Ctrl-C to the caller, which stops it
    (:func:`lazysearch.processes.start_forked`)."""
    try:
        result: tuple[str, object, int] = (
            "ok",
            joiner.join(table, part, parts),
            joiner.pairs,
        )
    except Exception as error:  # pragma: no cover - a worker's own failure, sent back
        result = ("error", repr(error), 0)
    try:
        writer.send(result)
    except OSError:  # pragma: no cover - the caller is gone
        pass
    finally:
        writer.close()


def _as_dict(swept: _Swept) -> dict[int, int]:
    return swept.fast.items() if swept.fast is not None else dict(swept.table or {})


def _too_many(limit: int, k: int, n: int, where: str) -> TooManyStatesError:
    return TooManyStatesError(
        f"joining the halves of {k}x{n} for open tours needs more than max_states="
        f"{limit:,} {where}; raise max_states if the machine has the memory"
    )
