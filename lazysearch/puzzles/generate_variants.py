"""Generating sudoku variants: X (both diagonals), jigsaw (regions generated too),
killer (cages generated too, no givens), and their combinations.

>>> from lazysearch import sudoku
>>> p = sudoku.generate((2, 2), seed=4, variant="x")
>>> print(p.text())
givens:
....
41..
....
.2..
diagonals
>>> sudoku.solve(p, **p.rules_args()).count()
1

A variant names its parts joined by ``-`` in any order (``"killer-jigsaw-x"``).  X and
jigsaw puzzles are made as plain ones are (:mod:`.generate`): a random full grid, then
givens blanked while one solution remains, the proofs on the units engine
(:mod:`._units`) with the diagonals or regions as units.  A jigsaw's regions are the
boxes first, then cells swapped between neighbouring regions at random while each stays
in one piece; a layout no full grid fills within :data:`JIGSAW_FILL_NODES` nodes a
cell is shuffled on a little and tried again.

A killer puzzle has no givens.  Its full grid is cut into cages (side neighbours, 2 to
:data:`MAX_CAGE` cells, no digit twice), grown at random.  While the cages allow two
fillings, a cage holding a cell where the two differ is cut in two.  Then side-by-side
cages are merged (at most :data:`MAX_CAGE` cells, distinct digits) while one filling
remains, pass after pass until a pass merges none: *minimal* means no two neighbouring
cages can be merged without a second filling (``minimal=False``: one pass, quicker,
more cages).  A merge's proof may take ``max_nodes``
(default :data:`KILLER_NODES`) nodes; a merge whose proof runs past it is not made, and
the puzzle's ``minimal`` is then False (unique still).  The killer proofs run on the kakuro
engine (:mod:`lazysearch.sums._engine`, a unit a run of sum ``n(n + 1)/2``), so
killer puzzles are at most 9x9.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine import _native
from ..engine.states import DONE
from ..errors import article, brief
from .generate import FILL_NODES, RATING_BOUND, GeneratedSudoku, blank_clues, check_box
from .rating import Rating, rating, walk
from .sudoku_grid import SYMBOLS, SolvedGrid, SudokuError, box_shape, parse
from .variant_rules import LABELS, Cage, Variant, box_regions, givens_clash, variant
from .variant_text import write

#: The parts a variant name is made of, in the order a name is written.
PARTS = ("killer", "jigsaw", "x")
#: The most cells a generated cage holds.
MAX_CAGE = 5
#: The nodes a killer merge's proof may take when ``max_nodes`` is not given: a merge
#: whose proof runs past it is not made (the puzzle stays unique; ``minimal`` says False).
#: Unbounded, one 9x9 seed took 8 minutes (its last merges' proofs of 35,000 nodes).
KILLER_NODES = 1000
#: Random full grids tried on one jigsaw layout before it is shuffled on.
FILL_TRIES = 2
#: Nodes a fill of a jigsaw layout may take, per cell: a layout that no grid fills can
#: take long to refute (with the diagonals most do), and shuffling it on is cheaper.
#: Seven 9x9 jigsaw-x: 6.1 s of fills at 2,000 nodes, 2 tries; 1.8 s at 300, 3 tries.
JIGSAW_FILL_NODES = 4
#: Swaps tried per cell while a jigsaw layout is drawn.
SWAPS_PER_CELL = 12

Cell = tuple[int, int]


def variant_parts(name: object) -> tuple[str, ...]:
    """The parts of a variant name, in :data:`PARTS` order.

    >>> variant_parts("x-Killer")
    ('killer', 'x')
    """
    if not isinstance(name, str):
        raise SudokuError(
            f"variant must be a name like 'x', 'jigsaw', 'killer' or 'killer-x'; got {brief(name)}"
        )
    words = [w for w in name.lower().replace("+", "-").replace(" ", "-").split("-") if w]
    for word in words:
        if word not in PARTS:
            raise SudokuError(
                f"variant {brief(name)}: {word!r} is not one of {', '.join(PARTS)} "
                "(join them with '-', as in 'killer-jigsaw-x')"
            )
    if not words:
        raise SudokuError(f"variant {brief(name)} names none of {', '.join(PARTS)}")
    if len(set(words)) != len(words):
        raise SudokuError(f"variant {brief(name)} names each of {', '.join(PARTS)} at most once")
    return tuple(part for part in PARTS if part in words)


class GeneratedVariant(GeneratedSudoku):
    """A generated variant: the line of givens (all ``.`` for killer) with its rules.

    Besides :class:`~.generate.GeneratedSudoku`'s attributes: ``rules`` (a
    :class:`~.variants.Variant`), ``regions`` (the jigsaw picture as ``n`` strings, or
    None for boxes), ``diagonals`` and ``cages`` (``(sum, ((row, col), ...))``, or
    None).  A jigsaw's ``box`` is the boxes its regions were drawn from.
    ``solve(p, **p.rules_args())`` solves it.
    """

    rules: Variant
    regions: list[str] | None
    diagonals: bool
    cages: list[Cage] | None

    def rules_args(self) -> dict[str, Any]:
        """The keyword arguments :func:`~.sudoku.solve` takes for these rules."""
        args: dict[str, Any] = {"diagonals": self.diagonals}
        if self.regions is not None:
            args["regions"] = self.regions
        elif self.box is not None:
            args["box"] = self.box
        if self.cages is not None:
            args["cages"] = self.cages
        return args

    def text(self) -> str:
        """The puzzle in the variant text format :func:`.variants.loads` reads (regions
        written out for a jigsaw, and for boxes that are not the usual shape)."""
        boxes = self.regions is None and self.box == box_shape(self.rules.n)
        return write(self.grid(), self.rules, box=boxes)

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture: region borders, diagonals, cages and their sums, givens."""
        from ..render.svg import sudoku_variant

        rows = self.grid()
        return sudoku_variant(rows, self.rules, givens=rows, square=square)

    def json(self) -> dict[str, Any]:
        """:meth:`GeneratedSudoku.json` with the rules: ``regions`` (rows of labels),
        ``diagonals``, ``cages`` (``[sum, [[row, col], ...]]``); what
        :func:`.variants.loads` reads back."""
        data = super().json()
        data["regions"] = regions_picture(self.rules) if self.regions is not None else None
        if self.regions is None and self.box != box_shape(self.rules.n):
            data["regions"] = regions_picture(self.rules)
        data["diagonals"] = self.diagonals
        data["cages"] = (
            [[total, [list(cell) for cell in cells]] for total, cells in self.cages]
            if self.cages is not None
            else None
        )
        return data


