"""The SQLite store: one row a match, gaps found for resume, clear errors."""

from __future__ import annotations

import contextlib
import json
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


def _altered(tmp_path: Path, *statements: str) -> Path:
    """A database of two recorded matches, then ``statements`` run on it as a stranger would."""
    path = tmp_path / "t.sqlite"
    with Store.create(path, SPEC) as store:
        store.add_many([record(0), record(1)])
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        for statement in statements:
            db.execute(statement)
    return path


@pytest.mark.parametrize(
    ("statements", "why"),
    [
        (
            # Would rewrite every match this process records, and leave a mark.
            [
                "CREATE TRIGGER rig AFTER INSERT ON matches BEGIN"
                " UPDATE matches SET ranks = '[2,1]' WHERE idx = NEW.idx;"
                " INSERT INTO meta VALUES ('planted', 'yes'); END"
            ],
            "it holds the trigger 'rig', which racedeck does not create",
        ),
        (["CREATE VIEW everything AS SELECT * FROM matches"], "the view 'everything'"),
        (["CREATE TABLE extra (x)"], "the table 'extra'"),
        (["CREATE INDEX by_seed ON matches (seed)"], "the index 'by_seed'"),
        (
            # The same columns without the primary key: a match could be there twice.
            [
                "ALTER TABLE matches RENAME TO old",
                "CREATE TABLE matches AS SELECT * FROM old",
                "DROP TABLE old",
            ],
            "its table matches has another shape",
        ),
        (["DROP TABLE matches"], "it lacks racedeck's tables"),
    ],
)
def test_a_database_holding_what_racedeck_does_not_create_is_refused_before_anything_runs(
    statements: list[str], why: str, tmp_path: Path
) -> None:
    """A stranger's database: a trigger would run on this process's own writes, a view or a
    table of another shape could be endless or hold a match twice. Refused on opening, to
    read or to write, and nothing planted ran."""
    path = _altered(tmp_path, *statements)
    for write in (False, True):
        with pytest.raises(StoreError, match="not a tournament database: ") as raised:
            Store.open(path, write=write)
        assert why in str(raised.value)
    with contextlib.closing(sqlite3.connect(path)) as db:
        if db.execute("SELECT name FROM sqlite_master WHERE name = 'meta'").fetchone():
            assert db.execute("SELECT COUNT(*) FROM meta").fetchone() == (2,)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"players": 0}, "--players must be 1 to 100, got 0"),
        ({"players": 10**8}, "--players must be 1 to 100"),
        # 40 bots at tables of 20: about 1.4e11 tables, each listed by the schedule.
        (
            {"bots": [f"b{i}" for i in range(40)], "players": 20},
            "40 bots at tables of 20 make 137,846,528,820 different tables",
        ),
        ({"fault_policy": "bogus"}, "--fault-policy must be one of forfeit, substitute"),
        ({"sandbox_memory": -5}, "--bot-memory must be positive"),
        ({"matches": -5}, "--matches must be at least 1"),
    ],
)
def test_a_stored_spec_that_makes_no_tournament_is_refused_on_opening(
    change: dict[str, object], why: str, tmp_path: Path
) -> None:
    path = tmp_path / "t.sqlite"
    Store.create(path, SPEC).close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        (raw,) = db.execute("SELECT value FROM meta WHERE key = 'spec'").fetchone()
        spec = {**json.loads(raw), **change}
        db.execute("UPDATE meta SET value = ? WHERE key = 'spec'", (json.dumps(spec),))
    with pytest.raises(StoreError, match="the stored tournament spec is invalid: ") as raised:
        Store.open(path)
    assert why in str(raised.value)


def test_rows_no_match_of_the_tournament_could_leave_are_named(tmp_path: Path) -> None:
    path = _altered(
        tmp_path,
        "UPDATE matches SET status = 'forfeit', fault_seat = -1 WHERE idx = 1",
    )
    with Store.open(path) as store, pytest.raises(StoreError, match="a forfeit that names no seat"):
        list(store.records())
    path.unlink()
    path = _altered(tmp_path)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        row = db.execute("SELECT * FROM matches WHERE idx = 0").fetchone()
        db.execute(f"INSERT INTO matches VALUES ({', '.join('?' * 13)})", (10, *row[1:]))
    with Store.open(path) as store, pytest.raises(StoreError) as raised:
        list(store.records())
    assert "match 10: beyond the tournament's 10 matches" in str(raised.value)


def test_a_column_sqlite_cannot_decode_is_a_damaged_match_not_a_crash(tmp_path: Path) -> None:
    path = _altered(tmp_path, "UPDATE matches SET reason = CAST(x'41ff42' AS TEXT) WHERE idx = 1")
    with Store.open(path) as store, pytest.raises(StoreError) as raised:
        list(store.records())
    assert "a match cannot be read" in str(raised.value) and "\n" not in str(raised.value)


def test_reading_changes_no_byte_and_a_read_only_database_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a writer sets the journal mode: a database in another mode is read as it is;
    a read-only file in a read-only folder (a download, a mount) is read too."""
    path = _altered(tmp_path, "PRAGMA journal_mode=DELETE")
    before = path.read_bytes()
    with Store.open(path) as store:
        assert len(list(store.records())) == 2
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.sqlite"]
    for mode in ("DELETE", "WAL"):
        folder = tmp_path / f"ro-{mode}"
        folder.mkdir()
        copy = folder / "t.sqlite"
        copy.write_bytes(before)
        with contextlib.closing(sqlite3.connect(copy)) as db:
            db.execute(f"PRAGMA journal_mode={mode}")
        copy.chmod(0o444)
        folder.chmod(0o555)
        # What the process may write, as a user other than the file's owner sees it (the
        # suite may run as root, whom no mode stops).
        monkeypatch.setattr("racedeck.tournament.store.os.access", lambda *_: False)
        try:
            with Store.open(copy) as store:
                assert len(list(store.records())) == 2
        finally:
            monkeypatch.undo()
            folder.chmod(0o755)


def test_a_spec_field_this_racedeck_does_not_know_is_refused_not_dropped(tmp_path: Path) -> None:
    """A field from a later version (say, one that asks every bot to be sandboxed) would be
    dropped silently and the tournament played without it: it is refused instead."""
    path = tmp_path / "t.sqlite"
    Store.create(path, SPEC).close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        (raw,) = db.execute("SELECT value FROM meta WHERE key = 'spec'").fetchone()
        spec = {**json.loads(raw), "require_sandbox": True}
        db.execute("UPDATE meta SET value = ? WHERE key = 'spec'", (json.dumps(spec),))
    with pytest.raises(StoreError, match="unreadable: Object contains unknown field"):
        Store.open(path)
