"""Polyomino tilings as exact cover: every piece once, every cell of the board once.

>>> from lazysearch import polyomino
>>> tilings = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES)
>>> tilings.count()
8
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..engine import _native
from ..exactcover.problem import ExactCover
from ..search import Search, fingerprint
from ..stream import Solutions
from . import grids
from .grids import Cell, Map
from .pieces import BEDLAM as BEDLAM
from .pieces import GENERATED, canonical, generated
from .pieces import HEXIAMONDS as HEXIAMONDS
from .pieces import PENTOMINOES as PENTOMINOES
from .pieces import SOMA as SOMA
from .pieces import TETRAHEXES as TETRAHEXES
from .pieces import TETROMINOES as TETROMINOES
from .pieces import Piece as Piece
from .pieces import free_polyforms as free_polyforms
from .pieces import free_polyominoes as free_polyominoes
from .pieces import piece as piece
from .pieces import solid as solid

if TYPE_CHECKING:
    from ..exactcover.memo import MemoCover
    from ..exactcover.problem import DLXProblem
    from ..search import Engine


def __getattr__(name: str) -> dict[str, Piece]:
    """``HEXOMINOES`` and ``PENTACUBES``: the piece sets :func:`.pieces.generated` makes
    on first use, so that importing costs nothing."""
    if name in GENERATED:
        return generated(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Board(NamedTuple):
    """A set of cells to be tiled, with the size of the frame that holds it: ``rows x
    cols`` (and ``layers`` of them for cubes), on a grid (see :mod:`.grids`)."""

    rows: int
    cols: int
    cells: frozenset[Cell]
    grid: str = "square"
    layers: int = 1

    def __repr__(self) -> str:
        """The cells in order, the first few of a large board:
        ``Board(rows=8, cols=8, cells=<64 cells: (0, 0), (0, 1), ..., (7, 7)>)``."""
        cells = sorted(self.cells)
        if len(cells) <= 12:
            shown = f"frozenset({{{', '.join(map(repr, cells))}}})" if cells else "frozenset()"
        else:
            head = ", ".join(map(repr, cells[:3]))
            shown = f"<{len(cells)} cells: {head}, ..., {cells[-1]!r}>"
        grid = "" if self.grid == "square" else f", grid={self.grid!r}"
        layers = "" if self.layers == 1 else f", layers={self.layers}"
        return f"Board(rows={self.rows}, cols={self.cols}, cells={shown}{grid}{layers})"

    @property
    def frame(self) -> Cell:
        """``(rows, cols)``, or ``(layers, rows, cols)`` for cubes."""
        if self.grid == "cube":
            return (self.layers, self.rows, self.cols)
        return (self.rows, self.cols)

    def draw(self) -> str:
        """The board as a picture of its grid: ``#`` for its cells, ``.`` for holes."""
        return _draw(self, {x: "#" for x in self.cells})


def rectangle(rows: int, cols: int) -> Board:
    """The ``rows x cols`` rectangle."""
    if rows < 1 or cols < 1:
        raise ValueError(f"rectangle() needs sides >= 1, got {rows}x{cols}")
    return Board(rows, cols, frozenset((r, c) for r in range(rows) for c in range(cols)))


def box(x: int, y: int, z: int) -> Board:
    """The ``x`` by ``y`` by ``z`` box of cubes: ``z`` layers of ``y`` rows of ``x``.

    >>> b = box(3, 4, 5)
    >>> b.layers, b.rows, b.cols, len(b.cells)
    (5, 4, 3, 60)
    """
    for side in (x, y, z):
        if isinstance(side, bool) or not isinstance(side, int) or side < 1:
            raise ValueError(f"box() needs whole sides >= 1, got {x!r}x{y!r}x{z!r}")
    cells = frozenset((k, j, i) for k in range(z) for j in range(y) for i in range(x))
    return Board(y, x, cells, "cube", z)


