"""``lazysearch sudoku FILE``: sudoku puzzles, one a line, or one jigsaw, X or killer
puzzle in the variant text format."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..exits import EXIT_INTERRUPTED, EXIT_OK, CliError
from ..limits import read_source
from ..options import PUZZLES_EPILOG, add_exact_cover_options, add_run_options
from ..output import Tag, puzzle_tag
from ..runs import several

if TYPE_CHECKING:
    from ...puzzles.sudoku import Grid, SolvedGrid

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    sudoku = commands.add_parser(
        "sudoku",
        help="solve sudoku puzzles, one per line (any box size)",
        epilog=PUZZLES_EPILOG,
    )
    sudoku.add_argument("file", help="a file of puzzles, or - for standard input")
    sudoku.add_argument(
        "--killer",
        action="store_true",
        help="the file is a killer puzzle (cages: picture and sums; detected without this)",
    )
    sudoku.add_argument(
        "--jigsaw",
        action="store_true",
        help="the file is a jigsaw puzzle (regions: picture; detected without this)",
    )
    sudoku.add_argument(
        "--x", action="store_true", help="X-sudoku: both main diagonals hold every value once"
    )
    add_run_options(sudoku, formats=("text", "json", "svg"))
    add_exact_cover_options(sudoku)
    sudoku.set_defaults(handler=run, rules=RULES)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...puzzles import sudoku, variants
    from ..output import json_line

    text, source = read_source(args.file, "sudoku")
    if args.killer or args.jigsaw or variants.is_variant_text(text):
        return run_variant(args, out, text, source)
    boxes: dict[int, tuple[int, int]] = {}
    collection = sudoku.janko_collection(text, source=source)
    if collection is None and text.lstrip().startswith("{"):
        # lines of 'generate sudoku --format json'
        puzzles = []
        for line, cells, box in sudoku.json_lines(text, source=source):
            puzzles.append((line, cells))
            boxes[line] = box
    else:
        puzzles = collection or sudoku.numbered_lines(text, source=source)
    several(args, len(puzzles), source)
    status = EXIT_OK
    for number, (line, puzzle) in enumerate(puzzles, start=1):
        tag = puzzle_tag(number, len(puzzles))
        try:
            stream = sudoku.solve(puzzle, box=boxes.get(line), diagonals=args.x)
        except sudoku.SudokuError as exc:
            raise CliError(f"{source}:{line}: {exc}") from None

        def show(n: int, grid: Grid, tag: Tag = tag, puzzle: str = puzzle) -> str:
            if args.format == "svg":
                if isinstance(grid, sudoku.SolvedGrid) and grid.rules is not None:
                    return grid.svg()
                return sudoku.svg(grid, puzzle=puzzle)
            if args.format == "json":
                return json_line(n, grid, **tag.fields, grid=[list(r) for r in grid])
            return f"{tag.text}solution {n}:\n{sudoku.render(grid)}\n"

        status = max(status, run_search(args, stream, show, out, tag=tag))
        if status == EXIT_INTERRUPTED:
            break
    return status


def run_variant(args: argparse.Namespace, out: TextIO, text: str, source: str) -> int:
    """One jigsaw, X or killer puzzle in the variant text format (variants.loads)."""
    from ...puzzles import sudoku, variants
    from ..output import json_line

    puzzle = variants.loads(text, source=source)
    if args.killer and puzzle.cages is None:
        raise CliError(f"--killer: {source} has no cages: picture")
    if args.jigsaw and puzzle.regions is None:
        raise CliError(f"--jigsaw: {source} has no regions: picture")
    try:
        stream = sudoku.solve(
            puzzle.givens,
            regions=puzzle.regions,
            diagonals=puzzle.diagonals or args.x,
            cages=puzzle.cages,
        )
    except sudoku.SudokuError as exc:
        raise CliError(f"{source}: {exc}") from None

    def show(n: int, grid: SolvedGrid) -> str:
        if args.format == "svg":
            return grid.svg()
        if args.format == "json":
            return json_line(n, grid, grid=[list(r) for r in grid])
        return f"solution {n}:\n{grid.text()}\n"

    return run_search(args, stream, show, out)
