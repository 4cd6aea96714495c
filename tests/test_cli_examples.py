"""Every command line the README and the subcommands' --help show runs as written, from
the project's folder (the files they name are in examples/)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from lazysearch import compiled
from lazysearch.cli import build_parser, main
from lazysearch.cli.examples import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]

#: README lines that run for minutes: cut short by a limit (exit status 5, a partial).
CUT_SHORT = {"lazysearch knights 8 --closed --count --checkpoint 8x8.json": "--time-limit 1"}


def readme_lines() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("On the command line:\n\n```\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.startswith("lazysearch ")]


def run_line(line: str, where: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    (where / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(where)
    argv = shlex.split(line, comments=True)
    assert argv[0] == "lazysearch"
    extra = CUT_SHORT.get(" ".join(argv))
    try:
        return main(argv[1:] + (extra.split() if extra else []))
    except SystemExit as exc:  # --version
        return int(exc.code or 0)


def test_the_readme_shows_commands_and_names_files_that_exist() -> None:
    lines = readme_lines()
    assert len(lines) >= 15
    for line in lines:
        for word in shlex.split(line, comments=True):
            if re.search(r"\.(dlx|txt|kak)$", word):
                assert (ROOT / word).is_file(), f"{line}: {word} is not in the project"


#: The examples run as written on the compiled engines (the README's test command); as
#: plain Python several take a minute or more each, and CI's plain pass tests the engines.
needs_compiled = pytest.mark.skipif(not compiled(), reason="minutes as plain Python")


@needs_compiled
@pytest.mark.parametrize("line", readme_lines())
def test_each_readme_command_runs(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = 5 if " ".join(shlex.split(line, comments=True)) in CUT_SHORT else 0
    assert run_line(line, tmp_path, monkeypatch) == expected, capsys.readouterr().err


def _commands() -> list[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return sorted({p.prog.split()[-1] for p in sub.choices.values()})  # type: ignore[union-attr]


def test_every_subcommand_has_examples_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    commands = _commands()
    assert set(commands) == set(EXAMPLES)
    for command in commands:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = capsys.readouterr().out
        shown = help_text.split("\nexamples:\n", 1)[1].splitlines()
        assert len(shown) == len(EXAMPLES[command]) >= 2, command
        for line in shown:
            assert line.strip().startswith(f"lazysearch {command} "), line


@needs_compiled
@pytest.mark.parametrize("line", [line for lines in EXAMPLES.values() for line in lines])
def test_each_help_example_runs(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_line(line, tmp_path, monkeypatch) == 0, capsys.readouterr().err
