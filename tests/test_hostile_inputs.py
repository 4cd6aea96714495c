"""Hostile inputs: every reader answers a result or a ParseError with its place, and
the command line answers one line on stderr with its own exit status, never a traceback.

The inputs are generated here (none copied from shared data): a corpus of known bad
inputs per reader with the one-line error each must give, a megabyte-long adversarial
line per format (each reader is linear: a quadratic one took 33 s on 40 KB), and a
hypothesis fuzzer per reader.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazysearch import cli, kakuro, longrun, sudoku
from lazysearch.cli import limits, main
from lazysearch.cli.commands import queens
from lazysearch.errors import CheckpointError, LazysearchError, ParseError, TooLargeError
from lazysearch.exactcover import knuth
from lazysearch.puzzles import sudoku_grid

MB = 2**20

# -- the command line --------------------------------------------------------------------


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    """The one line of a failed run (and that it is one line, with no traceback)."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "status", "expected"),
    [
        (["queens", "99999999999999999999"], 3, "the engine numbers them in 32 bits"),
        (["queens", "46341", "--count"], 3, "a 46341x46341 board has 2,147,488,281 squares"),
        (["knights", "46341", "--one"], 3, "a 46341x46341 board has 2,147,488,281 squares"),
        (["knights", "3x1000000000", "--one"], 3, "the engine numbers them in 32 bits"),
        (["langford", "99999999999", "--count"], 3, "the engine numbers them in 32 bits"),
        (["queens", "8", "--limit", "9" * 20], 2, "--limit 99999999999999999999 is beyond"),
        (["queens", "8", "--nth", "9" * 20], 2, "--nth 99999999999999999999 is beyond"),
        (["queens", "8", "--count", "--workers", "9" * 17], 2, "would start 99,999,999,"),
    ],
)
def test_sizes_beyond_the_engines_are_refused_up_front(
    argv: list[str], status: int, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    got, out, err = run_cli(argv, capsys)
    assert (got, out) == (status, "")
    assert expected in one_line(err)


def test_a_board_larger_than_memory_is_refused_with_its_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 10**9)
    got, out, err = run_cli(["queens", "10000", "--count"], capsys)
    assert (got, out) == (cli.EXIT_TOO_LARGE, "")
    assert "10000-queens would take about 30.0 GB of memory" in one_line(err)
    assert "1.0 GB available" in err
    got, out, err = run_cli(["langford", "2000", "--count"], capsys)
    assert (got, out) == (cli.EXIT_TOO_LARGE, "")
    assert "Langford pairs of order 2000 would take about 4.8 GB" in one_line(err)


@pytest.mark.parametrize("command", ["dlx", "sudoku", "kakuro"])
def test_an_input_larger_than_memory_is_refused_before_it_is_read_whole(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 10_000)  # <= 1,000 characters
    path = tmp_path / "big.txt"
    path.write_text("a " * 600)
    got, out, err = run_cli([command, str(path)], capsys)
    assert (got, out) == (cli.EXIT_TOO_LARGE, "")
    assert f"{path} is larger than" in one_line(err)


def test_an_endless_input_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    monkeypatch.setattr(limits, "available_memory", lambda: 10**8)
    got, _, err = run_cli(["dlx", "/dev/zero"], capsys)
    assert got == cli.EXIT_TOO_LARGE
    assert "/dev/zero is larger than 1,000,000 characters" in one_line(err)


def test_a_checkpoint_in_a_missing_folder_is_refused_before_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missing" / "r.json"
    got, out, err = run_cli(["queens", "8", "--count", "--checkpoint", str(path)], capsys)
    assert (got, out) == (cli.EXIT_BAD_INPUT, "")  # no count: the search never ran
    assert f"cannot write {path}: there is no folder {path.parent}" in one_line(err)


