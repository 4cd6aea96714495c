"""Budgets: counting for so long or so many nodes, a partial result, and going on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from lazysearch import compiled, knights, longrun, parallel, planning, queens
from lazysearch.cli import EXIT_BUDGET, main


@pytest.mark.parametrize("nodes", [997, 5_000, 10**9])
def test_partial_counts_within_node_budgets_add_up_to_the_total(nodes: int) -> None:
    total, spent, parts = 0, 0, 0
    search = queens(9).search
    while True:
        part = search.count_within(nodes=nodes, samples=20)
        assert search.stats.nodes - spent <= nodes  # the engines stop at the budget
        spent = search.stats.nodes
        total += part.found
        parts += 1
        assert 0 <= part.progress <= 1 and part.found <= 352
        if part.done:
            break
        assert part.rest > 0
        search = queens(9).search.resume(part.checkpoint)
        if parts > 10_000:
            pytest.fail("never done")
    assert (total, part.rest, part.progress) == (352, 0.0, 1.0)
    whole = queens(9).search
    whole.count()
    assert spent == whole.stats.nodes  # no node walked twice, none skipped


def test_a_zero_time_budget_counts_nothing_and_says_how_to_go_on() -> None:
    stream = queens(8)
    part = stream.count_within(seconds=0)
    assert (part.found, part.done, part.progress) == (0, False, 0.0)
    assert queens(8).resume(part.checkpoint).count() == 92
    # Every engine: a knight's tours search too.
    part = knights.tours(5).count_within(nodes=1000)
    assert part.found + knights.tours(5).resume(part.checkpoint).count() == 1728


def test_bad_budgets_are_refused_naming_the_value() -> None:
    with pytest.raises(ValueError, match="seconds >= 0, got -1"):
        queens(8).count_within(seconds=-1)
    with pytest.raises(ValueError, match="nodes >= 1, got 0"):
        queens(8).count_within(nodes=0)
    with pytest.raises(ValueError, match="filter/map/slice"):
        queens(8).filter(bool).count_within(nodes=10)


def test_cli_node_limit_stops_with_its_own_status_and_resumes_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "run.json")
    args = ["queens", "12", "--count", "-q", "--node-limit", "1", "--checkpoint", path]
    stops = 0
    while (status := main(args + (["--resume", path] if stops else []))) == EXIT_BUDGET:
        stops += 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and "node limit reached after" in captured.err
        assert "Knuth's estimate" in captured.err and f"--resume {path}" in captured.err
    assert status == 0 and stops >= 2
    assert capsys.readouterr().out.strip() == "14200"


def test_cli_listing_within_budgets_prints_each_solution_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["queens", "8", "--format", "json", "-q"]) == 0
    whole = capsys.readouterr().out
    path = str(tmp_path / "run.json")
    args = ["queens", "8", "--format", "json", "-q", "--node-limit", "65536"]
    pieces = []
    status = EXIT_BUDGET
    first = True
    while status == EXIT_BUDGET:
        status = main(args + ["--checkpoint", path] + ([] if first else ["--resume", path]))
        first = False
        pieces.append(capsys.readouterr().out)
    assert status == 0 and "".join(pieces) == whole


def test_cli_budgets_are_refused_where_they_cannot_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["queens", "8", "--estimate", "--node-limit", "5"]) == 2
    assert "leave out --estimate" in capsys.readouterr().err
    # (knights --count by walking takes them: tests/test_knights_budget.py)
    assert main(["knights", "6", "--count", "--method", "dp", "--node-limit", "5"]) == 2
    assert "which enters no nodes" in capsys.readouterr().err
    # (8x8 is counted by the program, in one process; the walk takes --workers:
    # tests/test_knights_walk_parallel.py)
    assert main(["knights", "8", "--count", "--workers", "2", "--time-limit", "9"]) == 2
    assert "in one process" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["queens", "8", "--time-limit", "0"])
    assert exit_info.value.code == 2
    assert "--time-limit: a number of seconds > 0, got '0'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("limit", "workers"),
    [
        (["--node-limit", "20000"], "2"),  # queens 11: 166,926 nodes
        (["--time-limit", "0.001"], "2"),  # spent at the first subtree
        (["--node-limit", "1"], "3"),
    ],
)
def test_cli_parallel_count_within_budgets_resumes_to_the_exact_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: list[str], workers: str
) -> None:
    path = str(tmp_path / "run.json")
    args = ["queens", "11", "--count", "-q", "--workers", workers, *limit, "--checkpoint", path]
    stops, found = 0, -1
    while (status := main(args + (["--resume", path] if stops else []))) == EXIT_BUDGET:
        stops += 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and "limit reached after" in captured.err
        assert f"--resume {path}" in captured.err and " subtrees (" in captured.err
        record = longrun.load(path, command="queens", mode="count")
        assert found < record["found"] <= 2680  # every run finishes a subtree or more
        found = record["found"]
        assert stops < 1000
    assert status == 0 and stops >= 2
    assert capsys.readouterr().out.strip() == "2680"


def test_parallel_count_within_a_node_budget_from_the_library(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    stops = 0
    while True:
        try:
            total = parallel.count(
                queens(10).search,
                workers=2,
                checkpoint=path,
                resume=path if stops else None,
                nodes=2000,
            )
            break
        except longrun.OutOfBudget as out:
            which, found, done, planned, spent = out.args
            assert which == "node limit" and spent >= 2000 and 0 < done < planned
            assert found == longrun.load(path, command="library", mode="count")["found"]
            stops += 1
    assert total == 724 and stops >= 2


@pytest.mark.skipif(not compiled(), reason="a tree of minutes as plain Python")
def test_a_parallel_count_with_a_time_limit_is_cut_fine_and_stops_within_a_subtree() -> None:
    # queens 16 is cut into 16 subtrees of seconds for 2 workers, but into 208 of a
    # fraction of a second when the count may stop: a time limit without a run file was
    # passed by whole subtrees under way (queens 17: 28 s for a limit of 2 s).
    fine = planning.plan(queens(16).search, 2, None, None, fine=True)[1]
    coarse = planning.plan(queens(16).search, 2, None, None)[1]
    assert len(coarse) < len(fine)
    with pytest.raises(longrun.OutOfBudget) as stopped:
        parallel.count(queens(16).search, workers=2, deadline=time.monotonic())
    which, found, done, planned, _ = stopped.value.args
    # Stopped at its limit before any subtree finished: the caller's subtree was cut
    # where it stood (a subtree of the 7x7 knight graph's takes minutes), what it had
    # counted kept as done and the rest of it a subtree of its own, at the plan's end.
    assert which == "time limit" and planned == len(fine) + 1 and done == 1
    assert found == stopped.value.record["found"]
    tasks = stopped.value.record["plan"]["tasks"]
    prefix, position, _ = tasks[-1]
    assert len(position) > len(prefix) and position[: len(prefix)] == prefix
    assert [prefix, prefix, 0] in tasks[:-1]


@pytest.mark.parametrize("workers", [1, 2])
def test_runs_cut_by_a_time_limit_again_and_again_add_up_to_the_count(workers: int) -> None:
    # Each run's limit has passed before it starts: it counts one chunk of a subtree or
    # finishes one, and stops. Resumed until done, the runs add up to one count.
    record = None
    runs = 0
    while True:
        runs += 1
        assert runs < 5_000, "never done"
        search = queens(10).search
        try:
            total = parallel.count(
                search, workers=workers, deadline=time.monotonic(), resume=record
            )
            break
        except longrun.OutOfBudget as out:
            assert out.record is not None and out.record["plan"]["done"]
            record = out.record
    assert total == 724 and runs > 2
    one = queens(10).search
    one.count()
    assert search.stats == one.stats  # the nodes too: a cut subtree's two parts add up


@pytest.mark.parametrize("nodes", [1, 1_500, 10**9])
def test_count_within_workers_partials_add_up_to_the_total(nodes: int) -> None:
    """count_within(workers=) from the library: each call stops once its finished
    subtrees have spent the budget, and the partials, resumed from each other's run
    record with 2, 3, 1 ... workers, add up to the count; the last's statistics are
    one run's."""
    workers = [2, 3, 1]
    part = queens(10).count_within(nodes=nodes, workers=2)
    total, parts = part.found, 1
    while not part.done:
        assert 0 <= part.progress < 1 and part.rest > 0
        assert part.checkpoint["plan"]["done"]  # every call finishes at least one subtree
        search = queens(10).search
        part = parallel.count_within(
            search, nodes=nodes, workers=workers[parts % 3], resume=part.checkpoint
        )
        total += part.found
        parts += 1
        assert parts < 1_000, "never done"
    assert (total, part.progress, part.rest) == (724, 1.0, 0.0)
    assert (parts > 1) == (nodes < 10**9)
    if parts > 1:
        one = queens(10).search
        one.count()
        assert (search.stats.solutions, search.stats.nodes) == (724, one.stats.nodes)


