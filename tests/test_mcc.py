"""Multiplicities (Algorithm M, Knuth's DLX3), costs (DLX5's branch and bound) and seeded
option orders: against brute force on random small problems, and the Search protocol
(positions, checkpoints, subtrees) on the new engine."""

from __future__ import annotations

import itertools
import json
import pickle
import subprocess
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from more_itertools import ilen

from lazysearch.cli import main
from lazysearch.errors import CheckpointError, LazysearchError, ParseError, UnknownItemError
from lazysearch.exactcover import (
    BoundError,
    Colour,
    CostError,
    ExactCover,
    MCCProblem,
    format_text,
    parse,
)


def brute_force(p: ExactCover) -> set[tuple[int, ...]]:
    """Every set of options that satisfies the bounds and the colours, by trying all."""
    found = set()
    for r in range(len(p.options) + 1):
        for chosen in itertools.combinations(range(len(p.options)), r):
            try:
                p.verify(chosen)
            except LazysearchError:
                continue
            found.add(chosen)
    return found


@st.composite
def problems(draw: st.DrawFn, costs: bool = False) -> ExactCover:
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 2))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options: list[list[Hashable]] = []
    for _ in range(draw(st.integers(1, 8))):
        items = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True))
        chosen = (
            draw(st.lists(st.sampled_from(secondary), max_size=2, unique=True)) if secondary else []
        )
        for s in chosen:
            colour = draw(st.sampled_from([None, "r", "g"]))
            items.append(s if colour is None else Colour(s, colour))
        options.append(items)
    bounds = {}
    for item in primary:
        u = draw(st.integers(0, 2))
        bounds[item] = (u, draw(st.integers(max(u, 1), 3)))
    return ExactCover(
        options,
        primary=primary,
        secondary=secondary,
        bounds=bounds,
        costs=[draw(st.integers(0, 5)) for _ in options] if costs else None,
        seed=draw(st.none() | st.integers(0, 5)),
    )


@settings(max_examples=300, deadline=None)
@given(problems())
def test_bounds_agree_with_brute_force(p: ExactCover) -> None:
    found = list(p.solve())
    assert len(found) == len(set(found))  # each set of options once (Knuth's rule)
    assert set(found) == brute_force(p)
    assert p.solve().count() == len(found)


@settings(max_examples=200, deadline=None)
@given(problems(costs=True), st.none() | st.integers(0, 6))
def test_cheapest_agrees_with_brute_force(p: ExactCover, k: int | None) -> None:
    listed = list(p.solve().cheapest(k))
    costs = [p.cost(s) for s in listed]
    assert costs == sorted(costs)
    every = sorted(p.cost(s) for s in brute_force(p))
    assert costs == every[: len(costs)]
    assert len(listed) == (len(every) if k is None else min(k, len(every)))
    assert len(set(listed)) == len(listed)
    for s in listed:
        p.verify(s)


@settings(max_examples=100, deadline=None)
@given(problems(costs=True), st.integers(0, 8))
def test_cheapest_resumed_equals_fresh(p: ExactCover, after: int) -> None:
    fresh = list(p.solve().cheapest())
    stream = p.solve().cheapest()
    head = stream.take(after)
    checkpoint = stream.checkpoint()
    assert head + list(p.solve().cheapest().resume(checkpoint)) == fresh


@settings(max_examples=100, deadline=None)
@given(problems(costs=True), st.integers(1, 6), st.integers(0, 6))
def test_k_best_resumed_equals_fresh(p: ExactCover, k: int, after: int) -> None:
    """cheapest(k) is one walk, then the covers it kept: a checkpoint (through JSON)
    before the walk starts it again, one after names the covers still to list."""
    fresh = list(p.solve().cheapest(k))
    stream = p.solve().cheapest(k)
    resumed = p.solve().cheapest(k).resume(json.loads(json.dumps(stream.checkpoint())))
    assert list(resumed) == fresh
    head = stream.take(after)
    checkpoint = json.loads(json.dumps(stream.checkpoint()))
    assert head + list(p.solve().cheapest(k).resume(checkpoint)) == fresh
    pending = checkpoint["cheapest"]["pending"]  # None: the walk is yet to run
    assert (None if pending is None else len(pending)) == (
        None if after == 0 else len(fresh) - len(head)
    )


