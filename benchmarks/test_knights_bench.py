"""Knight's tour benchmarks: counts (asserted against shared/ORACLES.md) and one tour of
a huge board (checked by the verifier).

Run:  python -m pytest benchmarks/test_knights_bench.py --benchmark-group-by=group
"""

from __future__ import annotations

import array
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lazysearch import knights
from lazysearch.engine import _native

from . import peers

COUNTS: dict[str, tuple[Callable[[], int], int]] = {
    "5x5 open, every start (1728)": (lambda: knights.count_tours(5), 1728),
    "6x6 closed, each cycle once (9862)": (lambda: knights.count_closed(6), 9862),
    "6x6 open from a corner (524,486)": (lambda: knights.count_tours(6, start=(0, 0)), 524_486),
    "6x6 open, every start (6,637,920)": (lambda: knights.count_tours(6), 6_637_920),
    "3x12 closed (176)": (lambda: knights.count_closed(3, 12), 176),
    "5x8 closed (44,202)": (lambda: knights.count_closed(5, 8), 44_202),
    "6x7 closed (1,067,638)": (lambda: knights.count_closed(6, 7), 1_067_638),
}
SLOW = {
    "6x6 open, every start (6,637,920)",
    "6x6 open from a corner (524,486)",
    "6x7 closed (1,067,638)",
}


@pytest.mark.parametrize("name", list(COUNTS))
def test_count(benchmark: Any, name: str) -> None:
    function, expected = COUNTS[name]
    benchmark.group = "knights: counts"
    rounds = 1 if name in SLOW else 5
    assert benchmark.pedantic(function, rounds=rounds, iterations=1) == expected


# Counts by dynamic programming over cross-sections (issue 17's targets: 6x6 under 0.1 s,
# 6x8 closed under 2 s, 3x500 closed and 4x500 open under 10 s; docs/knights.md has what
# each takes today).  Knuth's table of 3 x n checks the program up to n = 41 in
# tests/test_knights_dp.py; no table reaches 3x500, so its count is checked against the
# program's all-Python tables.
DP_COUNTS: dict[str, tuple[Callable[[], int], int]] = {
    "6x6 closed by dp (9862)": (lambda: knights.count_closed(6, method="dp"), 9862),
    "6x8 closed by dp (55,488,142)": (lambda: knights.count_closed(6, 8, method="dp"), 55_488_142),
    "5x8 closed by dp (44,202)": (lambda: knights.count_closed(5, 8, method="dp"), 44_202),
    "3x12 open by dp (114,496)": (lambda: knights.count_tours(3, 12, method="dp"), 114_496),
    "6x6 open by dp (6,637,920)": (lambda: knights.count_tours(6, method="dp"), 6_637_920),
    # auto's crossovers (knights.solver.choose_method): the program from 4x8, 5x7 and 6x7 on.
    "5x7 open by dp (1,245,736)": (lambda: knights.count_tours(5, 7, method="dp"), 1_245_736),
    "5x7 open by the walk": (lambda: knights.count_tours(5, 7, method="enumerate"), 1_245_736),
    "4x8 open by dp (62,176)": (lambda: knights.count_tours(4, 8, method="dp"), 62_176),
    "4x8 open by the walk": (lambda: knights.count_tours(4, 8, method="enumerate"), 62_176),
    "6x7 closed by dp (1,067,638)": (
        lambda: knights.count_closed(6, 7, method="dp"),
        1_067_638,
    ),
    "6x7 closed by the walk": (
        lambda: knights.count_closed(6, 7, method="enumerate"),
        1_067_638,
    ),
}


@pytest.mark.parametrize("name", list(DP_COUNTS))
def test_count_by_dp(benchmark: Any, name: str) -> None:
    function, expected = DP_COUNTS[name]
    benchmark.group = "knights: counts by dynamic programming"
    assert benchmark.pedantic(function, rounds=1, iterations=1) == expected


