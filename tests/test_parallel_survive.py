"""Parallel runs that survive: helpers that die with their caller (kill -9, SIGTERM),
dead helpers whose subtrees are counted again, and what is left on disk.

These start real processes and kill them; every wait polls for an event with a
generous deadline (the machine may be loaded), none sleeps and then asserts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads processes from /proc"
)

#: Seconds any one event may take on a loaded machine before the test fails.
DEADLINE = 60.0


def wait_for(what: str, holds: Callable[[], object], deadline: float = DEADLINE) -> object:
    """Poll ``holds()`` until it is true (returned), failing after ``deadline`` s."""
    end = time.monotonic() + deadline
    while True:
        value = holds()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"waited {deadline} s for {what}")
        time.sleep(0.02)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name, or None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry))
    return found


def gone(pid: int) -> bool:
    """The process has ended (a zombie waiting to be reaped counts as ended)."""
    fields = _stat(pid)
    return fields is None or fields[0] in ("Z", "X")


def lazysearch(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lazysearch", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test started: killed at its end whatever happened."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
@pytest.mark.parametrize("mode", ["count", "list"])
def test_helpers_die_with_a_killed_caller(
    sig: signal.Signals, mode: str, started: list[subprocess.Popen[str]]
) -> None:
    # queens 16 takes minutes: the helpers are busy counting when the caller dies.
    count = ["--count"] if mode == "count" else []
    caller = lazysearch("queens", "16", *count, "--workers", "3")
    started.append(caller)

    def two_or_more() -> list[int]:
        found = children(caller.pid)
        return found if len(found) >= 2 else []

    helpers = wait_for("two helpers", two_or_more)
    assert isinstance(helpers, list)
    caller.send_signal(sig)
    caller.wait()
    for pid in helpers:
        wait_for(f"helper {pid} to end", lambda pid=pid: gone(pid))


_KEEP_HELPERS_IN_A_THREAD = """
import sys, threading
from lazysearch import _helpers

def slow(value, seconds):
    import time
    time.sleep(seconds)

def start():
    team = _helpers.Helpers(1)
    print(team.procs[0].pid, flush=True)
    team.start(slow, 600)
    threading.Event().wait()

threading.Thread(target=start).start()
"""


def test_helpers_started_by_another_thread_die_with_the_caller_too(
    started: list[subprocess.Popen[str]],
) -> None:
    # No parent-death signal for a team a thread started (it would come when the
    # thread ends): the helper's own watch of its parent must do it.
    caller = subprocess.Popen(
        [sys.executable, "-c", _KEEP_HELPERS_IN_A_THREAD],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    started.append(caller)
    assert caller.stdout is not None
    helper = int(caller.stdout.readline())
    caller.kill()
    caller.wait()
    caller.stdout.close()
    wait_for(f"helper {helper} to end", lambda: gone(helper))
