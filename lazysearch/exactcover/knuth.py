"""Knuth's text format for exact-cover problems (the input of his DLX1 and DLX2).

* Lines that are blank or begin with ``|`` (after spaces) are comments.
* The first other line names the items: primary ones, then ``|``, then secondary ones
  (the ``|`` and the secondary items may be left out).
* Every further line is an option: the items it covers, separated by spaces; a
  secondary item may carry a colour, ``item:colour``.
* Multiplicities (Knuth's DLX3): on the item line, ``u:v|item`` lets a primary item be
  covered from ``u`` to ``v`` times, ``v|item`` exactly ``v`` times.
* Costs (Knuth's DLX5): an option line may end with ``|cost``, a non-negative integer
  (several are added up; options without one cost 0).

>>> p = parse('''
... | Knuth's example, with f and g secondary
... a b c d e | f g
... c e f
... a d g
... b c f
... a d
... b g
... d e g
... ''')
>>> [p.chosen(s) for s in p.solve()]
[[('c', 'e', 'f'), ('a', 'd'), ('b', 'g')]]

Item and colour names are any runs of printable characters other than ``|`` and ``:``
(Knuth limits them to 8 characters; this reader does not).

>>> p = parse('''
... 0:2|a 2|b
... a b |3
... a b |1
... b
... ''')
>>> [(s, p.cost(s)) for s in p.solve().cheapest()]
[((1, 2), 1), ((0, 2), 3), ((0, 1), 4)]
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Iterator

from ..errors import ParseError, brief
from ..textfiles import read_text
from .problem import Colour, ExactCover

_TOKEN = re.compile(r"[^\s|]+|\|")
_BOUND = re.compile(r"(?:(\d+):)?(\d+)")
_DIGITS_AND_COLONS = re.compile(r"[\d:]+")


def _tokens(line: str, source: str, number: int) -> Iterator[tuple[str, int]]:
    """Tokens of a line with their 1-based columns; ``|`` is always a token of its own.
    A token with a character that is not printable (a NUL byte, a control character)
    is a ParseError at that character."""
    for m in _TOKEN.finditer(line):
        token = m.group()
        if not token.isprintable():
            at = next(i for i, ch in enumerate(token) if not ch.isprintable())
            raise ParseError(
                f"{brief(token)} has a character that is not printable "
                f"(U+{ord(token[at]):04X}); names are printable characters",
                source=source,
                line=number,
                column=m.start() + at + 1,
            )
        yield token, m.start() + 1


def parse(text: str, *, source: str = "<text>") -> ExactCover:
    """Read an exact-cover problem from Knuth's text format.

    Raises
    ------
    ParseError
        Naming ``source``, the line and the column of the first fault.
    """
    primary: list[str] = []
    secondary: list[str] = []
    known: dict[str, int] = {}  # name -> 1 (primary) or -1 (secondary)
    options: list[list[Hashable]] = []
    bounds: dict[Hashable, tuple[int, int]] = {}
    costs: list[int] = []
    priced = False
    have_items = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        if not have_items:
            have_items = True
            _read_items(line, number, source, known, primary, secondary, bounds)
            continue
        tokens, cost = _priced(list(_tokens(line, source, number)), source, number)
        priced = priced or cost is not None
        option = _read_option(tokens, number, source, known)
        if all(isinstance(e, Colour) or known[str(e)] < 0 for e in option):
            raise ParseError(
                "this option names no primary item, so it could never be chosen",
                source=source,
                line=number,
                column=len(line) - len(line.lstrip()) + 1,
            )
        options.append(option)
        costs.append(cost or 0)
    if not have_items:
        raise ParseError(
            "no item line (the first line that is not a comment names the items)",
            source=source,
            line=max(1, len(text.splitlines())),
            column=1,
        )
    if not bounds and not priced:
        return ExactCover(options, primary=primary, secondary=secondary)
    try:
        return ExactCover(
            options,
            primary=primary,
            secondary=secondary,
            bounds=bounds,
            costs=costs if priced else None,
        )
    except ValueError as exc:  # the costs add up past the engine's range
        raise ParseError(str(exc), source=source, line=1, column=1) from None


def _read_items(
    line: str,
    number: int,
    source: str,
    known: dict[str, int],
    primary: list[str],
    secondary: list[str],
    bounds: dict[Hashable, tuple[int, int]],
) -> None:
    """Read the item line (line ``number``): its primary items, then after ``|`` its
    secondary ones, each perhaps with a ``u:v|`` bound, into the lists given."""
    bar_seen = False
    pending: tuple[int, int] | None = None  # a bound prefix waiting for its item
    tokens = list(_tokens(line, source, number))
    for t, (token, column) in enumerate(tokens):
        if pending is None and _is_bound_prefix(tokens, t):
            pending = _bound(token, bar_seen, source, number, column)
            continue
        if pending is not None and token == "|":
            continue  # the '|' of ``u:v|item``
        if token == "|":
            if bar_seen:
                raise ParseError(
                    "the item line has '|' twice", source=source, line=number, column=column
                )
            bar_seen = True
            continue
        if ":" in token:
            raise ParseError(
                f"item name {brief(token)} contains ':'",
                source=source,
                line=number,
                column=column,
            )
        if token in known:
            raise ParseError(
                f"item {brief(token)} is named twice",
                source=source,
                line=number,
                column=column,
            )
        known[token] = -1 if bar_seen else 1
        (secondary if bar_seen else primary).append(token)
        if pending is not None:
            if pending != (1, 1):
                bounds[token] = pending
            pending = None


def _priced(
    tokens: list[tuple[str, int]], source: str, number: int
) -> tuple[list[tuple[str, int]], int | None]:
    """An option line's tokens without its ``|cost`` entries at the end, and the costs
    added up (DLX5); None when it has none."""
    cost = 0
    priced = False
    while len(tokens) >= 2 and tokens[-2][0] == "|":
        # ``|cost`` entries at the end of the line, added up (DLX5)
        (_, at), (digits, column) = tokens[-2:]
        if column != at + 1:
            raise ParseError(
                "'|' inside an option (a cost is written '|cost', with no space)",
                source=source,
                line=number,
                column=at,
            )
        if not digits.isdigit() or not digits.isascii() or len(digits) > 18:
            raise ParseError(
                f"the cost {brief(digits)} is not a non-negative integer (below 10**18)",
                source=source,
                line=number,
                column=column,
            )
        cost += int(digits)
        priced = True
        tokens = tokens[:-2]
    return tokens, cost if priced else None


def _read_option(
    tokens: list[tuple[str, int]], number: int, source: str, known: dict[str, int]
) -> list[Hashable]:
    """An option's items (a :class:`Colour` for a coloured one), checked against the
    items ``known``."""
    option: list[Hashable] = []
    in_option: set[str] = set()
    for token, column in tokens:
        if token == "|":
            raise ParseError("'|' inside an option", source=source, line=number, column=column)
        name, sep, colour = token.partition(":")
        if name not in known:
            raise ParseError(
                f"unknown item {brief(name)}", source=source, line=number, column=column
            )
        if name in in_option:
            raise ParseError(
                f"item {brief(name)} appears twice in this option",
                source=source,
                line=number,
                column=column,
            )
        if sep:
            if not colour or ":" in colour:
                raise ParseError(
                    f"bad colour in {brief(token)}", source=source, line=number, column=column
                )
            if known[name] > 0:
                raise ParseError(
                    f"primary item {brief(name)} cannot have a colour",
                    source=source,
                    line=number,
                    column=column,
                )
            option.append(Colour(name, colour))
        else:
            option.append(name)
        in_option.add(name)
    return option


def _is_bound_prefix(tokens: list[tuple[str, int]], t: int) -> bool:
    """Whether token ``t`` of the item line is the ``u:v`` of ``u:v|item``: digits and
    colons, then ``|`` and a name, all without spaces between."""
    if t + 2 >= len(tokens):
        return False
    (token, column), (bar, at), (name, where) = tokens[t : t + 3]
    return (
        bar == "|"
        and at == column + len(token)
        and where == at + 1
        and name != "|"
        and _DIGITS_AND_COLONS.fullmatch(token) is not None
    )


def _bound(token: str, secondary: bool, source: str, line: int, column: int) -> tuple[int, int]:
    """``u:v`` or ``v`` of an item-line prefix, checked (DLX3's rules)."""
    m = _BOUND.fullmatch(token)
    if m is None or len(token) > 19:
        raise ParseError(
            f"malformed bound {brief(token + '|')}: write u:v|item or v|item, u and v integers",
            source=source,
            line=line,
            column=column,
        )
    if secondary:
        raise ParseError(
            f"bound {brief(token + '|')} on a secondary item: only primary items take bounds",
            source=source,
            line=line,
            column=column,
        )
    v = int(m.group(2))
    u = v if m.group(1) is None else int(m.group(1))
    if v == 0 or v >= 2**31:
        raise ParseError(
            f"upper bound {v} in {brief(token + '|')} must be from 1 to 2**31-1",
            source=source,
            line=line,
            column=column,
        )
    if u > v:
        raise ParseError(
            f"lower bound {u} exceeds upper bound {v} in {brief(token + '|')}",
            source=source,
            line=line,
            column=column,
        )
    return u, v


def read(path: str | os.PathLike[str]) -> ExactCover:
    """Read a problem from a file in Knuth's format (see :func:`parse`)."""
    return parse(read_text(path), source=os.fspath(path))


def _name(label: Hashable, what: str) -> str:
    text = str(label)
    if not text or any(ch.isspace() or ch in "|:" for ch in text):
        raise ValueError(
            f"{what} {label!r} cannot be written in Knuth's format "
            "(it is empty, or has a space, '|' or ':')"
        )
    return text


def format_option(option: tuple[Hashable, ...]) -> str:
    parts = []
    for entry in option:
        if isinstance(entry, Colour):
            parts.append(f"{_name(entry.item, 'item')}:{_name(entry.colour, 'colour')}")
        else:
            parts.append(_name(entry, "item"))
    return " ".join(parts)


def format_text(problem: ExactCover) -> str:
    """The problem in Knuth's format; ``parse(format_text(p))`` gives ``p`` back when
    every label is a string.

    >>> print(format_text(ExactCover(["a b", "b x:1"], secondary=["x"])), end="")
    a b | x
    a b
    b x:1
    >>> print(format_text(ExactCover(["a b", "a"], bounds={"a": (1, 2)}, costs=[0, 4])), end="")
    1:2|a b
    a b
    a |4
    """
    bounds = problem.bounds

    def named(item: Hashable) -> str:
        name = _name(item, "item")
        if item not in bounds:
            return name
        u, v = bounds[item]
        return f"{v}|{name}" if u == v else f"{u}:{v}|{name}"

    head = " ".join(named(i) for i in problem.primary)
    if problem.secondary:
        head += " | " + " ".join(_name(i, "item") for i in problem.secondary)
    costs = problem.costs
    lines = [head] + [
        format_option(o) + (f" |{costs[j]}" if costs is not None and costs[j] else "")
        for j, o in enumerate(problem.options)
    ]
    return "\n".join(lines) + "\n"


def write(problem: ExactCover, path: str | os.PathLike[str]) -> None:
    """Write ``problem`` to ``path`` in Knuth's format."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(format_text(problem))
