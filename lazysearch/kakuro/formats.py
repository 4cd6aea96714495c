"""Reading and writing kakuro puzzles in the formats people's puzzles come in.

Every reader keeps, for each cell, the line and column it came from, so a malformed
puzzle is reported where it is; :func:`detect` picks the format from the text, and
every error says which format was assumed.

========================  ==========================================================
format                    what it looks like
========================  ==========================================================
``grid``                  whitespace-separated tokens: ``\\`` black, ``down\\across``
                          clue (``23\\``, ``\\16``, ``15\\29``), ``_`` (any number)
                          white, a digit 1-9 given; ``#`` starts a comment line.
``pipe``                  the grid between ``|`` bars: ``x`` black, ``-`` white.
``csv``                   one comma- (or tab-) separated row per grid row: empty
                          field white, ``\\`` black, ``down\\across`` clue, digit given.
``janko``                 first line ``rows cols``; ``-`` black, ``0`` white,
                          ``down,across`` clue (``16,`` or ``,23``), digit given.
``prop``                  first line ``rows,cols``; ``*`` black, ``?`` white,
                          ``C<down>``, ``F<across>``, ``C<d>F<a>`` clues, digit given.
``algospot``              ``T`` cases of: ``N``, an ``N x N`` 0/1 grid (1 white),
                          ``Q``, then ``Q`` lines ``row col dir sum`` (1-based clue
                          cell; dir 0 across, 1 down).
``dzn``                   MiniZinc data: ``h``, ``w``, ``grid_data`` (0/1),
                          ``h_clue``/``v_clue`` rows ``row, col, length, sum``
                          (1-based clue cell).
``pycsp3``                JSON ``{"nRows", "nCols", "clues": [[{"x": across,
                          "y": down}]]}``, ``-1`` no clue, ``x = y = 0`` white.
``json``                  this library's JSON (and Gecode's puzzles converted):
                          ``{"rows", "cols", "runs": [{"dir": "h"|"v", "r", "c",
                          "len", "sum"}], "givens": [[r, c, digit]]}``, or a list.
``janko-json``            a collection ``{"data": {name: {"problem": janko text}}}``.
``board-json``            ``{"board": [[...]]}``: ``-1`` black, digit white,
                          ``across * 1000 + down * 10`` clue.
========================  ==========================================================

A clue side that is empty or ``0`` means no run in that direction.  Positions inside a
``janko-json`` collection are lines and columns of the puzzle's own text, and the source
is named ``file#name``.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from json import decoder as json_decoder
from json import scanner as json_scanner
from typing import Any, NamedTuple

from ..errors import brief
from ..puzzles import janko
from ..textfiles import read_text
from .puzzle import Cell, KakuroError, KakuroParseError, Location, Puzzle
from .puzzle import write_grid as write_grid

FORMATS = (
    "grid",
    "pipe",
    "csv",
    "janko",
    "prop",
    "algospot",
    "dzn",
    "pycsp3",
    "json",
    "janko-json",
    "board-json",
)

# re.ASCII throughout: ``\d`` would match an Arabic-Indic digit (and int() read it).
_CLUE_SLASH = re.compile(r"(\d*)\\(\d*)", re.ASCII)
_CLUE_COMMA = re.compile(r"(\d*),(\d*)", re.ASCII)
_CLUE_PROP = re.compile(r"(?:C(\d+))?(?:F(\d+))?", re.ASCII)
_INT = re.compile(r"-?\d+", re.ASCII)
#: A number in a puzzle file has at most this many digits (sums are at most 45, and a
#: grid of 10**9 rows is no puzzle); a longer one is a ParseError, not int()'s limit.
MAX_DIGITS = 9
#: JSON nested deeper than this is refused (a puzzle needs 4 levels).
MAX_DEPTH = 64


# -- entry points ------------------------------------------------------------------------


def read(source: str | os.PathLike[str], *, format: str | None = None) -> Puzzle:
    """The one puzzle in a file (a path) or a text (a string with a line break).

    >>> from lazysearch import kakuro
    >>> p = kakuro.read("\\\\  4\\\\ 3\\\\\\n\\\\4  _   _\\n\\\\3  _   _\\n")
    >>> p
    <kakuro Puzzle 3x3, 4 white cells, 4 runs, 0 givens>

    Parameters
    ----------
    source:
        A path, or the text itself.
    format:
        One of :data:`FORMATS`; by default :func:`detect` picks it.

    Raises
    ------
    KakuroParseError
        If the text is malformed or the puzzle is (names source, line, column, format).
    KakuroError
        If the file holds no puzzle or several (use :func:`read_all`).
    OSError
        If the file cannot be read.
    """
    puzzles = read_all(source, format=format)
    if len(puzzles) != 1:
        where = _name_of(source) if _is_path(source) else "the text"
        raise KakuroError(f"{where} holds {len(puzzles)} puzzles; read_all() reads them all")
    return puzzles[0]


def _is_path(source: object) -> bool:
    """Whether ``source`` names a file (else it is the text itself)."""
    return isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.lstrip()[:1] not in "{["
    )


def read_all(source: str | os.PathLike[str], *, format: str | None = None) -> list[Puzzle]:
    """Every puzzle in a file or text (collections hold many; most files one)."""
    if _is_path(source):
        path = os.fspath(source)
        text = read_text(path, encoding="utf-8-sig", error=KakuroParseError)
        return loads(text, source=path, format=format)
    if not isinstance(source, str):
        raise TypeError(f"read() takes a path or a text, not {type(source).__name__}")
    return loads(source, format=format)


def _name_of(source: object) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else "<text>"


def loads(text: str, *, source: str = "<text>", format: str | None = None) -> list[Puzzle]:
    """Every puzzle in ``text``; ``source`` names it in messages."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    fmt = format or detect(text, source=source)
    if fmt not in _READERS:
        raise KakuroError(f"unknown kakuro format {fmt!r}; known: {', '.join(FORMATS)}")
    try:
        return _READERS[fmt](text, source)
    finally:
        _LINES.cache = None