@pytest.mark.parametrize(
    ("text", "fmt", "expected"),
    [
        ("[1,2,3]", "janko-json", ":1:1: not a collection: no 'data' object"),
        ("{}", "janko-json", ":1:1: not a collection: no 'data' object"),
        ('{"data": 7}', "janko-json", ":1:1: not a collection: no 'data' object"),
        (
            '{"rows":3,"cols":3,"runs":[{"dir":"h","r":1,"c":0,"len":2,"sum":4}],'
            '"givens":[[[1],2,3]]}',
            None,
            ":1:1: given [[1], 2, 3] is not [row, col, digit]",
        ),
        ('{"rows":3,"cols":3,"runs":[],"givens":7}', None, "'givens' is 7, not a list"),
        ("[" * 100_000 + "]" * 100_000, None, ":1:65: JSON nested more than 64 deep"),
        ('{"a": "[[[[\\"", "b": ' + "[" * 5000, None, "JSON nested more than 64 deep"),
        ("[]", None, "no puzzle in it"),
        ("0\n", "algospot", "no puzzle in it"),
        ("\\ \\\n\\ \\\n", None, "a 2x2 grid with no white cell: nothing to fill"),
    ],
)
def test_kakuro_files_that_broke_the_command_line(
    text: str,
    fmt: str | None,
    expected: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "k.txt"
    path.write_text(text)
    argv = ["kakuro", str(path)] + (["--input-format", fmt] if fmt else [])
    got, out, err = run_cli(argv, capsys)
    assert (got, out) == (cli.EXIT_BAD_INPUT, "")
    assert expected in one_line(err)


@pytest.mark.parametrize(
    ("exc", "status", "expected"),
    [
        (MemoryError(), 3, "out of memory: the problem is too large for this machine"),
        (RecursionError("deep"), 3, "the input is nested too deeply to read"),
        (OverflowError("int too big"), 3, "a number is too large for the engine (int too big)"),
        (TypeError("a\nbug"), 4, "internal error (TypeError: a bug); please report it"),
        (KeyError("data"), 4, "internal error (KeyError: 'data'); please report it"),
    ],
)
def test_every_other_failure_is_one_line_with_its_own_status(
    exc: BaseException,
    status: int,
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def fail(*args: Any) -> int:
        raise exc

    monkeypatch.delenv("LAZYSEARCH_TRACEBACK", raising=False)
    monkeypatch.setattr(queens, "run", fail)
    got, out, err = run_cli(["queens", "4"], capsys)
    assert (got, out) == (status, "")
    assert one_line(err) == f"lazysearch queens: error: {expected}"


def test_the_exit_statuses_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for status in ("0 done", "1 no such solution", "2 bad input", "3 too large", "4 internal"):
        assert status in help_text


# -- run files ---------------------------------------------------------------------------


def _run_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    path = tmp_path / "run.json"
    assert main(["queens", "6", "--limit", "2", "-q", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    record: dict[str, Any] = json.loads(path.read_text())
    return record


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("search", "solutions", 2**63 - 1), "search.solutions = 9223372036854775807"),
        (("search", "nodes", 2**63), "search.nodes = 9223372036854775808"),
        ((None, "found", 2**62 + 1), "found = 4611686018427387905"),
        (("search", "position", [2**31]), "search.position[0] = 2147483648"),
        (("search", "prefix", [2**40]), "search.prefix[0] = 1099511627776"),
    ],
)
def test_run_file_numbers_are_range_checked(
    change: tuple[str | None, str, Any],
    expected: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = _run_file(tmp_path, capsys)
    where, key, value = change
    (record[where] if where else record)[key] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(longrun.seal(record)))  # checked beyond its digest
    with pytest.raises(CheckpointError, match="out of range") as caught:
        longrun.load(path, command="queens", mode="list")
    assert expected in str(caught.value)
    got, out, err = run_cli(["queens", "6", "--limit", "3", "--resume", str(path)], capsys)
    assert (got, out) == (cli.EXIT_BAD_INPUT, "")
    assert expected in one_line(err)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 100_000, "not a lazysearch run file (nested too deeply)"),
        ('{"found": ' + "9" * 5000 + "}", "not a lazysearch run file (Exceeds the limit"),
    ],
)
def test_hostile_run_files(text: str, expected: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CheckpointError, match=r"bad\.json: ") as caught:
        longrun.load(path, command="queens", mode="list")
    assert expected in str(caught.value)


