# Bit counting for the compiled engines, which cimport these (from
# cython.cimports.lazysearch.engine.bitops import lowest64, popcount64): one machine
# instruction each where the compiler has one (no module of its own: the functions are
# inline C, declared here and only here).

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    static inline int lazysearch_popcount64(unsigned long long v) {
        return __builtin_popcountll(v);
    }
    static inline int lazysearch_lowest64(unsigned long long v) {
        return __builtin_ctzll(v);
    }
    #else
    static inline int lazysearch_popcount64(unsigned long long v) {
        v = v - ((v >> 1) & 0x5555555555555555ULL);
        v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
        v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((v * 0x0101010101010101ULL) >> 56);
    }
    static inline int lazysearch_lowest64(unsigned long long v) {
        int k = 0;
        while (!(v & 1)) { v >>= 1; k++; }
        return k;
    }
    #endif
    """
    int popcount64 "lazysearch_popcount64" (unsigned long long v) nogil
    int lowest64 "lazysearch_lowest64" (unsigned long long v) nogil