# Closed tours by joining two halves (knights._join, issue 17's road to 8x8): the largest
# counts it reaches here, each against shared/ORACLES.md / A175881 / A001230, with what it
# held; 6x8 also as before, the transfer in Python dicts, for the ratio. 7x8 and 8x8 take
# minutes on the loaded machine (8x8 in two processes: 27 minutes, one run): only with
# LAZYSEARCH_SLOW_BENCH=1.
JOIN_COUNTS: dict[str, tuple[int, int, int, dict[str, Any]]] = {
    "6x8 closed by the join (55,488,142)": (6, 8, 55_488_142, {}),
    "6x8 closed by the join in dicts (55,488,142)": (6, 8, 55_488_142, {"packed": False}),
    "6x9 closed by the join (3,374,967,940)": (6, 9, 3_374_967_940, {}),
    "7x8 closed by the join (34,524,432,316)": (7, 8, 34_524_432_316, {"workers": 2}),
    "8x8 closed by the join (13,267,364,410,532)": (
        8,
        8,
        13_267_364_410_532,
        {"workers": 2},
    ),
}
SLOW_JOINS = {
    "7x8 closed by the join (34,524,432,316)",
    "8x8 closed by the join (13,267,364,410,532)",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                name in SLOW_JOINS and not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
                reason="minutes: set LAZYSEARCH_SLOW_BENCH=1",
            ),
        )
        for name in JOIN_COUNTS
    ],
)
def test_count_closed_by_join(benchmark: Any, name: str) -> None:
    import resource

    rows, cols, expected, options = JOIN_COUNTS[name]
    benchmark.group = "knights: closed tours by the join"
    from lazysearch.knights import join

    found = benchmark.pedantic(
        join.join_count, args=(rows, cols), kwargs=options, rounds=1, iterations=1
    )
    assert found.count == expected
    benchmark.extra_info["left frontiers"] = found.left
    benchmark.extra_info["right frontiers"] = found.right
    benchmark.extra_info["transfer states, all squares"] = sum(found.transfer)
    benchmark.extra_info["transfer peak"] = max(found.transfer)
    benchmark.extra_info["largest table"] = found.peak
    benchmark.extra_info["pairs joined"] = found.pairs
    for phase, seconds in found.seconds.items():
        benchmark.extra_info[f"{phase} seconds"] = round(seconds, 2)
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        key = "peak MB" if who == resource.RUSAGE_SELF else "peak MB, a worker"
        benchmark.extra_info[key] = resource.getrusage(who).ru_maxrss // 1024


# Open tours of every start by joining two halves through two shared columns
# (knights._openjoin, issue 17's 6x6 open target: 0.1 s), each beside the program in the
# same run; counts from shared/ORACLES.md (A165134), 6x7's from the program (7.1 s by the
# join, 16.8 s by the program, CPU, one run).
OPEN_JOIN_COUNTS = {
    "6x6 open by the join (6,637,920)": (6, 6, 6_637_920),
    "5x8 open by the join (36,122,108)": (5, 8, 36_122_108),
    "5x7 open by the join (1,245,736)": (5, 7, 1_245_736),
    "6x7 open by the join (779,938,932, the program's count)": (6, 7, 779_938_932),
}


@pytest.mark.parametrize("name", list(OPEN_JOIN_COUNTS))
def test_count_open_by_join(benchmark: Any, name: str) -> None:
    rows, cols, expected = OPEN_JOIN_COUNTS[name]
    benchmark.group = "knights: open tours by the join"
    from lazysearch.knights import openjoin

    found = benchmark.pedantic(openjoin.open_join_count, args=(rows, cols), rounds=1, iterations=1)
    assert found.count == expected
    benchmark.extra_info["cut"] = found.cut
    benchmark.extra_info["left frontiers"] = found.left
    benchmark.extra_info["right frontiers"] = found.right
    benchmark.extra_info["pairs compared"] = found.pairs
    for phase, seconds in found.seconds.items():
        benchmark.extra_info[f"{phase} seconds"] = round(seconds, 2)