def test_count_within_workers_keeps_a_run_file_and_a_time_budget(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    part = parallel.count_within(queens(10).search, seconds=0, workers=2, checkpoint=path)
    assert not part.done and part.found < 724 and part.checkpoint["plan"]["done"]
    assert longrun.load(path, command="library", mode="count") == part.checkpoint
    rest = parallel.count_within(queens(10).search, workers=3, resume=path, checkpoint=path)
    assert (rest.done, part.found + rest.found) == (True, 724)
    # A finished run file counts nothing more.
    again = parallel.count_within(queens(10).search, workers=2, resume=path)
    assert (again.done, again.found) == (True, 0)


def test_count_within_workers_refuses_bad_arguments_at_the_call() -> None:
    from lazysearch import CheckpointError

    with pytest.raises(ValueError, match="workers >= 1, got 0"):
        queens(8).count_within(nodes=10, workers=0)
    with pytest.raises(ValueError, match="nodes >= 1, got 0"):
        parallel.count_within(queens(8).search, nodes=0, workers=2)
    part = queens(9).count_within(nodes=100, workers=2)
    with pytest.raises(CheckpointError, match="another problem"):
        parallel.count_within(queens(8).search, workers=2, resume=part.checkpoint)
    with pytest.raises(CheckpointError, match="not a lazysearch run file"):
        parallel.count_within(queens(8).search, workers=2, resume={"format": "x"})


def test_count_within_workers_is_refused_by_a_walk_in_cost_order() -> None:
    from lazysearch import ExactCover

    cheapest = ExactCover(["a b", "a", "b", "b c", "c"], costs=[5, 1, 1, 1, 4]).solve().cheapest(1)
    with pytest.raises(ValueError, match=r"count_within\(workers=2\) counts in parallel"):
        cheapest.count_within(nodes=1000, workers=2)


def test_a_parallel_count_in_one_process_keeps_to_its_budget() -> None:
    # workers=1 without a run file counted everything in one go, budget or not.
    part = queens(10).count_within(nodes=1, workers=1)
    assert not part.done and part.found < 724
    with pytest.raises(longrun.OutOfBudget):
        parallel.count(queens(10).search, workers=1, nodes=1)


@pytest.mark.parametrize(
    ("limit", "workers"),
    [
        (["--node-limit", "3000"], ["2", "3", "1"]),  # queens 10: 13,256 nodes
        (["--node-limit", "1"], ["3", "1", "2"]),  # a piece a run
    ],
)
def test_cli_parallel_listing_within_budgets_resumes_to_one_runs_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: list[str], workers: list[str]
) -> None:
    assert main(["queens", "10", "--format", "json", "-q"]) == 0
    whole = capsys.readouterr().out
    path = str(tmp_path / "run.json")
    args = ["queens", "10", "--format", "json", "-q", *limit, "--checkpoint", path]
    pieces: list[str] = []
    found = 0
    while True:
        resume = ["--resume", path] if pieces else []
        status = main([*args, "--workers", workers[len(pieces) % 3], *resume])
        captured = capsys.readouterr()
        pieces.append(captured.out)
        if status != EXIT_BUDGET:
            break
        assert captured.err.count("\n") == 1 and "limit reached after" in captured.err
        assert f"--resume {path}" in captured.err and "nodes in this run" in captured.err
        record = longrun.load(path, command="queens", mode="list")
        assert record["found"] == found + captured.out.count("\n")
        found = record["found"]
        assert len(pieces) < 1000
    assert status == 0 and len(pieces) >= 3
    assert "".join(pieces) == whole  # byte for byte: none twice, none skipped


