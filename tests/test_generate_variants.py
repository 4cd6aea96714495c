"""Generated sudoku variants: X, jigsaw, killer and their combinations.

Every puzzle is checked again by an independent solver (exact cover, or a brute force
over all 4x4 grids), and minimality clue by clue (or cage pair by cage pair)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from functools import cache

import pytest

from lazysearch import compiled, sudoku
from lazysearch.errors import ParseError
from lazysearch.puzzles import generate_variants as gv
from lazysearch.puzzles import variant_rules, variants
from lazysearch.puzzles.generate import GeneratedSudoku
from lazysearch.puzzles.variants import solve_variant

#: 9x9 killer and jigsaw-x take minutes as plain Python (the engines' nodes cost 50 to
#: 100 times more); the small grids run both ways.
compiled_only = pytest.mark.skipif(not compiled(), reason="minutes as plain Python")


def count_cover(p: gv.GeneratedVariant, grid: str | None = None, cages: object = None) -> int:
    """Solutions of ``p`` (or of its rules with other givens or cages), up to two, by
    exact cover: another algorithm than the generator's engines."""
    args = p.rules_args()
    if cages is not None:
        args["cages"] = cages
    rows = sudoku.parse(grid if grid is not None else str(p))
    return solve_variant(rows, engine="cover", **args).take(2).__len__()


@cache
def all_4x4() -> list[tuple[int, ...]]:
    """Every 4x4 Latin square (rows, columns), by brute force: 576 grids."""
    perms = list(itertools.permutations(range(1, 5)))
    out = []
    for rows in itertools.product(perms, repeat=4):
        if all(len({row[c] for row in rows}) == 4 for c in range(4)):
            out.append(tuple(v for row in rows for v in row))
    return out


def brute_count(p: gv.GeneratedVariant) -> int:
    """The 4x4 grids that keep ``p``'s givens, units and cages, by brute force."""
    rules = p.rules
    found = 0
    givens = [sudoku.SYMBOLS.find(ch) + 1 for ch in str(p)]
    for grid in all_4x4():
        if any(g and g != v for g, v in zip(givens, grid, strict=True)):
            continue
        if any(len({grid[r * 4 + c] for r, c in cells}) != 4 for _, cells in rules.units):
            continue
        if any(
            sum(grid[r * 4 + c] for r, c in cells) != total
            or len({grid[r * 4 + c] for r, c in cells}) != len(cells)
            for total, cells in rules.cages
        ):
            continue
        found += 1
    return found


def check_minimal_givens(p: gv.GeneratedVariant) -> None:
    """Each given blanked in turn gives a second solution."""
    line = str(p)
    for i, ch in enumerate(line):
        if ch != ".":
            assert count_cover(p, line[:i] + "." + line[i + 1 :]) == 2, i


def check_cages(p: gv.GeneratedVariant) -> None:
    """Cages cover the grid, connected, 1..MAX_CAGE cells, distinct digits, sums right."""
    n = p.rules.n
    assert p.cages is not None
    seen = [cell for _, cells in p.cages for cell in cells]
    assert sorted(seen) == [(r, c) for r in range(n) for c in range(n)]
    for total, cells in p.cages:
        assert 1 <= len(cells) <= gv.MAX_CAGE
        assert variant_rules.cut_off(cells) is None
        digits = [p.solution[r][c] for r, c in cells]
        assert len(set(digits)) == len(digits)
        assert sum(digits) == total


def check_minimal_cages(p: gv.GeneratedVariant) -> None:
    """No two side-by-side cages that could be one cage (at most MAX_CAGE cells, no digit
    twice) can be merged and leave one solution."""
    assert p.cages is not None
    n = p.rules.n
    full = [v for row in p.solution for v in row]
    for a, b in itertools.combinations(p.cages, 2):
        near = any(abs(r - r2) + abs(c - c2) == 1 for r, c in a[1] for r2, c2 in b[1])
        digits = [full[r * n + c] for r, c in a[1] + b[1]]
        if not near or len(digits) > gv.MAX_CAGE or len(set(digits)) != len(digits):
            continue
        merged = [cage for cage in p.cages if cage is not a and cage is not b]
        merged.append((a[0] + b[0], a[1] + b[1]))
        assert count_cover(p, cages=merged) == 2, (a, b)


