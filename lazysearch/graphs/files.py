"""Reading a graph from a file: an edge list, or DIMACS ``.col`` (edges) and ``.gr`` (arcs).

>>> g = parse("1 2\\n2 3\\n3 1  # a triangle\\n")
>>> g.labels, g.directed
((1, 2, 3), False)

The formats, chosen by the file's suffix (``.col``, ``.gr``; any other is an edge list)
or named:

``edges``
    One edge ``u v`` a line, the two vertices separated by blanks; a third field, a
    number, is a weight, and is ignored.  ``#`` starts a comment anywhere on a line, and
    a line starting with ``%`` is a comment too (KONECT's and Matrix Market's headers).
    Vertices are the words as written; when every one is a whole number written the
    usual way (``7``, ``-3``; not ``07`` or ``+3``), they are those numbers.
``col``
    DIMACS graphs (the colouring challenge): ``c`` comment lines, one ``p edge N M`` line
    (vertices ``1..N``, ``M`` edges), then ``e u v`` lines; ``n`` lines (vertex weights)
    are ignored.
``gr``
    DIMACS shortest paths: ``c`` comments, ``p sp N M``, then ``a u v w`` lines, arcs
    from ``u`` to ``v`` (the graph is directed) of weight ``w``, which is ignored.

A DIMACS file's vertices are ``1..N`` whether or not an edge meets them.  Self-loops and
repeated edges are *ignored*, as :class:`~lazysearch.graphs.Graph` ignores them, and
counted: :meth:`GraphFile.notes` says what was left out, and where it was first met.
In an undirected graph, ``v u`` after ``u v`` is a repeated edge.
"""

from __future__ import annotations

import os
from collections.abc import Hashable

from ..engine.memory import available_memory
from ..errors import ParseError, TooLargeError, brief
from .graph import EmptyGraphError, Graph, GraphError

#: The formats read, and the suffixes that name one (any other suffix: ``edges``).
FORMATS = ("edges", "col", "gr")
SUFFIXES = {".col": "col", ".gr": "gr"}

#: The most vertices the walker numbers (signed 32-bit integers).
MAX_VERTICES = 2**31 - 2


class GraphFile(Graph):
    """A :class:`~lazysearch.graphs.Graph` read from a file, with what the reading left
    out.

    Besides the graph's own attributes: ``source`` (the file's name), ``format``
    (``"edges"``, ``"col"`` or ``"gr"``), ``weights`` (how many weights were ignored),
    ``declared`` (a DIMACS file's ``M``, else None) and ``lines`` (how many edge lines
    were read).  ``loops`` and ``repeats`` count the self-loops and repeated edges
    ignored, ``first_loop`` and ``first_repeat`` give the line of the first of each (0:
    none).
    """

    __slots__ = (
        "declared",
        "first_loop",
        "first_repeat",
        "format",
        "lines",
        "numbered",
        "source",
        "weights",
    )

    source: str
    format: str
    weights: int
    declared: int | None
    lines: int
    numbered: bool
    first_loop: int
    first_repeat: int

    def notes(self) -> list[str]:
        """What the reading left out or found amiss, one sentence each (empty when
        nothing).

        >>> for note in parse("a b 2.5\\nb a\\nc c\\nb c", source="g.txt").notes():
        ...     print(note)
        g.txt: 1 weight ignored
        g.txt: 1 self-loop ignored (line 3)
        g.txt: 1 repeated edge ignored (line 2)
        """
        out = []
        if self.weights:
            out.append(f"{self.source}: {_many(self.weights, 'weight')} ignored")
        if self.loops:
            out.append(
                f"{self.source}: {_many(self.loops, 'self-loop')} ignored"
                f"{_where(self.loops, self.first_loop)}"
            )
        if self.repeats:
            out.append(
                f"{self.source}: {_many(self.repeats, 'repeated edge')} ignored"
                f"{_where(self.repeats, self.first_repeat)}"
            )
        if self.declared is not None and self.declared != self.lines:
            unit = "arc" if self.format == "gr" else "edge"
            out.append(
                f"{self.source}: the p line says {_many(self.declared, unit)}, and the file "
                f"has {_many(self.lines, unit + ' line')}"
            )
        return out

    def label(self, word: str) -> Hashable:
        """The vertex a word of the command line names: a number when the file's
        vertices are numbers, else the word itself.

        >>> parse("1 2\\n2 3").label("2"), parse("a b").label("2")
        (2, '2')
        """
        if self.numbered:
            try:
                return int(word)
            except ValueError:
                return word
        return word


def _many(n: int, unit: str) -> str:
    return f"{n:,} {unit}{'' if n == 1 else 's'}"


def _where(n: int, line: int) -> str:
    return f" (line {line})" if n == 1 else f" (the first on line {line})"


