"""``lazysearch graph FILE`` and ``lazysearch knights --leaper/--board``: what they print,
checked by a verifier of its own (every printed cycle or path a real one, none twice),
and one line with its exit status for each kind of bad input."""

from __future__ import annotations

import itertools
import json
from collections.abc import Hashable, Iterable
from pathlib import Path

import pytest

from lazysearch import graphs
from lazysearch.cli import main

Edges = set[frozenset[Hashable]]


def dodecahedron() -> list[tuple[int, int]]:
    """The dodecahedron's 30 edges on vertices 1..20 (30 Hamiltonian cycles)."""
    outer = [(i, i % 5 + 1) for i in range(1, 6)]
    spokes = [(i, i + 5) for i in range(1, 6)]
    middle = [(6 + i, 11 + i) for i in range(5)] + [(11 + i, 6 + (i + 1) % 5) for i in range(5)]
    inner = [(16 + i, 16 + (i + 1) % 5) for i in range(5)]
    rungs = [(11 + i, 16 + i) for i in range(5)]
    return outer + spokes + middle + inner + rungs


def write_col(path: Path, n: int, edges: Iterable[tuple[int, int]]) -> Path:
    edges = list(edges)
    lines = "".join(f"e {u} {v}\n" for u, v in edges)
    path.write_text(f"c test\np edge {n} {len(edges)}\n{lines}")
    return path


def grid_lines(rows: int, cols: int) -> str:
    return "".join(
        f"{r}-{c} {r + dr}-{c + dc}\n"
        for r in range(rows)
        for c in range(cols)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < rows and c + dc < cols
    )


def edge_set(edges: Iterable[tuple[Hashable, Hashable]]) -> Edges:
    return {frozenset(e) for e in edges}


def verify(
    found: list[tuple[Hashable, ...]], vertices: set[Hashable], edges: Edges, closed: bool
) -> None:
    """Each is every vertex once, each step an edge (and back, closed); none twice, a
    cycle counted up to rotation and reversal, a path up to reversal."""
    seen = set()
    for walk in found:
        assert len(walk) == len(vertices) and set(walk) == vertices, walk
        steps = list(itertools.pairwise(walk)) + ([(walk[-1], walk[0])] if closed else [])
        assert all(frozenset(step) in edges for step in steps), walk
        if closed:
            at = walk.index(min(walk, key=str))
            turned = walk[at:] + walk[:at]
            key = min(turned, (turned[0], *turned[:0:-1]))
        else:
            key = min(walk, walk[::-1])
        assert key not in seen, walk
        seen.add(key)


def printed(out: str, numbers: bool = False) -> list[tuple[Hashable, ...]]:
    """The walks of text lines 'n: v v v'."""
    walks = []
    for n, line in enumerate(out.splitlines(), start=1):
        head, _, rest = line.partition(": ")
        assert head == str(n)
        words = rest.split()
        walks.append(tuple(int(w) for w in words) if numbers else tuple(words))
    return walks


def test_cycles_of_a_dimacs_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_col(tmp_path / "dodecahedron.col", 20, dodecahedron())
    assert main(["graph", str(path), "--cycles"]) == 0
    out, err = capsys.readouterr()
    cycles = printed(out, numbers=True)
    assert len(cycles) == 30
    verify(cycles, set(range(1, 21)), edge_set(dodecahedron()), closed=True)
    assert err.startswith("30 solutions, ")
    assert main(["graph", str(path), "--cycles", "--count"]) == 0
    out, err = capsys.readouterr()
    assert out == "30\n"


