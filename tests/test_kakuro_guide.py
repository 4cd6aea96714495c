"""The SAT search behind kakuro guides, and the guided tree: same solutions, guide first."""

from __future__ import annotations

import itertools
import pickle
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, kakuro
from lazysearch.engine import _native
from lazysearch.errors import InvalidSolutionError
from lazysearch.kakuro import Puzzle, guide
from lazysearch.kakuro.puzzle import sum_range
from lazysearch.kakuro.solver import KakuroProblem, problem
from lazysearch.parallel import count
from lazysearch.sums._engine import REFUTED
from tests.helpers import shared_file


@pytest.fixture(params=["compiled", "source"])
def sat(request: pytest.FixtureRequest) -> ModuleType:
    """The SAT module as the engines load it, and its plain-Python source beside it."""
    if request.param == "source":
        return _native.load_source("lazysearch.sums._cdcl")
    return _native.load("lazysearch.sums._cdcl")


def satisfied(clauses: list[list[int]], model: list[bool]) -> bool:
    return all(any(model[lit >> 1] != bool(lit & 1) for lit in clause) for clause in clauses)


def brute_force_sat(n: int, clauses: list[list[int]]) -> bool:
    assignments = itertools.product((False, True), repeat=n)
    return any(satisfied(clauses, list(bits)) for bits in assignments)


def pigeonhole(holes: int) -> tuple[int, list[list[int]]]:
    """``holes + 1`` pigeons, each in some hole, no two in one: unsatisfiable."""
    var = {(p, h): p * holes + h for p in range(holes + 1) for h in range(holes)}
    clauses = [[2 * var[p, h] for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            clauses.append([2 * var[p, h] + 1, 2 * var[q, h] + 1])
    return len(var), clauses


def loaded(sat: ModuleType, n: int, clauses: list[list[int]]) -> Any:
    """A solver of module ``sat`` over ``n`` variables holding ``clauses``."""
    solver = sat.Solver(n)
    for clause in clauses:
        solver.add_clause(clause)
    return solver


def test_luby_sequence(sat: ModuleType) -> None:
    assert [sat.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.lists(st.integers(0, 2 * n - 1), min_size=0, max_size=4),
                min_size=1,
                max_size=40,
            ),
        )
    )
)
def test_answers_agree_with_brute_force(case: tuple[int, list[list[int]]]) -> None:
    n, clauses = case
    for module in (
        _native.load("lazysearch.sums._cdcl"),
        _native.load_source("lazysearch.sums._cdcl"),
    ):
        solver = loaded(module, n, clauses)
        answer = solver.solve(0)
        assert answer == (module.SAT if brute_force_sat(n, clauses) else module.UNSAT)
        if answer == module.SAT:
            assert satisfied(clauses, solver.model())


def test_pigeonhole_is_refuted_and_a_budget_stops_early(sat: ModuleType) -> None:
    n, clauses = pigeonhole(6)
    solver = loaded(sat, n, clauses)
    assert solver.solve(0) == sat.UNSAT
    assert solver.conflicts > 0
    short = loaded(sat, n, clauses)
    assert short.solve(3) == sat.UNKNOWN
    assert short.conflicts == 3


def test_forgetting_learnt_clauses_keeps_the_answers(
    sat: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sat, "KEEP_LEARNT", 5)
    solver = loaded(sat, *pigeonhole(6))
    assert solver.solve(0) == sat.UNSAT
    assert solver.forgotten > 0
    # The latin-square block with one filling forbidden at a time: 12 models, then none.
    assert len(sat_fillings(BLOCK, sat)) == 12 == kakuro.solve(BLOCK).count()


def test_a_search_in_slices_goes_on_where_it_stopped(
    sat: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sat, "KEEP_LEARNT", 5)
    solver = loaded(sat, *pigeonhole(6))
    answers = []
    while not answers or answers[-1] == sat.UNKNOWN:
        answers.append(solver.solve(solver.conflicts + 5))
    assert answers[-1] == sat.UNSAT and len(answers) > 3
    # The learnt clauses' bar is kept between slices: those beyond it are thinned even
    # though no slice learns more than 5 (a slice that started afresh never would).
    assert solver.forgotten > 0


def test_the_guide_search_runs_in_slices_until_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guide, "SLICE", 2)
    prob, cells = problem(BLOCK)
    filling = guide.sat_filling(prob)
    kakuro.verify(BLOCK, dict(zip(cells, filling, strict=True)))
    assert guide.sat_filling(prob, max_conflicts=1) in ((), filling)
    puzzle = sum_mismatch([8, 18], [8, 11, 9])
    assert guide.sat_filling(problem(puzzle)[0]) == REFUTED


