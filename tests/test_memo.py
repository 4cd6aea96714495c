"""Counting by memoized subproblems: equal to enumeration, to brute force and to the
published counts; resumable in chunks; bounded; and the errors for bad input."""

from __future__ import annotations

from collections.abc import Hashable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import (
    Colour,
    ExactCover,
    LazysearchError,
    exact_cover,
    langford,
    polyomino,
    queens,
    sudoku,
)
from lazysearch.engine import _native
from lazysearch.errors import MemoLimitError
from lazysearch.exactcover import memo
from lazysearch.puzzles.polyomino import PENTOMINOES, TETROMINOES, piece, rectangle, tile

from .helpers import brute_force_covers, small_problems

DOMINO = piece("D", "DD")

Problem = tuple[list[list[Hashable]], list[str], list[str]]


@st.composite
def recurring_problems(draw: st.DrawFn) -> Problem:
    """Random exact covers with secondary items and colours, big enough to have
    subproblems that recur (up to 10 primary items, 30 options of 1-3 items)."""
    n_primary = draw(st.integers(1, 10))
    n_secondary = draw(st.integers(0, 4))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options: list[list[Hashable]] = []
    for _ in range(draw(st.integers(1, 30))):
        first = draw(st.sampled_from(primary))
        rest = draw(st.lists(st.sampled_from(primary + secondary), max_size=2, unique=True))
        option: list[Hashable] = [first]
        for item in rest:
            if item == first:
                continue
            if item in secondary and draw(st.booleans()):
                option.append(Colour(item, draw(st.sampled_from("RGB"))))
            else:
                option.append(item)
        options.append(option)
    return options, primary, secondary


def memo_count(engine_module: Any, cover: ExactCover, order: list[int] | None = None) -> int:
    """The memo count of ``cover`` on ``engine_module`` (compiled or plain), branching by
    MRV or on the first uncovered primary item in ``order``."""
    p = cover.problem
    items = p.option_items
    rule = engine_module.MRV
    if order is not None:
        rule = engine_module.FIRST
        number = {i: k + 1 for k, i in enumerate(order)}
        items = tuple(tuple(number.get(i, i) for i in o) for o in items)
    engine = engine_module.MemoEngine(p.primary, p.secondary, items, p.option_colors, rule)
    assert engine.run(0)
    total: int = engine.count()
    return total


PLAIN = _native.load_source("lazysearch.exactcover._memo")
IN_USE = _native.load("lazysearch.exactcover._memo")


@settings(max_examples=150, deadline=None)
@given(small_problems())
def test_memo_equals_brute_force(problem: Problem) -> None:
    options, primary, secondary = problem
    expected = len(brute_force_covers(options, primary, secondary))
    s = exact_cover(options, primary=primary, secondary=secondary)
    assert s.count(method="memo") == expected


@settings(max_examples=200, deadline=None)
@given(recurring_problems(), st.randoms(use_true_random=False))
def test_memo_equals_enumeration_with_colours(problem: Problem, rng: Any) -> None:
    options, primary, secondary = problem
    cover = ExactCover(options, primary=primary, secondary=secondary)
    expected = cover.solve().count(method="enumerate")
    assert cover.solve().count(method="memo") == expected
    order = list(range(1, cover.problem.primary + 1))
    rng.shuffle(order)
    # Both rules, on the engine in use and on the plain-Python source.
    for module in (IN_USE, PLAIN):
        assert memo_count(module, cover) == expected
        assert memo_count(module, cover, order) == expected


@settings(max_examples=60, deadline=None)
@given(recurring_problems(), st.integers(1, 7))
def test_a_count_in_chunks_equals_one_at_once(problem: Problem, chunk: int) -> None:
    options, primary, secondary = problem
    p = ExactCover(options, primary=primary, secondary=secondary).problem
    engine = IN_USE.MemoEngine(p.primary, p.secondary, p.option_items, p.option_colors)
    whole = IN_USE.MemoEngine(p.primary, p.secondary, p.option_items, p.option_colors)
    assert whole.run(0)
    rounds = 0
    while not engine.run(chunk):
        rounds += 1
        assert engine.nodes == rounds * chunk
    assert engine.count() == whole.count()
    assert engine.nodes == whole.nodes


# A000170
QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_by_memo(n: int) -> None:
    assert queens(n).count(method="memo") == QUEENS[n - 1]


@pytest.mark.parametrize(("n", "count"), [(3, 1), (4, 1), (5, 0), (7, 26), (8, 150)])
def test_langford_by_memo(n: int, count: int) -> None:
    assert langford(n).count(method="memo") == count
    assert langford(n, symmetry=False).count(method="memo") == 2 * count


