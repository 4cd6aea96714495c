"""One hash table for the frontier programs' states (Cython pure mode).

A frontier program (:mod:`lazysearch.knights._count` and the programs built on it) keeps,
step by step, every frontier it reaches with the number of ways it is reached: a table
from packed frontiers to counts, filled from the table of the step before and emptied
for the step after.  This module is that table, once for all of them: Fibonacci hashing,
open addressing with linear probing, counts of any number of 64-bit words added with
their carries, doubling when half full, and export of its keys in one buffer.  It also
renumbers the labels of a frontier's fragments in order of appearance, as every program
does to make equal frontiers look equal.

Compiled, the programs ``cimport`` the table and its constants (``_table.pxd`` declares
them); run as plain Python, they use this module's plain-Python source (:func:`plain`),
whatever build this module was imported from.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from types import ModuleType

from lazysearch.engine import _buffers, _native

COMPILED: bool = cython.compiled

if not cython.compiled:  # (compiled, _table.pxd declares them)
    MASK64 = 0xFFFFFFFFFFFFFFFF
    #: An empty slot of a :class:`Table` (no frontier packs to it).
    EMPTY = 0xFFFFFFFFFFFFFFFF
    #: Fibonacci hashing's multiplier (2**64 over the golden ratio).
    GOLDEN = 0x9E3779B97F4A7C15
    #: Mixes a two-word key's high word into its low one before Fibonacci hashing.
    GOLDEN_HI = 0xC2B2AE3D27D4EB4F

    def home(lo: int, hi: int, shift: int) -> int:
        """The slot where the probe for key ``(lo, hi)`` begins in a table of
        ``2**(64 - shift)`` slots."""
        return (((lo ^ (hi * GOLDEN_HI)) * GOLDEN) & MASK64) >> shift

    # What adding to a :class:`Table` did.
    OK = 0
    OVERFLOW = 1
    FULL_UP = 2
    NO_MEMORY = 3

#: The statuses' names, for Python code.
STATUS = ("ok", "overflow", "full", "memory")


@cython.cclass
class Table:
    """A hash table from packed frontiers (keys of ``kw`` 64-bit words, any number: one
    for frontiers up to 15 vertices, four bits a vertex) to counts of ``limbs`` 64-bit
    words (below ``2**(64 * limbs)``), open addressing with linear probing, doubled when
    half full.  Slot ``s`` takes ``kw + limbs`` words from ``s * (kw + limbs)``: its key,
    low word first, then its count, least significant word first (one cache line for a
    few).  ``limit`` bounds the number of frontiers it takes (:meth:`add` says
    ``FULL_UP`` past it).  (Its fields are declared in ``_table.pxd``.)"""

    def __init__(self, limit: int, size: int = 1024, limbs: int = 1, kw: int = 1) -> None:
        self.limit = limit
        self.limbs = limbs
        self.kw = kw
        self.scratch = _buffers.filled64(limbs, 0, COMPILED)  # type: ignore[assignment]
        self._allocate(size)

    def _allocate(self, size: int) -> None:
        self.slots = _buffers.filled64(  # type: ignore[assignment]
            (self.kw + self.limbs) * size, EMPTY, COMPILED
        )
        self.size = size
        self.used = 0
        self.shift = 64 - (size.bit_length() - 1)

    def clear(self) -> None:
        """Empty the table (its size stays)."""
        slot: cython.Py_ssize_t
        for slot in range(self.size):
            self.slots[(self.kw + self.limbs) * slot] = EMPTY
        self.used = 0

    def load(self, table: dict[int, int]) -> int:
        """Add every entry of ``table`` (keys below ``2**(64 * kw)``); returns ``OK`` or
        why not."""
        status: cython.int
        t: cython.int
        for key, count in table.items():
            if key >> (64 * self.kw) or count >> (64 * self.limbs):
                return OVERFLOW
            for t in range(self.limbs):
                self.scratch[t] = (count >> (64 * t)) & MASK64
            if self.kw > 2:
                status = self.add_wide(
                    _buffers.words([(key >> (64 * t)) & MASK64 for t in range(self.kw)], COMPILED),
                    0,
                    self.scratch,
                    0,
                )
            else:
                status = self.add(key & MASK64, key >> 64, self.scratch, 0)
            if status != OK:
                return status
        return OK

    def items(self) -> dict[int, int]:
        """The table as a dict."""
        stride = self.kw + self.limbs
        return {
            self.key_at(stride * slot): self.count_at(stride * slot + self.kw)
            for slot in range(self.size)
            if self.slots[stride * slot] != EMPTY
        }

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def export(self) -> tuple[object, list[int]]:
        """The table's keys in one buffer of 64-bit words (``kw`` a key, low word
        first) and their counts as Python integers, in the same order: what
        :meth:`items` gives, without a Python integer for each key."""
        kw: cython.Py_ssize_t = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        slot: cython.Py_ssize_t
        e: cython.Py_ssize_t = 0
        t: cython.Py_ssize_t
        buffer = _buffers.filled64(max(1, kw * self.used), 0, COMPILED)
        keys: cython.ulonglong[::1] = buffer  # type: ignore[assignment]
        counts: list[int] = []
        for slot in range(self.size):
            if self.slots[stride * slot] == EMPTY:
                continue
            for t in range(kw):
                keys[e * kw + t] = self.slots[stride * slot + t]
            if self.limbs == 1:
                counts.append(self.slots[stride * slot + kw])
            else:
                counts.append(self.count_at(stride * slot + kw))
            e += 1
        return buffer, counts

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def widened(self, limbs: int) -> Table:
        """This table with its counts in ``limbs`` words (more than it has), each
        entry in the same slot."""
        out = Table(self.limit, self.size, limbs, self.kw)
        kw: cython.Py_ssize_t = self.kw
        old: cython.Py_ssize_t = kw + self.limbs
        new: cython.Py_ssize_t = kw + out.limbs
        slot: cython.Py_ssize_t
        t: cython.Py_ssize_t
        for slot in range(self.size):
            if self.slots[old * slot] == EMPTY:
                continue
            for t in range(old):
                out.slots[new * slot + t] = self.slots[old * slot + t]
            for t in range(old, new):
                out.slots[new * slot + t] = 0
        out.used = self.used
        return out

    def key_at(self, at: int) -> int:
        """The key whose low word is at ``slots[at]``."""
        return sum(int(self.slots[at + t]) << (64 * t) for t in range(self.kw))

    def count_at(self, at: int) -> int:
        """The count whose least significant word is at ``slots[at]``."""
        return sum(int(self.slots[at + t]) << (64 * t) for t in range(self.limbs))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def add(
        self,
        lo: cython.ulonglong,
        hi: cython.ulonglong,
        words: cython.ulonglong[::1],
        at: cython.Py_ssize_t,
    ) -> cython.int:
        """Add the count ``words[at : at + limbs]`` to the entry of key ``(lo, hi)``
        (``hi`` is 0 for one-word keys)."""
        mask: cython.Py_ssize_t = self.size - 1
        kw: cython.Py_ssize_t = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        slot: cython.Py_ssize_t = home(lo, hi, self.shift)
        base: cython.Py_ssize_t
        t: cython.int
        carry: cython.ulonglong
        part: cython.ulonglong
        total: cython.ulonglong
        while self.slots[stride * slot] != EMPTY:
            if self.slots[stride * slot] == lo and (kw == 1 or self.slots[stride * slot + 1] == hi):
                base = stride * slot + kw
                carry = 0
                for t in range(self.limbs):
                    part = (words[at + t] + carry) & MASK64
                    carry = 1 if part < carry else 0
                    total = (self.slots[base + t] + part) & MASK64
                    if total < part:
                        carry = 1
                    self.slots[base + t] = total
                return OVERFLOW if carry else OK
            slot = (slot + 1) & mask
        if self.used >= self.limit:
            return FULL_UP
        base = stride * slot
        self.slots[base] = lo
        if kw == 2:
            self.slots[base + 1] = hi
        for t in range(self.limbs):
            self.slots[base + kw + t] = words[at + t]
        self.used += 1
        if 2 * self.used > self.size:
            return self._grow()
        return OK

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def add_wide(
        self,
        key: cython.ulonglong[::1],
        kat: cython.Py_ssize_t,
        words: cython.ulonglong[::1],
        at: cython.Py_ssize_t,
    ) -> cython.int:
        """:meth:`add` for a key of any number of words, ``key[kat : kat + kw]``."""
        kw: cython.Py_ssize_t = self.kw
        if kw <= 2:
            return self.add(key[kat], key[kat + 1] if kw == 2 else 0, words, at)
        mask: cython.Py_ssize_t = self.size - 1
        stride: cython.Py_ssize_t = kw + self.limbs
        t: cython.Py_ssize_t
        mixed: cython.ulonglong = key[kat + kw - 1]
        for t in range(kw - 2, -1, -1):
            mixed = (key[kat + t] ^ (mixed * GOLDEN_HI)) & MASK64
        slot: cython.Py_ssize_t = home(mixed, 0, self.shift)
        base: cython.Py_ssize_t
        same: cython.bint
        carry: cython.ulonglong
        part: cython.ulonglong
        total: cython.ulonglong
        while self.slots[stride * slot] != EMPTY:
            same = True
            for t in range(kw):
                if self.slots[stride * slot + t] != key[kat + t]:
                    same = False
                    break
            if same:
                base = stride * slot + kw
                carry = 0
                for t in range(self.limbs):
                    part = (words[at + t] + carry) & MASK64
                    carry = 1 if part < carry else 0
                    total = (self.slots[base + t] + part) & MASK64
                    if total < part:
                        carry = 1
                    self.slots[base + t] = total
                return OVERFLOW if carry else OK
            slot = (slot + 1) & mask
        if self.used >= self.limit:
            return FULL_UP
        base = stride * slot
        for t in range(kw):
            self.slots[base + t] = key[kat + t]
        for t in range(self.limbs):
            self.slots[base + kw + t] = words[at + t]
        self.used += 1
        if 2 * self.used > self.size:
            return self._grow()
        return OK

    # except -1 (here, in add and in their callers): _allocate runs Python code, where
    # a Ctrl-C's KeyboardInterrupt may land; a function that cannot pass it on printed
    # 'Exception ignored' and the count went on.  The statuses are 0 to 3.
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _grow(self) -> cython.int:
        """Double the table; ``NO_MEMORY`` (the table as it was) when the machine has
        not the memory."""
        old = self.slots
        size: cython.Py_ssize_t = self.size
        kw: cython.Py_ssize_t = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        slot: cython.Py_ssize_t
        try:
            self._allocate(2 * size)
        except MemoryError:
            return NO_MEMORY
        for slot in range(size):
            if old[stride * slot] != EMPTY and kw > 2:
                self.add_wide(old, stride * slot, old, stride * slot + kw)
            elif old[stride * slot] != EMPTY:
                self.add(
                    old[stride * slot],
                    old[stride * slot + 1] if kw == 2 else 0,
                    old,
                    stride * slot + kw,
                )
        return OK


_plain: ModuleType | None = None


def plain() -> ModuleType:
    """This module as plain Python (what an uncompiled program uses: its buffers are
    lists, which compiled fields cannot hold), loaded from the source when this module
    is the compiled one."""
    global _plain
    if _plain is None:
        import importlib

        _plain = (
            importlib.import_module(__name__) if not COMPILED else _native.load_source(__name__)
        )
    return _plain


def renumber(values: list[int], first: int) -> list[int]:
    """``values`` with their labels (``>= first``) renumbered in order of appearance from
    ``first``: a frontier's fragments named the same whatever their labels were."""
    seen: dict[int, int] = {}
    out = []
    for v in values:
        if v >= first:
            v = seen.setdefault(v, first + len(seen))
        out.append(v)
    return out
