"""The board of the knight's tours: squares and moves, the tour as a sequence of squares,
the search's problem, the checks of what a user gives, the theorems that rule tours out,
and the independent verifier.

Squares are ``(row, col)`` pairs, 0-based, row 0 at the top.  A *tour* visits every
square once; it is *closed* when its last square is a knight's move from its first.
:mod:`lazysearch.knights.solver` searches, counts and draws tours on it (and names all
of this module's public names too).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, NoReturn, overload

from ..engine import _native
from ..errors import InvalidSolutionError, LazysearchError
from ..search import fingerprint

if TYPE_CHECKING:
    from ..search import Engine

Square = tuple[int, int]

#: The eight knight's moves, in the order that breaks the last Warnsdorff ties.
MOVES: tuple[Square, ...] = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def is_move(a: Square, b: Square) -> bool:
    """Whether ``a`` and ``b`` are a knight's move apart."""
    return {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}


class KnightsError(LazysearchError):
    """A board or start square that cannot be used (a side < 1, a square off the board)."""


class NoTourError(LazysearchError):
    """``tour()`` was asked for a tour that does not exist; the message says why."""


class Tour(Sequence[Square]):
    """A knight's tour: the squares in the order visited, with the board's size.

    It is a sequence of ``(row, col)`` pairs that compares, hashes and prints like the
    tuple of them; ``str()`` draws the board with move numbers.

    >>> t = Tour([(0, 0), (2, 1), (0, 2), (1, 0), (2, 2), (0, 1), (1, 2), (2, 0)], 3, 3)
    >>> t[:2], t.rows, t.cols, t.closed
    (((0, 0), (2, 1)), 3, 3, False)

    Squares on the board are held as indices ``row * cols + col`` in an
    ``array('I')``, 4 bytes a square, and decoded when read: a tour of 10^8 squares
    takes 400 MB (as a tuple of pairs it took about 140 bytes a square).  Pairs that
    are not all on the board are kept as given, in a tuple, so that :func:`verify` can
    say what is wrong with them.
    """

    __slots__ = ("_codes", "_hash", "_pairs", "cols", "rows")

    rows: int
    cols: int

    def __init__(self, squares: Iterable[Square] = (), rows: int = 0, cols: int = 0) -> None:
        self.rows = rows
        self.cols = cols
        self._hash: int | None = None
        self._pairs: tuple[Square, ...] | None = None
        self._codes: array[int] | None = None
        if isinstance(squares, Tour) and squares._codes is not None and squares.cols == cols:
            self._codes = squares._codes
            return
        squares = tuple(squares)
        try:
            self._codes = array(
                "I",
                [r * cols + c if 0 <= r < rows and 0 <= c < cols else -1 for r, c in squares],
            )
        except (TypeError, ValueError, OverflowError):  # off the board, or not pairs
            self._pairs = squares

    @classmethod
    def from_indices(cls, codes: array[int], rows: int, cols: int) -> Tour:
        """The tour whose squares are ``divmod(code, cols)`` for each of ``codes`` (an
        ``array('I')``, kept, not copied; each code below ``rows * cols``).

        >>> from array import array
        >>> Tour.from_indices(array("I", [0, 5, 2]), 2, 3)
        ((0, 0), (1, 2), (0, 2))
        """
        if not isinstance(codes, array) or codes.typecode != "I":
            raise KnightsError(f"a tour's indices are an array('I'), got {type(codes).__name__}")
        self = cls.__new__(cls)
        self.rows = rows
        self.cols = cols
        self._hash = None
        self._pairs = None
        self._codes = codes
        return self

    def indices(self) -> array[int]:
        """The squares as indices ``row * cols + col``, 4 bytes each (the tour's own
        array: do not change it).

        >>> Tour([(0, 0), (1, 2), (0, 2)], 2, 3).indices()
        array('I', [0, 5, 2])

        Raises
        ------
        KnightsError
            If a square is off the board.
        """
        if self._codes is None:
            raise KnightsError(
                f"a tour with squares off the {self.rows}x{self.cols} board has no indices"
            )
        return self._codes

    def __len__(self) -> int:
        return len(self._codes if self._codes is not None else self._pairs or ())

    @overload
    def __getitem__(self, index: int) -> Square: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Square, ...]: ...

    def __getitem__(self, index: int | slice) -> Square | tuple[Square, ...]:
        if self._codes is None:
            return (self._pairs or ())[index]
        if isinstance(index, slice):
            return tuple(map(divmod, self._codes[index], repeat(self.cols)))
        return divmod(self._codes[index], self.cols)

    def __iter__(self) -> Iterator[Square]:
        if self._codes is None:
            return iter(self._pairs or ())
        return map(divmod, self._codes, repeat(self.cols))

    def __contains__(self, square: object) -> bool:
        code = self._code(square)
        if code is None:
            return any(square == s for s in self)
        return code in self._codes  # type: ignore[operator]

    def index(self, square: object, start: int = 0, stop: int = sys.maxsize) -> int:
        """Where ``square`` comes in the tour (``ValueError`` if it does not)."""
        code = self._code(square)
        if code is None:
            return super().index(square, start, stop)
        assert self._codes is not None
        return self._codes.index(code, start, min(stop, len(self._codes)))

    def _code(self, square: object) -> int | None:
        """``square``'s index when the tour holds indices and ``square`` is a pair on the
        board (the only squares it can hold); else ``None``."""
        if self._codes is None or not isinstance(square, tuple) or len(square) != 2:
            return None
        r, c = square
        if type(r) is not int or type(c) is not int:
            return None
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return -1  # in no tour of this board
        return r * self.cols + c

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tour):
            if self._codes is not None and other._codes is not None and self.cols == other.cols:
                return self._codes == other._codes
            return len(self) == len(other) and tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return len(self) == len(other) and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, (Tour, tuple)):
            return NotImplemented
        return tuple(self) < tuple(other)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, (Tour, tuple)):
            return NotImplemented
        return tuple(self) <= tuple(other)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, (Tour, tuple)):
            return NotImplemented
        return tuple(self) > tuple(other)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, (Tour, tuple)):
            return NotImplemented
        return tuple(self) >= tuple(other)

    def __repr__(self) -> str:
        """The squares; of a tour over 100 squares, the first and last few (a stream's
        repr is cut likewise): ``repr(tour(1000))`` would be 11.8 MB."""
        if len(self) <= 100:
            return repr(tuple(self))
        head = ", ".join(map(repr, self[:4]))
        size = f"{self.rows}x{self.cols}, {len(self):,} squares"
        return f"<Tour of {size}: {head}, ..., {self[-1]!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._codes is None:
            return Tour, (self._pairs, self.rows, self.cols)
        return Tour.from_indices, (self._codes, self.rows, self.cols)

    @property
    def closed(self) -> bool:
        """Whether the last square is a knight's move from the first (on a full tour)."""
        if len(self) != self.rows * self.cols or len(self) < 2:
            return False
        return is_move(self[0], self[-1])

    def _move_numbers(self) -> array[int]:
        """The move number of each square, row by row (0: not visited), 4 bytes each."""
        size = self.rows * self.cols
        if self._codes is not None:
            module = _native.load("lazysearch.knights._tour")
            numbers: array[int] = module.move_numbers(self._codes, size)
            return numbers
        numbers = array("I", [0]) * size
        for n, (r, c) in enumerate(self, start=1):
            numbers[r * self.cols + c] = n
        return numbers

    def numbers(self) -> list[list[int]]:
        """The board as rows of move numbers, 1 for the start (0 for a square not visited)."""
        numbers = self._move_numbers()
        cols = self.cols
        return [numbers[r * cols : (r + 1) * cols].tolist() for r in range(self.rows)]

    def lines(self) -> Iterator[str]:
        """The lines of ``str(tour)``, one a row, made as they are read (a board of 10^8
        squares is about a gigabyte of text)."""
        numbers = self._move_numbers()
        cols = self.cols
        row = " ".join([f"%{len(str(len(self)))}d"] * cols)
        for r in range(self.rows):
            yield row % tuple(numbers[r * cols : (r + 1) * cols])

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def svg(self, *, square: int = 40) -> str:
        """An SVG picture of the tour; see :func:`lazysearch.render.svg.knights_tour`."""
        from ..render.svg import knights_tour

        return knights_tour(self, square=square)

    def _repr_svg_(self) -> str:
        """The picture, for Jupyter."""
        return self.svg()


