"""``lazysearch graph FILE --cycles|--paths``: the Hamiltonian cycles or paths of a
graph read from an edge list or a DIMACS file, listed, counted or drawn at random."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from .. import rules
from ..driver import WALKED
from ..driver import run as run_search
from ..exits import EXIT_NO_SOLUTION, EXIT_OK, CliError
from ..options import Formatter, add_run_options, given, positive
from ..output import NO_TAG, json_line, print_count

if TYPE_CHECKING:
    from ...graphs.files import GraphFile
    from ...stream import Solutions

DESCRIPTION = """\
The Hamiltonian cycles (--cycles: every vertex once, and back to the first)
or paths (--paths: every vertex once) of the graph in FILE: listed, counted,
or drawn at random. An undirected cycle or path and its reversal are one,
given once.
"""

EPILOG = """\
FILE is an edge list (an edge 'u v' a line, '#' comments, a third field a
weight, ignored), DIMACS .col ('p edge N M', 'e u v') or DIMACS .gr ('p sp N
M', 'a u v w': arcs); its suffix says which, or --format-in. Self-loops,
repeated edges and weights are ignored, and said on stderr.

"""

RULES: list[rules.Rule] = [
    (
        lambda a: given(a, "end") and a.cycles,
        "--end is for --paths: a cycle ends where it starts (--start V gives each cycle from V)",
    ),
    (
        lambda a: (
            given(a, "one")
            and rules.any_given(
                a, "count", "limit", "nth", "every", "sample", "estimate", "workers"
            )
        ),
        "--one prints one cycle or path: leave out --count, --limit, --nth, --every, "
        "--sample, --estimate and --workers",
    ),
    (
        lambda a: (
            given(a, "sample")
            and rules.any_given(
                a,
                *("count", "limit", "nth", "every", "estimate", "method", "workers"),
                *("scheduler", "checkpoint", "resume", "progress", "time_limit", "node_limit"),
            )
        ),
        "--sample K draws K at random from them all at once: leave out --count, --limit, "
        "--nth, --every, --estimate, --method, --workers, --scheduler, --checkpoint, "
        "--resume, --progress, --time-limit and --node-limit",
    ),
    (
        lambda a: (
            a.method == "frontier"
            and rules.any_given(a, *WALKED, "progress")
            and a.progress is not False
        ),
        "--method frontier counts in one call, without a walk to follow: leave out "
        "--workers, --scheduler, --checkpoint, --resume, --time-limit, --node-limit and "
        "--progress (or give --method enumerate)",
    ),
    *rules.ESTIMATE,
    *rules.SEED,
    *rules.CHOICE,
    *rules.METHOD,
    *rules.RUN,
]


def add_parser(commands: Any) -> None:
    graph = commands.add_parser(
        "graph",
        help="Hamiltonian cycles or paths of a graph read from a file",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=_Formatter,
    )
    graph.add_argument("file", metavar="FILE", help="the graph file, or - for standard input")
    what = graph.add_mutually_exclusive_group(required=True)
    what.add_argument("--cycles", action="store_true", help="Hamiltonian cycles")
    what.add_argument("--paths", action="store_true", help="Hamiltonian paths")
    graph.add_argument(
        "--start",
        metavar="V",
        help="paths that begin at vertex V; cycles given from V (a number when the "
        "file's vertices are numbers)",
    )
    graph.add_argument("--end", metavar="V", help="with --paths: paths that end at vertex V")
    graph.add_argument(
        "--format-in",
        choices=("edges", "col", "gr"),
        help="the file's format (default: by its suffix, .col and .gr, else an edge list)",
    )
    graph.add_argument(
        "--directed",
        action=argparse.BooleanOptionalAction,
        help="read the pairs as arcs u -> v (default: an edge list and .col undirected, "
        ".gr directed)",
    )
    graph.add_argument(
        "--one",
        action="store_true",
        help="print one cycle or path and stop (exit status 1 when there is none)",
    )
    graph.add_argument(
        "--method",
        choices=("auto", "frontier", "enumerate"),
        help="with --count: 'enumerate' walks every one (the walk follows --workers, "
        "--checkpoint and --progress), 'frontier' counts by the frontier program over "
        "an order of the vertices, 'auto' (default) the faster",
    )
    graph.add_argument(
        "--sample",
        type=positive,
        metavar="K",
        help="print K drawn exactly uniformly at random from them all; --seed S repeats a draw",
    )
    add_run_options(graph)
    graph.set_defaults(handler=run, rules=RULES)


class _Formatter(Formatter, argparse.RawDescriptionHelpFormatter):
    """The description and the epilog's examples kept as written."""


def read_graph(args: argparse.Namespace) -> GraphFile:
    """The graph of ``FILE`` (``-``: standard input), its notes on stderr unless ``-q``."""
    from ...graphs import files
    from ..limits import read_source

    text, source = read_source(args.file, "graph")
    chosen = files.format_of("" if args.file == "-" else args.file, args.format_in)
    g = files.parse(text, chosen, source=source, directed=args.directed)
    if not args.quiet:
        for note in g.notes():
            print(f"lazysearch graph: {note}", file=sys.stderr)
    return g


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ... import graphs

    started = time.perf_counter()
    g = read_graph(args)
    start = None if args.start is None else g.label(args.start)
    end = None if args.end is None else g.label(args.end)
    if start is not None and start == end and g.n > 1:
        raise CliError(
            f"--start and --end are both {args.start}: a path's ends differ (the cycles "
            "through a vertex are --cycles)"
        )
    stream: Solutions[tuple[Any, ...]]
    first = None
    if args.cycles:
        if start is not None:
            first = g.vertex(start, "start")
            start = g.labels[first]
        stream = graphs.hamiltonian_cycles(g)
    else:
        stream = graphs.hamiltonian_paths(g, start, end)
    key = "cycle" if args.cycles else "path"

    def show(n: int, found: tuple[Any, ...]) -> str:
        if first is not None:  # the cycle from --start
            at = found.index(start)
            found = found[at:] + found[:at]
        if args.format == "json":
            return json_line(n, found, **{key: list(found)})
        return f"{n}: {' '.join(str(v) for v in found)}\n"

    if args.one:
        args.nth = 1  # the driver stops at the first, exit status 1 without one
    if args.sample:
        return _sample(args, stream, show, out, started)
    if args.count and args.limit is None and not args.estimate:
        counted = _count(args, stream)
        if counted is not None:
            print_count(args, out, counted, NO_TAG)
            if not args.quiet:
                elapsed = time.perf_counter() - started
                plural = "" if counted == 1 else "s"
                print(f"{counted} {key}{plural}, {elapsed:.3f} s", file=sys.stderr)
            return EXIT_OK
    return run_search(args, stream, show, out, started)


def _count(args: argparse.Namespace, stream: Solutions[Any]) -> int | None:
    """The count by the problem's own methods (``HamiltonProblem.count``), or None
    when the walk is the way (``--method enumerate``, the options of a walk, or no
    faster method in this version)."""
    method = args.method or "auto"
    problem: Any = stream.search.problem
    methods = ("enumerate", *getattr(problem, "METHODS", ()))
    if method == "enumerate" or any(given(args, f) for f in WALKED) or args.progress:
        return None
    if method == "auto":
        from ...graphs import frontier

        if "frontier" not in methods or not frontier.wide(problem):
            return None  # the walk, with the driver's lines
        method = "frontier"
    if method not in methods:
        raise CliError(
            f"--method {method}: this version of lazysearch counts Hamiltonian cycles "
            "and paths by walking them only (--method enumerate)"
        )
    from ...graphs import TooWideError

    try:
        found: int = problem.count(method)
    except TooWideError as error:
        raise CliError(
            f"{error}; --method enumerate walks them instead, however long that takes"
        ) from None
    return found


def _sample(
    args: argparse.Namespace, stream: Solutions[Any], show: Any, out: TextIO, started: float
) -> int:
    """``--sample K``: K drawn uniformly at random, from the problem's own counts."""
    problem = stream.search.problem
    if getattr(problem, "counting", None) is None and getattr(problem, "sample", None) is None:
        raise CliError(
            "--sample: this version of lazysearch cannot draw Hamiltonian cycles and paths "
            "at random yet (--count counts them, --limit N lists the first N)"
        )
    drawn = stream.sample(args.sample, seed=args.seed)
    for n, found in enumerate(drawn, start=1):
        out.write(show(n, found))
    out.flush()
    what = "cycle" if args.cycles else "path"
    if not drawn:
        print(f"lazysearch graph: there is no Hamiltonian {what} to draw", file=sys.stderr)
        return EXIT_NO_SOLUTION
    if not args.quiet:
        elapsed = time.perf_counter() - started
        plural = "" if len(drawn) == 1 else "s"
        print(
            f"{len(drawn)} {what}{plural} drawn uniformly at random, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK
