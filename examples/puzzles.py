"""The puzzles built on exact cover: a sudoku, pentomino tilings, queens and Langford pairs.

Run: python examples/puzzles.py
"""

from lazysearch import langford, queens
from lazysearch.puzzles import polyomino, sudoku

# A sudoku made here: the first filling of an empty 9x9 grid with two cells of every
# three blanked out, in diagonal stripes.  Is its solution still unique?  (No: two
# solutions turn up, so it would need more givens to be a proper puzzle.)
full = sudoku.solve("." * 81).first()
digits = "".join(str(d) for row in full for d in row)
puzzle = "".join("." if (i // 9 + i % 9) % 3 else d for i, d in enumerate(digits))
print(sudoku.render(sudoku.parse(puzzle)))
found = sudoku.solve(puzzle).take(2)  # two at most: enough to know whether it is unique
print("solutions (at most 2 asked):", len(found))
sudoku.verify(puzzle, found[0])
print(sudoku.render(found[0]))

# The 12 pentominoes on 3x20: 8 tilings, 2 up to the board's symmetries.
board = polyomino.rectangle(3, 20)
print("3x20 tilings:", polyomino.tile(board, polyomino.PENTOMINOES).count())
print("3x20 up to symmetry:", polyomino.tile(board, polyomino.PENTOMINOES, distinct=True).count())
print(polyomino.tile(board, polyomino.PENTOMINOES, distinct=True).first())

# Queens and Langford pairs, streamed: the first of 92, and a count with the reversal cut.
print("8 queens, first placement (column of each row):", queens(8).first())
print("Langford pairs of 7, each pair of reversals once:", langford(7).count())
