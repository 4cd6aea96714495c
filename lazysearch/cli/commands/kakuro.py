"""``lazysearch kakuro FILE``: kakuro puzzles in any of the formats the reader knows,
solved, or converted (``--convert``)."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..exits import EXIT_INTERRUPTED, EXIT_OK
from ..limits import read_source
from ..options import PUZZLES_EPILOG, add_run_options, given
from ..output import Tag, puzzle_tag
from ..runs import several

if TYPE_CHECKING:
    from ...kakuro import Filling

RULES: list[rules.Rule] = [
    (
        lambda a: (
            given(a, "convert")
            and rules.any_given(a, "count", "limit", "nth", "every", "workers", "estimate")
        ),
        "--convert prints the puzzles without solving them: leave out the search's options",
    ),
    (
        lambda a: given(a, "convert") and a.format != "text",
        "--convert prints the puzzles in its own format: leave out --format",
    ),
    rules.runs_no_search("convert"),
    *rules.SEARCH,
]


def add_parser(commands: Any) -> None:
    kakuro = commands.add_parser(
        "kakuro",
        help="solve kakuro puzzles (grid, janko, PROP, CSV, dzn, JSON and more)",
        epilog=PUZZLES_EPILOG + " A kakuro puzzle's name, when it has one, is in 'name'.",
    )
    kakuro.add_argument("file", help="a puzzle file (or a collection), or - for standard input")
    kakuro.add_argument(
        "--input-format",
        metavar="FMT",
        help="the file's format (default: detected): grid, pipe, csv, janko, prop, "
        "algospot, dzn, pycsp3, json, janko-json, board-json",
    )
    kakuro.add_argument(
        "--convert",
        choices=("grid", "json"),
        help="print the puzzles in this format instead of solving them (with -o, -q only)",
    )
    add_run_options(kakuro, formats=("text", "json", "svg"))
    kakuro.set_defaults(handler=run, rules=RULES)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ... import kakuro
    from ..output import json_line

    text, source = read_source(args.file, "kakuro")
    puzzles = kakuro.loads(text, source=source, format=args.input_format)
    if args.convert:
        for puzzle in puzzles:
            write = kakuro.write_grid if args.convert == "grid" else kakuro.write_json
            out.write(write(puzzle))
        return EXIT_OK
    several(args, len(puzzles), source)
    status = EXIT_OK
    for number, puzzle in enumerate(puzzles, start=1):
        tag = puzzle_tag(number, len(puzzles), puzzle.name)

        def show(n: int, board: Filling, tag: Tag = tag) -> str:
            if args.format == "svg":
                return board.svg()
            if args.format == "json":
                return json_line(n, board, **tag.fields, grid=board.grid())
            return f"{tag.text}solution {n}:\n{board}\n"

        started = time.perf_counter()  # solve() may look for a guide (kakuro.guide)
        status = max(status, run_search(args, kakuro.solve(puzzle), show, out, started, tag))
        if status == EXIT_INTERRUPTED:
            break
    return status
