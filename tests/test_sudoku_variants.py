"""Sudoku variants (jigsaw, X, killer and their combinations): counts against brute
force, every solution checked by an independent checker, both engines agreeing, bad
input refused naming the place, the text format and the pictures."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import ParseError, sudoku
from lazysearch.puzzles import variants
from lazysearch.puzzles.sudoku import SudokuError

Cell = tuple[int, int]

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: Wikipedia's killer sudoku (public domain) and its published solution.
WIKIPEDIA_SOLUTION = (
    "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
)

CAGES4 = "aabbccddeeffgghh"
SUMS4 = "a=3 b=7 c=7 d=3 e=5 f=5 g=5 h=5"

#: Jigsaw layouts of a 4x4 grid (every region 4 connected cells).
JIGSAW4 = [
    "aabb aabb ccdd ccdd",
    "aaab abbb cccd cddd",
    "aaaa bbbb cccc dddd",
    "abbb aabb accd cccd",
]


def latin_squares(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every n x n Latin square, by brute force over row permutations (n <= 4)."""
    rows = list(itertools.permutations(range(1, n + 1)))
    out = []
    for square in itertools.product(rows, repeat=n):
        if all(len({row[c] for row in square}) == n for c in range(n)):
            out.append(square)
    return out


LATIN4 = latin_squares(4)


def obeys(
    grid: tuple[tuple[int, ...], ...], rules: variants.Variant, givens: list[list[int]]
) -> bool:
    """Brute force's own rule check (written apart from variants.verify)."""
    n = len(grid)
    if any(givens[r][c] and givens[r][c] != grid[r][c] for r in range(n) for c in range(n)):
        return False
    groups: dict[int, set[int]] = {}
    for r in range(n):
        for c in range(n):
            groups.setdefault(rules.region[r][c], set()).add(grid[r][c])
    if any(len(values) != n for values in groups.values()):
        return False
    if rules.diagonals and (
        len({grid[i][i] for i in range(n)}) != n or len({grid[i][n - 1 - i] for i in range(n)}) != n
    ):
        return False
    for total, cells in rules.cages:
        values = [grid[r][c] for r, c in cells]
        if sum(values) != total or len(set(values)) != len(values):
            return False
    return True


def partition(draw: st.DrawFn, n: int, largest: int) -> list[list[tuple[int, int]]]:
    """Cells cut into connected cages of 1..largest cells (some cells left out)."""
    free = {(r, c) for r in range(n) for c in range(n)}
    cages = []
    for cell in sorted(free):
        if cell not in free:
            continue
        cage = [cell]
        free.discard(cell)
        size = draw(st.integers(1, largest))
        while len(cage) < size:
            near = sorted(
                (r + dr, c + dc)
                for r, c in cage
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in free
            )
            if not near:
                break
            pick = draw(st.sampled_from(near))
            free.discard(pick)
            cage.append(pick)
        if draw(st.integers(0, 4)):  # most cells in a cage, a few outside
            cages.append(cage)
    return cages


@st.composite
def small_variants(draw: st.DrawFn) -> tuple[list[list[int]], dict[str, object]]:
    """A 4x4 variant: regions or boxes, maybe diagonals, cages with sums taken from a
    random Latin square (so often solvable) or nudged off it, and a few givens."""
    regions = draw(st.sampled_from([None, *JIGSAW4]))
    diagonals = draw(st.booleans())
    square = draw(st.sampled_from(LATIN4))
    cages = []
    for cells in partition(draw, 4, 3):
        total = sum(square[r][c] for r, c in cells) + draw(st.sampled_from([0, 0, 0, 1, -1]))
        low = len(cells) * (len(cells) + 1) // 2
        high = len(cells) * (9 - len(cells)) // 2
        cages.append((min(max(total, low), high), cells))
    givens = [[0] * 4 for _ in range(4)]
    for r, c in draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=3)):
        givens[r][c] = square[r][c]
    kwargs: dict[str, object] = {"regions": regions, "diagonals": diagonals}
    if draw(st.booleans()) or not (regions or diagonals):
        kwargs["cages"] = cages
    return givens, kwargs


