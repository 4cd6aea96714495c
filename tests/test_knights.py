"""Knight's tours: counts against shared/ORACLES.md, every tour checked by the verifier and
against a plain brute force, the theorems against search, one tour on large boards."""

from __future__ import annotations

import itertools
import json
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import InvalidSolutionError, compiled, knights
from lazysearch.cli import main
from lazysearch.knights import KnightsError, NoTourError, Tour

GOLDEN = Path(__file__).parent / "golden"

#: Counts that take seconds compiled and minutes as plain Python run only compiled (CI
#: runs the suite both ways; the benchmarks check the larger counts again).
compiled_only = pytest.mark.skipif(not compiled(), reason="minutes as plain Python")


def knight_moves(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    steps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    return [(r + a, c + b) for a, b in steps if 0 <= r + a < rows and 0 <= c + b < cols]


def brute_force_tours(
    rows: int, cols: int, start: tuple[int, int], closed: bool = False
) -> set[tuple[tuple[int, int], ...]]:
    """Every tour from ``start`` by plain depth-first search, no pruning (small boards)."""
    n = rows * cols
    moves = {(r, c): knight_moves(rows, cols, r, c) for r in range(rows) for c in range(cols)}
    found = set()
    path = [start]
    visited = {start}
    untried = [iter(moves[start])]
    while untried:
        square = next(untried[-1], None)
        if square is None:
            untried.pop()
            visited.discard(path.pop())
        elif square not in visited:
            path.append(square)
            if len(path) == n:
                if not closed or start in moves[square]:
                    found.add(tuple(path))
                path.pop()
            else:
                visited.add(square)
                untried.append(iter(moves[square]))
    return found


# -- counts from shared/ORACLES.md --------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "start", "expected"),
    [
        (5, 5, None, 1728),
        (5, 5, (0, 0), 304),
        (5, 5, (2, 2), 64),
        (5, 5, (0, 1), 0),
        (3, 4, None, 16),
    ],
)
def test_open_tour_counts(
    rows: int, cols: int, start: tuple[int, int] | None, expected: int
) -> None:
    assert knights.tours(rows, cols, start=start).count() == expected
    assert knights.count_tours(rows, cols, start=start) == expected


@compiled_only
def test_6x6_from_a_corner() -> None:
    assert knights.count_tours(6, start=(0, 0)) == 524_486


@pytest.mark.parametrize(("rows", "cols", "expected"), [(6, 6, 9862), (3, 12, 176), (3, 4, 0)])
def test_closed_tour_counts(rows: int, cols: int, expected: int) -> None:
    assert knights.count_closed(rows, cols) == expected


@compiled_only
def test_3x12_open_directed() -> None:
    assert knights.count_tours(3, 12) == 114_496


def test_directed_closed_counts_agree_with_cycles() -> None:
    cycles = knights.count_closed(3, 10)
    assert cycles > 0
    assert knights.tours(3, 10, closed=True).count() == 2 * 30 * cycles
    assert knights.count_tours(3, 10, closed=True) == 2 * 30 * cycles
    assert knights.tours(3, 10, start=(1, 4), closed=True).count() == 2 * cycles
    assert knights.count_tours(3, 10, start=(1, 4), closed=True) == 2 * cycles


def test_symmetry_count_equals_the_plain_count() -> None:
    assert knights.count_tours(4, 5) == knights.tours(4, 5).count()


def test_parallel_count_equals_serial() -> None:
    assert knights.count_tours(5, workers=2) == 1728
    assert knights.count_closed(6, workers=2) == 9862


# -- every tour is a tour, and none is missed -----------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "start", "closed"),
    [
        (3, 4, (0, 0), False),
        (3, 4, (1, 1), False),
        (4, 5, (0, 0), False),
        (4, 5, (1, 2), False),
        (3, 7, (0, 0), False),
        (3, 8, (0, 0), False),
        (4, 6, (0, 0), False),
    ],
)
def test_tours_equal_brute_force(
    rows: int, cols: int, start: tuple[int, int], closed: bool
) -> None:
    found = knights.tours(rows, cols, start=start, closed=closed).take(10**6)
    for t in found:
        knights.verify(t, rows, cols, start=start, closed=closed)
    assert len(set(found)) == len(found)
    assert set(found) == brute_force_tours(rows, cols, start, closed)


