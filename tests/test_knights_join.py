"""Counting closed knight's tours by joining two halves of the board: equal to the
square-by-square program on every small board (odd lengths too, either way round), the
published counts, and bad input."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights
from lazysearch.engine import _native
from lazysearch.knights import KnightsError
from lazysearch.knights import join as driver
from lazysearch.knights.counting import TooManyStatesError, frontier_count
from lazysearch.parallel import WorkerLostWarning

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
    joined = driver.join_count(rows, cols)
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
    joined = driver.join_count(3, 200)
    expected = frontier_count(3, 200, closed=True).count
    assert joined.count == expected and len(str(expected)) == 96
    assert not joined.packed  # the program's counts passed 64 bits: Python dicts


def test_the_transfer_drops_what_the_right_half_cannot_complete() -> None:
    join = _join()
    k = n = 6
    c = n // 2
    tables = driver.sweep_tables(k, n, [c], 1 << 40)
    left = driver.boundary(tables[c], k, c)
    right = driver.mirrored(left, k)
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
        counts.append(driver.join_tables(seen, right))
        sizes.append(len(seen))
    assert counts == [9862, 9862]
    assert sizes[1] < sizes[0]


@settings(max_examples=15 if compiled() else 4, deadline=None)
@given(st.data())
def test_the_packed_transfer_equals_the_dicts_state_for_state(data: st.DataObject) -> None:
    """The compiled tables' transfer holds, square by square and all its parts together,
    exactly the states of the one-table transfer in Python dicts (the parts, split by
    the crossing degrees of the first squares, never share a state), and counts the
    same, however deep it splits."""
    k, n = data.draw(st.sampled_from(_boards(AREA if compiled() else 20)))
    split = data.draw(st.integers(0, 2 * k))
    packed = driver.join_count(k, n, split=split, fold=False)
    plain = driver.join_count(k, n, packed=False)
    folded = driver.join_count(k, n, split=split)
    assert packed.packed and folded.packed and not plain.packed
    assert packed.count == plain.count == folded.count
    assert packed.transfer == plain.transfer
    assert (packed.left, packed.right) == (plain.left, plain.right)
    assert folded.left <= packed.left and sum(folded.transfer) <= sum(packed.transfer)
    if split == 0:
        assert packed.peak == max([packed.left, *packed.transfer])


@pytest.mark.parametrize(("rows", "cols", "expected"), [(5, 8, 44_202), (6, 6, 9862)])
def test_parts_in_two_processes_count_the_same(rows: int, cols: int, expected: int) -> None:
    one = driver.join_count(rows, cols)
    two = driver.join_count(rows, cols, workers=2)
    assert one.count == two.count == expected
    assert one.transfer == two.transfer and one.pairs == two.pairs
    whole = driver.join_count(rows, cols, split=0)
    assert whole.transfer == one.transfer and one.peak < whole.peak


#: The process the tests run in (a forked helper is any other).
_CALLER = os.getpid()


def _dies_on_its_first_part(prefix: tuple[int, ...]) -> tuple[object, ...]:
    """:func:`~lazysearch.knights.join.join_part`, except that a helper handed the first
    part kills itself with SIGKILL (as ``kill -9`` from outside would)."""
    if os.getpid() != _CALLER and prefix == _FIRST_PART[0]:
        os.kill(os.getpid(), signal.SIGKILL)
    return _JOIN_PART(prefix)


_JOIN_PART = driver.join_part
_FIRST_PART: list[tuple[int, ...]] = []


@pytest.mark.parametrize("on_part", [False, True])
def test_a_helper_killed_loses_no_part(on_part: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # A helper of the parts' pool killed in the middle of a part breaks the pool: the
    # parts not sent back are counted again here, with one warning, and the count is
    # exact. (The helper kills itself on the part it is handed: no waiting on a time.)
    seen: list[tuple[int, ...]] = []
    expected = driver.join_count(6, 6, on_part=lambda p, _: seen.append(p))
    _FIRST_PART[:] = [seen[0]]
    monkeypatch.setattr(driver, "join_part", _dies_on_its_first_part)
    heard: list[tuple[int, ...]] = []
    with pytest.warns(WorkerLostWarning) as caught:
        two = driver.join_count(
            6, 6, workers=2, on_part=(lambda p, _: heard.append(p)) if on_part else None
        )
    assert two.count == expected.count == 9862
    assert two.transfer == expected.transfer and two.pairs == expected.pairs
    if on_part:
        assert heard == seen
    lost = [str(w.message) for w in caught if issubclass(w.category, WorkerLostWarning)]
    assert len(lost) == 1 and lost[0].startswith("a helper process died (killed from outside?)"), (
        lost
    )


@pytest.mark.skipif(not compiled(), reason="compiled only: minutes as plain Python")
def test_folding_the_left_half_transfers_fewer_states() -> None:
    """6x8: the left frontiers and their images with the rows turned over have as many
    completions, so one of each is transferred, with both counts (the states they lead
    to meet more often once the left squares are settled: 1.35 times fewer in all)."""
    folded = driver.join_count(6, 8)
    whole = driver.join_count(6, 8, fold=False)
    assert folded.count == whole.count == 55_488_142
    assert (folded.left, whole.left) == (12_260, 24_291)
    assert (sum(folded.transfer), sum(whole.transfer)) == (1_947_456, 2_629_603)


def test_packed_tables_grow_refuse_and_overflow() -> None:
    join = _join()
    table = join.Packed(3, 1000)  # type: ignore[attr-defined]
    keys = [(i * 0x9E3779B97F4A7C15) % (1 << 190) for i in range(1, 700)]
    status = join.STATUS  # type: ignore[attr-defined]
    for key in keys:
        assert status[table.add_key(key, 5)] == "ok"
    assert status[table.add_key(keys[3], 2)] == "ok"
    items = table.items()
    assert len(items) == table.used == 699 and table.size >= 1024
    assert items[keys[3]] == 7 and items[keys[0]] == 5
    small = join.Packed(1, 2)  # type: ignore[attr-defined]
    assert status[small.add_key(1, 1)] == status[small.add_key(2, 1)] == "ok"
    assert status[small.add_key(3, 1)] == "full"
    assert status[small.add_key(1, (1 << 64) - 1)] == "overflow"


def test_a_table_filled_in_another_tables_order_does_not_cluster() -> None:
    """The transfer fills each table in the slot order of the one before, often with
    the same keys (a right square without crossing edges changes nothing): with one
    hash for all tables a growing table piled them into one run (8x8's first square,
    4 million states, did not finish in 40 minutes; 7x8's parts took 45 s of CPU
    against 21 s now)."""
    join = _join()
    status = join.STATUS  # type: ignore[attr-defined]
    source = join.Packed(3, 1 << 20)  # type: ignore[attr-defined]
    for i in range(1, 20_001):
        assert status[source.add_key((i * 0x9E3779B97F4A7C15) % (1 << 170), i)] == "ok"
    copy = join.Packed(3, 1 << 20)  # type: ignore[attr-defined]
    assert status[copy.add_table(source)] == "ok"
    assert copy.items() == source.items()
    assert copy.probes < 3 * 20_000


def test_the_join_multiplies_past_64_bits() -> None:
    """A count of 2**64 - 1 times one of 2**64 - 1: the 128-bit sum is exact."""
    join = _join()
    k2 = 2
    right = join.Packed(1, 10)  # type: ignore[attr-defined]
    # The right half: two ends of one fragment on its two squares.
    right.add_key(2 | 2 << 5, (1 << 64) - 1)
    joiner = join.Joiner(right, k2)  # type: ignore[attr-defined]
    table = join.Packed(1, 10)  # type: ignore[attr-defined]
    # Left boundary FULL, FULL; right squares the ends of one fragment from the left.
    table.add_key(1 | 1 << 5 | 2 << 10 | 2 << 15, (1 << 64) - 1)
    assert joiner.join(table) == ((1 << 64) - 1) ** 2


def test_join_counts_the_cycles_of_count_tours() -> None:
    assert knights.count_tours(6, 6, closed=True, method="join") == 9862 * 2 * 36
    assert knights.count_closed(6, 5, method="join", workers=2) == 8


def test_auto_joins_closed_tours_from_seven_across() -> None:
    from lazysearch.knights.solver import choose_method

    assert choose_method(7, 8, closed=True) == choose_method(8, 8, closed=True) == "join"
    assert choose_method(8, 8, closed=False) == "dp"
    assert [choose_method(6, n, closed=True) for n in (6, 7, 8, 11, 12)] == [
        "enumerate",
        "order",  # the program over a narrow order: 0.067 s against the join's 0.110 s
        "join",
        "join",
        "dp",
    ]


def test_bad_input_is_refused() -> None:
    with pytest.raises(KnightsError, match="every start"):  # open: _openjoin's
        knights.count_tours(6, 6, start=(0, 0), method="join")
    with pytest.raises(KnightsError, match="'join' shares its parts among forked processes"):
        knights.count_closed(6, 6, method="join", executor=ThreadPoolExecutor(1))
    with pytest.raises(ValueError, match="2x6"):
        driver.join_count(2, 6)
    with pytest.raises(TooManyStatesError, match="max_states=100"):
        driver.join_count(6, 6, max_states=100)
    with pytest.raises(TooManyStatesError, match="max_states=2,000 states at crossing"):
        driver.join_count(6, 6, max_states=2000, split=0)
    with pytest.raises(TooManyStatesError, match="max_states=2,000 states at crossing"):
        driver.join_count(6, 6, max_states=2000, split=0, workers=2)
    with pytest.raises(ValueError, match="workers >= 1, not 0"):
        driver.join_count(6, 6, workers=0)
    with pytest.raises(ValueError, match="split >= 0, not -1"):
        driver.join_count(6, 6, split=-1)
    assert knights.count_closed(3, 3, method="join") == 0


def test_cli_counts_by_the_join(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    # Small boards: the join's counts are checked on larger ones elsewhere, and as plain
    # Python 5x8 and 6x6 took 28 s here.
    assert main(["knights", "3", "10", "--closed", "--count", "--method", "join", "-q"]) == 0
    assert capsys.readouterr().out == "16\n"
    assert main(["knights", "6", "5", "--closed", "--directed", "--count", "--method", "join"]) == 0
    assert capsys.readouterr().out.strip() == str(8 * 2 * 30)
    # Open tours of every start: _openjoin's join (tests/test_knights_openjoin.py).
    assert main(["knights", "5", "--count", "--method", "join", "-q"]) == 0
    assert capsys.readouterr().out == "1728\n"
    assert main(["knights", "5", "--count", "--method", "join", "--start", "0,0"]) != 0
    err = capsys.readouterr().err
    assert "every start" in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_counts_8x8_closed_by_the_join_in_every_core(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lazysearch knights 8 --closed --count` goes to the join, in as many processes as
    the machine has cores (the join itself is the benchmark's: 27 minutes, one run)."""
    import os

    from lazysearch.cli import main

    calls = []

    class Found:
        count = 13_267_364_410_532

    def fake(rows: int, cols: int, *, workers: int) -> Found:
        calls.append((rows, cols, workers))
        return Found()

    monkeypatch.setattr(driver, "join_count", fake)
    assert main(["knights", "8", "--closed", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "13267364410532\n"
    assert calls == [(8, 8, os.cpu_count() or 1)]
    assert main(["knights", "8", "--closed", "--count", "-q", "--workers", "3"]) == 0
    assert calls[-1] == (8, 8, 3)
