"""``lazysearch generate sudoku|kakuro``: puzzles with exactly one solution, rated."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from typing import Any, TextIO

from .. import rules
from ..exits import EXIT_BUDGET, EXIT_OK, CliError
from ..options import board_size, flag, given, positive, seconds
from ..output import NODES
from ..runs import progress_bar, show_bar

#: No cross-flag rule: generate runs no search (its own checks are in :func:`run`).
RULES: list[rules.Rule] = []


def add_parser(commands: Any) -> None:
    generate = commands.add_parser(
        "generate",
        help="make puzzles with exactly one solution, rated (sudoku, kakuro)",
        epilog="Text is what 'lazysearch sudoku' and 'lazysearch kakuro' read (a sudoku's "
        "seed and rating on a '#' line before it; a kakuro's on stderr); so is JSON (a "
        "sudoku a line; a kakuro one object, or an array of them with --number). Puzzle i "
        "of --number N is made from seed S + i - 1. (--count N, its old name, still "
        "works, with a warning.)",
    )
    generate.add_argument("puzzle", choices=("sudoku", "kakuro"), help="what to make")
    generate.add_argument(
        "size",
        nargs="?",
        type=board_size,
        help="kakuro: ROWSxCOLS, clue row and column included (default 15x15)",
    )
    generate.add_argument(
        "--box", type=board_size, metavar="RxC", help="sudoku: the box (default 3x3)"
    )
    generate.add_argument(
        "--number",
        dest="number",
        type=positive,
        metavar="N",
        help="make N puzzles (default 1)",
    )
    generate.add_argument(  # its old name: elsewhere --count counts solutions
        "--count",
        dest="old_number",
        type=positive,
        metavar="N",
        help="the old name of --number (it warns: everywhere else --count counts solutions)",
    )
    generate.add_argument(
        "--seed",
        dest="first_seed",
        type=int,
        metavar="S",
        help="the first puzzle's seed (default: fresh ones)",
    )
    generate.add_argument(
        "--format",
        choices=("text", "json", "svg"),
        default="text",
        help="output format (svg: one puzzle)",
    )
    _add_puzzle_options(generate)
    generate.set_defaults(handler=run, rules=RULES)


def _add_puzzle_options(generate: argparse.ArgumentParser) -> None:
    generate.add_argument(
        "--density", type=float, metavar="D", help="kakuro: the share of white cells (default 0.6)"
    )
    generate.add_argument(
        "--symmetric", action="store_true", help="sudoku: clues in pairs under a half turn"
    )
    generate.add_argument(
        "--variant",
        metavar="V",
        help="sudoku: x, jigsaw, killer, or parts joined by '-' (killer-jigsaw-x); text is "
        "then the variant format 'lazysearch sudoku' reads, one puzzle a file",
    )
    generate.add_argument(
        "--max-nodes",
        type=positive,
        metavar="N",
        help="sudoku: nodes a clue's proof may take (for 25x25)",
    )
    generate.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="make no new puzzle after SECONDS (looked at between puzzles; exit status 5, "
        "what was made is kept, and the line says how to go on)",
    )
    generate.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write to FILE (replaced only when the run succeeds or stops at --time-limit)",
    )
    generate.add_argument("--quiet", "-q", action="store_true", help="no statistics on stderr")
    generate.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="a progress bar on stderr over the puzzles (default: on when stderr is a terminal)",
    )


def _check(args: argparse.Namespace) -> None:
    """Refuse what the puzzle asked for does not take."""
    if args.old_number is not None:
        if args.number is not None:
            raise CliError("give --number N alone: --count N is its old name")
        warnings.warn(
            "--count N is now --number N (make N puzzles); --count counts solutions "
            "in every other command",
            FutureWarning,  # (shown by default: DeprecationWarning is for developers)
            stacklevel=1,
        )
        args.number = args.old_number
    if args.number is None:
        args.number = 1
    if args.format == "svg" and args.number > 1:
        raise CliError(f"--format svg draws one puzzle; got --number {args.number}")
    sudoku_only = ("box", "symmetric", "max_nodes", "variant")
    wrong = (("density",) if args.puzzle == "sudoku" else sudoku_only) + (
        ("size",) if args.puzzle == "sudoku" else ()
    )
    for name in wrong:
        if given(args, name):
            what = "size" if name == "size" else flag(name)
            hint = ""
            if name == "size":
                rows, cols = args.size
                box = _box_of(rows) if rows == cols else None
                hint = ": the grid is set by its box, --box RxC (default 3x3, a 9x9 grid)"
                if box is not None:
                    hint = f": the grid is set by its box (a {rows}x{cols} grid: --box {box})"
            raise CliError(f"generate {args.puzzle} takes no {what}{hint}")


def _box_of(n: int) -> str | None:
    """The usual box of an n x n sudoku, as --box takes it."""
    from ...puzzles.sudoku import box_shape

    try:
        rows, cols = box_shape(n)
    except ValueError:
        return None
    return f"{rows}x{cols}"


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``--number`` puzzles from seeds ``S, S + 1, ...``."""
    import json

    _check(args)
    shown = args.number > 1 and show_bar(args)
    bar = progress_bar(f"lazysearch generate {args.puzzle}: ") if shown else None
    # Several kakuro in JSON make one array, a puzzle a line: the kakuro reader takes
    # an array of puzzles, not lines of objects.
    array = args.puzzle == "kakuro" and args.format == "json" and args.number > 1
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    status = EXIT_OK
    try:
        for i in range(args.number):
            seed = None if args.first_seed is None else args.first_seed + i
            if i > 0 and deadline is not None and time.monotonic() >= deadline:
                _print_time_limit(args, i, seed)
                status = EXIT_BUDGET
                break
            if args.puzzle == "sudoku":
                out.write(_sudoku(args, seed, json))
            else:
                text = _kakuro(args, seed, json)
                if array:
                    text = ("[" if i == 0 else ",") + text
                out.write(text)
            if bar is not None:
                bar.update(1 / args.number)
        if array:
            out.write("]\n")
    finally:
        if bar is not None:
            bar.close()
    return status