def detect(text: str, *, source: str = "<text>") -> str:
    """The format of ``text`` (one of :data:`FORMATS`), from its first lines.

    >>> detect("2,3\\n*,C3,C4\\nF7,?,?\\n")
    'prop'
    """
    head = text.lstrip()
    if head[:1] in ("{", "["):
        data = _json(text, source, "json")
        if isinstance(data, dict):
            if "nRows" in data or "clues" in data:
                return "pycsp3"
            if "board" in data:
                return "board-json"
            if janko.is_collection(data):
                return "janko-json"
        return "json"
    if re.search(r"\bgrid_data\s*=", text, re.ASCII):
        return "dzn"
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise KakuroParseError("no puzzle in an empty text", source=source, line=1, column=1)
    first = lines[0].strip()
    if re.fullmatch(r"\d+\s*,\s*\d+\s*,?", first, re.ASCII):
        return "prop"
    if re.fullmatch(r"\d+\s+\d+", first, re.ASCII):
        return "janko"
    if re.fullmatch(r"\d+", first, re.ASCII):
        return "algospot"
    if any("|" in line for line in lines):
        return "pipe"
    if any("\t" in line or "," in line for line in lines):
        return "csv"
    return "grid"


# -- building a grid from tokens -------------------------------------------------------------


