"""Pictures of Hamiltonian cycles: one of a 10x10 grid, and a knight's closed tour of a
board with holes (each checked: every cell once, every step a move, back to the start).

Run:  python examples/graph_pictures.py [FOLDER]     (default: docs/, beside this folder)
"""

import itertools
import sys
from pathlib import Path

from lazysearch import graphs

folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs"


def checked(cycle, graph):
    """The cycle, after checking that it is one of ``graph``'s Hamiltonian cycles."""
    assert len(cycle) == len(graph) and set(cycle) == set(graph)
    assert all(b in graph[a] for a, b in itertools.pairwise((*cycle, cycle[0])))
    return cycle


# The 1,000th Hamiltonian cycle of the 10x10 grid, in the order the walk finds them.
grid = graphs.grid(10, 10)
cycle = checked(graphs.hamiltonian_cycles(grid).nth(999), grid)
picture = graphs.BoardPath(cycle, closed=True)
(folder / "graphs-grid-cycle.svg").write_text(
    picture.svg(square=32, title="a Hamiltonian cycle of the 10x10 grid")
)
print(f"graphs-grid-cycle.svg: {len(cycle)} cells")

# A closed knight's tour of an 8x8 board without its four centre squares and corners.
board = [
    ".######.",
    "########",
    "########",
    "###..###",
    "###..###",
    "########",
    "########",
    ".######.",
]
knight = graphs.leaper(8, 8, (1, 2), board=board)
tour = checked(graphs.hamiltonian_cycles(knight).first(), knight)
picture = graphs.BoardPath(tour, closed=True, rows=8, cols=8, cells=knight)
(folder / "graphs-knight-holes.svg").write_text(
    picture.svg(square=40, title="a closed knight's tour of a board with holes")
)
print(f"graphs-knight-holes.svg: {len(tour)} cells")
print(picture)
