"""``lazysearch langford N``: Langford pairs of order N."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ...errors import TooLargeError
from .. import rules
from ..driver import run as run_search
from ..limits import BYTES_PER_LANGFORD, MAX_SQUARES, check_memory
from ..options import add_exact_cover_options, add_run_options, positive

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    langford = commands.add_parser(
        "langford", help="Langford pairs of order N (each pair with its reversal once)"
    )
    langford.add_argument("n", type=positive, metavar="N", help="the order: pairs 1..N")
    add_run_options(langford)
    add_exact_cover_options(langford)
    langford.set_defaults(handler=run, rules=RULES, sizes=check_size)


def check_size(args: argparse.Namespace) -> None:
    if 2 * args.n * args.n > MAX_SQUARES:
        raise TooLargeError(
            f"Langford pairs of order {args.n} have about {2 * args.n * args.n:,} "
            f"options; the engine numbers them in 32 bits (at most {MAX_SQUARES:,})"
        )
    check_memory(args.n * args.n * BYTES_PER_LANGFORD, f"Langford pairs of order {args.n}")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...puzzles.langford import langford
    from ..output import json_line

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return json_line(n, solution, sequence=list(solution))
        return " ".join(map(str, solution)) + "\n"

    return run_search(args, langford(args.n), show, out)
