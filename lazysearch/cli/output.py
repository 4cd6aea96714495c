"""Where and how results are written: ``-o FILE`` (replaced only when the run
succeeds, or written as it goes beside a run file), JSON lines, and the tags that
say which puzzle of a file a line is about."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any, NamedTuple, TextIO

from .exits import CliError


def json_text(**fields: Any) -> str:
    """One line of compact JSON (json is imported only by the runs that print some)."""
    import json

    return json.dumps(fields, separators=(",", ":")) + "\n"


def json_line(n: int, solution: Any, **extra: Any) -> str:
    """Solution ``n``'s JSON line: its number and ``extra``."""
    return json_text(solution=n, **extra)


class Tag(NamedTuple):
    """Which puzzle of a file a run is about: ``text`` labels its lines ("puzzle 2, ")
    and ``fields`` go into its JSON lines ({"puzzle": 2})."""

    text: str
    fields: dict[str, Any]


NO_TAG = Tag("", {})


def puzzle_tag(number: int, of: int, name: str = "") -> Tag:
    """The tag of puzzle ``number`` (from 1) of a file of ``of``: labelled when there are
    several; its number (and name, if any) always in JSON."""
    fields: dict[str, Any] = {"puzzle": number}
    if name:
        fields["name"] = name
    text = f"puzzle {number}{f' ({name})' if name else ''}, " if of > 1 else ""
    return Tag(text, fields)


class Unit(NamedTuple):
    """What a count counts: its words for one and for many, and its name in JSON lines
    (``None``: solutions, the default, not named)."""

    one: str
    many: str
    json: str | None = None

    def of(self, n: float) -> str:
        """``n`` with its word: "1 solution", "92 solutions"."""
        return f"{n} {self.one if n == 1 else self.many}"

    @property
    def fields(self) -> dict[str, Any]:
        """The JSON field naming the unit, if not the default."""
        return {} if self.json is None else {"unit": self.json}


SOLUTIONS = Unit("solution", "solutions")
NODES = Unit("node", "nodes")


def print_count(
    args: argparse.Namespace, out: TextIO, found: int, tag: Tag, unit: Unit = SOLUTIONS
) -> None:
    if args.format == "json":
        out.write(json_text(**tag.fields, count=found, **unit.fields))
    else:
        out.write(f"{tag.text.removesuffix(', ')}: {found}\n" if tag.text else f"{found}\n")


def written_as_it_goes(args: argparse.Namespace) -> bool:
    """Whether ``-o FILE`` is written as the run goes (a listing with ``--checkpoint`` or
    ``--resume``): a stopped run leaves what it wrote, the run file records its length,
    and ``--resume`` cuts the file back to that length and goes on, so the file ends
    as one run's output even after a ``kill -9``."""
    output = getattr(args, "output", None)
    return (
        output not in (None, "-")
        and not getattr(args, "count", False)
        and bool(getattr(args, "checkpoint", None) or getattr(args, "resume", None))
    )


def cut_output(path: str, out: TextIO, written: int) -> None:
    """Cut ``-o FILE``, written as the run goes, back to the ``written`` bytes the run
    file says were written (0 for a new run): what a run killed before its next
    checkpoint wrote after that is written again, not twice."""
    out.flush()
    size = os.fstat(out.fileno()).st_size
    if size < written:
        raise CliError(
            f"{path} has {size} bytes, and the run file says {written} were written: "
            "resume into the file the stopped run wrote"
        )
    os.ftruncate(out.fileno(), written)


class Output:
    """Where the results go: standard output, or (``-o FILE``) a temporary file beside
    FILE that replaces it only when the run succeeds, so that an error or Ctrl-C leaves
    no empty or partial file, and an existing one as it was."""

    def __init__(self, path: str | None, as_it_goes: bool = False) -> None:
        self.path = path
        self.temp: str | None = None
        self.handle: TextIO = sys.stdout
        self.created = False
        if path is None or path == "-":
            return
        import tempfile

        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise CliError(f"cannot write {path}: it is a folder")
        if as_it_goes:
            # A listing with a run file: FILE is the output so far, cut back to what the
            # run file says was written when resumed (see cut_output).
            self.created = not os.path.exists(path)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
            except OSError as exc:
                raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
            self.handle = open(fd, "a", encoding="utf-8")  # noqa: SIM115 - closed in finish()
            return
        from ..longrun import remove_stale_temporaries

        # The name carries the writer's process id: those of writers killed before they
        # could clean up (kill -9), of any file of the folder, are removed here, so that
        # they never pile up.
        prefix = f".{os.path.basename(path)}.lazysearch-"
        remove_stale_temporaries(folder, ".*.lazysearch-", ".part")
        try:
            fd, self.temp = tempfile.mkstemp(
                prefix=f"{prefix}{os.getpid()}.", suffix=".part", dir=folder
            )
        except OSError as exc:
            raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.handle = open(fd, "w", encoding="utf-8")  # noqa: SIM115 - closed in finish()

    def finish(self, keep: bool) -> None:
        """Put the file in place (``keep``), or remove every trace of it."""
        if self.temp is None and self.handle is not sys.stdout:  # written as it goes
            self.handle.close()
            if not keep and self.created and self.path and os.path.getsize(self.path) == 0:
                _remove(self.path)  # a run that failed before writing anything
            return
        if self.temp is None or self.path is None:
            return

        temp, self.temp = self.temp, None
        try:
            if keep:
                self.handle.flush()
                os.fsync(self.handle.fileno())
            self.handle.close()
            if keep:
                os.chmod(temp, _mode(self.path))
                os.replace(temp, self.path)
                return
        except BaseException:
            _remove(temp)
            raise
        _remove(temp)


def _mode(path: str) -> int:
    """The permissions FILE keeps when replaced: its own, or a new file's."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
