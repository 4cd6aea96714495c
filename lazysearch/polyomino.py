"""``lazysearch.polyomino``: tilings by polyforms, importable by this short name.

``import lazysearch.polyomino`` and ``from lazysearch.polyomino import tile`` give the
module :mod:`lazysearch.puzzles.polyomino` itself (this file puts it in its own place in
``sys.modules``), so both names are one module.
"""

import sys

from .puzzles import polyomino as _family
from .puzzles.polyomino import *  # noqa: F403  (for type checkers: the names it has)

sys.modules[__name__] = _family
