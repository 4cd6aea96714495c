"""The diagram of an exact cover's solutions: its memoized subproblems as a DAG.

A :class:`Diagram` is what DXZ (Nishino et al., "Dancing with Decision Diagrams",
AAAI 2017) builds: a node per subproblem with solutions, the item it branches on, and
an edge per option of that item that leads to a subproblem with solutions.  Every path
from the root to the terminal ``1`` (nothing left to cover) picks the options of one
solution, and every solution is one such path.  Each node knows how many paths leave
it, so the ``i``-th solution is found by one descent, without walking the ones before
it, and an exactly uniform sample is a uniform index.

It is made by :meth:`lazysearch.stream.Solutions.diagram`; see docs/exact-cover.md.
"""

from __future__ import annotations

import random
import re
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..errors import LazysearchError, ParseError, brief
from ..textfiles import read_text

T = TypeVar("T")

#: The first word of the text format's header line, and its version.
FORMAT = "lazysearch-diagram"
VERSION = 1


#: The most digits of the header's ``count=`` (the number of solutions may pass 2**63;
#: Python refuses to read an int of more than 4,300 digits).
MAX_COUNT_DIGITS = 1000
#: A word of a line, with its place (columns are counted from 1).
_WORD = re.compile(r"\S+")
_DIGITS = re.compile(r"[0-9]+")


def _number(word: str, digits: int = 19) -> int | None:
    """``word`` as a number, if it is ASCII digits only (no sign, no ``'²'``) below
    2**63, or of at most ``digits`` digits when that is more than 19; else None."""
    if len(word) > digits or _DIGITS.fullmatch(word) is None:
        return None
    value = int(word)
    return value if digits > 19 or value < 1 << 63 else None


def _header(head: str, fail: Callable[..., ParseError]) -> dict[str, int]:
    """The header line's numbers (``nodes``, ``edges``, ``root``, ``count``)."""
    words = [(m.group(), m.start() + 1) for m in _WORD.finditer(head)]
    if len(words) != 6 or words[0][0] != FORMAT:
        raise fail(1, f"expected a header '{FORMAT} {VERSION} nodes=.. edges=.. root=.. count=..'")
    if words[1][0] != str(VERSION):
        raise fail(1, f"format version {brief(words[1][0])} is not {VERSION}", words[1][1])
    fields: dict[str, int] = {}
    for (word, column), name in zip(words[2:], ("nodes", "edges", "root", "count"), strict=True):
        key, _, value = word.partition("=")
        number = _number(value, MAX_COUNT_DIGITS if name == "count" else 19)
        if key != name or number is None:
            bound = f"at most {MAX_COUNT_DIGITS:,} of them" if name == "count" else "below 2**63"
            raise fail(
                1,
                f"expected {name}=<number> (ASCII digits, {bound}), got {brief(word)}",
                column,
            )
        fields[name] = number
    return fields


