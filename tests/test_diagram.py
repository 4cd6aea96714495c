"""The diagram of an exact cover's subproblems: the same solutions as enumeration,
``nth`` without walking, exactly uniform samples, the text format, and bad input."""

from __future__ import annotations

import json
import operator
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import (
    ExactCover,
    LazysearchError,
    exact_cover,
    graphs,
    langford,
    queens,
    sudoku,
)
from lazysearch.cli import main
from lazysearch.errors import MemoLimitError, ParseError
from lazysearch.exactcover.diagram import Diagram
from lazysearch.knights import tours
from lazysearch.puzzles.polyomino import PENTOMINOES, piece, rectangle, tile
from lazysearch.puzzles.queens import verify as verify_queens

from .helpers import brute_force_covers, small_problems
from .test_memo import IN_USE, PLAIN, Problem, recurring_problems

# The chi-square quantiles at p = 0.001 (the 0.999 quantile) for 91 and 287 degrees of
# freedom, from scipy.stats.chi2.ppf(0.999, [91, 287]) = [138.43786378, 366.76760346]
# (computed once, offline; scipy is no dependency).  The Wilson-Hilferty approximation
# df * (1 - 2/(9 df) + 3.0902 * sqrt(2/(9 df)))**3 gives 138.5 and 366.8.
CHI2_999 = {91: 138.438, 287: 366.768}


def chi_square(counts: Counter[Any], cells: int, draws: int) -> float:
    expected = draws / cells
    seen = sum((c - expected) ** 2 / expected for c in counts.values())
    # Cells never drawn each add ``expected``.
    return seen + (cells - len(counts)) * expected


@settings(max_examples=150, deadline=None)
@given(recurring_problems())
def test_diagram_holds_exactly_the_enumerated_solutions(problem: Problem) -> None:
    options, primary, secondary = problem
    cover = ExactCover(options, primary=primary, secondary=secondary)
    enumerated = list(cover.solve())
    d = cover.solve().diagram()
    listed = list(d)
    assert sorted(listed) == sorted(enumerated)
    assert len(set(listed)) == len(listed) == d.count() == len(enumerated)
    assert d.size >= 2 and d.size == len(d.to_text().splitlines()) + 1
    assert [d.nth(i) for i in range(d.count())] == listed
    assert [d.nth(-1 - i) for i in range(d.count())] == listed[::-1]


@settings(max_examples=100, deadline=None)
@given(small_problems())
def test_diagram_equals_brute_force(problem: Problem) -> None:
    options, primary, secondary = problem
    expected = brute_force_covers(options, primary, secondary)
    d = exact_cover(options, primary=primary, secondary=secondary).diagram()
    assert set(d) == expected and d.count() == len(expected)


def record(module: Any, cover: ExactCover, chunk: int = 0) -> tuple[Any, ...]:
    p = cover.problem
    engine = module.MemoEngine(
        p.primary, p.secondary, p.option_items, p.option_colors, module.MRV, 0, True
    )
    while not engine.run(chunk):
        pass
    root, *arrays = engine.diagram()
    assert engine.count() == arrays[2][root]
    return (root, *map(list, arrays))


@settings(max_examples=80, deadline=None)
@given(recurring_problems(), st.integers(1, 7))
def test_compiled_plain_and_chunked_walks_record_the_same_diagram(
    problem: Problem, chunk: int
) -> None:
    options, primary, secondary = problem
    cover = ExactCover(options, primary=primary, secondary=secondary)
    whole = record(IN_USE, cover)
    assert record(PLAIN, cover) == whole
    assert record(IN_USE, cover, chunk) == whole


def test_recording_leaves_the_count_walk_alone() -> None:
    p = ExactCover(["a b", "a", "b", "c", "a b c"]).problem
    engine = IN_USE.MemoEngine(p.primary, p.secondary, p.option_items, p.option_colors)
    assert engine.run(0) and engine.count() == 3
    root, items, _, counts, options, _ = engine.diagram()
    assert (root, items, counts, options) == (0, [0, 0], [0, 1], [])


