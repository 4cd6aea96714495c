"""The ``lazysearch`` command line: ``lazysearch SUBCOMMAND ...``.

Solutions go to standard output, statistics to standard error.  Bad input is reported
in one line on standard error with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO

from .errors import LazysearchError

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class CliError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and ``--help`` for more)."""

    def error(self, message: str) -> NoReturn:
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
    p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json")
) -> None:
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument("--limit", type=_positive, metavar="N", help="stop after N solutions")
    p.add_argument(
        "--every", type=_positive, metavar="M", default=1, help="print only every M-th solution"
    )
    p.add_argument("--format", choices=formats, default="text", help="how to print solutions")
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
        "--samples", type=_positive, default=1000, metavar="N", help="probes for --estimate"
    )
    long.add_argument("--seed", type=int, metavar="S", help="random seed for --estimate")
    long.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="write the search's position to FILE every few seconds and on Ctrl-C/SIGTERM",
    )
    long.add_argument(
        "--checkpoint-every",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="seconds between checkpoints (default 5)",
    )
    long.add_argument(
        "--resume", metavar="FILE", help="go on from a run file written by --checkpoint"
    )
    long.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --count: count on the Dask cluster at ADDRESS (pip install 'lazysearch[dask]')",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lazysearch",
        description="Combinatorial search with lazy streams of solutions.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"lazysearch {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )

    dlx = sub.add_parser("dlx", help="solve an exact-cover problem in Knuth's text format")
    dlx.add_argument("file", help="the problem file, or - for standard input")
    _add_run_options(dlx)
    dlx.set_defaults(handler=_cmd_dlx)

    queens = sub.add_parser("queens", help="place N non-attacking queens")
    queens.add_argument("n", type=_positive)
    _add_run_options(queens)
    queens.set_defaults(handler=_cmd_queens)

    sudoku = sub.add_parser("sudoku", help="solve sudoku puzzles, one per line (any box size)")
    sudoku.add_argument("file", help="a file of puzzles, or - for standard input")
    _add_run_options(sudoku, formats=("text", "json", "svg"))
    sudoku.set_defaults(handler=_cmd_sudoku)

    langford = sub.add_parser(
        "langford", help="Langford pairs of order N (each pair with its reversal once)"
    )
    langford.add_argument("n", type=_positive)
    _add_run_options(langford)
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
    pentomino.set_defaults(handler=_cmd_pentomino)

    knights = sub.add_parser(
        "knights",
        help="knight's tours of a ROWS x COLS board",
        description="Knight's tours: all of them (directed: each start and direction), "
        "a count, or --one tour fast on boards of millions of squares.",
    )
    knights.add_argument(
        "rows", type=_side_or_size, metavar="ROWS", help="rows, or the board as ROWSxCOLS"
    )
    knights.add_argument("cols", type=_positive, nargs="?", help="default: ROWS")
    knights.add_argument(
        "--closed", action="store_true", help="tours that end a move from the start"
    )
    knights.add_argument("--start", type=_square, metavar="ROW,COL", help="start square (0-based)")
    knights.add_argument(
        "--one", action="store_true", help="one tour, found fast even on huge boards"
    )
    knights.add_argument(
        "--directed",
        action="store_true",
        help="with --closed --count: count every start and direction, not each cycle once",
    )
    _add_run_options(knights, formats=("text", "json", "svg"))
    knights.set_defaults(handler=_cmd_knights)

    kakuro = sub.add_parser(
        "kakuro", help="solve kakuro puzzles (grid, janko, PROP, CSV, dzn, JSON and more)"
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
        help="print the puzzles in this format instead of solving them",
    )
    _add_run_options(kakuro, formats=("text", "json", "svg"))
    kakuro.set_defaults(handler=_cmd_kakuro)
    return parser