def test_a_renumbered_problem_has_the_same_fillings() -> None:
    prob, cells = problem(BLOCK)
    assert guide.renumbered(prob, None, 0)[0].runs == prob.runs
    renamed, moved, new = guide.renumbered(prob, [1, 2, 4] * 3, 7)
    assert sorted(new) == list(range(prob.n)) and renamed.runs != prob.runs
    assert moved is not None and all(moved[new[c]] == [1, 2, 4][c % 3] for c in range(9))
    found = guide.digits(prob.n, solved(guide.sat_solver(renamed)))
    filling = {cell: found[new[c]] for c, cell in enumerate(cells)}
    kakuro.verify(BLOCK, filling)


def solved(solver: Any) -> list[bool]:
    assert solver.solve(0) == 1
    model: list[bool] = solver.model()
    return model


def test_the_copies_of_the_sat_search_take_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of one conflict: the first copy does not answer in its turn, so the next,
    numbered otherwise, is built and searches (unless the first is still within the
    conflicts it gets alone); whichever answers, the filling is the puzzle's, in its
    own numbering."""
    made: list[Any] = []
    build = guide.sat_solver

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.append(build(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(guide, "sat_solver", spy)
    monkeypatch.setattr(guide, "SLICE", 1)
    puzzle = block_puzzle([[(2 * r + c) % 7 + 1 for c in range(7)] for r in range(7)])
    prob, cells = problem(puzzle)
    for copies, alone, built in ((1, 0, 1), (3, 0, 2), (3, 10**9, 1)):
        made.clear()
        monkeypatch.setattr(guide, "PORTFOLIO", copies)
        monkeypatch.setattr(guide, "ALONE", alone)
        filling = guide.sat_filling(prob)
        kakuro.verify(puzzle, dict(zip(cells, filling, strict=True)))
        assert len(made) == built and made[0].conflicts > 0
    made.clear()
    assert guide.sat_filling(prob, max_conflicts=1) == () and len(made) == 1
    assert guide.sat_filling(problem(sum_mismatch([8, 18], [8, 11, 9]))[0]) == REFUTED


def test_both_modes_keep_the_answers(sat: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """With modes a few conflicts long the search goes focused, stable, focused ...
    (stable decisions follow the target phases) and its answers stay right."""
    monkeypatch.setattr(sat, "MODE_FIRST", 3)
    solver = loaded(sat, *pigeonhole(6))
    assert solver.solve(0) == sat.UNSAT
    assert solver.switches >= 2 and solver.restarts >= solver.switches
    assert len(sat_fillings(BLOCK, sat)) == 12


def test_rephasing_keeps_the_answers(sat: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a rephase every few conflicts the saved phases go through every kind of
    the cycle (best, all false, all true, random) and the answers stay right."""
    monkeypatch.setattr(sat, "REPHASE_UNIT", 1)
    monkeypatch.setattr(sat, "MODE_FIRST", 3)
    solver = loaded(sat, *pigeonhole(7))
    assert solver.solve(0) == sat.UNSAT
    assert solver.rephases >= len(sat.REPHASE_CYCLE)
    assert len(sat_fillings(BLOCK, sat)) == 12


def test_no_rephase_before_its_unit(sat: ModuleType) -> None:
    solver = loaded(sat, *pigeonhole(6))
    solver.solve(sat.REPHASE_UNIT - 1)
    assert solver.rephases == 0