@pytest.mark.parametrize("n", range(1, 9))
def test_queens_diagram_decodes_to_placements(n: int) -> None:
    d = queens(n).diagram()
    found = list(d)
    assert sorted(found) == sorted(queens(n))
    for placement in found:
        verify_queens(n, placement)
    assert [d.nth(i) for i in range(d.count())] == found


def test_puzzles_diagrams_count_as_enumeration() -> None:
    assert langford(7).diagram().count() == 26
    assert sorted(langford(5, symmetry=False).diagram()) == sorted(langford(5, symmetry=False))
    pentominoes = tile(rectangle(3, 20), PENTOMINOES)
    d = pentominoes.diagram()
    assert d.count() == 8
    assert sorted(t.pieces for t in d) == sorted(t.pieces for t in pentominoes)
    domino = piece("D", "DD")
    assert tile(rectangle(8, 8), [domino], copies={"D": None}).diagram().count() == 12988816


def test_an_empty_problem_and_one_without_solutions() -> None:
    d = exact_cover([]).diagram()
    assert (d.count(), list(d), d.nth(0), d.size) == (1, [()], (), 2)
    none = exact_cover(["a"], primary=["a", "b"]).diagram()
    assert (none.count(), list(none), none.sample(3, seed=1), none.root) == (0, [], [], 0)
    with pytest.raises(IndexError, match="diagram index 0 is out of range"):
        none.nth(0)


def test_the_diagram_does_not_consume_the_stream() -> None:
    s = queens(6)
    first = s.first()
    assert s.diagram().count() == 4
    assert s.sample(2, seed=3) == queens(6).diagram().sample(2, seed=3)
    assert s.take(5) == list(queens(6))[1:]
    assert first == queens(6).first()


SUDOKU_4X4 = "." * 16


def test_sudoku_samples_are_uniform_over_the_288_grids() -> None:
    d = sudoku.solve(SUDOKU_4X4).diagram()
    assert d.count() == 288
    draws = 288 * 20
    picked = d.sample(draws, seed=20261123)
    for grid in set(picked):
        sudoku.verify(SUDOKU_4X4, grid)
    counts = Counter(picked)
    assert set(counts) <= set(d)
    assert chi_square(counts, 288, draws) < CHI2_999[287]


def test_queens_samples_are_uniform_over_the_92() -> None:
    s = queens(8)
    draws = 92 * 30
    picked = s.sample(draws, seed=8)
    for placement in set(picked):
        verify_queens(8, placement)
    counts = Counter(picked)
    assert chi_square(counts, 92, draws) < CHI2_999[91]


def test_a_chi_square_this_test_would_reject() -> None:
    # The statistic sees a bias: every draw from the first half of the 92.
    d = queens(8).diagram()
    biased = Counter(d.nth(i % 46) for i in range(92 * 30))
    assert chi_square(biased, 92, 92 * 30) > CHI2_999[91]


def test_same_seed_same_samples() -> None:
    d = sudoku.solve(SUDOKU_4X4).diagram()
    assert d.sample(50, seed=1) == d.sample(50, seed=1)
    assert d.sample(50, seed=1) != d.sample(50, seed=2)
    assert d.sample(5, seed=9, raw=True) == [d.nth(i, raw=True) for i in _indices(9, 5, 288)]
    assert sudoku.solve(SUDOKU_4X4).sample(7, seed=4) == d.sample(7, seed=4)


def _indices(seed: int, k: int, n: int) -> list[int]:
    import random

    rng = random.Random(seed)
    return [rng.randrange(n) for _ in range(k)]


def test_text_format_round_trips(tmp_path: Path) -> None:
    d = sudoku.solve(SUDOKU_4X4).diagram()
    text = d.to_text()
    lines = text.splitlines()
    assert re.fullmatch(
        rf"lazysearch-diagram 1 nodes={d.size} edges={d.edges} root={d.size - 1} count=288",
        lines[0],
    )
    for v, line in enumerate(lines[1:], start=2):
        assert re.fullmatch(rf"{v} \d+( \d+:\d+)+", line)
    path = tmp_path / "grids.txt"
    d.write(path)
    back = Diagram.read(path)
    assert back.to_text() == text
    assert list(back.raw()) == list(d.raw())
    assert back.count() == 288


