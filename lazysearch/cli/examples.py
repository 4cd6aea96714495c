"""The examples each subcommand's ``--help`` ends with: commands that run as written
from the project's folder (the files they name are in ``examples/``); the tests run
every one."""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "dlx": (
        "lazysearch dlx examples/knuth.dlx                 # the exact covers, one a block",
        "lazysearch dlx examples/knuth.dlx --count --workers 2",
        "lazysearch dlx examples/knuth.dlx --format json -q",
    ),
    "sudoku": (
        "lazysearch sudoku examples/sudoku-puzzles.txt     # solve each line's puzzle",
        "lazysearch sudoku examples/sudoku-puzzles.txt --count   # 1 each: unique",
        "lazysearch sudoku examples/killer-wikipedia.txt   # cages: a killer sudoku",
        "lazysearch sudoku examples/killer-wikipedia.txt --format svg -o killer.svg",
    ),
    "queens": (
        "lazysearch queens 8                      # the 92 placements",
        "lazysearch queens 12 --count             # 14200",
        "lazysearch queens 8 --sample 3 --seed 7  # three drawn uniformly",
        "lazysearch queens 20 --estimate          # Knuth's estimate, no search",
    ),
    "langford": (
        "lazysearch langford 7                    # the 26 pairings, each with its reversal once",
        "lazysearch langford 11 --count           # 17792",
    ),
    "pentomino": (
        "lazysearch pentomino 6x10 --count --distinct     # 2339 tilings up to symmetry",
        "lazysearch pentomino 3x20 --nth 2 --format svg -o tiling.svg",
        "lazysearch pentomino --board examples/scott-board.txt --count --distinct   # 65",
        "lazysearch pentomino 4x5 --pieces tetrominoes --count",
    ),
    "polycube": (
        "lazysearch polycube soma --count --distinct      # 240 ways to build the cube",
        "lazysearch polycube soma --nth 1 --format svg -o soma.svg",
        "lazysearch polycube hexiamonds --count --distinct",
    ),
    "knights": (
        "lazysearch knights 5 --count                     # 1728 directed tours",
        "lazysearch knights 6 --closed --count            # 9862 cycles",
        "lazysearch knights 6 --closed --count --directed # 710064 directed tours",
        "lazysearch knights 6 --closed --sample 2 --seed 1",
        "lazysearch knights 100 --one --format svg -o tour.svg",
        "lazysearch knights 6x7 --closed --count --checkpoint run.json  # Ctrl-C, then "
        "--resume run.json",
        "lazysearch knights 8 --estimate                  # Knuth's estimate (it says how "
        "far to trust it)",
    ),
    "graph": (
        "lazysearch graph examples/dodecahedron.txt --cycles --count     # 30",
        "lazysearch graph examples/dodecahedron.txt --paths --start 1 --limit 3",
        "lazysearch graph examples/grid-6x6.col --cycles --count         # 1072",
        "lazysearch graph examples/grid-6x6.col --cycles --sample 2 --seed 1",
        "lazysearch graph examples/grid-6x6.col --cycles --one --format json -q",
    ),
    "kakuro": (
        "lazysearch kakuro examples/puzzle.kak            # solve it",
        "lazysearch kakuro examples/puzzle.kak --count    # 1: unique",
        "lazysearch kakuro examples/puzzle.kak --format svg -o kakuro.svg",
    ),
    "generate": (
        "lazysearch generate sudoku --seed 1              # one rated 9x9 puzzle",
        "lazysearch generate sudoku --box 2x3 --number 3 --seed 1",
        "lazysearch generate sudoku --variant killer --seed 2 -o killer.txt",
        "lazysearch generate kakuro 9x9 --seed 3 -o puzzle.kak",
    ),
}


def examples_text(command: str) -> str:
    """The examples of ``command`` as its help shows them ("" for none)."""
    lines = EXAMPLES.get(command)
    if not lines:
        return ""
    return "examples:\n" + "".join(f"  {line}\n" for line in lines)