class _Grid:
    """Collects the cells of one puzzle as a reader meets them, with their places."""

    def __init__(self, source: str, fmt: str) -> None:
        self.source = source
        self.fmt = fmt
        self.white: list[Cell] = []
        self.across: dict[Cell, int] = {}
        self.down: dict[Cell, int] = {}
        self.givens: dict[Cell, int] = {}
        self.locations: dict[Cell, Location] = {}

    def fail(self, message: str, line: int, column: int) -> KakuroParseError:
        return KakuroParseError(
            f"{message} (read as {self.fmt})", source=self.source, line=line, column=column
        )

    def at(self, cell: Cell, line: int, column: int) -> None:
        self.locations[cell] = Location(self.source, self.fmt, line, column)

    def clue(self, cell: Cell, down: str | int | None, across: str | int | None) -> None:
        if down not in (None, "", "0", 0):
            self.down[cell] = self.number(down, cell)
        if across not in (None, "", "0", 0):
            self.across[cell] = self.number(across, cell)

    def number(self, text: str | int, cell: Cell) -> int:
        """``text`` as an int; a ParseError at ``cell``'s place when it is too long."""
        if isinstance(text, int):
            return text
        where = self.locations.get(cell)
        line, column = (where.line, where.column) if where else (1, 1)
        return _int(text, self.source, self.fmt, line, column)

    def given(self, cell: Cell, digit: int) -> None:
        self.white.append(cell)
        self.givens[cell] = digit

    def puzzle(self, rows: int, cols: int, name: str = "") -> Puzzle:
        return Puzzle(
            rows,
            cols,
            white=self.white,
            across=self.across,
            down=self.down,
            givens=self.givens,
            name=name or (self.source if self.source != "<text>" else ""),
            locations=self.locations,
        )


class _Tokens(NamedTuple):
    """What the cell tokens of one format mean: black tokens, a test for white ones, the
    pattern of a clue (groups: down, across); a lone digit 1-9 is always a given."""

    black: frozenset[str]
    white: Callable[[str], bool]
    clue: re.Pattern[str]
    expected: str

    def read(self, grid: _Grid, cell: Cell, token: str) -> bool:
        """Record ``token`` at ``cell``; False when the format has no such token."""
        if token in self.black:
            return True
        if self.white(token):
            grid.white.append(cell)
            return True
        m = self.clue.fullmatch(token)
        if m and token:  # an empty side is no clue; both empty is a black cell
            grid.clue(cell, m.group(1), m.group(2))
            return True
        if len(token) == 1 and token in "123456789":
            grid.given(cell, int(token))
            return True
        return False


_TOKENS = {
    "grid": _Tokens(
        frozenset(),
        lambda t: bool(t) and not t.strip("_"),
        _CLUE_SLASH,
        "'\\', 'down\\across', '_' or a digit",
    ),
    "pipe": _Tokens(
        frozenset("xX"),
        lambda t: t in ("-", ""),
        _CLUE_SLASH,
        "'x', '-', 'down\\across' or a digit",
    ),
    "csv": _Tokens(
        frozenset(),
        lambda t: t == "",
        _CLUE_SLASH,
        "'\\', 'down\\across', an empty field or a digit",
    ),
    "janko": _Tokens(
        frozenset("-"), lambda t: t == "0", _CLUE_COMMA, "'-', '0', 'down,across' or a digit"
    ),
    "prop": _Tokens(
        frozenset("*"),
        lambda t: t == "?",
        _CLUE_PROP,
        "'*', '?', 'C<down>', 'F<across>', 'C<down>F<across>' or a digit",
    ),
}


def _int(text: str, source: str, fmt: str, line: int, column: int) -> int:
    """The ASCII number ``text``, or a ParseError at (line, column) when it has more
    than :data:`MAX_DIGITS` digits."""
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        shown = f"{text[:12]}... ({len(digits):,} digits)" if len(digits) > 20 else text
        raise KakuroParseError(
            f"number {shown} is too large (at most {MAX_DIGITS} digits; read as {fmt})",
            source=source,
            line=line,
            column=column,
        )
    return int(text)


class _Lines(threading.local):
    """Line starts of the text being read, to turn offsets into (line, column) in
    O(log n): counting newlines for each offset made reading a large file quadratic.
    One per thread, so readers in several threads do not evict each other's."""

    cache: tuple[str, list[int]] | None = None

    def place(self, text: str, offset: int) -> tuple[int, int]:
        cached = self.cache
        if cached is None or cached[0] is not text:
            cached = (text, [0] + [m.end() for m in re.finditer("\n", text)])
            self.cache = cached
        starts = cached[1]
        i = bisect.bisect_right(starts, offset) - 1
        return i + 1, offset - starts[i] + 1


