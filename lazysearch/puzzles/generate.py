"""Sudoku generation: a random full grid, then clues taken away while exactly one
solution remains; and a difficulty rating from the search a puzzle needs.

>>> from lazysearch import sudoku
>>> puzzle = sudoku.generate((2, 2), seed=3)
>>> print(sudoku.render(sudoku.parse(puzzle)))
. . | . 4
. . | 1 .
----+----
3 4 | . .
1 . | . .
>>> sudoku.solve(puzzle).count(), puzzle.rating.level
(1, 'easy')

Uniqueness is proved by counting fillings up to two with a small engine of its own
(:mod:`._units`: naked and hidden singles, then the cell with the fewest digits), built
once per grid shape and reused for every clue tried.  The tests check every generated
puzzle again with the exact-cover solver, a different algorithm.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import _native
from ..errors import article, brief
from .clue_sat import other_filling
from .rating import LEVELS as LEVELS
from .rating import Rating as Rating
from .rating import level as level
from .rating import rating
from .sudoku_grid import SYMBOLS, SolvedGrid, SudokuError, checked_box, parse, sudoku_problem

#: The rating's proof gets this many times ``max_nodes`` when that is given.
RATING_BOUND = 20
#: With ``max_nodes``, the clues whose proofs ran past it are tried again at the end in
#: this many rounds, each with this many times the nodes of the round before.
RETRY_ROUNDS = 2
RETRY_GROWTH = 4
#: A round stops once more than half of the (at least this many) clues it tried stay
#: undecided: the bound is far too small for the grid (25x25, docs/generate.md).
RETRY_PROBE = 8
#: Nodes the random fill of a blank grid may take before it starts again with new ranks.
FILL_NODES = 20_000
#: Without ``max_nodes``, each clue's proof gets this many nodes of the tree search;
#: the SAT search (:mod:`.clue_sat`) settles the clues it leaves, so that every clue is
#: decided.
TREE_NODES = 200
#: Without ``max_nodes``, the rating's proof is cut off after this many nodes (the
#: rating then says ``complete=False``): a sparse 25x25 proof took minutes.
RATING_NODES = 200_000


class GeneratedSudoku(str):
    """A generated puzzle: the line of symbols :func:`~.sudoku.solve` and
    :func:`~.sudoku.read` take (``.`` for blanks), with what made it.

    Attributes: ``box`` (rows, columns), ``solution`` (a :class:`~.sudoku.SolvedGrid`),
    ``rating`` (a :class:`Rating`), ``seed`` (the seed that makes it again),
    ``variant`` (None for plain box sudoku), ``minimal`` and ``symmetric``.
    """

    box: tuple[int, int]
    solution: SolvedGrid
    rating: Rating
    seed: int
    variant: str | None
    minimal: bool
    symmetric: bool

    def grid(self) -> list[list[int]]:
        """The puzzle as rows of ints, 0 for a blank (what :func:`~.sudoku.solve` also
        takes)."""
        return parse(str(self))

    @property
    def clues(self) -> int:
        """The number of givens."""
        return sum(ch != "." for ch in self)

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture of the puzzle: its givens, blanks left empty."""
        from .sudoku_grid import svg

        rows = tuple(tuple(row) for row in self.grid())
        return svg(rows, box=self.box, square=square)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()

    def json(self) -> dict[str, Any]:
        """The puzzle, its solution, box, rating and seed as JSON-able data."""
        return {
            "puzzle": str(self),
            "box": list(self.box),
            "solution": "".join(SYMBOLS[v - 1] for row in self.solution for v in row),
            "clues": self.clues,
            "rating": self.rating._asdict(),
            "seed": self.seed,
            "variant": self.variant,
            "minimal": self.minimal,
            "symmetric": self.symmetric,
        }


def box_units(n: int, box: tuple[int, int]) -> list[list[int]]:
    """The rows, columns and boxes of an ``n x n`` grid, as lists of cell numbers
    (``row * n + column``)."""
    br, bc = box
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(r0 + r) * n + c0 + c for r in range(br) for c in range(bc)]
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    ]
    return units


#: The units of each variant the generator makes: ``(n, box, rng) -> units``, each
#: unit ``n`` cells that hold every digit once.  A variant whose units are generated
#: too (jigsaw regions) draws them from ``rng``; killer cages need sums, which the
#: counting engine does not take yet (see docs/generate.md).
VARIANTS: dict[str | None, Callable[[int, tuple[int, int], random.Random], list[list[int]]]] = {
    None: lambda n, box, rng: box_units(n, box),
}


