"""The temporary file behind ``-o FILE``: a run killed (``kill -9``, SIGTERM) leaves it
behind, and the next run writing beside it removes it; a live run's is left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazysearch.cli import main


def _start_writer(out: Path) -> subprocess.Popen[bytes]:
    """A listing of 16 queens (14,772,512 solutions: minutes) into ``out``, running
    once its temporary file exists."""
    before = set(out.parent.iterdir())
    writer = subprocess.Popen(
        [sys.executable, "-m", "lazysearch", "queens", "16", "-q", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    end = time.monotonic() + 120
    while not [p for p in set(out.parent.iterdir()) - before if p.suffix == ".part"]:
        if time.monotonic() > end or writer.poll() is not None:
            writer.kill()
            raise AssertionError("the writer made no temporary file")
        time.sleep(0.01)
    return writer


def _parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".part")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_runs_temporary_output_is_removed_by_the_next_run(
    tmp_path: Path, how: signal.Signals, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "queens.txt"
    killed = _start_writer(out)
    try:
        (left,) = _parts(tmp_path)
        assert left.startswith(f".queens.txt.lazysearch-{killed.pid}.")
        killed.send_signal(how)  # a process this test started
        assert killed.wait(60) == -how
    finally:
        if killed.poll() is None:
            killed.kill()
            killed.wait(60)
    assert _parts(tmp_path) == [left]  # what the kill left behind
    live = _start_writer(out)
    try:
        (writing,) = set(_parts(tmp_path)) - {left}
        assert main(["queens", "6", "-q", "-o", str(out)]) == 0
        # the dead writer's file is gone, the live one's kept, and the run's own in place
        assert _parts(tmp_path) == [writing]
        assert out.read_text().count(":\n") == 4  # "1:" then the board, for each
    finally:
        live.kill()
        live.wait(60)
    assert main(["queens", "5", "-q", "-o", str(out)]) == 0
    assert _parts(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["queens.txt"]
    assert out.read_text().count(":\n") == 10


def test_other_files_beside_the_output_are_left_alone(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # reaped: its pid names no process (until the system reuses it)
    keep = [
        f".queens.txt.{dead.pid}.abc.part",  # not ours (no lazysearch- in it)
        f".queens.txt.lazysearch-{dead.pid}.abc.tmp",  # not a .part
        f".queens.txt.lazysearch-{os.getpid()}.abc.part",  # a live run's
        f".queens.txt.lazysearch-x{dead.pid}.abc.part",  # no process id
        "notes.part",
    ]
    gone = [
        f".queens.txt.lazysearch-{dead.pid}.abc.part",
        f".other.txt.lazysearch-{dead.pid}.abc.part",  # another output's, in the folder
        f".a.lazysearch-1.txt.lazysearch-{dead.pid}.abc.part",  # a name like ours
    ]
    for name in [*keep, *gone]:
        (tmp_path / name).write_text("x")
    assert main(["queens", "4", "-q", "-o", str(tmp_path / "queens.txt")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*keep, "queens.txt"])


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_runs_temporary_output_is_removed_by_a_run_writing_another_file(
    tmp_path: Path, how: signal.Signals, capsys: pytest.CaptureFixture[str]
) -> None:
    """The docs' promise: the next run writing into the same folder, whatever its file."""
    killed = _start_writer(tmp_path / "big.txt")
    try:
        (left,) = _parts(tmp_path)
        killed.send_signal(how)  # a process this test started
        assert killed.wait(60) == -how
    finally:
        if killed.poll() is None:
            killed.kill()
            killed.wait(60)
    assert _parts(tmp_path) == [left]
    assert main(["queens", "5", "-q", "-o", str(tmp_path / "small.txt")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.txt"]


def test_a_one_process_listing_stopped_with_a_run_file_keeps_its_output_to_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --checkpoint, -o FILE is written as the run goes: a run stopped by a budget
    leaves what it wrote (it was removed, and the resumed run wrote only the rest), and
    --resume cuts FILE back to the length the run file records before going on."""
    assert main(["queens", "9", "-q", "-o", str(tmp_path / "one.txt")]) == 0
    whole = (tmp_path / "one.txt").read_bytes()
    out, run = tmp_path / "out.txt", str(tmp_path / "run.json")
    common = ["queens", "9", "-q", "-o", str(out), "--checkpoint", run]
    assert main([*common, "--node-limit", "700"]) == 5
    kept = out.read_bytes()
    assert 0 < len(kept) < len(whole) and whole.startswith(kept)
    with out.open("ab") as handle:
        handle.write(b"written after the last checkpoint, as before a kill -9\n")
    assert main([*common, "--resume", run]) == 0
    assert out.read_bytes() == whole
    capsys.readouterr()
