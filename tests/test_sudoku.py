"""Sudoku: sizes, bad grids, and the published collections in ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazysearch import ParseError, sudoku
from lazysearch.puzzles.sudoku import SudokuError

from .helpers import shared_file

ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def test_a_hard_puzzle_is_unique_and_verified() -> None:
    found = sudoku.solve(ESCARGOT).take(2)
    assert len(found) == 1
    sudoku.verify(ESCARGOT, found[0])


def test_grid_counts() -> None:
    assert sudoku.solve("." * 16).count() == 288  # shared/ORACLES.md
    for g in sudoku.solve("." * 16).take(30):
        sudoku.verify("." * 16, g)


def test_rectangular_boxes() -> None:
    g = sudoku.solve("." * 36).first()
    sudoku.verify("." * 36, g, box=(2, 3))
    assert sudoku.box_shape(6) == (2, 3) and sudoku.box_shape(12) == (3, 4)
    # The same grid with 3x2 boxes is another puzzle.
    g2 = sudoku.solve("." * 36, box=(3, 2)).first()
    sudoku.verify("." * 36, g2, box=(3, 2))


def test_lists_and_letters() -> None:
    rows = [[0] * 16 for _ in range(16)]
    rows[0][0] = 16
    g = sudoku.solve(rows).first()
    assert g[0][0] == 16
    text = "G" + "." * 255
    assert sudoku.solve(text).first()[0][0] == 16


def test_render() -> None:
    g = sudoku.solve(ESCARGOT).first()
    picture = sudoku.render(g)
    assert picture.splitlines()[0] == "1 6 2 | 8 5 7 | 4 9 3"
    assert picture.splitlines()[3] == "------+-------+------"


@pytest.mark.parametrize(
    ("grid", "words"),
    [
        ("1" * 80, "square number of cells"),
        ("5" + "." * 15, "'5' is not a value of a 4x4"),
        ("11" + "." * 14, "clash: 1 at row 1, column 1 and at row 1, column 2 share a row"),
        ("1...1" + "." * 11, "share a column"),
        ("1....1" + "." * 10, "share a box"),
        ([[1, 2], [3]], "row 2 has 1 cells"),
        ([[0, 0], [0, 7]], "row 2, column 2: 7"),
    ],
)
def test_bad_grids_fail_at_the_call(grid: object, words: str) -> None:
    with pytest.raises(SudokuError, match=words):
        sudoku.solve(grid)  # type: ignore[arg-type]


def test_read_skips_counts_and_names_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "p.txt"
    good.write_text("2\n" + ESCARGOT + "\n\n# note\n" + "." * 16 + "\n")
    assert sudoku.read(good) == [ESCARGOT, "." * 16]
    bad = tmp_path / "bad.txt"
    bad.write_text(ESCARGOT + "\n" + ESCARGOT[:-1] + "\n")
    with pytest.raises(ParseError, match=r"bad.txt:2:81: .* has 80"):
        sudoku.read(bad)
    bad.write_text("1...X" + "." * 11 + "\n")
    with pytest.raises(ParseError, match=r":1:5: 'X' is not a value"):
        sudoku.read(bad)


def test_read_takes_grids_of_numbers(tmp_path: Path) -> None:
    path = tmp_path / "grids.txt"
    path.write_text(
        "# a grid, then a row alone\n1, 0, 3, 0\n0 0 0 0\n0,0,0,0\n0,2,-,4\n\n1 2 3 4\n"
    )
    with pytest.raises(ParseError, match=r"grids.txt:7:1: a grid of 1 rows of 4 numbers is not"):
        sudoku.read(path)
    path.write_text("1, 0, 3, 0\n0 0 0 0\n0,0,0,0\n0,2,.,4\n\n1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")
    assert sudoku.numbered_lines(path.read_text()) == [
        (1, "1.3..........2.4"),
        (6, "1234341221434321"),
    ]
    assert sudoku.solve(sudoku.read(path)[0]).count() == 1
    path.write_text("1,0,3,0\n0,0,0,0\n0,0,0,0\n0,2,5,4\n")
    with pytest.raises(ParseError, match=r":4:5: '5' is not a value of a 4x4 sudoku"):
        sudoku.read(path)
    path.write_text("1,0,3,0\n0,0,0,0\n0,00,0\n0,2,0,4\n")
    with pytest.raises(
        ParseError, match=r":3:7: this row has 3 numbers and the grid's first row 4"
    ):
        sudoku.read(path)


def test_a_sparse_25x25_sample_is_solved() -> None:
    folder = shared_file("data", "sudoku", "25x25_aisudokusolver")
    (puzzle,) = sudoku.read(folder / "25x25_sample1_grp2.txt")
    grid = sudoku.solve(puzzle).first()
    sudoku.verify(puzzle, grid)
    # This file lost a comma (``0,00,0``): a clear error, not a guess.
    with pytest.raises(ParseError, match=r"sample3_grp4.txt:3:60: this row has 24 numbers"):
        sudoku.read(folder / "25x25_sample3_grp4.txt")


@pytest.mark.parametrize("name", ["norvig/top95.txt", "norvig/hardest.txt"])
def test_published_puzzles_are_unique(name: str) -> None:
    puzzles = sudoku.read(shared_file("data", "sudoku", name))
    assert len(puzzles) in (95, 11)
    for p in puzzles:
        found = sudoku.solve(p).take(2)
        assert len(found) == 1, p
        sudoku.verify(p, found[0])


def test_seventeen_clue_puzzles_are_unique() -> None:
    puzzles = sudoku.read(shared_file("data", "sudoku", "royle17", "sudoku17_first1000.txt"))[:200]
    for p in puzzles:
        assert p.count("0") == 81 - 17
        found = sudoku.solve(p).take(2)
        assert len(found) == 1
        sudoku.verify(p, found[0])


def _janko(text: str) -> list[list[int]]:
    lines = text.strip().splitlines()[1:]
    return [[0 if t == "-" else int(t) for t in line.split()] for line in lines]


def test_janko_16x16_match_their_shipped_solutions() -> None:
    data = json.loads(shared_file("data", "sudoku", "janko16", "Sudoku_dataset.json").read_text())[
        "data"
    ]
    for key in sorted(data)[:40]:
        entry = data[key]
        grid = _janko(entry["problem"])
        found = sudoku.solve(grid).take(2)
        assert len(found) == 1, key
        assert [list(r) for r in found[0]] == _janko(entry["solution"]), key


# A 16x16 grid written with the values 0-F and '.' for blanks was read with '0' as a
# blank (so a unique puzzle had 2 solutions, silently). A grid that reads two ways is
# refused; symbols= says which alphabet it uses.
def _zero_based(grid: tuple[tuple[int, ...], ...]) -> str:
    """``grid`` written with 0-9, A-F for the values 1..16, its diagonal blank (one blank
    a row: a unique puzzle)."""
    alphabet = "0123456789ABCDEF"
    return "".join(
        "." if r == c else alphabet[v - 1] for r, row in enumerate(grid) for c, v in enumerate(row)
    )


def test_a_16x16_grid_with_0_to_f_and_dots_is_refused_or_read_as_said() -> None:
    full = sudoku.solve("." * 256).first()
    text = _zero_based(full)
    with pytest.raises(SudokuError, match=r"symbols='0123456789ABCDEF'"):
        sudoku.solve(text)
    found = sudoku.solve(text, symbols="0123456789ABCDEF").take(3)
    assert found == [full]
    sudoku.verify(sudoku.parse(text, symbols="0123456789ABCDEF"), found[0])


def test_the_usual_alphabet_still_reads_zero_as_a_blank() -> None:
    puzzle = "1.3.0........2.4"
    assert sudoku.solve(puzzle).count() == sudoku.solve(puzzle.replace("0", ".")).count()
    # A 16x16 grid holding 'G' is in the usual alphabet, so its '0's are blanks.
    full = sudoku.solve("." * 256).first()
    usual = "".join(sudoku.SYMBOLS[v - 1] for row in full for v in row)
    blanked = "0" + usual[1:8] + "." + usual[9:]
    assert sudoku.solve(blanked).take(2) == [full]


@pytest.mark.parametrize(
    ("symbols", "message"),
    [("0113", "4 different characters"), ("012345", "4 different"), ("0.12", "must not hold")],
)
def test_bad_symbols_are_refused(symbols: str, message: str) -> None:
    with pytest.raises(SudokuError, match=message):
        sudoku.solve("." * 16, symbols=symbols)


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (None, "a string of cells or a sequence of rows, got None"),
        (b"1234", "got b'1234'"),
        ([None] * 4, "row 1 must be a sequence of ints, got None"),
        ([[1, 2, 3, 4]] * 3 + ["1234"], "row 4 must be a sequence of ints, got '1234'"),
    ],
)
def test_a_grid_of_the_wrong_type_is_named(grid: object, message: str) -> None:
    with pytest.raises(SudokuError, match=message):
        sudoku.solve(grid)  # type: ignore[arg-type]