_LINES = _Lines()


def _split(line: str, sep: str | None) -> Iterator[tuple[int, str]]:
    """The fields of ``line`` with their 1-based columns: split on whitespace when
    ``sep`` is None, else on ``sep`` (fields stripped)."""
    if sep is None:
        for m in re.finditer(r"\S+", line):
            yield m.start() + 1, m.group()
        return
    start = 0
    for field in line.split(sep):
        stripped = field.strip()
        offset = field.find(stripped) if stripped else 0
        yield start + offset + 1, stripped
        start += len(field) + len(sep)


def _read_rows(
    grid: _Grid,
    rows: list[tuple[int, str]],
    sep: str | None,
    cols: int | None = None,
) -> tuple[int, int]:
    """Feed numbered text rows into ``grid``; returns the grid's (rows, cols)."""
    tokens = _TOKENS[grid.fmt]
    for r, (line_no, line) in enumerate(rows):
        fields = list(_split(line, sep))
        if sep == "|":  # the bars open and close each row
            if fields and fields[0][1] == "":
                fields = fields[1:]
            if fields and fields[-1][1] == "":
                fields = fields[:-1]
        elif sep is not None and cols is not None and len(fields) == cols + 1 and not fields[-1][1]:
            fields = fields[:-1]  # a trailing separator
        if cols is None:
            cols = len(fields)
        if len(fields) != cols:
            column = fields[cols][0] if len(fields) > cols else len(line) + 1
            raise grid.fail(
                f"row {r + 1} has {len(fields)} cells, the grid is {cols} wide",
                line_no,
                column,
            )
        for c, (column, token) in enumerate(fields):
            grid.at((r, c), line_no, column)
            if not tokens.read(grid, (r, c), token):
                raise grid.fail(
                    f"cell token {_shown(token)} is not {tokens.expected}", line_no, column
                )
    return len(rows), cols or 0


def _content_lines(text: str, comments: bool = False) -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (comments and line.lstrip().startswith("#")):
            continue
        out.append((i, line))
    return out


def _no_rows(source: str, fmt: str) -> KakuroParseError:
    return KakuroParseError(f"no grid rows (read as {fmt})", source=source, line=1, column=1)


def _read_plain(fmt: str, text: str, source: str) -> list[Puzzle]:
    """The formats that are just rows of cells: ``grid``, ``pipe`` and ``csv``."""
    rows = _content_lines(text, comments=fmt != "csv")
    if fmt == "pipe":
        rows = [(i, line) for i, line in rows if "|" in line]
    if not rows:
        raise _no_rows(source, fmt)
    sep = {"grid": None, "pipe": "|"}.get(fmt)
    if fmt == "csv":
        sep = "\t" if any("\t" in line for _, line in rows) else ","
    grid = _Grid(source, fmt)
    size = _read_rows(grid, rows, sep)
    return [grid.puzzle(*size)]


def _header(grid: _Grid, rows: list[tuple[int, str]], pattern: str) -> tuple[int, int]:
    """The ``rows cols`` header on the first line, checked against the rows that follow."""
    if not rows:
        raise _no_rows(grid.source, grid.fmt)
    line_no, line = rows[0]
    m = re.fullmatch(pattern, line.strip(), re.ASCII)
    if not m:
        raise grid.fail(f"first line {_shown(line.strip())} is not the grid's size", line_no, 1)
    n_rows = _int(m.group(1), grid.source, grid.fmt, line_no, 1)
    n_cols = _int(m.group(2), grid.source, grid.fmt, line_no, 1)
    if len(rows) - 1 != n_rows:
        raise grid.fail(f"the header says {n_rows} rows, the grid has {len(rows) - 1}", line_no, 1)
    return n_rows, n_cols


