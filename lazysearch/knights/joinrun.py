"""A count of closed tours by the join (:func:`lazysearch.knights.join.join_count`)
that can stop and go on: its checkpoint is the list of the transfer's parts counted so
far, each with its count.

The join cuts its transfer into parts by the crossing degrees of the first three right
squares; parts never share a state, so each part's count is exact on its own and the
count of the board is their sum.  A stopped count keeps the parts it finished in a
file, and a resumed one counts only the others (with any number of processes).  The
halves' tables are swept again on resume: they are the cheap part (8x8: about two of
its 27 minutes).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "join.json")
>>> def stop_after_two(where):
...     if where.startswith("part 2 "):
...         raise Stopped
>>> class Stopped(Exception):
...     pass
>>> try:
...     count_joined(5, 8, checkpoint=path, tick=stop_after_two)
... except Stopped:
...     pass
>>> count_joined(5, 8, checkpoint=path, resume=path).count
44202
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import CheckpointError, other_problem
from ..longrun import check_overwritable, digest, read_record, save
from . import join

#: The ``format`` and ``version`` of a join's checkpoint file.
JOIN_FORMAT = "lazysearch-knights-join"
JOIN_VERSION = 1

Parts = dict[tuple[int, ...], tuple[int, int, int]]


def count_joined(
    rows: int,
    cols: int,
    *,
    workers: int = 1,
    checkpoint: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    tick: Any = None,
    max_states: int | None = None,
) -> Any:
    """The join's count of the closed tours of ``rows x cols``
    (:class:`~lazysearch.knights.join.JoinCount`), its parts recorded in
    ``checkpoint`` as each is counted (atomically; the file is written at the start
    too), and the parts recorded in ``resume`` added without being counted again.
    ``tick`` is passed on (an exception it raises stops the count, the parts counted so
    far kept in the file).  Statistics of a resumed count (states per square, seconds)
    are those of the parts it counted.

    Raises
    ------
    CheckpointError
        When ``resume`` is not a join checkpoint of this board (torn, altered, another
        board or another kind of file), or ``checkpoint`` names a file that is not one.
    """
    k, n = sorted((rows, cols))
    done: Parts = {}
    if resume is not None:
        done = read_parts(os.fspath(resume), k, n)
    if checkpoint is not None:
        check_writable(os.fspath(checkpoint))
        save(checkpoint, record(k, n, done))

    def on_part(prefix: tuple[int, ...], summary: tuple[int, int, int]) -> None:
        done[prefix] = summary
        if checkpoint is not None:
            save(checkpoint, record(k, n, done))

    return join.join_count(
        rows, cols, max_states, workers=workers, tick=tick, done=dict(done), on_part=on_part
    )


def record(k: int, n: int, done: Parts) -> dict[str, Any]:
    """The checkpoint of a join of ``k x n`` with the parts ``done``: ``parts`` is a list
    of ``[prefix, count, peak, pairs]``, the count a decimal string (it may pass 64 bits
    on a long board); ``sha256``, the digest of the rest, is added as it is saved
    (:func:`lazysearch.longrun.save`)."""
    parts = [[list(p), str(c), peak, pairs] for p, (c, peak, pairs) in sorted(done.items())]
    return {
        "format": JOIN_FORMAT,
        "version": JOIN_VERSION,
        "board": [k, n],
        "parts": parts,
    }


def read_parts(path: str, k: int, n: int) -> Parts:
    """The parts a join checkpoint of ``k x n`` in ``path`` records."""
    what = "a join checkpoint (lazysearch knights --count --method join)"
    saved = read_record(
        path, JOIN_FORMAT, JOIN_VERSION, what, max_chars=2**24, legacy=_legacy_digest
    )
    board, parts = saved.get("board"), saved.get("parts")
    if board != [k, n]:
        raise other_problem(f"{path}: a join checkpoint of {board!r}, not of {k}x{n}")
    done: Parts = {}
    try:
        for prefix, count, peak, pairs in parts:  # type: ignore[union-attr]
            if not all(isinstance(d, int) and 0 <= d <= 2 for d in prefix):
                raise ValueError(prefix)
            done[tuple(prefix)] = (int(count), int(peak), int(pairs))
    except (TypeError, ValueError):
        raise CheckpointError(f"{path}: {what} with a malformed part") from None
    return done


def _legacy_digest(record: dict[str, Any]) -> str:
    """The digest of a checkpoint written before the digest covered every field."""
    return digest([record["board"], record["parts"]])


def check_writable(path: str) -> None:
    """Refuse to overwrite a file that is not a join checkpoint."""
    check_overwritable(path, JOIN_FORMAT, "a join checkpoint")
