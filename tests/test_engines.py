"""The dancing-cells engine: the same tree as dancing links, node for node.

Both engines must yield the same solutions in the same order at the same positions with
the same node counts, so a checkpoint or a subtree taken on one continues on the other.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import Colour, ExactCover, exact_cover
from lazysearch.exactcover import verify
from lazysearch.exactcover.problem import DLXProblem
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


@given(problem=small_problems())
@settings(max_examples=200, deadline=None)
def test_cells_walk_the_tree_of_links(problem: tuple[list, list, list]) -> None:
    options, primary, secondary = problem
    links = walk(with_engine(options, primary, secondary, "links"))
    cells = walk(with_engine(options, primary, secondary, "cells"))
    assert cells == links
    assert {s for s, _ in cells[0]} == brute_force_covers(options, primary, secondary)
    for s, _ in cells[0]:
        verify(options, s, primary=primary, secondary=secondary)


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
    links = walk(with_engine(options, primary, secondary, "links"))
    cells = walk(with_engine(options, primary, secondary, "cells"))
    assert cells == links
    assert {s for s, _ in cells[0]} == brute_force_covers(options, primary, secondary)


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


def test_a_checkpoint_from_cells_resumes_on_links_and_back() -> None:
    problem = queens_problem(7)
    args = (list(problem.options),)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    whole = list(ExactCover(*args, **kw, engine="links").solve())
    cells = ExactCover(*args, **kw, engine="cells")
    links = ExactCover(*args, **kw, engine="links")
    assert cells.problem.fingerprint() == links.problem.fingerprint()
    first = cells.search()
    head = [next(first) for _ in range(15)]
    saved = first.checkpoint()
    rest = list(links.search().resume(saved))
    assert head + rest == whole
    second = links.search()
    head = [next(second) for _ in range(27)]
    assert head + list(cells.search().resume(second.checkpoint())) == whole


def test_subtrees_split_on_one_engine_are_counted_on_the_other() -> None:
    problem = queens_problem(8)
    kw = {"primary": list(problem.primary), "secondary": list(problem.secondary)}
    links = ExactCover(list(problem.options), **kw, engine="links")
    cells = ExactCover(list(problem.options), **kw, engine="cells")
    prefixes = links.search().subtrees(2)
    assert len(prefixes) > 1
    assert sum(cells.search().subtree(p).count() for p in prefixes) == 92


def test_least_constraining_order_runs_on_links() -> None:
    cover = ExactCover(["a b", "a", "b"], engine="cells", least_constraining=True)
    assert cover.problem.chosen_engine() == "links"
    assert sorted(cover.solve()) == [(0,), (1, 2)]


def test_auto_takes_links_and_the_engine_survives_pickling() -> None:
    assert ExactCover(["a"]).problem.chosen_engine() == "links"
    problem = ExactCover(["a b", "a", "b"], engine="cells").problem
    copy = pickle.loads(pickle.dumps(problem))
    assert copy.chosen_engine() == "cells"
    assert copy == problem
    assert copy.fingerprint() == ExactCover(["a b", "a", "b"]).problem.fingerprint()


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
    with pytest.raises(ValueError, match="engine must be one of auto, links, cells, got"):
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
