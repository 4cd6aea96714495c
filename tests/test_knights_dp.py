"""Counting knight's tours by dynamic programming: equal to the walk on every small board,
every start, open and closed; the published counts; big counts; bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights, longrun
from lazysearch.engine import _native
from lazysearch.errors import CheckpointError
from lazysearch.knights import KnightsError
from lazysearch.knights.counting import TooManyStatesError, frontier_count, load_checkpoint

#: The program's tables grow with the short side; as plain Python (CI's second run)
#: boards stay small enough for the suite to stay fast.
AREA = 30 if compiled() else 16


def _boards(area: int) -> list[tuple[int, int]]:
    return [(m, n) for m in range(1, 7) for n in range(1, 13) if m * n <= area]


@pytest.mark.parametrize(("rows", "cols"), _boards(AREA))
def test_the_program_equals_the_walk_on_every_small_board(rows: int, cols: int) -> None:
    assert knights.count_closed(rows, cols, method="dp") == knights.count_closed(
        rows, cols, method="enumerate"
    )
    assert knights.count_tours(rows, cols, method="dp") == knights.count_tours(
        rows, cols, method="enumerate"
    )


@settings(max_examples=40 if compiled() else 15, deadline=None)
@given(st.data())
def test_the_program_equals_the_walk_from_every_start(data: st.DataObject) -> None:
    rows, cols = data.draw(st.sampled_from(_boards(AREA + 6)))
    start = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    closed = data.draw(st.booleans())
    dp = knights.count_tours(rows, cols, start=start, closed=closed, method="dp")
    walk = knights.count_tours(rows, cols, start=start, closed=closed, method="enumerate")
    assert dp == walk


@pytest.mark.parametrize(
    ("rows", "cols", "start", "expected"),
    [  # shared/ORACLES.md
        (3, 4, None, 16),
        (5, 5, None, 1728),
        (5, 5, (0, 0), 304),
        (5, 5, (2, 2), 64),
        (5, 5, (0, 1), 0),
        (3, 12, None, 114_496),
    ],
)
def test_open_counts_match_the_oracle(
    rows: int, cols: int, start: tuple[int, int] | None, expected: int
) -> None:
    if rows * cols > 16 and not compiled():
        pytest.skip("seconds as plain Python")
    assert knights.count_tours(rows, cols, start=start, method="dp") == expected
    # Turned through a quarter: the sweep then goes the other way round the board.
    turned = None if start is None else (start[1], start[0])
    assert knights.count_tours(cols, rows, start=turned, method="dp") == expected


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(3, 10, 16), (3, 12, 176), (5, 6, 8), (6, 6, 9862), (5, 8, 44_202)],  # ORACLES.md
)
def test_closed_counts_match_the_oracle(rows: int, cols: int, expected: int) -> None:
    if rows * cols > 30 and not compiled():
        pytest.skip("seconds as plain Python")
    assert knights.count_closed(rows, cols, method="dp") == expected
    assert knights.count_closed(cols, rows, method="dp") == expected


def _step_all(k: int, n: int, start: int, closed: bool, fold: bool) -> tuple[int, list[int]]:
    module = _native.load("lazysearch.knights._count")
    counter = module.FrontierCounter(k, n, start, closed, fold=fold)
    table = counter.initial()
    sizes = []
    for i in range(k * n):
        table = counter.step(i, table)
        sizes.append(len(table))
    return counter.finished, sizes


@pytest.mark.parametrize(
    ("k", "n", "start", "closed"),
    [
        (3, 10, -1, True),
        (3, 4, -1, False),
        (3, 4, 1, False),  # (1, 0): on the middle row, folded
        (3, 4, 0, False),  # (0, 0): off it, not folded
        (3, 7, 4, False),
        (3, 7, 6, False),
        (4, 5, -1, False),
        (5, 5, -1, False),
        (5, 5, 12, False),  # the centre
        (5, 6, -1, True),
    ],
)
def test_frontiers_folded_with_their_mirror_images_count_the_same(
    k: int, n: int, start: int, closed: bool
) -> None:
    # After each column the frontier and its rows turned over have as many completions:
    # the table keeps one of the two, with both counts, and the tours counted stay.
    if k * n > 16 and not compiled():
        pytest.skip("seconds as plain Python")
    plain, sizes = _step_all(k, n, start, closed, fold=False)
    folded, folded_sizes = _step_all(k, n, start, closed, fold=True)
    assert folded == plain > 0
    if start >= 0 and start % k != k // 2:
        assert folded_sizes == sizes  # a start off the middle row is not symmetric
    else:
        assert sum(folded_sizes) < 0.8 * sum(sizes)
        assert all(f <= s for f, s in zip(folded_sizes, sizes, strict=True))


def test_ways_that_leave_a_settled_square_short_are_not_followed() -> None:
    # A square whose last neighbour ahead is the one taken must get an edge from it
    # when it has none (or when it is an end and the tour's ends are all fixed): the
    # ways that leave it out are not listed (5x6 closed: 11,081 ways followed before,
    # 7,040 now; 3x10 closed: 503 and 338), the counts stay.
    module = _native.load("lazysearch.knights._count")
    for k, n, tours, most in ((5, 6, 8, 7100), (3, 10, 16, 340)):
        counter = module.FrontierCounter(k, n, -1, True, fold=True)
        table = counter.initial()
        for i in range(k * n):
            table = counter.step(i, table)
        assert counter.finished == tours
        assert counter.tried <= most


def test_counts_past_two_to_the_64_are_exact() -> None:
    """3x100: the compiled tables' 64-bit counts overflow on the way; the count goes on
    in Python integers and equals the all-Python program's (the engine's source)."""
    big = frontier_count(3, 100, closed=True)
    assert big.count > 2**64
    source = _native.load_source("lazysearch.knights._count")
    counter = source.FrontierCounter(3, 100, -1, True)
    table = counter.initial()
    for i in range(300):
        table = counter.step(i, table)
    assert counter.finished == big.count
    # Linear in the length on a narrow board: the number of frontiers stays put.
    assert max(big.states) == max(frontier_count(3, 50, closed=True).states)


def test_statistics() -> None:
    result = frontier_count(5, 6, closed=True)
    assert result.count == 8
    assert len(result.states) == 30 and result.peak_states == max(result.states) > 0
    assert result.states[-1] == 0  # the last square leaves only finished tours
    assert result.peak_bytes > 0 and result.seconds >= 0
    seen: list[float] = []
    frontier_count(3, 10, closed=True, progress=seen.append)
    assert seen == [(i + 1) / 30 for i in range(30)]


def test_squares_ahead_that_only_the_frontier_can_serve_prune_frontiers_early() -> None:
    # A square not yet taken with fewer untaken neighbours than it needs edges depends on
    # the frontier: frontiers that leave it short are dropped at once (3,654 frontiers at
    # the peak of 5x6 closed without, 753 with; 6x6 closed: 147,050 and 34,937).
    result = frontier_count(5, 6, closed=True)
    assert result.count == 8
    assert result.peak_states <= 1000


def test_two_word_tables_keep_keys_past_two_to_the_64() -> None:
    # Boards 8 wide have frontiers of 17 squares: keys of two 64-bit words.
    module = _native.load("lazysearch.knights._table")
    table = module.Table(100, size=4, limbs=1, kw=2)
    entries = {5: 1, 5 | 1 << 64: 2, 5 | 7 << 64: 3, 6 << 64: 2**64 - 1}
    assert module.STATUS[table.load(entries)] == "ok"
    assert module.STATUS[table.load({5 | 7 << 64: 4})] == "ok"
    assert table.items() == {**entries, 5 | 7 << 64: 7}
    assert module.STATUS[table.load({1 << 128: 1})] == "overflow"
    assert module.STATUS[module.Table(100, kw=1).load({1 << 64: 1})] == "overflow"


def test_the_two_word_tables_step_as_the_dicts_do_on_an_8_wide_board() -> None:
    module = _native.load("lazysearch.knights._count")
    counter = module.FrontierCounter(8, 8, -1, True)
    table = counter.initial()
    tables = _native.load("lazysearch.knights._table")
    src = tables.Table(10**6, kw=2)
    dst = tables.Table(10**6, kw=2)
    assert tables.STATUS[src.load(table)] == "ok"
    for i in range(14):
        table = counter.step(i, table)
        assert tables.STATUS[counter.step_fast(i, src, dst)] == "ok"
        src, dst = dst, src
        dst.clear()
        assert src.items() == table
    assert len(table) > 100 and max(table) >> 64  # keys past 64 bits were compared


_SHORT_OF_MEMORY = """
import resource
import sys