# -- readers: a corpus of bad inputs, each with its one-line error ----------------------

Reader = Callable[[str], object]


def _kakuro(fmt: str | None) -> Reader:
    return lambda text: kakuro.loads(text, format=fmt)


READERS: dict[str, Reader] = {
    **{fmt: _kakuro(fmt) for fmt in kakuro.FORMATS},
    "kakuro-detect": _kakuro(None),
    "sudoku": sudoku.loads,
    "dlx": knuth.parse,
}

#: (reader, text, line, column, part of the message)
CORPUS: list[tuple[str, str, int, int, str]] = [
    ("dzn", "h = 1; w = 1; grid_data = [1];" + "a" * 40_000, 1, 1, "no 'h_clue = ...;'"),
    ("dzn", "h=1;w=1;grid_data=[1];h_clue=[1,1,1," + "9" * 5000 + "];v_clue=[];", 1, 37, ""),
    ("dzn", "h = 2;\nw = ²;", 1, 1, "no 'grid_data = ...;'"),
    ("grid", "\\ 3\\ 4\\\n\\٣ _ _\n", 2, 1, "cell token '\\\\٣' is not"),
    ("grid", "\\ ٣\\\n\\ _\n", 1, 3, "cell token '٣\\\\' is not"),
    ("grid", "\\ " + "4" * 5000 + "\\\n\\ _\n", 1, 3, "(5,000 digits) is too large"),
    ("grid", "\\ \\\n\\ \\\n", 0, 0, "a 2x2 grid with no white cell: nothing to fill"),
    ("janko", "1 ٣\n-\n", 1, 1, "is not the grid's size"),
    ("janko", "1 " + "1" * 5000 + "\n-\n", 1, 1, "(5,000 digits) is too large"),
    ("prop", "1,1\nC" + "1" * 5000 + "\n", 2, 1, "(5,000 digits) is too large"),
    ("algospot", "1\n" + "2" * 5000 + "\n", 2, 1, "(5,000 digits) is too large"),
    ("json", '{"rows": ' + "1" * 5000 + ', "cols": 1, "runs": []}', 1, 1, "(5,000 digits)"),
    ("json", '{"rows": 2, "cols": 2, "runs": [], "givens": [[0, 0, "9"]]}', 1, 1, "given"),
    ("json", "[" * 10_000, 1, 65, "JSON nested more than 64 deep"),
    ("pycsp3", '{"nRows": ' + "[" * 10_000, 1, 74, "JSON nested more than 64 deep"),
    ("janko-json", "[1, 2, 3]", 1, 1, "no 'data' object of named puzzles"),
    ("janko-json", '{"data": {"a": {"problem": "1 1\\n٣\\n"}}}', 2, 1, "cell token '٣'"),
    ("board-json", '{"board": [[' + "9" * 5000 + "]]}", 1, 1, "board value 9999999999"),
    ("janko-json", '{"data": {"' + "n" * 5000 + '": {"problem": "1 1\\nx\\n"}}}', 2, 1, "#nnnn"),
    ("sudoku", "٣" + "." * 80, 1, 1, "'٣' is not a value of a 9x9 sudoku"),
    ("sudoku", "٣\n" + "." * 81, 1, 2, "a puzzle line has a square number of cells"),
    ("sudoku", "² 1 2 3\n1 2 3 4\n1 2 3 4\n1 2 3 4\n", 1, 1, "'²' is not a value of a 4x4"),
    ("sudoku", "." * 40_000, 1, 1, "a puzzle line of 40,000 cells is larger than the 35x35"),
    ("dlx", "a b\x00c\na\n", 1, 4, "'b\\x00c' has a character that is not printable (U+0000)"),
    ("dlx", "a\na\x07\n", 2, 2, "(U+0007)"),
]


@pytest.mark.parametrize(("reader", "text", "line", "column", "expected"), CORPUS)
def test_hostile_corpus(reader: str, text: str, line: int, column: int, expected: str) -> None:
    with pytest.raises(LazysearchError) as caught:
        READERS[reader](text)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    assert expected in message
    if line:
        assert isinstance(caught.value, ParseError)
        assert (caught.value.line, caught.value.column) == (line, column)


