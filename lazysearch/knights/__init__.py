"""Knight's tours: every tour of a board as a lazy stream, exact counts, and one tour of
a board of millions of squares.

>>> from lazysearch import knights
>>> knights.count_closed(6)
9862
>>> len(knights.tour(100))
10000
"""

from __future__ import annotations

from .solver import (
    MOVES,
    KnightsError,
    KnightsProblem,
    NoTourError,
    Square,
    Tour,
    count_closed,
    count_tours,
    cycles,
    no_tour_reason,
    sample,
    start_orbits,
    tour,
    tours,
    verify,
)

__all__ = [
    "MOVES",
    "KnightsError",
    "KnightsProblem",
    "NoTourError",
    "Square",
    "Tour",
    "count_closed",
    "count_tours",
    "cycles",
    "no_tour_reason",
    "sample",
    "start_orbits",
    "tour",
    "tours",
    "verify",
]