@pytest.mark.parametrize(
    ("rows", "cols", "start"), [(3, 10, (0, 0)), (3, 10, (1, 3)), (5, 6, (0, 0))]
)
def test_closed_search_finds_exactly_the_open_tours_that_close(
    rows: int, cols: int, start: tuple[int, int]
) -> None:
    """Closed mode prunes with its own rules; it must lose no closable tour."""
    closed = knights.tours(rows, cols, start=start, closed=True).take(10**6)
    closable = knights.tours(rows, cols, start=start).filter(lambda t: t.closed).take(10**6)
    assert closed and set(closed) == set(closable) and len(closed) == len(closable)


def test_every_5x5_tour_is_verified() -> None:
    count = 0
    for t in knights.tours(5):
        knights.verify(t, 5, 5)
        count += 1
    assert count == 1728


def test_closed_tours_are_closed() -> None:
    for t in knights.tours(6, start=(2, 3), closed=True).take(300):
        knights.verify(t, 6, 6, start=(2, 3), closed=True)
        assert t.closed


def test_tours_are_in_warnsdorff_order() -> None:
    """The first tour takes, at each step, a move with the fewest onward moves."""
    t = knights.tours(8, start=(0, 0)).first()
    visited = {t[0]}
    for here, there in itertools.pairwise(t):
        options = [s for s in knight_moves(8, 8, *here) if s not in visited]

        def onward(s: tuple[int, int]) -> int:
            return sum(1 for x in knight_moves(8, 8, *s) if x not in visited and x != s)

        visited.add(there)
        assert onward(there) == min(onward(s) for s in options)


# -- no tour: the theorems agree with the search ---------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols"), [(1, 2), (1, 5), (2, 2), (2, 5), (2, 8), (3, 3), (3, 5), (3, 6), (4, 4)]
)
def test_boards_with_no_open_tour(rows: int, cols: int) -> None:
    assert knights.no_tour_reason(rows, cols) is not None
    assert knights.tours(rows, cols).count() == 0
    assert knights.tours(rows, cols, shortcuts=False).count() == 0


@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 3), (3, 4), (3, 5), (3, 6), (3, 8), (4, 5), (4, 6), (5, 5), (2, 6)]
)
def test_boards_with_no_closed_tour(rows: int, cols: int) -> None:
    assert knights.no_tour_reason(rows, cols, closed=True) is not None
    assert knights.count_closed(rows, cols) == 0
    assert knights.tours(rows, cols, closed=True, shortcuts=False).count() == 0


def test_odd_boards_start_on_the_corner_colour() -> None:
    minority = [(r, c) for r in range(5) for c in range(5) if (r + c) % 2]
    for square in minority:
        assert knights.no_tour_reason(5, 5, start=square) is not None
        assert knights.tours(5, 5, start=square, shortcuts=False).count() == 0


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 4), (3, 7), (4, 5), (5, 5), (4, 3)])
def test_boards_the_theorems_allow_have_open_tours(rows: int, cols: int) -> None:
    assert knights.no_tour_reason(rows, cols) is None
    assert knights.tours(rows, cols).exists()


def test_the_1x1_board() -> None:
    assert knights.tours(1).take(5) == [((0, 0),)]
    assert knights.count_closed(1) == 0


# -- one tour, fast -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("closed", [False, True])
def test_tour_from_every_square(n: int, closed: bool) -> None:
    for r in range(n):
        for c in range(n):
            if knights.no_tour_reason(n, start=(r, c), closed=closed):
                with pytest.raises(NoTourError):
                    knights.tour(n, start=(r, c), closed=closed)
                continue
            t = knights.tour(n, start=(r, c), closed=closed)
            knights.verify(t, n, n, start=(r, c), closed=closed)