@settings(max_examples=150, deadline=None)
@given(problems(costs=True), st.none() | st.integers(1, 6), st.integers(1, 5))
def test_a_walk_resumes_where_its_checkpoint_was_taken(
    p: ExactCover, k: int | None, chunk: int
) -> None:
    """A checkpoint taken while a walk runs (every ``chunk`` nodes here) names its
    position, the bound each level was walked with and the covers kept: resumed, the
    walk ends as the fresh one does, in no more nodes all told."""
    with mock.patch("lazysearch.exactcover.cheapest.CHUNK", chunk):
        fresh_stream = p.solve().cheapest(k)
        fresh = list(fresh_stream)
        checkpoints: list[dict[str, Any]] = []
        stream = p.solve().cheapest(k)
        stream.search.on_chunk = lambda s: checkpoints.append(
            json.loads(json.dumps(s.checkpoint()))
        )
        assert list(stream) == fresh
        for checkpoint in checkpoints:
            resumed = p.solve().cheapest(k).resume(checkpoint)
            assert list(resumed) == fresh[checkpoint["solutions"] :]
            assert resumed.stats.nodes == fresh_stream.stats.nodes
    for checkpoint in checkpoints:
        walk = checkpoint["cheapest"]["walk"]
        assert walk is None or len(walk["bounds"]) == 2 * len(checkpoint["position"])


def test_a_walk_checkpoint_with_rising_bounds_is_refused() -> None:
    box = priced_box(6, 6)
    checkpoints: list[dict[str, Any]] = []
    with mock.patch("lazysearch.exactcover.cheapest.CHUNK", 500):
        stream = box.solve().cheapest(3)
        stream.search.on_chunk = lambda s: checkpoints.append(s.checkpoint())
        stream.take(1)
    walk = next(c for c in checkpoints if c["position"])["cheapest"]["walk"]
    walk["bounds"][-1] = walk["bound"] - 1  # below the bound the walk has now
    checkpoint = next(c for c in checkpoints if c["position"])
    with pytest.raises(CheckpointError, match="not rising"):
        box.solve().cheapest(3).resume(checkpoint)


def test_count_within_counts_the_k_cheapest_and_goes_on() -> None:
    p = ExactCover(["a b", "a", "b", "b c", "c"], costs=[5, 1, 1, 1, 4])
    assert p.solve().cheapest(1).count_within(nodes=1000).found == 1  # was 3: every cover
    box = priced_box(6, 6)
    with mock.patch("lazysearch.exactcover.cheapest.CHUNK", 500):
        part = box.solve().cheapest(5).count_within(nodes=1500)
        assert (part.found, part.done) == (0, False)
        assert part.checkpoint["cheapest"]["walk"]["bounds"]
        rest = box.solve().cheapest(5).resume(part.checkpoint)
        assert [box.cost(s) for s in rest] == [39, 39, 39, 39, 39]
        fresh = box.solve().cheapest(5)
        assert list(fresh) == list(box.solve().cheapest(5).resume(part.checkpoint))
        assert rest.stats.nodes == fresh.stats.nodes


def test_k_best_checkpoint_with_forged_covers_is_refused() -> None:
    p = ExactCover(["a", "a b", "b"], costs=[1, 2, 1])
    stream = p.solve().cheapest(2)
    next(stream)
    checkpoint = stream.checkpoint()
    assert checkpoint["cheapest"]["pending"] == [[2, [1]]]
    checkpoint["cheapest"]["pending"] = [[1, [1]]]
    with pytest.raises(CheckpointError, match=r"\[\[1, \[1\]\]\]"):
        p.solve().cheapest(2).resume(checkpoint)


