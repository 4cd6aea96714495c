"""Preprocessing an exact-cover problem before the search, after Knuth's DLX-PRE.

Two kinds of reduction, repeated until neither finds anything (or the work budget is
spent):

* **An option that can never be chosen.**  If some primary item ``j`` that option ``o``
  does not name has no option compatible with ``o`` (each of ``j``'s options shares a
  primary item with ``o``, or a secondary item without agreeing on a colour), then a
  solution holding ``o`` could not cover ``j``: ``o`` goes.  (An item with one option
  makes every option that clashes with that one go, which is how forced moves show.)
* **An item that comes along.**  If every option of primary item ``i`` names item ``j``
  too (in one and the same colour, when ``j`` is secondary), then ``j`` is covered by
  whatever covers ``i``, so an option that names ``j`` and not ``i`` (in another
  colour, or none) can never be chosen: it goes.  When that leaves ``j`` in no other
  option than ``i``'s, ``j`` says nothing ``i`` does not and goes too; a secondary item
  named by at most one option goes likewise.

Neither changes the set of solutions: an option removed is in none, and an item removed
is covered (or not) exactly when the solutions say so.  The search then walks a smaller
tree.  Options keep their relative order, so the solutions are renumbered back to the
problem's own option indices by one increasing map (:class:`Renumber`).

Each round is one pass over the options with their conflicts as bit sets (Python
integers over option numbers): ``O(options * primary items)`` word operations on sets
``options`` bits long.  ``budget`` bounds the total of those set operations; when it runs
out, the reductions found so far are kept (each is sound on its own) and ``complete`` is
False.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .problem import DLXProblem

#: Set operations a reduction may spend by default (about a second on this machine).
DEFAULT_BUDGET = 2_000_000


class Reduction(NamedTuple):
    """What :func:`reduce_problem` did: the smaller problem and how to read it."""

    #: The problem the search walks (items renumbered, options in the original order).
    problem: DLXProblem
    #: ``kept[j]`` is the original index of the reduced problem's option ``j``.
    kept: tuple[int, ...]
    #: Original indices of the options removed, ascending.
    options_removed: tuple[int, ...]
    #: Original item numbers (1-based, as in :class:`DLXProblem`) of the items removed.
    items_removed: tuple[int, ...]
    #: Passes over the problem.
    rounds: int
    #: False when the work budget ran out before a pass found nothing more to remove.
    complete: bool

    def summary(self, items: tuple[Hashable, ...] | None = None) -> str:
        """One line: how much went, e.g. for the command line's ``--reduce``."""
        total = len(self.kept) + len(self.options_removed)
        words = (
            f"reduced: {len(self.options_removed)} of {total} options and "
            f"{len(self.items_removed)} items removed in {self.rounds} rounds"
        )
        if items is not None and self.items_removed:
            names = ", ".join(repr(items[i - 1]) for i in self.items_removed[:5])
            more = ", ..." if len(self.items_removed) > 5 else ""
            words += f" ({names}{more})"
        if not self.complete:
            words += "; stopped at the work budget"
        return words


class Renumber:
    """Maps a solution of the reduced problem back to the original option indices, or
    any labels of the options (a picklable callable, so it can travel with a stream)."""

    __slots__ = ("kept",)

    def __init__(self, kept: tuple[Any, ...]) -> None:
        self.kept = kept

    def __call__(self, solution: tuple[int, ...]) -> tuple[Any, ...]:
        kept = self.kept
        return tuple(kept[j] for j in solution)

    def __reduce__(self) -> tuple[type[Renumber], tuple[tuple[Any, ...]]]:
        return Renumber, (self.kept,)


