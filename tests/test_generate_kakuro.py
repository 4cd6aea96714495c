"""Kakuro generation: valid runs, one filling (checked by brute force on small grids
and by the solver on larger ones), reproducible from a seed, rated, bad input refused."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from lazysearch import kakuro
from lazysearch.kakuro import KakuroError, Puzzle
from lazysearch.kakuro.generator import GeneratedKakuro, runs_of


def brute_force_fillings(puzzle: Puzzle, stop: int = 2) -> int:
    """Fillings up to ``stop`` by trying digits cell by cell, backing up when a run
    repeats a digit, overshoots its sum or ends on another (small puzzles only; it
    shares nothing with the engine)."""
    cells = sorted(puzzle.white)
    runs_at = {cell: [run for run in puzzle.runs if cell in run.cells] for cell in cells}
    board: dict[tuple[int, int], int] = {}
    tried = [0] * (len(cells) + 1)
    found = 0
    level = 0
    while level >= 0:
        if level == len(cells):
            found += 1
            if found == stop:
                return found
            level -= 1
            continue
        cell = cells[level]
        board.pop(cell, None)
        tried[level] += 1
        if tried[level] > 9:
            tried[level] = 0
            level -= 1
            continue
        board[cell] = tried[level]
        ok = True
        for run in runs_at[cell]:
            digits = [board[c] for c in run.cells if c in board]
            full = len(digits) == len(run.cells)
            repeats = len(set(digits)) < len(digits)
            if repeats or sum(digits) > run.total or (full and sum(digits) != run.total):
                ok = False
        if ok:
            level += 1
    return found


def check_layout(p: GeneratedKakuro) -> None:
    for run in runs_of(p.rows, p.cols, set(p.white)):
        assert 2 <= len(run) <= 9, run
    for cell in p.white:
        assert sum(cell in run.cells for run in p.runs) == 2  # an across and a down run
    assert all(r > 0 and c > 0 for r, c in p.white)  # the clue row and column stay black
    kakuro.verify(p, p.solution)


@pytest.mark.parametrize("size", [(4, 4), (5, 6), (6, 5)])
def test_small_puzzles_have_one_filling_by_brute_force(size: tuple[int, int]) -> None:
    for seed in range(3):
        p = kakuro.generate(*size, seed=seed)
        check_layout(p)
        assert brute_force_fillings(p) == 1


@pytest.mark.parametrize(("size", "density"), [(10, 0.6), (9, 0.8), (15, 0.5), (16, 0.6)])
def test_puzzles_have_one_filling_and_valid_runs(size: int, density: float) -> None:
    p = kakuro.generate(size, size, seed=size, density=density)
    check_layout(p)
    found = kakuro.solve(p).take(2)
    assert found == [p.solution]
    assert abs(len(p.white) - density * (size - 1) ** 2) <= 0.1 * (size - 1) ** 2


def window_fillings(
    white: set[tuple[int, int]], digits: dict[tuple[int, int], int], window: tuple[int, ...]
) -> int:
    """Fillings (up to two) of the cells of ``window`` with every other white cell given,
    counted by the solver on a :class:`Puzzle` built from the sums."""
    from lazysearch.kakuro.generator import build

    r0, c0, r1, c1 = window
    full = build(40, 40, white, digits)
    inside = {(r, c) for r, c in white if r0 <= r < r1 and c0 <= c < c1}
    givens = {cell: d for cell, d in digits.items() if cell not in inside}
    p = Puzzle(40, 40, white=white, across=full.across, down=full.down, givens=givens)
    return len(kakuro.solve(p).take(2))


def test_a_window_is_settled_with_the_cells_around_it_given() -> None:
    import random

    from lazysearch.engine import _native
    from lazysearch.kakuro.generator import build, fill, layout, settle

    rng = random.Random(7)
    white = layout(40, 40, 900, rng)
    digits = fill(40, 40, white, rng)
    assert digits is not None
    window = (10, 10, 22, 22)
    assert window_fillings(white, digits, window) == 2  # a random filling: not unique
    module = _native.load("lazysearch.sums._engine")
    settle(white, digits, window, rng, module)
    assert window_fillings(white, digits, window) == 1
    assert len(kakuro.solve(build(40, 40, white, digits)).take(1)) == 1  # still valid


@pytest.mark.parametrize("seed", [1, 2])
def test_large_grids_are_settled_by_windows_then_proved_whole(seed: int) -> None:
    from lazysearch.kakuro import generator

    assert generator.LOCAL_FROM <= (40 - 1) ** 2  # this size takes the windows' path
    p = kakuro.generate(40, 40, seed=seed)
    check_layout(p)
    assert kakuro.solve(p).take(2) == [p.solution]
    assert kakuro.rate(p) == p.rating


def test_a_generated_puzzle_writes_in_the_formats_the_readers_read() -> None:
    p = kakuro.generate(8, 9, seed=4)
    assert kakuro.loads(kakuro.write_grid(p)) == [p]
    assert kakuro.loads(kakuro.write_json(p)) == [p]
    assert kakuro.solve(kakuro.loads(kakuro.write_grid(p))[0]).one() == p.solution


def test_the_same_seed_gives_the_same_puzzle_compiled_or_not() -> None:
    a, b = kakuro.generate(12, 12, seed=9), kakuro.generate(12, 12, seed=9)
    assert a == b and a.solution == b.solution and a.rating == b.rating
    assert kakuro.generate(12, 12, seed=10) != a
    code = (
        "from lazysearch import kakuro\n"
        "p = kakuro.generate(12, 12, seed=9)\n"
        "print(kakuro.write_grid(p), p.rating)\n"
    )
    outputs = []
    for pure in ("0", "1"):
        env = {**os.environ, "LAZYSEARCH_PURE": pure, "LAZYSEARCH_QUIET": "1"}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] == f"{kakuro.write_grid(a)} {a.rating}\n"


# 3 is 1+2 and 17 is 8+9; the down sums 11 and 9 then place them: no search.
EASY = """\
\\   11\\  9\\
\\3   _    _
\\17  _    _
"""


def test_ratings_grow_with_the_search_a_puzzle_needs() -> None:
    easy = kakuro.rate(kakuro.loads(EASY)[0])
    assert easy.nodes == 1 and easy.score == 0 and easy.level == "easy"
    p = kakuro.generate(10, 10, seed=0)  # 23 nodes: propagation alone stops short
    hard = kakuro.rate(p)
    assert hard == p.rating and hard.nodes > easy.nodes and hard.score > easy.score


def tree_by_replay(puzzle: Puzzle) -> tuple[int, int, int]:
    """Nodes, fillings and dead ends of the engine's tree, each node reached afresh by
    ``replay`` from the root and asked its ``branching()`` (not how :func:`rate` walks)."""
    from lazysearch.engine import _native
    from lazysearch.kakuro.solver import problem

    engine_problem, _ = problem(puzzle)
    module = _native.load("lazysearch.sums._engine")
    engine = module.KakuroEngine(engine_problem.n, engine_problem.runs)
    nodes = fillings = dead_ends = 0
    stack: list[list[int]] = [[]]
    while stack:
        ks = stack.pop()
        engine.restart()
        assert engine.replay(ks)
        b = engine.branching()
        nodes += 1
        if b < 0:
            fillings += 1
        elif b == 0:
            dead_ends += 1
        stack.extend([*ks, k] for k in range(b))
    return nodes, fillings, dead_ends


@pytest.mark.parametrize(("rows", "cols", "seed"), [(10, 10, 0), (9, 9, 4), (12, 12, 3)])
def test_dead_ends_are_counted(rows: int, cols: int, seed: int) -> None:
    p = kakuro.generate(rows, cols, seed=seed)
    nodes, fillings, dead_ends = tree_by_replay(p)
    assert fillings == 1
    assert (p.rating.nodes, p.rating.dead_ends) == (nodes, dead_ends)
    assert kakuro.rate(p) == p.rating


def test_easy_puzzles_have_no_dead_end() -> None:
    assert kakuro.rate(kakuro.loads(EASY)[0]).dead_ends == 0


def test_rating_refuses_a_puzzle_with_two_fillings() -> None:
    two = kakuro.loads("\\  3\\ 3\\\n\\3  _   _\n\\3  _   _\n")[0]
    with pytest.raises(KakuroError, match="two or more"):
        kakuro.rate(two)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((2, 10), {}, "2 x 10"),
        ((5, "5"), {}, "'5'"),
        ((15, 15), {"density": 1.0}, "density 1.0"),
        ((15, 15), {"density": 0}, "above 0; got 0"),
        ((4, 4), {"density": 0.3}, "density 0.3"),
        ((15, 15), {"density": "high"}, "'high'"),
        ((15, 15), {"seed": 1.5}, "1.5"),
    ],
)
def test_bad_arguments_are_refused_by_name(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(KakuroError, match=message):
        kakuro.generate(*args, **kwargs)  # type: ignore[arg-type]


def test_a_layout_left_with_no_white_cell_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lazysearch.kakuro import generator

    real = generator.layout
    calls: list[int] = []

    def layout(rows: int, cols: int, target: int, rng: object) -> set[tuple[int, int]]:
        calls.append(target)
        return set() if len(calls) == 1 else real(rows, cols, target, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(generator, "layout", layout)
    p = kakuro.generate(6, 6, seed=1)
    assert len(calls) == 2 and len(kakuro.solve(p).take(2)) == 1