def _read_source(name: str) -> tuple[str, str]:
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(name, encoding="utf-8") as f:
            return f.read(), name
    except OSError as exc:
        raise CliError(f"cannot read {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"cannot read {name}: not UTF-8 text (byte {exc.start})") from None


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


def _run(
    args: argparse.Namespace,
    stream: Any,
    show: Callable[[int, Any], str],
    out: TextIO,
    started: float | None = None,
) -> int:
    """Count or print the solutions of ``stream`` as the options ask: with a progress
    bar, checkpoints and resumption when asked.  ``started``: when the work began (the
    time reported counts from there; default now)."""
    from . import longrun

    if started is None:
        started = time.perf_counter()
    if args.estimate:
        est = stream.estimate(samples=args.samples, seed=args.seed)
        print(
            f"estimate from {est.samples} probes: {est.nodes:.4g} nodes "
            f"(+- {est.nodes_stderr:.2g}), {est.solutions:.4g} solutions "
            f"(+- {est.solutions_stderr:.2g})",
            file=out,
        )
        return EXIT_OK
    mode = "count" if args.count else "list"
    if args.scheduler and not args.count:
        raise CliError("--scheduler counts on a cluster: add --count")
    if args.checkpoint and (args.workers or args.scheduler):
        raise CliError("--checkpoint follows one process; leave out --workers and --scheduler")
    if args.checkpoint and args.checkpoint != args.resume:
        longrun.check_writable(args.checkpoint)
    runner = longrun.Runner(
        args.checkpoint,
        command=args.command,
        mode=mode,
        every=args.checkpoint_every,
        progress=sys.stderr.isatty() if args.progress is None else args.progress,
    )
    if args.resume:
        try:
            record = longrun.load(args.resume, command=args.command, mode=mode)
        except OSError as exc:
            raise CliError(f"cannot read {args.resume}: {exc.strerror or exc}") from None
        stream = stream.resume(record["search"])
        runner.found = record["found"]
    search = stream.search
    search.on_chunk = runner.tick
    try:
        with runner.active(search):
            if args.count and args.limit is None:
                # The engine's counter is the running total (a resumed search starts
                # from the checkpoint's), however the rest is counted.
                if args.workers or args.scheduler:
                    with _parallel(args) as parallel:
                        stream.count(**parallel)
                else:
                    search.count(callback=runner.tick)
                runner.found = search.stats.solutions
            else:
                left = None if args.limit is None else max(0, args.limit - runner.found)
                chosen = stream if left is None else stream.slice(left)
                solutions = chosen.parallel(workers=args.workers) if args.workers else chosen
                for solution in solutions:
                    runner.found += 1
                    if not args.count and runner.found % args.every == 0:
                        out.write(show(runner.found, solution))
                        out.flush()
                    runner.tick(search)
            runner.checkpoint(search)
    except longrun.Stop:
        print(
            f"lazysearch {args.command}: stopped after {runner.found} solutions; "
            f"go on with --resume {args.checkpoint}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if args.count:
        print(runner.found, file=out)
    if not args.quiet:
        stats = stream.stats
        elapsed = time.perf_counter() - started
        plural = "" if runner.found == 1 else "s"
        print(
            f"{runner.found} solution{plural}, {stats.nodes} nodes, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _json_line(n: int, solution: Any, **extra: Any) -> str:
    return json.dumps({"solution": n, **extra}, separators=(",", ":")) + "\n"


def _cmd_dlx(args: argparse.Namespace) -> int:
    from .exactcover.knuth import format_option, parse

    text, source = _read_source(args.file)
    problem = parse(text, source=source)
    stream = problem.solve()

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return _json_line(
                n,
                solution,
                options=list(solution),
                rows=[format_option(problem.options[j]).split() for j in solution],
            )
        return f"{n}:\n" + "".join(f" {format_option(problem.options[j])}\n" for j in solution)

    return _run(args, stream, show, sys.stdout)


def _cmd_queens(args: argparse.Namespace) -> int:
    from .puzzles.queens import queens

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return _json_line(n, solution, columns=list(solution))
        rows = ["".join("Q" if c == col else "." for c in range(args.n)) for col in solution]
        return f"{n}:\n" + "\n".join(rows) + "\n"

    return _run(args, queens(args.n), show, sys.stdout)


def _cmd_langford(args: argparse.Namespace) -> int:
    from .puzzles.langford import langford

    def show(n: int, solution: tuple[int, ...]) -> str:
        if args.format == "json":
            return _json_line(n, solution, sequence=list(solution))
        return " ".join(map(str, solution)) + "\n"

    return _run(args, langford(args.n), show, sys.stdout)


def _one_svg_only(args: argparse.Namespace) -> None:
    if args.format == "svg" and args.limit != 1 and not args.count:
        more = " or --one" if args.command == "knights" else ""
        raise CliError(f"--format svg draws one solution: add --limit 1{more}")


def _cmd_pentomino(args: argparse.Namespace) -> int:
    from .puzzles import polyomino

    _one_svg_only(args)
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

    return _run(args, stream, show, sys.stdout)


def _cmd_knights(args: argparse.Namespace) -> int:
    from .knights import solver as kt

    if isinstance(args.rows, tuple):
        if args.cols is not None:
            raise CliError(
                f"give the board as ROWSxCOLS or as ROWS COLS, not both "
                f"(got {args.rows[0]}x{args.rows[1]} and {args.cols})"
            )
        rows, cols = args.rows
    else:
        rows, cols = args.rows, args.cols or args.rows
    if not args.one:
        _one_svg_only(args)
    if args.directed and not (args.closed and args.count):
        raise CliError("--directed changes what --closed --count counts; give all three")
    if args.start is not None:  # an off-board start is an error before any work
        kt.no_tour_reason(rows, cols, start=args.start, closed=args.closed)

    def show(n: int, tour: kt.Tour) -> str:
        if args.format == "svg":
            return tour.svg()
        if args.format == "json":
            squares = [list(square) for square in tour]
            return _json_line(n, tour, rows=rows, cols=cols, closed=tour.closed, tour=squares)
        return f"{n}:\n{tour}\n"

    started = time.perf_counter()
    if args.one:
        tour = kt.tour(rows, cols, start=args.start or (0, 0), closed=args.closed)
        sys.stdout.write(show(1, tour))
        if not args.quiet:
            kind = "closed" if tour.closed else "open"
            elapsed = time.perf_counter() - started
            print(f"1 {kind} tour of {rows}x{cols}, {elapsed:.3f} s", file=sys.stderr)
        return EXIT_OK
    if args.count and args.limit is None and not args.estimate:
        _single_search(args, 2, "counting tours by symmetry runs several")
        with _parallel(args) as parallel:
            if args.closed and not args.directed:
                what = "closed tours, each cycle once"
                found = kt.count_closed(rows, cols, **parallel)
            else:
                what = "directed tours"
                found = kt.count_tours(rows, cols, start=args.start, closed=args.closed, **parallel)
        print(found)
        if not args.quiet:
            elapsed = time.perf_counter() - started
            print(f"{found} {what}, {elapsed:.3f} s", file=sys.stderr)
        return EXIT_OK
    stream = kt.tours(rows, cols, start=args.start, closed=args.closed)
    return _run(args, stream, show, sys.stdout)


def _cmd_sudoku(args: argparse.Namespace) -> int:
    from .puzzles import sudoku

    _one_svg_only(args)
    text, source = _read_source(args.file)
    puzzles = sudoku.numbered_lines(text, source=source)
    if args.format == "svg" and len(puzzles) != 1 and not args.count:
        raise CliError(f"--format svg draws one solution, and {source} has {len(puzzles)} puzzles")
    _single_search(args, len(puzzles), f"{source} has {len(puzzles)} puzzles")
    for number, (line, puzzle) in enumerate(puzzles, start=1):
        label = f"puzzle {number}, " if len(puzzles) > 1 else ""
        try:
            stream = sudoku.solve(puzzle)
        except sudoku.SudokuError as exc:
            raise CliError(f"{source}:{line}: {exc}") from None

        def show(
            n: int,
            grid: sudoku.Grid,
            number: int = number,
            label: str = label,
            puzzle: str = puzzle,
        ) -> str:
            if args.format == "svg":
                return sudoku.svg(grid, puzzle=puzzle)
            if args.format == "json":
                return _json_line(n, grid, puzzle=number, grid=[list(r) for r in grid])
            return f"{label}solution {n}:\n{sudoku.render(grid)}\n"

        _run(args, stream, show, sys.stdout)
    return EXIT_OK


def _cmd_kakuro(args: argparse.Namespace) -> int:
    from . import kakuro

    _one_svg_only(args)
    text, source = _read_source(args.file)
    puzzles = kakuro.loads(text, source=source, format=args.input_format)
    if args.convert:
        for puzzle in puzzles:
            write = kakuro.write_grid if args.convert == "grid" else kakuro.write_json
            sys.stdout.write(write(puzzle))
        return EXIT_OK
    if args.format == "svg" and len(puzzles) != 1 and not args.count:
        raise CliError(f"--format svg draws one solution, and {source} has {len(puzzles)} puzzles")
    _single_search(args, len(puzzles), f"{source} has {len(puzzles)} puzzles")
    for puzzle in puzzles:
        label = f"{puzzle.name}, " if len(puzzles) > 1 else ""

        def show(n: int, board: kakuro.Filling, label: str = label) -> str:
            if args.format == "svg":
                return board.svg()
            if args.format == "json":
                return _json_line(n, board, puzzle=board.puzzle.name, grid=board.grid())
            return f"{label}solution {n}:\n{board}\n"

        if args.count and len(puzzles) > 1 and not args.estimate:
            found = kakuro.solve(puzzle).count()
            print(f"{puzzle.name} {found}")
        else:
            started = time.perf_counter()  # solve() may look for a guide (kakuro.guide)
            _run(args, kakuro.solve(puzzle), show, sys.stdout, started)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
        return status
    except (LazysearchError, CliError, ValueError) as exc:
        print(f"lazysearch {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"lazysearch {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): that is not an error of ours.
        sys.stderr.close()
        return EXIT_OK
