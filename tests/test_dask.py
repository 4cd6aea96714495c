"""Counting over a real Dask cluster (a LocalCluster of two worker processes), from the
library and from the command line."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lazysearch import executors, knights, longrun, parallel, queens
from lazysearch import listing as parallel_listing
from lazysearch.cli import EXIT_BUDGET, main
from lazysearch.errors import LazysearchError

distributed = pytest.importorskip("distributed")


def _local_cluster() -> Any:
    """Two worker processes of one thread each; the scheduler's HTTP server (it starts one
    even without a dashboard) on a free port, not 8787, which another run may hold."""
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with _local_cluster() as local:
        yield local


@contextlib.contextmanager
def _fresh_cluster() -> Iterator[Any]:
    """A cluster of its own, for a test that kills one of its workers; yields a client."""
    with _local_cluster() as local, distributed.Client(local) as client:
        yield client


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
    for count in (["--count"], []):  # a count, and a listing
        assert main(["queens", "6", *count, "--scheduler", "tcp://127.0.0.1:9"]) == 2
        err = capsys.readouterr().err
        assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
        assert err.count("\n") == 1


# Killing parts of a cluster mid-count.  The count's tasks are held at a gate (a file in
# a folder) until the test has killed what it kills, so "mid-count" does not depend on
# the machine's speed: each task claims a slot (0, 1, 2, ...) and leaves a marker naming
# its process and slot; the first ``free`` slots run at once, the others wait for the
# gate.

_REAL_COUNT_TASK = parallel.count_task


def _gated(folder: str, free: int, problem: Any, tasks: Any) -> tuple[int, int]:
    _at_the_gate(folder, free)
    return _REAL_COUNT_TASK(problem, tasks)


_REAL_SOLUTIONS_TASK = parallel.solutions_task


def _gated_piece(folder: str, free: int, problem: Any, *task: Any) -> Any:
    _at_the_gate(folder, free)
    return _REAL_SOLUTIONS_TASK(problem, *task)


def _at_the_gate(folder: str, free: int) -> None:
    """Claim the next slot, leave a marker, and wait for the gate past ``free`` slots."""
    slot = 0
    while True:
        try:
            os.close(os.open(os.path.join(folder, f"slot-{slot}"), os.O_CREAT | os.O_EXCL))
            break
        except FileExistsError:
            slot += 1
    open(os.path.join(folder, f"started-{os.getpid()}-{slot}"), "w").close()
    if slot >= free:
        end = time.monotonic() + 300  # never a worker left waiting for ever
        while not os.path.exists(os.path.join(folder, "gate")) and time.monotonic() < end:
            time.sleep(0.01)


def _gate(monkeypatch: pytest.MonkeyPatch, folder: Path, free: int) -> None:
    monkeypatch.setattr(parallel, "count_task", functools.partial(_gated, str(folder), free))


def _started(folder: Path) -> list[tuple[int, int]]:
    """(process, slot) of each task that reached the gate."""
    return [tuple(map(int, p.name.split("-")[1:])) for p in folder.glob("started-*")]  # type: ignore[misc]


def _until(condition: Callable[[], bool], what: str, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"not seen within {seconds} s: {what}")
        time.sleep(0.02)


SCHEDULER = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", "0"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker", "--nthreads", "1"]


@contextlib.contextmanager
def _processes_cluster(folder: Path, workers: int) -> Iterator[tuple[Any, list[Any]]]:
    """A scheduler and ``workers`` workers (no nanny: a killed worker stays dead), each
    a process of its own; yields the scheduler's process and the workers'."""
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": root}
    started: list[subprocess.Popen[bytes]] = []
    info = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "cwd": root}
    try:
        started.append(
            subprocess.Popen(
                [*SCHEDULER, "--no-dashboard", "--scheduler-file", str(info)],
                **quiet,  # type: ignore[call-overload]
            )
        )
        _until(info.exists, "the scheduler's file")
        for _ in range(workers):
            started.append(
                subprocess.Popen(
                    [*WORKER, "--no-nanny", "--no-dashboard", "--scheduler-file", str(info)],
                    **quiet,  # type: ignore[call-overload]
                )
            )
        yield started[0], started[1:]
    finally:
        for process in started:
            process.kill()
            process.wait(30)


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = work()
        except BaseException as exc:
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def test_a_worker_killed_mid_count_gives_the_exact_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _gate(monkeypatch, tmp_path, free=0)
    with _fresh_cluster() as client:
        executor = client.get_executor()
        thread, out = _in_thread(lambda: queens(10).count(executor=executor, workers=2))
        _until(lambda: len({pid for pid, _ in _started(tmp_path)}) == 2, "both workers busy")
        victim = _started(tmp_path)[0][0]
        os.kill(victim, signal.SIGKILL)  # a worker process the cluster started
        (tmp_path / "gate").touch()
        thread.join(240)
        assert not thread.is_alive()
        assert out == {"result": 724}
        assert victim not in client.run(os.getpid).values()  # it was replaced


def test_the_scheduler_killed_is_a_clear_error_and_the_run_goes_on_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cluster: Any
) -> None:
    _gate(monkeypatch, tmp_path, free=1)
    run = tmp_path / "run.json"
    with _processes_cluster(tmp_path, 2) as (scheduler, _):
        client = distributed.Client(scheduler_file=str(tmp_path / "scheduler.json"), timeout=60)
        try:
            client.wait_for_workers(2, timeout=120)
            executor = client.get_executor()
            thread, out = _in_thread(
                lambda: parallel.count(
                    queens(10).search, executor=executor, workers=2, checkpoint=run, every=0
                )
            )

            def one_done_one_waiting() -> bool:
                if len(_started(tmp_path)) < 2 or not run.exists():
                    return False
                return bool(json.loads(run.read_text())["plan"]["done"])

            _until(one_done_one_waiting, f"a batch counted and one held {out}")
            scheduler.kill()
            thread.join(60)  # the error comes at once (0.02 s measured), not a hang
            assert not thread.is_alive()
        finally:
            client.close(timeout=10)
    error = out["error"]
    assert isinstance(error, LazysearchError)
    assert "the Dask scheduler is gone" in str(error)
    assert "\n" not in str(error)
    record = longrun.load(run, command="library", mode="count")  # intact
    assert record["plan"]["done"] and record["found"] <= 724
    (tmp_path / "gate").touch()
    with distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert queens(10).count(executor=executor, resume=run) == 724


def test_every_worker_killed_is_an_error_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _gate(monkeypatch, tmp_path, free=0)
    monkeypatch.setattr(executors, "NO_WORKERS_GRACE", 2.0)
    run = tmp_path / "run.json"
    with _processes_cluster(tmp_path, 2) as (_, workers):
        client = distributed.Client(scheduler_file=str(tmp_path / "scheduler.json"), timeout=60)
        try:
            client.wait_for_workers(2, timeout=120)
            executor = client.get_executor()
            thread, out = _in_thread(
                lambda: queens(10).count(executor=executor, workers=2, checkpoint=run)
            )
            _until(lambda: len({pid for pid, _ in _started(tmp_path)}) == 2, "both workers busy")
            for worker in workers:
                worker.kill()
            thread.join(120)
            assert not thread.is_alive()
        finally:
            client.close(timeout=10)
    error = out["error"]
    assert isinstance(error, LazysearchError)
    assert "has had no worker for 2 s (all killed or gone)" in str(error)
    assert longrun.load(run, command="library", mode="count")["found"] == 0


def test_cli_the_scheduler_killed_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    _gate(monkeypatch, tmp_path, free=1)
    run = tmp_path / "run.json"
    with _processes_cluster(tmp_path, 2) as (scheduler, _):
        _until((tmp_path / "scheduler.json").exists, "the scheduler's file")
        address = json.loads((tmp_path / "scheduler.json").read_text())["address"]

        def kill_when_one_is_done() -> None:
            def one_done() -> bool:
                return run.exists() and bool(json.loads(run.read_text())["plan"]["done"])

            _until(lambda: len(_started(tmp_path)) >= 2 and one_done(), "a batch counted")
            scheduler.kill()

        killer, _ = _in_thread(kill_when_one_is_done)
        argv = ["queens", "10", "--count", "--scheduler", address, "--checkpoint", str(run)]
        status = main([*argv, "--checkpoint-every", "0.001"])
        killer.join(60)
    err = capfd.readouterr().err
    assert status == 2
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "lazysearch queens: error:" in line]
    assert len(lines) == 1 and "the Dask scheduler is gone" in lines[0]
    assert "kept in the run file" in lines[0]
    assert longrun.load(run, command="queens", mode="count")["plan"]["done"]


# Listings on a cluster: the same Listing as with --workers, the pieces on Dask.


def _one_process(*argv: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*argv, "--format", "json", "-q"]) == 0
    return capsys.readouterr().out


def test_cli_lists_on_the_scheduler_in_order(
    cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _one_process("queens", "9", capsys=capsys)
    address = cluster.scheduler_address
    assert main(["queens", "9", "--format", "json", "-q", "--scheduler", address]) == 0
    assert capsys.readouterr().out == whole


def test_cli_listing_on_the_scheduler_stops_and_resumes_anywhere(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped at a node limit again and again, resumed on the cluster, with local
    workers and in one process in turn: one run's output byte for byte."""
    whole = _one_process("queens", "10", capsys=capsys)
    path = str(tmp_path / "run.json")
    args = ["queens", "10", "--format", "json", "-q", "--node-limit", "2500"]
    args += ["--checkpoint", path]
    where = [["--scheduler", cluster.scheduler_address], ["--workers", "2"], []]
    pieces: list[str] = []
    while True:
        resume = ["--resume", path] if pieces else []
        status = main([*args, *where[len(pieces) % 3], *resume])
        captured = capsys.readouterr()
        pieces.append(captured.out)
        if status != EXIT_BUDGET:
            break
        assert "node limit reached after" in captured.err and captured.err.count("\n") == 1
        assert len(pieces) < 1000
    assert status == 0 and len(pieces) >= 4
    assert "".join(pieces) == whole


