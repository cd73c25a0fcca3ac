"""Executors: where batches of matches run. Local processes by default, Ray on demand.

An executor takes an iterator of batches (lists of match indices) and yields played
matches as they finish, in whatever order the workers finish them: a local pool's workers
send each match back the moment it ends, so a batch only saves shipping, it never holds
a finished match back. Results never
depend on that order: records carry their index, and everything computed from them is
computed in index order. Only a bounded number of batches is in flight at once, so memory
stays flat however long the schedule is; closing the iterator early (the gate does)
cancels the rest. Given a ``tick``, an executor also yields an empty list whenever that
many seconds pass with nothing finished, so that its caller can commit what it holds.
``stop`` (on Ctrl-C) ends the workers at once and returns the matches that had finished
but were not handed back yet.

The Ray executor is in ``racedeck.tournament.ray_executor``.
"""

from __future__ import annotations

import abc
import contextlib
import multiprocessing
import multiprocessing.util
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from racedeck.core import diagnostics, interrupts, proctree
from racedeck.tournament.record import PlayedMatch
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.worker import attach_stream, died_record, run_batch, stream_batch

_log = diagnostics.get_logger(component="executor")

Batch = list[int]

DEFAULT_MAX_BATCH = 64
"""The most matches one task of a local process pool plays."""


