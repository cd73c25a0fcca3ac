"""How finished matches reach the database: batched commits, logs sent home, versions checked."""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import signal
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec
import pytest

from racedeck.core.errors import EXIT_BAD_INPUT
from racedeck.core.log import LogReader
from racedeck.plugins import load_registry
from racedeck.tournament.executors import Batch, Executor, LocalExecutor, submitted
from racedeck.tournament.plan import plan_tournament, with_log_dir
from racedeck.tournament.record import OK, MatchRecord, PlayedMatch
from racedeck.tournament.run import COMMIT_INTERVAL, play
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store, StoreError
from racedeck.tournament.worker import VersionMismatch, run_batch
from tests.tournament.conftest import rows, run_cli

SPEC = TournamentSpec(game="g", bots=("a", "b"), players=2, matches=6, seed=0)


def played(index: int) -> PlayedMatch:
    scheduled = Schedule(SPEC).match(index)
    record = MatchRecord(
        index=index,
        seed=scheduled.seed,
        deal=scheduled.deal,
        seats=scheduled.seats,
        status=OK,
        ranks=(1, 2),
        scores=(5, 3),
        unit="points",
    )
    return PlayedMatch(record)


def count(db: Path) -> int:
    """The rows another connection sees: what is committed."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0])


class Scripted(Executor):
    """Hands back the first three matches at once, then nothing but ticks for a while."""

    workers = 1

    def __init__(self, db: Path, idle: float) -> None:
        self.db = db
        self.idle = idle
        self.seen: list[tuple[float, int]] = []
        """(seconds since the batch came back, rows committed) at every tick."""

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        assert tick is not None and tick <= COMMIT_INTERVAL
        yield [played(i) for i in range(3)]
        start = time.monotonic()
        while time.monotonic() - start < self.idle:
            time.sleep(tick)
            self.seen.append((time.monotonic() - start, count(self.db)))
            yield []
        yield [played(i) for i in range(3, 6)]


def test_a_finished_match_is_committed_within_the_interval_while_the_rest_still_runs(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.sqlite"
    executor = Scripted(db, idle=1.0)
    with Store.create(db, SPEC) as store:
        assert play(store, executor) == 6
    committed = [at for at, rows_seen in executor.seen if rows_seen == 3]
    assert committed, "the first matches were still uncommitted after a second"
    assert committed[0] < COMMIT_INTERVAL * 3, committed[0]
    assert count(db) == 6


def test_a_match_is_reported_only_once_it_is_committed(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    seen: list[int] = []

    def on_record(record: MatchRecord) -> None:
        with contextlib.closing(sqlite3.connect(db)) as connection:
            query = "SELECT COUNT(*) FROM matches WHERE idx = ?"
            assert connection.execute(query, (record.index,)).fetchone()[0] == 1
        seen.append(record.index)

    with Store.create(db, SPEC) as store:
        play(store, Scripted(db, idle=0.2), on_record)
    assert sorted(seen) == list(range(6))


class Interrupted(Executor):
    """Hands back one batch, then the user presses Ctrl-C."""

    workers = 1

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        yield [played(i) for i in range(4)]
        raise KeyboardInterrupt


def test_ctrl_c_still_commits_every_match_finished_before_it(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with Store.create(db, SPEC) as store, pytest.raises(KeyboardInterrupt):
        play(store, Interrupted())
    assert [row[0] for row in rows(db)] == [0, 1, 2, 3]


def test_ctrl_c_during_the_transaction_records_each_match_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C landing just after the commit, before the write returns, once left the
    # matches held as if rolled back: the last commit wrote them again and failed.
    db = tmp_path / "t.sqlite"
    add_many = Store.add_many

    def interrupted_add_many(store: Store, records: list[MatchRecord]) -> None:
        add_many(store, records)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(Store, "add_many", interrupted_add_many)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with Store.create(db, SPEC) as store, pytest.raises(KeyboardInterrupt):
            play(store, Scripted(db, idle=1.0))  # its first three are committed on a tick
    finally:
        signal.signal(signal.SIGINT, previous)
    assert [row[0] for row in rows(db)] == [0, 1, 2]


def test_a_batch_of_rows_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with Store.create(db, SPEC) as store:
        store.add(played(2).record)
        with pytest.raises(StoreError, match="match 2 is already recorded"):
            store.add_many([played(i).record for i in range(4)])
        assert [r.index for r in store.records()] == [2]


@pytest.fixture
def spec(tmp_path: Path) -> TournamentSpec:
    registry = load_registry(entry_points=False)
    planned = plan_tournament(
        registry,
        "lacorsa",
        ["heuristic", "random"],
        matches=4,
        seed=2,
        options={"races": 1},
        keep_logs="all",
        entry_points=False,
    )
    return with_log_dir(planned, tmp_path / "nowhere" / "t.sqlite")


def test_ctrl_c_while_a_worker_is_still_starting_does_not_kill_it(spec: TournamentSpec) -> None:
    # A worker spends its first moments loading the engine, before it can ignore Ctrl-C;
    # a Ctrl-C pressed then once killed it, printing a traceback, and broke the pool.
    executor = LocalExecutor(1)
    try:
        future = submitted(executor._pool, run_batch, spec, [0])
        workers = list(executor._pool._processes.values())  # type: ignore[union-attr]
        assert workers
        for worker in workers:
            os.kill(worker.pid, signal.SIGINT)  # what a terminal does to every process
        assert [match.record.index for match in future.result(timeout=120)] == [0]
        assert all(worker.is_alive() for worker in workers)
    finally:
        executor.close()


def test_a_worker_writes_nothing_and_sends_each_log_home_compressed(
    spec: TournamentSpec, tmp_path: Path
) -> None:
    matches = run_batch(spec, [0, 1])
    assert not (tmp_path / "nowhere").exists()
    for match in matches:
        assert match.record.log == ""
        with LogReader("sent.jsonl", io.BytesIO(gzip.decompress(match.log))) as reader:
            assert reader.header.seed == match.record.seed
            assert sum(1 for e in reader if e.event is not None) == match.record.events
            assert reader.result is not None


def test_a_worker_refuses_to_play_a_bot_at_another_version_than_recorded(
    spec: TournamentSpec,
) -> None:
    older = msgspec.structs.replace(spec, bot_versions={**spec.bot_versions, "random": "0.9"})
    with pytest.raises(VersionMismatch, match="bot 'random' loads at version 1, the tournament"):
        run_batch(older, [0])


def test_resume_stops_with_one_line_when_a_bot_is_not_the_recorded_version(
    spec: TournamentSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    Store.create(db, msgspec.structs.replace(spec, bot_versions={"heuristic": "7"})).close()
    code, _out, err = run_cli(["tournament", "resume", str(db), "--workers", "1"], capsys)
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1, err
    assert "bot 'heuristic' loads at version 1, the tournament recorded version 7" in err
    assert rows(db) == []
