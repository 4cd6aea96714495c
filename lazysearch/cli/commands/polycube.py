"""``lazysearch polycube PIECES``: a box, or a parallelogram of triangles or hexagons,
filled with a set of pieces."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..exits import CliError
from ..limits import check_squares
from ..options import add_run_options

if TYPE_CHECKING:
    from ...puzzles.polyomino import Tiling

RULES = rules.SEARCH

#: The piece sets of ``lazysearch polycube``: (grid, the set's name in polyomino, whether
#: the pieces are physical, one-sided in 3D, and the default board).
POLYFORM_SETS: dict[str, tuple[str, str, bool, tuple[int, ...] | None]] = {
    "soma": ("cube", "SOMA", True, (3, 3, 3)),
    "bedlam": ("cube", "BEDLAM", True, (4, 4, 4)),
    "solid-pentominoes": ("cube", "PENTOMINOES", False, None),
    "pentacubes": ("cube", "PENTACUBES", True, None),
    "hexiamonds": ("triangle", "HEXIAMONDS", False, (6, 6)),
    "tetrahexes": ("hex", "TETRAHEXES", False, (4, 7)),
}


def add_parser(commands: Any) -> None:
    polycube = commands.add_parser(
        "polycube",
        aliases=["polyiamond", "polyhex"],
        help="fill a box (polycube), a parallelogram of triangles (polyiamond) or of "
        "hexagons (polyhex) with a set of pieces, each used once",
    )
    polycube.add_argument(
        "pieces",
        choices=tuple(POLYFORM_SETS),
        metavar="PIECES",
        help="soma (3x3x3), bedlam (4x4x4), solid-pentominoes, pentacubes, hexiamonds "
        "(6x6), tetrahexes (4x7)",
    )
    polycube.add_argument(
        "--board",
        type=polyform_size,
        metavar="XxYxZ|ROWSxCOLS",
        help="the box (x by y by z cubes) or parallelogram (rows by units) to fill; "
        "default: the set's own",
    )
    polycube.add_argument(
        "--distinct",
        action="store_true",
        help="one tiling per class under the board's rotations and reflections (a "
        "reflection counts when it maps the piece set onto itself)",
    )
    add_run_options(polycube, formats=("text", "json", "svg"))
    polycube.set_defaults(handler=run, rules=RULES, sizes=check_size)


def board_cells(grid: str, size: tuple[int, ...]) -> int:
    """The cells of the board ``size`` on ``grid``, counted without building it: a box
    of cubes, or a parallelogram of ``2 * cols`` triangles or ``cols`` hexagons a row
    (see :func:`lazysearch.puzzles.polyomino.parallelogram`)."""
    return math.prod(size) * (2 if grid == "triangle" else 1)


def check_size(args: argparse.Namespace) -> None:
    """Refuse, before any board is built, one of more cells than the engines number."""
    grid = POLYFORM_SETS[args.pieces][0]
    if args.board is not None and len(args.board) == (3 if grid == "cube" else 2):
        unit = {"cube": "cubes", "triangle": "triangles", "hex": "hexagons"}[grid]
        check_squares(board_cells(grid, args.board), *args.board, unit=unit)


def polyform_size(text: str) -> tuple[int, ...]:
    """``3x4x5`` (a box) or ``6x6`` (a parallelogram)."""
    parts = text.lower().split("x")
    try:
        sides = tuple(int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected sides joined by 'x' (3x4x5 or 6x6), got {text!r}"
        ) from None
    if len(sides) not in (2, 3) or min(sides) < 1:
        raise argparse.ArgumentTypeError(
            f"expected two or three sides >= 1 joined by 'x' (3x4x5 or 6x6), got {text!r}"
        )
    return sides


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...puzzles import polyomino
    from ..output import json_line

    grid, name, physical, default = POLYFORM_SETS[args.pieces]
    pieces = getattr(polyomino, name)
    if args.pieces == "solid-pentominoes":
        pieces = polyomino.solid(pieces)
    size = args.board or default
    if size is None:
        raise CliError(f"{args.pieces} has no board of its own: give one with --board XxYxZ")
    want = 3 if grid == "cube" else 2
    if len(size) != want:
        shape = "a box XxYxZ" if grid == "cube" else "a parallelogram ROWSxCOLS"
        raise CliError(f"{args.pieces} fill {shape}, got --board {'x'.join(map(str, size))}")
    area = sum(len(p.cells) for p in pieces.values())
    cells = board_cells(grid, size)
    if area != cells:  # found before the board is built: a huge one is refused at once
        raise CliError(
            f"the {len(pieces)} {args.pieces} cover {area} cells, and the board "
            f"{'x'.join(map(str, size))} has {cells}"
        )
    if grid == "cube":
        board = polyomino.box(*size)
    else:
        board = polyomino.parallelogram(size[0], size[1], grid)
    stream = polyomino.tile(board, pieces, reflect=not physical, distinct=args.distinct)

    def show(n: int, tiling: Tiling) -> str:
        if args.format == "svg":
            return tiling.svg()
        if args.format == "json":
            return json_line(n, tiling, rows=str(tiling).splitlines())
        return f"{n}:\n{tiling}\n"

    return run_search(args, stream, show, out)
