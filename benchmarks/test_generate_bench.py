"""Puzzle generation (issue 21): minimal unique sudoku of 9x9, 16x16 and 25x25, and
kakuro of 15x15, 30x30 and 100x100; every generated puzzle is proved unique again by the
solvers (exact cover for sudoku, the kakuro engine through ``solve``), outside the
timed part.  py-sudoku, a generator from PyPI (``pip install 'lazysearch[bench]'``),
runs in the same session when installed: its time, and how many of its puzzles have
one solution.

Run one at a time on a shared machine, e.g.
``pytest benchmarks/test_generate_bench.py -k 9x9 --benchmark-min-rounds=1``.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
from typing import Any

import pytest

from lazysearch import kakuro, sudoku

_seeds = itertools.count(1)


def _next_seed() -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (next(_seeds),), {}


def _sudoku_bench(benchmark: Any, box: tuple[int, int], rounds: int, **kwargs: Any) -> None:
    made: list[sudoku.GeneratedSudoku] = []

    def make(seed: int) -> None:
        made.append(sudoku.generate(box, seed=seed, **kwargs))

    benchmark.pedantic(make, setup=_next_seed, rounds=rounds, iterations=1)
    for p in made:
        assert len(sudoku.solve(p, box=box).take(2)) == 1
    benchmark.extra_info["clues"] = sorted(p.clues for p in made)
    benchmark.extra_info["minimal"] = sum(p.minimal for p in made)
    benchmark.extra_info["levels"] = sorted(p.rating.level for p in made)


def test_generate_9x9_minimal(benchmark: Any) -> None:
    _sudoku_bench(benchmark, (3, 3), 21)


def test_generate_16x16_minimal(benchmark: Any) -> None:
    _sudoku_bench(benchmark, (4, 4), 5)


@pytest.mark.skipif(
    not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
    reason="minutes a puzzle, with a heavy tail by seed: set LAZYSEARCH_SLOW_BENCH=1",
)
def test_generate_25x25_minimal(benchmark: Any) -> None:
    # Proved minimal: each clue's tree proof gets 200 nodes (generate.TREE_NODES) and the
    # SAT check (clue_sat) settles the rest, about 230 clues of the 625; the time depends
    # on the seed: seed 1 about 40 s of CPU, seed 2 727 s (docs/generate.md).
    # The exact-cover check of uniqueness after the timed part takes minutes a puzzle.
    _sudoku_bench(benchmark, (5, 5), 3)
    assert benchmark.extra_info["minimal"] == 3


def test_generate_25x25_bounded(benchmark: Any) -> None:
    # Each clue's proof gets 200 nodes (with pairs, about what 500 without bought), and
    # 800 and 3,200 when tried again (settle()), and no SAT: unique always, minimality
    # not proved (extra_info "minimal" counts the puzzles proved minimal).
    _sudoku_bench(benchmark, (5, 5), 1, max_nodes=200)


def _kakuro_bench(benchmark: Any, side: int, rounds: int) -> None:
    made: list[kakuro.Puzzle] = []

    def make(seed: int) -> None:
        made.append(kakuro.generate(side, side, seed=seed))

    benchmark.pedantic(make, setup=_next_seed, rounds=rounds, iterations=1)
    for p in made:
        assert len(kakuro.solve(p).take(2)) == 1
    benchmark.extra_info["white"] = sorted(len(p.white) for p in made)


def test_generate_kakuro_15x15(benchmark: Any) -> None:
    _kakuro_bench(benchmark, 15, 11)


def test_generate_kakuro_30x30(benchmark: Any) -> None:
    _kakuro_bench(benchmark, 30, 3)


def test_generate_kakuro_100x100(benchmark: Any) -> None:
    # About 5,800 white cells, settled window by window before the whole-grid proof.
    _kakuro_bench(benchmark, 100, 3)


def _py_sudoku() -> Any:
    if importlib.util.find_spec("sudoku") is None:
        pytest.skip("py-sudoku is not installed (pip install 'lazysearch[bench]')")
    import sudoku as py_sudoku

    if not hasattr(py_sudoku, "Sudoku"):
        pytest.skip("the installed 'sudoku' module is not py-sudoku")
    return py_sudoku


def test_py_sudoku_9x9(benchmark: Any) -> None:
    """py-sudoku blanks a share of the cells at random (``difficulty(0.6)``) and does not
    check uniqueness: extra_info says how many of its puzzles have one solution."""
    py_sudoku = _py_sudoku()
    made: list[str] = []

    def make(seed: int) -> None:
        board = py_sudoku.Sudoku(3, 3, seed=seed).difficulty(0.6).board
        made.append("".join(str(v) if v else "." for row in board for v in row))

    benchmark.pedantic(make, setup=_next_seed, rounds=21, iterations=1)
    unique = sum(len(sudoku.solve(p).take(2)) == 1 for p in made)
    benchmark.extra_info["unique"] = f"{unique} of {len(made)}"
    benchmark.extra_info["clues"] = sorted(sum(ch != "." for ch in p) for p in made)


# -- sudoku variants (generate_variants.py) ----------------------------------------------


@pytest.mark.parametrize(
    ("variant", "rounds"),
    [("x", 21), ("jigsaw", 21), ("jigsaw-x", 7), ("killer", 7), ("killer-jigsaw-x", 5)],
)
def test_generate_9x9_variant(benchmark: Any, variant: str, rounds: int) -> None:
    """9x9 variants from seeds 1, 2, ...; each proved unique again by exact cover (another
    algorithm than the generator's units and kakuro engines), outside the timed part."""
    from lazysearch.puzzles.variants import solve_variant

    seeds = itertools.count(1)
    made: list[Any] = []

    def make(seed: int) -> None:
        made.append(sudoku.generate((3, 3), seed=seed, variant=variant))

    benchmark.pedantic(make, setup=lambda: ((next(seeds),), {}), rounds=rounds, iterations=1)
    for p in made:
        rows = sudoku.parse(str(p))
        assert len(solve_variant(rows, engine="cover", **p.rules_args()).take(2)) == 1
    benchmark.extra_info["clues"] = sorted(p.clues for p in made)
    benchmark.extra_info["cages"] = sorted(len(p.cages or ()) for p in made)
    benchmark.extra_info["minimal"] = sum(p.minimal for p in made)
    benchmark.extra_info["nodes"] = sorted(p.rating.nodes for p in made)
