"""Knight's tours: the first few, counts by symmetry, and one tour of a big board.

Run:  python examples/knights_tours.py
"""

from lazysearch import knights

# The first closed tour of 8x8 from a corner, in Warnsdorff order.
first = knights.tours(8, start=(0, 0), closed=True).first()
print(first)
print()

# Directed open tours of 5x5 from every start: one search per orbit of the board's
# symmetries, weighed by the orbit's size.
for square, size in knights.start_orbits(5):
    n = knights.count_tours(5, start=square)
    print(f"from {square} (and {size - 1} symmetric squares): {n} tours")
print("all directed open tours of 5x5:", knights.count_tours(5))
print("closed tours of 6x6, each cycle once:", knights.count_closed(6))

# One tour of a board of a quarter of a million squares, checked by the verifier.
big = knights.tour(500, start=(250, 3), closed=True)
knights.verify(big, 500, 500, start=(250, 3), closed=True)
print(f"a closed tour of 500x500 from {big[0]}: {len(big)} squares, verified")
