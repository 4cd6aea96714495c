"""The sum engines: cells taking distinct digits 1..9 in runs that add up to a clue.

Kakuro and the killer cages of sudoku variants are both solved here, a floor below
both families:

- :mod:`._combos`: the digit sets of every run length and sum, as bitmasks;
- :mod:`._engine`: the explicit-stack search with arc-consistent runs
  (:class:`~lazysearch.sums._engine.KakuroEngine`, compiled where Cython is present);
- :mod:`._cdcl`: a small clause-learning SAT solver that finds a first filling the tree
  search cannot reach soon.

The engines are loaded with :func:`lazysearch.engine._native.load`
(``"lazysearch.sums._engine"``, ``"lazysearch.sums._cdcl"``), as every engine is.
"""
