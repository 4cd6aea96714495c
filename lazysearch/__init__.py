"""lazysearch: combinatorial search that streams its solutions lazily.

>>> import lazysearch
>>> lazysearch.queens(8).count()
92
>>> lazysearch.exact_cover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"]).one()
(0, 3, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _native
from .errors import (
    CheckpointError,
    DuplicateItemError,
    EmptyOptionError,
    ExactCoverError,
    InvalidSolutionError,
    ItemConflictError,
    LazysearchError,
    NoPrimaryItemError,
    NotExactlyOneError,
    ParseError,
    UnknownItemError,
)
from .exactcover.problem import Colour, ExactCover, exact_cover
from .puzzles.langford import langford
from .puzzles.queens import queens
from .search import Estimate, Search, Stats
from .stream import Solutions

if TYPE_CHECKING:
    # Type checkers see the lazy submodules as plain imports; at run time they are
    # imported on first use (see _lazy_module), so ``import lazysearch`` stays fast.
    from types import ModuleType

    from . import kakuro, knights
    from .puzzles import polyomino, sudoku

__version__ = "0.1.0"

_ENGINES = (
    "lazysearch.exactcover._bits",
    "lazysearch.exactcover._cells",
    "lazysearch.exactcover._dlx",
    "lazysearch.exactcover._machine",
    "lazysearch.exactcover._mcc",
    "lazysearch.exactcover._memo",
    "lazysearch.kakuro._cdcl",
    "lazysearch.kakuro._engine",
    "lazysearch.knights._count",
    "lazysearch.knights._join",
    "lazysearch.knights._openjoin",
    "lazysearch.knights._order",
    "lazysearch.knights._table",
    "lazysearch.knights._tour",
    "lazysearch.puzzles._tiling",
    "lazysearch.puzzles._units",
)
_LAZY_MODULES = {
    "kakuro": "lazysearch.kakuro",
    "knights": "lazysearch.knights",
    "polyomino": "lazysearch.puzzles.polyomino",
    "sudoku": "lazysearch.puzzles.sudoku",
}


def _lazy_module(name: str) -> ModuleType:
    """``lazysearch.sudoku``, ``polyomino``, ``kakuro`` and ``knights``, imported on
    first use so that ``import lazysearch`` stays fast."""
    if name in _LAZY_MODULES:
        import importlib

        module = importlib.import_module(_LAZY_MODULES[name])
        globals()[name] = module
        return module
    raise AttributeError(f"module 'lazysearch' has no attribute {name!r}")


if not TYPE_CHECKING:
    # Hidden from type checkers, which see the real imports above: a module
    # ``__getattr__`` would make every misspelt name type-check as its return type.
    __getattr__ = _lazy_module


def compiled() -> bool:
    """True when the compiled (C) engines are running, False for plain Python.

    Set ``LAZYSEARCH_PURE=1`` in the environment to run the plain-Python engines even
    where the compiled ones are installed.
    """
    for name in _ENGINES:
        _native.load(name)
    return _native.compiled()


__all__ = [
    "CheckpointError",
    "Colour",
    "DuplicateItemError",
    "EmptyOptionError",
    "Estimate",
    "ExactCover",
    "ExactCoverError",
    "InvalidSolutionError",
    "ItemConflictError",
    "LazysearchError",
    "NoPrimaryItemError",
    "NotExactlyOneError",
    "ParseError",
    "Search",
    "Solutions",
    "Stats",
    "UnknownItemError",
    "compiled",
    "exact_cover",
    "kakuro",
    "knights",
    "langford",
    "polyomino",
    "queens",
    "sudoku",
]
