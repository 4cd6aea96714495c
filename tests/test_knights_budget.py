"""knights --count by walking (--method enumerate) within --time-limit / --node-limit:
the searches the count adds up, stopped anywhere and resumed from a checkpoint of the
finished ones and the position of the one under way, give the count of one run; and
--method join stops at a time limit with a clear report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lazysearch.cli import main
from lazysearch.errors import CheckpointError, LazysearchError
from lazysearch.knights import count_closed, count_tours
from lazysearch.knights.walking import count_within, walks


def in_pieces(nodes: int, rows: int, cols: int, **board: Any) -> tuple[int, int, list[int]]:
    """The count in runs of ``nodes`` nodes, each resumed from the last's checkpoint:
    the count, the runs, and the searches finished after each."""
    saved = None
    runs = 0
    finished: list[int] = []
    while True:
        part = count_within(rows, cols, nodes=nodes, resume=saved, **board)
        runs += 1
        finished.append(part.finished)
        if part.done:
            return part.count, runs, finished
        assert part.nodes == runs * nodes  # the node budget is exact
        saved = part.checkpoint


@pytest.mark.parametrize(
    ("rows", "cols", "board"),
    [
        (5, 6, {}),
        (5, 5, {"start": (0, 0)}),
        (6, 6, {"closed": True}),
        (3, 7, {}),
        (4, 4, {}),  # no tour: nothing to walk
    ],
)
@pytest.mark.parametrize("nodes", [1, 7, 1000, 65_537, 300_000])
def test_stopped_at_any_node_limit_and_resumed_gives_the_walks_count(
    rows: int, cols: int, board: dict[str, Any], nodes: int
) -> None:
    if board.get("closed"):
        expected = count_closed(rows, cols, method="enumerate")
    else:
        expected = count_tours(rows, cols, method="enumerate", **board)
    if nodes < 1000 and expected > 2000:
        return  # (hundreds of thousands of runs)
    count, _, finished = in_pieces(nodes, rows, cols, **board)
    assert count == expected
    assert finished == sorted(finished)
    assert finished[-1] == len(walks(rows, cols, board.get("start"), bool(board.get("closed"))))


def test_the_count_so_far_only_grows_and_never_passes_the_whole() -> None:
    saved = None
    counts = []
    while True:
        part = count_within(5, 6, nodes=30_000, resume=saved)
        counts.append(part.count)
        if part.done:
            break
        saved = part.checkpoint
    assert counts == sorted(counts) and counts[-1] == 37568 and len(counts) > 10


def test_checkpoint_files_and_a_stop(tmp_path: Path) -> None:
    path = tmp_path / "walk.json"
    part = count_within(5, 6, nodes=50_000, checkpoint=path)
    assert json.loads(path.read_text()) == part.checkpoint
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    part = count_within(5, 6, checkpoint=path, resume=path, stop=stop)
    assert not part.done and 50_000 < part.nodes <= 50_000 + 2 * 65_536
    rest = count_within(5, 6, resume=path)
    assert rest.done and rest.count == 37568


def test_a_torn_altered_or_foreign_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "walk.json"
    count_within(5, 6, nodes=50_000, checkpoint=path)
    text = path.read_text()
    (tmp_path / "torn.json").write_text(text[:-30])
    with pytest.raises(CheckpointError, match=r"torn\.json:1:\d+: not a checkpoint"):
        count_within(5, 6, resume=tmp_path / "torn.json")
    record = json.loads(text)
    record["found"] = str(int(record["found"]) + 1)
    (tmp_path / "altered.json").write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match=r"altered\.json: does not match its sha256"):
        count_within(5, 6, resume=tmp_path / "altered.json")
    with pytest.raises(CheckpointError, match=r"walk\.json is a checkpoint of 5x6 open tours"):
        count_within(6, 5, resume=path)
    with pytest.raises(CheckpointError, match="not of 5x6 closed tours"):
        count_within(5, 6, closed=True, resume=path)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(CheckpointError, match="not overwriting"):
        count_within(5, 6, nodes=10, checkpoint=notes)
    assert notes.read_text() == "mine"


@pytest.mark.parametrize(("seconds", "nodes"), [(-1.0, None), (float("inf"), None), (None, 0)])
def test_bad_budgets(seconds: float | None, nodes: int | None) -> None:
    with pytest.raises(LazysearchError, match="count_within"):
        count_within(5, 5, seconds=seconds, nodes=nodes)


def test_cli_walk_exits_5_at_a_node_limit_and_resumes_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "walk.json")
    argv = ["knights", "5x6", "--count", "--method", "enumerate", "--node-limit", "100000"]
    assert main([*argv, "--checkpoint", path]) == 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "node limit reached after " in err
    assert "of 9 searches" in err and f"go on with --resume {path}" in err
    runs = 1
    while main([*argv, "--checkpoint", path, "--resume", path]) == 5:
        runs += 1
    assert runs == 4  # 412,034 nodes: stopped four times, then to the end
    assert capsys.readouterr().out.splitlines()[-1] == "37568"
    # Closed tours: cycles, and --directed counts each from every start both ways.
    closed = ["knights", "6", "--closed", "--count", "--method", "enumerate", "-q"]
    assert main([*closed, "--directed", "--node-limit", "10000000"]) == 0
    assert capsys.readouterr().out == f"{9862 * 72}\n"


def test_cli_walk_time_limit_exits_5(capsys: pytest.CaptureFixture[str]) -> None:
    # 6x6 open: 1.6 s of walking, the time looked at every 65,536 nodes.
    argv = ["knights", "6", "--count", "--method", "enumerate", "--time-limit", "0.001"]
    assert main(argv) == 5
    err = capsys.readouterr().err
    assert err.startswith("lazysearch knights: time limit of 0.001 s reached after ")
    assert "--checkpoint FILE saves the count" in err


def test_join_stops_where_tick_raises() -> None:
    from lazysearch.knights import join

    seen: list[str] = []

    def tick(where: str) -> None:
        seen.append(where)
        if where.startswith("crossing square 3"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        join.join_count(5, 6, tick=tick)
    assert seen[0] == "square 1 of 15 of the halves"
    assert seen[-1] == "crossing square 3 of 10"
    assert join.join_count(5, 6, tick=seen.append).count == 8


def test_cli_join_time_limit_exits_5(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # (its checkpoint: tests/test_knights_joinrun.py)
    argv = ["knights", "6x8", "--closed", "--count", "--method", "join"]
    assert main([*argv, "--time-limit", "0.001"]) == 5
    err = capsys.readouterr().err
    assert err.startswith("lazysearch knights: time limit of 0.001 s reached at ")
    assert "with no part yet counted" in err and "nothing is saved" not in err
    # With a checkpoint the line says plainly that the file holds nothing yet.
    run = str(tmp_path / "join.json")
    assert main([*argv, "--time-limit", "0.001", "--checkpoint", run]) == 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"counted (the count comes at the end); nothing is saved: {run} keeps only" in err
    small = ["knights", "5x6", "--closed", "--count", "--method", "join", "-q"]
    assert main([*small, "--time-limit", "600"]) == 0
    assert capsys.readouterr().out == "8\n"
    assert main([*argv, "--node-limit", "5"]) == 2
    assert "enters no nodes" in capsys.readouterr().err


def test_cli_open_join_with_a_time_limit_names_the_methods_that_stop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["knights", "5", "7", "--count", "--method", "join", "--time-limit", "9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "closed tours only" in err and "--method dp" in err


def test_cli_open_tours_auto_joined_still_take_every_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 5x7 open is joined by auto, which keeps no table and enters no nodes: a node
    # limit walks instead, a time limit takes the program.
    assert main(["knights", "5", "7", "--count", "--node-limit", "1000", "-q"]) == 5
    assert "node limit reached" in capsys.readouterr().err
    assert main(["knights", "5", "7", "--count", "--time-limit", "0.001", "-q"]) == 5
    assert "reached after square" in capsys.readouterr().err  # the program's words
