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
