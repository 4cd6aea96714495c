"""Dancing cells against dancing links, the two timed in one run (issue 19's targets).

Run:  python -m pytest benchmarks/test_cells_bench.py --benchmark-group-by=group
Each round counts the instance on links, then on cells (CPU time of the count alone,
build excluded); the benchmark's own time is the pair's.  ``extra_info`` keeps both
times, their ratio (cells over links, the best round of each) and both node counts:
the engines walk different trees (see docs/exact-cover.md).  The issue's targets are
ratios: 0.55 on the pentominoes, 0.65 on Langford 11, at most 1.0 on 14-queens.

``test_bits_against_links`` times the bitset engine (``engine="bits"``) against links
and cells in one run, on the rows of the table in docs/exact-cover.md (the measure
behind ``auto``): ``extra_info`` keeps the three times, bits over links and cells over
links, and the nodes (bits walks the tree of links, node for node).

``test_auto_against_the_engines`` times ``engine="auto"`` against the three engines on
the rows of the table under ``auto`` in docs/exact-cover.md (sudoku collections, blank
grids, Langford pairs, queens, pentominoes, coloured word squares, knuth.dlx), each
engine built and run in one round (CPU time, build and auto's rule included), the count
asserted: ``extra_info`` keeps auto's time over the fastest engine's, each engine's over
links', auto's choice and, for the rows the rule changed (sudoku grids: cells to links;
queens 18 and 20: links to bits), the one it made before.  The sudoku collections come
from ../shared/data (skipped without it); the rows of seconds a round run only with
LAZYSEARCH_SLOW_BENCH=1.

``test_cells_grouped_against_alone`` times the cells engine as ``auto`` builds it against
the same engine trying each option alone (``group=False``: no hiding of a head kept
for the options that share it), on the same tree: ``extra_info`` keeps the ratio.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import lazysearch
from lazysearch import ExactCover
from lazysearch.engine import _native
from lazysearch.exactcover.problem import DLXProblem
from lazysearch.puzzles import langford_problem, queens_problem
from lazysearch.puzzles.polyomino import PENTOMINOES, rectangle, tiling_problem
from lazysearch.puzzles.sudoku import parse, read, sudoku_problem
from lazysearch.race import Race
from lazysearch.search import Search

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


# "AI Escargot", a famously hard 9x9 sudoku (one solution).
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def _sudoku(grid: str) -> DLXProblem:
    problem = sudoku_problem(parse(grid))
    assert isinstance(problem, DLXProblem)
    return problem


def _cover(build: Callable[[], Any]) -> Callable[[], DLXProblem]:
    def problem() -> DLXProblem:
        p = build()
        cover = ExactCover(list(p.options), primary=list(p.primary), secondary=list(p.secondary))
        return cover.problem

    return problem


#: name: (problem, count): the rows of the table in docs/exact-cover.md.
TABLE: dict[str, tuple[Callable[[], DLXProblem], int]] = {
    "pentominoes-6x10": (_cover(lambda: tiling_problem(rectangle(6, 10), PENTOMINOES)), 9356),
    "pentominoes-3x20": (_cover(lambda: tiling_problem(rectangle(3, 20), PENTOMINOES)), 8),
    "langford-11": (_cover(lambda: langford_problem(11, symmetry=False)), 35584),
    "escargot": (lambda: _sudoku(ESCARGOT), 1),
    "queens-12": (_cover(lambda: queens_problem(12)), 14200),
    "queens-14": (_cover(lambda: queens_problem(14)), 365596),
    "sudoku-4x4-grids": (lambda: _sudoku("." * 16), 288),
}


@pytest.mark.parametrize("instance", list(TABLE))
def test_bits_against_links(benchmark: Any, instance: str) -> None:
    if not lazysearch.compiled():
        pytest.skip("the figures are for the compiled engines")
    build, expected = TABLE[instance]
    problems = {}
    for engine in ("links", "cells", "bits"):
        problems[engine] = build()
        problems[engine].engine_kind = engine
    times: dict[str, list[float]] = {engine: [] for engine in problems}
    nodes: dict[str, int] = {}

    def each() -> tuple[int, ...]:
        counts = []
        for engine, problem in problems.items():
            start = time.process_time()  # the engine's build included: auto's user pays it
            search = Search(problem)
            counts.append(search.count())
            times[engine].append(time.process_time() - start)
            nodes[engine] = search.stats.nodes
        return tuple(counts)

    benchmark.group = f"bits against links, {instance}"
    rounds = 1 if instance == "pentominoes-6x10" else 3 if instance == "queens-14" else 5
    assert benchmark.pedantic(each, rounds=rounds, iterations=1) == (expected,) * 3
    assert nodes["bits"] == nodes["links"]  # the same tree
    best = {engine: min(t) for engine, t in times.items()}
    benchmark.extra_info.update(
        links_s=best["links"],
        cells_s=best["cells"],
        bits_s=best["bits"],
        bits_ratio=round(best["bits"] / best["links"], 3),
        cells_ratio=round(best["cells"] / best["links"], 3),
        auto=build().chosen_engine(),
        options=len(problems["bits"].option_items),
        links_nodes=nodes["links"],
        cells_nodes=nodes["cells"],
    )


SUDOKU = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"


def _list_order(problem: DLXProblem | Race) -> DLXProblem:
    """A sudoku grid's exact cover in list order, as ``ExactCover`` would take it (the
    sudoku module races least constraining orders on links from 16x16 up)."""
    p = problem if isinstance(problem, DLXProblem) else problem.problems[0]
    assert isinstance(p, DLXProblem)
    return DLXProblem(p.primary, p.secondary, p.option_items, p.option_colors)


def _shared(path: str) -> Path:
    if not (SUDOKU / path).exists():
        pytest.skip(f"shared data not present: {SUDOKU / path}")
    return SUDOKU / path


def _norvig_hardest() -> list[DLXProblem]:
    return [_sudoku(grid) for grid in read(_shared("norvig/hardest.txt"))]


def _janko_16x16() -> list[DLXProblem]:
    """janko.at's 16x16 puzzles: rows of numbers, ``-`` for a blank, after ``16 16``."""
    data = json.loads(_shared("janko16/Sudoku_dataset.json").read_text())["data"]
    grids = []
    for entry in data.values():
        lines = entry["problem"].split("\n")
        if lines[0].split() == ["16", "16"]:
            rows = [[0 if x == "-" else int(x) for x in line.split()] for line in lines[1:17]]
            grids.append(_list_order(sudoku_problem(rows)))
    return grids


