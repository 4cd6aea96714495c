"""``lazysearch knights --leaper A,B`` and ``--board FILE``: the tours of any leaper on a
board of any shape, walked by :mod:`lazysearch.graphs` as Hamiltonian paths and cycles of
the leaper's graph."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from .. import rules
from ..exits import CliError
from ..options import given

#: The line of a missing ROWS, as the parser said it when ROWS was required.
MISSING = "the following arguments are required: ROWS (see lazysearch knights --help)"

Pieces = Callable[[argparse.Namespace, int, int, int, Any], Iterator[str]]

#: What the graphs' walker does not do for knights (refused in one line each).
RULES: list[rules.Rule] = [
    (
        lambda a: shaped(a) and given(a, "sample"),
        "--sample draws knight's tours of a whole rectangle: leave it out with --leaper "
        "and --board",
    ),
    (
        lambda a: shaped(a) and a.method in ("dp", "join", "order", "parts"),
        "--method dp, join, order and parts count knight's tours of a whole rectangle: "
        "with --leaper or --board, --count walks the tours (--method enumerate)",
    ),
    (
        lambda a: shaped(a) and given(a, "directed") and not given(a, "start"),
        "--directed with --leaper or --board counts the closed tours from --start: give "
        "--start ROW,COL",
    ),
]


def shaped(args: argparse.Namespace) -> bool:
    """Whether the tours are a leaper's or on a board of a shape given: not the knight
    on a whole rectangle (which the knight's own engines search)."""
    leaper = getattr(args, "leaper", None)
    return getattr(args, "board", None) is not None or (
        leaper is not None and leaper not in ((1, 2), (2, 1))
    )


def leaper_move(text: str) -> tuple[int, int]:
    """An argparse type: a leaper's move ``A,B`` (the knight is ``1,2``)."""
    first, sep, second = text.partition(",")
    try:
        if not sep:
            raise ValueError
        move = int(first), int(second)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a leaper's move as A,B (e.g. 1,3 for the camel), got {text!r}"
        ) from None
    if min(move) < 0 or move == (0, 0):
        raise argparse.ArgumentTypeError(
            f"a leaper's move is two whole numbers >= 0, not both 0, got {text!r}"
        )
    return move


def add_options(knights: argparse.ArgumentParser) -> None:
    knights.add_argument(
        "--leaper",
        type=leaper_move,
        metavar="A,B",
        help="tours of the (A,B)-leaper, which moves A rows and B columns or B rows and A "
        "columns (1,3 the camel, 2,3 the zebra, 1,4 the giraffe), walked as paths of its "
        "graph (no --sample; --method enumerate)",
    )
    knights.add_argument(
        "--board",
        metavar="FILE",
        help="the board's shape from a picture in FILE, a line a row: '.' and blanks are "
        "holes, any other character a cell (ROWS and COLS: the picture's). With --leaper "
        "or --board, tours without --start are listed and counted once each, not once "
        "each way round; from --start, each way round",
    )


def read_board(path: str) -> list[list[bool]]:
    """The board in picture file ``path``: its rows of cells (True) and holes."""
    from ...graphs.pictures import board_of
    from ..limits import read_source

    text, source = read_source(path, "knights")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    board = board_of(lines)
    if not any(any(row) for row in board):
        raise CliError(
            f"{source}: no cell on the board (a cell is any character but '.' and blanks)"
        )
    return board


def size(path: str, board: list[list[bool]], asked: tuple[int, int] | None) -> tuple[int, int]:
    """The rows and columns of the ``board`` in ``path``, which ROWS [COLS] (``asked``),
    when given, must agree with."""
    rows, cols = len(board), len(board[0])
    if asked is not None and tuple(asked) != (rows, cols):
        raise CliError(
            f"{path} is a {rows}x{cols} board, and ROWS COLS say {asked[0]}x{asked[1]}: "
            "leave them out or make them agree"
        )
    return rows, cols


class _Back:
    """The vertex added beside the start's neighbours: a path from the start to it is a
    closed tour from the start, in one direction."""

    def __repr__(self) -> str:
        return "back"


def run(
    args: argparse.Namespace, out: TextIO, asked: tuple[int, int] | None, pieces: Pieces
) -> int:
    """The tours of the leaper (the knight by default) on the board given, each printed
    by ``pieces`` (the knights command's text, JSON or SVG)."""
    from ... import graphs
    from ...graphs.pictures import BoardPath
    from ..driver import run as run_search

    board = None
    if args.board is not None:
        board = read_board(args.board)
        rows, cols = size(args.board, board, asked)
    elif asked is not None:
        rows, cols = asked
    else:
        raise CliError(MISSING)
    move = args.leaper or (1, 2)
    g = graphs.leaper(rows, cols, move, board=board)
    cells = frozenset(g)
    start = args.start
    if start is not None and start not in cells:
        where = "off" if not (0 <= start[0] < rows and 0 <= start[1] < cols) else "a hole of"
        raise CliError(f"start square {start[0]},{start[1]} is {where} the {rows}x{cols} board")
    closed = bool(args.closed)
    if closed and start is not None:
        # Every closed tour from --start, both ways round: the paths from it to a vertex
        # added beside its neighbours (dropped when printed), each path one tour.
        back = _Back()
        ring: dict[Any, list[Any]] = {**g, back: list(g[start])}
        for cell in g[start]:
            ring[cell] = [*g[cell], back]
        stream = graphs.hamiltonian_paths(ring, start=start, end=back)
    elif closed:
        stream = graphs.hamiltonian_cycles(g)  # each closed tour once
    else:
        stream = graphs.hamiltonian_paths(g, start=start)  # from --start, or each once

    def show(n: int, found: tuple[Any, ...]) -> str:
        if closed and start is not None:
            found = found[:-1]
        tour = BoardPath(found, closed=closed, rows=rows, cols=cols, cells=cells)
        return "".join(pieces(args, rows, cols, n, tour))

    if args.one:
        args.nth = 1  # the first tour; exit status 1 when there is none
    return run_search(args, stream, show, out)
