"""Long runs: checkpoint files written atomically, a clean stop on Ctrl-C or SIGTERM, and
a progress bar, for any search.

A *run file* wraps a search checkpoint (:meth:`lazysearch.Search.checkpoint`) with what
the command line needs to go on exactly where it stopped: the command, whether it was
counting or listing, and how many solutions it had handled.

>>> import json, os, tempfile
>>> from lazysearch import queens
>>> stream = queens(6)
>>> _ = stream.take(1)
>>> path = os.path.join(tempfile.mkdtemp(), "run.json")
>>> save(path, run_record(stream.search, command="queens", mode="list", found=1))
>>> record = load(path, command="queens", mode="list")
>>> record["found"], queens(6).resume(record["search"]).take(5)
(1, [(2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (1, 3, 5, 0, 2, 4)])
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

# json, signal and tempfile are imported where run files and Ctrl-C are handled: a run
# without a run file (a small job on the command line) starts faster without them.
if TYPE_CHECKING:
    import signal

from .errors import CheckpointError, other_problem
from .search import Search

RUN_FORMAT = "lazysearch-run"
RUN_VERSION = 1
#: Seconds between checkpoints written while a search runs.
DEFAULT_EVERY = 5.0
#: Fields added to every file :func:`save` writes: the command line puts its arguments
#: there (``argv``, so that ``lazysearch --resume FILE`` alone knows the command that
#: wrote FILE; see :func:`written_with`).  Empty in the library.
WRITTEN_WITH: dict[str, Any] = {}


@contextlib.contextmanager
def written_with(**fields: Any) -> Iterator[None]:
    """Have every file :func:`save` writes meanwhile carry ``fields`` too."""
    saved = dict(WRITTEN_WITH)
    WRITTEN_WITH.update(fields)
    try:
        yield
    finally:
        WRITTEN_WITH.clear()
        WRITTEN_WITH.update(saved)


class Stop(Exception):
    """Raised at a safe point after Ctrl-C or SIGTERM, once the checkpoint is written.

    A parallel count's carries the solutions of its finished subtrees (its argument)
    and how many of the plan's subtrees are finished and planned (``subtrees``)."""

    subtrees: tuple[int, int] | None = None


class OutOfBudget(Exception):
    """Raised at a safe point when a run's time or node limit is reached, once the
    checkpoint (if any) is written; its argument says which limit.

    A parallel count's carries its run record (``record``: the plan, with the finished
    subtrees), to go on from even without a run file."""

    record: dict[str, Any] | None = None


def run_record(search: Search, *, command: str, mode: str, found: int) -> dict[str, Any]:
    """What a run file holds: the search's checkpoint and the command's own state."""
    return {
        "format": RUN_FORMAT,
        "version": RUN_VERSION,
        "command": command,
        "mode": mode,
        "found": found,
        "search": search.checkpoint(),
    }


