"""Running a tournament: stream the missing matches through an executor into the store."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from racedeck.tournament.executors import DEFAULT_MAX_BATCH, Batch, Executor
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.store import Store

MIN_BATCH = 4
"""The fewest matches one task plays (except the very last): keeps shipping cheap."""


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


def play(
    store: Store,
    executor: Executor,
    on_record: Callable[[MatchRecord], None] | None = None,
) -> int:
    """Play every match of the store's tournament that has no record yet; return how many.

    Each record is written in its own transaction as its batch comes back, so whatever
    stops the run, every match is either recorded whole or played again by ``resume``.
    """
    ranges = list(store.missing())
    played = 0
    for records in executor.run(store.spec, batches(ranges, executor.workers, executor.max_batch)):
        for record in records:
            store.add(record)
            played += 1
            if on_record is not None:
                on_record(record)
    return played
