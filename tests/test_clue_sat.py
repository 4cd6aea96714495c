"""The SAT check of a sudoku clue (lazysearch.puzzles.clue_sat) against exact cover."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, sudoku
from lazysearch.engine import _native
from lazysearch.puzzles import generate as gen
from lazysearch.puzzles.clue_sat import other_filling


def cover_count(cells: list[int], box: tuple[int, int]) -> int:
    """Fillings up to two, by the exact-cover solver."""
    n = box[0] * box[1]
    rows = [cells[r * n : r * n + n] for r in range(n)]
    return len(sudoku.solve(rows, box=box).take(2))


def assert_agrees_on_every_clue(puzzle: list[int], box: tuple[int, int]) -> None:
    """For each clue of ``puzzle`` (one filling): the SAT check finds another filling
    exactly when exact cover counts two without the clue, and what it finds is one."""
    n = box[0] * box[1]
    units = gen.box_units(n, box)
    for c, digit in enumerate(puzzle):
        if not digit:
            continue
        fewer = list(puzzle)
        fewer[c] = 0
        found = other_filling(fewer, c, digit, units)
        assert (found is not None) == (cover_count(fewer, box) == 2), (puzzle, c)
        if found is not None:
            assert found[c] != digit
            assert all(found[x] == v for x, v in enumerate(fewer) if v)
            for unit in units:
                assert sorted(found[x] for x in unit) == list(range(1, n + 1))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    box=st.sampled_from([(2, 2), (2, 3), (3, 3)]),
    minimal=st.booleans(),
)
def test_the_sat_check_agrees_with_exact_cover_on_every_clue(
    seed: int, box: tuple[int, int], minimal: bool
) -> None:
    # Minimal puzzles: every clue needed; the others (stopped at the first clue that must
    # stay) have clues that can go too.
    p = sudoku.generate(box, seed=seed, minimal=minimal)
    assert_agrees_on_every_clue([v for row in p.grid() for v in row], box)


@pytest.mark.skipif(not compiled(), reason="a 16x16 clue by clue takes minutes as plain Python")
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_sat_check_agrees_with_exact_cover_on_a_16x16(seed: int) -> None:
    p = sudoku.generate((4, 4), seed=seed, minimal=False)
    assert_agrees_on_every_clue([v for row in p.grid() for v in row], (4, 4))


def test_the_filling_found_starts_from_the_grid_given() -> None:
    # An empty 4x4 grid with the 1 of cell 0 avoided: given a grid that avoids it, the
    # search decides every cell as that grid has it, and that is a filling.
    units = gen.box_units(4, (2, 2))
    near = [2, 1, 3, 4, 3, 4, 1, 2, 1, 2, 4, 3, 4, 3, 2, 1]
    assert other_filling([0] * 16, 0, 1, units, near) == near
    swapped = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    found = other_filling([0] * 16, 0, 1, units, swapped)
    assert found is not None and found[0] != 1


def test_givens_that_clash_have_no_filling() -> None:
    units = gen.box_units(4, (2, 2))
    assert other_filling([1, 1] + [0] * 14, 5, 2, units) is None
    assert other_filling([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, 1, units)


@pytest.mark.parametrize(
    ("cell", "digit", "message"),
    [
        (16, 1, "cell 0 to 15; got 16"),
        (-1, 1, "got -1"),
        (0, 5, "digit 1 to 4; got 5"),
        (0, 0, "got 0"),
        ("0", 1, "got '0'"),
    ],
)
def test_bad_cells_and_digits_are_refused_by_name(
    cell: object, digit: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        other_filling([0] * 16, cell, digit, gen.box_units(4, (2, 2)))  # type: ignore[arg-type]


@pytest.mark.parametrize("pure", [False, True])
def test_exactly_one_and_preferred_phases_in_the_sat_solver(pure: bool) -> None:
    sat = (
        _native.load_source("lazysearch.sums._cdcl")
        if pure
        else _native.load("lazysearch.sums._cdcl")
    )
    seen = set()
    for first in range(4):
        solver = sat.Solver(4)
        solver.add_one_of([0, 2, 4, 6])
        solver.prefer([2 * first])
        assert solver.solve(0) == sat.SAT
        model = solver.model()
        assert model.count(True) == 1 and model[first]
        seen.add(first)
    assert seen == {0, 1, 2, 3}
    solver = sat.Solver(3)
    solver.add_one_of([0, 2, 4])
    solver.add_clause([0, 2])
    solver.add_clause([1])
    solver.add_clause([3])
    assert solver.solve(0) == sat.UNSAT  # variable 0 or 1 true, yet both false
    with pytest.raises(ValueError, match="literal 8"):
        sat.Solver(3).add_one_of([0, 8])
    with pytest.raises(ValueError, match="literal -1"):
        sat.Solver(3).prefer([-1])


def test_generation_settles_with_sat_every_clue_the_tree_gives_up_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One node a tree proof: beyond propagation every clue is the SAT check's.  The
    # puzzles are the ones a tree search without bound makes, and proved minimal.
    exact = [sudoku.generate((3, 3), seed=s, max_nodes=10**9) for s in range(4)]
    monkeypatch.setattr(gen, "TREE_NODES", 1)
    calls: list[int] = []
    real = gen.other_filling

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(gen, "other_filling", counted)
    for s, want in enumerate(exact):
        p = sudoku.generate((3, 3), seed=s)
        assert str(p) == str(want) and p.minimal
    assert len(calls) > 20


def test_sat_settled_puzzles_are_the_same_compiled_and_plain() -> None:
    code = (
        "from lazysearch import sudoku\n"
        "from lazysearch.puzzles import generate as gen\n"
        "gen.TREE_NODES = 1\n"
        "for box in ((2, 3), (3, 3)):\n"
        "    p = sudoku.generate(box, seed=5, symmetric=box == (3, 3))\n"
        "    print(p, p.minimal, p.rating)\n"
    )
    outputs = []
    for pure in ("0", "1"):
        env = {**os.environ, "LAZYSEARCH_PURE": pure, "LAZYSEARCH_QUIET": "1"}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("True Rating(") == 2


@pytest.mark.skipif(
    not compiled() or os.environ.get("LAZYSEARCH_SLOW", "") in ("", "0"),
    reason="a minimal 25x25 takes about a minute compiled (LAZYSEARCH_SLOW=1 runs it)",
)
def test_a_25x25_puzzle_is_proved_minimal() -> None:
    p = sudoku.generate((5, 5), seed=1)
    assert p.minimal
    cells = [v for row in p.grid() for v in row]
    units = gen.box_units(25, (5, 5))
    full = [v for row in p.solution for v in row]
    # Every clue needed: the SAT check finds the second filling without it (checked
    # here, cell by cell, as a grid); the puzzle's uniqueness is the generator's proof.
    for c, digit in enumerate(cells):
        if digit:
            found = other_filling(cells, c, digit, units, full)  # the clue left out
            assert found is not None and found[c] != digit
            for unit in units:
                assert sorted(found[x] for x in unit) == list(range(1, 26))