class KnightsProblem:
    """A tour search as the engine sees it: the board, the start squares (as indices
    ``row * cols + col``), open or closed, the forced second square (``-1``: none) and
    the move order.  Plain data, so it pickles to worker processes."""

    __slots__ = ("_fingerprint", "closed", "cols", "moves", "rows", "second", "starts")

    def __init__(
        self,
        rows: int,
        cols: int,
        starts: Sequence[int],
        closed: bool,
        second: int = -1,
        moves: Sequence[Square] = MOVES,
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.starts = tuple(starts)
        self.closed = closed
        self.second = second
        self.moves = tuple(moves)
        self._fingerprint: str | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return self.rows, self.cols, self.starts, self.closed, self.second, self.moves

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    @property
    def kind(self) -> str:
        return "knights-tour"

    def engine(self) -> Engine:
        module = _native.load("lazysearch.knights._tour")
        engine: Engine = module.KnightEngine(
            self.rows, self.cols, self.starts, self.closed, self.second, self.moves
        )
        return engine

    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.__getstate__())
        return self._fingerprint


# -- checking what the user gave --------------------------------------------------------


def check_board(rows: object, cols: object) -> tuple[int, int]:
    """``(rows, cols)`` checked to be whole numbers >= 1 (``cols=None``: a square board);
    :class:`KnightsError` naming them if not."""
    if cols is None:
        cols = rows
    for side in (rows, cols):
        if isinstance(side, bool) or not isinstance(side, int) or side < 1:
            raise KnightsError(
                f"a board needs whole numbers of rows and columns >= 1, got {rows!r} x {cols!r}"
            )
    assert isinstance(rows, int) and isinstance(cols, int)
    return rows, cols


