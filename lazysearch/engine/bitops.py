"""Bit counting as plain Python: what an engine takes in place of ``bitops.pxd``'s C
functions when it runs uncompiled.

An engine writes::

    if cython.compiled:
        from cython.cimports.lazysearch.engine.bitops import lowest64, popcount64
    else:
        from lazysearch.engine.bitops import lowest64, popcount64

>>> popcount64(0b1011), lowest64(0b1000)
(3, 3)
"""

from __future__ import annotations


def popcount64(v: int) -> int:
    """The number of bits set in ``v``."""
    return v.bit_count()


def lowest64(v: int) -> int:
    """The index of the lowest bit set in ``v`` (``v`` not 0)."""
    return (v & -v).bit_length() - 1
