"""Closed tours drawn through the join of two halves (``knights.joinsample``): every tour
drawn is a closed tour, the count is the join's, the draws pass chi-square tests of
uniformity (against the tours listed one by one where they are few, and against the
program's sampler on 6x6 and 6x8), and a seed gives the same tours compiled and plain."""

from __future__ import annotations

import random
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from lazysearch import compiled, knights
from lazysearch.engine import _native
from lazysearch.knights import join as driver
from lazysearch.knights.counting import TooManyStatesError, TourSampler
from lazysearch.knights.joinsample import JoinSampler, PartsSampler

from .test_knights_sample import CRITICAL_0001, _chi2, _chi2_sf, _cycle

Square = tuple[int, int]


@pytest.mark.parametrize(
    ("rows", "cols", "count"),
    [(5, 6, 8), (6, 5, 8), (3, 10, 16), (10, 3, 16), (3, 12, 176), (5, 8, 44202), (4, 6, 0)],
)
def test_the_count_is_the_join_count(rows: int, cols: int, count: int) -> None:
    if rows * cols > 36 and not compiled():
        pytest.skip("seconds as plain Python")
    sampler = JoinSampler(rows, cols)
    assert sampler.count == count
    if count:
        tours = sampler.draw_many(6, random.Random(count))
        for tour in tours:
            knights.verify(tour, rows, cols, closed=True)
            assert tour[0] == (0, 0)
    else:
        with pytest.raises(LookupError, match="no closed tour"):
            sampler.draw(random.Random(1))


@pytest.mark.skipif(not compiled(), reason="seconds as plain Python")
@pytest.mark.parametrize(("rows", "cols", "count"), [(6, 6, 9862), (6, 7, 1067638)])
def test_larger_boards_count_and_draw_tours(rows: int, cols: int, count: int) -> None:
    sampler = JoinSampler(rows, cols, start=(2, 3))
    assert sampler.count == count
    for tour in sampler.draw_many(30, random.Random(5)):
        knights.verify(tour, rows, cols, closed=True, start=(2, 3))


@pytest.mark.parametrize(("rows", "cols", "cells"), [(5, 6, 8), (3, 10, 16), (10, 3, 16)])
def test_draws_are_uniform_by_a_chi_square_test(rows: int, cols: int, cells: int) -> None:
    draws = 100 * cells
    found = JoinSampler(rows, cols).draw_many(draws, random.Random(2024))
    tours = [knights.Tour(t, rows, cols) for t in found]
    for tour in tours:
        knights.verify(tour, rows, cols, closed=True)
    counts = Counter(_cycle(t) for t in tours)
    assert len(counts) == cells
    assert _chi2(counts, cells, draws) < CRITICAL_0001[cells - 1]
    directions = Counter(tuple(t) for t in tours)  # each cycle either way round
    assert len(directions) == 2 * cells
    assert _chi2(directions, 2 * cells, draws) < CRITICAL_0001[2 * cells - 1]


def test_every_tour_is_drawn_when_enough_are() -> None:
    found = JoinSampler(3, 12).draw_many(3000, random.Random(9))
    every = {tuple(t) for t in knights.tours(3, 12, start=(0, 0), closed=True)}
    assert len(every) == 2 * 176
    assert {tuple(t) for t in found} == every


def _neighbour_pair(tour: list[Square], square: Square) -> tuple[Square, ...]:
    """The two squares a closed tour joins ``square`` to (whatever its direction)."""
    at = tour.index(square)
    return tuple(sorted((tour[at - 1], tour[(at + 1) % len(tour)])))


