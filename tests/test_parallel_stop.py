"""A parallel count with a run file is cut fine, so that Ctrl-C keeps most of the work
done (only finished subtrees are kept), and its stop line says what was kept."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazysearch import planning, queens
from lazysearch.cli import main


def test_a_run_with_a_run_file_is_cut_finer() -> None:
    coarse = planning.plan(queens(16).search, 2, None, None)[1]
    fine = planning.plan(queens(16).search, 2, None, None, fine=True)[1]
    assert len(coarse) <= 8 * 2 * 4 < len(fine) <= planning.FINE_PER_WORKER * 2
    # A small tree is cut as before: it takes well under a second.
    small = queens(10).search
    assert planning.plan(small, 2, None, None, True) == planning.plan(
        queens(10).search, 2, None, None
    )


def test_a_finely_cut_count_is_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """queens 12 cut as a big tree would be: subtrees of about 500 nodes."""
    monkeypatch.setattr(planning, "SMALL_TREE", 0)
    monkeypatch.setattr(planning, "FINE_NODES", 500)
    coarse = planning.plan(queens(12).search, 2, None, None)[1]
    fine = planning.plan(queens(12).search, 2, None, None, fine=True)[1]
    assert 4 * len(coarse) < len(fine)
    run = str(tmp_path / "w.json")
    assert main(["queens", "12", "--count", "-q", "--workers", "2", "--checkpoint", run]) == 0
    assert capsys.readouterr().out == "14200\n"


def _finished(path: Path) -> int:
    """The subtrees the run file says are finished (0 while it is absent or replaced)."""
    try:
        return len(json.loads(path.read_text())["plan"]["done"])
    except (OSError, ValueError, KeyError):
        return 0


def test_ctrl_c_of_a_parallel_count_keeps_the_finished_subtrees_and_says_so(
    tmp_path: Path,
) -> None:
    run = tmp_path / "w.json"
    argv = ["queens", "16", "--count", "--workers", "2", "--checkpoint", str(run)]
    counting = subprocess.Popen(
        [sys.executable, "-m", "lazysearch", *argv, "--checkpoint-every", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        end = time.monotonic() + 300
        while _finished(run) < 2:  # the event: subtrees finished and saved
            assert counting.poll() is None and time.monotonic() < end, "no subtree saved"
            time.sleep(0.01)
        counting.send_signal(signal.SIGINT)  # a process this test started
        out, err = counting.communicate(timeout=120)
    finally:
        if counting.poll() is None:
            counting.kill()
            counting.wait(60)
    assert counting.returncode == 130 and out == ""
    record = json.loads(run.read_text())
    done, planned = len(record["plan"]["done"]), len(record["plan"]["tasks"])
    assert record["found"] > 0 and 2 <= done < planned
    assert err == (
        f"lazysearch queens: stopped after {record['found']} solutions in the {done} of "
        f"{planned} subtrees finished (saved; the subtrees under way were not, and are "
        f"counted again); go on with --resume {run}\n"
    )
