"""The grids polyforms live on: squares, cubes, triangles and hexagons.

A cell is a tuple of integers, as drawn in a picture:

- ``square``: ``(row, col)``.
- ``cube``: ``(layer, row, col)``; a picture is its layers, top to bottom.
- ``triangle``: ``(row, col)``; the triangle points up when ``row + col`` is even, so
  ``"###"`` is up, down, up (a trapezoid) and ``"###\\n###"`` a hexagon.
- ``hex``: ``(row, col)`` in doubled columns: the cells of a row are two columns apart
  and each row is offset by one, as in ``" # #\\n# # #\\n # #"``.  Internally
  ``row + col`` is even.

Each grid knows its neighbours, its point group (the rotations, and with reflections the
whole group, as maps of cells that fix the origin up to a translation), which translations
keep a cell's kind (a triangle pointing up stays up), and how to read a picture.  The
point groups: 8 for squares, 48 for cubes (24 rotations), 12 for triangles and hexagons
(6 rotations).  The triangle and hexagon maps go through lattice coordinates where the
group is the permutations of three coordinates, with a sign change (hexagons, cube
coordinates ``x + y + z = 0``) or ``x -> 1 - x`` (triangles, ``a + b + c`` 1 for up and 2
for down); a permutation is a rotation when it is even.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import permutations, product

Cell = tuple[int, ...]
Map = Callable[[Cell], Cell]

GRIDS = ("square", "cube", "triangle", "hex")


def _parity(perm: Sequence[int]) -> int:
    """+1 for an even permutation, -1 for an odd one."""
    sign = 1
    seen = [False] * len(perm)
    for i in range(len(perm)):
        if seen[i]:
            continue
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length % 2 == 0:
            sign = -sign
    return sign


class Grid:
    """A grid of cells: square by default; the subclasses override what differs."""

    name = "square"
    dims = 2

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]

    def _all_maps(self) -> list[tuple[Map, bool]]:
        """Every map of the point group with whether it is a rotation; identity first,
        then the rotations, then the reflections."""
        return [
            (lambda x: (x[0], x[1]), True),
            (lambda x: (x[1], -x[0]), True),
            (lambda x: (-x[0], -x[1]), True),
            (lambda x: (-x[1], x[0]), True),
            (lambda x: (x[0], -x[1]), False),
            (lambda x: (x[1], x[0]), False),
            (lambda x: (-x[0], x[1]), False),
            (lambda x: (-x[1], -x[0]), False),
        ]

    def maps(self, *, rotate: bool = True, reflect: bool = True) -> list[Map]:
        """The point group's maps a piece may take: all rotations if ``rotate``; with
        ``reflect`` the reflections too (without ``rotate``, one mirror only)."""
        everything = self._group()
        out = [everything[0][0]]
        if rotate:
            out += [g for g, turn in everything[1:] if turn]
        if reflect:
            mirrors = [g for g, turn in everything if not turn]
            out += mirrors if rotate else mirrors[:1]
        return out

    def rotations(self) -> list[Map]:
        return [g for g, turn in self._group() if turn]

    def _group(self) -> list[tuple[Map, bool]]:
        """:meth:`_all_maps`, built once per grid."""
        cached: list[tuple[Map, bool]] | None = self.__dict__.get("_cached")
        if cached is None:
            cached = self._all_maps()
            self.__dict__["_cached"] = cached
        return cached

    def normalized(self, cells: Iterable[Cell]) -> frozenset[Cell]:
        """The cells moved to touch 0 on every axis (for triangles and hexagons by a
        translation of the grid, so the leftmost column may be 1)."""
        cells = list(cells)
        low = [min(x[a] for x in cells) for a in range(self.dims)]
        low = self._lattice_shift(low)
        return frozenset(tuple(x[a] - low[a] for a in range(self.dims)) for x in cells)

    def _lattice_shift(self, low: list[int]) -> list[int]:
        return low

    def moves(self, a: Cell, b: Cell) -> bool:
        """Whether a translation of the grid takes cell ``a`` to cell ``b``."""
        return True

    def cells_of(self, picture: str | Sequence[str], what: str) -> tuple[list[Cell], Cell]:
        """The cells of a picture and the size of its frame (``(rows, cols)``, or
        ``(layers, rows, cols)`` for cubes); ``what`` names it in messages."""
        if not isinstance(picture, str):
            raise ValueError(f"{what}: a {self.name} picture is one string, got {picture!r}")
        lines = picture.strip("\n").splitlines()
        cells: list[Cell] = [
            (r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch not in " ."
        ]
        return cells, (len(lines), max((len(line) for line in lines), default=0))

    def draw(self, letters: dict[Cell, str], frame: Cell) -> str:
        """Rows of letters (``.`` for a hole), as a picture of this grid."""
        rows, cols = frame[-2], frame[-1]
        return "\n".join(
            "".join(letters.get((r, c), ".") for c in range(cols)) for r in range(rows)
        )


class CubeGrid(Grid):
    """Unit cubes: ``(layer, row, col)``; 6 neighbours; 48 symmetries, 24 rotations."""

    name = "cube"
    dims = 3

    def neighbours(self, cell: Cell) -> list[Cell]:
        z, r, c = cell
        return [
            (z + 1, r, c),
            (z - 1, r, c),
            (z, r + 1, c),
            (z, r - 1, c),
            (z, r, c + 1),
            (z, r, c - 1),
        ]

    def _all_maps(self) -> list[tuple[Map, bool]]:
        maps: list[tuple[Map, bool]] = []
        for perm in permutations(range(3)):
            for signs in product((1, -1), repeat=3):
                det = _parity(perm) * signs[0] * signs[1] * signs[2]

                def g(x: Cell, p: tuple[int, ...] = perm, s: tuple[int, ...] = signs) -> Cell:
                    return (s[0] * x[p[0]], s[1] * x[p[1]], s[2] * x[p[2]])

                maps.append((g, det == 1))
        # permutations() starts with the identity and product() with (1, 1, 1).
        return [maps[0]] + [m for m in maps[1:] if m[1]] + [m for m in maps if not m[1]]

    def cells_of(self, picture: str | Sequence[str], what: str) -> tuple[list[Cell], Cell]:
        """Layers as a list of pictures, or one string with the layers apart by blank
        lines (or side by side, split by ``|``)."""
        if isinstance(picture, str):
            text = picture.strip("\n")
            if "|" in text:
                split = [line.split("|") for line in text.splitlines()]
                depth = len(split[0])
                for k, parts in enumerate(split, start=1):
                    if len(parts) != depth:
                        raise ValueError(
                            f"{what}: line {k} has {len(parts)} layers split by '|', "
                            f"line 1 has {depth}"
                        )
                layers = ["\n".join(parts[z] for parts in split) for z in range(depth)]
            else:
                layers = []
                current: list[str] = []
                for line in text.splitlines():
                    if line.strip():
                        current.append(line)
                    elif current:
                        layers.append("\n".join(current))
                        current = []
                if current:
                    layers.append("\n".join(current))
        else:
            layers = list(picture)
        cells: list[Cell] = []
        rows = cols = 0
        for z, layer in enumerate(layers):
            lines = layer.strip("\n").splitlines()
            rows = max(rows, len(lines))
            cols = max([cols] + [len(line) for line in lines])
            for r, line in enumerate(lines):
                cells += [(z, r, c) for c, ch in enumerate(line) if ch not in " ."]
        return cells, (len(layers), rows, cols)

    def draw(self, letters: dict[Cell, str], frame: Cell) -> str:
        """The layers side by side, a space between them."""
        layers, rows, cols = frame
        return "\n".join(
            " ".join(
                "".join(letters.get((z, r, c), ".") for c in range(cols)) for z in range(layers)
            )
            for r in range(rows)
        )


def _tri_lattice(cell: Cell) -> Cell:
    r, c = cell
    b = (c - r + 1) // 2
    return (r, b, (1 if (r + c) % 2 == 0 else 2) - r - b)


def _tri_cell(t: Cell) -> Cell:
    a, b, x = t
    return (a, 2 * b + a if a + b + x == 1 else 2 * b + a - 1)


def _hex_lattice(cell: Cell) -> Cell:
    r, c = cell
    x = (c - r) // 2
    return (x, -x - r, r)


def _hex_cell(t: Cell) -> Cell:
    x, _, z = t
    return (z, 2 * x + z)


class TriangleGrid(Grid):
    """Triangles: ``(row, col)``, pointing up when ``row + col`` is even; 3 neighbours;
    12 symmetries, 6 rotations."""

    name = "triangle"

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r, c - 1), (r, c + 1), (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)]

    def _all_maps(self) -> list[tuple[Map, bool]]:
        maps: list[tuple[Map, bool]] = []
        for perm in permutations(range(3)):
            for flip in (False, True):

                def g(x: Cell, p: tuple[int, ...] = perm, f: bool = flip) -> Cell:
                    t = _tri_lattice(x)
                    u = (t[p[0]], t[p[1]], t[p[2]])
                    return _tri_cell((1 - u[0], 1 - u[1], 1 - u[2]) if f else u)

                maps.append((g, _parity(perm) == 1))
        return [maps[0]] + [m for m in maps[1:] if m[1]] + [m for m in maps if not m[1]]

    def _lattice_shift(self, low: list[int]) -> list[int]:
        # A translation keeps row + col even or odd: move by (r0, c0) or (r0, c0 - 1).
        return [low[0], low[1] - (low[0] + low[1]) % 2]

    def moves(self, a: Cell, b: Cell) -> bool:
        return (a[0] + a[1] + b[0] + b[1]) % 2 == 0


class HexGrid(Grid):
    """Hexagons in doubled columns: ``(row, col)`` with ``row + col`` even; 6 neighbours;
    12 symmetries, 6 rotations."""

    name = "hex"

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [
            (r, c - 2),
            (r, c + 2),
            (r - 1, c - 1),
            (r - 1, c + 1),
            (r + 1, c - 1),
            (r + 1, c + 1),
        ]

    def _all_maps(self) -> list[tuple[Map, bool]]:
        maps: list[tuple[Map, bool]] = []
        for perm in permutations(range(3)):
            for sign in (1, -1):

                def g(x: Cell, p: tuple[int, ...] = perm, s: int = sign) -> Cell:
                    t = _hex_lattice(x)
                    return _hex_cell((s * t[p[0]], s * t[p[1]], s * t[p[2]]))

                maps.append((g, _parity(perm) == 1))
        return [maps[0]] + [m for m in maps[1:] if m[1]] + [m for m in maps if not m[1]]

    def _lattice_shift(self, low: list[int]) -> list[int]:
        return [low[0], low[1] - (low[0] + low[1]) % 2]

    def moves(self, a: Cell, b: Cell) -> bool:
        return (a[0] + a[1] + b[0] + b[1]) % 2 == 0

    def cells_of(self, picture: str | Sequence[str], what: str) -> tuple[list[Cell], Cell]:
        """Marks on columns of one parity (``row + col`` all even or all odd); a mark off
        that lattice is an error naming its line and column."""
        cells, frame = super().cells_of(picture, what)
        if not cells:
            return cells, frame
        parity = (cells[0][0] + cells[0][1]) % 2
        for r, c in cells:
            if (r + c) % 2 != parity:
                first = cells[0]
                raise ValueError(
                    f"{what}: the hexagon at line {r + 1}, column {c + 1} is off the grid "
                    f"set by the one at line {first[0] + 1}, column {first[1] + 1} (the cells "
                    "of a row are two columns apart, each row offset by one)"
                )
        if parity:
            cells = [(r, c + 1) for r, c in cells]
            frame = (frame[0], frame[1] + 1)
        return cells, frame

    def draw(self, letters: dict[Cell, str], frame: Cell) -> str:
        rows, cols = frame
        return "\n".join(
            "".join(
                letters.get((r, c), "." if (r + c) % 2 == 0 else " ") for c in range(cols)
            ).rstrip()
            for r in range(rows)
        )


_GRIDS: dict[str, Grid] = {
    "square": Grid(),
    "cube": CubeGrid(),
    "triangle": TriangleGrid(),
    "hex": HexGrid(),
}


def grid(name: str) -> Grid:
    """The grid called ``name``: one of ``square``, ``cube``, ``triangle``, ``hex``."""
    try:
        return _GRIDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown grid {name!r}: choose one of {', '.join(GRIDS)}") from None


def connected(g: Grid, cells: set[Cell]) -> bool:
    """Whether ``cells`` are one piece through the grid's neighbours."""
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in g.neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)
