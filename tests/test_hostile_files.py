"""Hostile files: diagram files mutated, bytes that are not UTF-8 in every reader's file,
boards too large for the polyform command, and a parallel stream read by two threads.

Every reader answers a result or a ParseError naming the file, line and column; never
a bare ValueError, OverflowError or UnicodeDecodeError.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazysearch import cli, exact_cover, kakuro, queens, sudoku
from lazysearch.cli import main
from lazysearch.errors import LazysearchError, ParseError
from lazysearch.exactcover import knuth
from lazysearch.exactcover.diagram import Diagram
from lazysearch.kakuro import KakuroParseError
from lazysearch.puzzles import polyomino, variant_text

from .test_hostile_inputs import _read_together, mutations, one_line

# -- diagram files ----------------------------------------------------------------------

DIAGRAM = exact_cover(["a b", "a", "b", "c", "b c"]).diagram().to_text()

#: (text, line, column, part of the message)
DIAGRAM_CORPUS: list[tuple[str, int, int, str]] = [
    ("lazysearch-diagram 1 nodes=² edges=0 root=1 count=1\n", 1, 22, "nodes=<number>"),
    ("lazysearch-diagram 1 nodes=2 edges=0 root=1 count=-1\n", 1, 45, "count=<number>"),
    ("lazysearch-diagram 1 nodes=2 edges=0 root=1 count=" + "1" * 4300, 1, 45, "at most 1,000"),
    ("lazysearch-diagram 1 nodes=" + "9" * 4300 + " edges=0 root=1 count=1", 1, 22, "2**63"),
    ("lazysearch-diagram ٣ nodes=2 edges=0 root=1 count=1\n", 1, 20, "version '٣'"),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 ³ 0:1\n", 2, 3, "expected '2 <"),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 " + "9" * 30 + " 0:1\n", 2, 3, ""),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 1 " + "9" * 30 + ":1\n", 2, 5, ""),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 1 0:1 ²:1\n", 2, 9, "got '²:1'"),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n2 1 0:" + "1" * 5000, 2, 5, "(5,002"),
    ("lazysearch-diagram 1 nodes=3 edges=1 root=2 count=1\n3 1 0:1\n", 2, 1, "expected '2 <"),
    (DIAGRAM.replace("count=3", "count=" + "9" * 999), 1, 1, "(999 characters), but the nodes"),
]


@pytest.mark.parametrize(("text", "line", "column", "expected"), DIAGRAM_CORPUS)
def test_hostile_diagram_texts(text: str, line: int, column: int, expected: str) -> None:
    with pytest.raises(ParseError) as caught:
        Diagram.from_text(text, source="d.txt")
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    assert expected in message
    assert message.startswith(f"d.txt:{line}:{column}: ")


def test_a_diagram_file_reads_back() -> None:
    back = Diagram.from_text(DIAGRAM)
    assert back.to_text() == DIAGRAM and back.count() == 3


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_fuzzed_diagrams_answer_a_diagram_or_a_placed_error(data: st.DataObject) -> None:
    text = data.draw(mutations(DIAGRAM))
    try:
        back = Diagram.from_text(text)
    except ParseError as exc:
        assert exc.line >= 1 and exc.column >= 1
        assert "\n" not in str(exc) and len(str(exc)) < 400
    else:  # what reads is a diagram whose counts agree with its header
        assert back.count() == sum(1 for _ in back.raw())


# -- files that are not UTF-8: every reader names the file and the place -----------------

#: A reader of files, a file it reads, and the error class it raises.
FILE_READERS: dict[str, tuple[Callable[[Path], object], str, type[ParseError]]] = {
    "dlx": (knuth.read, "| comment\na b c | d\na d:1\nb c\na b\nc d:2\n", ParseError),
    "sudoku": (sudoku.read, "1.3.........2.4.\n\n1 2 0 0\n0 0 1 2\n2 1 0 0\n0 0 2 1\n", ParseError),
    "variant": (
        lambda path: variant_text.read(str(path)),
        "1.3.........2.4.\n",
        ParseError,
    ),
    "kakuro": (kakuro.read_all, "\\ 4\\ 3\\\n\\3 _ _\n\\4 _ _\n", KakuroParseError),
    "diagram": (Diagram.read, DIAGRAM, ParseError),
}


@pytest.mark.parametrize("reader", sorted(FILE_READERS))
def test_a_file_that_is_not_utf8_is_a_parse_error_naming_it(reader: str, tmp_path: Path) -> None:
    read, sample, error = FILE_READERS[reader]
    path = tmp_path / f"{reader}.txt"
    path.write_text(sample, encoding="utf-8")
    read(path)  # the sample itself reads
    lines = sample.split("\n")
    column = 1 + min(2, len(lines[1]))  # line 2, column 3 (or 1 on an empty line)
    at = len(lines[0]) + column  # the samples are ASCII: a character a byte
    path.write_bytes(sample[:at].encode() + b"\xe9t\xe9" + sample[at:].encode())
    with pytest.raises(error) as caught:
        read(path)
    assert (caught.value.source, caught.value.line, caught.value.column) == (str(path), 2, column)
    assert str(caught.value) == f"{path}:2:{column}: not UTF-8 text (byte {at} is 0xe9)"


def test_the_place_of_a_bad_byte_counts_characters_and_any_line_end(tmp_path: Path) -> None:
    path = tmp_path / "p.dlx"
    path.write_bytes("a b\r\nb\rä ".encode() + b"\xff\n")
    with pytest.raises(
        ParseError, match=re.escape(f"{path}:3:3: not UTF-8 text (byte 10 is 0xff)")
    ):
        knuth.read(path)
    path.write_bytes(b"\xef\xbb\xbf\\ 4\\\n\\3 _\x80\n")  # kakuro files may start with a mark
    with pytest.raises(KakuroParseError, match=re.escape(f"{path}:2:5: not UTF-8")):
        kakuro.read_all(path)


@pytest.mark.parametrize("reader", sorted(FILE_READERS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_bytes_answer_a_result_or_a_placed_error(
    reader: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    read, sample, _ = FILE_READERS[reader]
    raw = bytearray(sample.encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=3))
    path = tmp_path_factory.mktemp("bytes") / "f.txt"
    path.write_bytes(bytes(raw))
    try:
        read(path)
    except ParseError as exc:
        assert exc.source == str(path) and exc.line >= 1 and exc.column >= 1
        assert "\n" not in str(exc) and len(str(exc)) < 400
    except LazysearchError as exc:  # a well-formed text of a bad puzzle: no place in it
        assert "\n" not in str(exc) and len(str(exc)) < 400


# -- polyform boards: sizes and area before the board is built ---------------------------


@pytest.fixture
def no_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a board fails the test: the command must refuse before it."""

    def refused(*args: Any) -> None:
        raise AssertionError(f"a board {args} was built")

    monkeypatch.setattr(polyomino, "parallelogram", refused)
    monkeypatch.setattr(polyomino, "box", refused)


