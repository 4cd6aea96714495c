"""``lazysearch --resume FILE`` alone resumes the command FILE records; a resume with
the wrong command or problem names the one that wrote the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazysearch.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_resume_alone_goes_on_with_the_recorded_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "r.json"
    argv = ("queens", "12", "--count", "-q", "--checkpoint", str(run))
    assert _run(capsys, *argv, "--node-limit", "1")[0] == 5
    assert json.loads(run.read_text())["argv"] == [*argv, "--node-limit", "1"]
    # Without the recorded limits (it goes on to the end), with new ones if given.
    status, out, err = _run(capsys, "--resume", str(run), "--node-limit", "1")
    assert (status, out) == (5, "") and "node limit reached" in err
    assert _run(capsys, "--resume", str(run)) == (0, "14200\n", "")
    assert _run(capsys, f"--resume={run}") == (0, "14200\n", "")


def test_resume_alone_a_listing_writes_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _run(capsys, "queens", "11", "-q")[1]
    run = tmp_path / "r.json"
    status, first, _ = _run(
        capsys, "queens", "11", "-q", "--checkpoint", str(run), "--node-limit", "1"
    )
    assert status == 5 and 0 < len(first) < len(whole)
    assert _run(capsys, "--resume", str(run)) == (0, whole[len(first) :], "")
    assert whole.startswith(first)


def test_resume_alone_of_a_file_without_a_command_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "r.json"
    assert _run(capsys, "queens", "8", "--count", "--checkpoint", str(run), "-q")[0] == 0
    record = json.loads(run.read_text())
    del record["argv"]
    run.write_text(json.dumps(record))
    status, out, err = _run(capsys, "--resume", str(run))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"{run} does not record the command that wrote it" in err
    run.write_bytes(b"\xff")
    status, _, err = _run(capsys, "--resume", str(run))
    assert status == 2 and f"{run}: not a lazysearch run file or checkpoint" in err
    status, _, err = _run(capsys, "--resume", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read" in err and err.count("\n") == 1


def test_a_resume_of_another_problem_names_the_command_that_wrote_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "r.json"
    assert (
        _run(capsys, "queens", "15", "--count", "--checkpoint", str(run), "--node-limit", "1")[0]
        == 5
    )
    status, out, err = _run(capsys, "queens", "14", "--count", "--resume", str(run))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "another problem" in err
    assert err.endswith("; this file was written by `lazysearch queens 15 --count`\n")
    status, _, err = _run(capsys, "langford", "4", "--resume", str(run))
    assert status == 2 and "written by `lazysearch queens 15 --count`" in err
    # The right problem: no such words.
    status, _, err = _run(
        capsys, "queens", "15", "--count", "--resume", str(run), "--node-limit", "1"
    )
    assert status == 5 and "this file was written by" not in err


def test_resume_alone_goes_on_with_a_counting_engines_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memo = tmp_path / "memo.json"
    argv = ("queens", "10", "--count", "-q", "--method", "memo", "--checkpoint", str(memo))
    assert _run(capsys, *argv, "--node-limit", "300")[0] == 5
    assert _run(capsys, "--resume", str(memo)) == (0, "724\n", "")
    status, _, err = _run(
        capsys, "queens", "9", "--count", "--method", "memo", "--resume", str(memo)
    )
    assert status == 2 and "another problem" in err
    assert err.endswith(
        "; this file was written by `lazysearch queens 10 --count -q --method memo`\n"
    )