def default_workers() -> int:
    """Return the number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def submitted(pool: ProcessPoolExecutor, fn: Any, *args: Any) -> Future[Any]:
    """Submit ``fn(*args)`` to ``pool``; a pool that broke meanwhile gives a broken future.

    When a worker dies, the pool's manager thread closes the pipe it is woken through; a
    submission racing with that fails with ``OSError: handle is closed`` instead of
    ``BrokenProcessPool`` (CPython before 3.12). Both mean the same here: the pool is
    broken, and the batch is played again like every other batch the pool lost.

    The pool starts its workers as work is submitted, each a new interpreter that takes a
    moment to load the engine before it can ignore Ctrl-C; Ctrl-C in that moment would
    kill it, printing a traceback. So it is blocked while submitting: a worker keeps
    the blocked signal through ``exec``, until it ignores it (``_ignore_interrupts``).
    Here a Ctrl-C that comes meanwhile is raised as soon as the submission is done.
    """
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return pool.submit(fn, *args)
    except (BrokenProcessPool, OSError) as error:
        broken: Future[Any] = Future()
        broken.set_exception(BrokenProcessPool(f"the worker pool broke: {error}"))
        return broken
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def shut(pool: ProcessPoolExecutor, wait: bool) -> None:
    """Shut ``pool`` down; a broken pool whose wake-up pipe is already closed is shut too."""
    try:
        pool.shutdown(wait=wait, cancel_futures=True)
    except OSError:  # the same race as in ``submitted``: nothing is left to wake
        # The pool is marked shut before the wake-up; only the join is left to do. Its
        # manager thread is private, as the processes ``stop`` reads are.
        manager = getattr(pool, "_executor_manager_thread", None)
        if wait and manager is not None:
            manager.join()


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

    def stop(self) -> list[PlayedMatch]:
        """End the workers now (Ctrl-C); return matches finished but not yet handed back."""
        self.close()
        return []

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        # After Ctrl-C nothing waits for the matches still being played.
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            self.stop()
        else:
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
        self._context = multiprocessing.get_context("spawn")
        self._start()
        self._stopped = False

    def _start(self) -> None:
        """Make a new pool and the stream its workers send matches into."""
        self._stream = MatchStream(self._context)
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self._context,
            initializer=_start_worker,
            initargs=(*self._stream.worker_end(), diagnostics.settings()),
        )
        _log.debug("worker pool started", workers=self.workers)
        self._full = False
        """Whether the pool has started all its workers (``_submit``)."""

    def _submit(self, fn: Any, *args: Any) -> Future[Any]:
        """Submit ``fn(*args)``; the pool's first submission starts all its workers at once.

        A pool otherwise starts a worker whenever work is submitted and none is idle, and
        a start racing with a worker's death (a bot that kills its process) breaks
        CPython's clean-up of the broken pool: its manager thread dies iterating the
        workers as one is added, the new worker dies unpickling a queue the clean-up
        closed, and each prints a traceback. A pool with all its workers starts no other
        (none is set to retire). Called with Ctrl-C held, as every submission is.
        """
        if not self._full:
            for _ in range(self.workers):
                submitted(self._pool, _ready)
            self._full = True
        return submitted(self._pool, fn, *args)

    def _restart(self) -> None:
        _log.debug("worker pool restarting", workers=self.workers)
        shut(self._pool, wait=False)
        # A worker ended by the broken pool may have left half a message: start afresh.
        self._stream.close()
        self._start()

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield played matches as workers finish them, each one the moment it ends."""
        source = iter(batches)
        pending: dict[Future[int], Batch] = {}
        received: set[int] = set()
        """Indices of batches in flight that have already been handed back."""
        suspects: deque[int] = deque()
        wait = tick if tick is not None else IDLE_POLL
        try:
            while True:
                if suspects:
                    yield self._isolated(spec, suspects.popleft())
                    continue
                # Ctrl-C is let in while the driver waits, not in the pool's bookkeeping:
                # landing just after a lock there was taken, it would leave the lock held,
                # for the pool's manager thread to wait on forever, or for the driver to
                # deadlock on as it stops the pool.
                with interrupts.held():
                    while len(pending) < 2 * self.workers:
                        batch = next(source, [])
                        if not batch:
                            break
                        pending[self._submit(stream_batch, spec, batch)] = batch
                if not pending:
                    return
                self._stream.wait(wait)
                with interrupts.held():
                    # Futures first: a batch that is done has sent every match before
                    # returning.
                    done = [future for future in pending if future.done()]
                    broken = any(isinstance(f.exception(), BrokenProcessPool) for f in done)
                if not broken:
                    played = self._stream.drain()
                    received.update(match.record.index for match in played)
                    if played or (tick is not None and not done):
                        yield played
                with interrupts.held():
                    self._settle(done, pending, received, broken, suspects)
        finally:
            with interrupts.held():
                for future in pending:
                    future.cancel()

    def _settle(
        self,
        done: list[Future[int]],
        pending: dict[Future[int], Batch],
        received: set[int],
        broken: bool,
        suspects: deque[int],
    ) -> None:
        """Retire the batches that are done; after a broken pool, queue what it lost."""
        lost: list[int] = []
        for future in done:
            batch = pending.pop(future)
            if broken:
                # Its matches may still sit in the broken pool's pipe.
                lost.extend(batch)
            else:
                future.result()  # a worker's own error (a version mismatch) stops the run
                received.difference_update(batch)
        if broken:
            # What the broken pool's batches had not handed back is played again, one
            # match at a time, to find the match that takes its worker down.
            for batch in pending.values():
                lost.extend(batch)
            suspects.extend(sorted(set(lost) - received))
            _log.warning(
                "worker pool broke; restarting it",
                matches_to_isolate=len(suspects),
                first=suspects[0] if suspects else None,
            )
            pending.clear()
            received.clear()
            self._restart()

    def _isolated(self, spec: TournamentSpec, index: int) -> list[PlayedMatch]:
        """Play one match alone, every bot in a process of its own.

        A bot that takes its process down then costs its own seat (``run_batch``'s
        ``isolate``); only if the worker still dies is the match the engine's error.
        """
        try:
            with interrupts.held():
                running = self._submit(run_batch, spec, [index], True)
            while True:
                # Waited for in short spells with Ctrl-C held, for the reason in ``run``;
                # one that came during a spell is raised at its end.
                with interrupts.held(), contextlib.suppress(TimeoutError):
                    played: list[PlayedMatch] = running.result(IDLE_POLL)
                    return played
        except BrokenProcessPool:
            self._restart()
            _log.error("match takes its worker down, even isolated", match=index)
            return [PlayedMatch(died_record(spec, index))]

    def stop(self) -> list[PlayedMatch]:
        """Take what finished from the stream, then end the worker processes at once."""
        if self._stopped:
            return []
        played = self._stream.drain()
        # The processes are the pool's; ending them is the only way not to wait for the
        # matches they are in the middle of (``terminate_workers`` only came in 3.14).
        workers = list((getattr(self._pool, "_processes", None) or {}).values())
        shut(self._pool, wait=False)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(timeout=2)
        # With its workers gone the pool's manager thread ends at once; joining it lets
        # the command exit normally, so that the pool's semaphores are released rather
        # than reported as leaked by multiprocessing's resource tracker.
        shut(self._pool, wait=True)
        self._stopped = True
        self._stream.close()
        return played

    def close(self) -> None:
        """Stop the worker processes (idle by now: the run is over).

        A worker may never exit on its own (a bot left a thread running in it): each gets
        ``WORKER_EXIT_GRACE`` seconds, then it is killed.
        """
        if self._stopped:
            return
        # The pool keeps its processes in a private mapping; it is read to reap them all.
        workers = list((getattr(self._pool, "_processes", None) or {}).values())
        shut(self._pool, wait=False)
        deadline = time.monotonic() + WORKER_EXIT_GRACE
        for process in workers:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(5)
        shut(self._pool, wait=True)  # its manager thread, once every worker is gone
        self._stopped = True
        self._stream.close()