def regions_picture(rules: Variant) -> list[str]:
    """The regions as ``n`` strings of labels (``a``, ``b``, ...)."""
    return ["".join(LABELS[k % len(LABELS)] for k in row) for row in rules.region]


def unit_cells(rules: Variant) -> list[list[int]]:
    """The rules' units as lists of cell numbers (``row * n + column``)."""
    n = rules.n
    return [[r * n + c for r, c in cells] for _, cells in rules.units]


def random_regions(
    n: int,
    box: tuple[int, int],
    rng: random.Random,
    start: Sequence[Sequence[int]] | None = None,
    rounds: int = SWAPS_PER_CELL,
) -> list[list[int]]:
    """``n`` connected regions of ``n`` cells, drawn from ``rng``: the boxes (or the
    regions ``start``), then ``rounds`` tries per cell of moving a cell into a
    neighbouring region while a cell of that region that touches the first moves back,
    kept when both regions stay in one piece."""
    region = [list(row) for row in (start or box_regions(n, box))]
    members: list[set[Cell]] = [set() for _ in range(n)]
    for r in range(n):
        for c in range(n):
            members[region[r][c]].add((r, c))
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))

    def touches(cell: Cell, k: int) -> bool:
        r, c = cell
        return any(
            0 <= r + dr < n and 0 <= c + dc < n and region[r + dr][c + dc] == k for dr, dc in steps
        )

    for _ in range(rounds * n * n):
        r, c = rng.randrange(n), rng.randrange(n)
        a = region[r][c]
        others = sorted(
            {
                region[r + dr][c + dc]
                for dr, dc in steps
                if 0 <= r + dr < n and 0 <= c + dc < n and region[r + dr][c + dc] != a
            }
        )
        if not others:
            continue
        b = rng.choice(others)
        region[r][c] = b
        back = sorted(cell for cell in members[b] if touches(cell, a))
        if not back:
            region[r][c] = a
            continue
        r2, c2 = rng.choice(back)
        region[r2][c2] = a
        members[a].discard((r, c))
        members[b].discard((r2, c2))
        members[a].add((r2, c2))
        members[b].add((r, c))
        if not (_one_piece(members[a]) and _one_piece(members[b])):
            region[r][c], region[r2][c2] = a, b
            members[a].discard((r2, c2))
            members[b].discard((r, c))
            members[a].add((r, c))
            members[b].add((r2, c2))
    return region