def _blank_16x16() -> list[DLXProblem]:
    return [_list_order(sudoku_problem(parse("." * 256)))]


def _queens(n: int) -> Callable[[], list[DLXProblem]]:
    return lambda: [_cover(lambda: queens_problem(n))()]


def _sudoku_file(path: str, first: int) -> Callable[[], list[DLXProblem]]:
    return lambda: [_sudoku(grid) for grid in read(_shared(path))[:first]]


def _sparse_25x25() -> list[DLXProblem]:
    """The 25x25 samples but two: sample3_grp4 is malformed, and sample2_grp4 finds no
    solution within 3 M nodes in list order on any engine."""
    paths = sorted(_shared("25x25_aisudokusolver").glob("*.txt"))
    skip = ("25x25_sample3_grp4", "25x25_sample2_grp4")
    return [_list_order(sudoku_problem(parse(read(p)[0]))) for p in paths if p.stem not in skip]


def _one(build: Callable[[], Any]) -> Callable[[], list[DLXProblem]]:
    return lambda: [_cover(build)()]


def _pentominoes(picture: str) -> Callable[[], list[DLXProblem]]:
    from lazysearch.puzzles.polyomino import board

    return _one(lambda: tiling_problem(board(picture), PENTOMINOES))


def _word_squares(size: int, letters: int, words: int, seed: int) -> list[DLXProblem]:
    """Coloured: a row item and a column item per line, each cell a secondary item
    coloured by the letter the line's word puts there; ``words`` words drawn at random
    from all ``size``-letter words over the first ``letters`` letters."""
    import itertools
    import random

    from lazysearch import Colour

    every = ["".join(w) for w in itertools.product("abcde"[:letters], repeat=size)]
    vocabulary = random.Random(seed).sample(every, words)
    options: list[list[Any]] = []
    for i in range(size):
        for w in vocabulary:
            options.append([("row", i)] + [Colour(("cell", i, j), w[j]) for j in range(size)])
            options.append([("col", i)] + [Colour(("cell", j, i), w[j]) for j in range(size)])
    primary = [(line, i) for line in ("row", "col") for i in range(size)]
    secondary = [("cell", i, j) for i in range(size) for j in range(size)]
    return [ExactCover(options, primary=primary, secondary=secondary).problem]


def _knuth_dlx() -> list[DLXProblem]:
    from lazysearch.exactcover.knuth import read as read_dlx

    return [read_dlx(Path(__file__).resolve().parents[1] / "examples" / "knuth.dlx").problem]


SCOTT = "\n".join(["########"] * 3 + ["###..###"] * 2 + ["########"] * 3)