def check_sample(k: object, seed: object) -> None:
    """Raise unless ``k`` and ``seed`` are values ``sample`` takes."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise LazysearchError(f"sample() needs k, the number of samples, an int >= 1; got {k!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise LazysearchError(f"sample() needs a seed that is an int or None, got {seed!r}")


class Diagram(Generic[T]):
    """The solutions of an exact cover as a DAG of its subproblems (a ZDD).

    >>> from lazysearch import queens
    >>> d = queens(8).diagram()
    >>> d.count(), d.nth(0), d.nth(91)
    (92, (5, 3, 6, 0, 2, 4, 1, 7), (6, 0, 2, 7, 5, 3, 1, 4))
    >>> d.sample(2, seed=1) == d.sample(2, seed=1)
    True

    Nodes are numbered ``0 .. size - 1`` and kept in flat arrays: node ``v`` branches
    on item ``item[v]`` and its edges are ``first[v] .. first[v + 1] - 1``, edge ``e``
    choosing option ``option[e]`` and leading to node ``child[e]``, a node below ``v``.
    Node ``0`` is the terminal with no solution (no edge leads to it; it is the root
    only when there is no solution) and node ``1`` the terminal with nothing left to
    cover.  A node's edges come in the order of its item's options.

    Iteration, :meth:`nth` and :meth:`sample` all follow one order: depth first, edges
    in order.  It is not the order of the stream the diagram came from (that one
    branches by other rules); the set of solutions is the same.  Solutions are decoded
    as the stream decodes them (grids for sudoku, placements for queens); with
    ``raw=True`` they are the tuples of option indices, ascending, that the stream's
    search yields.

    Parameters
    ----------
    root, item, first, count, option, child:
        The arrays above (``first`` with ``size + 1`` entries) and the root's number.
    decode:
        Turns a tuple of option indices into a solution (None: keep the tuple).
    """

    __slots__ = ("_child", "_count", "_decode", "_first", "_item", "_option", "_root")

    def __init__(
        self,
        root: int,
        item: array[int],
        first: array[int],
        count: list[int],
        option: array[int],
        child: array[int],
        decode: Callable[[tuple[int, ...]], T] | None = None,
    ) -> None:
        self._root = root
        self._item = item
        self._first = first
        self._count = count
        self._option = option
        self._child = child
        self._decode = decode

    # -- the numbers -------------------------------------------------------------------

    def count(self) -> int:
        """How many solutions there are (exact; from the root's count, O(1))."""
        return self._count[self._root]

    @property
    def size(self) -> int:
        """How many nodes, the two terminals included."""
        return len(self._item)

    @property
    def edges(self) -> int:
        """How many edges."""
        return len(self._option)

    @property
    def root(self) -> int:
        """The root's node number (0 when there is no solution, 1 when the empty set of
        options is the only one)."""
        return self._root

    def node(self, v: int) -> tuple[int, list[tuple[int, int]], int]:
        """Node ``v`` as ``(item, [(option, child), ...], count)``; the terminals have
        item 0 and no edges."""
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < self.size:
            raise LazysearchError(f"node() needs a node number 0..{self.size - 1}, got {v!r}")
        first = self._first
        edges = [(self._option[e], self._child[e]) for e in range(first[v], first[v + 1])]
        return self._item[v], edges, self._count[v]

    def __repr__(self) -> str:
        return f"<Diagram: {self.count():,} solutions, {self.size:,} nodes, {self.edges:,} edges>"

    # -- solutions ---------------------------------------------------------------------

    def _out(self, options: tuple[int, ...], raw: bool) -> Any:
        decode = self._decode
        return options if raw or decode is None else decode(options)

    def raw(self) -> Iterator[tuple[int, ...]]:
        """The solutions as tuples of option indices (ascending), lazily, in the
        diagram's order.

        >>> from lazysearch import exact_cover
        >>> list(exact_cover(["a", "b", "a b"]).diagram().raw())
        [(0, 1), (2,)]

        Notes
        -----
        Depth first on an explicit stack: O(depth) work between two solutions, since
        every node has a solution below it.
        """
        root = self._root
        if root == 0:
            return
        if root == 1:
            yield ()
            return
        first = self._first
        option = self._option
        child = self._child
        # Level l is on node nodes[l], trying its edge at[l].
        nodes = [root]
        at = [first[root]]
        while nodes:
            e = at[-1]
            if e == first[nodes[-1] + 1]:
                nodes.pop()
                at.pop()
                if at:
                    at[-1] += 1
                continue
            c = child[e]
            if c == 1:
                yield tuple(sorted([option[a] for a in at]))
                at[-1] += 1
            else:
                nodes.append(c)
                at.append(first[c])

    def solutions(self, raw: bool = False) -> Iterator[T]:
        """The solutions, decoded (or raw), lazily, in the diagram's order."""
        if raw or self._decode is None:
            return self.raw()  # type: ignore[return-value]
        return map(self._decode, self.raw())

    def __iter__(self) -> Iterator[T]:
        return self.solutions()

    def nth(self, i: int, *, raw: bool = False) -> T:
        """The solution ``i`` (from 0; negative counts from the end) of the diagram's
        order, found by one descent, without the ones before it.

        >>> from lazysearch import queens
        >>> d = queens(6).diagram()
        >>> [d.nth(i) for i in range(d.count())] == list(d)
        True

        Raises
        ------
        LazysearchError
            If ``i`` is not an int.
        IndexError
            If ``i`` is out of range.

        Notes
        -----
        O(edges of the nodes on the path): at each node it takes the edge whose
        running total of its children's counts passes ``i``.
        """
        if isinstance(i, bool) or not isinstance(i, int):
            raise LazysearchError(f"nth() needs an int index, got {i!r}")
        n = self.count()
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError(f"diagram index {i} is out of range ({n:,} solutions)")
        found: T = self._out(self._path(j), raw)
        return found

    def _path(self, i: int) -> tuple[int, ...]:
        """The options of solution ``i``, ``0 <= i < count()``."""
        first = self._first
        option = self._option
        child = self._child
        count = self._count
        chosen: list[int] = []
        v = self._root
        while v != 1:
            e = first[v]
            c = child[e]
            while i >= count[c]:
                i -= count[c]
                e += 1
                c = child[e]
            chosen.append(option[e])
            v = c
        return tuple(sorted(chosen))

    def sample(
        self, k: int = 1, seed: int | None = None, *, raw: bool = False, replace: bool = True
    ) -> list[T]:
        """``k`` solutions drawn exactly uniformly, independently (with replacement, as
        ``random.choices`` draws) or, with ``replace=False``, all different (as
        ``random.sample`` draws); the same ``seed`` gives the same ones.

        >>> from lazysearch import exact_cover
        >>> d = exact_cover(["a", "b", "a b"]).diagram()
        >>> d.sample(4, seed=7)
        [(2,), (0, 1), (2,), (0, 1)]
        >>> sorted(d.sample(2, seed=7, replace=False))
        [(0, 1), (2,)]

        Each is ``nth(i)`` for ``i`` drawn by ``random.Random(seed)`` from
        ``range(count())`` (``randrange``, or ``sample`` without replacement), so
        uniform over the solutions; ``seed=None`` seeds from the system.  An empty list
        when there is no solution.

        Raises
        ------
        LazysearchError
            If ``k`` is not an int >= 1, ``seed`` neither an int nor None, or (without
            replacement) ``k`` more than the solutions there are.
        """
        check_sample(k, seed)
        n = self.count()
        if n == 0:
            return []
        rng = random.Random(seed)
        if replace:
            picks = [rng.randrange(n) for _ in range(k)]
        elif k > n:
            raise LazysearchError(
                f"sample(k={k}, replace=False) asks for {k} different solutions, and there "
                f"{'is' if n == 1 else 'are'} {n}"
            )
        else:
            picks = rng.sample(range(n), k)
        return [self._out(self._path(i), raw) for i in picks]

    # -- the text format ---------------------------------------------------------------

    def to_text(self) -> str:
        """The diagram in the line format of docs/exact-cover.md.

        >>> from lazysearch import exact_cover
        >>> print(exact_cover(["a", "b", "a b"]).diagram().to_text(), end="")
        lazysearch-diagram 1 nodes=4 edges=3 root=3 count=2
        2 2 1:1
        3 1 0:2 2:1
        """
        first = self._first
        option = self._option
        child = self._child
        lines = [
            f"{FORMAT} {VERSION} nodes={self.size} edges={self.edges} "
            f"root={self._root} count={self.count()}"
        ]
        for v in range(2, self.size):
            pairs = " ".join(f"{option[e]}:{child[e]}" for e in range(first[v], first[v + 1]))
            lines.append(f"{v} {self._item[v]} {pairs}")
        return "\n".join(lines) + "\n"

    def write(self, path: str | Path) -> None:
        """Write :meth:`to_text` to the file ``path``."""
        Path(path).write_text(self.to_text(), encoding="utf-8")

    @classmethod
    def from_text(
        cls,
        text: str,
        decode: Callable[[tuple[int, ...]], T] | None = None,
        source: str = "<text>",
    ) -> Diagram[T]:
        """The diagram that :meth:`to_text` wrote; the counts are computed again and
        checked against the header.

        Raises
        ------
        ParseError
            Naming ``source``, the line and the column, when the text is not in the
            format: numbers are ASCII digits, below 2**63 (``count=`` at most
            :data:`MAX_COUNT_DIGITS` digits).
        """
        lines = text.splitlines()

        def fail(line: int, why: str, column: int = 1) -> ParseError:
            return ParseError(why, source=source, line=line, column=column)

        fields = _header(lines[0] if lines else "", fail)
        size = fields["nodes"]
        if size < 2:
            raise fail(1, f"nodes={size}, but a diagram has at least its two terminals")
        if len(lines) - 1 != size - 2:
            raise fail(1, f"nodes={size} needs {size - 2} node lines, found {len(lines) - 1}")
        item = array("q", [0, 0])
        first = array("q", [0, 0])
        count = [0, 1]
        option = array("q")
        child = array("q")
        for v in range(2, size):
            line = v  # node v is on line v: the header is line 1
            words = [(m.group(), m.start() + 1) for m in _WORD.finditer(lines[line - 1])]
            if len(words) < 3 or words[0][0] != str(v) or _number(words[1][0]) is None:
                bad_item = len(words) > 1 and words[0][0] == str(v) and _number(words[1][0]) is None
                at = words[1][1] if bad_item else 1
                raise fail(
                    line,
                    f"expected '{v} <item> <option>:<child> ...', got {brief(lines[v - 1])}",
                    at,
                )
            item.append(int(words[1][0]))
            first.append(len(option))
            total = 0
            for pair, column in words[2:]:
                o, sep, c = pair.partition(":")
                o_number, c_number = _number(o), _number(c)
                if not sep or o_number is None or c_number is None or not 1 <= c_number < v:
                    raise fail(
                        line,
                        f"expected <option>:<child> with a child 1..{v - 1}, got {brief(pair)}",
                        column,
                    )
                option.append(o_number)
                child.append(c_number)
                total += count[c_number]
            count.append(total)
        first.append(len(option))
        root = fields["root"]
        if root >= size or (size > 2 and root != size - 1):
            raise fail(1, f"root={root} is not the last node ({size - 1})")
        if len(option) != fields["edges"]:
            raise fail(1, f"edges={fields['edges']}, but the lines hold {len(option)}")
        if count[root] != fields["count"]:
            said, counted = brief(fields["count"]), brief(count[root])
            raise fail(1, f"count={said}, but the nodes count {counted}")
        return cls(root, item, first, count, option, child, decode)

    @classmethod
    def read(
        cls, path: str | Path, decode: Callable[[tuple[int, ...]], T] | None = None
    ) -> Diagram[T]:
        """The diagram in the file ``path`` (see :meth:`from_text`)."""
        return cls.from_text(read_text(path), decode, source=str(path))