# -- names and bad input -------------------------------------------------------------------


def test_variant_names_read_in_any_order() -> None:
    assert gv.variant_parts("x-jigsaw-KILLER") == ("killer", "jigsaw", "x")
    assert gv.variant_parts("jigsaw+x") == ("jigsaw", "x")
    p = sudoku.generate((2, 2), seed=1, variant="x-killer")
    assert p.variant == "killer-x"


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"variant": "y"}, "'y' is not one of killer, jigsaw, x"),
        ({"variant": "x-x"}, "at most once"),
        ({"variant": "-"}, "names none of"),
        ({"variant": 3}, "got 3"),
        ({"variant": "killer", "box": (4, 4)}, "up to 9x9"),
        ({"variant": "killer", "symmetric": True}, "has none"),
        ({"variant": "jigsaw", "box": (1, 3)}, "no regions to draw"),
        ({"variant": "x", "box": (1, 2)}, "keeps both diagonals"),
        ({"variant": "x", "seed": "1"}, "got '1'"),
        ({"variant": "x", "max_nodes": 0}, "max_nodes"),
        ({"variant": "x", "minimal": 1}, "minimal=True or False"),
    ],
)
def test_bad_arguments_name_the_value(kwargs: dict[str, object], words: str) -> None:
    box = kwargs.pop("box", (2, 2))
    with pytest.raises(sudoku.SudokuError, match=words):
        sudoku.generate(box, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["x", "jigsaw", "killer", "killer-x", "jigsaw-x", "killer-jigsaw"])
def test_every_4x4_has_one_solution_by_brute_force(name: str) -> None:
    """Seeds 1..12 of each 4x4 variant: one grid of all 576 Latin squares keeps it, and
    it is the generator's solution."""
    for seed in range(1, 13):
        p = sudoku.generate((2, 2), seed=seed, variant=name)
        assert brute_count(p) == 1, seed
        variants.verify(p.grid(), p.solution, p.rules)
        if p.cages is not None:
            check_cages(p)


# -- X -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("box", "seed"), [((2, 2), 1), ((2, 2), 2), ((3, 3), 1), ((3, 3), 5)])
def test_x_unique_minimal_and_its_diagonals_hold(box: tuple[int, int], seed: int) -> None:
    p = sudoku.generate(box, seed=seed, variant="x")
    assert isinstance(p, GeneratedSudoku) and p.variant == "x" and p.diagonals
    n = len(p.solution)
    # The full grid keeps both diagonals: plain generate()'s fill would not (it seeds
    # the boxes on the diagonal at random).
    assert len({p.solution[i][i] for i in range(n)}) == n
    assert len({p.solution[i][n - 1 - i] for i in range(n)}) == n
    variants.verify(p.grid(), p.solution, p.rules)
    assert count_cover(p) == 1
    assert sudoku.solve(p, **p.rules_args()).one() == p.solution
    assert p.minimal
    check_minimal_givens(p)
    if n == 4:
        assert brute_count(p) == 1


def test_x_symmetric_and_not_minimal() -> None:
    p = sudoku.generate((3, 3), seed=2, variant="x", symmetric=True)
    line = str(p)
    assert all((line[i] == ".") == (line[80 - i] == ".") for i in range(81))
    assert count_cover(p) == 1
    q = sudoku.generate((3, 3), seed=2, variant="x", minimal=False)
    assert count_cover(q) == 1 and q.clues > sudoku.generate((3, 3), seed=2, variant="x").clues


