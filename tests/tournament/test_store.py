"""The SQLite store: one row a match, gaps found for resume, clear errors."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import EXIT_BAD_INPUT
from racedeck.tournament.record import OK, MatchRecord
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store, StoreError

SPEC = TournamentSpec(game="lacorsa", bots=("a", "b"), players=2, matches=10, seed=3)


def record(index: int, ranks: tuple[int, ...] = (1, 2)) -> MatchRecord:
    """The record match ``index`` of ``SPEC`` could leave: its seed, deal and seats."""
    scheduled = Schedule(SPEC).match(index)
    return MatchRecord(
        index=index,
        seed=scheduled.seed,
        deal=scheduled.deal,
        seats=scheduled.seats,
        status=OK,
        ranks=ranks,
        scores=(9, 3),
        unit="points",
        events=40,
        faults=("seat 1 (b): x",),
    )


def test_records_round_trip_in_index_order_with_64_bit_seeds(tmp_path: Path) -> None:
    with Store.create(tmp_path / "t.sqlite", SPEC) as store:
        for i in (4, 0, 2):
            store.add(record(i))
    # Seeds are 64-bit: match 2's does not fit a signed 64-bit integer (SQLite's).
    assert record(2).seed >= 2**63
    with Store.open(tmp_path / "t.sqlite") as store:
        assert store.spec == SPEC
        assert list(store.records()) == [record(0), record(2), record(4)]
        assert store.count() == 3


def test_missing_lists_every_gap_left_by_out_of_order_finishes(tmp_path: Path) -> None:
    with Store.create(tmp_path / "t.sqlite", SPEC) as store:
        assert list(store.missing()) == [(0, 10)]
        for i in (0, 1, 3, 6, 7):
            store.add(record(i))
        assert list(store.missing()) == [(2, 3), (4, 6), (8, 10)]


def test_a_match_is_never_recorded_twice(tmp_path: Path) -> None:
    with Store.create(tmp_path / "t.sqlite", SPEC) as store:
        store.add(record(1))
        with pytest.raises(StoreError, match="match 1 is already recorded"):
            store.add(record(1))


def test_create_refuses_an_existing_file_and_leaves_no_partial(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    Store.create(path, SPEC).close()
    with pytest.raises(StoreError, match="already exists"):
        Store.create(path, SPEC)
    assert not (tmp_path / "t.sqlite.partial").exists()


def test_opening_something_else_is_one_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text " * 20)
    with pytest.raises(StoreError, match="not a tournament database"):
        Store.open(junk)
    with pytest.raises(StoreError, match="no such tournament database"):
        Store.open(tmp_path / "absent.sqlite")


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("ranks", "[]", "2 seats but 0 ranks and 2 scores"),
        ("ranks", "[1, 7]", "ranks [1, 7] are not places 1 to 2"),
        ("ranks", "not json", "unreadable"),
        ("scores", '["x", 1]', "unreadable"),
        ("seats", '["a", "b"]', "its seed, deal or seats are not the schedule's"),
        ("seats", '["<b>a</b>", "b"]', "its seed, deal or seats are not the schedule's"),
        ("seed", "12", "its seed, deal or seats are not the schedule's"),
        ("status", "won", "unknown status 'won'"),
        ("fault_seat", "5", "no seat 5"),
        ("events", "many", "unreadable"),
    ],
)
def test_an_altered_row_is_named_not_trusted(
    column: str, value: str, why: str, tmp_path: Path
) -> None:
    path = tmp_path / "t.sqlite"
    with Store.create(path, SPEC) as store:
        store.add_many([record(0), record(1)])
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(f"UPDATE matches SET {column} = ? WHERE idx = 1", (value,))
    with Store.open(path) as store, pytest.raises(StoreError) as raised:
        list(store.records())
    assert str(raised.value) == (f"{path}: match 1: {why}; the database is damaged or was altered")


def test_an_altered_database_is_one_line_for_every_command_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.sqlite"
    played = ["tournament", "lacorsa", "--bot", "heuristic", "--bot", "random", "-o", "races=1"]
    assert main([*played, "--matches", "4", "--db", str(path)]) == 0
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE matches SET ranks = '[]' WHERE idx = 2")
    capsys.readouterr()
    for command in (
        ["tournament", "report", str(path)],
        ["gate", "--db", str(path), "--candidate", "heuristic", "--baseline", "random"],
    ):
        code = main(command)
        out, err = capsys.readouterr()
        assert code == EXIT_BAD_INPUT and out == "", command
        assert err.splitlines() == [
            f"racedeck: error: {path}: match 2: 2 seats but 0 ranks and 2 scores;"
            " the database is damaged or was altered"
        ], command
