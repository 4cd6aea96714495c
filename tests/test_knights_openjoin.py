"""Counting open knight's tours by joining two halves through two shared columns: equal
to the square-by-square program on every small board and every cut (either way round),
the plain-Python join equal to the compiled one, the published counts, and bad input."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import compiled, knights
from lazysearch.engine import _native
from lazysearch.knights import KnightsError
from lazysearch.knights import openjoin as driver
from lazysearch.knights.counting import TooManyStatesError, frontier_count

#: Boards up to this many squares are checked against the program (as plain Python the
#: halves of 5x6 take about 10 s).
AREA = 36 if compiled() else 25


def _openjoin() -> object:
    return _native.load("lazysearch.knights._openjoin")


def _boards(area: int) -> list[tuple[int, int]]:
    return [(k, n) for k in range(3, 7) for n in range(max(k, 4), 13) if k * n <= area]


@settings(max_examples=25 if compiled() else 8, deadline=None)
@given(st.data())
def test_the_join_equals_the_program(data: st.DataObject) -> None:
    k, n = data.draw(st.sampled_from(_boards(AREA)))
    cut = data.draw(st.integers(3, n - 1))
    rows, cols = (k, n) if data.draw(st.booleans()) else (n, k)
    joined = driver.open_join_count(rows, cols, cut=cut)
    assert joined.count == frontier_count(rows, cols).count
    assert (joined.rows, joined.cols, joined.cut) == (rows, cols, cut)


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 4), (5, 5), (4, 6), (3, 9)])
def test_every_cut_and_the_reference_join(rows: int, cols: int) -> None:
    expected = frontier_count(rows, cols).count
    for cut in range(3, max(rows, cols)):
        fast = driver.open_join_count(rows, cols, cut=cut)
        slow = driver.open_join_count(rows, cols, cut=cut, reference=True)
        assert fast.count == slow.count == expected, cut
        assert fast.right == slow.right  # the right half's frontiers, unfolded


def test_the_cut_keeps_the_edges_the_other_half_gives() -> None:
    # 5x5 shared columns 1 and 2: tours from (0, 0) to (2, 0) need (0, 1)-(2, 2), an
    # edge the left half leaves out, to count for (0, 1) once (2, 2) is taken; without
    # it 72 paths were lost (1584 tours, not 1728).
    assert driver.open_join_count(5, 5, cut=3).count == 1728


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [  # shared/ORACLES.md, A165134
        (3, 4, 16),
        (5, 5, 1728),
        (4, 4, 0),
        (3, 8, 792),
    ],
)
def test_published_counts(rows: int, cols: int, expected: int) -> None:
    assert knights.count_tours(rows, cols, method="join") == expected


@pytest.mark.skipif(not compiled(), reason="compiled only: about a minute as plain Python")
def test_six_by_six() -> None:
    joined = driver.open_join_count(6, 6)
    assert joined.count == 6_637_920  # A165134
    assert joined.cut == 4


def test_bad_input() -> None:
    module = driver
    with pytest.raises(ValueError, match="cut=2"):
        module.open_join_count(5, 6, cut=2)
    with pytest.raises(ValueError, match="cut=6"):
        module.open_join_count(5, 6, cut=6)
    with pytest.raises(ValueError, match="2x6"):
        module.open_join_count(2, 6)
    with pytest.raises(TooManyStatesError, match="max_states=10"):
        module.open_join_count(5, 6, max_states=10)
    with pytest.raises(KnightsError, match="start"):
        knights.count_tours(5, 5, start=(0, 0), method="join")


@pytest.mark.skipif(not compiled(), reason="compiled only: 5x7 takes minutes as plain Python")
def test_cli_counts_by_the_join(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    # auto joins the open tours of every start on 5x7; with a bar it takes the program.
    assert main(["knights", "5", "7", "--count", "-q"]) == 0
    assert capsys.readouterr().out == "1245736\n"
    assert main(["knights", "5", "7", "--count", "--progress", "-q"]) == 0
    assert capsys.readouterr().out == "1245736\n"
    assert main(["knights", "5", "7", "--count", "--method", "join", "--progress"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize(("rows", "cols"), [(3, 60), (4, 30)] if compiled() else [(3, 60)])
def test_counts_past_64_bits(rows: int, cols: int) -> None:
    # The halves' tables pass 2**64 and go on in Python integers, and so does the join.
    joined = driver.open_join_count(rows, cols)
    assert joined.count == frontier_count(rows, cols).count > 2**64


@pytest.mark.parametrize(("kw", "limbs"), [(1, 1), (2, 1), (2, 2)])
def test_a_table_exports_what_it_holds(kw: int, limbs: int) -> None:
    module = _native.load("lazysearch.knights._table")
    table = module.Table(100, kw=kw, limbs=limbs)  # type: ignore[attr-defined]
    entries = {5: 7, 123456789: 2**63 + limbs}
    if kw == 2:
        entries[(3 << 64) | 9] = 11
    if limbs == 2:
        entries[77] = 2**100
    assert module.STATUS[table.load(entries)] == "ok"  # type: ignore[attr-defined]
    keys, counts = table.export()
    got = {
        sum(keys[e * kw + t] << (64 * t) for t in range(kw)): counts[e] for e in range(len(counts))
    }
    assert got == entries == table.items()


def test_both_halves_sweep_on_from_one_table() -> None:
    # The halves go on from the first columns' table, held once, in compiled tables from
    # square to square (no dicts between): the shared table is left as it was, and each
    # half's table is the program's, frontier for frontier.
    module = _native.load("lazysearch.knights._count")
    openjoin = driver
    k, n, c = 5, 6, 4
    plain = module.FrontierCounter(k, n, -1, False, fold=True)  # type: ignore[attr-defined]
    cutting = module.FrontierCounter(k, n, -1, False, fold=True, cut=c)  # type: ignore[attr-defined]
    sweep = openjoin._sweep
    common = sweep(plain, module, plain.initial(), range(3 * k), 10**6, k, n)
    before = openjoin._as_dict(common)
    expected = plain.initial()
    for i in range(3 * k):
        expected = plain.step(i, expected)
    assert before == expected
    left = sweep(cutting, module, common, range(3 * k, c * k), 10**6, k, n)
    right = sweep(plain, module, common, range(3 * k, 4 * k), 10**6, k, n)
    assert openjoin._as_dict(common) == before
    by_dict = dict(before)
    for i in range(3 * k, c * k):
        by_dict = cutting.step(i, by_dict)
    assert openjoin._as_dict(left) == by_dict
    assert len(left) == len(by_dict)
    by_dict = dict(before)
    for i in range(3 * k, 4 * k):
        by_dict = plain.step(i, by_dict)
    assert openjoin._as_dict(right) == by_dict


def test_the_sum_of_products_past_128_bits() -> None:
    # The join adds count times count in 128 bits and spills to a Python integer before
    # they fill up: exact past 2**128 (with 64-bit counts, 2**64 - 1 squared is the
    # largest product).
    joiner = _openjoin().Joiner(5)  # type: ignore[attr-defined]
    top = 2**64 - 1
    products = [(top, top)] * 9 + [(3, 5), (2**63, 2), (123456789, 2**40 + 7)]
    for a, b in products:
        joiner.add_product(a, b)
    assert joiner.product_sum() == sum(a * b for a, b in products) > 2**131


@pytest.mark.skipif(not compiled(), reason="compiled only: minutes as plain Python")
def test_a_join_past_64_bits_from_64_bit_halves() -> None:
    # 3x44's halves count under 2**64 (typed counts, 128-bit sums), its tours over.
    joined = driver.open_join_count(3, 44)
    assert joined.count == frontier_count(3, 44).count > 2**64


def test_auto_joins_seven_by_seven() -> None:
    from lazysearch.knights.solver import choose_method

    assert choose_method(7, 7, False) == "join"
    # From a given start: the program over a narrow order (the columns' passes its bound).
    assert choose_method(7, 7, False, (0, 0)) == "order"
    assert choose_method(7, 7, True) == "join"  # the closed tours' join


def test_seven_by_seven_past_the_bound_says_so() -> None:
    # 7x7's halves hold millions of frontiers: a small bound stops them at once, with
    # the bound in the message (never a process killed for its memory).
    with pytest.raises(TooManyStatesError, match="max_states=50,000"):
        driver.open_join_count(7, 7, max_states=50_000)


@functools.cache
def _five_by_six() -> tuple[int, int]:
    """5x6's open tours by the program, and the pairs the join compares in one process
    (once for the three tests below: 13 s each as plain Python when each made its own)."""
    joined = driver.open_join_count(5, 6)
    return frontier_count(5, 6).count, joined.pairs


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_join_shared_among_workers(workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The left frontiers in parts, part 0 here and the others in forked processes: the
    # same count and the same pairs compared, however many.
    module = driver
    count, pairs = _five_by_six()
    monkeypatch.setattr(module, "PARTS_FROM", 0)
    joined = module.open_join_count(5, 6, workers=workers)
    assert (joined.count, joined.pairs) == (count, pairs)


def _dies(joiner: object, table: object, part: int, parts: int, writer: object) -> None:
    """A forked helper of the join that kills itself with SIGKILL (as ``kill -9`` from
    outside would) instead of joining its part."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_helper_killed_loses_no_part(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every helper of the join dies before sending its part back: the caller joins
    # those parts itself, with one warning, and the count and the pairs are exact.
    from lazysearch.parallel import WorkerLostWarning

    count, pairs = _five_by_six()
    monkeypatch.setattr(driver, "PARTS_FROM", 0)
    monkeypatch.setattr(driver, "_join_part", _dies)
    with pytest.warns(WorkerLostWarning) as caught:
        joined = driver.open_join_count(5, 6, workers=3)
    assert (joined.count, joined.pairs) == (count, pairs)
    lost = [str(w.message) for w in caught if issubclass(w.category, WorkerLostWarning)]
    assert len(lost) == 1 and lost[0].startswith(
        "2 helper processes died (killed from outside?)"
    ), lost


