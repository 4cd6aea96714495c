"""A first filling for the puzzles the tree search cannot reach one of soon.

The tree search (:mod:`lazysearch.sums._engine`) keeps every run arc consistent but
learns nothing from a dead end.  On a large, loosely clued grid with many fillings (MarcelGarus's
``huge.kakuro``: 101x31, 2,100 white cells, filled by a generator that places random
digits) an early choice can leave no filling while the proof of that lies in a wide
region that each run's consistency does not see; the search then works deep below the
mistake for ever.  A clause-learning SAT search (:mod:`lazysearch.sums._cdcl`) learns why
each dead end failed and finds a filling in about half a second.

That filling becomes the tree's *guide*: each cell tries its guide digit first.  The
tree keeps the same nodes and solutions, so counts, positions and subtrees mean what
they did; only the order changes, and the first leaf is the guide's filling.  The guide
is a function of the puzzle alone (nothing random, no clocks), so every process that
builds the tree builds the same one.  When the run sums (:func:`sums_refute`) or the
SAT search prove instead that there is no filling, the guide is ``REFUTED`` and the tree
is its root, a dead end.

Most puzzles do not need this: the plain tree reaches a first solution of every
published puzzle in the shared sets within 42 nodes.  So the plain tree is tried first
for ``DIVE_NODES`` nodes; only when it finds nothing and has not finished does the SAT
search run.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..engine import _native
from ..sums._combos import REFUTED, run_combos

if TYPE_CHECKING:
    from .solver import KakuroProblem

#: Nodes the plain tree gets to find a first solution before the SAT search is asked.
DIVE_NODES = 2_000
#: Conflicts the SAT search gets before the plain order is kept; 0 (the default): no
#: limit.  A limit of 100,000 (this module's first one) left random 40x40 and 50x50 grids
#: with no first solution (they need some 600,000 and 370,000 conflicts, found in about a
#: minute) and refuted nothing that the sums and the tree did not: when the plain tree
#: has not found a solution in its dive, it does not recover, so giving up only hands the
#: puzzle to a search that will not end.
MAX_CONFLICTS = 0
#: The SAT search runs in slices of this many conflicts (well under a second compiled),
#: so that Ctrl-C and other signals are seen between them.
SLICE = 20_000
#: Copies of the SAT search, each over the puzzle with its cells and runs numbered in
#: another (fixed) order, that take turns of :data:`SLICE` conflicts until one answers.
#: The conflicts to a first filling of a random grid vary by 10x and more with the
#: numbering, with a long tail; taking turns costs about this many times the luckiest
#: copy's conflicts (after :data:`ALONE`).
PORTFOLIO = 3
#: Conflicts the first copy (the puzzle as numbered) gets alone before the others are
#: built: an insurance against the long tail only.  With best-phase rephasing every
#: numbering measured answered within it (rand_40: 54k-198k, rand_50: 16k-270k; d0.35_200
#: 16k) while taking turns from 50,000 cost 342k where the first copy alone took 142k
#: (rand_40, another numbering).  Before rephasing, numberings needing over 400k were
#: common; those now cost at most this plus about three times the luckiest copy.
ALONE = 300_000


def sums_refute(problem: KakuroProblem, domains: list[int]) -> bool:
    """True when the run sums alone show there is no filling, whatever the digits.

    Each cell lies in at most two runs, one each way, so the runs of a connected part of
    the grid split into two sides (across and down) with every cell of two runs on both.
    Adding up one side's sums and taking away the other's leaves the cells of one run
    only: ``sum(side A) - sum(side B) = sum(cells of A only) - sum(cells of B only)``.
    Each such cell lies between its smallest and largest digit in ``domains``; a
    difference outside those bounds refutes the puzzle.  When every cell is in two runs
    the difference must be 0, so a single mistyped clue is refuted here at once (CP-SAT
    finds the same by linear reasoning; a clause-learning search without arithmetic does
    not find it in 10^6 conflicts on a 10x12 grid).  O(cells + runs).
    """
    runs = problem.runs
    cell_runs: list[list[int]] = [[] for _ in range(problem.n)]
    for r, (cells, _, _) in enumerate(runs):
        for c in cells:
            cell_runs[c].append(r)
    side = [-1] * len(runs)
    for start in range(len(runs)):
        if side[start] >= 0:
            continue
        side[start] = 0
        stack = [start]
        part = [start]
        bipartite = True
        while stack:
            r = stack.pop()
            for c in runs[r][0]:
                for x in cell_runs[c]:
                    if side[x] < 0:
                        side[x] = 1 - side[r]
                        stack.append(x)
                        part.append(x)
                    elif x != r and side[x] == side[r]:
                        bipartite = False
        if not bipartite:
            continue  # not a kakuro's runs: no identity to check
        difference = low = high = 0
        for r in part:
            sign = 1 if side[r] == 0 else -1
            difference += sign * runs[r][1]
            for c in runs[r][0]:
                if len(cell_runs[c]) == 1:
                    mask = domains[c] if c < len(domains) else 511
                    if not mask:
                        return True
                    least = (mask & -mask).bit_length()
                    most = mask.bit_length()
                    low += least if sign > 0 else -most
                    high += most if sign > 0 else -least
        if not low <= difference <= high:
            return True
    return False


def sat_solver(problem: KakuroProblem, domains: list[int] | None = None, module: Any = None) -> Any:
    """A SAT solver (of ``module``, default :mod:`lazysearch.sums._cdcl` as the engines
    load it) holding the puzzle's clauses (:meth:`~lazysearch.sums._cdcl.Solver.add_cells`,
    :meth:`~lazysearch.sums._cdcl.Solver.add_run`): variable ``9 * c + d`` says that cell
    ``c`` holds digit ``d + 1``, and each run has one variable per combination of distinct digits
    that makes its sum and avoids its givens.  ``domains``: what the tree's root
    propagation left each cell (a 9-bit mask), given as facts (on ``huge.kakuro``: 10,416
    conflicts instead of 43,527)."""
    sat = module or _native.load("lazysearch.sums._cdcl")
    combos = [run_combos(len(cells), total, used) for cells, total, used in problem.runs]
    solver = sat.Solver(9 * problem.n + sum(len(masks) + 9 for masks in combos))
    for c, mask in enumerate(domains or ()):
        for d in range(9):
            if not mask >> d & 1:
                solver.add_clause([2 * (9 * c + d) + 1])
    solver.add_cells(problem.n)
    first = 9 * problem.n
    for (cells, _, _), masks in zip(problem.runs, combos, strict=True):
        solver.add_run(list(cells), masks, first)
        first += len(masks) + 9
    return solver


def renumbered(
    problem: KakuroProblem, domains: list[int] | None, seed: int
) -> tuple[KakuroProblem, list[int] | None, list[int]]:
    """``problem`` (and its ``domains``) with its cells and runs in an order drawn from
    ``seed`` (0: as they are), and where each cell went (``new[c]``: cell ``c``'s new
    number).  The same seed always gives the same order."""
    new = list(range(problem.n))
    runs = list(problem.runs)
    if seed:
        rng = random.Random(seed)
        rng.shuffle(new)
        runs = [(tuple(new[c] for c in cells), total, used) for cells, total, used in runs]
        rng.shuffle(runs)
    moved: list[int] | None = None
    if domains is not None:
        moved = [511] * problem.n
        for c, mask in enumerate(domains[: problem.n]):
            moved[new[c]] = mask
    return type(problem)(problem.n, tuple(runs)), moved, new


def digits(n: int, model: list[bool]) -> tuple[int, ...]:
    """The digit of each of ``n`` cells in a model of :func:`sat_solver`'s clauses."""
    return tuple(next(d + 1 for d in range(9) if model[9 * c + d]) for c in range(n))


