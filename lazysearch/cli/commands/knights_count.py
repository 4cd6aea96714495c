"""``lazysearch knights --count`` as a long run: by the program over cross-sections
with a bar, by the join or by walking, each with checkpoints, ``--resume`` and the
time (or node) limits; Ctrl-C and SIGTERM stop at the count's next tick."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TextIO

from ..exits import EXIT_BUDGET, EXIT_INTERRUPTED, EXIT_OK, CliError, going_on
from ..output import NO_TAG, Unit, print_count
from ..runs import note_stops, nothing_to_restore, parallel, progress_bar, show_bar

#: What knights counts, said in every line that gives a count: closed tours as cycles
#: (each once, whatever its start and direction), or directed tours (a start and a
#: direction each: a cycle gives 2 * rows * cols of them).
CYCLES = Unit("closed tour (a cycle)", "closed tours (cycles, each counted once)", "cycles")
DIRECTED = Unit("directed tour", "directed tours", "directed tours")


def directed(args: argparse.Namespace, found: int, rows: int, cols: int) -> tuple[int, Unit]:
    """A count of cycles (closed) or directed tours (open) in the terms asked for."""
    if not args.closed:
        return found, DIRECTED
    if args.directed:
        return found * (2 if args.start is not None else 2 * rows * cols), DIRECTED
    return found, CYCLES


def _print_found(
    args: argparse.Namespace, out: TextIO, found: int, what: Unit, started: float, extra: str = ""
) -> int:
    print_count(args, out, found, NO_TAG, what)
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(f"{what.of(found)}, {extra}{elapsed:.3f} s", file=sys.stderr)
    return EXIT_OK


def by_program(args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float) -> int:
    """``--count`` by the program over cross-sections with a progress bar, checkpoints
    every few seconds and at Ctrl-C / SIGTERM, or from ``--resume FILE``."""
    from ... import longrun
    from ...knights.counting import DEFAULT_CHECKPOINT_EVERY, frontier_count

    total = rows * cols
    stops: list[int] = []
    swept = [0]
    bar = progress_bar("lazysearch knights: ") if show_bar(args) else None

    # --time-limit: looked at as each square is swept (a square of a wide board can take
    # a while), then the count stops as at Ctrl-C, its table saved with --checkpoint.
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    out_of_time: list[bool] = []

    def progress(fraction: float) -> None:
        swept[0] = round(fraction * total)
        if bar is not None:
            bar.n = fraction
            bar.update(0)
        if deadline is not None and fraction < 1 and time.monotonic() >= deadline:
            out_of_time.append(True)
            raise longrun.Stop
        if stops:
            raise longrun.Stop

    restore = note_stops(stops) if args.checkpoint else nothing_to_restore
    try:
        result = frontier_count(
            rows,
            cols,
            start=None if args.closed else args.start,
            closed=args.closed,
            progress=progress,
            checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every or DEFAULT_CHECKPOINT_EVERY,
            resume=args.resume,
        )
    except longrun.Stop:
        if out_of_time:
            print(
                f"lazysearch knights: time limit of {args.time_limit:g} s reached after "
                f"square {swept[0]} of {total}; "
                f"{going_on(args.checkpoint, 'saves the count')}",
                file=sys.stderr,
            )
            return EXIT_BUDGET
        print(
            f"lazysearch knights: stopped after square {swept[0]} of {total}; "
            f"go on with --resume {args.checkpoint}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(
            f"lazysearch knights: interrupted after square {swept[0]} of {total}; "
            "--checkpoint FILE saves a count to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
        restore()
    found, what = directed(args, result.count, rows, cols)
    return _print_found(
        args, out, found, what, started, f"at most {result.peak_states} frontiers, "
    )


def by_walking(args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float) -> int:
    """``--count --method enumerate`` within ``--time-limit`` / ``--node-limit``, with
    ``--checkpoint`` / ``--resume``: the searches the count adds up, walked one after
    the other, each by ``--workers`` / ``--scheduler`` in parallel if given
    (:func:`lazysearch.knights.walking.count_within`)."""
    import contextlib

    from ...knights import walking

    if args.progress:
        raise CliError("--progress: counting tours by walking shows no bar (--method dp does)")
    stops: list[int] = []

    with contextlib.ExitStack() as stack:
        workers = stack.enter_context(parallel(args))
        if args.checkpoint:
            stack.callback(note_stops(stops))
        try:
            part = walking.count_within(
                rows,
                cols,
                start=None if args.closed else args.start,
                closed=args.closed,
                seconds=args.time_limit,
                nodes=args.node_limit,
                checkpoint=args.checkpoint,
                every=args.checkpoint_every or 5.0,
                resume=args.resume,
                stop=lambda: bool(stops),
                **workers,
            )
        except OSError as exc:
            name = exc.filename or args.resume or args.checkpoint
            raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
        except KeyboardInterrupt:
            print(
                "lazysearch knights: interrupted; --checkpoint FILE saves a count to go on "
                "with --resume FILE",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    found, what = directed(args, part.count, rows, cols)
    if not part.done:
        if stops or part.limit == "stop":
            why, status = "stopped", EXIT_INTERRUPTED
        elif part.limit == "node limit":
            why, status = "node limit reached", EXIT_BUDGET
        else:
            why, status = f"time limit of {args.time_limit:g} s reached", EXIT_BUDGET
        print(
            f"lazysearch knights: {why} after {what.of(found)} in {part.finished} of "
            f"{part.searches} searches and {100 * part.progress:.1f}% of the next, "
            f"{part.nodes} nodes; {going_on(args.checkpoint, 'saves the count')}",
            file=sys.stderr,
        )
        return status
    return _print_found(args, out, found, what, started, f"{part.nodes} nodes, ")


def by_join(args: argparse.Namespace, out: TextIO, rows: int, cols: int, started: float) -> int:
    """``--count --method join`` with ``--time-limit``, ``--checkpoint`` or ``--resume``:
    the time looked at after each square of the halves' sweep and each part of the
    transfer; the checkpoint is the parts counted so far
    (:mod:`lazysearch.knights.joinrun`), written as each is counted; Ctrl-C and SIGTERM
    stop at the join's next tick (a square of a half, a crossing square, half a second
    of waiting for a worker's part), the parts counted kept."""
    from ... import longrun

    if not args.closed:
        raise CliError(
            "--method join stops and resumes closed tours only (--closed); "
            "the open tours: --method dp, or --method enumerate"
        )
    if args.node_limit is not None:
        raise CliError(
            "--node-limit: the join enters no nodes; use --time-limit, or --method enumerate"
        )
    from ...knights import joinrun
    from ...knights.solver import no_tour_reason

    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    reached: list[str] = []
    parts: list[int] = []
    stops: list[int] = []

    def tick(where: str) -> None:
        if where.startswith("part "):
            parts[:] = [int(where.split()[1]), int(where.split()[3])]
        if stops:
            raise longrun.Stop
        if deadline is not None and time.monotonic() >= deadline:
            reached.append(where)
            raise longrun.Stop

    restore = note_stops(stops)
    found = 0
    try:
        if not no_tour_reason(rows, cols, closed=True):
            found = joinrun.count_joined(
                rows,
                cols,
                workers=args.workers or os.cpu_count() or 1,
                checkpoint=args.checkpoint,
                resume=args.resume,
                tick=tick,
            ).count
    except longrun.Stop:
        done = f"{parts[0]} of {parts[1]} parts of the transfer" if parts else "no part yet"
        why = (
            f"time limit of {args.time_limit:g} s reached at {reached[0]}"
            if reached
            else ("stopped" if args.checkpoint else "interrupted")
        )
        kept = ""
        if args.checkpoint:  # what the file holds: the parts counted, nothing before them
            kept = (
                f"; {args.checkpoint} keeps the {parts[0]} parts counted, not the part under way"
                if parts
                else f"; nothing is saved: {args.checkpoint} keeps only parts counted, and the "
                "sweep of the halves before the first one is done again when resumed"
            )
        print(
            f"lazysearch knights: {why}, with {done} counted (the count comes at the "
            f"end){kept}; {going_on(args.checkpoint, 'keeps the parts counted,')}",
            file=sys.stderr,
        )
        return EXIT_BUDGET if reached else EXIT_INTERRUPTED
    except OSError as exc:
        name = exc.filename or args.resume or args.checkpoint
        raise CliError(f"cannot read or write {name}: {exc.strerror or exc}") from None
    finally:
        restore()
    found, what = directed(args, found, rows, cols)
    return _print_found(args, out, found, what, started)
