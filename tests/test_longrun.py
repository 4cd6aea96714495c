"""Long runs: stopping and resuming (library and command line), run files, estimates and
the progress bar."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from lazysearch import CheckpointError, kakuro, knights, langford, longrun, queens, search
from lazysearch.cli import EXIT_INTERRUPTED, main


class _Halt(Exception):
    pass


def _interrupted_run(make: Any, stops: int, seed: int) -> list[Any]:
    """Every solution of ``make()``, read by a run stopped ``stops`` times between
    chunks (at random) and resumed from its checkpoint each time in a fresh stream."""
    rng = random.Random(seed)
    out: list[Any] = []
    checkpoint = None
    for _ in range(stops + 1):
        stream = make() if checkpoint is None else make().resume(checkpoint)
        chunks = rng.randrange(1, 4)

        def halt(s: search.Search, budget: list[int] = [chunks]) -> None:  # noqa: B006
            budget[0] -= 1
            if budget[0] == 0:
                raise _Halt

        stream.search.on_chunk = halt
        try:
            for solution in stream:
                out.append(solution)
                if rng.random() < 0.02:
                    raise _Halt
        except _Halt:
            checkpoint = stream.checkpoint()
            continue
        return out
    out.extend(make().resume(checkpoint))
    return out


@pytest.mark.parametrize(
    "make",
    [
        lambda: queens(9),
        lambda: knights.tours(5, start=(0, 0)),
        lambda: kakuro.solve("\\   12\\  15\\  18\\\n\\6 _ _ _\n\\15 _ _ _\n\\24 _ _ _\n"),
        lambda: langford(7),
    ],
    ids=["queens", "knights", "kakuro", "langford"],
)
def test_stopped_and_resumed_ten_times_equals_one_run(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "CHUNK", 7)  # many safe points between solutions
    whole = list(make())
    assert whole
    for seed in range(3):
        assert _interrupted_run(make, stops=10, seed=seed) == whole


def _stop_after_every(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Make the command line stop (as on SIGTERM) once it has handled a multiple of ``n``
    solutions in all, or at its first safe point after the start when counting."""
    original = longrun.Runner.tick

    def tick(self: longrun.Runner, s: search.Search) -> None:
        if self.mode == "count" or self.found % n == 0:
            self.stop_requested = True
        original(self, s)

    monkeypatch.setattr(longrun.Runner, "tick", tick)


def test_cli_output_over_ten_stops_equals_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["queens", "8", "-q"]) == 0
    whole = capsys.readouterr().out
    _stop_after_every(monkeypatch, 9)
    run = tmp_path / "run.json"
    pieces = []
    status = main(["queens", "8", "-q", "--checkpoint", str(run)])
    for _ in range(20):
        captured = capsys.readouterr()
        pieces.append(captured.out)
        if status == 0:
            break
        assert status == EXIT_INTERRUPTED
        assert f"--resume {run}" in captured.err
        status = main(["queens", "8", "-q", "--checkpoint", str(run), "--resume", str(run)])
    assert status == 0 and len(pieces) == 11  # 92 solutions, 9 at a time
    assert "".join(pieces) == whole


def test_cli_count_stopped_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "CHUNK", 500)
    _stop_after_every(monkeypatch, 1)
    run = tmp_path / "run.json"
    args = ["queens", "9", "--count", "-q", "--checkpoint", str(run)]
    status = main(args)
    stops = 0
    while status == EXIT_INTERRUPTED:
        stops += 1
        record = json.loads(run.read_text())
        assert record["mode"] == "count" and record["found"] == record["search"]["solutions"]
        status = main([*args, "--resume", str(run)])
    assert status == 0 and stops >= 3
    assert capsys.readouterr().out.split()[-1] == "352"