@settings(max_examples=150, deadline=None)
@given(small_variants())
def test_4x4_counts_match_brute_force_on_both_engines(
    case: tuple[list[list[int]], dict[str, object]],
) -> None:
    givens, kwargs = case
    try:
        variants.givens_clash(givens, variants.variant(4, **kwargs))  # type: ignore[arg-type]
    except SudokuError:
        return  # two givens of one cage or region may clash: refused, as it should be
    rules = variants.variant(4, **kwargs)  # type: ignore[arg-type]
    expected = {g for g in LATIN4 if obeys(g, rules, givens)}
    found = list(sudoku.solve(givens, **kwargs))  # type: ignore[arg-type]
    assert {tuple(g) for g in found} == expected
    assert len(found) == len(expected)
    for g in found:
        variants.verify(givens, g, rules)
    if rules.cages:
        cover = variants.solve_variant(givens, engine="cover", **kwargs)  # type: ignore[arg-type]
        assert {tuple(g) for g in cover} == expected


def brute_count(givens: list[list[int]], rules: variants.Variant) -> int:
    """Solutions by plain recursive backtracking on the rules (an independent count)."""
    n = rules.n
    groups = [cells for _, cells in rules.units]
    cage_of = {cell: (total, cells) for total, cells in rules.cages for cell in cells}
    grid = [row[:] for row in givens]
    blanks = [(r, c) for r in range(n) for c in range(n) if not grid[r][c]]

    def fits(r: int, c: int) -> bool:
        v = grid[r][c]
        for cells in groups:
            if (r, c) in cells and sum(grid[x][y] == v for x, y in cells) > 1:
                return False
        if (r, c) in cage_of:
            total, cells = cage_of[(r, c)]
            values = [grid[x][y] for x, y in cells if grid[x][y]]
            if len(set(values)) != len(values) or sum(values) > total:
                return False
            if len(values) == len(cells) and sum(values) != total:
                return False
        return True

    def count(i: int) -> int:
        if i == len(blanks):
            return 1
        r, c = blanks[i]
        total = 0
        for v in range(1, n + 1):
            grid[r][c] = v
            if fits(r, c):
                total += count(i + 1)
        grid[r][c] = 0
        return total

    return count(0)


SOLVED6 = [
    [1, 2, 3, 4, 5, 6],
    [4, 5, 6, 1, 2, 3],
    [2, 3, 1, 5, 6, 4],
    [5, 6, 4, 2, 3, 1],
    [3, 1, 2, 6, 4, 5],
    [6, 4, 5, 3, 1, 2],
]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_6x6_killer_counts_match_backtracking(data: st.DataObject) -> None:
    cages = [
        (sum(SOLVED6[r][c] for r, c in cells), cells)
        for cells in partition(data.draw, 6, 4)
        if len({SOLVED6[r][c] for r, c in cells}) == len(cells)  # a cage's values differ
    ]
    keep = data.draw(st.lists(st.integers(0, 35), min_size=8, max_size=16, unique=True))
    givens = [[SOLVED6[r][c] if 6 * r + c in keep else 0 for c in range(6)] for r in range(6)]
    rules = variants.variant(6, cages=cages)
    found = list(sudoku.solve(givens, cages=cages))
    assert len(found) == brute_count(givens, rules) >= 1
    for g in found:
        variants.verify(givens, g, rules)


def test_wikipedia_killer_is_unique_and_matches_the_published_solution() -> None:
    puzzle = variants.read(str(EXAMPLES / "killer-wikipedia.txt"))
    assert puzzle.kind() == "killer" and len(puzzle.cages or ()) == 29
    found = sudoku.solve(puzzle.givens, cages=puzzle.cages).take(2)
    assert len(found) == 1
    assert "".join(map(str, itertools.chain(*found[0]))) == WIKIPEDIA_SOLUTION
    variants.verify(sudoku.parse(puzzle.givens), found[0], variants.variant(9, cages=puzzle.cages))
    cover = variants.solve_variant(sudoku.parse(puzzle.givens), cages=puzzle.cages, engine="cover")
    assert cover.take(2) == found


