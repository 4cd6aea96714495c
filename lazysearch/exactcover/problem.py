"""Exact-cover problems over any hashable item labels, and their solution streams."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import chain
from operator import mul
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast, overload

from ..engine import _native
from ..errors import (
    DuplicateItemError,
    EmptyOptionError,
    ExactCoverError,
    ItemConflictError,
    NoPrimaryItemError,
    UnknownItemError,
    brief,
)
from ..search import Search, fingerprint
from ..stream import Solutions
from . import matrix
from .cheapest import NO_LIMIT as NO_LIMIT

if TYPE_CHECKING:
    from ..search import Engine
    from .cheapest import CheapestSearch
    from .memo import MemoCover
    from .reduce import Reduction

#: What ``exact_cover`` and ``ExactCover`` take as options: a sequence of options, or a
#: mapping of name -> option whose names then stand for the options in the solutions.
Options = Iterable[Iterable[Hashable] | str] | Mapping[Any, Iterable[Hashable] | str]

#: The names of options given as a mapping.
N = TypeVar("N", bound=Hashable)


class BoundError(ExactCoverError):
    """Multiplicity bounds that no cover could meet or that name the wrong item: ``u > v``,
    ``v < 1``, not integers, or bounds on a secondary or unknown item."""


class CostError(ExactCoverError):
    """Option costs that are negative, not integers, too large, or not one per option."""


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
ENGINES = ("auto", "links", "cells", "bits")

#: ``engine="auto"`` takes dancing cells for problems with no secondary items and at
#: least this many options ...
AUTO_CELLS_OPTIONS = 128

#: ... whose options conflict with at least this many options per word of a bitset
#: (:func:`conflicts_per_word`; the sudoku grids measured have 0.4 to 4, and run slower
#: on cells: see :meth:`DLXProblem.chosen_engine`).
AUTO_CELLS_DENSITY = 4.5

#: ``engine="auto"`` takes the bitset engine for problems without colours of at most
#: this many options (its masks: 8 MiB) ...
AUTO_BITS_OPTIONS = 8192

#: ... whose options conflict with at least this many options per 64-bit word of a
#: bitset, as estimated by :func:`conflicts_per_word` (see :meth:`DLXProblem.chosen_engine`).
AUTO_BITS_DENSITY = 11.0

#: ... or at least this many when dancing cells does not take the problem (secondary
#: items, or fewer than :data:`AUTO_CELLS_OPTIONS` options): bits against links alone.
AUTO_BITS_OVER_LINKS = 9.5

#: The most 64-bit words the bitset engine's masks may take (``_bits.MAX_WORDS``):
#: about 16,000 options.
BITS_MAX_WORDS = 1 << 24

#: The names of the engines in messages.
ENGINE_NAMES = {"links": "dancing links", "cells": "dancing cells", "bits": "bitsets"}


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
        "_auto",
        "_engine_kind",
        "_fingerprint",
        "least_constraining",
        "memo_likely",
        "memo_order",
        "option_colors",
        "option_items",
        "power",
        "primary",
        "secondary",
        "seed",
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
        seed: int | None = None,
    ) -> None:
        if type(power) is not int or power < 1:
            raise ValueError(f"least constraining power must be an int >= 1, got {power!r}")
        self.primary = primary
        self.secondary = secondary
        self.option_items = option_items
        self.option_colors = option_colors
        self.least_constraining = least_constraining
        self.power = power
        self._auto: str | None = None
        self.engine_kind = engine
        self.seed = seed
        self._fingerprint: str | None = None
        #: For the memo count (not part of the problem's identity): the primary items
        #: in the order to branch on, first uncovered first (None: fewest options), and
        #: whether subproblems are known to recur (``count(method="auto")`` then uses it).
        self.memo_order: tuple[int, ...] | None = None
        self.memo_likely = False

    @property
    def engine_kind(self) -> str:
        """The engine asked for: one of :data:`ENGINES` (see :meth:`chosen_engine`)."""
        return self._engine_kind

    @engine_kind.setter
    def engine_kind(self, engine: str) -> None:
        if engine not in ENGINES:
            raise ValueError(
                f"exact-cover engine must be one of {', '.join(ENGINES)}, got {engine!r}"
            )
        if engine == "bits":
            _check_bits(self.option_items, self.option_colors)
        self._fingerprint = None
        self._engine_kind = engine

    def _identity(self) -> tuple[Any, ...]:
        state = self.primary, self.secondary, self.option_items, self.option_colors
        # The flag joins the state only when set, so the fingerprints (and checkpoints)
        # of problems in list order stay what they were; so does the power, when 2.
        if not self.least_constraining:
            return state
        return (*state, True) if self.power == 2 else (*state, True, self.power)

    def __getstate__(self) -> tuple[Any, ...]:
        if self.engine_kind == "auto" and self.seed is None:
            return self._identity()
        return (
            self.primary,
            self.secondary,
            self.option_items,
            self.option_colors,
            self.least_constraining,
            self.power,
            self.engine_kind,
            self.seed,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DLXProblem) and self._walked() == other._walked()

    def __hash__(self) -> int:
        return hash(self._walked())

    def _walked(self, engine: str | None = None) -> tuple[Any, ...]:
        """What names the search tree: the problem, and ``"cells"`` or ``"bits"`` when
        the dancing-cells or the bitset engine walks it (their positions are their own)."""
        state = self._identity()
        if self.seed is not None:
            state = (*state, "seed", self.seed)
        chosen = engine or self.chosen_engine()
        return (*state, chosen) if chosen in ("cells", "bits") else state

    def with_options(
        self,
        primary: int,
        secondary: int,
        option_items: tuple[tuple[int, ...], ...],
        option_colors: tuple[tuple[int, ...], ...],
    ) -> DLXProblem:
        """An exact cover with these items and options and this problem's settings (its
        option order, engine and seed): what a reduction keeps (see :mod:`.reduce`)."""
        return DLXProblem(
            primary,
            secondary,
            option_items,
            option_colors,
            least_constraining=self.least_constraining,
            power=self.power,
            engine=self.engine_kind,
            seed=self.seed,
        )

    @property
    def kind(self) -> str:
        return "exact-cover"

    def chosen_engine(self) -> str:
        """``"links"``, ``"cells"`` or ``"bits"``: the machine :meth:`engine` builds.

        The two walk different trees (dancing cells ends a try as soon as an item is left
        with no option, and breaks ties among forced moves another way), so each keeps
        its own positions, node counts and checkpoints.  The bitset engine walks the
        tree of links, but keeps its own checkpoints all the same.  ``auto`` takes, by
        :func:`conflicts_per_word` (``c``) and the number of options (``m``):

        1. bitsets for problems without colours, ``m <= AUTO_BITS_OPTIONS`` and
           ``c >= AUTO_BITS_DENSITY`` (11: tilings, Langford pairs up to 16, queens up
           to 17);
        2. else dancing cells for problems without secondary items (so without colours),
           ``m >= AUTO_CELLS_OPTIONS`` and ``c >= AUTO_CELLS_DENSITY`` (4.5: Langford
           pairs from 19 on; not the sudoku grids measured, 0.4 to 4, where cells took
           1.4 to 6.6 times the time of links);
        3. else bitsets again for problems without colours, ``m <= AUTO_BITS_OPTIONS``
           and ``c >= AUTO_BITS_OVER_LINKS`` (9.5: queens 18 to 21);
        4. else dancing links; and links whenever ``least_constraining`` is set (only
           links orders options that way).

        The table in docs/exact-cover.md gives the measured times behind this rule.
        """
        if self.least_constraining or self.engine_kind == "links":
            return "links"
        if self.engine_kind in ("cells", "bits"):
            return self.engine_kind
        if self._auto is None:
            self._auto = _auto_engine(self.secondary, self.option_items, self.option_colors)
        return self._auto

    def engine(self) -> Engine:
        items, colors, labels = self.option_items, self.option_colors, None
        if self.seed is not None:
            # A seeded order: the engine gets the options shuffled (so each item's list
            # too) and names them back as given.
            import random

            order = list(range(len(items)))
            random.Random(self.seed).shuffle(order)
            items = tuple(items[j] for j in order)
            colors = tuple(colors[j] for j in order)
            labels = order
        if self.chosen_engine() == "cells":
            cells = _native.load("lazysearch.exactcover._cells")
            built: Engine = cells.CellsEngine(self.primary, self.secondary, items, colors, labels)
            return built
        if self.chosen_engine() == "bits":
            bits = _native.load("lazysearch.exactcover._bits")
            walker: Engine = bits.BitsEngine(self.primary, self.secondary, items, colors, labels)
            return walker
        dlx = _native.load("lazysearch.exactcover._dlx")
        engine: Engine = dlx.DLXEngine(
            self.primary,
            self.secondary,
            items,
            colors,
            self.power if self.least_constraining else 0,
            labels,
        )
        return engine

    def memo_cover(self) -> MemoCover:
        """This problem as the memo count takes it (see :mod:`.memo`)."""
        from .memo import MemoCover

        return MemoCover(self, self.memo_order, self.memo_likely)

    def fingerprint(self) -> str:
        """``sha256:`` and the digest of the numbers that define the problem (and of
        ``"cells"`` or ``"bits"`` when the dancing-cells or the bitset engine walks it)."""
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self._walked())
        return self._fingerprint

    def explain_mismatch(self, other: object) -> str | None:
        """Why a checkpoint with fingerprint ``other`` cannot resume here, when it was
        taken on this problem with the other engine (None otherwise)."""
        mine = self.chosen_engine()
        if self.least_constraining:
            return None
        # engine="auto" has changed its choice for some problems (sudoku grids went from
        # cells to links, queens 18-21 from links to bits): a checkpoint of the old
        # choice is refused here, saying which engine took it.
        runs = ENGINE_NAMES[mine]
        if self.engine_kind == "auto":
            runs += ", which engine='auto' takes for this problem"
        for theirs in ENGINE_NAMES:
            if theirs != mine and other == fingerprint(self._walked(theirs)):
                return (
                    f"checkpoint was taken on {ENGINE_NAMES[theirs]}, and this search runs on "
                    f"{runs}: each engine keeps its own positions, so its "
                    f"position may name other nodes here; resume it with engine={theirs!r}"
                )
        return None


def _auto_engine(
    secondary: int,
    option_items: tuple[tuple[int, ...], ...],
    option_colors: tuple[tuple[int, ...], ...],
) -> str:
    """The engine ``engine="auto"`` takes (see :meth:`DLXProblem.chosen_engine`)."""
    m = len(option_items)
    density = conflicts_per_word(option_items)
    # (Colours are on secondary items only.)
    coloured = secondary > 0 and any(map(any, option_colors))
    bits_fit = m <= AUTO_BITS_OPTIONS and not coloured
    if bits_fit and density >= AUTO_BITS_DENSITY:
        return "bits"
    if secondary == 0 and m >= AUTO_CELLS_OPTIONS and density >= AUTO_CELLS_DENSITY:
        return "cells"
    if bits_fit and density >= AUTO_BITS_OVER_LINKS:
        return "bits"
    return "links"


def conflicts_per_word(option_items: Sequence[Sequence[int]]) -> float:
    """About how many options each option excludes, per 64-bit word of a bitset of all
    the options: the bitset engine's work per try is a word, dancing links' an option
    excluded (and its nodes).  Estimated as the sum over the items of their number of
    options squared, over the options and over the words (an option sharing two items
    with another counts it twice); exact for options sharing at most one item.

    >>> conflicts_per_word([(1, 2), (1, 3), (2, 3)])
    4.0
    """
    m = len(option_items)
    if m == 0:
        return 0.0
    # Counted in C (auto pays this before every search: a 9x9 puzzle's 246 options in
    # 0.03 ms, where a loop over the items took 0.17 ms, more than building its engine).
    length = list(Counter(chain.from_iterable(option_items)).values())
    squares: int = sum(map(mul, length, length))
    return squares / m / ((m + 63) // 64)


def _check_bits(
    option_items: tuple[tuple[int, ...], ...], option_colors: tuple[tuple[int, ...], ...]
) -> None:
    """Refuse what the bitset engine cannot walk: colours, or more options than its
    masks may take (:data:`._bits.MAX_WORDS`)."""
    for j, colors in enumerate(option_colors):
        if any(colors):
            raise ExactCoverError(
                f"engine='bits' takes no colours, and option {j} gives one to a secondary "
                "item; use engine='links' or 'cells'"
            )
    words = len(option_items) * ((len(option_items) + 63) // 64)
    if words > BITS_MAX_WORDS:
        raise ExactCoverError(
            f"engine='bits' keeps a mask of every option per option: {len(option_items):,} "
            f"options would take {8 * words:,} bytes (at most {8 * BITS_MAX_WORDS:,}); "
            "use engine='links' or 'cells'"
        )


class MCCProblem(DLXProblem):
    """An exact cover with multiplicities and costs as Algorithm M's engine sees it.

    A :class:`DLXProblem` (which it extends) plus ``lower[i]``/``upper[i]`` for primary
    item ``i + 1`` (each covered between them), ``costs[j]`` for option ``j``, ``seed``
    (None: options of equal cost in the order given) and the cost window: only covers costing from
    ``cost_lo`` to ``cost_hi`` are solutions (the search prunes past ``cost_hi``).
    """

    __slots__ = ("cost_hi", "cost_lo", "costs", "lower", "seed", "upper")

    #: The memo count and the diagram know nothing of bounds and costs: they enumerate.
    memo_cover = None  # type: ignore[assignment]

    def __init__(
        self,
        primary: int,
        secondary: int,
        option_items: tuple[tuple[int, ...], ...],
        option_colors: tuple[tuple[int, ...], ...],
        lower: tuple[int, ...],
        upper: tuple[int, ...],
        costs: tuple[int, ...],
        seed: int | None = None,
        cost_lo: int = 0,
        cost_hi: int = NO_LIMIT,
    ) -> None:
        super().__init__(primary, secondary, option_items, option_colors)
        self.lower = lower
        self.upper = upper
        self.costs = costs
        self.seed = seed
        self.cost_lo = cost_lo
        self.cost_hi = cost_hi

    def __getstate__(self) -> tuple[Any, ...]:
        return self._identity()

    def _walked(self, engine: str | None = None) -> tuple[Any, ...]:
        return self._identity()  # one engine, Algorithm M's: the seed is in the identity

    def _identity(self) -> tuple[Any, ...]:
        # Pickling, equality and the fingerprint (DLXProblem's, on this) all use it.
        return (
            self.primary,
            self.secondary,
            self.option_items,
            self.option_colors,
            self.lower,
            self.upper,
            self.costs,
            self.seed,
            self.cost_lo,
            self.cost_hi,
        )

    def engine(self) -> Engine:
        mcc = _native.load("lazysearch.exactcover._mcc")
        engine: Engine = mcc.MCCEngine(*self._identity())  # the engine's arguments, in order
        return engine

    def window(self, lo: int, hi: int) -> MCCProblem:
        """This problem with only the covers costing ``lo`` to ``hi`` as solutions."""
        return MCCProblem(
            self.primary,
            self.secondary,
            self.option_items,
            self.option_colors,
            self.lower,
            self.upper,
            self.costs,
            self.seed,
            lo,
            hi,
        )

    def cheapest(self, k: int | None) -> CheapestSearch:
        """A search of the covers in order of cost (see :mod:`.cheapest`)."""
        from .cheapest import CheapestSearch

        return CheapestSearch(self, k)


def _declared(
    primary: Iterable[Hashable] | None, secondary: Iterable[Hashable] | None
) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...], bool]:
    """The primary and secondary items declared, each once and none both, and whether
    the primary items were (else they are those the options name)."""
    sec = _unique(secondary or (), "secondary")
    closed = primary is not None
    prim = _unique(primary, "primary") if primary is not None else ()
    if closed:
        both = set(prim).intersection(sec)
        if both:
            item = next(x for x in prim if x in both)
            raise ItemConflictError(f"item {item!r} is both primary and secondary")
    return prim, sec, closed


def _reduced(problem: DLXProblem, reduce: bool | int) -> Reduction | None:
    """``problem`` reduced as ``reduce`` asks (False: not at all; True: within the
    default work budget; an int: within that budget)."""
    if reduce is False:
        return None
    from .reduce import DEFAULT_BUDGET, reduce_problem

    return reduce_problem(problem, DEFAULT_BUDGET if reduce is True else reduce)


def _read_options(
    options: Options,
) -> tuple[tuple[Hashable, ...] | None, list[tuple[Hashable, ...]]]:
    """The options' names (None for a sequence of options) and each option's entries,
    a string option split into its items (:func:`_split_text_option`)."""
    names = _option_names(options)
    if names is not None:
        options = cast("Mapping[Hashable, Iterable[Hashable] | str]", options).values()
    tag = _namer(names)
    rows: list[tuple[Hashable, ...]] = []
    for j, o in enumerate(options):
        if isinstance(o, str):
            rows.append(tuple(_split_text_option(o)))
            continue
        try:
            if isinstance(o, bytes | bytearray):
                raise TypeError
            entries = iter(cast("Iterable[Hashable]", o))
        except TypeError:
            raise TypeError(
                f"option {tag(j)} must be an iterable of items or a string of item "
                f"names, got {brief(o)}"
            ) from None
        rows.append(tuple(entries))
    return names, rows


def _namer(names: tuple[Hashable, ...] | None) -> Callable[[int], str]:
    """How a message names option ``j``: its index, or its key in a mapping."""
    if names is None:
        return str
    return lambda j: repr(names[j])


def _option_names(options: object) -> tuple[Hashable, ...] | None:
    """The keys of a mapping of options, which name the options in solutions; None for
    a sequence of options.  A lone string is refused: it would read as one option per
    character."""
    if isinstance(options, str | bytes | bytearray):
        raise TypeError(
            "options must be an iterable of options, each an iterable of items or a string "
            f"of item names, or a mapping of name -> option; got the lone string "
            f"{brief(options)} (for one option, pass [{brief(options)}])"
        )
    if isinstance(options, Mapping):
        return tuple(options)
    return None


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
        A mapping of name -> option names the options: solutions are then tuples of
        names (in the mapping's order) instead of indices.  A lone string is refused
        (``TypeError``): for one option, pass a list of one string.  A NumPy 0/1
        array or a SciPy sparse matrix is read as options by rows, items by columns
        (item ``c`` is column ``c``; every column primary unless ``secondary`` or
        ``primary`` says otherwise).
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
        ``"auto"`` (the default), ``"links"``, ``"cells"`` or ``"bits"``: the machine
        that walks the search tree (:meth:`DLXProblem.chosen_engine` says how ``"auto"``
        picks; ``"bits"`` keeps the options as bitsets, for problems without colours).
        All find the same solutions, each in its own tree: positions and checkpoints
        resume on the engine that made them, and the others refuse them.
    reduce:
        Before searching, remove the options no solution can hold and the items that
        come along with others (Knuth's DLX-PRE; see :mod:`.reduce`).  The solutions
        are the same and still name the options by their index here; ``reduction``
        tells what went.  ``True`` spends at most the default work budget; an int sets
        the budget.
    bounds:
        ``{item: (u, v)}``: primary ``item`` is covered at least ``u`` and at most ``v``
        times (``1 <= v``, ``0 <= u <= v``; items not named: once).  A solution is a
        *set* of options (Knuth's rule for DLX3, see docs/exact-cover.md).
    costs:
        A non-negative integer cost per option; see :meth:`Solutions.cheapest`.
    seed:
        Try options (of equal cost) in an order shuffled by this seed: the same
        solutions in another order, the same order for the same seed (not uniformly
        random solutions: see :meth:`Solutions.sample` for those).  On every engine:
        links and cells get the options shuffled, Algorithm M shuffles them itself.

    Notes
    -----
    With ``bounds`` or ``costs`` the search runs Knuth's Algorithm M
    (``lazysearch.exactcover._mcc``); without, the dancing-links engine or dancing
    cells (``engine``).  ``engine``, ``least_constraining`` and ``reduce`` are for exact
    covers without them.

    Raises
    ------
    EmptyOptionError, UnknownItemError, DuplicateItemError, ItemConflictError, NoPrimaryItemError
        Each naming the option (0-based) and the item at fault.
    BoundError, CostError
        Naming the item or the option and the value at fault.
    """

    def __init__(
        self,
        options: Options,
        *,
        primary: Iterable[Hashable] | None = None,
        secondary: Iterable[Hashable] | None = None,
        least_constraining: bool = False,
        engine: str = "auto",
        reduce: bool | int = False,
        bounds: Mapping[Hashable, tuple[int, int]] | None = None,
        costs: Sequence[int] | None = None,
        seed: int | None = None,
    ) -> None:
        if matrix.is_matrix(options):  # NumPy's or SciPy's: rows are options, columns items
            options, primary, secondary = matrix.declared(options, primary, secondary)
        names, rows = _read_options(options)
        tag = _namer(names)
        #: The options' names when given as a mapping (solutions are tuples of them),
        #: else None (solutions are tuples of option indices).
        self.names: tuple[Hashable, ...] | None = names
        prim, sec, closed = _declared(primary, secondary)
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
                raise EmptyOptionError(f"option {tag(j)} is empty")
            items: list[int] = []
            seen: set[int] = set()  # (a set, not ``items``: linear in the option's length)
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
                                f"option {tag(j)} gives item {item!r} the colour {colour!r}, but "
                                "only secondary items take colours and it is not declared "
                                "secondary"
                            )
                        raise UnknownItemError(
                            f"option {tag(j)} names item {item!r}, which is {what}"
                        )
                    i = number[item] = len(number) - len(sec) + 1
                if i in seen:
                    raise DuplicateItemError(f"option {tag(j)} names item {item!r} twice")
                seen.add(i)
                if colour is not None and is_primary(i):
                    raise ItemConflictError(
                        f"option {tag(j)} gives primary item {item!r} the colour {colour!r}; "
                        "only secondary items take colours"
                    )
                items.append(i)
                cols.append(0 if colour is None else colours.setdefault(colour, len(colours) + 1))
            if not any(map(is_primary, items)):
                raise NoPrimaryItemError(
                    f"option {tag(j)} names no primary item, so no search could ever choose it"
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
        self.bounds: dict[Hashable, tuple[int, int]] = _bounds(bounds, number, n_primary)
        self.costs: tuple[int, ...] | None = None if costs is None else _costs(costs, len(rows))
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise ValueError(f"seed must be an int from 0 to 2**63-1, got {seed!r}")
        self.seed = seed
        self.problem: DLXProblem
        #: What ``reduce`` removed (None without it); see :class:`.reduce.Reduction`.
        self.reduction: Reduction | None = None
        if bounds is None and costs is None:
            self.problem = DLXProblem(
                n_primary,
                len(sec),
                tuple(map(tuple, option_items)),
                tuple(map(tuple, option_colors)),
                least_constraining=least_constraining,
                engine=engine,
                seed=seed,
            )
            self.reduction = _reduced(self.problem, reduce)
            return
        for flag, value, plain in [
            ("least_constraining", least_constraining, False),
            ("engine", engine, "auto"),
            ("reduce", reduce, False),
        ]:
            if value != plain:
                raise ValueError(
                    f"{flag}={value!r} is for exact covers on dancing links or cells; "
                    "it does not combine with bounds or costs"
                )
        self.problem = self._multiplicities(number, n_primary, option_items, option_colors)

    def _multiplicities(
        self,
        number: dict[Hashable, int],
        n_primary: int,
        option_items: list[list[int]],
        option_colors: list[list[int]],
    ) -> MCCProblem:
        """The problem for Algorithm M: this cover's bounds and costs over its numbered
        items and options."""
        lower = [1] * n_primary
        upper = [1] * n_primary
        for item, (u, v) in self.bounds.items():
            lower[number[item] - 1] = u
            upper[number[item] - 1] = v
        return MCCProblem(
            n_primary,
            len(self.secondary),
            tuple(map(tuple, option_items)),
            tuple(map(tuple, option_colors)),
            tuple(lower),
            tuple(upper),
            self.costs or (0,) * len(self.options),
            self.seed,
        )

    def search(self) -> Search:
        """The search over this problem as given (``reduce`` applies to :meth:`solve`)."""
        return Search(self.problem)

    def solve(self) -> Solutions[tuple[Any, ...]]:
        """A lazy stream of solutions, each a tuple of option indices (ascending), or of
        the options' names (in the mapping's order) when the options came as a mapping."""
        from .reduce import Renumber

        names = self.names
        if self.reduction is not None:
            kept = self.reduction.kept
            relabel = kept if names is None else tuple(names[j] for j in kept)
            return Solutions(Search(self.reduction.problem), Renumber(relabel))
        return Solutions(Search(self.problem), None if names is None else Renumber(names))

    def indices(self, solution: Iterable[Hashable]) -> list[int]:
        """The option indices of ``solution``: itself, or its names looked up when the
        options came as a mapping.

        >>> ExactCover({"A": "x", "B": "y"}).indices(("B",))
        [1]
        """
        if self.names is None:
            return list(cast("Iterable[int]", solution))
        index = {name: j for j, name in enumerate(self.names)}
        found = []
        for name in solution:
            if name not in index:
                raise KeyError(f"{name!r} names no option")
            found.append(index[name])
        return found

    def cost(self, solution: Iterable[Hashable]) -> int:
        """The total cost of the options of ``solution`` (0 without costs).

        >>> p = ExactCover(["a", "b", "a b"], costs=[1, 1, 3])
        >>> [(s, p.cost(s)) for s in p.solve().cheapest()]
        [((0, 1), 2), ((2,), 3)]
        """
        costs = self.costs
        return 0 if costs is None else sum(costs[j] for j in self.indices(solution))

    def chosen(self, solution: Iterable[Hashable]) -> list[tuple[Hashable, ...]]:
        """The options a solution picks, as given."""
        return [self.options[j] for j in self.indices(solution)]

    def verify(self, solution: Iterable[Hashable]) -> None:
        """Raise ``InvalidSolutionError`` unless ``solution`` solves this problem."""
        from .verify import verify

        verify(
            self.options,
            self.indices(solution),
            primary=self.primary,
            secondary=self.secondary,
            bounds=self.bounds,
        )

    def __repr__(self) -> str:
        return (
            f"<ExactCover: {len(self.primary)} primary + {len(self.secondary)} secondary items, "
            f"{len(self.options)} options>"
        )


def _bounds(
    bounds: Mapping[Hashable, tuple[int, int]] | None, number: dict[Hashable, int], primary: int
) -> dict[Hashable, tuple[int, int]]:
    """``bounds`` checked: each key a primary item, each value ``(u, v)``, integers with
    ``0 <= u <= v`` and ``1 <= v < 2**31``."""
    if bounds is None:
        return {}
    checked: dict[Hashable, tuple[int, int]] = {}
    for item, pair in bounds.items():
        i = number.get(item)
        if i is None:
            raise UnknownItemError(f"bounds name item {item!r}, which no option or list names")
        if not 0 < i <= primary:
            raise BoundError(
                f"bounds {pair!r} on secondary item {item!r}: only primary items take bounds"
            )
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(type(b) is int for b in pair)
        ):
            raise BoundError(f"bounds of item {item!r} must be a pair of ints (u, v), got {pair!r}")
        u, v = pair
        if not 0 <= u <= v or not 1 <= v < 2**31:
            raise BoundError(
                f"bounds ({u}, {v}) of item {item!r} need 0 <= u <= v and 1 <= v < 2**31"
            )
        checked[item] = (u, v)
    return checked


