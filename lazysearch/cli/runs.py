"""What the long runs share: Ctrl-C and SIGTERM noted instead of raised, the
processes of ``--workers`` or the Dask cluster of ``--scheduler``, and the progress
bar asked for or not."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .exits import CliError


def note_stops(stops: list[int]) -> Callable[[], None]:
    """Have Ctrl-C and SIGTERM noted in ``stops`` (their numbers appended) instead of
    raised, and return what puts the old handlers back.  A long count looks at ``stops``
    at its next tick and stops there, its checkpoint written; an exception raised by the
    handler could land inside compiled code, which does not pass it on."""
    import signal

    def note(signum: int, frame: Any) -> None:
        stops.append(signum)

    handlers = {sig: signal.signal(sig, note) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)

    return restore


def nothing_to_restore() -> None:
    """What stands for :func:`note_stops`'s restore when no handler was changed."""


def show_bar(args: argparse.Namespace) -> bool:
    """``--progress`` / ``--no-progress``, or (neither) whether stderr is a terminal."""
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


def progress_bar(desc: str) -> Any:
    from ..longrun import progress_bar

    return progress_bar(desc)


@contextlib.contextmanager
def parallel(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
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


def single_search(args: argparse.Namespace, searches: int, what: str) -> None:
    """--checkpoint and --resume follow one search: refuse them for ``searches != 1``."""
    for flag in ("checkpoint", "resume"):
        if getattr(args, flag, None) and searches != 1:
            raise CliError(f"--{flag} follows one search, and {what}")


def several(args: argparse.Namespace, count: int, source: str) -> None:
    """Checks for a file of ``count`` puzzles: at least one; one for a picture, a
    checkpoint or a resumption."""
    if count == 0:
        raise CliError(f"{source}: no puzzle in it")
    if args.format == "svg" and count != 1:
        raise CliError(f"--format svg draws one solution, and {source} has {count} puzzles")
    single_search(args, count, f"{source} has {count} puzzles")


#: The options that say where a run's file is and how long a run may go on: left out of
#: the command a file records when it is resumed by ``lazysearch --resume FILE`` alone.
RUN_OPTIONS = ("--checkpoint", "--resume", "--time-limit", "--node-limit")


def _without_run_options(argv: list[str]) -> list[str]:
    """``argv`` less :data:`RUN_OPTIONS` and their values."""
    kept: list[str] = []
    words = iter(argv)
    for word in words:
        name, equals, _ = word.partition("=")
        if name in RUN_OPTIONS:
            if not equals:
                next(words, None)
            continue
        kept.append(word)
    return kept


def recorded_command(path: str) -> list[str] | None:
    """The command line (without :data:`RUN_OPTIONS`) that wrote run file or checkpoint
    ``path``, or None when it records none (written before files recorded it, or by
    the library).

    Raises :class:`CliError` naming the file when it cannot be read or is no JSON object."""
    import json

    try:
        with open(path, encoding="utf-8") as handle:
            record = json.loads(handle.read())
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, RecursionError):
        raise CliError(f"{path}: not a lazysearch run file or checkpoint") from None
    if not isinstance(record, dict) or not str(record.get("format", "")).startswith("lazysearch"):
        raise CliError(f"{path}: not a lazysearch run file or checkpoint")
    argv = record.get("argv")
    if not (isinstance(argv, list) and argv and all(isinstance(w, str) for w in argv)):
        return None
    return _without_run_options(argv)


def resumed_command(argv: list[str]) -> list[str]:
    """``argv``, or for ``--resume FILE [OPTIONS]`` with no command: the command FILE
    records, with ``--checkpoint FILE --resume FILE`` and ``OPTIONS`` (new limits, say)
    after it.  The recorded command's own limits are left out: a resumed run goes on
    to the end unless given new ones.

    Raises :class:`CliError` naming the file when it records no command."""
    if not argv or argv[0].partition("=")[0] != "--resume":
        return argv
    if argv[0] == "--resume":
        if len(argv) < 2 or argv[1].startswith("-"):
            raise CliError("--resume needs a FILE: lazysearch --resume FILE")
        path, rest = argv[1], argv[2:]
    else:
        path, rest = argv[0].partition("=")[2], argv[1:]
    recorded = recorded_command(path)
    if recorded is None:
        raise CliError(
            f"{path} does not record the command that wrote it (a lazysearch before "
            "files recorded it, or the library): give the command, as in "
            f"`lazysearch queens 12 --count --resume {path}`"
        )
    return [*recorded, "--checkpoint", path, "--resume", path, *rest]


def written_by(path: str, argv: list[str]) -> str:
    """``; this file was written by `lazysearch ...``` when run file or checkpoint
    ``path`` records a command other than ``argv``'s (a resume with the wrong problem),
    else ``""``."""
    import shlex

    try:
        recorded = recorded_command(path)
    except CliError:
        return ""
    if recorded is None or recorded == _without_run_options(argv):
        return ""
    return f"; this file was written by `{shlex.join(['lazysearch', *recorded])}`"
