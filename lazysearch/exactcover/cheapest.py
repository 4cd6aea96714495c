"""The covers of an exact cover with costs, in order of cost, as a resumable search.

Knuth's DLX5 keeps the ``k`` best covers seen and prunes every node whose cost plus the
cheapest possible completion cannot beat the worst of them; it reports them at the end.
A stream must give the cheapest first, so this search goes in *stages*, one per cost:

1. find the least cost ``c >= start`` of any cover: a branch-and-bound walk (Algorithm
   M with ``cost_hi`` lowered to one below each cover found, so the last one found is
   the cheapest);
2. list every cover of cost exactly ``c`` (the window ``[c, c]``: nodes that cannot
   finish at ``c`` or less are cut), in the engine's order;
3. ``start = c + 1`` and on to stage 1, until ``k`` covers were listed or none is left.

A checkpoint names the stage (``cost`` and ``start``) and the position in its listing:
the listing of one cost is an ordinary search of the window problem, so resuming it is
replaying a position.  A checkpoint taken while stage 1 runs resumes at its start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import CheckpointError, LazysearchError
from ..search import CHUNK, DONE, Search, Stats, _validated

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .problem import MCCProblem


class CheapestSearch(Search):
    """The covers of ``problem`` in non-decreasing cost (the first ``k``, if given).

    >>> from lazysearch.exactcover import ExactCover
    >>> p = ExactCover(["a b", "a", "b", "b c", "c"], costs=[5, 1, 1, 1, 4])
    >>> s = p.problem.cheapest(None)
    >>> [(cover, p.cost(cover)) for cover in s]
    [((1, 3), 2), ((1, 2, 4), 6), ((0, 4), 9)]
    """

    def __init__(self, problem: MCCProblem, k: int | None) -> None:
        from .problem import NO_LIMIT

        self.base = problem
        self.k = k
        self.emitted = 0
        #: The cost being listed (None: between stages), and the least not yet listed.
        self.cost: int | None = None
        self.start = 0
        self._spent = 0  # nodes of the finished stages and of the searches for a cost
        self._over = False
        super().__init__(problem.window(0, NO_LIMIT))

    # -- the stages ------------------------------------------------------------------

    def _least_cost(self) -> int | None:
        """Stage 1: the least cost from ``start`` on of any cover (None: no cover)."""
        from .problem import NO_LIMIT

        engine = self.base.window(self.start, NO_LIMIT).engine()
        best: int | None = None
        try:
            while engine.state != DONE:
                if engine.run(1, CHUNK):
                    best = int(engine.cost())  # type: ignore[attr-defined]
                    engine.cost_hi = best - 1  # type: ignore[attr-defined]
                elif self.on_chunk is not None and engine.state != DONE:
                    self.on_chunk(self)
        finally:
            self._spent += int(engine.nodes)
        return best

    def _enter_stage(self, cost: int) -> None:
        """Stage 2: list the covers of cost ``cost``."""
        self._spent += int(self._engine.nodes)
        self.cost = cost
        self.problem = self.base.window(cost, cost)
        self._engine = self._fresh_engine(())
        self._progress = 0.0

    def __next__(self) -> tuple[Any, ...]:
        while not self._over:
            if self.k is not None and self.emitted >= self.k:
                self._over = True
                break
            if self.cost is None:
                least = self._least_cost()
                if least is None:
                    self._over = True
                    break
                self._enter_stage(least)
            engine = self._engine
            while engine.state != DONE:
                if engine.run(1, CHUNK):
                    self.emitted += 1
                    return engine.solution()
                if self.on_chunk is not None and engine.state != DONE:
                    self.on_chunk(self)
            self.start = (self.cost or 0) + 1
            self.cost = None
        self._engine.state = DONE
        raise StopIteration

    def count(self, callback: Any = None) -> int:
        """How many covers are left to list (up to ``k``); consumes the search."""
        previous = self.on_chunk
        self.on_chunk = callback
        try:
            return sum(1 for _ in self)
        finally:
            self.on_chunk = previous

    # -- where we are --------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._over

    @property
    def stats(self) -> Stats:
        e = self._engine
        return Stats(nodes=self._spent + int(e.nodes), solutions=self.emitted, level=int(e.level))

    def progress(self) -> float:
        """1.0 when done, else 0.0: the number of stages is not known in advance."""
        return 1.0 if self._over else 0.0

    def checkpoint(self) -> dict[str, Any]:
        """The stage and the position in it (see the module notes)."""
        from .problem import NO_LIMIT

        if self.cost is None:
            # Between stages (or searching for the next cost): resume at the stage's start.
            cp = Search(self.base.window(self.start, NO_LIMIT)).checkpoint()
            if self._over:
                cp["state"] = "done"
        else:
            cp = super().checkpoint()
        cp["nodes"] = self.stats.nodes
        cp["solutions"] = self.emitted
        cp["cheapest"] = {"k": self.k, "start": self.start, "cost": self.cost}
        return cp

    def resume(self, checkpoint: dict[str, Any]) -> CheapestSearch:
        """A new cost search that goes on where ``checkpoint`` was taken.

        Raises
        ------
        CheckpointError
            If the checkpoint is not one of this problem's cost searches with this ``k``.
        """
        from .problem import NO_LIMIT

        stage = checkpoint.get("cheapest") if isinstance(checkpoint, dict) else None
        if not isinstance(stage, dict):
            raise CheckpointError("not a checkpoint of a cheapest() stream (no 'cheapest' entry)")
        k, start, cost = stage.get("k"), stage.get("start"), stage.get("cost")
        if k != self.k:
            raise CheckpointError(f"checkpoint is of cheapest(k={k!r}), not k={self.k!r}")
        if type(start) is not int or not 0 <= start <= NO_LIMIT:
            raise CheckpointError(f"checkpoint stage start must be an int >= 0, got {start!r}")
        if cost is not None and (type(cost) is not int or not start <= cost <= NO_LIMIT):
            raise CheckpointError(
                f"checkpoint stage cost must be null or an int from the start on, got {cost!r}"
            )
        resumed = CheapestSearch(self.base, self.k)
        resumed.start = start
        window = self.base.window(start, NO_LIMIT) if cost is None else self.base.window(cost, cost)
        cp = _validated(checkpoint, window)
        if cost is not None:
            resumed._enter_stage(cost)
            resumed._spent = 0
            resumed._restore(cp["position"], {"enter": 0, "leaf": 1, "done": 2}[cp["state"]])
        elif cp["state"] == "done":
            resumed._over = True
            resumed._engine.state = DONE
        resumed._spent = cp["nodes"]
        resumed.emitted = cp["solutions"]
        return resumed

    def subtrees(self, depth: int) -> list[tuple[int, ...]]:
        raise LazysearchError(
            "a cheapest() stream is walked stage by stage, in order of cost, so it has no "
            "subtrees to share out; split solve() itself, or count its covers"
        )

    def subtree(self, prefix: Sequence[int]) -> Search:
        return self.subtrees(len(prefix))  # type: ignore[return-value]
