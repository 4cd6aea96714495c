"""Polyomino tilings as exact cover: every piece once, every cell of the board once.

>>> from lazysearch import polyomino
>>> tilings = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES)
>>> tilings.count()
8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from .. import _native
from ..exactcover.problem import ExactCover
from ..search import Search, fingerprint
from ..stream import Solutions

if TYPE_CHECKING:
    from ..exactcover.memo import MemoCover
    from ..exactcover.problem import DLXProblem
    from ..search import Engine

Cell = tuple[int, int]


class Piece(NamedTuple):
    """A polyomino: a name and its cells, normalized to touch row 0 and column 0."""

    name: str
    cells: frozenset[Cell]

    def orientations(self, *, rotate: bool = True, reflect: bool = True) -> list[frozenset[Cell]]:
        """The distinct shapes of this piece under the allowed rotations and reflections,
        in a fixed order (the piece as drawn first)."""
        shapes: dict[frozenset[Cell], None] = {}
        for t in _transforms(rotate, reflect):
            shapes.setdefault(_normalized({t(r, c) for r, c in self.cells}), None)
        return list(shapes)


def _transforms(rotate: bool, reflect: bool) -> list[Callable[[int, int], Cell]]:
    out: list[Callable[[int, int], Cell]] = [lambda r, c: (r, c)]
    if rotate:
        out += [lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r)]
    if reflect:
        out += [lambda r, c: (r, -c)]
        if rotate:
            out += [lambda r, c: (c, r), lambda r, c: (-r, c), lambda r, c: (-c, -r)]
    return out


def _normalized(cells: Iterable[Cell]) -> frozenset[Cell]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _picture_cells(picture: str) -> list[Cell]:
    lines = picture.strip("\n").splitlines()
    return [(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch not in " ."]


def piece(name: str, picture: str) -> Piece:
    """A piece from an ASCII picture: ``.`` and spaces are empty, anything else a cell.

    >>> piece("T", '''
    ... ###
    ... .#.
    ... ''').cells == {(0, 0), (0, 1), (0, 2), (1, 1)}
    True
    """
    cells = _picture_cells(picture)
    if not cells:
        raise ValueError(f"piece {name!r} has no cells in its picture")
    if not _connected(set(cells)):
        raise ValueError(f"piece {name!r} is not connected")
    return Piece(name, _normalized(cells))


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _pieces(pictures: Mapping[str, str]) -> dict[str, Piece]:
    return {name: piece(name, pic) for name, pic in pictures.items()}


#: The 12 pentominoes with their usual letter names (Golomb's, as in Conway's puzzles).
PENTOMINOES: dict[str, Piece] = _pieces(
    {
        "F": ".##\n##.\n.#.",
        "I": "#####",
        "L": "####\n#...",
        "N": "###.\n..##",
        "P": "##\n##\n#.",
        "T": "###\n.#.\n.#.",
        "U": "#.#\n###",
        "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##",
        "X": ".#.\n###\n.#.",
        "Y": "####\n.#..",
        "Z": "##.\n.#.\n.##",
    }
)

#: The 5 free tetrominoes.
TETROMINOES: dict[str, Piece] = _pieces(
    {"I": "####", "O": "##\n##", "T": "###\n.#.", "S": ".##\n##.", "L": "###\n#.."}
)


def free_polyominoes(size: int) -> list[frozenset[Cell]]:
    """Every free polyomino of ``size`` cells (one shape per class under rotation and
    reflection), in a fixed order: grown cell by cell, each class kept by its least form.
    """
    if size < 1:
        raise ValueError(f"free_polyominoes() needs size >= 1, got {size}")
    shapes: set[frozenset[Cell]] = {frozenset({(0, 0)})}
    for _ in range(size - 1):
        grown: set[frozenset[Cell]] = set()
        for shape in shapes:
            for r, c in shape:
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n not in shape:
                        grown.add(_canonical(shape | {n}))
        shapes = grown
    return sorted(shapes, key=lambda s: sorted(s))


def _canonical(cells: frozenset[Cell]) -> frozenset[Cell]:
    forms = Piece("", _normalized(cells)).orientations()
    return min(forms, key=lambda s: sorted(s))


_hexominoes: dict[str, Piece] = {}


def __getattr__(name: str) -> dict[str, Piece]:
    """``HEXOMINOES``: the 35 free hexominoes, named H01..H35 in the order of
    :func:`free_polyominoes`; generated on first use, so that importing costs nothing."""
    if name == "HEXOMINOES":
        if not _hexominoes:
            for k, shape in enumerate(free_polyominoes(6), start=1):
                _hexominoes[f"H{k:02d}"] = Piece(f"H{k:02d}", shape)
        return _hexominoes
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Board(NamedTuple):
    """A set of cells to be tiled, with the size of the rectangle that frames it."""

    rows: int
    cols: int
    cells: frozenset[Cell]


def rectangle(rows: int, cols: int) -> Board:
    """The ``rows x cols`` rectangle."""
    if rows < 1 or cols < 1:
        raise ValueError(f"rectangle() needs sides >= 1, got {rows}x{cols}")
    return Board(rows, cols, frozenset((r, c) for r in range(rows) for c in range(cols)))


def board(picture: str) -> Board:
    """A board from an ASCII picture: ``.`` and spaces are holes, anything else a cell.

    >>> b = board('''
    ... ###
    ... #.#
    ... ###
    ... ''')
    >>> b.rows, b.cols, len(b.cells)
    (3, 3, 8)
    """
    lines = picture.strip("\n").splitlines()
    cells = frozenset(_picture_cells(picture))
    if not cells:
        raise ValueError("the board picture has no cells")
    return Board(len(lines), max(len(line) for line in lines), cells)


class Tiling(NamedTuple):
    """A tiling: which piece covers each cell."""

    board: Board
    pieces: tuple[tuple[str, frozenset[Cell]], ...]

    def grid(self) -> list[list[str | None]]:
        """Rows of piece names (``None`` for holes)."""
        out: list[list[str | None]] = [[None] * self.board.cols for _ in range(self.board.rows)]
        for name, cells in self.pieces:
            for r, c in cells:
                out[r][c] = name
        return out

    def __str__(self) -> str:
        return "\n".join("".join((n or ".")[0] for n in row) for row in self.grid())

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture: pieces coloured and named, borders between pieces."""
        from ..render.svg import tiling

        return tiling(self, square=square)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()


