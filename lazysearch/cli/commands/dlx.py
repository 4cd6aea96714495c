"""``lazysearch dlx FILE``: an exact-cover problem in Knuth's text format."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .. import rules
from ..driver import run as run_search
from ..exits import CliError
from ..limits import read_source
from ..options import add_exact_cover_options, add_run_options, positive

RULES = rules.EXACT_COVER


def add_parser(commands: Any) -> None:
    dlx = commands.add_parser("dlx", help="solve an exact-cover problem in Knuth's text format")
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
    add_run_options(dlx)
    add_exact_cover_options(dlx)
    dlx.add_argument(
        "--cheapest",
        type=positive,
        metavar="K",
        help="list the K cheapest solutions, cheapest first (options priced by a '|cost' "
        "at the end of their lines; branch and bound)",
    )
    dlx.set_defaults(handler=run, rules=RULES)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ...exactcover.knuth import format_option, parse
    from ..output import json_line

    text, source = read_source(args.file, "dlx")
    problem = parse(text, source=source)
    problem.problem.engine_kind = args.engine  # one of ENGINES (argparse checked it)
    if args.reduce:
        from ...exactcover.reduce import reduce_problem

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
            return json_line(
                n,
                solution,
                options=list(solution),
                rows=[format_option(problem.options[j]).split() for j in solution],
                **priced,
            )
        head = f"{n}: cost {priced['cost']}" if priced else f"{n}:"
        return head + "\n" + "".join(f" {format_option(problem.options[j])}\n" for j in solution)

    return run_search(args, stream, show, out)