def test_empty_collections_read_as_no_puzzles() -> None:
    # Deliberate: an empty list is a collection of no puzzles for the library; the
    # command line refuses it ("no puzzle in it", exit status 2; tested above).
    assert kakuro.loads("[]") == []
    assert kakuro.loads("0\n", format="algospot") == []


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ((-3, -3), "box must be (rows, columns), two whole numbers >= 1; got (-3, -3)"),
        ((-1, -9), "box must be (rows, columns), two whole numbers >= 1; got (-1, -9)"),
        ((3, 3.0), "got (3, 3.0)"),
        ((True, 9), "got (True, 9)"),
        ((3,), "got (3,)"),
        ("33", "got '33'"),
        ((2, 3), "boxes of 2x3 do not tile a 9x9 grid"),
    ],
)
def test_sudoku_box_is_checked_at_the_call(box: Any, expected: str) -> None:
    with pytest.raises(sudoku.SudokuError) as caught:
        sudoku.solve("." * 81, box=box)
    assert expected in str(caught.value)
    with pytest.raises(sudoku.SudokuError):
        sudoku.render(((1,) * 9,) * 9, box=box)


def test_sudoku_lists_are_checked() -> None:
    with pytest.raises(sudoku.SudokuError, match="at least one row"):
        sudoku.solve([])


def test_sudoku_grid_larger_than_memory_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sudoku_grid, "_available_memory", lambda: 10**9)
    with pytest.raises(TooLargeError, match=r"a 200x200 sudoku has up to 8,000,000 options"):
        sudoku.solve([[0] * 200 for _ in range(200)])


# -- readers are linear: a megabyte adversarial line per format -------------------------

