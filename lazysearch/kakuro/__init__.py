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

from .formats import FORMATS, detect, loads, read, read_all, write_grid, write_json
from .puzzle import ACROSS, DOWN, Cell, KakuroError, KakuroParseError, Puzzle, Run, sum_range
from .solver import Filling, KakuroProblem, problem, solve, verify

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
    "loads",
    "problem",
    "read",
    "read_all",
    "solve",
    "sum_range",
    "verify",
    "write_grid",
    "write_json",
]
