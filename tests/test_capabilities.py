"""Capabilities: what the stream asks a problem for by name, and the defaults."""

from __future__ import annotations

from typing import Any

import pytest

from lazysearch import capabilities, parallel, queens
from lazysearch.errors import LazysearchError
from lazysearch.exactcover import memo
from lazysearch.search import Partial, Search
from lazysearch.stream import Solutions


class _Halves:
    """A family's own counting method, "halves", that answers 92 for the 8 queens."""

    METHODS = ("auto", "enumerate", "halves")

    def __init__(self) -> None:
        self.calls: list[str] = []

    def check_method(self, method: object, max_nodes: object) -> None:
        if method not in self.METHODS:
            raise LazysearchError(f"no method {method!r}")

    def count(self, search: Search, method: str, max_nodes: int | None) -> int | None:
        self.calls.append(f"count {method}")
        return None if method == "auto" else 92

    def count_within(self, search: Search, *args: Any, **kwargs: Any) -> Partial:
        self.calls.append("count_within")
        return Partial(92, True, 1.0, 0.0, {})


class _Own:
    """The 8 queens' problem, with a counting capability of its own."""

    def __init__(self) -> None:
        self.inner: Any = queens(8).search.problem
        self.counting = _Halves()

    @property
    def kind(self) -> str:
        return str(self.inner.kind)

    def engine(self) -> Any:
        return self.inner.engine()

    def fingerprint(self) -> str:
        return str(self.inner.fingerprint())


def test_a_problem_offers_its_own_counting_method_and_the_stream_uses_it() -> None:
    problem = _Own()
    assert Solutions(Search(problem)).count(method="halves") == 92
    assert Solutions(Search(problem)).count() == 92
    part = Solutions(Search(problem)).count_within(method="halves")
    assert part.found == 92
    assert problem.counting.calls == ["count halves", "count auto", "count_within"]
    with pytest.raises(LazysearchError, match="no method 'memo'"):
        Solutions(Search(problem)).count(method="memo")
    with pytest.raises(LazysearchError, match="must be 'enumerate' or 'halves', got 'memo'"):
        Solutions(Search(problem)).count_within(method="memo")


def test_the_defaults_are_the_memo_count_and_the_parallel_driver() -> None:
    problem = queens(6).search.problem
    assert capabilities.of(problem, "counting") is memo
    assert capabilities.of(problem, "parallel") is parallel
    assert capabilities.of(problem, "no such capability") is None
