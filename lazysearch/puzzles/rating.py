"""How hard a generated puzzle is: the search tree that proves it has one solution.

Sudoku, its variants and kakuro are rated on one scale (:class:`Rating`): the nodes of
the tree an engine walks to prove the puzzle has exactly one solution, and the dead ends
met on the way.  :func:`walk` counts them on an engine of the run machine (the kakuro
engine, which both the kakuro and the killer sudoku generators use).

>>> rating(1, 0)
Rating(score=0.0, level='easy', nodes=1, dead_ends=0, complete=True)
>>> rating(40, 12).level
'fiendish'
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ..engine.states import DONE


class Rating(NamedTuple):
    """How much search a puzzle needs once propagation has done what it can.

    ``nodes`` counts the nodes of the search tree that proves the puzzle has exactly one
    solution (the root included) and ``dead_ends`` the nodes where propagation failed
    (None when they were not counted).  ``score`` is ``log2(nodes)``, rounded
    to two places: 0 when propagation alone solves the puzzle, one more for every
    doubling of the tree.  ``level`` names a band of the score (see :func:`level`).
    ``complete`` is False when the proof was cut off at a node bound: ``nodes`` and
    ``score`` are then lower bounds.
    """

    score: float
    level: str
    nodes: int
    dead_ends: int | None
    complete: bool = True


#: The bands of the score, as (highest score, name): docs/generate.md explains them.
LEVELS = ((0.0, "easy"), (2.0, "medium"), (5.0, "hard"), (math.inf, "fiendish"))


def level(score: float) -> str:
    """The name of the band ``score`` falls in: ``easy`` (0: propagation alone),
    ``medium`` (up to 2: a tree of at most four nodes), ``hard`` (up to 5: 32 nodes),
    ``fiendish`` (more)."""
    return next(name for top, name in LEVELS if score <= top)


def rating(nodes: int, dead_ends: int | None, complete: bool = True) -> Rating:
    """The :class:`Rating` of a proof tree of ``nodes`` nodes."""
    score = round(math.log2(max(nodes, 1)), 2)
    return Rating(score, level(score), nodes, dead_ends, complete)


def walk(engine: Any, limit: int, bound: int = 0) -> tuple[int, int]:
    """Walk ``engine``'s tree a node at a time until ``limit`` fillings are found or the
    tree ends: the fillings found and the dead ends met (nodes where propagation failed).
    With ``bound``, the walk stops before its ``bound``-th node, and the fillings found
    are then -1.

    The engine does not count dead ends, but it says its ``level``: a node entered at
    level L with children leaves the walk at L + 1; a leaf (a filling or a dead end)
    leaves it at L or above.  So a one-node step that does not go deeper and finds no
    filling entered a dead end.  Notes: one call into the engine a node.
    """
    found = dead_ends = 0
    done = engine.state == DONE
    while not done and found < limit:
        if bound and engine.nodes >= bound:
            return -1, dead_ends
        level, solutions = engine.level, engine.solutions
        engine.run(0, 1)
        done = engine.state == DONE
        if engine.solutions > solutions:
            found += engine.solutions - solutions
        elif done or engine.level <= level:
            dead_ends += 1
    return found, dead_ends
