"""Results as Jupyter shows them, through IPython's display formatter."""

from __future__ import annotations

from typing import Any

import pytest

from lazysearch import kakuro, knights, polyomino, sudoku

formatters = pytest.importorskip("IPython.core.formatters")

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