def save(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Write ``record`` to ``path`` atomically: a temporary file beside it, flushed to
    disk, then renamed over it, so a crash leaves the old file or the new, never a torn
    one."""
    import json
    import tempfile

    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    _remove_stale_temporaries(path)
    prefix = f"{_temporary_prefix(path)}{os.getpid()}."
    # The contents as :func:`seal` digests them, written once: the digest closes them.
    body = json.dumps({**_unsealed(record), **WRITTEN_WITH}, separators=(",", ":"))
    text = f'{body[:-1]}{"," if body != "{}" else ""}"{DIGEST}":"{_sha256(body)}"}}\n'
    fd, temp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def digest(value: Any) -> str:
    """The sha256 (hex) of ``value`` written as compact JSON (the digest of a record's
    contents: :func:`seal`)."""
    import json

    return _sha256(json.dumps(value, separators=(",", ":")))


def _sha256(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("ascii")).hexdigest()


#: The field of every file the library writes (run files and the counting engines'
#: checkpoints) that holds the sha256 of the other fields: :func:`seal`.
DIGEST = "sha256"


def _unsealed(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != DIGEST}


def seal(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its digest: ``sha256``, the :func:`digest` of every other field
    in their order, last.  :func:`save` seals what it writes; :func:`read_record` (and
    :func:`check_seal`, for a record given as a dict) refuses a record that does not
    match its digest, so a file altered or damaged is never trusted.

    >>> sealed = seal({"format": "x", "version": 1, "found": 3})
    >>> check_seal(sealed, "f.json")
    >>> check_seal({**sealed, "found": 4}, "f.json")
    Traceback (most recent call last):
    ...
    lazysearch.errors.CheckpointError: f.json: does not match its sha256 (altered or damaged)
    """
    rest = _unsealed(record)
    return {**rest, DIGEST: digest(rest)}


def check_seal(
    record: dict[str, Any],
    name: str,
    legacy: Callable[[dict[str, Any]], object] | None = None,
) -> None:
    """Refuse ``record`` (read from ``name``) unless it matches its digest
    (:func:`seal`).  ``legacy``: the digest the kind's files carried before the digest
    covered every field (its files were refused without one); a kind without
    (``None``: run files) is read without a digest too (:func:`load` warns that its
    contents are not verified, once it has checked them otherwise).

    Raises :class:`CheckpointError` naming the file."""
    if DIGEST not in record and legacy is None:
        return
    stored = record.get(DIGEST)
    if stored == digest(_unsealed(record)):
        return
    if legacy is not None and isinstance(stored, str):
        try:
            if stored == legacy(record):
                return
        except (KeyError, TypeError, ValueError):  # fields the old digest read are damaged
            pass
    raise CheckpointError(f"{name}: does not match its sha256 (altered or damaged)")


class UnverifiedWarning(UserWarning):
    """A run file read without a digest to check it by (written before run files had
    one): it is resumed, and nothing vouches for its contents."""


def _temporary_prefix(path: str) -> str:
    """The start of the names of ``path``'s temporary files (the writer's pid follows)."""
    return f".lazysearch-{os.path.basename(path)}."


def _remove_stale_temporaries(path: str) -> None:
    """Remove the temporary files of ``path`` left by writers that are gone (a ``kill
    -9`` between creating one and renaming it), so that they never pile up; a live
    process's file (a writer at work) is left alone."""
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale_temporaries(folder, _temporary_prefix(path), ".tmp")


def remove_stale_temporaries(folder: str, prefix: str, suffix: str) -> None:
    """Remove the files of ``folder`` named ``prefix``, a process id, ``.``, anything,
    ``suffix``, whose process is gone: temporary files of writers killed before they
    could remove or rename them.  A live process's file is left alone.  ``prefix``
    may hold one ``*``, standing for any part of a name (a temporary file of any file
    of the folder)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    start, _, end = prefix.partition("*")
    for name in names:
        if not (name.startswith(start) and name.endswith(suffix)):
            continue
        at = name.rfind(end) if end else len(start)
        if at < len(start):
            continue
        pid = name[at + len(end) :].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def load(path: str | os.PathLike[str], *, command: str, mode: str) -> dict[str, Any]:
    """Read and check a run file written for ``command`` in ``mode`` ("count"/"list").

    Raises
    ------
    CheckpointError
        If the file is not valid JSON (naming line and column), not a run file, of
        another version, or written by another command or mode.
    OSError
        If it cannot be read.
    """
    path = os.fspath(path)
    record = read_record(
        path, RUN_FORMAT, RUN_VERSION, "a lazysearch run file", max_chars=MAX_RUN_FILE
    )
    check_run(record, path, command=command, mode=mode)
    _check_agreement(path, record)
    if DIGEST in record:
        return _unsealed(record)  # checked: the digest is the file's business
    import warnings

    warnings.warn(
        f"{path} has no sha256 (written by a lazysearch before run files had one), "
        "so its contents are not verified",
        UnverifiedWarning,
        stacklevel=2,
    )
    return record


def _check_agreement(path: str, record: dict[str, Any]) -> None:
    """Refuse a run file whose counters disagree with its position or its plan (a file
    written before run files had a digest, altered by hand): a count's ``found`` is its
    search's ``solutions``, or its plan's finished subtrees' sum; a listing has written
    no more solutions than its search found; a plan's subtrees are apart (none inside
    another) and each one's position is inside it."""
    search, plan = record["search"], record.get("plan")
    found, solutions = record["found"], search.get("solutions")
    if plan is None:
        if type(solutions) is int and (
            found != solutions if record["mode"] == "count" else found > solutions
        ):
            raise CheckpointError(
                f"{path}: run file is damaged (found = {found} and search.solutions = "
                f"{solutions} disagree)"
            )
        return
    if record["mode"] == "count":
        indices = [entry[0] for entry in plan["done"]]
        if len(set(indices)) != len(indices):
            raise CheckpointError(f"{path}: run file field plan.done names a subtree twice")
        total = sum(entry[1] for entry in plan["done"])
        if found != total:
            raise CheckpointError(
                f"{path}: run file is damaged (found = {found}, and the finished subtrees "
                f"of its plan counted {total})"
            )
    elif found < plan["solutions"]:
        raise CheckpointError(
            f"{path}: run file is damaged (found = {found} is less than "
            f"plan.solutions = {plan['solutions']})"
        )
    tasks = plan["tasks"]
    for i, (prefix, position, _) in enumerate(tasks):
        if position[: len(prefix)] != prefix:
            raise CheckpointError(
                f"{path}: run file field plan.tasks[{i}] is damaged (its position "
                f"{position} is outside its subtree {prefix})"
            )
    prefixes = sorted(prefix for prefix, _, _ in tasks)
    for a, b in itertools.pairwise(prefixes):
        if b[: len(a)] == a:
            raise CheckpointError(
                f"{path}: run file field plan.tasks is damaged (subtree {b} is inside subtree {a})"
            )


