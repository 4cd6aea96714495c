"""The package's types as a user's type checker sees them: ``mypy --strict`` on small
scripts that use the public API, against lazysearch as installed."""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import lazysearch

pytest.importorskip("mypy")

# A user's script: lazily imported modules, first/nth with defaults, a few solvers.
# reveal_type notes say what mypy inferred, so the test sees types, not Any.
GOOD = """
from lazysearch import Solutions, exact_cover, kakuro, knights, polyomino, queens, sudoku

grid = sudoku.solve("1.3." "...." "...." ".2.4").first()
row: tuple[int, ...] = grid[0]
picture: str = grid.svg()
reveal_type(grid)

tiling = polyomino.tile(polyomino.rectangle(2, 5), polyomino.PENTOMINOES).first(None)
reveal_type(tiling)
if tiling is not None:
    print(tiling.grid()[0][0])

tour: knights.Tour = knights.tour(5)
closed: bool = tour.closed
filling = kakuro.solve(kakuro.read("puzzle.kak")).nth(0, "none")
reveal_type(filling)

stream: Solutions[tuple[int, ...]] = queens(8)
n: int = stream.count()
missing = exact_cover(["a b", "a"]).nth(3)
reveal_type(missing)
"""

# The same kind of script with real mistakes, which mypy must catch.
BAD = """
import lazysearch
from lazysearch import queens, sudoku

grid = sudoku.solve("." * 16).first()
grid.solvee()
maybe = queens(8).first(None)
print(maybe[0])
n: str = queens(8).count()
sudoku.solve(81)
lazysearch.sudokku.solve("." * 16)
"""


def run_mypy(tmp_path: Path, script: str) -> list[str]:
    """mypy --strict on ``script`` in a fresh directory; its output lines."""
    (tmp_path / "user.py").write_text(textwrap.dedent(script), encoding="utf-8")
    # No config of the project's applies to a user; the package's own modules are
    # checked with its own settings by CI, so only the user's script may complain here
    # (as for any installed package, whose errors mypy does not report).
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\n\n[mypy-lazysearch.*]\nignore_errors = True\n", encoding="utf-8"
    )
    env = dict(os.environ)
    root = Path(lazysearch.__file__).resolve().parent.parent
    site_dirs = {Path(d).resolve() for d in [*site.getsitepackages(), site.getusersitepackages()]}
    if root not in site_dirs:
        # An editable install (an import hook mypy cannot follow): point at the source.
        env["MYPYPATH"] = str(root)
    cache = tmp_path.parent / "mypy-cache"  # shared by the tests of one session
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            str(tmp_path / "mypy.ini"),
            "--cache-dir",
            str(cache),
            "--python-executable",
            sys.executable,
            "--no-error-summary",
            "--hide-error-context",
            "--show-error-codes",
            "user.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.stderr.strip():
        pytest.fail(f"mypy did not run: {done.stderr}")
    return done.stdout.splitlines()


def test_a_user_script_passes_mypy_strict_with_the_real_types(tmp_path: Path) -> None:
    lines = run_mypy(tmp_path, GOOD)
    errors = [line for line in lines if ": error:" in line]
    assert errors == []
    # (mypy versions differ in writing builtins' module name)
    revealed = [
        re.sub(r".*Revealed type is ", "", line).replace("builtins.", "")
        for line in lines
        if "Revealed" in line
    ]
    assert len(revealed) == 4, lines
    assert revealed[0] == '"lazysearch.puzzles.sudoku_grid.SolvedGrid"'
    # a NamedTuple is shown with its fields, then "fallback=" its class
    assert "lazysearch.puzzles.polyomino.Tiling]" in revealed[1]
    assert revealed[1].endswith(' | None"')
    assert revealed[2] == '"lazysearch.kakuro.solver.Filling | str"'
    assert revealed[3] == '"tuple[int, ...] | None"'


def test_mypy_catches_the_mistakes_in_a_user_script(tmp_path: Path) -> None:
    lines = run_mypy(tmp_path, BAD)
    errors = [line.split(": error: ")[1] for line in lines if ": error:" in line]
    assert len(errors) == 5, lines
    assert '"solvee"' in errors[0] and "[attr-defined]" in errors[0]
    assert "None" in errors[1] and "[index]" in errors[1]  # first(None) may be None
    assert '"int"' in errors[2] and "[assignment]" in errors[2]
    assert '"solve"' in errors[3] and "[arg-type]" in errors[3]
    assert '"sudokku"' in errors[4] and "[attr-defined]" in errors[4]  # no catch-all


def test_the_modules_type_checkers_see_are_still_imported_on_first_use() -> None:
    code = (
        "import sys, lazysearch\n"
        "print(sorted(m for m in sys.modules if m.endswith(('sudoku', 'polyomino', "
        "'knights', 'kakuro'))))\n"
        "from lazysearch import sudoku\n"
        "print(sudoku.__name__, lazysearch.kakuro.__name__)\n"
        "try:\n"
        "    lazysearch.sudokku\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines() == [
        "[]",
        "lazysearch.puzzles.sudoku lazysearch.kakuro",
        "module 'lazysearch' has no attribute 'sudokku'",
    ]
