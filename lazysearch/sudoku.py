"""``lazysearch.sudoku``: the sudoku family, importable by this short name.

``import lazysearch.sudoku`` and ``from lazysearch.sudoku import solve`` give the module
:mod:`lazysearch.puzzles.sudoku` itself (this file puts it in its own place in
``sys.modules``), so both names are one module.
"""

import sys

from .puzzles import sudoku as _family
from .puzzles.sudoku import *  # noqa: F403  (for type checkers: the names it has)

sys.modules[__name__] = _family
