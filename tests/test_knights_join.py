"""Counting closed knight's tours by joining two halves of the board: equal to the
square-by-square program on every small board (odd lengths too, either way round), the
published counts, and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import _native, compiled, knights
from lazysearch.knights import KnightsError
from lazysearch.knights.counting import TooManyStatesError, frontier_count

#: As plain Python the transfer takes about 6 s on 6x6; compiled 0.2 s.
AREA = 42 if compiled() else 24


def _join() -> object:
    return _native.load("lazysearch.knights._join")


def _boards(area: int) -> list[tuple[int, int]]:
    return [(k, n) for k in range(3, 8) for n in range(max(k, 4), 15) if k * n <= area]


@settings(max_examples=25 if compiled() else 10, deadline=None)
@given(st.data())
def test_the_join_equals_the_program(data: st.DataObject) -> None:
    k, n = data.draw(st.sampled_from(_boards(AREA)))
    rows, cols = (k, n) if data.draw(st.booleans()) else (n, k)
    joined = _join().join_count(rows, cols)  # type: ignore[attr-defined]
    assert joined.count == frontier_count(rows, cols, closed=True).count
    assert (joined.rows, joined.cols) == (rows, cols)


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [  # shared/ORACLES.md, A175881 (6 x n), A175855 (5 x n)
        (3, 10, 16),
        (3, 12, 176),
        (5, 6, 8),
        (6, 5, 8),
        (6, 6, 9862),
        (5, 8, 44_202),
        (4, 9, 0),
    ],
)
def test_published_counts(rows: int, cols: int, expected: int) -> None:
    assert knights.count_closed(rows, cols, method="join") == expected


@pytest.mark.skipif(not compiled(), reason="compiled only: minutes as plain Python")
@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(6, 7, 1_067_638), (8, 6, 55_488_142), (5, 10, 13_311_268)],
)
def test_published_counts_of_longer_boards(rows: int, cols: int, expected: int) -> None:
    assert knights.count_closed(rows, cols, method="join") == expected


def test_counts_past_64_bits() -> None:
    """3x200: each half's counts pass 2**64 in the program's compiled tables, which then
    go on as Python dicts; the join multiplies big integers."""
    joined = _join().join_count(3, 200)  # type: ignore[attr-defined]
    expected = frontier_count(3, 200, closed=True).count
    assert joined.count == expected and len(str(expected)) == 96


def test_the_transfer_drops_what_the_right_half_cannot_complete() -> None:
    join = _join()
    k = n = 6
    c = n // 2
    tables = join.sweep_tables(k, n, [c], 1 << 40)  # type: ignore[attr-defined]
    left = join.boundary(tables[c], k, c)  # type: ignore[attr-defined]
    right = join.mirrored(left, k)  # type: ignore[attr-defined]
    counts = []
    sizes = []
    for restricted in (False, True):
        transfer = join.Transfer(k, c)  # type: ignore[attr-defined]
        if restricted:
            transfer.restrict(right)
        states = {key + bytes(2 * k): count for key, count in left.items()}
        for s in range(2 * k):
            states = transfer.step(s, states)
        seen = {key[2 * k :]: count for key, count in states.items()}
        counts.append(join.join_tables(seen, right))  # type: ignore[attr-defined]
        sizes.append(len(seen))
    assert counts == [9862, 9862]
    assert sizes[1] < sizes[0]


@pytest.mark.parametrize(("rows", "cols", "expected"), [(5, 8, 44_202)])
def test_a_left_table_cut_into_parts_gives_the_same_count(
    rows: int, cols: int, expected: int
) -> None:
    whole = _join().join_count(rows, cols)  # type: ignore[attr-defined]
    cut = [_join().join_count(rows, cols, parts=p) for p in (2, 3, 7)]  # type: ignore[attr-defined]
    assert [whole.count] + [part.count for part in cut] == [expected] * 4
    assert max(cut[-1].transfer) < max(whole.transfer)
    with pytest.raises(ValueError, match="parts >= 1, not 0"):
        _join().join_count(rows, cols, parts=0)  # type: ignore[attr-defined]


def test_join_counts_the_cycles_of_count_tours() -> None:
    assert knights.count_tours(6, 6, closed=True, method="join") == 9862 * 2 * 36


def test_bad_input_is_refused() -> None:
    with pytest.raises(KnightsError, match="every start"):  # open: _openjoin's
        knights.count_tours(6, 6, start=(0, 0), method="join")
    with pytest.raises(KnightsError, match="'join' counts in one process"):
        knights.count_closed(6, 6, method="join", workers=2)
    with pytest.raises(ValueError, match="2x6"):
        _join().join_count(2, 6)  # type: ignore[attr-defined]
    with pytest.raises(TooManyStatesError, match="max_states=100"):
        _join().join_count(6, 6, max_states=100)  # type: ignore[attr-defined]
    assert knights.count_closed(3, 3, method="join") == 0


def test_cli_counts_by_the_join(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    assert main(["knights", "5", "8", "--closed", "--count", "--method", "join", "-q"]) == 0
    assert capsys.readouterr().out == "44202\n"
    assert main(["knights", "6", "--closed", "--directed", "--count", "--method", "join"]) == 0
    assert capsys.readouterr().out.strip() == str(9862 * 2 * 36)
    # Open tours of every start: _openjoin's join (tests/test_knights_openjoin.py).
    assert main(["knights", "5", "8", "--count", "--method", "join", "-q"]) == 0
    assert capsys.readouterr().out == "36122108\n"
    assert main(["knights", "5", "8", "--count", "--method", "join", "--start", "0,0"]) != 0
    err = capsys.readouterr().err
    assert "every start" in err and "Traceback" not in err and err.count("\n") == 1
