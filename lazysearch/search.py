"""The Search protocol: a walk over a tree kept on an explicit stack, with its position
as plain data.

Every engine (exact cover, kakuro, knight's tours) is a small machine with the same
surface (:class:`Engine`); :class:`Search` adds everything that follows from the position
being data: checkpoints, subtrees, progress, estimates and statistics.

A node of the search tree is named by its *position*: the list of choice indices from
the root, ``k`` of ``d`` at each level.  Replaying a position from the root rebuilds
the engine's stack exactly, because the choices at a node depend only on the choices
above it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from . import capabilities
from .engine.states import DONE as DONE  # the engines' states, for the drivers that read them
from .engine.states import ENTER as ENTER
from .engine.states import LEAF as LEAF
from .errors import CheckpointError, LazysearchError, brief, other_problem

CHECKPOINT_FORMAT = "lazysearch-checkpoint"
CHECKPOINT_VERSION = 1

_STATE_NAMES = {ENTER: "enter", LEAF: "leaf", DONE: "done"}
_STATE_CODES = {v: k for k, v in _STATE_NAMES.items()}

#: Nodes an engine walks before it hands control back to Python (for Ctrl-C, progress
#: callbacks and checkpoints).  About a few milliseconds of compiled work.
CHUNK = 1 << 16

if TYPE_CHECKING:  # the protocols cost import time and are needed only by type checkers
    from typing import Protocol

    class Engine(Protocol):
        """What an engine provides; :mod:`lazysearch.exactcover._dlx` is the model.

        ``run(limit, budget)`` walks on until ``limit`` leaves were reported (0: no limit)
        or ``budget`` nodes were entered (0: no budget) and returns how many leaves it
        reported.  ``replay(ks)`` descends from the node about to be entered along choice
        indices ``ks``.  ``branching()`` tells, at a node not yet entered, ``-1`` for a
        solution or else how many children it has.
        """

        level: int
        floor: int
        state: int
        cut_depth: int
        leaf_kind: int
        nodes: int
        solutions: int

        def run(self, limit: int, budget: int) -> int: ...
        def replay(self, ks: list[int]) -> bool: ...
        def restart(self) -> None: ...
        def branching(self) -> int: ...
        def position(self) -> list[int]: ...
        def degrees(self) -> list[int]: ...
        def solution(self) -> tuple[Any, ...]: ...

    class Problem(Protocol):
        """A problem an engine can be built from; picklable, so workers can rebuild it."""

        @property
        def kind(self) -> str: ...
        def engine(self) -> Engine: ...
        def fingerprint(self) -> str: ...


def fingerprint(state: object) -> str:
    """``sha256:`` and the digest of ``state`` (JSON-able numbers that define a problem):
    the name a checkpoint gives its problem."""
    import hashlib
    import json

    data = json.dumps(state, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(data.encode()).hexdigest()


class Stats(NamedTuple):
    """Counters of a search: nodes entered, solutions found, the current depth."""

    nodes: int
    solutions: int
    level: int


class Partial(NamedTuple):
    """What a count within a budget got (:meth:`Search.count_within`).

    ``found``: the solutions counted by this call; ``done``: whether the search reached
    its end (``found`` is then the whole count of what was left); ``progress``: the
    fraction of the tree walked (:meth:`Search.progress`); ``rest``: Knuth's estimate
    of the solutions not yet counted (0 when done; ``None`` when no probe reached a
    solution, so that nothing can be said); ``checkpoint``: the search's checkpoint, to
    go on with :meth:`Search.resume`.
    """

    found: int
    done: bool
    progress: float
    rest: float | None
    checkpoint: dict[str, Any]

    def __repr__(self) -> str:
        return (
            f"Partial(found={self.found}, done={self.done}, progress={self.progress!r}, "
            f"rest={self.rest!r}, checkpoint={_short_checkpoint(self.checkpoint)})"
        )


class Taken(NamedTuple):
    """What a listing within a budget got (:meth:`lazysearch.stream.Solutions.take_within`).

    ``solutions``: those read by this call, in order; ``done``: whether the stream was
    read to its end (after exactly ``n`` it may have none left and still say False);
    ``progress``, ``rest`` and ``checkpoint`` as in :class:`Partial` (``rest`` counts
    the search's own solutions, before any filter of the stream).
    """

    solutions: list[Any]
    done: bool
    progress: float
    rest: float | None
    checkpoint: dict[str, Any]

    def __repr__(self) -> str:
        n = len(self.solutions)
        return (
            f"Taken(solutions=<{n} solution{'' if n == 1 else 's'}>, done={self.done}, "
            f"progress={self.progress!r}, rest={self.rest!r}, "
            f"checkpoint={_short_checkpoint(self.checkpoint)})"
        )


def _short_checkpoint(checkpoint: object) -> str:
    """A checkpoint in a repr: its format and size, not its whole position or table.

    >>> _short_checkpoint({"format": "lazysearch-search", "position": [0] * 500})
    "<'lazysearch-search' checkpoint, 2 keys>"
    """
    if not isinstance(checkpoint, dict):
        return brief(checkpoint)
    kind = checkpoint.get("format", checkpoint.get("kind", ""))
    name = f"{brief(kind)} " if kind else ""
    return f"<{name}checkpoint, {len(checkpoint)} key{'' if len(checkpoint) == 1 else 's'}>"


#: Fewer effective probes than this (see :attr:`Estimate.effective`) and the spread of
#: the solutions' estimate is itself a guess: :attr:`Estimate.reliable` is False.
RELIABLE_PROBES = 30


class Estimate(NamedTuple):
    """Knuth's random-probe estimate of a search tree (Math. Comp. 29, 1975).

    ``nodes`` and ``solutions`` are the means over ``samples`` probes; the ``*_stderr``
    fields are the standard errors of those means (the spread of one probe divided by
    the square root of the number of probes).  ``hits``: the probes that reached a
    solution; with none, the estimate of the solutions knows nothing (``known`` is
    False), whatever its 0 says.  ``effective``: how many probes the solutions'
    estimate rests on, Kish's ``(sum w)**2 / sum w**2`` of the probes' weights; when a
    few probes carry most of the weight (heavy-tailed trees, knight's tours) it is
    small, the mean far from the truth more often than the ``stderr`` says, and
    ``reliable`` is False.

    >>> from lazysearch import polyomino, queens
    >>> est = queens(8).search.estimate(samples=1000, seed=1)
    >>> est.known, est.reliable, est.hits > 100
    (True, True, True)
    >>> pentominoes = polyomino.tile(polyomino.rectangle(6, 10), polyomino.PENTOMINOES)
    >>> pentominoes.estimate(samples=100, seed=1).known  # no probe reached a tiling
    False
    """

    samples: int
    nodes: float
    nodes_stderr: float
    solutions: float
    solutions_stderr: float
    hits: int
    effective: float

    @property
    def known(self) -> bool:
        """Whether any probe reached a solution (else ``solutions`` says nothing)."""
        return self.hits > 0

    @property
    def reliable(self) -> bool:
        """Whether the solutions' estimate rests on :data:`RELIABLE_PROBES` effective
        probes or more (else its ``stderr`` understates how far off it may be)."""
        return self.effective >= RELIABLE_PROBES

    def rest(self, walked: float) -> float | None:
        """The solutions in the part of the tree not walked (``walked``: the fraction
        walked), or ``None`` when no probe reached a solution."""
        return self.solutions * (1.0 - walked) if self.known else None

    def caveat(self) -> str:
        """Why the solutions' estimate is not to be trusted, in words ("" if it is)."""
        if not self.known:
            return f"no probe of {self.samples} reached a solution"
        if self.reliable:
            return ""
        return (
            f"unreliable: {self.hits} of {self.samples} probes reached a solution, worth "
            f"{self.effective:.1f} probes of equal weight"
        )


def _mean_and_stderr(values: list[int]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error, worked out in whole numbers: the
    probes of a tree of 10^400 leaves (a 100x100 grid's cycles) give estimates past any
    float, whose squares overflowed; a figure too large for a float is ``inf``.

    >>> _mean_and_stderr([2, 4, 6])
    (4.0, 1.1547005383792515)
    >>> _mean_and_stderr([10**400, 3 * 10**400])
    (inf, inf)
    """
    n = len(values)
    total = sum(values)
    mean = _float(total, n)
    if n < 2:
        return mean, math.inf if n == 1 else 0.0
    # n * (n - 1) * n * stderr**2 = n * sum(v**2) - sum(v)**2, exactly
    spread = n * sum(v * v for v in values) - total * total
    scale = n * n * (n - 1)
    variance = _float(spread, scale)
    if variance != math.inf:
        return mean, math.sqrt(variance)
    return mean, _float(math.isqrt(spread // scale), 1)


def _float(numerator: int, denominator: int) -> float:
    """``numerator / denominator`` as a float, ``inf`` when it is too large for one."""
    try:
        return numerator / denominator
    except OverflowError:
        return math.inf


class Search:
    """An iterator over the raw solutions of one problem, walked on an explicit stack.

    >>> from lazysearch import exact_cover
    >>> s = exact_cover(["a b", "a", "b"]).search
    >>> next(s), s.position, s.stats.solutions
    ((0,), (0,), 1)

    Parameters
    ----------
    problem:
        What to search; it builds the engine and names itself by a fingerprint.
    prefix:
        A position: search only the subtree below that node.

    Raises
    ------
    LazysearchError
        If ``prefix`` is not a node of the tree.
    """

    def __init__(self, problem: Problem, prefix: Sequence[int] = ()) -> None:
        self.problem = problem
        self._prefix: tuple[int, ...] = tuple(int(k) for k in prefix)
        self._engine = self._fresh_engine(self._prefix)
        self._progress = 0.0
        #: Called with this search every few milliseconds of work between solutions,
        #: at a point where the position is consistent (for progress bars, periodic
        #: checkpoints, and stopping cleanly by raising an exception).
        self.on_chunk: Callable[[Search], object] | None = None

    def _fresh_engine(self, prefix: tuple[int, ...], engine: Engine | None = None) -> Engine:
        """An engine at node ``prefix``: a new one, or ``engine`` restarted (cheaper)."""
        if engine is None:
            engine = self.problem.engine()
        else:
            engine.restart()
            engine.nodes = engine.solutions = 0
        if not engine.replay(list(prefix)):
            raise LazysearchError(
                f"subtree prefix {list(prefix)} is not a node of this search tree"
            )
        engine.floor = len(prefix)
        return engine

    # -- iteration ---------------------------------------------------------------------

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self

    def __next__(self) -> tuple[Any, ...]:
        engine = self._engine
        while engine.state != DONE:
            if engine.run(1, CHUNK):
                return engine.solution()
            if self.on_chunk is not None and engine.state != DONE:
                self.on_chunk(self)
        raise StopIteration

    def count(self, callback: Callable[[Search], object] | None = None) -> int:
        """Count the solutions not yet reached, without building them; consumes the search.

        >>> from lazysearch import queens
        >>> queens(8).search.count()
        92

        ``callback(search)``, if given, is called every few milliseconds of work (for a
        progress bar); it may read ``progress()`` and ``stats``.
        """
        engine = self._engine
        total = 0
        while engine.state != DONE:
            total += engine.run(0, CHUNK)
            if callback is not None:
                callback(self)
        return total

    def count_within(
        self,
        seconds: float | None = None,
        nodes: int | None = None,
        samples: int = 1000,
        *,
        workers: int | None = None,
    ) -> Partial:
        """Count for at most ``seconds`` of time and ``nodes`` nodes entered, then stop
        where the search is; a :class:`Partial` says what was counted and how to go on.

        >>> from lazysearch import queens
        >>> part = queens(8).search.count_within(nodes=500)
        >>> part.done, part.found < 92, 0 < part.progress < 1
        (False, True, True)
        >>> part.found + queens(8).search.resume(part.checkpoint).count()
        92

        The node budget is exact (the engines stop at it); the time is looked at every
        few milliseconds of work.  ``rest`` is Knuth's estimate of the whole tree's
        solutions from ``samples`` random probes (seeded, so repeatable), times the
        fraction of the tree not yet walked: as rough as the estimate is for the problem
        (see docs/long-runs.md).

        With ``workers``, ``workers`` processes count (:func:`lazysearch.parallel.count_within`:
        the budget is looked at as subtrees finish, and ``checkpoint`` is the run record
        of the plan, to go on with that function's ``resume=``).

        Raises
        ------
        ValueError
            For a negative or not finite ``seconds``, ``nodes`` < 1, or ``workers`` < 1.
        """
        import time

        if workers is not None:
            counted = capabilities.parallel(self.problem)
            return counted.count_within(self, seconds, nodes, samples, workers=workers)

        if seconds is not None and not 0 <= seconds < math.inf:
            raise ValueError(f"count_within() needs seconds >= 0, got {seconds!r}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"count_within() needs nodes >= 1, got {nodes!r}")
        engine = self._engine
        deadline = None if seconds is None else time.monotonic() + seconds
        end = None if nodes is None else int(engine.nodes) + nodes
        found = 0
        while engine.state != DONE:
            budget = CHUNK if end is None else min(CHUNK, end - int(engine.nodes))
            if budget <= 0 or (deadline is not None and time.monotonic() >= deadline):
                break
            found += engine.run(0, budget)
        done = engine.state == DONE
        walked = self.progress()
        rest = 0.0 if done else self.estimate(samples, seed=0).rest(walked)
        return Partial(found, done, walked, rest, self.checkpoint())

    # -- where we are --------------------------------------------------------------------

    @property
    def prefix(self) -> tuple[int, ...]:
        """The position of the subtree this search is restricted to (``()``: the root)."""
        return self._prefix

    @property
    def position(self) -> tuple[int, ...]:
        """The choice indices from the root to the current node."""
        return tuple(self._engine.position())

    @property
    def done(self) -> bool:
        return self._engine.state == DONE

    @property
    def engine(self) -> Engine:
        """The engine walking this search: its ``state`` and counters (``nodes``,
        ``solutions``), which the run machinery reads and credits, and its ``run`` loop,
        which it drives to list a piece of the tree."""
        return self._engine

    @property
    def stats(self) -> Stats:
        e = self._engine
        return Stats(nodes=int(e.nodes), solutions=int(e.solutions), level=int(e.level))

    def progress(self) -> float:
        """The fraction of the tree already walked, in [0, 1]; it never decreases.

        Each level contributes ``k / (d_1 * ... * d_level)`` for its ``k``-th of ``d``
        choices (Knuth's measure, with every child of a node weighing the same).
        """
        engine = self._engine
        if engine.state == DONE:
            self._progress = 1.0
            return 1.0
        ks = engine.position()
        ds = engine.degrees()
        fraction = 0.0
        weight = 1.0
        for t in range(len(self._prefix), len(ks)):
            weight /= ds[t]
            fraction += ks[t] * weight
        if engine.state == LEAF:
            fraction += weight
        self._progress = max(self._progress, min(fraction, 1.0))
        return self._progress

    # -- checkpoints ------------------------------------------------------------------------

    def checkpoint(self) -> dict[str, Any]:
        """The state of this search as a small JSON-able dict.

        >>> from lazysearch import queens
        >>> s = queens(6).search
        >>> _ = next(s)
        >>> cp = s.checkpoint()
        >>> cp["position"], cp["state"], cp["solutions"]
        ([0, 0, 1, 0, 0, 0], 'leaf', 1)
        """
        e = self._engine
        return {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "kind": self.problem.kind,
            "fingerprint": self.problem.fingerprint(),
            "prefix": list(self._prefix),
            "position": e.position(),
            "state": _STATE_NAMES[e.state],
            "nodes": int(e.nodes),
            "solutions": int(e.solutions),
        }

    def resume(self, checkpoint: dict[str, Any]) -> Search:
        """A new search of the same problem that goes on where ``checkpoint`` was taken.

        Raises
        ------
        CheckpointError
            If the checkpoint is malformed, of another format version, or was made for
            another problem.
        """
        cp = validated(checkpoint, self.problem)
        prefix = tuple(cp["prefix"])
        position = cp["position"]
        resumed = Search(self.problem, prefix)
        resumed.restore(position, _STATE_CODES[cp["state"]])
        resumed._engine.nodes = cp["nodes"]
        resumed._engine.solutions = cp["solutions"]
        return resumed

    def restore(self, position: Sequence[int], state: int) -> None:
        """Move this (fresh) search to ``position`` inside its subtree, in ``state``
        (one of :mod:`lazysearch.engine.states`): where a task of a plan starts.

        Raises
        ------
        CheckpointError
            If ``position`` is outside the subtree or not a node of the tree, or is
            not a solution in the state ``LEAF``.
        """
        prefix = self._prefix
        if tuple(position[: len(prefix)]) != prefix:
            raise CheckpointError(f"position {list(position)} is outside subtree {list(prefix)}")
        if state == DONE:
            self._engine.state = DONE
            return
        if not self._engine.replay([int(k) for k in position[len(prefix) :]]):
            raise CheckpointError(f"position {list(position)} is not a node of this search tree")
        if state == LEAF:
            if self._engine.branching() != -1:
                raise CheckpointError(
                    f"position {list(position)} is not a solution, so cannot be a leaf"
                )
            self._engine.state = LEAF

    # -- subtrees and estimates ---------------------------------------------------------------

    def subtrees(self, depth: int) -> list[tuple[int, ...]]:
        """The positions of the nodes ``depth`` levels below this search's root.

        Solutions found above that depth are listed too (as shorter positions), and dead
        ends are left out, so the subtrees' solutions are exactly the search's, each once.

        >>> from lazysearch import queens
        >>> s = queens(6).search
        >>> s.subtrees(1)
        [(0,), (1,), (2,), (3,), (4,), (5,)]
        >>> sum(s.subtree(p).count() for p in s.subtrees(1))
        4
        """
        if depth < 0:
            raise ValueError(f"subtrees() needs a depth >= 0, got {depth}")
        engine = self._fresh_engine(self._prefix)
        engine.cut_depth = len(self._prefix) + depth
        found: list[tuple[int, ...]] = []
        while engine.run(1, 0):
            found.append(tuple(engine.position()))
        return found

    def subtree(self, prefix: Sequence[int]) -> Search:
        """A new search that walks only the subtree below position ``prefix``."""
        prefix = tuple(int(k) for k in prefix)
        if prefix[: len(self._prefix)] != self._prefix:
            raise LazysearchError(
                f"subtree {list(prefix)} is outside this search's subtree {list(self._prefix)}"
            )
        return Search(self.problem, prefix)

    def estimate(self, samples: int = 1000, seed: int | None = None) -> Estimate:
        """Estimate the size of the tree and its number of solutions by random probes.

        Each probe walks from the root to a leaf taking a uniformly random child at
        every node; the product of the branching degrees met is an unbiased estimate of
        the number of nodes at that depth (Knuth 1975).  Nothing is searched.

        >>> from lazysearch import queens
        >>> est = queens(8).search.estimate(samples=2000, seed=1)
        >>> 40 < est.solutions < 150
        True
        """
        if samples < 1:
            raise ValueError(f"estimate() needs samples >= 1, got {samples}")
        import random

        rng = random.Random(seed)
        engine = self.problem.engine()
        node_estimates: list[int] = []
        solution_estimates: list[int] = []
        for _ in range(samples):
            nodes, solutions = probe(engine, self._prefix, rng)
            node_estimates.append(nodes)
            solution_estimates.append(solutions)
        n_mean, n_err = _mean_and_stderr(node_estimates)
        s_mean, s_err = _mean_and_stderr(solution_estimates)
        hits = sum(1 for w in solution_estimates if w)
        total = sum(solution_estimates)
        squares = sum(w * w for w in solution_estimates)
        effective = total * total / squares if squares else 0.0
        return Estimate(samples, n_mean, n_err, s_mean, s_err, hits, effective)

    def move_to(self, prefix: Sequence[int]) -> None:
        """Become a fresh search of the subtree at ``prefix``, reusing this one's engine
        (for walking many small subtrees one after another)."""
        self._prefix = tuple(int(k) for k in prefix)
        self._engine = self._fresh_engine(self._prefix, self._engine)
        self._progress = 0.0

    def finish(self, solutions: int, nodes: int) -> None:
        """Mark the search as walked to the end by others, who found ``solutions`` more
        in ``nodes`` more nodes."""
        self._engine.solutions += solutions
        self._engine.nodes += nodes
        self._engine.state = DONE

    def become(self, other: Search) -> None:
        """Make this (fresh) search the search ``other`` is: the same subtree and place
        (a run resumed from its file goes on in the caller's search)."""
        self._prefix = other._prefix
        self._engine = other._engine
        self._progress = 0.0


def probe(engine: Engine, prefix: Sequence[int], rng: Any) -> tuple[int, int]:
    """One random probe from node ``prefix`` down to a leaf: Knuth's estimates of the
    number of nodes and of solutions below it (products of the branching degrees)."""
    engine.restart()
    if not engine.replay(list(prefix)):
        raise CheckpointError(f"prefix {brief(list(prefix))} is not a node of this problem")
    weight = 1
    nodes = 1
    while True:
        b = engine.branching()
        if b < 0:
            return nodes, weight
        if b == 0:
            return nodes, 0
        weight *= b
        nodes += weight
        k = rng.randrange(b)
        if not engine.replay([k]):
            if getattr(engine, "prunes", False):
                # Dancing cells: a choice that leaves an item with no option fails in
                # the update, a dead end that is no node of its tree.
                return nodes - weight, 0
            # An engine whose branching() promises a choice that replay() cannot take
            # would otherwise make the probe loop for ever on the same node.
            raise RuntimeError(
                f"{type(engine).__name__}.branching() gave {b} choices but choice {k} "
                "could not be taken (an engine bug)"
            )


def validated(checkpoint: object, problem: Problem) -> dict[str, Any]:
    """``checkpoint``, checked to be a search checkpoint of ``problem`` that this
    lazysearch reads (what :meth:`Search.resume` goes on from).

    Raises
    ------
    CheckpointError
        Naming what is wrong: not a dict, another format or version, another problem,
        or a field out of range.
    """
    if not isinstance(checkpoint, dict):
        raise CheckpointError(f"a checkpoint is a dict, not {type(checkpoint).__name__}")
    if checkpoint.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"not a lazysearch checkpoint (format {checkpoint.get('format')!r})")
    version = checkpoint.get("version")
    if type(version) is not int or version != CHECKPOINT_VERSION:
        raise CheckpointError(
            f"checkpoint version {checkpoint.get('version')!r} is not {CHECKPOINT_VERSION}, "
            "the version this lazysearch reads"
        )
    if (
        checkpoint.get("kind") != problem.kind
        or checkpoint.get("fingerprint") != problem.fingerprint()
    ):
        explain = getattr(problem, "explain_mismatch", None)
        why = explain(checkpoint.get("fingerprint")) if explain is not None else None
        if why is not None:
            raise other_problem(why)
        raise other_problem(
            f"checkpoint was made for another problem ({checkpoint.get('kind')!r}, "
            f"fingerprint {str(checkpoint.get('fingerprint'))[:19]}...)"
        )
    for key in ("prefix", "position"):
        value = checkpoint.get(key)
        if not isinstance(value, list) or not all(type(k) is int and 0 <= k < 2**31 for k in value):
            raise CheckpointError(
                f"checkpoint {key} must be a list of integers 0 to 2**31-1 (the engines' "
                f"choice indices), got {brief(value)}"
            )
    if checkpoint.get("state") not in _STATE_CODES:
        raise CheckpointError(
            f"checkpoint state {checkpoint.get('state')!r} is not one of enter, leaf, done"
        )
    for key in ("nodes", "solutions"):
        value = checkpoint.get(key)
        if type(value) is not int or not 0 <= value <= 2**62:
            raise CheckpointError(
                f"checkpoint {key} must be an integer 0 to 2**62 (the engines count in "
                f"64 bits), got {brief(value)}"
            )
    return checkpoint