def check_run(record: object, path: str, *, command: str, mode: str) -> dict[str, Any]:
    """``record`` (read from ``path``, or given as a dict: a :class:`Partial`'s run
    record), checked as :func:`load` checks a run file's.

    >>> check_run({"format": "lazysearch-run"}, "here", command="queens", mode="count")
    Traceback (most recent call last):
    ...
    lazysearch.errors.CheckpointError: here: version None is not 1, the version this ...
    """
    if not isinstance(record, dict) or record.get("format") != RUN_FORMAT:
        raise CheckpointError(f"{path}: not a lazysearch run file")
    check_version(record, path, RUN_VERSION)
    if record.get("command") != command:
        raise other_problem(
            f"{path}: written by 'lazysearch {record.get('command')}', not '{command}'"
        )
    if record.get("mode") != mode:
        raise other_problem(
            f"{path}: written by a run that was {_doing(record.get('mode'))}, "
            f"and this one is {_doing(mode)}"
        )
    found = record.get("found")
    if type(found) is not int or found < 0 or not isinstance(record.get("search"), dict):
        raise CheckpointError(f"{path}: run file is damaged (found={found!r})")
    _check_ranges(path, record)
    output = record.get("output")
    if output is not None and not (type(output) is int and 0 <= output <= MAX_COUNTER):
        raise CheckpointError(f"{path}: run file field output = {output!r} is damaged")
    if "plan" in record:
        (check_list_plan if mode == "list" else check_plan)(path, record)
    return record


def read_record(
    path: str,
    format_name: str,
    version: int | tuple[int, ...],
    what: str,
    *,
    max_chars: int | None = None,
    legacy: Callable[[dict[str, Any]], object] | None = None,
) -> dict[str, Any]:
    """The JSON object in file ``path``, checked to carry ``format_name`` and ``version``
    (or one of a tuple of versions; ``what`` names such a file in the messages) and to
    match its digest (:func:`check_seal`, with ``legacy``); a file longer than
    ``max_chars`` characters is refused unread.

    Raises :class:`CheckpointError` for a file that is not UTF-8 text, not JSON (naming
    line and column: a torn file), too long, nested too deeply or holding a number too
    long to read, not such a file, of another version, or altered (its digest);
    ``OSError`` when it cannot be read.
    """
    import json

    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read() if max_chars is None else handle.read(max_chars + 1)
    except UnicodeDecodeError as exc:
        raise CheckpointError(
            f"{path}: not {what} (byte {exc.object[exc.start]:#04x} at offset {exc.start} "
            "is not UTF-8 text)"
        ) from None
    if max_chars is not None and len(text) > max_chars:
        raise CheckpointError(f"{path}: not {what} (longer than {max_chars:,} characters)")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckpointError(
            f"{path}:{exc.lineno}:{exc.colno}: not {what} ({exc.msg}): torn or not JSON"
        ) from None
    except (RecursionError, ValueError) as exc:  # nested too deeply; a 5,000-digit number
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise CheckpointError(f"{path}: not {what} ({reason})") from None
    if not isinstance(record, dict) or record.get("format") != format_name:
        raise CheckpointError(f"{path}: not {what}")
    check_version(record, path, version)
    check_seal(record, path, legacy)
    return record


