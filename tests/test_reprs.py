"""Reprs a prompt can show: short, ordered, and the words of the messages in good
English (an 8x8 board, 1 node)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazysearch import knights, polyomino, queens
from lazysearch.cli import main
from lazysearch.errors import article


def test_a_long_tour_shows_its_ends() -> None:
    text = repr(knights.tour(1000))
    assert len(text) < 200 and text.startswith("<Tour of 1000x1000, 1,000,000 squares: (0, 0),")
    small = knights.tour(5, start=(0, 0))
    assert repr(small) == repr(tuple(small))  # up to 100 squares, as before


def test_a_board_shows_its_cells_in_order_and_few() -> None:
    small = polyomino.rectangle(2, 3)
    assert repr(small) == (
        "Board(rows=2, cols=3, cells=frozenset({(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}))"
    )
    assert eval(repr(small), {"Board": polyomino.Board}) == small
    big = repr(polyomino.rectangle(60, 60))
    assert (
        big == "Board(rows=60, cols=60, cells=<3600 cells: (0, 0), (0, 1), (0, 2), ..., (59, 59)>)"
    )


def test_a_partial_count_does_not_print_its_checkpoint() -> None:
    part = queens(20).search.count_within(nodes=50_000)
    assert len(str(part.checkpoint)) > 100
    text = repr(part)
    assert text.startswith(f"Partial(found={part.found}, done=False, ")
    assert text.endswith("checkpoint=<'lazysearch-checkpoint' checkpoint, 9 keys>)")
    taken = queens(8).take_within(5)
    assert repr(taken).startswith("Taken(solutions=<5 solutions>, done=False")


@given(st.integers(1, 10**12))
def test_the_article_goes_by_the_sound(n: int) -> None:
    said = str(n)
    vowel = said[0] == "8" or (len(said) % 3 == 2 and said[:2] in ("11", "18"))
    assert article(n) == ("an" if vowel else "a")


@pytest.mark.parametrize(
    ("n", "word"),
    [
        (8, "an"),
        (11, "an"),
        (18, "an"),
        (80, "an"),
        (9, "a"),
        (16, "a"),
        (110, "a"),
        (1100, "a"),
        (11_000, "an"),
        (800, "an"),
        (1_800, "a"),
    ],
)
def test_the_article_of_known_numbers(n: int, word: str) -> None:
    assert article(n) == word


def test_messages_say_an_8x8_and_1_node(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch import sudoku

    with pytest.raises(sudoku.SudokuError, match="is not a value of an 8x8 sudoku"):
        sudoku.solve([[9] * 8] * 8)
    assert main(["generate", "sudoku", "--seed", "1"]) == 0
    assert "(easy, 1 node)" in capsys.readouterr().out
