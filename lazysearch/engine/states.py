"""The states of an engine's walk, and what it reports for the leaf it stopped at.

Every engine over :class:`~lazysearch.engine._machine.Machine` keeps its state in
``state`` and the kind of its last leaf in ``leaf_kind``; :mod:`lazysearch.search` reads
them, and writes the state back when it resumes a checkpoint.
"""

# Engine states.
ENTER = 0  # about to enter the node at ``level`` (nothing done there yet)
LEAF = 1  # the node at ``level`` was just reported; next step backs up
DONE = 2  # the whole (sub)tree has been walked

# What ``run`` reports for the leaf it stopped at.
SOLUTION = 1
CUT = 2  # a node at ``cut_depth`` (used to list subtrees)
