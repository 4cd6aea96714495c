# The C side of the frontier table (lazysearch/graphs/_table.py), for the frontier
# programs that cimport it: its constants, its statuses and its fields are declared
# here and only here (the .py gives the same values to plain Python).

cdef extern from *:
    """
    #define LAZYSEARCH_MASK64 0xFFFFFFFFFFFFFFFFULL
    #define LAZYSEARCH_GOLDEN 0x9E3779B97F4A7C15ULL
    #define LAZYSEARCH_GOLDEN_HI 0xC2B2AE3D27D4EB4FULL
    static inline Py_ssize_t lazysearch_home(unsigned long long lo, unsigned long long hi,
                                             int shift) {
        return (Py_ssize_t)(((lo ^ (hi * LAZYSEARCH_GOLDEN_HI)) * LAZYSEARCH_GOLDEN) >> shift);
    }
    """
    # 64 bits; the key no frontier packs to (an empty slot); Fibonacci hashing's
    # multipliers (2**64 over the golden ratio; another odd one mixes a key's high word).
    const unsigned long long MASK64 "LAZYSEARCH_MASK64"
    const unsigned long long EMPTY "LAZYSEARCH_MASK64"
    const unsigned long long GOLDEN "LAZYSEARCH_GOLDEN"
    const unsigned long long GOLDEN_HI "LAZYSEARCH_GOLDEN_HI"
    # The slot where the probe for key (lo, hi) begins in a table of 2**(64 - shift)
    # slots: inline C in every program that cimports it.
    Py_ssize_t home "lazysearch_home" (unsigned long long lo, unsigned long long hi, int shift) nogil

# What adding to a table did (STATUS names them for Python code).
cdef enum:
    OK = 0
    OVERFLOW = 1
    FULL_UP = 2
    NO_MEMORY = 3

cdef class Table:
    cdef unsigned long long[::1] slots
    cdef unsigned long long[::1] scratch
    cdef readonly Py_ssize_t size
    cdef readonly Py_ssize_t used
    cdef readonly int limbs
    cdef readonly int kw
    cdef Py_ssize_t limit
    cdef readonly int shift

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
    cdef int _grow(self) except -1
