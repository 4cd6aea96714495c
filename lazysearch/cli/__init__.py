"""The ``lazysearch`` command line: ``lazysearch SUBCOMMAND ...``.

Solutions go to standard output, statistics to standard error.  Bad input is reported
in one line on standard error with a non-zero exit status, never a traceback.

One module a subcommand (:mod:`.commands`: its arguments, its cross-flag rules, its
run); the options they share (:mod:`.options`), the rules' machinery (:mod:`.rules`),
output files (:mod:`.output`), exit statuses (:mod:`.exits`), what the machine can hold
(:mod:`.limits`), the long-run driver (:mod:`.driver`, :mod:`.runs`, :mod:`.memo`) and
the program itself (:mod:`.app`).
"""

from .app import build_parser, main, run_command
from .exits import (
    EXIT_BAD_INPUT,
    EXIT_BUDGET,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_STATUSES,
    EXIT_TOO_LARGE,
    CliError,
)
from .version import version_text

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BUDGET",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_NO_SOLUTION",
    "EXIT_OK",
    "EXIT_STATUSES",
    "EXIT_TOO_LARGE",
    "CliError",
    "build_parser",
    "main",
    "run_command",
    "version_text",
]
