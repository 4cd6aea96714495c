"""Counts by memoized subproblems within a budget: stopped at any node limit and resumed
from the memo table, the shares add up to the enumeration's count; the checkpoint is
the table, refused when torn, altered or another problem's; the command line's
--time-limit, --node-limit, --checkpoint and --resume with --method memo."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import ExactCover, langford, polyomino, queens
from lazysearch.cli import main
from lazysearch.errors import CheckpointError, LazysearchError, MemoLimitError
from lazysearch.exactcover import memo
from lazysearch.longrun import digest

from .test_memo import Problem, recurring_problems

DOMINO = polyomino.piece("D", "DD")
LANGFORD_11 = 17792  # A014552 (a sequence and its reversal counted once)


def dominoes(rows: int, cols: int) -> Any:
    return polyomino.tile(polyomino.rectangle(rows, cols), [DOMINO], copies={"D": None})


def in_pieces(fresh: Any, nodes: int) -> tuple[int, int, list[float]]:
    """Count ``fresh()`` by memo in runs of ``nodes`` nodes, each resumed from the last
    one's checkpoint: the shares added up, the runs, and the progress after each."""
    total = 0
    runs = 0
    progress: list[float] = []
    saved = None
    while True:
        part = memo.count_within(fresh().search, nodes=nodes, resume=saved)
        runs += 1
        total += part.found
        progress.append(part.progress)
        if part.done:
            return total, runs, progress
        assert part.rest >= 0
        saved = part.checkpoint
        if runs > 10_000:
            raise AssertionError(f"no end in sight after {runs} runs of {nodes} nodes")


@pytest.mark.parametrize(
    ("fresh", "depth"),
    [
        (lambda: dominoes(4, 6), 24),
        (lambda: dominoes(5, 6), 30),
        (lambda: queens(7), 14),
        (lambda: langford(7), 14),
    ],
)
@pytest.mark.parametrize("nodes", [None, 1, 2, 3, 5, 8, 13, 40, 100, 1000])
def test_stopped_at_any_node_limit_and_resumed_gives_the_count(
    fresh: Any, depth: int, nodes: int | None
) -> None:
    expected = fresh().count(method="enumerate")
    # A budget must exceed the open nodes re-entered on the way down (one per
    # primary item at most) for a resumed run to get further.
    budget = None if nodes is None else depth + 2 + nodes
    if budget is None:
        part = memo.count_within(fresh().search)
        assert (part.found, part.done, part.progress, part.rest) == (expected, True, 1.0, 0.0)
        return
    total, runs, progress = in_pieces(fresh, budget)
    assert total == expected
    assert progress == sorted(progress)  # it never goes back
    assert progress[-1] == 1.0
    if budget < 50:
        assert runs > 1


@settings(max_examples=60, deadline=None)
@given(recurring_problems(), st.integers(1, 20))
def test_shares_of_random_covers_add_up_to_the_enumeration(problem: Problem, extra: int) -> None:
    options, primary, secondary = problem
    cover = ExactCover(options, primary=primary, secondary=secondary)
    expected = cover.solve().count(method="enumerate")
    total, _, _ = in_pieces(cover.solve, cover.problem.primary + 2 + extra)
    assert total == expected