WORKER_EXIT_GRACE = 5.0
"""Seconds a finished pool's workers get to exit before they are killed."""


IDLE_POLL = 0.05
"""Without a tick, how long the driver waits for a match before looking at its batches."""


class MatchStream:
    """A pipe a pool's workers send finished matches into, one message a match."""

    def __init__(self, context: Any) -> None:
        self._reader, self._writer = context.Pipe(duplex=False)
        self._lock = context.Lock()
        self._received: list[PlayedMatch] = []
        """Matches read off the pipe and not returned yet (a drain cut short by Ctrl-C)."""

    def worker_end(self) -> tuple[Any, Any]:
        """Return what a worker needs to send: the writing end and the lock."""
        return self._writer, self._lock

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a match; True when one is there."""
        return bool(self._reader.poll(timeout))

    def drain(self) -> list[PlayedMatch]:
        """Return every match waiting in the pipe.

        Ctrl-C waits until the pipe is read to the end of a message, or the next read
        (``stop``'s) would start in the middle of one; the matches read by then stay here
        for that next read, so none is lost.
        """
        with interrupts.held():
            while self._reader.poll(0):
                self._received.append(self._reader.recv())
        played, self._received = self._received, []
        return played

    def close(self) -> None:
        """Close both ends in this process."""
        self._reader.close()
        self._writer.close()


def _ready() -> None:
    """Do nothing: submitted once a worker, so that a new pool starts them all at once."""


def _start_worker(writer: Any, lock: Any, settings: tuple[int, bool]) -> None:
    """Set up a worker process: matches go into the stream, Ctrl-C is the parent's.

    The worker writes diagnostics as the driver does (``settings``), and says when it
    starts and, at a clean exit, when it ends.
    """
    _ignore_interrupts()
    attach_stream(writer, lock)
    diagnostics.configure(*settings)
    log = diagnostics.get_logger(component="worker", pid=os.getpid())
    log.debug("worker started")
    multiprocessing.util.Finalize(None, log.debug, args=("worker ended",), exitpriority=10)


def _ignore_interrupts() -> None:
    """Leave Ctrl-C to the parent, which stops the pool and tells how to resume.

    A worker also dies with the process that started it, so a driver killed outright
    (``kill -9``) leaves no worker behind.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Blocked from the start (``submitted``); once ignored, a Ctrl-C still pending is
    # dropped, and the worker's own children start with the signal ignored, not blocked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, _end_with_descendants)
    proctree.die_with_parent()
    if os.getppid() == 1:  # the driver was gone before the line above took effect
        os._exit(1)


def _end_with_descendants(signum: int, frame: object) -> None:
    """End the worker when the driver stops the pool (``stop``), and all its matches began.

    The worker is ended in the middle of a match: a bot's program is killed with the
    worker (it dies with its parent), but not what the program started. Everything
    descended from the worker is killed first, deepest first, then the worker.
    """
    proctree.kill_descendants(os.getpid())
    os._exit(128 + signum)
