"""The frontier table under its first name: it lives in :mod:`lazysearch.graphs._table`,
below the knights, since the graphs' counts use it too.  This module gives the same
names to the programs that import it from here (``_table.pxd`` beside it gives them to
those that ``cimport`` it)."""

from __future__ import annotations

from lazysearch.graphs._table import COMPILED, STATUS, Table, plain, renumber

__all__ = ["COMPILED", "STATUS", "Table", "plain", "renumber"]
