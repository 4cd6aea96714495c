"""The dancing-cells engine against dancing links: the same solutions, another tree.

Dancing cells ends a try as soon as an item is left with no option (that child is no
node) and breaks ties among forced moves its own way, so its positions, node counts and
checkpoints are its own: they replay on cells, and a checkpoint of one engine is refused
by the other with a message that says so.
"""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import Colour, ExactCover, exact_cover
from lazysearch.engine import _native
from lazysearch.errors import CheckpointError
from lazysearch.exactcover import verify
from lazysearch.exactcover.problem import (
    AUTO_CELLS_DENSITY,
    AUTO_CELLS_OPTIONS,
    DLXProblem,
    conflicts_per_word,
)
from lazysearch.puzzles import langford_problem, queens_problem
from lazysearch.puzzles.polyomino import PENTOMINOES, rectangle, tiling_problem

from .helpers import brute_force_covers, small_problems

# shared/ORACLES.md
QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352]
LANGFORD = {3: 1, 4: 1, 5: 0, 7: 26, 8: 150}


def walk(cover: ExactCover) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], int]:
    """Every solution with its position, and the nodes entered."""
    search = cover.search()
    found = []
    for solution in search:
        found.append((solution, search.position))
    return found, search.stats.nodes


def with_engine(options: list, primary: list, secondary: list, engine: str) -> ExactCover:
    return ExactCover(options, primary=primary, secondary=secondary, engine=engine)


def solutions(cover: ExactCover) -> set[tuple[int, ...]]:
    return set(cover.solve())


@given(problem=small_problems())
@settings(max_examples=200, deadline=None)
def test_cells_find_the_covers_of_links(problem: tuple[list, list, list]) -> None:
    options, primary, secondary = problem
    links = walk(with_engine(options, primary, secondary, "links"))
    cells = walk(with_engine(options, primary, secondary, "cells"))
    found = [s for s, _ in cells[0]]
    assert len(found) == len(set(found))
    assert set(found) == {s for s, _ in links[0]}
    assert set(found) == brute_force_covers(options, primary, secondary)
    for s in found:
        verify(options, s, primary=primary, secondary=secondary)


@given(problem=small_problems(), cut=st.integers(0, 40))
@settings(max_examples=100, deadline=None)
def test_a_cells_search_resumes_from_its_own_checkpoint(
    problem: tuple[list, list, list], cut: int
) -> None:
    options, primary, secondary = problem
    cover = with_engine(options, primary, secondary, "cells")
    whole, nodes = walk(cover)
    search = cover.search()
    head = [next(search) for _ in range(min(cut, len(whole)))]
    resumed = cover.search().resume(search.checkpoint())
    rest = [(s, resumed.position) for s in resumed]
    assert head == [s for s, _ in whole[: len(head)]]
    assert rest == whole[len(head) :]
    assert resumed.stats.nodes == nodes


@given(problem=small_problems(colours=False))
@settings(max_examples=150, deadline=None)
def test_snapshots_and_the_trail_walk_the_same_tree(problem: tuple[list, list, list]) -> None:
    """The two ways the cells engine puts sizes back (problems without colours)."""
    options, primary, secondary = problem
    p = with_engine(options, primary, secondary, "cells").problem
    cells = _native.load("lazysearch.exactcover._cells")
    walks = []
    for snap in (False, True):
        engine = cells.CellsEngine(
            p.primary, p.secondary, p.option_items, p.option_colors, None, snap
        )
        found = []
        while engine.run(1, 0):
            found.append((engine.solution(), tuple(engine.position())))
        walks.append((found, engine.nodes))
    assert walks[0] == walks[1]
    assert {s for s, _ in walks[0][0]} == brute_force_covers(options, primary, secondary)