@pytest.mark.parametrize(("rows", "cols"), [(120, 120), (99, 101), (60, 130), (7, 50)])
def test_tour_on_larger_boards(rows: int, cols: int) -> None:
    t = knights.tour(rows, cols, start=(rows // 2, 1 if rows % 2 else 2))
    knights.verify(t, rows, cols, start=(rows // 2, 1 if rows % 2 else 2))
    if rows * cols % 2 == 0:
        c = knights.tour(rows, cols, closed=True)
        knights.verify(c, rows, cols, closed=True)


@pytest.mark.parametrize(
    ("rows", "cols", "start"), [(5, 300, (2, 150)), (300, 6, (150, 2)), (7, 200, (3, 100))]
)
def test_tours_of_long_thin_boards(rows: int, cols: int, start: tuple[int, int]) -> None:
    """Warnsdorff's rule fails on these; the closed tour is joined from small blocks."""
    t = knights.tour(rows, cols, start=start, closed=True)
    knights.verify(t, rows, cols, start=start, closed=True)
    t = knights.tour(rows, cols, start=start)
    knights.verify(t, rows, cols, start=start)


def test_blocks_join_into_one_cycle() -> None:
    from lazysearch.knights.solver import _closed_by_blocks

    for rows, cols in [(5, 6), (5, 18), (6, 31), (12, 40), (40, 8)]:
        cycle = _closed_by_blocks(rows, cols)
        assert cycle is not None
        knights.verify(cycle, rows, cols, closed=True)
    assert _closed_by_blocks(3, 40) is None  # three rows: no single exchange joins two cycles


def test_tour_on_small_boards_without_closed_tours() -> None:
    t = knights.tour(3, 4, start=(0, 0))
    knights.verify(t, 3, 4, start=(0, 0))
    with pytest.raises(NoTourError, match="side of four an open tour starts on an outer"):
        knights.tour(3, 4, start=(1, 1))
    with pytest.raises(NoTourError, match=r"no open tour of 3x7 from \(1, 3\)"):
        knights.tour(3, 7, start=(1, 3))  # no theorem: the search proves it


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (4, 5), (6, 4), (4, 7)])
def test_a_side_of_four_has_open_tours_only_from_its_outer_lines(rows: int, cols: int) -> None:
    for square in itertools.product(range(rows), range(cols)):
        inner = (square[0] if rows == 4 else square[1]) in (1, 2)
        assert (knights.no_tour_reason(rows, cols, start=square) is not None) == inner
        if inner:
            assert not knights.tours(rows, cols, start=square, shortcuts=False).exists()


# -- one tour of a narrow board: the search over cross-sections ------------------------------


@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 4), (3, 7), (3, 8), (3, 10), (4, 5), (4, 6), (5, 5), (4, 7), (6, 3)]
)
@pytest.mark.parametrize("closed", [False, True])
def test_frontier_search_finds_a_tour_exactly_when_there_is_one(
    rows: int, cols: int, closed: bool
) -> None:
    from lazysearch.knights._frontier import frontier_path

    for square in itertools.product(range(rows), range(cols)):
        path = frontier_path(rows, cols, square, closed)
        exists = knights.tours(rows, cols, start=square, closed=closed, shortcuts=False).exists()
        assert (path is not None) == exists, square
        if path is not None:
            knights.verify(path, rows, cols, start=square, closed=closed)


