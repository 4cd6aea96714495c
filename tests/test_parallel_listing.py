"""Parallel listings that stop and go on: the run file keeps the subtrees whose
solutions are not all written, in order, and how many of the first one's were; a resumed
run writes only the rest, with any number of workers, never a solution twice.

The process tests stop real runs at moments they wait for (the output has so many lines,
the writer is blocked on a full pipe), never after a sleep.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import signal
import subprocess
import sys
import termios
from pathlib import Path
from typing import Any

import pytest

from lazysearch import CheckpointError, longrun, parallel, processes, queens
from lazysearch import listing as parallel_listing
from lazysearch.cli import main
from lazysearch.parallel import Listing
from tests.test_parallel_survive import children, gone, wait_for

WORKERS = [2, 1, 3, 2, 3, 1, 2, 1, 3, 2, 2]


def _plain(n: int) -> list[tuple[int, ...]]:
    return list(queens(n).search)


@pytest.mark.parametrize("piece", [parallel_listing.PIECE, 7])
def test_a_listing_stopped_ten_times_and_resumed_with_other_workers_writes_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    # Small pieces: a stop falls inside a subtree's pieces, and the run file's "written"
    # counts solutions of a piece's rest.
    monkeypatch.setattr(parallel_listing, "PIECE", piece)
    path = tmp_path / "run.json"
    out: list[tuple[int, ...]] = []
    stops = 0
    while True:
        calls = [0]

        def stop(calls: list[int] = calls, stopping: bool = stops < 10) -> bool:
            calls[0] += 1
            return stopping and calls[0] > 13  # after 13 solutions (or waits), ten times

        search = queens(9).search
        listing = Listing(
            search,
            workers=WORKERS[stops],
            checkpoint=path,
            resume=path if stops else None,
            stop=stop,
        )
        try:
            for solution in listing:
                out.append(solution)
        except longrun.Stop:
            record = longrun.load(path, command="library", mode="list")
            assert record["found"] == record["plan"]["solutions"] == len(out)
            stops += 1
            continue
        break
    assert stops == 10
    assert out == _plain(9)
    one = queens(9).search
    _ = list(one)
    # The statistics of the last run cover the whole listing, as one process's.
    assert (search.stats.solutions, search.stats.nodes) == (352, one.stats.nodes)
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_save_after_the_last_solution_read_counts_it_written(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    listing = Listing(queens(8).search, workers=2, checkpoint=path)
    first = []
    for solution in listing:
        first.append(solution)
        if len(first) == 10:
            break  # as at a --limit: the tenth is written, and the listing not asked again
    listing.save()
    rest = list(Listing(queens(8).search, workers=3, resume=path))
    assert first + rest == _plain(8)


def test_a_finished_listing_resumed_lists_nothing(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    search = queens(8).search
    assert len(list(Listing(search, workers=2, checkpoint=path))) == 92
    record = longrun.load(path, command="library", mode="list")
    assert (record["plan"]["tasks"], record["plan"]["written"], record["found"]) == ([], 0, 92)
    again = queens(8).search
    assert list(Listing(again, workers=2, resume=path)) == []
    assert (again.done, again.stats.solutions, again.stats.nodes) == (True, 92, search.stats.nodes)


def test_a_listing_resumes_a_one_process_run_file(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    search = queens(8).search
    first = list(itertools.islice(search, 30))
    longrun.save(path, longrun.run_record(search, command="library", mode="list", found=30))
    rest = list(Listing(queens(8).search, workers=2, resume=path, checkpoint=path))
    assert first + rest == _plain(8)
    # The run file counts the solutions written before the plan too.
    record = longrun.load(path, command="library", mode="list")
    assert (record["found"], record["plan"]["solutions"]) == (92, 62)


def test_resume_checks_the_listing_run_file(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    listing = Listing(queens(8).search, workers=2, checkpoint=path)
    next(iter(listing))
    listing.save()
    with pytest.raises(CheckpointError, match="another problem"):
        Listing(queens(9).search, workers=2, resume=path)
    with pytest.raises(CheckpointError, match="counting"):
        parallel.count(queens(8).search, workers=2, resume=path)
    good = json.loads(path.read_text())
    for field, value, message in [
        ("written", -1, "plan.written = -1"),
        ("written", 2**70, "plan.written = "),
        ("nodes", "many", "plan.nodes = 'many'"),
        ("tasks", [[[0], [0], 7]], "plan.tasks[0] = [[0], [0], 7]"),
        ("tasks", [[[2**40], [0], 0]], "plan.tasks[0]"),
    ]:
        record = json.loads(json.dumps(good))
        record["plan"][field] = value
        path.write_text(json.dumps(longrun.seal(record)))  # checked beyond its digest
        with pytest.raises(CheckpointError, match=message.replace("[", r"\[")):
            Listing(queens(8).search, workers=2, resume=path)
    record = json.loads(json.dumps(good))
    record["output"] = -5
    path.write_text(json.dumps(longrun.seal(record)))
    with pytest.raises(CheckpointError, match="output = -5"):
        Listing(queens(8).search, workers=2, resume=path)


def test_bad_workers_are_refused_at_the_call() -> None:
    with pytest.raises(ValueError, match="workers >= 1, got 0"):
        Listing(queens(6).search, workers=0)


# -- the command line, in real processes ------------------------------------------------


def _start(*args: str, stdout: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "lazysearch", "queens", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
    )


def _pipe_bytes(fd: int) -> int:
    """The bytes waiting in the pipe ``fd`` reads."""
    size = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, size)
    return int.from_bytes(size, sys.byteorder)


def _one_run(n: int, tmp_path: Path) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "lazysearch", "queens", str(n), "-q"],
        capture_output=True,
        check=True,
    )
    return done.stdout


def _lines_to(stream: Any, lines: int) -> bytes:
    got = b""
    for _ in range(lines):
        got += stream.readline()
    return got


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_cli_listing_stopped_ten_times_by_a_signal_prints_one_runs_output(
    tmp_path: Path, how: signal.Signals
) -> None:
    """Each round reads some lines, then stops reading: the writer fills the pipe and
    blocks, far from its end (14,200 boards of 13 lines; a round reads at most about
    70 KB of 2.3 MB), so the signal always finds it running; the rest is read after."""
    whole = _one_run(12, tmp_path)
    run = str(tmp_path / "run.json")
    out = b""
    for stop in range(11):
        args = ["12", "-q", "--workers", str(WORKERS[stop]), "--checkpoint", run]
        if stop:
            args += ["--resume", run]
        writer = _start(*args, stdout=subprocess.PIPE)
        assert writer.stdout is not None and writer.stderr is not None
        try:
            if stop < 10:
                out += _lines_to(writer.stdout, 13 * (5 + 11 * stop))
                fd = writer.stdout.fileno()
                wait_for("a full pipe", lambda fd=fd: _pipe_bytes(fd) > 60_000)
                writer.send_signal(how)
            out += writer.stdout.read()
            err = writer.stderr.read().decode()
            status = writer.wait(60)
        finally:
            if writer.poll() is None:
                writer.kill()
                writer.wait(60)
        if stop < 10:
            assert status == 130, err
            assert err.count("\n") == 1 and "stopped after" in err and "--resume" in err, err
            pid = writer.pid
            wait_for("the pool's workers gone", lambda pid=pid: not children(pid))
        else:
            assert (status, err) == (0, "")
    assert out == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_cli_listing_killed_ten_times_into_a_file_ends_as_one_runs_output(
    tmp_path: Path,
) -> None:
    """``kill -9`` of the caller once ``-o FILE`` has grown by some boards each round
    (73,712 boards of 14 lines: a round lets it grow by a few hundred at most before
    the kill); the file is cut back to what the run file says was written."""
    whole = _one_run(13, tmp_path)
    run = str(tmp_path / "run.json")
    target = tmp_path / "queens.txt"
    killed = beyond = 0  # kills, and those after which FILE held more than recorded
    for stop in range(11):
        args = ["13", "-q", "-o", str(target), "--workers", str(WORKERS[stop])]
        args += ["--checkpoint", run, "--checkpoint-every", "0.01"]
        if stop:
            args += ["--resume", run]
        before = target.stat().st_size if target.exists() else 0
        writer = _start(*args, stdout=subprocess.DEVNULL)
        try:
            if stop < 10:
                wanted = before + 14 * 15 * (50 + 20 * stop)

                def grown(wanted: int = wanted) -> bool:
                    return target.exists() and target.stat().st_size >= wanted

                wait_for("the output to grow", grown)
                pool = children(writer.pid)
                writer.kill()
                assert writer.wait(60) == -signal.SIGKILL
                killed += 1
                record = longrun.load(run, command="queens", mode="list")
                beyond += target.stat().st_size > record["output"]
                for pid in pool:
                    wait_for(f"worker {pid} to die with its caller", lambda pid=pid: gone(pid))
            else:
                assert writer.wait(120) == 0
        finally:
            if writer.poll() is None:
                writer.kill()
                writer.wait(60)
    assert killed == 10
    assert beyond >= 1  # the file was cut back (a kill between two writes of the run file)
    assert target.read_bytes() == whole
    assert not [p for p in tmp_path.iterdir() if p.suffix in (".tmp", ".part")]


def test_cli_listing_with_a_limit_stopped_and_resumed(tmp_path: Path) -> None:
    whole = _one_run(9, tmp_path).split(b"\n")
    run = str(tmp_path / "run.json")
    target = tmp_path / "out.txt"
    common = ["queens", "9", "-q", "-o", str(target), "--checkpoint", run]
    assert main([*common, "--workers", "2", "--limit", "40"]) == 0
    assert main([*common, "--workers", "3", "--limit", "100", "--resume", run]) == 0
    assert target.read_bytes() == b"\n".join(whole[: 100 * 10]) + b"\n"
    assert main([*common, "--resume", run]) == 0  # one process lists the rest
    assert target.read_bytes() == b"\n".join(whole)


def test_cli_statistics_of_a_resumed_listing_cover_the_whole_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["queens", "10", "-o", str(tmp_path / "one.txt")]) == 0
    one = capsys.readouterr().err
    run = str(tmp_path / "run.json")
    common = ["queens", "10", "-o", str(tmp_path / "out.txt"), "--checkpoint", run]
    assert main([*common, "--workers", "2", "--limit", "300"]) == 0
    capsys.readouterr()
    assert main([*common, "--workers", "2", "--resume", run]) == 0
    again = capsys.readouterr().err
    assert again.split(",")[:2] == one.split(",")[:2] == ["724 solutions", " 13256 nodes"]


def test_cli_resume_refuses_an_output_shorter_than_the_run_file_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = str(tmp_path / "run.json")
    target = tmp_path / "out.txt"
    common = ["queens", "8", "-q", "-o", str(target), "--checkpoint", run]
    assert main([*common, "--workers", "2", "--limit", "20"]) == 0
    written = target.stat().st_size
    assert written > 4
    target.write_text("cut\n")
    assert main([*common, "--workers", "2", "--resume", run]) == 2
    err = capsys.readouterr().err
    assert f"{target} has 4 bytes, and the run file says {written} were written" in err
    assert target.read_text() == "cut\n"


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_parallel_listing_while_its_workers_search(
    tmp_path: Path, how: signal.Signals
) -> None:
    """Langford pairs of order 21 have none: each worker searches its piece for hours.
    The caller stopped at once but then waited for the pieces under way (a pool's
    shutdown); now it kills its workers, writes the run file and exits."""
    run = tmp_path / "run.json"
    command = ["langford", "21", "--workers", "2", "--checkpoint", str(run)]
    writer = subprocess.Popen(
        [sys.executable, "-m", "lazysearch", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for("the plan", run.exists)
        pid = writer.pid

        def two_workers() -> list[int]:
            found = children(pid)
            return found if len(found) == 2 else []

        pool = wait_for("the workers", two_workers)
        assert isinstance(pool, list)
        writer.send_signal(how)
        out, err = writer.communicate(timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(60)
    assert (writer.returncode, out) == (130, "")
    assert err == f"lazysearch langford: stopped after 0 solutions; go on with --resume {run}\n"
    for pid in pool:
        wait_for(f"worker {pid} to end", lambda pid=pid: gone(pid))
    record = longrun.load(run, command="langford", mode="list")
    assert record["plan"]["tasks"] and (record["found"], record["plan"]["written"]) == (0, 0)


def test_a_stopped_pool_leaves_no_manager_thread_behind() -> None:
    """`_stop_pool` returns only when the pool's manager thread has ended: one still
    running at exit raced with CPython 3.11's exit hook over its wake-up pipe (a 'Bad
    file descriptor' traceback after a stopped listing's one line)."""
    pool = processes.pool(2)
    assert pool.submit(sum, [1, 2]).result() == 3
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    processes.stop_pool(pool)
    assert not manager.is_alive()


def test_a_stopped_listing_leaves_its_pools_pieces_for_the_pool_to_cancel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stopped listing does not cancel its own pool's pieces itself: one cancelled
    there, still in the pool's table when the pool's thread took the killed workers
    for a broken pool, made that thread raise InvalidStateError (a traceback after a
    stopped run's one line, 2 soak runs in about 40).  The pool's shutdown cancels
    them in its own thread instead."""
    states: list[list[bool]] = []
    real = processes.stop_pool

    def stop_pool(pool: Any) -> None:
        states.append([item.future.cancelled() for item in pool._pending_work_items.values()])
        real(pool)

    monkeypatch.setattr(processes, "stop_pool", stop_pool)
    listing = iter(Listing(queens(9).search, workers=2))
    first = next(listing)
    listing.close()  # type: ignore[attr-defined]
    assert first == next(iter(queens(9).search))
    assert len(states) == 1 and states[0] and not any(states[0])
