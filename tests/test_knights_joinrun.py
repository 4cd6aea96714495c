"""A count of closed tours by the join that stops and goes on (issue 22: every counting
engine keeps a checkpoint): the parts of the transfer counted so far, in a file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazysearch import compiled
from lazysearch.cli import main
from lazysearch.errors import CheckpointError
from lazysearch.knights import count_closed
from lazysearch.knights.joinrun import count_joined, read_parts

#: A board the tests stop and resume, and its closed tours (A001230): 6x8 compiled, 6x6
#: as plain Python (6x8's join takes a minute there; stopping and resuming 6x6 at every
#: third of its parts took 22 s, so BOARDS keeps one board there).
ROWS, COLS, TOURS = (6, 8, 55488142) if compiled() else (6, 6, 9862)
BOARDS = [(5, 8), (6, 6), (6, 8), (7, 6), (5, 10)] if compiled() else [(5, 8)]


class Halt(Exception):
    """Raised by a test's tick to stop a count."""


def halt_after(parts: int) -> object:
    def tick(where: str) -> None:
        if where.startswith(f"part {parts} "):
            raise Halt

    return tick


def parts_in(path: Path) -> int:
    return len(json.loads(path.read_text())["parts"])


@pytest.mark.parametrize(("rows", "cols"), BOARDS)
def test_stopped_after_any_part_and_resumed_gives_the_count(
    rows: int, cols: int, tmp_path: Path
) -> None:
    expected = count_closed(rows, cols, method="dp")
    path = tmp_path / "join.json"
    whole = count_joined(rows, cols, checkpoint=path)
    assert whole.count == expected
    total = parts_in(path)
    assert total > 3  # cut into parts by the first three right squares
    for stop in sorted({1, total // 2, total - 1}):
        path.unlink()
        with pytest.raises(Halt):
            count_joined(rows, cols, checkpoint=path, tick=halt_after(stop))
        assert parts_in(path) == stop
        # (resumed again and again: each run adds one more part, then stops)
        for more in range(stop + 1, min(stop + 3, total)):
            with pytest.raises(Halt):
                count_joined(rows, cols, checkpoint=path, resume=path, tick=halt_after(1))
            assert parts_in(path) == more
        assert count_joined(cols, rows, checkpoint=path, resume=path).count == expected


def test_resumed_in_other_numbers_of_processes(tmp_path: Path) -> None:
    path = tmp_path / "join.json"
    with pytest.raises(Halt):
        count_joined(ROWS, COLS, checkpoint=path, tick=halt_after(4), workers=2)
    assert parts_in(path) == 4
    assert count_joined(ROWS, COLS, resume=path, workers=1).count == TOURS
    assert count_joined(ROWS, COLS, resume=path, workers=3).count == TOURS


def test_a_resumed_count_counts_only_the_parts_left(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    count_joined(ROWS, COLS, checkpoint=whole)
    path = tmp_path / "join.json"
    with pytest.raises(Halt):
        count_joined(ROWS, COLS, checkpoint=path, tick=halt_after(5))
    recorded = read_parts(str(path), ROWS, COLS)
    every = read_parts(str(whole), ROWS, COLS)
    assert recorded == {p: v for p, v in every.items() if p in recorded}
    seen: list[str] = []
    assert count_joined(ROWS, COLS, resume=path, tick=seen.append).count == TOURS
    counted = [w for w in seen if w.startswith("part ")]
    assert len(recorded) == 5 and len(counted) == parts_in(whole) - 5
    assert counted[-1] == f"part {len(counted)} of {len(counted)} of the transfer"


def test_bad_checkpoints_are_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "join.json"
    with pytest.raises(Halt):
        count_joined(ROWS, COLS, checkpoint=path, tick=halt_after(2))
    record = json.loads(path.read_text())
    with pytest.raises(CheckpointError, match="not of 5x6"):
        count_joined(5, 6, resume=path)
    altered = dict(record, parts=[[p, str(int(c) + 1), k, q] for p, c, k, q in record["parts"]])
    path.write_text(json.dumps(altered))
    with pytest.raises(CheckpointError, match="sha256"):
        count_joined(ROWS, COLS, resume=path)
    path.write_text(json.dumps(record)[:40])
    with pytest.raises(CheckpointError, match=r"join\.json:1:\d+: .*torn"):
        count_joined(ROWS, COLS, resume=path)
    other = tmp_path / "notes.txt"
    other.write_text("precious\n")
    with pytest.raises(CheckpointError, match="not a join checkpoint"):
        count_joined(ROWS, COLS, checkpoint=other)
    assert other.read_text() == "precious\n"


def test_cli_time_limit_then_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "join.json"
    argv = ["knights", str(ROWS), str(COLS), "--closed", "--count", "--method", "join"]
    assert main([*argv, "--checkpoint", str(path), "--time-limit", "0.001"]) == 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "time limit of 0.001 s reached" in err
    assert f"go on with --resume {path}" in err
    assert main([*argv, "--checkpoint", str(path), "--resume", str(path), "-q"]) == 0
    assert capsys.readouterr().out == f"{TOURS}\n"
    assert main([*argv, "--node-limit", "5"]) == 2
    assert "enters no nodes" in capsys.readouterr().err
    assert main(["knights", "6", "8", "--count", "--method", "join", "--time-limit", "9"]) == 2
    assert "closed tours only" in capsys.readouterr().err


@pytest.mark.skipif(not compiled(), reason="6x9 by the join takes minutes as plain Python")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_cli_sigterm_keeps_the_parts_and_resume_is_exact(tmp_path: Path, workers: str) -> None:
    # (The signal is acted on at the join's next tick, never raised inside the compiled
    # tables: a soak caught "Exception ignored in Packed._grow" when it was.)
    path = tmp_path / "join.json"
    argv = [sys.executable, "-m", "lazysearch", "knights", "6", "9", "--closed", "--count"]
    argv += ["--method", "join", "--workers", workers, "--checkpoint", str(path)]
    for _ in range(5):  # (should a run finish before the signal, start another)
        path.unlink(missing_ok=True)
        run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 300
            while run.poll() is None and time.monotonic() < deadline:
                try:
                    if parts_in(path) >= 1:
                        break
                except (OSError, ValueError):
                    pass
                time.sleep(0.01)
            run.send_signal(signal.SIGTERM)
            out, err = run.communicate(timeout=300)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        if run.returncode != 0:
            break
    assert run.returncode == 130 and out == "", err
    assert err.count("\n") == 1 and err.startswith("lazysearch knights: stopped, with "), err
    assert parts_in(path) >= 1
    resumed = subprocess.run(
        [*argv, "--resume", str(path), "-q"], capture_output=True, text=True, timeout=600
    )
    assert (resumed.returncode, resumed.stdout) == (0, "3374967940\n")  # A001230 (6x9)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["join.json"]


def test_cli_ctrl_c_of_a_join_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "join.json"
    argv = [sys.executable, "-m", "lazysearch", "knights", "7", "8", "--closed", "--count"]
    run = subprocess.Popen(
        [*argv, "--method", "join", "--workers", "1", "--checkpoint", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The file is written once the handlers are in place (7x8 then takes far longer).
        deadline = time.monotonic() + 300
        while not path.exists() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130 and out == "", err
    assert err.count("\n") == 1 and err.startswith("lazysearch knights: stopped, with "), err
    read_parts(str(path), 7, 8)  # still a whole join checkpoint of 7x8 (raises if not)


def test_cli_workers_and_a_checkpoint_keep_8x8_closed_on_the_join(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`knights 8 --closed --count --workers 2 --checkpoint F` is the join's, sharing its
    parts among the workers (it once walked the tours instead: weeks of work)."""
    from lazysearch.knights import joinrun

    calls = []

    class Found:
        count = 13_267_364_410_532

    def fake(rows: int, cols: int, **kwargs: object) -> Found:
        calls.append((rows, cols, kwargs["workers"], kwargs["checkpoint"], kwargs["resume"]))
        return Found()

    monkeypatch.setattr(joinrun, "count_joined", fake)
    path = str(tmp_path / "join.json")
    argv = ["knights", "8", "--closed", "--count", "-q", "--workers", "2"]
    assert main([*argv, "--checkpoint", path]) == 0
    assert main([*argv, "--resume", path, "--time-limit", "60"]) == 0
    assert capsys.readouterr().out == "13267364410532\n" * 2
    assert calls == [(8, 8, 2, path, None), (8, 8, 2, None, path)]
