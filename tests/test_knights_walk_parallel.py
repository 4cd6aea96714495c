"""knights --count by walking, with --workers / --scheduler, within a budget and from a
checkpoint: each search of the walk is counted by the parallel count's plan of
subtrees, kept inside the walk's checkpoint; stopped anywhere (a limit, SIGTERM) and
resumed with any number of workers, or in one process, the count is exact."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from lazysearch import compiled
from lazysearch.cli import main
from lazysearch.errors import CheckpointError, LazysearchError
from lazysearch.knights.walking import count_within, walks
from lazysearch.longrun import digest
from tests.test_parallel_survive import children, gone, wait_for

#: Workers of the runs in turn: None is the one-process walk.
TURNS = [2, 1, 3, None, 2, 3, 1, 2, None, 3]


def in_runs(
    rows: int, cols: int, nodes: int, turns: list[int | None], **board: Any
) -> tuple[int, list[dict[str, Any]]]:
    """The count in runs of ``nodes`` nodes, each with the next of ``turns`` workers and
    resumed from the last's checkpoint: the count, and each stopped run's checkpoint."""
    saved: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    counts: list[int] = []
    while True:
        workers = turns[len(records) % len(turns)]
        part = count_within(rows, cols, nodes=nodes, resume=saved, workers=workers, **board)
        counts.append(part.count)
        if part.done:
            assert counts == sorted(counts)  # the count so far only grows
            return part.count, records
        assert part.limit == "node limit"
        saved = part.checkpoint
        records.append(saved)


@pytest.mark.parametrize(
    ("rows", "cols", "board", "nodes", "expected"),
    [
        (5, 5, {}, 400, 1728),
        (6, 6, {"closed": True}, 25_000, 9862),
        (5, 6, {}, 30_000, 37568),
        (5, 5, {"start": (0, 0)}, 50, 304),
    ],
)
def test_node_limits_stopped_and_resumed_with_one_to_three_workers_give_the_exact_count(
    rows: int, cols: int, board: dict[str, Any], nodes: int, expected: int
) -> None:
    count, records = in_runs(rows, cols, nodes, TURNS, **board)
    assert count == expected
    assert len(records) >= 5
    # Both kinds of checkpoint were made and resumed: with a plan (version 2) and,
    # where a one-process run began a search, without (version 1).
    versions = {record["version"] for record in records}
    several = len(walks(rows, cols, board.get("start"), bool(board.get("closed")))) > 1
    assert versions == ({1, 2} if several else {2})


def test_a_one_process_checkpoint_goes_on_with_workers_and_back(tmp_path: Path) -> None:
    path = tmp_path / "walk.json"
    part = count_within(5, 6, nodes=50_000, checkpoint=path)
    single = json.loads(path.read_text())
    assert single["version"] == 1 and "plan" not in single and single["current"] is not None
    # The search under way is cut into subtrees from where the walk stopped.
    part = count_within(5, 6, nodes=50_000, workers=2, checkpoint=path, resume=path)
    planned = json.loads(path.read_text())
    assert planned == part.checkpoint
    assert planned["version"] == 2 and planned["plan"]["tasks"]
    assert not part.done and 0 < part.progress < 1
    # Its plan goes on in one process, then the rest is walked as one process walks it.
    rest = count_within(5, 6, checkpoint=path, resume=path)
    assert (rest.done, rest.count, rest.limit) == (True, 37568, None)
    assert json.loads(path.read_text())["version"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["walk.json"]


def test_the_nodes_of_a_count_stopped_and_resumed_in_parallel_are_one_walks() -> None:
    whole = count_within(6, 6, closed=True)
    saved = None
    while True:
        part = count_within(6, 6, closed=True, nodes=40_000, workers=2, resume=saved)
        if part.done:
            break
        saved = part.checkpoint
    assert (part.count, part.nodes) == (whole.count, whole.nodes) == (9862, 430_663)


def test_an_executor_counts_each_search_and_resumes_exactly() -> None:
    with ThreadPoolExecutor(2) as executor:
        part = count_within(5, 6, nodes=60_000, executor=executor)
        assert not part.done and part.checkpoint["plan"] is not None
        rest = count_within(5, 6, executor=executor, resume=part.checkpoint)
    assert (rest.done, rest.count) == (True, 37568)


def test_a_stop_asked_as_subtrees_finish_keeps_the_plan(tmp_path: Path) -> None:
    path = tmp_path / "walk.json"

    def stop() -> bool:  # once the file (written as each subtree finishes) has one
        try:
            return bool(json.loads(path.read_text())["plan"]["done"])
        except (OSError, KeyError, TypeError):
            return False

    part = count_within(6, 6, closed=True, workers=2, stop=stop, checkpoint=path, every=0)
    assert (part.done, part.limit) == (False, "stop")
    assert part.checkpoint == json.loads(path.read_text())
    assert part.checkpoint["plan"]["done"] and part.count < 9862
    assert count_within(6, 6, closed=True, resume=path, workers=3).count == 9862


def test_an_altered_or_impossible_plan_is_refused(tmp_path: Path) -> None:
    part = count_within(5, 6, nodes=20_000, workers=2)
    record = part.checkpoint
    altered = json.loads(json.dumps(record))
    altered["plan"]["done"][0][1] += 1
    with pytest.raises(CheckpointError, match="does not match its sha256"):
        count_within(5, 6, resume=altered)
    # Sealed anew, a plan that counted more than the search under way did is damaged.
    altered["sha256"] = digest(
        [altered[k] for k in ("finished", "current", "found", "nodes", "plan")]
    )
    altered["found"] = "0"
    altered["sha256"] = digest(
        [altered[k] for k in ("finished", "current", "found", "nodes", "plan")]
    )
    path = tmp_path / "walk.json"
    path.write_text(json.dumps(altered))
    with pytest.raises(CheckpointError, match=r"walk\.json: checkpoint is damaged"):
        count_within(5, 6, resume=path)
    with pytest.raises(LazysearchError, match="workers >= 1, got 0"):
        count_within(5, 6, workers=0)


def test_cli_node_limits_with_workers_then_in_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "walk.json")
    argv = ["knights", "5x6", "--count", "--node-limit", "60000", "--checkpoint", path]
    assert main([*argv, "--workers", "2"]) == 5  # auto walks 5x6
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "node limit reached after " in err
    assert "of 9 searches" in err and f"go on with --resume {path}" in err
    runs = 1
    while main([*argv, "--resume", path, "--workers", str(1 + runs % 3)]) == 5:
        runs += 1
        if runs == 3:  # and once in one process, from the plan
            assert main([*argv, "--resume", path]) == 5
    assert runs >= 3
    assert capsys.readouterr().out.splitlines()[-1] == "37568"
    assert [p.name for p in tmp_path.iterdir()] == ["walk.json"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads processes from /proc")
def test_cli_sigterm_mid_run_with_workers_then_resume_is_exact(tmp_path: Path) -> None:
    # A count of seconds (6x6 open compiled: 35,838,525 nodes; 5x6 in plain Python).
    (rows, cols), expected = ((6, 6), 6_637_920) if compiled() else ((5, 6), 37568)
    board = f"{rows}x{cols}"
    path = tmp_path / "walk.json"
    every = ["--checkpoint", str(path), "--checkpoint-every", "0.1"]
    run = [sys.executable, "-m", "lazysearch", "knights", board, "--count", "-q"]
    run += ["--method", "enumerate"]
    caller = subprocess.Popen(
        [*run, "--workers", "2", *every],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def some_done() -> bool:
            try:
                return bool(json.loads(path.read_text())["plan"]["done"])
            except (OSError, ValueError, KeyError, TypeError):
                return False

        wait_for("a finished subtree in the walk's checkpoint", some_done)
        helpers = children(caller.pid)
        caller.send_signal(signal.SIGTERM)
        out, err = caller.communicate(timeout=600)
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()
    assert (caller.returncode, out) == (130, "")
    assert err.startswith("lazysearch knights: stopped after ") and err.count("\n") == 1
    for pid in helpers:
        wait_for(f"helper {pid} to end", lambda pid=pid: gone(pid))
    first = json.loads(path.read_text())
    assert first["version"] == 2 and len(first["finished"]) < len(walks(rows, cols, None, False))
    resumed = subprocess.run(
        [*run, "--workers", "3", *every, "--resume", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (resumed.returncode, resumed.stdout.strip()) == (0, str(expected))
    assert [p.name for p in tmp_path.iterdir()] == ["walk.json"]


def test_an_executors_batch_is_recorded_whole_when_a_budget_stops_it() -> None:
    # (lazysearch.parallel: a batch's count is given to its first subtree; a node
    # limit reached there used to leave the others undone, to be counted again.)
    from lazysearch import queens
    from lazysearch.parallel import count_within as count_in_parallel

    total, saved, runs = 0, None, 0
    with ThreadPoolExecutor(2) as executor:
        while True:
            part = count_in_parallel(
                queens(11).search, nodes=20_000, executor=executor, resume=saved
            )
            total, runs = total + part.found, runs + 1
            if part.done:
                break
            saved = part.checkpoint
    assert (total, runs > 1) == (2680, True)


def test_cli_node_limits_on_a_dask_cluster_resumed_anywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    distributed = pytest.importorskip("distributed")
    path = str(tmp_path / "walk.json")
    argv = ["knights", "5x6", "--count", "-q", "--node-limit", "60000", "--checkpoint", path]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        on_cluster = ["--scheduler", cluster.scheduler_address]
        assert main([*argv, *on_cluster]) == 5
        assert json.loads(Path(path).read_text())["version"] == 2
        # In turn: the cluster, two local workers, one process.
        turns = [on_cluster, ["--workers", "2"], []]
        runs = 1
        while main([*argv, "--resume", path, *turns[runs % 3]]) == 5:
            runs += 1
    assert runs >= 3
    assert capsys.readouterr().out.splitlines()[-1] == "37568"
