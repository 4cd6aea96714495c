"""The ``lazysearch`` command line: ``lazysearch SUBCOMMAND ...``.

Solutions go to standard output, statistics to standard error.  Bad input is reported
in one line on standard error with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TextIO

from .._machine import available_memory
from ..errors import CheckpointError, LazysearchError, TooLargeError

if TYPE_CHECKING:
    from ..parallel import Listing

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
#: The problem or file is larger than this machine can hold (refused before the work,
#: or a MemoryError), nested too deeply, or has numbers beyond the engines' integers.
EXIT_TOO_LARGE = 3
#: A failure that is a bug of lazysearch: one line, and LAZYSEARCH_TRACEBACK=1 shows it.
EXIT_INTERNAL = 4
#: A --time-limit or --node-limit was reached: what was found so far is printed, and
#: with --checkpoint the run file goes on (not an error: the run did what was asked).
EXIT_BUDGET = 5
EXIT_INTERRUPTED = 130

EXIT_STATUSES = (
    "Exit status: 0 done, 1 no such solution (--nth, --sample, --format svg), "
    "2 bad input or arguments, 3 too large for this machine (memory, nesting, or numbers "
    "beyond the engines' integers), 4 internal error (a bug: LAZYSEARCH_TRACEBACK=1 "
    "shows where), 5 stopped at --time-limit or --node-limit (partial), 130 interrupted."
)


class CliError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def _json(**fields: Any) -> str:
    """One line of compact JSON (json is imported only by the runs that print some)."""
    import json

    return json.dumps(fields, separators=(",", ":")) + "\n"


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout with the width found without ``shutil`` (whose import
    brings zlib, bz2 and lzma: 2-3 ms of every run, help or not)."""

    def __init__(self, prog: str) -> None:
        try:
            width = int(os.environ.get("COLUMNS", ""))
        except ValueError:
            try:
                width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                width = 80
        super().__init__(prog, width=max(width - 2, 20))


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and ``--help`` for more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        wrong, _, choices = message.partition("invalid choice: ")[2].partition(" (choose from ")
        if choices:  # a misspelt command or choice: name the nearest
            message += _nearest(wrong.strip("'"), [c.strip(" ')") for c in choices.split(",")])
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _pair(separator: str, shape: str, example: str) -> Callable[[str], tuple[int, int]]:
    """An argparse type for two whole numbers joined by ``separator`` (``6x10``, ``0,0``)."""

    def parse(text: str) -> tuple[int, int]:
        first, sep, second = text.lower().partition(separator)
        try:
            if not sep:
                raise ValueError
            return int(first), int(second)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {shape} (e.g. {example}), got {text!r}"
            ) from None

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds > 0, got {text!r}")
    return value


_square = _pair(",", "a square as ROW,COL, counted from 0", "0,0")
_size = _pair("x", "a board size as ROWSxCOLS", "6x10")


def _board_size(text: str) -> tuple[int, int]:
    size = _size(text)
    if min(size) < 1:
        raise argparse.ArgumentTypeError(f"a board needs sides >= 1, got {text!r}")
    return size


def _side_or_size(text: str) -> int | tuple[int, int]:
    """A board's side (``8``) or its size (``3x100``)."""
    return _board_size(text) if "x" in text.lower() else _positive(text)


def _add_run_options(
    p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json"), sample: bool = False
) -> None:
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument("--limit", type=_positive, metavar="N", help="stop after N solutions")
    p.add_argument(
        "--nth",
        type=_positive,
        metavar="N",
        help="print only the N-th solution (exit status 1 if there are fewer)"
        + ("; --format svg draws the first by default" if "svg" in formats else ""),
    )
    p.add_argument("--every", type=_positive, metavar="M", help="print only every M-th solution")
    p.add_argument(
        "--format",
        choices=formats,
        default="text",
        help="how to print solutions"
        + (" (svg: a picture of one solution)" if "svg" in formats else "")
        + "; json also for --count and --estimate",
    )
    p.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write to FILE instead of standard output; it is replaced only when the run "
        "succeeds (nothing is left behind on an error or Ctrl-C), except in a listing with "
        "--checkpoint or --resume: written as it goes, and cut back on --resume to what "
        "the run file says was written",
    )
    p.add_argument(
        "--workers",
        type=_positive,
        metavar="N",
        help="search in N processes (solutions are listed in the same order)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no statistics on stderr")
    long = p.add_argument_group("long runs")
    long.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="a progress bar on stderr (default: on when stderr is a terminal)",
    )
    long.add_argument(
        "--estimate",
        action="store_true",
        help="print Knuth's estimate of the tree size and solution count, without searching",
    )
    long.add_argument(
        "--samples", type=_positive, metavar="N", help="probes for --estimate (default 1000)"
    )
    long.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="random seed for --estimate (and for --sample, where the command has it)",
    )
    long.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="write the search's position to FILE every few seconds and on Ctrl-C/SIGTERM",
    )
    long.add_argument(
        "--checkpoint-every",
        type=_seconds,
        metavar="SECONDS",
        help="seconds between checkpoints (default 5; 60 for knights --count by "
        "the program and --count --method memo, whose tables may take seconds to write)",
    )
    long.add_argument(
        "--resume", metavar="FILE", help="go on from a run file written by --checkpoint"
    )
    long.add_argument(
        "--time-limit",
        type=_seconds,
        metavar="SECONDS",
        help="stop after SECONDS of searching (exit status 5; with --checkpoint, --resume goes on)",
    )
    long.add_argument(
        "--node-limit",
        type=_positive,
        metavar="N",
        help="stop after about N nodes (looked at every 65,536; exit status 5)",
    )
    long.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count or list on the Dask cluster at ADDRESS (pip install 'lazysearch[dask]')",
    )


def _add_count_method(p: argparse.ArgumentParser) -> None:
    """``--method`` for the exact-cover commands (knights has its own)."""
    p.add_argument(
        "--method",
        choices=("auto", "memo", "enumerate"),
        help="with --count: 'memo' counts by remembered subproblems (fast where they "
        "recur, as in tilings), 'enumerate' walks every solution, 'auto' (default) "
        "probes 256 memo nodes and picks",
    )


