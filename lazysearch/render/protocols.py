"""What the pictures read of the things they draw: just these attributes.

The pictures know no puzzle family: a knight's tour, a tiling, a sudoku variant's rules
or a kakuro puzzle reaches them as any object with these attributes (the families'
own classes have them), so that drawing depends on nothing above it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

Square = tuple[int, int]


class Path(Protocol):
    """Squares ``(row, col)`` in order, read by index."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> Square: ...


class Tour(Path, Protocol):
    """A knight's tour on a ``rows x cols`` board; ``closed`` when its last square is a
    knight's move from its first."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def closed(self) -> bool: ...


class BoardPath(Path, Protocol):
    """A path through cells of a ``rows x cols`` frame whose ``cells`` are the board
    (the rest are holes); ``closed`` when its last cell goes back to its first."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    @property
    def cells(self) -> Collection[Square]: ...


class Board(Protocol):
    """The cells a tiling covers, in a frame of ``rows x cols`` on a ``grid``
    (``square``, ``cube``, ``triangle`` or ``hex``)."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def grid(self) -> str: ...

    @property
    def cells(self) -> Iterable[tuple[int, ...]]: ...


class Tiling(Protocol):
    """A board and its pieces, each a name and the cells it covers."""

    @property
    def board(self) -> Board: ...

    @property
    def pieces(self) -> Sequence[tuple[str, Collection[tuple[int, ...]]]]: ...


class Variant(Protocol):
    """The rules of an ``n x n`` sudoku variant: a region number per cell, whether the
    diagonals count, and the cages ``(sum, cells)``."""

    @property
    def n(self) -> int: ...

    @property
    def region(self) -> Sequence[Sequence[int]]: ...

    @property
    def diagonals(self) -> bool: ...

    @property
    def cages(self) -> Sequence[tuple[int, Sequence[Square]]]: ...


class KakuroPuzzle(Protocol):
    """A kakuro grid: its white cells, the across and down sums by clue cell, the givens
    and a name (``""`` for none)."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def white(self) -> Collection[Square]: ...

    @property
    def across(self) -> Mapping[Square, int]: ...

    @property
    def down(self) -> Mapping[Square, int]: ...

    @property
    def givens(self) -> Mapping[Square, int]: ...

    @property
    def name(self) -> str: ...
