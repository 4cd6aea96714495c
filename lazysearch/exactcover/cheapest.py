"""The covers of an exact cover with costs, in order of cost, as a resumable search.

``cheapest(k)`` with ``k`` given is Knuth's DLX5: *one* branch-and-bound walk that keeps
the ``k`` best covers found so far and, once it holds ``k``, lowers the cost bound to one
below the dearest of them (so later covers must be cheaper, as DLX5's ``cutoffcost``);
when the walk ends the kept covers are listed, by cost, covers of equal cost in the order
the walk found them.  Of the covers costing as much as the ``k``-th, the first found are
kept: ``cheapest(k)`` is not always a prefix of ``cheapest(k + 1)``, but its costs are.

``cheapest()`` (every cover) cannot wait for a walk to end without holding every cover,
so it goes in *stages*, one per cost:

1. find the least cost ``c >= start`` of any cover: the walk above with ``k = 1``;
2. list every cover of cost exactly ``c`` (the window ``[c, c]``: nodes that cannot
   finish at ``c`` or less are cut), in the engine's order;
3. ``start = c + 1`` and on to stage 1, until no cover is left.

A checkpoint names the stage (``cost`` and ``start``) and the position in its listing,
or, after a ``k``-best walk, the covers still to list (at most ``k``): the listing of one
cost is an ordinary search of the window problem, so resuming it is replaying a position.
A checkpoint taken while a walk runs (``k``-best or stage 1) names the walk's position,
its bound, the bounds each level on the stack was walked with (a level's item and the
options its covers hid depend on the bound of the time, so the replay uses them) and the
covers kept so far: the resumed walk ends as the fresh one does, in as many nodes.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from ..errors import CheckpointError, LazysearchError
from ..search import CHUNK, DONE, LEAF, Partial, Search, Stats, validated

#: No cost bound (Algorithm M's engine takes costs up to this total).
NO_LIMIT = (1 << 62) - 1

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..search import Engine
    from .problem import MCCProblem


class _Spent(Exception):
    """Raised in a callback to stop :meth:`CheapestSearch.count_within`."""


class CheapestSearch(Search):
    """The covers of ``problem`` in non-decreasing cost (the first ``k``, if given).

    >>> from lazysearch.exactcover import ExactCover
    >>> p = ExactCover(["a b", "a", "b", "b c", "c"], costs=[5, 1, 1, 1, 4])
    >>> s = p.problem.cheapest(None)
    >>> [(cover, p.cost(cover)) for cover in s]
    [((1, 3), 2), ((1, 2, 4), 6), ((0, 4), 9)]
    """

    def __init__(self, problem: MCCProblem, k: int | None) -> None:
        self.base = problem
        self.k = k
        self.emitted = 0
        #: The cost being listed (None: between stages), and the least not yet listed.
        self.cost: int | None = None
        self.start = 0
        #: With ``k`` given: the covers found by the walk, still to list (None: walk on).
        self.pending: list[tuple[int, tuple[int, ...]]] | None = None
        self._spent = 0  # nodes of the finished stages and of the searches for a cost
        self._walker: Engine | None = None  # the engine of the walk under way
        #: The walk's covers kept so far, as a heap of (-cost, -found, cover), and how
        #: many it found; a walk resumed from a checkpoint (engine, kept, found).
        self._kept: list[tuple[int, int, tuple[int, ...]]] = []
        self._found = 0
        self._resumed: tuple[Engine, list[tuple[int, int, tuple[int, ...]]], int] | None = None
        self._over = False
        super().__init__(problem.window(0, NO_LIMIT))

    # -- the walk ----------------------------------------------------------------------

    def _walk(self, engine: Engine, k: int) -> list[tuple[int, tuple[int, ...]]]:
        """DLX5's walk: the ``k`` cheapest covers ``engine`` reaches (cost, cover), by
        cost, equal costs in the order found; it lowers ``engine.cost_hi`` as it goes
        (or goes on with the walk a checkpoint named, if this search was resumed so)."""
        kept: list[tuple[int, int, tuple[int, ...]]] = []  # (-cost, -found, cover): a heap
        found = 0
        if self._resumed is not None:
            engine, kept, found = self._resumed
            self._resumed = None
        self._walker, self._kept, self._found = engine, kept, found
        try:
            while engine.state != DONE:
                if engine.run(1, CHUNK):
                    cost = int(engine.cost())  # type: ignore[attr-defined]
                    found += 1
                    self._found = found
                    entry = (-cost, -found, engine.solution())
                    if len(kept) < k:
                        heapq.heappush(kept, entry)
                    else:
                        heapq.heapreplace(kept, entry)  # drops the dearest, last found
                    if len(kept) == k:
                        # DLX5's cutoff: only covers cheaper than the k-th may follow.
                        engine.cost_hi = -kept[0][0] - 1  # type: ignore[attr-defined]
                elif self.on_chunk is not None and engine.state != DONE:
                    self.on_chunk(self)
        finally:
            self._spent += int(engine.nodes)
            self._walker = None
        return [(-c, cover) for c, _, cover in sorted(kept, reverse=True)]

    def _least_cost(self) -> int | None:
        """Stage 1: the least cost from ``start`` on of any cover (None: no cover)."""
        best = self._walk(self.base.window(self.start, NO_LIMIT).engine(), 1)
        return best[0][0] if best else None

    def _enter_stage(self, cost: int) -> None:
        """Stage 2: list the covers of cost ``cost``."""
        self._spent += int(self._engine.nodes)
        self.cost = cost
        self.problem = self.base.window(cost, cost)
        self._engine = self._fresh_engine(())
        self._progress = 0.0

    def __next__(self) -> tuple[Any, ...]:
        if self.k is not None:
            return self._next_of_walk(self.k)
        while not self._over:
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
            self._spent += int(engine.nodes)  # the listing's nodes, counted once
            engine.nodes = 0
        self._engine.state = DONE
        raise StopIteration

    def _next_of_walk(self, k: int) -> tuple[Any, ...]:
        """The next of the ``k`` best (``cheapest(k)``): the walk first, once."""
        if self.pending is None:
            engine = self.base.window(0, NO_LIMIT).engine()
            self.pending = self._walk(engine, k - self.emitted) if self.emitted < k else []
            self.pending.reverse()  # popped from the end
        if not self.pending:
            self._over = True
            self._engine.state = DONE
            raise StopIteration
        self.emitted += 1
        return self.pending.pop()[1]

    def count(self, callback: Any = None) -> int:
        """How many covers are left to list (up to ``k``); consumes the search."""
        previous = self.on_chunk
        self.on_chunk = callback
        try:
            return sum(1 for _ in self)
        finally:
            self.on_chunk = previous

    def count_within(
        self,
        seconds: float | None = None,
        nodes: int | None = None,
        samples: int = 1000,
        *,
        workers: int | None = None,
    ) -> Partial:
        """Count the covers of this stream (up to ``k``) for at most ``seconds`` and
        about ``nodes`` nodes, then stop where the walk or the listing is.

        The budget is looked at between covers and every chunk of work (the node budget
        is not exact here), and ``rest`` is 0.0: Knuth's estimate knows nothing of the
        order of cost.  ``samples`` is not used.

        Raises
        ------
        ValueError
            For a negative or not finite ``seconds``, or ``nodes`` < 1; or ``workers``
            (a walk in order of cost is one process's).
        """
        import math
        import time

        if workers is not None:
            raise ValueError(
                f"count_within(workers={workers!r}) counts in parallel, and cheapest() "
                "walks in order of cost in one process: leave out workers"
            )
        if seconds is not None and not 0 <= seconds < math.inf:
            raise ValueError(f"count_within() needs seconds >= 0, got {seconds!r}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"count_within() needs nodes >= 1, got {nodes!r}")
        deadline = None if seconds is None else time.monotonic() + seconds
        end = None if nodes is None else self.stats.nodes + nodes
        stopped: list[dict[str, Any]] = []

        def spent() -> bool:
            return (end is not None and self.stats.nodes >= end) or (
                deadline is not None and time.monotonic() >= deadline
            )

        def stop_when_spent(search: Search) -> None:
            if spent():
                stopped.append(self.checkpoint())  # here, where the walk still is
                raise _Spent

        previous = self.on_chunk
        self.on_chunk = stop_when_spent
        found = 0
        try:
            while not spent():
                next(self)
                found += 1
        except (StopIteration, _Spent):
            pass
        finally:
            self.on_chunk = previous
        checkpoint = stopped[0] if stopped else self.checkpoint()
        return Partial(found, self._over, self.progress(), 0.0, checkpoint)

    # -- where we are --------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._over

    @property
    def stats(self) -> Stats:
        e = self._engine if self._walker is None else self._walker
        return Stats(nodes=self._spent + int(e.nodes), solutions=self.emitted, level=int(e.level))

    def progress(self) -> float:
        """1.0 when done, else 0.0: the number of stages is not known in advance."""
        return 1.0 if self._over else 0.0

    def checkpoint(self) -> dict[str, Any]:
        """The stage and the position in it, or the covers still to list (see the
        module notes)."""
        walk = None
        if self.cost is None:
            # Between stages or walking (the walk's position, with the bound each level
            # was walked with), or listing what a walk kept.
            cp = Search(self.base.window(self.start, NO_LIMIT)).checkpoint()
            walker = self._walker
            if walker is not None:
                cp["position"] = walker.position()
                cp["state"] = "leaf" if walker.state == LEAF else "enter"
                walk = {
                    "bound": int(walker.cost_hi),  # type: ignore[attr-defined]
                    "bounds": walker.bounds(),  # type: ignore[attr-defined]
                    "found": self._found,
                    "kept": [[-c, -f, list(cover)] for c, f, cover in self._kept],
                }
            if self._over:
                cp["state"] = "done"
        else:
            cp = super().checkpoint()
        cp["nodes"] = self.stats.nodes
        cp["solutions"] = self.emitted
        pending = None
        if self.pending is not None:
            pending = [[cost, list(cover)] for cost, cover in reversed(self.pending)]
        cp["cheapest"] = {"k": self.k, "start": self.start, "cost": self.cost, "walk": walk}
        if self.k is not None:
            cp["cheapest"]["pending"] = pending
        return cp

    def resume(self, checkpoint: dict[str, Any]) -> CheapestSearch:
        """A new cost search that goes on where ``checkpoint`` was taken.

        Raises
        ------
        CheckpointError
            If the checkpoint is not one of this problem's cost searches with this ``k``.
        """
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
        cp = validated(checkpoint, window)
        if k is not None:
            resumed.pending = self._pending_of(stage.get("pending"))
        if stage.get("walk") is not None:
            if cost is not None or resumed.pending is not None or cp["state"] == "done":
                raise CheckpointError("checkpoint names a walk and a listing at once")
            resumed._resume_walk(stage["walk"], window, cp["position"], cp["state"])
            resumed._spent = cp["nodes"]
            resumed.emitted = cp["solutions"]
            return resumed
        if cost is not None:
            resumed._enter_stage(cost)
            resumed._spent = 0
            resumed.restore(cp["position"], {"enter": 0, "leaf": 1, "done": 2}[cp["state"]])
        elif cp["state"] == "done":
            resumed._over = True
            resumed.engine.state = DONE
        resumed._spent = cp["nodes"]
        resumed.emitted = cp["solutions"]
        return resumed

    def _resume_walk(
        self, walk: object, window: MCCProblem, position: list[int], state: str
    ) -> None:
        """Set up the walk a checkpoint names: its engine at ``position`` (replayed with
        the bounds its levels were walked with), the covers it kept and had found."""
        fields = walk if isinstance(walk, dict) else {}
        bound, bounds = fields.get("bound"), fields.get("bounds")
        found, kept = fields.get("found"), fields.get("kept")
        if not (
            type(bound) is int
            and 0 <= bound <= NO_LIMIT
            and isinstance(bounds, list)
            and len(bounds) == 2 * len(position)
            and all(type(h) is int for h in bounds)
            and all(a >= b for a, b in zip(bounds, [*bounds[1:], bound], strict=True))
            and type(found) is int
            and isinstance(kept, list)
            and 0 <= len(kept) <= (self.k or 1)
        ):
            raise CheckpointError(
                "checkpoint walk must give its bound, two bounds per level not rising "
                f"down to it, how many covers it found, and at most k kept, got {str(walk)[:80]}"
            )
        covers = self._pending_of(
            [entry[::2] if isinstance(entry, list) else entry for entry in kept]
        )
        orders = [entry[1] for entry in kept]
        if covers is None or not all(type(f) is int and 0 < f <= found for f in orders):
            raise CheckpointError(f"checkpoint walk's kept covers are malformed: {str(kept)[:80]}")
        engine = window.engine()
        engine.cost_hi = bound  # type: ignore[attr-defined]
        if not engine.replay(position, bounds):  # type: ignore[call-arg]
            raise CheckpointError(f"position {position} is not a node of this walk")
        if state == "leaf":
            engine.state = LEAF
        heap = [(-c, -f, cover) for (c, cover), f in zip(reversed(covers), orders, strict=True)]
        heapq.heapify(heap)
        self._resumed = (engine, heap, found)

    def _pending_of(self, entries: object) -> list[tuple[int, tuple[int, ...]]] | None:
        """The covers still to list, from a checkpoint: each ``[cost, [option, ...]]``
        names options of this problem and costs what they add up to."""
        if entries is None:
            return None
        costs = self.base.costs
        pending: list[tuple[int, tuple[int, ...]]] = []
        if isinstance(entries, list):
            for entry in entries:
                if not (isinstance(entry, list) and len(entry) == 2):
                    break
                cost, cover = entry
                if not (
                    isinstance(cover, list)
                    and all(type(j) is int and 0 <= j < len(costs) for j in cover)
                    and type(cost) is int
                    and cost == sum(costs[j] for j in cover)
                ):
                    break
                pending.append((cost, tuple(cover)))
            else:
                pending.reverse()
                return pending
        raise CheckpointError(
            "checkpoint pending covers must be a list of [cost, [option, ...]] whose "
            f"options cost that much, got {str(entries)[:60]}"
        )

    def subtrees(self, depth: int) -> list[tuple[int, ...]]:
        raise LazysearchError(
            "a cheapest() stream is walked stage by stage, in order of cost, so it has no "
            "subtrees to share out; split solve() itself, or count its covers"
        )

    def subtree(self, prefix: Sequence[int]) -> Search:
        return self.subtrees(len(prefix))  # type: ignore[return-value]