def _add_sample(p: argparse.ArgumentParser) -> None:
    """``--sample`` for the exact-cover commands (they draw from the memo's diagram)."""
    p.add_argument(
        "--sample",
        type=_positive,
        metavar="K",
        help="print K solutions drawn uniformly at random (with replacement) from all of "
        "them, without listing the rest; --seed S repeats a draw",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lazysearch",
        description="Combinatorial search with lazy streams of solutions.",
        epilog=EXIT_STATUSES,
    )
    parser.add_argument(
        "--version",
        action=_Version,
        help="print the version and whether the compiled engines are in use, and exit",
    )
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        required=True,
        parser_class=_Parser,
        help="what to search (lazysearch COMMAND --help for its options)",
    )

    dlx = sub.add_parser("dlx", help="solve an exact-cover problem in Knuth's text format")
    dlx.add_argument("file", help="the problem file, or - for standard input")
    dlx.add_argument(
        "--engine",
        choices=("auto", "links", "cells", "bits"),
        default="auto",
        help="the machine that walks the tree: dancing links, dancing cells or bitsets (no "
        "colours; the same answers, each its own positions: a checkpoint resumes on the "
        "engine that took it; see docs/exact-cover.md for how auto chooses)",
    )
    dlx.add_argument(
        "--reduce",
        action="store_true",
        help="first remove the options no solution can hold and the items that come along "
        "with others (Knuth's DLX-PRE); the answers are the same, said on stderr",
    )
    _add_run_options(dlx)
    _add_count_method(dlx)
    _add_sample(dlx)
    dlx.add_argument(
        "--cheapest",
        type=_positive,
        metavar="K",
        help="list the K cheapest solutions, cheapest first (options priced by a '|cost' "
        "at the end of their lines; branch and bound)",
    )
    dlx.set_defaults(handler=_cmd_dlx)

    queens = sub.add_parser("queens", help="place N non-attacking queens")
    queens.add_argument("n", type=_positive, metavar="N", help="the board's side and queens")
    _add_run_options(queens)
    _add_count_method(queens)
    _add_sample(queens)
    queens.set_defaults(handler=_cmd_queens)

    sudoku = sub.add_parser(
        "sudoku",
        help="solve sudoku puzzles, one per line (any box size)",
        epilog=_PUZZLES_EPILOG,
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
    _add_run_options(sudoku, formats=("text", "json", "svg"))
    _add_count_method(sudoku)
    _add_sample(sudoku)
    sudoku.set_defaults(handler=_cmd_sudoku)

    langford = sub.add_parser(
        "langford", help="Langford pairs of order N (each pair with its reversal once)"
    )
    langford.add_argument("n", type=_positive, metavar="N", help="the order: pairs 1..N")
    _add_run_options(langford)
    _add_count_method(langford)
    _add_sample(langford)
    langford.set_defaults(handler=_cmd_langford)

    pentomino = sub.add_parser(
        "pentomino",
        aliases=["polyomino"],
        help="tile a ROWSxCOLS rectangle with the 12 pentominoes (or other pieces)",
    )
    pentomino.add_argument("size", type=_board_size, metavar="ROWSxCOLS", help="e.g. 6x10")
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
    _add_run_options(pentomino, formats=("text", "json", "svg"))
    _add_count_method(pentomino)
    _add_sample(pentomino)
    pentomino.set_defaults(handler=_cmd_pentomino)

    polycube = sub.add_parser(
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
        type=_polyform_size,
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
    _add_run_options(polycube, formats=("text", "json", "svg"))
    polycube.set_defaults(handler=_cmd_polycube)

    knights = sub.add_parser(
        "knights",
        help="knight's tours of a ROWS x COLS board",
        description="Knight's tours: all of them (directed: each start and direction), "
        "a count, or --one tour fast on boards of millions of squares.",
    )
    knights.add_argument(
        "rows", type=_side_or_size, metavar="ROWS", help="rows, or the board as ROWSxCOLS"
    )
    knights.add_argument(
        "cols", type=_positive, nargs="?", metavar="COLS", help="columns (default: ROWS)"
    )
    knights.add_argument(
        "--closed", action="store_true", help="tours that end a move from the start"
    )
    knights.add_argument("--start", type=_square, metavar="ROW,COL", help="start square (0-based)")
    knights.add_argument(
        "--one",
        action="store_true",
        help="one tour, found fast even on huge boards (with --format, -o, -q only)",
    )
    knights.add_argument(
        "--directed",
        action="store_true",
        help="with --closed --count: count every start and direction, not each cycle once",
    )
    knights.add_argument(
        "--method",
        choices=("auto", "dp", "enumerate", "join", "order", "parts"),
        help="with --count: 'dp' counts by dynamic programming over the board's "
        "cross-sections (one process, no tour built), 'order' by the same kind of "
        "program over an order of the squares chosen to keep its frontier narrow (one "
        "process, no bar or checkpoint), 'join' (closed tours) runs 'dp' on "
        "the two halves and joins them across the middle, 'enumerate' walks every tour, "
        "'auto' (default) picks the faster for the board; with --sample, 'dp' draws "
        "from the program's tables, 'join' (closed tours) through the join, 'parts' "
        "(closed tours) through the join one part at a time (7 or more across)",
    )
    knights.add_argument(
        "--sample",
        type=_positive,
        metavar="K",
        help="print K tours drawn exactly uniformly at random from all those --count "
        "counts (closed: each cycle equally likely, entered at --start or the corner, "
        "either way round); same --seed, same tours",
    )
    knights.add_argument(
        "--parts",
        metavar="FILE",
        help="with --sample through the join in parts (closed tours, 7 or more across): "
        "read the parts' counts from FILE, the checkpoint of a finished or stopped "
        "'knights ROWS COLS --closed --count --checkpoint FILE' of the same board, "
        "instead of counting them again (8x8: about 1,000 s of CPU); with --workers N, "
        "the parts FILE lacks are counted in N processes",
    )
    _add_run_options(knights, formats=("text", "json", "svg"), sample=True)
    knights.set_defaults(handler=_cmd_knights)

    kakuro = sub.add_parser(
        "kakuro",
        help="solve kakuro puzzles (grid, janko, PROP, CSV, dzn, JSON and more)",
        epilog=_PUZZLES_EPILOG + " A kakuro puzzle's name, when it has one, is in 'name'.",
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
    _add_run_options(kakuro, formats=("text", "json", "svg"))
    kakuro.set_defaults(handler=_cmd_kakuro)

    generate = sub.add_parser(
        "generate",
        help="make puzzles with exactly one solution, rated (sudoku, kakuro)",
        epilog="Text is what 'lazysearch sudoku' and 'lazysearch kakuro' read (a sudoku's "
        "seed and rating on a '#' line before it; a kakuro's on stderr); so is JSON (a "
        "sudoku a line; a kakuro one object, or an array of them with --count). Puzzle i of "
        "--count is made from seed S + i - 1.",
    )
    generate.add_argument("puzzle", choices=("sudoku", "kakuro"), help="what to make")
    generate.add_argument(
        "size",
        nargs="?",
        type=_board_size,
        help="kakuro: ROWSxCOLS, clue row and column included (default 15x15)",
    )
    generate.add_argument(
        "--box", type=_board_size, metavar="RxC", help="sudoku: the box (default 3x3)"
    )
    generate.add_argument(
        "--count",
        dest="number",
        type=_positive,
        default=1,
        metavar="N",
        help="make N puzzles (default 1)",
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
        type=_positive,
        metavar="N",
        help="sudoku: nodes a clue's proof may take (for 25x25)",
    )
    generate.add_argument(
        "--time-limit",
        type=_seconds,
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
    generate.set_defaults(handler=_cmd_generate, limit=None, checkpoint=None, resume=None)
    return parser


_PUZZLES_EPILOG = (
    "Puzzles are numbered from 1 in the order of the file: with several, each solution "
    "and each --count is labelled 'puzzle N', and --format json gives 'puzzle': N."
)


class _Version(argparse.Action):
    """``--version``: the version, and which engines run compiled (C) or as plain Python."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        print(version_text())
        parser.exit(EXIT_OK)


def version_text() -> str:
    """What ``lazysearch --version`` prints: the version, then the engines in use."""
    import platform

    from .. import _ENGINES, __version__, _native

    compiled: list[str] = []
    plain: list[str] = []
    for name in _ENGINES:
        module = _native.load(name)
        short = name.removeprefix("lazysearch.")
        (compiled if getattr(module, "COMPILED", False) else plain).append(short)
    if not plain:
        engines = f"engines: compiled C ({', '.join(compiled)})"
    else:
        why = (
            "LAZYSEARCH_PURE is set"
            if _native.pure_requested()
            else "not compiled at install: reinstall with a C compiler and Cython"
        )
        engines = f"engines: plain Python, slower ({why}): {', '.join(plain)}"
        if compiled:
            engines += f"; compiled C: {', '.join(compiled)}"
    return f"lazysearch {__version__} (Python {platform.python_version()})\n{engines}"


def _given(args: argparse.Namespace, name: str) -> bool:
    value = getattr(args, name, None)
    return value is not None and value is not False


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


#: What a search's options mean only with others, or contradict: (condition, why).  The
#: first that holds is refused before any work, in one line.
_RULES: list[tuple[Callable[[argparse.Namespace], bool], str]] = [
    (
        lambda a: (
            _given(a, "convert")
            and any(_given(a, f) for f in ("count", "limit", "nth", "every", "workers", "estimate"))
        ),
        "--convert prints the puzzles without solving them: leave out the search's options",
    ),
    (
        lambda a: _given(a, "convert") and a.format != "text",
        "--convert prints the puzzles in its own format: leave out --format",
    ),
    (
        lambda a: (
            _given(a, "one")
            and any(
                _given(a, f)
                for f in ("count", "limit", "nth", "every", "workers", "estimate", "directed")
            )
        ),
        "--one finds one tour, the fast way: leave out --count, --limit, --nth, --every, "
        "--workers, --estimate and --directed",
    ),
    (
        lambda a: (
            (_given(a, "one") or _given(a, "convert"))
            and any(_given(a, f) for f in ("checkpoint", "resume", "scheduler", "progress"))
        ),
        "--checkpoint, --resume, --scheduler and --progress follow a search, "
        "and this command runs none",
    ),
    (
        lambda a: (
            a.command != "knights"
            and _given(a, "sample")
            and any(
                _given(a, f)
                for f in (
                    *("count", "limit", "nth", "every", "estimate", "method", "workers"),
                    *("scheduler", "checkpoint", "resume", "progress"),
                )
            )
        ),
        "--sample K draws K solutions from the whole problem at once: leave out --count, "
        "--limit, --nth, --every, --estimate, --method, --workers, --scheduler, "
        "--checkpoint, --resume and --progress",
    ),
    (
        lambda a: _given(a, "sample") and a.format == "svg" and a.sample > 1,
        "--format svg draws one solution: use --sample 1",
    ),
    (
        lambda a: (
            _given(a, "estimate")
            and any(
                _given(a, f)
                for f in ("count", "limit", "nth", "every", "workers", "scheduler", "checkpoint")
            )
        ),
        "--estimate samples the tree without searching it: leave out --count, --limit, "
        "--nth, --every, --workers, --scheduler and --checkpoint",
    ),
    (
        lambda a: _given(a, "estimate") and _given(a, "resume"),
        "--estimate samples the whole tree: leave out --resume",
    ),
    (
        lambda a: _given(a, "estimate") and a.format == "svg",
        "--estimate prints numbers, not a picture: use --format text or json",
    ),
    (
        lambda a: (
            a.command == "knights"
            and _given(a, "sample")
            and any(
                _given(a, f)
                for f in (
                    "count",
                    "limit",
                    "nth",
                    "every",
                    "scheduler",
                    "estimate",
                    "one",
                    "directed",
                    "checkpoint",
                    "resume",
                )
            )
        ),
        "--sample K draws K tours at random: leave out --count, --limit, --nth, --every, "
        "--scheduler, --estimate, --one, --directed, --checkpoint and --resume (a "
        "count's checkpoint goes to --parts FILE)",
    ),
    (
        lambda a: a.command == "knights" and _given(a, "parts") and not _given(a, "sample"),
        "--parts FILE gives --sample a count's parts: give --sample K",
    ),
    (
        lambda a: (
            a.command == "knights"
            and _given(a, "sample")
            and a.method in ("enumerate", "join", "parts")
            and (a.method == "enumerate" or not a.closed)
        ),
        "--sample draws with --method auto, dp, join or parts (join and parts: closed tours only)",
    ),
    (
        lambda a: a.command == "knights" and a.method == "parts" and not _given(a, "sample"),
        "--method parts draws tours: give --sample K",
    ),
    (
        lambda a: (
            (_given(a, "samples") and not _given(a, "estimate"))
            or (_given(a, "seed") and not (_given(a, "estimate") or _given(a, "sample")))
        ),
        "--samples and --seed are for --estimate (and --seed for --sample)",
    ),
    (
        lambda a: _given(a, "count") and (_given(a, "nth") or _given(a, "every")),
        "--count prints a number, and --nth/--every choose solutions to print",
    ),
    (
        lambda a: _given(a, "count") and a.format == "svg",
        "--count prints a number, and --format svg draws a solution",
    ),
    (
        lambda a: _given(a, "nth") and (_given(a, "limit") or _given(a, "every")),
        "--nth N prints the N-th solution alone: leave out --limit and --every",
    ),
    (
        lambda a: a.format == "svg" and not _given(a, "one") and (a.limit or 1) > 1,
        "--format svg draws one solution: choose it with --nth N, not --limit",
    ),
    (
        lambda a: a.format == "svg" and _given(a, "every"),
        "--format svg draws one solution: choose it with --nth N, not --every",
    ),
    (
        lambda a: _given(a, "directed") and not (_given(a, "closed") and _given(a, "count")),
        "--directed changes what --closed --count counts; give all three",
    ),
    (
        lambda a: (
            _given(a, "start")
            and _given(a, "closed")
            and _given(a, "count")
            and not _given(a, "directed")
            and a.limit is None
        ),
        "--closed --count counts each cycle once, whatever its start: "
        "add --directed to count the tours from --start",
    ),
    (
        lambda a: (
            _given(a, "method")
            and not (_given(a, "count") and a.limit is None)
            and not (a.command == "knights" and _given(a, "sample"))
        ),
        "--method chooses how --count counts them all: give --count (without --limit)",
    ),
    (
        lambda a: (
            getattr(a, "method", None) == "memo"
            and any(_given(a, f) for f in ("workers", "scheduler"))
        ),
        "--method memo counts in one process: leave out --workers and --scheduler",
    ),
    (
        lambda a: (
            getattr(a, "method", None) == "dp" and (_given(a, "workers") or _given(a, "scheduler"))
        ),
        "--method dp counts in one process; leave out --workers and --scheduler",
    ),
    (
        lambda a: getattr(a, "scheduler", None) is not None and not a.scheduler.strip(),
        "--scheduler needs the address of a Dask scheduler (tcp://HOST:PORT), not an empty one",
    ),
    (
        lambda a: (_given(a, "time_limit") or _given(a, "node_limit")) and _given(a, "estimate"),
        "--time-limit and --node-limit stop a search, and --estimate searches nothing: "
        "leave out --estimate",
    ),
    (
        lambda a: _given(a, "checkpoint_every") and not _given(a, "checkpoint"),
        "--checkpoint-every needs --checkpoint FILE",
    ),
    (
        lambda a: bool(a.progress) and (_given(a, "workers") or _given(a, "scheduler")),
        "--progress follows one process's walk; leave out --workers and --scheduler",
    ),
    (
        lambda a: (
            _given(a, "output")
            and a.output != "-"
            and a.output in (a.checkpoint, a.resume, getattr(a, "file", None))
        ),
        "-o names a file this run reads or checkpoints to: write elsewhere",
    ),
]


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse options that would be ignored or that contradict each other (see _RULES)."""
    for holds, why in _RULES:
        if holds(args):
            raise CliError(why)


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args``; an unknown option is refused with the nearest known one."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        chosen = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(args.command, parser)
        known = [o for action in chosen._actions for o in action.option_strings]
        hint = ""
        for extra in extras:
            if extra.startswith("-"):
                hint = _nearest(extra.partition("=")[0], known)
                break
        chosen.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return args


def _nearest(word: str, known: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the known word nearest ``word``, if one is near."""
    import difflib

    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


class _Output:
    """Where the results go: standard output, or (``-o FILE``) a temporary file beside
    FILE that replaces it only when the run succeeds, so that an error or Ctrl-C leaves
    no empty or partial file, and an existing one as it was."""

    def __init__(self, path: str | None, as_it_goes: bool = False) -> None:
        self.path = path
        self.temp: str | None = None
        self.handle: TextIO = sys.stdout
        self.created = False
        if path is None or path == "-":
            return
        import os
        import tempfile

        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise CliError(f"cannot write {path}: it is a folder")
        if as_it_goes:
            # A listing with a run file: FILE is the output so far, cut back to what the
            # run file says was written when resumed (see _written_as_it_goes).
            self.created = not os.path.exists(path)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
            except OSError as exc:
                raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
            self.handle = open(fd, "a", encoding="utf-8")  # noqa: SIM115 - closed in finish()
            return
        from ..longrun import remove_stale_temporaries

        # The name carries the writer's process id: those of writers killed before they
        # could clean up (kill -9) are removed here, so that they never pile up.
        prefix = f".{os.path.basename(path)}.lazysearch-"
        remove_stale_temporaries(folder, prefix, ".part")
        try:
            fd, self.temp = tempfile.mkstemp(
                prefix=f"{prefix}{os.getpid()}.", suffix=".part", dir=folder
            )
        except OSError as exc:
            raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.handle = open(fd, "w", encoding="utf-8")  # noqa: SIM115 - closed in finish()

    def finish(self, keep: bool) -> None:
        """Put the file in place (``keep``), or remove every trace of it."""
        import os

        if self.temp is None and self.handle is not sys.stdout:  # written as it goes
            self.handle.close()
            if not keep and self.created and self.path and os.path.getsize(self.path) == 0:
                _remove(self.path)  # a run that failed before writing anything
            return
        if self.temp is None or self.path is None:
            return

        temp, self.temp = self.temp, None
        try:
            if keep:
                self.handle.flush()
                os.fsync(self.handle.fileno())
            self.handle.close()
            if keep:
                try:
                    mode = os.stat(self.path).st_mode & 0o7777
                except OSError:
                    mask = os.umask(0)
                    os.umask(mask)
                    mode = 0o666 & ~mask
                os.chmod(temp, mode)
                os.replace(temp, self.path)
                return
        except BaseException:
            _remove(temp)
            raise
        _remove(temp)


def _remove(path: str) -> None:
    import os

    with contextlib.suppress(OSError):
        os.unlink(path)


def _read_source(name: str, command: str = "") -> tuple[str, str]:
    """The text of file ``name`` (``-``: standard input), refused with
    :class:`TooLargeError` when reading it would take more memory than is available."""
    per_byte = _BYTES_PER_TEXT_BYTE.get(command, 100)
    available = available_memory()
    limit = None if available is None else available // per_byte
    if name == "-":
        return _bounded(sys.stdin, limit, "standard input", per_byte), "<stdin>"
    try:
        with open(name, encoding="utf-8") as f:
            return _bounded(f, limit, name, per_byte), name
    except OSError as exc:
        raise CliError(f"cannot read {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"cannot read {name}: not UTF-8 text (byte {exc.start})") from None


def _bounded(handle: TextIO, limit: int | None, name: str, per_byte: int) -> str:
    """At most ``limit`` characters of ``handle`` (all when None): more is refused, so an
    endless input (``/dev/zero``) or a huge one ends in one line, not a MemoryError."""
    if limit is None:
        return handle.read()
    text = handle.read(limit + 1)
    if len(text) > limit:
        raise TooLargeError(
            f"{name} is larger than {limit:,} characters: reading it would take more than "
            f"the {_gb(limit * per_byte)} of memory available (about {per_byte} bytes "
            "a character)"
        )
    return text


@contextlib.contextmanager
def _parallel(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The keyword arguments for a parallel count: ``workers``, or a Dask cluster's
    executor (and its number of workers) for ``--scheduler``."""
    address = getattr(args, "scheduler", None)
    if not address:
        yield {"workers": args.workers} if args.workers else {}
        return
    import importlib

    try:
        distributed = importlib.import_module("distributed")  # untyped: reached as Any
    except ImportError:
        raise CliError("--scheduler needs Dask: pip install 'lazysearch[dask]'") from None
    try:
        client = distributed.Client(address, timeout=5)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CliError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        workers = len(client.scheduler_info().get("workers", {})) or 1
        yield {"workers": args.workers or workers, "executor": client.get_executor()}
    finally:
        client.close()


def _single_search(args: argparse.Namespace, searches: int, what: str) -> None:
    """--checkpoint and --resume follow one search: refuse them for ``searches != 1``."""
    for flag in ("checkpoint", "resume"):
        if getattr(args, flag, None) and searches != 1:
            raise CliError(f"--{flag} follows one search, and {what}")


class Tag(NamedTuple):
    """Which puzzle of a file a run is about: ``text`` labels its lines ("puzzle 2, ")
    and ``fields`` go into its JSON lines ({"puzzle": 2})."""

    text: str
    fields: dict[str, Any]


_NO_TAG = Tag("", {})


def _puzzle_tag(number: int, of: int, name: str = "") -> Tag:
    """The tag of puzzle ``number`` (from 1) of a file of ``of``: labelled when there are
    several; its number (and name, if any) always in JSON."""
    fields: dict[str, Any] = {"puzzle": number}
    if name:
        fields["name"] = name
    text = f"puzzle {number}{f' ({name})' if name else ''}, " if of > 1 else ""
    return Tag(text, fields)


def _finite(x: float) -> float | None:
    return x if x == x and abs(x) != float("inf") else None


def _print_count(args: argparse.Namespace, out: TextIO, found: int, tag: Tag) -> None:
    if args.format == "json":
        out.write(_json(**tag.fields, count=found))
    else:
        out.write(f"{tag.text.removesuffix(', ')}: {found}\n" if tag.text else f"{found}\n")


def _nth(args: argparse.Namespace) -> int | None:
    """The one solution to print: ``--nth``, or the first for a picture."""
    nth: int | None = args.nth
    if nth is None and args.format == "svg" and not args.count:
        nth = 1
    return nth


def _run(
    args: argparse.Namespace,
    stream: Any,
    show: Callable[[int, Any], str],
    out: TextIO,
    started: float | None = None,
    tag: Tag = _NO_TAG,
) -> int:
    """Count or print the solutions of ``stream`` as the options ask: with a progress
    bar, checkpoints and resumption when asked.  ``started``: when the work began (the
    time reported counts from there; default now).  ``tag``: which puzzle of a file."""
    from .. import longrun

    if started is None:
        started = time.perf_counter()
    if getattr(args, "sample", None):
        return _run_sample(args, stream, show, out, started, tag)
    if args.estimate:
        est = stream.estimate(samples=args.samples or 1000, seed=args.seed)
        if args.format == "json":
            fields = {
                **tag.fields,
                "samples": est.samples,
                "nodes": est.nodes,
                "nodes_stderr": _finite(est.nodes_stderr),
                "solutions": est.solutions,
                "solutions_stderr": _finite(est.solutions_stderr),
            }
            out.write(_json(**fields))
            return EXIT_OK
        print(
            f"{tag.text}estimate from {est.samples} probes: {est.nodes:.4g} nodes "
            f"(+- {est.nodes_stderr:.2g}), {est.solutions:.4g} solutions "
            f"(+- {est.solutions_stderr:.2g})",
            file=out,
        )
        return EXIT_OK
    if (
        args.count
        and getattr(args, "method", None) == "memo"
        and (
            args.progress
            or any(_given(args, f) for f in ("checkpoint", "resume", "time_limit", "node_limit"))
        )
    ):
        return _count_by_memo(args, stream, out, started, tag)
    mode = "count" if args.count else "list"
    if args.checkpoint and args.checkpoint != args.resume:
        longrun.check_writable(args.checkpoint)
    runner = longrun.Runner(
        args.checkpoint,
        command=args.command,
        mode=mode,
        every=args.checkpoint_every or longrun.DEFAULT_EVERY,
        progress=sys.stderr.isatty() if args.progress is None else args.progress,
    )
    planned = False  # a parallel run file: the count or listing resumes it itself
    written = 0  # the bytes of -o FILE the run file says were written
    if args.resume:
        try:
            record = longrun.load(args.resume, command=args.command, mode=mode)
        except OSError as exc:
            raise CliError(f"cannot read {args.resume}: {exc.strerror or exc}") from None
        except CheckpointError as exc:
            if _memo_checkpoint(args.resume):
                raise CliError(
                    f"{args.resume} is a checkpoint of a count by memo: add --method memo"
                ) from None
            raise exc from None
        planned = "plan" in record
        if not planned:
            stream = stream.resume(record["search"])
        runner.found = record["found"]
        written = record.get("output") or 0
    if _written_as_it_goes(args):
        _cut_output(args.output, out, written)

        def note() -> dict[str, Any]:
            out.flush()
            return {"found": runner.found, "output": os.fstat(out.fileno()).st_size}

    else:

        def note() -> dict[str, Any]:
            return {"found": runner.found}

    runner.note = note
    search = stream.search
    search.on_chunk = runner.tick
    if getattr(args, "time_limit", None) is not None:
        runner.deadline = time.monotonic() + args.time_limit
    if getattr(args, "node_limit", None) is not None:
        runner.node_limit = search.stats.nodes + args.node_limit
    nth = _nth(args)
    every = args.every or 1
    limit = nth or args.limit
    listing: Listing | None = None
    try:
        with runner.active(search):
            method = getattr(args, "method", None) or "auto"
            walked = any(
                _given(args, f)
                for f in (
                    "workers",
                    "scheduler",
                    "checkpoint",
                    "resume",
                    "time_limit",
                    "node_limit",
                )
            )
            by_memo = None
            if args.count and limit is None and method != "enumerate" and not walked:
                from ..exactcover import memo

                by_memo = memo.count(search, method, None)
            if by_memo is not None:
                runner.found = by_memo
            elif args.count and limit is None:
                # The engine's counter is the running total (a resumed search starts
                # from the checkpoint's), however the rest is counted.
                if args.workers or args.scheduler or planned:
                    from ..parallel import count as parallel_count

                    with _parallel(args) as parallel:
                        parallel_count(
                            search,
                            **{"workers": 1, **parallel},  # a resumed plan: one process
                            checkpoint=args.checkpoint,
                            resume=args.resume if planned else None,
                            every=args.checkpoint_every,
                            stop=lambda: runner.stop_requested,
                            command=args.command,
                            deadline=runner.deadline,
                            nodes=getattr(args, "node_limit", None),
                        )
                else:
                    search.count(callback=runner.tick)
                runner.found = search.stats.solutions
            else:
                left = None if limit is None else max(0, limit - runner.found)
                chosen = stream if left is None else stream.slice(left)
                with contextlib.ExitStack() as cluster:  # the Dask client of --scheduler
                    if args.workers or args.scheduler or planned:  # in parallel, or a plan
                        from ..parallel import Listing

                        parallel = cluster.enter_context(_parallel(args))
                        listing = Listing(
                            search,
                            **{"workers": 1, **parallel},  # a resumed plan: one process searches
                            checkpoint=args.checkpoint,
                            resume=args.resume if planned else None,
                            every=args.checkpoint_every,
                            stop=(lambda: runner.stop_requested) if args.checkpoint else None,
                            note=note,
                            command=args.command,
                            deadline=runner.deadline,
                            nodes=getattr(args, "node_limit", None),
                        )
                        # Closed before the client: its pool killed, its statistics
                        # given to the search if stopped (a --limit).
                        cluster.callback(listing.close)
                        solutions = chosen._build(iter(listing))
                    else:
                        solutions = chosen
                    for solution in solutions:
                        runner.found += 1
                        if not args.count and (
                            runner.found == nth if nth else runner.found % every == 0
                        ):
                            out.write(show(runner.found, solution))
                            out.flush()
                        if listing is None:
                            runner.tick(search)
                    if listing is not None:
                        listing.save()  # the last solution is written too (--limit)
            if listing is None:
                runner.checkpoint(search)
    except longrun.OutOfBudget as which:
        if len(which.args) > 1 and listing is None:  # a parallel count: its subtrees
            limit, found, done, planned_tasks, spent = which.args
            going_on = (
                f"go on with --resume {args.checkpoint}"
                if args.checkpoint
                else "--checkpoint FILE saves the finished subtrees to go on with --resume FILE"
            )
            print(
                f"lazysearch {args.command}: {tag.text}{limit} reached after {found} "
                f"solution{'' if found == 1 else 's'} in {done} of {planned_tasks} subtrees "
                f"({spent} nodes in this run); {going_on}",
                file=sys.stderr,
            )
            return EXIT_BUDGET
        if listing is not None:  # a parallel listing: the pieces read in this run
            going_on = (
                f"go on with --resume {args.checkpoint}"
                if args.checkpoint
                else "--checkpoint FILE saves the place to go on with --resume FILE"
            )
            print(
                f"lazysearch {args.command}: {tag.text}{which.args[0]} reached after "
                f"{runner.found} solution{'' if runner.found == 1 else 's'} "
                f"({which.args[2]} nodes in this run); {going_on}",
                file=sys.stderr,
            )
            return EXIT_BUDGET
        walked = search.progress()
        guess = ""
        if not getattr(args, "cheapest", None):
            # (A cost search prunes by cost: an estimate of the whole tree says nothing.)
            rest = search.estimate(1000, seed=0).solutions * (1.0 - walked)
            guess = f"about {rest:.3g} more by Knuth's estimate; "
        going_on = (
            f"go on with --resume {args.checkpoint}"
            if args.checkpoint
            else "--checkpoint FILE saves the place to go on with --resume FILE"
        )
        print(
            f"lazysearch {args.command}: {tag.text}{which} reached after {runner.found} "
            f"solution{'' if runner.found == 1 else 's'}, {search.stats.nodes} nodes, "
            f"{100 * walked:.1f}% of the tree; {guess}{going_on}",
            file=sys.stderr,
        )
        return EXIT_BUDGET
    except longrun.Stop as stop:
        if stop.args:  # a parallel count: the solutions of its finished subtrees
            runner.found = stop.args[0]
        print(
            f"lazysearch {args.command}: {tag.text}stopped after {runner.found} solutions; "
            f"go on with --resume {args.checkpoint}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        found = f"{runner.found} solution{'' if runner.found == 1 else 's'}"
        if args.workers or args.scheduler:  # the helpers' counts are not in yet
            so_far = f"{found} listed" if mode == "list" else "no count yet"
        else:
            so_far = f"{found}, {search.stats.nodes} nodes"
        if args.output and args.output != "-":
            so_far += f" ({args.output} not written)"
        print(
            f"lazysearch {args.command}: {tag.text}interrupted after {so_far}; "
            "--checkpoint FILE saves a run to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if args.count:
        _print_count(args, out, runner.found, tag)
    if not args.quiet:
        stats = stream.stats
        elapsed = time.perf_counter() - started
        plural = "" if runner.found == 1 else "s"
        print(
            f"{tag.text}{runner.found} solution{plural}, {stats.nodes} nodes, {elapsed:.3f} s",
            file=sys.stderr,
        )
    if nth is not None and runner.found < nth:
        print(
            f"lazysearch {args.command}: {tag.text}there is no solution {nth}, only {runner.found}",
            file=sys.stderr,
        )
        return EXIT_NO_SOLUTION
    return EXIT_OK


def _memo_checkpoint(path: str) -> bool:
    """Whether ``path`` holds a memo count's checkpoint (to say so when a run without
    ``--method memo`` is asked to resume it)."""
    from ..exactcover.memo import CHECKPOINT_FORMAT

    try:
        with open(path, encoding="utf-8") as handle:
            return f'"format":"{CHECKPOINT_FORMAT}"' in handle.read(200)
    except (OSError, ValueError):
        return False


def _note_stops(stops: list[int]) -> Callable[[], None]:
    """Have Ctrl-C and SIGTERM noted in ``stops`` (their numbers appended) instead of
    raised, and return what puts the old handlers back.  A long count looks at ``stops``
    at its next tick and stops there, its checkpoint written; an exception raised by the
    handler could land inside compiled code, which does not pass it on."""
    import signal

    def note(signum: int, frame: Any) -> None:
        stops.append(signum)

    handlers = {sig: signal.signal(sig, note) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)

    return restore


def _nothing_to_restore() -> None:
    """What :func:`_note_stops` returns when no handler was changed."""


def _count_by_memo(
    args: argparse.Namespace, stream: Any, out: TextIO, started: float, tag: Tag
) -> int:
    """``--count --method memo`` with a budget or a checkpoint: the memo table is saved
    to ``--checkpoint FILE`` every few seconds, at a limit and at Ctrl-C / SIGTERM, and
    read back by ``--resume FILE`` (:func:`lazysearch.exactcover.memo.count_within`)."""

    from ..exactcover import memo

    stops: list[int] = []
    out_of_time: list[bool] = []
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit

    def stop() -> bool:
        """Looked at between chunks of the walk: Ctrl-C / SIGTERM, or the time spent."""
        if deadline is not None and not stops and time.monotonic() >= deadline:
            out_of_time.append(True)
        return bool(stops or out_of_time)

    show_bar = sys.stderr.isatty() if args.progress is None else args.progress
    bar = longrun_bar(f"lazysearch {args.command}: ") if show_bar else None

    def progress(fraction: float) -> None:
        if bar is not None:
            bar.n = fraction
            bar.update(0)

    restore = _note_stops(stops) if args.checkpoint else _nothing_to_restore
    try:
        part = memo.count_within(
            stream.search,
            None,
            args.node_limit,
            checkpoint=args.checkpoint,
            every=args.checkpoint_every or memo.DEFAULT_CHECKPOINT_EVERY,
            resume=args.resume,
            stop=stop,
            progress=progress,
        )
    except OSError as exc:
        name = exc.filename or args.resume or args.checkpoint
        raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        print(
            f"lazysearch {args.command}: {tag.text}interrupted; --checkpoint FILE saves "
            "the memo table to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
        restore()
    record = part.checkpoint
    found = int(record["found"])
    nodes = int(record["nodes"])
    if not part.done:
        going_on = (
            f"go on with --resume {args.checkpoint}"
            if args.checkpoint
            else "--checkpoint FILE saves the memo table to go on with --resume FILE"
        )
        if stops:
            why, status = "stopped", EXIT_INTERRUPTED
        elif out_of_time:
            why, status = f"time limit of {args.time_limit:g} s reached", EXIT_BUDGET
        else:
            why, status = "node limit reached", EXIT_BUDGET
        print(
            f"lazysearch {args.command}: {tag.text}{why} after {found} "
            f"solution{'' if found == 1 else 's'} below the finished subproblems, "
            f"{len(record['table'])} subproblems in the table, {nodes} nodes, "
            f"{100 * part.progress:.1f}% of the tree; about {part.rest:.3g} more by "
            f"Knuth's estimate; {going_on}",
            file=sys.stderr,
        )
        return status
    _print_count(args, out, found, tag)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{tag.text}{found} solution{'' if found == 1 else 's'}, {nodes} nodes, "
            f"{len(record['table'])} subproblems, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _cut_output(path: str, out: TextIO, written: int) -> None:
    """Cut ``-o FILE``, written as the run goes, back to the ``written`` bytes the run
    file says were written (0 for a new run): what a run killed before its next
    checkpoint wrote after that is written again, not twice."""
    out.flush()
    size = os.fstat(out.fileno()).st_size
    if size < written:
        raise CliError(
            f"{path} has {size} bytes, and the run file says {written} were written: "
            "resume into the file the stopped run wrote"
        )
    os.ftruncate(out.fileno(), written)


def _run_sample(
    args: argparse.Namespace,
    stream: Any,
    show: Callable[[int, Any], str],
    out: TextIO,
    started: float,
    tag: Tag,
) -> int:
    """``--sample K``: K solutions drawn uniformly from the stream's diagram (see
    ``Solutions.diagram``), numbered 1..K in the order drawn; exit status 1 when there
    is no solution to draw."""
    diagram = stream.diagram()
    drawn = diagram.sample(args.sample, args.seed)
    for n, solution in enumerate(drawn, start=1):
        out.write(show(n, solution))
    out.flush()
    total = diagram.count()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{tag.text}{len(drawn)} drawn of {total} solution{'' if total == 1 else 's'}, "
            f"diagram of {diagram.size} nodes, {elapsed:.3f} s",
            file=sys.stderr,
        )
    if total == 0:
        print(f"lazysearch {args.command}: {tag.text}there is no solution to draw", file=sys.stderr)
        return EXIT_NO_SOLUTION
    return EXIT_OK


def _json_line(n: int, solution: Any, **extra: Any) -> str:
    return _json(solution=n, **extra)


def _cmd_dlx(args: argparse.Namespace, out: TextIO) -> int:
    from ..exactcover.knuth import format_option, parse

    text, source = _read_source(args.file, "dlx")
    problem = parse(text, source=source)
    problem.problem.engine_kind = args.engine  # one of ENGINES (argparse checked it)
    if args.reduce:
        from ..exactcover.reduce import reduce_problem

        problem.reduction = reduce_problem(problem.problem)
        if not args.quiet:
            print(problem.reduction.summary(problem.items), file=sys.stderr)
    stream = problem.solve()
    if args.cheapest:
        for flag in ("workers", "sample", "estimate"):
            if getattr(args, flag, None):
                raise CliError(f"--cheapest lists in order of cost, so it takes no --{flag}")
        if problem.costs is None:
            raise CliError(
                f"--cheapest needs options with costs ('|cost' ending an option line); "
                f"{source} gives none"
            )
        stream = stream.cheapest(args.cheapest)
    priced = {} if problem.costs is None else {"cost": 0}

    def show(n: int, solution: tuple[int, ...]) -> str:
        if priced:
            priced["cost"] = problem.cost(solution)
        if args.format == "json":
            return _json_line(
                n,
                solution,
                options=list(solution),
                rows=[format_option(problem.options[j]).split() for j in solution],
                **priced,
            )
        head = f"{n}: cost {priced['cost']}" if priced else f"{n}:"
        return head + "\n" + "".join(f" {format_option(problem.options[j])}\n" for j in solution)

    return _run(args, stream, show, out)


def _cmd_queens(args: argparse.Namespace, out: TextIO) -> int:
    from ..puzzles.queens import queens

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return _json_line(n, solution, columns=list(solution))
        rows = ["".join("Q" if c == col else "." for c in range(args.n)) for col in solution]
        return f"{n}:\n" + "\n".join(rows) + "\n"

    return _run(args, queens(args.n), show, out)


def _cmd_langford(args: argparse.Namespace, out: TextIO) -> int:
    from ..puzzles.langford import langford

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return _json_line(n, solution, sequence=list(solution))
        return " ".join(map(str, solution)) + "\n"

    return _run(args, langford(args.n), show, out)


def _cmd_pentomino(args: argparse.Namespace, out: TextIO) -> int:
    from ..puzzles import polyomino

    rows, cols = args.size
    pieces = getattr(polyomino, args.pieces.upper())
    area = sum(len(p.cells) for p in pieces.values())
    if rows * cols != area:
        raise CliError(
            f"the {len(pieces)} {args.pieces} cover {area} cells, "
            f"and a {rows}x{cols} board has {rows * cols}"
        )
    stream = polyomino.tile(polyomino.rectangle(rows, cols), pieces, distinct=args.distinct)

    def show(n: int, tiling: polyomino.Tiling) -> str:
        if args.format == "svg":
            return tiling.svg()
        if args.format == "json":
            grid = ["".join((name or ".")[0] for name in row) for row in tiling.grid()]
            return _json_line(n, tiling, rows=grid)
        return f"{n}:\n{tiling}\n"

    return _run(args, stream, show, out)


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


def _polyform_size(text: str) -> tuple[int, ...]:
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


def _cmd_polycube(args: argparse.Namespace, out: TextIO) -> int:
    from ..puzzles import polyomino

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
    if grid == "cube":
        board = polyomino.box(*size)
    else:
        board = polyomino.parallelogram(size[0], size[1], grid)
    area = sum(len(p.cells) for p in pieces.values())
    if area != len(board.cells):
        raise CliError(
            f"the {len(pieces)} {args.pieces} cover {area} cells, and the board "
            f"{'x'.join(map(str, size))} has {len(board.cells)}"
        )
    stream = polyomino.tile(board, pieces, reflect=not physical, distinct=args.distinct)

    def show(n: int, tiling: polyomino.Tiling) -> str:
        if args.format == "svg":
            return tiling.svg()
        if args.format == "json":
            return _json_line(n, tiling, rows=str(tiling).splitlines())
        return f"{n}:\n{tiling}\n"

    return _run(args, stream, show, out)


def _cmd_knights(args: argparse.Namespace, out: TextIO) -> int:
    from ..knights import solver as kt

    if isinstance(args.rows, tuple):
        if args.cols is not None:
            raise CliError(
                f"give the board as ROWSxCOLS or as ROWS COLS, not both "
                f"(got {args.rows[0]}x{args.rows[1]} and {args.cols})"
            )
        rows, cols = args.rows
    else:
        rows, cols = args.rows, args.cols or args.rows
    if args.start is not None:  # an off-board start is an error before any work
        kt.no_tour_reason(rows, cols, start=args.start, closed=args.closed)

    def pieces(n: int, tour: kt.Tour) -> Iterator[str]:
        """The text of tour ``n`` in pieces, made as they are written: a tour of 10^8
        squares is about a gigabyte of text, never held whole."""
        if args.format == "svg":
            yield tour.svg()
        elif args.format == "json":
            # _json_line's object, its list of squares written a block at a time.
            yield _json(solution=n, rows=rows, cols=cols, closed=tour.closed)[:-2]
            yield ',"tour":['
            # Each block is one %-format of its rows and columns (1.5 times as fast as a
            # format a square: 1.08 s against 1.60 s for 1000x1000).
            from itertools import chain

            block = 1 << 12
            for i in range(0, len(tour), block):
                squares = tour[i : i + block]
                pattern = ",".join(["[%d,%d]"] * len(squares))
                yield ("," if i else "") + pattern % tuple(chain.from_iterable(squares))
            yield "]}\n"
        else:
            yield f"{n}:\n"
            for line in tour.lines():
                yield line + "\n"

    def show(n: int, tour: kt.Tour) -> str:
        return "".join(pieces(n, tour))

    started = time.perf_counter()
    if args.one:
        tour = kt.tour(rows, cols, start=args.start or (0, 0), closed=args.closed)
        for piece in pieces(1, tour):
            out.write(piece)
        if not args.quiet:
            kind = "closed" if tour.closed else "open"
            elapsed = time.perf_counter() - started
            print(f"1 {kind} tour of {rows}x{cols}, {elapsed:.3f} s", file=sys.stderr)
        return EXIT_OK
    if args.sample:
        return _sample_tours(args, out, rows, cols, show, started)
    if args.count and args.limit is None and not args.estimate:
        budgeted = any(
            _given(args, f) for f in ("checkpoint", "resume", "time_limit", "node_limit")
        )
        method = kt.choose_method(
            rows,
            cols,
            args.closed,
            args.start,
            method=args.method or "auto",
            parallel=bool(args.workers or args.scheduler),
            cluster=bool(args.scheduler),
            stoppable=budgeted,
            bar=bool(args.progress),
            nodes=args.node_limit is not None,
        )
        if method == "order" and (budgeted or args.progress):
            # One pass, no bar, nothing to save ('auto' hands such a count to the
            # columns' program, which has both).
            raise CliError(
                "--method order counts in one pass without a bar, checkpoint or limit: "
                "leave out --progress, --checkpoint, --resume, --time-limit and "
                "--node-limit, or use --method dp"
            )
        if method == "dp" and args.node_limit is not None:
            raise CliError(
                f"--node-limit: {rows}x{cols} is counted by the program over cross-sections "
                "(--method dp), which enters no nodes: use --time-limit, or --method enumerate"
            )
        if method == "dp" and (budgeted or args.progress):
            return _count_by_program(args, out, rows, cols, started)
        if method == "join" and budgeted:
            return _count_by_join(args, out, rows, cols, started)
        if method == "enumerate" and budgeted:
            return _count_by_walking(args, out, rows, cols, started)
        if args.time_limit is not None or args.node_limit is not None:
            raise CliError(
                "--time-limit and --node-limit stop knights --count in one process: leave "
                "out --workers and --scheduler, or give --method enumerate"
            )
        _single_search(
            args, 2, "counting tours by symmetry runs several (--method dp counts in one)"
        )
        if args.progress:
            raise CliError(
                "--progress: counting tours by symmetry shows no bar (--method dp shows one)"
            )
        with _parallel(args) as parallel:
            method = args.method or "auto"
            if args.closed and not args.directed:
                what = "closed tours, each cycle once"
                found = kt.count_closed(rows, cols, method=method, **parallel)
            else:
                what = "directed tours"
                found = kt.count_tours(
                    rows, cols, start=args.start, closed=args.closed, method=method, **parallel
                )
        _print_count(args, out, found, _NO_TAG)
        if not args.quiet:
            elapsed = time.perf_counter() - started
            print(f"{found} {what}, {elapsed:.3f} s", file=sys.stderr)
        return EXIT_OK
    stream = kt.tours(rows, cols, start=args.start, closed=args.closed)
    return _run(args, stream, show, out)


def _count_by_program(
    args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float
) -> int:
    """``--count`` by the program over cross-sections with a progress bar, checkpoints
    every few seconds and at Ctrl-C / SIGTERM, or from ``--resume FILE``."""

    from .. import longrun
    from ..knights.counting import DEFAULT_CHECKPOINT_EVERY, frontier_count

    total = rows * cols
    stops: list[int] = []
    swept = [0]

    show_bar = sys.stderr.isatty() if args.progress is None else args.progress
    bar = longrun.progress_bar("lazysearch knights: ") if show_bar else None

    # --time-limit: looked at as each square is swept (a square of a wide board can take
    # a while), then the count stops as at Ctrl-C, its table saved with --checkpoint.
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    out_of_time: list[bool] = []

    def progress(fraction: float) -> None:
        swept[0] = round(fraction * total)
        if bar is not None:
            bar.n = fraction
            bar.update(0)
        if deadline is not None and fraction < 1 and time.monotonic() >= deadline:
            out_of_time.append(True)
            raise longrun.Stop
        if stops:
            raise longrun.Stop

    restore = _note_stops(stops) if args.checkpoint else _nothing_to_restore
    try:
        result = frontier_count(
            rows,
            cols,
            start=None if args.closed else args.start,
            closed=args.closed,
            progress=progress,
            checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every or DEFAULT_CHECKPOINT_EVERY,
            resume=args.resume,
        )
    except longrun.Stop:
        if out_of_time:
            after = (
                f"go on with --resume {args.checkpoint}"
                if args.checkpoint
                else "--checkpoint FILE saves the count to go on with --resume FILE"
            )
            print(
                f"lazysearch knights: time limit of {args.time_limit:g} s reached after "
                f"square {swept[0]} of {total}; {after}",
                file=sys.stderr,
            )
            return EXIT_BUDGET
        print(
            f"lazysearch knights: stopped after square {swept[0]} of {total}; "
            f"go on with --resume {args.checkpoint}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(
            f"lazysearch knights: interrupted after square {swept[0]} of {total}; "
            "--checkpoint FILE saves a count to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
        restore()
    found = result.count
    what = "closed tours, each cycle once" if args.closed else "directed tours"
    if args.closed and args.directed:
        what = "directed tours"
        found *= 2 if args.start is not None else 2 * total
    _print_count(args, out, found, _NO_TAG)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{found} {what}, at most {result.peak_states} frontiers, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _directed(args: argparse.Namespace, found: int, rows: int, cols: int) -> tuple[int, str]:
    """A count of cycles (closed) or directed tours (open) in the terms asked for."""
    if not args.closed:
        return found, "directed tours"
    if args.directed:
        return found * (2 if args.start is not None else 2 * rows * cols), "directed tours"
    return found, "closed tours, each cycle once"


def _count_by_walking(
    args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float
) -> int:
    """``--count --method enumerate`` within ``--time-limit`` / ``--node-limit``, with
    ``--checkpoint`` / ``--resume``: the searches the count adds up, walked one after
    the other, each by ``--workers`` / ``--scheduler`` in parallel if given
    (:func:`lazysearch.knights.walking.count_within`)."""
    import contextlib

    from ..knights import walking

    if args.progress:
        raise CliError("--progress: counting tours by walking shows no bar (--method dp does)")
    stops: list[int] = []

    with contextlib.ExitStack() as stack:
        parallel = stack.enter_context(_parallel(args))
        if args.checkpoint:
            stack.callback(_note_stops(stops))
        try:
            part = walking.count_within(
                rows,
                cols,
                start=None if args.closed else args.start,
                closed=args.closed,
                seconds=args.time_limit,
                nodes=args.node_limit,
                checkpoint=args.checkpoint,
                every=args.checkpoint_every or 5.0,
                resume=args.resume,
                stop=lambda: bool(stops),
                **parallel,
            )
        except OSError as exc:
            name = exc.filename or args.resume or args.checkpoint
            raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
        except KeyboardInterrupt:
            print(
                "lazysearch knights: interrupted; --checkpoint FILE saves a count to go on "
                "with --resume FILE",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    found, what = _directed(args, part.count, rows, cols)
    if not part.done:
        going_on = (
            f"go on with --resume {args.checkpoint}"
            if args.checkpoint
            else "--checkpoint FILE saves the count to go on with --resume FILE"
        )
        if stops or part.limit == "stop":
            why, status = "stopped", EXIT_INTERRUPTED
        elif part.limit == "node limit":
            why, status = "node limit reached", EXIT_BUDGET
        else:
            why, status = f"time limit of {args.time_limit:g} s reached", EXIT_BUDGET
        print(
            f"lazysearch knights: {why} after {found} {what} in {part.finished} of "
            f"{part.searches} searches and {100 * part.progress:.1f}% of the next, "
            f"{part.nodes} nodes; {going_on}",
            file=sys.stderr,
        )
        return status
    _print_count(args, out, found, _NO_TAG)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(f"{found} {what}, {part.nodes} nodes, {elapsed:.3f} s", file=sys.stderr)
    return EXIT_OK


def _count_by_join(
    args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float
) -> int:
    """``--count --method join`` with ``--time-limit``, ``--checkpoint`` or ``--resume``:
    the time looked at after each square of the halves' sweep and each part of the
    transfer; the checkpoint is the parts counted so far
    (:mod:`lazysearch.knights.joinrun`), written as each is counted; Ctrl-C and SIGTERM
    stop at the join's next tick (a square of a half, a crossing square, half a second
    of waiting for a worker's part), the parts counted kept."""

    from .. import longrun

    if not args.closed:
        raise CliError(
            "--method join stops and resumes closed tours only (--closed); "
            "the open tours: --method dp, or --method enumerate"
        )
    if args.node_limit is not None:
        raise CliError(
            "--node-limit: the join enters no nodes; use --time-limit, or --method enumerate"
        )
    from ..knights import joinrun
    from ..knights.solver import no_tour_reason

    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    reached: list[str] = []
    parts: list[int] = []

    stops: list[int] = []

    def tick(where: str) -> None:
        if where.startswith("part "):
            parts[:] = [int(where.split()[1]), int(where.split()[3])]
        if stops:
            raise longrun.Stop
        if deadline is not None and time.monotonic() >= deadline:
            reached.append(where)
            raise longrun.Stop

    going_on = (
        f"go on with --resume {args.checkpoint}"
        if args.checkpoint
        else "--checkpoint FILE keeps the parts counted, to go on with --resume FILE"
    )
    restore = _note_stops(stops)
    found = 0
    try:
        if not no_tour_reason(rows, cols, closed=True):
            found = joinrun.count_joined(
                rows,
                cols,
                workers=args.workers or os.cpu_count() or 1,
                checkpoint=args.checkpoint,
                resume=args.resume,
                tick=tick,
            ).count
    except longrun.Stop:
        done = f"{parts[0]} of {parts[1]} parts of the transfer" if parts else "no part yet"
        why = (
            f"time limit of {args.time_limit:g} s reached at {reached[0]}"
            if reached
            else ("stopped" if args.checkpoint else "interrupted")
        )
        print(
            f"lazysearch knights: {why}, with {done} counted (the count comes at the "
            f"end); {going_on}",
            file=sys.stderr,
        )
        return EXIT_BUDGET if reached else EXIT_INTERRUPTED
    except OSError as exc:
        name = exc.filename or args.resume or args.checkpoint
        raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
    finally:
        restore()
    found, what = _directed(args, found, rows, cols)
    _print_count(args, out, found, _NO_TAG)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(f"{found} {what}, {elapsed:.3f} s", file=sys.stderr)
    return EXIT_OK


def _sample_tours(
    args: argparse.Namespace,
    out: TextIO,
    rows: int,
    cols: int,
    show: Callable[[int, Any], str],
    started: float,
) -> int:
    """``--sample K``: K tours drawn uniformly at random (with ``--seed``); through the
    join in parts, ``--progress`` shows a bar of the squares and parts counted."""
    import random

    from ..knights import solver as kt

    what = "closed tours, each cycle once" if args.closed else "directed tours"
    method = kt._sample_method(rows, cols, args.closed, args.method or "auto")
    if args.progress and method != "parts":
        raise CliError(
            "--progress: sampling shows a bar through the join in parts only "
            "(--method parts; auto from 7 across)"
        )
    if method != "parts":
        for given, name in ((args.parts, "--parts FILE"), (args.workers, "--workers N")):
            if given is not None:
                raise CliError(
                    f"{name} is for sampling through the join in parts (--method parts; "
                    "auto for closed tours 7 or more across)"
                )
    reason = kt.no_tour_reason(rows, cols, start=args.start, closed=args.closed)
    sampler = None
    bar: Any = None
    if reason is None and method == "parts":
        from tqdm import tqdm

        from ..knights.joinsample import PartsSampler

        show_bar = sys.stderr.isatty() if args.progress is None else args.progress
        if show_bar:
            # The parts to count are not known in advance: a bar of what is done.
            bar = tqdm(unit=" steps", file=sys.stderr, dynamic_ncols=True)

        def tick(where: str) -> None:
            bar.set_description_str(where, refresh=False)
            bar.update(1)

        try:
            sampler = PartsSampler(
                rows,
                cols,
                start=args.start,
                tick=tick if bar is not None else None,
                parts=args.parts,
                workers=args.workers or 1,
            )
            drawn = kt._draw(sampler, args.sample, random.Random(args.seed))
        except BaseException:
            if bar is not None:
                bar.leave = False  # cleared, so that the one line saying why stands alone
            raise
        finally:
            if bar is not None:
                bar.close()
    elif reason is None:
        sampler = kt._sampler(rows, cols, args.start, args.closed, method, None)
    if sampler is None or sampler.count == 0:
        kind = "closed" if args.closed else "open"
        print(
            f"lazysearch knights: there is no {kind} tour of {rows}x{cols}"
            + (f" from {args.start}" if args.start and not args.closed else "")
            + f" to draw{f': {reason}' if reason else ''}",
            file=sys.stderr,
        )
        return EXIT_NO_SOLUTION
    if method != "parts":
        drawn = kt._draw(sampler, args.sample, random.Random(args.seed))
    for n, tour in enumerate(drawn, start=1):
        out.write(show(n, kt.Tour(tour, rows, cols)))
        out.flush()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{args.sample} drawn uniformly from {sampler.count} {what}, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _several(args: argparse.Namespace, count: int, source: str) -> None:
    """Checks for a file of ``count`` puzzles: at least one; one for a picture, a
    checkpoint or a resumption."""
    if count == 0:
        raise CliError(f"{source}: no puzzle in it")
    if args.format == "svg" and count != 1:
        raise CliError(f"--format svg draws one solution, and {source} has {count} puzzles")
    _single_search(args, count, f"{source} has {count} puzzles")


def _cmd_sudoku(args: argparse.Namespace, out: TextIO) -> int:
    from ..puzzles import sudoku, variants

    text, source = _read_source(args.file, "sudoku")
    if args.killer or args.jigsaw or variants.is_variant_text(text):
        return _cmd_sudoku_variant(args, out, text, source)
    boxes: dict[int, tuple[int, int]] = {}
    if text.lstrip().startswith("{"):  # lines of 'generate sudoku --format json'
        puzzles = []
        for line, cells, box in sudoku.json_lines(text, source=source):
            puzzles.append((line, cells))
            boxes[line] = box
    else:
        puzzles = sudoku.numbered_lines(text, source=source)
    _several(args, len(puzzles), source)
    status = EXIT_OK
    for number, (line, puzzle) in enumerate(puzzles, start=1):
        tag = _puzzle_tag(number, len(puzzles))
        try:
            stream = sudoku.solve(puzzle, box=boxes.get(line), diagonals=args.x)
        except sudoku.SudokuError as exc:
            raise CliError(f"{source}:{line}: {exc}") from None

        def show(n: int, grid: sudoku.Grid, tag: Tag = tag, puzzle: str = puzzle) -> str:
            if args.format == "svg":
                if isinstance(grid, sudoku.SolvedGrid) and grid.rules is not None:
                    return grid.svg()
                return sudoku.svg(grid, puzzle=puzzle)
            if args.format == "json":
                return _json_line(n, grid, **tag.fields, grid=[list(r) for r in grid])
            return f"{tag.text}solution {n}:\n{sudoku.render(grid)}\n"

        status = max(status, _run(args, stream, show, out, tag=tag))
        if status == EXIT_INTERRUPTED:
            break
    return status


def _cmd_sudoku_variant(args: argparse.Namespace, out: TextIO, text: str, source: str) -> int:
    """One jigsaw, X or killer puzzle in the variant text format (variants.loads)."""
    from ..puzzles import sudoku, variants

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

    def show(n: int, grid: sudoku.SolvedGrid) -> str:
        if args.format == "svg":
            return grid.svg()
        if args.format == "json":
            return _json_line(n, grid, grid=[list(r) for r in grid])
        return f"solution {n}:\n{grid.text()}\n"

    return _run(args, stream, show, out)


def _cmd_kakuro(args: argparse.Namespace, out: TextIO) -> int:
    from .. import kakuro

    text, source = _read_source(args.file, "kakuro")
    puzzles = kakuro.loads(text, source=source, format=args.input_format)
    if args.convert:
        for puzzle in puzzles:
            write = kakuro.write_grid if args.convert == "grid" else kakuro.write_json
            out.write(write(puzzle))
        return EXIT_OK
    _several(args, len(puzzles), source)
    status = EXIT_OK
    for number, puzzle in enumerate(puzzles, start=1):
        tag = _puzzle_tag(number, len(puzzles), puzzle.name)

        def show(n: int, board: kakuro.Filling, tag: Tag = tag) -> str:
            if args.format == "svg":
                return board.svg()
            if args.format == "json":
                return _json_line(n, board, **tag.fields, grid=board.grid())
            return f"{tag.text}solution {n}:\n{board}\n"

        started = time.perf_counter()  # solve() may look for a guide (kakuro.guide)
        status = max(status, _run(args, kakuro.solve(puzzle), show, out, started, tag))
        if status == EXIT_INTERRUPTED:
            break
    return status


def _cmd_generate(args: argparse.Namespace, out: TextIO) -> int:
    """``generate sudoku|kakuro``: ``--count`` puzzles from seeds ``S, S + 1, ...``."""
    import json

    if args.format == "svg" and args.number > 1:
        raise CliError(f"--format svg draws one puzzle; got --count {args.number}")
    sudoku_only = ("box", "symmetric", "max_nodes", "variant")
    wrong = (("density",) if args.puzzle == "sudoku" else sudoku_only) + (
        ("size",) if args.puzzle == "sudoku" else ()
    )
    for name in wrong:
        if _given(args, name):
            what = "size" if name == "size" else _flag(name)
            raise CliError(f"generate {args.puzzle} takes no {what}")
    show_bar = args.number > 1 and (
        sys.stderr.isatty() if args.progress is None else bool(args.progress)
    )
    bar = longrun_bar(f"lazysearch generate {args.puzzle}: ") if show_bar else None
    # Several kakuro in JSON make one array, a puzzle a line: the kakuro reader takes
    # an array of puzzles, not lines of objects.
    array = args.puzzle == "kakuro" and args.format == "json" and args.number > 1
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    status = EXIT_OK
    try:
        for i in range(args.number):
            seed = None if args.first_seed is None else args.first_seed + i
            if i > 0 and deadline is not None and time.monotonic() >= deadline:
                after = (
                    f"go on with --seed {seed} --count {args.number - i}"
                    if seed is not None
                    else "the rest are new puzzles from fresh seeds"
                )
                print(
                    f"lazysearch generate {args.puzzle}: time limit of {args.time_limit:g} s "
                    f"reached after {i} of {args.number} puzzles; {after}",
                    file=sys.stderr,
                )
                status = EXIT_BUDGET
                break
            if args.puzzle == "sudoku":
                out.write(_generated_sudoku(args, seed, json))
            else:
                text = _generated_kakuro(args, seed, json)
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


def longrun_bar(desc: str) -> Any:
    from .. import longrun

    return longrun.progress_bar(desc)


def _generated_sudoku(args: argparse.Namespace, seed: int | None, json: Any) -> str:
    from ..puzzles import sudoku

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
        f"# seed {p.seed}: {what}, rating {r.score} ({r.level}, {r.nodes} nodes)"
        f"{'' if p.minimal else ', minimality not proved'}\n{body}\n"
    )


def _generated_kakuro(args: argparse.Namespace, seed: int | None, json: Any) -> str:
    from .. import kakuro

    rows, cols = args.size or (15, 15)
    density = 0.6 if args.density is None else args.density
    p = kakuro.generate(rows, cols, seed=seed, density=density)
    r = p.rating
    if not args.quiet and args.format != "json":
        print(
            f"lazysearch generate kakuro: seed {p.seed}: {len(p.white)} white cells, "
            f"rating {r.score} ({r.level}, {r.nodes} nodes)",
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
    from ..render.svg import kakuro_board

    picture: str = kakuro_board(p, {})
    return picture


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Every failure is one line on standard error, with its own status (:data:`EXIT_STATUSES`).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # A second Ctrl-C while the first was being reported or cleaned up after (or
        # one while the arguments were read): still one line, not a traceback.
        with contextlib.suppress(OSError, ValueError):
            print("lazysearch: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = _parse(parser, argv)
    import warnings

    with warnings.catch_warnings():
        warnings.showwarning = _one_line_warning(args)
        return _run_command(args)


def _one_line_warning(args: argparse.Namespace) -> Callable[..., None]:
    """Show a warning as one line naming the command (a helper process lost and its
    work done again, say), not Python's two lines with a source line."""

    def show(message: Warning | str, *rest: Any, **kwargs: Any) -> None:
        line = " ".join(str(message).split())
        with contextlib.suppress(OSError, ValueError):
            print(f"lazysearch {args.command}: warning: {line}", file=sys.stderr)

    return show


def _written_as_it_goes(args: argparse.Namespace) -> bool:
    """Whether ``-o FILE`` is written as the run goes (a listing with ``--checkpoint`` or
    ``--resume``): a stopped run leaves what it wrote, the run file records its length,
    and ``--resume`` cuts the file back to that length and goes on, so the file ends
    as one run's output even after a ``kill -9``."""
    output = getattr(args, "output", None)
    return (
        output not in (None, "-")
        and not getattr(args, "count", False)
        and bool(getattr(args, "checkpoint", None) or getattr(args, "resume", None))
    )


def _run_command(args: argparse.Namespace) -> int:
    status = EXIT_BAD_INPUT
    output: _Output | None = None
    try:
        _check_flags(args)
        _check_sizes(args)
        output = _Output(args.output, _written_as_it_goes(args))
        status = args.handler(args, output.handle)
        return int(status)
    except TooLargeError as exc:
        return _fail(args, str(exc), EXIT_TOO_LARGE)
    except (LazysearchError, CliError, ValueError) as exc:
        return _fail(args, str(exc), EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
        print(f"lazysearch {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): that is not an error of ours.
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:
        return _fail(args, str(exc), EXIT_BAD_INPUT)
    except MemoryError:
        return _fail(
            args, "out of memory: the problem is too large for this machine", EXIT_TOO_LARGE
        )
    except RecursionError:
        return _fail(args, "the input is nested too deeply to read", EXIT_TOO_LARGE)
    except OverflowError as exc:
        why = f"a number is too large for the engine ({exc})"
        return _fail(args, why, EXIT_TOO_LARGE)
    except Exception as exc:
        if os.environ.get("LAZYSEARCH_TRACEBACK"):
            raise
        why = f"internal error ({type(exc).__name__}: {exc}); please report it"
        return _fail(args, why, EXIT_INTERNAL)
    finally:
        if output is not None:
            going_on = status in (EXIT_INTERRUPTED, EXIT_BUDGET) and _written_as_it_goes(args)
            # generate stopped by --time-limit: the puzzles made are whole, and kept.
            going_on = going_on or (status == EXIT_BUDGET and args.command == "generate")
            output.finish(keep=status == EXIT_OK or going_on)


def _fail(args: argparse.Namespace, message: str, status: int) -> int:
    """Print ``message`` as the one line of a failed run; return ``status``."""
    line = " ".join(message.split())  # one line, whatever the message held
    print(f"lazysearch {args.command}: error: {line}", file=sys.stderr)
    return status


#: Bytes of memory a search takes, measured (peak RSS, CPython 3.11, compiled engines):
#: per square of an N-queens board (N = 2000: 1.0 GB), per character of a puzzle file
#: read by ``kakuro`` (a 236 KB grid: 74 MB), ``dlx`` (1.4 MB: 74 MB) or ``sudoku``
#: (9.8 MB of 9x9 lines: 3.2 a character, solved one at a time), rounded up.
_BYTES_PER_SQUARE = 300
#: Per n**2 for Langford pairs of order n (n = 2000: 4.5 GB; about 2n**2 options).
_BYTES_PER_LANGFORD = 1200
_BYTES_PER_TEXT_BYTE = {"kakuro": 400, "dlx": 100, "sudoku": 10}
#: The engines number a board's squares, and positions, in signed 32-bit integers.
_MAX_SQUARES = 2**31 - 1


def _gb(n: float) -> str:
    return f"{n / 1e9:,.1f} GB"


def _check_sizes(args: argparse.Namespace) -> None:
    """Refuse, before any work, a board the engines cannot number or this machine
    cannot hold (:class:`TooLargeError`, naming the size)."""
    command = args.command
    for flag in ("limit", "nth", "every", "samples"):
        value = getattr(args, flag, None)
        if value is not None and value > sys.maxsize:
            raise CliError(f"--{flag} {value} is beyond {sys.maxsize:,}, the most Python counts")
    workers = getattr(args, "workers", None)
    cores = os.cpu_count() or 1
    if workers is not None and not getattr(args, "scheduler", None) and workers > 8 * cores:
        raise CliError(
            f"--workers {workers} would start {workers:,} processes on this machine's "
            f"{cores} cores: at most {8 * cores}"
        )
    if command == "langford":
        if 2 * args.n * args.n > _MAX_SQUARES:
            raise TooLargeError(
                f"Langford pairs of order {args.n} have about {2 * args.n * args.n:,} "
                f"options; the engine numbers them in 32 bits (at most {_MAX_SQUARES:,})"
            )
        _check_memory(args.n * args.n * _BYTES_PER_LANGFORD, f"Langford pairs of order {args.n}")
    if command == "queens":
        squares = args.n * args.n
        if squares > _MAX_SQUARES:
            raise TooLargeError(
                f"a {args.n}x{args.n} board has {squares:,} squares; the engine numbers "
                f"them in 32 bits (at most {_MAX_SQUARES:,})"
            )
        _check_memory(squares * _BYTES_PER_SQUARE, f"{args.n}-queens")
    if command == "knights":
        if isinstance(args.rows, tuple):
            rows, cols = args.rows
        else:
            rows, cols = args.rows, args.cols or args.rows
        if rows * cols > _MAX_SQUARES:
            raise TooLargeError(
                f"a {rows}x{cols} board has {rows * cols:,} squares; the engine numbers "
                f"them in 32 bits (at most {_MAX_SQUARES:,})"
            )


def _check_memory(needed: int, what: str) -> None:
    available = available_memory()
    if available is not None and needed > available:
        raise TooLargeError(
            f"{what} would take about {_gb(needed)} of memory, and this machine has "
            f"{_gb(available)} available"
        )
