"""The command line: output on stdout, statistics on stderr, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lazysearch.cli import main

from .test_knuth import KNUTH_TEXT


@pytest.fixture
def knuth_file(tmp_path: Path) -> Path:
    path = tmp_path / "knuth.dlx"
    path.write_text(KNUTH_TEXT)
    return path


def test_dlx_prints_solutions_and_stats(
    knuth_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dlx", str(knuth_file)]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n c e\n a d f\n b g\n"
    assert err.startswith("1 solution, ")


def test_dlx_json(knuth_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dlx", str(knuth_file), "--format", "json", "-q"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {
        "solution": 1,
        "options": [0, 3, 4],
        "rows": [["c", "e"], ["a", "d", "f"], ["b", "g"]],
    }
    assert err == ""


def test_count_limit_every(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--count"]) == 0
    assert capsys.readouterr().out == "92\n"
    assert main(["queens", "8", "--count", "--limit", "10"]) == 0
    assert capsys.readouterr().out == "10\n"
    assert main(["langford", "7", "--limit", "9", "--every", "4", "-q"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["langford", "8", "--count", "--workers", "2", "-q"]) == 0
    assert capsys.readouterr().out == "150\n"


def test_a_bad_file_is_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na q\n")
    assert main(["dlx", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"lazysearch dlx: error: {bad}:2:3: unknown item 'q'\n"
    assert main(["dlx", str(tmp_path / "missing.dlx")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_arguments_exit_two(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["queens", "-3"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "expected a number >= 1" in err and err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["sudokuu"])
    err = capsys.readouterr().err
    assert err.startswith("lazysearch: error: ") and err.count("\n") == 1


def test_python_dash_m_reads_stdin() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "lazysearch", "dlx", "-", "--count"],
        input=KNUTH_TEXT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stdout) == (0, "1\n")
    bad = subprocess.run(
        [sys.executable, "-m", "lazysearch", "dlx", "-"],
        input="a\nb\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr == "lazysearch dlx: error: <stdin>:2:1: unknown item 'b'\n"


def test_sudoku_from_a_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("2\n1.3..........2.4\n" + "." * 16 + "\n")
    assert main(["sudoku", str(puzzles), "--count", "-q"]) == 0
    assert capsys.readouterr().out == "puzzle 1: 1\npuzzle 2: 288\n"
    assert main(["sudoku", str(puzzles), "--limit", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("puzzle 1, solution 1:\n1 4 | 3 2\n")
    assert "puzzle 2, solution 1:" in out


def test_sudoku_errors_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("1.3..........2.4\n11..............\n")
    assert main(["sudoku", str(puzzles), "-q"]) == 2
    err = capsys.readouterr().err
    clash = "the givens clash: 1 at row 1, column 1 and at row 1, column 2 share a row"
    assert err == f"lazysearch sudoku: error: {puzzles}:2: {clash}\n"
