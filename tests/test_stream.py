"""Solutions: the lazy stream and its combinators."""

from __future__ import annotations

import pytest

from lazysearch import LazysearchError, NotExactlyOneError, Solutions, exact_cover, queens

Q8 = list(queens(8))


def test_take_first_nth() -> None:
    s = queens(8)
    assert s.take(3) == Q8[:3]
    assert s.first() == Q8[3]
    assert s.nth(2) == Q8[6]
    assert s.take(0) == []


def test_first_on_an_empty_stream() -> None:
    assert queens(3).first(None) is None
    with pytest.raises(ValueError, match="empty"):
        queens(3).first()


def test_slice_and_getitem_are_lazy() -> None:
    s = queens(8)
    part = s.slice(5, 20, 3)
    assert isinstance(part, Solutions)
    assert s.stats.solutions == 0  # nothing ran yet
    assert list(part) == Q8[5:20:3]
    assert list(queens(8)[10:13]) == Q8[10:13]
    assert queens(8)[7] == Q8[7]
    assert queens(8)[-1] == Q8[-1]
    assert list(queens(8).slice(4)) == Q8[:4]


def test_filter_and_map_are_lazy_and_share_the_search() -> None:
    s = queens(8)
    corner = s.filter(lambda q: q[0] == 0).map(lambda q: q[::-1])
    assert s.stats.solutions == 0
    assert list(corner) == [q[::-1] for q in Q8 if q[0] == 0]
    assert s.take(1) == []  # the derived stream consumed the shared search


def test_count_fast_path_and_filtered_count() -> None:
    assert queens(8).count() == 92
    assert queens(8).filter(lambda q: q[0] == 0).count() == sum(1 for q in Q8 if q[0] == 0)
    s = queens(8)
    s.take(10)
    assert s.count() == 82


def test_one_and_exists() -> None:
    assert exact_cover(["a b", "a"]).one() == (0,)
    with pytest.raises(NotExactlyOneError, match="found 0"):
        queens(3).one()
    with pytest.raises(NotExactlyOneError, match="at least 2"):
        queens(8).one()
    assert queens(4).exists() and not queens(3).exists()


def test_bad_arguments_fail_at_the_call() -> None:
    with pytest.raises(ValueError, match="take"):
        queens(4).take(-1)
    with pytest.raises(ValueError, match="nth"):
        queens(4).nth(-1)
    with pytest.raises(ValueError, match="board size"):
        queens(0)
    with pytest.raises(ValueError, match="cannot run this stream's"):
        queens(4).filter(bool).count(workers=2)


def test_resume_keeps_filters() -> None:
    s = queens(8).filter(lambda q: q[0] < 4)
    head = s.take(5)
    rest = list(queens(8).filter(lambda q: q[0] < 4).resume(s.checkpoint()))
    assert head + rest == [q for q in Q8 if q[0] < 4]


def test_repr_says_what_it_is() -> None:
    s = queens(5)
    s.take(2)
    assert "exact-cover" in repr(s) and "2 found" in repr(s)


def test_an_index_past_the_end_is_an_index_error() -> None:
    with pytest.raises(IndexError, match="stream index 92 is out of range"):
        queens(8)[92]
    with pytest.raises(IndexError, match="stream index -93 is out of range"):
        queens(8)[-93]
    assert queens(8)[91] == Q8[91] and queens(8)[-92] == Q8[0]


def test_a_stream_has_no_truth_value() -> None:
    # bool(queens(2)) was True though it has no solution: `if sudoku.solve(p):` always
    # passed. Now it is refused, pointing to exists().
    with pytest.raises(TypeError, match=r"exists\(\)"):
        bool(queens(2))
    with pytest.raises(TypeError):
        bool(queens(8).filter(lambda q: q[0] == 0))
    assert not queens(2).exists() and queens(4).exists()


def test_sample_without_replacement_draws_different_solutions() -> None:
    from lazysearch.puzzles.queens import verify

    drawn = queens(6).sample(4, seed=3, replace=False)
    assert sorted(drawn) == sorted(queens(6))  # all four, each once
    for placement in drawn:
        verify(6, placement)
    assert queens(8).sample(5, seed=9, replace=False) == queens(8).sample(5, seed=9, replace=False)
    assert len(set(queens(8).sample(92, seed=1, replace=False))) == 92
    with pytest.raises(LazysearchError, match="5 different solutions, and there are 4"):
        queens(6).sample(5, replace=False)
    assert queens(3).sample(2, replace=False) == []
    # With replacement (the default) draws are independent: 10 of 4 solutions.
    assert len(queens(6).sample(10, seed=1)) == 10


@pytest.mark.parametrize("n", [2.5, "2", True, -1])
def test_take_refuses_what_is_not_a_count_in_its_own_words(n: object) -> None:
    with pytest.raises(ValueError, match=r"take\(\) needs a whole number n >= 0, got"):
        queens(4).take(n)  # type: ignore[arg-type]