def test_the_random_phases_are_the_same_compiled_and_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search is a function of the clauses alone, random rephases included: the
    compiled module and its plain source take the same number of conflicts."""
    runs = []
    for module in (
        _native.load("lazysearch.sums._cdcl"),
        _native.load_source("lazysearch.sums._cdcl"),
    ):
        monkeypatch.setattr(module, "REPHASE_UNIT", 1)
        monkeypatch.setattr(module, "REPHASE_CYCLE", "R")
        solver = loaded(module, *pigeonhole(7))
        assert solver.solve(0) == module.UNSAT
        assert solver.rephases >= 3
        runs.append((solver.conflicts, solver.decisions, solver.rephases))
    assert runs[0] == runs[1]


def test_propagation_before_any_decision(sat: ModuleType) -> None:
    """Units, a chain of two-literal clauses (the table by literal) and a longer one
    (watched): x0, so x1, so x2, so x3; a clause against x3 and x1 leaves no model."""
    clauses = [[0], [1, 2], [3, 4], [5, 1, 6]]
    assert loaded(sat, 4, clauses).fixed() == [0, 2, 4, 6]
    assert loaded(sat, 4, [*clauses, [7, 3]]).fixed() is None
    assert loaded(sat, 4, clauses[1:]).fixed() == []


def test_a_cell_without_a_combinations_digits_rules_it_out(sat: ModuleType) -> None:
    """Two cells adding up to 7 ({1, 6}, {2, 5} or {3, 4}; variables 18, 19, 20): once
    the first cell can hold neither 3 nor 4, propagation alone rules out {3, 4}, before
    any decision (without each cell's clause over the combination's digits it waited
    for a conflict)."""
    combos = [0b100001, 0b10010, 0b1100]

    def solver(*units: int) -> Any:
        s = sat.Solver(9 * 2 + 3 + 9)
        s.add_cells(2)
        s.add_run([0, 1], combos, 18)
        for lit in units:
            s.add_clause([lit])
        return s

    assert 2 * 20 + 1 in solver(2 * 2 + 1, 2 * 3 + 1).fixed()
    assert 2 * 20 + 1 not in solver(2 * 2 + 1).fixed()


def test_a_digit_every_combination_has_goes_to_the_one_cell_left(sat: ModuleType) -> None:
    """Three cells adding up to 8 ({1, 2, 5} or {1, 3, 4}: variables 27 and 28, then
    29 .. 37 for the digits the run uses): every combination has 1, so once the first
    two cells cannot hold 1, propagation alone puts 1 in the third, as the tree's arc
    consistency does (with clauses between cells and combinations only it waited for a
    conflict)."""
    one_in_third = 2 * (9 * 2 + 0)

    def solver(*units: int) -> Any:
        s = sat.Solver(9 * 3 + 2 + 9)
        s.add_cells(3)
        s.add_run([0, 1, 2], [0b10011, 0b1101], 27)
        for lit in units:
            s.add_clause([lit])
        return s

    assert 2 * 29 in solver().fixed()  # the run uses 1
    assert one_in_third in solver(2 * (9 * 0) + 1, 2 * (9 * 1) + 1).fixed()
    assert one_in_third not in solver(2 * (9 * 0) + 1).fixed()


def test_a_literal_out_of_range_is_refused(sat: ModuleType) -> None:
    with pytest.raises(ValueError, match="literal 6 is not one of the 3 variables"):
        sat.Solver(3).add_clause([0, 6])


# -- the kakuro clauses ------------------------------------------------------------------


def block_puzzle(digits: list[list[int]]) -> Puzzle:
    """A rectangle of white cells under a clue row and column, summing to ``digits``."""
    rows, cols = len(digits), len(digits[0])
    white = {(r + 1, c + 1) for r in range(rows) for c in range(cols)}
    across = {(r + 1, 0): sum(digits[r]) for r in range(rows)}
    down = {(0, c + 1): sum(digits[r][c] for r in range(rows)) for c in range(cols)}
    return Puzzle(rows + 1, cols + 1, white=white, across=across, down=down)


@st.composite
def blocks(draw: st.DrawFn) -> Puzzle:
    """A block of up to 2x3 cells from digits distinct along rows and columns."""
    rows, cols = draw(st.integers(1, 2)), draw(st.integers(2, 3))
    digits: list[list[int]] = []
    for r in range(rows):
        row: list[int] = []
        for c in range(cols):
            taken = set(row) | {digits[q][c] for q in range(r)}
            row.append(draw(st.sampled_from([d for d in range(1, 10) if d not in taken])))
        digits.append(row)
    return block_puzzle(digits)


def sat_fillings(puzzle: Puzzle, sat: ModuleType | None = None) -> set[tuple[int, ...]]:
    """Every model of the puzzle's clauses, each then forbidden, as digits by cell."""
    sat = sat or _native.load("lazysearch.sums._cdcl")
    prob, _ = problem(puzzle)
    found: set[tuple[int, ...]] = set()
    while True:
        solver = guide.sat_solver(prob, module=sat)
        for filled in found:
            solver.add_clause([2 * (9 * c + d - 1) + 1 for c, d in enumerate(filled)])
        if solver.solve(0) != sat.SAT:
            return found
        model = solver.model()
        digits = guide.digits(prob.n, model)
        assert sum(model[9 * c + d] for c in range(prob.n) for d in range(9)) == prob.n
        found.add(digits)