@settings(max_examples=100, deadline=None)
@given(problems(costs=True), st.integers(0, 2))
def test_positions_replay_and_subtrees_partition(p: ExactCover, depth: int) -> None:
    fresh = list(p.solve())
    stream = p.solve()
    for i in range(len(fresh) + 1):
        resumed = p.solve().resume(stream.checkpoint())
        assert list(resumed) == fresh[i:]
        next(stream, None)
    whole = p.solve()
    parts = [s for prefix in whole.subtrees(depth) for s in whole.subtree(prefix)]
    assert parts == fresh


def test_knuths_dlx3_example() -> None:
    """The example at the head of dlx3.w: a primary column C taken 2 or 3 times."""
    p = parse(
        """
        | A simple example of color controls
        A B 2:3|C | X Y
        A B X:0 Y:0
        A C X:1 Y:1
        C X:0
        B X:1
        C Y:1
        """
    )
    assert [p.chosen(s) for s in p.solve()] == [
        [
            ("A", "C", Colour("X", "1"), Colour("Y", "1")),
            ("B", Colour("X", "1")),
            ("C", Colour("Y", "1")),
        ]
    ]


def test_each_set_of_options_once_even_for_equal_options() -> None:
    # Two equal options are two options: choosing either, or both, are three solutions.
    p = ExactCover(["a", "a"], bounds={"a": (1, 2)})
    assert list(p.solve()) == [(0, 1), (0,), (1,)]


def test_zero_lower_bound_allows_leaving_an_item_uncovered() -> None:
    p = ExactCover(["a b", "b"], bounds={"a": (0, 1)})
    assert sorted(p.solve()) == [(0,), (1,)]


def test_seed_reorders_the_same_solutions_reproducibly() -> None:
    options = [f"a{i} b{j}" for i in range(3) for j in range(3)]
    plain = list(ExactCover(options, bounds={}).solve())
    orders = {seed: list(ExactCover(options, seed=seed).solve()) for seed in range(6)}
    assert all(sorted(o) == sorted(plain) for o in orders.values())
    assert len({tuple(o) for o in orders.values()}) > 1
    assert orders[3] == list(ExactCover(options, seed=3).solve())


def test_cheapest_without_costs_or_after_reading_is_refused() -> None:
    with pytest.raises(LazysearchError, match="costs"):
        ExactCover(["a"]).solve().cheapest()
    stream = ExactCover(["a", "a"], costs=[1, 2], bounds={"a": (1, 2)}).solve()
    next(stream)
    with pytest.raises(LazysearchError, match="not read from"):
        stream.cheapest()
    with pytest.raises(ValueError, match="-1"):
        ExactCover(["a"], costs=[1]).solve().cheapest(-1)
    with pytest.raises(LazysearchError, match="subtrees"):
        ExactCover(["a"], costs=[1]).solve().cheapest().subtrees(1)


def test_cheapest_checkpoint_of_another_k_or_a_plain_one_is_refused() -> None:
    p = ExactCover(["a", "a b", "b"], costs=[1, 1, 1])
    stream = p.solve().cheapest(1)
    with pytest.raises(CheckpointError, match="k=1"):
        p.solve().cheapest(2).resume(stream.checkpoint())
    with pytest.raises(CheckpointError, match="cheapest"):
        p.solve().cheapest().resume(p.solve().checkpoint())


def test_costs_prune_the_tree() -> None:
    """Branch and bound visits fewer nodes than listing every cover and sorting."""
    n = 8
    options = [f"r{i} c{j}" for i in range(n) for j in range(n)]  # permutations of 8
    costs = [(i * j) % 7 for i in range(n) for j in range(n)]
    p = ExactCover(options, costs=costs)
    stream = p.solve().cheapest(1)
    best = stream.one()
    everything = p.solve()
    least = min(p.cost(s) for s in everything)
    assert p.cost(best) == least
    assert stream.stats.nodes < everything.stats.nodes / 10


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"bounds": {"a": (2, 1)}}, BoundError, "(2, 1)"),
        ({"bounds": {"a": (0, 0)}}, BoundError, "(0, 0)"),
        ({"bounds": {"a": (1, "2")}}, BoundError, "'2'"),
        ({"bounds": {"x": (0, 1)}}, BoundError, "secondary item 'x'"),
        ({"bounds": {"q": (0, 1)}}, UnknownItemError, "'q'"),
        ({"costs": [1, -2]}, CostError, "-2"),
        ({"costs": [1, "2"]}, CostError, "'2'"),
        ({"costs": [1, 2.5]}, CostError, "2.5"),
        ({"costs": [1]}, CostError, "1 entries for 2"),
        ({"costs": [2**61, 2**61]}, CostError, "2**62"),
        ({"seed": -1}, ValueError, "-1"),
    ],
)
def test_bad_bounds_and_costs_name_the_value(
    kwargs: dict[str, object], error: type[Exception], named: str
) -> None:
    with pytest.raises(error) as info:
        ExactCover(["a x", "a b"], secondary=["x"], **kwargs)  # type: ignore[arg-type]
    assert named in str(info.value)


