"""The command line's flags: pictures without --limit, -o, refused combinations, the
statistics of parallel runs, files of several puzzles, Ctrl-C, suggestions, --version."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import lazysearch
from lazysearch import langford, parallel, planning, polyomino, queens, sudoku
from lazysearch.cli import build_parser, main
from lazysearch.engine import registry

from .test_knuth import KNUTH_TEXT

FOUR = "1.3..........2.4"  # a 4x4 sudoku with one solution
KAKURO = '{"rows": 2, "cols": 3, "runs": [{"dir": "h", "r": 1, "c": 0, "len": 2, "sum": 7}, '
KAKURO += '{"dir": "v", "r": 0, "c": 1, "len": 1, "sum": 3}, '
KAKURO += '{"dir": "v", "r": 0, "c": 2, "len": 1, "sum": 4}]}'


def _status(argv: list[str]) -> int:
    """main(argv)'s exit status, argparse's own exits included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _nodes(err: str) -> int:
    found = re.search(r"(\d+) nodes", err)
    assert found, err
    return int(found.group(1))


# -- pictures ----------------------------------------------------------------------------------


def test_svg_draws_the_first_solution_without_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pentomino", "3x20", "--format", "svg", "-q"]) == 0
    first = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES).first()
    assert capsys.readouterr().out == first.svg()
    one = tmp_path / "one.txt"
    one.write_text(FOUR + "\n")
    assert main(["sudoku", str(one), "--format", "svg", "-q"]) == 0
    assert capsys.readouterr().out == sudoku.svg(sudoku.solve(FOUR).one(), puzzle=FOUR)
    assert main(["sudoku", str(one), "--format", "svg", "--limit", "1", "-q"]) == 0  # as before
    assert capsys.readouterr().out.startswith("<svg")


