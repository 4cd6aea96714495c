"""SVG pictures of tilings and sudoku grids: golden files, and the facts in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lazysearch import polyomino, sudoku
from lazysearch.cli import main

from .test_sudoku import ESCARGOT

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str, text: str) -> None:
    """Compare ``text`` with the golden file ``name`` (written on the first run only)."""
    path = GOLDEN / name
    if not path.exists():  # pragma: no cover - written once, then compared
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()


def test_tiling_svg() -> None:
    tiling = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES).first()
    svg = tiling.svg()
    golden("tiling-3x20.svg", svg)
    # One coloured path and one label per piece, each label the piece's name.
    assert svg.count("<title>") == 1 + 12
    labels = re.findall(r">([A-Z])</text>", svg)
    assert sorted(labels) == sorted(name for name, _ in tiling.pieces)
    # Every cell is drawn once, in its piece's path.
    cells = re.findall(r"M(\d+) (\d+)h1v1h-1z", svg)
    assert len(cells) == 60 and len(set(cells)) == 60


def test_tiling_borders_follow_the_pieces() -> None:
    """A border segment lies between two cells exactly when different pieces hold them."""
    tiling = polyomino.tile(polyomino.rectangle(6, 10), polyomino.PENTOMINOES).first()
    svg = tiling.svg()
    owner = {cell: name for name, cells in tiling.pieces for cell in cells}
    border = re.search(r'<path d="([^"]*)" stroke="#222"', svg)
    assert border is not None
    horizontal = set(re.findall(r"M(\d+) (\d+)h1", border.group(1)))
    for r in range(7):
        for c in range(10):
            differs = owner.get((r - 1, c)) != owner.get((r, c))
            assert ((str(c), str(r)) in horizontal) == differs


def test_sudoku_svg_marks_the_givens() -> None:
    solution = sudoku.solve(ESCARGOT).one()
    svg = sudoku.svg(solution, puzzle=ESCARGOT)
    golden("sudoku-escargot.svg", svg)
    givens = sum(ch != "." for ch in ESCARGOT)
    assert svg.count('fill="#000" text-anchor') == givens
    assert svg.count('fill="#1f3a93" text-anchor') == 81 - givens


def test_sudoku_svg_of_16x16_uses_letters() -> None:
    grid = sudoku.solve("." * 256).first()
    svg = sudoku.svg(grid)
    assert ">G</text>" in svg and ">10</text>" not in svg


def test_cli_pentomino(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pentomino", "3x20", "--count", "--distinct", "-q"]) == 0
    assert capsys.readouterr().out == "2\n"
    assert main(["pentomino", "3x20", "--format", "svg", "--limit", "1", "-q"]) == 0
    assert capsys.readouterr().out.startswith("<svg")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["pentomino", "6x11"], "cover 60 cells, and a 6x11 board has 66"),
        (["pentomino", "6-10"], "expected a board size as ROWSxCOLS"),
        (["pentomino", "3x20", "--format", "svg", "--limit", "2"], "draws one solution"),
    ],
)
def test_cli_pentomino_errors(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_cli_sudoku_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = tmp_path / "one.txt"
    one.write_text(ESCARGOT + "\n")
    assert main(["sudoku", str(one), "--format", "svg", "--limit", "1", "-q"]) == 0
    assert capsys.readouterr().out == sudoku.svg(sudoku.solve(ESCARGOT).one(), puzzle=ESCARGOT)
    two = tmp_path / "two.txt"
    two.write_text(ESCARGOT + "\n" + ESCARGOT + "\n")
    assert main(["sudoku", str(two), "--format", "svg", "--limit", "1"]) == 2
    assert "has 2 puzzles" in capsys.readouterr().err
