"""Uniformly random knight's tours (``knights.sample``): every tour drawn is a tour of the
kind asked for, every tour can be drawn, the draws pass a chi-square test of uniformity,
and a seed gives the same tours compiled and as plain Python."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights
from lazysearch.engine import _native
from lazysearch.knights import KnightsError, Tour
from lazysearch.knights.counting import TooManyStatesError, TourSampler, frontier_count

#: Upper 0.001 critical values of the chi-square distribution for the degrees of freedom
#: used below: NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4
#: ("Critical Values of the Chi-Square Distribution"); checked against the closed form
#: of its survival function in :func:`test_the_critical_values_are_right`.
CRITICAL_0001 = {6: 22.458, 7: 24.322, 15: 37.697, 31: 61.098}


def _chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom (closed forms: a Poisson
    sum for even ``df``, erfc and a finite series for odd)."""
    if df % 2 == 0:
        term = total = math.exp(-x / 2)
        for j in range(1, df // 2):
            term *= x / 2 / j
            total += term
        return total
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for j in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * j + 1)
    return total


def test_the_critical_values_are_right() -> None:
    for df, value in CRITICAL_0001.items():
        assert _chi2_sf(value, df) == pytest.approx(0.001, rel=1e-3)


def _cycle(tour: Tour) -> frozenset[frozenset[tuple[int, int]]]:
    """A closed tour as its cycle: the set of its moves, whatever the start and direction."""
    return frozenset(frozenset((tour[j - 1], tour[j])) for j in range(len(tour)))


def _chi2(counts: Counter[object], cells: int, draws: int) -> float:
    expected = draws / cells
    missing = cells - len(counts)
    return sum((n - expected) ** 2 / expected for n in counts.values()) + missing * expected


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "start", "cells"),
    [
        (3, 10, True, None, 16),  # 16 cycles (shared/ORACLES.md)
        (10, 3, True, None, 16),  # the same board turned: the sweep goes down the rows
        (5, 6, True, None, 8),  # 8 cycles
        (3, 4, False, None, 16),  # 16 directed open tours
        (4, 5, False, (0, 1), 7),  # 7 open tours from (0, 1)
    ],
)
def test_draws_are_uniform_by_a_chi_square_test(
    rows: int, cols: int, closed: bool, start: tuple[int, int] | None, cells: int
) -> None:
    draws = 100 * cells
    found = knights.sample(rows, cols, closed=closed, start=start, k=draws, seed=2024)
    assert len(found) == draws
    for tour in found:
        knights.verify(tour, rows, cols, closed=closed, start=start)
        assert (tour.rows, tour.cols) == (rows, cols)
    counts = Counter(_cycle(t) if closed else tuple(t) for t in found)
    assert len(counts) == cells
    assert _chi2(counts, cells, draws) < CRITICAL_0001[cells - 1]
    if closed:  # each cycle either way round, about equally often
        assert all(t[0] == (start or (0, 0)) for t in found)
        directions = Counter(tuple(t) for t in found)
        assert len(directions) == 2 * cells
        assert _chi2(directions, 2 * cells, draws) < CRITICAL_0001[2 * cells - 1]


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "start", "draws"),
    [
        (3, 4, False, None, 400),
        (4, 3, False, None, 400),
        (3, 10, True, None, 600),
        (5, 6, True, (2, 3), 400),
        (4, 5, False, None, 3000),  # 164 directed tours
        (5, 5, False, (0, 0), 4000),  # 304 from the corner
    ],
)
def test_every_tour_is_drawn_when_enough_are(
    rows: int, cols: int, closed: bool, start: tuple[int, int] | None, draws: int
) -> None:
    if rows * cols > 20 and not compiled():
        pytest.skip("seconds as plain Python")
    found = set(knights.sample(rows, cols, closed=closed, start=start, k=draws, seed=5))
    if closed:
        origin = start or (0, 0)
        every = set(knights.tours(rows, cols, start=origin, closed=True))
    else:
        every = set(knights.tours(rows, cols, start=start))
    assert found == every


@settings(max_examples=40 if compiled() else 15, deadline=None)
@given(st.data())
def test_every_tour_drawn_is_a_tour_of_the_kind_asked(data: st.DataObject) -> None:
    area = 30 if compiled() else 20
    boards = [(m, n) for m in range(1, 8) for n in range(1, 11) if m * n <= area]
    rows, cols = data.draw(st.sampled_from(boards))
    closed = data.draw(st.booleans())
    start = data.draw(st.none() | st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)))
    seed = data.draw(st.integers(0, 2**70))
    found = knights.sample(rows, cols, closed=closed, start=start, k=4, seed=seed)
    if closed:
        exists = knights.count_closed(rows, cols, method="dp") > 0
    else:
        exists = knights.count_tours(rows, cols, start=start, method="dp") > 0
    assert len(found) == (4 if exists else 0)
    for tour in found:
        knights.verify(tour, rows, cols, closed=closed, start=start)
        if closed and start is None:
            assert tour[0] == (0, 0)


