"""N-queens as exact cover: rows and columns primary, diagonals secondary."""

from __future__ import annotations

from ..exactcover.problem import ExactCover
from ..stream import Solutions


def queens_problem(n: int) -> ExactCover:
    """The exact-cover problem of ``n`` non-attacking queens on an ``n x n`` board.

    Option ``r * n + c`` puts a queen on row ``r``, column ``c``; items are
    ``("r", r)``, ``("c", c)`` (primary) and the diagonals ``("a", r + c)``,
    ``("b", r - c)`` (secondary: at most one queen each).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"queens() needs a board size n >= 1, got {n!r}")
    # Rows and columns from the middle outwards, as Knuth does: the search then
    # branches on the most constrained lines first.
    order = sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i))
    primary = [x for i in order for x in (("r", i), ("c", i))]
    secondary = [("a", s) for s in range(2 * n - 1)] + [("b", d) for d in range(-(n - 1), n)]
    options = [[("r", r), ("c", c), ("a", r + c), ("b", r - c)] for r in range(n) for c in range(n)]
    return ExactCover(options, primary=primary, secondary=secondary)


def queens(n: int) -> Solutions[tuple[int, ...]]:
    """All placements of ``n`` non-attacking queens; each is the column of the queen in
    row 0, 1, ..., n-1.

    >>> queens(4).take(3)
    [(2, 0, 3, 1), (1, 3, 0, 2)]
    >>> queens(8).count()
    92
    """
    problem = queens_problem(n)

    def decode(solution: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(j % n for j in solution)

    return Solutions(problem.search(), decode)
