"""The ``lazysearch`` command line: ``lazysearch SUBCOMMAND ...``.

Solutions go to standard output, statistics to standard error.  Bad input is reported
in one line on standard error with a non-zero exit status, never a traceback.
"""

from .app import (
    EXIT_BAD_INPUT,
    EXIT_BUDGET,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_STATUSES,
    EXIT_TOO_LARGE,
    CliError,
    build_parser,
    main,
    version_text,
)

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
    "version_text",
]
