"""Preprocessing (Knuth's DLX-PRE): the solutions stay, the tree shrinks."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings

from lazysearch import ExactCover, compiled, exact_cover
from lazysearch.exactcover import verify
from lazysearch.exactcover.reduce import Renumber, reduce_problem
from lazysearch.puzzles import langford_problem, queens_problem
from lazysearch.puzzles.polyomino import PENTOMINOES, rectangle, tiling_problem

from .helpers import brute_force_covers, small_problems
from .test_engines import coloured_problems


def check_reduction(options: list, primary: list, secondary: list, budget: int) -> None:
    expected = brute_force_covers(options, primary, secondary)
    cover = ExactCover(options, primary=primary, secondary=secondary, reduce=budget)
    reduction = cover.reduction
    assert reduction is not None
    found = list(cover.solve())
    assert len(found) == len(set(found))
    assert set(found) == expected
    for s in found:
        verify(options, s, primary=primary, secondary=secondary)
    # Nothing a solution holds was removed, and the two lists split the options.
    used = {o for s in expected for o in s}
    assert used.isdisjoint(reduction.options_removed)
    assert sorted(reduction.kept + reduction.options_removed) == list(range(len(options)))
    assert list(reduction.kept) == sorted(reduction.kept)


@given(problem=small_problems())
@settings(max_examples=300, deadline=None)
def test_reducing_keeps_every_solution(problem: tuple[list, list, list]) -> None:
    check_reduction(*problem, budget=10**6)


@given(problem=coloured_problems())
@settings(max_examples=300, deadline=None)
def test_reducing_keeps_every_solution_with_colours(problem: tuple[list, list, list]) -> None:
    check_reduction(*problem, budget=10**6)


@given(problem=small_problems())
@settings(max_examples=100, deadline=None)
def test_a_spent_budget_keeps_what_was_found_so_far(problem: tuple[list, list, list]) -> None:
    check_reduction(*problem, budget=3)


def test_knuths_example_loses_the_options_that_cannot_be_chosen() -> None:
    cover = ExactCover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"], reduce=True)
    reduction = cover.reduction
    assert reduction is not None
    assert reduction.complete
    # The rounds leave only the options of the one solution.
    assert set(reduction.options_removed) == {1, 2, 5}
    assert cover.solve().take(2) == [(0, 3, 4)]


def test_an_item_that_always_comes_with_another_goes() -> None:
    # Every option of p names q: options naming q without p go, and then q itself.
    cover = ExactCover(["p q", "p q r", "q r", "r"], reduce=True)
    reduction = cover.reduction
    assert reduction is not None
    assert reduction.options_removed == (2,)
    assert cover.items[reduction.items_removed[0] - 1] == "q"
    assert sorted(cover.solve()) == [(0, 3), (1,)]


def test_an_uncoverable_item_is_left_for_the_search_to_report() -> None:
    cover = ExactCover(["a", "b"], primary=["a", "b", "c"], reduce=True)
    assert cover.reduction is not None and cover.reduction.complete
    assert cover.solve().count() == 0


@pytest.mark.parametrize(("n", "expected"), [(6, 4), (8, 92)])
def test_queens_count_the_same_reduced(n: int, expected: int) -> None:
    problem = queens_problem(n)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    assert exact_cover(list(problem.options), **kw, reduce=True).count() == expected


def test_langford_counts_the_same_reduced() -> None:
    problem = langford_problem(8)
    assert (
        exact_cover(list(problem.options), primary=list(problem.primary), reduce=True).count()
        == 150
    )


@pytest.mark.skipif(not compiled(), reason="20 s as plain Python (the searches, not reduce)")
def test_pentominoes_on_3x20_keep_their_tilings_reduced() -> None:
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    plain = exact_cover(list(problem.options), primary=list(problem.primary))
    cover = ExactCover(list(problem.options), primary=list(problem.primary), reduce=True)
    reduced = cover.solve()
    tilings = sorted(reduced)
    assert len(tilings) == 8  # shared/ORACLES.md
    assert tilings == sorted(plain)
    for tiling in tilings:
        verify(cover.options, tiling, primary=cover.primary)
    # Placements that wall off a region no piece can fill (150 of 1,236) go.
    assert cover.reduction is not None and len(cover.reduction.options_removed) > 100


def test_reduced_streams_resume_split_and_pickle() -> None:
    problem = queens_problem(7)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    whole = list(exact_cover(list(problem.options), **kw))
    stream = exact_cover(list(problem.options), **kw, reduce=True, engine="cells")
    head = stream.take(11)
    saved = stream.checkpoint()
    # A checkpoint of dancing cells resumes on cells (the links tree is another one).
    again = exact_cover(list(problem.options), **kw, reduce=True, engine="cells")
    fresh = list(exact_cover(list(problem.options), **kw, reduce=True, engine="cells"))
    assert head + list(again.resume(saved)) == fresh
    assert sorted(fresh) == sorted(whole)
    assert exact_cover(list(problem.options), **kw, reduce=True).count(workers=2) == 40
    renumber = Renumber((2, 5, 9))
    import pickle

    assert pickle.loads(pickle.dumps(renumber))((0, 2)) == (2, 9)


@pytest.mark.parametrize("budget", [-1, 1.5, "lots"])
def test_a_bad_budget_is_refused(budget: object) -> None:
    with pytest.raises(ValueError, match="reduction budget must be an int >= 0"):
        reduce_problem(ExactCover(["a"]).problem, budget)  # type: ignore[arg-type]


def test_the_cli_reduces_on_request_and_says_so() -> None:
    text = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"
    runs = [
        subprocess.run(
            [sys.executable, "-m", "lazysearch", "dlx", "-", *flags],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        for flags in ([], ["--reduce"], ["--reduce", "--quiet"])
    ]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    assert "reduced: 3 of 6 options" in runs[1].stderr
    assert "reduced" not in runs[0].stderr and runs[2].stderr == ""


@pytest.mark.parametrize(
    "flags", [{"reduce": True}, {"engine": "cells"}, {"engine": "links"}, {"reduce": 10}]
)
def test_reduce_and_engines_are_refused_with_bounds_or_costs(flags: dict) -> None:
    with pytest.raises(ValueError, match="does not combine with bounds or costs"):
        ExactCover(["a b", "a"], bounds={"a": (1, 2)}, **flags)
    with pytest.raises(ValueError, match="does not combine with bounds or costs"):
        ExactCover(["a b", "a"], costs=[1, 2], **flags)
