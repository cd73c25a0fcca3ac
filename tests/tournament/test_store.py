"""The SQLite store: one row a match, gaps found for resume, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.tournament.record import OK, MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store, StoreError

SPEC = TournamentSpec(game="lacorsa", bots=("a", "b"), players=2, matches=10, seed=3)


def record(index: int) -> MatchRecord:
    return MatchRecord(
        index=index,
        seed=2**64 - 1 - index,
        deal=index,
        seats=("a", "b"),
        status=OK,
        ranks=(1, 2),
        scores=(9, 3),
        unit="points",
        events=40,
        faults=("seat 1 (b): x",),
    )


def test_records_round_trip_in_index_order_with_64_bit_seeds(tmp_path: Path) -> None:
    with Store.create(tmp_path / "t.sqlite", SPEC) as store:
        for i in (4, 0, 2):
            store.add(record(i))
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
