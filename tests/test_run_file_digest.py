"""Run files and the counting engines' checkpoints carry a digest of their contents: an
altered or damaged file is refused in one line naming it (exit status 2), never resumed
to a wrong answer; a run file written before run files had one is resumed with a
warning, its counters checked against its position and plan."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from lazysearch import CheckpointError, longrun
from lazysearch.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _edit(path: Path, change: Any, *, reseal: bool = False) -> None:
    record = json.loads(path.read_text())
    change(record)
    if reseal:
        record = longrun.seal(record)
    path.write_text(json.dumps(record))


def _queens_12(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    run = tmp_path / "r.json"
    status, _, _ = _run(
        capsys, "queens", "12", "--count", "--checkpoint", str(run), "--node-limit", "1"
    )
    assert status == 5
    return run


def _refused(capsys: pytest.CaptureFixture[str], run: Path, *argv: str) -> str:
    status, out, err = _run(capsys, *argv, "--resume", str(run))
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert str(run) in err
    return err


def test_a_tampered_position_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _queens_12(tmp_path, capsys)
    record = json.loads(run.read_text())
    assert record["search"]["position"][4] == 2 and "sha256" in record

    def tamper(r: dict[str, Any]) -> None:
        r["search"]["position"][4] = 1  # resumed to 14,203 before the digest

    _edit(run, tamper)
    err = _refused(capsys, run, "queens", "12", "--count")
    assert "does not match its sha256 (altered or damaged)" in err


def test_raised_solutions_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _queens_12(tmp_path, capsys)

    def tamper(r: dict[str, Any]) -> None:
        r["search"]["solutions"] += 5  # 14,205 before the digest

    _edit(run, tamper)
    assert "does not match its sha256" in _refused(capsys, run, "queens", "12", "--count")


def test_a_tampered_plan_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "w.json"
    argv = ("queens", "10", "--count", "--checkpoint", str(run))
    assert _run(capsys, *argv, "--workers", "2", "--node-limit", "1")[0] == 5

    def tamper(r: dict[str, Any]) -> None:
        r["plan"]["tasks"][4][1] = [*r["plan"]["tasks"][4][0], 4]  # 708 before the digest

    _edit(run, tamper)
    assert "does not match its sha256" in _refused(capsys, run, *argv)


def test_a_version_that_is_not_a_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _queens_12(tmp_path, capsys)
    _edit(run, lambda r: r.update(version=True), reseal=True)
    assert "version True is not 1" in _refused(capsys, run, "queens", "12", "--count")


def test_a_run_file_without_a_digest_resumes_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As written before run files had one: resumed, with one warning line."""
    run = _queens_12(tmp_path, capsys)
    _edit(run, lambda r: r.pop("sha256"))
    status, out, err = _run(capsys, "queens", "12", "--count", "-q", "--resume", str(run))
    assert (status, out) == (0, "14200\n")
    assert err == (
        f"lazysearch queens: warning: {run} has no sha256 (written by a lazysearch before "
        "run files had one), so its contents are not verified\n"
    )


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("solutions", "found = 4096 and search.solutions = 4101 disagree"),
        ("found", "found = 4101 and search.solutions = 4096 disagree"),
    ],
)
def test_counters_without_a_digest_must_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, words: str
) -> None:
    run = _queens_12(tmp_path, capsys)

    def tamper(r: dict[str, Any]) -> None:
        del r["sha256"]
        where = r["search"] if field == "solutions" else r
        where[field] += 5

    _edit(run, tamper)
    assert words in _refused(capsys, run, "queens", "12", "--count")


def test_a_plan_without_a_digest_must_agree_with_its_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "w.json"
    argv = ("queens", "10", "--count", "--checkpoint", str(run))
    assert _run(capsys, *argv, "--workers", "2", "--node-limit", "1")[0] == 5
    pristine = json.loads(run.read_text())
    del pristine["sha256"]
    tasks = pristine["plan"]["tasks"]
    cases: list[tuple[Any, str]] = [
        (lambda r: r.update(found=r["found"] + 1), "finished subtrees of its plan counted"),
        (lambda r: r["plan"]["done"].append(r["plan"]["done"][0]), "names a subtree twice"),
        (lambda r: r["plan"]["tasks"][3].__setitem__(1, [9]), "is outside its subtree"),
        (lambda r: r["plan"]["tasks"].__setitem__(3, tasks[2]), "is inside subtree"),
    ]
    for tamper, words in cases:
        record = json.loads(json.dumps(pristine))
        tamper(record)
        run.write_text(json.dumps(record))
        assert words in _refused(capsys, run, *argv)


