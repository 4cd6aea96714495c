"""Results and streams as Jupyter shows them, through IPython's display formatter."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazysearch.search
import lazysearch.stream
from lazysearch import exact_cover, kakuro, knights, langford, polyomino, queens, sudoku
from lazysearch.search import CHUNK
from lazysearch.stream import PREVIEW, PREVIEW_NODES

formatters = pytest.importorskip("IPython.core.formatters")

Q8 = list(queens(8))
CORNER = [q for q in Q8 if q[0] == 0]  # 4 of the 92
KAKURO = "\\   4\\  6\\\n\\3   _    _\n\\7   _    _\n"


def shown(obj: object) -> dict[str, Any]:
    """The mime bundle Jupyter would get for ``obj``."""
    data, _ = formatters.DisplayFormatter().format(obj)
    return dict(data)


# -- results as pictures -----------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: knights.tour(5), id="tour"),
        pytest.param(lambda: knights.tours(5).first(), id="tour-from-a-stream"),
        pytest.param(
            lambda: polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES).first(),
            id="tiling",
        ),
        pytest.param(lambda: sudoku.solve("1.3..........2.4").first(), id="sudoku"),
        pytest.param(lambda: kakuro.solve(kakuro.read(KAKURO)).one(), id="kakuro"),
    ],
)
def test_a_result_shows_as_its_picture(make: Any) -> None:
    result = make()
    bundle = shown(result)
    assert bundle["image/svg+xml"] == result.svg()
    assert bundle["image/svg+xml"].startswith("<svg")
    assert bundle["text/plain"]  # the text form is still there for other front ends


def test_a_sudoku_solution_draws_its_givens_in_black() -> None:
    puzzle = "1.3..........2.4"
    grid = sudoku.solve(puzzle).first()
    picture = shown(grid)["image/svg+xml"]
    assert picture == sudoku.svg(grid, puzzle=puzzle)
    assert picture.count('fill="#000" text-anchor') == 4  # the givens
    assert picture.count('fill="#1f3a93" text-anchor') == 12  # the digits found
    assert grid == ((1, 4, 3, 2), (2, 3, 4, 1), (4, 1, 2, 3), (3, 2, 1, 4))
    assert repr(grid) == repr(tuple(grid))


def test_a_6x6_sudoku_solution_keeps_its_boxes() -> None:
    grid = sudoku.solve("." * 36, box=(3, 2)).first()
    assert grid.box == (3, 2)
    assert shown(grid)["image/svg+xml"] == sudoku.svg(grid, box=(3, 2), puzzle="." * 36)


# -- streams: the next few solutions and the counters --------------------------------------


def test_a_stream_shows_its_next_solutions_and_counters() -> None:
    s = queens(8)
    s.take(2)
    text = shown(s)["text/plain"]
    assert "object at 0x" not in text
    assert text.splitlines() == [
        "<Solutions of exact-cover: 2 found in 25 nodes; next:",
        *(f"  {q}" for q in Q8[2 : 2 + PREVIEW]),
        "  ...>",
    ]
    assert shown(s)["text/plain"] == text  # shown again: nothing more is read


def test_a_stream_shows_when_it_has_no_more() -> None:
    s = exact_cover(["a", "b", "a b"])
    assert repr(s).splitlines()[1:] == ["  (0, 1)", "  (2,)", "  (no more)>"]
    assert s.take(5) == [(0, 1), (2,)]
    assert repr(s).endswith("; no more>")


def test_showing_loses_no_solution_to_iteration_or_count() -> None:
    s = queens(8)
    shown(s)
    assert list(s) == Q8
    s = queens(8)
    shown(s)
    assert s.count() == 92
    s = queens(8)
    s.take(10)
    shown(s)
    assert s.count() == 82
    s = queens(8).filter(lambda q: q[0] == 0)
    shown(s)
    assert s.count() == len(CORNER)
    s = queens(8)
    shown(s)
    assert s.first() == Q8[0] and s.nth(1) == Q8[2] and s[0] == Q8[3]


def test_showing_loses_no_solution_to_one_or_exists() -> None:
    s = exact_cover(["a b", "a", "c"])
    shown(s)
    assert s.one() == (0, 2)
    s = queens(4)
    shown(s)
    assert s.exists() and s.exists() and not s.exists()


def test_streams_derived_after_showing_get_the_solutions_it_read() -> None:
    s = queens(8)
    shown(s)
    assert list(s.filter(lambda q: q[0] == 0)) == CORNER
    s = queens(8)
    shown(s)
    assert s.map(lambda q: q[::-1]).take(4) == [q[::-1] for q in Q8[:4]]
    s = queens(8)
    shown(s)
    assert s[-1] == Q8[-1]
    # a derived stream shown, then derived from again
    s = queens(8)
    corner = s.filter(lambda q: q[0] == 0)
    shown(corner)
    assert list(corner.map(list)) == [list(q) for q in CORNER]
    assert list(s) == []  # they read the shared search to its end


def test_a_checkpoint_taken_after_showing_comes_before_what_was_shown() -> None:
    s = queens(8)
    s.take(2)
    position = s.position
    shown(s)
    assert s.position == position
    assert list(queens(8).resume(s.checkpoint())) == Q8[2:]
    assert s.take(1) == [Q8[2]]
    assert list(queens(8).resume(s.checkpoint())) == Q8[3:]
    assert list(s) == Q8[3:]


def test_counting_and_listing_in_parallel_after_showing() -> None:
    with ThreadPoolExecutor(2) as pool:
        s = queens(8)
        shown(s)
        assert s.count(executor=pool) == 92
        s = queens(8)
        shown(s)
        assert list(s.parallel(executor=pool)) == Q8


def test_a_sliced_stream_is_not_read_ahead() -> None:
    s = queens(8).slice(2, 6)
    assert "not read ahead" in repr(s)
    assert s.stats.nodes == 0
    assert list(s) == Q8[2:6]


def test_showing_a_stream_whose_next_solution_is_far_searches_a_bounded_number_of_nodes() -> None:
    s = langford(13)  # no solution in 11.9M nodes
    text = repr(s)
    assert f"none more within {PREVIEW_NODES:,} nodes" in text
    assert PREVIEW_NODES <= s.stats.nodes <= PREVIEW_NODES + CHUNK
    nodes = s.stats.nodes
    repr(s)  # each showing reads on within the same budget
    assert nodes < s.stats.nodes <= 2 * (PREVIEW_NODES + CHUNK)
    # a filter that rejects everything, behind solutions found every few nodes
    s = queens(30).filter(lambda q: False)
    assert "none more within" in repr(s)
    assert s.stats.nodes <= PREVIEW_NODES + CHUNK


@settings(max_examples=30, deadline=None)
@given(
    steps=st.lists(st.one_of(st.just(-1), st.integers(0, 3)), max_size=8),
    filtered=st.booleans(),
)
def test_interrupted_showings_between_reads_change_nothing(
    steps: list[int], filtered: bool
) -> None:
    # Tiny chunks and budget: nearly every showing stops in the middle of the search.
    expected = CORNER if filtered else Q8
    saved = lazysearch.search.CHUNK, lazysearch.stream.PREVIEW_NODES
    lazysearch.search.CHUNK, lazysearch.stream.PREVIEW_NODES = 8, 20
    try:
        s = queens(8)
        if filtered:
            s = s.filter(lambda q: q[0] == 0)
        read: list[tuple[int, ...]] = []
        for step in steps:
            if step < 0:
                repr(s)
            else:
                read += s.take(step)
        assert read + list(s) == expected
    finally:
        lazysearch.search.CHUNK, lazysearch.stream.PREVIEW_NODES = saved


def test_a_showing_stopped_by_its_budget_goes_on_where_it_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazysearch.search, "CHUNK", 8)
    monkeypatch.setattr(lazysearch.stream, "PREVIEW_NODES", 20)
    s = queens(8).filter(lambda q: q[0] == 0)
    texts = [repr(s) for _ in range(3)]
    assert all("nodes of reading ahead" in text for text in texts)  # each one cut short
    assert 0 < s.stats.nodes <= 3 * (20 + 8)
    assert list(s) == CORNER