from lazysearch.knights.counting import TooManyStatesError, frontier_count

frontier_count(5, 6)  # the engine loaded before the limit
with open("/proc/self/statm") as statm:
    pages = int(statm.read().split()[0])
limit = pages * resource.getpagesize() + (96 << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
try:
    frontier_count(7, 9, max_states=10**9)
except TooManyStatesError as error:
    print(error)
    sys.exit(3)
"""


@pytest.mark.skipif(not compiled(), reason="the compiled tables only")
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="Linux only")
def test_a_table_the_machine_has_no_memory_for_is_a_clear_error() -> None:
    # A doubling the machine refuses (here: 96 MB of address space left) was ignored
    # and the count went on in a table filling up; now it stops with a clear error.
    run = subprocess.run(
        [sys.executable, "-c", _SHORT_OF_MEMORY], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 3, run.stderr[-2000:]
    assert "7x9: the machine had no memory for a table of more than" in run.stdout
    assert "MemoryError" not in run.stderr


def test_too_many_states_is_a_clear_error_before_memory_runs_out() -> None:
    with pytest.raises(TooManyStatesError, match=r"6x6 needs more than max_states=1,000"):
        frontier_count(6, 6, closed=True, max_states=1000)


def test_a_board_wider_than_the_frontiers_pack_is_a_clear_error() -> None:
    # 15 across: frontiers of 31 squares, past the two 64-bit words of a key (the
    # compiled program raised OverflowError from deep inside the first square).
    words = r"15x16 needs frontiers of 31 squares; the program takes boards up to 14"
    with pytest.raises(TooManyStatesError, match=words):
        knights.count_closed(15, 16, method="dp")
    with pytest.raises(TooManyStatesError, match="joining the halves of " + words):
        knights.count_closed(15, 16)  # auto: the join, from 7 across
    with pytest.raises(TooManyStatesError, match="sampling the tours of 16x15"):
        knights.sample(16, 15, closed=True)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: knights.count_closed(6, method="fast"), "method must be one of"),
        (lambda: knights.count_tours(6, method="dp", workers=2), "one process"),
        (lambda: knights.count_tours(3, 4, start=(5, 0), method="dp"), "off the 3x4 board"),
    ],
)
def test_bad_input(call: object, words: str) -> None:
    with pytest.raises(KnightsError, match=words):
        call()  # type: ignore[operator]


def test_auto_picks_the_program_on_narrow_boards() -> None:
    # 3x40 closed: the walk would take far longer than this test runs.
    assert knights.count_closed(3, 40) == frontier_count(3, 40, closed=True).count > 10**15


def test_auto_follows_the_measured_crossovers() -> None:
    from lazysearch.knights.solver import choose_method

    # docs/knights.md: the program from 4x8, 5x7 and 6x7 (open and closed) on.
    assert [choose_method(4, n, False) for n in (7, 8)] == ["enumerate", "dp"]
    assert [choose_method(n, 5, True) for n in (6, 7)] == ["enumerate", "dp"]
    assert [choose_method(6, n, True) for n in (6, 12)] == ["enumerate", "dp"]
    assert [choose_method(6, n, False, (0, 0)) for n in (5, 8)] == ["enumerate", "dp"]
    # From a given start on 5x7, 5x8, 6x6, 6x7 and 7x7: the program over a narrow order.
    assert [choose_method(5, n, False, (0, 0)) for n in (6, 7, 8, 9)] == [
        "enumerate",
        "order",
        "order",
        "dp",
    ]
    assert {choose_method(n, 6 + n % 2, False, (0, 0)) for n in (6, 7)} == {"order"}
    assert choose_method(7, 7, False, (3, 3)) == "order"
    # The open tours of every start from 5x7 and 6x8 on: joined from two halves; 6x6
    # and 6x7 over a narrow order.
    assert [choose_method(5, n, False) for n in (6, 7)] == ["enumerate", "join"]
    assert [choose_method(n, 6, False) for n in (5, 6, 7, 8)] == [
        "enumerate",
        "order",
        "order",
        "join",
    ]


def test_cli_counts_by_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    assert main(["knights", "3", "12", "--closed", "--count", "--method", "dp"]) == 0
    assert capsys.readouterr().out == "176\n"
    assert main(["knights", "3x12", "--count", "--method", "dp", "-q"]) == 0
    assert capsys.readouterr().out == "114496\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["knights", "6", "--method", "dp"], "give --count"),
        (["knights", "6", "--count", "--limit", "3", "--method", "dp"], "without --limit"),
        (
            ["knights", "6", "--closed", "--count", "--method", "dp", "--workers", "2"],
            "one process",
        ),
    ],
)
def test_cli_refuses_a_method_it_would_ignore(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


# OEIS A169769 (geometrically distinct closed tours of 3 x n, n = 4..41) and A169768 (those
# of them with twofold symmetry), from Knuth's "Long and skinny knight's tours": a board
# 3 x n has four symmetries, so its closed tours number 4 * A169769(n) - 2 * A169768(n).
A169769 = [0, 0, 0, 0, 0, 0, 6, 0, 44, 0, 396, 0, 3868, 0, 37070, 0, 362192, 0, 3516314, 0]
A169769 += [34237842, 0, 333077332, 0, 3241403380, 0, 31542464952, 0, 306944118820, 0]
A169769 += [2986962829456, 0, 29066627247828, 0, 282854730020224, 0, 2752516325518516, 0]
A169768 = [0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 24, 0, 24, 0, 276, 0, 176, 0, 2604, 0, 1876, 0]
A169768 += [25736, 0, 17384, 0, 248816, 0, 173064, 0, 2424608, 0, 1668712, 0, 23581056, 0]
A169768 += [16317480, 0]


def test_closed_tours_of_three_rank_boards_match_knuths_table() -> None:
    for n, (distinct, symmetric) in enumerate(zip(A169769, A169768, strict=True), start=4):
        assert knights.count_closed(3, n, method="dp") == 4 * distinct - 2 * symmetric, n


# -- checkpoints ------------------------------------------------------------------------


class _Halt(Exception):
    pass


def _stop_after(squares: int) -> Callable[[float], None]:
    """A progress callback that stops the count after ``squares`` squares."""
    seen = [0]

    def progress(fraction: float) -> None:
        seen[0] += 1
        if seen[0] == squares:
            raise _Halt

    return progress


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "start", "plain"),
    [
        (5, 8, True, None, False),
        (5, 6, True, None, True),
        (3, 100, True, None, True),  # counts pass 2**64 on the way: big ints in the file
        (4, 7, False, (0, 0), False),
        (7, 4, False, None, False),
        (3, 7, False, None, True),
    ],
)
def test_a_count_stopped_and_resumed_equals_one_run(
    rows: int,
    cols: int,
    closed: bool,
    start: tuple[int, int] | None,
    plain: bool,
    tmp_path: Path,
) -> None:
    if not (plain or compiled()):
        pytest.skip("seconds as plain Python")
    one = frontier_count(rows, cols, closed=closed, start=start)
    path = tmp_path / "count.json"
    total = rows * cols
    for squares in (1, 5, total // 2, total - 1, total):
        with pytest.raises(_Halt):
            frontier_count(
                rows,
                cols,
                closed=closed,
                start=start,
                checkpoint=path,
                progress=_stop_after(squares),
            )
        record = json.loads(path.read_text())
        assert record["square"] == squares and record["squares"] == total
        assert all(isinstance(x, str) for pair in record["table"] for x in pair)
        again = frontier_count(rows, cols, closed=closed, start=start, resume=path)
        assert (again.count, again.states) == (one.count, one.states), squares
    assert [p.name for p in tmp_path.iterdir()] == ["count.json"]  # no temporary file left


@settings(max_examples=30 if compiled() else 10, deadline=None)
@given(st.data())
def test_resumed_equals_fresh_anywhere(tmp_path_factory: Any, data: st.DataObject) -> None:
    rows, cols = data.draw(st.sampled_from(_boards(AREA)))
    closed = data.draw(st.booleans())
    start = data.draw(st.none() | st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)))
    squares = data.draw(st.integers(1, rows * cols))
    path = tmp_path_factory.mktemp("resume") / "count.json"
    fresh = frontier_count(rows, cols, closed=closed, start=start)
    if rows * cols == 1:  # nothing to sweep, nothing saved
        return
    with pytest.raises(_Halt):
        frontier_count(
            rows, cols, closed=closed, start=start, checkpoint=path, progress=_stop_after(squares)
        )
    resumed = frontier_count(rows, cols, closed=closed, start=start, resume=path)
    assert (resumed.count, resumed.states) == (fresh.count, fresh.states)


def test_a_checkpoint_is_written_every_few_seconds_and_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "count.json"
    seen: list[int] = []

    def progress(fraction: float) -> None:  # the file is written before progress is called
        seen.append(json.loads(path.read_text())["square"])

    result = frontier_count(
        3, 10, closed=True, checkpoint=path, checkpoint_every=0, progress=progress
    )
    assert seen == list(range(1, 31))
    saved = load_checkpoint(path, 3, 10, closed=True)
    assert (saved.square, saved.finished, saved.table) == (30, 16, {})
    assert frontier_count(3, 10, closed=True, resume=path).count == result.count == 16


def _checkpoint(tmp_path: Path, squares: int = 12) -> Path:
    path = tmp_path / "count.json"
    with pytest.raises(_Halt):
        frontier_count(3, 10, closed=True, checkpoint=path, progress=_stop_after(squares))
    return path


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda p: frontier_count(3, 12, closed=True, resume=p),
            "of 3x10 closed tours, not of 3x12",
        ),
        (lambda p: frontier_count(10, 3, closed=True, resume=p), "not of 10x3 closed tours"),
        (lambda p: frontier_count(3, 10, resume=p), "not of 3x10 open tours"),
        (lambda p: frontier_count(3, 10, start=(0, 0), resume=p), "not of 3x10 open tours from"),
    ],
)
def test_resume_refuses_a_checkpoint_of_another_count(
    call: Callable[[Path], object], words: str, tmp_path: Path
) -> None:
    path = _checkpoint(tmp_path)
    with pytest.raises(CheckpointError, match=words):
        call(path)
    # A closed count from a start is the same count: the start does not matter.
    assert frontier_count(3, 10, closed=True, start=(1, 1), resume=path).count == 16


def test_resume_refuses_a_torn_altered_or_foreign_file(tmp_path: Path) -> None:
    path = _checkpoint(tmp_path)
    text = path.read_text()
    record = json.loads(text)
    assert record["table"], "a table to alter"
    cases = {
        text[: len(text) // 2]: "torn or not JSON",
        "": "torn or not JSON",
        '{"format": "lazysearch-run", "version": 1}': "not a checkpoint of a knight's tour",
        json.dumps({**record, "version": 2}): "version 2 is not 1",
        json.dumps({**record, "square": 13}): "does not match its sha256",
        json.dumps(longrun.seal({**record, "square": 13})): "checkpoint is damaged",
        json.dumps(longrun.seal({**record, "finished": "-1"})): "checkpoint is damaged",
        json.dumps({**record, "table": [[k, str(int(c) + 1)] for k, c in record["table"]]}): (
            "does not match its sha256"
        ),
    }
    for bad, words in cases.items():
        path.write_text(bad)
        with pytest.raises(CheckpointError, match=words):
            frontier_count(3, 10, closed=True, resume=path)


def test_a_file_that_is_not_a_checkpoint_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(CheckpointError, match="is not a checkpoint of a knight's tour count"):
        frontier_count(3, 10, closed=True, checkpoint=path)
    assert path.read_text() == "my notes\n"


def test_cli_checkpoints_and_resumes_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    path = _checkpoint(tmp_path, squares=17)
    assert main(["knights", "3", "10", "--closed", "--count", "--resume", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "16\n" and "at most" in err
    argv = ["knights", "3x10", "--closed", "--count", "--directed", "-q"]
    assert main([*argv, "--checkpoint", str(path), "--resume", str(path)]) == 0
    assert capsys.readouterr().out == f"{16 * 60}\n"
    assert json.loads(path.read_text())["square"] == 30
    assert main(["knights", "3", "12", "--closed", "--count", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "is a checkpoint of 3x10 closed tours, not of 3x12" in err and err.count("\n") == 1
    # A count by walking keeps a checkpoint of its own kind, and leaves the program's be.
    walk = ["knights", "5", "--count", "--method", "enumerate", "--checkpoint", str(path)]
    assert main(walk) == 2
    assert "is not a checkpoint of a knight's tour count by walking" in capsys.readouterr().err
    assert json.loads(path.read_text())["format"] == "lazysearch-knights-count"