@settings(max_examples=25, deadline=None)
@given(blocks())
def test_the_clauses_have_exactly_the_puzzles_fillings(puzzle: Puzzle) -> None:
    _, cells = problem(puzzle)
    tree = {tuple(board[c] for c in cells) for board in kakuro.solve(puzzle)}
    assert sat_fillings(puzzle) == tree


def test_no_filling_no_model() -> None:
    # Two cells adding up to 3 across, 3 and 4 down, under a row that needs 4 + 4.
    puzzle = Puzzle(
        3,
        3,
        white={(1, 1), (1, 2), (2, 1), (2, 2)},
        across={(1, 0): 3, (2, 0): 8},
        down={(0, 1): 3, (0, 2): 4},
    )
    assert kakuro.solve(puzzle).count() == 0
    prob = problem(puzzle)[0]
    assert guide.sat_filling(prob) == REFUTED
    # The root's propagation already fails: the dive ends the tree, no SAT search.
    assert guide.find(prob) == ()
    assert guide.find(prob, dive=0) == REFUTED


def sum_mismatch(across: list[int], down: list[int]) -> Puzzle:
    """A block whose row sums and column sums add up to different totals: no filling."""
    rows, cols = len(across), len(down)
    assert sum(across) != sum(down)
    return Puzzle(
        rows + 1,
        cols + 1,
        white={(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)},
        across={(r + 1, 0): total for r, total in enumerate(across)},
        down={(0, c + 1): total for c, total in enumerate(down)},
    )


def plain_nodes(puzzle: Puzzle) -> int:
    from lazysearch.search import Search

    prob = problem(puzzle)[0]
    search = Search(KakuroProblem(prob.n, prob.runs, ()))
    assert search.count() == 0
    return search.stats.nodes


def test_a_puzzle_the_sat_search_refutes_is_a_dead_end_root(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = sum_mismatch([8, 18], [8, 11, 9])  # 26 across, 28 down
    assert plain_nodes(puzzle) == 5
    monkeypatch.setattr(guide, "DIVE_NODES", 2)
    stream = kakuro.solve(puzzle)
    prob = stream.search.problem
    assert isinstance(prob, KakuroProblem) and prob.guide == REFUTED
    assert stream.count() == 0
    assert stream.search.stats.nodes == 1


def test_a_refuted_puzzle_past_the_dive() -> None:
    """Found by a random search over 3x4 blocks: the plain tree walks 2,406 nodes to
    show there is no filling; the SAT search (about 10,000 conflicts, a minute as plain
    Python) proves it, and the tree is one dead end."""
    if not compiled():
        pytest.skip("the SAT search takes a minute as plain Python")
    puzzle = sum_mismatch([18, 20, 18], [14, 12, 12, 16])
    assert plain_nodes(puzzle) == 2406 > guide.DIVE_NODES
    stream = kakuro.solve(puzzle)
    assert stream.first(None) is None
    assert stream.search.stats.nodes == 1


# -- the guided tree ---------------------------------------------------------------------

# Every row and column adds up to 6: its fillings are the 12 latin squares of 1, 2, 3.
BLOCK = block_puzzle([[1, 2, 3], [2, 3, 1], [3, 1, 2]])


def guided(puzzle: Puzzle) -> tuple[KakuroProblem, list[tuple[int, int]]]:
    prob, cells = problem(puzzle)
    prob.guide = guide.find(prob, dive=0)
    return prob, cells


def walk(engine: object) -> tuple[list[tuple[int, ...]], int]:
    solutions = []
    while engine.run(1, 0):  # type: ignore[attr-defined]
        solutions.append(engine.solution())  # type: ignore[attr-defined]
    return solutions, engine.nodes  # type: ignore[attr-defined]


def test_a_rewound_engine_walks_the_same_tree_as_a_new_one() -> None:
    prob, _ = problem(BLOCK)
    module = _native.load("lazysearch.sums._engine")
    used = module.KakuroEngine(prob.n, prob.runs)
    used.run(5, 0)
    used.rewind()
    used.nodes = used.solutions = 0
    assert walk(used) == walk(module.KakuroEngine(prob.n, prob.runs))


def test_a_plain_tree_finds_its_first_solution_without_a_guide() -> None:
    prob, _ = problem(BLOCK)
    assert guide.find(prob) == ()
    assert prob.order() == ()


def test_the_guide_comes_first_and_the_solutions_stay_the_same() -> None:
    plain, cells = problem(BLOCK)
    prob, _ = guided(BLOCK)
    assert len(prob.guide or ()) == prob.n
    from lazysearch.search import Search

    plain_solutions = list(Search(plain))
    guided_solutions = list(Search(prob))
    assert guided_solutions[0] == prob.guide != plain_solutions[0]
    assert sorted(guided_solutions) == sorted(plain_solutions)
    assert len(plain_solutions) == len(set(plain_solutions)) == 12
    for digits in guided_solutions:
        kakuro.verify(BLOCK, dict(zip(cells, digits, strict=True)))
    # The nodes are the same, in another order.
    a, b = Search(plain), Search(prob)
    a.count()
    b.count()
    assert a.stats.nodes == b.stats.nodes


def test_the_guide_names_the_tree_and_travels_with_the_problem() -> None:
    plain, _ = problem(BLOCK)
    prob, _ = guided(BLOCK)
    assert prob.fingerprint() != plain.fingerprint()
    copy = pickle.loads(pickle.dumps(prob))
    assert copy.guide == prob.guide and copy.fingerprint() == prob.fingerprint()
    # A checkpoint of the guided tree resumes in the guided tree only.
    from lazysearch import CheckpointError
    from lazysearch.search import Search

    search = Search(prob)
    first = next(search)
    checkpoint = search.checkpoint()
    rest = list(search)
    assert list(Search(copy).resume(checkpoint)) == rest
    assert first == prob.guide
    with pytest.raises(CheckpointError):
        Search(plain).resume(checkpoint)


def test_guided_subtrees_and_parallel_counts_agree() -> None:
    from lazysearch.search import Search

    prob, _ = guided(BLOCK)
    total = Search(problem(BLOCK)[0]).count()
    parts = Search(prob).subtrees(2)
    assert sum(Search(prob, p).count() for p in parts) == total
    assert count(Search(prob), workers=2) == total


def test_solve_asks_for_a_guide_when_the_dive_finds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guide, "DIVE_NODES", 0)
    stream = kakuro.solve(BLOCK)
    prob = stream.search.problem
    assert isinstance(prob, KakuroProblem) and prob.guide
    board = stream.first()
    _, cells = problem(BLOCK)
    assert tuple(board[c] for c in cells) == prob.guide