def format_of(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format of the file at ``path``: ``format`` when given, else by its suffix.

    >>> format_of("myciel3.col"), format_of("USA-road-d.NY.gr"), format_of("roads.txt")
    ('col', 'gr', 'edges')

    Raises
    ------
    GraphError
        For a ``format`` that is not one of :data:`FORMATS`.
    """
    if format is None:
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        return SUFFIXES.get(suffix, "edges")
    if format not in FORMATS:
        names = ", ".join(repr(f) for f in FORMATS)
        raise GraphError(f"a graph file's format is one of {names}, got {brief(format)}")
    return format


def read(
    path: str | os.PathLike[str], format: str | None = None, *, directed: bool | None = None
) -> GraphFile:
    """The graph in the file at ``path`` (UTF-8 text), in ``format`` or the one its
    suffix names (see the module notes).

    ``directed`` says whether its pairs are arcs; by default an edge list and a ``.col``
    file are undirected and a ``.gr`` file directed.

    Raises
    ------
    ParseError
        For a line that is not one of the format's, naming the file, line and column.
    EmptyGraphError
        For a file with no vertex.
    GraphError
        For an unknown ``format``.
    OSError, UnicodeDecodeError
        For a file that cannot be read as text.
    """
    chosen = format_of(path, format)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return parse(text, chosen, source=os.fspath(path), directed=directed)


def parse(
    text: str, format: str = "edges", *, source: str = "<text>", directed: bool | None = None
) -> GraphFile:
    """The graph in ``text``, in ``format``; ``source`` names it in messages.  See
    :func:`read`.
    """
    format = format_of(source, format)
    if directed is not None and not isinstance(directed, bool):
        raise GraphError(f"directed is True, False or None, got {brief(directed)}")
    reader = _Reader(source, format == "gr" if directed is None else directed)
    if format == "edges":
        reader.edge_list(text)
    else:
        reader.dimacs(text, format)
    return reader.graph(format)


class _Reader:
    """The vertices and edges read so far, with the counts of what was left out."""

    def __init__(self, source: str, directed: bool) -> None:
        self.source = source
        self.directed = directed
        self.numbers: dict[str, int] = {}
        self.rows: list[list[int]] = []
        self.seen: set[tuple[int, int]] = set()
        self.loops = self.repeats = self.weights = self.lines = 0
        self.first_loop = self.first_repeat = 0
        self.declared: int | None = None

    def fail(self, message: str, line: int, column: int) -> ParseError:
        return ParseError(message, source=self.source, line=line, column=column)

    def add(self, u: int, v: int, line: int) -> None:
        """Edge (or arc) ``u v`` of line ``line``: kept, or counted as left out."""
        self.lines += 1
        if u == v:
            self.loops += 1
            self.first_loop = self.first_loop or line
            return
        key = (u, v) if self.directed or u < v else (v, u)
        if key in self.seen:
            self.repeats += 1
            self.first_repeat = self.first_repeat or line
            return
        self.seen.add(key)
        self.rows[u].append(v)

    def edge_list(self, text: str) -> None:
        numbers = self.numbers
        rows = self.rows
        for number, line in enumerate(text.splitlines(), start=1):
            body = line.partition("#")[0]
            fields = body.split()
            if not fields or fields[0].startswith("%"):
                continue
            if len(fields) != 2:
                self._bad_edge(line, number, fields)
                self.weights += 1
            ends = []
            for word in fields[:2]:
                found = numbers.get(word)
                if found is None:
                    found = numbers[word] = len(numbers)
                    rows.append([])
                ends.append(found)
            self.add(ends[0], ends[1], number)

    def _bad_edge(self, line: str, number: int, fields: list[str]) -> None:
        """Refuse an edge line of other than two fields, unless its third is a weight."""
        if len(fields) == 1:
            raise self.fail(
                f"an edge is two vertices 'u v' (and an optional weight), got one field "
                f"{brief(fields[0])}",
                number,
                _column(line, 0) + len(fields[0]),
            )
        if len(fields) > 3:
            raise self.fail(
                f"an edge is 'u v' or 'u v weight', got {len(fields)} fields "
                f"(the fourth: {brief(fields[3])})",
                number,
                _column(line, 3),
            )
        if not _is_number(fields[2]):
            raise self.fail(
                f"the third field of an edge is its weight, a number, got {brief(fields[2])}",
                number,
                _column(line, 2),
            )

    def dimacs(self, text: str, format: str) -> None:
        problem, edge = ("edge", "e") if format == "col" else ("sp", "a")
        width = 3 if format == "col" else 4  # the fields of an edge line
        n = -1
        header = 0  # the line of the p line
        for number, line in enumerate(text.splitlines(), start=1):
            fields = line.split()
            if not fields or fields[0] == "c":
                continue
            kind = fields[0]
            if kind == "p":
                if header:
                    raise self.fail(
                        f"a second 'p' line (the first is line {header})", number, _column(line, 0)
                    )
                n = self._problem(line, number, fields, format, problem)
                header = number
            elif kind == edge or (format == "col" and kind == "n"):
                if not header:
                    raise self.fail(
                        f"an '{kind}' line before the 'p {problem} N M' line",
                        number,
                        _column(line, 0),
                    )
                if kind == "n":
                    self.weights += 1
                    continue
                self._dimacs_edge(line, number, fields, n, width)
            else:
                kinds = "c, p, e or n" if format == "col" else "c, p or a"
                raise self.fail(
                    f"a DIMACS .{format} line begins with {kinds}, got {brief(kind)}",
                    number,
                    _column(line, 0),
                )
        if not header:
            raise self.fail(f"no 'p {problem} N M' line (DIMACS .{format})", 1, 1)

    def _problem(self, line: str, number: int, fields: list[str], format: str, name: str) -> int:
        """The number of vertices a ``p`` line declares (its edges in ``declared``)."""
        names = ("edge", "edges", "col") if format == "col" else ("sp",)
        if len(fields) != 4 or fields[1] not in names:
            raise self.fail(
                f"the problem line of a DIMACS .{format} file is 'p {name} N M', got "
                f"{brief(line.strip())}",
                number,
                _column(line, 0),
            )
        sizes = []
        for i in (2, 3):
            value = _whole(fields[i])
            if value is None:
                what = "vertices" if i == 2 else "edges"
                raise self.fail(
                    f"the number of {what} is a whole number >= 0, got {brief(fields[i])}",
                    number,
                    _column(line, i),
                )
            sizes.append(value)
        n, self.declared = sizes
        _check_size(n, f"{self.source}:{number}")
        self.rows = [[] for _ in range(n)]
        return n

    def _dimacs_edge(self, line: str, number: int, fields: list[str], n: int, width: int) -> None:
        kind = fields[0]
        if len(fields) != width and not (width == 4 and len(fields) == 3):
            shape = "e u v" if width == 3 else "a u v w"
            raise self.fail(
                f"an edge line is '{shape}', got {len(fields)} fields", number, _column(line, 0)
            )
        ends = []
        for i in (1, 2):
            v = _whole(fields[i])
            if v is None or not 1 <= v <= n:
                raise self.fail(
                    f"vertex {brief(fields[i])} of an '{kind}' line is not one of 1..{n:,}",
                    number,
                    _column(line, i),
                )
            ends.append(v - 1)
        if len(fields) == 4:
            if not _is_number(fields[3]):
                raise self.fail(
                    f"an arc's weight is a number, got {brief(fields[3])}",
                    number,
                    _column(line, 3),
                )
            self.weights += 1
        self.add(ends[0], ends[1], number)

    def graph(self, format: str) -> GraphFile:
        if not self.rows:
            raise EmptyGraphError(f"{self.source}: the graph has no vertex")
        labels: tuple[Hashable, ...] = tuple(self.numbers)
        numbered = format != "edges"
        if numbered:
            labels = tuple(range(1, len(self.rows) + 1))
        else:
            numbers = _as_numbers(self.numbers)
            if numbers is not None:
                labels, numbered = numbers, True
        g = GraphFile(labels, self.rows, self.directed)
        g.source, g.format, g.numbered = self.source, format, numbered
        g.weights, g.declared, g.lines = self.weights, self.declared, self.lines
        g.loops, g.repeats = self.loops, self.repeats
        g.first_loop, g.first_repeat = self.first_loop, self.first_repeat
        return g


#: Bytes a vertex of a graph read takes, about (its label, number and rows).
BYTES_PER_VERTEX = 400


def _check_size(n: int, where: str) -> None:
    """Refuse, before reading on, a graph of more vertices than the walker numbers or
    this machine holds."""
    if n > MAX_VERTICES:
        raise TooLargeError(
            f"{where}: a graph of {n:,} vertices; the walker numbers them in 32 bits "
            f"(at most {MAX_VERTICES:,})"
        )
    available = available_memory()
    if available is not None and n * BYTES_PER_VERTEX > available:
        raise TooLargeError(
            f"{where}: a graph of {n:,} vertices would take about "
            f"{n * BYTES_PER_VERTEX / 1e9:,.1f} GB of memory, and this machine has "
            f"{available / 1e9:,.1f} GB available"
        )


def _column(line: str, field: int) -> int:
    """The column (from 1) where field number ``field`` (from 0) of ``line`` begins."""
    at = 0
    for i in range(field + 1):
        while line[at].isspace():
            at += 1
        if i < field:
            while at < len(line) and not line[at].isspace():
                at += 1
    return at + 1


def _whole(word: str) -> int | None:
    return int(word) if word.isascii() and word.isdigit() else None


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _as_numbers(numbers: dict[str, int]) -> tuple[int, ...] | None:
    """The vertices as whole numbers, when every one is written as Python writes it."""
    out = []
    for word in numbers:
        if not (word.isascii() and word.lstrip("-").isdigit()):
            return None
        try:
            value = int(word)
        except ValueError:  # more digits than int() reads
            return None
        if str(value) != word:
            return None
        out.append(value)
    return tuple(out)