def test_a_file_that_is_not_utf8_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _queens_12(tmp_path, capsys)
    run.write_bytes(run.read_bytes().replace(b'"count"', b'"co\xffnt"'))
    err = _refused(capsys, run, "queens", "12", "--count")
    assert "is not UTF-8 text" in err
    with pytest.raises(CheckpointError, match=r"r\.json: not a lazysearch run file \(byte 0xff"):
        longrun.load(run, command="queens", mode="count")


# -- every kind of file, mutated -----------------------------------------------------------


def _kinds(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    """Each kind of file the command line writes and reads back: the arguments that
    resume it (``--resume`` goes after them), and the file, written by a stopped run."""
    kinds: dict[str, tuple[list[str], Path]] = {}
    starts = {
        "count": ["queens", "12", "--count"],
        "listing": ["queens", "12", "-q", "--every", "1000"],
        "plan": ["queens", "9", "--count"],
        "planned listing": ["queens", "9", "-q"],
        "memo": ["queens", "10", "--count", "--method", "memo"],
        "walk": ["knights", "5x5", "--count", "--method", "enumerate"],
    }
    limits = {"memo": "300", "walk": "1000"}
    for kind, argv in starts.items():
        path = tmp_path / f"{kind.replace(' ', '-')}.json"
        workers = ["--workers", "2"] if kind.startswith("plan") else []
        limit = ["--node-limit", limits.get(kind, "1")]
        assert main([*argv, *workers, *limit, "--checkpoint", str(path)]) == 5, kind
        kinds[kind] = ([*argv, "-q"], path)
    return kinds


def _mutations(text: bytes, rng: random.Random) -> list[bytes]:
    """The file ``text`` mutated: its digest, each kind of field, truncated, and with
    bytes that are not UTF-8."""
    record = json.loads(text)
    out: list[bytes] = []
    digest = record["sha256"]
    for i in (0, len(digest) - 1):
        flipped = digest[:i] + ("0" if digest[i] != "0" else "1") + digest[i + 1 :]
        out.append(json.dumps({**record, "sha256": flipped}).encode())
    out.append(json.dumps({k: v for k, v in record.items() if k != "sha256"}).encode())

    def numbers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if isinstance(value, bool):
            return [path]
        if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            return [path]
        if isinstance(value, dict):
            return [p for k, v in value.items() for p in numbers(v, (*path, k))]
        if isinstance(value, list):
            return [p for i, v in enumerate(value) for p in numbers(v, (*path, i))]
        return []

    places = numbers({k: v for k, v in record.items() if k not in ("sha256", "argv")})
    for path in rng.sample(places, min(12, len(places))):
        changed = json.loads(text)
        *above, last = path
        holder = changed
        for key in above:
            holder = holder[key]
        value = holder[last]
        if isinstance(value, bool):
            holder[last] = not value
        elif isinstance(value, int):
            holder[last] = value + rng.choice((1, -1, 5))
        else:
            holder[last] = str(int(value) + 1)
        out.append(json.dumps(changed).encode())
    for _ in range(4):
        out.append(text[: rng.randrange(len(text))])
    for _ in range(3):
        at = rng.randrange(len(text))
        out.append(text[:at] + bytes([rng.randrange(0x80, 0x100)]) + text[at + 1 :])
    return out


def test_every_kind_of_file_mutated_is_refused_or_resumes_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mutated, a file is refused in one line naming it with status 2, or resumes to
    the very output of the file as written (a mutation that changes nothing, or a run
    file without its digest, which warns in one line)."""
    kinds = _kinds(tmp_path)
    capsys.readouterr()
    rng = random.Random(36)
    for kind, (argv, path) in kinds.items():
        text = path.read_bytes()
        truth = _run(capsys, *argv, "--resume", str(path))
        assert truth[0] == 0, (kind, truth)
        for bad in _mutations(text, rng):
            path.write_bytes(bad)
            status, out, err = _run(capsys, *argv, "--resume", str(path))
            assert err.count("\n") <= 1 and "Traceback" not in err, (kind, bad[:80], err)
            if status == 0:
                assert out == truth[1], (kind, bad[:200])
                assert err in ("", truth[2]) or "has no sha256" in err, (kind, err)
            else:
                assert (status, out) == (2, ""), (kind, bad[:200], status, err)
                assert str(path) in err, (kind, err)


class _Halt(Exception):
    pass


def _dp_file(path: Path) -> Any:
    """A count by the knights' program stopped after 12 squares into ``path``; the call
    that resumes it."""
    from lazysearch.knights.counting import frontier_count

    seen = [0]

    def progress(fraction: float) -> None:
        seen[0] += 1
        if seen[0] == 12:
            raise _Halt

    with pytest.raises(_Halt):
        frontier_count(3, 10, closed=True, checkpoint=path, progress=progress)
    return lambda: frontier_count(3, 10, closed=True, resume=path).count


def _join_file(path: Path) -> Any:
    """A join of 5x6 closed tours stopped after its second part; the call that resumes it."""
    from lazysearch.knights.joinrun import count_joined

    def tick(where: str) -> None:
        if where.startswith("part 2 "):
            raise _Halt

    with pytest.raises(_Halt):
        count_joined(5, 6, checkpoint=path, tick=tick)
    return lambda: count_joined(5, 6, resume=path).count


def _memo_file(path: Path) -> Any:
    from lazysearch import polyomino
    from lazysearch.exactcover import memo

    def board() -> Any:
        return polyomino.tile(
            polyomino.rectangle(4, 6), [polyomino.piece("D", "DD")], copies={"D": None}
        )

    memo.count_within(board().search, nodes=80, checkpoint=path)
    return lambda: memo.count_within(board().search, resume=path).found


def _walk_file(path: Path) -> Any:
    from lazysearch.knights.walking import count_within

    count_within(5, 5, nodes=2_000, checkpoint=path)
    return lambda: count_within(5, 5, resume=path).count


@pytest.mark.parametrize(
    "make", [_dp_file, _join_file, _memo_file, _walk_file], ids=["dp", "join", "memo", "walk"]
)
def test_every_counting_checkpoint_mutated_is_refused_naming_it_or_counts_the_same(
    tmp_path: Path, make: Any
) -> None:
    path = tmp_path / "count.json"
    resume = make(path)
    text = path.read_bytes()
    truth = resume()
    for bad in _mutations(text, random.Random(34)):
        path.write_bytes(bad)
        try:
            assert resume() == truth, bad[:200]
        except CheckpointError as exc:
            assert str(path) in str(exc) and "\n" not in str(exc), exc


@pytest.mark.parametrize(
    "make", [_dp_file, _join_file, _memo_file, _walk_file], ids=["dp", "join", "memo", "walk"]
)
def test_a_checkpoint_with_the_digest_it_had_before_is_read(tmp_path: Path, make: Any) -> None:
    """The counting engines' files had a digest of their tables (or parts) before it
    covered every field: those still resume."""
    from lazysearch.longrun import digest

    def walk(r: dict[str, Any]) -> list[Any]:
        return [r[k] for k in ("finished", "current", "found", "nodes")] + (
            [r["plan"]] if r["version"] == 2 else []
        )

    old = {
        "lazysearch-knights-count": lambda r: digest(r["table"]),
        "lazysearch-knights-join": lambda r: digest([r["board"], r["parts"]]),
        "lazysearch-memo-count": lambda r: digest(
            [r[k] for k in ("problem", "found", "nodes", "table")]
        ),
        "lazysearch-knights-walk": lambda r: digest(walk(r)),
    }
    path = tmp_path / "count.json"
    resume = make(path)
    truth = resume()
    record = json.loads(path.read_text())
    record["sha256"] = old[record["format"]](record)
    path.write_text(json.dumps(record))
    assert resume() == truth
    record["sha256"] = record["sha256"][::-1]
    path.write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match="does not match its sha256"):
        resume()
