"""The command line's flags: the statistics of parallel runs."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import lazysearch
from lazysearch import langford, parallel, queens
from lazysearch.cli import main

FOUR = "1.3..........2.4"  # a 4x4 sudoku with one solution
KAKURO = '{"rows": 2, "cols": 3, "runs": [{"dir": "h", "r": 1, "c": 0, "len": 2, "sum": 7}, '
KAKURO += '{"dir": "v", "r": 0, "c": 1, "len": 1, "sum": 3}, '
KAKURO += '{"dir": "v", "r": 0, "c": 2, "len": 1, "sum": 4}]}'


def _status(argv: list[str]) -> int:
    """main(argv)'s exit status, argparse's own exits included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _nodes(err: str) -> int:
    found = re.search(r"(\d+) nodes", err)
    assert found, err
    return int(found.group(1))


# -- statistics with --workers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["queens", "6", "--count"],  # cut below its leaves: the split walks it all
        ["queens", "9", "--count"],
        ["langford", "8", "--count"],
        ["queens", "7"],  # listing
        ["knights", "5", "--start", "0,0", "--limit", "100000"],
        ["sudoku", "{sudoku}", "--count"],
    ],
)
def test_workers_report_the_nodes_one_process_walks(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "s.txt"
    empty.write_text("." * 16 + "\n")
    argv = [a.format(sudoku=empty) for a in argv]
    assert main(argv) == 0
    one = capsys.readouterr()
    assert main([*argv, "--workers", "2"]) == 0
    two = capsys.readouterr()
    assert two.out == one.out
    assert _nodes(two.err) == _nodes(one.err)


def _walks() -> list[Any]:
    return [lambda: queens(9), lambda: langford(8), lambda: lazysearch.knights.tours(5)]


@pytest.mark.parametrize("make", _walks(), ids=["queens", "langford", "knights"])
@pytest.mark.parametrize("depth", [None, 1, 2, 4])
def test_parallel_nodes_equal_a_plain_walks_at_any_split(make: Any, depth: int | None) -> None:
    """The nodes above the split are counted by the walk that lists the subtrees, each
    subtree's from its root down, and the random probes that size them not at all."""
    alone = make()
    alone.count()
    with ThreadPoolExecutor(2) as pool:
        split = make()
        parallel.count(split.search, executor=pool, depth=depth)
        listed = make()
        assert len(list(parallel.iterate(listed.search, executor=pool, depth=depth))) == (
            alone.stats.solutions
        )
    assert split.stats[:2] == listed.stats[:2] == alone.stats[:2]  # nodes, solutions


@pytest.mark.parametrize("make", _walks(), ids=["queens", "langford", "knights"])
def test_parallel_nodes_are_exact_when_big_subtrees_are_split_again(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "SMALL_TREE", 0)  # probe and split these small trees too
    alone = make()
    alone.count()
    split = make()
    split.count(workers=2)
    assert split.stats[:2] == alone.stats[:2]


@pytest.mark.parametrize("budget", [1, 2, 7, 40, 333, 900])
@pytest.mark.parametrize("depth", [1, 3, 5])
def test_a_count_under_way_adds_only_the_nodes_still_ahead(budget: int, depth: int) -> None:
    """Stopped anywhere (above, at or below the split), a plain walk and a parallel
    count of the rest end with the same counters."""
    alone, split = queens(8), queens(8)
    for stream in (alone, split):
        stream.search._engine.run(0, budget)  # stop before the budget-th next node
    alone.count()
    with ThreadPoolExecutor(2) as pool:
        parallel.count(split.search, executor=pool, depth=depth)
    assert split.stats[:2] == alone.stats[:2]
