"""The command line's exit statuses, as the README's table gives them: each case of
each status, from the subcommands that meet it."""

from __future__ import annotations

import pytest

from lazysearch.cli import EXIT_NO_SOLUTION, EXIT_TOO_LARGE, main
from lazysearch.cli.exits import EXIT_STATUSES


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["knights", "3", "--one"], "no open tour exists on 3x3"),
        (["knights", "4", "--one"], "no open tour exists on 4x4"),
        (["knights", "5", "--one", "--closed"], "needs an even number of squares"),
        (["queens", "8", "--nth", "93"], "there is no solution 93, only 92"),
        (["queens", "3", "--sample", "1"], "there is no solution to draw"),
        (["knights", "4", "--sample", "1"], "there is no open tour of 4x4"),
    ],
)
def test_no_such_solution_is_status_1(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_NO_SOLUTION
    assert words in capsys.readouterr().err


def test_a_count_whose_tables_outgrow_the_memory_is_too_large(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Refused at once (its table was measured past the machine's half): status 3, with
    # what the command line can do, not the Python keyword it has no option for.
    assert main(["knights", "8", "--count"]) == EXIT_TOO_LARGE
    err = capsys.readouterr().err
    assert "raise max_states" not in err
    assert "--estimate guesses the count instead" in err
    assert len(err.strip().splitlines()) == 1


def test_the_help_and_the_readme_give_the_same_cases() -> None:
    from pathlib import Path

    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    for case in ("--nth", "--sample", "--one", "--format svg"):
        assert case in EXIT_STATUSES
        assert f"`{case}`" in readme.split("1 no such solution")[1][:120]