def _read_janko(text: str, source: str, name: str = "") -> list[Puzzle]:
    grid = _Grid(source, "janko")
    rows = _content_lines(text)
    _, n_cols = _header(grid, rows, r"(\d+)\s+(\d+)")
    size = _read_rows(grid, rows[1:], None, n_cols)
    return [grid.puzzle(*size, name=name)]


def _read_prop(text: str, source: str) -> list[Puzzle]:
    grid = _Grid(source, "prop")
    rows = _content_lines(text)
    _, n_cols = _header(grid, rows, r"(\d+)\s*,\s*(\d+)\s*,?")
    size = _read_rows(grid, rows[1:], ",", n_cols)
    return [grid.puzzle(*size)]


# -- algospot and dzn: white grid plus a list of clues ------------------------------------------


def _numbers(text: str, source: str, fmt: str) -> list[tuple[int, int, int]]:
    """Every integer in ``text`` with its line and column; anything else between them
    (but spaces, commas and ``%`` comments) is a ParseError."""
    out = []
    for line_no, line in enumerate(text.splitlines(), 1):
        for m in _INT.finditer(line):
            out.append(
                (_int(m.group(), source, fmt, line_no, m.start() + 1), line_no, m.start() + 1)
            )
    return out


def _shown(value: object) -> str:
    """``repr(value)``, cut for a message (a token or a line may be a megabyte)."""
    return brief(value)


def _read_algospot(text: str, source: str) -> list[Puzzle]:
    fmt = "algospot"
    numbers = _numbers(text, source, fmt)
    pos = 0

    def take(what: str) -> tuple[int, int, int]:
        nonlocal pos
        if pos >= len(numbers):
            last = numbers[-1] if numbers else (0, 1, 0)
            raise KakuroParseError(
                f"the text ends where {what} was expected (read as {fmt})",
                source=source,
                line=last[1],
                column=last[2] + 1,
            )
        pos += 1
        return numbers[pos - 1]

    cases, _, _ = take("the number of cases")
    puzzles = []
    for case in range(cases):
        grid = _Grid(source, fmt)
        n, line, column = take("the grid size")
        if n < 1:
            raise grid.fail(f"grid size {n} is not >= 1", line, column)
        for r in range(n):
            for c in range(n):
                value, line, column = take(f"row {r + 1} of the grid")
                grid.at((r, c), line, column)
                if value == 1:
                    grid.white.append((r, c))
                elif value != 0:
                    raise grid.fail(f"grid value {value} is not 0 or 1", line, column)
        q, _, _ = take("the number of clues")
        for _ in range(q):
            y, line, column = take("a clue's row")
            x = take("a clue's column")[0]
            direction, dline, dcolumn = take("a clue's direction")
            total = take("a clue's sum")[0]
            if not (1 <= y <= n and 1 <= x <= n):
                raise grid.fail(f"clue cell ({y}, {x}) is off the {n}x{n} grid", line, column)
            if direction not in (0, 1):
                raise grid.fail(f"direction {direction} is not 0 or 1", dline, dcolumn)
            cell = (y - 1, x - 1)
            grid.at(cell, line, column)
            grid.clue(cell, total if direction else None, None if direction else total)
        name = source if cases == 1 else f"{source}#{case + 1}"
        puzzles.append(grid.puzzle(n, n, name=name))
    if pos < len(numbers):
        _, line, column = numbers[pos]
        raise KakuroParseError(
            f"more numbers after the {cases} case(s) the first line announced (read as {fmt})",
            source=source,
            line=line,
            column=column,
        )
    return puzzles


