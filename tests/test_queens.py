"""N-queens (lazysearch.puzzles.queens): counts, the numbered build, the race of seeded
orders for large boards, and positions that replay in a fresh process."""

from __future__ import annotations

import itertools
import json
import pickle
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import LazysearchError, Solutions, queens
from lazysearch.puzzles.queens import (
    RACE_FROM,
    SEEDS,
    QueensOrder,
    queens_problem,
    queens_search_problem,
    verify,
)
from lazysearch.race import Race
from lazysearch.search import Search

#: A000170 (shared/ORACLES.md), n = 1..10.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]


def _placements(problem: object, n: int) -> Solutions[tuple[int, ...]]:
    return Solutions(Search(problem), lambda solution: tuple(j % n for j in solution))  # type: ignore[arg-type]


def _race(n: int, slice: int = 4096) -> Race:
    """The race queens() runs from RACE_FROM queens on, for any n."""
    return Race(tuple(QueensOrder(n, seed) for seed in (*SEEDS, 0)), slice)


def _attacking(placement: tuple[int, ...]) -> bool:
    """Whether two queens of a placement attack each other: checked pair by pair, apart
    from verify()."""
    return any(
        a == b or abs(a - b) == j - i
        for (i, a), (j, b) in itertools.combinations(enumerate(placement), 2)
    )


def _brute_force(n: int) -> set[tuple[int, ...]]:
    return {p for p in itertools.permutations(range(n)) if not _attacking(p)}


def test_counts_are_a000170() -> None:
    for n, expected in enumerate(A000170, start=1):
        assert queens(n).count() == expected
        assert _placements(_race(n), n).count() == expected


@pytest.mark.parametrize("seed", [0, *SEEDS, 99])
def test_every_order_finds_the_placements_of_list_order(seed: int) -> None:
    for n in range(1, 8):
        found = list(_placements(QueensOrder(n, seed), n))
        assert len(found) == len(set(found))
        assert set(found) == _brute_force(n)


def test_a_race_at_one_node_a_turn_keeps_the_count() -> None:
    # Every runner gets turns (and dead ends) before one wins: the count is the same.
    race = _race(8, 1)
    assert _placements(race, 8).count() == 92 and race.winner is not None


def test_seed_zero_is_list_order_and_small_boards_keep_its_problem() -> None:
    for n in (1, 2, 5, 8, 12, RACE_FROM - 1):
        labelled = queens_problem(n).problem
        numbered = queens_search_problem(n)
        assert numbered == labelled  # the same options and items, in the same order
        assert numbered.fingerprint() == labelled.fingerprint()  # old checkpoints resume
        assert list(_placements(QueensOrder(n, 0), n).take(50)) == queens(n).take(50)
    assert isinstance(queens_search_problem(RACE_FROM), Race)


def test_an_order_differs_from_list_order_but_not_by_chance() -> None:
    assert QueensOrder(40, 1).columns != list(range(40))
    assert QueensOrder(40, 1).fingerprint() == QueensOrder(40, 1).fingerprint()
    assert QueensOrder(40, 1).fingerprint() != QueensOrder(40, 2).fingerprint()
    assert QueensOrder(40, 0).shifts == [0] * 40


def test_an_order_pickles_as_its_size_and_seed() -> None:
    order = QueensOrder(300, 3)
    data = pickle.dumps(order)
    assert len(data) < 200
    copy = pickle.loads(data)
    assert (copy.columns, copy.shifts) == (order.columns, order.shifts)
    assert copy.fingerprint() == order.fingerprint()


@pytest.mark.parametrize("n", [RACE_FROM, 60, 100])
def test_first_placements_of_large_boards_are_valid(n: int) -> None:
    placement = queens(n).first()
    assert len(placement) == n and sorted(placement) == list(range(n))
    assert not _attacking(placement)
    verify(n, placement)


def test_placements_of_a_raced_board_are_distinct_and_valid() -> None:
    found = queens(40).take(200)
    assert len(set(found)) == 200
    assert not any(map(_attacking, found))


def test_a_checkpoint_after_the_first_placement_resumes_to_the_same_second() -> None:
    stream = queens(100)
    stream.first()
    checkpoint = json.loads(json.dumps(stream.checkpoint()))
    second = stream.first()
    verify(100, second)
    # A fresh object knows no winner: replaying the position replays the race.
    assert queens(100).resume(checkpoint).first() == second
    # And so does a fresh process (compiled or not, as this one: the environment passes).
    code = (
        "import json, sys; from lazysearch import queens; "
        "print(json.dumps(queens(100).resume(json.load(sys.stdin)).first()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(checkpoint),
        capture_output=True,
        text=True,
        check=True,
    )
    assert tuple(json.loads(done.stdout)) == second


def test_a_checkpoint_of_one_board_does_not_resume_another() -> None:
    stream = queens(40)
    stream.first()
    with pytest.raises(LazysearchError, match="another problem"):
        queens(41).resume(stream.checkpoint())


def test_subtrees_of_a_raced_board_partition_its_placements() -> None:
    whole = _placements(_race(7), 7)
    parts = [s for p in whole.search.subtrees(2) for s in _placements(_race(7), 7).subtree(p)]
    assert parts == list(_placements(_race(7), 7))


def test_a_raced_count_in_two_processes() -> None:
    assert _placements(_race(8), 8).count(workers=2) == 92


@given(st.integers(1, 6), st.integers(0, 40))
@settings(max_examples=30, deadline=None)
def test_a_raced_board_resumed_anywhere_equals_one_run(n: int, k: int) -> None:
    whole = list(_placements(_race(n, 3), n))
    head_stream = _placements(_race(n, 3), n)
    head = head_stream.take(min(k, len(whole)))
    rest = list(_placements(_race(n, 3), n).resume(head_stream.checkpoint()))
    assert head + rest == whole


@pytest.mark.parametrize("bad", [0, -3, 2.0, True, "8", None])
def test_a_bad_size_is_refused_at_the_call(bad: object) -> None:
    with pytest.raises(ValueError, match=f"board size n >= 1, got {bad!r}"):
        queens(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n >= 1"):
        QueensOrder(bad, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1.5, None, False])
def test_a_bad_seed_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match=f"seed that is an int >= 0, got {bad!r}"):
        QueensOrder(8, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("placement", "message"),
    [
        ((1, 3, 0), "not one column in 0..3 per row"),
        ((1, 3, 0, 4), "not one column in 0..3 per row"),
        ((1, 1, 3, 0), "rows 0 and 1 share a column"),
        ((0, 2, 1, 3), "rows 1 and 2 share a diagonal"),
        ((3, 0, 2, 1), "rows 2 and 3 share a diagonal"),
        ((0, 1, 3, 2), "rows 0 and 1 share a diagonal"),  # r - c
    ],
)
def test_verify_names_the_clash(placement: tuple[int, ...], message: str) -> None:
    assert _attacking(placement) or len(placement) != 4 or max(placement) > 3
    with pytest.raises(ValueError, match=message):
        verify(4, placement)
    for good in _brute_force(6):
        verify(6, good)
