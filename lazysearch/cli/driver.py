"""The long-run driver: count or print a stream's solutions as the options ask, with
a progress bar, checkpoints, resumption, time and node limits, and ``--workers`` or
``--scheduler`` processes; ``--estimate`` and ``--sample`` instead of a search."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import CheckpointError
from .exits import EXIT_BUDGET, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_OK, CliError, going_on
from .options import given
from .output import (
    NO_TAG,
    NODES,
    SOLUTIONS,
    Tag,
    Unit,
    cut_output,
    json_text,
    print_count,
    written_as_it_goes,
)
from .runs import parallel, show_bar

if TYPE_CHECKING:
    from ..longrun import Runner
    from ..parallel import Listing

Show = Callable[[int, Any], str]

#: The options that make a count walk the tree (not count it by the memo).
WALKED = ("workers", "scheduler", "checkpoint", "resume", "time_limit", "node_limit")


def run(
    args: argparse.Namespace,
    stream: Any,
    show: Show,
    out: TextIO,
    started: float | None = None,
    tag: Tag = NO_TAG,
    unit: Unit = SOLUTIONS,
) -> int:
    """Count or print the solutions of ``stream`` as the options ask: with a progress
    bar, checkpoints and resumption when asked.  ``started``: when the work began (the
    time reported counts from there; default now).  ``tag``: which puzzle of a file;
    ``unit``: what one solution of the stream is, in the lines that count them."""
    if started is None:
        started = time.perf_counter()
    if getattr(args, "sample", None):
        return run_sample(args, stream, show, out, started, tag)
    if args.estimate:
        return print_estimate(args, stream, out, tag, unit)
    if (
        args.count
        and getattr(args, "method", None) == "memo"
        and (
            args.progress
            or any(given(args, f) for f in ("checkpoint", "resume", "time_limit", "node_limit"))
        )
    ):
        from .memo import count_by_memo

        return count_by_memo(args, stream, out, started, tag)
    return Walk(args, stream, show, out, tag, unit).run(started)


def print_estimate(
    args: argparse.Namespace, stream: Any, out: TextIO, tag: Tag, unit: Unit = SOLUTIONS
) -> int:
    """``--estimate``: Knuth's estimate of the tree size and solution count."""
    est = stream.estimate(samples=args.samples or 1000, seed=args.seed)
    if args.format == "json":
        fields = {
            **tag.fields,
            "samples": est.samples,
            "nodes": est.nodes,
            "nodes_stderr": _finite(est.nodes_stderr),
            # None when no probe reached a solution: the estimate knows nothing.
            "solutions": est.solutions if est.known else None,
            "solutions_stderr": _finite(est.solutions_stderr) if est.known else None,
            **unit.fields,
            "probes_with_solutions": est.hits,
            "reliable": est.reliable,
        }
        out.write(json_text(**fields))
        return EXIT_OK
    if not est.known:
        solutions = f"{unit.many}: cannot estimate yet ({est.caveat()}; more --samples may)"
    elif unit == SOLUTIONS:
        solutions = f"{est.solutions:.4g} solutions (+- {est.solutions_stderr:.2g})"
    else:
        solutions = f"{est.solutions:.4g} (+- {est.solutions_stderr:.2g}) {unit.many}"
    if est.known and not est.reliable:
        solutions += f"; {est.caveat()}, so it may be far off (more --samples may help)"
    print(
        f"{tag.text}estimate from {est.samples} probes: {est.nodes:.4g} nodes "
        f"(+- {est.nodes_stderr:.2g}), {solutions}",
        file=out,
    )
    return EXIT_OK


def guess_rest(search: Any, walked: float) -> str:
    """What a stopped run says of the solutions left: Knuth's estimate, or why there is
    none yet, or why not to trust it."""
    est = search.estimate(1000, seed=0)
    rest = est.rest(walked)
    if rest is None:
        return f"cannot estimate the rest yet ({est.caveat()}); "
    flag = "" if est.reliable else f" ({est.caveat()})"
    return f"about {rest:.3g} more by Knuth's estimate{flag}; "


def _finite(x: float) -> float | None:
    return x if x == x and abs(x) != float("inf") else None


def nth_to_print(args: argparse.Namespace) -> int | None:
    """The one solution to print: ``--nth``, or the first for a picture."""
    nth: int | None = args.nth
    if nth is None and args.format == "svg" and not args.count:
        nth = 1
    return nth


