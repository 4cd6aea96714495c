"""The bitset engine (``engine="bits"``) against dancing links: the same solutions.

Without colours, the bitset engine branches on the item links would (the first with the
fewest options left, in item order) and enters, like links, the tries that leave an item
with no option: the two walk the same tree node for node.  Its fingerprint names it all
the same (a checkpoint of one engine is refused by the others), so that a change of
either engine's rule can never replay a position wrongly.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Hashable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import Colour, ExactCover, parallel
from lazysearch.engine import _native
from lazysearch.errors import CheckpointError, ExactCoverError
from lazysearch.exactcover import verify
from lazysearch.exactcover.problem import (
    AUTO_BITS_DENSITY,
    AUTO_BITS_OPTIONS,
    AUTO_BITS_OVER_LINKS,
    AUTO_CELLS_DENSITY,
    DLXProblem,
    conflicts_per_word,
)
from lazysearch.puzzles import langford_problem, queens_problem
from lazysearch.puzzles.polyomino import PENTOMINOES, rectangle, tiling_problem
from lazysearch.puzzles.sudoku import parse, sudoku_problem
from lazysearch.search import Search

from .helpers import brute_force_covers, small_problems

# shared/ORACLES.md
QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680]
LANGFORD = {3: 1, 4: 1, 5: 0, 7: 26, 8: 150, 11: 17792}
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def walk(cover: ExactCover) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], int]:
    """Every solution with its position, and the nodes entered."""
    search = cover.search()
    found = []
    for solution in search:
        found.append((solution, search.position))
    return found, search.stats.nodes


def with_engine(options: list, primary: list, secondary: list, engine: str) -> ExactCover:
    return ExactCover(options, primary=primary, secondary=secondary, engine=engine)


def as_bits(problem: ExactCover) -> ExactCover:
    return with_engine(
        list(problem.options), list(problem.primary), list(problem.secondary), "bits"
    )


@st.composite
def wide_problems(draw: st.DrawFn) -> tuple[list, list, list]:
    """Problems of up to 150 options over up to 70 primary items: bitsets of several
    64-bit words (options and items), so that words are crossed, compiled."""
    n_primary = draw(st.integers(1, 70))
    n_secondary = draw(st.integers(0, 6))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options: list[list[Hashable]] = []
    for _ in range(draw(st.integers(1, 150))):
        size = draw(st.integers(1, 3))
        start = draw(st.integers(0, n_primary - 1))
        items: list[Hashable] = [primary[(start + k) % n_primary] for k in range(size)]
        items = list(dict.fromkeys(items))
        if secondary:
            items += draw(st.lists(st.sampled_from(secondary), max_size=2, unique=True))
        options.append(items)
    return options, primary, secondary


@given(problem=small_problems(colours=False))
@settings(max_examples=200, deadline=None)
def test_bits_walk_the_tree_of_links(problem: tuple[list, list, list]) -> None:
    options, primary, secondary = problem
    links = walk(with_engine(options, primary, secondary, "links"))
    bits = walk(with_engine(options, primary, secondary, "bits"))
    assert bits == links  # solutions, positions and nodes
    assert {s for s, _ in bits[0]} == brute_force_covers(options, primary, secondary)
    for s, _ in bits[0]:
        verify(options, s, primary=primary, secondary=secondary)


@given(problem=wide_problems())
@settings(max_examples=120, deadline=None)
def test_bits_agree_with_links_on_problems_of_many_words(
    problem: tuple[list, list, list],
) -> None:
    options, primary, secondary = problem
    links = with_engine(options, primary, secondary, "links").search()
    bits = with_engine(options, primary, secondary, "bits").search()
    head_links = [next(links, None) for _ in range(30)]
    head_bits = [next(bits, None) for _ in range(30)]
    assert head_bits == head_links
    assert bits.position == links.position
    assert bits.stats.nodes == links.stats.nodes


@given(problem=small_problems(colours=False), cut=st.integers(0, 40))
@settings(max_examples=100, deadline=None)
def test_a_bits_search_resumes_from_its_own_checkpoint(
    problem: tuple[list, list, list], cut: int
) -> None:
    options, primary, secondary = problem
    cover = with_engine(options, primary, secondary, "bits")
    whole, nodes = walk(cover)
    search = cover.search()
    head = [next(search) for _ in range(min(cut, len(whole)))]
    resumed = cover.search().resume(search.checkpoint())
    rest = [(s, resumed.position) for s in resumed]
    assert head == [s for s, _ in whole[: len(head)]]
    assert rest == whole[len(head) :]
    assert resumed.stats.nodes == nodes


@pytest.mark.parametrize("n", range(1, len(QUEENS) + 1))
def test_bits_count_the_queens(n: int) -> None:
    cover = as_bits(queens_problem(n))
    assert cover.problem.chosen_engine() == "bits"
    assert cover.solve().count() == QUEENS[n - 1]


@pytest.mark.parametrize(("n", "expected"), sorted(LANGFORD.items()))
def test_bits_count_langford_pairs(n: int, expected: int) -> None:
    assert as_bits(langford_problem(n)).solve().count() == expected


def test_bits_tile_3x20_with_the_pentominoes_on_the_tree_of_links() -> None:
    problem = tiling_problem(rectangle(3, 20), PENTOMINOES)
    cover = as_bits(problem)
    search = cover.search()
    found = list(search)
    assert len(found) == 8  # shared/ORACLES.md: 8 tilings, 2 up to symmetry
    assert search.stats.nodes == 35726  # links' nodes (test_engines.py)
    for s in found:
        verify(cover.options, s, primary=cover.primary)


def test_bits_count_the_4x4_sudoku_grids_and_prove_ai_escargot_unique() -> None:
    blank = sudoku_problem(parse("." * 16))
    assert isinstance(blank, DLXProblem)
    blank.engine_kind = "bits"
    assert Search(blank).count() == 288
    hard = sudoku_problem(parse(ESCARGOT))
    assert isinstance(hard, DLXProblem)
    hard.engine_kind = "bits"
    assert Search(hard).count() == 1


def test_bits_count_the_6x10_pentominoes_in_parts() -> None:
    """Subtrees at depth 2 of the 6x10 board, counted apart, add up to the oracle."""
    if not _native.load("lazysearch.exactcover._bits").COMPILED:
        pytest.skip("9,356 tilings take about a minute as plain Python")
    cover = as_bits(tiling_problem(rectangle(6, 10), PENTOMINOES))
    prefixes = cover.search().subtrees(2)
    assert len(prefixes) > 10
    assert sum(cover.search().subtree(p).count() for p in prefixes) == 9356


def test_subtrees_split_on_bits_are_counted_on_bits() -> None:
    cover = as_bits(queens_problem(8))
    prefixes = cover.search().subtrees(2)
    assert len(prefixes) > 1
    assert sum(cover.search().subtree(p).count() for p in prefixes) == 92
    assert parallel.count(cover.search(), workers=1, depth=2) == 92


def test_a_bits_count_stops_at_its_budget_and_goes_on() -> None:
    cover = as_bits(queens_problem(8))
    links = with_engine(
        list(cover.options), list(cover.primary), list(cover.secondary), "links"
    ).search()
    part = cover.search().count_within(nodes=500)
    same = links.count_within(nodes=500)
    assert not part.done and part.found == same.found < 92
    assert part.found + cover.search().resume(part.checkpoint).count() == 92


def test_positions_replay_on_bits() -> None:
    cover = as_bits(queens_problem(7))
    whole = walk(cover)[0]
    for solution, position in whole[::5]:
        engine = cover.problem.engine()
        assert engine.replay(list(position[:-1]))
        assert engine.branching() > position[-1]
        assert engine.replay([position[-1]])
        assert engine.branching() == -1
        assert engine.solution() == solution
    engine = cover.problem.engine()
    assert not engine.replay([0, 99])  # no such choice


def test_a_checkpoint_of_bits_is_refused_by_the_other_engines() -> None:
    problem = queens_problem(7)
    covers = {
        engine: with_engine(
            list(problem.options), list(problem.primary), list(problem.secondary), engine
        )
        for engine in ("links", "cells", "bits")
    }
    prints = {e: c.problem.fingerprint() for e, c in covers.items()}
    assert len(set(prints.values())) == 3
    search = covers["bits"].search()
    head = [next(search) for _ in range(15)]
    for other in ("links", "cells"):
        with pytest.raises(CheckpointError, match=r"taken on bitsets.*engine='bits'"):
            covers[other].search().resume(search.checkpoint())
    links = covers["links"].search()
    _ = [next(links) for _ in range(5)]
    with pytest.raises(CheckpointError, match=r"taken on dancing links.*engine='links'"):
        covers["bits"].search().resume(links.checkpoint())
    whole = list(covers["bits"].solve())
    assert head + list(covers["bits"].search().resume(search.checkpoint())) == whole


def test_a_seeded_order_runs_on_bits() -> None:
    problem = queens_problem(6)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    seeded = ExactCover(list(problem.options), **kw, engine="bits", seed=5)
    links = ExactCover(list(problem.options), **kw, engine="links", seed=5)
    assert list(seeded.solve()) == list(links.solve())  # the same shuffled tree
    assert list(seeded.solve()) != sorted(seeded.solve())
    assert seeded.problem.fingerprint() != links.problem.fingerprint()


def test_bits_refuse_colours_naming_the_option() -> None:
    options = [["p", "x"], ["q", Colour("x", "red")]]
    with pytest.raises(ExactCoverError, match=r"engine='bits' takes no colours.*option 1"):
        ExactCover(options, secondary=["x"], engine="bits")
    cover = ExactCover(options, secondary=["x"])
    with pytest.raises(ExactCoverError, match="option 1"):
        cover.problem.engine_kind = "bits"  # what `lazysearch dlx --engine bits` does
    assert cover.problem.engine_kind == "auto"
    bits = _native.load("lazysearch.exactcover._bits")
    with pytest.raises(ValueError, match="no colours"):
        bits.BitsEngine(1, 1, ((1, 2),), ((0, 1),))


def test_bits_refuse_a_problem_too_large_for_their_masks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lazysearch.exactcover import problem

    monkeypatch.setattr(problem, "BITS_MAX_WORDS", 160)
    with pytest.raises(ExactCoverError, match=r"81 options would take 1,296 bytes"):
        ExactCover([f"a{i}" for i in range(81)], engine="bits")
    assert ExactCover([f"a{i}" for i in range(80)], engine="bits").solve().count() == 1
    bits = _native.load("lazysearch.exactcover._bits")
    assert bits.MAX_WORDS == 1 << 24
    assert problem.BITS_MAX_WORDS == 160  # the module's own stays the engine's
    monkeypatch.setattr(bits, "MAX_WORDS", 1)
    with pytest.raises(ValueError, match="2 options need 2"):
        bits.BitsEngine(2, 0, ((1,), (2,)), ((0,), (0,)))


def test_edge_cases_on_bits() -> None:
    assert list(ExactCover([], primary=[], engine="bits").solve()) == [()]
    assert list(ExactCover(["a"], primary=["a", "b"], engine="bits").solve()) == []
    # Options and items about the edges of a word: each item alone, all of them at
    # once, and pairs along the first ten (the 89 covers of those, and one more).
    for n in (53, 54, 55, 63, 64, 65, 130):
        chain = [f"i{k}" for k in range(n)]
        pairs = [f"{a} {b}" for a, b in itertools.pairwise(chain[:10])]
        options = [*chain, " ".join(chain), *pairs]
        cover = ExactCover(options, engine="bits")
        links = ExactCover(options, engine="links")
        assert list(cover.solve()) == list(links.solve())
        assert cover.solve().count() == 90


def test_a_bits_problem_pickles_with_its_engine() -> None:
    cover = as_bits(queens_problem(6))
    again = pickle.loads(pickle.dumps(cover.problem))
    assert again.chosen_engine() == "bits"
    assert again.fingerprint() == cover.problem.fingerprint()


def test_the_engine_is_compiled_with_the_others() -> None:
    bits = _native.load("lazysearch.exactcover._bits")
    dlx = _native.load("lazysearch.exactcover._dlx")
    assert bits.COMPILED == dlx.COMPILED


def auto_choice(problem: ExactCover) -> str:
    cover = ExactCover(
        list(problem.options), primary=list(problem.primary), secondary=list(problem.secondary)
    )
    return cover.problem.chosen_engine()


def test_auto_takes_bits_for_dense_problems_without_colours() -> None:
    """The rows of the tables in docs/exact-cover.md: bits where it was the fastest
    engine, measured in one run (pentominoes, Langford 11, queens 12 to 21, all 4x4
    sudoku grids), and not where links or cells were (Langford 20, queens 24, a hard
    9x9 sudoku and a blank one)."""
    assert (AUTO_BITS_OPTIONS, AUTO_BITS_DENSITY, AUTO_BITS_OVER_LINKS) == (8192, 11.0, 9.5)
    for board in ((6, 10), (3, 20)):
        assert auto_choice(tiling_problem(rectangle(*board), PENTOMINOES)) == "bits"
    assert auto_choice(langford_problem(11, symmetry=False)) == "bits"
    assert auto_choice(queens_problem(12)) == auto_choice(queens_problem(14)) == "bits"
    four = sudoku_problem(parse("." * 16))
    assert isinstance(four, DLXProblem) and four.chosen_engine() == "bits"
    # Queens 18 to 21 (secondary items: no cells) are below 11 conflicts per word but
    # above 9.5: bits took 0.82-0.94 of links' time; queens 22 (9.2) 0.98, 24 (8.9) 1.06.
    for n, engine in ((18, "bits"), (20, "bits"), (21, "bits"), (22, "links"), (24, "links")):
        assert auto_choice(queens_problem(n)) == engine, n
    # Sudoku grids: few conflicts per word, no secondary items, and slower on cells.
    for grid in (ESCARGOT, "." * 81):
        hard = sudoku_problem(parse(grid))
        assert isinstance(hard, DLXProblem) and hard.chosen_engine() == "links"
        assert conflicts_per_word(hard.option_items) < AUTO_CELLS_DENSITY
    assert auto_choice(langford_problem(20, symmetry=False)) == "cells"
    # colours, or a least constraining order: never bits
    coloured = ExactCover([["a", Colour("x", 1)], ["a", "b"], ["b"]] * 5, secondary=["x"])
    assert conflicts_per_word(coloured.problem.option_items) >= AUTO_BITS_DENSITY
    assert coloured.problem.chosen_engine() == "links"
    dense = ["a b", "a", "b"] * 5
    assert conflicts_per_word(ExactCover(dense).problem.option_items) >= AUTO_BITS_DENSITY
    assert ExactCover(dense).problem.chosen_engine() == "bits"
    assert ExactCover(dense, least_constraining=True).problem.chosen_engine() == "links"


def test_a_checkpoint_of_autos_former_choice_is_refused_naming_it() -> None:
    """auto took dancing cells for sudoku grids and links for queens 18 to 21: their
    checkpoints name those engines (as engine="cells" or "links" does) and are refused
    by auto's new choice, saying which engine to resume them with; never replayed."""
    grid = sudoku_problem(parse(ESCARGOT.replace("1", ".", 1)))  # 155 solutions
    assert isinstance(grid, DLXProblem) and grid.chosen_engine() == "links"
    old = DLXProblem(grid.primary, 0, grid.option_items, grid.option_colors, engine="cells")
    stream = Search(old)
    head = [next(stream) for _ in range(3)]
    with pytest.raises(CheckpointError) as refused:
        Search(grid).resume(stream.checkpoint())
    assert str(refused.value).startswith(
        "checkpoint was taken on dancing cells, and this search runs on dancing links, "
        "which engine='auto' takes for this problem: "
    )
    assert str(refused.value).endswith("resume it with engine='cells'")
    resumed = Search(old).resume(stream.checkpoint())
    assert head + list(resumed) == list(Search(old))
    queens = queens_problem(18)
    args = (list(queens.options), list(queens.primary), list(queens.secondary))
    queens_stream = Search(with_engine(*args, "links").problem)
    _ = [next(queens_stream) for _ in range(3)]
    auto = with_engine(*args, "auto").problem
    assert auto.chosen_engine() == "bits"
    with pytest.raises(CheckpointError, match=r"taken on dancing links.*auto.*engine='links'"):
        Search(auto).resume(queens_stream.checkpoint())


