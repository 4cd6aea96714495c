"""``lazysearch pentomino ROWSxCOLS``: a rectangle tiled with a set of pieces."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..exits import CliError
from ..options import add_exact_cover_options, add_run_options, board_size

if TYPE_CHECKING:
    from ...puzzles.polyomino import Tiling

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    pentomino = commands.add_parser(
        "pentomino",
        aliases=["polyomino"],
        help="tile a ROWSxCOLS rectangle with the 12 pentominoes (or other pieces)",
    )
    pentomino.add_argument("size", type=board_size, metavar="ROWSxCOLS", help="e.g. 6x10")
    pentomino.add_argument(
        "--distinct",
        action="store_true",
        help="one tiling per class under the rectangle's rotations and reflections",
    )
    pentomino.add_argument(
        "--pieces",
        choices=("pentominoes", "tetrominoes", "hexominoes"),
        default="pentominoes",
        help="the piece set, each piece used once (default: the 12 pentominoes)",
    )
    add_run_options(pentomino, formats=("text", "json", "svg"))
    add_exact_cover_options(pentomino)
    pentomino.set_defaults(handler=run, rules=RULES)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...puzzles import polyomino
    from ..output import json_line

    rows, cols = args.size
    pieces = getattr(polyomino, args.pieces.upper())
    area = sum(len(p.cells) for p in pieces.values())
    if rows * cols != area:
        raise CliError(
            f"the {len(pieces)} {args.pieces} cover {area} cells, "
            f"and a {rows}x{cols} board has {rows * cols}"
        )
    stream = polyomino.tile(polyomino.rectangle(rows, cols), pieces, distinct=args.distinct)

    def show(n: int, tiling: Tiling) -> str:
        if args.format == "svg":
            return tiling.svg()
        if args.format == "json":
            grid = ["".join((name or ".")[0] for name in row) for row in tiling.grid()]
            return json_line(n, tiling, rows=grid)
        return f"{n}:\n{tiling}\n"

    return run_search(args, stream, show, out)