#: name: (problems, solutions to find in each (0: all), solutions in all, auto before
#: this rule (None: the same engine)): the table of docs/exact-cover.md.
AUTO: dict[str, tuple[Callable[[], list[DLXProblem]], int, int, str | None]] = {
    "escargot": (lambda: [_sudoku(ESCARGOT)], 0, 1, "cells"),
    "norvig-hardest": (_norvig_hardest, 0, 11, "cells"),
    "norvig-top95": (_sudoku_file("norvig/top95.txt", 95), 0, 95, "cells"),
    "royle-17-clue-200": (_sudoku_file("royle17/sudoku17_first1000.txt", 200), 0, 200, "cells"),
    "janko-16x16": (_janko_16x16, 0, 124, "cells"),
    "sparse-25x25-first": (_sparse_25x25, 1, 13, "cells"),
    "blank-4x4": (lambda: [_sudoku("." * 16)], 0, 288, None),
    "blank-6x6-1e5": (lambda: [_sudoku("." * 36)], 10**5, 10**5, None),
    "blank-9x9-1e5": (lambda: [_sudoku("." * 81)], 10**5, 10**5, "cells"),
    "blank-16x16-1e5": (_blank_16x16, 10**5, 10**5, "cells"),
    "langford-11": (_one(lambda: langford_problem(11, symmetry=False)), 0, 35584, None),
    "langford-12": (_one(lambda: langford_problem(12, symmetry=False)), 0, 216288, None),
    **{
        f"langford-{n}-1e4": (
            _one(lambda n=n: langford_problem(n, symmetry=False)),
            10**4,
            10**4,
            None,
        )
        for n in (16, 20, 24, 32)
    },
    "queens-8": (_queens(8), 0, 92, None),
    "queens-10": (_queens(10), 0, 724, None),
    "queens-12": (_queens(12), 0, 14200, None),
    "queens-14": (_queens(14), 0, 365596, None),
    **{
        f"queens-{n}-1e5": (_queens(n), 10**5, 10**5, "links" if 18 <= n <= 21 else None)
        for n in (16, 17, 18, 20, 22, 24)
    },
    "pentominoes-3x20": (_one(lambda: tiling_problem(rectangle(3, 20), PENTOMINOES)), 0, 8, None),
    "pentominoes-4x15": (
        _one(lambda: tiling_problem(rectangle(4, 15), PENTOMINOES)),
        0,
        1472,
        None,
    ),
    "pentominoes-5x12": (
        _one(lambda: tiling_problem(rectangle(5, 12), PENTOMINOES)),
        0,
        4040,
        None,
    ),
    "pentominoes-6x10": (
        _one(lambda: tiling_problem(rectangle(6, 10), PENTOMINOES)),
        0,
        9356,
        None,
    ),
    "pentominoes-8x8-centre": (_pentominoes(SCOTT), 0, 520, None),
    "word-squares-3x3": (lambda: _word_squares(3, 5, 60, 6), 0, 30771, None),
    "word-squares-4x4": (lambda: _word_squares(4, 3, 40, 1), 0, 183556, None),
    "word-squares-5x5": (lambda: _word_squares(5, 2, 24, 3), 0, 2132794, None),
    "knuth-dlx": (_knuth_dlx, 0, 1, None),
}

#: Rows of more than a few seconds a round: only with LAZYSEARCH_SLOW_BENCH=1.
SLOW = {"pentominoes-4x15", "pentominoes-5x12", "pentominoes-6x10", "word-squares-5x5"}


@pytest.mark.parametrize("instance", list(AUTO))
def test_auto_against_the_engines(benchmark: Any, instance: str) -> None:
    if not lazysearch.compiled():
        pytest.skip("the figures are for the compiled engines")
    if instance in SLOW and not os.environ.get("LAZYSEARCH_SLOW_BENCH"):
        pytest.skip("seconds a round: LAZYSEARCH_SLOW_BENCH=1 runs it")
    build, limit, expected, before = AUTO[instance]
    problems = build()
    coloured = any(any(map(any, p.option_colors)) for p in problems)
    engines = ("auto", "links", "cells") if coloured else ("auto", "links", "cells", "bits")
    times: dict[str, list[float]] = {engine: [] for engine in engines}

    def each() -> tuple[int, ...]:
        counts = []
        for engine in engines:
            spent, found = 0.0, 0
            for p in problems:
                start = time.process_time()  # the build and auto's rule included
                kind = DLXProblem(p.primary, p.secondary, p.option_items, p.option_colors)
                kind.engine_kind = engine
                walker = kind.engine()
                found += walker.run(limit, 0)
                spent += time.process_time() - start
            times[engine].append(spent)
            counts.append(found)
        return tuple(counts)

    benchmark.group = f"auto against the engines, {instance}"
    rounds = 1 if instance in SLOW else 3
    assert benchmark.pedantic(each, rounds=rounds, iterations=1) == (expected,) * len(engines)
    best = {engine: min(t) for engine, t in times.items()}
    chosen = {p.chosen_engine() for p in problems}
    assert before not in chosen
    fastest = min(best[engine] for engine in engines[1:])
    benchmark.extra_info.update(
        auto=", ".join(sorted(chosen)),
        auto_before=before or ", ".join(sorted(chosen)),
        auto_s=best["auto"],
        auto_over_best=round(best["auto"] / fastest, 3),
        **{f"{engine}_over_links": round(best[engine] / best["links"], 3) for engine in engines},
    )