def test_a_listing_past_its_deadline_writes_a_solution_or_a_piece_a_run(tmp_path: Path) -> None:
    # The limit is looked at after each solution written and each piece read: a
    # deadline already passed stops every run after one of them, and the runs go on.
    path = tmp_path / "run.json"
    out: list[tuple[int, ...]] = []
    runs = 0
    progress: tuple[int, int] = (10**9, 0)
    while True:
        listing = parallel.Listing(
            queens(7).search,
            workers=1 + runs % 3,
            checkpoint=path,
            resume=path if runs else None,
            deadline=0.0,
        )
        before = len(out)
        try:
            out.extend(listing)
        except longrun.OutOfBudget as stop:
            assert stop.args == ("time limit", len(out), stop.args[2])
            assert len(out) <= before + 1  # one solution, or a piece without any
            plan = longrun.load(path, command="library", mode="list")["plan"]
            assert (len(plan["tasks"]), -plan["written"]) < progress  # it went on
            progress = (len(plan["tasks"]), -plan["written"])
            runs += 1
            continue
        break
    assert out == list(queens(7).search) and runs >= 39  # 40 solutions


def test_a_listing_refuses_a_bad_node_budget_at_the_call() -> None:
    with pytest.raises(ValueError, match="nodes >= 1, got 0"):
        parallel.Listing(queens(6).search, workers=2, nodes=0)


