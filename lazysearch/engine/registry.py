"""The compiled modules of lazysearch, listed once.

``setup.py`` compiles what is listed here (reading this file without importing the
package: keep it plain data, importing nothing); :func:`lazysearch.compiled`, the warning
when an engine runs as plain Python, ``lazysearch --version`` and the loader
(:mod:`lazysearch.engine._native`, which loads no module missing here) read it too.
A new compiled module is added here (and, as mypy cannot read its Cython types, to
pyproject.toml's list of modules whose errors mypy ignores).
"""

#: The compiled base of the search engines (:class:`lazysearch.engine._machine.Machine`).
MACHINE = "lazysearch.engine._machine"

#: The frontier table the frontier programs share (they cimport it): the graphs' program
#: over an order and the knights' programs.
TABLE = "lazysearch.graphs._table"

#: Every engine module, and the compiled base its classes subclass (``None``: none).  A
#: base comes before the engines over it: setup.py compiles in this order, and compiles
#: an engine only if its base was (a compiled engine cannot import over a plain-Python
#: base).  ``lazysearch --version`` names them in this order.  Each module says
#: ``COMPILED`` (True when it runs as C).
ENGINES: dict[str, str | None] = {
    MACHINE: None,
    "lazysearch.exactcover._bits": MACHINE,
    "lazysearch.exactcover._cells": MACHINE,
    "lazysearch.exactcover._dlx": MACHINE,
    "lazysearch.exactcover._mcc": MACHINE,
    "lazysearch.exactcover._memo": None,
    "lazysearch.graphs._table": None,
    "lazysearch.graphs._order": TABLE,
    "lazysearch.graphs._walk": MACHINE,
    "lazysearch.sums._cdcl": None,
    "lazysearch.sums._engine": MACHINE,
    "lazysearch.knights._count": TABLE,
    "lazysearch.knights._join": TABLE,
    "lazysearch.knights._openjoin": TABLE,
    "lazysearch.knights._tour": MACHINE,
    "lazysearch.puzzles._tiling": MACHINE,
    "lazysearch.puzzles._units": None,
}

#: Cython's shared utility code (memoryviews and its helpers), compiled once as a module of
#: its own that every other compiled module imports, rather than into each of them: it
#: is compiled first, and nothing else is compiled without it.
SHARED = "lazysearch.engine._cyutility"

#: Modules compiled for speed that are not engines: imported as usual (not through the
#: loader, so ``LAZYSEARCH_PURE`` leaves them compiled) and not listed by ``--version``.
HELPERS: tuple[str, ...] = ("lazysearch.sums._combos",)

#: Engine modules that moved, by their first name: the loader loads the module they
#: moved to under either name.
MOVED: dict[str, str] = {
    "lazysearch.knights._table": TABLE,
    "lazysearch.knights._order": "lazysearch.graphs._order",
}
