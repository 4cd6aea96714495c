"""Sudoku benchmarks on the published collections in ../shared/data (skipped without it).

Every puzzle is solved and proved unique (``take(2)`` finds exactly one), and the
solution checked; CP-SAT does the same on the same puzzles when OR-Tools is installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from lazysearch import ParseError, sudoku
from lazysearch.puzzles import variants

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"


def puzzles(name: str) -> list[str]:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"shared data not present: {path}")
    return sudoku.read(path)


def lazysearch_unique(grids: list[str]) -> int:
    unique = 0
    for g in grids:
        found = sudoku.solve(g).take(2)
        unique += len(found) == 1
    return unique


def cpsat_unique(grids: list[str]) -> int:
    """CP-SAT: solve with AllDifferent constraints, then forbid that solution and ask again."""
    from ortools.sat.python import cp_model

    unique = 0
    for g in grids:
        rows = sudoku.parse(g)
        n = len(rows)
        br, bc = sudoku.box_shape(n)
        model = cp_model.CpModel()
        x = [[model.NewIntVar(1, n, f"x{r}{c}") for c in range(n)] for r in range(n)]
        for r in range(n):
            model.AddAllDifferent(x[r])
            model.AddAllDifferent([x[i][r] for i in range(n)])
        for r0 in range(0, n, br):
            for c0 in range(0, n, bc):
                model.AddAllDifferent([x[r0 + r][c0 + c] for r in range(br) for c in range(bc)])
        for r in range(n):
            for c in range(n):
                if rows[r][c]:
                    model.Add(x[r][c] == rows[r][c])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        first = [[solver.Value(x[r][c]) for c in range(n)] for r in range(n)]
        same = [model.NewBoolVar("") for _ in range(n * n)]
        for k, b in enumerate(same):
            r, c = divmod(k, n)
            model.Add(x[r][c] == first[r][c]).OnlyEnforceIf(b)
            model.Add(x[r][c] != first[r][c]).OnlyEnforceIf(b.Not())
        model.AddBoolOr([b.Not() for b in same])
        unique += solver.Solve(model) == cp_model.INFEASIBLE
    return unique


@pytest.mark.parametrize("solver", ["lazysearch", "cp-sat"])
def test_top95_solved_and_proved_unique(benchmark: Any, solver: str) -> None:
    grids = puzzles("norvig/top95.txt")
    if solver == "cp-sat" and importlib.util.find_spec("ortools") is None:
        pytest.skip("ortools is not installed (pip install -e '.[bench]')")
    function = lazysearch_unique if solver == "lazysearch" else cpsat_unique
    benchmark.group = "sudoku top95 (95 puzzles, solve + prove unique)"
    rounds = 3 if solver == "lazysearch" else 1
    assert benchmark.pedantic(function, args=(grids,), rounds=rounds, iterations=1) == 95


SAMPLES = sorted((SHARED / "25x25_aisudokusolver").glob("*.txt")) or [Path("absent")]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_first_solution_of_each_sparse_25x25_sample(benchmark: Any, path: Path) -> None:
    """The issue's target: each 25x25 sample solved in under a second (the slowest,
    ``25x25_sample2_grp4``, takes 622k nodes of the race of two value orders, about
    0.55-0.65 s; the others under 50 ms).  The samples are sparse
    and have many solutions, so this asks for the first; one file is malformed (a row of
    24 numbers) and must be refused with its line and column."""
    if not path.exists():
        pytest.skip(f"shared data not present: {SHARED}")
    if path.stem == "25x25_sample3_grp4":
        with pytest.raises(ParseError, match=r":3:60: "):
            sudoku.read(path)
        return
    (puzzle,) = sudoku.read(path)
    benchmark.group = "sudoku 25x25 samples (first solution, build included)"
    grid = benchmark.pedantic(lambda: sudoku.solve(puzzle).first(), rounds=1, iterations=1)
    sudoku.verify(puzzle, grid)


# -- killer sudoku ------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: Generated killer puzzles (no givens; cages of 2 to 6 or 3 to 6 cells cut at random
#: from a shuffled grid, kept when unique; the seeds are those of the generator that
#: made them, kept for the record).  The hardest of some 1,150 tries each way: the
#: kakuro engine's tree has 642, 446, 10,811, 859 and 813 nodes (proof of uniqueness
#: included); Wikipedia's killer is solved by the root's propagation alone.
#: Measured (one run, 2 loaded cores, min of 5 / of 2): Wikipedia 0.57 ms against
#: CP-SAT's 8.8 ms (15x); the generated ones 65-125 ms against 111-353 ms (1.3-4x) and
#: seed 72 1.11 s against 1.05 s: the targets (50 ms, 10x) are met only by Wikipedia's.
KILLERS = """
# seed 535, cages of 2 to 6 cells
ppeymccjj
lpeimrccj
llniiiccj
llndiivbj
lddduavbb
goofaabbb
gffffaaww
ggfhhqqxk
sghhttqkk
sums: a=22 b=27 c=26 d=18 e=5 f=36 g=20 h=23 i=28 j=31 k=16 l=32 m=8 n=9 o=12 p=14 q=11
r=9 s=8 t=7 u=9 v=11 w=10 x=5 y=8