def test_sudoku_4x4_grids_by_memo() -> None:
    assert sudoku.solve("." * 16).count(method="memo") == 288
    assert sudoku.solve("1..." + "." * 12).count(method="memo") == 288 // 4


def test_pentominoes_3x20_by_memo() -> None:
    assert tile(rectangle(3, 20), PENTOMINOES).count(method="memo") == 8


def dominoes(rows: int, cols: int) -> polyomino.Solutions[polyomino.Tiling]:
    return tile(rectangle(rows, cols), [DOMINO], copies={"D": None})


def test_domino_tilings_of_2xn_are_fibonacci() -> None:
    fib = [1, 2]
    while len(fib) < 30:
        fib.append(fib[-1] + fib[-2])
    assert [dominoes(2, n).count() for n in range(1, 31)] == fib
    assert dominoes(2, 12).count(method="enumerate") == fib[11]


@pytest.mark.parametrize(("n", "count"), [(4, 36), (6, 6728), (8, 12988816)])
def test_domino_tilings_of_squares(n: int, count: int) -> None:
    s = dominoes(n, n)
    assert s.count() == count
    assert s.search.done and s.count() == 0
    # auto chose memo: a few thousand nodes, not one per tiling.
    assert s.stats.nodes < 5000


def test_unlimited_dominoes_enumerate_to_valid_tilings() -> None:
    found = list(dominoes(4, 4))
    assert len(found) == 36 == len({t.pieces for t in found})
    for t in found:
        assert all(name == "D" and len(cells) == 2 for name, cells in t.pieces)
        assert sorted(c for _, cells in t.pieces for c in cells) == sorted(t.board.cells)
    # Past 64 cells the search is dancing links, decoded the same way.
    (only,) = list(dominoes(1, 66))
    assert len(only.pieces) == 33


def test_unlimited_and_fixed_pieces_together() -> None:
    pieces = {"O": TETROMINOES["O"], "I": TETROMINOES["I"], "L": TETROMINOES["L"]}
    copies: dict[str, int | None] = {"O": None, "I": 1, "L": None}
    for rows, cols in [(4, 4), (4, 5), (2, 8)]:
        board = rectangle(rows, cols)
        by_memo = tile(board, pieces, copies=copies).count(method="memo")
        tilings = list(tile(board, pieces, copies=copies))
        assert len(tilings) == by_memo > 0
        assert all(sum(name == "I" for name, _ in t.pieces) == 1 for t in tilings)


def test_auto_enumerates_where_subproblems_do_not_recur() -> None:
    s = queens(8)
    assert s.count() == 92
    enumerated = queens(8)
    assert enumerated.count(method="enumerate") == 92
    assert s.stats.nodes == enumerated.stats.nodes


def test_auto_finishes_a_small_count_in_its_probe() -> None:
    s = queens(5)
    assert s.count() == 10
    assert s.stats.nodes <= memo.PROBE_NODES


def test_a_started_stream_counts_what_is_left() -> None:
    s = dominoes(4, 4)
    s.first()
    assert s.count() == 35  # auto enumerates what is left
    t = dominoes(4, 4)
    t.first()
    with pytest.raises(LazysearchError, match="already read"):
        t.count(method="memo")
    shown = dominoes(4, 4)
    repr(shown)  # reads three tilings ahead
    assert shown.count() == 36


def test_memo_refuses_steps_and_workers() -> None:
    with pytest.raises(LazysearchError, match="no filter/map/slice"):
        queens(6).filter(lambda q: q[0] == 1).count(method="memo")
    with pytest.raises(LazysearchError, match="no workers"):
        queens(6).count(workers=2, method="memo")
    assert queens(6).filter(lambda q: q[0] == 1).count() == 1


def test_max_nodes_too_small_is_a_clear_error() -> None:
    with pytest.raises(MemoLimitError, match="max_nodes=100"):
        dominoes(8, 8).count(method="memo", max_nodes=100)
    with pytest.raises(MemoLimitError):
        dominoes(8, 8).count(max_nodes=100)  # auto chose memo for this tiling
    assert dominoes(8, 8).count(max_nodes=2000) == 12988816
    # auto's probe outgrowing the bound falls back to enumeration.
    assert queens(8).count(max_nodes=10) == 92


@pytest.mark.parametrize("bad", [0, -1, 2.5, "9", True])
def test_bad_max_nodes(bad: object) -> None:
    with pytest.raises(LazysearchError, match="max_nodes must be an int >= 1"):
        queens(6).count(max_nodes=bad)  # type: ignore[arg-type]