def _homogeneity_p(first: Counter[object], second: Counter[object]) -> float:
    """The chi-square test's p-value that two samples come from one distribution
    (categories expected fewer than 5 times merged into one)."""
    n1, n2 = sum(first.values()), sum(second.values())
    cells = sorted(set(first) | set(second), key=repr)
    small = [c for c in cells if (first[c] + second[c]) * min(n1, n2) / (n1 + n2) < 5]
    rows = [(first[c], second[c]) for c in cells if c not in small]
    rows.append((sum(first[c] for c in small), sum(second[c] for c in small)))
    rows = [r for r in rows if sum(r)]
    stat = 0.0
    for a, b in rows:
        for seen, size in ((a, n1), (b, n2)):
            expected = (a + b) * size / (n1 + n2)
            stat += (seen - expected) ** 2 / expected
    return _chi2_sf(stat, len(rows) - 1)


@pytest.mark.skipif(not compiled(), reason="seconds as plain Python")
def test_6x6_draws_follow_the_listed_tours() -> None:
    """Goodness of fit against all 9,862 cycles listed one by one: how often each pair
    of squares is joined to (2, 2)."""
    square = (2, 2)
    exact = Counter(
        _neighbour_pair(list(t), square) for t in knights.tours(6, 6, start=(0, 0), closed=True)
    )
    assert sum(exact.values()) == 2 * 9862
    draws = 3000
    found = JoinSampler(6, 6).draw_many(draws, random.Random(17))
    seen = Counter(_neighbour_pair(t, square) for t in found)
    assert set(seen) <= set(exact)
    stat = sum(
        (seen[c] - draws * n / (2 * 9862)) ** 2 / (draws * n / (2 * 9862)) for c, n in exact.items()
    )
    assert _chi2_sf(stat, len(exact) - 1) > 0.001


@pytest.mark.skipif(not compiled(), reason="seconds as plain Python")
@pytest.mark.parametrize(("rows", "cols", "draws"), [(6, 6, 2000), (6, 8, 600)])
def test_draws_follow_the_programs_sampler(rows: int, cols: int, draws: int) -> None:
    """A chi-square test of homogeneity: the squares joined to (2, 3) in draws through
    the join and in draws of the program's sampler (6x8: 55,488,142 cycles)."""
    square = (2, 3)
    ours = JoinSampler(rows, cols).draw_many(draws, random.Random(3))
    program = TourSampler(rows, cols, closed=True)
    rng = random.Random(4)
    theirs = [program.draw(rng) for _ in range(draws)]
    for tour in ours:
        knights.verify(tour, rows, cols, closed=True)
    p = _homogeneity_p(
        Counter(_neighbour_pair(t, square) for t in ours),
        Counter(_neighbour_pair(t, square) for t in theirs),
    )
    assert p > 0.001


def test_the_same_seed_gives_the_same_tours_compiled_or_not() -> None:
    # The same list in both runs of the suite (compiled, then LAZYSEARCH_PURE=1).
    tours = JoinSampler(5, 6, start=(1, 1)).draw_many(3, random.Random(7))
    assert [knights.Tour(t, 5, 6).numbers()[0] for t in tours] == [
        [5, 22, 11, 26, 7, 20],
        [11, 20, 15, 30, 5, 26],
        [27, 10, 17, 2, 25, 12],
    ]
    assert JoinSampler(5, 6, start=(1, 1)).draw_many(3, random.Random(7)) == tours
    again = JoinSampler(5, 6, start=(1, 1))
    assert [again.draw(random.Random(7))] == JoinSampler(5, 6, start=(1, 1)).draw_many(
        1, random.Random(7)
    )


def test_the_transfer_successors_are_the_steps_ways() -> None:
    """``Transfer.successors``, kept to the states ``step`` keeps, adds up to ``step``'s
    table, square by square, compiled and plain."""
    for module in (
        _native.load("lazysearch.knights._join"),
        _native.load_source("lazysearch.knights._join"),
    ):
        sampler = JoinSampler(5, 6)
        transfer = module.Transfer(5, 3)
        transfer.restrict(sampler._right)
        states = sampler._steps[0]
        for s in range(10):
            made = transfer.step(s, states)
            ways: dict[bytes, int] = {}
            for key, count in states.items():
                for _, _, after in transfer.successors(s, key):
                    if after in made:
                        ways[after] = ways.get(after, 0) + count
            assert ways == made == sampler._steps[s + 1]
            states = made