def _read_dzn(text: str, source: str) -> list[Puzzle]:
    fmt = "dzn"
    grid = _Grid(source, fmt)
    values: dict[str, tuple[list[tuple[int, int, int]], int, int]] = {}
    clean = re.sub(r"%[^\n]*", lambda m: " " * len(m.group()), text)
    # Statement by statement (split on ';', then one anchored match each): a single
    # pattern over the whole text went back over every letter of a long word with no
    # ';' after it, quadratic (40,000 letters: 33 s).
    offset = 0
    for statement in clean.split(";")[:-1]:
        m = _DZN_ASSIGN.match(statement)
        if m is not None:
            line, column = _LINES.place(clean, offset + m.start(1))
            body = []
            for n in _INT.finditer(statement, m.end()):
                n_line, n_column = _LINES.place(clean, offset + n.start())
                body.append((_int(n.group(), source, fmt, n_line, n_column), n_line, n_column))
            values[m.group(1)] = (body, line, column)
        offset += len(statement) + 1
    for key in ("h", "w", "grid_data", "h_clue", "v_clue"):
        if key not in values:
            raise KakuroParseError(
                f"no '{key} = ...;' in the data (read as {fmt})", source=source, line=1, column=1
            )
    h = values["h"][0][0][0] if values["h"][0] else 0
    w = values["w"][0][0][0] if values["w"][0] else 0
    cells, line, column = values["grid_data"]
    if h < 1 or w < 1 or len(cells) != h * w:
        raise grid.fail(f"grid_data has {len(cells)} values, not h * w = {h * w}", line, column)
    for i, (value, line, column) in enumerate(cells):
        cell = divmod(i, w)
        grid.at(cell, line, column)
        if value == 1:
            grid.white.append(cell)
        elif value != 0:
            raise grid.fail(f"grid value {value} is not 0 or 1", line, column)
    declared: list[tuple[str, Cell, int, int, int]] = []
    for key, direction in (("h_clue", "across"), ("v_clue", "down")):
        entries, line, column = values[key]
        if len(entries) % 4:
            raise grid.fail(f"{key} has {len(entries)} numbers, not rows of 4", line, column)
        for i in range(0, len(entries), 4):
            (r, line, column), (c, _, _), (length, _, _), (total, _, _) = entries[i : i + 4]
            if not (1 <= r <= h and 1 <= c <= w):
                raise grid.fail(f"{key} cell ({r}, {c}) is off the {h}x{w} grid", line, column)
            cell = (r - 1, c - 1)
            grid.at(cell, line, column)
            if direction == "across":
                grid.clue(cell, None, total)
            else:
                grid.clue(cell, total, None)
            declared.append((direction, cell, length, line, column))
    puzzle = grid.puzzle(h, w)
    _check_lengths(grid, puzzle, declared)
    return [puzzle]


def _check_lengths(
    grid: _Grid, puzzle: Puzzle, declared: list[tuple[str, Cell, int, int, int]]
) -> None:
    lengths = {(run.direction, run.clue): len(run.cells) for run in puzzle.runs}
    for direction, cell, length, line, column in declared:
        actual = lengths.get((direction, cell))
        if actual is not None and actual != length:
            raise grid.fail(
                f"the {direction} run at {cell} is said to have {length} cells; "
                f"the grid gives it {actual}",
                line,
                column,
            )


_DZN_ASSIGN = re.compile(r"\s*+(\w++)\s*+=", re.ASCII)


# -- JSON formats ----------------------------------------------------------------------------


class _Placed(dict[str, Any]):
    """A JSON object that remembers its offset in the text."""

    offset = 0