def test_max_nodes_with_enumeration_is_refused() -> None:
    with pytest.raises(LazysearchError, match="method='enumerate' keeps none"):
        queens(6).count(method="enumerate", max_nodes=10)


@pytest.mark.parametrize("bad", ["dp", "Memo", None, 1])
def test_unknown_method(bad: object) -> None:
    with pytest.raises(LazysearchError, match="method must be one of 'auto', 'enumerate', 'memo'"):
        queens(6).count(method=bad)  # type: ignore[arg-type]


def test_memo_needs_an_exact_cover() -> None:
    from lazysearch import knights

    s = knights.tours(5)
    with pytest.raises(LazysearchError, match=r"a knight's tour is a path.*method='enumerate'"):
        s.count(method="memo")


def test_memo_says_which_problem_it_cannot_count_and_why() -> None:
    from lazysearch import ExactCover

    bounded = ExactCover([("a", "b"), ("a",), ("b",)], bounds={"a": (1, 2)})
    with pytest.raises(LazysearchError, match=r"multiplicities.*method='enumerate'") as info:
        bounded.solve().count(method="memo")
    assert "a exact-cover" not in str(info.value)


def test_the_command_line_says_which_problem_memo_cannot_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    bounded = tmp_path / "bounded.dlx"
    bounded.write_text("1:2|a b\na\nb\na b\n")
    assert main(["dlx", str(bounded), "--count", "--method", "memo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "its items have multiplicities" in err
    assert "--method enumerate" in err and "a exact-cover" not in err
    killer = Path(__file__).parent.parent / "examples" / "killer-wikipedia.txt"
    assert main(["sudoku", str(killer), "--count", "--method", "memo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "places digits by sums" in err and "a kakuro search" not in err


@pytest.mark.parametrize("bad", [-1, 2.5, "3", True])
def test_bad_copies(bad: object) -> None:
    with pytest.raises(ValueError, match=f"copies of 'D' must be a whole number >= 0, got {bad!r}"):
        tile(rectangle(2, 2), [DOMINO], copies={"D": bad})  # type: ignore[dict-item]


def test_unlimited_copies_that_cannot_fill_the_board() -> None:
    with pytest.raises(ValueError, match=r"no number of pieces of sizes \[2\] covers the 9 left"):
        dominoes(3, 3)
    pieces = {"D": DOMINO, "I": TETROMINOES["I"]}
    with pytest.raises(ValueError, match="cover 12 cells of the board's 8"):
        tile(rectangle(2, 4), pieces, copies={"D": None, "I": 3})
    with pytest.raises(ValueError, match="distinct=True needs every piece used once"):
        tile(rectangle(2, 4), [DOMINO], copies={"D": None}, distinct=True)


@pytest.mark.parametrize(
    ("argv", "count"),
    [
        (["queens", "8"], "92"),
        (["langford", "8"], "150"),
        (["pentomino", "3x20"], "8"),
        (["dlx", "{dlx}"], "3"),
        (["sudoku", "{sudoku}"], "288"),
    ],
)
@pytest.mark.parametrize("method", ["memo", "enumerate", "auto"])
def test_cli_counts_by_each_method(
    argv: list[str], count: str, method: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    files = {"dlx": tmp_path / "p.dlx", "sudoku": tmp_path / "s.txt"}
    files["dlx"].write_text("a b c\na\nb c\nb\nc\na b c\n")
    files["sudoku"].write_text("." * 16 + "\n")
    argv = [a.format(**files) for a in argv]
    assert main([*argv, "--count", "--method", method]) == 0
    out, err = capsys.readouterr()
    assert out == count + "\n"
    nodes = int(err.split(" nodes")[0].split()[-1])
    if method == "memo":
        # The memo walk's nodes, not the enumeration's.
        assert main([*argv, "--count", "--method", "enumerate"]) == 0
        assert nodes != int(capsys.readouterr().err.split(" nodes")[0].split()[-1])


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["queens", "8", "--method", "memo"], "give --count"),
        (["queens", "8", "--count", "--limit", "3", "--method", "memo"], "without --limit"),
        (["queens", "8", "--count", "--method", "memo", "--workers", "2"], "one process"),
        (["queens", "8", "--count", "--method", "dp"], "invalid choice: 'dp'"),
        (["knights", "5", "--count", "--method", "memo"], "invalid choice: 'memo'"),
    ],
)
def test_cli_refuses_a_memo_count_it_cannot_do(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    with pytest.raises(SystemExit) if "invalid choice" in words else nullcontext():
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.strip().count("\n") == 0, err
