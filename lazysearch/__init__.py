"""lazysearch: combinatorial search that streams its solutions lazily.

>>> import lazysearch
>>> lazysearch.queens(8).count()
92
>>> lazysearch.exact_cover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"]).one()
(0, 3, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import capabilities
from .engine import _native
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

    from . import graphs, kakuro, knights
    from .puzzles import polyomino, sudoku

#: The version: its one source (pyproject.toml reads it; CHANGELOG.md says what it holds).
__version__ = "0.2.0"

_LAZY_MODULES = {
    "graphs": "lazysearch.graphs",
    "kakuro": "lazysearch.kakuro",
    "knights": "lazysearch.knights",
    "polyomino": "lazysearch.puzzles.polyomino",
    "sudoku": "lazysearch.puzzles.sudoku",
}


def _lazy_module(name: str) -> ModuleType:
    """``lazysearch.sudoku``, ``polyomino``, ``kakuro``, ``knights`` and ``graphs``, imported on
    first use so that ``import lazysearch`` stays fast."""
    if name in _LAZY_MODULES:
        import importlib

        module = importlib.import_module(_LAZY_MODULES[name])
        globals()[name] = module
        return module
    raise AttributeError(f"module 'lazysearch' has no attribute {name!r}")


def _memo_counting() -> ModuleType:
    """Counting by memo, diagrams and samples: every problem's, unless it offers its own
    (those without an exact cover behind them refuse them, saying so)."""
    from .exactcover import memo

    return memo


def _parallel() -> ModuleType:
    """Counting and listing in other processes: every problem's."""
    from . import parallel

    return parallel


capabilities.provide("counting", _memo_counting)
capabilities.provide("parallel", _parallel)

if not TYPE_CHECKING:
    # Hidden from type checkers, which see the real imports above: a module
    # ``__getattr__`` would make every misspelt name type-check as its return type.
    __getattr__ = _lazy_module


def __dir__() -> list[str]:
    """The public names, the lazy submodules among them (not this module's helpers)."""
    return sorted([*__all__, "__version__"])


def compiled() -> bool:
    """True when the compiled (C) engines are running, False for plain Python.

    Set ``LAZYSEARCH_PURE=1`` in the environment to run the plain-Python engines even
    where the compiled ones are installed.
    """
    from .engine import registry  # imported here, so that it is not a name of the package

    loaded = [_native.load(name) for name in registry.ENGINES]  # each may warn, once
    return all(getattr(module, "COMPILED", False) for module in loaded)


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
    "graphs",
    "kakuro",
    "knights",
    "langford",
    "polyomino",
    "queens",
    "sudoku",
]
