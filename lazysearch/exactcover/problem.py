"""Exact-cover problems over any hashable item labels, and their solution streams."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _native
from ..errors import (
    DuplicateItemError,
    EmptyOptionError,
    ItemConflictError,
    NoPrimaryItemError,
    UnknownItemError,
)
from ..search import Search, fingerprint
from ..stream import Solutions

if TYPE_CHECKING:
    from ..search import Engine
    from .memo import MemoCover
    from .reduce import Reduction


class Colour(NamedTuple):
    """A secondary item with a colour, inside an option (Knuth's ``item:colour``).

    Options that give a secondary item the same colour may share it; an option that
    names it without a colour excludes every other option that names it.

    >>> Colour("x", "red")
    Colour(item='x', colour='red')
    """

    item: Hashable
    colour: Hashable


#: The machines an exact-cover search can run on (see :class:`DLXProblem`).
ENGINES = ("auto", "links", "cells")


class DLXProblem:
    """An exact-cover problem as the engine sees it: items and colours as numbers.

    Items ``1..primary`` are primary and the next ``secondary`` are secondary; option
    ``j`` names items ``option_items[j]`` with colours ``option_colors[j]`` (0: none).
    Plain data, so it pickles to worker processes and fingerprints stably.

    With ``least_constraining``, the search tries the options of the item it branches
    on in the order of how many other options each would remove, fewest first, rather
    than in list order: it weighs an option by the lengths of its other items, each
    raised to ``power`` (squares by default, so one long list outweighs several short
    ones), and sums.  That does not change
    which nodes a full count visits, only the order of solutions; it finds a first
    solution sooner when the first choices in list order tend to lead into large
    fruitless subtrees (sparse 25x25 sudoku).
    """

    __slots__ = (
        "_fingerprint",
        "engine_kind",
        "least_constraining",
        "memo_likely",
        "memo_order",
        "option_colors",
        "option_items",
        "power",
        "primary",
        "secondary",
    )

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: tuple[tuple[int, ...], ...],
        option_colors: tuple[tuple[int, ...], ...],
        least_constraining: bool = False,
        power: int = 2,
        engine: str = "auto",
    ) -> None:
        if type(power) is not int or power < 1:
            raise ValueError(f"least constraining power must be an int >= 1, got {power!r}")
        if engine not in ENGINES:
            raise ValueError(
                f"exact-cover engine must be one of {', '.join(ENGINES)}, got {engine!r}"
            )
        self.primary = primary
        self.secondary = secondary
        self.option_items = option_items
        self.option_colors = option_colors
        self.least_constraining = least_constraining
        self.power = power
        self.engine_kind = engine
        self._fingerprint: str | None = None
        #: For the memo count (not part of the problem's identity): the primary items
        #: in the order to branch on, first uncovered first (None: fewest options), and
        #: whether subproblems are known to recur (``count(method="auto")`` then uses it).
        self.memo_order: tuple[int, ...] | None = None
        self.memo_likely = False

    def _identity(self) -> tuple[Any, ...]:
        state = self.primary, self.secondary, self.option_items, self.option_colors
        # The flag joins the state only when set, so the fingerprints (and checkpoints)
        # of problems in list order stay what they were; so does the power, when 2.
        if not self.least_constraining:
            return state
        return (*state, True) if self.power == 2 else (*state, True, self.power)

    def __getstate__(self) -> tuple[Any, ...]:
        if self.engine_kind == "auto":
            return self._identity()
        return (
            self.primary,
            self.secondary,
            self.option_items,
            self.option_colors,
            self.least_constraining,
            self.power,
            self.engine_kind,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DLXProblem) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    @property
    def kind(self) -> str:
        return "exact-cover"

    def chosen_engine(self) -> str:
        """``"links"`` or ``"cells"``: the machine :meth:`engine` builds.

        ``auto`` takes dancing links: measured on this project's problems (benchmarks,
        ``test_engines``), the cells engine walked the same trees 4-33% slower (queens
        12: 1.04x, pentominoes on 5x12 and 3x20: 1.17x, Langford 11: 1.33x), and
        only the links engine orders options least constraining first.
        """
        if self.engine_kind == "cells" and not self.least_constraining:
            return "cells"
        return "links"

    def engine(self) -> Engine:
        if self.chosen_engine() == "cells":
            cells = _native.load("lazysearch.exactcover._cells")
            built: Engine = cells.CellsEngine(
                self.primary, self.secondary, self.option_items, self.option_colors
            )
            return built
        dlx = _native.load("lazysearch.exactcover._dlx")
        engine: Engine = dlx.DLXEngine(
            self.primary,
            self.secondary,
            self.option_items,
            self.option_colors,
            self.power if self.least_constraining else 0,
        )
        return engine

    def memo_cover(self) -> MemoCover:
        """This problem as the memo count takes it (see :mod:`.memo`)."""
        from .memo import MemoCover

        return MemoCover(self, self.memo_order, self.memo_likely)

    def fingerprint(self) -> str:
        """``sha256:`` and the digest of the numbers that define the problem."""
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self._identity())
        return self._fingerprint


def _split_text_option(text: str) -> list[Hashable]:
    """``"a b x:red"`` -> ``["a", "b", Colour("x", "red")]`` (Knuth's option lines)."""
    entries: list[Hashable] = []
    for token in text.split():
        item, sep, colour = token.partition(":")
        entries.append(Colour(item, colour) if sep else item)
    return entries


class ExactCover:
    """An exact-cover problem: choose options that cover every primary item exactly once
    and every secondary item at most once (or, with colours, only in one colour).

    >>> p = ExactCover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
    >>> p.primary
    ('c', 'e', 'a', 'd', 'g', 'b', 'f')
    >>> [p.options[j] for j in p.solve().one()]
    [('c', 'e'), ('a', 'd', 'f'), ('b', 'g')]

    Parameters
    ----------
    options:
        Each option is an iterable of items, or a string of whitespace-separated item
        names (``"a d g"``, with ``"x:red"`` for a coloured secondary item).  An item
        in an option is any hashable label, or a :class:`Colour` for a secondary item.
    primary:
        The primary items, in the order the search should prefer on ties.  When given,
        every item an option names must be listed here or in ``secondary``.  When
        omitted, every item that is not secondary is primary, in order of appearance.
    secondary:
        The secondary items.
    least_constraining:
        Try the options of each item the search branches on least constraining first
        (see :class:`DLXProblem`) instead of in the order given: the same solutions,
        in another order, often with a first one sooner.
    engine:
        ``"auto"`` (the default), ``"links"`` or ``"cells"``: the machine that walks
        the search tree (see :class:`DLXProblem`; the same tree, the same stream).
    reduce:
        Before searching, remove the options no solution can hold and the items that
        come along with others (Knuth's DLX-PRE; see :mod:`.reduce`).  The solutions
        are the same and still name the options by their index here; ``reduction``
        tells what went.  ``True`` spends at most the default work budget; an int sets
        the budget.

    Raises
    ------
    EmptyOptionError, UnknownItemError, DuplicateItemError, ItemConflictError, NoPrimaryItemError
        Each naming the option (0-based) and the item at fault.
    """

    def __init__(
        self,
        options: Iterable[Iterable[Hashable] | str],
        *,
        primary: Iterable[Hashable] | None = None,
        secondary: Iterable[Hashable] | None = None,
        least_constraining: bool = False,
        engine: str = "auto",
        reduce: bool | int = False,
    ) -> None:
        rows: list[tuple[Hashable, ...]] = [
            tuple(_split_text_option(o)) if isinstance(o, str) else tuple(o) for o in options
        ]
        sec = _unique(secondary or (), "secondary")
        closed = primary is not None
        prim = _unique(primary, "primary") if primary is not None else ()
        if closed:
            both = set(prim).intersection(sec)
            if both:
                item = next(x for x in prim if x in both)
                raise ItemConflictError(f"item {item!r} is both primary and secondary")
        # Number the items in one pass over the options: primary items 1..P in the order
        # given (or of first appearance), secondary items P+1.. in the order given.  While
        # primary items are still being discovered (``primary`` omitted), secondary ones
        # carry provisional negative numbers, fixed once P is known.
        number: dict[Hashable, int] = {item: i + 1 for i, item in enumerate(prim)}
        for s, item in enumerate(sec):
            number[item] = len(prim) + s + 1 if closed else -(s + 1)
        colours: dict[Hashable, int] = {}
        option_items: list[list[int]] = []
        option_colors: list[list[int]] = []
        lookup = number.get
        n_declared = len(prim)

        def is_primary(i: int) -> bool:
            return 0 < i <= n_declared if closed else i > 0

        for j, row in enumerate(rows):
            if not row:
                raise EmptyOptionError(f"option {j} is empty")
            items: list[int] = []
            cols: list[int] = []
            for entry in row:
                colour = None
                item = entry
                if isinstance(entry, Colour):
                    item, colour = entry.item, entry.colour
                i = lookup(item)
                if i is None:
                    if closed or colour is not None:
                        what = "neither primary nor secondary" if closed else "not declared"
                        if colour is not None and not closed:
                            raise ItemConflictError(
                                f"option {j} gives item {item!r} the colour {colour!r}, but only "
                                "secondary items take colours and it is not declared secondary"
                            )
                        raise UnknownItemError(f"option {j} names item {item!r}, which is {what}")
                    i = number[item] = len(number) - len(sec) + 1
                if i in items:
                    raise DuplicateItemError(f"option {j} names item {item!r} twice")
                if colour is not None and is_primary(i):
                    raise ItemConflictError(
                        f"option {j} gives primary item {item!r} the colour {colour!r}; "
                        "only secondary items take colours"
                    )
                items.append(i)
                cols.append(0 if colour is None else colours.setdefault(colour, len(colours) + 1))
            if not any(map(is_primary, items)):
                raise NoPrimaryItemError(
                    f"option {j} names no primary item, so no search could ever choose it"
                )
            option_items.append(items)
            option_colors.append(cols)
        n_primary = len(number) - len(sec)
        if not closed:
            prim = tuple(item for item, i in number.items() if i > 0)
            if sec:  # the provisional numbers of the secondary items become P+1..
                option_items = [[i if i > 0 else n_primary - i for i in o] for o in option_items]
        self.primary: tuple[Hashable, ...] = prim
        self.secondary: tuple[Hashable, ...] = sec
        self.options: tuple[tuple[Hashable, ...], ...] = tuple(rows)
        self.items: tuple[Hashable, ...] = prim + sec
        self.problem = DLXProblem(
            n_primary,
            len(sec),
            tuple(map(tuple, option_items)),
            tuple(map(tuple, option_colors)),
            least_constraining=least_constraining,
            engine=engine,
        )
        #: What ``reduce`` removed (None without it); see :class:`.reduce.Reduction`.
        self.reduction: Reduction | None = None
        if reduce is not False:
            from .reduce import DEFAULT_BUDGET, reduce_problem

            budget = DEFAULT_BUDGET if reduce is True else reduce
            self.reduction = reduce_problem(self.problem, budget)

    def search(self) -> Search:
        """The search over this problem as given (``reduce`` applies to :meth:`solve`)."""
        return Search(self.problem)

    def solve(self) -> Solutions[tuple[int, ...]]:
        """A lazy stream of solutions, each a tuple of option indices (ascending)."""
        if self.reduction is not None:
            from .reduce import Renumber

            return Solutions(Search(self.reduction.problem), Renumber(self.reduction.kept))
        return Solutions(Search(self.problem))

    def chosen(self, solution: Sequence[int]) -> list[tuple[Hashable, ...]]:
        """The options a solution picks, as given."""
        return [self.options[j] for j in solution]

    def verify(self, solution: Sequence[int]) -> None:
        """Raise ``InvalidSolutionError`` unless ``solution`` solves this problem."""
        from .verify import verify

        verify(self.options, solution, primary=self.primary, secondary=self.secondary)

    def __repr__(self) -> str:
        return (
            f"<ExactCover: {len(self.primary)} primary + {len(self.secondary)} secondary items, "
            f"{len(self.options)} options>"
        )


def _unique(items: Iterable[Hashable], which: str) -> tuple[Hashable, ...]:
    out: dict[Hashable, None] = {}
    for item in items:
        if item in out:
            raise DuplicateItemError(f"item {item!r} is listed twice among the {which} items")
        out[item] = None
    return tuple(out)


def exact_cover(
    options: Iterable[Iterable[Hashable] | str],
    *,
    primary: Iterable[Hashable] | None = None,
    secondary: Iterable[Hashable] | None = None,
    least_constraining: bool = False,
    engine: str = "auto",
    reduce: bool | int = False,
) -> Solutions[tuple[int, ...]]:
    """All exact covers of ``options``, as a lazy stream of tuples of option indices.

    >>> from lazysearch import exact_cover
    >>> exact_cover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"]).take(2)
    [(0, 3, 4)]

    Secondary items are covered at most once; with colours, options that agree on an
    item's colour may share it:

    >>> opts = [["p", Colour("x", 1)], ["q", Colour("x", 1)], ["q", Colour("x", 2)]]
    >>> exact_cover(opts, secondary=["x"]).take(5)
    [(0, 1)]

    The problem is checked when this is called; the search runs only when the stream
    is read.  See :class:`ExactCover` for the parameters and the errors.
    """
    return ExactCover(
        options,
        primary=primary,
        secondary=secondary,
        least_constraining=least_constraining,
        engine=engine,
        reduce=reduce,
    ).solve()