def reduce_problem(problem: DLXProblem, budget: int = DEFAULT_BUDGET) -> Reduction:
    """Knuth's DLX-PRE reductions of ``problem`` (see the module notes)."""
    if type(budget) is not int or budget < 0:
        raise ValueError(f"reduction budget must be an int >= 0, got {budget!r}")
    n_primary = problem.primary
    n_items = problem.primary + problem.secondary
    # Each option as {item: colour}; None once removed.
    options: list[dict[int, int] | None] = [
        dict(zip(items, colours, strict=True))
        for items, colours in zip(problem.option_items, problem.option_colors, strict=True)
    ]
    alive_items = set(range(1, n_items + 1))
    spent = 0
    rounds = 0
    complete = False
    while True:
        rounds += 1
        changed = False
        # Bit sets: the options naming each item, and per (item, colour) those naming
        # it in that colour.
        of_item = [0] * (n_items + 1)
        of_colour: dict[tuple[int, int], int] = {}
        for o, option in enumerate(options):
            if option is None:
                continue
            bit = 1 << o
            for i, c in option.items():
                of_item[i] |= bit
                if c:
                    of_colour[i, c] = of_colour.get((i, c), 0) | bit
        if any(of_item[i] == 0 for i in range(1, n_primary + 1) if i in alive_items):
            complete = True  # a primary item with no option: no solution, nothing to do
            break
        # Items that come along with another.
        for i in range(1, n_primary + 1):
            if i not in alive_items:
                continue
            spent += 1
            common: dict[int, int] | None = None
            for o in _bits(of_item[i]):
                option = options[o]
                assert option is not None
                if common is None:
                    common = {j: c for j, c in option.items() if j != i}
                else:
                    common = {j: c for j, c in common.items() if option.get(j, -1) == c}
                if not common:
                    break
            for j, c in (common or {}).items():
                if j not in alive_items:
                    continue
                with_j = of_item[j]
                if c:
                    with_j &= ~of_colour.get((j, c), 0)
                outside = with_j & ~of_item[i]
                for o in _bits(outside):
                    _remove(options, of_item, of_colour, o)
                    changed = True
                if of_item[j] & ~of_item[i] == 0:
                    _drop_item(options, of_item, alive_items, j)
                    changed = True
        for j in range(n_primary + 1, n_items + 1):
            if j in alive_items and of_item[j] & (of_item[j] - 1) == 0:
                _drop_item(options, of_item, alive_items, j)
                changed = True
        # Options that can never be chosen.
        primaries = [i for i in range(1, n_primary + 1) if i in alive_items]
        for o, option in enumerate(options):
            if option is None:
                continue
            if spent > budget:
                break
            clash = 0
            for i, c in option.items():
                clash |= of_item[i] & ~of_colour.get((i, c), 0) if c else of_item[i]
            spent += len(option) + len(primaries)
            for j in primaries:
                if j not in option and of_item[j] & ~clash == 0:
                    _remove(options, of_item, of_colour, o)
                    changed = True
                    break
        if spent > budget:
            break
        if not changed:
            complete = True
            break
    return _rebuild(problem, options, alive_items, rounds, complete)


def _bits(mask: int) -> list[int]:
    """The positions of the 1 bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _remove(
    options: list[dict[int, int] | None],
    of_item: list[int],
    of_colour: dict[tuple[int, int], int],
    o: int,
) -> None:
    option = options[o]
    if option is None:
        return
    clear = ~(1 << o)
    for i, c in option.items():
        of_item[i] &= clear
        if c:
            of_colour[i, c] &= clear
    options[o] = None


def _drop_item(
    options: list[dict[int, int] | None],
    of_item: list[int],
    alive_items: set[int],
    j: int,
) -> None:
    """Item ``j`` says nothing another item does not: it leaves every option."""
    alive_items.discard(j)
    for o in _bits(of_item[j]):
        option = options[o]
        assert option is not None
        del option[j]
    of_item[j] = 0


def _rebuild(
    problem: DLXProblem,
    options: list[dict[int, int] | None],
    alive_items: set[int],
    rounds: int,
    complete: bool,
) -> Reduction:
    n_primary = problem.primary
    keep_items = sorted(alive_items)
    number = {item: k + 1 for k, item in enumerate(keep_items)}
    kept = tuple(o for o, option in enumerate(options) if option is not None)
    option_items = []
    option_colors = []
    for o in kept:
        option = options[o]
        assert option is not None
        # The items in the order the option named them.
        items = [i for i in problem.option_items[o] if i in option]
        option_items.append(tuple(number[i] for i in items))
        option_colors.append(tuple(option[i] for i in items))
    reduced = problem.with_options(
        sum(1 for i in keep_items if i <= n_primary),
        sum(1 for i in keep_items if i > n_primary),
        tuple(option_items),
        tuple(option_colors),
    )
    removed_items = tuple(
        i for i in range(1, problem.primary + problem.secondary + 1) if i not in alive_items
    )
    return Reduction(
        reduced,
        kept,
        tuple(o for o, option in enumerate(options) if option is None),
        removed_items,
        rounds,
        complete,
    )