def test_a_finished_run_resumes_to_nothing_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.json"
    assert main(["queens", "6", "-q", "--checkpoint", str(run)]) == 0
    capsys.readouterr()
    assert json.loads(run.read_text())["search"]["state"] == "done"
    assert main(["queens", "6", "-q", "--resume", str(run)]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"format": "lazysearch-run", ', ":1:30: not a lazysearch run file"),
        ('{"hello": 1}', "not a lazysearch run file"),
        ('{"format": "lazysearch-run", "version": 99}', "version 99 is not 1"),
    ],
)
def test_bad_run_files_are_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, words: str
) -> None:
    run = tmp_path / "run.json"
    run.write_text(content)
    assert main(["queens", "6", "--checkpoint", str(run), "--resume", str(run)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert run.read_text() == content


def test_run_file_of_another_problem_or_command_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.json"
    assert main(["queens", "6", "-q", "--limit", "1", "--checkpoint", str(run)]) == 0
    capsys.readouterr()
    before = run.read_text()
    assert main(["queens", "7", "--resume", str(run), "--checkpoint", str(run)]) == 2
    assert "another problem" in capsys.readouterr().err
    assert main(["langford", "4", "--resume", str(run)]) == 2
    assert "written by 'lazysearch queens'" in capsys.readouterr().err
    assert main(["queens", "6", "--count", "--resume", str(run)]) == 2
    assert "listing solutions, and this one is counting" in capsys.readouterr().err
    assert run.read_text() == before


def test_checkpoint_never_overwrites_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes\n")
    assert main(["queens", "6", "--checkpoint", str(precious)]) == 2
    assert "not overwriting" in capsys.readouterr().err
    assert precious.read_text() == "my notes\n"
    # A parallel listing keeps a run file too (it was refused): finished, no task left.
    assert main(["queens", "6", "--checkpoint", str(tmp_path / "r.json"), "--workers", "2"]) == 0
    record = longrun.load(tmp_path / "r.json", command="queens", mode="list")
    assert (record["found"], record["plan"]["tasks"]) == (4, [])


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    stream = queens(6)
    stream.take(2)
    path = tmp_path / "run.json"
    for found in range(3):
        longrun.save(path, longrun.run_record(stream.search, command="q", mode="list", found=found))
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]
    assert longrun.load(path, command="q", mode="list")["found"] == 2


def test_several_puzzles_cannot_share_one_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("1.3..........2.4\n" + "." * 16 + "\n")
    assert main(["sudoku", str(puzzles), "--checkpoint", str(tmp_path / "r.json")]) == 2
    assert "follows one search" in capsys.readouterr().err
    # knights --count by walking adds up several searches, and its checkpoint says which
    # are finished (tests/test_knights_budget.py).
    assert main(["knights", "5", "--count", "--checkpoint", str(tmp_path / "k.json")]) == 0
    assert '"format":"lazysearch-knights-walk"' in (tmp_path / "k.json").read_text()


def test_estimate_prints_tree_and_solution_estimates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--estimate", "--samples", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("estimate from 300 probes: ")
    solutions = float(out.split(" nodes ")[1].split(", ")[1].split(" solutions")[0])
    assert 30 < solutions < 300  # 92 in truth; the spread is printed beside it


def test_progress_bar_on_request_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--count", "-q", "--progress"]) == 0
    assert "lazysearch queens:" in capsys.readouterr().err
    assert main(["queens", "8", "--count", "-q"]) == 0  # stderr is not a terminal here
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("done", "left"),
    [
        (0.5, "01:40"),  # half done in 100 s
        (0.99, "00:01"),
        (0.0, "?"),  # no progress: no rate
        (1e-45, "?"),  # tqdm would say 2.2e43 hours
        (2.5e-8, "?"),  # 127 years
        (3.2e-7, "86805:31:40"),  # 9.9 years is still shown
    ],
)
def test_progress_bar_shows_a_question_mark_for_a_meaningless_time_left(
    done: float, left: str
) -> None:
    out = io.StringIO()
    bar = longrun.progress_bar("lazysearch queens: ", out)
    clock = bar.start_t + 100.0
    bar._time = lambda: clock  # 100 s since the bar started, on any machine
    bar.n = done
    assert f"[01:40<{left}]" in str(bar)
    bar.close()


def test_time_left_is_shown_up_to_ten_years() -> None:
    assert longrun.time_left(longrun.MAX_TIME_LEFT) != "?"
    assert longrun.time_left(longrun.MAX_TIME_LEFT * 1.001) == "?"
    assert longrun.time_left(-1.0) == "?"


def test_load_names_command_and_mode_mismatches(tmp_path: Path) -> None:
    stream = queens(5)
    path = tmp_path / "r.json"
    longrun.save(path, longrun.run_record(stream.search, command="queens", mode="count", found=0))
    with pytest.raises(CheckpointError, match="counting, and this one is listing"):
        longrun.load(path, command="queens", mode="list")


def test_checkpoint_interval_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["queens", "6", "--checkpoint-every", "0"])
    assert exit_info.value.code == 2
    assert "a number of seconds > 0, got '0'" in capsys.readouterr().err


def test_temporary_files_of_dead_writers_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    import subprocess
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # reaped: its pid names no process (until the system reuses it)
    stream = queens(6)
    path = tmp_path / "run.json"
    left = tmp_path / f".lazysearch-run.json.{dead.pid}.abc123.tmp"  # as kill -9 leaves it
    writing = tmp_path / f".lazysearch-run.json.{os.getppid()}.def456.tmp"  # a live writer's
    other = tmp_path / f".lazysearch-other.json.{dead.pid}.ghi789.tmp"  # another run file's
    for file in (left, writing, other):
        file.write_text("{")
    longrun.save(path, longrun.run_record(stream.search, command="q", mode="list", found=0))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["run.json", writing.name, other.name]
    )
