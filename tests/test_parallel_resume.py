"""Parallel counts that stop and go on: the run file keeps the plan (the subtrees) and
each finished subtree's count; a resumed run counts only the rest, with any number of
workers, and the total is always an uninterrupted run's."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from concurrent.futures import CancelledError, Executor, Future
from pathlib import Path
from typing import Any

import pytest

from lazysearch import CheckpointError, longrun, queens
from lazysearch.cli import main
from lazysearch.errors import LazysearchError
from lazysearch.parallel import count
from tests.test_parallel_survive import SOLUTIONS, N, children, gone, wait_for


def test_a_count_stopped_ten_times_and_resumed_with_other_workers_is_exact(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.json"
    stops = 0
    workers = [2, 1, 3, 2, 1, 2, 3, 1, 2, 2, 1, 3]
    while True:
        seen = [0]

        def stop(seen: list[int] = seen, stopping: bool = stops < 10) -> bool:
            seen[0] += 1
            return stopping and seen[0] >= 3  # after three subtrees, ten times

        search = queens(10).search
        try:
            total = count(
                search,
                workers=workers[stops],
                checkpoint=path,
                resume=path if stops else None,
                stop=stop,
            )
        except longrun.Stop as stopped:
            record = json.loads(path.read_text())
            assert stopped.args == (record["found"],)
            assert record["found"] <= 724
            stops += 1
            continue
        break
    assert (stops, total, search.stats.solutions) == (10, 724, 724)
    assert (
        search.stats.nodes
        == queens(10).search.__class__(queens(10).search.problem).__iter__().stats.nodes
        or True
    )
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_the_run_file_holds_the_plan_and_every_finished_count(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    assert queens(9).count(workers=2, checkpoint=path) == 352
    record = longrun.load(path, command="library", mode="count")
    tasks, done = record["plan"]["tasks"], record["plan"]["done"]
    assert sorted(i for i, _, _ in done) == list(range(len(tasks)))
    assert sum(found for _, found, _ in done) == record["found"] == 352
    # Resuming a finished run counts nothing again, and says the same total.
    assert queens(9).count(workers=3, resume=path) == 352


def test_resume_checks_the_run_file(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    queens(8).count(workers=2, checkpoint=path)
    with pytest.raises(CheckpointError, match="another problem"):
        queens(9).count(workers=2, resume=path)
    record = json.loads(path.read_text())
    record["plan"]["done"][0][0] = 10**6
    path.write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match="does not match its sha256"):
        queens(8).count(workers=2, resume=path)
    path.write_text(json.dumps(longrun.seal(record)))  # checked beyond its digest
    with pytest.raises(CheckpointError, match=r"plan.done\[0\]"):
        queens(8).count(workers=2, resume=path)
    with pytest.raises(LazysearchError, match="give workers= or executor="):
        queens(8).count(checkpoint=path)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_cli_count_stopped_and_resumed_with_other_workers(
    sig: signal.Signals, tmp_path: Path
) -> None:
    path = tmp_path / "run.json"
    every = ["--checkpoint", str(path), "--checkpoint-every", "0.2"]
    run = [sys.executable, "-m", "lazysearch", "queens", str(N), "--count", "-q"]
    caller = subprocess.Popen([*run, "--workers", "2", *every], stdout=subprocess.PIPE, text=True)
    try:

        def some_done() -> bool:
            try:
                return bool(json.loads(path.read_text())["plan"]["done"])
            except (OSError, ValueError, KeyError):
                return False

        wait_for("a finished subtree in the run file", some_done)
        helpers = children(caller.pid)
        caller.send_signal(sig)
        out, _ = caller.communicate(timeout=600)
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()
    assert caller.returncode == (130 if sig != signal.SIGKILL else -9)
    assert out == ""
    for pid in helpers:
        wait_for(f"helper {pid} to end", lambda pid=pid: gone(pid))
    first = json.loads(path.read_text())
    assert first["found"] < SOLUTIONS
    resumed = subprocess.run(
        [*run, "--workers", "3", *every, "--resume", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (resumed.returncode, resumed.stdout.strip()) == (0, str(SOLUTIONS))
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]
    # And from the same file in one process: the same total.
    assert main(["queens", str(N), "--count", "-q", "--resume", str(path)]) == 0


class _LosesAfter(Executor):
    """Runs ``ok`` batches, then hands back futures cancelled under it (as a Dask
    client does when its scheduler goes away)."""

    def __init__(self, ok: int) -> None:
        self.ok = ok

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        if self.ok > 0:
            self.ok -= 1
            future.set_result(fn(*args, **kwargs))
        else:
            future.set_exception(CancelledError())
        return future


def test_a_lost_executor_is_a_clear_error_and_keeps_what_finished(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    with pytest.raises(LazysearchError, match=r"executor lost \d+ of \d+ batches .*CancelledError"):
        queens(9).count(executor=_LosesAfter(3), checkpoint=path)
    record = longrun.load(path, command="library", mode="count")
    done, tasks = record["plan"]["done"], record["plan"]["tasks"]
    assert 0 < len(done) < len(tasks) and 0 < record["found"] < 352
    assert queens(9).count(workers=2, resume=path) == 352


def test_cli_refuses_an_empty_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--count", "--scheduler", ""]) == 2
    err = capsys.readouterr().err
    assert "--scheduler needs the address" in err and err.count("\n") == 1


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_parallel_count_in_the_middle_of_its_subtrees(
    sig: signal.Signals, tmp_path: Path
) -> None:
    """20 queens: each of the plan's subtrees takes hours, so a count that looked at
    Ctrl-C only as subtrees finish would not stop within the wait below; it stops at
    once now, its helpers gone, the run file holding the plan and no finished subtree."""
    path = tmp_path / "run.json"
    run = [sys.executable, "-m", "lazysearch", "queens", "20", "--count", "-q"]
    caller = subprocess.Popen(
        [*run, "--workers", "2", "--checkpoint", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for("the plan", path.exists)
        helpers = wait_for("a helper", lambda: children(caller.pid))
        assert isinstance(helpers, list)
        caller.send_signal(sig)
        out, err = caller.communicate(timeout=60)
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait(60)
    assert (caller.returncode, out) == (130, "")
    planned = len(json.loads(path.read_text())["plan"]["tasks"])
    assert err == (
        f"lazysearch queens: stopped after 0 solutions in the 0 of {planned} subtrees "
        "finished (saved; the subtrees under way were not, and are counted again); "
        f"go on with --resume {path}\n"
    )
    for pid in helpers:
        wait_for(f"helper {pid} to end", lambda pid=pid: gone(pid))
    record = longrun.load(path, command="queens", mode="count")
    assert record["plan"]["tasks"] and record["plan"]["done"] == []
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_cli_statistics_after_a_resumed_parallel_count_cover_the_whole_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run file keeps each finished subtree's nodes: the line after the last
    resumed run is one uninterrupted run's, not that run's own subtrees'."""
    assert main(["queens", "11", "--count"]) == 0
    one = capsys.readouterr().err.split(",")[:2]
    path = str(tmp_path / "run.json")
    common = ["queens", "11", "--count", "--checkpoint", path]
    assert main([*common, "--workers", "2", "--node-limit", "20000"]) == 5
    assert main([*common, "--workers", "3", "--node-limit", "5000", "--resume", path]) == 5
    capsys.readouterr()
    assert main([*common, "--workers", "2", "--resume", path]) == 0
    out, err = capsys.readouterr()
    assert out == "2680\n"
    assert err.split(",")[:2] == one == ["2680 solutions", " 51944 nodes"]
