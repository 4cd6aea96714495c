"""Counting knight's tours by the frontier program over an order of the squares: equal to
the columns' program on every small board, every start, open and closed, and for any
order at all; the published counts; counts past 64 bits; bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights
from lazysearch.knights import KnightsError, ordering
from lazysearch.knights.counting import TooManyStatesError

#: As plain Python (CI's second run) the boards stay small enough for the suite.
AREA = 40 if compiled() else 20


def _boards(area: int) -> list[tuple[int, int]]:
    return [(m, n) for m in range(1, 9) for n in range(1, 13) if m * n <= area]


@pytest.mark.parametrize(("rows", "cols"), _boards(AREA - 6))
def test_the_order_equals_the_columns_program_on_every_small_board(rows: int, cols: int) -> None:
    for closed in (False, True):
        by_order = ordering.order_count(rows, cols, closed=closed).count
        if closed:
            assert by_order == knights.count_closed(rows, cols, method="dp")
        else:
            assert by_order == knights.count_tours(rows, cols, method="dp")


@settings(max_examples=40 if compiled() else 15, deadline=None)
@given(st.data())
def test_the_order_equals_the_walk_from_every_start(data: st.DataObject) -> None:
    rows, cols = data.draw(st.sampled_from(_boards(AREA - 6)))
    start = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    by_order = knights.count_tours(rows, cols, start=start, method="order")
    assert by_order == knights.count_tours(rows, cols, start=start, method="enumerate")


@settings(max_examples=40 if compiled() else 15, deadline=None)
@given(st.data())
def test_any_order_of_the_squares_gives_the_same_count(data: st.DataObject) -> None:
    # The program is exact whatever the order: only its frontiers change.
    rows, cols = data.draw(st.sampled_from(_boards(16)))
    order = data.draw(st.permutations(range(rows * cols)))
    closed = data.draw(st.booleans())
    start = None
    if not closed and data.draw(st.booleans()):
        start = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    try:
        found = ordering.order_count(rows, cols, closed=closed, start=start, order=order)
    except TooManyStatesError:
        assume(False)  # a frontier wider than a key packs
        raise
    expected = knights.count_tours(rows, cols, start=start, closed=closed, method="dp")
    if closed:
        expected = knights.count_closed(rows, cols, method="dp")
    assert found.count == expected
    assert found.order == list(order)
    if rows * cols > 1:  # (the one square is answered without the program)
        assert len(found.states) == rows * cols + (start is not None)


@pytest.mark.parametrize(
    ("rows", "cols", "start", "closed", "expected"),
    [  # shared/ORACLES.md
        (3, 4, None, False, 16),
        (5, 5, None, False, 1728),
        (5, 5, (0, 0), False, 304),
        (5, 5, (2, 2), False, 64),
        (3, 12, None, False, 114_496),
        (3, 10, None, True, 16),
        (5, 6, None, True, 8),
        (6, 6, None, True, 9862),
        (6, 6, None, False, 6_637_920),
        (5, 8, None, True, 44_202),
    ],
)
def test_counts_match_the_oracle(
    rows: int, cols: int, start: tuple[int, int] | None, closed: bool, expected: int
) -> None:
    if rows * cols > AREA:
        pytest.skip("seconds as plain Python")
    if closed:
        assert knights.count_closed(rows, cols, method="order") == expected
    else:
        assert knights.count_tours(rows, cols, start=start, method="order") == expected
        # Turned through a quarter: another board to the program, another order.
        turned = None if start is None else (start[1], start[0])
        assert knights.count_tours(cols, rows, start=turned, method="order") == expected


def test_6x6_open_holds_far_fewer_frontiers_than_the_columns_program() -> None:
    if not compiled():
        pytest.skip("seconds as plain Python")
    found = ordering.order_count(6, 6)
    assert found.count == 6_637_920
    # The columns' program holds 945,059 at its busiest square (docs/knights.md); the
    # stored order is 32,958 at its busiest step.
    assert found.widest <= 12
    assert found.peak_states == max(found.states) < 40_000
    assert len(found.states) == 36 and found.states[-1] == 0


def test_counts_past_64_bits_are_exact() -> None:
    # 3x50's cycles pass 2**64: the counts are counted again in more words.
    expected = knights.count_closed(3, 50, method="dp")
    assert expected > 2**64
    assert knights.count_closed(3, 50, method="order") == expected
    assert knights.count_tours(3, 30, method="order") == knights.count_tours(3, 30, method="dp")


def test_the_greedy_order_is_a_narrow_order_of_every_square() -> None:
    neighbours = ordering.knight_neighbours(6, 6)
    order = ordering.find_order(neighbours)
    assert sorted(order) == list(range(36))
    _, sizes = ordering.greedy_order(neighbours, order[0])
    # Placed squares with a neighbour still to come: 9 at the most, where the columns'
    # order holds 12 (two columns) between its steps.
    assert max(sizes) == 9
    # The stored order (improve_order's from this one) is a better one of every square.
    stored = ordering.board_order(6, 6)
    assert stored == list(ordering.ORDERS[6, 6]) != order
    assert sorted(stored) == list(range(36))
    if compiled():
        better = ordering.frontiers_summed(neighbours, stored)
        assert better is not None
        assert better < ordering.frontiers_summed(neighbours, order)  # type: ignore[operator]
    assert ordering.board_order(6, 5) == ordering.find_order(ordering.knight_neighbours(6, 5))


def test_improving_an_order_keeps_the_count_and_never_costs_more() -> None:
    neighbours = ordering.knight_neighbours(4, 5)
    start = list(range(20))  # row by row: wider than the greedy order
    tries = 60 if compiled() else 20  # (each try a count: 0.1 s as plain Python)
    better = ordering.improve_order(neighbours, start, tries=tries, seed=3)
    assert sorted(better) == start
    before = ordering.frontiers_summed(neighbours, start)
    after = ordering.frontiers_summed(neighbours, better)
    assert before is not None and after is not None and after < before
    assert ordering.improve_order(neighbours, start, tries=tries, seed=3) == better  # seeded
    assert ordering.order_count(4, 5, order=better).count == knights.count_tours(4, 5)
    # Too wide, or past the bound: no cost.
    assert ordering.frontiers_summed(neighbours, start, bound=3) is None
    assert ordering.frontiers_summed(ordering.knight_neighbours(8, 8), list(range(64))) is None


def test_the_one_square_board_and_boards_without_tours() -> None:
    assert ordering.order_count(1, 1).count == 1
    assert ordering.order_count(1, 1, closed=True).count == 0
    assert ordering.order_count(4, 4).count == 0
    assert ordering.order_count(2, 5).count == 0
    assert ordering.order_count(5, 5, start=(0, 1)).count == 0


def test_bad_orders_and_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match=r"order must list each of the 12 vertices once"):
        ordering.order_count(3, 4, order=[0, 1, 2])
    with pytest.raises(ValueError, match=r"order must list each of the 12 squares once"):
        ordering.order_count(3, 4, start=(0, 0), order=[0] * 12)
    with pytest.raises(ValueError, match=r"start \(5, 0\) is not a square of the 5x5 board"):
        ordering.order_count(5, 5, start=(5, 0))
    with pytest.raises(ValueError, match=r"not 0x5"):
        ordering.order_count(0, 5)
    with pytest.raises(ValueError, match="leave out start"):
        ordering.order_count(3, 4, closed=True, start=(0, 0))
    with pytest.raises(TooManyStatesError, match=r"max_states=10 frontiers at step \d+ of 25"):
        ordering.order_count(5, 5, max_states=10)
    # Row by row on 8 across: the frontier passes 15 squares.
    with pytest.raises(TooManyStatesError, match=r"8x8: the order's frontier reaches 1[6-9]"):
        ordering.order_count(8, 8, order=list(range(64)))
    with pytest.raises(KnightsError, match="counts in one process"):
        knights.count_tours(6, 6, method="order", workers=2)
    with pytest.raises(
        KnightsError, match="method must be one of auto, dp, enumerate, join, order"
    ):
        knights.count_tours(6, 6, method="orders")


def test_the_command_line_counts_by_the_order() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "lazysearch", "knights", "5", "--count", "--method", "order"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "1728"
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "lazysearch",
            "knights",
            "5",
            "--count",
            "--method",
            "order",
            "--progress",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0
    assert refused.stderr.count("\n") == 1 and "--method order" in refused.stderr
    assert "Traceback" not in refused.stderr


def _links(neighbours: list[list[int]]) -> tuple[list[int], list[int]]:
    starts, links = [0], []
    for near in neighbours:
        links += near
        starts.append(len(links))
    return starts, links


def test_the_width_search_lowers_its_sum_the_same_compiled_or_not() -> None:
    import importlib.util

    from lazysearch.graphs import _order

    neighbours = ordering.knight_neighbours(6, 7)
    starts, links = _links(neighbours)
    greedy = ordering.find_order(neighbours)
    before = _order.width_search(starts, links, greedy, 0, 1)
    moves = 20_000 if compiled() else 2_000
    found, cost = _order.width_search(starts, links, greedy, moves, 1)
    assert sorted(found) == list(range(42))
    assert before[0] == greedy
    # Its sum is the sum of the order it returns, and lower than the greedy order's.
    assert _order.width_search(starts, links, found, 0, 1) == (found, cost)
    assert cost < before[1]
    _, sizes = ordering.greedy_order(neighbours, greedy[0])
    assert before[1] == sum(3**s for s in sizes)
    assert _order.width_search(starts, links, greedy, moves, 1) == (found, cost)  # seeded
    # The engine's source run as plain Python draws the same moves.
    source = Path(_order.__file__).with_name("_order.py")
    spec = importlib.util.spec_from_file_location("plain_order", source)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert plain.width_search(starts, links, greedy, 2_000, 1) == _order.width_search(
        starts, links, greedy, 2_000, 1
    )


def test_6x7_is_counted_over_a_searched_order() -> None:
    # Closed tours, and boards whose greedy order is narrow enough, are not searched on.
    assert ordering.board_order(6, 7, closed=True) == ordering.find_order(
        ordering.knight_neighbours(6, 7)
    )
    assert ordering.board_order(5, 8) == ordering.find_order(ordering.knight_neighbours(5, 8))
    if not compiled():
        pytest.skip("seconds as plain Python (the search's draws: the test above)")
    order = ordering.board_order(6, 7)
    assert order == ordering.searched_order(ordering.knight_neighbours(6, 7))
    assert order != ordering.find_order(ordering.knight_neighbours(6, 7))
    found = ordering.order_count(6, 7)
    assert found.order == order
    assert found.count == 779_938_932 == knights.count_tours(6, 7, method="join", workers=1)
    # The greedy order's busiest step holds 736,440.
    assert found.peak_states < 400_000