@pytest.mark.skipif(not compiled(), reason="compiled only: 6x7 takes minutes as plain Python")
def test_ctrl_c_in_a_terminal_stops_the_join_and_its_worker() -> None:
    # A terminal's Ctrl-C goes to the whole process group, the forked worker too: one line
    # on stderr, exit 130, no traceback from either. Sent once the worker is there.
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    argv = [sys.executable, "-m", "lazysearch", "knights", "6", "7", "--count"]
    argv += ["--method", "join", "--workers", "2"]  # (auto counts 6x7 over an order)
    run = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children")
        deadline = time.monotonic() + 600
        while run.poll() is None and time.monotonic() < deadline and not children.read_text():
            time.sleep(0.01)
        assert run.poll() is None, "the count ended before its worker was seen"
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130 and out == "", err
    assert "Traceback" not in err and err.count("\n") == 1, err


class _NoSweep:
    """Stands for the compiled program: a test fails if a square is swept."""

    COMPILED = True

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the program was started ({name})")


def test_eight_by_eight_open_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 8x8's open tours need a table past 187 million frontiers (measured after square
    # 30, docs/knights.md): below that bound the count stops before sweeping anything, not
    # minutes and gigabytes later; with the default bound too (set here as a machine
    # of about 24 GB sizes it: the development machine's is 63,191,255).
    from lazysearch.knights import counting, solver

    real_load = _native.load
    monkeypatch.setattr(
        _native,
        "load",
        lambda name: _NoSweep() if name.endswith("._count") else real_load(name),
    )
    monkeypatch.setattr(counting, "default_max_states", lambda: 61_681_203)
    words = r"8x8 needs more than max_states=61,681,203 frontiers: its table was measured"
    with pytest.raises(TooManyStatesError, match="counting the tours of " + words):
        knights.count_tours(8, 8)
    with pytest.raises(TooManyStatesError, match="joining the halves of " + words):
        knights.count_tours(8, 8, method="join")
    with pytest.raises(TooManyStatesError, match="max_states=1,000 frontiers: its table"):
        frontier_count(8, 8, max_states=1000)
    with pytest.raises(TooManyStatesError, match="measured past 187,781,774 after square 30"):
        frontier_count(8, 8, max_states=187_781_773)
    with pytest.raises(AssertionError, match="the program was started"):
        frontier_count(8, 8, max_states=187_781_774)  # a bound that large: it sweeps
    assert solver.choose_method(8, 8, False) == "dp"


def test_eight_by_eight_open_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazysearch.cli import main
    from lazysearch.knights import counting

    monkeypatch.setattr(counting, "default_max_states", lambda: 61_681_203)
    for extra in ([], ["--progress"], ["--method", "join"]):
        assert main(["knights", "8", "--count", *extra]) != 0
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1, err
        assert "8x8 needs more than max_states=61,681,203" in err


def test_a_start_or_closed_tours_are_not_refused_at_once() -> None:
    # The bound measured is for open tours of every start: others sweep as before (and
    # stop at their own bound, here a small one, after some squares).
    with pytest.raises(TooManyStatesError, match=r"reached at square \d+ of 64"):
        frontier_count(8, 8, start=(0, 0), max_states=1000)
    with pytest.raises(TooManyStatesError, match=r"reached at square \d+ of 64"):
        frontier_count(8, 8, closed=True, max_states=1000)