def test_x_and_jigsaw_9x9_solutions_verify() -> None:
    # The boxes with six cells passed on round a cycle a -> b -> c -> f -> e -> d -> a.
    regions = [
        "aaabbcccc",
        "aaabbbccc",
        "aabbbbfcc",
        "adddeefff",
        "dddeeefff",
        "dddeeeeff",
        "ggghhhiii",
        "ggghhhiii",
        "ggghhhiii",
    ]
    wrong = [regions[0].replace("aaab", "aaaa"), *regions[1:]]
    with pytest.raises(SudokuError, match=r"region 'a' .* has 10 cells"):
        sudoku.solve("." * 81, regions=wrong)
    for kwargs in ({"regions": regions}, {"diagonals": True}):
        found = sudoku.solve("." * 81, **kwargs).take(3)  # type: ignore[arg-type]
        assert len(found) == 3
        for g in found:
            variants.verify([[0] * 9] * 9, g, variants.variant(9, **kwargs))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"regions": "aabb abab ccdd ccdd"}, r"region 'a' is not connected: row 2, column 3"),
        ({"regions": "aaab aabb ccdd ccdd"}, r"region 'a' \(first at row 1, column 1\) has 5"),
        ({"regions": "aabb aabb ccdd"}, r"regions has 3 rows; a 4x4 grid needs 4"),
        (
            {"cages": [(3, [(0, 0), (0, 1)]), (5, [(0, 1), (1, 1)])]},
            r"cage 2: cell \(0, 1\) is also in cage 1",
        ),
        ({"cages": [(3, [(0, 0), (0, 4)])]}, r"cage 1: cell \(0, 4\) is outside the 4x4 grid"),
        (
            {"cages": [(8, [(0, 0), (0, 1)])]},
            r"cage 1: 2 distinct values 1..4 add up to 3..7, not 8",
        ),
        ({"cages": [(10, [(0, 0)] * 2)]}, r"cage 1: cell \(0, 0\) is twice in it"),
        ({"cages": "12"}, r"cages must be a list"),
        ({"diagonals": 1}, r"diagonals must be True or False"),
        ({"regions": "aabb aabb ccdd ccdd", "box": (2, 2)}, r"give box or regions"),
    ],
)
def test_bad_variants_are_refused_when_solve_is_called(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(SudokuError, match=message):
        sudoku.solve("." * 16, **kwargs)  # type: ignore[arg-type]


def test_givens_clashing_in_a_cage_or_diagonal_are_refused() -> None:
    with pytest.raises(SudokuError, match=r"share the main diagonal"):
        sudoku.solve("1" + "." * 9 + "1" + "." * 5, diagonals=True)
    with pytest.raises(SudokuError, match=r"share cage 1"):
        sudoku.solve("1" + "." * 5 + "1" + "." * 9, cages=[(5, [(0, 0), (1, 2)])])
    # A cage full of givens missing its sum: no solution, not an error.
    assert sudoku.solve("12" + "." * 14, cages=[(4, [(0, 0), (0, 1)])]).count() == 0


@pytest.mark.parametrize(
    ("text", "place", "message"),
    [
        ("cages:\naabb\naab\n", ":3:4:", "7 cells, not a square"),
        (f"cages: {CAGES4}\nsums: {SUMS4} x=3\n", ":2:39:", "no cell is in"),
        (f"cages: {CAGES4}\nsums: {SUMS4[:-4]}\n", ":1:22:", "cage 'h' has no sum"),
        (f"cages: {CAGES4}\nsums: {SUMS4[:-4]} h=99\n", ":2:35:", "add up to 3..7, not 99"),
        (f"cages: {CAGES4}\nsums: {SUMS4[:-4]} h:3\n", ":2:35:", "label=number"),
        ("givens: 1.3............5\n", ":1:24:", "'5' is not a value"),
        ("regions:\naabb\nabab\nccdd\nccdd\n", ":3:3:", "not connected"),
        ("cages:\naabb\nbbaa\nccdd\nccdd\nsums: a=10 b=10 c=10 d=10\n", ":2:1:", "not connected"),
    ],
)
def test_text_mistakes_name_line_and_column(text: str, place: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as info:
        variants.loads(text, source="p.txt")
    assert f"p.txt{place}" in str(info.value)


def test_text_formats_read_alike() -> None:
    sections = variants.loads(
        "givens:\n1...\n....\n....\n...4\ncages:\naabb\nccdd\neeff\ngghh\n"
        "sums: a=5 b=7 c=5 d=3 e=3 f=7 g=7 h=3\n"
    )
    codingame = variants.loads(
        "1... aabb\n.... ccdd\n.... eeff\n...4 gghh\na=5 b=7 c=5 d=3 e=3 f=7 g=7 h=3\n"
    )
    lines = variants.loads(
        "1..............4\naabbccddeeffgghh\nsums: a=5 b=7 c=5 d=3 e=3 f=7 g=7 h=3\n".replace(
            "1..............4\n", "givens: 1..............4\ncages: "
        )
    )
    for p in (codingame, lines):
        assert (p.givens, p.cages, p.regions) == (sections.givens, sections.cages, None)
    jigsaw_x = variants.loads("givens: " + "." * 16 + "\nregions: aaababbbcccdcddd\nx\n")
    assert jigsaw_x.kind() == "jigsaw x" and jigsaw_x.regions == ["aaab", "abbb", "cccd", "cddd"]
    assert variants.is_variant_text("cages:\n") and not variants.is_variant_text("1" * 81)


def test_write_reads_back_and_pictures_show_cages_and_regions() -> None:
    cages = [(3, [(0, 0), (0, 1)]), (9, [(1, 1), (2, 1), (2, 2)])]
    g = sudoku.solve("." * 16, regions=JIGSAW4[1], cages=cages, diagonals=True).first()
    assert g.rules is not None
    back = variants.loads(variants.write(g.givens or (), g.rules, box=False))
    assert back.cages == [(3, [(0, 0), (0, 1)]), (9, [(1, 1), (2, 1), (2, 2)])]
    assert back.regions == JIGSAW4[1].split() and back.diagonals
    picture = g.svg()
    assert picture.count("stroke-dasharray") == 2 and ">9</text>" in picture
    # The top row's sum sits inside its cell by its own baseline (renderers that ignore
    # dominant-baseline drew it above the picture).
    assert '<text x="0.16" y="0.34" font-size="0.22" font-family="sans-serif">3</text>' in picture
    assert 'dominant-baseline="hanging"' not in picture
    assert "M0 0L4 4" in picture  # the diagonals
    text = g.text()
    assert "|" in text.splitlines()[0] and text.splitlines()[-1] == "a=3 b=9"


def test_cli_detects_variants_and_takes_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main

    killer = str(EXAMPLES / "killer-wikipedia.txt")
    assert main(["sudoku", killer, "--count", "-q"]) == 0
    assert capsys.readouterr().out == "1\n"
    assert main(["sudoku", killer, "--killer", "--limit", "1"]) == 0
    shown = capsys.readouterr().out
    assert shown.splitlines()[1] == "2 1 5|6 4 7|3 9 8   aabbbcdef"
    assert main(["sudoku", killer, "--jigsaw"]) == 2
    assert capsys.readouterr().err.count("\n") == 1  # one line, no traceback
    blank = tmp_path / "blank.txt"
    blank.write_text("." * 16 + "\n")
    assert main(["sudoku", str(blank), "--x", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "48\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("regions:\naabb\nabab\nccdd\nccdd\n")
    assert main(["sudoku", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3:3: region 'a' is not connected" in err and err.count("\n") == 1
    assert main(["sudoku", killer, "--format", "svg", "-o", str(tmp_path / "k.svg")]) == 0
    assert (tmp_path / "k.svg").read_text().count("stroke-dasharray") == 29


# -- killer on the kakuro engine: houses, sums, innies and outies ----------------------------

GENERATED = EXAMPLES / "killer-generated.txt"


def generated_killers() -> list[tuple[str, variants.VariantText]]:
    """The benchmark's generated killers: blocks after the file's opening comment."""
    out = []
    for block in GENERATED.read_text().split("\n\n")[1:]:
        name = block.splitlines()[0].split(",")[0].lstrip("# ")
        out.append((name, variants.loads("cages:\n" + block)))
    return out


#: Nodes of each generated killer's tree (solution and proof of uniqueness), with houses,
#: innies/outies (runs up to 5 cells), cells numbered by weight and runs revised by
#: their combinations; 61, 3, 104, 262 and 7 with innie/outie runs up to 4 cells; 73,
#: 3, 88, 207 and 5 with runs walked (arc consistent) and no digits needed by a cage
#: taken from its house; in reading order 133, 3, 88, 311 and 5; without houses and
#: innies/outies (every unit walked as a run) 642, 446, 10,811, 859 and 813.
GENERATED_NODES = {"seed 535": 71, "seed 1059": 3, "seed 72": 98, "seed 484": 189, "seed 63": 7}


@pytest.mark.parametrize("name", sorted(GENERATED_NODES))
def test_generated_killers_are_unique_and_verified(name: str) -> None:
    puzzle = dict(generated_killers())[name]
    stream = sudoku.solve(puzzle.givens, cages=puzzle.cages)
    found = stream.take(2)
    assert len(found) == 1
    rules = variants.variant(9, cages=puzzle.cages)
    variants.verify(sudoku.parse(puzzle.givens), found[0], rules)
    assert stream.search.stats.nodes == GENERATED_NODES[name]
    # Every innie and outie sum holds in the solution (the 45 rule, checked apart).
    for cells, total in variants.innies_and_outies(rules):
        assert sum(found[0][r][c] for r, c in cells) == total


def brute_engine_count(
    houses: list[list[int]], runs: list[tuple[list[int], int]], sums: list[tuple[list[int], int]]
) -> int:
    """Fillings of 4 cells with digits 1..9 obeying every rule, by trying all 6,561."""
    count = 0
    for digits in itertools.product(range(1, 10), repeat=4):
        ok = all(
            sorted(digits[i] for i in cells) == list(range(1, len(cells) + 1)) for cells in houses
        )
        ok = ok and all(
            sum(digits[i] for i in cells) == total and len({digits[i] for i in cells}) == len(cells)
            for cells, total in runs
        )
        ok = ok and all(sum(digits[i] for i in cells) == total for cells, total in sums)
        count += ok
    return count


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_engine_houses_and_sums_count_like_brute_force(data: st.DataObject) -> None:
    """The engine's all-different houses (digits 1..k, once each) and sums (digits may
    repeat) against trying every filling of 4 cells."""
    from lazysearch.engine import _native

    engine_module = _native.load("lazysearch.sums._engine")
    subsets = st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True)
    houses = data.draw(st.lists(subsets, max_size=2))
    runs = [
        (cells, data.draw(st.integers(1, 30))) for cells in data.draw(st.lists(subsets, max_size=1))
    ]
    sums = [
        (cells, data.draw(st.integers(1, 30))) for cells in data.draw(st.lists(subsets, max_size=3))
    ]
    all_runs = [(tuple(c), len(c) * (len(c) + 1) // 2, 0) for c in houses]
    all_runs += [(tuple(c), total, 0) for c, total in runs]
    engine = engine_module.KakuroEngine(
        4, all_runs, (), list(range(len(houses))), [(tuple(c), t) for c, t in sums]
    )
    engine.run(0, 0)
    assert engine.solutions == brute_engine_count(houses, runs, sums)


def brute_engine_fillings(
    n: int, houses: list[list[int]], runs: list[tuple[list[int], int]]
) -> list[tuple[int, ...]]:
    """Fillings of ``n`` cells with digits 1..9: each house holds 1..k once, each run
    distinct digits adding up to its total; cell by cell, cut when a rule breaks."""
    rules = [(cells, len(cells) * (len(cells) + 1) // 2) for cells in houses] + runs
    out: list[tuple[int, ...]] = []
    digits: list[int] = []

    def fine() -> bool:
        for cells, total in rules:
            seen = [digits[i] for i in cells if i < len(digits)]
            if len(set(seen)) < len(seen) or sum(seen) > total:
                return False
            if len(seen) == len(cells) and sum(seen) != total:
                return False
        return True

    stack = [1]
    while stack:  # no recursion: the next digit to try at each depth
        if stack[-1] > 9:
            stack.pop()
            if digits:
                digits.pop()
            continue
        digits.append(stack[-1])
        stack[-1] += 1
        if not fine():
            digits.pop()
        elif len(digits) == n:
            out.append(tuple(digits))
            digits.pop()
        else:
            stack.append(1)
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_engine_cages_by_combinations_match_brute_force(data: st.DataObject) -> None:
    """Runs beside houses are revised by their combinations (singles per combination,
    digits a run needs leave the rest of a house holding it): every filling of 6 cells,
    and no digit of a cell the root's domains rule out, against brute force."""
    from lazysearch.engine import _native

    engine_module = _native.load("lazysearch.sums._engine")
    n = 6
    cells = st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)
    houses = data.draw(st.lists(cells, min_size=1, max_size=2))
    runs = [
        (c, data.draw(st.integers(len(c), 9 * len(c))))
        for c in data.draw(st.lists(cells, max_size=3))
    ]
    all_runs = [(tuple(c), len(c) * (len(c) + 1) // 2, 0) for c in houses]
    all_runs += [(tuple(c), total, 0) for c, total in runs]
    engine = engine_module.KakuroEngine(n, all_runs, (), list(range(len(houses))))
    fillings = brute_engine_fillings(n, houses, runs)
    if fillings:  # the root keeps every digit of every filling
        for c, mask in enumerate(engine.domains()):
            assert all(mask >> (f[c] - 1) & 1 for f in fillings)
    engine.run(0, 0)
    assert engine.solutions == len(fillings)


def test_engine_takes_a_cages_needed_digits_from_its_house() -> None:
    """A 3-cell cage making 6 in a row needs 1, 2 and 3: the row's six other cells lose
    them at the root (the house alone sees no triple there); the row then has 3! * 6!
    fillings."""
    from lazysearch.engine import _native

    engine_module = _native.load("lazysearch.sums._engine")
    engine = engine_module.KakuroEngine(9, [(tuple(range(9)), 45, 0), ((0, 4, 8), 6, 0)], (), [0])
    assert engine.domains() == [7, 511 & ~7, 511 & ~7, 511 & ~7, 7, 511 & ~7, 511 & ~7, 511 & ~7, 7]
    engine.run(0, 0)
    assert engine.solutions == 6 * 720


def test_engine_refuses_a_house_with_more_than_one_digit_set() -> None:
    from lazysearch.engine import _native

    engine_module = _native.load("lazysearch.sums._engine")
    with pytest.raises(ValueError, match="run 0 is no house: 2 cells making 7"):
        engine_module.KakuroEngine(2, [((0, 1), 7, 0)], (), [0])


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_innies_and_outies_hold_in_the_grid_the_cages_come_from(data: st.DataObject) -> None:
    cages = [
        (sum(SOLVED6[r][c] for r, c in cells), cells)
        for cells in partition(data.draw, 6, 5)
        if len({SOLVED6[r][c] for r, c in cells}) == len(cells)
    ]
    rules = variants.variant(6, cages=cages)
    found = variants.innies_and_outies(rules)
    assert len({cells for cells, _ in found}) == len(found)  # each set once
    for cells, total in found:
        assert len(cells) > 0 and sum(SOLVED6[r][c] for r, c in cells) == total


def killer16(seed: int) -> tuple[list[list[int]], list[list[int]], list[tuple[int, list[Cell]]]]:
    """A 16x16 killer made from a solved grid: the pattern grid with its values shuffled,
    cages of 2 or 3 cells (distinct values) cut at random, 5% of the cells given."""
    rng = random.Random(seed)
    n = 16
    pattern = [[(4 * (r % 4) + r // 4 + c) % n + 1 for c in range(n)] for r in range(n)]
    values = list(range(1, n + 1))
    rng.shuffle(values)
    grid = [[values[v - 1] for v in row] for row in pattern]
    rng = random.Random(seed)
    free = {(r, c) for r in range(n) for c in range(n)}
    cages = []
    for cell in sorted(free):
        if cell not in free:
            continue
        cage = [cell]
        free.discard(cell)
        size = rng.randint(2, 3)
        while len(cage) < size:
            taken = {grid[r][c] for r, c in cage}
            near = sorted(
                (r + dr, c + dc)
                for r, c in cage
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in free and grid[r + dr][c + dc] not in taken
            )
            if not near:
                break
            pick = rng.choice(near)
            free.discard(pick)
            cage.append(pick)
        cages.append((sum(grid[r][c] for r, c in cage), cage))
    rng = random.Random(seed)
    givens = [[grid[r][c] if rng.random() < 0.05 else 0 for c in range(n)] for r in range(n)]
    return grid, givens, cages


def test_16x16_killer_on_exact_cover_is_unique_and_verified() -> None:
    """Past 9x9 a killer is exact cover (a cage is one option per filling).  Seed 1 of
    :func:`killer16` has 103 cages and 20 givens and one solution, the grid it was cut
    from (seeds 0, 2 and 3 have two or more)."""
    grid, givens, cages = killer16(1)
    assert len(cages) == 103 and sum(v > 0 for row in givens for v in row) == 20
    found = sudoku.solve(givens, cages=cages).take(2)
    assert [[list(row) for row in g] for g in found] == [grid]
    variants.verify(givens, found[0], variants.variant(16, cages=cages))


def test_killer_problem_pickles_resumes_and_follows_a_guide() -> None:
    """The killer's problem (houses and sums beside the runs) travels to workers and
    checkpoints like kakuro's; no guide is worked out (the plain tree's order), and a
    guide given (here the SAT search's filling) keeps the tree and leads straight to
    its filling."""
    import pickle

    from lazysearch.kakuro import guide
    from lazysearch.kakuro.solver import KakuroProblem
    from lazysearch.search import Search

    puzzle = dict(generated_killers())["seed 484"]
    rows = sudoku.parse(puzzle.givens)
    rules = variants.variant(9, cages=puzzle.cages)
    problem, _ = variants.kakuro_problem(rows, rules)
    assert problem.houses and problem.sums and problem.order() == ()
    copy = pickle.loads(pickle.dumps(problem))
    assert (copy.houses, copy.sums, copy.fingerprint()) == (
        problem.houses,
        problem.sums,
        problem.fingerprint(),
    )
    cages6 = [(3, [(0, 0), (0, 1)]), (11, [(0, 2), (0, 3)]), (4, [(5, 4), (5, 5)])]
    ten = sudoku.solve("." * 36, cages=cages6).take(10)
    stream = sudoku.solve("." * 36, cages=cages6)
    head = stream.take(4)
    rest = sudoku.solve("." * 36, cages=cages6).resume(stream.checkpoint()).take(6)
    assert head + rest == ten and len(set(ten)) == 10
    sat = guide.sat_filling(KakuroProblem(problem.n, problem.runs, ()))
    assert len(sat) == 81
    guided = variants.KillerProblem(problem.n, problem.runs, sat, problem.houses, problem.sums)
    search = Search(guided)
    first = next(search)
    assert search.stats.nodes <= 11 < 45  # one path, against node 45 of the plain tree
    assert first == sat and list(search) == []
    assert search.stats.nodes == GENERATED_NODES["seed 484"]  # the same tree