def sat_filling(
    problem: KakuroProblem,
    domains: list[int] | None = None,
    max_conflicts: int = MAX_CONFLICTS,
) -> tuple[int, ...]:
    """A filling of the empty cells (a digit per cell) found by the SAT search
    (:func:`sat_solver`); ``REFUTED`` when it proves there is none, ``()`` when it finds
    none within ``max_conflicts`` conflicts (0: no limit; the search then runs until it
    answers, in slices of :data:`SLICE` conflicts with signals seen between them).
    :data:`PORTFOLIO` copies, differently numbered, take turns; ``max_conflicts``
    counts all of theirs."""
    sat = _native.load("lazysearch.sums._cdcl")
    copies: list[tuple[Any, list[int]]] = []
    spent = 0
    turn = 0
    while True:
        if max_conflicts and spent >= max_conflicts:
            return ()
        if turn == len(copies):
            renamed, moved, new = renumbered(problem, domains, turn)
            copies.append((sat_solver(renamed, moved), new))
        solver, new = copies[turn]
        before = solver.conflicts
        step = SLICE if not max_conflicts else min(SLICE, max_conflicts - spent)
        answer = solver.solve(before + step)
        spent += solver.conflicts - before
        if answer == sat.UNSAT:
            return REFUTED
        if answer == sat.SAT:
            found = digits(problem.n, solver.model())
            return tuple(found[new[c]] for c in range(problem.n))
        if len(copies) > 1 or solver.conflicts >= ALONE:
            turn = (turn + 1) % max(1, PORTFOLIO)


def find(problem: KakuroProblem, dive: int | None = None) -> tuple[int, ...]:
    """The guide for ``problem``: ``()`` (smallest digit first everywhere) when the plain
    tree finds a first solution, or ends, within ``dive`` nodes; else ``REFUTED`` when
    the run sums rule out every filling (:func:`sums_refute`); else the SAT search's
    filling, or ``REFUTED`` when it proves there is none (the tree is then its root, a
    dead end), or ``()`` when it gives up (only under a :data:`MAX_CONFLICTS` limit).
    ``dive`` defaults to ``DIVE_NODES``; 0 asks the SAT search at once."""
    return find_with_engine(problem, dive)[0]


def find_with_engine(
    problem: KakuroProblem, dive: int | None = None
) -> tuple[tuple[int, ...], Any]:
    """:func:`find`, and the engine of the dive back at its root when the guide is
    ``()`` (it is then the plain tree's engine: no need to build another), else None."""
    if dive is None:
        dive = DIVE_NODES
    module = _native.load("lazysearch.sums._engine")
    engine = module.KakuroEngine(problem.n, problem.runs)
    domains = engine.domains()
    if dive > 0 and (engine.run(1, dive) or engine.state == module.DONE):
        engine.rewind()
        engine.nodes = engine.solutions = 0
        return (), engine
    if sums_refute(problem, domains):
        return REFUTED, None
    return sat_filling(problem, domains), None
