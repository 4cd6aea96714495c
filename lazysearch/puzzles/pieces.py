"""Pieces: polyforms on any grid, drawn as ASCII pictures, and the classic sets.

>>> len(PENTOMINOES), sorted(PENTOMINOES["X"].cells)
(12, [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)])

:mod:`.polyomino` tiles boards with them and shows all of these names as its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from . import grids
from .grids import Cell


class Piece(NamedTuple):
    """A polyform: a name and its cells, normalized to touch 0 on every axis, on a grid
    (``square``, ``cube``, ``triangle`` or ``hex``; see :mod:`.grids`)."""

    name: str
    cells: frozenset[Cell]
    grid: str = "square"

    def orientations(self, *, rotate: bool = True, reflect: bool = True) -> list[frozenset[Cell]]:
        """The distinct shapes of this piece under the allowed rotations and reflections,
        in a fixed order (the piece as drawn first)."""
        g = grids.grid(self.grid)
        shapes: dict[frozenset[Cell], None] = {}
        for t in g.maps(rotate=rotate, reflect=reflect):
            shapes.setdefault(g.normalized(t(x) for x in self.cells), None)
        return list(shapes)


def _normalized(cells: Iterable[Cell]) -> frozenset[Cell]:
    return grids.grid("square").normalized(cells)


def piece(name: str, picture: str | Sequence[str], grid: str = "square") -> Piece:
    r"""A piece from an ASCII picture: ``.`` and spaces are empty, anything else a cell.

    >>> piece("T", '''
    ... ###
    ... .#.
    ... ''').cells == {(0, 0), (0, 1), (0, 2), (1, 1)}
    True

    On other grids (see :mod:`.grids`), a polycube is its layers (a list of pictures, or
    one picture with blank lines or ``|`` between the layers), a polyiamond rows of
    triangles pointing up and down in turn, a polyhex rows of hexagons two columns apart:

    >>> len(piece("P", "##|#.\n#.|..", grid="cube").orientations(reflect=False))
    8
    >>> len(piece("R", "####", grid="triangle").orientations())
    6
    """
    g = grids.grid(grid)
    cells, _ = g.cells_of(picture, f"piece {name!r}")
    if not cells:
        raise ValueError(f"piece {name!r} has no cells in its picture")
    if not grids.connected(g, set(cells)):
        raise ValueError(f"piece {name!r} is not connected: {_parts(g, set(cells))}")
    return Piece(name, g.normalized(cells), g.name)


def _parts(g: grids.Grid, cells: set[Cell]) -> str:
    """The cells apart from the first cell's part, named for a message (1-based)."""
    start = min(cells)
    seen = {start}
    todo = [start]
    while todo:
        for n in g.neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    apart = min(cells - seen)
    where = ", ".join(f"{axis} {v + 1}" for axis, v in zip(_AXES[g.name], apart, strict=True))
    return f"the cell at {where} does not touch the cell at " + ", ".join(
        f"{axis} {v + 1}" for axis, v in zip(_AXES[g.name], start, strict=True)
    )


_AXES = {
    "square": ("line", "column"),
    "triangle": ("line", "column"),
    "hex": ("line", "column"),
    "cube": ("layer", "line", "column"),
}


def _pieces(pictures: Mapping[str, str], grid: str = "square") -> dict[str, Piece]:
    return {name: piece(name, pic, grid) for name, pic in pictures.items()}


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


#: The 7 Soma pieces (Piet Hein), as physical pieces: a box tiles with them unmirrored
#: (``reflect=False``, the default on the cube grid; A and B are mirror images).
#: Layers side by side, split by ``|``.
SOMA: dict[str, Piece] = _pieces(
    {
        "V": "##\n#.",
        "L": "###\n#..",
        "T": "###\n.#.",
        "Z": ".##\n##.",
        "A": "##|.#\n#.|..",
        "B": "##|..\n#.|#.",
        "P": "##|#.\n#.|..",
    },
    "cube",
)

#: The 13 Bedlam cube pieces (12 pentacubes and a tetracube; Scott Kurowski's names in
#: order: Little Corner, Spikey Zag, Pokey Corner Bit, Right Angles Everywhere, Middle
#: Zig, Pokey Z, Corner Joist, Dented L, F in Therapy, Flat M, Cross, Confused F,
#: T-Bone), as physical pieces, never mirrored on a box (``reflect=False``, the default).
BEDLAM: dict[str, Piece] = _pieces(
    {
        "A": "##|#.\n.#|..",
        "B": "..|#.\n##|#.\n.#|..",
        "C": "#.|..\n##|#.\n#.|..",
        "D": "#.|#.\n#.|..\n##|..",
        "E": "#.|..\n##|#.\n.#|..",
        "F": "#.|#.\n##|..\n.#|..",
        "G": "##|#.\n#.|..\n#.|..",
        "H": "##|.#\n#.|..\n#.|..",
        "I": "#.|#.\n##|..\n#.|..",
        "J": ".##\n##.\n#..",
        "K": ".#.\n###\n.#.",
        "L": "##.\n.##\n.#.",
        "M": ".#|..\n##|#.\n.#|..",
    },
    "cube",
)

