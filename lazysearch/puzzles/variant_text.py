"""The variant text format: a grid of givens, then its regions, cages and sums, and
``diagonals``; or a generated variant's JSON line.  :func:`loads` and :func:`read` read
it, :func:`write` writes it (all three also as :mod:`.variants`' own).

>>> p = loads('''
... givens: 1...............
... regions: aabb aabb ccdd ccdd
... diagonals
... ''')
>>> p.kind(), p.givens[:4]
('jigsaw x', '1...')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import ParseError, article, brief, json_line
from ..textfiles import read_text
from .sudoku_grid import SYMBOLS, SudokuError
from .variant_rules import (
    LABELS,
    Cell,
    Variant,
    cage_labels,
    cages_checked,
    cut_off,
    region_fault,
)


def write(grid: Sequence[Sequence[int]], rules: Variant, *, box: bool = True) -> str:
    """The variant text format (:func:`loads`): the grid, then its regions (when not
    boxes), its cages and sums, and ``diagonals``.

    >>> from lazysearch.puzzles.variant_rules import variant
    >>> rules = variant(4, cages=[(3, [(0, 0), (0, 1)])])
    >>> print(write([[0] * 4] * 4, rules))
    givens:
    ....
    ....
    ....
    ....
    cages:
    aa..
    ....
    ....
    ....
    sums: a=3
    """
    lines = ["givens:"]
    lines += ["".join(SYMBOLS[v - 1] if v else "." for v in row) for row in grid]
    if not box:
        lines.append("regions:")
        lines += ["".join(LABELS[k % len(LABELS)] for k in row) for row in rules.region]
    if rules.cages:
        labels = cage_labels(rules)
        lines.append("cages:")
        lines += ["".join(row) for row in labels]
        sums = [f"{labels[cells[0][0]][cells[0][1]]}={total}" for total, cells in rules.cages]
        lines.append("sums: " + " ".join(sums))
    if rules.diagonals:
        lines.append("diagonals")
    return "\n".join(lines)


_SECTION = re.compile(r"(givens|grid|regions|cages|sums)\s*:\s*", re.IGNORECASE)
_SUM = re.compile(r"(\S)\s*=\s*(\S*)")


class VariantText:
    """A variant puzzle as read from text (see :func:`loads`): the givens as a line of
    symbols, and the keyword arguments of :func:`lazysearch.sudoku.solve`."""

    __slots__ = ("cages", "diagonals", "givens", "regions")

    def __init__(
        self,
        givens: str,
        regions: list[str] | None,
        cages: list[tuple[int, list[Cell]]] | None,
        diagonals: bool,
    ) -> None:
        self.givens = givens
        self.regions = regions
        self.cages = cages
        self.diagonals = diagonals

    def kind(self) -> str:
        """``killer``, ``jigsaw``, ``x`` or their combination (``killer jigsaw x``)."""
        parts = [
            name
            for name, on in (
                ("killer", self.cages is not None),
                ("jigsaw", self.regions is not None),
                ("x", self.diagonals),
            )
            if on
        ]
        return " ".join(parts) or "classic"


def is_variant_text(text: str) -> bool:
    """Whether ``text`` reads as the variant format (a section header, a sums line or a
    ``diagonals`` line, or a generated variant's JSON: an object with ``regions``,
    ``cages`` or ``diagonals`` set) rather than a file of classic puzzles."""
    if text.lstrip().startswith("{"):
        import json

        try:
            data = json.loads(text.splitlines()[0] if text.strip() else text)
        except (ValueError, RecursionError):
            return False
        return isinstance(data, dict) and any(
            data.get(key) for key in ("regions", "cages", "diagonals")
        )
    for line in text.splitlines():
        word = line.strip()
        if _SECTION.match(word) or word.lower() in ("diagonals", "x"):
            return True
        if _SUM.match(word) and all(_SUM.fullmatch(t) for t in word.split()):
            return True
    return False


def loads(text: str, *, source: str = "<text>") -> VariantText:
    """One variant puzzle from text.

    >>> p = loads('''
    ... givens: 1...............
    ... cages:
    ... aabb
    ... ccdd
    ... efgh
    ... efgh
    ... sums: a=3 b=7 c=7 d=3 e=5 f=5 g=5 h=5
    ... ''')
    >>> p.kind(), p.cages[0]
    ('killer', (3, [(0, 0), (0, 1)]))

    Sections, each a header line (``givens:``, ``regions:``, ``cages:``) with its
    grid as one line of ``n * n`` symbols after the colon or as the ``n`` lines after
    it; ``sums:`` then ``label=sum`` pairs (the header is optional: a line of such pairs
    is sums); a line ``diagonals`` (or ``x``) for X-sudoku.  Lines before any header are
    the givens, and a line of two words of equal length, ``givens cages`` side by side
    (CodinGame's killer format: ``..3.5.... aabbbcdde``), fills both.  Blank lines and
    ``#`` comments are skipped.  A killer puzzle needs no givens: an all-blank grid is
    assumed.  Mistakes raise :class:`ParseError` naming the line and column.

    A text that starts with ``{`` is one line of ``lazysearch generate sudoku --variant
    ... --format json`` (:meth:`.generate_variants.GeneratedVariant.json`): ``puzzle``,
    and ``regions`` (rows of labels), ``diagonals``, ``cages`` (``[sum, [[row, col],
    ...]]``) where set.
    """
    if text.lstrip().startswith("{"):
        return _from_json(text, source)
    grids: dict[str, list[tuple[int, int, str]]] = {"givens": [], "regions": [], "cages": []}
    sums: dict[str, tuple[int, int, int]] = {}
    diagonals = False
    section = "givens"
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.strip()
        lead = len(line) - len(line.lstrip())
        if not word or word.startswith("#"):
            continue
        header = _SECTION.match(word)
        is_sums = False
        if header:
            section = header.group(1).lower()
            section = "givens" if section == "grid" else section
            if section == "givens" and grids["givens"]:
                raise ParseError(
                    "a second givens grid: the variant format holds one puzzle a text "
                    "(write each to its own file)",
                    source=source,
                    line=number,
                    column=lead + 1,
                )
            is_sums = section == "sums"
            lead += header.end()
            word = word[header.end() :]
            if not word:
                continue
        if word.lower() in ("diagonals", "x"):
            diagonals = True
            continue
        if is_sums or all("=" in token for token in word.split()):
            for match in re.finditer(r"\S+", word):
                pair = _SUM.fullmatch(match.group())
                column = lead + match.start() + 1
                if pair is None or not pair.group(2).isascii() or not pair.group(2).isdigit():
                    raise ParseError(
                        f"a sum is label=number, like a=12; got {brief(match.group())}",
                        source=source,
                        line=number,
                        column=column,
                    )
                if pair.group(1) in sums:
                    raise ParseError(
                        f"cage {pair.group(1)!r} has two sums",
                        source=source,
                        line=number,
                        column=column,
                    )
                if len(pair.group(2)) > 6:
                    raise ParseError(
                        f"the sum {pair.group(2)[:12]}... is larger than any cage's",
                        source=source,
                        line=number,
                        column=column,
                    )
                sums[pair.group(1)] = (int(pair.group(2)), number, column)
            continue
        if section == "sums":
            raise ParseError(
                "a grid after the sums: give its section header (givens:, regions:, cages:)",
                source=source,
                line=number,
                column=lead + 1,
            )
        parts = word.split()
        if section == "givens" and len(parts) == 2 and len(parts[0]) == len(parts[1]):
            second = lead + line[lead:].index(parts[1], len(parts[0]))
            grids["givens"].append((number, lead, parts[0]))
            grids["cages"].append((number, second, parts[1]))
            continue
        if len(parts) > 1:
            # spaces between symbols: keep the symbols, with the column of each
            column = lead
            for part in parts:
                column = line.index(part, column)
                grids[section].append((number, column, part))
                column += len(part)
            continue
        grids[section].append((number, lead, word))
    return _assemble(grids, sums, diagonals, source, text)


def _from_json(text: str, source: str) -> VariantText:
    """A generated variant's JSON line read back (see :func:`loads`)."""

    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > 1:
        raise ParseError(
            "one puzzle a text: a variant's JSON is a single line (this is a second one)",
            source=source,
            line=lines[1][0],
            column=1,
        )
    number, line = lines[0]
    lead = len(line) - len(line.lstrip()) + 1
    data = json_line(line, source=source, number=number)
    if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str):
        raise ParseError(
            "a JSON object with a 'puzzle' string", source=source, line=number, column=lead
        )
    givens = "".join(data["puzzle"].split())
    regions = data.get("regions")
    if regions is not None and not (
        isinstance(regions, list) and all(isinstance(row, str) for row in regions)
    ):
        raise ParseError(
            f"'regions' is {brief(regions)}, not a list of rows of labels",
            source=source,
            line=number,
            column=lead,
        )
    diagonals = data.get("diagonals", False)
    if type(diagonals) is not bool:
        raise ParseError(
            f"'diagonals' is {brief(diagonals)}, not true or false",
            source=source,
            line=number,
            column=lead,
        )
    raw = data.get("cages")
    cages: list[tuple[int, list[Cell]]] | None = None
    if raw is not None:
        cages = []
        for k, cage in enumerate(raw if isinstance(raw, list) else [raw], start=1):
            if (
                not isinstance(cage, list)
                or len(cage) != 2
                or type(cage[0]) is not int
                or not isinstance(cage[1], list)
                or not all(
                    isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)
                    for cell in cage[1]
                )
            ):
                raise ParseError(
                    f"cage {k} is {brief(cage)}, not [sum, [[row, col], ...]]",
                    source=source,
                    line=number,
                    column=lead,
                )
            cages.append((cage[0], [(cell[0], cell[1]) for cell in cage[1]]))
    return VariantText(givens, regions, cages, diagonals)


