"""Kakuro generation: a random layout, a random filling, its sums, and repairs until
the sums have that filling only.

>>> from lazysearch import kakuro
>>> p = kakuro.generate(6, 6, seed=1)
>>> kakuro.solve(p).count(), p.rating.level
(1, 'easy')

The layout starts all white inside the clue row and column and blackens cells in
random order while more are white than ``density`` asks, taking only cells that leave
no run of one cell; then every run longer than nine is split the same way.  The filling
puts random digits cell by cell, no digit twice in a run, backing up where a cell has
none left.  The engine of :mod:`lazysearch.sums._engine`, guided to that filling, then
looks for a second one; where it finds one, a cell where the two differ takes another digit (or,
when no digit fits, turns black), and the search runs again.  On large grids
(:data:`LOCAL_FROM`) windows of the grid are settled first, each searched alone with
the cells around it given (:func:`settle`), and after each change the whole search
asks for, the window around it.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import _native
from ..errors import brief
from ..puzzles.rating import Rating, rating, walk
from ..sums._combos import COMBOS
from .puzzle import Cell, KakuroError, Puzzle
from .solver import Filling, problem

#: Nodes one search for a second filling may take before the generator changes a
#: random cell instead (its answer unknown).
SEARCH_NODES = 200_000
#: Repairs one layout gets before the generator starts a new one.
MAX_REPAIRS = 2_000
DEFAULT_DENSITY = 0.6
#: Second fillings mended after one search (30x30: 5.5 s a puzzle with one, ...).
OTHERS_AT_ONCE = 1
#: The side of the windows a large grid is settled in before the whole grid is
#: searched, and the grids (inner cells) that are large enough for it.
WINDOW = 12
LOCAL_FROM = 25 * 25
#: Nodes one search of a window may take, and changes one window may get.
WINDOW_NODES = 20_000
WINDOW_REPAIRS = 200


class GeneratedKakuro(Puzzle):
    """A generated :class:`Puzzle` (what :func:`~.solver.solve` and the writers take)
    with its ``solution`` (a :class:`Filling`), ``rating``
    (a :class:`~lazysearch.puzzles.rating.Rating`) and ``seed``."""

    __slots__ = ("rating", "seed", "solution")

    rating: Rating
    seed: int
    solution: Filling


def generate(
    rows: int, cols: int, *, seed: int | None = None, density: float = DEFAULT_DENSITY
) -> GeneratedKakuro:
    """A kakuro of ``rows x cols`` (the clue row and column included) whose sums have
    exactly one filling; see the module doc.

    Parameters
    ----------
    seed:
        The same seed gives the same puzzle, compiled or plain Python (None: a fresh
        seed, kept in the result's ``seed``).
    density:
        The share of the cells inside the clue row and column that are white, above 0
        and at most what runs of nine allow (one cell in ten black on long lines).

    Raises
    ------
    KakuroError
        For sides that are not whole numbers >= 3, or a density that cannot give valid
        runs (fewer than four white cells, or more than runs of nine leave room for).
    """
    for side in (rows, cols):
        if type(side) is not int or side < 3:
            raise KakuroError(
                f"generate() makes grids of at least 3x3 (clue row and column included); "
                f"got {brief(rows)} x {brief(cols)}"
            )
    if isinstance(density, bool) or not isinstance(density, int | float) or not density > 0:
        raise KakuroError(f"density is a share of white cells above 0; got {brief(density)}")
    inner_r, inner_c = rows - 1, cols - 1
    target = round(density * inner_r * inner_c)
    most = min(inner_r * (inner_c - inner_c // 10), inner_c * (inner_r - inner_r // 10))
    if target < 4 or target > most:
        raise KakuroError(
            f"density {density!r} asks for {target} white cells of {inner_r * inner_c}; "
            f"runs of 2 to 9 cells allow 4 to {most} in a {rows}x{cols} grid"
        )
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise KakuroError(f"generate() takes a whole number as seed; got {brief(seed)}")
    rng = random.Random(seed)
    module = _native.load("lazysearch.sums._engine")
    while True:
        white = layout(rows, cols, target, rng)
        if len(white) < 4:  # splitting long runs took them all: another layout
            continue
        digits = fill(rows, cols, white, rng)
        if digits is None:
            continue
        made = repair(rows, cols, white, digits, rng, module)
        if made is not None:
            puzzle, nodes, dead_ends = made
            break
    out = GeneratedKakuro(
        rows, cols, white=puzzle.white, across=puzzle.across, down=puzzle.down, name=""
    )
    out.solution = Filling(out, dict(sorted(digits.items())))
    out.rating = rating(nodes, dead_ends)
    out.seed = seed
    return out


def _run_cells(white: set[Cell], cell: Cell, dr: int, dc: int) -> int:
    """How many white cells follow ``cell`` in direction (dr, dc)."""
    r, c = cell
    k = 0
    while (r + dr * (k + 1), c + dc * (k + 1)) in white:
        k += 1
    return k


def can_blacken(white: set[Cell], cell: Cell) -> bool:
    """Whether ``cell`` can turn black leaving no run of one cell on either side."""
    return all(
        _run_cells(white, cell, dr, dc) != 1 for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
    )


def layout(rows: int, cols: int, target: int, rng: random.Random) -> set[Cell]:
    """Random white cells, about ``target`` of them, every run 2 to 9 cells long."""
    white = {(r, c) for r in range(1, rows) for c in range(1, cols)}
    order = sorted(white)
    rng.shuffle(order)
    for cell in order:
        if len(white) <= target:
            break
        if can_blacken(white, cell):
            white.discard(cell)
    while True:
        long_runs = [run for run in runs_of(rows, cols, white) if len(run) > 9]
        if not long_runs:
            return white
        for run in long_runs:
            inner = [cell for cell in run[2:-2] if can_blacken(white, cell)]
            if inner:
                white.discard(rng.choice(inner))
            else:
                white.discard(rng.choice(run[2:-2]))
                lonely = [c for c in white if _lonely(white, c)]
                while lonely:
                    white.difference_update(lonely)
                    lonely = [c for c in white if _lonely(white, c)]


def _lonely(white: set[Cell], cell: Cell) -> bool:
    r, c = cell
    across = (r, c - 1) in white or (r, c + 1) in white
    down = (r - 1, c) in white or (r + 1, c) in white
    return not (across and down)


def runs_of(rows: int, cols: int, white: set[Cell]) -> list[list[Cell]]:
    """The runs of a layout, across (by rows) then down (by columns), each in order;
    stretches of one cell too."""
    out: list[list[Cell]] = []
    for r in range(rows):
        run: list[Cell] = []
        for c in range(cols + 1):
            if (r, c) in white:
                run.append((r, c))
            elif run:
                out.append(run)
                run = []
    for c in range(cols):
        run = []
        for r in range(rows + 1):
            if (r, c) in white:
                run.append((r, c))
            elif run:
                out.append(run)
                run = []
    return out


def fill(rows: int, cols: int, white: set[Cell], rng: random.Random) -> dict[Cell, int] | None:
    """Random digits for the white cells, none twice in a run; None when the walk backs
    up more than a hundred times a cell (a new layout is then cheaper)."""
    cells = sorted(white)
    runs = runs_of(rows, cols, white)
    run_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for i, run in enumerate(runs):
        for cell in run:
            run_of[cell].append(i)
    used = [0] * len(runs)
    digits: dict[Cell, int] = {}
    # Each level keeps its cell's digits in a random order and the index tried.
    choices: list[list[int]] = []
    index: list[int] = []
    backups = 0
    level = 0
    while level < len(cells):
        cell = cells[level]
        a, b = run_of[cell]
        if len(choices) == level:
            free = [d for d in range(1, 10) if not (used[a] | used[b]) >> d & 1]
            rng.shuffle(free)
            choices.append(free)
            index.append(0)
        else:
            d = digits.pop(cell)
            used[a] &= ~(1 << d)
            used[b] &= ~(1 << d)
            index[level] += 1
        if index[level] < len(choices[level]):
            d = choices[level][index[level]]
            digits[cell] = d
            used[a] |= 1 << d
            used[b] |= 1 << d
            level += 1
        else:
            choices.pop()
            index.pop()
            level -= 1
            backups += 1
            if level < 0 or backups > 100 * len(cells):
                return None
    return digits


def build(rows: int, cols: int, white: set[Cell], digits: dict[Cell, int]) -> Puzzle:
    """The puzzle whose clues are the sums of ``digits``."""
    across: dict[Cell, int] = {}
    down: dict[Cell, int] = {}
    for cell in sorted(white):
        r, c = cell
        if (r, c - 1) not in white:
            run = _across(white, cell)
            across[(r, c - 1)] = sum(digits[m] for m in run)
        if (r - 1, c) not in white:
            run = _down(white, cell)
            down[(r - 1, c)] = sum(digits[m] for m in run)
    return Puzzle(rows, cols, white=white, across=across, down=down)


def repair(
    rows: int,
    cols: int,
    white: set[Cell],
    digits: dict[Cell, int],
    rng: random.Random,
    module: Any,
) -> tuple[Puzzle, int, int] | None:
    """Change ``digits`` (and ``white``) in place until the sums have one filling; the
    puzzle and the nodes and dead ends of the search that proved it, or None after
    :data:`MAX_REPAIRS` changes."""
    local = (rows - 1) * (cols - 1) >= LOCAL_FROM
    if local:
        # Windows overlapping by half, in reading order, each settled with the cells
        # around it as they are: most second fillings are local swaps, found there in
        # a few hundred nodes instead of a search of the whole grid each.
        half = WINDOW // 2
        for r0 in range(1, rows, half):
            for c0 in range(1, cols, half):
                settle(white, digits, (r0, c0, r0 + WINDOW, c0 + WINDOW), rng, module)
    shape: tuple[list[Cell], list[list[int]]] | None = None
    for _ in range(MAX_REPAIRS):
        if shape is None:
            # The engine's numbering (cells in reading order) and runs, until the
            # layout changes; only the sums change with the digits.
            cells = sorted(white)
            number = {cell: i for i, cell in enumerate(cells)}
            runs = [[number[c] for c in run] for run in runs_of(rows, cols, white) if len(run) > 1]
            shape = (cells, runs)
        cells, runs = shape
        guide = [digits[cell] for cell in cells]
        engine_runs = [(tuple(run), sum(guide[i] for i in run), 0) for run in runs]
        engine = module.KakuroEngine(len(cells), engine_runs, guide)
        found = engine.run(2, SEARCH_NODES)
        if found == 1 and engine.state == module.DONE:
            # The proof again a node at a time, for its dead ends (the same tree).
            engine = module.KakuroEngine(len(cells), engine_runs, guide)
            _, dead_ends = walk(engine, 2)
            return build(rows, cols, white, digits), engine.nodes, dead_ends
        if found < 2:
            if change(white, digits, cells, rng):
                shape = None
            continue
        # Mend up to OTHERS_AT_ONCE second fillings per search, one cell of each, where
        # they touch no cell already changed (each is mostly a local swap).
        touched: set[Cell] = set()
        for k in range(OTHERS_AT_ONCE):
            if k and engine.run(1, SEARCH_NODES) != 1:
                break
            other = engine.solution()
            differ = [cell for cell, d in zip(cells, other, strict=True) if digits[cell] != d]
            if touched.intersection(differ):
                continue
            touched.update(differ)
            before = [(cell, digits.get(cell)) for cell in differ]
            if change(white, digits, differ, rng):
                shape = None
            if local:
                # Settle the window around the change before the next whole search.
                r, c = next(cell for cell, d in before if digits.get(cell) != d)
                half = WINDOW // 2
                if settle(white, digits, (r - half, c - half, r + half, c + half), rng, module):
                    shape = None
            if shape is None:
                break
    return None


def settle(
    white: set[Cell],
    digits: dict[Cell, int],
    window: tuple[int, int, int, int],
    rng: random.Random,
    module: Any,
) -> bool:
    """Change the cells of ``window`` (rows r0..r1 - 1, columns c0..c1 - 1) until they
    have one filling with every cell outside as it is (or :data:`WINDOW_REPAIRS`
    changes were made): a second filling of the window is one of the whole grid, so
    this is needed, not enough.  True when the layout changed.

    Notes: each search builds an engine for the window's cells only, each run it
    crosses keeping the sum and the digits of its cells outside as givens.
    """
    r0, c0, r1, c1 = window
    moved = False
    for _ in range(WINDOW_REPAIRS):
        cells = [(r, c) for r in range(r0, r1) for c in range(c0, c1) if (r, c) in white]
        if not cells:
            return moved
        number = {cell: i for i, cell in enumerate(cells)}
        seen: set[tuple[Cell, bool]] = set()
        engine_runs: list[tuple[tuple[int, ...], int, int]] = []
        for cell in cells:
            for across, run in ((True, _across(white, cell)), (False, _down(white, cell))):
                key = (min(run), across)
                if key in seen:
                    continue
                seen.add(key)
                inner = tuple(sorted(number[m] for m in run if m in number))
                used = 0
                for m in run:
                    if m not in number:
                        used |= 1 << (digits[m] - 1)
                engine_runs.append((inner, sum(digits[m] for m in run if m in number), used))
        guide = [digits[cell] for cell in cells]
        engine = module.KakuroEngine(len(cells), engine_runs, guide)
        found = engine.run(2, WINDOW_NODES)
        if found == 1 and engine.state == module.DONE:
            return moved
        if found < 2:
            differ = cells
        else:
            other = engine.solution()
            differ = [cell for cell, d in zip(cells, other, strict=True) if digits[cell] != d]
        moved = change(white, digits, differ, rng) or moved
    return moved


def change(
    white: set[Cell], digits: dict[Cell, int], differ: list[Cell], rng: random.Random
) -> bool:
    """Give one cell of ``differ`` another digit its runs allow; when none has one,
    blacken one that can be (the sums then change around it).  True when the layout
    changed."""
    order = list(differ)
    rng.shuffle(order)
    for cell in order:
        across, down = _across(white, cell), _down(white, cell)
        taken = {digits[m] for m in across | down if m != cell}
        free = [d for d in range(1, 10) if d not in taken and d != digits[cell]]
        if free:
            # The digit whose sums leave the fewest digit sets to the two runs.
            rest_a = sum(digits[m] for m in across) - digits[cell]
            rest_d = sum(digits[m] for m in down) - digits[cell]
            sets = [
                len(COMBOS[len(across)][rest_a + d]) * len(COMBOS[len(down)][rest_d + d])
                for d in free
            ]
            fewest = min(sets)
            digits[cell] = rng.choice([d for d, k in zip(free, sets, strict=True) if k == fewest])
            return False
    for cell in order:
        if can_blacken(white, cell) and len(white) > 4:
            white.discard(cell)
            del digits[cell]
            return True
    return False


def _across(white: set[Cell], cell: Cell) -> set[Cell]:
    """The cells of ``cell``'s across run."""
    r, c = cell
    left = _run_cells(white, cell, 0, -1)
    right = _run_cells(white, cell, 0, 1)
    return {(r, c + k) for k in range(-left, right + 1)}


def _down(white: set[Cell], cell: Cell) -> set[Cell]:
    """The cells of ``cell``'s down run."""
    r, c = cell
    up = _run_cells(white, cell, -1, 0)
    below = _run_cells(white, cell, 1, 0)
    return {(r + k, c) for k in range(-up, below + 1)}


def rate(puzzle: Puzzle) -> Rating:
    """The :class:`~lazysearch.puzzles.rating.Rating` of a kakuro with exactly one
    filling: the nodes of the engine's tree (run arc consistency at every node) that
    proves it, and its dead ends (see :func:`~lazysearch.puzzles.rating.walk`).

    Raises
    ------
    KakuroError
        If the puzzle has no filling or more than one.
    """
    engine_problem, _ = problem(puzzle)
    module = _native.load("lazysearch.sums._engine")
    engine = module.KakuroEngine(engine_problem.n, engine_problem.runs, engine_problem.order())
    found, dead_ends = walk(engine, 2)
    if found != 1:
        many = "none" if not found else "two or more"
        raise KakuroError(f"a rating is for a puzzle with one filling; this one has {many}")
    return rating(engine.nodes, dead_ends)