@st.composite
def piece_problems(
    draw: st.DrawFn, colours: bool = True
) -> tuple[list[list[Hashable]], list[str], list[str]]:
    """Problems shaped like tilings: each option is a piece (a primary item) and a few
    cells, the options of a piece given one after the other, so that the options of a
    cell often share their head (the piece): what the cells engine hides once for all."""
    n_cells = draw(st.integers(2, 6))
    n_secondary = draw(st.integers(0, 2))
    pieces = [f"P{k}" for k in range(draw(st.integers(1, 3)))]
    cells = [f"c{i}" for i in range(n_cells)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options: list[list[Hashable]] = []
    for piece in pieces:
        for _ in range(draw(st.integers(1, 5))):
            covered = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
            shared = (
                draw(st.lists(st.sampled_from(secondary), max_size=2, unique=True))
                if secondary
                else []
            )
            option: list[Hashable] = [piece, *covered]
            for item in shared:
                if colours and draw(st.booleans()):
                    option.append(Colour(item, draw(st.sampled_from("RG"))))
                else:
                    option.append(item)
            options.append(option)
    return options, pieces + cells, secondary


def engine_walk(p: DLXProblem, **kw: object) -> tuple[list[tuple[object, ...]], int, int]:
    """Solutions and positions, nodes and options tried from kept heads, of a cells
    engine built on ``p`` with the keywords ``snap`` and ``group``."""
    cells = _native.load("lazysearch.exactcover._cells")
    engine = cells.CellsEngine(
        p.primary,
        p.secondary,
        p.option_items,
        p.option_colors,
        None,
        kw.get("snap"),
        kw.get("group"),
    )
    found = []
    while engine.run(1, 0):
        found.append((engine.solution(), tuple(engine.position())))
    return found, engine.nodes, engine.shared


@given(problem=st.one_of(piece_problems(), small_problems()))
@settings(max_examples=200, deadline=None)
def test_hiding_a_head_once_for_its_options_walks_the_same_tree(
    problem: tuple[list, list, list],
) -> None:
    """Options that share their head start from the sizes kept after hiding its options:
    the same solutions, positions and nodes as trying each option alone, colours too."""
    options, primary, secondary = problem
    p = with_engine(options, primary, secondary, "cells").problem
    alone = engine_walk(p, group=False)
    grouped = engine_walk(p, group=True)
    assert alone[2] == 0
    assert grouped[:2] == alone[:2]
    assert {s for s, _ in alone[0]} == brute_force_covers(options, primary, secondary)
    if not any(any(c) for c in p.option_colors):
        assert engine_walk(p, group=True, snap=True)[:2] == alone[:2]


@given(problem=piece_problems(), cut=st.integers(0, 20))
@settings(max_examples=100, deadline=None)
def test_a_grouped_cells_search_resumes_from_its_own_checkpoint(
    problem: tuple[list, list, list], cut: int
) -> None:
    options, primary, secondary = problem
    cover = with_engine(options, primary, secondary, "cells")
    whole, nodes = walk(cover)
    search = cover.search()
    head = [next(search) for _ in range(min(cut, len(whole)))]
    resumed = cover.search().resume(search.checkpoint())
    assert head + [s for s in resumed] == [s for s, _ in whole]
    assert resumed.stats.nodes == nodes


def test_pentominoes_share_the_hiding_of_a_piece() -> None:
    """On 3x20 a third of the options tried start from their piece hidden already, and
    the tree is the one walked trying each alone."""
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    p = ExactCover(list(problem.options), primary=list(problem.primary), engine="cells").problem
    cells = _native.load("lazysearch.exactcover._cells")
    assert cells.groups(p.option_items)
    queens = queens_problem(8)
    q = with_engine(list(queens.options), list(queens.primary), list(queens.secondary), "cells")
    assert not cells.groups(q.problem.option_items)
    alone = engine_walk(p, group=False)
    grouped = engine_walk(p)
    assert len(alone[0]) == 8 and alone[1] == 9218
    assert grouped[:2] == alone[:2]
    assert grouped[2] > 5000


def test_snapshots_refuse_colours() -> None:
    cells = _native.load("lazysearch.exactcover._cells")
    with pytest.raises(ValueError, match="snapshots do not take colours"):
        cells.CellsEngine(1, 1, ((1, 2),), ((0, 1),), None, True)


@st.composite
def coloured_problems(draw: st.DrawFn) -> tuple[list, list, list]:
    """Problems where many options share secondary items in a few colours."""
    n_primary = draw(st.integers(1, 6))
    n_secondary = draw(st.integers(1, 4))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options = []
    for _ in range(draw(st.integers(1, 16))):
        items = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True))
        shared = draw(st.lists(st.sampled_from(secondary), max_size=3, unique=True))
        colours = draw(st.lists(st.integers(0, 2), min_size=len(shared), max_size=len(shared)))
        options.append(
            items + [Colour(s, c) if c else s for s, c in zip(shared, colours, strict=True)]
        )
    return options, primary, secondary


