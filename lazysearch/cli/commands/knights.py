"""``lazysearch knights ROWS [COLS]``: knight's tours listed, counted, drawn at
random (``--sample``), or one found fast (``--one``).  The long counts (a bar, a
checkpoint, a limit) are in :mod:`.knights_count`."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import Show
from ..driver import run as run_search
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, CliError
from ..limits import check_squares, tables_in_memory
from ..options import add_run_options, given, positive, side_or_size, square
from ..output import NO_TAG, json_text, print_count
from ..runs import parallel, show_bar, single_search
from . import knights_board
from .knights_count import CYCLES, DIRECTED

if TYPE_CHECKING:
    from ...knights.solver import Tour

RULES: list[rules.Rule] = [
    *knights_board.RULES,
    (
        lambda a: (
            given(a, "one")
            and rules.any_given(
                a, "count", "limit", "nth", "every", "workers", "estimate", "directed"
            )
        ),
        "--one finds one tour, the fast way: leave out --count, --limit, --nth, --every, "
        "--workers, --estimate and --directed",
    ),
    rules.runs_no_search("one"),
    *rules.SAMPLE_PICTURE,
    *rules.ESTIMATE,
    (
        lambda a: (
            given(a, "sample")
            and rules.any_given(
                a,
                *("count", "limit", "nth", "every", "scheduler", "estimate", "one"),
                *("directed", "checkpoint", "resume"),
            )
        ),
        "--sample K draws K tours at random: leave out --count, --limit, --nth, --every, "
        "--scheduler, --estimate, --one, --directed, --checkpoint and --resume (a "
        "count's checkpoint goes to --parts FILE)",
    ),
    (
        lambda a: given(a, "parts") and not given(a, "sample"),
        "--parts FILE gives --sample a count's parts: give --sample K",
    ),
    (
        lambda a: (
            given(a, "sample")
            and a.method in ("enumerate", "join", "parts")
            and (a.method == "enumerate" or not a.closed)
        ),
        "--sample draws with --method auto, dp, join or parts (join and parts: closed tours only)",
    ),
    (
        lambda a: a.method == "parts" and not given(a, "sample"),
        "--method parts draws tours: give --sample K",
    ),
    *rules.SEED,
    *rules.CHOICE,
    (
        lambda a: given(a, "directed") and not (given(a, "closed") and given(a, "count")),
        "--directed changes what --closed --count counts; give all three",
    ),
    (
        lambda a: (
            given(a, "start")
            and given(a, "closed")
            and given(a, "count")
            and not given(a, "directed")
            and a.limit is None
        ),
        "--closed --count counts each cycle once, whatever its start: "
        "add --directed to count the tours from --start",
    ),
    *rules.METHOD,
    (
        lambda a: a.method == "dp" and rules.any_given(a, "workers", "scheduler"),
        "--method dp counts in one process; leave out --workers and --scheduler",
    ),
    *rules.RUN,
]


def add_parser(commands: Any) -> None:
    knights = commands.add_parser(
        "knights",
        help="knight's tours of a ROWS x COLS board",
        description="Knight's tours: all of them (directed: each start and direction), "
        "a count, or --one tour fast on boards of millions of squares.",
    )
    knights.add_argument(
        "rows",
        type=side_or_size,
        nargs="?",
        metavar="ROWS",
        help="rows, or the board as ROWSxCOLS (with --board: the picture's)",
    )
    knights.add_argument(
        "cols", type=positive, nargs="?", metavar="COLS", help="columns (default: ROWS)"
    )
    knights.add_argument(
        "--closed", action="store_true", help="tours that end a move from the start"
    )
    knights.add_argument("--start", type=square, metavar="ROW,COL", help="start square (0-based)")
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
    _add_count_and_sample(knights)
    knights_board.add_options(knights)
    add_run_options(knights, formats=("text", "json", "svg"))
    knights.set_defaults(handler=run, rules=RULES, sizes=check_size)


def _add_count_and_sample(knights: argparse.ArgumentParser) -> None:
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
        type=positive,
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


def board(args: argparse.Namespace) -> tuple[int, int]:
    """The board's rows and columns: ``ROWSxCOLS``, ``ROWS COLS`` or a side."""
    if isinstance(args.rows, tuple):
        rows, cols = args.rows
        return rows, cols
    return args.rows, args.cols or args.rows


def check_size(args: argparse.Namespace) -> None:
    if args.rows is None:
        return  # a --board picture, read within memory
    rows, cols = board(args)
    check_squares(rows * cols, rows, cols)


@tables_in_memory
def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...knights import solver as kt

    if isinstance(args.rows, tuple) and args.cols is not None:
        raise CliError(
            f"give the board as ROWSxCOLS or as ROWS COLS, not both "
            f"(got {args.rows[0]}x{args.rows[1]} and {args.cols})"
        )
    asked = None if args.rows is None else board(args)
    if knights_board.shaped(args):
        return knights_board.run(args, out, asked, pieces)
    if asked is None:
        raise CliError(knights_board.MISSING)
    rows, cols = asked
    if args.start is not None:  # an off-board start is an error before any work
        kt.no_tour_reason(rows, cols, start=args.start, closed=args.closed)

    def show(n: int, tour: Tour) -> str:
        return "".join(pieces(args, rows, cols, n, tour))

    started = time.perf_counter()
    if args.one:
        return _one(args, out, rows, cols, started)
    if args.sample:
        return sample_tours(args, out, rows, cols, show, started)
    if args.count and args.limit is None and not args.estimate:
        return count(args, out, rows, cols, started)
    if args.estimate and args.closed and args.start is None:  # in --count's unit
        return run_search(args, kt.cycles(rows, cols), show, out, unit=CYCLES)
    stream = kt.tours(rows, cols, start=args.start, closed=args.closed)
    return run_search(args, stream, show, out, unit=DIRECTED)