@pytest.mark.usefixtures("no_board")
@pytest.mark.parametrize(
    ("argv", "status", "expected"),
    [
        (
            ["polycube", "hexiamonds", "--board", "2x1073741824", "--limit", "1"],
            cli.EXIT_TOO_LARGE,
            "a 2x1073741824 board has 4,294,967,296 triangles; the engine numbers them in 32 "
            "bits (at most 2,147,483,647)",
        ),
        (
            ["polycube", "soma", "--board", "2000x2000x1000"],
            cli.EXIT_TOO_LARGE,
            "a 2000x2000x1000 board has 4,000,000,000 cubes",
        ),
        (
            ["polycube", "tetrahexes", "--board", "3x1000000000"],
            cli.EXIT_TOO_LARGE,
            "a 3x1000000000 board has 3,000,000,000 hexagons",
        ),
        (
            ["polycube", "hexiamonds", "--board", "2x10000000", "--limit", "1"],
            cli.EXIT_BAD_INPUT,
            "the 12 hexiamonds cover 72 cells, and the board 2x10000000 has 40000000",
        ),
        (
            ["polycube", "soma", "--board", "3x3x4"],
            cli.EXIT_BAD_INPUT,
            "the 7 soma cover 27 cells, and the board 3x3x4 has 36",
        ),
        (
            ["polycube", "soma", "--board", "100000x100000"],
            cli.EXIT_BAD_INPUT,
            "soma fill a box XxYxZ, got --board 100000x100000",
        ),
    ],
)
def test_polyform_boards_are_refused_before_they_are_built(
    argv: list[str], status: int, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    got = main(argv)
    out, err = capsys.readouterr()
    assert (got, out) == (status, "")
    assert expected in one_line(err)


# -- a parallel stream read from two threads ---------------------------------------------


def test_a_parallel_stream_read_from_two_threads_gives_each_solution_once() -> None:
    expected = queens(8).take(100)
    solutions = queens(8).parallel(workers=2)
    parts = _read_together([lambda: list(solutions)] * 2)
    got = [s for part in parts for s in part]
    assert sorted(got) == sorted(expected) and len(got) == 92
    for part in parts:  # each reader saw its solutions in the search's order
        assert part == sorted(part, key=expected.index)