# The program over an order of the squares chosen to keep its frontier narrow
# (knights.ordering; issue 17's 6x6 open target: under 0.1 s): 6x6's order is the one
# stored in ordering.ORDERS, the others' are found afresh in each round (the greedy
# search is part of their time).
ORDER_COUNTS: dict[str, tuple[int, int, bool, tuple[int, int] | None, int]] = {
    "6x6 open by the order (6,637,920)": (6, 6, False, None, 6_637_920),
    "6x6 open from a corner by the order (524,486)": (6, 6, False, (0, 0), 524_486),
    "6x6 closed by the order (9862)": (6, 6, True, None, 9862),
    "5x7 open by the order (1,245,736)": (5, 7, False, None, 1_245_736),
    "6x7 closed by the order (1,067,638)": (6, 7, True, None, 1_067_638),
}


@pytest.mark.parametrize("name", list(ORDER_COUNTS))
def test_count_by_order(benchmark: Any, name: str) -> None:
    from lazysearch.knights import ordering

    rows, cols, closed, start, expected = ORDER_COUNTS[name]
    benchmark.group = "knights: counts by the program over an order"
    found = benchmark.pedantic(
        ordering.order_count,
        args=(rows, cols),
        kwargs={"closed": closed, "start": start},
        rounds=5,
        iterations=1,
    )
    assert found.count == expected
    benchmark.extra_info["widest frontier"] = found.widest
    benchmark.extra_info["frontiers at most"] = found.peak_states
    benchmark.extra_info["frontiers summed"] = sum(found.states)


@pytest.mark.skipif(
    not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
    reason="a minute: set LAZYSEARCH_SLOW_BENCH=1",
)
def test_the_stored_6x6_order_is_improve_orders(benchmark: Any) -> None:
    # knights.ordering.ORDERS[6, 6] is what this local search gives (60 s of CPU).
    from lazysearch.knights import ordering

    nb = ordering.knight_neighbours(6, 6)
    benchmark.group = "knights: counts by the program over an order"
    found = benchmark.pedantic(
        ordering.improve_order,
        args=(nb, ordering.find_order(nb)),
        kwargs={"tries": 1000, "seed": 0},
        rounds=1,
        iterations=1,
    )
    assert tuple(found) == ordering.ORDERS[6, 6]


@pytest.mark.skipif(
    not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
    reason="minutes: set LAZYSEARCH_SLOW_BENCH=1",
)
def test_count_7x7_open_start_by_start_by_order(benchmark: Any) -> None:
    # Each start of 7x7 by the program over a narrow order (one run: 219 s of CPU in
    # all), weighed by its orbit: A165134's 165,575,218,320, which the open join counts
    # too, reached through code neither shares.
    from lazysearch.knights import ordering

    def every_start() -> int:
        total = 0
        for square, size in knights.start_orbits(7):
            if knights.no_tour_reason(7, 7, start=square) is None:
                total += size * ordering.order_count(7, 7, start=square).count
        return total

    benchmark.group = "knights: counts by the program over an order"
    assert benchmark.pedantic(every_start, rounds=1, iterations=1) == 165_575_218_320


