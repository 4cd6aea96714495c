"""The Search protocol: positions, checkpoints, subtrees, progress, estimates."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazysearch
from lazysearch import CheckpointError, LazysearchError, exact_cover, langford, queens

from .helpers import small_problems


def test_checkpoint_is_json_and_resumes_where_it_stopped() -> None:
    whole = list(queens(8))
    s = queens(8)
    head = s.take(30)
    cp = json.loads(json.dumps(s.checkpoint()))
    assert cp["format"] == "lazysearch-checkpoint" and cp["version"] == 1
    assert cp["solutions"] == 30
    rest = list(queens(8).resume(cp))
    assert head + rest == whole


def test_resume_keeps_the_counters() -> None:
    s = queens(7)
    s.take(10)
    resumed = queens(7).resume(s.checkpoint())
    assert resumed.stats.solutions == 10
    assert resumed.stats.nodes == s.stats.nodes
    resumed.count()
    assert resumed.stats.solutions == 40


def test_checkpoint_of_a_finished_search_resumes_to_nothing() -> None:
    s = queens(6)
    assert s.count() == 4
    assert queens(6).resume(s.checkpoint()).take(1) == []


def test_a_paused_count_resumes_exactly() -> None:
    # Pause in the middle of a chunked count: the engine stops between nodes.
    s = langford(8).search
    s._engine.run(0, 1000)
    cp = s.checkpoint()
    assert cp["state"] == "enter"
    first = s.stats.solutions
    assert first + lazysearch.langford(8).resume(cp).count() == 150


@given(small_problems(), st.integers(0, 6), st.booleans())
@settings(max_examples=100, deadline=None)
def test_resumed_equals_fresh(problem: tuple[list, list, list], k: int, lcv: bool) -> None:
    options, primary, secondary = problem

    def stream() -> lazysearch.Solutions[tuple[int, ...]]:
        return exact_cover(options, primary=primary, secondary=secondary, least_constraining=lcv)

    fresh = list(stream())
    s = stream()
    head = s.take(k)
    rest = list(stream().resume(s.checkpoint()))
    assert head + rest == fresh


@given(small_problems(), st.integers(0, 4), st.booleans())
@settings(max_examples=100, deadline=None)
def test_subtrees_partition_the_solutions(
    problem: tuple[list, list, list], depth: int, lcv: bool
) -> None:
    options, primary, secondary = problem
    stream = exact_cover(options, primary=primary, secondary=secondary, least_constraining=lcv)
    whole = list(exact_cover(options, primary=primary, secondary=secondary, least_constraining=lcv))
    parts = []
    for prefix in stream.subtrees(depth):
        assert len(prefix) <= depth
        parts.extend(stream.subtree(prefix))
    assert parts == whole  # same solutions, same order, none twice


@given(small_problems())
@settings(max_examples=100, deadline=None)
def test_progress_never_decreases_and_ends_at_one(problem: tuple[list, list, list]) -> None:
    options, primary, secondary = problem
    s = exact_cover(options, primary=primary, secondary=secondary)
    seen = [s.progress()]
    for _ in s:
        seen.append(s.progress())
    assert seen == sorted(seen)
    assert seen[0] >= 0.0 and s.progress() == 1.0


def test_progress_grows_during_a_count() -> None:
    s = queens(10).search
    seen: list[float] = []
    s.count(callback=lambda search: seen.append(search.progress()))
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_subtrees_of_queens_split_the_count() -> None:
    s = queens(8)
    for depth in (1, 2, 3):
        assert sum(s.subtree(p).count() for p in s.subtrees(depth)) == 92


def test_a_subtree_of_a_subtree() -> None:
    s = queens(8)
    (p,) = s.subtrees(1)[:1]
    inner = s.subtree(p)
    assert all(q[:1] == p for q in inner.subtrees(1))
    with pytest.raises(LazysearchError, match="outside"):
        inner.subtree((5,))


def test_a_prefix_that_is_no_node_is_refused() -> None:
    with pytest.raises(LazysearchError, match=r"\[99\] is not a node"):
        queens(5).subtree((99,))


def test_estimate_is_close_on_queens() -> None:
    est = queens(8).estimate(samples=3000, seed=7)
    assert abs(est.solutions - 92) < 4 * est.solutions_stderr + 10
    assert est.nodes > 0 and est.samples == 3000
    # The same seed gives the same estimate.
    assert queens(8).estimate(samples=100, seed=3) == queens(8).estimate(samples=100, seed=3)


def test_estimate_is_exact_on_a_tree_with_no_choice() -> None:
    est = exact_cover(["a", "b", "c"]).estimate(samples=10, seed=1)
    assert est.solutions == 1 and est.solutions_stderr == 0 and est.nodes == 4


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "pickle"}, "not a lazysearch checkpoint"),
        ({"version": 99}, "version 99"),
        ({"fingerprint": "sha256:0"}, "another problem"),
        ({"kind": "kakuro"}, "another problem"),
        ({"position": [0, -1]}, "list of integers"),
        ({"position": "0 1"}, "list of integers"),
        ({"position": [7, 7, 7]}, "not a node"),
        ({"state": "sleeping"}, "state 'sleeping'"),
        ({"nodes": -1}, "nodes must be"),
        ({"prefix": [1]}, "outside subtree"),
    ],
)
def test_bad_checkpoints_are_refused_clearly(change: dict, words: str) -> None:
    s = queens(6)
    s.take(1)
    cp = {**s.checkpoint(), **change}
    with pytest.raises(CheckpointError, match=words):
        queens(6).resume(cp)


def test_a_checkpoint_for_another_problem_is_refused() -> None:
    s = queens(6)
    s.take(1)
    with pytest.raises(CheckpointError, match="another problem"):
        queens(7).resume(s.checkpoint())


def test_a_leaf_checkpoint_must_be_at_a_solution() -> None:
    s = queens(6)
    s.take(1)
    cp = s.checkpoint()
    cp["position"] = cp["position"][:2]
    with pytest.raises(CheckpointError, match="not a solution"):
        queens(6).resume(cp)


def test_stats_count_nodes_and_solutions() -> None:
    s = queens(6)
    assert s.count() == 4
    assert s.stats.solutions == 4 and s.stats.nodes > 4


def test_compiled_matches_the_build() -> None:
    from lazysearch.engine import _native

    if _native.pure_requested():
        assert lazysearch.compiled() is False
    else:
        expected = {"1": True, "0": False}.get(os.environ.get("LAZYSEARCH_EXPECT_COMPILED", ""))
        if expected is None:
            pytest.skip("LAZYSEARCH_EXPECT_COMPILED not set")
        assert lazysearch.compiled() is expected


class _Overpromising:
    """An engine whose root promises two choices but whose second cannot be taken."""

    def restart(self) -> None:
        self.depth = 0

    def replay(self, ks: list[int]) -> bool:
        if any(k != 0 for k in ks):
            return False
        self.depth += len(ks)
        return True

    def branching(self) -> int:
        return 2 if self.depth < 3 else -1


def test_a_probe_refuses_an_engine_that_promises_a_choice_it_cannot_take() -> None:
    import random

    from lazysearch.search import probe

    class PicksOne:
        def randrange(self, b: int) -> int:
            return b - 1

    with pytest.raises(RuntimeError, match=r"gave 2 choices but choice 1"):
        probe(_Overpromising(), [], PicksOne())  # type: ignore[arg-type]

    # Taking only choice 0, the same engine is probed to its leaf: 1 + 2 + 4 + 8 nodes.
    class PicksZero:
        def randrange(self, b: int) -> int:
            return 0

    assert probe(_Overpromising(), [], PicksZero()) == (15, 8)  # type: ignore[arg-type]
    with pytest.raises(CheckpointError, match=r"prefix \[1\] is not a node"):
        probe(_Overpromising(), [1], random.Random(1))  # type: ignore[arg-type]