class Walk:
    """A search walked (or counted) to the end or to a limit, its run file kept."""

    def __init__(
        self,
        args: argparse.Namespace,
        stream: Any,
        show: Show,
        out: TextIO,
        tag: Tag,
        unit: Unit = SOLUTIONS,
    ) -> None:
        self.args = args
        self.stream = stream
        self.show = show
        self.out = out
        self.tag = tag
        self.unit = unit
        self.mode = "count" if args.count else "list"
        self.planned = False  # a parallel run file: the count or listing resumes it itself
        self.listing: Listing | None = None
        self.nth = nth_to_print(args)

    def run(self, started: float) -> int:
        args = self.args
        runner = self.runner = self._start()
        search = self.search = self.stream.search
        search.on_chunk = runner.tick
        if getattr(args, "time_limit", None) is not None:
            runner.deadline = time.monotonic() + args.time_limit
        if getattr(args, "node_limit", None) is not None:
            runner.node_limit = search.stats.nodes + args.node_limit
        from .. import longrun

        try:
            with runner.active(search):
                self._walk()
                if self.listing is None:
                    runner.checkpoint(search)
        except longrun.OutOfBudget as which:
            return self._out_of_budget(which)
        except longrun.Stop as stop:
            saved = ""
            if stop.args:  # a parallel count: the solutions of its finished subtrees
                runner.found = stop.args[0]
            if stop.subtrees is not None:
                done, planned = stop.subtrees
                saved = (
                    f" in the {done} of {planned} subtrees finished (saved; the "
                    f"subtrees under way were not, and are counted again)"
                )
            print(
                f"lazysearch {args.command}: {self.tag.text}stopped after {runner.found} "
                f"solutions{saved}; go on with --resume {args.checkpoint}",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
        except KeyboardInterrupt:
            return self._interrupted()
        return self._report(started)

    def _start(self) -> Runner:
        """The runner of the walk: its bar and checkpoints, and what ``--resume`` read."""
        from .. import longrun

        args = self.args
        if args.checkpoint and args.checkpoint != args.resume:
            longrun.check_writable(args.checkpoint)
        runner = longrun.Runner(
            args.checkpoint,
            command=args.command,
            mode=self.mode,
            every=args.checkpoint_every or longrun.DEFAULT_EVERY,
            progress=show_bar(args),
        )
        written = 0  # the bytes of -o FILE the run file says were written
        if args.resume:
            record = self._load(args.resume)
            self.planned = "plan" in record
            if not self.planned:
                self.stream = self.stream.resume(record["search"])
            runner.found = record["found"]
            written = record.get("output") or 0
        out = self.out
        if written_as_it_goes(args):
            cut_output(args.output, out, written)

            def note() -> dict[str, Any]:
                out.flush()
                return {"found": runner.found, "output": os.fstat(out.fileno()).st_size}

        else:

            def note() -> dict[str, Any]:
                return {"found": runner.found}

        runner.note = self.note = note
        return runner

    def _load(self, path: str) -> dict[str, Any]:
        from .. import longrun

        try:
            record: dict[str, Any] = longrun.load(path, command=self.args.command, mode=self.mode)
        except OSError as exc:
            raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
        except CheckpointError as exc:
            if _memo_checkpoint(path):
                raise CliError(
                    f"{path} is a checkpoint of a count by memo: add --method memo"
                ) from None
            raise exc from None
        return record

    def _walk(self) -> None:
        args = self.args
        limit = self.nth or args.limit
        if args.count and limit is None:
            method = getattr(args, "method", None) or "auto"
            by_memo = None
            if method != "enumerate" and not any(given(args, f) for f in WALKED):
                from ..exactcover import memo

                by_memo = memo.count(self.search, method, None)
            if by_memo is not None:
                self.runner.found = by_memo
            else:
                self._count()
        else:
            self._list(limit)

    def _in_parallel(self) -> bool:
        return bool(self.args.workers or self.args.scheduler or self.planned)

    def _parallel_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {
            "checkpoint": args.checkpoint,
            "resume": args.resume if self.planned else None,
            "every": args.checkpoint_every,
            "command": args.command,
            "deadline": self.runner.deadline,
            "nodes": getattr(args, "node_limit", None),
        }

    def _count(self) -> None:
        """Count every solution: the engine's counter is the running total (a resumed
        search starts from the checkpoint's), however the rest is counted."""
        args, runner, search = self.args, self.runner, self.search
        if self._in_parallel():
            from ..parallel import count as parallel_count

            with parallel(args) as workers:
                parallel_count(
                    search,
                    **{"workers": 1, **workers},  # a resumed plan: one process
                    stop=lambda: runner.stop_requested,
                    **self._parallel_options(args),
                )
        else:
            search.count(callback=runner.tick)
        runner.found = search.stats.solutions

    def _list(self, limit: int | None) -> None:
        """Print the solutions asked for (``--nth``, ``--every``), up to ``limit``."""
        args, runner, search, nth = self.args, self.runner, self.search, self.nth
        every = args.every or 1
        left = None if limit is None else max(0, limit - runner.found)
        chosen = self.stream if left is None else self.stream.slice(left)
        with contextlib.ExitStack() as cluster:  # the Dask client of --scheduler
            solutions: Iterator[Any] = chosen
            if self._in_parallel():  # in parallel, or a plan
                solutions = chosen.through(self._listing(cluster))
            for solution in solutions:
                runner.found += 1
                if not args.count and (runner.found == nth if nth else runner.found % every == 0):
                    self.out.write(self.show(runner.found, solution))
                    self.out.flush()
                if self.listing is None:
                    runner.tick(search)
            if self.listing is not None:
                self.listing.save()  # the last solution is written too (--limit)

    def _listing(self, cluster: contextlib.ExitStack) -> Listing:
        from ..parallel import Listing

        args, runner = self.args, self.runner
        workers = cluster.enter_context(parallel(args))
        listing = self.listing = Listing(
            self.search,
            **{"workers": 1, **workers},  # a resumed plan: one process searches
            stop=(lambda: runner.stop_requested) if args.checkpoint else None,
            note=self.note,
            **self._parallel_options(args),
        )
        # Closed before the client: its pool killed, its statistics given to the
        # search if stopped (a --limit).
        cluster.callback(listing.close)
        return listing

    def _out_of_budget(self, which: BaseException) -> int:
        """The line of a run stopped at ``--time-limit`` or ``--node-limit``."""
        args, runner, text = self.args, self.runner, self.tag.text
        if len(which.args) > 1 and self.listing is None:  # a parallel count: its subtrees
            limit, found, done, planned_tasks, spent = which.args
            after = going_on(args.checkpoint, "saves the finished subtrees")
            line = (
                f"{text}{limit} reached after {self.unit.of(found)} in {done} of "
                f"{planned_tasks} subtrees ({spent} nodes in this run); {after}"
            )
        elif self.listing is not None:  # a parallel listing: the pieces read in this run
            line = (
                f"{text}{which.args[0]} reached after {self.unit.of(runner.found)} "
                f"({which.args[2]} nodes in this run); "
                f"{going_on(args.checkpoint, 'saves the place')}"
            )
        else:
            walked = self.search.progress()
            guess = ""
            if not getattr(args, "cheapest", None):
                # (A cost search prunes by cost: an estimate of the whole tree says nothing.)
                guess = guess_rest(self.search, walked)
            line = (
                f"{text}{which} reached after {self.unit.of(runner.found)}, "
                f"{NODES.of(self.search.stats.nodes)}, {100 * walked:.1f}% of the tree; "
                f"{guess}{going_on(args.checkpoint, 'saves the place')}"
            )
        print(f"lazysearch {args.command}: {line}", file=sys.stderr)
        return EXIT_BUDGET

    def _interrupted(self) -> int:
        args, runner = self.args, self.runner
        found = self.unit.of(runner.found)
        if args.workers or args.scheduler:  # the helpers' counts are not in yet
            so_far = f"{found} listed" if self.mode == "list" else "no count yet"
        else:
            so_far = f"{found}, {NODES.of(self.search.stats.nodes)}"
        if args.output and args.output != "-":
            so_far += f" ({args.output} not written)"
        print(
            f"lazysearch {args.command}: {self.tag.text}interrupted after {so_far}; "
            "--checkpoint FILE saves a run to go on with --resume FILE",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED

    def _report(self, started: float) -> int:
        """The count, the statistics line, and whether ``--nth`` was there."""
        args, found, text = self.args, self.runner.found, self.tag.text
        if args.count:
            print_count(args, self.out, found, self.tag, self.unit)
        if not args.quiet:
            elapsed = time.perf_counter() - started
            print(
                f"{text}{self.unit.of(found)}, {NODES.of(self.stream.stats.nodes)}, "
                f"{elapsed:.3f} s",
                file=sys.stderr,
            )
        if self.nth is not None and found < self.nth:
            print(
                f"lazysearch {args.command}: {text}there is no solution {self.nth}, only {found}",
                file=sys.stderr,
            )
            return EXIT_NO_SOLUTION
        return EXIT_OK


def _memo_checkpoint(path: str) -> bool:
    """Whether ``path`` holds a memo count's checkpoint (to say so when a run without
    ``--method memo`` is asked to resume it)."""
    from ..exactcover.memo import CHECKPOINT_FORMAT

    try:
        with open(path, encoding="utf-8") as handle:
            return f'"format":"{CHECKPOINT_FORMAT}"' in handle.read(200)
    except (OSError, ValueError):
        return False


def run_sample(
    args: argparse.Namespace,
    stream: Any,
    show: Show,
    out: TextIO,
    started: float,
    tag: Tag,
) -> int:
    """``--sample K``: K solutions drawn uniformly from the stream's diagram (see
    ``Solutions.diagram``), numbered 1..K in the order drawn; exit status 1 when there
    is no solution to draw."""
    diagram = stream.diagram()
    drawn = diagram.sample(args.sample, args.seed)
    for n, solution in enumerate(drawn, start=1):
        out.write(show(n, solution))
    out.flush()
    total = diagram.count()
    if not args.quiet:
        elapsed = time.perf_counter() - started
        print(
            f"{tag.text}{len(drawn)} drawn of {total} solution{'' if total == 1 else 's'}, "
            f"diagram of {NODES.of(diagram.size)}, {elapsed:.3f} s",
            file=sys.stderr,
        )
    if total == 0:
        print(f"lazysearch {args.command}: {tag.text}there is no solution to draw", file=sys.stderr)
        return EXIT_NO_SOLUTION
    return EXIT_OK
