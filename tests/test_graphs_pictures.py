"""Pictures of cycles and paths on boards: the text of move numbers, and SVG that parses
and draws every step of the cycle, on a grid and on a board with holes."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from lazysearch import graphs
from lazysearch.graphs import BoardPath, GraphError
from lazysearch.graphs.pictures import board_of

SVG = "{http://www.w3.org/2000/svg}"
Cell = tuple[int, int]


def drawn_steps(svg: str) -> tuple[set[frozenset[Cell]], set[Cell], int]:
    """The steps the picture draws (from its paths' relative moves and its dashed
    closing line), the cells it fills, and how many closing lines."""
    root = ET.fromstring(svg)
    steps: set[frozenset[Cell]] = set()
    filled: set[Cell] = set()
    for path in root.iter(f"{SVG}path"):
        d = path.get("d", "")
        if path.get("fill"):  # the board's cells: squares 'Mc rh1v1h-1z'
            for c, r in re.findall(r"M(\d+) (\d+)h1v1h-1z", d):
                filled.add((int(r), int(c)))
            continue
        head = re.match(r"M(\d+)\.5 (\d+)\.5l", d)
        assert head, d
        c, r = int(head.group(1)), int(head.group(2))
        numbers = [int(x) for x in re.findall(r"[ -]\d+", d[head.end() :])]
        for dc, dr in zip(numbers[::2], numbers[1::2], strict=True):
            steps.add(frozenset(((r, c), (r + dr, c + dc))))
            r, c = r + dr, c + dc
    lines = list(root.iter(f"{SVG}line"))
    for line in lines:
        ends = [
            (int(float(line.get(f"y{i}", "")) - 0.5), int(float(line.get(f"x{i}", "")) - 0.5))
            for i in (1, 2)
        ]
        steps.add(frozenset(ends))
    return steps, filled, len(lines)


def cycle_steps(cycle: tuple[Cell, ...]) -> set[frozenset[Cell]]:
    return {frozenset(step) for step in itertools.pairwise((*cycle, cycle[0]))}


def test_a_grid_cycle() -> None:
    cycle = graphs.hamiltonian_cycles(graphs.grid(6, 6)).nth(100)
    picture = BoardPath(cycle, closed=True)
    assert (picture.rows, picture.cols, len(picture)) == (6, 6, 36)
    svg = picture.svg()
    steps, filled, closing = drawn_steps(svg)
    assert steps == cycle_steps(cycle) and closing == 1
    assert filled == set(cycle)
    assert "closed path on 6x6" in svg


def test_a_camel_cycle_on_a_board_with_holes() -> None:
    board = ["#.#.#.", ".#.#.#", "#.#.#.", ".#.#.#"]
    cycle = graphs.hamiltonian_cycles(graphs.leaper(4, 6, (1, 3), board=board)).first()
    cells = {(r, c) for r in range(4) for c in range(6) if board[r][c] == "#"}
    picture = BoardPath(cycle, closed=True, rows=4, cols=6, cells=cells)
    steps, filled, closing = drawn_steps(picture.svg(title="a camel's tour"))
    assert steps == cycle_steps(cycle) and closing == 1
    assert filled == cells  # the holes are left blank
    assert str(picture).splitlines() == [
        " 1  .  5  .  9  .",
        " . 10  .  2  .  6",
        " 3  .  7  . 11  .",
        " . 12  .  4  .  8",
    ]


def test_an_open_path_has_no_closing_line() -> None:
    path = graphs.hamiltonian_paths(graphs.grid(3, 3), start=(0, 0)).first()
    steps, _, closing = drawn_steps(BoardPath(path, closed=False).svg())
    assert closing == 0
    assert steps == {frozenset(s) for s in itertools.pairwise(path)}


def test_a_long_cycle_in_pieces_draws_every_step() -> None:
    cycle = graphs.hamiltonian_cycles(graphs.grid(40, 40)).first()
    steps, _, _ = drawn_steps(BoardPath(cycle, closed=True).svg())
    assert steps == cycle_steps(cycle)


def test_bad_cells() -> None:
    with pytest.raises(GraphError, match=r"a cell is a pair \(row, col\) of whole numbers >= 0"):
        BoardPath([(0, -1)], closed=False)
    with pytest.raises(GraphError, match=r"cell \(2, 0\) is outside the 2x2 board"):
        BoardPath([(2, 0)], closed=False, rows=2, cols=2)
    assert board_of(["# .", "x"]) == [[True, False, False], [True, False, False]]
