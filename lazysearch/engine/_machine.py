"""The part of the search engines that is not their search: one explicit stack.

Every search engine (the exact-cover engines :mod:`lazysearch.exactcover._dlx`,
:mod:`~lazysearch.exactcover._cells`, :mod:`~lazysearch.exactcover._mcc` and
:mod:`~lazysearch.exactcover._bits`, the polyomino tiling engine
:mod:`lazysearch.puzzles._tiling`, the knight's tour engine :mod:`lazysearch.knights._tour`
and the kakuro engine :mod:`lazysearch.sums._engine`) subclasses :class:`Machine` and
adds its data and its ``run()`` loop.  The machine keeps the stack: ``x[t]`` the choice
taken at level ``t`` (engine-specific: a node, a cell, a placement, a square), ``k[t]``
its index among the node's children and ``d[t]`` their number.  The *position* is
``k[0..level)``, plain data from which the whole stack is rebuilt by
:meth:`Machine.replay`, which walks the engine's own ``run()`` along given indices
(``replay_k[0..replay_end)``), counting no node and reporting no leaf.

``run(limit, budget)`` walks on until ``limit`` leaves are reported (0: no limit) or
``budget`` nodes are entered (0: no budget), returns the number of leaves reported and
leaves the last on the stack with ``state == LEAF`` (``leaf_kind`` says which); it
stops at ``floor`` (``state == DONE``) and treats the nodes at ``cut_depth`` as leaves
(``CUT``, to list subtrees).  During a replay it enters no leaf: a leaf or dead end on
the way sets ``bad_replay``.  The states and leaf kinds are :mod:`lazysearch.engine.states`.

Compiled, the engines ``cimport`` this class (its C fields are declared in
``_machine.pxd``); run as plain Python, an engine subclasses the plain-Python class
(:func:`plain`), whatever build this module was imported from.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # pragma: no cover - exercised on machines without Cython
    from lazysearch.engine import _cython as cython  # type: ignore[no-redef]

from lazysearch.engine import _buffers, _native
from lazysearch.engine.states import ENTER

COMPILED: bool = cython.compiled


@cython.cclass
class Machine:
    """The stack, the counters and the replay of an engine with ``primary`` primary
    items among ``n_items``, whose stack holds at most ``depth - 1`` levels (the fields
    are declared in ``_machine.pxd``)."""

    def _allocate(self, primary: int, n_items: int, depth: int, lazy: bool = False) -> None:
        """Allocate the stack and go to the root, with no node counted yet.  ``lazy``
        leaves the replay buffer to the first :meth:`replay` that needs it (boards of
        10^8 squares: 4 bytes a level that a search that is never replayed does not use).
        """
        self.n_primary = primary
        self.n_items = n_items
        self.x = _buffers.zeros(depth, COMPILED)
        self.k = _buffers.zeros(depth, COMPILED)
        self.d = _buffers.zeros(depth, COMPILED)
        self.replay_k = _buffers.zeros(1 if lazy else depth, COMPILED)
        self._kept = []
        self._root()
        self.nodes = 0
        self.solutions = 0

    def _keep(self, buffers: list[object]) -> None:
        """Have :meth:`restart` put ``buffers`` back as they are now: the engine's data
        that its search changes, as built (the buffers as allocated, arrays or lists:
        a memoryview's copy would share them)."""
        self._kept = [(live, live[:]) for live in buffers]

    def restart(self) -> None:
        """Go back to the root with the data kept by :meth:`_keep` as it was built."""
        for live, built in self._kept:
            live[:] = built
        self._root()

    def _root(self) -> None:
        """The stack empty, at the root, nothing being replayed."""
        self.level = 0
        self.floor = 0
        self.state = ENTER
        self.cut_depth = len(self.x) + 1
        self.replay_end = 0
        self.bad_replay = False
        self.leaf_kind = 0

    def run(self, limit: cython.longlong, budget: cython.longlong) -> cython.longlong:
        """Each engine's search (see the module's docstring)."""
        raise NotImplementedError(f"{type(self).__name__} has no run()")

    def replay(self, ks: list[int]) -> bool:
        """From the node about to be entered, take choice ``ks[0]``, then ``ks[1]``, ...

        Returns False when a choice does not exist (an index out of range, or a leaf
        reached too early); the engine must then be ``restart()``-ed before further use.
        The node and solution counts are left as they were.
        """
        if not ks:
            return self.state == ENTER
        if self.state != ENTER or self.level + len(ks) >= len(self.x):
            return False
        start: cython.int = self.level
        t: cython.int
        if len(self.replay_k) < len(self.x):
            self.replay_k = _buffers.zeros(len(self.x), COMPILED)
        for t in range(len(ks)):
            if ks[t] < 0:
                return False
            self.replay_k[start + t] = ks[t]
        self.replay_end = start + len(ks)
        self.bad_replay = False
        saved_nodes = self.nodes
        saved_solutions = self.solutions
        self.run(0, 0)
        self.nodes = saved_nodes
        self.solutions = saved_solutions
        ok = not self.bad_replay and self.level == start + len(ks) and self.state == ENTER
        self.replay_end = 0
        return ok

    def position(self) -> list[int]:
        """The index of the choice taken at each level, root first."""
        return [self.k[t] for t in range(self.level)]

    def degrees(self) -> list[int]:
        """The number of choices at each level, root first."""
        return [self.d[t] for t in range(self.level)]


_plain: type | None = None


def plain() -> type:
    """:class:`Machine` as plain Python (what an uncompiled engine subclasses: its
    buffers are lists, which compiled fields cannot hold), loaded from the source when
    this module is the compiled one."""
    global _plain
    if _plain is None:
        _plain = Machine if not COMPILED else _native.load_source(__name__).Machine
    return _plain