def _one_piece(cells: set[Cell]) -> bool:
    """Whether ``cells`` are one piece (side neighbours)."""
    start = min(cells)
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell in cells and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return len(seen) == len(cells)


def _pieces(cells: Sequence[Cell]) -> list[set[Cell]]:
    """The connected pieces of ``cells`` (side neighbours), the first cell's first."""
    left = set(cells)
    out: list[set[Cell]] = []
    for start in cells:
        if start not in left:
            continue
        piece = {start}
        todo = [start]
        left.discard(start)
        while todo:
            r, c = todo.pop()
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in left:
                    left.discard(cell)
                    piece.add(cell)
                    todo.append(cell)
        out.append(piece)
    return out


def random_fill(
    engine: Any, n: int, rng: random.Random, tries: int = 0, budget: int = FILL_NODES
) -> list[int] | None:
    """A random full grid for ``engine``'s units: a blank grid filled trying each cell's
    digits in a random order, started again with new orders when a fill takes more
    than ``budget`` nodes; None after ``tries`` starts (0: no limit), or when the units
    allow no filling at all.  Unlike :func:`.generate.fill` nothing is placed first
    (boxes on the diagonal would break an X sudoku's diagonals)."""
    attempt = 0
    while not tries or attempt < tries:
        attempt += 1
        rank: list[int] = []
        for _ in range(n * n):
            order = list(range(n))
            rng.shuffle(order)
            rank.extend(order)
        engine.set_rank(rank)
        found = engine.count([0] * (n * n), 1, budget)
        if found == 1:
            grid: list[int] = engine.solution()
            return grid
        if found == 0:
            return None
    return None


