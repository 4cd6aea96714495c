"""``lazysearch generate``: puzzles the solver commands read back, seeds, formats, and
bad arguments in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazysearch import kakuro, sudoku
from lazysearch.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_sudoku_batches_are_lines_the_sudoku_reader_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(["generate", "sudoku", "--number", "3", "--seed", "1"], capsys)
    assert status == 0
    puzzles = sudoku.loads(out)
    assert puzzles == [str(sudoku.generate(seed=s)) for s in (1, 2, 3)]
    assert out.startswith("# seed 1: ")
    assert all(len(sudoku.solve(p).take(2)) == 1 for p in puzzles)


def test_sudoku_json_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        ["generate", "sudoku", "--box", "2x3", "--format", "json", "--seed", "4"], capsys
    )
    data = json.loads(out)
    assert status == 0 and data == sudoku.generate((2, 3), seed=4).json()
    status, out, _ = run(["generate", "sudoku", "--format", "svg", "--seed", "4"], capsys)
    assert status == 0 and out.startswith("<svg") and out == sudoku.generate(seed=4).svg()


def test_sudoku_json_lines_read_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'lazysearch sudoku' reads the JSON lines back, each with its box (3x2 here: a 6x6
    grid whose default box is 2x3)."""
    path = tmp_path / "s.json"
    argv = ["generate", "sudoku", "--box", "3x2", "--number", "2", "--seed", "3", "--format"]
    status, _, _ = run([*argv, "json", "-o", str(path)], capsys)
    assert status == 0
    status, out, err = run(["sudoku", str(path), "--format", "json"], capsys)
    assert status == 0, err
    grids = [json.loads(line)["grid"] for line in out.splitlines()]
    expected = [sudoku.generate((3, 2), seed=s).solution for s in (3, 4)]
    assert grids == [[list(row) for row in grid] for grid in expected]
    path.write_text('{"puzzle": 5}\n')
    status, out, err = run(["sudoku", str(path)], capsys)
    assert status == 2 and err.count("\n") == 1 and "s.json:1:" in err and "'puzzle'" in err


def test_kakuro_writes_the_grid_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "k.txt"
    status, _, err = run(["generate", "kakuro", "9x10", "--seed", "2", "-o", str(path)], capsys)
    assert status == 0 and "seed 2:" in err
    expected = kakuro.generate(9, 10, seed=2)
    assert kakuro.read(path) == expected
    status, out, _ = run(["generate", "kakuro", "9x10", "--seed", "2", "--format", "json"], capsys)
    data = json.loads(out)
    assert data["seed"] == 2 and data["rating"]["nodes"] == expected.rating.nodes
    assert data["solution"] == expected.solution.grid()
    assert kakuro.loads(out) == [expected]


def test_kakuro_json_batches_read_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Several kakuro in JSON are one array, which the kakuro reader and command take."""
    path = tmp_path / "k.json"
    argv = ["generate", "kakuro", "7x8", "--number", "3", "--seed", "5", "--format", "json"]
    status, _, _ = run([*argv, "-o", str(path)], capsys)
    assert status == 0
    text = path.read_text()
    assert text.startswith("[") and text.count("\n") == 4  # a puzzle a line, then ']'
    expected = [kakuro.generate(7, 8, seed=s) for s in (5, 6, 7)]
    assert kakuro.read_all(path) == expected
    status, out, err = run(["kakuro", str(path), "--count"], capsys)
    assert status == 0, err
    assert [line.split()[-1] for line in out.splitlines()] == ["1", "1", "1"]


def test_a_progress_bar_over_a_batch(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        ["generate", "sudoku", "--box", "2x2", "--number", "4", "--seed", "1", "--progress"], capsys
    )
    assert status == 0 and len(sudoku.loads(out)) == 4
    assert "lazysearch generate sudoku: " in err and "%" in err  # tqdm redraws when it likes


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generate", "sudoku", "--box", "6x6"], "36x36"),
        (["generate", "sudoku", "--density", "0.5"], "generate sudoku takes no --density"),
        (["generate", "kakuro", "--box", "3x3"], "generate kakuro takes no --box"),
        (["generate", "sudoku", "9x9"], "generate sudoku takes no size"),
        (["generate", "kakuro", "15x15", "--density", "1"], "density 1.0"),
        (["generate", "kakuro", "2x9"], "2 x 9"),
        (["generate", "sudoku", "--number", "2", "--format", "svg"], "--number 2"),
    ],
)
def test_bad_arguments_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_time_limit_keeps_the_puzzles_made_and_says_how_to_go_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from lazysearch.cli import EXIT_BUDGET

    whole = tmp_path / "whole.txt"
    first = tmp_path / "first.txt"
    rest = tmp_path / "rest.txt"
    base = ["generate", "sudoku", "--box", "2x2", "-q"]
    assert run([*base, "--seed", "1", "--number", "3", "-o", str(whole)], capsys)[0] == 0
    # A limit already spent after the first puzzle: one made, kept, and the way on.
    status, _, err = run(
        [*base, "--seed", "1", "--number", "3", "--time-limit", "1e-9", "-o", str(first)], capsys
    )
    assert status == EXIT_BUDGET and err.count("\n") == 1
    assert "reached after 1 of 3 puzzles; go on with --seed 2 --number 2" in err
    assert run([*base, "--seed", "2", "--number", "2", "-o", str(rest)], capsys)[0] == 0
    assert first.read_text() + rest.read_text() == whole.read_text()