def test_the_engine_is_algorithm_m_only_when_asked() -> None:
    assert not isinstance(ExactCover(["a"]).problem, MCCProblem)
    assert isinstance(ExactCover(["a"], bounds={"a": (1, 1)}, seed=1).problem, MCCProblem)
    assert not isinstance(ExactCover(["a"], seed=1).problem, MCCProblem)  # links or cells


# -- the text format ---------------------------------------------------------------


def test_text_format_round_trip() -> None:
    text = "0:2|a 3|b c | x\na b |4\nb x:r\nb c |1\na b c\n"
    p = parse(text)
    assert p.bounds == {"a": (0, 2), "b": (3, 3)}
    assert p.costs == (4, 0, 1, 0)
    assert format_text(p) == text
    q = parse(format_text(p))
    assert list(q.solve()) == list(p.solve())


def test_several_costs_on_an_option_add_up() -> None:
    # DLX5: "If several such entries appear in the same option, the cost is their sum."
    p = parse("a b\na b |2 |5\na |1\nb\n")
    assert p.costs == (7, 1, 0)
    assert format_text(p) == "a b\na b |7\na |1\nb\n"


def test_text_format_keeps_the_old_bar_meaning() -> None:
    # 'a|b' with a name before the bar still separates primary from secondary items.
    p = parse("a|b\na b\n")
    assert p.primary == ("a",)
    assert p.secondary == ("b",)


@pytest.mark.parametrize(
    ("text", "column", "named"),
    [
        ("a 3:2|b\nb\n", 3, "lower bound 3 exceeds upper bound 2"),
        ("a 0|b\nb\n", 3, "upper bound 0"),
        ("a 1:|b\nb\n", 3, "malformed bound '1:|'"),
        ("a :2|b\nb\n", 3, "malformed bound ':2|'"),
        ("a 1:2:3|b\nb\n", 3, "malformed bound"),
        ("a | 1:2|x\na\n", 5, "secondary item"),
        ("a\na |x\n", 4, "cost 'x'"),
        ("a\na |-3\n", 4, "cost '-3'"),
        ("a\na | 3\n", 3, "'|' inside an option"),
    ],
)
def test_text_format_errors_name_line_and_column(text: str, column: int, named: str) -> None:
    with pytest.raises(ParseError) as info:
        parse(text, source="t.dlx")
    line = 1 if "|b" in text or "|x\na\n" in text else 2
    assert str(info.value).startswith(f"t.dlx:{line}:{column}: ")
    assert named in str(info.value)


def test_count_is_the_length_of_the_stream() -> None:
    p = ExactCover([f"a{i % 3} b{i % 2}" for i in range(9)], bounds={"a0": (0, 3)})
    assert p.solve().count() == ilen(p.solve())


# -- the command line ----------------------------------------------------------------

BRICKS = "| a b c\n0:2|a 2|b\na b |3\na b |1\nb |2\nb |0\n"