def check_version(record: dict[str, Any], name: str, version: int | tuple[int, ...]) -> None:
    """Refuse ``record`` (from ``name``) unless its ``version`` is the int ``version``
    (or one of them: the message names the newest; ``true`` is no version).  Raises
    :class:`CheckpointError`."""
    found, known = record.get("version"), version if isinstance(version, tuple) else (version,)
    if type(found) is not int or found not in known:
        raise CheckpointError(
            f"{name}: version {found!r} is not {max(known)}, the version this lazysearch reads"
        )


#: Characters a run file may have: its position is one number a level, so even a search
#: a million levels deep writes a few MB.
MAX_RUN_FILE = 64 * 2**20
#: Counters (solutions, nodes) a run file may hold: the engines count in signed 64 bits,
#: and a resumed run must still have room to count (2**62 nodes is 1,400 years at 10**8
#: a second).
MAX_COUNTER = 2**62
#: A choice index or prefix entry: the engines keep them in 32 bits.
MAX_INDEX = 2**31 - 1


def _check_ranges(path: str, record: dict[str, Any]) -> None:
    """Refuse a run file whose numbers the engines cannot hold (:class:`CheckpointError`
    naming the field and the value), before any of them reaches an engine."""
    search = record["search"]
    counters = [("found", record["found"])]
    counters += [(f"search.{key}", search.get(key)) for key in ("nodes", "solutions")]
    for field, value in counters:
        if type(value) is int and not 0 <= value <= MAX_COUNTER:
            raise CheckpointError(
                f"{path}: run file field {field} = {value} is out of range (0 to 2**62)"
            )
    for key in ("prefix", "position"):
        entries = search.get(key)
        if not isinstance(entries, list):
            continue
        for i, value in enumerate(entries):
            if type(value) is int and not 0 <= value <= MAX_INDEX:
                raise CheckpointError(
                    f"{path}: run file field search.{key}[{i}] = {value} is out of range "
                    "(0 to 2**31-1)"
                )