def test_huge_gets_a_first_solution() -> None:
    """MarcelGarus's huge.kakuro (101x31, 2,100 white cells): the plain tree finds no
    first solution in millions of nodes; the guided one goes straight to it."""
    path = shared_file("data", "kakuro", "backslash_marcelgarus", "huge.kakuro")
    if not compiled():
        pytest.skip("the SAT search takes minutes as plain Python")
    puzzle = kakuro.read(path)
    stream = kakuro.solve(puzzle)
    boards = stream.take(2)
    for board in boards:
        kakuro.verify(puzzle, board)
    assert len(boards) == 2 and boards[0] != boards[1]
    assert stream.search.stats.nodes < 2 * len(puzzle.white)


def test_a_random_grid_of_35_percent_black_gets_a_first_solution() -> None:
    """The team's random 100x100 grid (data/kakuro/random/README.md: many fillings,
    first solution 0.36 s when it was made): the first two fillings, each verified."""
    path = shared_file("data", "kakuro", "random", "d0.35_100_s1.txt")
    if not compiled():
        pytest.skip("the SAT search takes minutes as plain Python")
    puzzle = kakuro.read(path)
    boards = kakuro.solve(puzzle).take(2)
    for board in boards:
        kakuro.verify(puzzle, board)
    assert len(boards) == 2 and boards[0] != boards[1]


# -- puzzles with no filling: the sums at the root -------------------------------------


def brute_force_fillings(puzzle: Puzzle) -> list[dict[tuple[int, int], int]]:
    """Every filling of a small puzzle: each across run's orderings of distinct digits
    making its sum, any digit in a cell of no across run, each board then verified."""
    choices = []
    for run in puzzle.runs:
        if run.direction == "across":
            ways = [
                dict(zip(run.cells, digits, strict=True))
                for digits in itertools.permutations(range(1, 10), len(run.cells))
                if sum(digits) == run.total
            ]
            choices.append(ways)
    across = {cell for run in puzzle.runs if run.direction == "across" for cell in run.cells}
    for cell in sorted(puzzle.white - across):
        choices.append([{cell: d} for d in range(1, 10)])
    found = []
    for parts in itertools.product(*choices):
        board = {cell: d for part in parts for cell, d in part.items()}
        try:
            kakuro.verify(puzzle, board)
        except InvalidSolutionError:
            continue
        found.append(board)
    return found


