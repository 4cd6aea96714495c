"""Counting over a real Dask cluster (a LocalCluster of two worker processes), from the
library and from the command line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lazysearch import knights, queens
from lazysearch.cli import main

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


def test_counts_over_a_local_cluster(cluster: Any) -> None:
    with distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert queens(10).count(executor=executor) == 724
        assert knights.count_closed(6, executor=executor) == 9862
        assert knights.count_tours(5, executor=executor) == 1728


def test_cli_counts_on_the_scheduler(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    address = cluster.scheduler_address
    assert main(["queens", "10", "--count", "-q", "--scheduler", address]) == 0
    assert capsys.readouterr().out.strip() == "724"
    assert main(["knights", "6", "--closed", "--count", "-q", "--scheduler", address]) == 0
    assert capsys.readouterr().out.strip() == "9862"


def test_cli_scheduler_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "6", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "add --count" in capsys.readouterr().err
    assert main(["queens", "6", "--count", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert err.count("\n") == 1
