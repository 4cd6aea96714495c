"""One hash table for the frontier programs' states (Cython pure mode).

A frontier program (:mod:`lazysearch.knights._count` and the programs built on it) keeps,
step by step, every frontier it reaches with the number of ways it is reached: a table
from packed frontiers to counts, filled from the table of the step before and emptied
for the step after.  This module is that table, once for all of them and for the
knights' joins: Fibonacci hashing (each table its own way when given a salt), open
addressing with linear probing, counts of any number of 64-bit words added with their
carries (or values stored), doubling at a growth point, and export of its keys in one
buffer.  It also renumbers the labels of a frontier's fragments in order of appearance,
as every program does to make equal frontiers look equal.

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
    #: An empty slot of a :class:`Table` (no key starts with this word).
    EMPTY = 0xFFFFFFFFFFFFFFFF
    #: Fibonacci hashing's multiplier (2**64 over the golden ratio).
    GOLDEN = 0x9E3779B97F4A7C15
    #: Mixes a key's higher words into its low one before Fibonacci hashing.
    GOLDEN_HI = 0xC2B2AE3D27D4EB4F

    def home(lo: int, hi: int, shift: int) -> int:
        """The slot where the probe for key ``(lo, hi)`` begins in a table of
        ``2**(64 - shift)`` slots."""
        return (((lo ^ (hi * GOLDEN_HI)) * GOLDEN) & MASK64) >> shift

    def fold(x: int, word: int) -> int:
        """``word`` with the words above it (``x``, folded the same way) mixed in."""
        return word ^ ((x * GOLDEN_HI) & MASK64)

    def mix(x: int, word: int) -> int:
        """A salted hash ``x`` with one more key word mixed in."""
        x = ((x ^ word) * GOLDEN) & MASK64
        return x ^ (x >> 29)

    def spread(x: int, shift: int) -> int:
        """The slot of the salted hash ``x`` in a table of ``2**(64 - shift)`` slots."""
        return ((x * GOLDEN_HI) & MASK64) >> shift

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
    more than ``growth`` percent full.  Slot ``s`` takes ``kw + limbs`` words from
    ``s * (kw + limbs)``: its key, low word first, then its count, least significant
    word first (one cache line for a few); an empty slot's first word is ``EMPTY``, which
    no key's low word may be.  ``limit`` bounds the number of keys it takes (:meth:`add`
    says ``FULL_UP`` past it).  With a nonzero ``salt`` the table hashes every key word
    its own way: a table filled in another's slot order, with the same hash, piles its
    keys into one run while it is the smaller.  (Its fields are declared in
    ``_table.pxd``.)"""

    def __init__(
        self,
        limit: int,
        size: int = 1024,
        limbs: int = 1,
        kw: int = 1,
        salt: int = 0,
        growth: int = 50,
    ) -> None:
        if not 0 < growth < 100:
            raise ValueError(f"growth={growth!r}: the growth point is a percent from 1 to 99")
        self.limit = limit
        self.limbs = limbs
        self.kw = kw
        self.salt = salt
        self.growth = growth
        self.probes = 0
        self.scratch = _buffers.filled64(limbs, 0, COMPILED)  # type: ignore[assignment]
        self.rest = _buffers.filled64(max(1, kw - 2), 0, COMPILED)  # type: ignore[assignment]
        self._allocate(size)

    def _allocate(self, size: int) -> None:
        self.slots = _buffers.filled64(  # type: ignore[assignment]
            (self.kw + self.limbs) * size, EMPTY, COMPILED
        )
        self.size = size
        self.used = 0
        self.most = size * self.growth // 100
        self.shift = 64 - (size.bit_length() - 1)

    def clear(self) -> None:
        """Empty the table (its size stays)."""
        slot: cython.Py_ssize_t
        for slot in range(self.size):
            self.slots[(self.kw + self.limbs) * slot] = EMPTY
        self.used = 0

    def add_key(self, key: int, count: int) -> int:
        """Add ``count`` to the entry of ``key`` (:meth:`items`' form); returns ``OK``
        or why not (``OVERFLOW`` for a key or count that does not fit)."""
        kw = self.kw
        if key >> (64 * kw) or count >> (64 * self.limbs):
            return OVERFLOW
        if key & MASK64 == EMPTY:
            raise ValueError(f"key {key:#x}: its low word marks an empty slot")
        keys = _buffers.words([(key >> (64 * t)) & MASK64 for t in range(kw)], COMPILED)
        for t in range(self.limbs):
            self.scratch[t] = (count >> (64 * t)) & MASK64
        return self.add_wide(keys, 0, self.scratch, 0)  # type: ignore[arg-type]

    def load(self, table: dict[int, int]) -> int:
        """Add every entry of ``table`` (:meth:`add_key`); returns ``OK`` or why not."""
        for key, count in table.items():
            status = self.add_key(key, count)
            if status != OK:
                return status
        return OK

    def add_table(self, other: Table) -> int:
        """Add every entry of ``other`` (as many key and count words), in its slot
        order; returns ``OK`` or why not."""
        if other.kw != self.kw or other.limbs != self.limbs:
            raise ValueError(
                f"a table of {other.kw}-word keys and {other.limbs}-word counts added to "
                f"one of {self.kw} and {self.limbs}"
            )
        stride: cython.Py_ssize_t = other.kw + other.limbs
        slot: cython.Py_ssize_t
        status: cython.int
        for slot in range(other.size):
            if other.slots[stride * slot] != EMPTY:
                status = self.add_wide(
                    other.slots, stride * slot, other.slots, stride * slot + other.kw
                )
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
        out = Table(self.limit, self.size, limbs, self.kw, self.salt, self.growth)
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

    # add, add_wide, put and find all go through _seek, the probe; _seek and put are
    # final, so that the C compiler inlines them in the methods of this module.
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
        (keys of one or two words; ``hi`` is 0 for one-word keys)."""
        return self.put(lo, hi, self.scratch, 0, words, at, True)

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
        return self.put(key[kat], key[kat + 1] if self.kw > 1 else 0, key, kat, words, at, True)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def find(self, key: cython.ulonglong[::1], kat: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Where the entry of the key ``key[kat : kat + kw]`` begins in :attr:`slots`
        (its value ``kw`` words on), or ``-1`` when the table has no such key; it adds
        nothing."""
        t: cython.Py_ssize_t
        for t in range(2, self.kw):
            self.rest[t - 2] = key[kat + t]
        base: cython.Py_ssize_t = (self.kw + self.limbs) * self._seek(
            key[kat], key[kat + 1] if self.kw > 1 else 0
        )
        return -1 if self.slots[base] == EMPTY else base

    @cython.final
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _seek(self, lo: cython.ulonglong, hi: cython.ulonglong) -> cython.Py_ssize_t:
        """The slot of the key whose first words are ``lo`` and ``hi`` and whose others
        are in :attr:`rest`, or the empty slot where it would go."""
        kw: cython.Py_ssize_t = self.kw
        stride: cython.Py_ssize_t = kw + self.limbs
        mask: cython.Py_ssize_t = self.size - 1
        slot: cython.Py_ssize_t
        base: cython.Py_ssize_t
        t: cython.Py_ssize_t
        x: cython.ulonglong
        same: cython.bint
        if self.salt:
            x = mix(self.salt, lo)
            if kw > 1:
                x = mix(x, hi)
            for t in range(2, kw):
                x = mix(x, self.rest[t - 2])
            slot = spread(x, self.shift)
        elif kw <= 2:
            slot = home(lo, hi, self.shift)
        else:
            x = self.rest[kw - 3]
            for t in range(kw - 2, 1, -1):
                x = fold(x, self.rest[t - 2])
            slot = home(lo, fold(x, hi), self.shift)
        while True:
            base = stride * slot
            if self.slots[base] == EMPTY:
                return slot
            if self.slots[base] == lo:
                same = kw == 1 or self.slots[base + 1] == hi
                t = 2
                while same and t < kw:
                    same = self.slots[base + t] == self.rest[t - 2]
                    t += 1
                if same:
                    return slot
            slot = (slot + 1) & mask
            self.probes += 1

    @cython.final
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def put(
        self,
        lo: cython.ulonglong,
        hi: cython.ulonglong,
        key: cython.ulonglong[::1],
        kat: cython.Py_ssize_t,
        words: cython.ulonglong[::1],
        at: cython.Py_ssize_t,
        summed: cython.bint,
    ) -> cython.int:
        """Add the value ``words[at : at + limbs]`` to the entry of the key whose first
        words are ``lo`` and ``hi`` (0 when it has one word) and whose others are
        ``key[kat + 2 : kat + kw]``, or, not ``summed``, store it in place of the
        entry's."""
        kw: cython.Py_ssize_t = self.kw
        limbs: cython.Py_ssize_t = self.limbs
        t: cython.Py_ssize_t
        for t in range(2, kw):
            self.rest[t - 2] = key[kat + t]
        base: cython.Py_ssize_t = (kw + limbs) * self._seek(lo, hi)
        carry: cython.ulonglong
        part: cython.ulonglong
        total: cython.ulonglong
        if self.slots[base] != EMPTY:
            base += kw
            carry = 0
            for t in range(limbs):
                if not summed:
                    self.slots[base + t] = words[at + t]
                    continue
                part = (words[at + t] + carry) & MASK64
                carry = 1 if part < carry else 0
                total = (self.slots[base + t] + part) & MASK64
                if total < part:
                    carry = 1
                self.slots[base + t] = total
            return OVERFLOW if carry else OK
        if self.used >= self.limit:
            return FULL_UP
        self.slots[base] = lo
        if kw > 1:
            self.slots[base + 1] = hi
        for t in range(2, kw):
            self.slots[base + t] = self.rest[t - 2]
        for t in range(limbs):
            self.slots[base + kw + t] = words[at + t]
        self.used += 1
        if self.used > self.most:
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
        base: cython.Py_ssize_t
        try:
            self._allocate(2 * size)
        except MemoryError:
            return NO_MEMORY
        for slot in range(size):
            base = stride * slot
            if old[base] != EMPTY:
                self.put(old[base], old[base + 1] if kw > 1 else 0, old, base, old, base + kw, True)
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