#: The 12 hexiamonds (6 triangles each), one letter each.
HEXIAMONDS: dict[str, Piece] = _pieces(
    {
        "I": "######",
        "O": "###\n###",
        "P": "..#\n.#####",
        "J": "#####\n#....",
        "E": "#####\n..#..",
        "H": "####\n.##.",
        "F": "###\n.###",
        "V": "####\n..##",
        "C": "####\n##..",
        "S": "###\n..###",
        "X": ".###\n.###",
        "G": "#.\n##\n##\n#.",
    },
    "triangle",
)

#: The 7 tetrahexes (4 hexagons each): bar, bee, arch, propeller, pistol, worm, wave.
TETRAHEXES: dict[str, Piece] = _pieces(
    {
        "I": "# # # #",
        "O": "# #\n # #",
        "U": " # #\n#   #",
        "Y": "#\n # #\n#",
        "P": "# # #\n #",
        "S": "# #\n   # #",
        "J": "# # #\n     #",
    },
    "hex",
)


def solid(pieces: Mapping[str, Piece]) -> dict[str, Piece]:
    """Flat pieces as one layer of cubes (the solid pentominoes: ``solid(PENTOMINOES)``).

    >>> len(solid(PENTOMINOES)["X"].orientations())
    3
    """
    out = {}
    for name, p in pieces.items():
        if p.grid != "square":
            raise ValueError(
                f"solid() takes pieces on the square grid; {name!r} is on the {p.grid} grid"
            )
        out[name] = Piece(name, frozenset((0, *x) for x in p.cells), "cube")
    return out


def free_polyominoes(size: int) -> list[frozenset[Cell]]:
    """Every free polyomino of ``size`` cells (one shape per class under rotation and
    reflection), in a fixed order: grown cell by cell, each class kept by its least form.
    """
    if size < 1:
        raise ValueError(f"free_polyominoes() needs size >= 1, got {size}")
    return free_polyforms(size)


def free_polyforms(
    size: int, grid: str = "square", *, reflect: bool = True
) -> list[frozenset[Cell]]:
    """Every polyform of ``size`` cells on ``grid``, one shape per class under rotation
    (and reflection, unless ``reflect=False``), in a fixed order: grown cell by cell,
    each class kept by its least form.

    >>> [len(free_polyforms(n, "triangle")) for n in range(1, 7)]
    [1, 1, 1, 3, 4, 12]
    >>> len(free_polyforms(4, "hex")), len(free_polyforms(5, "cube", reflect=False))
    (7, 29)
    """
    if size < 1:
        raise ValueError(f"free_polyforms() needs size >= 1, got {size}")
    g = grids.grid(grid)
    origin: Cell = (0,) * g.dims
    shapes: set[frozenset[Cell]] = {frozenset({origin})}
    for _ in range(size - 1):
        grown: set[frozenset[Cell]] = set()
        for shape in shapes:
            for x in shape:
                for n in g.neighbours(x):
                    if n not in shape:
                        grown.add(canonical(shape | {n}, g.name, reflect))
        shapes = grown
    return sorted(shapes, key=lambda s: sorted(s))


def canonical(
    cells: frozenset[Cell], grid: str = "square", reflect: bool = True
) -> frozenset[Cell]:
    forms = Piece("", grids.grid(grid).normalized(cells), grid).orientations(reflect=reflect)
    return min(forms, key=lambda s: sorted(s))


_generated: dict[str, dict[str, Piece]] = {}

#: The piece sets generated on first use: (letter, size, grid, whether mirror images are
#: one piece).
GENERATED = {"HEXOMINOES": ("H", 6, "square", True), "PENTACUBES": ("C", 5, "cube", False)}


def generated(name: str) -> dict[str, Piece]:
    """``HEXOMINOES``: the 35 free hexominoes, named H01..H35 in the order of
    :func:`free_polyominoes`; ``PENTACUBES``: the 29 pentacubes (mirror pairs apart, as
    physical pieces), named C01..C29 in the order of :func:`free_polyforms`.  Generated
    on first use (a name of :data:`GENERATED`), so that importing costs nothing."""
    if name not in _generated:
        letter, size, grid, reflect = GENERATED[name]
        shapes = free_polyforms(size, grid, reflect=reflect)
        _generated[name] = {
            f"{letter}{k:02d}": Piece(f"{letter}{k:02d}", shape, grid)
            for k, shape in enumerate(shapes, start=1)
        }
    return _generated[name]


def __getattr__(name: str) -> dict[str, Piece]:
    """The piece sets of :func:`generated`, made on first use."""
    if name in GENERATED:
        return generated(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
