"""Exact cover: known answers, brute-force agreement, colours, bad input."""

from __future__ import annotations

import sys

import more_itertools
import pytest
from hypothesis import given, settings

from lazysearch import (
    Colour,
    DuplicateItemError,
    EmptyOptionError,
    ExactCover,
    ItemConflictError,
    NoPrimaryItemError,
    UnknownItemError,
    exact_cover,
)
from lazysearch.exactcover import verify
from lazysearch.puzzles import langford_problem, queens_problem

from .helpers import brute_force_covers, small_problems

KNUTH = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]

# shared/ORACLES.md
QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
LANGFORD = {1: 0, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150}


def test_knuths_example_has_its_one_solution() -> None:
    solutions = exact_cover(KNUTH).take(5)
    assert solutions == [(0, 3, 4)]
    verify(KNUTH, solutions[0])


@pytest.mark.parametrize("n", range(1, len(QUEENS) + 1))
def test_queens_counts_match_oeis_a000170(n: int) -> None:
    problem = queens_problem(n)
    assert problem.solve().count() == QUEENS[n - 1]
    if n <= 8:
        solutions = list(problem.solve())
        assert len(solutions) == len(set(solutions)) == QUEENS[n - 1]
        for s in solutions:
            problem.verify(s)


@pytest.mark.parametrize("n", sorted(LANGFORD))
def test_langford_counts_match_oeis_a014552(n: int) -> None:
    problem = langford_problem(n)
    solutions = list(problem.solve())
    assert len(solutions) == LANGFORD[n]
    for s in solutions:
        problem.verify(s)
    assert langford_problem(n, symmetry=False).solve().count() == 2 * LANGFORD[n]