# -- jigsaw --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "seed", "name"),
    [
        ((2, 2), 1, "jigsaw"),
        ((2, 3), 3, "jigsaw"),
        ((3, 3), 1, "jigsaw"),
        ((2, 3), 2, "jigsaw-x"),
        pytest.param((3, 3), 2, "jigsaw-x", marks=compiled_only),
    ],
)
def test_jigsaw_regions_drawn_unique_minimal(box: tuple[int, int], seed: int, name: str) -> None:
    p = sudoku.generate(box, seed=seed, variant=name)
    n = box[0] * box[1]
    assert p.regions is not None
    # n connected regions of n cells: the reader's own check accepts them.
    assert variants.regions_grid(p.regions, n) == p.rules.region
    assert p.rules.region != variants.box_regions(n, box) or n == 4
    variants.verify(p.grid(), p.solution, p.rules)
    assert count_cover(p) == 1
    assert p.minimal
    check_minimal_givens(p)
    if n == 4:
        assert brute_count(p) == 1


@pytest.mark.parametrize(("name", "seed"), [("x", 1), ("jigsaw", 1), ("jigsaw-x", 2)])
def test_proofs_past_the_tree_bound_go_to_the_sat_search_with_the_variants_units(
    monkeypatch: pytest.MonkeyPatch, name: str, seed: int
) -> None:
    """Without max_nodes, X and jigsaw clues whose tree proof runs past TREE_NODES are
    settled by the SAT search, asked with the variant's own units (diagonals, regions):
    sparse 25x25 variants had only the unbounded tree search, which does not end there.
    With one node a proof, every clue that propagation alone does not settle goes to
    the SAT search, and the puzzle is the one the tree search alone makes (both answers
    are exact)."""
    from lazysearch.puzzles import generate

    alone = sudoku.generate((2, 3), seed=seed, variant=name)
    asked: list[int] = []
    real = generate.other_filling

    def other_filling(puzzle: list[int], cell: int, digit: int, units: list[list[int]]) -> object:
        asked.append(len(units))
        return real(puzzle, cell, digit, units)

    monkeypatch.setattr(generate, "TREE_NODES", 1)
    monkeypatch.setattr(generate, "other_filling", other_filling)
    p = sudoku.generate((2, 3), seed=seed, variant=name)
    assert str(p) == str(alone) and p.rules_args() == alone.rules_args() and p.minimal
    # Rows, columns and regions (6 of each), and the two diagonals for X.
    assert asked and set(asked) == {18 + 2 * ("x" in name)}
    assert count_cover(p) == 1
    check_minimal_givens(p)


def test_random_regions_are_connected_and_seeded() -> None:
    import random

    for seed in range(6):
        region = gv.random_regions(9, (3, 3), random.Random(seed))
        variants.regions_grid(region, 9)  # raises unless 9 connected regions of 9
        assert region == gv.random_regions(9, (3, 3), random.Random(seed))
    assert gv.random_regions(9, (3, 3), random.Random(1)) != gv.random_regions(
        9, (3, 3), random.Random(2)
    )


# -- killer --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "seed", "name"),
    [
        ((2, 2), 1, "killer"),
        ((2, 2), 2, "killer-x"),
        ((2, 3), 1, "killer"),
        ((2, 3), 2, "killer-jigsaw"),
        ((2, 3), 4, "killer-x"),
    ],
)
def test_small_killer_no_givens_unique_minimal(box: tuple[int, int], seed: int, name: str) -> None:
    p = sudoku.generate(box, seed=seed, variant=name)
    assert p.clues == 0 and set(str(p)) == {"."}
    check_cages(p)
    variants.verify(p.grid(), p.solution, p.rules)
    assert count_cover(p) == 1
    assert p.minimal
    check_minimal_cages(p)
    if box == (2, 2):
        assert brute_count(p) == 1


@compiled_only
def test_9x9_killer_unique_and_its_cages() -> None:
    p = sudoku.generate((3, 3), seed=4, variant="killer")
    assert p.clues == 0
    check_cages(p)
    assert count_cover(p) == 1
    assert p.rating.nodes > 1 and p.rating.complete
    assert p.minimal  # every merge's proof ended within KILLER_NODES
    check_minimal_cages(p)


