"""Running a tournament: stream the missing matches through an executor into the store."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from racedeck.tournament.executors import Batch, Executor
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.store import Store

MAX_BATCH = 64


def batch_size(pending: int, workers: int) -> int:
    """Return a batch size that keeps every worker busy yet ships few, large tasks.

    About eight batches per worker balance the load at the end of a run; batches of at
    most ``MAX_BATCH`` matches keep what a kill can cost (the batches in flight) small.
    """
    return max(1, min(MAX_BATCH, pending // (8 * workers) or 1))


def batches(ranges: list[tuple[int, int]], size: int) -> Iterator[Batch]:
    """Cut the ranges of indices into batches of at most ``size``, lazily."""
    for start, stop in ranges:
        for first in range(start, stop, size):
            yield list(range(first, min(first + size, stop)))


def play(
    store: Store,
    executor: Executor,
    on_record: Callable[[MatchRecord], None] | None = None,
    size: int | None = None,
) -> int:
    """Play every match of the store's tournament that has no record yet; return how many.

    Each record is written in its own transaction as its batch comes back, so whatever
    stops the run, every match is either recorded whole or played again by ``resume``.
    """
    ranges = list(store.missing())
    pending = sum(stop - start for start, stop in ranges)
    if not pending:
        return 0
    played = 0
    chosen = size or batch_size(pending, executor.workers)
    for records in executor.run(store.spec, batches(ranges, chosen)):
        for record in records:
            store.add(record)
            played += 1
            if on_record is not None:
                on_record(record)
    return played
