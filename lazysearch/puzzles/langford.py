"""Langford pairs as exact cover (TAOCP 7.2.2.1): place two copies of each of 1..n so
that the copies of k have k numbers between them.
"""

from __future__ import annotations

from typing import NamedTuple

from ..exactcover.problem import ExactCover
from ..stream import Solutions


class _Placement(NamedTuple):
    value: int
    slot: int


def langford_problem(n: int, *, symmetry: bool = True) -> ExactCover:
    """The exact-cover problem of Langford pairs of order ``n``.

    Items are the values ``("v", k)`` and the slots ``("s", i)``, all primary; the
    option for value ``k`` at slot ``i`` covers ``("v", k)``, ``("s", i)`` and
    ``("s", i + k + 1)``.  With ``symmetry``, value 1 is kept in the left half, so that
    a sequence and its reversal are found once (value 1 has no placement fixed by the
    reversal, so this halves the count exactly).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"langford() needs an order n >= 1, got {n!r}")
    options = []
    for k in range(1, n + 1):
        last = 2 * n - k - 2
        if symmetry and k == 1:
            last = min(last, n - 2)
        for i in range(last + 1):
            options.append([("v", k), ("s", i), ("s", i + k + 1)])
    primary = [("v", k) for k in range(1, n + 1)] + [("s", i) for i in range(2 * n)]
    return ExactCover(options, primary=primary)


def langford(n: int, *, symmetry: bool = True) -> Solutions[tuple[int, ...]]:
    """All Langford sequences of order ``n``, each a tuple of length ``2n``.

    >>> langford(3).take(5)
    [(3, 1, 2, 1, 3, 2)]
    >>> langford(3, symmetry=False).count()
    2
    """
    problem = langford_problem(n, symmetry=symmetry)
    placements = [_Placement(o[0][1], o[1][1]) for o in problem.options]  # type: ignore[index]

    def decode(solution: tuple[int, ...]) -> tuple[int, ...]:
        seq = [0] * (2 * n)
        for j in solution:
            k = placements[j]
            seq[k.slot] = seq[k.slot + k.value + 1] = k.value
        return tuple(seq)

    return Solutions(problem.search(), decode)