def test_cli_statistics_of_a_parallel_listing_at_its_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # They said "0 nodes": the caller walks nothing itself.
    assert main(["queens", "8", "--limit", "5", "--workers", "2", "-o", "/dev/null"]) == 0
    solutions, nodes = capsys.readouterr().err.split(",")[:2]
    whole = queens(8).search
    whole.count()
    assert solutions == "5 solutions"
    assert 0 < int(nodes.split()[0]) <= whole.stats.nodes


def test_cli_knights_count_by_the_program_stops_at_a_time_limit_and_resumes_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A limit already spent when the first square is swept: the count stops there with
    # the budget's own status, its table saved, and goes on to the published total.
    run = str(tmp_path / "run.json")
    board = ["knights", "5", "8", "--closed", "--count", "--method", "dp"]
    assert main([*board, "--time-limit", "1e-9", "--checkpoint", run]) == EXIT_BUDGET
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "time limit of 1e-09 s reached after square 1 of 40; go on with --resume" in captured.err
    assert main([*board, "--resume", run, "-q"]) == 0
    assert capsys.readouterr().out == "44202\n"  # 5x8 closed tours (A175881)
    # Without a run file the line says how to keep one.
    assert main([*board, "--time-limit", "1e-9"]) == EXIT_BUDGET
    assert "--checkpoint FILE saves the count" in capsys.readouterr().err


@pytest.mark.parametrize("nodes", [1, 37, 500, 10**9])
def test_listings_within_node_budgets_resume_to_the_whole_listing(nodes: int) -> None:
    whole = queens(8).take(100)
    got: list[object] = []
    stream = queens(8)
    rounds = 0
    while True:
        part = stream.take_within(nodes=nodes)
        rounds += 1
        got += part.solutions
        assert 0 <= part.progress <= 1 and part.rest >= 0
        if part.done:
            break
        stream = queens(8).resume(part.checkpoint)  # a fresh process would do the same
    assert got == whole and rounds >= (1 if nodes > 2000 else 2)


def test_listing_within_n_a_filter_and_a_time_budget() -> None:
    odd = queens(8).filter(lambda q: q[0] % 2 == 1)
    part = odd.take_within(5)
    assert part.solutions == queens(8).filter(lambda q: q[0] % 2 == 1).take(5)
    assert not part.done and part.rest > 0
    # The same stream reads on where it stopped.
    assert odd.take_within().solutions == queens(8).filter(lambda q: q[0] % 2 == 1).take(100)[5:]
    # A time budget already spent reads nothing and keeps the place.
    s = queens(6)
    part = s.take_within(seconds=0)
    assert part.solutions == [] and not part.done and s.take(4) == queens(6).take(4)
    assert queens(6).take_within(2).solutions == queens(6).take(2)
    for bad in ({"n": -1}, {"seconds": -1.0}, {"nodes": 0}):
        with pytest.raises(ValueError, match="take_within"):
            queens(6).take_within(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="slice"):
        queens(6).slice(1, 3).take_within(1)


def test_a_count_finished_within_its_node_limits_chunk_prints_its_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _status_out_err(capsys, "queens", "9", "--count", "--node-limit", "1")
    assert (status, out) == (0, "352\n") and "limit" not in err
    status, out, _ = _status_out_err(
        capsys, "queens", "9", "--count", "--node-limit", "1", "--time-limit", "1e-9"
    )
    assert (status, out) == (0, "352\n")


def _status_out_err(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err