def test_killer_cut_takes_a_differing_cell_apart() -> None:
    import random

    cage = [(0, 0), (0, 1), (0, 2), (1, 2)]
    pieces = gv.cut(cage, (0, 1), random.Random(1))
    assert len(pieces) >= 2
    assert sorted(cell for piece in pieces for cell in piece) == cage
    assert all(variant_rules.cut_off(piece) is None for piece in pieces)
    assert any((0, 1) in piece and len(piece) <= 2 for piece in pieces)


def test_killer_not_minimal_is_one_merge_pass() -> None:
    # The same draws up to the end of the first pass; minimal goes on merging.
    for seed in (1, 2, 3):
        quick = sudoku.generate((2, 3), seed=seed, variant="killer", minimal=False)
        full = sudoku.generate((2, 3), seed=seed, variant="killer")
        assert not quick.minimal and count_cover(quick) == 1
        assert len(quick.cages or ()) >= len(full.cages or ())
        check_cages(quick)


def test_killer_budget_leaves_minimality_unproved() -> None:
    # With one node a proof, no merge proof ends: no merge is made, and the puzzle
    # (still unique) does not claim to be minimal.
    p = sudoku.generate((3, 3), seed=5, variant="killer", max_nodes=1)
    assert not p.minimal
    assert count_cover(p) == 1


# -- same seed, same puzzle ------------------------------------------------------------------

CASES = [
    ("x", (3, 3), 3),
    ("jigsaw", (2, 3), 5),
    ("killer", (2, 3), 7),
    ("killer-jigsaw-x", (2, 2), 1),
]


def test_same_seed_same_puzzle_compiled_and_plain() -> None:
    here = [json.dumps(sudoku.generate(box, seed=s, variant=v).json()) for v, box, s in CASES]
    assert here == [
        json.dumps(sudoku.generate(box, seed=s, variant=v).json()) for v, box, s in CASES
    ]
    script = (
        "import json\nfrom lazysearch import sudoku\n"
        f"for v, box, s in {CASES!r}:\n"
        "    print(json.dumps(sudoku.generate(box, seed=s, variant=v).json()))\n"
    )
    env = dict(os.environ, LAZYSEARCH_PURE="1")
    plain = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert plain.stdout.splitlines() == here


# -- text and JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "box", "seed"),
    [
        *CASES,
        ("x", (3, 2), 2),
        ("killer-x", (2, 3), 2),
        pytest.param("jigsaw-x", (3, 3), 1, marks=compiled_only),
    ],
)
def test_text_and_json_read_back(name: str, box: tuple[int, int], seed: int) -> None:
    p = sudoku.generate(box, seed=seed, variant=name)
    for text in (p.text(), json.dumps(p.json())):
        back = variants.loads(text)
        assert variants.is_variant_text(text)
        assert back.givens == str(p)
        assert back.diagonals == p.diagonals
        assert (back.cages is not None) == (p.cages is not None)
        stream = sudoku.solve(
            back.givens, regions=back.regions, diagonals=back.diagonals, cages=back.cages
        )
        assert stream.take(2) == [p.solution]


