"""Running a tournament: stream the missing matches through an executor into the store.

Finished matches are committed in batches: one transaction for everything that came back
in the last ``COMMIT_INTERVAL`` seconds (or ``COMMIT_ROWS`` matches, whichever is first),
so the store keeps up with a cluster while no finished match waits long for its row. The
executor ticks while nothing comes back, so a match is never held past the interval by
a slow batch elsewhere. A kept log is written (and synced) before the row that names it
is committed, and the ``on_record`` callback (``--json`` prints a line) runs after the
commit: a match that was reported is a match that is saved.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path

from racedeck.core import diagnostics, interrupts
from racedeck.tournament.executors import DEFAULT_MAX_BATCH, Batch, Executor
from racedeck.tournament.logs import LogKeeper
from racedeck.tournament.record import ERROR, FORFEIT, MatchRecord, PlayedMatch
from racedeck.tournament.store import Store

_log = diagnostics.get_logger(component="driver")

MIN_BATCH = 4
"""The fewest matches one task plays (except the very last): keeps shipping cheap."""

COMMIT_INTERVAL = 0.1
"""The longest a finished match waits, in seconds, for the transaction that records it."""

COMMIT_ROWS = 2048
"""The most rows one transaction writes."""


def batches(
    ranges: list[tuple[int, int]], workers: int, max_batch: int = DEFAULT_MAX_BATCH
) -> Iterator[Batch]:
    """Cut the ranges of indices into batches, lazily, shrinking as the end nears.

    Each batch takes about a quarter of a worker's share of what is left (guided
    self-scheduling), so tasks are large while there is plenty to do and small at the
    end, where one long last task would leave the other workers idle. ``max_batch``
    caps a task: what a kill costs is the batches in flight.
    """
    remaining = sum(stop - start for start, stop in ranges)
    for start, stop in ranges:
        first = start
        while first < stop:
            size = max(MIN_BATCH, min(max_batch, remaining // (4 * workers)))
            last = min(first + size, stop)
            yield list(range(first, last))
            remaining -= last - first
            first = last


class Recorder:
    """Holds finished matches until their batch is committed; writes their kept logs."""

    def __init__(
        self,
        store: Store,
        on_record: Callable[[MatchRecord], None] | None = None,
        interval: float = COMMIT_INTERVAL,
        rows: int = COMMIT_ROWS,
    ) -> None:
        self.store = store
        self.recorded = 0
        """Matches committed so far."""
        self._on_record = on_record
        self._interval = interval
        self._rows = rows
        self._logs = LogKeeper(store.spec)
        self._pending: list[tuple[MatchRecord, Future[Path] | None]] = []
        self._oldest = 0.0

    def add(self, played: list[PlayedMatch]) -> None:
        """Take the matches of a finished batch (none after an idle tick); commit if due."""
        now = time.monotonic()
        if played:
            # Held whole: Ctrl-C would otherwise cut the batch in two, or land just after
            # the log writers' pool took a lock, which ``close`` would then wait on forever.
            with interrupts.held():
                if not self._pending:
                    self._oldest = now
                self._pending.extend(self._logs.keep(match) for match in played)
        if self._pending and (
            len(self._pending) >= self._rows or now - self._oldest >= self._interval
        ):
            self.commit()

    def commit(self) -> None:
        """Write the held matches in one transaction, once their logs are on disk.

        Ctrl-C waits until the transaction is over. Between the commit and the line after
        it, it would leave committed matches held, for ``close`` to write them twice;
        waiting for a log, just after taking its future's lock, it would leave the lock
        held, and the log's writer, then ``close``, waiting on it forever.
        """
        if not self._pending:
            return
        with interrupts.held():
            for _record, written in self._pending:
                if written is not None:
                    written.result()
            records = [record for record, _written in self._pending]
            self.store.add_many(records)
            self._pending = []
            self.recorded += len(records)
        _log.debug("committed", matches=len(records), recorded=self.recorded)
        for record in records:
            _log_faults(record)
        if self._on_record is not None:
            for record in records:
                self._on_record(record)

    def close(self) -> None:
        """Commit what is held and finish writing logs."""
        try:
            self.commit()
        finally:
            self._logs.close()


def _log_faults(record: MatchRecord) -> None:
    """Write a diagnostic for a match that failed to play, or in which a bot faulted."""
    if record.status == ERROR:
        _log.warning("match not played", match=record.index, reason=record.reason)
    elif record.status == FORFEIT:
        bot = record.seats[record.fault_seat]
        _log.info(
            "seat forfeited",
            match=record.index,
            seat=record.fault_seat,
            bot=bot,
            reason=record.reason,
        )
    elif record.faults:
        _log.info("bot faulted", match=record.index, faults=list(record.faults))


def play(
    store: Store,
    executor: Executor,
    on_record: Callable[[MatchRecord], None] | None = None,
) -> int:
    """Play every match of the store's tournament that has no record yet; return how many.

    Whatever stops the run (Ctrl-C included), the matches finished by then are committed:
    on Ctrl-C the workers are ended at once and what they had finished but not yet handed
    back is recorded too. After a ``kill -9`` the uncommitted ones (a tenth of a second's
    worth) are simply missing, and ``resume`` plays them again.
    """
    ranges = list(store.missing())
    spec = store.spec
    _log.info(
        "tournament playing",
        db=str(store.path),
        game=spec.game,
        format=spec.format,
        missing=sum(stop - start for start, stop in ranges),
        of=spec.matches,
        workers=executor.workers,
        executor=type(executor).__name__,
    )
    recorder = Recorder(store, on_record)
    work = batches(ranges, executor.workers, executor.max_batch)
    results = executor.run(store.spec, work, tick=COMMIT_INTERVAL / 2)
    try:
        for played in results:
            recorder.add(played)
    except KeyboardInterrupt:
        close = getattr(results, "close", None)
        if close is not None:
            close()
        recorder.add(executor.stop())
        raise
    finally:
        recorder.close()
        _log.info("tournament stopped", recorded=recorder.recorded)
    return recorder.recorded