def test_the_same_seed_gives_the_same_tours_compiled_or_not() -> None:
    # The same list in both runs of the suite (compiled, then LAZYSEARCH_PURE=1).
    three = knights.sample(3, 4, k=3, seed=7)
    assert [t.numbers() for t in three] == [
        [[3, 6, 11, 8], [12, 9, 2, 5], [1, 4, 7, 10]],
        [[10, 7, 2, 5], [1, 4, 9, 12], [8, 11, 6, 3]],
        [[1, 4, 7, 10], [8, 11, 2, 5], [3, 6, 9, 12]],
    ]
    assert knights.sample(3, 4, k=3, seed=7) == three
    assert knights.sample(3, 4, k=3, seed=8) != three
    assert knights.sample(6, 5, closed=True, seed=3) == knights.sample(6, 5, closed=True, seed=3)


def test_the_compiled_and_plain_engines_list_the_same_ways() -> None:
    """``successors`` and ``completions`` of the compiled module and of its source agree
    square by square (so a seed draws the same tours either way)."""
    plain = _native.load_source("lazysearch.knights._count")
    module = _native.load("lazysearch.knights._count")
    counters = [m.FrontierCounter(5, 6, -1, True) for m in (plain, module)]
    tables = [c.initial() for c in counters]
    for i in range(30):
        keys = sorted(tables[0])
        assert keys == sorted(tables[1])
        for key in keys[:50]:
            assert counters[0].successors(i, key) == counters[1].successors(i, key)
        tables = [c.step(i, t) for c, t in zip(counters, tables, strict=True)]


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "start"),
    [(3, 12, True, None), (3, 7, False, None), (5, 5, False, (2, 2)), (8, 3, False, (7, 1))],
)
def test_the_backward_pass_counts_what_the_forward_pass_counts(
    rows: int, cols: int, closed: bool, start: tuple[int, int] | None
) -> None:
    sampler = TourSampler(rows, cols, closed=closed, start=start)
    assert sampler.count == frontier_count(rows, cols, closed=closed, start=start).count > 0


def test_boards_without_a_tour_give_no_tours() -> None:
    assert knights.sample(4, closed=True, k=3) == []
    assert knights.sample(3, 6, k=2) == []
    assert knights.sample(5, 5, start=(0, 1)) == []
    assert knights.sample(3, 4, k=0) == []
    assert knights.sample(1, 1, k=2, seed=1) == [((0, 0),), ((0, 0),)]
    assert knights.sample(1, 1, closed=True) == []
    with pytest.raises(LookupError, match="no such tour"):
        TourSampler(3, 6).draw(random.Random(1))


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: knights.sample(3, 4, k=-1), "k is how many tours to draw"),
        (lambda: knights.sample(3, 4, k=2.0), "got 2.0"),
        (lambda: knights.sample(3, 4, seed="x"), "seed must be a whole number"),
        (lambda: knights.sample(3, 4, start=(3, 0)), "off the 3x4 board"),
        (lambda: knights.sample(0, 4), "whole numbers of rows and columns"),
    ],
)
def test_bad_input(call: object, words: str) -> None:
    with pytest.raises(KnightsError, match=words):
        call()  # type: ignore[operator]


def test_max_states_bounds_every_square_kept() -> None:
    # 5x6 closed: a count keeps at most 3,654 frontiers at once, sampling 16,518.
    assert frontier_count(5, 6, closed=True, max_states=5000).count == 8
    with pytest.raises(TooManyStatesError, match=r"sampling the tours of 5x6 needs more"):
        knights.sample(5, 6, closed=True, max_states=5000)


def test_cli_samples(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    assert main(["knights", "3", "10", "--closed", "--sample", "2", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    expected = knights.sample(3, 10, closed=True, k=2, seed=1)
    assert out == "".join(f"{n}:\n{t}\n" for n, t in enumerate(expected, start=1))
    assert "2 drawn uniformly from 16 closed tours" in err
    assert main(["knights", "4x3", "--sample", "1", "--seed", "3", "--format", "json", "-q"]) == 0
    out, err = capsys.readouterr()
    import json

    line = json.loads(out)
    assert line["tour"] == [list(s) for s in knights.sample(4, 3, seed=3)[0]] and err == ""
    assert main(["knights", "5", "6", "--closed", "--sample", "1", "--format", "svg", "-q"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert main(["knights", "4", "--closed", "--sample", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "there is no closed tour of 4x4 to draw" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["knights", "6", "--sample", "2", "--count"], "--sample K draws K tours"),
        (["knights", "6", "--sample", "2", "--limit", "3"], "--sample K draws K tours"),
        (["knights", "6", "--sample", "2", "--one"], "--sample K draws K tours"),
        (["knights", "6", "--sample", "2", "--checkpoint", "x.json"], "--sample K draws"),
        (["knights", "6", "--sample", "2", "--format", "svg"], "use --sample 1"),
        (["knights", "6", "--sample", "0"], "expected a number >= 1"),
        (["knights", "6", "--seed", "1"], "and --seed for --sample"),
        (["queens", "6", "--seed", "1"], "--samples and --seed are for --estimate"),
    ],
)
def test_cli_refuses_what_sampling_would_ignore(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        status = int(exc.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert words in err