class PlanFile:
    """The run file of a parallel count: its plan (the subtrees, by position) and each
    finished subtree's count, written atomically at most every ``every`` seconds as
    subtrees finish, and at the end (:meth:`save`).

    ``record`` holds, besides a run file's fields, ``plan``: ``tasks`` (each subtree as
    ``[prefix, position, state]``, ``state`` 0 for a subtree from its root), ``above``
    (the nodes a plain walk enters outside them) and ``done`` (``[index, solutions,
    nodes]`` for each finished one); ``found`` is the sum of the finished counts.
    """

    def __init__(
        self, path: str | None, record: dict[str, Any], every: float = DEFAULT_EVERY
    ) -> None:
        self.path = path
        self.record = record
        self.every = every
        plan = record["plan"]
        self.tasks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = [
            (tuple(prefix), tuple(position), int(state))
            for prefix, position, state in plan["tasks"]
        ]
        self.above: int = plan["above"]
        self.done: dict[int, tuple[int, int]] = {
            int(i): (int(found), int(nodes)) for i, found, nodes in plan["done"]
        }
        #: Called with the record each time it is saved (with or without a path).
        self.saved: Callable[[dict[str, Any]], None] | None = None
        self._last = time.monotonic()

    @classmethod
    def new(
        cls,
        path: str | None,
        search: Search,
        tasks: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        above: int,
        *,
        command: str,
        every: float = DEFAULT_EVERY,
    ) -> PlanFile:
        """The run file of a count of ``search`` split into ``tasks``, none done yet."""
        record = run_record(search, command=command, mode="count", found=0)
        record["plan"] = {
            "tasks": [[list(prefix), list(position), state] for prefix, position, state in tasks],
            "above": above,
            "done": [],
        }
        return cls(path, record, every)

    def left(self) -> list[int]:
        """The indices of the subtrees not yet counted, in the plan's order."""
        return [i for i in range(len(self.tasks)) if i not in self.done]

    def finished(self, index: int, found: int, nodes: int) -> None:
        """Subtree ``index`` is counted: ``found`` solutions in ``nodes`` nodes."""
        self.done[index] = (found, nodes)
        if time.monotonic() - self._last >= self.every:
            self.save()

    def split(
        self,
        index: int,
        found: int,
        nodes: int,
        rest: tuple[tuple[int, ...], tuple[int, ...], int],
    ) -> None:
        """Subtree ``index`` is counted up to where a search of it stopped: ``found``
        solutions in ``nodes`` nodes so far; its remainder, ``rest`` (the subtree's
        prefix, and the position and state the search stopped at), becomes a subtree of
        its own at the end of the plan."""
        prefix, position, state = rest
        self.tasks.append((tuple(prefix), tuple(position), int(state)))
        self.record["plan"]["tasks"].append([list(prefix), list(position), int(state)])
        self.finished(index, found, nodes)

    def save(self) -> None:
        """Write the file now (nothing without a path)."""
        plan = self.record["plan"]
        plan["done"] = [[i, found, nodes] for i, (found, nodes) in sorted(self.done.items())]
        self.record["found"] = sum(found for found, _ in self.done.values())
        if self.path is not None:
            save(self.path, self.record)
        if self.saved is not None:
            self.saved(self.record)
        self._last = time.monotonic()


def check_plan(path: str, record: dict[str, Any]) -> None:
    """Refuse a run file whose ``plan`` is damaged (:class:`CheckpointError` naming the
    field), before any position in it reaches an engine."""
    plan = record.get("plan")

    def index(value: object) -> bool:
        return type(value) is int and 0 <= value <= MAX_INDEX

    def counter(value: object) -> bool:
        return type(value) is int and 0 <= value <= MAX_COUNTER

    if not isinstance(plan, dict) or not isinstance(plan.get("tasks"), list):
        raise CheckpointError(f"{path}: run file field plan is damaged")
    tasks = plan["tasks"]
    for i, task in enumerate(tasks):
        if not (
            isinstance(task, list)
            and len(task) == 3
            and all(isinstance(p, list) and all(index(k) for k in p) for p in task[:2])
            and task[2] in (0, 1)
        ):
            raise CheckpointError(f"{path}: run file field plan.tasks[{i}] = {task!r} is damaged")
    if not counter(plan.get("above")):
        raise CheckpointError(
            f"{path}: run file field plan.above = {plan.get('above')!r} is damaged"
        )
    done = plan.get("done")
    if not isinstance(done, list):
        raise CheckpointError(f"{path}: run file field plan.done is damaged")
    for j, entry in enumerate(done):
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and type(entry[0]) is int
            and 0 <= entry[0] < len(tasks)
            and counter(entry[1])
            and counter(entry[2])
        ):
            raise CheckpointError(f"{path}: run file field plan.done[{j}] = {entry!r} is damaged")


def list_plan(
    tasks: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    *,
    written: int,
    above: int,
    solutions: int,
    nodes: int,
) -> dict[str, Any]:
    """The ``plan`` of a parallel listing's run file: the subtrees whose solutions are
    not all written yet, in order, each ``[prefix, position, state]``; how many of the
    first one's solutions were written (``written``); the nodes a plain walk enters
    outside the subtrees (``above``); and the solutions written and nodes entered so far
    in the whole run, so that a resumed run's statistics cover all of it."""
    return {
        "tasks": [[list(prefix), list(position), state] for prefix, position, state in tasks],
        "written": written,
        "above": above,
        "solutions": solutions,
        "nodes": nodes,
    }


