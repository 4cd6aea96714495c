"""Parallel counting over subtrees, with any Executor."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from lazysearch import kakuro, knights, langford, parallel, planning, queens
from lazysearch.cli import main
from lazysearch.errors import LazysearchError
from lazysearch.parallel import count, remaining_tasks
from lazysearch.search import Search


def test_process_pool_count_matches_sequential() -> None:
    assert queens(9).count(workers=2) == 352


def test_any_executor_works() -> None:
    with ThreadPoolExecutor(3) as pool:
        assert langford(8).count(executor=pool) == 150


@pytest.mark.parametrize("taken", [0, 1, 17, 92])
def test_parallel_count_of_a_started_stream_counts_what_is_left(taken: int) -> None:
    s = queens(8)
    s.take(taken)
    with ThreadPoolExecutor(2) as pool:
        assert s.count(executor=pool) == 92 - taken
    assert s.take(1) == []


@pytest.mark.parametrize("depth", [1, 2, 4, 8])
def test_remaining_tasks_at_any_depth_cover_the_rest(depth: int) -> None:
    s = queens(7)
    s.take(13)
    with ThreadPoolExecutor(2) as pool:
        assert count(s.search, executor=pool, depth=depth) == 40 - 13
    assert remaining_tasks(s.search, depth) == []


def test_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="workers >= 1"):
        queens(5).count(workers=0)


# -- enumeration in parallel ------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: queens(8),
        lambda: knights.tours(5, start=(0, 0)),
        lambda: langford(7),
        lambda: kakuro.solve("\\   12\\  15\\  18\\\n\\6 _ _ _\n\\15 _ _ _\n\\24 _ _ _\n"),
    ],
    ids=["queens", "knights", "langford", "kakuro"],
)
def test_parallel_enumeration_keeps_the_plain_order(make: Any) -> None:
    assert list(make().parallel(workers=2)) == list(make())


def test_parallel_enumeration_applies_steps_and_goes_on_from_the_position() -> None:
    def steps(s: Any) -> Any:
        return s.filter(lambda q: q[0] % 2 == 0).map(lambda q: q[::-1]).slice(2, 30, 3)

    with ThreadPoolExecutor(2) as pool:
        assert list(steps(queens(8)).parallel(executor=pool)) == list(steps(queens(8)))
    stream = queens(8)
    head = stream.take(7)
    assert head + list(stream.parallel(workers=2)) == list(queens(8))
    assert stream.stats.solutions == 92


def test_refine_splits_big_subtrees_and_keeps_every_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search = knights.tours(6, start=(0, 0), closed=True).search
    tasks = parallel.remaining_tasks(search, 2)
    monkeypatch.setattr(planning, "TOO_BIG", 1.0)  # split everything above the average
    refined = parallel.refine(search, tasks, workers=2)
    assert len(refined) > len(tasks)
    prefixes = [t[0] for t in refined]
    assert prefixes == sorted(prefixes)  # still in the walk's order
    total = sum(search.subtree(p).count() for p in prefixes)
    assert total == knights.tours(6, start=(0, 0), closed=True).count() == 19724


def test_cli_lists_in_parallel_in_the_same_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "7", "-q"]) == 0
    plain = capsys.readouterr().out
    assert main(["queens", "7", "-q", "--workers", "2"]) == 0
    assert capsys.readouterr().out == plain


def test_split_goes_past_forced_levels() -> None:
    # Closed tours from a corner with the second square forced: depths 1 and 2 have one
    # node each, and the split must go deeper than that to give the workers work.
    whole = Search(knights.KnightsProblem(6, 6, [0], True, second=8))
    depth = parallel.split_depth(whole, 16)
    assert len(whole.subtrees(depth)) >= 16
    assert knights.count_closed(6, workers=2) == 9862


# -- the caller counts beside kept helper processes -----------------------------------------


@pytest.mark.parametrize("taken", [0, 5, 91, 92])
def test_caller_and_helpers_count_what_is_left(taken: int) -> None:
    s = queens(8)
    s.take(taken)
    assert s.count(workers=3) == 92 - taken
    assert s.stats.solutions == 92


def test_helpers_are_kept_for_the_next_count_of_the_same_size() -> None:
    from lazysearch import processes

    assert knights.count_closed(6, workers=2) == 9862
    (first,) = processes._kept.values()
    pids = [p.pid for p in first.procs]
    assert queens(10).count(workers=2) == 724
    (again,) = processes._kept.values()
    assert [p.pid for p in again.procs] == pids
    assert queens(9).count(workers=3) == 352  # another size: the old ones are stopped
    assert not any(p.is_alive() for p in first.procs)
    processes.close_all()
    assert processes._kept == {}


def _taken_slowly(value: object, jobs: list[int], counter: Any = None) -> list[int]:
    """The jobs this process takes, a fifth of a millisecond each (so all get some)."""
    import time

    from lazysearch import processes

    taken = []
    for job in processes.claimed(jobs, counter):
        taken.append(job)
        time.sleep(0.0002)
    return taken


def test_a_team_takes_every_job_exactly_once() -> None:
    from lazysearch import processes

    team = processes.Helpers(2)
    try:
        jobs = list(range(600))
        for _ in range(2):  # the count of jobs taken starts again for each list
            team.start(_taken_slowly, jobs)
            shares = [_taken_slowly(None, jobs, team.counter)]
            team.drain(shares.append)
            assert sorted(job for share in shares for job in share) == jobs
            assert all(share == sorted(share) for share in shares)
            assert sum(1 for share in shares if share) >= 2  # shared out, not one alone
    finally:
        team.close()


def _hold_the_counter(value: object) -> bool:
    from lazysearch import processes

    return bool(processes._team_counter.get_lock().acquire())  # and never let go


def test_a_counter_left_locked_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazysearch import processes

    team = processes.Helpers(1)
    try:
        team.start(_hold_the_counter)  # as a helper killed while holding it would
        team.drain(lambda held: None)
        monkeypatch.setattr(processes, "LOCK_TIMEOUT", 0.05)
        with pytest.raises(LazysearchError, match="count of jobs taken stayed locked"):
            next(processes.claimed([1, 2, 3], team.counter))
    finally:
        team.close()


def _fails(value: object, text: str) -> None:
    raise ValueError(f"{text} with {value}")


def test_a_helper_error_reaches_the_caller() -> None:
    from lazysearch import processes

    team = processes.Helpers(1)
    try:
        team.share("the problem")
        team.start(_fails, "bad input")
        with pytest.raises(ValueError, match="bad input with the problem"):
            team.drain(lambda _: None)
    finally:
        team.close()


def test_a_kept_helper_that_died_is_replaced_and_the_next_count_works() -> None:
    from lazysearch import processes

    queens(9).count(workers=2)
    (team,) = processes._kept.values()
    team.procs[0].kill()
    team.procs[0].join()
    assert queens(9).count(workers=2) == 352  # was "Broken pipe" once
    (fresh,) = processes._kept.values()
    assert fresh is not team and fresh.alive()


def test_an_interrupted_count_stops_its_helpers_and_the_next_count_starts_new_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lazysearch import processes

    assert queens(9).count(workers=2) == 352
    (team,) = processes._kept.values()

    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    # Ctrl-C reaches the caller as it goes to take its first subtree, after the helpers
    # were started: every run takes that step, however many subtrees the helpers claim
    # first on a busy machine.  Only the caller's copy is replaced: the helpers (started
    # above, and kept) keep theirs.
    monkeypatch.setattr(processes, "claimed_indexed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        queens(9).count(workers=2)
    assert processes._kept == {}
    assert not any(p.is_alive() for p in team.procs)
    monkeypatch.undo()
    assert queens(9).count(workers=2) == 352