def board_symmetries(board: Board) -> list[Callable[[int, int], Cell]]:
    """The rotations and reflections of the board's cells that map them onto themselves
    (the identity first).

    They are taken about the cells' own bounding box, not the frame the board was drawn
    in: a blank margin or an offset changes nothing.

    >>> framed = board(".####\\n.####")
    >>> len(board_symmetries(framed)), len(board_symmetries(rectangle(2, 4)))
    (4, 4)
    """
    r0 = min(r for r, _ in board.cells)
    c0 = min(c for _, c in board.cells)
    h = max(r for r, _ in board.cells) - r0
    w = max(c for _, c in board.cells) - c0
    # Each map sends the box [r0, r0 + h] x [c0, c0 + w] onto itself (or, for the four
    # that swap the axes, onto its transpose, which is the same box when h == w).
    maps: list[Callable[[int, int], Cell]] = [
        lambda r, c: (r, c),
        lambda r, c: (2 * r0 + h - r, c),
        lambda r, c: (r, 2 * c0 + w - c),
        lambda r, c: (2 * r0 + h - r, 2 * c0 + w - c),
    ]
    if h == w:
        maps += [
            lambda r, c: (r0 + c - c0, c0 + r - r0),
            lambda r, c: (r0 + w - (c - c0), c0 + r - r0),
            lambda r, c: (r0 + c - c0, c0 + h - (r - r0)),
            lambda r, c: (r0 + w - (c - c0), c0 + h - (r - r0)),
        ]
    return [g for g in maps if {g(r, c) for r, c in board.cells} == board.cells]


def _placements(board: Board, piece: Piece, rotate: bool, reflect: bool) -> list[tuple[Cell, ...]]:
    out = []
    top = min(r for r, _ in board.cells)
    left = min(c for _, c in board.cells)
    bottom = max(r for r, _ in board.cells)
    right = max(c for _, c in board.cells)
    for shape in piece.orientations(rotate=rotate, reflect=reflect):
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        for r0 in range(top, bottom - height + 2):
            for c0 in range(left, right - width + 2):
                placed = tuple((r + r0, c + c0) for r, c in sorted(shape))
                if all(cell in board.cells for cell in placed):
                    out.append(placed)
    return out


def _image(g: Callable[[int, int], Cell], placed: Iterable[Cell]) -> tuple[Cell, ...]:
    return tuple(sorted(g(r, c) for r, c in placed))


class TilingCover(ExactCover):
    """The exact cover of a tiling, knowing what each option places: ``piece_of[j]``
    names the piece of option ``j`` and ``copy_of[j]`` its copy (1-based; 0 for a piece
    used any number of times, whose options name no piece item)."""

    piece_of: tuple[str, ...] = ()
    copy_of: tuple[int, ...] = ()


def _coverable(area: int, sizes: list[int]) -> bool:
    """Whether ``area`` cells are a sum of pieces of ``sizes`` (any number of each)."""
    reach = [True] + [False] * area
    for a in range(1, area + 1):
        reach[a] = any(s <= a and reach[a - s] for s in sizes)
    return reach[area]


