"""One tour held compactly (issue 17, "huge boards, one tour"): a Tour keeps square
indices in an array('I') and decodes pairs when read, so it must behave exactly as the
tuple of pairs it used to be; the single-tour engine and the command line keep to a few
bytes a square."""

from __future__ import annotations

import io
import json
import pickle
import sys
import tracemalloc
from array import array
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import InvalidSolutionError, compiled, knights
from lazysearch.cli import main
from lazysearch.engine import _native
from lazysearch.knights import KnightsError, Tour
from lazysearch.knights.solver import KnightsProblem
from lazysearch.search import Search


def raw_tours(rows: int, cols: int, start: int, closed: bool = False) -> list[Any]:
    """The engine's own tours (tuples of pairs), not decoded into Tours."""
    return list(Search(KnightsProblem(rows, cols, [start], closed)))


# -- a Tour is still the tuple of its pairs ----------------------------------------------------


def test_tours_of_5x5_are_their_tuples() -> None:
    """Equality both ways, hash, repr, len, indexing, slicing, iteration and search on
    every tour of 5x5 from a corner (304), against the engine's tuples."""
    tours = list(knights.tours(5, start=(0, 0)))
    raws = raw_tours(5, 5, 0)
    assert len(tours) == len(raws) == 304
    for t, raw in zip(tours, raws, strict=True):
        assert isinstance(t.indices(), array) and t.indices().itemsize == 4
        assert t == raw and raw == t and (t != raw) is False
        assert hash(t) == hash(raw) and repr(t) == repr(raw)
        assert len(t) == 25 and tuple(t) == raw and list(reversed(t)) == list(reversed(raw))
        assert [t[i] for i in range(-25, 25)] == [raw[i] for i in range(-25, 25)]
        assert t[3:17:2] == raw[3:17:2] and t[::-1] == raw[::-1] and t[:0] == ()
        assert raw[12] in t and (5, 5) not in t and [0, 0] not in t and "a" not in t
        assert t.index(raw[12]) == 12 and t.count(raw[7]) == 1
        with pytest.raises(IndexError):
            t[25]
        with pytest.raises(ValueError, match="not in"):
            t.index((9, 9))
    assert len(set(tours) | set(raws)) == 304
    assert sorted(tours) == sorted(raws)
    for a, b in zip(range(0, 304, 7), range(5, 304, 11), strict=False):
        assert (tours[a] < tours[b], tours[a] <= raws[b], tours[a] > tours[b]) == (
            raws[a] < raws[b],
            raws[a] <= raws[b],
            raws[a] > raws[b],
        )
        assert tours[a] >= raws[a] and tours[a] <= raws[a]


def test_equality_with_other_things() -> None:
    t = knights.tour(5)
    assert t != list(t) and t != 5 and t != "tour"  # as a tuple: never equal to a list
    assert t == Tour(list(t), 5, 5) == Tour(t, 5, 5) == Tour(tuple(t), 7, 5)
    assert t != Tour(list(t)[:-1], 5, 5) and t != Tour(list(reversed(t)), 5, 5)
    assert Tour() == () and len(Tour()) == 0 and str(Tour()) == "" and not Tour().closed


def test_squares_off_the_board_are_kept_as_given() -> None:
    """Today's Tour took any pairs; verify() names the one off the board."""
    squares = [(0, 0), (1, 2), (3, 3)]
    t = Tour(squares, 3, 3)
    assert t == tuple(squares) and t[-1] == (3, 3) and (3, 3) in t and len(t) == 3
    with pytest.raises(KnightsError, match="off the 3x3 board"):
        t.indices()
    nine = Tour([*squares, *[(0, 1)] * 6], 3, 3)
    with pytest.raises(InvalidSolutionError, match=r"square 2 of the tour, \(3, 3\), is off"):
        knights.verify(nine, 3, 3)
    assert Tour([(0, 0), (1.0, 2)], 3, 3)[1] == (1.0, 2)  # not a whole number: as given


def test_from_indices_keeps_the_array_and_checks_its_kind() -> None:
    codes = array("I", [0, 7, 2, 9])
    t = Tour.from_indices(codes, 3, 4)
    assert t.indices() is codes and list(t) == [(0, 0), (1, 3), (0, 2), (2, 1)]
    with pytest.raises(KnightsError, match="array\\('I'\\), got list"):
        Tour.from_indices([0, 7], 3, 4)  # type: ignore[arg-type]
    with pytest.raises(KnightsError, match="got array"):
        Tour.from_indices(array("q", [0, 7]), 3, 4)


def test_pickle_keeps_the_indices() -> None:
    t = knights.tour(30, start=(4, 5))
    data = pickle.dumps(t)
    assert len(data) < 4 * 900 + 200  # the array's bytes, not 900 pickled pairs
    back = pickle.loads(data)
    assert back == t and (back.rows, back.cols) == (30, 30) and back.indices() == t.indices()


def test_text_and_numbers_as_before() -> None:
    """str() and numbers() against the old definition (a grid filled move by move)."""
    for t in [knights.tour(6, 7, start=(2, 3)), knights.tours(5, start=(0, 0)).first()]:
        grid = [[0] * t.cols for _ in range(t.rows)]
        for n, (r, c) in enumerate(t, start=1):
            grid[r][c] = n
        width = len(str(len(t)))
        text = "\n".join(" ".join(str(n).rjust(width) for n in row) for row in grid)
        assert t.numbers() == grid and str(t) == text and list(t.lines()) == text.split("\n")
    part = Tour([(0, 0), (1, 2)], 2, 3)
    assert part.numbers() == [[1, 0, 0], [0, 0, 2]] and str(part) == "1 0 0\n0 0 2"