def generate_variant(
    box: tuple[int, int] = (3, 3),
    *,
    seed: int | None = None,
    minimal: bool = True,
    symmetric: bool = False,
    variant_name: str = "x",
    max_nodes: int | None = None,
) -> GeneratedVariant:
    """A variant sudoku with exactly one solution; see the module doc and
    :func:`.generate.generate` (which calls this for ``variant=``).

    Raises
    ------
    SudokuError
        For a variant name not made of :data:`PARTS`, killer past 9x9, ``symmetric``
        with killer (it has no givens), or the checks :func:`.generate.generate` makes.
    """
    parts = variant_parts(variant_name)
    br, bc = check_box(box)
    n = br * bc
    for name, flag in (("minimal", minimal), ("symmetric", symmetric)):
        if not isinstance(flag, bool):
            raise SudokuError(f"generate() takes {name}=True or False; got {brief(flag)}")
    if max_nodes is not None and (type(max_nodes) is not int or max_nodes < 1):
        raise SudokuError(f"generate() takes max_nodes >= 1 or None; got {brief(max_nodes)}")
    if "killer" in parts:
        if n > 9:
            raise SudokuError(
                f"killer puzzles are generated up to 9x9 (the kakuro engine's digits); "
                f"boxes of {br}x{bc} make {n}x{n}"
            )
        if symmetric:
            raise SudokuError("symmetric=True places givens in pairs; a killer puzzle has none")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise SudokuError(f"generate() takes a whole number as seed; got {brief(seed)}")
    rng = random.Random(seed)
    module = _native.load("lazysearch.puzzles._units")
    diagonals = "x" in parts
    rules = variant(n, box=(br, bc), diagonals=diagonals)
    engine = module.UnitsEngine(n, n * n, unit_cells(rules))
    if "jigsaw" in parts and n < 4:
        raise SudokuError(f"a jigsaw of {n}x{n} has no regions to draw; boxes of 2x2 or more")
    regions: list[str] | None = None
    full: list[int] | None = None
    if "jigsaw" in parts:
        # Regions first, then a grid for them; a layout no grid fills within the
        # budget is shuffled on a little (cheaper than from the boxes again).
        picture: list[list[int]] | None = None
        while full is None:
            picture = random_regions(n, (br, bc), rng, picture, 1 if picture else SWAPS_PER_CELL)
            rules = variant(n, regions=picture, diagonals=diagonals)
            engine = module.UnitsEngine(n, n * n, unit_cells(rules))
            full = random_fill(engine, n, rng, FILL_TRIES, JIGSAW_FILL_NODES * n * n)
        regions = regions_picture(rules)
    else:
        full = random_fill(engine, n, rng)
        if full is None:
            raise SudokuError(f"no {n}x{n} grid with boxes of {br}x{bc} keeps both diagonals")
    if "killer" in parts:
        cages, givens, result, proved = _killer(rules, full, rng, minimal, max_nodes)
    else:
        units = unit_cells(rules)
        givens, result, proved = blank_clues(
            engine, full, units, rng, minimal, symmetric, max_nodes
        )
        cages = None
    out = GeneratedVariant("".join(SYMBOLS[v - 1] if v else "." for v in givens))
    final = Variant(n, rules.region, diagonals, tuple(cages or ()))
    out.rules = final
    out.box = (br, bc)
    out.regions = regions
    out.diagonals = diagonals
    out.cages = cages
    grid_givens = tuple(tuple(givens[r * n : r * n + n]) for r in range(n))
    rows = [full[r * n : r * n + n] for r in range(n)]
    out.solution = SolvedGrid(rows, None if regions else out.box, grid_givens, final)
    out.rating = result
    out.seed = seed
    out.variant = "-".join(parts)
    out.minimal = minimal and proved
    out.symmetric = symmetric
    return out


# -- killer ------------------------------------------------------------------------------


def killer_engine(rules: Variant, cages: Sequence[Cage], guide: Sequence[int] = ()) -> Any:
    """The kakuro engine for a killer grid with no givens: a run per unit (sum
    ``n(n + 1)/2``) and per cage; cells numbered ``row * n + column``; ``guide`` a
    digit per cell to try first."""
    n = rules.n
    whole = n * (n + 1) // 2
    runs = [(tuple(r * n + c for r, c in cells), whole, 0) for _, cells in rules.units]
    runs += [(tuple(r * n + c for r, c in cells), total, 0) for total, cells in cages]
    module = _native.load("lazysearch.sums._engine")
    return module.KakuroEngine(n * n, runs, guide)


def two_fillings(engine: Any, budget: int = 0) -> tuple[int, list[int] | None]:
    """How many fillings ``engine`` finds, up to two (-1: not known within ``budget``
    nodes), and the second one when there is one."""
    found = engine.run(1, budget)
    if found == 0:
        return (-1 if budget and engine.state != DONE else 0), None
    found = engine.run(1, budget)
    if found:
        return 2, list(engine.solution())
    return (-1 if budget and engine.state != DONE else 1), None