@given(problem=coloured_problems())
@settings(max_examples=200, deadline=None)
def test_cells_agree_with_links_and_brute_force_on_colours(
    problem: tuple[list, list, list],
) -> None:
    options, primary, secondary = problem
    links = solutions(with_engine(options, primary, secondary, "links"))
    cells = walk(with_engine(options, primary, secondary, "cells"))
    assert {s for s, _ in cells[0]} == links
    assert links == brute_force_covers(options, primary, secondary)


@pytest.mark.parametrize("n", range(1, len(QUEENS) + 1))
def test_cells_count_the_queens(n: int) -> None:
    problem = queens_problem(n)
    cover = ExactCover(
        list(problem.options),
        primary=list(problem.primary),
        secondary=list(problem.secondary),
        engine="cells",
    )
    assert cover.problem.chosen_engine() == "cells"
    assert cover.solve().count() == QUEENS[n - 1]


@pytest.mark.parametrize(("n", "expected"), sorted(LANGFORD.items()))
def test_cells_count_langford_pairs(n: int, expected: int) -> None:
    problem = langford_problem(n)
    cover = ExactCover(list(problem.options), primary=list(problem.primary), engine="cells")
    assert cover.solve().count() == expected


def test_cells_tile_3x20_with_the_pentominoes() -> None:
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    cover = ExactCover(list(problem.options), primary=list(problem.primary), engine="cells")
    found = list(cover.solve())
    assert len(found) == 8  # shared/ORACLES.md: 8 tilings, 2 up to symmetry
    for s in found:
        verify(cover.options, s, primary=cover.primary)


def test_cells_walk_fewer_nodes_than_links_on_pentominoes() -> None:
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    kw = {"primary": list(problem.primary)}
    links = ExactCover(list(problem.options), **kw, engine="links").search()
    cells = ExactCover(list(problem.options), **kw, engine="cells").search()
    assert links.count() == cells.count() == 8
    # The same item choices but for ties among forced moves; the tries that leave a
    # cell with no piece are no nodes (figures of this run, both engines).
    assert links.stats.nodes == 35726
    assert cells.stats.nodes == 9218


def test_a_checkpoint_of_one_engine_is_refused_by_the_other() -> None:
    problem = queens_problem(7)
    args = (list(problem.options),)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    cells = ExactCover(*args, **kw, engine="cells")
    links = ExactCover(*args, **kw, engine="links")
    assert cells.problem.fingerprint() != links.problem.fingerprint()
    assert cells.problem != links.problem
    first = cells.search()
    head = [next(first) for _ in range(15)]
    with pytest.raises(CheckpointError, match=r"taken on dancing cells.*engine='cells'"):
        links.search().resume(first.checkpoint())
    second = links.search()
    _ = [next(second) for _ in range(27)]
    with pytest.raises(CheckpointError, match=r"taken on dancing links.*engine='links'"):
        cells.search().resume(second.checkpoint())
    whole = list(cells.solve())
    assert head + list(cells.search().resume(first.checkpoint())) == whole
    assert sorted(whole) == sorted(links.solve())


def test_subtrees_split_on_cells_are_counted_on_cells() -> None:
    problem = queens_problem(8)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    cells = ExactCover(list(problem.options), **kw, engine="cells")
    prefixes = cells.search().subtrees(2)
    assert len(prefixes) > 1
    assert sum(cells.search().subtree(p).count() for p in prefixes) == 92


def test_knuths_estimate_runs_on_cells() -> None:
    """A random probe may take a choice that fails in the update: a leaf, no error."""
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    cover = ExactCover(list(problem.options), primary=list(problem.primary), engine="cells")
    est = cover.search().estimate(samples=300, seed=3)
    assert est.samples == 300
    assert 0 < est.nodes < 10**6


def test_least_constraining_order_runs_on_links() -> None:
    cover = ExactCover(["a b", "a", "b"], engine="cells", least_constraining=True)
    assert cover.problem.chosen_engine() == "links"
    assert sorted(cover.solve()) == [(0,), (1, 2)]


