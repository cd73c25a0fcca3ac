"""Executors: where batches of matches run. Local processes by default, Ray on demand.

An executor takes an iterator of batches (lists of match indices) and yields each batch's
played matches as it finishes, in whatever order the workers finish them. Results never
depend on that order: records carry their index, and everything computed from them is
computed in index order. Only a bounded number of batches is in flight at once, so memory
stays flat however long the schedule is; closing the iterator early (the gate does)
cancels the rest. Given a ``tick``, an executor also yields an empty list whenever that
many seconds pass with nothing finished, so that its caller can commit what it holds.

The Ray executor is in ``racedeck.tournament.ray_executor``.
"""

from __future__ import annotations

import abc
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from racedeck.core import proctree
from racedeck.tournament.record import PlayedMatch
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.worker import died_record, run_batch

Batch = list[int]

DEFAULT_MAX_BATCH = 64
"""The most matches one task of a local process pool plays."""


def default_workers() -> int:
    """Return the number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class Executor(abc.ABC):
    """Runs batches of a tournament's matches on some workers."""

    workers: int
    max_batch: int = DEFAULT_MAX_BATCH
    """The most matches one task should play."""

    @abc.abstractmethod
    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield the played matches of each batch as it finishes (``[]`` after an idle tick)."""

    def close(self) -> None:  # noqa: B027 - most executors have nothing to release
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InlineExecutor(Executor):
    """Runs every batch in this process, one after another: the one-worker executor."""

    workers = 1

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield each match as soon as it is played here: nothing is in flight."""
        for batch in batches:
            for index in batch:
                yield run_batch(spec, [index])


class LocalExecutor(Executor):
    """Runs batches on a pool of worker processes on this machine.

    Workers are started with ``spawn``, so each loads its plugins afresh, exactly as a
    remote Ray worker does, and nothing of the parent's state leaks into a match.

    A bot that takes its worker process down (``os._exit``, a crash in an extension)
    breaks the pool and every batch in flight with it. The pool is then restarted and the
    matches of those batches are played again one at a time, each bot in a process of its
    own, so that the bot that kills its process is found and its seat faulted.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_interrupts,
        )

    def _restart(self) -> None:
        # A broken pool: its manager thread stops what is left of it.
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._start()

    def _stop(self, grace: float) -> None:
        """Stop the pool: wait ``grace`` seconds for each worker to exit, then kill it.

        A worker may never exit on its own (a bot left a thread running in it), so the
        pool is not joined blindly; nor is one left behind when the run is interrupted.
        """
        # The pool keeps its processes in a private mapping; it is read to reap them all.
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(5)
        self._pool.shutdown(wait=True)  # its manager thread, once every worker is gone

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield the played matches of each batch as a worker finishes it."""
        source = iter(batches)
        pending: dict[Future[list[PlayedMatch]], Batch] = {}
        suspects: deque[int] = deque()
        try:
            while True:
                if suspects:
                    yield self._isolated(spec, suspects.popleft())
                    continue
                while len(pending) < 2 * self.workers:
                    batch = next(source, [])
                    if not batch:
                        break
                    pending[self._pool.submit(run_batch, spec, batch)] = batch
                if not pending:
                    return
                done, _ = wait(pending, timeout=tick, return_when=FIRST_COMPLETED)
                if not done:
                    yield []
                    continue
                broken = False
                for future in done:
                    batch = pending.pop(future)
                    if isinstance(future.exception(), BrokenProcessPool):
                        broken = True
                        suspects.extend(batch)
                    else:
                        yield future.result()
                if broken:
                    for batch in pending.values():
                        suspects.extend(batch)
                    pending.clear()
                    suspects = deque(sorted(suspects))
                    self._restart()
        finally:
            for future in pending:
                future.cancel()

    def _isolated(self, spec: TournamentSpec, index: int) -> list[PlayedMatch]:
        """Play one match alone, every bot in a process of its own.

        A bot that takes its process down then costs its own seat (``run_batch``'s
        ``isolate``); only if the worker still dies is the match the engine's error.
        """
        try:
            return self._pool.submit(run_batch, spec, [index], True).result()
        except BrokenProcessPool:
            self._restart()
            return [PlayedMatch(died_record(spec, index))]

    def close(self) -> None:
        """Stop the worker processes (idle by now: the run is over)."""
        self._stop(grace=WORKER_EXIT_GRACE)


WORKER_EXIT_GRACE = 5.0
"""Seconds a finished pool's workers get to exit before they are killed."""


def _ignore_interrupts() -> None:
    """Leave Ctrl-C to the parent, which stops the pool and tells how to resume.

    A worker also dies with the process that started it, so a driver killed outright
    (``kill -9``) leaves no worker behind.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    proctree.die_with_parent()
    if os.getppid() == 1:  # the driver was gone before the line above took effect
        os._exit(1)