def tiling_problem(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool = True,
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
    if not board.cells:
        raise ValueError("the board has no cells")
    outside = [(r, c) for r, c in board.cells if not (0 <= r < board.rows and 0 <= c < board.cols)]
    if outside:
        raise ValueError(
            f"board cell {min(outside)} lies outside its {board.rows}x{board.cols} frame"
        )
    names = [p.name for p in plist]
    if len(set(names)) != len(names):
        raise ValueError(f"piece names must differ, got {names}")
    counts: dict[str, int | None] = {name: 1 for name in names}
    for name, k in (copies or {}).items():
        if name not in counts:
            raise ValueError(f"copies names piece {name!r}, which is not among {names}")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
            raise ValueError(
                f"copies of {name!r} must be a whole number >= 0, got {k!r} (None: any number)"
            )
        counts[name] = k
    plist = [p for p in plist if counts[p.name] != 0]
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
    if distinct:
        placements, cuts, secondary = _symmetry_cut(board, plist, placements, rotate, reflect)
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


def _symmetry_cut(
    board: Board,
    plist: list[Piece],
    placements: dict[str, list[tuple[Cell, ...]]],
    rotate: bool,
    reflect: bool,
) -> tuple[dict[str, list[tuple[Cell, ...]]], dict[str, list[list[object]]], list[object]]:
    """Knuth's cut, so that each class of tilings under the board's symmetries is found
    once: piece ``P`` (the most symmetric) keeps one placement per orbit; where that
    placement is itself symmetric (stabilizer ``H``), a secondary item ``("cut", k)``
    in it forbids the placements of an asymmetric piece ``Q`` that are not the least of
    their ``H``-orbit.

    It is exact when no tiling is symmetric, which holds when some piece is used once
    and has no symmetry itself (it would have to map onto itself): that is checked.
    """
    group = board_symmetries(board)
    if len(group) == 1:
        return placements, {}, []
    if not (rotate and reflect):
        raise ValueError("distinct=True needs pieces free to rotate and reflect")
    shapes = [_canonical(p.cells) for p in plist]
    asymmetric = [
        p
        for p, shape in zip(plist, shapes, strict=True)
        if shapes.count(shape) == 1 and len(p.orientations()) == 8
    ]
    if not asymmetric:
        raise ValueError(
            "distinct=True needs a piece that is used once and has no symmetry of its own "
            "(so that no tiling can be symmetric)"
        )
    anchor = _anchor(plist)
    helper = asymmetric[0] if asymmetric[0] is not anchor else asymmetric[-1]
    kept: list[tuple[Cell, ...]] = []
    anchor_cuts: list[list[object]] = []
    secondary: list[object] = []
    helper_cuts: list[list[object]] = [[] for _ in placements[helper.name]]
    for placed in placements[anchor.name]:
        orbit = [_image(g, placed) for g in group]
        if min(orbit) != tuple(sorted(placed)):
            continue
        kept.append(placed)
        stabilizer = [g for g, image in zip(group, orbit, strict=True) if image == orbit[0]]
        if len(stabilizer) == 1 or helper is anchor:
            anchor_cuts.append([])
            continue
        item = ("cut", len(secondary))
        secondary.append(item)
        anchor_cuts.append([item])
        for k, q in enumerate(placements[helper.name]):
            if min(_image(h, q) for h in stabilizer) != tuple(sorted(q)):
                helper_cuts[k].append(item)
    out = dict(placements)
    out[anchor.name] = kept
    return out, {anchor.name: anchor_cuts, helper.name: helper_cuts}, secondary


def tile(
    board: Board,
    pieces: Mapping[str, Piece] | Iterable[Piece],
    *,
    rotate: bool = True,
    reflect: bool = True,
    distinct: bool = False,
    copies: Mapping[str, int | None] | None = None,
) -> Solutions[Tiling]:
    """Every tiling of ``board`` by ``pieces``, each piece used once (or ``copies[name]``
    times); with ``distinct``, one tiling per class under the board's rotations and
    reflections (by a cut in the search, not by filtering).

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
    plist = list(pieces.values()) if isinstance(pieces, Mapping) else list(pieces)
    used = [p for p in plist if (copies or {}).get(p.name, 1) != 0]
    first = _anchor(used).name if distinct and len(board_symmetries(board)) > 1 else None
    fast = BitboardTiling.of(board, problem, first)

    def decode(solution: tuple[int, ...]) -> Tiling:
        placed: list[tuple[str, frozenset[Cell]]] = []
        for j in solution:
            cells = [c for c in problem.options[j] if c in board.cells]
            placed.append((problem.piece_of[j], frozenset(cells)))
        return Tiling(board, tuple(sorted(placed, key=lambda p: (p[0], min(p[1])))))

    return Solutions(Search(fast) if fast else problem.search(), decode)


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
    ) -> None:
        self.cells = cells
        self.anchored = anchored
        self.first = first
        self.copies = copies
        self.cover = cover

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
        # Fill along the short side, so that a corner left empty is soon noticed.
        across = board.rows <= board.cols
        order = sorted(board.cells, key=lambda rc: (rc[1], rc[0]) if across else rc)
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
        return cls(
            len(order),
            tuple(map(tuple, anchored)),
            tuple(leading),
            tuple(copies),
            cover.problem,
        )

    def engine(self) -> Engine:
        module = _native.load("lazysearch.puzzles._tiling")
        engine: Engine = module.TilingEngine(self.cells, self.anchored, self.first, self.copies)
        return engine

    def fingerprint(self) -> str:
        return fingerprint((self.cells, self.anchored, self.first, self.copies))
