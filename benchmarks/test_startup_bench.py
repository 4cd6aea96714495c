"""Start-up: a whole ``lazysearch sudoku -`` process on one puzzle, against a bare
``python -c pass`` of the same interpreter.

Small jobs are mostly start-up, so the figure that matters is the difference.  The two
commands run in turns (so that a busy spell of the machine falls on both), and each
run's CPU time (user + system, from the operating system's accounting of the child) is
recorded beside the wall time; extra_info holds the medians and the differences.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
SOLUTION = """\
solution 1:
4 1 7 | 3 6 9 | 8 2 5
6 3 2 | 1 5 8 | 9 4 7
9 5 8 | 7 2 4 | 3 1 6
------+-------+------
8 2 5 | 4 3 7 | 1 6 9
7 9 1 | 5 8 6 | 4 3 2
3 4 6 | 9 1 2 | 7 5 8
------+-------+------
2 8 9 | 6 4 3 | 5 7 1
5 7 3 | 2 9 1 | 6 8 4
1 6 4 | 8 7 5 | 2 9 3
"""
ROUNDS = 15


def timed(command: list[str], stdin: str, env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``command`` to the end: its wall time, its CPU time, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # counts the children reaped
    assert done.returncode == 0, command
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def test_startup_sudoku_one_puzzle(benchmark: Any, tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "lazysearch"
    if not script.exists():
        pytest.skip(f"no installed console script at {script}")
    env_note = "plain Python" if os.environ.get("LAZYSEARCH_PURE") else "as installed"
    # As after an install, which compiles the bytecode: both commands read it from a
    # cache that a first, untimed run fills, even where PYTHONDONTWRITEBYTECODE is set.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    outputs = [timed([str(script), "sudoku", "-"], PUZZLE, env)[2]]
    runs: dict[str, list[tuple[float, float]]] = {"pass": [], "sudoku": []}

    def one_round() -> None:
        wall, cpu, _ = timed([sys.executable, "-c", "pass"], "", env)
        runs["pass"].append((wall, cpu))
        wall, cpu, out = timed([str(script), "sudoku", "-"], PUZZLE, env)
        runs["sudoku"].append((wall, cpu))
        outputs.append(out)

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1)
    assert len(outputs) >= 2 and all(out == SOLUTION for out in outputs)
    ms = {
        f"{what}_{kind}_ms": round(1000 * statistics.median(r[i] for r in runs[what]), 2)
        for what in runs
        for i, kind in enumerate(("wall", "cpu"))
    }
    benchmark.extra_info.update(ms)
    benchmark.extra_info["engines"] = env_note
    benchmark.extra_info["extra_wall_ms"] = round(ms["sudoku_wall_ms"] - ms["pass_wall_ms"], 2)
    benchmark.extra_info["extra_cpu_ms"] = round(ms["sudoku_cpu_ms"] - ms["pass_cpu_ms"], 2)
