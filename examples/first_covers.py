"""Build an exact-cover problem from Python data and read its first solutions lazily.

Run: python examples/first_covers.py
"""

from lazysearch import ExactCover

# Tile a 2x4 strip with dominoes: items are the cells, options the domino placements.
cells = [(r, c) for r in range(2) for c in range(4)]
options = []
for r, c in cells:
    if c + 1 < 4:
        options.append([(r, c), (r, c + 1)])
    if r + 1 < 2:
        options.append([(r, c), (r + 1, c)])

problem = ExactCover(options)
stream = problem.solve()
print("first two tilings:")
for solution in stream.take(2):
    print("  ", problem.chosen(solution))
print("tilings left after those:", stream.count())
print("all tilings:", problem.solve().count())
