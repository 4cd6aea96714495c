"""Racing equivalent searches: whichever reaches a solution first walks the whole tree.

A search that tries values in a fixed order sometimes sinks into a huge fruitless
subtree before its first solution, while the same problem with another value order
finds one at once; which order wins varies from puzzle to puzzle and cannot be told in
advance.  :class:`Race` runs several orders side by side, a slice of nodes each in
turn, and keeps the first that reports a solution (or finishes): its tree becomes the
search's tree, and the others are dropped.  The cost is bounded: the winner's own work
to its first solution times the number of runners, at most.

A runner's engine is built when its first turn comes, so a race whose first runner wins
within its first slice builds one engine only (for large problems, the build can cost
more than the search).

The race is deterministic (slices are counted in nodes, not seconds), so its winner is a
function of the problem alone: a position is a position in the winner's tree, and
replaying it on a fresh engine first replays the race.  The winner is remembered on the
:class:`Race` object (and pickled with it), so the engines built after the first one,
in this process or in workers, skip the race.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .search import DONE, ENTER, fingerprint

if TYPE_CHECKING:
    from .search import Engine, Problem

#: Nodes a runner walks before the next one takes its turn.
SLICE = 4096


class Race:
    """A problem searched by whichever of ``problems`` reaches a solution first.

    The problems must have the same solutions, reported alike (the same exact cover with
    different option orders, say); only the order of the search may differ.

    >>> from lazysearch.exactcover.problem import DLXProblem
    >>> from lazysearch.search import Search
    >>> options = ((1, 2), (3,), (1,), (2, 3))
    >>> squares = DLXProblem(3, 0, options, ((0, 0), (0,), (0,), (0, 0)), True)
    >>> cubes = DLXProblem(3, 0, options, ((0, 0), (0,), (0,), (0, 0)), True, 3)
    >>> race = Race((squares, cubes))
    >>> sorted(Search(race))
    [(0, 1), (2, 3)]
    >>> race.winner
    0
    """

    __slots__ = ("_winner", "problems", "slice")

    def __init__(self, problems: Sequence[Problem], slice: int = SLICE) -> None:
        if not problems:
            raise ValueError("a race needs at least one problem")
        if type(slice) is not int or slice < 1:
            raise ValueError(f"a race slice must be an int >= 1, got {slice!r}")
        self.problems = tuple(problems)
        self.slice = slice
        self._winner: int | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return self.problems, self.slice, self._winner

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.problems, self.slice, self._winner = state

    @property
    def kind(self) -> str:
        return self.problems[0].kind

    @property
    def winner(self) -> int | None:
        """The index of the problem that won the race, or None before it is run."""
        return self._winner

    def engine(self) -> Engine:
        return RaceEngine(self)

    def fingerprint(self) -> str:
        """The runners' fingerprints, in order, and the slice: everything that decides
        the winner (the winner itself is not part of it)."""
        return fingerprint(["race", self.slice, [p.fingerprint() for p in self.problems]])


class _Through:
    """An attribute of a :class:`RaceEngine` that is the winner's engine's.  While the
    race runs it reads ``idle`` (the root, seen from outside) and writing that value
    changes nothing; any other write first decides the race."""

    def __init__(self, idle: int | None) -> None:
        self.idle = idle
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, engine: RaceEngine | None, owner: type | None = None) -> Any:
        if engine is None:
            return self
        if engine._runners and self.idle is not None:
            return self.idle
        return int(getattr(engine._active, self.name))

    def __set__(self, engine: RaceEngine, value: int) -> None:
        if engine._runners and value == self.idle:
            return
        engine._decide()
        setattr(engine._active, self.name, value)


class RaceEngine:
    """The engine of a :class:`Race`: the runners' engines in turn until one wins, then
    the winner's engine alone (every attribute and method passes through to it)."""

    def __init__(self, race: Race) -> None:
        self._race = race
        # A runner's engine, or None until its first turn.
        self._runners: list[Engine | None] = []
        self._turn = 0
        self._left = race.slice
        self._nodes = 0  # nodes counted besides the engine's own
        self._solutions = 0
        self._active = race.problems[race._winner or 0].engine()
        if race._winner is None:
            self._runners = [self._active] + [None] * (len(race.problems) - 1)

    # -- the race ---------------------------------------------------------------------------

    def _run_race(self, budget: int) -> int | None:
        """Give the runners their turns for up to ``budget`` nodes (0: until one wins).
        Returns the leaves the winner reported (0 or 1), or None if nobody won yet."""
        spent = 0
        while True:
            runner = self._runners[self._turn]
            if runner is None:
                runner = self._runners[self._turn] = self._race.problems[self._turn].engine()
            step = self._left if budget <= 0 else min(self._left, budget - spent)
            before = runner.nodes
            found = runner.run(1, step)
            used = runner.nodes - before
            spent += used
            self._left -= used
            if found or runner.state == DONE:
                self._adopt(self._turn)
                return int(found)
            if self._left <= 0 or used == 0:
                self._turn = (self._turn + 1) % len(self._runners)
                self._left = self._race.slice
            if budget > 0 and spent >= budget:
                return None

    def _adopt(self, index: int) -> None:
        """Make runner ``index`` the engine, remembering it as the winner; the losers'
        nodes stay counted."""
        self._race._winner = index
        winner = self._runners[index] or self._race.problems[index].engine()
        self._nodes += sum(
            r.nodes for i, r in enumerate(self._runners) if i != index and r is not None
        )
        self._active = winner
        self._runners = []

    def _decide(self) -> None:
        """Know the winner, with the engine back at the root (as it was, seen from
        outside, while racing)."""
        if not self._runners:
            return
        nodes = self.nodes
        w = self._race._winner
        if w is None:
            self._run_race(0)
        else:
            self._adopt(w)
        self._active.restart()
        self._active.nodes = self._active.solutions = 0
        self._nodes = nodes
        self._solutions = 0

    # -- the Engine surface -------------------------------------------------------------------

    def run(self, limit: int, budget: int) -> int:
        if self._runners:
            if self._race._winner is not None:
                self._decide()  # another engine of this race has won it already
            else:
                # The winner stops at its first solution: fewer leaves than ``limit``
                # is allowed (the caller runs again while the state is not DONE).
                return self._run_race(budget) or 0
        return int(self._active.run(limit, budget))

    def replay(self, ks: list[int]) -> bool:
        if not ks:
            return bool(self.state == ENTER)
        self._decide()
        return bool(self._active.replay(ks))

    def restart(self) -> None:
        if self._runners:
            for runner in self._runners:
                if runner is not None:
                    runner.restart()
            self._turn = 0
            self._left = self._race.slice
        else:
            self._active.restart()

    def branching(self) -> int:
        self._decide()
        return int(self._active.branching())

    def position(self) -> list[int]:
        return [] if self._runners else list(self._active.position())

    def degrees(self) -> list[int]:
        return [] if self._runners else list(self._active.degrees())

    def solution(self) -> tuple[Any, ...]:
        return tuple(self._active.solution())

    level = _Through(0)
    floor = _Through(0)
    state = _Through(ENTER)
    cut_depth = _Through(None)
    leaf_kind = _Through(0)

    @property
    def nodes(self) -> int:
        own = (
            sum(r.nodes for r in self._runners if r is not None)
            if self._runners
            else self._active.nodes
        )
        return self._nodes + int(own)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._nodes += value - self.nodes

    @property
    def solutions(self) -> int:
        return self._solutions + (0 if self._runners else int(self._active.solutions))

    @solutions.setter
    def solutions(self, value: int) -> None:
        self._solutions += value - self.solutions
