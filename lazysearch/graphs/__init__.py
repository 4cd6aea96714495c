"""Hamiltonian cycles and paths of any graph, listed lazily.

>>> from lazysearch import graphs
>>> graphs.hamiltonian_cycles(graphs.grid(4, 4)).count()
6
>>> graphs.hamiltonian_paths(graphs.leaper(3, 4, (1, 2)), start=(0, 0)).count()
2
"""

from __future__ import annotations

from .boards import grid, hypercube, king, leaper
from .files import GraphFile, read
from .frontier import TooWideError
from .graph import (
    EdgeError,
    EmptyGraphError,
    Graph,
    GraphError,
    UnhashableVertexError,
    UnknownVertexError,
)
from .hamilton import HamiltonProblem, frontier_count, hamiltonian_cycles, hamiltonian_paths
from .pictures import BoardPath

__all__ = [
    "BoardPath",
    "EdgeError",
    "EmptyGraphError",
    "Graph",
    "GraphError",
    "GraphFile",
    "HamiltonProblem",
    "TooWideError",
    "UnhashableVertexError",
    "UnknownVertexError",
    "frontier_count",
    "grid",
    "hamiltonian_cycles",
    "hamiltonian_paths",
    "hypercube",
    "king",
    "leaper",
    "read",
]