def test_bad_input() -> None:
    with pytest.raises(ValueError, match=r"at least 3x4, not 2x8"):
        JoinSampler(2, 8)
    with pytest.raises(TooManyStatesError, match=r"more than max_states=500 frontiers"):
        JoinSampler(5, 8, max_states=500)
    with pytest.raises(TooManyStatesError, match=r"15x20"):
        JoinSampler(15, 20)


def test_sample_takes_the_join_where_it_was_measured_faster() -> None:
    from lazysearch.knights import solver

    assert solver.sample_method(6, 7, True, "auto") == "join"
    assert solver.sample_method(10, 5, True, "auto") == "join"
    assert solver.sample_method(6, 6, True, "auto") == "dp"
    assert solver.sample_method(6, 7, False, "auto") == "dp"
    assert solver.sample_method(6, 7, True, "dp") == "dp"
    assert solver.sample_method(8, 8, True, "auto") == "parts"
    assert solver.sample_method(7, 8, True, "parts") == "parts"
    tours = knights.sample(5, 6, closed=True, k=4, seed=11, method="join")
    assert tours == [
        knights.Tour(t, 5, 6) for t in JoinSampler(5, 6).draw_many(4, random.Random(11))
    ]
    if compiled():
        for tour in knights.sample(7, 6, closed=True, k=3, seed=1):
            knights.verify(tour, 7, 6, closed=True)
    assert knights.sample(4, 5, closed=True, method="join") == []


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: knights.sample(8, 8, closed=True, method="join"), "8x8 with method='join'"),
        (lambda: knights.sample(7, 8, closed=True, method="join"), "7x8 with method='join'"),
        (lambda: knights.sample(7, 8, method="parts"), "closed tours only"),
        (lambda: knights.sample(6, 8, method="join"), "closed tours only"),
        (lambda: knights.sample(6, 8, closed=True, method="walk"), "got 'walk'"),
    ],
)
def test_sample_refuses_at_once(call: object, words: str) -> None:
    assert callable(call)
    with pytest.raises((TooManyStatesError, knights.KnightsError), match=words):
        call()


def test_cli_samples_through_the_join(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    argv = ["knights", "5", "6", "--closed", "--sample", "2", "--seed", "4", "--method", "join"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    expected = knights.sample(5, 6, closed=True, k=2, seed=4, method="join")
    assert out == "".join(f"{n}:\n{t}\n" for n, t in enumerate(expected, start=1))
    assert "2 drawn uniformly from 8 closed tours" in err
    assert main(["knights", "8", "--closed", "--sample", "3", "--method", "join"]) == 3  # too large
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "8x8 with method='join'" in err
    argv = ["knights", "6", "5", "--closed", "--sample", "2", "--seed", "4", "--method", "parts"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    expected = knights.sample(6, 5, closed=True, k=2, seed=4, method="parts")
    assert out == "".join(f"{n}:\n{t}\n" for n, t in enumerate(expected, start=1))
    assert main(["knights", "6", "5", "--closed", "--count", "--method", "parts"]) == 2
    assert "--method parts draws tours" in capsys.readouterr().err
    assert main(["knights", "5", "6", "--sample", "1", "--method", "join"]) == 2
    assert "join and parts: closed tours only" in capsys.readouterr().err


# -- the packed join, one part at a time (PartsSampler) -----------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "count"),
    [(5, 6, 8), (6, 5, 8), (3, 10, 16), (3, 12, 176), (5, 8, 44202), (4, 6, 0), (6, 6, 9862)],
)
def test_parts_count_and_draw_closed_tours(rows: int, cols: int, count: int) -> None:
    if rows * cols > 30 and not compiled():
        pytest.skip("seconds as plain Python")
    sampler = PartsSampler(rows, cols, start=(1, 2))
    assert sampler.count == count
    if count:
        for tour in sampler.draw_many(5, random.Random(count)):
            knights.verify(tour, rows, cols, closed=True, start=(1, 2))
        assert sum(sampler.parts[(d,)] for d in range(3)) == count
    else:
        with pytest.raises(LookupError, match="no closed tour"):
            sampler.draw(random.Random(1))


@pytest.mark.parametrize(("rows", "cols", "cells"), [(5, 6, 8), (6, 5, 8), (3, 10, 16)])
def test_parts_draws_are_uniform_by_a_chi_square_test(rows: int, cols: int, cells: int) -> None:
    """Boards whose left frontiers are folded with their mirror images: the tours drawn
    through an image are turned over, each cycle still as likely as any other."""
    draws = 100 * cells
    found = PartsSampler(rows, cols).draw_many(draws, random.Random(2024))
    tours = [knights.Tour(t, rows, cols) for t in found]
    for tour in tours:
        knights.verify(tour, rows, cols, closed=True)
    counts = Counter(_cycle(t) for t in tours)
    assert len(counts) == cells
    assert _chi2(counts, cells, draws) < CRITICAL_0001[cells - 1]
    directions = Counter(tuple(t) for t in tours)
    assert len(directions) == 2 * cells
    assert _chi2(directions, 2 * cells, draws) < CRITICAL_0001[2 * cells - 1]


def test_parts_draw_every_tour_when_enough_are() -> None:
    if not compiled():
        pytest.skip("seconds as plain Python")
    found = PartsSampler(3, 12).draw_many(3000, random.Random(9))
    every = {tuple(t) for t in knights.tours(3, 12, start=(0, 0), closed=True)}
    assert {tuple(t) for t in found} == every


@pytest.mark.skipif(not compiled(), reason="seconds as plain Python")
def test_parts_6x6_draws_follow_the_listed_tours() -> None:
    square = (2, 2)
    exact = Counter(
        _neighbour_pair(list(t), square) for t in knights.tours(6, 6, start=(0, 0), closed=True)
    )
    draws = 800
    found = PartsSampler(6, 6).draw_many(draws, random.Random(18))
    seen = Counter(_neighbour_pair(t, square) for t in found)
    assert set(seen) <= set(exact)
    total = sum(exact.values())
    rare = {c for c, n in exact.items() if draws * n / total < 5}  # merged into one
    cells = [([c], n) for c, n in exact.items() if c not in rare]
    cells.append((sorted(rare), sum(exact[c] for c in rare)))
    stat = 0.0
    for group, n in cells:
        expected = draws * n / total
        stat += (sum(seen[c] for c in group) - expected) ** 2 / expected
    assert _chi2_sf(stat, len(cells) - 1) > 0.001


def test_parts_the_same_seed_gives_the_same_tours_compiled_or_not() -> None:
    tours = PartsSampler(6, 5, start=(1, 1)).draw_many(3, random.Random(7))
    # (the tours drawn since the parts' tours are numbered and walked in one pass)
    assert [knights.Tour(t, 6, 5).numbers()[0] for t in tours] == [
        [27, 18, 9, 6, 29],
        [5, 12, 23, 30, 3],
        [27, 20, 9, 6, 29],
    ]


def test_cli_shows_the_parts_counted(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    argv = ["knights", "6", "5", "--closed", "--sample", "2", "--seed", "8", "--method", "parts"]
    assert main([*argv, "-q"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert main([*argv, "--progress"]) == 0
    shown = capsys.readouterr()
    assert shown.out == quiet.out
    # (the bar's last words: the crossing squares of the part the tours are drawn in)
    assert "drawing in part (" in shown.err and " steps" in shown.err
    assert main(["knights", "6", "5", "--closed", "--sample", "1", "--progress"]) == 2
    assert "a bar through the join in parts only" in capsys.readouterr().err


def test_parts_read_from_a_join_checkpoint(tmp_path: Path) -> None:
    """A finished count's checkpoint gives the parts' counts: nothing under them is
    counted again, and the same seed draws the same tours as counting them afresh."""
    from lazysearch.errors import CheckpointError
    from lazysearch.knights import joinrun

    path = tmp_path / "join.json"
    assert joinrun.count_joined(5, 6, checkpoint=path).count == 8  # (6x6: 13 s as plain Python)
    told: list[str] = []
    read = PartsSampler(5, 6, parts=path, tick=told.append)
    counted: list[str] = []
    fresh = PartsSampler(5, 6, tick=counted.append)
    assert read.count == fresh.count == 8
    assert not any("counted" in where for where in told)
    assert any("counted" in where for where in counted)  # (what the file saved)
    assert all(read.parts[p] == fresh.parts[p] for p in fresh.parts)
    assert read.draw_many(3, random.Random(4)) == fresh.draw_many(3, random.Random(4))
    with pytest.raises(CheckpointError, match="not of 6x8"):
        PartsSampler(8, 6, parts=path)


def test_sample_takes_a_counts_checkpoint_and_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``knights.sample(..., parts=FILE, workers=N)`` hands both to the parts: the same
    tours as drawn afresh, and nothing counted again from a finished count's file; both
    refused, naming the method, where the draw is not in parts."""
    from lazysearch import knights
    from lazysearch.knights import joinrun, joinsample

    path = tmp_path / "join.json"
    assert joinrun.count_joined(5, 6, checkpoint=path).count == 8
    fresh = knights.sample(5, 6, closed=True, k=4, seed=3, method="parts")
    made: list[dict[str, object]] = []
    real = joinsample.PartsSampler

    def spy(*args: object, **kwargs: object) -> object:
        made.append(kwargs)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(joinsample, "PartsSampler", spy)
    read = knights.sample(5, 6, closed=True, k=4, seed=3, method="parts", parts=path)
    two = knights.sample(5, 6, closed=True, k=4, seed=3, method="parts", workers=2)
    assert read == fresh == two and len(read) == 4
    for tour in read:
        knights.verify(tour, 5, 6, closed=True)
    assert [(m["parts"], m["workers"]) for m in made] == [(path, 1), (None, 2)]
    with pytest.raises(knights.KnightsError, match="draws by 'join'"):
        knights.sample(6, 7, closed=True, parts=path)
    with pytest.raises(knights.KnightsError, match="draws by 'dp'"):
        knights.sample(5, 6, workers=2)
    with pytest.raises(knights.KnightsError, match="workers must be a whole number >= 1"):
        knights.sample(5, 6, closed=True, method="parts", workers=0)


@pytest.mark.skipif(not compiled(), reason="seconds as plain Python")
def test_parts_are_counted_depth_first_as_the_join_counts_them() -> None:
    """The parts' tables split by the degrees of the whole column next to the cut, as
    the join's count does: no table larger than the count's largest (a part counted as
    one table held 157,964 states at once on 6x8, and ran 8x8 out of memory)."""
    sampler = PartsSampler(6, 8)
    sampler.draw(random.Random(2))
    assert 0 < sampler.peak <= driver.join_count(6, 8).peak == 15392


@pytest.mark.skipif(not compiled(), reason="7x8's halves take minutes as plain Python")
def test_cli_ctrl_c_of_a_sample_through_the_parts_is_one_line() -> None:
    """Ctrl-C while 7x8's parts are counted for a sample stops it: one line, exit 130.
    It once landed in the compiled tables' growth, which could not pass it on: 'Exception
    ignored' with a traceback, and the sample went on to print its tour."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "lazysearch", "knights", "7", "8", "--closed"]
    run = subprocess.Popen(
        [*argv, "--sample", "1", "--progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert run.stderr is not None
        first = b""
        while b"square" not in first:  # the bar names a square: the halves are being swept
            chunk = run.stderr.read1(4096)
            assert chunk, first
            first += chunk
        run.send_signal(signal.SIGINT)
        out, rest = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    err = (first + rest).decode()
    assert run.returncode == 130 and out == b"", err
    last = err.replace("\r", "\n").rstrip("\n").rsplit("\n", 1)[-1]
    assert last == "lazysearch knights: interrupted", err
    assert "Traceback" not in err and "Exception ignored" not in err, err


def _parts_tables(module: Any, rows: int, cols: int) -> tuple[Any, list[Any]]:
    """A :class:`PartsSampler`'s transfer rebuilt on ``module`` (compiled or plain) and
    its packed tables before each right square and after the last, every part at once."""
    sampler = PartsSampler(rows, cols)
    shared = sampler._shared
    transfer = module.Transfer(sampler.k, sampler.c)
    trie = module._buffers.ints(list(shared["trie"]), module.COMPILED)
    table = module.Packed(sampler._w, 10**7)
    for key, count in sorted(shared["left"].items().items()):
        assert table.add_key(key, count) == 0  # OK
    tables = [table]
    for s in range(2 * sampler.k):
        out = module.Packed(sampler._w, 10**7)
        assert transfer.step_packed(s, tables[-1], [out, out, out], trie) == 0
        tables.append(out)
    return transfer, tables


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (3, 10)])
def test_the_compiled_predecessors_are_the_successors_scanned(rows: int, cols: int) -> None:
    """``Transfer.predecessors`` (one scan of a packed table) finds what the Python scan
    of every state's ``successors`` found, in the same order once sorted, and their
    counts add up to the state's: compiled and plain."""
    from lazysearch.knights.joinsample import _decode

    for module in (
        _native.load("lazysearch.knights._join"),
        _native.load_source("lazysearch.knights._join"),
    ):
        transfer, tables = _parts_tables(module, rows, cols)
        m = 4 * min(rows, cols)
        for s in range(len(tables) - 1):
            before = tables[s].items()
            for target, count in sorted(tables[s + 1].items().items())[:12]:
                found = sorted(transfer.predecessors(s, tables[s], target))
                old = [
                    (key, xa, xb, before[key])
                    for key in sorted(before)
                    for xa, xb, after in transfer.successors(s, _decode(key, m))
                    if after == _decode(target, m)
                ]
                assert [(key, xa, xb, n) for key, _, xa, xb, n in found] == old
                assert sum(n for *_, n in found) == count


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (3, 12)])
def test_the_joiners_weights_and_matches_are_its_join_state_by_state(rows: int, cols: int) -> None:
    """``Joiner.weights`` adds up to ``Joiner.join``; ``Joiner.matches`` are the right
    frontiers the old Python filter found (decoded, degrees fitting, one cycle), and
    their counts are the weight's inner sum: compiled and plain."""
    from lazysearch.knights.joinsample import _decode

    for module in (
        _native.load("lazysearch.knights._join"),
        _native.load_source("lazysearch.knights._join"),
    ):
        sampler = PartsSampler(rows, cols)
        k2 = 2 * sampler.k
        right = module.boundary_packed(
            sampler._level((sampler.n - sampler.c) * sampler.k),
            sampler.k,
            sampler.n - sampler.c,
            k2,
            True,
            [],
            10**7,
        )
        joiner = module.Joiner(right, k2)
        _, tables = _parts_tables(module, rows, cols)
        final = tables[-1]
        weights = joiner.weights(final)
        assert sum(count * inner for _, count, inner in weights) == joiner.join(final)
        assert joiner.join(final) == sampler.count
        rights = {_decode(x, k2): y for x, y in right.items().items()}
        for key, _, inner in sorted(weights)[:60]:
            seen = _decode(key, 2 * k2)[k2:]
            ends, mine = driver.partners(seen)
            pattern = bytes(v if v < 2 else 2 for v in seen)  # FREE 0, FULL 1, ends 2
            old = sorted(
                (other, count)
                for other, count in rights.items()
                if bytes(1 if v == 0 else 0 if v == 1 else 2 for v in other) == pattern
                and driver.one_cycle(ends, mine, driver.partners(other)[1])
            )
            assert joiner.matches(key) == old
            assert sum(count for _, count in old) == inner


@pytest.mark.skipif(not compiled(), reason="a minute as plain Python")
def test_parts_draws_do_not_depend_on_where_the_counts_come_from(tmp_path: Path) -> None:
    """A tour is numbered by the parts in order, so counting the first three squares'
    parts in processes, reading them from a checkpoint or counting only the first
    square's draws the same tours for a seed."""
    from lazysearch.knights import joinrun

    path = tmp_path / "join.json"
    assert joinrun.count_joined(6, 7, checkpoint=path).count == 1067638
    fresh = PartsSampler(6, 7).draw_many(4, random.Random(6))
    for tour in fresh:
        knights.verify(tour, 6, 7, closed=True)
    assert PartsSampler(6, 7, workers=2).draw_many(4, random.Random(6)) == fresh
    assert PartsSampler(6, 7, parts=path).draw_many(4, random.Random(6)) == fresh


def test_parts_bad_workers() -> None:
    with pytest.raises(ValueError, match="workers >= 1, not 0"):
        PartsSampler(6, 5, workers=0)


def test_cli_samples_with_a_counts_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--parts FILE`` reads a count's checkpoint (nothing counted again, the same
    tours); ``--workers`` counts the parts in processes; both only for sampling
    through the parts, and another board's file is one line and exit 2."""
    from lazysearch.cli import main

    path = str(tmp_path / "count.json")
    count = ["knights", "6", "5", "--closed", "--count", "--method", "join", "-q"]
    assert main([*count, "--checkpoint", path]) == 0
    assert capsys.readouterr().out == "8\n"
    argv = ["knights", "6", "5", "--closed", "--sample", "3", "--seed", "2", "--method", "parts"]
    assert main([*argv, "-q"]) == 0
    fresh = capsys.readouterr().out
    assert main([*argv, "--parts", path, "--progress"]) == 0
    read = capsys.readouterr()
    # (The unit's words 'each counted once' aside: no part counted on the bar.)
    assert read.out == fresh and "counted" not in read.err.replace("each counted once", "")
    assert main([*argv, "--workers", "2", "-q"]) == 0
    assert capsys.readouterr().out == fresh
    assert (
        main(
            ["knights", "5", "8", "--closed", "--sample", "1", "--method", "parts", "--parts", path]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not of 5x8" in err
    for bad, words in (
        (["knights", "6", "5", "--closed", "--parts", path], "give --sample K"),
        ([*argv[:-1], "join", "--workers", "2"], "--workers N is for sampling through"),
        (["knights", "6", "--closed", "--sample", "1", "--parts", path], "--parts FILE is for"),
    ):
        assert main(bad) == 2
        assert words in capsys.readouterr().err


@pytest.mark.skipif(not compiled(), reason="the halves' tables are dicts as plain Python")
def test_the_halves_tables_read_back_with_two_word_keys() -> None:
    """8 across, the program's keys take two words (17 positions): read back from the
    compiled table as the dict they hold."""
    program = _native.load("lazysearch.knights._table")
    sampler = PartsSampler(5, 6)
    table = program.Table(10**6, kw=2)
    held = {5: 7, (3 << 64) | 9: 11, (1 << 100) + 1: 2**63}
    assert program.STATUS[table.load(held)] == "ok"
    sampler._levels[3] = table
    keys, counts = sampler._exported(3)
    assert dict(zip(keys, counts, strict=True)) == held
