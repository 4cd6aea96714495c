"""Pack a box with bricks in limited supply: exact cover with multiplicities and costs.

A 3x4 box is filled with 1x1 cubes, 1x2 bricks and 1x3 bricks, lying either way. The
shop has at most two cubes and sells the long bricks only in pairs or threes, so a
packing uses 0 to 2 cubes and 2 to 3 long bricks (any number of 1x2 bricks): the
primary items "cube" and "long" carry those bounds (Knuth's DLX3).  Each brick has a
price, and the cheapest packings come first (Knuth's DLX5).

Run: python examples/brick_packing.py
"""

from lazysearch import ExactCover

ROWS, COLS = 3, 4
BRICKS = {"cube": (1, 1), "short": (1, 2), "long": (1, 3)}
PRICE = {"cube": 3, "short": 2, "long": 2}

options = []
costs = []
for name, (h, w) in BRICKS.items():
    shapes = {(h, w), (w, h)}
    for dr, dc in shapes:
        for r in range(ROWS - dr + 1):
            for c in range(COLS - dc + 1):
                cells = [(r + i, c + j) for i in range(dr) for j in range(dc)]
                # "cube" and "long" count the bricks of a kind; short bricks are unlimited
                options.append(cells + ([name] if name != "short" else []))
                costs.append(PRICE[name])

cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
box = ExactCover(
    options,
    primary=[*cells, "cube", "long"],
    bounds={"cube": (0, 2), "long": (2, 3)},
    costs=costs,
)


def picture(solution: tuple[int, ...]) -> str:
    grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
    for n, j in enumerate(solution):
        for cell in options[j]:
            if isinstance(cell, tuple):
                grid[cell[0]][cell[1]] = "ABCDEFGHIJKL"[n]
    return "\n".join("  " + "".join(row) for row in grid)


print("packings:", box.solve().count())
for solution in box.solve().cheapest(2):
    print(f"cost {box.cost(solution)}:")
    print(picture(solution))