def _costs(costs: Sequence[int], options: int) -> tuple[int, ...]:
    """``costs`` checked: one non-negative int per option, their sum below 2**62."""
    if isinstance(costs, str | bytes) or not isinstance(costs, Sequence):
        raise CostError(f"costs must be a sequence of ints, one per option, got {costs!r}")
    if len(costs) != options:
        raise CostError(f"costs has {len(costs)} entries for {options} options")
    for j, c in enumerate(costs):
        if type(c) is not int:
            raise CostError(f"the cost of option {j} must be an integer, got {c!r}")
        if c < 0:
            raise CostError(f"the cost of option {j} is negative: {c!r}")
    out = tuple(costs)
    if sum(out) >= NO_LIMIT:
        raise CostError(f"costs add up to {sum(out)}, past the engine's 2**62-1")
    return out


def _unique(items: Iterable[Hashable], which: str) -> tuple[Hashable, ...]:
    out: dict[Hashable, None] = {}
    for item in items:
        if item in out:
            raise DuplicateItemError(f"item {item!r} is listed twice among the {which} items")
        out[item] = None
    return tuple(out)


# (A mapping is an iterable of its keys too: the first overload that fits is taken.)
@overload
def exact_cover(  # type: ignore[overload-overlap]
    options: Mapping[N, Iterable[Hashable] | str],
    *,
    primary: Iterable[Hashable] | None = None,
    secondary: Iterable[Hashable] | None = None,
    least_constraining: bool = False,
    engine: str = "auto",
    reduce: bool | int = False,
    bounds: Mapping[Hashable, tuple[int, int]] | None = None,
    costs: Sequence[int] | None = None,
    seed: int | None = None,
) -> Solutions[tuple[N, ...]]: ...
@overload
def exact_cover(
    options: Iterable[Iterable[Hashable] | str],
    *,
    primary: Iterable[Hashable] | None = None,
    secondary: Iterable[Hashable] | None = None,
    least_constraining: bool = False,
    engine: str = "auto",
    reduce: bool | int = False,
    bounds: Mapping[Hashable, tuple[int, int]] | None = None,
    costs: Sequence[int] | None = None,
    seed: int | None = None,
) -> Solutions[tuple[int, ...]]: ...
def exact_cover(
    options: Options,
    *,
    primary: Iterable[Hashable] | None = None,
    secondary: Iterable[Hashable] | None = None,
    least_constraining: bool = False,
    engine: str = "auto",
    reduce: bool | int = False,
    bounds: Mapping[Hashable, tuple[int, int]] | None = None,
    costs: Sequence[int] | None = None,
    seed: int | None = None,
) -> Solutions[tuple[Any, ...]]:
    """All exact covers of ``options``, as a lazy stream of tuples of option indices.

    >>> from lazysearch import exact_cover
    >>> exact_cover(["c e", "a d g", "b c f", "a d f", "b g", "d e g"]).take(2)
    [(0, 3, 4)]

    Options given as a mapping are named by its keys in the solutions:

    >>> exact_cover({"A": "c e", "B": "a d g", "C": "b c f", "D": "a d f", "E": "b g"}).one()
    ('A', 'D', 'E')

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
        bounds=bounds,
        costs=costs,
        seed=seed,
    ).solve()
