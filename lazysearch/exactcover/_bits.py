"""Algorithm X on bitsets, as an explicit-stack machine: for small exact covers.

The options are numbered ``0..m-1`` in the problem's order, and the options still
possible at a level are a bitset ``L`` of ``W = ceil(m / 64)`` words.  Built once:

* per option ``o``, the complement of its *conflicts* (every option that shares an item
  with it, itself included, primary or secondary), ``keep[o]``: trying ``o`` is
  ``L' = L & keep[o]``, ``W`` ANDs, whatever the number of options it removes;
* per option, the complement of its primary items in the bitset of items still to cover;
* per primary item, the words of its options' bitset that are not zero (word, bits).

Each level keeps its own ``L`` and items to cover (``depth x W`` words), so going back
is a step down the stack: nothing is undone.  Choosing an item counts, for each item
still to cover, ``popcount(L & options(item))`` word by word (stopping as soon as the
count reaches the best so far), and takes the first with the fewest (smallest number
on ties, at once when one has a single option; an item with none is a dead end).  Its
options are the set bits of ``L & options(item)``, in the problem's order.

**The tree is that of dancing links** (:mod:`._dlx`), not that of dancing cells: as on
links, a try that leaves an item with no option is a node, found dead when entered, and
the item branched on is the first with the fewest options among those still to cover, in
item order (links keeps its list of items in that order), its options tried in the
problem's order; the two walk the same nodes, in the same order, with the same
positions (the tests check it on random problems).  The fingerprint of a problem walked
on bits still names the engine (as for cells: :meth:`.problem.DLXProblem.explain_mismatch`),
so that a change of either engine's rule cannot make a checkpoint of one replay wrongly
on the other.

Colours are left to the other engines (an option that shares a colour does not conflict,
which one mask per option cannot say), and so are bounds, costs and least constraining
orders.  The masks take ``m * W`` words: the engine is for problems of some thousands
of options at most (:data:`MAX_WORDS`).

Compiled, a word is a C ``unsigned long long`` and the bits are counted by the
compiler's builtins (``engine/bitops.pxd``); as plain Python, each bitset is one Python int
(``W = 1``, a word as wide as the problem) and ``int.bit_count()`` counts it.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

import array
import sys
from collections.abc import Sequence

from lazysearch.engine import _buffers, _machine
from lazysearch.engine.states import CUT, DONE, ENTER, LEAF, SOLUTION

COMPILED: bool = cython.compiled

#: The most words the masks of one problem may take (``options * ceil(options / 64)``):
#: 2**24 words are 128 MiB, about 16,000 options.
MAX_WORDS = 1 << 24  # problem.BITS_MAX_WORDS: the two must agree

if cython.compiled:
    from cython.cimports.lazysearch.engine._machine import Machine
    from cython.cimports.lazysearch.engine.bitops import lowest64, popcount64
else:
    Machine = _machine.plain()
    from lazysearch.engine.bitops import lowest64, popcount64


def words_needed(options: int) -> int:
    """The words the conflict masks of ``options`` options take, compiled."""
    return options * ((options + 63) // 64)


def _split(bits: int, words: int) -> list[int]:
    """The bitset ``bits`` as ``words`` words, lowest first (compiled: 64-bit words; as
    plain Python, one word: ``bits`` itself)."""
    if not COMPILED:
        return [bits]
    low = (1 << 64) - 1
    return [(bits >> (64 * w)) & low for w in range(words)]


def _words(sets: list[int], words: int) -> object:
    """The bitsets ``sets`` one after the other, ``words`` words each, in one buffer
    (compiled: unsigned 64-bit words, made without a list of them)."""
    if not COMPILED:
        return sets
    data = b"".join([s.to_bytes(8 * words, "little") for s in sets])
    buffer = array.array("Q", data)
    if sys.byteorder != "little":
        buffer.byteswap()
    return buffer


@cython.cclass
class BitsEngine(Machine):
    """The bitset machine for one exact-cover problem without colours (items and options
    as ints, as :class:`._dlx.DLXEngine` takes them; ``labels[j]``, when given, is the
    number solutions give option ``j``)."""

    live: cython.ulonglong[::1]
    todo: cython.ulonglong[::1]
    keep: cython.ulonglong[::1]
    pkeep: cython.ulonglong[::1]
    ibits: cython.ulonglong[::1]
    iword: cython.int[::1]
    istart: cython.int[::1]
    alt: cython.int[::1]
    base: cython.int[::1]
    opt: cython.int[::1]

    n_words: cython.int
    p_words: cython.int
    width: cython.int
    p_width: cython.int
    pick: cython.int

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: Sequence[Sequence[int]],
        option_colors: Sequence[Sequence[int]],
        labels: Sequence[int] | None = None,
    ) -> None:
        if any(any(c) for c in option_colors):
            raise ValueError("the bitset engine takes no colours (use links or cells)")
        m = len(option_items)
        if words_needed(m) > MAX_WORDS:
            raise ValueError(
                f"the bitset engine takes at most {MAX_WORDS} words of masks; "
                f"{m} options need {words_needed(m)}"
            )
        n = primary + secondary
        # Each level takes an option that covers at least one primary item, and no option
        # twice: the stack holds at most min(primary, m) levels.  (primary + 1 levels made
        # each level's items to cover, ``todo``, quadratic in the items: 30,000 items in
        # one option took 112 MB and 0.7 s to set up.)
        depth = min(primary, m) + 1
        self._allocate(primary, n, depth)
        # Compiled, 64-bit words; as plain Python one word (a Python int) per bitset.
        width = 64 if COMPILED else max(m, 1)
        p_width = 64 if COMPILED else max(primary, 1)
        nw = (m + width - 1) // width if m else 1
        pw = (primary + p_width - 1) // p_width if primary else 1
        self.width = width
        self.p_width = p_width
        self.n_words = nw
        self.p_words = pw
        # Each item's options, and each option's conflicts (the options of its items),
        # as Python ints first: an OR of a few ints per option, whatever their length.
        of_item = [0] * (n + 1)
        for j, items in enumerate(option_items):
            bit = 1 << j
            for i in items:
                of_item[i] |= bit
        every = (1 << (width * nw)) - 1
        every_item = (1 << (p_width * pw)) - 1
        keep: list[int] = []
        pkeep: list[int] = []
        for items in option_items:
            conflicts = 0
            covered = 0
            for i in items:
                conflicts |= of_item[i]
                if i <= primary:
                    covered |= 1 << (i - 1)
            keep.append(every ^ conflicts)
            pkeep.append(every_item ^ covered)
        # Per primary item (0-based), the words of its options' bitset that are not zero.
        istart = [0]
        iword: list[int] = []
        ibits: list[int] = []
        for i in range(1, primary + 1):
            for w, bits in enumerate(_split(of_item[i], nw)):
                if bits:
                    iword.append(w)
                    ibits.append(bits)
            istart.append(len(iword))
        self.keep = _words(keep or [0], nw)
        self.pkeep = _words(pkeep or [0], pw)
        self.iword = _buffers.ints(iword or [0], COMPILED)
        self.ibits = _buffers.words(ibits or [0], COMPILED)
        self.istart = _buffers.ints(istart, COMPILED)
        # Level t keeps its live options in live[t * nw : (t + 1) * nw] and its items to
        # cover in todo[t * pw : (t + 1) * pw]; the root's are never written over.
        live = _words([(1 << m) - 1] + [0] * depth, nw)
        todo = _words([(1 << primary) - 1] + [0] * depth, pw)
        self.live = live
        self.todo = todo
        # Level t tries the options in alt[base[t] : base[t + 1]]: every option of the
        # item branched on conflicts with the one tried, so it is in no deeper level's
        # list, and one entry per option is enough.
        self.alt = _buffers.zeros(m + 1, COMPILED)
        self.base = _buffers.zeros(depth + 1, COMPILED)
        self.opt = _buffers.ints(list(range(m)) if labels is None else list(labels), COMPILED)

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _choose(self, level: cython.int) -> cython.int:
        """At the node on ``level``: ``-1`` when no primary item is left to cover, else
        the number of options of the item to branch on, whose number (0-based) is left
        in ``pick``."""
        live: cython.ulonglong[::1] = self.live
        todo: cython.ulonglong[::1] = self.todo
        iword: cython.int[::1] = self.iword
        ibits: cython.ulonglong[::1] = self.ibits
        istart: cython.int[::1] = self.istart
        lw: cython.Py_ssize_t = level * self.n_words
        pw: cython.int = self.p_words
        uw: cython.Py_ssize_t = level * pw
        p_width: cython.int = self.p_width
        best: cython.int = 0x7FFFFFFF
        pick: cython.int = -1
        a: cython.int
        i: cython.int
        c: cython.int
        p: cython.Py_ssize_t
        end: cython.Py_ssize_t
        u: cython.ulonglong
        for a in range(pw):
            u = todo[uw + a]
            while u:
                i = a * p_width + lowest64(u)
                u &= u - 1
                c = 0
                end = istart[i + 1]
                for p in range(istart[i], end):
                    c += popcount64(live[lw + iword[p]] & ibits[p])
                    if c >= best:
                        break
                if c < best:
                    best = c
                    pick = i
                    if c <= 1:
                        break
            if best <= 1:
                break
        self.pick = pick
        return -1 if pick < 0 else best

    def branching(self) -> int:
        """At a node not yet entered: ``-1`` for a solution, else its number of children."""
        return int(self._choose(self.level))

    def solution(self) -> tuple[int, ...]:
        """The options (0-based, ascending) of the partial solution on the stack."""
        return tuple(sorted([self.opt[self.x[t]] for t in range(self.level)]))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Walk on until ``limit`` leaves are reported (0: no limit) or ``budget`` nodes
        are entered (0: no budget).  Returns the number of leaves reported; the last one
        is left on the stack with ``state == LEAF``.
        """
        live: cython.ulonglong[::1] = self.live
        todo: cython.ulonglong[::1] = self.todo
        keep: cython.ulonglong[::1] = self.keep
        pkeep: cython.ulonglong[::1] = self.pkeep
        iword: cython.int[::1] = self.iword
        ibits: cython.ulonglong[::1] = self.ibits
        istart: cython.int[::1] = self.istart
        xs: cython.int[::1] = self.x
        ks: cython.int[::1] = self.k
        ds: cython.int[::1] = self.d
        replay_k: cython.int[::1] = self.replay_k
        alt: cython.int[::1] = self.alt
        bases: cython.int[::1] = self.base
        nw: cython.Py_ssize_t = self.n_words
        pw: cython.Py_ssize_t = self.p_words
        width: cython.int = self.width
        p_width: cython.int = self.p_width
        level: cython.int = self.level
        floor: cython.int = self.floor
        cut_depth: cython.int = self.cut_depth
        replay_end: cython.int = self.replay_end
        nodes: cython.longlong = self.nodes
        stop_at: cython.longlong = nodes + budget if budget > 0 else -1
        found: cython.longlong = 0
        a: cython.Py_ssize_t
        i: cython.int
        c: cython.int
        p: cython.Py_ssize_t
        end: cython.Py_ssize_t
        w: cython.Py_ssize_t
        lw: cython.Py_ssize_t
        uw: cython.Py_ssize_t
        src: cython.Py_ssize_t
        u: cython.ulonglong
        v: cython.ulonglong
        best: cython.int
        pick: cython.int
        b: cython.int
        kk: cython.int
        o: cython.Py_ssize_t
        descend: cython.bint
        entering: cython.bint = self.state == ENTER

        if self.state == DONE:
            return 0
        while True:
            descend = False
            if entering:
                # X2: enter the node at ``level``.
                if nodes == stop_at and replay_end == 0:
                    self.state = ENTER
                    break
                nodes += 1
                # X3: choose the item to branch on (as _choose, written out here).
                lw = level * nw
                uw = level * pw
                best = 0x7FFFFFFF
                pick = -1
                for a in range(pw):
                    u = todo[uw + a]
                    while u:
                        i = a * p_width + lowest64(u)
                        u &= u - 1
                        c = 0
                        end = istart[i + 1]
                        for p in range(istart[i], end):
                            c += popcount64(live[lw + iword[p]] & ibits[p])
                            if c >= best:
                                break
                        if c < best:
                            best = c
                            pick = i
                            if c <= 1:
                                break  # a forced move (or a dead end): look no further
                    if best <= 1:
                        break
                if pick < 0:
                    if replay_end != 0:
                        self.bad_replay = True
                        break
                    self.leaf_kind = SOLUTION
                    self.solutions += 1
                    found += 1
                    if found == limit:
                        self.state = LEAF
                        break
                elif best == 0:
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
                    # X4: the options of the item, in order: the bits of L & options.
                    b = bases[level]
                    end = istart[pick + 1]
                    for p in range(istart[pick], end):
                        v = live[lw + iword[p]] & ibits[p]
                        o = iword[p] * width
                        while v:
                            alt[b] = o + lowest64(v)
                            v &= v - 1
                            b += 1
                    bases[level + 1] = b
                    kk = 0
                    if level < replay_end:
                        kk = replay_k[level]
                        if kk >= best:
                            self.bad_replay = True
                            break
                    xs[level] = alt[bases[level] + kk]
                    ks[level] = kk
                    ds[level] = best
                    descend = True
            if not descend:
                while True:
                    # X8: leave the node at ``level``, to try the next option of the
                    # level below (X6: nothing to undo, each level has its own sets).
                    if level == floor:
                        self.state = DONE
                        break
                    level -= 1
                    kk = ks[level] + 1
                    if kk < ds[level]:
                        ks[level] = kk
                        xs[level] = alt[bases[level] + kk]
                        descend = True
                        break
                if not descend:
                    break
            # X5: try option xs[level]: the next level's sets are this level's without
            # its conflicts and its items.
            o = xs[level]
            src = level * nw
            a = o * nw
            for w in range(nw):
                live[src + nw + w] = live[src + w] & keep[a + w]
            src = level * pw
            a = o * pw
            for w in range(pw):
                todo[src + pw + w] = todo[src + w] & pkeep[a + w]
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