def _json(text: str, source: str, fmt: str, placed: bool = False) -> Any:
    """Parse JSON; with ``placed``, objects are :class:`_Placed` (for error positions)."""
    decoder = json.JSONDecoder(parse_int=_json_int)
    if placed:

        def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[_Placed, int]:
            obj, end = json_decoder.JSONObject(s_and_end, *args)  # type: ignore[attr-defined]
            out = _Placed(obj)
            out.offset = s_and_end[1] - 1
            return out, end

        decoder.parse_object = parse_object  # type: ignore[attr-defined]
        decoder.scan_once = json_scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise KakuroParseError(
            f"not valid JSON: {exc.msg} (read as {fmt})",
            source=source,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except RecursionError:
        line, column = _too_deep(text)
        raise KakuroParseError(
            f"JSON nested more than {MAX_DEPTH} deep (read as {fmt})",
            source=source,
            line=line,
            column=column,
        ) from None


class _Huge(str):
    """A JSON integer with more than :data:`MAX_DIGITS` digits, kept as text: the
    readers' type checks then refuse it at its object's place."""

    def __repr__(self) -> str:
        return f"{self[:12]}... ({len(self):,} digits)" if len(self) > 20 else str(self)


def _json_int(text: str) -> int | _Huge:
    return int(text) if len(text.lstrip("-")) <= MAX_DIGITS else _Huge(text)


def _too_deep(text: str) -> tuple[int, int]:
    """The place of the first bracket nested deeper than :data:`MAX_DEPTH` (strings
    skipped), in one pass over the brackets, quotes and backslashes."""
    depth = 0
    in_string = False
    escaped_at = -1  # the offset a backslash in a string escapes
    for m in re.finditer(r'[\[\]{}"\\]', text):
        ch, at = m.group(), m.start()
        if in_string:
            if at == escaped_at:
                continue
            if ch == "\\":
                escaped_at = at + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return _LINES.place(text, at)
        else:
            depth -= 1
    return 1, 1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    return _LINES.place(text, offset)


def _field(grid: _Grid, text: str, obj: Any, key: str, kind: type = int) -> Any:
    where = _line_col(text, getattr(obj, "offset", 0))
    if not isinstance(obj, dict) or key not in obj:
        raise grid.fail(f"an object without {key!r}", *where)
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise grid.fail(f"{key!r} is {_shown(value)}, not {kind.__name__}", *where)
    return value


def _read_json(text: str, source: str) -> list[Puzzle]:
    data = _json(text, source, "json", placed=True)
    items = data if isinstance(data, list) else [data]
    puzzles = []
    for index, item in enumerate(items):
        grid = _Grid(source, "json")
        where = _line_col(text, getattr(item, "offset", 0))
        rows = _field(grid, text, item, "rows")
        cols = _field(grid, text, item, "cols")
        runs = _field(grid, text, item, "runs", list)
        declared: list[tuple[str, Cell, int, int, int]] = []
        white: set[Cell] = set()
        for run in runs:
            line, column = _line_col(text, getattr(run, "offset", 0))
            direction = {"h": "across", "v": "down", "across": "across", "down": "down"}.get(
                _field(grid, text, run, "dir", str)
            )
            if direction is None:
                raise grid.fail(f"run direction {_shown(run['dir'])} is not h or v", line, column)
            r, c = _field(grid, text, run, "r"), _field(grid, text, run, "c")
            length, total = _field(grid, text, run, "len"), _field(grid, text, run, "sum")
            if not (0 <= r < rows and 0 <= c < cols):
                raise grid.fail(f"clue cell ({r}, {c}) is off the {rows}x{cols} grid", line, column)
            grid.at((r, c), line, column)
            dr, dc = (0, 1) if direction == "across" else (1, 0)
            for t in range(1, length + 1):
                cell = (r + dr * t, c + dc * t)
                if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
                    raise grid.fail(f"the run at ({r}, {c}) leaves the grid", line, column)
                white.add(cell)
                grid.locations.setdefault(cell, Location(source, "json", line, column))
            if direction == "across":
                grid.clue((r, c), None, total)
            else:
                grid.clue((r, c), total, None)
            declared.append((direction, (r, c), length, line, column))
        grid.white.extend(sorted(white - set(grid.givens)))
        givens = item.get("givens", []) if isinstance(item, dict) else []
        if not isinstance(givens, list):
            raise grid.fail(
                f"'givens' is {_shown(givens)}, not a list of [row, col, digit]", *where
            )
        for entry in givens:
            if not (
                isinstance(entry, list) and len(entry) == 3 and all(type(v) is int for v in entry)
            ):
                raise grid.fail(f"given {_shown(entry)} is not [row, col, digit]", *where)
            r, c, digit = entry
            grid.givens[(r, c)] = digit
        name = item.get("name", "") if isinstance(item, dict) else ""
        if not name and len(items) > 1:
            name = f"{source}#{index + 1}"
        puzzle = grid.puzzle(rows, cols, name=str(name))
        _check_lengths(grid, puzzle, declared)
        puzzles.append(puzzle)
    return puzzles


def _read_pycsp3(text: str, source: str) -> list[Puzzle]:
    data = _json(text, source, "pycsp3", placed=True)
    grid = _Grid(source, "pycsp3")
    rows = _field(grid, text, data, "nRows")
    cols = _field(grid, text, data, "nCols")
    clues = _field(grid, text, data, "clues", list)
    where = _line_col(text, getattr(data, "offset", 0))
    if len(clues) != rows or not all(isinstance(row, list) and len(row) == cols for row in clues):
        raise grid.fail(f"'clues' is not {rows} rows of {cols}", *where)
    for r, row in enumerate(clues):
        for c, entry in enumerate(row):
            line, column = _line_col(text, getattr(entry, "offset", 0))
            across = _field(grid, text, entry, "x")
            down = _field(grid, text, entry, "y")
            grid.at((r, c), line, column)
            if across == 0 and down == 0:
                grid.white.append((r, c))
            else:
                grid.clue((r, c), down if down > 0 else None, across if across > 0 else None)
    return [grid.puzzle(rows, cols)]


def _read_board_json(text: str, source: str) -> list[Puzzle]:
    data = _json(text, source, "board-json")
    grid = _Grid(source, "board-json")
    board = data.get("board") if isinstance(data, dict) else None
    if not isinstance(board, list) or not board or not all(isinstance(r, list) for r in board):
        raise grid.fail("'board' is not a list of rows", 1, 1)
    cols = len(board[0])
    for r, row in enumerate(board):
        if len(row) != cols:
            raise grid.fail(f"board row {r + 1} has {len(row)} cells, not {cols}", 1, 1)
        for c, value in enumerate(row):
            if not isinstance(value, int) or value < -1:
                raise grid.fail(
                    f"board value {_shown(value)} at ({r}, {c}) is not a cell code", 1, 1
                )
            if value == 0:
                grid.white.append((r, c))
            elif 1 <= value <= 9:
                grid.given((r, c), value)
            elif value >= 10:
                grid.clue((r, c), value % 1000 // 10, value // 1000)
    return [grid.puzzle(len(board), cols)]


def _read_janko_json(text: str, source: str) -> list[Puzzle]:
    data = _json(text, source, "janko-json")
    puzzles = []
    for name, problem in janko.entries(data, source, "janko-json", KakuroParseError):
        puzzles.extend(_read_janko(problem, f"{source}#{janko.label(name)}", name=name))
    return puzzles


_READERS: dict[str, Callable[[str, str], list[Puzzle]]] = {
    "grid": lambda text, source: _read_plain("grid", text, source),
    "pipe": lambda text, source: _read_plain("pipe", text, source),
    "csv": lambda text, source: _read_plain("csv", text, source),
    "janko": _read_janko,
    "prop": _read_prop,
    "algospot": _read_algospot,
    "dzn": _read_dzn,
    "pycsp3": _read_pycsp3,
    "json": _read_json,
    "janko-json": _read_janko_json,
    "board-json": _read_board_json,
}


# -- writing ---------------------------------------------------------------------------------


def write_json(puzzle: Puzzle) -> str:
    """The puzzle in this library's ``json`` format (runs and givens); :func:`read`
    reads it back."""
    runs = [
        {
            "dir": "h" if run.direction == "across" else "v",
            "r": run.clue[0],
            "c": run.clue[1],
            "len": len(run.cells),
            "sum": run.total,
        }
        for run in puzzle.runs
    ]
    data: dict[str, Any] = {"rows": puzzle.rows, "cols": puzzle.cols, "runs": runs}
    if puzzle.name:
        data = {"name": puzzle.name, **data}
    if puzzle.givens:
        data["givens"] = [[r, c, d] for (r, c), d in sorted(puzzle.givens.items())]
    return json.dumps(data) + "\n"