def test_nth_picks_the_solution_to_draw_or_print(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pentomino", "3x20", "--format", "svg", "--nth", "3", "-q"]) == 0
    third = polyomino.tile(polyomino.rectangle(3, 20), polyomino.PENTOMINOES).nth(2)
    assert capsys.readouterr().out == third.svg()
    assert main(["queens", "6", "--nth", "2", "--format", "json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "solution": 2,
        "columns": list(queens(6).nth(1)),
    }


def test_asking_for_a_solution_that_is_not_there_exits_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["queens", "6", "--nth", "5", "-q"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "lazysearch queens: there is no solution 5, only 4\n"
    assert main(["queens", "3", "--nth", "1", "-q"]) == 1


# -- -o / --output -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["dlx", "{knuth}"],
        ["dlx", "{knuth}", "--count"],
        ["queens", "6", "--format", "json"],
        ["queens", "8", "--estimate", "--seed", "3", "--samples", "50"],
        ["langford", "7", "--limit", "3"],
        ["pentomino", "3x20", "--format", "svg"],
        ["knights", "5", "--start", "0,0", "--limit", "2"],
        ["knights", "30", "--one", "--format", "svg"],
        ["knights", "6", "--closed", "--count"],
        ["sudoku", "{sudoku}", "--count"],
        ["kakuro", "{kakuro}"],
        ["kakuro", "{kakuro}", "--convert", "grid"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_output_file_holds_what_stdout_would(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "knuth": tmp_path / "k.dlx",
        "sudoku": tmp_path / "s.txt",
        "kakuro": tmp_path / "k.json",
    }
    files["knuth"].write_text(KNUTH_TEXT)
    files["sudoku"].write_text(f"{FOUR}\n{'.' * 16}\n")
    files["kakuro"].write_text(KAKURO)
    argv = [a.format(**files) for a in argv] + ["-q"]
    assert main(argv) == 0
    expected = capsys.readouterr().out
    target = tmp_path / "out" / "result.txt"
    target.parent.mkdir()
    assert main([*argv, "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert expected and target.read_text() == expected
    assert os.listdir(target.parent) == ["result.txt"]  # no temporary file left


def test_output_is_replaced_only_on_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{FOUR}\n11..............\n")  # the second puzzle is bad
    target = tmp_path / "result.txt"
    target.write_text("precious\n")
    target.chmod(0o640)
    assert main(["sudoku", str(puzzles), "-q", "-o", str(target)]) == 2
    assert "p.txt:2:" in capsys.readouterr().err
    assert target.read_text() == "precious\n"
    assert main(["queens", "6", "--nth", "9", "-q", "-o", str(target)]) == 1
    assert target.read_text() == "precious\n"
    assert sorted(os.listdir(tmp_path)) == ["p.txt", "result.txt"]
    assert main(["queens", "6", "--count", "-q", "-o", str(target)]) == 0
    assert target.read_text() == "4\n"
    assert target.stat().st_mode & 0o777 == 0o640  # the file it replaced kept its mode
    fresh = tmp_path / "fresh.txt"
    assert main(["queens", "6", "--count", "-q", "-o", str(fresh), "--every", "2"]) == 2
    assert not fresh.exists()


@pytest.mark.parametrize(
    ("where", "words"),
    [("missing/out.txt", "cannot write"), (".", "it is a folder")],
)
def test_an_output_that_cannot_be_written_is_one_line(
    where: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["queens", "5", "-o", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


# -- refused combinations ----------------------------------------------------------------------

#: Every combination the command line refuses: options that would be ignored, or that
#: contradict each other.  (argv, words of the one-line error)
REFUSED = [
    (["knights", "8", "--one", "--count"], "--one finds one tour"),
    (["knights", "8", "--one", "--limit", "2"], "--one finds one tour"),
    (["knights", "8", "--one", "--nth", "2"], "--one finds one tour"),
    (["knights", "8", "--one", "--every", "2"], "--one finds one tour"),
    (["knights", "8", "--one", "--workers", "2"], "--one finds one tour"),
    (["knights", "8", "--one", "--estimate"], "--one finds one tour"),
    (["knights", "8", "--one", "--closed", "--count", "--directed"], "--one finds one tour"),
    (["knights", "8", "--one", "--checkpoint", "r.json"], "this command runs none"),
    (["knights", "8", "--one", "--resume", "r.json"], "this command runs none"),
    (["knights", "8", "--one", "--progress"], "this command runs none"),
    (["knights", "8", "--one", "--scheduler", "tcp://x:1"], "this command runs none"),
    (["knights", "5", "--directed"], "give all three"),
    (["knights", "5", "--closed", "--directed"], "give all three"),
    (["knights", "6", "--closed", "--count", "--start", "0,0"], "add --directed"),
    (["knights", "5", "--count", "--progress"], "counting tours by symmetry shows no bar"),
    (["kakuro", "{kakuro}", "--convert", "grid", "--count"], "--convert prints the puzzles"),
    (["kakuro", "{kakuro}", "--convert", "grid", "--limit", "1"], "--convert prints"),
    (["kakuro", "{kakuro}", "--convert", "grid", "--workers", "2"], "--convert prints"),
    (["kakuro", "{kakuro}", "--convert", "grid", "--format", "json"], "leave out --format"),
    (["kakuro", "{kakuro}", "--convert", "json", "--checkpoint", "r.json"], "runs none"),
    (["queens", "8", "--estimate", "--count"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--limit", "3"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--nth", "3"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--every", "3"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--workers", "2"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--checkpoint", "r.json"], "--estimate samples the tree"),
    (["queens", "8", "--estimate", "--resume", "r.json"], "leave out --resume"),
    (["pentomino", "3x20", "--estimate", "--format", "svg"], "not a picture"),
    (["queens", "8", "--samples", "10"], "--samples and --seed are for --estimate"),
    (["queens", "8", "--seed", "1"], "--samples and --seed are for --estimate"),
    (["queens", "8", "--count", "--every", "2"], "--count prints a number"),
    (["queens", "8", "--count", "--nth", "2"], "--count prints a number"),
    (["pentomino", "3x20", "--count", "--format", "svg"], "--count prints a number"),
    (["queens", "8", "--nth", "2", "--limit", "5"], "--nth N prints the N-th solution alone"),
    (["queens", "8", "--nth", "2", "--every", "5"], "--nth N prints the N-th solution alone"),
    (["pentomino", "3x20", "--format", "svg", "--limit", "2"], "choose it with --nth N"),
    (["pentomino", "3x20", "--format", "svg", "--every", "2"], "choose it with --nth N"),
    (["sudoku", "{sudoku}", "--format", "svg"], "draws one solution, and"),
    (["queens", "8", "--scheduler", "tcp://x:1", "--progress"], "--progress follows one"),
    (["queens", "8", "--checkpoint-every", "3"], "--checkpoint-every needs --checkpoint"),
    (["queens", "8", "--count", "--progress", "--workers", "2"], "--progress follows one"),
    (["queens", "8", "--checkpoint", "r.json", "-o", "r.json"], "-o names a file this run"),
    (["sudoku", "{sudoku}", "-o", "{sudoku}"], "-o names a file this run"),
    (["sudoku", "{sudoku}", "--checkpoint", "r.json"], "--checkpoint follows one search"),
]


@pytest.mark.parametrize(("argv", "words"), REFUSED, ids=lambda v: " ".join(v[1:]))
def test_ignored_or_contradictory_flags_are_refused(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"sudoku": tmp_path / "s.txt", "kakuro": tmp_path / "k.json"}
    files["sudoku"].write_text(f"{FOUR}\n{'.' * 16}\n")
    files["kakuro"].write_text(KAKURO)
    argv = [a.format(**files) for a in argv]
    argv = [str(tmp_path / a) if a == "r.json" else a for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1, err
    assert err.startswith(f"lazysearch {argv[0]}: error: ")
    assert not (tmp_path / "r.json").exists()


def test_estimate_and_count_print_json_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "8", "--estimate", "--format", "json", "--seed", "1"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert est["samples"] == 1000 and 40 < est["solutions"] < 150
    assert set(est) == {
        *("samples", "nodes", "nodes_stderr", "solutions", "solutions_stderr"),
        *("probes_with_solutions", "reliable"),
    }
    assert est["reliable"] is True and est["probes_with_solutions"] > 100
    assert main(["queens", "8", "--estimate", "--format", "json", "--samples", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes_stderr"] is None  # not Infinity
    assert main(["queens", "8", "--count", "--format", "json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out) == {"count": 92}
    assert main(["knights", "5", "--count", "--format", "json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out) == {"count": 1728, "unit": "directed tours"}


# -- statistics with --workers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        # cut below its leaves: the split walks it all (enumerated: alone, auto's memo
        # probe would finish this count in fewer nodes than the walk)
        ["queens", "6", "--count", "--method", "enumerate"],
        ["queens", "9", "--count"],
        ["langford", "8", "--count"],
        ["queens", "7"],  # listing
        ["knights", "5", "--start", "0,0", "--limit", "100000"],
        ["sudoku", "{sudoku}", "--count"],
    ],
)
def test_workers_report_the_nodes_one_process_walks(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "s.txt"
    empty.write_text("." * 16 + "\n")
    argv = [a.format(sudoku=empty) for a in argv]
    assert main(argv) == 0
    one = capsys.readouterr()
    assert main([*argv, "--workers", "2"]) == 0
    two = capsys.readouterr()
    assert two.out == one.out
    assert _nodes(two.err) == _nodes(one.err)


def _walks() -> list[Any]:
    return [lambda: queens(9), lambda: langford(8), lambda: lazysearch.knights.tours(5)]


@pytest.mark.parametrize("make", _walks(), ids=["queens", "langford", "knights"])
@pytest.mark.parametrize("depth", [None, 1, 2, 4])
def test_parallel_nodes_equal_a_plain_walks_at_any_split(make: Any, depth: int | None) -> None:
    """The nodes above the split are counted by the walk that lists the subtrees, each
    subtree's from its root down, and the random probes that size them not at all."""
    alone = make()
    alone.count()
    with ThreadPoolExecutor(2) as pool:
        split = make()
        parallel.count(split.search, executor=pool, depth=depth)
        listed = make()
        assert len(list(parallel.iterate(listed.search, executor=pool, depth=depth))) == (
            alone.stats.solutions
        )
    assert split.stats[:2] == listed.stats[:2] == alone.stats[:2]  # nodes, solutions


@pytest.mark.parametrize("make", _walks(), ids=["queens", "langford", "knights"])
def test_parallel_nodes_are_exact_when_big_subtrees_are_split_again(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planning, "SMALL_TREE", 0)  # probe and split these small trees too
    alone = make()
    alone.count()
    split = make()
    split.count(workers=2)
    assert split.stats[:2] == alone.stats[:2]


@pytest.mark.parametrize("budget", [1, 2, 7, 40, 333, 900])
@pytest.mark.parametrize("depth", [1, 3, 5])
def test_a_count_under_way_adds_only_the_nodes_still_ahead(budget: int, depth: int) -> None:
    """Stopped anywhere (above, at or below the split), a plain walk and a parallel
    count of the rest end with the same counters."""
    alone, split = queens(8), queens(8)
    for stream in (alone, split):
        stream.search._engine.run(0, budget)  # stop before the budget-th next node
    alone.count()
    with ThreadPoolExecutor(2) as pool:
        parallel.count(split.search, executor=pool, depth=depth)
    assert split.stats[:2] == alone.stats[:2]


# -- files of puzzles ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["sudoku", "kakuro", "dlx"])
@pytest.mark.parametrize("text", ["", "\n\n", "{comment} only a comment\n"])
def test_an_empty_file_is_reported_by_every_command(
    command: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(text.format(comment="|" if command == "dlx" else "#"))  # Knuth's is |
    assert main([command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and re.search(r"\bno (puzzle|item)", err), err


def test_several_puzzles_are_labelled_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sudokus = tmp_path / "s.txt"
    sudokus.write_text(f"{FOUR}\n{'.' * 16}\n")
    kakuros = tmp_path / "k.json"
    kakuros.write_text(f"[{KAKURO},{KAKURO}]")
    assert main(["sudoku", str(sudokus), "--count", "-q"]) == 0
    assert capsys.readouterr().out == "puzzle 1: 1\npuzzle 2: 288\n"
    assert main(["kakuro", str(kakuros), "--count", "-q"]) == 0
    assert capsys.readouterr().out == f"puzzle 1 ({kakuros}#1): 1\npuzzle 2 ({kakuros}#2): 1\n"
    assert main(["sudoku", str(sudokus), "--count", "-q", "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"puzzle": 1, "count": 1}, {"puzzle": 2, "count": 288}]
    assert main(["kakuro", str(kakuros), "--count", "-q", "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"puzzle": n, "name": f"{kakuros}#{n}", "count": 1} for n in (1, 2)]
    assert main(["kakuro", str(kakuros), "--limit", "1", "-q"]) == 0
    assert capsys.readouterr().out.startswith(f"puzzle 1 ({kakuros}#1), solution 1:\n")


@pytest.mark.parametrize("several", [False, True])
def test_the_json_puzzle_field_is_its_number_everywhere(
    several: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sudokus = tmp_path / "s.txt"
    sudokus.write_text(f"{FOUR}\n{FOUR}\n" if several else f"{FOUR}\n")
    kakuros = tmp_path / "k.json"
    kakuros.write_text(f"[{KAKURO},{KAKURO}]" if several else KAKURO)
    for command, path in (("sudoku", sudokus), ("kakuro", kakuros)):
        assert main([command, str(path), "--format", "json", "-q"]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [line["puzzle"] for line in lines] == ([1, 2] if several else [1])


# -- Ctrl-C -------------------------------------------------------------------------------------


@contextlib.contextmanager
def _lazysearch(*argv: str) -> Iterator[subprocess.Popen[str]]:
    """A ``lazysearch`` process, killed on the way out if a failed check left it running."""
    run = subprocess.Popen(
        [sys.executable, "-m", "lazysearch", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # (SIGINT is not left ignored: see conftest.py)
    try:
        yield run
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()


def test_ctrl_c_says_what_was_found_and_that_checkpoints_exist() -> None:
    with _lazysearch("queens", "20") as run:  # 39 million solutions: far from done at once
        assert run.stdout is not None
        assert run.stdout.readline() == "1:\n"  # the first solution is out
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=120)
    assert run.returncode == 130
    assert "Traceback" not in err and err.count("\n") == 1, err
    found = re.fullmatch(
        r"lazysearch queens: interrupted after (\d+) solutions?, (\d+) nodes; "
        r"--checkpoint FILE saves a run to go on with --resume FILE\n",
        err,
    )
    assert found and int(found.group(1)) >= 1, err


def test_ctrl_c_leaves_no_output_file(tmp_path: Path) -> None:
    target = tmp_path / "tours.txt"
    with _lazysearch("queens", "20", "-o", str(target)) as run:
        deadline = time.monotonic() + 120
        while not any(p.stat().st_size for p in tmp_path.glob(".tours.txt.*.part")):
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)  # wait for the first solution to reach the temporary file
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=120)
    assert run.returncode == 130 and "Traceback" not in err
    assert "interrupted after" in err and f"({target} not written)" in err
    assert os.listdir(tmp_path) == []


# -- suggestions, help, version -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["queens", "8", "--cuont"], "(did you mean --count?)"),
        (["queens", "8", "--limt", "3"], "(did you mean --limit?)"),
        (["knights", "5", "--clsoed"], "(did you mean --closed?)"),
        (["kakuro", "x", "--input-fromat=csv"], "(did you mean --input-format?)"),
        (["sudokuu", "x"], "(did you mean sudoku?)"),
        (["kakuro", "x", "--convert", "jsn"], "(did you mean json?)"),
    ],
)
def test_an_unknown_flag_suggests_the_nearest(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _status(argv) == 2
    err = capsys.readouterr().err
    assert hint in err and err.count("\n") == 1, err


def test_a_far_unknown_flag_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    assert _status(["queens", "8", "--xyzzy"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --xyzzy" in err and "did you mean" not in err


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases: the same parser
                found.extend(_parsers(sub))
    return found


def test_every_argument_has_help() -> None:
    parsers = _parsers(build_parser())
    assert len(parsers) == 11  # lazysearch and its ten commands
    for parser in parsers:
        for action in parser._actions:
            name = "/".join(action.option_strings) or action.dest
            assert action.help and action.help != argparse.SUPPRESS, f"{parser.prog} {name}"
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"{parser.prog} {choice.dest}"


def test_version_says_which_engines_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert _status(["--version"]) == 0
    first, engines = capsys.readouterr().out.splitlines()
    assert first.startswith(f"lazysearch {lazysearch.__version__} (Python ")
    if lazysearch.compiled():
        first_engine = next(iter(registry.ENGINES)).removeprefix("lazysearch.")
        assert engines.startswith(f"engines: compiled C ({first_engine}, ")
    else:
        assert engines.startswith("engines: plain Python, slower (")
    for name in registry.ENGINES:
        assert name.removeprefix("lazysearch.") in engines


def test_version_in_plain_python_says_so() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "lazysearch", "--version"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "LAZYSEARCH_PURE": "1"},
    )
    first_engine = next(iter(registry.ENGINES)).removeprefix("lazysearch.")
    assert f"engines: plain Python, slower (LAZYSEARCH_PURE is set): {first_engine}, " in run.stdout


def test_the_command_line_imports_its_helpers_only_when_used() -> None:
    code = "import sys, lazysearch.cli; print({'difflib', 'tempfile', 'platform'} & {*sys.modules})"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "set()\n"
