"""Puzzles built on the exact-cover engine."""

from . import polyomino
from .langford import langford, langford_problem
from .queens import queens, queens_problem

__all__ = ["langford", "langford_problem", "polyomino", "queens", "queens_problem"]
