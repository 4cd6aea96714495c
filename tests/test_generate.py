"""Sudoku generation: unique (checked by the exact-cover solver, another algorithm),
minimal clue by clue, reproducible from a seed, rated, and bad input refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lazysearch import compiled, sudoku
from lazysearch.puzzles.generate import LEVELS, GeneratedSudoku, level
from lazysearch.puzzles.sudoku import SudokuError

# Project Euler 96's first grid: naked and hidden singles alone solve it.
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# Arto Inkala's "AI Escargot": no single applies at the start.
HARD = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def solutions(puzzle: str, box: tuple[int, int]) -> int:
    """Fillings up to two, by the exact-cover solver (not the generator's engine)."""
    return len(sudoku.solve(puzzle, box=box).take(2))


def assert_unique_and_minimal(p: GeneratedSudoku) -> None:
    assert solutions(p, p.box) == 1
    sudoku.verify(p, p.solution, box=p.box)
    assert p.solution.givens == tuple(tuple(row) for row in p.grid())
    if not p.minimal:
        return
    for i, ch in enumerate(p):
        if ch != ".":
            fewer = p[:i] + "." + p[i + 1 :]
            assert solutions(fewer, p.box) == 2, f"clue {i} of {p} can go"


@pytest.mark.parametrize("box", [(1, 1), (1, 3), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_generated_puzzles_are_unique_and_minimal(box: tuple[int, int]) -> None:
    for seed in range(4):
        p = sudoku.generate(box, seed=seed)
        assert p.box == box and p.minimal and p.seed == seed
        assert len(p) == (box[0] * box[1]) ** 2
        assert_unique_and_minimal(p)


@pytest.mark.skipif(not compiled(), reason="16x16 generation takes minutes as plain Python")
def test_a_16x16_puzzle_is_unique_and_minimal() -> None:
    assert_unique_and_minimal(sudoku.generate((4, 4), seed=1))


def test_symmetric_puzzles_keep_their_clues_in_pairs() -> None:
    for seed in range(3):
        p = sudoku.generate(seed=seed, symmetric=True)
        assert solutions(p, (3, 3)) == 1
        assert all((p[i] == ".") == (p[80 - i] == ".") for i in range(81))
        for i in range(41):
            if p[i] != ".":
                fewer = list(p)
                fewer[i] = fewer[80 - i] = "."
                assert solutions("".join(fewer), (3, 3)) == 2


def test_not_minimal_stops_at_the_first_clue_that_must_stay() -> None:
    p = sudoku.generate(seed=2, minimal=False)
    assert solutions(p, (3, 3)) == 1 and not p.minimal
    assert p.clues >= sudoku.generate(seed=2).clues


def test_a_node_bound_keeps_uniqueness_and_says_when_minimality_is_not_proved() -> None:
    p = sudoku.generate((4, 4), seed=1, max_nodes=2)
    assert solutions(p, (4, 4)) == 1
    assert not p.minimal  # two nodes (8 and 32 tried again) prove little on a 16x16 grid
    # The rating's proof stops at 20 times the bound: its nodes are a lower bound.
    assert not p.rating.complete and p.rating.nodes == 40
    # Three nodes a proof, tried again with 12 and 48: every clue decided.
    q = sudoku.generate((4, 4), seed=1, max_nodes=3)
    assert q.minimal
    if compiled():  # clue by clue, by the exact-cover solver: minutes as plain Python
        assert_unique_and_minimal(q)
    # A root that propagation settles answers within any bound: clues still go.
    assert sudoku.generate((4, 4), seed=1, max_nodes=1).clues < 256


def test_clues_whose_proofs_ran_past_the_bound_are_tried_again_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With two nodes a proof, some clues of seed 4 are undecided on the first pass; tried
    again after the others (4 and 16 nodes), one goes and the rest are shown needed, so
    the puzzle is minimal, checked clue by clue by the exact-cover solver."""
    from lazysearch.puzzles import generate

    p = sudoku.generate(seed=4, max_nodes=2)
    assert p.minimal and p.clues == 23
    assert_unique_and_minimal(p)
    monkeypatch.setattr(generate, "RETRY_ROUNDS", 0)
    q = sudoku.generate(seed=4, max_nodes=2)
    assert not q.minimal and q.clues == 24
    assert solutions(q, (3, 3)) == 1


def test_a_retry_round_stops_when_most_of_its_proofs_run_past_the_bound_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """16x16 seed 0 with three nodes a proof: 90 clues undecided; with 12 nodes, 7 of the
    first 8 still are, so that round stops and the next (48 nodes) stops the same way:
    16 retried proofs instead of 163 (all of both rounds), the puzzle still unique."""
    from lazysearch.puzzles import generate

    retried: list[int] = []
    still_unique = generate.still_unique

    def spy(
        engine: object, puzzle: list[int], full: list[int], group: tuple[int, ...], budget: int = 0
    ) -> bool | None:
        if budget > 3:
            retried.append(budget)
        return still_unique(engine, puzzle, full, group, budget)

    monkeypatch.setattr(generate, "still_unique", spy)
    p = sudoku.generate((4, 4), seed=0, max_nodes=3)
    assert retried == [12] * 8 + [48] * 8
    assert not p.minimal and solutions(p, (4, 4)) == 1
    if not compiled():
        return  # all of both rounds: about 20 s as plain Python
    monkeypatch.setattr(generate, "RETRY_PROBE", 10**9)
    retried.clear()
    sudoku.generate((4, 4), seed=0, max_nodes=3)
    assert len(retried) == 163


# A 16x16 puzzle met while generating from seed 1, with the clue of cell 196 (a G)
# taken away: a filling puts another digit there.
SPARSE_16 = (
    ".B..6.87.5...E...649.......2..........1...96A......5....371.....98F...C....7.2.1..E1"
    "9.658.F...D.....8GAD.1..45..........G..B..6....E.5.9.8....1..49...E.A..CG7.B....1.D8"
    ".4.....9A.5.C..4...1...E41.....C...3D...F...B.9...8..6G...2..34.FC.97.5...6....2...A"
    "..4."
)
FULL_16 = (
    "3B1F6A87C54G9E2D76495C3FDAE218BG8CG24D1EBF96A375DEA529BG3718C4F698FG34CB5D67E2A1CAE1"
    "926583F4BGD763B78GAD21CE459F25D47EF1G9AB8C63B7CEA5G9683D2F14149DF6E3A25CG78BG2361BD8"
    "E47F5AC9AF58C7249BG16D3E418BGF5C7623D9EAFD7CB19A4E8536G2EG2AD346FCB971585963E8721GDA"
    "FB4C"
)


def test_a_clue_s_proof_branches_near_the_avoided_digit() -> None:
    """Searching for a filling that avoids a clue's digit branches on the cells nearest
    that clue first: 139 nodes here, where the first cell in reading order took 6,359."""
    from lazysearch.engine import _native
    from lazysearch.puzzles.generate import box_units
    from lazysearch.puzzles.sudoku import SYMBOLS

    puzzle = [SYMBOLS.find(ch) + 1 for ch in SPARSE_16]
    full = [SYMBOLS.find(ch) + 1 for ch in FULL_16]
    module = _native.load("lazysearch.puzzles._units")
    engine = module.UnitsEngine(16, 256, box_units(16, (4, 4)))
    engine.set_rank([int(d != full[c] - 1) for c in range(256) for d in range(16)])
    assert puzzle[196] == 0 and full[196] == 16
    assert engine.count(puzzle, 1, 0, 196, 16) == 1
    assert engine.nodes < 1_000
    other = engine.solution()
    assert other[196] != 16
    assert all(g in (0, d) for g, d in zip(puzzle, other, strict=True))
    assert sudoku.solve("".join(SYMBOLS[d - 1] for d in other), box=(4, 4)).count() == 1


# From seed 2, with the clue of cell 133 (a G) taken away: still one solution.
PAIRS_16 = (
    "D..E3.G.A....9....94...BG....236.5B....429.7GFC..F.2..A....B.....8C6G..2.D..3.F...5."
    ".....F2A8.1.....6B...C....7A.3.A..9C......5.B6..8...E..2....F.D.....7...B..93A...5.."
    ".......8.2E.B6C7..48..A5...7CF.G.....E94CDA..9....E4......6..D....B...8........8127G"
    "...."
)
PAIRS_FULL_16 = (
    "DC8E32G6A41F59B771945CFBGE8DA236A5B3E1842967GFCD6FG297AD53CB48E118C6GA724D953BFE975B"
    "D43E6F2A8C1G2GFD6B158C3E947AE34AF89CB7G1D652B6158GD9EAF2C743F4D823EA7G5CB1693A7C154F"
    "9BD6EG28G2E9B6C73148FDA58B27CF5GD6A31E94CDA17963F8E425GB4E6GAD21C5B9738F593F4EB8127G"
    "6ADC"
)


def test_a_clue_s_proof_uses_naked_and_hidden_pairs() -> None:
    """Pairs in a unit prune a clue's proof: 43 nodes here, where singles and locked
    candidates alone took 1,647 (the exact-cover solver agrees: one solution)."""
    from lazysearch.engine import _native
    from lazysearch.puzzles.generate import box_units
    from lazysearch.puzzles.sudoku import SYMBOLS

    puzzle = [SYMBOLS.find(ch) + 1 for ch in PAIRS_16]
    full = [SYMBOLS.find(ch) + 1 for ch in PAIRS_FULL_16]
    module = _native.load("lazysearch.puzzles._units")
    engine = module.UnitsEngine(16, 256, box_units(16, (4, 4)))
    engine.set_rank([int(d != full[c] - 1) for c in range(256) for d in range(16)])
    assert puzzle[133] == 0 and full[133] == 16
    assert engine.count(puzzle, 1, 0, 133, 16) == 0
    assert engine.nodes < 200
    assert sudoku.solve(PAIRS_16, box=(4, 4)).count() == 1


def test_the_same_seed_gives_the_same_puzzle() -> None:
    a = sudoku.generate(seed=7)
    b = sudoku.generate(seed=7)
    assert a == b and a.solution == b.solution and a.rating == b.rating
    assert sudoku.generate(seed=8) != a


def test_compiled_and_plain_python_make_the_same_puzzle() -> None:
    code = (
        "from lazysearch import sudoku\n"
        "for box in ((2, 3), (3, 3)):\n"
        "    p = sudoku.generate(box, seed=11, symmetric=box == (3, 3))\n"
        "    print(p, p.rating)\n"
    )
    outputs = []
    for pure in ("0", "1"):
        env = {**os.environ, "LAZYSEARCH_PURE": pure, "LAZYSEARCH_QUIET": "1"}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("Rating(") == 2


def test_a_generated_puzzle_is_what_solve_and_read_take() -> None:
    p = sudoku.generate(seed=3)
    assert isinstance(p, str)
    assert sudoku.loads(str(p) + "\n") == [str(p)]
    assert sudoku.solve(p.grid()).one() == p.solution
    data = p.json()
    assert data["puzzle"] == str(p) and data["seed"] == 3 and data["clues"] == p.clues
    assert sudoku.parse(data["solution"]) == [list(row) for row in p.solution]
    assert p.svg().startswith("<svg") and p.svg().count("<text") == p.clues


def test_ratings_grow_with_the_search_a_puzzle_needs() -> None:
    easy, hard = sudoku.rate(EASY), sudoku.rate(HARD)
    assert easy.nodes == 1 and easy.dead_ends == 0 and easy.score == 0 and easy.level == "easy"
    assert hard.nodes > 1 and hard.dead_ends is not None and hard.dead_ends > 0
    assert hard.score > easy.score
    assert [level(s) for s in (0, 1.5, 4, 9)] == [name for _, name in LEVELS]


def test_a_generated_puzzle_carries_its_own_rating() -> None:
    p = sudoku.generate(seed=5)
    assert p.rating == sudoku.rate(p)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"box": (0, 3)}, "box=(rows, columns)"),
        ({"box": "3x3"}, "'3x3'"),
        ({"box": (True, 3)}, "True"),
        ({"box": (6, 6)}, "36x36"),
        ({"variant": "hexadoku"}, "'hexadoku'"),
        ({"seed": "one"}, "'one'"),
        ({"minimal": "yes"}, "'yes'"),
        ({"max_nodes": 0}, "max_nodes"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SudokuError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sudoku.generate(**kwargs)  # type: ignore[arg-type]


def test_rating_refuses_a_puzzle_without_one_solution() -> None:
    with pytest.raises(SudokuError, match="two or more"):
        sudoku.rate("." * 16)
    with pytest.raises(SudokuError, match="clash"):
        sudoku.rate("11" + "." * 14)


def test_the_sudoku_reader_takes_generated_json_lines(tmp_path: Path) -> None:
    import json

    from lazysearch.errors import ParseError

    made = [sudoku.generate((3, 3), seed=s) for s in (1, 2)]
    path = tmp_path / "made.json"
    path.write_text("".join(json.dumps(p.json()) + "\n" for p in made), encoding="utf-8")
    puzzles = sudoku.read(path)
    assert puzzles == [str(p) for p in made]
    for puzzle, p in zip(puzzles, made, strict=True):
        (only,) = sudoku.solve(puzzle).take(2)
        assert only == p.solution
    # A 6x6 with 3x2 boxes: the box is kept by json_lines, and read() refuses to lose it.
    tall = sudoku.generate((3, 2), seed=3)
    line = json.dumps(tall.json())
    ((number, cells, box),) = sudoku.json_lines(line)
    assert (number, cells, box) == (1, str(tall), (3, 2))
    assert sudoku.solve(cells, box=box).count() == 1
    with pytest.raises(ParseError, match=r"<text>:1:1: this puzzle's box is 3x2"):
        sudoku.loads(line)
    # Mistakes name the line.
    with pytest.raises(ParseError, match=r"<text>:2:1: a JSON line needs a 'puzzle'"):
        sudoku.loads(json.dumps(made[0].json()) + '\n{"grid": "1..."}')
    with pytest.raises(ParseError, match=r"<text>:1:1: not a line of JSON: nested too deeply"):
        sudoku.loads('{"a":' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ParseError, match=r"<text>:1:1: 'box' is \[2, 2\], not \[rows"):
        sudoku.loads('{"puzzle": "' + "." * 81 + '", "box": [2, 2]}')
    with pytest.raises(ParseError, match=r"a cages puzzle \(a sudoku variant\)"):
        sudoku.loads('{"puzzle": "' + "." * 81 + '", "cages": [[3, [[0, 0], [0, 1]]]]}')
    from lazysearch.puzzles import variants

    deep = '{"a":' + "[" * 100_000 + "]" * 100_000 + "}"
    assert not variants.is_variant_text(deep)
    with pytest.raises(ParseError, match=r"<text>:1:1: not a line of JSON: nested too deeply"):
        variants.loads(deep)
