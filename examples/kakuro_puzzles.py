"""Kakuro: read a puzzle, solve it, prove it unique, convert it, draw it.

Run:  python examples/kakuro_puzzles.py
"""

from lazysearch import kakuro

# A puzzle in the grid format: "down\across" clues, "\" black, "_" white (made up
# for this example; the cell at row 3, column 4 has no across clue: a stretch of one).
puzzle = kakuro.read(
    r"""
\     \   12\  14\   \
\    11\6  _    _   10\
\23   _    _    _    _
\8    _    _   5\    _
\     \7   _    _    \
"""
)
print(puzzle)

# take(2) finds the solution and proves there is no other.
boards = kakuro.solve(puzzle).take(2)
print("solutions:", len(boards))
board = boards[0]
kakuro.verify(puzzle, board)
print(board)

# A mapping from every white cell (row, col) to its digit.
print("row 2:", [board[(2, c)] for c in range(1, 5)])

# The same puzzle in other formats, and read back.
as_json = kakuro.write_json(puzzle)
print(as_json, end="")
assert kakuro.read(as_json) == puzzle

# The search is a Search like every other: count, checkpoint, subtrees, progress.
stream = kakuro.solve(puzzle)
print("count:", stream.count(), "nodes:", stream.stats.nodes)