def parallelogram(rows: int, cols: int, grid: str) -> Board:
    """A parallelogram of ``rows`` rows, ``cols`` units long, on the ``triangle`` grid
    (``2 * cols`` triangles a row) or the ``hex`` grid (``cols`` hexagons a row), each
    row half a unit along from the one above, so that the sides meet at 60 degrees.

    >>> print(parallelogram(2, 3, "triangle").draw())
    ..######
    .######.
    >>> print(parallelogram(3, 3, "hex").draw())
    # # # .
     # # #
    . # # #
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"parallelogram() needs sides >= 1, got {rows}x{cols}")
    if grid == "triangle":
        # Row r starts with a triangle pointing up (r + col even), half a unit left of
        # the row above.
        first = rows - 1 + (rows - 1) % 2
        cells = frozenset((r, first - r + k) for r in range(rows) for k in range(2 * cols))
        return Board(rows, first + 2 * cols, cells, "triangle")
    if grid == "hex":
        cells = frozenset((r, r + 2 * k) for r in range(rows) for k in range(cols))
        return Board(rows, rows + 2 * cols - 2, cells, "hex")
    raise ValueError(f"parallelogram() draws on the triangle or hex grid, got {grid!r}")


def board(picture: str | Sequence[str], grid: str = "square") -> Board:
    """A board from an ASCII picture: ``.`` and spaces are holes, anything else a cell.

    >>> b = board('''
    ... ###
    ... #.#
    ... ###
    ... ''')
    >>> b.rows, b.cols, len(b.cells)
    (3, 3, 8)

    On another grid the picture is read as :func:`piece` reads one.
    """
    g = grids.grid(grid)
    cells, frame = g.cells_of(picture, "the board picture")
    if not cells:
        raise ValueError("the board picture has no cells")
    if g.name == "cube":
        return Board(frame[1], frame[2], frozenset(cells), "cube", frame[0])
    return Board(frame[0], frame[1], frozenset(cells), g.name)


def _draw(b: Board, letters: dict[Cell, str]) -> str:
    return grids.grid(b.grid).draw(letters, b.frame)


class Tiling(NamedTuple):
    """A tiling: which piece covers each cell."""

    board: Board
    pieces: tuple[tuple[str, frozenset[Cell]], ...]

    def grid(self) -> list[list[str | None]]:
        """Rows of piece names (``None`` for holes); on the cube grid, the layers side
        by side (see :meth:`layers`)."""
        if self.board.grid == "cube":
            rows: list[list[str | None]] = [[] for _ in range(self.board.rows)]
            for z, layer in enumerate(self.layers()):
                for r, row in enumerate(layer):
                    rows[r] += ([None] if z else []) + row
            return rows
        out: list[list[str | None]] = [[None] * self.board.cols for _ in range(self.board.rows)]
        for name, cells in self.pieces:
            for r, c in cells:
                out[r][c] = name
        return out

    def layers(self) -> list[list[list[str | None]]]:
        """For a polycube tiling: each layer's rows of piece names (``None`` for holes)."""
        b = self.board
        layered: list[list[list[str | None]]] = [
            [[None] * b.cols for _ in range(b.rows)] for _ in range(b.layers)
        ]
        for name, cells in self.pieces:
            for cell in cells:
                z, r, c = cell if len(cell) == 3 else (0, *cell)
                layered[z][r][c] = name
        return layered

    def __str__(self) -> str:
        if self.board.grid == "square":
            return "\n".join("".join((n or ".")[0] for n in row) for row in self.grid())
        # One character a piece: its name's first, or (where two names share it, as
        # PENTACUBES' C01..C29 do) letters and digits in the order of the names.
        names = sorted({name for name, _ in self.pieces})
        mark = {name: name[0] for name in names}
        if len(set(mark.values())) < len(names):
            symbols = string.ascii_uppercase + string.ascii_lowercase + string.digits
            mark = {name: symbols[k % len(symbols)] for k, name in enumerate(names)}
        letters = {cell: mark[name] for name, cells in self.pieces for cell in cells}
        return _draw(self.board, letters)

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture: pieces coloured and named, borders between pieces (on the
        cube grid, the layers side by side)."""
        from ..render.svg import polyform_tiling, tiling

        if self.board.grid != "square":
            return polyform_tiling(self, size=square)
        return tiling(self, square=square)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()


def board_symmetries(board: Board) -> list[Callable[..., Cell]]:
    """The rotations and reflections of the board's cells that map them onto themselves
    (the identity first), on the board's grid.

    They are taken about the cells' own bounding box, not the frame the board was drawn
    in: a blank margin or an offset changes nothing.

    >>> framed = board(".####\\n.####")
    >>> len(board_symmetries(framed)), len(board_symmetries(rectangle(2, 4)))
    (4, 4)
    >>> len(board_symmetries(box(3, 3, 3))), len(board_symmetries(box(2, 3, 4)))
    (48, 8)
    """
    g = grids.grid(board.grid)
    low = min(board.cells)
    out: list[Callable[..., Cell]] = []
    for m in g.maps():
        image = [m(x) for x in board.cells]
        # The translation that brings the image's least cell onto the board's (one of
        # the grid's: a triangle pointing up stays up).
        shift = tuple(p - q for p, q in zip(low, min(image), strict=True))
        if (
            g.moves(min(image), low)
            and {tuple(p + d for p, d in zip(x, shift, strict=True)) for x in image} == board.cells
        ):
            out.append(_moved(m, shift))
    return out


def _moved(m: Map, shift: Cell) -> Callable[..., Cell]:
    """``m`` then a translation by ``shift``; takes a cell, or its coordinates apart
    (``g(r, c)``, as before there were other grids)."""

    if len(shift) == 2:
        dr, dc = shift

        def flat(*x: object) -> Cell:
            r, c = m(x[0] if len(x) == 1 else x)  # type: ignore[arg-type]
            return (r + dr, c + dc)

        return flat
    dz, dr, dc = shift

    def solid(*x: object) -> Cell:
        z, r, c = m(x[0] if len(x) == 1 else x)  # type: ignore[arg-type]
        return (z + dz, r + dr, c + dc)

    return solid


def _placements(board: Board, piece: Piece, rotate: bool, reflect: bool) -> list[tuple[Cell, ...]]:
    """Each orientation moved onto the board every way it fits, orientation by
    orientation, in reading order of where its least cell lands."""
    g = grids.grid(board.grid)
    out = []
    targets = sorted(board.cells)
    for shape in piece.orientations(rotate=rotate, reflect=reflect):
        cells = sorted(shape)
        first = cells[0]
        for b in targets:
            if not g.moves(first, b):
                continue
            placed = tuple(
                tuple(p + q - f for p, q, f in zip(x, b, first, strict=True)) for x in cells
            )
            if all(cell in board.cells for cell in placed):
                out.append(placed)
    return out


def _image(g: Map, placed: Iterable[Cell]) -> tuple[Cell, ...]:
    return tuple(sorted(g(x) for x in placed))


class TilingCover(ExactCover):
    """The exact cover of a tiling, knowing what each option places: ``piece_of[j]``
    names the piece of option ``j`` and ``copy_of[j]`` its copy (1-based; 0 for a piece
    used any number of times, whose options name no piece item)."""

    piece_of: tuple[str, ...] = ()
    copy_of: tuple[int, ...] = ()
    #: With ``distinct``: the piece the symmetry cut thinned out (placed first), or None.
    anchor: str | None = None
    #: With ``distinct``: for an option ``j`` of the anchor whose tilings the cut leaves
    #: more than one of in a class, the symmetries (with the piece renaming) under which
    #: a tiling must be the least of its images; key -1: every tiling (no anchor).
    checks: dict[int, list[tuple[Map, dict[str, str]]]] = {}  # noqa: RUF012


def _coverable(area: int, sizes: list[int]) -> bool:
    """Whether ``area`` cells are a sum of pieces of ``sizes`` (any number of each)."""
    reach = [True] + [False] * area
    for a in range(1, area + 1):
        reach[a] = any(s <= a and reach[a - s] for s in sizes)
    return reach[area]


def _copy_counts(
    names: list[str], copies: Mapping[str, int | None] | None
) -> dict[str, int | None]:
    """How many copies of each piece a tiling uses (1 unless ``copies`` says; None: any
    number), ``copies`` checked."""
    counts: dict[str, int | None] = {name: 1 for name in names}
    for name, k in (copies or {}).items():
        if name not in counts:
            raise ValueError(f"copies names piece {name!r}, which is not among {names}")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
            raise ValueError(
                f"copies of {name!r} must be a whole number >= 0, got {k!r} (None: any number)"
            )
        counts[name] = k
    return counts


def _unbind(
    board: Board, plist: list[Piece], counts: dict[str, int | None], distinct: bool
) -> None:
    """A bound that cannot bind is none: one piece that fills the board alone uses
    ``cells / size`` copies whatever ``copies`` says, so it may be used any number of
    times.  The tilings are the same; the memo then keys on the cells alone, not on
    copies told apart (8x8 dominoes: 2 ms, where 32 copies gave up after 4 M
    subproblems), and the bitboard engine, which counts copies anyway, is unchanged."""
    if len(plist) != 1 or distinct:
        return
    only = plist[0]
    k = counts[only.name]
    if k is not None and k > 1 and k * len(only.cells) == len(board.cells):
        counts[only.name] = None


def tiling_problem(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool | None = None,
    distinct: bool = False,
    copies: Mapping[str, int | None] | None = None,
) -> TilingCover:
    """The exact cover of a tiling: items are the board's cells (in reading order) and
    the pieces (one per copy); an option is one placement of one copy of a piece.

    The cells come first, so that when a cell and a piece have equally few options left
    the search branches on the cell (which piece covers it): 4-6% fewer nodes than the
    other way round on the pentomino rectangles 6x10, 5x12, 4x15 and 3x20.

    Every cell must be covered and every copy used, so the pieces' areas (times their
    copies) must add up to the board's.  Copies of one piece are told apart by the
    order cut described in :func:`_copy_order`, so each tiling is found once.

    A piece with ``copies`` ``None`` may be used any number of times: its options are
    its placements' cells alone (no piece item, no order cut), and the area check asks
    only that some number of such pieces fill what the others leave.  Such a tiling
    counts by memo (``count()`` chooses it): its subproblems are the ragged frontiers
    of a sweep over the board, and recur.
    """
    plist = list(pieces.values()) if isinstance(pieces, Mapping) else list(pieces)
    if reflect is None:  # a solid piece cannot be turned over into its mirror image
        reflect = board.grid != "cube"
    if not board.cells:
        raise ValueError("the board has no cells")
    frame = board.frame
    outside = [x for x in board.cells if not all(0 <= v < n for v, n in zip(x, frame, strict=True))]
    if outside:
        raise ValueError(
            f"board cell {min(outside)} lies outside its {'x'.join(map(str, frame))} frame"
        )
    for p in plist:
        if p.grid != board.grid:
            raise ValueError(
                f"piece {p.name!r} is on the {p.grid} grid and the board on the {board.grid} "
                "grid: pieces and board must share one grid"
            )
    names = [p.name for p in plist]
    if len(set(names)) != len(names):
        raise ValueError(f"piece names must differ, got {names}")
    counts = _copy_counts(names, copies)
    plist = [p for p in plist if counts[p.name] != 0]
    _unbind(board, plist, counts, distinct)
    bounded = [p for p in plist if counts[p.name] is not None]
    sizes = sorted({len(p.cells) for p in plist if counts[p.name] is None})
    area = sum(len(p.cells) * (counts[p.name] or 0) for p in bounded)
    if not sizes and area != len(board.cells):
        raise ValueError(f"the pieces cover {area} cells but the board has {len(board.cells)}")
    if sizes and (area > len(board.cells) or not _coverable(len(board.cells) - area, sizes)):
        raise ValueError(
            f"the pieces used a fixed number of times cover {area} cells of the board's "
            f"{len(board.cells)}, and no number of pieces of sizes {sizes} covers the "
            f"{len(board.cells) - area} left"
        )
    if distinct and any(k is None or k > 1 for k in counts.values()):
        raise ValueError("distinct=True needs every piece used once (copies > 1 given)")
    cells = sorted(board.cells)
    placements = {p.name: _placements(board, p, rotate, reflect) for p in plist}
    cuts: dict[str, list[list[object]]] = {}
    secondary: list[object] = []
    anchor: str | None = None
    checks: dict[tuple[Cell, ...], list[tuple[Map, dict[str, str]]]] = {}
    if distinct:
        placements, cuts, secondary, anchor, checks = _symmetry_cut(
            board, plist, placements, rotate, reflect
        )
    options: list[list[object]] = []
    primary: list[object] = []
    piece_of: list[str] = []
    copy_of: list[int] = []
    for p in plist:
        k = counts[p.name]
        if k is None:
            for placed in placements[p.name]:
                options.append(list(placed))
                piece_of.append(p.name)
                copy_of.append(0)
            continue
        labels: list[object] = [p.name] if k == 1 else [(p.name, j) for j in range(1, k + 1)]
        primary.extend(labels)
        for j, label in enumerate(labels):
            order, items = _copy_order(p.name, j, k, cells)
            secondary.extend(items)
            for i, placed in enumerate(placements[p.name]):
                extra = cuts[p.name][i] if p.name in cuts else []
                options.append([label, *placed, *extra, *order(placed)])
                piece_of.append(p.name)
                copy_of.append(j + 1)
    cover = TilingCover(options, primary=[*cells, *primary], secondary=secondary)
    cover.piece_of = tuple(piece_of)
    cover.copy_of = tuple(copy_of)
    cover.anchor = anchor
    cover.checks = {}
    if () in checks:
        cover.checks[-1] = checks[()]
    for j, option in enumerate(options):
        if piece_of[j] == anchor and checks:
            key = tuple(x for x in option if x in board.cells)
            if key in checks:
                cover.checks[j] = checks[key]
    # The memo count sweeps the cells along the board's short side, then the pieces.
    across = board.cols <= board.rows
    sweep = sorted(range(len(cells)), key=lambda i: cells[i] if across else cells[i][::-1])
    cover.problem.memo_order = (
        *(i + 1 for i in sweep),
        *range(len(cells) + 1, cover.problem.primary + 1),
    )
    cover.problem.memo_likely = bool(sizes)
    return cover


def _copy_order(
    name: str, j: int, k: int, cells: list[Cell]
) -> tuple[Callable[[tuple[Cell, ...]], list[object]], list[object]]:
    """The cut that makes copy ``j`` of ``k`` come before copy ``j + 1`` (its first cell
    in reading order earlier on the board), so that swapping copies is not a new tiling.

    Copy ``j`` at first cell ``a`` takes the secondary items ``(name, j, x)`` for every
    cell ``x`` up to ``a``; copy ``j + 1`` at first cell ``b`` takes them for every ``x``
    from ``b`` on.  The two clash exactly when ``b <= a``.  Returns a function giving a
    placement's items for copy ``j``, and the items copy ``j`` introduces.
    """
    index = {cell: i for i, cell in enumerate(cells)}

    def order(placed: tuple[Cell, ...]) -> list[object]:
        a = min(index[c] for c in placed)
        out: list[object] = []
        if j + 1 < k:  # before the next copy
            out += [("copy", name, j, x) for x in range(a + 1)]
        if j > 0:  # after the previous copy
            out += [("copy", name, j - 1, x) for x in range(a, len(cells))]
        return out

    items: list[object] = [("copy", name, j, x) for x in range(len(cells))] if j + 1 < k else []
    return order, items


def _anchor(plist: list[Piece]) -> Piece:
    """The piece whose placements the symmetry cut thins out: the most symmetric."""
    return min(plist, key=lambda p: (len(p.orientations()), p.name))


def problem_symmetries(
    board: Board, plist: list[Piece], rotate: bool = True, reflect: bool = True
) -> list[tuple[Map, dict[str, str]]]:
    """The board's symmetries that map every tiling onto a tiling, each with the piece
    renaming it makes (the identity first).

    With pieces free to turn over, that is every symmetry of the board, renaming
    nothing.  With one-sided pieces (``reflect=False``) a reflection turns each piece
    into its mirror image: it counts when the mirror image of every piece is one piece
    of the set (the Soma cube's two screws swap), and is left out otherwise.
    """
    group = board_symmetries(board)
    g = grids.grid(board.grid)
    forms = {p.name: frozenset(p.orientations(rotate=rotate, reflect=reflect)) for p in plist}
    owners: dict[frozenset[frozenset[Cell]], list[str]] = {}
    for name, f in forms.items():
        owners.setdefault(f, []).append(name)
    out: list[tuple[Map, dict[str, str]]] = []
    first = {name: next(iter(f)) for name, f in forms.items()}
    for m in group:
        rename: dict[str, str] = {}
        for name, f in forms.items():
            if rotate:
                # The rotations are a normal subgroup: m maps the orbit of one shape onto
                # the orbit of its image, so where that image lies decides.
                one = g.normalized(m(x) for x in first[name])
                image = next((h for h in owners if one in h), frozenset({one}))
            else:
                image = frozenset(g.normalized(m(x) for x in shape) for shape in f)
            if image == f:
                rename[name] = name
            elif len(owners.get(image, [])) == 1:
                rename[name] = owners[image][0]
            else:
                break
        else:
            out.append((m, rename))
    return out


def _key(pieces: Iterable[tuple[str, Iterable[Cell]]]) -> tuple[tuple[str, tuple[Cell, ...]], ...]:
    return tuple(sorted((name, tuple(sorted(cells))) for name, cells in pieces))


def least_image(t: Tiling, symmetries: list[tuple[Map, dict[str, str]]]) -> bool:
    """Whether tiling ``t`` is the least of its images under ``symmetries`` (each
    with its piece renaming), comparing pieces by name and cells."""
    mine = _key(t.pieces)
    for m, rename in symmetries:
        image = _key((rename[name], [m(x) for x in cells]) for name, cells in t.pieces)
        if image < mine:
            return False
    return True


def _symmetry_cut(
    board: Board,
    plist: list[Piece],
    placements: dict[str, list[tuple[Cell, ...]]],
    rotate: bool,
    reflect: bool,
) -> tuple[
    dict[str, list[tuple[Cell, ...]]],
    dict[str, list[list[object]]],
    list[object],
    str | None,
    dict[tuple[Cell, ...], list[tuple[Map, dict[str, str]]]],
]:
    """Knuth's cut, so that each class of tilings under the problem's symmetries (see
    :func:`problem_symmetries`) is found once.

    Piece ``P`` (the most symmetric of those every symmetry maps to themselves) keeps
    one placement per orbit.  Where that placement is itself symmetric (stabilizer
    ``H``), a helper piece ``Q`` that ``H`` maps to itself and none of whose placements
    ``H`` fixes takes a secondary item ``("cut", k)`` in the placements that are not the
    least of their ``H``-orbit, clashing with ``P`` there: exactly one tiling of each
    class is left, and no tiling can be symmetric (its symmetry would fix ``Q``).

    Where no helper qualifies (one-sided pieces whose mirror images swap, pieces that
    all have symmetries of their own, tilings that may be symmetric), the tilings with
    ``P`` there are checked instead as they are found: a tiling is kept when it is the
    least of its images under ``H`` (returned as ``checks``, by the placement).  With
    no such ``P`` at all, every tiling is checked under every symmetry (key ``()``).

    Returns the placements kept, the cut items each placement takes, the secondary
    items, the anchor's name and the checks.
    """
    symmetries = problem_symmetries(board, plist, rotate, reflect)
    if len(symmetries) == 1:
        return placements, {}, [], None, {}
    fixed = [p for p in plist if all(rename[p.name] == p.name for _, rename in symmetries)]
    if not fixed:
        return placements, {}, [], None, {(): symmetries[1:]}
    shapes = [canonical(p.cells, p.grid) for p in plist]
    full = len(grids.grid(board.grid).maps())
    # Knuth's helper for the free case: a piece used once with no symmetry of its own.
    asymmetric = [
        p
        for p, shape in zip(plist, shapes, strict=True)
        if shapes.count(shape) == 1 and len(p.orientations()) == full
    ]
    anchor = _anchor(fixed)
    preferred = [q for q in asymmetric if q is not anchor]
    if asymmetric and asymmetric[0] is anchor:
        preferred = preferred[::-1]  # as before: the last asymmetric piece
    candidates = preferred + [q for q in plist if q is not anchor and q not in preferred]
    kept: list[tuple[Cell, ...]] = []
    anchor_cuts: list[list[object]] = []
    secondary: list[object] = []
    helper_cuts: dict[str, list[list[object]]] = {}
    checks: dict[tuple[Cell, ...], list[tuple[Map, dict[str, str]]]] = {}
    helpers: dict[tuple[int, ...], Piece | None] = {}  # by stabilizer
    for placed in placements[anchor.name]:
        orbit = [_image(m, placed) for m, _ in symmetries]
        if min(orbit) != tuple(sorted(placed)):
            continue
        kept.append(placed)
        stabilizer = [
            sym for sym, image in zip(symmetries, orbit, strict=True) if image == orbit[0]
        ]
        if len(stabilizer) == 1:
            anchor_cuts.append([])
            continue
        key = tuple(k for k, image in enumerate(orbit) if image == orbit[0])
        if key not in helpers:
            helpers[key] = next(
                (
                    q
                    for q in candidates
                    if all(rename[q.name] == q.name for _, rename in stabilizer)
                    and not any(
                        _image(m, spot) == spot
                        for spot in placements[q.name]
                        for m, _ in stabilizer[1:]
                    )
                ),
                None,
            )
        helper = helpers[key]
        if helper is None:
            checks[tuple(sorted(placed))] = stabilizer[1:]
            anchor_cuts.append([])
            continue
        item = ("cut", len(secondary))
        secondary.append(item)
        anchor_cuts.append([item])
        spots = helper_cuts.setdefault(helper.name, [[] for _ in placements[helper.name]])
        for k, q in enumerate(placements[helper.name]):
            if min(_image(m, q) for m, _ in stabilizer) != tuple(sorted(q)):
                spots[k].append(item)
    out = dict(placements)
    out[anchor.name] = kept
    return out, {anchor.name: anchor_cuts, **helper_cuts}, secondary, anchor.name, checks


def tile(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool | None = None,
    distinct: bool = False,
    copies: Mapping[str, int | None] | None = None,
) -> Solutions[Tiling]:
    """Every tiling of ``board`` by ``pieces``, each piece used once (or ``copies[name]``
    times); with ``distinct``, one tiling per class under the board's rotations and
    reflections (by a cut in the search, not by filtering).

    Pieces turn (``rotate``) and, on a flat board, turn over into their mirror images
    (``reflect``).  A solid piece cannot be mirrored, so on a box (``grid="cube"``)
    ``reflect`` defaults to False: the 240 Soma cubes, as the published count has it.

    >>> tile(box(3, 3, 3), SOMA, distinct=True).count()
    240

    >>> t = tile(rectangle(6, 10), PENTOMINOES).first()
    >>> print(t)
    FIIIIIZUUU
    FFFYZZZUXU
    LFYYZNWXXX
    LPPYTNWWXV
    LPPYTNNWWV
    LLPTTTNVVV

    Copies of a piece are interchangeable: swapping two of them is the same tiling, and
    it is found once (36 ways to tile 4x4 with dominoes).

    >>> domino = piece("D", "DD")
    >>> tile(rectangle(4, 4), [domino], copies={"D": 8}).count()
    36

    With copies ``None`` a piece is used any number of times, as the published tables
    of rectangle tilings count; such counts go by memo (see :meth:`Solutions.count`):

    >>> tile(rectangle(12, 12), [domino], copies={"D": None}).count()
    53060477521960000
    """
    problem = tiling_problem(
        board, pieces, rotate=rotate, reflect=reflect, distinct=distinct, copies=copies
    )
    # The piece the symmetry cut thinned out goes first (distinct=True allows no copies,
    # but a piece may be left out with copies 0).
    fast = BitboardTiling.of(board, problem, problem.anchor)
    if fast is not None and _tall_on_squares(board, fast):
        fast = None

    def decode(solution: tuple[int, ...]) -> Tiling:
        placed: list[tuple[str, frozenset[Cell]]] = []
        for j in solution:
            cells = [c for c in problem.options[j] if c in board.cells]
            placed.append((problem.piece_of[j], frozenset(cells)))
        return Tiling(board, tuple(sorted(placed, key=lambda p: (p[0], min(p[1])))))

    stream = Solutions(Search(fast) if fast else problem.search(), decode)
    checks = problem.checks
    if not checks:
        return stream
    everywhere = checks.get(-1)
    anchor = problem.anchor

    def kept(t: Tiling) -> bool:
        # A tiling the cut may have found in more than one form: the least one stays.
        if everywhere is not None:
            return least_image(t, everywhere)
        cells = next(tuple(sorted(c)) for name, c in t.pieces if name == anchor)
        symmetries = spots.get(cells)
        return symmetries is None or least_image(t, symmetries)

    spots = {
        tuple(x for x in problem.options[j] if x in board.cells): sym
        for j, sym in checks.items()
        if j >= 0
    }
    return stream.filter(kept)


def _tall_on_squares(board: Board, fast: BitboardTiling) -> bool:
    """Whether ``tile`` leaves a board of the square grid to the exact cover (bitsets,
    by ``auto``) rather than the bitboard engine: 8 cells or more both ways, each piece
    once.  Filling the first empty cell column by column, the bitboard engine walks
    columns of 8 and meets a dead corner late, where the exact cover branches on the
    cell or the piece with the fewest placements (the X beside a hole).  Pentominoes,
    one run: 8x8 minus its centre 0.38 s against 0.10 s, minus a 2x2 corner 3.4 s
    against 1.4 s, 4 holes on a diagonal 0.57 s against 0.31 s (minus its corners
    3.6 s against 2.7 s, but 0.29 s against 0.37 s with ``distinct``); 6x10 and
    narrower stay (0.86 and 0.33 of the exact cover's time on 6x10, all and distinct).
    Copies stay too: the bitboard engine counts them (6x8 dominoes: 0.01 s against 3 s).
    """
    return board.grid == "square" and min(board.rows, board.cols) >= 8 and max(fast.copies) <= 1


def _fill_order(board: Board) -> list[Cell]:
    """The cells in the bitboard engine's fill order: along the short side, so that a
    corner left empty is soon noticed.  On a square board, column by column when it is
    no taller than wide; on other grids the axes go from the longest (slowest) to the
    shortest (fastest), measured on the cells (a column of triangles or hexagons is half
    a unit wide)."""
    if board.grid == "square":
        across = board.rows <= board.cols
        return sorted(board.cells, key=lambda rc: (rc[1], rc[0]) if across else rc)
    dims = len(next(iter(board.cells)))
    extent = [
        (max(x[a] for x in board.cells) - min(x[a] for x in board.cells) + 1)
        / (2 if board.grid != "cube" and a == 1 else 1)
        for a in range(dims)
    ]
    axes = sorted(range(dims), key=lambda a: (-extent[a], -a))
    return sorted(board.cells, key=lambda x: tuple(x[a] for a in axes))


class BitboardTiling:
    """A tiling problem in the form of the bitboard engine (:mod:`._tiling`): boards of
    at most 64 cells.  Built from the exact cover, whose option numbers it keeps, so a
    solution decodes the same way from either engine.

    Copies of a piece are one piece with a count here (the engine never tells copies
    apart, so it needs no order cut between them); the symmetry cut's secondary items
    become bits.
    """

    kind = "tiling"

    def __init__(
        self,
        cells: int,
        anchored: tuple[tuple[tuple[int, int, int, int], ...], ...],
        first: tuple[tuple[int, int, int, int], ...],
        copies: tuple[int, ...],
        cover: DLXProblem | None = None,
        neighbours: tuple[int, ...] = (),
        fewest: int = 0,
    ) -> None:
        self.cells = cells
        self.fewest = fewest
        self.anchored = anchored
        self.first = first
        self.copies = copies
        self.cover = cover
        self.neighbours = neighbours

    def memo_cover(self) -> MemoCover | None:
        """The exact cover this was built from, as the memo count takes it."""
        return None if self.cover is None else self.cover.memo_cover()

    @classmethod
    def of(cls, board: Board, cover: TilingCover, first: str | None) -> BitboardTiling | None:
        """The bitboard form of ``cover`` (from :func:`tiling_problem`), or None when the
        board is too big for one word.  ``first`` names a piece to place first."""
        cuts = [item for item in cover.secondary if item[0] == "cut"]  # type: ignore[index]
        if len(board.cells) > 64 or len(cuts) > 64:
            return None
        if 0 in cover.copy_of and any(cover.copy_of):
            # A full board is a tiling here, but with pieces used any number of times
            # and others a fixed number, a full board may leave a fixed piece unused.
            return None
        order = _fill_order(board)
        bit = {cell: 1 << i for i, cell in enumerate(order)}
        cut_bit = {item: 1 << i for i, item in enumerate(cuts)}
        names: dict[str, int] = {}
        copies: list[int] = []
        anchored: list[list[tuple[int, int, int, int]]] = [[] for _ in order]
        leading: list[tuple[int, int, int, int]] = []
        for j, rest in enumerate(cover.options):
            name, copy = cover.piece_of[j], cover.copy_of[j]
            if name not in names:
                names[name] = len(copies)
                copies.append(0)
            p = names[name]
            # A piece used any number of times: as many copies as could fit.
            most = len(board.cells) // sum(1 for x in rest if x in bit) if copy == 0 else copy
            copies[p] = max(copies[p], most)
            if copy > 1:
                continue  # one copy's placements stand for all
            mask = sum(bit[x] for x in rest if x in bit)
            secondary = sum(cut_bit[x] for x in rest if x in cut_bit)
            placement = (p, mask, secondary, j)
            if name == first:
                leading.append(placement)
            else:
                anchored[((mask & -mask).bit_length() - 1)].append(placement)
        # Off the square grid (polycubes above all, where a walled-in cell is common
        # and found late), the engine checks the cells around each piece it places for
        # pockets of one or two empty cells, which no piece of 3 cells or more fills.
        neighbours: tuple[int, ...] = ()
        smallest = min((sum(1 for x in rest if x in bit) for rest in cover.options), default=0)
        if board.grid != "square" and smallest >= 3:
            g = grids.grid(board.grid)
            neighbours = tuple(
                sum(bit[n] for n in g.neighbours(cell) if n in bit) for cell in order
            )
        # Off the square grid the engine branches on the empty cell with the fewest
        # placements that still fit (Bedlam cube: 16x fewer nodes, 3.3x faster); on the
        # square grid the fill order alone is faster (6x10: 2.5M nodes in half the time
        # of fewest's 0.9M).
        # (The engine gives each piece a bit of its own: no copies.)
        fewest = len(order) if board.grid != "square" and max(copies, default=0) <= 1 else 0
        return cls(
            len(order),
            tuple(map(tuple, anchored)),
            tuple(leading),
            tuple(copies),
            cover.problem,
            neighbours,
            fewest,
        )

    def engine(self) -> Engine:
        module = _native.load("lazysearch.puzzles._tiling")
        engine: Engine = module.TilingEngine(
            self.cells, self.anchored, self.first, self.copies, self.neighbours, self.fewest
        )
        return engine

    def fingerprint(self) -> str:
        if self.fewest:  # another branching rule: another tree
            return fingerprint(
                (self.cells, self.anchored, self.first, self.copies, "fewest", self.fewest)
            )
        if self.neighbours:  # the walled-in check prunes: another tree
            return fingerprint(
                (self.cells, self.anchored, self.first, self.copies, self.neighbours)
            )
        return fingerprint((self.cells, self.anchored, self.first, self.copies))
