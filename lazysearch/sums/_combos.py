"""The digit sets of kakuro runs and killer cages, as bitmasks: plain data for the engine
(:mod:`._engine`), the SAT guide and the generator.

They live apart from the engine so that those modules can read them without importing
the engine itself: a compiled engine stands on the compiled
:class:`lazysearch.engine._machine.Machine`, and cannot be imported once the plain
Python one has been loaded in its place (``LAZYSEARCH_PURE=1``); the engine is loaded
through :func:`lazysearch.engine._native.load` only.
"""

from __future__ import annotations

#: The guide of a puzzle shown to have no filling: the tree is its root, a dead end.
REFUTED = (-1,)


def combinations() -> list[list[list[int]]]:
    """``COMBOS[length][total]``: the masks (bit ``d - 1`` for digit ``d``) of the sets of
    ``length`` distinct digits 1..9 adding up to ``total`` (0..45)."""
    table: list[list[list[int]]] = [[[] for _ in range(46)] for _ in range(10)]
    for mask in range(512):
        digits = [d + 1 for d in range(9) if mask >> d & 1]
        table[len(digits)][sum(digits)].append(mask)
    return table


COMBOS = combinations()


def run_combos(length: int, total: int, used: int) -> list[int]:
    """The digit sets (masks) that ``length`` empty cells of a run can take to make
    ``total``, avoiding the digits ``used`` by its givens; none when out of range."""
    if not (0 <= total <= 45 and length <= 9):
        return []
    return [m for m in COMBOS[length][total] if not m & used]