@pytest.mark.parametrize(("rows", "cols"), [(3, 400), (4, 401), (401, 3), (400, 4)])
@pytest.mark.parametrize("closed", [False, True])
def test_tours_of_boards_three_or_four_across(rows: int, cols: int, closed: bool) -> None:
    """Warnsdorff's rule fails on most of these (from a corner too)."""
    squares = list(itertools.product(range(rows), range(cols)))
    for square in [*squares[:: len(squares) // 23], squares[-1]]:
        if knights.no_tour_reason(rows, cols, start=square, closed=closed):
            with pytest.raises(NoTourError):
                knights.tour(rows, cols, start=square, closed=closed)
            continue
        t = knights.tour(rows, cols, start=square, closed=closed)
        knights.verify(t, rows, cols, start=square, closed=closed)


@pytest.mark.parametrize(("rows", "cols"), [(5, 21), pytest.param(7, 41, marks=compiled_only)])
def test_open_tours_of_odd_boards_five_or_seven_across_from_every_square(
    rows: int, cols: int
) -> None:
    """Warnsdorff's rule runs out of budget from some middle squares of these; the
    search over cross-sections takes over."""
    for square in itertools.product(range(rows), range(cols)):
        if knights.no_tour_reason(rows, cols, start=square):
            continue
        t = knights.tour(rows, cols, start=square)
        knights.verify(t, rows, cols, start=square)


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: knights.tours(0), "got 0 x 0"),
        (lambda: knights.tours(5, -1), "got 5 x -1"),
        (lambda: knights.tours(True), "got True"),
        (lambda: knights.tours(5, start=(5, 0)), "(5, 0) is off the 5x5 board"),
        (lambda: knights.tours(5, start=(0,)), "got (0,)"),
        (lambda: knights.tour(8, start=(0, 8)), "(0, 8) is off the 8x8 board"),
        (lambda: knights.tour(5, closed=True), "Schwenk"),
        (lambda: knights.tour(2, 7), "2x7"),
    ],
)
def test_bad_input_is_a_clear_error(call: object, words: str) -> None:
    with pytest.raises(
        (KnightsError, NoTourError), match=words.replace("(", r"\(").replace(")", r"\)")
    ):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("tour", "words"),
    [
        ([(0, 0), (1, 2)], "has 2 squares"),
        (
            [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1), (0, 0)],
            "visited before",
        ),
        ([(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1), (1, 1)], "not a knight"),
        ([(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1), (3, 3)], "off the board"),
    ],
)
def test_verifier_catches_bad_tours(tour: list[tuple[int, int]], words: str) -> None:
    with pytest.raises(InvalidSolutionError, match=words):
        knights.verify(tour, 3, 3)


def test_verifier_checks_closing_and_start() -> None:
    t = knights.tours(5, start=(0, 0)).first()
    with pytest.raises(InvalidSolutionError, match="not a knight's move from its start"):
        knights.verify(t, 5, 5, closed=True)
    with pytest.raises(InvalidSolutionError, match="starts at"):
        knights.verify(t, 5, 5, start=(2, 2))


# -- the Search protocol --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(k=st.integers(0, 60))
def test_resumed_equals_fresh(k: int) -> None:
    stream = knights.tours(5, start=(0, 0))
    head = stream.take(k)
    rest = knights.tours(5, start=(0, 0)).resume(stream.checkpoint()).take(400)
    assert head + rest == knights.tours(5, start=(0, 0)).take(400)


def test_checkpoint_refuses_another_board() -> None:
    stream = knights.tours(5, start=(0, 0))
    stream.take(3)
    with pytest.raises(Exception, match="another problem"):
        knights.tours(5, start=(2, 2)).resume(stream.checkpoint())


def test_subtrees_partition_the_tours() -> None:
    stream = knights.tours(5)
    for depth in (1, 2, 4):
        parts = [stream.subtree(p).take(5000) for p in stream.subtrees(depth)]
        flat = [t for part in parts for t in part]
        assert len(flat) == 1728 and len(set(flat)) == 1728


def test_progress_is_monotone_and_estimate_is_sane() -> None:
    stream = knights.tours(5, start=(0, 0))
    last = 0.0
    for _ in stream:
        now = stream.progress()
        assert last <= now <= 1.0
        last = now
    assert stream.progress() == 1.0
    est = knights.tours(5, start=(0, 0)).estimate(samples=3000, seed=2)
    assert 100 < est.solutions < 900


def test_a_deep_search_needs_no_recursion() -> None:
    """90,000 levels deep, at Python's default recursion limit."""
    stream = knights.tours(300, start=(0, 0))
    t = stream.first()
    assert len(t) == 90_000
    assert len(stream.checkpoint()["position"]) == 90_000


def test_problem_and_tour_pickle() -> None:
    t = knights.tour(6)
    back = pickle.loads(pickle.dumps(t))
    assert back == t and back.rows == 6 and back.cols == 6 and back.closed
    problem = knights.KnightsProblem(5, 5, [0], False)
    assert pickle.loads(pickle.dumps(problem)).fingerprint() == problem.fingerprint()


