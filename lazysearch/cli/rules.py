"""Cross-flag rules: what a command's options mean only with others, or contradict.

A rule is ``(condition, why)``; a command keeps its rules in a list, shared groups
from here and its own, and the first that holds is refused before any work, in one
line (:func:`check`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from .exits import CliError
from .options import given

Rule = tuple[Callable[[argparse.Namespace], bool], str]


def check(args: argparse.Namespace, rules: Sequence[Rule]) -> None:
    """Refuse options that would be ignored or that contradict each other."""
    for holds, why in rules:
        if holds(args):
            raise CliError(why)


def any_given(args: argparse.Namespace, *names: str) -> bool:
    return any(given(args, name) for name in names)


def runs_no_search(name: str) -> Rule:
    """The long runs' options refused where option ``name`` (``--one``, ``--convert``)
    makes the command run no search."""
    return (
        lambda a: given(a, name) and any_given(a, "checkpoint", "resume", "scheduler", "progress"),
        "--checkpoint, --resume, --scheduler and --progress follow a search, "
        "and this command runs none",
    )


#: ``--sample`` of the exact-cover commands (knights has its own).
SAMPLE: list[Rule] = [
    (
        lambda a: (
            given(a, "sample")
            and any_given(
                a,
                *("count", "limit", "nth", "every", "estimate", "method", "workers"),
                *("scheduler", "checkpoint", "resume", "progress"),
            )
        ),
        "--sample K draws K solutions from the whole problem at once: leave out --count, "
        "--limit, --nth, --every, --estimate, --method, --workers, --scheduler, "
        "--checkpoint, --resume and --progress",
    ),
]

SAMPLE_PICTURE: list[Rule] = [
    (
        lambda a: given(a, "sample") and a.format == "svg" and a.sample > 1,
        "--format svg draws one solution: use --sample 1",
    ),
]

ESTIMATE: list[Rule] = [
    (
        lambda a: (
            given(a, "estimate")
            and any_given(a, "count", "limit", "nth", "every", "workers", "scheduler", "checkpoint")
        ),
        "--estimate samples the tree without searching it: leave out --count, --limit, "
        "--nth, --every, --workers, --scheduler and --checkpoint",
    ),
    (
        lambda a: given(a, "estimate") and given(a, "resume"),
        "--estimate samples the whole tree: leave out --resume",
    ),
    (
        lambda a: given(a, "estimate") and a.format == "svg",
        "--estimate prints numbers, not a picture: use --format text or json",
    ),
]

SEED: list[Rule] = [
    (
        lambda a: (
            (given(a, "samples") and not given(a, "estimate"))
            or (given(a, "seed") and not (given(a, "estimate") or given(a, "sample")))
        ),
        "--samples and --seed are for --estimate (and --seed for --sample)",
    ),
]

#: What to print: a count, or which solutions.
CHOICE: list[Rule] = [
    (
        lambda a: given(a, "count") and (given(a, "nth") or given(a, "every")),
        "--count prints a number, and --nth/--every choose solutions to print",
    ),
    (
        lambda a: given(a, "count") and a.format == "svg",
        "--count prints a number, and --format svg draws a solution",
    ),
    (
        lambda a: given(a, "nth") and (given(a, "limit") or given(a, "every")),
        "--nth N prints the N-th solution alone: leave out --limit and --every",
    ),
    (
        lambda a: a.format == "svg" and not given(a, "one") and (a.limit or 1) > 1,
        "--format svg draws one solution: choose it with --nth N, not --limit",
    ),
    (
        lambda a: a.format == "svg" and given(a, "every"),
        "--format svg draws one solution: choose it with --nth N, not --every",
    ),
]

METHOD: list[Rule] = [
    (
        lambda a: (
            given(a, "method")
            and not (given(a, "count") and a.limit is None)
            and not given(a, "sample")
        ),
        "--method chooses how --count counts them all: give --count (without --limit)",
    ),
]

MEMO: list[Rule] = [
    (
        lambda a: a.method == "memo" and any_given(a, "workers", "scheduler"),
        "--method memo counts in one process: leave out --workers and --scheduler",
    ),
]

#: The long runs' options.
RUN: list[Rule] = [
    (
        lambda a: a.scheduler is not None and not a.scheduler.strip(),
        "--scheduler needs the address of a Dask scheduler (tcp://HOST:PORT), not an empty one",
    ),
    (
        lambda a: any_given(a, "time_limit", "node_limit") and given(a, "estimate"),
        "--time-limit and --node-limit stop a search, and --estimate searches nothing: "
        "leave out --estimate",
    ),
    (
        lambda a: given(a, "checkpoint_every") and not given(a, "checkpoint"),
        "--checkpoint-every needs --checkpoint FILE",
    ),
    (
        lambda a: bool(a.progress) and any_given(a, "workers", "scheduler"),
        "--progress follows one process's walk; leave out --workers and --scheduler",
    ),
    (
        lambda a: (
            given(a, "output")
            and a.output != "-"
            and a.output in (a.checkpoint, a.resume, getattr(a, "file", None))
        ),
        "-o names a file this run reads or checkpoints to: write elsewhere",
    ),
]

#: The rules of a search: what to print, estimates, and the long runs' options.
SEARCH: list[Rule] = [*ESTIMATE, *SEED, *CHOICE, *METHOD, *RUN]

#: The exact-cover commands' rules (dlx, queens, sudoku, langford, pentomino).
EXACT_COVER: list[Rule] = [
    *SAMPLE,
    *SAMPLE_PICTURE,
    *ESTIMATE,
    *SEED,
    *CHOICE,
    *METHOD,
    *MEMO,
    *RUN,
]
