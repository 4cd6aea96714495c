"""What a parallel run watches in its executor: a worker process lost (killed from
outside), and a Dask cluster that has lost its scheduler or every worker.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from typing import Any

from .errors import LazysearchError

#: Seconds between looks at ``stop()`` while a listing waits for a worker's piece.
LOOK_EVERY_STOP = 0.05
#: Seconds between looks at a cluster's workers while a count waits on it.
LOOK_EVERY = 1.0
#: Seconds a Dask cluster may have no worker at all (all killed, none restarted) before
#: a count on it fails, rather than wait for ever: a nanny restarts a killed worker in a
#: few seconds, and a cluster being scaled up may start empty.
NO_WORKERS_GRACE = 30.0


def cancelled(exc: BaseException) -> bool:
    from concurrent.futures import CancelledError

    return isinstance(exc, CancelledError) or "Cancelled" in type(exc).__name__


class Liveness:
    """Whether the cluster behind an executor still has workers (for a Dask
    ``Client.get_executor()``, whose client it asks; other executors are trusted: a
    process pool breaks, and says so, when its processes die)."""

    def __init__(self, executor: Executor) -> None:
        self.client: Any = getattr(executor, "_client", None)
        self.since: float | None = None  # when the cluster was first seen without workers
        self.address = getattr(getattr(self.client, "scheduler", None), "address", None)

    def gone(self) -> bool:
        """Whether the client has lost its scheduler: Dask then cancels every task it
        held, but a piece whose result was being fetched as the scheduler died is never
        settled (Dask's cascade to the executor's future fails), and the client tries
        to reconnect for as long as its timeout; so this is asked while waiting."""
        return self.client is not None and getattr(self.client, "status", "running") not in (
            "running",
            "newly-created",
        )

    def check(
        self,
        pending: int,
        total: int,
        waiting: str = "batches of subtrees not counted; the subtrees that finished are",
    ) -> None:
        """Raise :class:`LazysearchError` when the cluster has had no worker for
        :data:`NO_WORKERS_GRACE` seconds while ``pending`` of ``total`` batches wait
        (``waiting`` says what they are, and what the run file keeps)."""
        if self.client is None:
            return
        if self.gone():
            return  # the scheduler lost: said by gone()
        try:
            # Not longer than a look: a scheduler just killed is reconnected to for as
            # long as the client's timeout (60 s in a test), while its futures are
            # cancelled at once, which the caller would not see meanwhile.
            workers = len(self.client.nthreads(callback_timeout=LOOK_EVERY))
        except Exception:  # the scheduler unreachable: its futures say so when cancelled
            return
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        elif now - self.since >= NO_WORKERS_GRACE:
            where = f" at {self.address}" if self.address else ""
            raise LazysearchError(
                f"the Dask cluster{where} has had no worker for {NO_WORKERS_GRACE:g} s "
                f"(all killed or gone), with {pending} of {total} {waiting} kept in the "
                "run file, if "
                "there is one (--resume on a cluster with workers)"
            )


class WorkerLostWarning(RuntimeWarning):
    """A process counting or listing subtrees died (killed from outside); its unfinished
    subtrees were searched again by another, so the result is still exact."""


def worker_lost(what: str) -> None:
    import warnings

    warnings.warn(what, WorkerLostWarning, stacklevel=3)
