"""Puzzles built on the exact-cover engine.

``polyomino`` and ``sudoku`` are submodules (``from lazysearch.puzzles import sudoku``);
``queens`` and ``langford`` are functions.
"""

from .langford import langford, langford_problem
from .queens import queens, queens_problem

__all__ = ["langford", "langford_problem", "queens", "queens_problem"]