def test_the_library_reaches_it_from_a_stream(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    part = dominoes(6, 6).count_within(nodes=60, method="memo", checkpoint=path)
    assert not part.done and 0 < part.progress < 1
    assert json.loads(path.read_text()) == part.checkpoint
    rest = dominoes(6, 6).count_within(method="memo", resume=path)
    assert rest.done and part.found + rest.found == 6728
    stream = dominoes(6, 6)
    stream.count_within(method="memo", resume=path)
    assert stream.search.done and stream.stats.solutions == 6728


def test_count_by_memo_keeps_and_resumes_its_table(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    part = dominoes(6, 6).count_within(nodes=60, method="memo", checkpoint=path)
    assert not part.done
    assert dominoes(6, 6).count(method="memo", checkpoint=path, resume=path) == 6728
    assert len(json.loads(path.read_text())["table"]) > len(part.checkpoint["table"])
    # (without workers, checkpoint= and resume= are the memo table's alone)
    with pytest.raises(LazysearchError, match="give workers"):
        dominoes(6, 6).count(checkpoint=path)


def test_a_table_that_outgrows_max_nodes_is_saved_first(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    with pytest.raises(MemoLimitError, match="max_nodes=50"):
        dominoes(6, 6).count_within(method="memo", max_nodes=50, checkpoint=path)
    saved = json.loads(path.read_text())
    assert len(saved["table"]) == 50
    rest = dominoes(6, 6).count_within(method="memo", resume=path)
    assert rest.done and rest.found == 6728 - int(saved["found"])


def test_ctrl_c_saves_the_table_with_the_count_it_began_with(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    calls = []

    def interrupt() -> bool:
        calls.append(1)
        if len(calls) == 2:  # after the first of three chunks of the walk
            raise KeyboardInterrupt
        return False

    search = langford(11).search
    with pytest.raises(KeyboardInterrupt):
        # (count_within's own loop is what is stopped, between two runs of the walk)
        memo.count_within(search, nodes=None, checkpoint=path, stop=interrupt)
    saved = json.loads(path.read_text())
    assert saved["found"] == "0" and saved["progress"] == 0.0 and saved["table"]
    rest = memo.count_within(langford(11).search, resume=path)
    assert rest.done and rest.found == LANGFORD_11


def test_stop_stops_at_once_with_the_table_saved(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    part = memo.count_within(dominoes(6, 6).search, checkpoint=path, stop=lambda: True)
    assert (part.found, part.done) == (0, False)
    assert json.loads(path.read_text())["table"] == []


def test_a_torn_altered_or_foreign_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "memo.json"
    memo.count_within(dominoes(4, 6).search, nodes=80, checkpoint=path)
    text = path.read_text()
    torn = tmp_path / "torn.json"
    torn.write_text(text[: len(text) // 2])
    with pytest.raises(CheckpointError, match=r"torn\.json:1:\d+: not a checkpoint of a memo"):
        memo.count_within(dominoes(4, 6).search, resume=torn)
    record = json.loads(text)
    record["table"][0][1] = str(int(record["table"][0][1]) + 1)
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match=r"altered\.json: does not match its sha256"):
        memo.count_within(dominoes(4, 6).search, resume=altered)
    with pytest.raises(CheckpointError, match=r"memo\.json is a checkpoint of another problem"):
        memo.count_within(dominoes(6, 4).search, resume=path)
    with pytest.raises(CheckpointError, match="another problem"):
        memo.count_within(dominoes(4, 5).search, resume=record)
    # A table with the right digest and a key that is no subproblem: damaged.
    forged = {**record, "table": [["-1", "1"]]}
    fields = ("problem", "found", "nodes", "table")
    forged["sha256"] = digest([forged[field] for field in fields])
    with pytest.raises(CheckpointError, match="checkpoint is damaged"):
        memo.count_within(dominoes(4, 6).search, resume=forged)
    knights = tmp_path / "knights.json"
    knights.write_text('{"format": "lazysearch-knights-count", "version": 1}')
    with pytest.raises(CheckpointError, match=r"knights\.json: not a checkpoint of a memo"):
        memo.count_within(dominoes(4, 6).search, resume=knights)
    with pytest.raises(CheckpointError, match="not a checkpoint of a memo count"):
        memo.count_within(dominoes(4, 6).search, resume={"format": "lazysearch-run"})


def test_a_file_that_is_not_a_checkpoint_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    with pytest.raises(CheckpointError, match=r"notes\.txt exists and is not a checkpoint"):
        memo.count_within(dominoes(4, 6).search, nodes=10, checkpoint=path)
    assert path.read_text() == "my notes"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: memo.count_within(dominoes(2, 2).search, nodes=0), "nodes >= 1, got 0"),
        (lambda: memo.count_within(dominoes(2, 2).search, -1.0), "seconds >= 0, got -1.0"),
        (lambda: memo.count_within(dominoes(2, 2).search, max_nodes=0), "max_nodes"),
        (lambda: dominoes(2, 2).count_within(method="dp"), "'enumerate' or 'memo', got 'dp'"),
        (lambda: dominoes(2, 2).count_within(resume={}), "with method='memo'"),
        (lambda: dominoes(2, 2).count_within(method="memo", workers=2), "no workers"),
    ],
)
def test_bad_arguments(call: Any, words: str) -> None:
    with pytest.raises(LazysearchError, match=words):
        call()


def test_a_search_already_read_is_refused() -> None:
    stream = queens(6)
    stream.take(1)
    with pytest.raises(LazysearchError, match="already read"):
        stream.count_within(method="memo")


# -- the command line --------------------------------------------------------------------


def test_cli_node_limit_exits_5_and_resumes_to_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.json"
    argv = ["langford", "11", "--count", "--method", "memo", "--checkpoint", str(path)]
    assert main([*argv, "--node-limit", "20000"]) == 5
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "node limit reached after " in err
    assert f"go on with --resume {path}" in err
    runs = 1
    while (status := main([*argv, "--resume", str(path), "--node-limit", "20000"])) == 5:
        runs += 1
        capsys.readouterr()
    assert status == 0 and runs > 3
    assert capsys.readouterr().out == f"{LANGFORD_11}\n"
    # Once done, the file holds the whole table: a resumed run adds it up at once.
    assert main([*argv, "--resume", str(path), "--node-limit", "1", "-q"]) == 0
    assert capsys.readouterr().out == f"{LANGFORD_11}\n"


def test_cli_time_limit_exits_5(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Three chunks of the walk: the time is looked at between them, so a limit of a
    # millisecond stops it after the first at the latest.
    argv = ["langford", "11", "--count", "--method", "memo", "--time-limit", "0.001"]
    assert main(argv) == 5
    err = capsys.readouterr().err
    assert err.startswith("lazysearch langford: time limit of 0.001 s reached after ")
    assert "--checkpoint FILE saves the memo table" in err


def test_cli_refuses_a_foreign_or_torn_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.json"
    assert main(["queens", "6", "--count", "--method", "memo", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    assert main(["queens", "7", "--count", "--method", "memo", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path} is a checkpoint of another problem" in err
    path.write_text(path.read_text()[:40])
    assert main(["queens", "6", "--count", "--method", "memo", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "torn or not JSON" in err and "Traceback" not in err


def test_cli_resuming_a_memo_table_without_method_memo_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.json"
    argv = ["queens", "6", "--count", "--checkpoint", str(path)]
    assert main([*argv, "--method", "memo", "--node-limit", "5"]) == 5
    capsys.readouterr()
    assert main(["queens", "6", "--count", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a checkpoint of a count by memo: add --method memo" in err


def test_cli_still_refuses_what_memo_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "6", "--count", "--method", "memo", "--workers", "2"]) == 2
    assert "leave out --workers and --scheduler" in capsys.readouterr().err


def test_progress_follows_the_walk_and_never_goes_back() -> None:
    seen: list[float] = []
    part = memo.count_within(langford(11).search, progress=seen.append)
    assert part.done and part.found == LANGFORD_11
    assert len(seen) >= 2 and seen == sorted(seen)  # one call a chunk of nodes
    assert 0 <= seen[0] < 1 and seen[-1] == 1.0


def test_cli_progress_bar_with_memo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["langford", "11", "--count", "--method", "memo", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert out == f"{LANGFORD_11}\n"
    assert "lazysearch langford: " in err and "% |" in err  # the bar was drawn


def test_cli_sigterm_saves_the_table_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    argv = [sys.executable, "-m", "lazysearch", "pentomino", "6x10", "--count"]
    argv += ["--method", "memo", "--checkpoint", str(path), "--checkpoint-every", "0.01"]
    with subprocess.Popen(argv, stderr=subprocess.PIPE, text=True) as run:
        # Synchronise on the first checkpoint written: the walk is under way.
        while not path.exists():
            if run.poll() is not None:
                raise AssertionError(f"ended first: {run.stderr.read() if run.stderr else ''}")
            time.sleep(0.01)
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=120)
    assert run.returncode == 130
    assert "stopped after " in err and f"go on with --resume {path}" in err
    record = json.loads(path.read_text())
    assert record["format"] == "lazysearch-memo-count" and record["table"]