def pieces(args: argparse.Namespace, rows: int, cols: int, n: int, tour: Tour) -> Iterator[str]:
    """The text of tour ``n`` in pieces, made as they are written: a tour of 10^8
    squares is about a gigabyte of text, never held whole."""
    if args.format == "svg":
        yield tour.svg()
    elif args.format == "json":
        # json_line's object, its list of squares written a block at a time.
        yield json_text(solution=n, rows=rows, cols=cols, closed=tour.closed)[:-2]
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


def _one(args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float) -> int:
    """``--one``: one tour, found fast."""
    from ...knights import solver as kt

    try:
        tour = kt.tour(rows, cols, start=args.start or (0, 0), closed=args.closed)
    except kt.NoTourError as exc:  # no such solution: status 1, as --nth past the last
        print(f"lazysearch knights: {exc}", file=sys.stderr)
        return EXIT_NO_SOLUTION
    for piece in pieces(args, rows, cols, 1, tour):
        out.write(piece)
    if not args.quiet:
        kind = "closed" if tour.closed else "open"
        elapsed = time.perf_counter() - started
        print(f"1 {kind} tour of {rows}x{cols}, {elapsed:.3f} s", file=sys.stderr)
    return EXIT_OK


def count(args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float) -> int:
    """``--count``: by the method chosen for the board and the run
    (:func:`lazysearch.knights.solver.choose_method`); with a bar, a checkpoint or a
    limit by :mod:`.knights_count`, else in one call."""
    from ...knights import solver as kt
    from . import knights_count

    budgeted = any(given(args, f) for f in ("checkpoint", "resume", "time_limit", "node_limit"))
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
        return knights_count.by_program(args, out, rows, cols, started)
    if method == "join" and budgeted:
        return knights_count.by_join(args, out, rows, cols, started)
    if method == "enumerate" and budgeted:
        return knights_count.by_walking(args, out, rows, cols, started)
    if args.time_limit is not None or args.node_limit is not None:
        raise CliError(
            "--time-limit and --node-limit stop knights --count in one process: leave "
            "out --workers and --scheduler, or give --method enumerate"
        )
    single_search(args, 2, "counting tours by symmetry runs several (--method dp counts in one)")
    if args.progress:
        raise CliError(
            "--progress: counting tours by symmetry shows no bar (--method dp shows one)"
        )
    with parallel(args) as workers:
        if args.closed and not args.directed:
            what = CYCLES
            found = kt.count_closed(rows, cols, method=args.method or "auto", **workers)
        else:
            what = DIRECTED
            found = kt.count_tours(
                rows,
                cols,
                start=args.start,
                closed=args.closed,
                method=args.method or "auto",
                **workers,
            )
    print_count(args, out, found, NO_TAG, what)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(f"{what.of(found)}, {elapsed:.3f} s", file=sys.stderr)
    return EXIT_OK


def sample_tours(
    args: argparse.Namespace,
    out: TextIO,
    rows: int,
    cols: int,
    show: Show,
    started: float,
) -> int:
    """``--sample K``: K tours drawn uniformly at random (with ``--seed``); through the
    join in parts, ``--progress`` shows a bar of the squares and parts counted."""
    import random

    from ...knights import solver as kt

    what = CYCLES if args.closed else DIRECTED
    method = kt.sample_method(rows, cols, args.closed, args.method or "auto")
    if args.progress and method != "parts":
        raise CliError(
            "--progress: sampling shows a bar through the join in parts only "
            "(--method parts; auto from 7 across)"
        )
    if method != "parts":
        for value, name in ((args.parts, "--parts FILE"), (args.workers, "--workers N")):
            if value is not None:
                raise CliError(
                    f"{name} is for sampling through the join in parts (--method parts; "
                    "auto for closed tours 7 or more across)"
                )
    reason = kt.no_tour_reason(rows, cols, start=args.start, closed=args.closed)
    sampler = None
    if reason is None and method == "parts":
        sampler, drawn = _sample_in_parts(args, rows, cols)
    elif reason is None:
        sampler = kt.make_sampler(rows, cols, args.start, args.closed, method, None)
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
        drawn = kt.draw_tours(sampler, args.sample, random.Random(args.seed))
    for n, tour in enumerate(drawn, start=1):
        out.write(show(n, kt.Tour(tour, rows, cols)))
        out.flush()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{args.sample} drawn uniformly from {what.of(sampler.count)}, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _sample_in_parts(args: argparse.Namespace, rows: int, cols: int) -> tuple[Any, Any]:
    """The sampler through the join in parts, and the tours it drew."""
    import random

    from tqdm import tqdm

    from ...knights import solver as kt
    from ...knights.joinsample import PartsSampler

    bar: Any = None
    if show_bar(args):
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
        drawn = kt.draw_tours(sampler, args.sample, random.Random(args.seed))
    except BaseException:
        if bar is not None:
            bar.leave = False  # cleared, so that the one line saying why stands alone
        raise
    finally:
        if bar is not None:
            bar.close()
    return sampler, drawn