def test_a_worker_killed_mid_listing_lists_every_solution_once_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        parallel_listing, "solutions_task", functools.partial(_gated_piece, str(tmp_path), 0)
    )
    with _fresh_cluster() as client:
        executor = client.get_executor()
        run = tmp_path / "run.json"
        listing = parallel.Listing(queens(10).search, executor=executor, workers=2, checkpoint=run)
        thread, out = _in_thread(lambda: list(listing))
        _until(lambda: len({pid for pid, _ in _started(tmp_path)}) == 2, "both workers busy")
        victim = _started(tmp_path)[0][0]
        os.kill(victim, signal.SIGKILL)  # a worker process the cluster started
        (tmp_path / "gate").touch()
        thread.join(240)
        assert not thread.is_alive()
        assert out == {"result": list(queens(10).search)}
        assert victim not in client.run(os.getpid).values()  # it was replaced
    record = longrun.load(run, command="library", mode="list")
    assert (record["found"], record["plan"]["tasks"]) == (724, [])


def test_the_scheduler_killed_mid_listing_is_a_clear_error_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cluster: Any
) -> None:
    # The listing sends 2 * 2 + 1 pieces ahead, and more only as it reads them: those
    # five (the first among them, whichever worker takes it first) run, the rest wait.
    free = 2 * 2 + 1
    monkeypatch.setattr(
        parallel_listing, "solutions_task", functools.partial(_gated_piece, str(tmp_path), free)
    )
    run = tmp_path / "run.json"
    got: list[Any] = []
    with _processes_cluster(tmp_path, 2) as (scheduler, _):
        client = distributed.Client(scheduler_file=str(tmp_path / "scheduler.json"), timeout=60)
        try:
            client.wait_for_workers(2, timeout=120)
            listing = parallel.Listing(
                queens(10).search, executor=client.get_executor(), workers=2, checkpoint=run
            )
            thread, out = _in_thread(lambda: got.extend(listing))
            # The first piece is read (its solutions written), and the listing goes on
            # to the pieces held at the gate.
            _until(lambda: len(_started(tmp_path)) >= 2 and bool(got), "a piece read")
            scheduler.kill()
            thread.join(60)
            assert not thread.is_alive()
        finally:
            client.close(timeout=10)
    error = out["error"]
    assert isinstance(error, LazysearchError) and "\n" not in str(error)
    assert "the Dask scheduler is gone" in str(error) and "kept in the run file" in str(error)
    (tmp_path / "gate").touch()
    with distributed.Client(cluster) as client:
        executor = client.get_executor()
        rest = list(parallel.Listing(queens(10).search, executor=executor, resume=run))
    assert got + rest == list(queens(10).search)


def test_a_stop_while_a_listing_waits_on_the_cluster_is_a_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cluster: Any
) -> None:
    # Asked while waiting for a piece held at the gate: Stop (the run file written),
    # not the error of a piece the cluster lost.
    monkeypatch.setattr(
        parallel_listing, "solutions_task", functools.partial(_gated_piece, str(tmp_path), 0)
    )
    run = tmp_path / "run.json"
    try:
        with distributed.Client(cluster) as client:
            listing = parallel.Listing(
                queens(9).search,
                executor=client.get_executor(),
                checkpoint=run,
                stop=lambda: bool(_started(tmp_path)),
            )
            with pytest.raises(longrun.Stop):
                list(listing)
    finally:
        (tmp_path / "gate").touch()  # the cluster's workers go on
    record = longrun.load(run, command="library", mode="list")
    assert record["found"] == 0 and record["plan"]["tasks"]
