"""janko.at collections: the sudoku reader takes the JSON the kakuro reader takes, with
its size headers; a reader asked for one puzzle names the file, not its first puzzle."""

from __future__ import annotations

import json

import pytest

from lazysearch import kakuro, sudoku
from lazysearch.cli import main
from lazysearch.errors import ParseError

from .helpers import shared_file

SMALL = {
    "count": 2,
    "data": {
        "1_4x4": {"problem": "4 4\n1 - - -\n- - 1 -\n- 1 - -\n- - - 1", "solution": ""},
        "2_4x4": {"problem": "4 4\n1 2 3 4\n3 4 1 2\n2 1 4 3\n- - - -", "solution": ""},
    },
}


def test_a_size_header_is_read_as_one() -> None:
    assert sudoku.loads("4 4\n1 - - -\n- - - -\n- - - -\n- - - 4") == ["1..............4"]
    with pytest.raises(ParseError, match=r"<text>:1:1: the size header says 16x16, and 4 rows"):
        sudoku.loads("16 16\n1 - - -\n- - - -\n- - - -\n- - - 4")


def test_a_janko_collection_reads_as_its_puzzles(tmp_path: object) -> None:
    text = json.dumps(SMALL, indent=1)
    assert sudoku.loads(text) == ["1.....1..1.....1", "123434122143...."]
    assert sudoku.numbered_lines(text)[1][0] == text.splitlines().index('  "2_4x4": {') + 1
    assert sudoku.solve(sudoku.loads(text)[1]).count() == 1


def test_the_janko_dataset_solves_to_its_shipped_solutions() -> None:
    path = shared_file("data", "sudoku", "janko16", "Sudoku_dataset.json")
    puzzles = sudoku.read(path)
    data = json.loads(path.read_text())["data"]
    assert len(puzzles) == len(data) == 125
    for puzzle, entry in list(zip(puzzles, data.values(), strict=True))[:12]:
        (solution,) = sudoku.loads(entry["solution"])
        found = sudoku.solve(puzzle).first()
        sudoku.verify(puzzle, found)
        assert found == tuple(map(tuple, sudoku.parse(solution)))


def test_the_cli_reads_the_janko_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_file("data", "sudoku", "janko16", "Sudoku_dataset.json")
    assert main(["sudoku", str(path), "--count", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 125 and out[0] == "puzzle 1: 1" and out[-1] == "puzzle 125: 1"


def test_kakuro_read_names_the_file_of_a_collection() -> None:
    path = shared_file("data", "kakuro", "janko", "Kakuro_dataset.json")
    with pytest.raises(kakuro.KakuroError, match=r"Kakuro_dataset\.json holds 999 puzzles"):
        kakuro.read(path)
    with pytest.raises(kakuro.KakuroError, match=r"^the text holds"):
        kakuro.read('{"data": {}}')
