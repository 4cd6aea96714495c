"""``lazysearch queens N``: N non-attacking queens."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..limits import BYTES_PER_SQUARE, check_memory, check_squares
from ..options import add_exact_cover_options, add_run_options, positive

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    queens = commands.add_parser("queens", help="place N non-attacking queens")
    queens.add_argument("n", type=positive, metavar="N", help="the board's side and queens")
    add_run_options(queens)
    add_exact_cover_options(queens)
    queens.set_defaults(handler=run, rules=RULES, sizes=check_size)


def check_size(args: argparse.Namespace) -> None:
    squares = args.n * args.n
    check_squares(squares, args.n, args.n)
    check_memory(squares * BYTES_PER_SQUARE, f"{args.n}-queens")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...puzzles.queens import queens
    from ..output import json_line

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return json_line(n, solution, columns=list(solution))
        rows = ["".join("Q" if c == col else "." for c in range(args.n)) for col in solution]
        return f"{n}:\n" + "\n".join(rows) + "\n"

    return run_search(args, queens(args.n), show, out)
