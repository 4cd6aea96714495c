"""The command line as a newcomer meets it: a drawn board for the tilings, suggestions
that are not the flags already given, generate's --number, and help for a bare
command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lazysearch.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


def status_of(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own
        return int(exc.code or 0)


def test_pentomino_tiles_a_board_drawn_in_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    # Dana Scott's board, 8x8 minus its centre: 65 tilings up to its symmetries (1958).
    scott = str(EXAMPLES / "scott-board.txt")
    assert main(["pentomino", "--board", scott, "--count", "--distinct", "-q"]) == 0
    assert capsys.readouterr().out == "65\n"
    assert main(["pentomino", "--board", scott, "--nth", "1", "-q"]) == 0
    picture = capsys.readouterr().out.splitlines()[1:]
    assert [row[3:5] for row in picture[3:5]] == ["..", ".."] and len(picture) == 8


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["pentomino", "6x10", "--board", "b.txt"], "as ROWSxCOLS or as --board FILE"),
        (["pentomino"], "as ROWSxCOLS or as --board FILE"),
        (["pentomino", "--board", "/no/such/board"], "cannot read /no/such/board"),
    ],
)
def test_pentomino_board_errors(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert status_of(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_board_of_the_wrong_area_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = tmp_path / "small.txt"
    small.write_text("###\n#.#\n###\n")
    assert main(["pentomino", "--board", str(small)]) == 2
    assert f"and {small} has 8" in capsys.readouterr().err


def test_a_suggestion_is_never_a_flag_already_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert status_of(["queens", "8", "--count", "--one"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --one" in err and "did you mean --count" not in err


@pytest.mark.parametrize(
    ("size", "box"), [("9x9", "--box 3x3"), ("16x16", "--box 4x4"), ("7x5", "--box RxC")]
)
def test_generate_sudoku_with_a_size_points_to_box(
    size: str, box: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate", "sudoku", size]) == 2
    assert box in capsys.readouterr().err


def test_generate_number_and_its_old_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "sudoku", "--box", "2x2", "--number", "2", "--seed", "1"]) == 0
    made, err = capsys.readouterr()
    assert made.count("# seed") == 2 and "warning" not in err
    assert main(["generate", "sudoku", "--box", "2x2", "--count", "2", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert out == made
    assert "lazysearch generate: warning: --count N is now --number N" in err
    assert main(["generate", "sudoku", "--count", "2", "--number", "2"]) == 2
    assert "give --number N alone" in capsys.readouterr().err


def test_a_bare_command_prints_the_help_with_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lazysearch"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: lazysearch") and "COMMAND" in done.stderr
    said = " ".join(done.stderr.split())
    assert "Without a COMMAND, this help goes to stderr with status 2." in said