def test_cli_lists_the_cheapest_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bricks.dlx"
    path.write_text(BRICKS)
    assert main(["dlx", str(path), "--cheapest", "2", "-q"]) == 0
    assert capsys.readouterr().out == "1: cost 1\n a b\n b\n2: cost 2\n b\n b\n"
    assert main(["dlx", str(path), "--cheapest", "1", "--format", "json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "solution": 1,
        "options": [1, 3],
        "rows": [["a", "b"], ["b"]],
        "cost": 1,
    }
    assert main(["dlx", str(path), "--count", "-q"]) == 0
    assert capsys.readouterr().out == "6\n"  # b twice from four options: 6 pairs


def test_cli_cheapest_resumes_from_a_run_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bricks.dlx"
    path.write_text(BRICKS)
    run = tmp_path / "run.json"
    assert (
        main(["dlx", str(path), "--cheapest", "3", "--limit", "1", "--checkpoint", str(run), "-q"])
        == 0
    )
    first = capsys.readouterr().out
    assert main(["dlx", str(path), "--cheapest", "3", "--resume", str(run), "-q"]) == 0
    rest = capsys.readouterr().out
    assert first == "1: cost 1\n a b\n b\n"
    assert rest.startswith("2: cost 2\n b\n b\n3: cost 3\n")


def test_cli_cheapest_goes_on_in_node_limited_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--node-limit stops the walk (status 5) and --resume goes on with it from there:
    the steps end, and print what one run prints (chunks of 500 nodes here)."""
    path = tmp_path / "box.dlx"
    path.write_text(format_text(priced_box(6, 6, named=True)))
    assert main(["dlx", str(path), "--cheapest", "2", "-q"]) == 0
    whole = capsys.readouterr().out
    run = tmp_path / "run.json"
    steps = []
    with mock.patch("lazysearch.exactcover.cheapest.CHUNK", 500):
        args = ["dlx", str(path), "--cheapest", "2", "--node-limit", "1000", "-q"]
        status = main([*args, "--checkpoint", str(run)])
        steps.append(capsys.readouterr())
        while status == 5 and len(steps) < 20:
            status = main([*args, "--checkpoint", str(run), "--resume", str(run)])
            steps.append(capsys.readouterr())
    assert status == 0
    assert 3 <= len(steps) < 20  # 3,744 nodes in steps of 1,000 or so
    assert "".join(step.out for step in steps) == whole
    # A stop says how far the walk got, without an estimate of the unpruned tree.
    assert "reached after" in steps[0].err and "Knuth's estimate" not in steps[0].err


@pytest.mark.parametrize(
    ("extra", "text", "named"),
    [
        (["--workers", "2"], BRICKS, "no --workers"),
        ([], "a\na\n", "needs options with costs"),
        ([], "a 1:2:|b\nb\n", ":1:3: malformed bound '1:2:|'"),
    ],
)
def test_cli_refusals_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], text: str, named: str
) -> None:
    path = tmp_path / "p.dlx"
    path.write_text(text)
    assert main(["dlx", str(path), "--cheapest", "2", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


def test_brick_packing_example() -> None:
    """The example's 210 packings and cheapest cost were checked apart: plain exact cover
    of the cells, counting cubes and long bricks afterwards."""
    script = Path(__file__).resolve().parents[1] / "examples" / "brick_packing.py"
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("packings: 210\ncost 10:\n")
    assert done.stdout.count("cost 10:") == 2


@settings(max_examples=100, deadline=None)
@given(problems(costs=True), st.integers(0, 12))
def test_every_child_replays_and_restart_restores(p: ExactCover, limit: int) -> None:
    """Each index below ``branching()`` is a child (too dear ones are dead ends), also in
    a cost window; ``restart()`` puts the bounds back (a reused engine counts the same)."""
    problem = p.problem
    assert isinstance(problem, MCCProblem)
    window = problem.window(0, limit)
    engine = window.engine()
    first = engine.run(0, 0)
    engine.restart()
    assert engine.run(0, 0) == first
    engine.restart()
    stack = [()]
    while stack:
        position = stack.pop()
        engine.restart()
        assert engine.replay(list(position))
        b = engine.branching()
        stack.extend((*position, k) for k in range(max(b, 0)))
    assert p.solve().count(workers=2) == p.solve().count()
    assert p.solve().estimate(samples=20, seed=1).samples == 20


def priced_box(rows: int, cols: int, named: bool = False) -> ExactCover:
    """A box of 1x1/1x2/1x3 bricks priced by kind and place (Knuth's DLX5 was run on
    ``format_text`` of these, cells ``named`` r0c0, r0c1, ...)."""
    options: list[list[Hashable]] = []
    costs = []
    for size, price in ((1, 3), (2, 2), (3, 2)):
        for dr, dc in sorted({(1, size), (size, 1)}):
            for r in range(rows + 1 - dr):
                for c in range(cols + 1 - dc):
                    cells = [(r + i, c + j) for i in range(dr) for j in range(dc)]
                    options.append([f"r{a}c{b}" if named else (a, b) for a, b in cells])
                    costs.append(price + (7 * r + 3 * c) % 5)
    return ExactCover(options, costs=costs)


def test_one_walk_visits_the_nodes_dlx5_visits() -> None:
    """One branch-and-bound walk that lowers its bound below each cover found (DLX5
    with k=1) on the 6x6 priced box: cost 39 in 3,744 nodes, DLX5's count (it prints
    "3744 nodes"): items chosen by their options cheap enough, dearer options left out
    of covers, each list cut at its first option too dear."""
    problem = priced_box(6, 6).problem
    assert isinstance(problem, MCCProblem)
    engine = problem.engine()
    best = None
    while engine.run(1, 0):
        best = engine.cost()  # type: ignore[attr-defined]
        engine.cost_hi = best - 1  # type: ignore[attr-defined]
    assert (best, engine.nodes) == (39, 3744)


def test_a_cover_left_visible_as_too_dear_is_not_taken_out_twice() -> None:
    # p2 is covered with slack; its dear options stay visible, and a tweak of one of
    # them under the null move once took it out of p2's list a second time, losing the
    # cover (2,) of cost 5.
    p = parse(
        "1|p0 1:3|p1 1:2|p2 | s0 s1\np1 p2 p0 |4\np1 s1 s0:g |4\np1 p2 p0 |5\n"
        "p1 p2 s0:g s1:r |4\np2 s1 |1\n"
    )
    problem = p.problem
    assert isinstance(problem, MCCProblem)
    engine = problem.window(5, 5).engine()
    found = []
    while engine.run(1, 0):
        found.append(engine.solution())  # type: ignore[attr-defined]
    assert sorted(found) == [(0, 4), (2,)]


def test_taxes_cut_the_cost_search() -> None:
    """DLX5's taxes make the partial net cost count the items still to cover: on a 6x6
    box of 1x1/1x2/1x3 bricks priced by place, the cheapest packing (cost 39, as
    Knuth's DLX5 finds) takes one walk of 3,744 nodes, DLX5's count (two walks, finding
    the cost then listing it, took 20,434; the cheapest-option bound alone 1,739,287)."""
    options: list[list[Hashable]] = []
    costs = []
    for size, price in ((1, 3), (2, 2), (3, 2)):
        for dr, dc in sorted({(1, size), (size, 1)}):
            for r in range(7 - dr):
                for c in range(7 - dc):
                    options.append([(r + i, c + j) for i in range(dr) for j in range(dc)])
                    costs.append(price + (7 * r + 3 * c) % 5)
    box = ExactCover(options, costs=costs)
    stream = box.solve().cheapest(1)
    assert box.cost(stream.one()) == 39
    assert stream.stats.nodes == 3744


def test_bounds_and_costs_are_part_of_the_problems_identity() -> None:
    plain = ExactCover(["a b", "a", "b"]).problem
    bounded = ExactCover(["a b", "a", "b"], bounds={"a": (1, 2)}).problem
    priced = ExactCover(["a b", "a", "b"], costs=[1, 2, 3]).problem
    fingerprints = {p.fingerprint() for p in (plain, bounded, priced)}
    assert len(fingerprints) == 3
    assert bounded != plain and plain != bounded and priced != bounded
    copy = pickle.loads(pickle.dumps(priced))
    assert copy == priced and copy.fingerprint() == priced.fingerprint()
    assert copy.costs == (1, 2, 3)