# seed 1059, cages of 2 to 6 cells
fttcuuubb
ftccmuudb
ffeemxddb
flgemmmmv
gggwqqyav
jghhhsaav
jkkkippar
okkkiiirr
oooonnnnr
sums: a=22 b=26 c=15 d=9 e=14 f=19 g=24 h=12 i=24 j=11 k=28 l=6 m=35 n=16 o=28 p=12 q=14
r=16 s=3 t=22 u=21 v=12 w=5 x=2 y=9

# seed 72, cages of 3 to 6 cells
jjvvhppaa
ojjjhupaa
ooghhupii
oggttbbir
oggdbbbrr
ceeddnnnr
cesdllmff
ceeqlmmmf
keqqmmfff
sums: a=23 b=25 c=14 d=21 e=34 f=26 g=28 h=20 i=18 j=23 k=1 l=12 m=29 n=19 o=23 p=16 q=18
r=19 s=7 t=10 u=12 v=7

# seed 484, cages of 3 to 6 cells
eeeeexwwi
ccqeywwii
ocqjjjhhb
oddddrrhb
odtdsnnbb
ggtssnkkk
gvmmsaakk
ppumsaakl
puuuffffl
sums: a=12 b=22 c=10 d=32 e=28 f=24 g=15 h=14 i=8 j=11 k=30 l=12 m=15 n=19 o=18 p=17 q=15
r=8 s=22 t=6 u=19 v=8 w=26 x=5 y=9

# seed 63, cages of 3 to 6 cells
lxiinnnnt
lxiyyffff
lmmmmwfvv
gpjjjjjbb
ggkkjccbb
gggaacdbr
sssaaeddr
hhhheeduo
qqhheeooo
sums: a=22 b=21 c=11 d=22 e=25 f=18 g=30 h=33 i=13 j=31 k=9 l=12 m=18 n=19 o=26 p=5 q=8
r=9 s=13 t=7 u=5 v=10 w=8 x=17 y=13
"""


def killer_puzzles() -> list[tuple[str, variants.VariantText]]:
    out = [("wikipedia", variants.read(str(EXAMPLES / "killer-wikipedia.txt")))]
    for block in KILLERS.strip().split("\n\n"):
        name = block.splitlines()[0].split(",")[0].lstrip("# ").replace(" ", "")
        out.append((name, variants.loads("cages:\n" + block)))
    return out


def lazysearch_killer(puzzle: variants.VariantText) -> int:
    return len(sudoku.solve(puzzle.givens, cages=puzzle.cages).take(2))


def cpsat_killer(puzzle: variants.VariantText) -> int:
    """CP-SAT on the same model: AllDifferent rows, columns, boxes and cages, a linear
    sum per cage; solved, then asked again with that solution forbidden."""
    from ortools.sat.python import cp_model

    n = 9
    model = cp_model.CpModel()
    x = [[model.NewIntVar(1, n, f"x{r}{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        model.AddAllDifferent(x[r])
        model.AddAllDifferent([x[i][r] for i in range(n)])
    for r0 in range(0, n, 3):
        for c0 in range(0, n, 3):
            model.AddAllDifferent([x[r0 + r][c0 + c] for r in range(3) for c in range(3)])
    for total, cells in puzzle.cages or ():
        model.AddAllDifferent([x[r][c] for r, c in cells])
        model.Add(sum(x[r][c] for r, c in cells) == total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return 0
    first = [[solver.Value(x[r][c]) for c in range(n)] for r in range(n)]
    same = [model.NewBoolVar("") for _ in range(n * n)]
    for k, b in enumerate(same):
        r, c = divmod(k, n)
        model.Add(x[r][c] == first[r][c]).OnlyEnforceIf(b)
        model.Add(x[r][c] != first[r][c]).OnlyEnforceIf(b.Not())
    model.AddBoolOr([b.Not() for b in same])
    return 1 if solver.Solve(model) == cp_model.INFEASIBLE else 2


KILLER_CASES = [
    (name, solver) for name, _ in killer_puzzles() for solver in ("lazysearch", "cp-sat")
]


@pytest.mark.parametrize(("name", "solver"), KILLER_CASES)
def test_killer_solved_and_proved_unique(benchmark: Any, name: str, solver: str) -> None:
    """The issue's target: each killer solved and proved unique in under 50 ms, and at
    least 10x faster than CP-SAT on the same model (compare the two rows of a puzzle)."""
    if solver == "cp-sat" and importlib.util.find_spec("ortools") is None:
        pytest.skip("ortools is not installed (pip install -e '.[bench]')")
    puzzle = dict(killer_puzzles())[name]
    function = lazysearch_killer if solver == "lazysearch" else cpsat_killer
    benchmark.group = f"killer {name} (solve + prove unique)"
    rounds = 5 if solver == "lazysearch" else 2
    assert benchmark.pedantic(function, args=(puzzle,), rounds=rounds, iterations=1) == 1
    found = sudoku.solve(puzzle.givens, cages=puzzle.cages).first()
    variants.verify(sudoku.parse(puzzle.givens), found, variants.variant(9, cages=puzzle.cages))