def test_exported_items_are_the_problem_items() -> None:
    # A tiling branches on its cells in a sweep order; the file names the problem's.
    d = tile(rectangle(2, 3), [piece("D", "DD")], copies={"D": None}).diagram()
    p = tile(rectangle(2, 3), [piece("D", "DD")], copies={"D": None}).search.problem
    cover = p.memo_cover()
    assert cover is not None and cover.order is not None
    root_item = d.node(d.root)[0]
    assert root_item == cover.order[0]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "expected a header"),
        ("lazysearch-diagram 2 nodes=2 edges=0 root=1 count=1\n", "version '2'"),
        ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n", "needs 1 node lines"),
        ("lazysearch-diagram 1 nodes=1 edges=0 root=0 count=0\n", "at least its two terminals"),
        ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 1 0:2\n", "child 1..1"),
        ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=5\n2 1 0:1\n", "count=5"),
        ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n3 1 0:1\n", "expected '2"),
    ],
)
def test_malformed_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(ParseError, match=re.escape(why)):
        Diagram.from_text(text)


def test_max_nodes_bounds_the_table() -> None:
    with pytest.raises(MemoLimitError, match=r"diagram\(\) needs more than max_nodes=10 "):
        sudoku.solve(SUDOKU_4X4).diagram(max_nodes=10)
    with pytest.raises(MemoLimitError, match="max_nodes=10 "):
        sudoku.solve(SUDOKU_4X4).sample(max_nodes=10)
    for bad in (0, -1, 1.5, True, "9"):
        with pytest.raises(LazysearchError, match=re.escape(f"got {bad!r}")):
            queens(4).diagram(max_nodes=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("k", "seed", "named"),
    [
        (0, None, "got 0"),
        (-2, 1, "got -2"),
        (True, 1, "got True"),
        (1.0, 1, "got 1.0"),
        (1, "a", "got 'a'"),
        (1, 1.5, "got 1.5"),
        (1, False, "got False"),
    ],
)
def test_bad_sample_arguments(k: Any, seed: Any, named: str) -> None:
    with pytest.raises(LazysearchError, match=re.escape(named)):
        queens(6).sample(k, seed)
    with pytest.raises(LazysearchError, match=re.escape(named)):
        queens(6).diagram().sample(k, seed)


def test_bad_nth_and_node_arguments() -> None:
    d = queens(6).diagram()
    with pytest.raises(IndexError, match="index 4 is out of range"):
        d.nth(4)
    with pytest.raises(IndexError, match="index -5 is out of range"):
        d.nth(-5)
    with pytest.raises(LazysearchError, match="got '1'"):
        d.nth("1")  # type: ignore[arg-type]
    with pytest.raises(LazysearchError, match="got 99999"):
        d.node(99999)


def test_streams_without_an_exact_cover_or_with_steps_are_refused() -> None:
    with pytest.raises(LazysearchError, match="no filter/map/slice steps"):
        queens(6).filter(lambda q: q[0] == 1).diagram()
    with pytest.raises(LazysearchError, match="no filter/map/slice steps"):
        queens(6).map(str).sample()
    with pytest.raises(LazysearchError, match=r"diagram\(\) and sample\(\) draw from the whole"):
        graphs.hamiltonian_cycles(graphs.grid(4, 4)).filter(lambda c: c[1] == (0, 1)).sample(2)
    with pytest.raises(LazysearchError, match="this knights-tour search exposes none"):
        tours(5, 5, start=(0, 0)).diagram()
    with pytest.raises(LazysearchError, match="this exact-cover search exposes none"):
        queens(32).diagram()
    s = queens(6)
    with pytest.raises(LazysearchError, match="subtree"):
        s.subtree(s.subtrees(1)[0]).diagram()


# -- the command line ------------------------------------------------------------------------


