"""The program: the parser of every subcommand, and the run of one, its failures each
one line on stderr with its own exit status."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import CheckpointError, LazysearchError, TooLargeError
from .commands import COMMANDS
from .exits import (
    EXIT_BAD_INPUT,
    EXIT_BUDGET,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_STATUSES,
    EXIT_TOO_LARGE,
    CliError,
    fail,
)
from .limits import check_sizes
from .options import Parser, parse
from .output import Output, written_as_it_goes
from .rules import check
from .runs import resumed_command, written_by
from .version import Version


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``lazysearch`` and of each of its subcommands."""
    parser = Parser(
        prog="lazysearch",
        description="Combinatorial search with lazy streams of solutions.",
        epilog=f"{EXIT_STATUSES} Without a COMMAND, this help goes to stderr with status 2.",
    )
    parser.add_argument(
        "--version",
        action=Version,
        help="print the version and whether the compiled engines are in use, and exit",
    )
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        required=True,
        parser_class=Parser,
        help="what to search (lazysearch COMMAND --help for its options)",
    )
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


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
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        words = resumed_command(words)  # ``lazysearch --resume FILE``: FILE's command
    except CliError as exc:
        print(f"lazysearch: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    parser = build_parser()
    args = parse(parser, words)
    args.argv = words
    import warnings

    from ..longrun import written_with

    with warnings.catch_warnings(), written_with(argv=words):
        warnings.showwarning = _one_line_warning(args)
        return run_command(args)


def _one_line_warning(args: argparse.Namespace) -> Callable[..., None]:
    """Show a warning as one line naming the command (a helper process lost and its
    work done again, say), not Python's two lines with a source line."""

    unverified: set[str] = set()  # a run file read twice (a plan's) warns once

    def show(message: Warning | str, *rest: Any, **kwargs: Any) -> None:
        line = " ".join(str(message).split())
        from ..longrun import UnverifiedWarning

        if isinstance(message, UnverifiedWarning):
            if line in unverified:
                return
            unverified.add(line)
        with contextlib.suppress(OSError, ValueError):
            print(f"lazysearch {args.command}: warning: {line}", file=sys.stderr)

    return show


def run_command(args: argparse.Namespace) -> int:
    """Check the options, open the output, and run the command; every failure is
    reported in one line with its status, and ``-o FILE`` is kept only when asked."""
    status = EXIT_BAD_INPUT
    output: Output | None = None
    try:
        check(args, args.rules)
        check_sizes(args)
        output = Output(args.output, written_as_it_goes(args))
        status = args.handler(args, output.handle)
        return int(status)
    except TooLargeError as exc:
        return fail(args, str(exc), EXIT_TOO_LARGE)
    except CheckpointError as exc:
        resumed = getattr(args, "resume", None) if exc.other_problem else None
        hint = written_by(resumed, getattr(args, "argv", [])) if resumed else ""
        return fail(args, f"{exc}{hint}", EXIT_BAD_INPUT)
    except (LazysearchError, CliError, ValueError) as exc:
        return fail(args, str(exc), EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
        print(f"lazysearch {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): that is not an error of ours.
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:
        return fail(args, str(exc), EXIT_BAD_INPUT)
    except MemoryError:
        return fail(
            args, "out of memory: the problem is too large for this machine", EXIT_TOO_LARGE
        )
    except RecursionError:
        return fail(args, "the input is nested too deeply to read", EXIT_TOO_LARGE)
    except OverflowError as exc:
        why = f"a number is too large for the engine ({exc})"
        return fail(args, why, EXIT_TOO_LARGE)
    except Exception as exc:
        if os.environ.get("LAZYSEARCH_TRACEBACK"):
            raise
        why = f"internal error ({type(exc).__name__}: {exc}); please report it"
        return fail(args, why, EXIT_INTERNAL)
    finally:
        if output is not None:
            going_on = status in (EXIT_INTERRUPTED, EXIT_BUDGET) and written_as_it_goes(args)
            # generate stopped by --time-limit: the puzzles made are whole, and kept.
            going_on = going_on or (status == EXIT_BUDGET and args.command == "generate")
            output.finish(keep=status == EXIT_OK or going_on)
