"""Kakuro: read puzzles in the formats they come in, solve them lazily, write them back.

>>> from lazysearch import kakuro
>>> puzzle = kakuro.read('''
... \\\\   4\\\\  6\\\\
... \\\\3   _    _
... \\\\7   _    _
... ''')
>>> print(kakuro.solve(puzzle).one())
\\  4\\  6\\
\\3   1   2
\\7   3   4
<BLANKLINE>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .formats import FORMATS, detect, loads, read, read_all, write_grid, write_json
from .puzzle import ACROSS, DOWN, Cell, KakuroError, KakuroParseError, Puzzle, Run, sum_range
from .solver import Filling, KakuroProblem, problem, solve, verify

if TYPE_CHECKING:
    from ..puzzles.rating import Rating
    from .generator import GeneratedKakuro


def generate(
    rows: int, cols: int, *, seed: int | None = None, density: float = 0.6
) -> GeneratedKakuro:
    """A random kakuro with exactly one filling, rated; see :mod:`.generator`."""
    from .generator import generate as _generate

    return _generate(rows, cols, seed=seed, density=density)


def rate(puzzle: Puzzle) -> Rating:
    """How much search a kakuro with one filling needs; see :func:`.generator.rate`."""
    from .generator import rate as _rate

    return _rate(puzzle)


__all__ = [
    "ACROSS",
    "DOWN",
    "FORMATS",
    "Cell",
    "Filling",
    "KakuroError",
    "KakuroParseError",
    "KakuroProblem",
    "Puzzle",
    "Run",
    "detect",
    "generate",
    "loads",
    "problem",
    "rate",
    "read",
    "read_all",
    "solve",
    "sum_range",
    "verify",
    "write_grid",
    "write_json",
]