def test_cli_sample_prints_the_drawn_solutions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--sample", "5", "--seed", "3", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["solution"] for line in lines] == [1, 2, 3, 4, 5]
    drawn = [tuple(line["columns"]) for line in lines]
    assert drawn == queens(8).sample(5, seed=3)
    for placement in drawn:
        verify_queens(8, placement)
    assert err.startswith("5 drawn of 92 solutions, diagram of ")
    assert main(["queens", "8", "--sample", "5", "--seed", "3", "--format", "json", "-q"]) == 0
    assert capsys.readouterr() == (out, "")


def test_cli_sample_on_every_exact_cover_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = tmp_path / "s.txt"
    puzzles.write_text(f"{'.' * 16}\n1...............\n")
    assert main(["sudoku", str(puzzles), "--sample", "3", "--seed", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.count("puzzle 1, solution") == 3 == out.count("puzzle 2, solution")
    assert main(["sudoku", str(puzzles), "--sample", "2", "--format", "json", "-q"]) == 0
    for line in capsys.readouterr().out.splitlines():
        found = json.loads(line)
        given = "." * 16 if found["puzzle"] == 1 else "1" + "." * 15
        sudoku.verify(given, tuple(map(tuple, found["grid"])))
    problem = tmp_path / "p.dlx"
    problem.write_text("| three items, two covers\na b c\na b\nc\na\nb\n")
    assert main(["dlx", str(problem), "--sample", "4", "--seed", "2", "-q"]) == 0
    shown = capsys.readouterr().out
    assert shown.count(":\n") == 4 and " c\n" in shown
    assert main(["langford", "7", "--sample", "2", "--seed", "5", "-q"]) == 0
    sequences = capsys.readouterr().out.splitlines()
    assert sequences == [" ".join(map(str, s)) for s in langford(7).sample(2, seed=5)]
    assert main(["pentomino", "3x20", "--sample", "1", "--seed", "4", "--format", "svg"]) == 0
    out, err = capsys.readouterr()
    assert out == tile(rectangle(3, 20), PENTOMINOES).sample(1, seed=4)[0].svg()
    assert "1 drawn of 8 solutions" in err


def test_cli_sample_with_no_solution_exits_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "3", "--sample", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "there is no solution to draw" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["queens", "8", "--sample", "2", flag, *value], "--sample K draws K solutions")
        for flag, *value in [
            ("--count",),
            ("--limit", "2"),
            ("--nth", "2"),
            ("--every", "2"),
            ("--estimate",),
            ("--workers", "2"),
            ("--progress",),
            ("--checkpoint", "r.json"),
            ("--resume", "r.json"),
            ("--scheduler", "tcp://x:1"),
        ]
    ]
    + [
        (["pentomino", "3x20", "--sample", "2", "--format", "svg"], "use --sample 1"),
        (["queens", "8", "--sample", "2", "--samples", "9"], "--samples and --seed are for"),
        (["queens", "8", "--sample", "0"], "expected a number >= 1, got 0"),
        (["queens", "40", "--sample", "1"], "exposes none"),
        (["queens", "8", "--sample", "x"], "expected a whole number, got 'x'"),
    ],
    ids=lambda v: " ".join(v[1:]) if isinstance(v, list) else None,
)
def test_cli_sample_refusals(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path / a) if a == "r.json" else a for a in argv]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        status = int(exc.code or 0)
    assert status == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.json").exists()


def test_nth_and_samples_past_a_machine_word() -> None:
    board = rectangle(12, 16)
    d = tile(board, [piece("D", "DD")], copies={"D": None}).diagram()
    n = d.count()
    assert n == 35457442115448212075033 > 2**64
    picked = [d.nth(0), d.nth(n // 3), d.nth(-1), *d.sample(3, seed=12)]
    assert picked[2] == d.nth(n - 1) != picked[0]
    for tiling in picked:
        cells = sorted(c for _, placed in tiling.pieces for c in placed)
        assert cells == sorted(board.cells)
    assert next(iter(d)) == picked[0]
    # No __len__: len() of 3.5e22 would raise OverflowError from any length hint.
    assert operator.length_hint(d) == 0
