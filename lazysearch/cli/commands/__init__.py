"""The subcommands, one module each: its arguments (``add_parser``), its cross-flag
rules (``RULES``) and its run (``run``), in the order ``lazysearch --help`` lists
them."""

from __future__ import annotations

from types import ModuleType

from . import dlx, generate, graph, kakuro, knights, langford, pentomino, polycube, queens, sudoku

COMMANDS: tuple[ModuleType, ...] = (
    dlx,
    queens,
    sudoku,
    langford,
    pentomino,
    polycube,
    knights,
    graph,
    kakuro,
    generate,
)