def test_json_fields() -> None:
    p = sudoku.generate((2, 2), seed=2, variant="killer-jigsaw")
    data = p.json()
    assert data["variant"] == "killer-jigsaw" and data["puzzle"] == "." * 16
    assert data["regions"] == gv.regions_picture(p.rules)
    assert data["cages"] == [[t, [list(c) for c in cells]] for t, cells in p.cages or ()]
    assert data["minimal"] is True and data["rating"]["complete"] is True
    svg = p.svg()
    assert svg.startswith("<svg") and "stroke-dasharray" in svg


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"puzzle": 3}', "'puzzle' string"),
        ('{"puzzle": "....", "diagonals": 1}', "'diagonals' is 1"),
        ('{"puzzle": "....", "regions": "ab"}', "'regions' is 'ab'"),
        ('{"puzzle": "....", "cages": [[3, [[0]]]]}', "cage 1 is"),
        ('{"puzzle": "....", "diagonals": true}\n{"puzzle": "...."}', "single line"),
        ('{"puzzle": ', "not a line of JSON"),
    ],
)
def test_bad_json_is_a_parse_error(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        variants.loads(text, source="p.json")


def test_two_generated_texts_are_refused_by_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["generate", "sudoku", "--variant", "x", "--box", "2x2", "--number", "2", "--seed", "1"]
    status, out, _ = run(argv, capsys)
    assert status == 0 and out.count("givens:") == 2
    second = out.splitlines().index("givens:", 2) + 1
    with pytest.raises(ParseError, match=f"p.txt:{second}:1: a second givens grid"):
        variants.loads(out, source="p.txt")


def test_plain_generated_json_is_not_variant_text() -> None:
    p = sudoku.generate((2, 2), seed=1)
    assert not variants.is_variant_text(json.dumps(p.json()))


# -- ratings ---------------------------------------------------------------------------------


def test_rate_variant() -> None:
    p = sudoku.generate((3, 3), seed=1, variant="x")
    r = gv.rate_variant(str(p), diagonals=True)
    assert r.complete and r.nodes >= 1
    # Filling in the solution's first blanks makes it no harder.
    line = list(str(p))
    full = "".join(sudoku.SYMBOLS[v - 1] for row in p.solution for v in row)
    for i in [i for i, ch in enumerate(line) if ch == "."][:30]:
        line[i] = full[i]
    easier = gv.rate_variant("".join(line), diagonals=True)
    assert easier.nodes <= r.nodes and easier.score == 0.0
    with pytest.raises(sudoku.SudokuError, match="two or more"):
        gv.rate_variant("." * 16, diagonals=True)
    k = sudoku.generate((2, 3), seed=1, variant="killer")
    rk = gv.rate_variant(str(k), cages=k.cages)
    assert rk.complete and rk.nodes >= 1
    # A given is a one-cell cage: the full grid rates as propagation alone.
    assert gv.rate_variant(full, diagonals=True).nodes == 1
    # sudoku.rate() takes the rules as solve() does.
    assert sudoku.rate(str(k), cages=k.cages) == rk == k.rating
    assert sudoku.rate(str(p), diagonals=True) == r


# -- command line ----------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from lazysearch.cli import main

    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", ["x", "jigsaw", "killer", "killer-jigsaw-x"])
def test_cli_text_and_json_solved_back(
    name: str, capsys: pytest.CaptureFixture[str], tmp_path: pytest.TempPathFactory
) -> None:
    expected = sudoku.generate((2, 3), seed=9, variant=name)
    argv = ["generate", "sudoku", "--box", "2x3", "--seed", "9", "--variant", name]
    for fmt in ("text", "json"):
        status, out, _ = run([*argv, "--format", fmt], capsys)
        assert status == 0
        if fmt == "json":
            assert json.loads(out) == expected.json()
        else:
            assert out.startswith(f"# seed 9: {expected.variant}, ")
            assert out.endswith(expected.text() + "\n")
        path = tmp_path / f"p.{fmt}"  # type: ignore[operator]
        path.write_text(out)
        status, out, _ = run(["sudoku", str(path), "--format", "json"], capsys)
        assert status == 0
        lines = [json.loads(line) for line in out.splitlines()]
        assert [line["grid"] for line in lines] == [[list(r) for r in expected.solution]]


def test_cli_svg_and_bad_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["generate", "sudoku", "--variant", "killer", "--box", "2x2"], capsys)
    assert status == 0 and "cages:" in out
    argv = ["generate", "sudoku", "--variant", "jigsaw", "--seed", "1", "--format", "svg"]
    status, out, _ = run(argv, capsys)
    assert status == 0 and out == sudoku.generate(seed=1, variant="jigsaw").svg()
    for argv, words in (
        (["generate", "sudoku", "--variant", "xx"], "variant 'xx': 'xx' is not one of"),
        (["generate", "kakuro", "--variant", "x"], "generate kakuro takes no --variant"),
        (["generate", "sudoku", "--variant", "killer", "--box", "4x4"], "up to 9x9"),
    ):
        status, out, err = run(argv, capsys)
        assert status != 0 and out == ""
        assert words in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1