@pytest.mark.skipif(
    not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
    reason="over a minute on the loaded machine: set LAZYSEARCH_SLOW_BENCH=1",
)
def test_count_7x7_open_by_join(benchmark: Any) -> None:
    # Issue 17's target: 165,575,218,320 directed open tours (A165134) under 60 s, in two
    # processes as auto runs it (one run, loaded machine: 139 s wall in one process). The
    # program alone would not finish (its table passes 40 million frontiers 18 squares
    # from the end); docs/knights.md has the phases.
    import resource

    benchmark.group = "knights: open tours by the join, 7x7"
    from lazysearch.knights import openjoin

    found = benchmark.pedantic(
        openjoin.open_join_count, args=(7, 7), kwargs={"workers": 2}, rounds=1, iterations=1
    )
    assert found.count == 165_575_218_320
    benchmark.extra_info["left frontiers"] = found.left
    benchmark.extra_info["right frontiers"] = found.right
    benchmark.extra_info["pairs compared"] = found.pairs
    for phase, seconds in found.seconds.items():
        benchmark.extra_info[f"{phase} seconds"] = round(seconds, 2)
    benchmark.extra_info["peak MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


@pytest.mark.parametrize("name", list(OPEN_JOIN_COUNTS))
def test_count_open_by_the_program_beside_the_join(benchmark: Any, name: str) -> None:
    rows, cols, expected = OPEN_JOIN_COUNTS[name]
    benchmark.group = "knights: open tours by the join"
    found = benchmark.pedantic(
        lambda: knights.count_tours(rows, cols, method="dp"), rounds=1, iterations=1
    )
    assert found == expected


def test_count_3x500_closed_by_dp(benchmark: Any) -> None:
    """3x500 closed, 244 digits: the compiled tables (64-bit counts, then Python integers
    past ``2**64``) against the all-Python program's dicts."""
    benchmark.group = "knights: counts by dynamic programming"
    found = benchmark.pedantic(knights.count_closed, args=(3, 500), rounds=1, iterations=1)
    source = _native.load_source("lazysearch.knights._count")
    counter = source.FrontierCounter(3, 500, -1, True)
    table = counter.initial()
    for i in range(1500):
        table = counter.step(i, table)
    assert found == counter.finished and len(str(found)) == 244


# Uniformly random tours (knights.sample), 100 drawn, each verified, the seed fixed: by
# the program (forward and backward, every square's frontiers kept) and by the join of
# two halves (the longer half's squares and the transfer's steps kept, then one scan of
# each for all the tours: knights.joinsample), on 6x8 both ways for the ratio. 6x10
# closed by the join takes about a minute and a GB on the loaded machine, 7x8 in parts
# (the packed join, one part at a time) minutes: only with LAZYSEARCH_SLOW_BENCH=1.
SAMPLES: dict[str, tuple[int, int, bool, str, int]] = {
    "6x6 closed, 100 tours": (6, 6, True, "dp", 100),
    "5x10 closed, 100 tours": (5, 10, True, "dp", 100),
    "5x6 open, 100 tours": (5, 6, False, "dp", 100),
    "6x8 closed, 100 tours": (6, 8, True, "dp", 100),
    "6x7 closed by the join, 100 tours": (6, 7, True, "join", 100),
    "6x8 closed by the join, 100 tours": (6, 8, True, "join", 100),
    "6x8 closed by the join in parts, 10 tours": (6, 8, True, "parts", 10),
    "6x10 closed by the join, 100 tours": (6, 10, True, "join", 100),
    "7x8 closed by the join in parts, 3 tours": (7, 8, True, "parts", 3),
}
SLOW_SAMPLES = {
    "6x10 closed by the join, 100 tours",
    "7x8 closed by the join in parts, 3 tours",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                name in SLOW_SAMPLES and not os.environ.get("LAZYSEARCH_SLOW_BENCH"),
                reason="a minute: set LAZYSEARCH_SLOW_BENCH=1",
            ),
        )
        for name in SAMPLES
    ],
)
def test_uniform_random_tours(benchmark: Any, name: str) -> None:
    import resource

    rows, cols, closed, method, k = SAMPLES[name]
    benchmark.group = "knights: uniform random tours"
    tours = benchmark.pedantic(
        knights.sample,
        args=(rows, cols),
        kwargs={"closed": closed, "k": k, "seed": 1, "method": method},
        rounds=1,
        iterations=1,
    )
    assert len(tours) == k
    for tour in tours:
        knights.verify(tour, rows, cols, closed=closed)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    benchmark.extra_info["peak resident GB (the process, so far)"] = round(peak, 2)