# -- pictures and the command line ----------------------------------------------------------------


def test_text_picture_numbers_the_moves() -> None:
    t = knights.tours(5, start=(0, 0)).first()
    rows = [list(map(int, line.split())) for line in str(t).splitlines()]
    assert sorted(n for row in rows for n in row) == list(range(1, 26))
    assert all(rows[r][c] == i + 1 for i, (r, c) in enumerate(t))


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("knights-5x5-open.svg", lambda: knights.tours(5, start=(0, 0)).first()),
        ("knights-6x6-closed.svg", lambda: knights.tours(6, start=(0, 0), closed=True).first()),
    ],
)
def test_svg_golden(name: str, make: object) -> None:
    t: Tour = make()  # type: ignore[operator]
    svg = t.svg()
    path = GOLDEN / name
    if not path.exists():  # pragma: no cover - written once, then compared
        path.parent.mkdir(exist_ok=True)
        path.write_text(svg)
    assert svg == path.read_text()
    # The line is one piece per move on a small board, each in its own colour.
    assert svg.count('<path d="M') == 1 + len(t) - 1  # the dark squares, then the moves
    assert len(set(re.findall(r'stroke="(#[0-9a-f]{6})"><title>', svg))) == len(t) - 1
    assert ("stroke-dasharray" in svg) == t.closed


def test_svg_of_a_huge_board_stays_small() -> None:
    t = knights.tour(300)
    svg = t.svg()
    assert svg.count("<rect") == 4  # the board is a pattern, not 90,000 squares
    assert len(svg) < 14 * 90_000


def test_cli_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knights", "6", "--closed", "--count"]) == 0
    out, err = capsys.readouterr()
    assert out == "9862\n" and "closed tours (cycles, each counted once)" in err
    assert main(["knights", "5", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "1728\n"
    assert main(["knights", "5", "--start", "0,0", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "304\n"
    assert main(["knights", "3", "10", "--closed", "--directed", "--count", "-q"]) == 0
    assert int(capsys.readouterr().out) == 60 * knights.count_closed(3, 10)


def test_cli_lists_tours(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knights", "8", "--closed", "--limit", "3", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.count(":\n") == 3
    assert main(["knights", "5", "--start", "2,2", "--format", "json", "--limit", "2", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        knights.verify([tuple(s) for s in record["tour"]], 5, 5, start=(2, 2))


def test_cli_takes_the_board_as_rows_cols_or_as_rowsxcols(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["knights", "3", "40", "--one", "-q", "--format", "json"]) == 0
    apart = capsys.readouterr().out
    assert main(["knights", "3x40", "--one", "-q", "--format", "json"]) == 0
    assert capsys.readouterr().out == apart
    assert json.loads(apart)["cols"] == 40


def test_cli_one_tour_svg(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knights", "40", "--one", "--closed", "--format", "svg"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("<svg") and out.endswith("</svg>\n")
    assert err.startswith("1 closed tour of 40x40")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["knights", "5", "--start", "7,7"], "(7, 7) is off the 5x5 board"),
        (["knights", "5", "--start", "x"], "expected a square as ROW,COL"),
        (["knights", "5", "--format", "svg", "--every", "2"], "choose it with --nth N"),
        (["knights", "0"], "expected a number >= 1"),
        (["knights", "5", "--directed"], "give all three"),
        (["knights", "6", "--closed", "--count", "--directed", "--start", "6,0"], "(6, 0) is off"),
        (["knights", "3x20", "7", "--one"], "as ROWSxCOLS or as ROWS COLS, not both"),
        (["knights", "3x0"], "a board needs sides >= 1, got '3x0'"),
    ],
)
def test_cli_errors_are_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own errors
        status = exc.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_closed_tour_of_22x24_where_every_budgeted_try_runs_out() -> None:
    # All eight move orders of the budgeted search run out on 22x24; the tour is then
    # joined from blocks (it used to fall through to the complete search and not end).
    from lazysearch.knights import solver

    assert solver._budgeted_path(22, 24, 0, True) is None
    found = knights.tour(22, 24, closed=True)
    knights.verify(found, 22, 24, closed=True)
    assert len(found) == 22 * 24