def sudoku_grid_options(box: int) -> list[list[tuple[str, int, int]]]:
    n = box * box
    options = []
    for r in range(n):
        for c in range(n):
            b = (r // box) * box + c // box
            for v in range(n):
                options.append([("cell", r, c), ("row", r, v), ("col", c, v), ("box", b, v)])
    return options


def test_there_are_288_four_by_four_sudoku_grids() -> None:
    options = sudoku_grid_options(2)
    stream = exact_cover(options)
    assert stream.count() == 288
    for s in exact_cover(options).take(20):
        verify(options, s)


def test_empty_problem_has_one_empty_solution() -> None:
    assert exact_cover([]).take(2) == [()]


def test_an_uncoverable_item_gives_no_solution() -> None:
    assert exact_cover(["a b"], primary=["a", "b", "c"]).take(1) == []


@pytest.mark.parametrize("lcv", [False, True])
@given(problem=small_problems())
@settings(max_examples=150, deadline=None)
def test_agrees_with_brute_force(problem: tuple[list, list, list], lcv: bool) -> None:
    options, primary, secondary = problem
    expected = brute_force_covers(options, primary, secondary)
    cover = ExactCover(options, primary=primary, secondary=secondary, least_constraining=lcv)
    found = list(cover.solve())
    assert len(found) == len(set(found))
    assert set(found) == expected
    for s in found:
        verify(options, s, primary=primary, secondary=secondary)
    assert cover.solve().count() == len(expected)


def test_least_constraining_first_changes_only_the_order() -> None:
    # Item a: option 0 leaves b and c with one option each, option 1 leaves them their
    # two.  List order tries 0 first; least constraining tries 1 first.
    options = ["a b", "a", "b", "c", "b c", "x b", "x c"]
    listed = list(exact_cover(options))
    lcv = list(exact_cover(options, least_constraining=True))
    assert sorted(listed) == sorted(lcv) == [(0, 6), (1, 2, 6), (1, 3, 5)]
    assert listed[0] == (0, 6) and lcv[-1] == (0, 6)


@given(small_problems())
@settings(max_examples=100, deadline=None)
def test_count_equals_the_length_of_the_stream(problem: tuple[list, list, list]) -> None:
    options, primary, secondary = problem
    counted = exact_cover(options, primary=primary, secondary=secondary).count()
    assert counted == more_itertools.ilen(
        exact_cover(options, primary=primary, secondary=secondary)
    )


def test_colours_let_options_share_a_secondary_item() -> None:
    options = [
        ["p", Colour("x", "red")],
        ["q", Colour("x", "red")],
        ["q", Colour("x", "blue")],
        ["q", "x"],
        ["q"],
    ]
    found = set(exact_cover(options, secondary=["x"]))
    assert found == {(0, 1), (0, 4)}
    for s in found:
        verify(options, s, secondary=["x"])


def test_text_options_take_colours() -> None:
    found = exact_cover(["p x:A", "q x:A", "q x:B"], secondary=["x"]).take(5)
    assert found == [(0, 1)]


def test_a_search_a_hundred_thousand_levels_deep_needs_no_recursion() -> None:
    n = 100_000
    limit = sys.getrecursionlimit()
    assert n > 10 * limit
    options = [[i] for i in range(n)]
    stream = exact_cover(options, primary=range(n))
    solution = stream.first()
    assert solution == tuple(range(n))
    assert stream.stats.level == n
    assert stream.take(1) == []


def test_items_default_to_primary_in_order_of_appearance() -> None:
    p = ExactCover(["b a", "a c"], secondary=["c"])
    assert p.primary == ("b", "a")
    assert p.secondary == ("c",)


@pytest.mark.parametrize(
    ("options", "kwargs", "error", "words"),
    [
        ([["a"], []], {}, EmptyOptionError, "option 1 is empty"),
        ([["a", "q"]], {"primary": ["a"]}, UnknownItemError, "option 0 names item 'q'"),
        ([["a", "a"]], {}, DuplicateItemError, "option 0 names item 'a' twice"),
        ([["a"]], {"primary": ["a"], "secondary": ["a"]}, ItemConflictError, "'a' is both"),
        ([["a", Colour("a", 1)]], {}, DuplicateItemError, "twice"),
        (
            [[Colour("a", 1)]],
            {"primary": ["a"]},
            ItemConflictError,
            "primary item 'a' the colour 1",
        ),
        ([["a"]], {"primary": ["a", "a"]}, DuplicateItemError, "listed twice"),
        ([[Colour("x", 1)]], {}, ItemConflictError, "only secondary items take colours"),
        (
            [["a"], ["x"]],
            {"secondary": ["x"]},
            NoPrimaryItemError,
            "option 1 names no primary item",
        ),
    ],
)
def test_bad_problems_fail_at_the_call_with_the_option_and_item(
    options: list, kwargs: dict, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words.replace("(", r"\(")):
        exact_cover(options, **kwargs)
    assert issubclass(error, ValueError)


def test_verifier_rejects_wrong_solutions() -> None:
    from lazysearch import InvalidSolutionError

    with pytest.raises(InvalidSolutionError, match="covered 0 times"):
        verify(KNUTH, (0, 3))
    with pytest.raises(InvalidSolutionError, match="not strictly increasing"):
        verify(KNUTH, (3, 0, 4))
    with pytest.raises(InvalidSolutionError, match="option 9"):
        verify(KNUTH, (0, 9))
    with pytest.raises(InvalidSolutionError, match="without one common colour"):
        verify(["p x:A", "q x:B"], (0, 1), secondary=["x"])


# Options given as a mapping are named by its keys; a lone string is refused.
# (Before, a mapping was read as its keys, each key a one-item option.)
NAMED = {"A": {1, 4, 7}, "B": {1, 4}, "C": {4, 5, 7}, "D": {3, 5, 6}, "E": {2, 3, 6, 7}}
NAMED["F"] = {2, 7}


def test_a_mapping_of_options_gives_solutions_by_their_names() -> None:
    solutions = exact_cover(NAMED).take(5)
    assert solutions == [("B", "D", "F")]
    verify(NAMED, solutions[0])  # the independent checker reads the mapping too
    problem = ExactCover(NAMED)
    problem.verify(solutions[0])
    assert problem.chosen(solutions[0]) == [(1, 4), (3, 5, 6), (2, 7)]
    assert exact_cover(NAMED).count() == 1


@settings(max_examples=60, deadline=None)
@given(small_problems())
def test_named_options_cover_as_their_indices_do(
    problem: tuple[list[list[object]], list[str], list[str]],
) -> None:
    options, primary, secondary = problem
    names = {f"o{j}": option for j, option in enumerate(options)}
    expected = brute_force_covers(options, primary, secondary)
    for reduce in (False, True):
        found = exact_cover(names, primary=primary, secondary=secondary, reduce=reduce)
        assert {tuple(int(n[1:]) for n in s) for s in found} == expected
    by_name = exact_cover(names, primary=primary, secondary=secondary)
    assert by_name.count() == len(expected)
    for s in exact_cover(names, primary=primary, secondary=secondary):
        verify(names, s, primary=primary, secondary=secondary)


def test_named_options_keep_costs_bounds_and_seed() -> None:
    named = {"p": "a", "q": "b", "r": "a b"}
    assert exact_cover(named, costs=[1, 1, 3]).cheapest().take(3) == [("p", "q"), ("r",)]
    assert exact_cover(["a", "b", "a b"], costs=[1, 1, 3]).cheapest().take(3) == [(0, 1), (2,)]
    twice = exact_cover({"x": "a", "y": "a", "z": "a b"}, bounds={"a": (2, 2)}).take(5)
    assert sorted(twice) == [("x", "z"), ("y", "z")]  # 'a' twice, 'b' once
    assert exact_cover(["a", "b", "a b"], seed=3).count() == 2


@pytest.mark.parametrize("options", ["a b c", b"a b", bytearray(b"ab")])
def test_a_lone_string_is_refused_not_read_as_options(options: object) -> None:
    with pytest.raises(TypeError, match="lone string"):
        exact_cover(options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "where"), [([["a"], 5], "option 1 "), ({"A": ["a"], "B": None}, "option 'B' ")]
)
def test_an_option_that_is_not_iterable_is_named(options: object, where: str) -> None:
    with pytest.raises(TypeError, match=where):
        exact_cover(options)  # type: ignore[arg-type]


def test_a_mapping_names_the_option_at_fault() -> None:
    with pytest.raises(DuplicateItemError, match="option 'X' names item 'a' twice"):
        exact_cover({"W": "b", "X": "a b a"})
    with pytest.raises(EmptyOptionError, match="option 'W' is empty"):
        exact_cover({"W": ""})


def test_a_long_option_is_read_in_linear_time() -> None:
    # An option of a million items: checking its items for repeats against a list took
    # time quadratic in its length (an hour); with a set it is read once.
    huge = [f"i{k}" for k in range(1_000_000)]
    assert len(ExactCover([huge]).primary) == 1_000_000
    with pytest.raises(DuplicateItemError, match="'i0' twice"):
        ExactCover([[*huge[:100_000], "i0"]])
    assert ExactCover([huge[:10_000]]).solve().count() == 1


def test_importing_the_verifiers_module_leaves_the_verifier_in_place() -> None:
    import subprocess
    import sys

    code = (
        "import lazysearch.exactcover.verify\n"
        "from lazysearch.exactcover import verify\n"
        "print(type(verify).__name__)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "function\n"