# -- the verifier for tours held as indices ------------------------------------------------------


def test_verify_a_300x300_tour() -> None:
    t = knights.tour(300, start=(150, 7))
    assert len(t) == 90_000 and t[0] == (150, 7) and t.indices().itemsize == 4
    knights.verify(t, 300, 300, start=(150, 7))
    c = knights.tour(300, closed=True)
    knights.verify(c, 300, 300, start=(0, 0), closed=True)
    # The independent plain check agrees.
    knights.verify(list(c), 300, 300, start=(0, 0), closed=True)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_verify_indices_says_what_the_pairs_check_says(data: st.DataObject) -> None:
    """A tour spoiled at random (two squares swapped, one repeated): the check of
    indices raises the same message as the check of pairs."""
    rows = data.draw(st.integers(5, 9))
    cols = data.draw(st.integers(5, 9))
    codes = knights.tour(rows, cols).indices()[:]
    i = data.draw(st.integers(0, len(codes) - 1))
    j = data.draw(st.integers(0, len(codes) - 1))
    if data.draw(st.booleans()):
        codes[i], codes[j] = codes[j], codes[i]
    else:
        codes[i] = codes[j]
    spoiled = Tour.from_indices(codes, rows, cols)
    messages = []
    for form in (spoiled, list(spoiled)):
        try:
            knights.verify(form, rows, cols)
            messages.append("valid")
        except InvalidSolutionError as exc:
            messages.append(str(exc))
    assert messages[0] == messages[1]
    assert (messages[0] == "valid") == (i == j)


def test_verify_names_an_index_off_the_board() -> None:
    with pytest.raises(InvalidSolutionError, match="square 1 of the tour, index 9, is off"):
        knights.verify(Tour.from_indices(array("I", [0, 9, 2, 3, 4, 5]), 2, 3), 2, 3)


# -- memory --------------------------------------------------------------------------------


@pytest.mark.skipif(not compiled(), reason="plain Python keeps the engine in lists")
def test_one_tour_takes_a_few_bytes_a_square() -> None:
    """Allocations traced while a 300x300 tour is found (deterministic: sizes, not
    times).  Engine and tour were about 140 bytes a square (a tuple of pairs); now the
    engine takes about 22 and the tour 4."""
    n = 300
    tracemalloc.start()
    try:
        t = knights.tour(n)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * n * n
    assert sys.getsizeof(t.indices()) < 5 * n * n


def test_the_tour_kept_is_4_bytes_a_square() -> None:
    t = knights.tour(200)
    assert t.indices().itemsize == 4 and len(t.indices()) == 40_000
    assert sys.getsizeof(t.indices()) < 4 * 40_000 + 100


def test_engine_squares_are_the_solution_as_indices() -> None:
    """KnightEngine.squares() (what tour() keeps) and solution() (what the stream
    decodes) are the same path, compiled and plain."""
    module = _native.load("lazysearch.knights._tour")
    engine = module.KnightEngine(6, 7, [0, 13], False, -1)
    for _ in range(20):
        assert engine.run(1, 0) == 1
        pairs = engine.solution()
        assert list(engine.squares()) == [r * 7 + c for r, c in pairs]


# -- the command line writes a huge tour in pieces -----------------------------------------------


class Recorder(io.StringIO):
    """Standard output that remembers how long each write was."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_one_tour_is_written_as_it_is_decoded(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    out = Recorder()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["knights", "200", "--one", "-q", "--format", fmt]) == 0
    t = knights.tour(200)
    if fmt == "json":
        expected = {"solution": 1, "rows": 200, "cols": 200, "closed": True}
        expected["tour"] = [list(square) for square in t]  # type: ignore[assignment]
        assert json.loads(out.getvalue()) == expected
    else:
        assert out.getvalue() == f"1:\n{t}\n"
    assert len(out.sizes) > 1 and max(out.sizes) < len(out.getvalue()) // 2


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_cli_tours_print_as_before(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON line is json.dumps of the same object, byte for byte."""
    assert main(["knights", "5", "--start", "0,0", "--limit", "2", "-q", "--format", fmt]) == 0
    out = capsys.readouterr().out
    tours = knights.tours(5, start=(0, 0)).take(2)
    if fmt == "json":
        lines = [
            json.dumps(
                {"solution": n, "rows": 5, "cols": 5, "closed": t.closed, "tour": list(t)},
                separators=(",", ":"),
            )
            for n, t in enumerate(tours, start=1)
        ]
        assert out == "".join(line + "\n" for line in lines)
    else:
        assert out == "".join(f"{n}:\n{t}\n" for n, t in enumerate(tours, start=1))


def test_the_50x50_tour_ends_down_a_corridor() -> None:
    """The long straight run at the end of tour(50) (docs/knights.md): a valid closed
    tour, its last 12 moves from (20, 19) back to (2, 1) all (-1, -2) or (-2, -1), the
    squares the closed search kept free for the way back to the start."""
    t = knights.tour(50)
    knights.verify(t, 50, 50, start=(0, 0), closed=True)
    tail = t[-13:]
    assert tail[0] == (20, 19) and tail[-1] == (2, 1)
    assert all({b[0] - a[0], b[1] - a[1]} == {-1, -2} for a, b in pairwise(tail))