def _print_time_limit(args: argparse.Namespace, made: int, seed: int | None) -> None:
    after = (
        f"go on with --seed {seed} --number {args.number - made}"
        if seed is not None
        else "the rest are new puzzles from fresh seeds"
    )
    print(
        f"lazysearch generate {args.puzzle}: time limit of {args.time_limit:g} s "
        f"reached after {made} of {args.number} puzzles; {after}",
        file=sys.stderr,
    )


def _sudoku(args: argparse.Namespace, seed: int | None, json: Any) -> str:
    from ...puzzles import sudoku

    p = sudoku.generate(
        args.box or (3, 3),
        seed=seed,
        symmetric=args.symmetric,
        max_nodes=args.max_nodes,
        variant=args.variant,
    )
    r = p.rating
    if args.format == "svg":
        return p.svg()
    if args.format == "json":
        line: str = json.dumps(p.json(), separators=(",", ":"))
        return line + "\n"
    what = f"{p.clues} clues"
    body = str(p)
    if args.variant is not None:
        # The variant text format: givens, regions, cages and sums, diagonals.
        cages = getattr(p, "cages", None)
        what = f"{p.variant}, " + (f"{len(cages)} cages" if cages is not None else what)
        body = p.text()  # type: ignore[attr-defined]
    return (
        f"# seed {p.seed}: {what}, rating {r.score} ({r.level}, {NODES.of(r.nodes)})"
        f"{'' if p.minimal else ', minimality not proved'}\n{body}\n"
    )


def _kakuro(args: argparse.Namespace, seed: int | None, json: Any) -> str:
    from ... import kakuro

    rows, cols = args.size or (15, 15)
    density = 0.6 if args.density is None else args.density
    p = kakuro.generate(rows, cols, seed=seed, density=density)
    r = p.rating
    if not args.quiet and args.format != "json":
        print(
            f"lazysearch generate kakuro: seed {p.seed}: {len(p.white)} white cells, "
            f"rating {r.score} ({r.level}, {NODES.of(r.nodes)})",
            file=sys.stderr,
        )
    if args.format == "svg":
        return kakuro_svg(p)
    if args.format == "json":
        # The reader's own object (rows, cols, runs), with what made it beside: the
        # reader passes over keys it does not know.
        fields = {
            **json.loads(kakuro.write_json(p)),
            "seed": p.seed,
            "rating": r._asdict(),
            "solution": p.solution.grid(),
        }
        line: str = json.dumps(fields, separators=(",", ":"))
        return line + "\n"
    return kakuro.write_grid(p) + "\n"


def kakuro_svg(p: Any) -> str:
    """A kakuro puzzle drawn with its white cells empty."""
    from ...render.svg import kakuro_board

    picture: str = kakuro_board(p, {})
    return picture