@pytest.mark.skipif(
    not (os.environ.get("LAZYSEARCH_SLOW_BENCH") and os.environ.get("LAZYSEARCH_8X8_PARTS")),
    reason="a quarter of an hour and 4 GB: set LAZYSEARCH_SLOW_BENCH=1 and LAZYSEARCH_8X8_PARTS "
    "to the checkpoint of 'lazysearch knights 8 --closed --count --checkpoint FILE'",
)
def test_8x8_closed_tours_drawn_with_a_counts_checkpoint(benchmark: Any) -> None:
    # Issue 17: 8x8 closed tours drawn exactly uniformly. The parts' counts are read from
    # a count's checkpoint (about 1,000 s of CPU to make); building the sampler (the
    # halves' tables, the boundary tables) is left out of the time, the 3 draws are in.
    import random
    import resource
    import time

    from lazysearch.knights.joinsample import PartsSampler

    benchmark.group = "knights: uniform random tours"
    began = time.perf_counter()
    sampler = PartsSampler(8, 8, parts=os.environ["LAZYSEARCH_8X8_PARTS"])
    assert sampler.count == 13_267_364_410_532
    built = time.perf_counter() - began
    tours = benchmark.pedantic(
        sampler.draw_many, args=(3, random.Random(1)), rounds=1, iterations=1
    )
    assert len(tours) == 3
    for tour in tours:
        assert len(set(tour)) == 64
        knights.verify(tour, 8, 8, closed=True)
    benchmark.extra_info["building seconds"] = round(built, 1)
    benchmark.extra_info["largest table"] = sampler.peak
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    benchmark.extra_info["peak resident GB (the process, so far)"] = round(peak, 2)


def _count_pure_6x6_closed() -> int:
    source = _native.load_source("lazysearch.knights._tour")
    engine = source.KnightEngine(6, 6, [0], True, 8)
    return int(engine.run(0, 0))


def test_count_plain_python(benchmark: Any) -> None:
    """The same engine uncompiled, for the compiled/plain ratio."""
    benchmark.group = "knights: counts"
    assert benchmark.pedantic(_count_pure_6x6_closed, rounds=1, iterations=1) == 9862


@pytest.mark.parametrize("closed", [False, True])
def test_one_tour_1000x1000(benchmark: Any, closed: bool) -> None:
    benchmark.group = "knights: one tour of 1000x1000"
    tour = benchmark.pedantic(
        knights.tour, args=(1000,), kwargs={"closed": closed}, rounds=3, iterations=1
    )
    knights.verify(tour, 1000, 1000, start=(0, 0), closed=closed)


def test_one_tour_2000x2000(benchmark: Any) -> None:
    benchmark.group = "knights: one tour of 2000x2000"
    tour = benchmark.pedantic(knights.tour, args=(2000,), rounds=1, iterations=1)
    knights.verify(tour, 2000, 2000, start=(0, 0))


# One tour of a huge board in a process of its own, for its peak memory (ru_maxrss): the
# tour is held as 4-byte square indices, the engine about 22 bytes a square (docs/knights.md
# has the figures).  10000x10000 takes minutes: LAZYSEARCH_HUGE=1 runs it.
HUGE = [2000, 5000] + ([10_000] if os.environ.get("LAZYSEARCH_HUGE") == "1" else [])

#: Runs in the subprocess: one tour, its time and the process's peak memory; the tour's
#: square indices go to a file, for a check of the benchmark's own.
HUGE_RUN = """
import json, resource, sys, time
from lazysearch import knights

n, path = int(sys.argv[1]), sys.argv[2]
started = time.perf_counter()
tour = knights.tour(n)
seconds = time.perf_counter() - started
# VmHWM is this process image's own high-water mark; ru_maxrss can carry the RSS of
# the parent the process was forked from (a large pytest run: 366 MB read at 2000).
try:
    with open("/proc/self/status") as status:
        hwm = [line for line in status if line.startswith("VmHWM:")]
    peak = int(hwm[0].split()[1]) * 1024
except (OSError, IndexError, ValueError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open(path, "wb") as f:
    tour.indices().tofile(f)
print(json.dumps({"seconds": seconds, "peak": peak}))
"""


