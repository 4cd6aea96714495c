"""Knuth's estimates say when they know nothing (no probe reached a solution) and when
a few probes carry the weight (heavy tails): never "about 0 more" for a tree full of
solutions, nor a narrow interval around a guess far off."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import knights, polyomino, queens
from lazysearch.cli import main
from lazysearch.search import RELIABLE_PROBES, probe


def pentominoes_6x10() -> Any:
    return polyomino.tile(polyomino.rectangle(6, 10), polyomino.PENTOMINOES)


def test_no_probe_reaching_a_solution_is_not_an_estimate_of_zero() -> None:
    # 2,339 tilings (shared/ORACLES.md), but the probes end in dead ends first.
    est = pentominoes_6x10().estimate(samples=200, seed=0)
    assert est.hits == 0 and not est.known and not est.reliable
    assert est.rest(0.2) is None
    assert "no probe of 200 reached a solution" in est.caveat()
    part = pentominoes_6x10().search.count_within(nodes=20_000, samples=200)
    assert not part.done and part.rest is None
    assert pentominoes_6x10().take_within(3, samples=200).rest is None


def test_a_search_done_has_nothing_left() -> None:
    part = queens(6).search.count_within(nodes=10**9)
    assert part.done and part.rest == 0.0


def test_a_heavy_tailed_estimate_is_flagged() -> None:
    # 8x8 open tours: about 1.96e16 directed (shared/ORACLES.md); a few probes reach a
    # tour and one of them carries nearly all the weight.
    est = knights.tours(8).estimate(samples=1000, seed=0)
    assert est.known and not est.reliable and est.effective < 2
    assert "unreliable" in est.caveat()
    good = queens(8).search.estimate(samples=1000, seed=1)
    assert good.reliable and good.caveat() == "" and good.effective >= RELIABLE_PROBES


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32))
def test_hits_and_effective_probes_from_the_probes_themselves(seed: int) -> None:
    search = queens(6).search
    est = search.estimate(samples=50, seed=seed)
    rng = random.Random(seed)
    engine = search.problem.engine()
    weights = [probe(engine, (), rng)[1] for _ in range(50)]
    assert est.hits == sum(1 for w in weights if w)
    assert est.solutions == sum(weights) / 50
    if est.hits:
        assert math.isclose(est.effective, sum(weights) ** 2 / sum(w * w for w in weights))
        assert 1 <= est.effective <= est.hits
    else:
        assert est.effective == 0 and est.rest(0.5) is None


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["pentomino", "6x10", "--estimate", "--seed", "0"], "solutions: cannot estimate yet"),
        (["knights", "8", "--estimate", "--seed", "0"], "directed tours; unreliable: "),
    ],
)
def test_the_estimate_line_says_so(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert words in out and "0 solutions (+- 0)" not in out


def test_the_estimate_in_json_gives_null_for_nothing_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pentomino", "6x10", "--estimate", "--seed", "0", "--format", "json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert est["solutions"] is None and est["probes_with_solutions"] == 0
    assert est["reliable"] is False


@pytest.mark.parametrize("method", ["enumerate", "memo"])
def test_a_stopped_count_says_it_cannot_estimate_the_rest(
    method: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["pentomino", "6x10", "--count", "--node-limit", "20000", "--method", method]
    assert main(argv) == 5
    err = capsys.readouterr().err
    assert "cannot estimate the rest yet" in err and "about 0 more" not in err


@given(st.lists(st.integers(0, 10**400), min_size=2, max_size=30))
@settings(max_examples=200, deadline=None)
def test_the_mean_and_its_error_are_worked_out_exactly(values: list[int]) -> None:
    # Knuth's probes of a 100x100 grid's cycles give estimates past any float; the mean
    # and its standard error are the exact figures, rounded once (inf past a float).
    from fractions import Fraction

    from lazysearch.search import _mean_and_stderr

    n = len(values)
    mean = Fraction(sum(values), n)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) / n

    def as_float(x: Fraction | float) -> float:
        try:
            return float(x)
        except OverflowError:
            return math.inf

    got_mean, got_error = _mean_and_stderr(values)
    assert got_mean == as_float(mean)
    exact_error = as_float(variance)
    if exact_error != math.inf:
        assert got_error == pytest.approx(math.sqrt(exact_error), rel=1e-12)
    else:
        assert got_error == math.inf or got_error > 1e300


def test_a_budgeted_listing_of_a_huge_tree_estimates_without_overflow() -> None:
    # take_within's estimate of a 100x100 grid's cycles: the probes' node counts squared
    # overflowed a float (OverflowError) where they are now summed exactly.
    from lazysearch import graphs

    stream = graphs.hamiltonian_cycles(graphs.grid(100, 100))
    taken = stream.take_within(2, nodes=200_000)
    assert len(taken.solutions) == 2
    for cycle in taken.solutions:
        assert sorted(cycle) == [(r, c) for r in range(100) for c in range(100)]
        for (r, c), (s, d) in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            assert abs(r - s) + abs(c - d) == 1
