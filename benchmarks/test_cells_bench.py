"""Dancing cells against dancing links, the two timed in one run (issue 19's targets).

Run:  python -m pytest benchmarks/test_cells_bench.py --benchmark-group-by=group
Each round counts the instance on links, then on cells (CPU time of the count alone,
build excluded); the benchmark's own time is the pair's.  ``extra_info`` keeps both
times, their ratio (cells over links, the best round of each) and both node counts:
the engines walk different trees (see docs/exact-cover.md).  The issue's targets are
ratios: 0.55 on the pentominoes, 0.65 on Langford 11, at most 1.0 on 14-queens.

``test_cells_grouped_against_alone`` times the cells engine as ``auto`` builds it against
the same engine trying each option alone (``group=False``: no hiding of a head kept
for the options that share it), on the same tree: ``extra_info`` keeps the ratio.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

import lazysearch
from lazysearch import ExactCover, _native
from lazysearch.puzzles import langford_problem, queens_problem
from lazysearch.puzzles.polyomino import PENTOMINOES, rectangle, tiling_problem

INSTANCES: dict[str, tuple[Callable[[], Any], int, float]] = {
    # name: (problem, count, the target for cells / links)
    "pentominoes-6x10": (lambda: tiling_problem(rectangle(6, 10), PENTOMINOES), 9356, 0.55),
    "langford-11": (lambda: langford_problem(11, symmetry=False), 35584, 0.65),
    "queens-14": (lambda: queens_problem(14), 365596, 1.0),
}


@pytest.mark.parametrize("instance", list(INSTANCES))
def test_cells_against_links(benchmark: Any, instance: str) -> None:
    if not lazysearch.compiled():
        pytest.skip("the targets are for the compiled engines")
    build, expected, target = INSTANCES[instance]
    problem = build()
    covers = {
        engine: ExactCover(
            list(problem.options),
            primary=list(problem.primary),
            secondary=list(problem.secondary),
            engine=engine,
        )
        for engine in ("links", "cells")
    }
    times: dict[str, list[float]] = {"links": [], "cells": []}
    nodes: dict[str, int] = {}

    def both() -> tuple[int, int]:
        counts = []
        for engine, cover in covers.items():
            search = cover.search()
            start = time.process_time()
            counts.append(search.count())
            times[engine].append(time.process_time() - start)
            nodes[engine] = search.stats.nodes
        return counts[0], counts[1]

    benchmark.group = f"cells against links, {instance}"
    rounds = 1 if instance.startswith("pentominoes") else 3
    assert benchmark.pedantic(both, rounds=rounds, iterations=1) == (expected, expected)
    ratio = min(times["cells"]) / min(times["links"])
    benchmark.extra_info.update(
        links_s=min(times["links"]),
        cells_s=min(times["cells"]),
        ratio=round(ratio, 3),
        target=target,
        links_nodes=nodes["links"],
        cells_nodes=nodes["cells"],
    )


@pytest.mark.parametrize("instance", ["pentominoes-6x10", "langford-11"])
def test_cells_grouped_against_alone(benchmark: Any, instance: str) -> None:
    if not lazysearch.compiled():
        pytest.skip("the figures are for the compiled engine")
    build, expected, _ = INSTANCES[instance]
    problem = build()
    p = ExactCover(list(problem.options), primary=list(problem.primary), engine="cells").problem
    cells = _native.load("lazysearch.exactcover._cells")
    times: dict[bool, list[float]] = {True: [], False: []}
    counts: dict[bool, tuple[int, int, int]] = {}

    def both() -> tuple[int, int]:
        for grouped in (True, False):
            engine = cells.CellsEngine(
                p.primary, p.secondary, p.option_items, p.option_colors, None, None, grouped
            )
            start = time.process_time()
            engine.run(0, 0)
            times[grouped].append(time.process_time() - start)
            counts[grouped] = (engine.solutions, engine.nodes, engine.shared)
        return counts[True][0], counts[False][0]

    benchmark.group = f"cells grouped against alone, {instance}"
    rounds = 1 if instance.startswith("pentominoes") else 5
    assert benchmark.pedantic(both, rounds=rounds, iterations=1) == (expected, expected)
    assert counts[True][1] == counts[False][1]  # the same tree
    benchmark.extra_info.update(
        grouped_s=min(times[True]),
        alone_s=min(times[False]),
        ratio=round(min(times[True]) / min(times[False]), 3),
        auto_groups=cells.groups(p.option_items),
        nodes=counts[True][1],
        shared=counts[True][2],
    )
