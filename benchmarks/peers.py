"""Other exact-cover solvers, run on the same instances in the same benchmark session.

Each adapter returns the number of solutions, so every benchmark can assert the count it
timed.  Peers that are not installed are skipped (install them with the ``bench`` extra).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

Options = Sequence[Sequence[Hashable]]


def algorithm_x_sets(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable] = ()
) -> int:
    """The dict-of-sets Algorithm X, as an explicit-stack loop: the fastest plain-Python
    exact cover we know (``set`` operations run in C).  Counts the solutions.

    ``columns[item]`` is the set of options still able to cover ``item``; choosing an
    option removes every option that clashes with it from every column, and puts them
    back when the choice is undone.
    """
    rows = [list(o) for o in options]
    columns: dict[Hashable, set[int]] = {i: set() for i in (*primary, *secondary)}
    for j, row in enumerate(rows):
        for i in row:
            columns[i].add(j)
    need = set(primary)

    def select(j: int) -> list[set[int]]:
        removed = []
        for i in rows[j]:
            for k in columns[i]:
                for i2 in rows[k]:
                    if i2 != i:
                        columns[i2].discard(k)
            removed.append(columns.pop(i))
            need.discard(i)
        return removed

    def deselect(j: int, removed: list[set[int]]) -> None:
        for i in reversed(rows[j]):
            columns[i] = removed.pop()
            if i in primary_set:
                need.add(i)
            for k in columns[i]:
                for i2 in rows[k]:
                    if i2 != i:
                        columns[i2].add(k)

    primary_set = set(primary)
    count = 0
    stack: list[tuple[list[int], int, list[set[int]] | None]] = []
    # Each level: (candidate options, index of the one chosen, what choosing it removed).
    descend = True
    while True:
        if descend:
            if not need:
                count += 1
            else:
                item = min(need, key=lambda i: len(columns[i]))
                candidates = sorted(columns[item])
                if candidates:
                    stack.append((candidates, 0, select(candidates[0])))
                    continue
        # back up to the next untried candidate
        while stack:
            candidates, index, removed = stack.pop()
            assert removed is not None
            deselect(candidates[index], removed)
            if index + 1 < len(candidates):
                stack.append((candidates, index + 1, select(candidates[index + 1])))
                break
        else:
            return count
        descend = True


def _xcover_args(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable]
) -> Any:
    # xcover fails on an empty secondary list (it wants None then).
    return [list(o) for o in options], list(primary), (list(secondary) or None)


def xcover_count(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable] = ()
) -> int:
    import xcover

    return sum(1 for _ in xcover.covers(*_xcover_args(options, primary, secondary)))


def xcover_first(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable] = ()
) -> Any:
    import xcover

    return next(xcover.covers(*_xcover_args(options, primary, secondary)))


def _dense(options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable]) -> Any:
    """A 0/1 matrix for the ``exact_cover`` package, which knows only primary items:
    each secondary item gets a slack option that covers it alone."""
    import numpy as np

    items = {i: n for n, i in enumerate((*primary, *secondary))}
    matrix = np.zeros((len(options) + len(secondary), len(items)), dtype="int32")
    for j, option in enumerate(options):
        for i in option:
            matrix[j, items[i]] = 1
    for s, i in enumerate(secondary):
        matrix[len(options) + s, items[i]] = 1
    return matrix


def exact_cover_pkg_count(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable] = ()
) -> int:
    """Counts with slack options, which multiplies nothing: a secondary item left
    uncovered is covered by its slack option in exactly one way."""
    import exact_cover

    return int(exact_cover.get_solution_count(_dense(options, primary, secondary)))


def cpsat_solutions(model: Any, variables: dict[Any, Any], limit: int) -> list[dict[Any, int]]:
    """CP-SAT at its best for "is it unique?": one worker enumerating the solutions of
    ``model`` with a solution callback that stops the search at the ``limit``-th (no
    model rebuilt, no solution forbidden and the model solved again); each solution as
    ``{key: value}`` of ``variables``."""
    from ortools.sat.python import cp_model

    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[dict[Any, int]] = []

        def on_solution_callback(self) -> None:
            self.found.append({key: self.Value(v) for key, v in variables.items()})
            if len(self.found) >= limit:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    collect = Collect()
    solver.Solve(model, collect)
    return collect.found


def cpsat_count(
    options: Options, primary: Sequence[Hashable], secondary: Sequence[Hashable] = ()
) -> int:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    chosen = [model.NewBoolVar(f"o{j}") for j in range(len(options))]
    by_item: dict[Hashable, list[Any]] = {i: [] for i in (*primary, *secondary)}
    for j, option in enumerate(options):
        for i in option:
            by_item[i].append(chosen[j])
    for i in primary:
        model.AddExactlyOne(by_item[i])
    for i in secondary:
        model.AddAtMostOne(by_item[i])

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.Solve(model, counter)
    return counter.n


def warnsdorff_plain(rows: int, cols: int) -> list[tuple[int, int]]:
    """Textbook Warnsdorff in plain Python, written for speed: from the corner, always to
    the free neighbour with the fewest free neighbours (first in move order on ties),
    degrees kept up to date, no backing up.  Returns the path, which may stop short of
    a tour."""
    steps = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
    neighbours = [
        [(r + a) * cols + c + b for a, b in steps if 0 <= r + a < rows and 0 <= c + b < cols]
        for r in range(rows)
        for c in range(cols)
    ]
    degree = [len(n) for n in neighbours]
    free = [True] * (rows * cols)
    here = 0
    path = [0]
    free[0] = False
    for s in neighbours[0]:
        degree[s] -= 1
    while len(path) < rows * cols:
        best = -1
        fewest = 9
        for s in neighbours[here]:
            if free[s] and degree[s] < fewest:
                best, fewest = s, degree[s]
        if best < 0:
            break
        here = best
        free[here] = False
        path.append(here)
        for s in neighbours[here]:
            degree[s] -= 1
    return [divmod(i, cols) for i in path]
