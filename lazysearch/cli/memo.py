"""``--count --method memo`` with a budget or a checkpoint: the memo table saved to
``--checkpoint FILE`` every few seconds, at a limit and at Ctrl-C / SIGTERM, and read
back by ``--resume FILE``."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from .exits import EXIT_BUDGET, EXIT_INTERRUPTED, EXIT_OK, CliError, going_on
from .output import Tag, print_count
from .runs import note_stops, nothing_to_restore, progress_bar, show_bar


def count_by_memo(
    args: argparse.Namespace, stream: Any, out: TextIO, started: float, tag: Tag
) -> int:
    """Count ``stream``'s solutions by the memo within the run's budget
    (:func:`lazysearch.exactcover.memo.count_within`); print the count or where it
    stopped."""
    from ..exactcover import memo

    stops: list[int] = []
    out_of_time: list[bool] = []
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit

    def stop() -> bool:
        """Looked at between chunks of the walk: Ctrl-C / SIGTERM, or the time spent."""
        if deadline is not None and not stops and time.monotonic() >= deadline:
            out_of_time.append(True)
        return bool(stops or out_of_time)

    bar = progress_bar(f"lazysearch {args.command}: ") if show_bar(args) else None

    def progress(fraction: float) -> None:
        if bar is not None:
            bar.n = fraction
            bar.update(0)

    restore = note_stops(stops) if args.checkpoint else nothing_to_restore
    try:
        part = memo.count_within(
            stream.search,
            None,
            args.node_limit,
            checkpoint=args.checkpoint,
            every=args.checkpoint_every or memo.DEFAULT_CHECKPOINT_EVERY,
            resume=args.resume,
            stop=stop,
            progress=progress,
        )
    except OSError as exc:
        name = exc.filename or args.resume or args.checkpoint
        raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        print(
            f"lazysearch {args.command}: {tag.text}interrupted; --checkpoint FILE saves "
            "the memo table to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
        restore()
    if not part.done:
        if stops:
            why, status = "stopped", EXIT_INTERRUPTED
        elif out_of_time:
            why, status = f"time limit of {args.time_limit:g} s reached", EXIT_BUDGET
        else:
            why, status = "node limit reached", EXIT_BUDGET
        _print_stop(args, part, why, tag)
        return status
    record = part.checkpoint
    found = int(record["found"])
    print_count(args, out, found, tag)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{tag.text}{found} solution{'' if found == 1 else 's'}, {int(record['nodes'])} "
            f"nodes, {len(record['table'])} subproblems, {elapsed:.3f} s",
            file=sys.stderr,
        )
    return EXIT_OK


def _print_stop(args: argparse.Namespace, part: Any, why: str, tag: Tag) -> None:
    record = part.checkpoint
    found = int(record["found"])
    guess = "cannot estimate the rest yet (no probe reached a solution); "
    if part.rest is not None:
        guess = f"about {part.rest:.3g} more by Knuth's estimate; "
    print(
        f"lazysearch {args.command}: {tag.text}{why} after {found} "
        f"solution{'' if found == 1 else 's'} below the finished subproblems, "
        f"{len(record['table'])} subproblems in the table, {int(record['nodes'])} nodes, "
        f"{100 * part.progress:.1f}% of the tree; {guess}"
        f"{going_on(args.checkpoint, 'saves the memo table')}",
        file=sys.stderr,
    )
