"""Pictures of solutions: SVG written by hand (no dependency), one function per puzzle.

Nothing in the engines imports this package; the puzzles' ``svg()`` methods and the
command line do, on demand.
"""
