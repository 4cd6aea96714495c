"""Knuth's text format: reading, writing, and errors with line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from lazysearch import ParseError
from lazysearch.exactcover import ExactCover, format_text, parse, read, verify, write

KNUTH_TEXT = """\
| Knuth's example from the dancing-links paper
a b c d e f g

c e
a d g
b c f
a d f
b g
d e g
"""


def test_reads_knuths_example() -> None:
    p = parse(KNUTH_TEXT)
    assert p.primary == tuple("abcdefg") and p.secondary == ()
    (solution,) = list(p.solve())
    assert p.chosen(solution) == [("c", "e"), ("a", "d", "f"), ("b", "g")]
    verify(p.options, solution, primary=p.primary)


def test_secondary_items_and_colours() -> None:
    p = parse("p q | x y\np x:A\nq x:A y\nq x:B\n")
    assert p.secondary == ("x", "y")
    assert list(p.solve()) == [(0, 1)]


def test_bar_may_touch_a_name() -> None:
    assert parse("a |x\na x\n").secondary == ("x",)


def test_round_trip(tmp_path: Path) -> None:
    p = ExactCover(["a b x:1", "c", "a b c x:2"], secondary=["x"])
    path = tmp_path / "p.dlx"
    write(p, path)
    q = read(path)
    assert (q.primary, q.secondary, q.options) == (p.primary, p.secondary, p.options)
    assert format_text(q) == path.read_text()


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("a b\na c\n", 2, 3, "unknown item 'c'"),
        ("a b\n\n| note\na  a\n", 4, 4, "appears twice"),
        ("a | b | c\n", 1, 7, "'|' twice"),
        ("a a\n", 1, 3, "named twice"),
        ("a b:x\n", 1, 3, "contains ':'"),
        ("a | x\na:red x\n", 2, 1, "primary item 'a' cannot have a colour"),
        ("a | x\na x:\n", 2, 3, "bad colour"),
        ("a | x\na | x\n", 2, 3, "'|' inside an option"),
        ("a | x\n  x\n", 2, 3, "no primary item"),
        ("| only a comment\n", 1, 1, "no item line"),
    ],
)
def test_errors_name_the_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(ParseError, match=words) as info:
        parse(text, source="t.dlx")
    assert (info.value.line, info.value.column, info.value.source) == (line, column, "t.dlx")
    assert str(info.value).startswith(f"t.dlx:{line}:{column}: ")


def test_writing_refuses_labels_the_format_cannot_hold() -> None:
    with pytest.raises(ValueError, match="cannot be written"):
        format_text(ExactCover([["a b"]]))