def test_paths_of_an_edge_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "grid.txt"
    path.write_text("# the 3x4 grid\n" + grid_lines(3, 4))
    edges = edge_set(tuple(line.split()) for line in grid_lines(3, 4).splitlines())
    vertices = {v for e in edges for v in e}
    expected = graphs.hamiltonian_paths(graphs.grid(3, 4)).count()
    assert main(["graph", str(path), "--paths", "-q"]) == 0
    paths = printed(capsys.readouterr().out)
    assert len(paths) == expected
    verify(paths, vertices, edges, closed=False)
    assert main(["graph", str(path), "--paths", "--start", "0-0", "--end", "2-3", "-q"]) == 0
    ends = printed(capsys.readouterr().out)
    verify(ends, vertices, edges, closed=False)
    assert ends and all(p[0] == "0-0" and p[-1] == "2-3" for p in ends)
    assert len(ends) == graphs.hamiltonian_paths(graphs.grid(3, 4), (0, 0), (2, 3)).count()


def test_cycles_from_start_json_and_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "grid.edges"
    path.write_text(grid_lines(4, 4))
    edges = edge_set(tuple(line.split()) for line in grid_lines(4, 4).splitlines())
    vertices = {v for e in edges for v in e}
    assert main(["graph", str(path), "--cycles", "--start", "1-1", "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["solution"] for line in lines] == list(range(1, 7))
    cycles = [tuple(line["cycle"]) for line in lines]
    verify(cycles, vertices, edges, closed=True)
    assert all(c[0] == "1-1" for c in cycles)
    assert main(["graph", str(path), "--cycles", "--limit", "2", "-q"]) == 0
    assert len(printed(capsys.readouterr().out)) == 2
    assert main(["graph", str(path), "--cycles", "--one", "-q"]) == 0
    assert len(printed(capsys.readouterr().out)) == 1
    assert main(["graph", str(path), "--cycles", "--count", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"count": 6}


def test_workers_and_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_col(tmp_path / "d.col", 20, dodecahedron())
    assert main(["graph", str(path), "--cycles", "-q"]) == 0
    alone = capsys.readouterr().out
    assert main(["graph", str(path), "--cycles", "--workers", "2", "-q"]) == 0
    assert capsys.readouterr().out == alone
    run = tmp_path / "run.json"
    assert main(["graph", str(path), "--cycles", "--count", "--checkpoint", str(run), "-q"]) == 0
    assert capsys.readouterr().out == "30\n"
    assert main(["graph", str(path), "--cycles", "--count", "--workers", "2", "-q"]) == 0
    assert capsys.readouterr().out == "30\n"


def test_directed_gr_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ring.gr"
    arcs = [(1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (3, 1)]
    path.write_text(f"p sp 4 {len(arcs)}\n" + "".join(f"a {u} {v} 7\n" for u, v in arcs))
    assert main(["graph", str(path), "--cycles"]) == 0
    out, err = capsys.readouterr()
    assert out == "1: 2 3 4 1\n"
    assert "lazysearch graph: " + str(path) + ": 6 weights ignored" in err
    assert main(["graph", str(path), "--cycles", "--no-directed", "--count"]) == 0
    out, err = capsys.readouterr()
    assert out == "1\n"  # the chord 1-3 is in no cycle of the square
    assert f"{path}: 1 repeated edge ignored (line 7)" in err


def test_directed_gr_file_counted_by_the_frontier_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The 4x4 grid as a .gr file, both arcs of each edge: 16 vertices, past the
    # directed walk's crossover, so --count counts by the program (no nodes walked) and
    # agrees with the walk. A096969: 552 directed paths; twice A003763's 6 cycles.
    path = tmp_path / "grid.gr"
    grid = graphs.grid(4, 4)
    arcs = [(4 * r + c + 1, 4 * y + x + 1) for (r, c), near in grid.items() for y, x in near]
    path.write_text(f"p sp 16 {len(arcs)}\n" + "".join(f"a {u} {v} 1\n" for u, v in arcs))
    for kind, count in (("--paths", 552), ("--cycles", 12)):
        assert main(["graph", str(path), kind, "--count"]) == 0
        out, err = capsys.readouterr()
        assert out == f"{count}\n" and "nodes" not in err
        for method in ("frontier", "enumerate"):
            assert main(["graph", str(path), kind, "--count", "--method", method, "-q"]) == 0
            assert capsys.readouterr().out == f"{count}\n"


def test_notes_and_no_cycle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "star.txt"
    path.write_text("a b\na c\na a\nb a\n")
    assert main(["graph", str(path), "--cycles", "--one"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"lazysearch graph: {path}: 1 self-loop ignored (line 3)" in err
    assert f"lazysearch graph: {path}: 1 repeated edge ignored (line 4)" in err
    assert main(["graph", str(path), "--paths", "-q"]) == 0
    assert capsys.readouterr().out == "1: b a c\n"


def test_count_and_sample_say_what_this_version_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_col(tmp_path / "d.col", 20, dodecahedron())
    problem = graphs.hamiltonian_cycles(graphs.read(path)).search.problem
    status = main(["graph", str(path), "--cycles", "--sample", "3", "--seed", "1", "-q"])
    out, err = capsys.readouterr()
    if getattr(problem, "counting", None) is None and getattr(problem, "sample", None) is None:
        assert status == 2 and out == ""
        assert err == (
            "lazysearch graph: error: --sample: this version of lazysearch cannot draw "
            "Hamiltonian cycles and paths at random yet (--count counts them, --limit N "
            "lists the first N)\n"
        )
    else:
        assert status == 0
        cycles = printed(out, numbers=True)
        assert len(cycles) == 3
        for cycle in cycles:
            verify([cycle], set(range(1, 21)), edge_set(dodecahedron()), closed=True)
    status = main(["graph", str(path), "--cycles", "--count", "--method", "frontier"])
    out, err = capsys.readouterr()
    if "frontier" in getattr(problem, "METHODS", ()):
        assert (status, out) == (0, "30\n")
    else:
        assert status == 2 and err.startswith("lazysearch graph: error: --method frontier: ")
    assert main(["graph", str(path), "--cycles", "--count", "--method", "enumerate", "-q"]) == 0
    assert capsys.readouterr().out == "30\n"


@pytest.mark.parametrize(
    ("text", "name", "run", "what"),
    [
        ("1 2\n2 3\n3 1\n3 4\n", "g.txt", ["--cycles"], "cycle"),  # a triangle and a tail
        ("p sp 3 3\na 1 2 1\na 2 3 1\na 1 3 1\n", "g.gr", ["--cycles"], "cycle"),
        ("p sp 3 2\na 1 2 1\na 3 2 1\n", "g.gr", ["--paths"], "path"),  # two arcs into 2
        ("1 2\n2 3\n3 4\n", "g.txt", ["--paths", "--start", "2"], "path"),
    ],
)
def test_a_sample_of_nothing_says_so_with_status_1(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    name: str,
    run: list[str],
    what: str,
) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert main(["graph", str(path), *run, "--sample", "2", "--seed", "3"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1] == f"lazysearch graph: there is no Hamiltonian {what} to draw"


@pytest.mark.parametrize(
    ("text", "name", "args", "line"),
    [
        ("1 2\n2\n", "g.txt", [], "g.txt:2:2: an edge is two vertices 'u v'"),
        ("p edge 3 1\ne 1 9\n", "g.col", [], "g.col:2:5: vertex '9' of an 'e' line is not one"),
        ("e 1 2\n", "g.col", [], "g.col:1:1: an 'e' line before the 'p edge N M' line"),
        ("# nothing\n", "g.txt", [], "g.txt: the graph has no vertex"),
        ("1 2\n2 3\n3 1\n", "g.txt", ["--start", "9"], "start 9 is not a vertex of the graph"),
        ("1 2\n2 3\n3 1\n", "g.txt", ["--paths", "--end", "x"], "end 'x' is not a vertex"),
        ("1 2\n", "g.txt", ["--end", "1"], "--end is for --paths"),
        ("1 2\n", "g.txt", ["--paths", "--start", "1", "--end", "1"], "are both 1: a path's"),
        ("1 2\n", "g.txt", ["--one", "--count"], "--one prints one cycle or path"),
        ("1 2\n", "g.txt", ["--sample", "2", "--count"], "--sample K draws K at random"),
        ("1 2\n", "g.txt", ["--method", "enumerate"], "--method chooses how --count counts"),
        ("1 2\n", "g.txt", ["--format-in", "col"], "g.txt:1:1: a DIMACS .col line begins"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    name: str,
    args: list[str],
    line: str,
) -> None:
    path = tmp_path / name
    path.write_text(text)
    what = [] if "--paths" in args else ["--cycles"]
    assert main(["graph", str(path), *what, *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("lazysearch graph: error: ")
    assert line in err.replace(str(tmp_path) + "/", "")


def test_missing_file_and_missing_choice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", "/nonexistent/g.txt", "--cycles"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "lazysearch graph: error: cannot read /nonexistent/g.txt: No such file or directory\n"
    )
    with pytest.raises(SystemExit) as stop:
        main(["graph", "g.txt"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one of the arguments --cycles --paths is required" in err


def test_help_has_examples(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["graph", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "lazysearch graph examples/dodecahedron.txt --cycles" in out
    assert max(len(line) for line in out.splitlines()) < 80


# -- knights --leaper and --board ---------------------------------------------------------


def board_tours(out: str, rows: int, cols: int) -> list[tuple[tuple[int, int], ...]]:
    """The tours of text output: blocks 'n:' then rows of move numbers ('.' a hole)."""
    tours = []
    lines = out.splitlines()
    for i in range(0, len(lines), rows + 1):
        assert lines[i] == f"{len(tours) + 1}:"
        at = {}
        for r in range(rows):
            for c, word in enumerate(lines[i + 1 + r].split()):
                if word != ".":
                    at[int(word)] = (r, c)
        tours.append(tuple(at[k] for k in range(1, len(at) + 1)))
    return tours


def leaper_edges(cells: set[tuple[int, int]], a: int, b: int) -> Edges:
    return {
        frozenset((p, q))
        for p in cells
        for q in cells
        if sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == sorted((a, b))
    }


CAMEL = ["#.#.#.", ".#.#.#", "#.#.#.", ".#.#.#"]


def test_camel_on_a_board_with_holes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "camel.txt"
    path.write_text("\n".join(CAMEL) + "\n")
    cells = {(r, c) for r, row in enumerate(CAMEL) for c, x in enumerate(row) if x == "#"}
    edges = leaper_edges(cells, 1, 3)
    assert main(["knights", "--board", str(path), "--leaper", "1,3", "--closed", "-q"]) == 0
    tours = board_tours(capsys.readouterr().out, 4, 6)
    assert len(tours) == 1
    verify(list(tours), cells, edges, closed=True)
    assert main(["knights", "--board", str(path), "--leaper", "1,3", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "19\n"  # each open tour once, not each way round
    assert main(["knights", "4", "6", "--board", str(path), "--leaper", "1,3", "-q"]) == 0
    tours = board_tours(capsys.readouterr().out, 4, 6)
    assert len(tours) == 19
    verify(list(tours), cells, edges, closed=False)
    start = ["--start", "0,0", "--closed"]
    assert main(["knights", "--board", str(path), "--leaper", "1,3", *start, "-q"]) == 0
    tours = board_tours(capsys.readouterr().out, 4, 6)
    assert len(tours) == 2 and tours[0] == (tours[1][0], *tours[1][:0:-1])


@pytest.mark.parametrize(
    ("extra", "count", "ways"),
    [
        ([], 1728, 2),  # directed open tours of 5x5, each start; on a board, each once
        (["--start", "0,0"], 304, 1),
    ],
)
def test_a_whole_board_counts_as_the_knight_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], count: int, ways: int
) -> None:
    path = tmp_path / "five.txt"
    path.write_text("xxxxx\n" * 5)
    assert main(["knights", "5", "--count", *extra, "-q"]) == 0
    assert capsys.readouterr().out == f"{count}\n"
    assert main(["knights", "--board", str(path), "--count", *extra, "-q"]) == 0
    assert capsys.readouterr().out == f"{count // ways}\n"


def test_closed_tours_from_a_start_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "six.txt"
    path.write_text("######\n" * 6)
    run = ["--closed", "--start", "2,2", "--count", "--directed", "-q"]
    assert main(["knights", "6", *run]) == 0
    engine = capsys.readouterr().out
    assert main(["knights", "--board", str(path), *run]) == 0
    assert capsys.readouterr().out == engine == "19724\n"
    assert main(["knights", "--board", str(path), "--closed", "--start", "2,2", "-q"]) == 0
    tours = board_tours(capsys.readouterr().out, 6, 6)
    assert len(tours) == 19724 and len(set(tours)) == 19724
    cells = {(r, c) for r in range(6) for c in range(6)}
    assert all(t[0] == (2, 2) for t in tours)
    edges = leaper_edges(cells, 1, 2)
    ways: dict[tuple[tuple[int, int], ...], int] = {}
    for tour in tours:
        verify([tour], cells, edges, closed=True)
        cycle = min(tour, (tour[0], *tour[:0:-1]))
        ways[cycle] = ways.get(cycle, 0) + 1
    assert len(ways) == 9862 and set(ways.values()) == {2}  # each cycle both ways round


def test_knight_with_holes_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = ["..###", "#####", "#####", "#####", "###.."]
    path = tmp_path / "holes.txt"
    path.write_text("\n".join(picture))
    cells = {(r, c) for r, row in enumerate(picture) for c, x in enumerate(row) if x == "#"}
    assert main(["knights", "--board", str(path), "--format", "json", "--limit", "3", "-q"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    tours = [tuple(tuple(s) for s in line["tour"]) for line in lines]
    assert len(tours) == 3 and all(line["rows"] == line["cols"] == 5 for line in lines)
    assert all(set(t) == cells for t in tours)
    moves = leaper_edges(cells, 1, 2)
    assert all(frozenset(s) in moves for t in tours for s in itertools.pairwise(t))
    assert main(["knights", "--board", str(path), "--format", "svg", "-q"]) == 0
    svg = capsys.readouterr().out
    assert svg.startswith("<svg") and "open path on 5x5" in svg


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--leaper", "1,3", "--sample", "2"], "--sample draws knight's tours of a whole"),
        (["--leaper", "1,3", "--count", "--method", "dp"], "--method dp, join, order and parts"),
        (["--leaper", "1,3", "--closed", "--count", "--directed"], "give --start ROW,COL"),
        (["--leaper", "0,0"], "a leaper's move is two whole numbers >= 0, not both 0"),
        (["--leaper", "x"], "expected a leaper's move as A,B"),
        (["--leaper", "1,3", "--start", "0,1"], "start square 0,1 is a hole of the 4x6 board"),
        (["--leaper", "1,3", "--start", "9,9"], "start square 9,9 is off the 4x6 board"),
        (["5", "--leaper", "1,3"], "is a 4x6 board, and ROWS COLS say 5x5"),
    ],
)
def test_knights_board_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    path = tmp_path / "camel.txt"
    path.write_text("\n".join(CAMEL))
    try:
        status = main(["knights", "--board", str(path), *args])
    except SystemExit as stop:  # an argument's type, refused by the parser
        status = int(str(stop.code))
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and line in err


def test_knights_without_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["knights", "--count"]) == 2
    assert capsys.readouterr().err == (
        "lazysearch knights: error: the following arguments are required: ROWS "
        "(see lazysearch knights --help)\n"
    )
    empty = tmp_path / "empty.txt"
    empty.write_text("...\n. .\n")
    assert main(["knights", "--board", str(empty)]) == 2
    assert "no cell on the board" in capsys.readouterr().err


def test_a_count_too_wide_for_memory_is_one_line_naming_the_walk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k30.txt"
    path.write_text("".join(f"{i} {j}\n" for i in range(30) for j in range(i + 1, 30)))
    assert main(["graph", str(path), "--cycles", "--count"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("lazysearch graph: error: the frontier program's frontier reaches ")
    assert err.endswith("; --method enumerate walks them instead, however long that takes\n")
