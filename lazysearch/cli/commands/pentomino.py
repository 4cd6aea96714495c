"""``lazysearch pentomino ROWSxCOLS`` (or ``--board FILE``): a rectangle, or a board
drawn in a file, tiled with a set of pieces."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from ...errors import article
from .. import rules
from ..driver import run as run_search
from ..exits import CliError
from ..limits import read_source
from ..options import add_exact_cover_options, add_run_options, board_size

if TYPE_CHECKING:
    from ...puzzles.polyomino import Board, Tiling

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    pentomino = commands.add_parser(
        "pentomino",
        aliases=["polyomino"],
        help="tile a ROWSxCOLS rectangle with the 12 pentominoes (or other pieces)",
    )
    pentomino.add_argument(
        "size", type=board_size, nargs="?", metavar="ROWSxCOLS", help="e.g. 6x10"
    )
    pentomino.add_argument(
        "--board",
        metavar="FILE",
        help="tile the board drawn in FILE instead of a rectangle: '#' (or any mark) a "
        "cell, '.' or a space a hole, a line a row (- for standard input)",
    )
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

    board = _board(args)
    pieces = getattr(polyomino, args.pieces.upper())
    area = sum(len(p.cells) for p in pieces.values())
    if len(board.cells) != area:
        what = f"{article(board.rows)} {board.rows}x{board.cols} board" if args.size else args.board
        raise CliError(
            f"the {len(pieces)} {args.pieces} cover {area} cells, and {what} has {len(board.cells)}"
        )
    stream = polyomino.tile(board, pieces, distinct=args.distinct)

    def show(n: int, tiling: Tiling) -> str:
        if args.format == "svg":
            return tiling.svg()
        if args.format == "json":
            grid = ["".join((name or ".")[0] for name in row) for row in tiling.grid()]
            return json_line(n, tiling, rows=grid)
        return f"{n}:\n{tiling}\n"

    return run_search(args, stream, show, out)


def _board(args: argparse.Namespace) -> Board:
    """The rectangle ``ROWSxCOLS``, or the board drawn in ``--board FILE``."""
    from ...puzzles import polyomino

    if (args.size is None) == (args.board is None):
        raise CliError("give the board as ROWSxCOLS or as --board FILE (one of the two)")
    if args.size is not None:
        return polyomino.rectangle(*args.size)
    text, source = read_source(args.board)
    try:
        return polyomino.board(text)
    except ValueError as exc:
        raise CliError(f"{source}: {exc}") from None
