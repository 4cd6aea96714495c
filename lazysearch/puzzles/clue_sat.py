"""Whether a sudoku clue can go, asked of the clause-learning SAT search.

>>> from lazysearch.puzzles.generate import box_units
>>> units = box_units(4, (2, 2))
>>> puzzle = [2, 0, 0, 4, 0, 0, 1, 0, 3, 4, 0, 0, 1, 0, 0, 0]   # one filling
>>> print(other_filling(puzzle, 0, 2, units))   # so the 2 in cell 0 can go
None
>>> other_filling(puzzle, 3, 4, units)          # the 4 in cell 3 cannot
[2, 1, 4, 3, 4, 3, 1, 2, 3, 4, 2, 1, 1, 2, 3, 4]

A clue ``d`` in cell ``c`` of a puzzle with one filling can go exactly when no filling of
the puzzle without it puts another digit than ``d`` in ``c``.  :func:`other_filling`
asks the SAT search (:mod:`lazysearch.sums._cdcl`) for such a filling: a variable for
each digit a blank cell may still take once its units' givens are out, each cell exactly
one of its digits, each unit each digit it lacks exactly once, and ``c`` not ``d``.  The
tree search of :mod:`._units` finds most answers within a few hundred nodes; on sparse
25x25 grids it does not end on the rest (docs/generate.md), and clause learning does:
every clue of seed 1's 25x25 puzzle was settled in about 50 ms each, compiled, though
a few clues of other seeds take seconds.  The
search is deterministic, so its answer (and each generated puzzle) is the same compiled
or not.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import _native


def other_filling(
    puzzle: Sequence[int],
    cell: int,
    digit: int,
    units: Sequence[Sequence[int]],
    near: Sequence[int] | None = None,
) -> list[int] | None:
    """A filling of ``puzzle`` (a digit per cell, 0 for blank) that does not put
    ``digit`` in ``cell``, or None when there is none; a given in ``cell`` is left out.

    ``units`` lists each unit's cells; every cell is in some unit and a unit's size is
    the number of digits.  ``near``, a full grid, is where the search starts: each
    variable is first decided as it has it.  That may cost more than it saves, so the
    generator does not (three clues of seed 2's 25x25 puzzle took 35,000 to 41,000
    conflicts to a second filling from the full grid, 4,000 to 11,000 from the default
    phases; on seed 1 the full grid saved 15%).  The givens are taken as they are: a
    puzzle whose givens clash has no filling.

    Raises
    ------
    ValueError
        If ``cell`` is not a cell of ``puzzle`` or ``digit`` not one of the units'.

    Notes
    -----
    O(cells x digits) variables, O(units x digits^3) clauses of two literals; the
    search's time is what it is (SAT is NP-complete): on the sparse 25x25 grids the
    generator asks about, a few thousand conflicts.
    """
    sat = _native.load("lazysearch.sums._cdcl")
    n = len(units[0])
    cells = len(puzzle)
    if type(cell) is not int or not 0 <= cell < cells:
        raise ValueError(f"other_filling() takes a cell 0 to {cells - 1}; got {cell!r}")
    if type(digit) is not int or not 1 <= digit <= n:
        raise ValueError(f"other_filling() takes a digit 1 to {n}; got {digit!r}")
    puzzle = list(puzzle)
    puzzle[cell] = 0
    everything = (1 << n) - 1
    mask = [everything] * cells
    for unit in units:
        used = 0
        for c in unit:
            if puzzle[c]:
                used |= 1 << (puzzle[c] - 1)
        for c in unit:
            mask[c] &= ~used
    mask[cell] &= ~(1 << (digit - 1))
    # Variable number of (cell, digit - 1) for each blank cell's digits left.
    var: dict[int, int] = {}
    for c in range(cells):
        if not puzzle[c]:
            for d in range(n):
                if mask[c] >> d & 1:
                    var[c * n + d] = len(var)
    blank = [c for c in range(cells) if not puzzle[c]]
    solver = sat.Solver(max(len(var), 1))
    for c in blank:
        lits = [2 * var[c * n + d] for d in range(n) if mask[c] >> d & 1]
        if not lits:
            return None
        solver.add_one_of(lits)
    for unit in units:
        used = 0
        for c in unit:
            if puzzle[c]:
                if used >> (puzzle[c] - 1) & 1:
                    return None  # two givens alike in a unit
                used |= 1 << (puzzle[c] - 1)
        for d in range(n):
            if not used >> d & 1:
                lits = [2 * var[k] for c in unit if (k := c * n + d) in var]
                if not lits:
                    return None
                solver.add_one_of(lits)
    if near is not None:
        solver.prefer([2 * v + (near[k // n] != k % n + 1) for k, v in var.items()])
    if solver.solve(0) != sat.SAT:
        return None
    model = solver.model()
    filling = list(puzzle)
    for k, v in var.items():
        if model[v]:
            filling[k // n] = k % n + 1
    return filling