def check_box(box: object) -> tuple[int, int]:
    """``box`` checked: two whole numbers >= 1 whose product, the side of the grid, is
    at most 35 (the symbols a puzzle line can write)."""
    if (
        not isinstance(box, tuple | list)
        or len(box) != 2
        or not all(type(side) is int and side >= 1 for side in box)
    ):
        raise SudokuError(
            f"generate() takes box=(rows, columns), two whole numbers >= 1; got {brief(box)}"
        )
    br, bc = box
    if br * bc > len(SYMBOLS):
        raise SudokuError(
            f"boxes of {br}x{bc} make a {br * bc}x{br * bc} grid; a puzzle line writes "
            f"at most {len(SYMBOLS)}x{len(SYMBOLS)} (values 1..9, A..Z)"
        )
    return br, bc


def generate(
    box: tuple[int, int] = (3, 3),
    *,
    seed: int | None = None,
    minimal: bool = True,
    symmetric: bool = False,
    variant: str | None = None,
    max_nodes: int | None = None,
) -> GeneratedSudoku:
    """A sudoku with exactly one solution, made from ``seed``; see the module doc.

    Parameters
    ----------
    box:
        (rows, columns) of a box; the grid is ``rows * columns`` on a side.
    seed:
        The same seed gives the same puzzle, compiled or plain Python, on any machine
        (None: a fresh seed, kept in the result's ``seed``).
    minimal:
        True: no clue can be taken away without a second solution (each clue was tried,
        and taking more clues away never brings uniqueness back).  False: clues are
        taken away in random order until the first that cannot be: quicker, more clues.
    symmetric:
        Clues come and go in pairs under a half turn (the centre alone); minimal then
        means no pair can be taken away.
    variant:
        None, plain box sudoku (one of :data:`VARIANTS`).  :func:`~.sudoku.generate`
        makes ``"x"``, ``"jigsaw"``, ``"killer"`` or parts joined by ``-``
        (``"killer-jigsaw-x"``) with :func:`.generate_variants.generate_variant` (a
        :class:`~.generate_variants.GeneratedVariant` that knows its rules).
    max_nodes:
        A bound on the nodes of each clue's proof (None: none).  A clue whose proof
        runs past it is tried again once every other clue was decided, with
        :data:`RETRY_GROWTH` times the nodes, for :data:`RETRY_ROUNDS` rounds (see
        :func:`settle`); one still undecided stays, so the puzzle is still unique, but
        may not be minimal: the result's ``minimal`` then says False.  Sparse 25x25
        grids need it (200 nodes: seconds a puzzle, minimality not proved,
        docs/generate.md); 9x9 and 16x16 grids do not.

    Raises
    ------
    SudokuError
        For a box that is not two whole numbers >= 1, a grid larger than 35x35, or a
        variant not generated.
    """
    br, bc = check_box(box)
    if variant not in VARIANTS:
        known = ", ".join(repr(name) for name in VARIANTS)
        raise SudokuError(f"variant {brief(variant)} is not generated; generated: {known}")
    for name, flag in (("minimal", minimal), ("symmetric", symmetric)):
        if not isinstance(flag, bool):
            raise SudokuError(f"generate() takes {name}=True or False; got {brief(flag)}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise SudokuError(f"generate() takes a whole number as seed; got {brief(seed)}")
    rng = random.Random(seed)
    n = br * bc
    cells = n * n
    units = VARIANTS[variant](n, (br, bc), rng)
    module = _native.load("lazysearch.puzzles._units")
    engine = module.UnitsEngine(n, cells, units)
    full = fill(engine, n, (br, bc), rng)
    if max_nodes is not None and (type(max_nodes) is not int or max_nodes < 1):
        raise SudokuError(f"generate() takes max_nodes >= 1 or None; got {brief(max_nodes)}")
    puzzle, result, proved = blank_clues(engine, full, units, rng, minimal, symmetric, max_nodes)
    out = GeneratedSudoku("".join(SYMBOLS[v - 1] if v else "." for v in puzzle))
    out.box = (br, bc)
    givens = tuple(tuple(puzzle[r * n : r * n + n]) for r in range(n))
    out.solution = SolvedGrid([full[r * n : r * n + n] for r in range(n)], (br, bc), givens)
    out.rating = result
    out.seed = seed
    out.variant = variant
    out.minimal = minimal and proved
    out.symmetric = symmetric
    return out


def blank_clues(
    engine: Any,
    full: list[int],
    units: Sequence[Sequence[int]],
    rng: random.Random,
    minimal: bool,
    symmetric: bool,
    max_nodes: int | None,
) -> tuple[list[int], Rating, bool]:
    """The givens left of ``full`` once clues are taken away as :func:`generate` takes
    them (``units`` each unit's cells, as ``engine``, a :mod:`._units` engine of the
    grid, has them), the puzzle's rating, and whether every clue's proof ended.

    Without ``max_nodes`` each proof gets :data:`TREE_NODES` nodes of the tree search
    and the SAT search (:func:`.clue_sat.other_filling`) settles the rest, so every
    clue is decided; with it, the proofs past the bound are tried again
    (:func:`settle`) and those still undecided stay.
    """
    n = len(units[0])
    cells = len(full)
    # Each cell tries the full grid's digit first: a second filling, when there is one,
    # mostly agrees with the first, so it is found sooner.
    engine.set_rank([int(d != full[c] - 1) for c in range(cells) for d in range(n)])
    puzzle = list(full)
    undecided: list[tuple[int, ...]] = []
    prover: Callable[[list[int], int, int], bool] | None = None
    if max_nodes is None:

        def prover(puzzle: list[int], c: int, digit: int) -> bool:
            # No phases from the full grid: on seed 2's 25x25 they took the second
            # fillings from 4k-11k conflicts to 35k-41k (on seed 1, 15% fewer).
            return other_filling(puzzle, c, digit, units) is not None

    for group in removal_order(n, symmetric, rng):
        for c in group:
            puzzle[c] = 0
        if prover is None:
            answer = still_unique(engine, puzzle, full, group, max_nodes or 0)
        else:
            answer = still_unique(engine, puzzle, full, group, TREE_NODES, prover)
        if answer is not True:
            for c in group:
                puzzle[c] = full[c]
            if answer is None:
                undecided.append(group)
            if not minimal:
                break
    if minimal and undecided:
        undecided = settle(engine, puzzle, full, undecided, max_nodes or 0)
    # The rating's proof, from scratch: with a bound on the clues' proofs, this one gets
    # RATING_BOUND times it (a 25x25 proof unbounded took minutes).
    bound = RATING_BOUND * max_nodes if max_nodes else RATING_NODES
    unknown = _native.load("lazysearch.puzzles._units").UNKNOWN
    complete = engine.count(puzzle, 2, bound) != unknown
    return puzzle, rating(engine.nodes, engine.dead_ends, complete), not undecided


def fill(engine: Any, n: int, box: tuple[int, int], rng: random.Random) -> list[int]:
    """A random full grid: the boxes on the diagonal (which share no row or column)
    get random permutations, then the engine fills the rest trying each cell's digits
    in a random order; a fill that takes more than :data:`FILL_NODES` nodes starts
    again with new orders."""
    br, bc = box
    while True:
        givens = [0] * (n * n)
        for i in range(min(br, bc)):
            digits = list(range(1, n + 1))
            rng.shuffle(digits)
            for k, (r, c) in enumerate((r, c) for r in range(br) for c in range(bc)):
                givens[(i * br + r) * n + i * bc + c] = digits[k]
        rank: list[int] = []
        for _ in range(n * n):
            order = list(range(n))
            rng.shuffle(order)
            rank.extend(order)
        engine.set_rank(rank)
        if engine.count(givens, 1, FILL_NODES) == 1:
            grid: list[int] = engine.solution()
            return grid


def still_unique(
    engine: Any,
    puzzle: list[int],
    full: list[int],
    group: Sequence[int],
    budget: int = 0,
    prover: Callable[[list[int], int, int], bool] | None = None,
) -> bool | None:
    """Whether ``puzzle``, unique before the cells of ``group`` were blanked, still is
    (None: not known within ``budget`` nodes a proof).  ``prover(puzzle, c, d)``, when
    given, answers where the tree search ran past the budget: whether some filling of
    ``puzzle`` puts another digit than ``d`` in cell ``c`` (:func:`.clue_sat.other_filling`).

    The fillings that agree with ``full`` on the group are the old puzzle's: one.  Any
    other puts another digit in some cell of the group: in the first such cell ``c``,
    with the cells before it as they were.  So the puzzle is unique when no filling
    avoids ``full[c]`` at ``c`` for each ``c`` in turn.
    """
    for i, c in enumerate(group):
        found = engine.count(puzzle, 1, budget, c, full[c])
        if found < 0 and prover is not None:
            found = int(prover(puzzle, c, full[c]))
        if found:
            for d in group[:i]:
                puzzle[d] = 0
            return False if found > 0 else None
        puzzle[c] = full[c]
    for c in group:
        puzzle[c] = 0
    return True


def settle(
    engine: Any,
    puzzle: list[int],
    full: list[int],
    undecided: list[tuple[int, ...]],
    budget: int,
) -> list[tuple[int, ...]]:
    """Try again, once every other group of cells was decided, the groups whose proof
    ran past ``budget`` nodes: in :data:`RETRY_ROUNDS` rounds, each giving a proof
    :data:`RETRY_GROWTH` times the nodes of the round before.  A round that has tried
    :data:`RETRY_PROBE` groups or more and left more than half of them undecided
    passes the rest on to the next round: on a sparse 25x25 grid almost every proof
    runs past 800 and 3,200 nodes too (of 229 clues past 200 nodes, 219 and 206), and
    trying them all cost 54 s of CPU where the first pass took 3.3 s.  Returns the
    groups still undecided (their clues stay in ``puzzle``); the others are taken away
    or shown needed.

    A group needed when it is tried is needed in the final puzzle: that has fewer
    clues, so the second filling found still fits it.  A group tried later has more
    freedom around it, so a second filling, when there is one, is often found at once
    (one 25x25 clue took 31 nodes after eight other clues had gone, where 2,000 had
    not been enough before).  A group taken away in a retry keeps the puzzle unique:
    its proof is made on the puzzle as it is then.
    """
    for _ in range(RETRY_ROUNDS):
        if not undecided:
            break
        budget *= RETRY_GROWTH
        left: list[tuple[int, ...]] = []
        for tried, group in enumerate(undecided):
            if tried >= RETRY_PROBE and 2 * len(left) > tried:
                # Most proofs run past this bound too: on to a bigger one.
                left += undecided[tried:]
                break
            for c in group:
                puzzle[c] = 0
            answer = still_unique(engine, puzzle, full, group, budget)
            if answer is not True:
                for c in group:
                    puzzle[c] = full[c]
                if answer is None:
                    left.append(group)
        undecided = left
    return undecided


def removal_order(n: int, symmetric: bool, rng: random.Random) -> list[tuple[int, ...]]:
    """The groups of cells to try taking away, in random order: single cells, or the
    pairs a half turn swaps (the centre of an odd grid alone)."""
    cells = n * n
    groups: list[tuple[int, ...]]
    if symmetric:
        groups = [(c, cells - 1 - c) if c != cells - 1 - c else (c,) for c in range(cells // 2 + 1)]
        groups = [g for g in groups if g[-1] >= g[0]]
    else:
        groups = [(c,) for c in range(cells)]
    rng.shuffle(groups)
    return groups


def rate(
    grid: str | Sequence[Sequence[int | None]], *, box: tuple[int, int] | None = None
) -> Rating:
    """The :class:`Rating` of a sudoku with exactly one solution: the search tree the
    counting engine walks to prove it (naked and hidden singles at every node).

    >>> rate("1.3." "...." "...." ".2.4")
    Rating(score=0.0, level='easy', nodes=1, dead_ends=0, complete=True)

    A variant is rated by :func:`.generate_variants.rate_variant` (what
    :func:`~.sudoku.rate` calls when given ``regions``, ``diagonals`` or ``cages``).

    Raises
    ------
    SudokuError
        If the grid is malformed, or has no solution or more than one.
    """
    rows = parse(grid)
    n = len(rows)
    shape = checked_box(box, n)
    if n > len(SYMBOLS):
        raise SudokuError(
            f"{article(n)} {n}x{n} grid is larger than the {len(SYMBOLS)}x{len(SYMBOLS)} rated"
        )
    sudoku_problem(rows, shape)  # the givens checked, as solve() checks them
    module = _native.load("lazysearch.puzzles._units")
    engine = module.UnitsEngine(n, n * n, box_units(n, shape))
    found = engine.count([v for row in rows for v in row], 2)
    if found != 1:
        many = "none" if not found else "two or more"
        raise SudokuError(f"a rating is for a puzzle with one solution; this one has {many}")
    return rating(engine.nodes, engine.dead_ends)