def square_index(square: object, rows: int, cols: int, what: str = "start square") -> int:
    """The index ``row * cols + col`` of ``square``, checked to be on the board."""
    ok = (
        isinstance(square, Sequence)
        and len(square) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in square)
    )
    if not ok:
        raise KnightsError(f"a {what} is a (row, col) pair of whole numbers, got {square!r}")
    assert isinstance(square, Sequence)
    r, c = square
    if not (0 <= r < rows and 0 <= c < cols):
        raise KnightsError(
            f"{what} {(r, c)} is off the {rows}x{cols} board "
            f"(rows 0..{rows - 1}, columns 0..{cols - 1})"
        )
    return int(r * cols + c)


# -- boards with no tour ------------------------------------------------------------------


def no_tour_reason(
    rows: int, cols: int | None = None, *, start: Square | None = None, closed: bool = False
) -> str | None:
    """Why there is no tour of this kind, when a theorem says so at once; else ``None``.

    ``None`` does not promise a tour: it means only that none of these arguments applies.

    * closed tours (Schwenk 1991; with ``m <= n``): none when ``m`` and ``n`` are both odd,
      when ``m`` is 1, 2 or 4, or when ``m = 3`` and ``n`` is 4, 6 or 8;
    * open tours: none on 1xn (n > 1), 2xn, 3x3, 3x5, 3x6 and 4x4; on a board with a
      side of four, none from a square of the two inner lines across that side (each
      square of the outer lines has all its neighbours on the inner ones, and the outer
      squares are half the board, so a tour alternates between them);
    * a knight's move always changes the colour of its square, so on a board with an odd
      number of squares a tour starts and ends on the colour with more squares (that of
      the corners).

    >>> no_tour_reason(8, closed=True) is None
    True
    >>> no_tour_reason(5, 5, start=(0, 1))
    'on an odd number of squares a tour starts on the colour of the corners, and (0, 1) is not'
    """
    rows, cols = check_board(rows, cols)
    if start is not None:
        square_index(start, rows, cols)
    m, n = sorted((rows, cols))
    if closed:
        if m == n == 1:
            return "a 1x1 board has no move to close a tour with"
        if m % 2 and n % 2:
            return (
                f"a closed tour alternates colours, so it needs an even number of squares, "
                f"and {rows}x{cols} has {rows * cols} (Schwenk 1991)"
            )
        if m in (1, 2, 4):
            return f"no closed tour exists when the shorter side is {m} (Schwenk 1991)"
        if m == 3 and n in (4, 6, 8):
            return f"no closed tour exists on 3x{n} (Schwenk 1991)"
        return None
    if m == 1 and n > 1:
        return f"a knight cannot move at all on a 1x{n} board"
    if m == 2:
        return f"a knight can never visit every square of a 2x{n} board"
    if (m, n) in ((3, 3), (3, 5), (3, 6), (4, 4)):
        return f"no open tour exists on {m}x{n}"
    if start is not None and 4 in (rows, cols):
        # Along a side of four, the two outer lines' squares (half of the board) have
        # all their neighbours on the two inner lines: no two of them can follow each
        # other, so a tour alternates outer and inner squares, with one step between
        # inner ones at most, and must start and end on an outer line.
        along = start[0] if rows == 4 else start[1]
        if along in (1, 2):
            line = "row" if rows == 4 else "column"
            return (
                f"on a board with a side of four an open tour starts on an outer {line} "
                f"of that side (half the squares, whose neighbours are all on the inner "
                f"ones), and {tuple(start)} is on an inner one"
            )
    if start is not None and rows * cols % 2 and sum(start) % 2:
        return (
            f"on an odd number of squares a tour starts on the colour of the corners, "
            f"and {tuple(start)} is not"
        )
    return None


