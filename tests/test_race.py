"""Races of equivalent searches (lazysearch.race): same solutions, one tree, positions
that mean the same on a fresh engine."""

from __future__ import annotations

import pickle
from collections.abc import Hashable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import ExactCover, Solutions, queens
from lazysearch.exactcover.problem import DLXProblem
from lazysearch.race import Race
from lazysearch.search import Search

from .helpers import brute_force_covers, small_problems


def _orders(p: DLXProblem) -> tuple[DLXProblem, ...]:
    """The same exact cover in list order, and least constraining by squares and cubes."""
    return (
        p,
        DLXProblem(p.primary, p.secondary, p.option_items, p.option_colors, True, 2),
        DLXProblem(p.primary, p.secondary, p.option_items, p.option_colors, True, 3),
    )


def _runners(
    problem: tuple[list[list[Hashable]], list[str], list[str]], order: list[int]
) -> tuple[DLXProblem, ...]:
    options, primary, secondary = problem
    orders = _orders(ExactCover(options, primary=primary, secondary=secondary).problem)
    return tuple(orders[i] for i in order)


_ORDER = st.lists(st.integers(0, 2), min_size=1, max_size=3)


@given(small_problems(), _ORDER, st.integers(1, 5))
@settings(max_examples=100, deadline=None)
def test_a_race_yields_its_winners_solutions(
    problem: tuple[list[list[Hashable]], list[str], list[str]], order: list[int], slice: int
) -> None:
    runners = _runners(problem, order)
    race = Race(runners, slice)
    found = list(Search(race))
    options, primary, secondary = problem
    assert set(found) == brute_force_covers(options, primary, secondary)
    assert race.winner is not None
    assert found == list(Search(runners[race.winner]))  # the winner's order, each once


@given(small_problems(), _ORDER, st.integers(1, 5), st.integers(0, 6))
@settings(max_examples=100, deadline=None)
def test_a_race_resumed_on_a_fresh_race_equals_one_run(
    problem: tuple[list[list[Hashable]], list[str], list[str]],
    order: list[int],
    slice: int,
    k: int,
) -> None:
    whole = list(Search(Race(_runners(problem, order), slice)))
    s = Search(Race(_runners(problem, order), slice))
    head = [next(s) for _ in range(min(k, len(whole)))]
    # A new Race object knows no winner: replaying the position replays the race.
    rest = list(Search(Race(_runners(problem, order), slice)).resume(s.checkpoint()))
    assert head + rest == whole


@given(small_problems(), _ORDER, st.integers(1, 5), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_subtrees_of_a_race_partition_its_solutions(
    problem: tuple[list[list[Hashable]], list[str], list[str]],
    order: list[int],
    slice: int,
    depth: int,
) -> None:
    whole = list(Search(Race(_runners(problem, order), slice)))
    s = Search(Race(_runners(problem, order), slice))
    parts = [sol for prefix in s.subtrees(depth) for sol in s.subtree(prefix)]
    assert parts == whole


def _queens_race(n: int, slice: int) -> Race:
    return Race(_orders(queens(n).search.problem), slice)  # type: ignore[arg-type]


def test_the_first_to_find_a_solution_wins() -> None:
    runners = _orders(queens(10).search.problem)  # type: ignore[arg-type]
    alone = []
    for p in runners:
        s = Search(p)
        next(s)
        alone.append(s.stats.nodes)
    race = Race(runners, 1)
    s = Search(race)
    next(s)
    assert race.winner == alone.index(min(alone))
    # One node each in turn: the winner's nodes, and at most as many from each loser.
    assert min(alone) <= s.stats.nodes <= len(runners) * min(alone)


def test_a_decided_race_does_not_run_again() -> None:
    race = _queens_race(10, 1)
    first = Search(race)
    next(first)
    copy = pickle.loads(pickle.dumps(race))
    assert copy.winner == race.winner is not None
    assert copy.fingerprint() == race.fingerprint()
    again = Search(copy)
    next(again)
    alone = Search(race.problems[race.winner])
    next(alone)
    assert again.stats.nodes == alone.stats.nodes < first.stats.nodes


def test_count_estimate_and_workers_on_a_race() -> None:
    assert Solutions(Search(_queens_race(8, 3))).count() == 92
    assert Solutions(Search(_queens_race(8, 3))).count(workers=2) == 92
    race = _queens_race(8, 3)
    estimate = Search(race).estimate(samples=200, seed=5)
    assert race.winner is not None  # branching at the root needs the winner
    assert estimate == Search(race.problems[race.winner]).estimate(samples=200, seed=5)


def test_progress_of_a_race_grows_to_one() -> None:
    s = Search(_queens_race(8, 2))
    seen = [s.progress()]
    for _ in s:
        seen.append(s.progress())
    assert seen == sorted(seen) and s.progress() == 1.0


def test_a_race_with_no_solution_ends_when_a_runner_does() -> None:
    # Items 1..3, no option covers item 3.
    options = ((1, 2), (1,), (2,))
    colours = tuple((0,) * len(o) for o in options)
    runners = (DLXProblem(3, 0, options, colours), DLXProblem(3, 0, options, colours, True, 3))
    race = Race(runners, 1)
    s = Search(race)
    assert list(s) == [] and s.done and race.winner == 0


class _Counted:
    """A problem that counts the engines built from it."""

    def __init__(self, problem: DLXProblem) -> None:
        self.problem = problem
        self.built = 0
        self.kind = problem.kind

    def engine(self) -> Any:
        self.built += 1
        return self.problem.engine()

    def fingerprint(self) -> str:
        return self.problem.fingerprint()


def test_a_runner_engine_is_built_at_its_first_turn() -> None:
    runners = [_Counted(p) for p in _orders(queens(10).search.problem)]  # type: ignore[arg-type]
    race = Race(runners, 4096)  # the first runner reaches a solution within its slice
    s = Search(race)
    next(s)
    assert race.winner == 0 and [r.built for r in runners] == [1, 0, 0]
    # One node a turn: every runner gets a turn, and its engine, once.
    runners = [_Counted(p) for p in _orders(queens(10).search.problem)]  # type: ignore[arg-type]
    race = Race(runners, 1)
    assert len(list(Search(race))) == 724
    assert [r.built for r in runners] == [1, 1, 1]
    # A race whose winner is known builds the winner's engine only.
    for r in runners:
        r.built = 0
    assert len(list(Search(race))) == 724
    assert [r.built for r in runners] == [int(i == race.winner) for i in range(3)]
