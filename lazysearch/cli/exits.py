"""The command line's exit statuses, and the one line a failed run prints."""

from __future__ import annotations

import argparse
import sys

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
    "Exit status: 0 done, 1 no such solution (--nth, --sample, --one, --format svg), "
    "2 bad input or arguments, 3 too large for this machine (memory, a count's tables, "
    "nesting, or numbers beyond the engines' integers), 4 internal error (a bug: "
    "LAZYSEARCH_TRACEBACK=1 shows where), 5 stopped at --time-limit or --node-limit "
    "(partial), 130 interrupted."
)


class CliError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def fail(args: argparse.Namespace, message: str, status: int) -> int:
    """Print ``message`` as the one line of a failed run; return ``status``."""
    line = " ".join(message.split())  # one line, whatever the message held
    print(f"lazysearch {args.command}: error: {line}", file=sys.stderr)
    return status


def going_on(checkpoint: str | None, saves: str) -> str:
    """How a stopped run goes on: from its ``--checkpoint`` file, or (without one) what
    ``--checkpoint FILE`` would have kept (``saves``: "saves the place", ...)."""
    if checkpoint:
        return f"go on with --resume {checkpoint}"
    return f"--checkpoint FILE {saves} to go on with --resume FILE"