def start_squares(rows: int, cols: int, start: Square | None, closed: bool) -> list[int]:
    """The start squares worth searching from (none when a theorem rules out every tour)."""
    if start is not None:
        index = square_index(start, rows, cols)
        return [] if no_tour_reason(rows, cols, start=start, closed=closed) else [index]
    if no_tour_reason(rows, cols, closed=closed):
        return []
    odd = rows * cols % 2 == 1
    return [i for i in range(rows * cols) if not (odd and sum(divmod(i, cols)) % 2)]


def verify(
    tour: Sequence[Square],
    rows: int,
    cols: int | None = None,
    *,
    closed: bool = False,
    start: Square | None = None,
) -> None:
    """Raise :class:`InvalidSolutionError` unless ``tour`` is a knight's tour of the board
    (from ``start`` when given; ending a move from its start when ``closed``).

    >>> verify([(0, 0), (1, 2)], 2, 3)
    Traceback (most recent call last):
    ...
    lazysearch.errors.InvalidSolutionError: the tour has 2 squares, the 2x3 board 6
    """
    rows, cols = check_board(rows, cols)
    if len(tour) != rows * cols:
        raise InvalidSolutionError(
            f"the tour has {len(tour)} squares, the {rows}x{cols} board {rows * cols}"
        )
    if (
        isinstance(tour, Tour)
        and tour._codes is not None
        and (tour.rows, tour.cols) == (rows, cols)
    ):
        _check_indices(tour, tour._codes, rows, cols)
    elif not _looks_valid(tour, rows, cols):
        _find_fault(tour, rows, cols)
    if start is not None and tuple(tour[0]) != tuple(start):
        raise InvalidSolutionError(f"the tour starts at {tuple(tour[0])}, not {tuple(start)}")
    if closed and len(tour) > 1 and not is_move(tour[0], tour[-1]):
        raise InvalidSolutionError(
            f"the tour ends at {tuple(tour[-1])}, not a knight's move from its start "
            f"{tuple(tour[0])}"
        )


_STEPS = frozenset(MOVES)


def _looks_valid(tour: Sequence[Square], rows: int, cols: int) -> bool:
    """All squares on the board, none twice, every step a knight's move: checked with
    built-ins only (no Python-level loop), so that a million squares take milliseconds."""
    from operator import itemgetter, sub

    rs = list(map(itemgetter(0), tour))
    cs = list(map(itemgetter(1), tour))
    return (
        min(rs) >= 0
        and max(rs) < rows
        and min(cs) >= 0
        and max(cs) < cols
        and len(set(zip(rs, cs, strict=True))) == len(tour)
        and set(zip(map(sub, rs[1:], rs), map(sub, cs[1:], cs), strict=True)) <= _STEPS
    )


def _check_indices(tour: Tour, codes: array[int], rows: int, cols: int) -> None:
    """Raise :class:`InvalidSolutionError` naming the first thing wrong with a tour held
    as square indices (a typed loop, a byte a square: 10^8 squares take about a second)."""
    module = _native.load("lazysearch.knights._tour")
    i, why = module.first_fault(codes, rows, cols)
    if why == 1:
        raise InvalidSolutionError(f"square {i} of the tour, index {codes[i]}, is off the board")
    if why == 2:
        raise InvalidSolutionError(f"square {i} of the tour, {tour[i]}, was visited before")
    if why == 3:
        raise InvalidSolutionError(
            f"from {tour[i - 1]} to {tour[i]} (move {i}) is not a knight's move"
        )


def _find_fault(tour: Sequence[Square], rows: int, cols: int) -> NoReturn:
    """Raise :class:`InvalidSolutionError` naming the first thing wrong with ``tour``."""
    seen = set()
    for i, (r, c) in enumerate(tour):
        if not (0 <= r < rows and 0 <= c < cols):
            raise InvalidSolutionError(f"square {i} of the tour, {(r, c)}, is off the board")
        if (r, c) in seen:
            raise InvalidSolutionError(f"square {i} of the tour, {(r, c)}, was visited before")
        seen.add((r, c))
        if i and not is_move(tour[i - 1], (r, c)):
            raise InvalidSolutionError(
                f"from {tuple(tour[i - 1])} to {(r, c)} (move {i}) is not a knight's move"
            )
    raise InvalidSolutionError("the tour is not a knight's tour")  # pragma: no cover
