"""The parser's layout and the options several commands share: the argument types,
the run options of a search (``--count``, ``--format``, the long runs' options) and
the exact-cover commands' ``--method`` and ``--sample``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .exits import EXIT_BAD_INPUT

PUZZLES_EPILOG = (
    "Puzzles are numbered from 1 in the order of the file: with several, each solution "
    "and each --count is labelled 'puzzle N', and --format json gives 'puzzle': N."
)


class Formatter(argparse.HelpFormatter):
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


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and ``--help`` for more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        """argparse's help, then the command's examples as written (not reflowed)."""
        from .examples import examples_text

        examples = examples_text(self.prog.split()[-1])
        return super().format_help() + (f"\n{examples}" if examples else "")

    def error(self, message: str) -> NoReturn:
        wrong, _, choices = message.partition("invalid choice: ")[2].partition(" (choose from ")
        if choices:  # a misspelt command or choice: name the nearest
            message += nearest(wrong.strip("'"), [c.strip(" ')") for c in choices.split(",")])
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args``; an unknown option is refused with the nearest known one."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv:  # 'lazysearch' alone: the help, as a usage error (status 2)
        parser.print_help(sys.stderr)
        parser.exit(EXIT_BAD_INPUT)
    args, extras = parser.parse_known_args(argv)
    if extras:
        chosen = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(args.command, parser)
        # (An option given already is no suggestion: 'queens 8 --count --one'.)
        typed = {a.partition("=")[0] for a in argv if a.startswith("-")}
        known = [
            o
            for action in chosen._actions
            if not typed & set(action.option_strings)
            for o in action.option_strings
        ]
        hint = ""
        for extra in extras:
            if extra.startswith("-"):
                hint = nearest(extra.partition("=")[0], known)
                break
        chosen.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return args


def nearest(word: str, known: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the known word nearest ``word``, if one is near."""
    import difflib

    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def given(args: argparse.Namespace, name: str) -> bool:
    """Whether option ``name`` (its ``dest``) was given: neither None nor False."""
    value = getattr(args, name, None)
    return value is not None and value is not False


def flag(name: str) -> str:
    """The option of ``dest`` ``name``: ``max_nodes`` -> ``--max-nodes``."""
    return "--" + name.replace("_", "-")


# -- argument types -------------------------------------------------------------------------


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def pair(separator: str, shape: str, example: str) -> Callable[[str], tuple[int, int]]:
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


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds > 0, got {text!r}")
    return value


square = pair(",", "a square as ROW,COL, counted from 0", "0,0")
size = pair("x", "a board size as ROWSxCOLS", "6x10")


def board_size(text: str) -> tuple[int, int]:
    rows_cols = size(text)
    if min(rows_cols) < 1:
        raise argparse.ArgumentTypeError(f"a board needs sides >= 1, got {text!r}")
    return rows_cols


def side_or_size(text: str) -> int | tuple[int, int]:
    """A board's side (``8``) or its size (``3x100``)."""
    return board_size(text) if "x" in text.lower() else positive(text)


# -- options shared by the commands that search ---------------------------------------------


def add_run_options(
    p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json")
) -> None:
    """The options of a search: what to print and how, and the long runs' options."""
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument("--limit", type=positive, metavar="N", help="stop after N solutions")
    p.add_argument(
        "--nth",
        type=positive,
        metavar="N",
        help="print only the N-th solution (exit status 1 if there are fewer)"
        + ("; --format svg draws the first by default" if "svg" in formats else ""),
    )
    p.add_argument("--every", type=positive, metavar="M", help="print only every M-th solution")
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
        type=positive,
        metavar="N",
        help="search in N processes (solutions are listed in the same order)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no statistics on stderr")
    _add_long_run_options(p.add_argument_group("long runs"))


def _add_long_run_options(long: argparse._ArgumentGroup) -> None:
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
        "--samples", type=positive, metavar="N", help="probes for --estimate (default 1000)"
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
        type=seconds,
        metavar="SECONDS",
        help="seconds between checkpoints (default 5; 60 for knights --count by "
        "the program and --count --method memo, whose tables may take seconds to write)",
    )
    long.add_argument(
        "--resume", metavar="FILE", help="go on from a run file written by --checkpoint"
    )
    long.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="stop after SECONDS of searching (exit status 5; with --checkpoint, --resume goes on)",
    )
    long.add_argument(
        "--node-limit",
        type=positive,
        metavar="N",
        help="stop after about N nodes (looked at every 65,536; exit status 5)",
    )
    long.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count or list on the Dask cluster at ADDRESS (pip install 'lazysearch[dask]')",
    )


def add_exact_cover_options(p: argparse.ArgumentParser) -> None:
    """``--method`` and ``--sample`` for the exact-cover commands (knights has its own):
    they count by the memo and draw from its diagram."""
    p.add_argument(
        "--method",
        choices=("auto", "memo", "enumerate"),
        help="with --count: 'memo' counts by remembered subproblems (fast where they "
        "recur, as in tilings), 'enumerate' walks every solution, 'auto' (default) "
        "probes 256 memo nodes and picks",
    )
    p.add_argument(
        "--sample",
        type=positive,
        metavar="K",
        help="print K solutions drawn uniformly at random (with replacement) from all of "
        "them, without listing the rest; --seed S repeats a draw",
    )