def _grid_rows(
    pieces: list[tuple[int, int, str]], source: str, what: str
) -> list[list[tuple[str, int, int]]]:
    """Symbols with their (line, column) places, as rows of a square grid."""
    symbols = [
        (ch, number, column + i + 1) for number, column, word in pieces for i, ch in enumerate(word)
    ]
    lines: dict[int, list[tuple[str, int, int]]] = {}
    for entry in symbols:
        lines.setdefault(entry[1], []).append(entry)
    total = len(symbols)
    n = len(lines) if len(lines) > 1 else round(total**0.5)
    if n < 1 or n * n != total:
        number, column, word = pieces[-1]
        raise ParseError(
            f"the {what} grid has {total} cells, not a square number (81 for 9x9)",
            source=source,
            line=number,
            column=column + len(word) + 1,
        )
    return [symbols[i : i + n] for i in range(0, total, n)]


def _assemble(
    grids: dict[str, list[tuple[int, int, str]]],
    sums: dict[str, tuple[int, int, int]],
    diagonals: bool,
    source: str,
    text: str,
) -> VariantText:
    lines = text.splitlines()
    where = (len(lines) or 1, 1)
    found = {what: _grid_rows(p, source, what) for what, p in grids.items() if p}
    sizes = {what: len(rows) for what, rows in found.items()}
    if not sizes:
        raise ParseError("no grid in this text", source=source, line=where[0], column=where[1])
    n = max(sizes.values())
    for what, rows in found.items():
        if len(rows) != n:
            raise ParseError(
                f"the {what} grid is {len(rows)}x{len(rows)} and another {n}x{n}",
                source=source,
                line=rows[0][0][1],
                column=rows[0][0][2],
            )
    givens = "." * (n * n)
    if "givens" in found:
        out = []
        for row in found["givens"]:
            for ch, number, column in row:
                if ch in ".0":
                    out.append(".")
                elif 0 <= SYMBOLS.find(ch.upper()) < n:
                    out.append(ch.upper())
                else:
                    raise ParseError(
                        f"{ch!r} is not a value of {article(n)} {n}x{n} sudoku",
                        source=source,
                        line=number,
                        column=column,
                    )
        givens = "".join(out)
    regions = None
    if "regions" in found:
        regions = ["".join(ch for ch, _, _ in row) for row in found["regions"]]
    cages = None
    if "cages" in found or sums:
        if "cages" not in found:
            _, number, column = next(iter(sums.values()))
            raise ParseError("sums but no cages grid", source=source, line=number, column=column)
        members: dict[str, list[Cell]] = {}
        first: dict[str, tuple[int, int]] = {}
        for r, row in enumerate(found["cages"]):
            for c, (ch, number, column) in enumerate(row):
                if ch == ".":
                    continue
                members.setdefault(ch, []).append((r, c))
                first.setdefault(ch, (number, column))
        for label, (_, number, column) in sums.items():
            if label not in members:
                raise ParseError(
                    f"a sum for cage {label!r}, which no cell is in",
                    source=source,
                    line=number,
                    column=column,
                )
        cages = []
        for label, cells in members.items():
            if label not in sums:
                number, column = first[label]
                raise ParseError(
                    f"cage {label!r} has no sum (add {label}=... to the sums)",
                    source=source,
                    line=number,
                    column=column,
                )
            total, number, column = sums[label]
            try:
                cages_checked([(total, cells)], n)
            except SudokuError as exc:
                message = str(exc).replace("cage 1", f"cage {label!r}")
                raise ParseError(message, source=source, line=number, column=column) from None
            if cut_off(cells) is not None:
                number, column = first[label]
                raise ParseError(
                    f"cage {label!r} is not connected (a cage is one piece; give the parts "
                    "two labels)",
                    source=source,
                    line=number,
                    column=column,
                )
            cages.append((total, cells))
    if regions is not None:
        number_of: dict[str, int] = {}
        grid = tuple(
            tuple(number_of.setdefault(ch, len(number_of)) for ch in row) for row in regions
        )
        fault = region_fault(grid, n, {k: ch for ch, k in number_of.items()})
        if fault is not None:
            r, c = fault[1]
            _, number, column = found["regions"][r][c]
            raise ParseError(fault[0], source=source, line=number, column=column)
    return VariantText(givens, regions, cages, diagonals)


def read(path: str) -> VariantText:
    """One variant puzzle from a file; see :func:`loads`."""
    return loads(read_text(path), source=path)