#: (reader, a line of about 1 MB built to make a backtracking pattern or a per-offset
#: count go quadratic, the (line, column) of the error it must give)
ADVERSARIAL: list[tuple[str, str, tuple[int, int] | None]] = [
    ("grid", "\\ " + "\\" * MB + "x", (1, 3)),
    ("pipe", "|" + "1" * MB + "\\x|", (1, 2)),
    ("csv", "1" * MB + "\\,x", (1, 1)),
    ("janko", "1 1\n" + "1" * MB + ",,", (2, 1)),
    ("prop", "1,1\nC" + "1" * MB + "F", (2, 1)),
    ("algospot", "1\n" + "1 " * (MB // 2), (2, 7)),  # the clue "1 1 1 1" on a white cell
    ("dzn", "grid_data = [1];" + "a" * MB, (1, 1)),
    ("dzn", "h=1;w=1;grid_data=[" + "1,\n" * (MB // 3) + "];h_clue=[];v_clue=[];", (1, 9)),
    ("json", "[" * MB, (1, 65)),
    ("json", '{"rows": 1, "cols": 1, "runs": [' + '{"dir": "h"}, ' * (MB // 14) + "{}]}", (1, 33)),
    ("json", "[" + ", ".join(["{}"] * (MB // 4)) + "]", (1, 2)),
    (
        "pycsp3",
        '{"nRows": 1, "nCols": 1, "clues": [' + ",".join(["[{}]"] * (MB // 5)) + "]}",
        (1, 1),
    ),
    ("janko-json", '{"data": {"a": {"problem": "1 1\\n' + "1" * MB + '"}}}', (2, 1)),
    ("board-json", '{"board": [[' + "1," * (MB // 2) + "1]]}", None),  # no places kept
    ("sudoku", "1 " * (MB // 2), (1, 1)),
    ("sudoku", "." * MB, (1, 1)),
    ("dlx", "a " * (MB // 2) + "\n" + "a " * (MB // 2), (1, 3)),  # 'a' named twice
]


def _finishes(call: Callable[[], object], seconds: float = 120) -> BaseException | None:
    """Run ``call`` in a thread; its exception, or a failure if it has not finished
    within ``seconds`` (a safety net: a linear reader takes well under a second)."""
    outcome: list[BaseException | None] = []

    def target() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as exc:  # handed back to the test
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"the reader did not finish in {seconds} s"
    return outcome[0]


@pytest.mark.parametrize(("reader", "text", "place"), ADVERSARIAL)
def test_a_megabyte_adversarial_line_is_read_in_linear_time(
    reader: str, text: str, place: tuple[int, int] | None
) -> None:
    assert len(text) >= MB // 2
    exc = _finishes(lambda: READERS[reader](text))
    assert isinstance(exc, LazysearchError), exc
    assert len(str(exc)) < 300
    if place is not None:
        assert isinstance(exc, ParseError), exc
        assert (exc.line, exc.column) == place


# -- fuzzing: a result or a LazysearchError with a place, never another exception -------

SAMPLES: dict[str, str] = {
    "grid": "\\ 4\\ 3\\\n\\3 1 2\n\\4 3 1\n",
    "pipe": "|x|4\\|3\\|\n|\\3|-|-|\n|\\4|-|-|\n",
    "csv": "\\,4\\,3\\\n\\3,,\n\\4,,\n",
    "janko": "3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n",
    "prop": "3,3\n*,C4,C3\nF3,?,?\nF4,?,?\n",
    "algospot": "1\n3\n0 0 0\n0 1 1\n0 1 1\n4\n2 1 0 3\n3 1 0 4\n1 2 1 4\n1 3 1 3\n",
    "dzn": "h = 3; w = 3;\ngrid_data = [0,0,0, 0,1,1, 0,1,1];\n"
    "h_clue = [|2,1,2,3|3,1,2,4|];\nv_clue = [|1,2,2,4|1,3,2,3|];\n",
    "pycsp3": '{"nRows": 3, "nCols": 3, "clues": [[{"x": -1, "y": -1}, {"x": -1, "y": 4}, '
    '{"x": -1, "y": 3}], [{"x": 3, "y": -1}, {"x": 0, "y": 0}, {"x": 0, "y": 0}], '
    '[{"x": 4, "y": -1}, {"x": 0, "y": 0}, {"x": 0, "y": 0}]]}',
    "json": '{"rows": 3, "cols": 3, "runs": [{"dir": "h", "r": 1, "c": 0, "len": 2, '
    '"sum": 3}, {"dir": "h", "r": 2, "c": 0, "len": 2, "sum": 4}, {"dir": "v", "r": 0, '
    '"c": 1, "len": 2, "sum": 4}, {"dir": "v", "r": 0, "c": 2, "len": 2, "sum": 3}], '
    '"givens": [[1, 1, 1]]}',
    "janko-json": '{"data": {"a": {"problem": "3 3\\n- 4, 3,\\n,3 0 0\\n,4 0 0\\n"}}}',
    "board-json": '{"board": [[-1, 40, 30], [3000, 0, 0], [4000, 0, 0]]}',
    "kakuro-detect": "\\ 4\\ 3\\\n\\3 _ _\n\\4 _ _\n",
    "sudoku": "1.3.........2.4.\n\n1 2 0 0\n0 0 1 2\n2 1 0 0\n0 0 2 1\n",
    "dlx": "| comment\na b c | d\na d:1\nb c\na b\nc d:2\n",
}

HOSTILE = '0123456789٣²\x00\n\t ,;|:[]{}"\\-_.%=#xXCF*?hvabc'


@st.composite
def mutations(draw: st.DrawFn, sample: str) -> str:
    """``sample`` with a few hostile edits: characters inserted, deleted or replaced,
    or a run of one repeated many times."""
    text = sample
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "digits"]))
        chunk = draw(st.text(alphabet=HOSTILE, min_size=1, max_size=4))
        if kind == "insert":
            text = text[:at] + chunk + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + len(chunk) :]
        elif kind == "replace":
            text = text[:at] + chunk + text[at + len(chunk) :]
        elif kind == "repeat":
            text = text[:at] + chunk * draw(st.integers(50, 3000)) + text[at:]
        else:
            text = text[:at] + "9" * draw(st.integers(10, 6000)) + text[at:]
    return text


@pytest.mark.parametrize("reader", sorted(SAMPLES))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_fuzzed_readers_answer_a_result_or_a_placed_error(reader: str, data: st.DataObject) -> None:
    READERS[reader](SAMPLES[reader])  # the sample itself reads
    text = data.draw(mutations(SAMPLES[reader]))
    try:
        READERS[reader](text)
    except ParseError as exc:
        assert exc.line >= 1 and exc.column >= 1
        assert "\n" not in str(exc) and len(str(exc)) < 400
    except LazysearchError as exc:  # a well-formed text of a bad puzzle: no place in it
        assert "\n" not in str(exc) and len(str(exc)) < 400


# -- threads: one stream read from several threads ---------------------------------------


@pytest.fixture(autouse=False)
def switch_often() -> Iterator[None]:
    """Threads switched every microsecond (not 5 ms), so that readers interleave inside
    a search of a few milliseconds: without the lock, these tests then fail nearly
    every time, compiled (solutions lost, repeated or ``()``) and plain (IndexError)."""
    import sys

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _read_together(readers: list[Callable[[], list[Any]]]) -> list[list[Any]]:
    """Run each reader in its own thread, all released at once by a barrier; their
    results (a reader's exception is raised here)."""
    barrier = threading.Barrier(len(readers))
    results: list[list[Any]] = [[] for _ in readers]
    failures: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = readers[i]()
        except BaseException as exc:  # handed back to the test
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(readers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return results


@pytest.mark.usefixtures("switch_often")
@pytest.mark.parametrize("threads", [2, 4])
def test_one_stream_read_from_several_threads_gives_each_solution_once(threads: int) -> None:
    from lazysearch import queens

    expected = queens(10).take(1000)  # 724 solutions
    stream = queens(10)
    parts = _read_together([lambda: list(stream)] * threads)
    got = [s for part in parts for s in part]
    assert len(got) == len(expected) == 724
    assert sorted(got) == sorted(expected)
    for part in parts:  # each reader saw its solutions in the search's order
        assert part == sorted(part, key=expected.index)


@pytest.mark.usefixtures("switch_often")
def test_streams_derived_from_one_search_share_its_solutions_across_threads() -> None:
    from lazysearch import queens

    expected = queens(8).take(100)
    stream = queens(8)
    evens = stream.filter(lambda s: s[0] % 2 == 0)
    parts = _read_together([lambda: list(stream), lambda: list(evens), lambda: stream.take(5)])
    got = [s for part in parts for s in part]
    assert len(got) == len(set(got))  # none twice
    assert set(got) <= set(expected)
    assert all(s[0] % 2 == 0 for s in parts[1])
    # what the plain readers skipped is exactly what the filter dropped
    assert set(expected) - set(got) <= {s for s in expected if s[0] % 2}


class _SecondCtrlC:
    """A standard error whose first write is interrupted by a second Ctrl-C."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.interrupted = False

    def write(self, text: str) -> int:
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_a_second_ctrl_c_while_the_first_is_reported_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def first_ctrl_c(*args: Any) -> int:
        raise KeyboardInterrupt

    stderr = _SecondCtrlC()
    monkeypatch.setattr(queens, "run", first_ctrl_c)
    monkeypatch.setattr("sys.stderr", stderr)
    try:
        status = main(["queens", "4"])
    except KeyboardInterrupt:  # as a script, a traceback
        pytest.fail("the second Ctrl-C escaped main()")
    assert status == cli.EXIT_INTERRUPTED
    assert stderr.interrupted
    assert "".join(stderr.lines) == "lazysearch: interrupted\n"


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("position", [2**31], "position must be a list of integers 0 to 2**31-1"),
        ("prefix", [2**40], "prefix must be a list of integers 0 to 2**31-1"),
        ("solutions", 2**63 - 1, "solutions must be an integer 0 to 2**62"),
        ("nodes", 2**64, "nodes must be an integer 0 to 2**62"),
    ],
)
def test_search_resume_range_checks_a_checkpoint(key: str, value: Any, expected: str) -> None:
    from lazysearch import queens

    stream = queens(6)
    stream.take(1)
    checkpoint = {**stream.checkpoint(), key: value}
    with pytest.raises(CheckpointError, match=expected.replace("*", r"\*")):
        queens(6).resume(checkpoint)
