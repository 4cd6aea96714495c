# The C layout of Machine (lazysearch/engine/_machine.py), for the engines that
# subclass it: Cython reads a compiled base's fields from here (cimport), so they are
# declared here and only here.

cdef class Machine:
    cdef int[::1] x
    cdef int[::1] k
    cdef int[::1] d
    cdef int[::1] replay_k
    cdef public int n_primary
    cdef int n_items
    cdef public int level
    cdef public int floor
    cdef public int state
    cdef public int cut_depth
    cdef public int leaf_kind
    cdef int replay_end
    cdef bint bad_replay
    cdef public long long nodes
    cdef public long long solutions
    cdef object _kept