def check_list_plan(path: str, record: dict[str, Any]) -> None:
    """Refuse the run file of a parallel listing whose ``plan`` is damaged
    (:class:`CheckpointError` naming the field and the value), before any position in
    it reaches an engine."""
    plan = record.get("plan")
    if not isinstance(plan, dict) or not isinstance(plan.get("tasks"), list):
        raise CheckpointError(f"{path}: run file field plan is damaged")
    for i, task in enumerate(plan["tasks"]):
        if not _task_ok(task):
            raise CheckpointError(f"{path}: run file field plan.tasks[{i}] = {task!r} is damaged")
    for key in ("written", "above", "solutions", "nodes"):
        value = plan.get(key)
        if not (type(value) is int and 0 <= value <= MAX_COUNTER):
            raise CheckpointError(f"{path}: run file field plan.{key} = {value!r} is damaged")
    if plan["written"] and not plan["tasks"]:
        raise CheckpointError(
            f"{path}: run file field plan.written = {plan['written']!r} is damaged "
            "(no subtree is left)"
        )


def _task_ok(task: object) -> bool:
    """Whether ``task`` is a plan's ``[prefix, position, state]`` the engines can hold."""
    return (
        isinstance(task, list)
        and len(task) == 3
        and all(
            isinstance(p, list) and all(type(k) is int and 0 <= k <= MAX_INDEX for k in p)
            for p in task[:2]
        )
        and task[2] in (0, 1)
    )


def _doing(mode: object) -> str:
    return {"count": "counting", "list": "listing solutions"}.get(str(mode), repr(mode))