def sudoku_options(n: int) -> list[list[tuple[str, int, int]]]:
    """The options of a blank n x n sudoku grid (n a square), with labelled items."""
    side = math.isqrt(n)
    return [
        [("cell", r, c), ("row", r, v), ("column", c, v), ("box", r // side * side + c // side, v)]
        for r in range(n)
        for c in range(n)
        for v in range(n)
    ]


def test_auto_chooses_by_the_shape_of_the_problem() -> None:
    small = ExactCover(["a b", "a", "b"])
    assert small.problem.chosen_engine() == "links"  # fewer than 128 options
    langford = langford_problem(24, symmetry=False)  # too sparse for bits (test_bits_engine)
    assert ExactCover(list(langford.options)).problem.chosen_engine() == "cells"
    pentominoes = tiling_problem(rectangle(6, 10), PENTOMINOES)
    assert ExactCover(list(pentominoes.options)).problem.chosen_engine() == "bits"
    queens = queens_problem(24)  # secondary items, too sparse for bits: links
    auto = ExactCover(
        list(queens.options), primary=list(queens.primary), secondary=list(queens.secondary)
    )
    assert auto.problem.chosen_engine() == "links"
    # No secondary items and 128 options or more, but too sparse for cells: a sudoku
    # grid (0.4 to 4 conflicts per word) ran 1.4 to 5 times slower on cells than links.
    blank = ExactCover(list(sudoku_options(9)))
    assert conflicts_per_word(blank.problem.option_items) == 3.0
    assert blank.problem.chosen_engine() == "links"
    assert (AUTO_CELLS_OPTIONS, AUTO_CELLS_DENSITY) == (128, 4.5)


def test_auto_shares_the_fingerprint_of_the_engine_it_chose_and_survives_pickling() -> None:
    small = ["a b", "a", "b"]
    auto = ExactCover(small).problem
    assert auto.fingerprint() == ExactCover(small, engine="links").problem.fingerprint()
    langford = list(langford_problem(7).options)
    auto = ExactCover(langford).problem
    assert auto.fingerprint() == ExactCover(langford, engine="bits").problem.fingerprint()
    big = list(langford_problem(24, symmetry=False).options)
    assert (
        ExactCover(big).problem.fingerprint()
        == ExactCover(big, engine="cells").problem.fingerprint()
    )
    problem = ExactCover(["a b", "a", "b"], engine="cells").problem
    copy = pickle.loads(pickle.dumps(problem))
    assert copy.chosen_engine() == "cells"
    assert copy == problem
    assert copy.fingerprint() == problem.fingerprint()


def test_a_parallel_count_on_cells() -> None:
    problem = queens_problem(8)
    stream = exact_cover(
        list(problem.options),
        primary=list(problem.primary),
        secondary=list(problem.secondary),
        engine="cells",
    )
    assert stream.count(workers=2) == 92


@pytest.mark.parametrize("engine", ["", "dancing", "Links", None])
def test_an_unknown_engine_is_refused_with_its_name(engine: object) -> None:
    with pytest.raises(ValueError, match="engine must be one of auto, links, cells, bits, got"):
        ExactCover(["a"], engine=engine)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="engine"):
        DLXProblem(1, 0, ((1,),), ((0,),), engine="fast")


def test_the_cli_gives_the_same_answers_on_either_engine(tmp_path: object) -> None:
    problem = "a b c d\na b\nc d\na c\nb d\na d\nb c\n"
    outputs = []
    for engine in ("links", "cells", "auto"):
        done = subprocess.run(
            [sys.executable, "-m", "lazysearch", "dlx", "-", "--engine", engine],
            input=problem,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count(":\n") == 3


@pytest.mark.parametrize("engine", ["links", "cells"])
def test_a_seed_shuffles_the_options_on_either_engine(engine: str) -> None:
    problem = langford_problem(7)
    options = list(problem.options)
    plain = list(ExactCover(options, engine=engine).solve())
    orders = {s: list(ExactCover(options, engine=engine, seed=s).solve()) for s in range(4)}
    assert all(sorted(o) == sorted(plain) for o in orders.values())
    assert any(o != plain for o in orders.values())
    assert orders[2] == list(ExactCover(options, engine=engine, seed=2).solve())
    seeded = ExactCover(options, engine=engine, seed=2)
    assert seeded.problem.fingerprint() != ExactCover(options, engine=engine).problem.fingerprint()
    search = seeded.search()
    head = [next(search) for _ in range(9)]
    assert head + list(seeded.search().resume(search.checkpoint())) == orders[2]
    copy = pickle.loads(pickle.dumps(seeded.problem))
    assert copy == seeded.problem and copy.seed == 2