def test_auto_leaves_problems_of_many_options_to_the_others() -> None:
    """Every option shares the hub: as dense as can be, but past 8,192 options the
    masks would take more than 8 MiB."""
    for m, engine in ((AUTO_BITS_OPTIONS, "bits"), (AUTO_BITS_OPTIONS + 1, "cells")):
        star = ExactCover([f"hub a{i}" for i in range(m)]).problem
        assert conflicts_per_word(star.option_items) > 60
        assert star.chosen_engine() == engine


def test_knuths_estimate_runs_on_bits() -> None:
    cover = as_bits(tiling_problem(rectangle(3, 20), PENTOMINOES))
    est = cover.search().estimate(samples=300, seed=3)
    assert est.samples == 300
    assert 0 < est.nodes < 10**6


def test_the_command_line_runs_on_bits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    plain = tmp_path / "knuth.dlx"
    plain.write_text("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    assert main(["dlx", str(plain), "--engine", "bits"]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n c e\n a d f\n b g\n"
    assert err.startswith("1 solution, ")
    coloured = tmp_path / "colours.dlx"
    coloured.write_text("p q | x\np x:red\nq x:red\n")
    assert main(["dlx", str(coloured), "--engine", "bits"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert "engine='bits' takes no colours, and option 0" in err
    assert "Traceback" not in err
    assert main(["dlx", str(coloured)]) == 0  # auto: links


def test_the_bitset_engine_takes_memory_linear_in_a_long_option() -> None:
    # One option of 20,000 items: the search is one level deep.  A stack of one level per
    # primary item kept 20,000 bitsets of 20,000 bits each for the items to cover (50 MB).
    import tracemalloc

    problem = DLXProblem(20_000, 0, (tuple(range(1, 20_001)),), ((0,) * 20_000,), engine="bits")
    tracemalloc.start()
    try:
        engine = problem.engine()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000
    assert list(Search(problem)) == [(0,)]
    del engine
