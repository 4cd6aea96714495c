"""One unit per word: tours are directed, count_closed counts cycles, and every line of
the command line that gives a count or an estimate says which it gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights
from lazysearch.cli import main


def test_cycles_and_directed_tours_by_name() -> None:
    # shared/ORACLES.md: 9,862 closed tours of 6x6 as cycles, 2 * 36 directed tours each.
    assert knights.count_closed(6) == 9862
    assert knights.count_closed(6, directed=True) == 710064 == 2 * 36 * 9862
    assert knights.count_tours(6, closed=True) == 710064
    if compiled():  # a walk of 710,064 tours: two minutes as plain Python
        assert knights.tours(6, closed=True).count() == 710064
    assert knights.count_closed(5, directed=True) == 0


def test_the_stream_of_cycles_gives_each_cycle_once() -> None:
    found = knights.cycles(3, 10).take(100)
    assert len(found) == knights.count_closed(3, 10) == 16
    keys = set()
    for cycle in found:
        knights.verify(cycle, 3, 10, closed=True)
        assert cycle[:2] == ((0, 0), (1, 2))
        squares = list(cycle)
        keys.add(
            frozenset(
                frozenset(pair) for pair in zip(squares, squares[1:] + squares[:1], strict=True)
            )
        )
    assert len(keys) == 16  # as sets of moves: no cycle twice
    assert knights.cycles(5).count() == 0 and knights.cycles(1).count() == 0


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6))
def test_directed_closed_tours_are_cycles_times_twice_the_squares(rows: int, cols: int) -> None:
    walked = knights.tours(rows, cols, closed=True).count()
    assert walked == knights.count_closed(rows, cols, directed=True)
    assert walked == 2 * rows * cols * knights.cycles(rows, cols).count()


@pytest.mark.parametrize(
    ("argv", "line", "unit"),
    [
        (
            ["knights", "6", "--closed", "--count"],
            "9862 closed tours (cycles, each counted once)",
            "cycles",
        ),
        (
            ["knights", "6", "--closed", "--count", "--directed"],
            "710064 directed tours",
            "directed tours",
        ),
        (["knights", "5", "--count"], "1728 directed tours", "directed tours"),
        (["knights", "5", "--count", "--limit", "3"], "3 directed tours, ", "directed tours"),
        (
            ["knights", "5", "--count", "--method", "dp", "--time-limit", "600"],
            "1728 directed tours, at most",
            "directed tours",
        ),
    ],
)
def test_every_count_says_its_unit(
    argv: list[str], line: str, unit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    assert line in capsys.readouterr().err
    assert main([*argv, "--format", "json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out)["unit"] == unit


def test_a_closed_estimate_guesses_what_the_count_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The cycles (9,862 on 6x6), not the directed tours of every start (710,064).
    assert main(["knights", "6", "--closed", "--estimate", "--samples", "4000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "closed tours (cycles, each counted once)" in out
    assert (
        main(
            [
                *("knights", "6", "--closed", "--estimate", "--samples", "4000", "--seed", "3"),
                *("--format", "json"),
            ]
        )
        == 0
    )
    fields = json.loads(capsys.readouterr().out)
    assert fields["unit"] == "cycles"
    assert fields["solutions"] < 100_000  # directed tours would be about 710,064
    assert main(["knights", "6", "--estimate", "--seed", "3"]) == 0
    assert "directed tours" in capsys.readouterr().out


def test_other_commands_keep_their_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--count", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert out == '{"count":92}\n' and err.startswith("92 solutions, ")
