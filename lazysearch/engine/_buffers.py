"""Mutable integer buffers for the engines: ``array`` when the engine runs compiled (its
typed memoryviews need a buffer), a plain list when it runs as Python (lists index
faster there).  Called when an engine is built, never in a search loop."""

from __future__ import annotations

import array


def ints(values: list[int], compiled: bool) -> object:
    """``values`` in a mutable 32-bit buffer."""
    return array.array("i", values) if compiled else values


def zeros(size: int, compiled: bool) -> object:
    """``size`` zeros in a mutable 32-bit buffer."""
    return array.array("i", bytes(4 * size)) if compiled else [0] * size


def zeros64(size: int, compiled: bool) -> object:
    """``size`` zeros in a mutable 64-bit buffer."""
    return array.array("q", bytes(8 * size)) if compiled else [0] * size


def words(values: list[int], compiled: bool) -> object:
    """``values`` (each below ``2**64``) in a mutable unsigned 64-bit buffer."""
    return array.array("Q", values) if compiled else list(values)


def filled64(size: int, value: int, compiled: bool) -> object:
    """``size`` copies of ``value`` (``0`` or ``2**64 - 1``) in a mutable unsigned 64-bit
    buffer, made without a Python list when compiled."""
    if not compiled:
        return [value] * size
    return array.array("Q", (b"\xff" if value else b"\x00") * (8 * size))