def check_overwritable(path: str | os.PathLike[str], format_name: str, what: str) -> None:
    """Refuse to overwrite ``path`` unless it is absent or a JSON file of ``format_name``
    (``what`` names such a file in the message): a typo in a ``--checkpoint`` path must
    not destroy the user's data.

    Raises :class:`CheckpointError` naming the file."""
    import json

    name = os.fspath(path)
    if not os.path.exists(name):
        return
    try:
        with open(name, encoding="utf-8") as handle:
            head = json.loads(handle.read() or "null")
    except (OSError, ValueError):
        head = None
    if not isinstance(head, dict) or head.get("format") != format_name:
        raise CheckpointError(f"{name} exists and is not {what}; not overwriting")


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse to overwrite a file that is not a lazysearch run file (a typo in a path
    must not destroy the user's data), and a path in a folder that does not exist or
    cannot be written (before the search starts, not at its first checkpoint)."""
    import json

    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CheckpointError(f"cannot write {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CheckpointError(f"cannot write {path}: folder {folder} is not writable")
    if not os.path.exists(path):
        return
    try:
        with open(path, encoding="utf-8") as handle:
            head = json.loads(handle.read() or "null")
    except (OSError, ValueError):
        head = None
    if not isinstance(head, dict) or head.get("format") != RUN_FORMAT:
        raise CheckpointError(f"{path} exists and is not a lazysearch run file; not overwriting")


#: Seconds: an estimate of the time left above this says nothing (ten years; the
#: fraction of the tree walked is then too small for its rate to mean anything, as
#: when the first of 1000 queens is placed), and the bar shows "?" instead.
MAX_TIME_LEFT = 10 * 365.25 * 86400


def time_left(seconds: float | None) -> str:
    """The time left as the progress bar shows it: tqdm's ``[h:]mm:ss``, or ``?`` when
    there is no estimate, or none worth reading (not finite, negative, or more than
    :data:`MAX_TIME_LEFT`).

    >>> time_left(3725.0)
    '1:02:05'
    >>> time_left(7.8e48), time_left(float("inf")), time_left(float("nan")), time_left(None)
    ('?', '?', '?', '?')
    """
    if seconds is None or not 0 <= seconds <= MAX_TIME_LEFT:  # False for NaN too
        return "?"
    from tqdm import tqdm

    return str(tqdm.format_interval(seconds))


def progress_bar(desc: str, file: Any = None) -> Any:
    """A tqdm bar over a search's progress, from 0 to 1, on ``file`` (standard error by
    default), whose time left reads "?" when :func:`time_left` says it means nothing
    (tqdm's own ``{remaining}`` prints any number of hours)."""
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        @property
        def format_dict(self) -> dict[str, Any]:
            values: dict[str, Any] = super().format_dict
            n, total, elapsed = values.get("n"), values.get("total"), values.get("elapsed")
            rate = values.get("rate")
            if rate is None and elapsed:  # tqdm's rule: the mean rate until one is measured
                rate = (n - values.get("initial", 0)) / elapsed
            values["left"] = time_left((total - n) / rate if rate and total else None)
            return values

    return Bar(
        total=1.0,
        unit="",
        bar_format="{desc}{percentage:5.1f}% |{bar}| [{elapsed}<{left}{postfix}]",
        desc=desc,
        leave=False,
        file=file,
    )


class Runner:
    """Drives one search: writes checkpoints every ``every`` seconds and at a stop, shows
    a progress bar, and turns Ctrl-C / SIGTERM into :class:`Stop` at a safe point.

    Parameters
    ----------
    path:
        The run file to write, or None for none (then Ctrl-C stops at once, as usual).
    command, mode:
        Recorded in the run file, checked when it is resumed.
    progress:
        Show a tqdm bar on standard error.
    """

    def __init__(
        self,
        path: str | None,
        *,
        command: str,
        mode: str,
        every: float = DEFAULT_EVERY,
        progress: bool = False,
    ) -> None:
        self.path = path
        self.command = command
        self.mode = mode
        self.every = every
        self.progress = progress
        self.found = 0
        self.stop_requested = False
        #: When the run must stop (time.monotonic()), and after how many nodes of the
        #: search's counter: set by the command line's --time-limit / --node-limit.
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self._last = time.monotonic()
        self._bar: Any = None
        #: Fields to add to the run file at each write (the command line's length of
        #: ``-o FILE`` written so far, to cut it back to when resumed).
        self.note: Callable[[], dict[str, Any]] | None = None

    def checkpoint(self, search: Search) -> None:
        if self.path is not None:
            record = run_record(search, command=self.command, mode=self.mode, found=self.found)
            if self.note is not None:
                record.update(self.note())
            save(self.path, record)
        self._last = time.monotonic()

    def tick(self, search: Search) -> None:
        """Called at safe points: update the bar, checkpoint when due, stop if asked."""
        if self.mode == "count":  # the engine's counter is the running total
            self.found = search.stats.solutions
        if self._bar is not None:
            self._bar.n = search.progress()
            self._bar.set_postfix_str(f"{self.found} found", refresh=False)
            self._bar.update(0)
        if search.done:  # finished within the chunk that spent the budget: no stop
            pass
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            self._out_of_budget(search, "time limit")
        elif self.node_limit is not None and search.stats.nodes >= self.node_limit:
            self._out_of_budget(search, "node limit")
        if self.path is None:
            return
        if self.stop_requested:
            self.checkpoint(search)
            raise Stop
        if time.monotonic() - self._last >= self.every:
            self.checkpoint(search)

    def _out_of_budget(self, search: Search, which: str) -> None:
        if self.path is not None:
            self.checkpoint(search)
        raise OutOfBudget(which)

    def _request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_requested = True

    @contextlib.contextmanager
    def active(self, search: Search) -> Iterator[None]:
        """While the search runs: signal handlers (with a run file) and the bar."""
        handlers: dict[signal.Signals, Any] = {}
        if self.path is not None:
            import signal

            for sig in (signal.SIGINT, signal.SIGTERM):
                handlers[sig] = signal.signal(sig, self._request_stop)
        if self.progress:
            self._bar = progress_bar(f"lazysearch {self.command}: ")
        try:
            yield
        finally:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
            for sig, handler in handlers.items():
                signal.signal(sig, handler)  # bound: handlers is empty without a run file
