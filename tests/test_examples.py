"""Every script in examples/ runs and says what it should."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_first_covers() -> None:
    out = run("first_covers.py")
    assert "tilings left after those: 3" in out and "all tilings: 5" in out


def test_resume_and_split() -> None:
    out = run("resume_and_split.py")
    assert "724 in all" in out and "in parallel: 724" in out


def test_knuth_file_through_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lazysearch", "dlx", str(EXAMPLES / "knuth.dlx"), "-q"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "1:\n c e f\n a d\n b g\n"


def test_knights_tours() -> None:
    out = run("knights_tours.py")
    assert "all directed open tours of 5x5: 1728" in out
    assert "closed tours of 6x6, each cycle once: 9862" in out
    assert "250000 squares, verified" in out


def test_kakuro_puzzles() -> None:
    out = run("kakuro_puzzles.py")
    assert "solutions: 1" in out
    assert "row 2: [8, 4, 9, 2]" in out
    assert "count: 1" in out


def test_puzzles() -> None:
    out = run("puzzles.py")
    assert "solutions (at most 2 asked): 2" in out
    assert "3x20 tilings: 8" in out and "3x20 up to symmetry: 2" in out
    assert "Langford pairs of 7, each pair of reversals once: 26" in out


def test_graph_pictures(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "graph_pictures.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "graphs-grid-cycle.svg: 100 cells" in done.stdout
    assert "graphs-knight-holes.svg: 56 cells" in done.stdout
    for name in ("graphs-grid-cycle.svg", "graphs-knight-holes.svg"):
        assert (tmp_path / name).read_text() == (EXAMPLES.parent / "docs" / name).read_text()