def _killer(
    rules: Variant,
    full: list[int],
    rng: random.Random,
    minimal: bool,
    max_nodes: int | None,
) -> tuple[list[Cage], list[int], Rating, bool]:
    """Cages for ``full`` (see the module doc): the cages, the givens (none), the
    rating, and whether every merge's proof ended."""
    n = rules.n
    budget = max_nodes or KILLER_NODES
    cages = grow_cages(n, full, rng)
    guide = list(full)
    # K1: cut cages until one filling remains.
    while True:
        found, other = two_fillings(killer_engine(rules, _as_cages(cages, full, n), guide))
        if found == 1:
            break
        if other is None:  # pragma: no cover - the full grid is always a filling
            raise SudokuError("the cages lost the grid they were cut from")
        differ = [(c // n, c % n) for c in range(n * n) if other[c] != full[c]]
        cell = rng.choice(differ)
        k = next(i for i, cage in enumerate(cages) if cell in cage)
        cages[k : k + 1] = cut(cages[k], cell, rng)
    # K2: merge neighbours while one filling remains, until a pass merges none.
    proved = True
    merged = True
    while merged:
        merged = False
        proved = True
        for a, b in neighbour_pairs(cages, full, n, rng):
            if a not in cages or b not in cages:
                continue
            trial = [cage for cage in cages if cage is not a and cage is not b]
            trial.append(sorted(a + b))
            engine = killer_engine(rules, _as_cages(trial, full, n), guide)
            found, _ = two_fillings(engine, budget)
            if found == 1:
                cages = trial
                merged = True
            elif found < 0:
                proved = False
        if not minimal:  # one pass: quicker, more cages
            break
    cages.sort()
    final = _as_cages(cages, full, n)
    engine = killer_engine(rules, final, ())
    found, dead_ends = walk(engine, 2, RATING_BOUND * budget)
    complete = found >= 0
    return list(final), [0] * (n * n), rating(engine.nodes, dead_ends, complete), proved


def _as_cages(cages: Sequence[list[Cell]], full: Sequence[int], n: int) -> tuple[Cage, ...]:
    """Cells lists as ``(sum, cells)`` cages, sums from ``full``."""
    return tuple((sum(full[r * n + c] for r, c in cells), tuple(cells)) for cells in cages)


def grow_cages(n: int, full: Sequence[int], rng: random.Random) -> list[list[Cell]]:
    """Cages covering the grid: from each cell not yet caged (in random order) a cage
    grows to a size drawn from 2..:data:`MAX_CAGE`, taking a random side neighbour not
    caged whose digit it does not hold yet, until it has its size or no neighbour fits."""
    owner: dict[Cell, int] = {}
    cages: list[list[Cell]] = []
    order = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(order)
    for start in order:
        if start in owner:
            continue
        size = rng.randint(2, MAX_CAGE)
        cage = [start]
        owner[start] = len(cages)
        digits = {full[start[0] * n + start[1]]}
        while len(cage) < size:
            near = sorted(
                {
                    (r + dr, c + dc)
                    for r, c in cage
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                    if 0 <= r + dr < n
                    and 0 <= c + dc < n
                    and (r + dr, c + dc) not in owner
                    and full[(r + dr) * n + c + dc] not in digits
                }
            )
            if not near:
                break
            cell = rng.choice(near)
            owner[cell] = len(cages)
            cage.append(cell)
            digits.add(full[cell[0] * n + cell[1]])
        cages.append(sorted(cage))
    return cages


def cut(cage: list[Cell], cell: Cell, rng: random.Random) -> list[list[Cell]]:
    """``cage`` cut in two or more pieces, ``cell`` in one of about half its size (grown
    from it at random), the rest split into its connected pieces."""
    if len(cage) == 1:  # pragma: no cover - a one-cell cage fixes its digit
        return [cage]
    want = max(1, len(cage) // 2)
    inside = set(cage)
    piece = [cell]
    while len(piece) < want:
        near = sorted(
            {
                (r + dr, c + dc)
                for r, c in piece
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if (r + dr, c + dc) in inside and (r + dr, c + dc) not in piece
            }
        )
        if not near:
            break
        piece.append(rng.choice(near))
    rest = [x for x in cage if x not in piece]
    return [sorted(piece)] + [sorted(p) for p in _pieces(rest)]


def neighbour_pairs(
    cages: list[list[Cell]], full: Sequence[int], n: int, rng: random.Random
) -> list[tuple[list[Cell], list[Cell]]]:
    """The pairs of cages that share a side and could be one cage (at most
    :data:`MAX_CAGE` cells, no digit twice), in random order."""
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage}
    pairs: set[tuple[int, int]] = set()
    for (r, c), k in owner.items():
        for cell in ((r + 1, c), (r, c + 1)):
            j = owner.get(cell, k)
            if j != k:
                pairs.add((min(j, k), max(j, k)))
    out = []
    for j, k in sorted(pairs):
        a, b = cages[j], cages[k]
        digits = [full[r * n + c] for r, c in a + b]
        if len(a) + len(b) <= MAX_CAGE and len(set(digits)) == len(digits):
            out.append((a, b))
    rng.shuffle(out)
    return out


# -- rating ------------------------------------------------------------------------------


def rate_variant(
    grid: str | Sequence[Sequence[int | None]],
    *,
    box: tuple[int, int] | None = None,
    regions: object = None,
    diagonals: bool = False,
    cages: object = None,
) -> Rating:
    """The :class:`~.rating.Rating` of a variant with exactly one solution.  Without
    cages: the units engine's proof tree (naked and hidden singles and locked
    candidates at every node, the regions and diagonals as units), on the scale of plain
    sudoku.  With cages (9x9 at most): the kakuro engine's tree (every unit and cage
    kept arc consistent at every node), digits tried smallest first; ``dead_ends``
    counted as :func:`.rating.walk` counts them.

    >>> k = generate_variant((2, 3), seed=3, variant_name="killer")
    >>> rate_variant(str(k), cages=k.cages)
    Rating(score=1.58, level='medium', nodes=3, dead_ends=1, complete=True)

    Raises
    ------
    SudokuError
        If the grid or rules are malformed, or the puzzle has no solution or two.
    """
    rows = parse(grid)
    n = len(rows)
    if n > len(SYMBOLS):
        raise SudokuError(
            f"{article(n)} {n}x{n} grid is larger than the {len(SYMBOLS)}x{len(SYMBOLS)} rated"
        )
    rules = variant(n, box=box, regions=regions, diagonals=diagonals, cages=cages)
    givens_clash(rows, rules)
    flat = [v for row in rows for v in row]
    if rules.cages:
        if n > 9:
            raise SudokuError(f"killer ratings are for grids up to 9x9; this one is {n}x{n}")
        # A given is a run of one cell beside the cages (a cell may lie in many runs).
        fixed: list[Cage] = [(v, ((c // n, c % n),)) for c, v in enumerate(flat) if v]
        engine = killer_engine(rules, list(rules.cages) + fixed, ())
        found, dead_ends = walk(engine, 2)
        nodes = engine.nodes
    else:
        module = _native.load("lazysearch.puzzles._units")
        units = module.UnitsEngine(n, n * n, unit_cells(rules))
        found = units.count(flat, 2)
        nodes, dead_ends = units.nodes, units.dead_ends
    if found != 1:
        many = "none" if not found else "two or more"
        raise SudokuError(f"a rating is for a puzzle with one solution; this one has {many}")
    return rating(nodes, dead_ends)