def mistyped(puzzle: Puzzle, run_index: int, delta: int) -> Puzzle:
    """``puzzle`` with the sum of its ``run_index``-th run changed by ``delta``."""
    run = puzzle.runs[run_index]
    across, down = dict(puzzle.across), dict(puzzle.down)
    (across if run.direction == "across" else down)[run.clue] = run.total + delta
    return Puzzle(puzzle.rows, puzzle.cols, white=puzzle.white, across=across, down=down)


@settings(max_examples=40, deadline=None)
@given(blocks(), st.data())
def test_sums_refute_every_mistyped_clue_of_a_block(puzzle: Puzzle, data: st.DataObject) -> None:
    prob, _ = problem(puzzle)
    assert not guide.sums_refute(prob, [511] * prob.n)
    index = data.draw(st.integers(0, len(puzzle.runs) - 1))
    run = puzzle.runs[index]
    low, high = sum_range(len(run.cells))
    delta = data.draw(
        st.sampled_from([d for d in (-3, -2, -1, 1, 2, 3) if low <= run.total + d <= high])
    )
    bad = mistyped(puzzle, index, delta)
    prob, _ = problem(bad)
    # Every cell lies in two runs: the across sums must equal the down sums.
    assert guide.sums_refute(prob, [511] * prob.n)
    assert brute_force_fillings(bad) == []


def test_sums_bound_the_cells_of_one_run() -> None:
    """(1, 2) lies in the across run only and (2, 1) in the down run only, so
    ``4 - down = x(1, 2) - x(2, 1)``, bounded by those cells' digits."""

    def corner(down: int) -> Puzzle:
        white = {(1, 1), (1, 2), (2, 1)}
        return Puzzle(3, 3, white=white, across={(1, 0): 4}, down={(0, 1): down})

    def refuted(puzzle: Puzzle, mask: int) -> bool:
        prob, _ = problem(puzzle)
        return guide.sums_refute(prob, [mask] * prob.n)

    # -8 = 1 - 9: a filling (3 1 across, 3 9 down), but not with digits 1..3 only.
    assert [refuted(corner(12), 511), refuted(corner(12), 0b111)] == [False, True]
    assert len(brute_force_fillings(corner(12))) == 1
    assert [refuted(corner(5), 511), refuted(corner(5), 0b111)] == [False, False]
    # -9 is beyond any two digits: no filling.
    assert refuted(corner(13), 511)
    assert brute_force_fillings(corner(13)) == []
    # Domains left out count as every digit.
    assert guide.sums_refute(problem(mistyped(BLOCK, 0, 1))[0], [])


def cpsat_feasible(puzzle: Puzzle) -> bool | None:
    """CP-SAT's answer (one worker) when OR-Tools is installed, else None."""
    try:
        from ortools.sat.python import cp_model
    except ModuleNotFoundError:
        return None
    model = cp_model.CpModel()
    x = {cell: model.NewIntVar(1, 9, "") for cell in sorted(puzzle.white)}
    for run in puzzle.runs:
        model.AddAllDifferent([x[c] for c in run.cells])
        model.Add(sum(x[c] for c in run.cells) == run.total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def test_a_mistyped_clue_of_a_published_puzzle_is_no_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """prop_marcizhu's extreme.kak with the across 16 of its second row typed as 6 (issue
    23): the tree and the SAT search both get lost (no answer in 60 s); the sums answer
    at the root, before any SAT search."""
    path = shared_file("data", "kakuro", "prop_marcizhu", "generated", "extreme.kak")
    puzzle = kakuro.read(path)
    assert puzzle.across[(1, 8)] == 16
    bad = Puzzle(
        puzzle.rows,
        puzzle.cols,
        white=puzzle.white,
        across={**puzzle.across, (1, 8): 6},
        down=puzzle.down,
    )

    def no_sat(*args: object) -> tuple[int, ...]:
        raise AssertionError("the SAT search was asked")

    monkeypatch.setattr(guide, "sat_filling", no_sat)
    stream = kakuro.solve(bad)
    assert stream.first(None) is None
    prob = stream.search.problem
    assert isinstance(prob, KakuroProblem) and prob.guide == REFUTED
    assert stream.search.stats.nodes == 1
    assert cpsat_feasible(bad) in (False, None)
    # The puzzle as published still has its filling.
    kakuro.verify(puzzle, kakuro.solve(puzzle).first())
