# The C side of the frontier table (lazysearch/graphs/_table.py), for the frontier
# programs and the joins that cimport it: its constants, its hashing, its statuses and
# its fields are declared here and only here (the .py gives the same to plain Python).

cimport cython

cdef extern from *:
    """
    #define LAZYSEARCH_MASK64 0xFFFFFFFFFFFFFFFFULL
    #define LAZYSEARCH_GOLDEN 0x9E3779B97F4A7C15ULL
    #define LAZYSEARCH_GOLDEN_HI 0xC2B2AE3D27D4EB4FULL
    static inline Py_ssize_t lazysearch_home(unsigned long long lo, unsigned long long hi,
                                             int shift) {
        return (Py_ssize_t)(((lo ^ (hi * LAZYSEARCH_GOLDEN_HI)) * LAZYSEARCH_GOLDEN) >> shift);
    }
    static inline unsigned long long lazysearch_fold(unsigned long long x,
                                                     unsigned long long word) {
        return word ^ (x * LAZYSEARCH_GOLDEN_HI);
    }
    static inline unsigned long long lazysearch_mix(unsigned long long x,
                                                    unsigned long long word) {
        x = (x ^ word) * LAZYSEARCH_GOLDEN;
        return x ^ (x >> 29);
    }
    static inline Py_ssize_t lazysearch_spread(unsigned long long x, int shift) {
        return (Py_ssize_t)((x * LAZYSEARCH_GOLDEN_HI) >> shift);
    }
    """
    # 64 bits; the first word of an empty slot (no key starts with it); Fibonacci
    # hashing's multipliers (2**64 over the golden ratio; another odd one mixes a key's
    # higher words).
    const unsigned long long MASK64 "LAZYSEARCH_MASK64"
    const unsigned long long EMPTY "LAZYSEARCH_MASK64"
    const unsigned long long GOLDEN "LAZYSEARCH_GOLDEN"
    const unsigned long long GOLDEN_HI "LAZYSEARCH_GOLDEN_HI"
    # The hashing, inline C in every module that cimports it.  Unsalted: the slot where
    # the probe for key (lo, hi) begins in a table of 2**(64 - shift) slots, a wider key's
    # higher words folded into hi first.  Salted (a table's own way): the salt with each
    # key word mixed in, then spread to a slot.
    Py_ssize_t home "lazysearch_home" (unsigned long long lo, unsigned long long hi, int shift) nogil
    unsigned long long fold "lazysearch_fold" (unsigned long long x, unsigned long long word) nogil
    unsigned long long mix "lazysearch_mix" (unsigned long long x, unsigned long long word) nogil
    Py_ssize_t spread "lazysearch_spread" (unsigned long long x, int shift) nogil

# What adding to a table did (STATUS names them for Python code).
cdef enum:
    OK = 0
    OVERFLOW = 1
    FULL_UP = 2
    NO_MEMORY = 3

cdef class Table:
    cdef unsigned long long[::1] slots
    cdef unsigned long long[::1] scratch
    # The words of a key past its first two, for _seek.
    cdef unsigned long long[::1] rest
    cdef readonly Py_ssize_t size
    cdef readonly Py_ssize_t used
    cdef readonly int limbs
    cdef readonly int kw
    cdef Py_ssize_t limit
    cdef readonly int shift
    cdef readonly unsigned long long salt
    cdef readonly int growth
    cdef Py_ssize_t most
    # Slots a probe passed over that held another key (a measure of clustering).
    cdef readonly long long probes

    cdef int add(
        self,
        unsigned long long lo,
        unsigned long long hi,
        unsigned long long[::1] words,
        Py_ssize_t at,
    ) except -1
    cdef int add_wide(
        self,
        unsigned long long[::1] key,
        Py_ssize_t kat,
        unsigned long long[::1] words,
        Py_ssize_t at,
    ) except -1
    cdef Py_ssize_t find(self, unsigned long long[::1] key, Py_ssize_t kat) noexcept
    @cython.final
    cdef Py_ssize_t _seek(self, unsigned long long lo, unsigned long long hi) noexcept
    @cython.final
    cdef int put(
        self,
        unsigned long long lo,
        unsigned long long hi,
        unsigned long long[::1] key,
        Py_ssize_t kat,
        unsigned long long[::1] words,
        Py_ssize_t at,
        bint summed,
    ) except -1
    cdef int _grow(self) except -1