def _fault(codes: array.array[int], n: int) -> int | None:
    """The first square of a path of indices on an n x n board that is off it, seen
    before or not a knight's move from the one before; ``len(codes)`` when the path is
    short; ``None`` for a tour.  Plain Python sharing nothing with the library's verifier."""
    steps = {(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)}
    seen = bytearray(n * n)
    pr, pc = divmod(codes[0], n)
    for i, code in enumerate(codes):
        r, c = divmod(code, n)
        if code >= n * n or seen[code] or (i and (r - pr, c - pc) not in steps):
            return i
        seen[code] = 1
        pr, pc = r, c
    return None if len(codes) == n * n else len(codes)


@pytest.mark.parametrize("n", HUGE)
def test_one_tour_of_a_huge_board(benchmark: Any, n: int, tmp_path: Path) -> None:
    """Time and peak memory of ``knights.tour(n)`` in a process of its own (issue 17:
    10000x10000 under 4 GB); the tour is checked afterwards, untimed."""
    benchmark.group = "knights: one tour of a huge board (own process, peak memory)"
    path = tmp_path / "tour.u32"

    def run() -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-c", HUGE_RUN, str(n), str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        result: dict[str, Any] = json.loads(done.stdout)
        return result

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["tour seconds"] = round(result["seconds"], 2)
    benchmark.extra_info["peak MB"] = round(result["peak"] / 1e6)
    benchmark.extra_info["peak bytes a square"] = round(result["peak"] / (n * n), 1)
    codes = array.array("I")
    with path.open("rb") as f:
        codes.fromfile(f, n * n)
    assert _fault(codes, n) is None
    assert result["peak"] < 40 * n * n  # 26-27 measured at 5000 and 10000


@pytest.mark.parametrize("rows", [5, 6, 7])
def test_closed_tour_of_a_long_thin_board(benchmark: Any, rows: int) -> None:
    """Warnsdorff's rule runs out of budget on these: the tour is joined from blocks."""
    benchmark.group = "knights: closed tour of ROWSx1000"
    tour = benchmark.pedantic(
        knights.tour, args=(rows, 1000), kwargs={"closed": True}, rounds=3, iterations=1
    )
    knights.verify(tour, rows, 1000, start=(0, 0), closed=True)


NARROW = [
    (3, 2000, (0, 0), True),
    (3, 2000, (1, 1000), False),
    (4, 2000, (0, 1000), False),
    (2000, 4, (1999, 3), False),
    (5, 2001, (2, 1000), False),
    (7, 2001, (3, 1001), False),
]


@pytest.mark.parametrize(("rows", "cols", "start", "closed"), NARROW)
def test_one_tour_of_a_narrow_board(
    benchmark: Any, rows: int, cols: int, start: tuple[int, int], closed: bool
) -> None:
    """Boards three or four across go to the search over cross-sections (Warnsdorff's
    rule with its budget fails on them, even from a corner)."""
    benchmark.group = "knights: one tour of a narrow board"
    tour = benchmark.pedantic(
        knights.tour,
        args=(rows, cols),
        kwargs={"start": start, "closed": closed},
        rounds=3,
        iterations=1,
    )
    knights.verify(tour, rows, cols, start=start, closed=closed)


def test_plain_python_warnsdorff_1000x1000(benchmark: Any) -> None:
    """The textbook plain-Python Warnsdorff, for comparison; with fixed tie-breaking it
    gets stuck before the end on this board, which the assertion records."""
    benchmark.group = "knights: one tour of 1000x1000"
    path = benchmark.pedantic(peers.warnsdorff_plain, args=(1000, 1000), rounds=1, iterations=1)
    assert len(path) < 1000 * 1000


@pytest.mark.parametrize("closed", [False, True])
def test_every_start_square_8_to_50(closed: bool) -> None:
    """A tour from every square of every n x n board, 8 <= n <= 50, each verified
    (every square the theorems allow: none closed on odd boards, none from the minority
    colour of an odd board)."""
    for n in range(8, 51):
        for r in range(n):
            for c in range(n):
                if knights.no_tour_reason(n, start=(r, c), closed=closed):
                    continue
                tour = knights.tour(n, start=(r, c), closed=closed)
                knights.verify(tour, n, n, start=(r, c), closed=closed)
