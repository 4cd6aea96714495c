"""What this machine and the engines can hold: input files read within the memory
available, and boards, counts and processes refused before any work when too large
(:class:`TooLargeError`, naming the size)."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from typing import TextIO

from ..engine.memory import available_memory
from ..errors import TooLargeError, article
from .exits import CliError

#: Bytes of memory a search takes, measured (peak RSS, CPython 3.11, compiled engines):
#: per square of an N-queens board (N = 2000: 1.0 GB), per character of a puzzle file
#: read by ``kakuro`` (a 236 KB grid: 74 MB), ``dlx`` (1.4 MB: 74 MB) or ``sudoku``
#: (9.8 MB of 9x9 lines: 3.2 a character, solved one at a time), rounded up.
BYTES_PER_SQUARE = 300
#: Per n**2 for Langford pairs of order n (n = 2000: 4.5 GB; about 2n**2 options).
BYTES_PER_LANGFORD = 1200
BYTES_PER_TEXT_BYTE = {"kakuro": 400, "dlx": 100, "sudoku": 10}
#: The engines number a board's squares, and positions, in signed 32-bit integers.
MAX_SQUARES = 2**31 - 1


def gb(n: float) -> str:
    return f"{n / 1e9:,.1f} GB"


def read_source(name: str, command: str = "") -> tuple[str, str]:
    """The text of file ``name`` (``-``: standard input), refused with
    :class:`TooLargeError` when reading it would take more memory than is available."""
    per_byte = BYTES_PER_TEXT_BYTE.get(command, 100)
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
            f"the {gb(limit * per_byte)} of memory available (about {per_byte} bytes "
            "a character)"
        )
    return text


def check_sizes(args: argparse.Namespace) -> None:
    """Refuse, before any work, numbers beyond what Python counts and more processes
    than this machine's cores take; then the command's own sizes (its ``sizes``)."""
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
    command_sizes = getattr(args, "sizes", None)
    if command_sizes is not None:
        command_sizes(args)


def check_squares(squares: int, *sides: int, unit: str = "squares") -> None:
    """Refuse a board (of these ``sides``) of more squares (or other ``unit``: cells,
    triangles) than the engines number."""
    if squares > MAX_SQUARES:
        raise TooLargeError(
            f"{article(sides[0])} {'x'.join(map(str, sides))} board has {squares:,} {unit}; "
            f"the engine numbers them in 32 bits (at most {MAX_SQUARES:,})"
        )


def check_memory(needed: int, what: str) -> None:
    available = available_memory()
    if available is not None and needed > available:
        raise TooLargeError(
            f"{what} would take about {gb(needed)} of memory, and this machine has "
            f"{gb(available)} available"
        )


Handler = Callable[[argparse.Namespace, TextIO], int]


def tables_in_memory(run: Handler) -> Handler:
    """``run``, with a count or draw whose tables would outgrow the memory
    (:class:`~lazysearch.knights.limits.TooManyStatesError`) told in the command line's
    terms: what it can do instead, not the Python keyword that raises the bound."""

    @functools.wraps(run)
    def wrapped(args: argparse.Namespace, out: TextIO) -> int:
        try:
            return run(args, out)
        except TooLargeError as exc:
            from ..knights.limits import TooManyStatesError

            if not isinstance(exc, TooManyStatesError) or "max_states" not in str(exc):
                raise
            instead = "; --estimate guesses the count instead" if args.count else ""
            raise TooLargeError(
                f"{exc.reason()}; the command line keeps its tables within half of this "
                "machine's memory (in Python, max_states= raises that bound)"
                f"{instead}"
            ) from None

    return wrapped
