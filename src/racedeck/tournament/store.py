"""The tournament database: SQLite, one row a finished match, written in batches.

The database holds the tournament's spec, so ``resume`` needs nothing else; a match is
either in it whole or not at all, so a tournament killed at any moment (``kill -9``
included) resumes by playing exactly the indices that have no row. It is created under a
temporary name and renamed once its tables and spec are in, so a file under the final
name is always a tournament database.

Rows are written many to a transaction (``add_many``; the run commits at least every
tenth of a second, ``racedeck.tournament.run``). A commit is synced to disk before it
returns (WAL with ``synchronous=FULL``), so a match once committed survives a crash of
the process and of the machine; one fsync a batch instead of one a match is what makes
that affordable.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgspec

from racedeck.core.errors import RacedeckError, UsageError
from racedeck.core.files import FileWriteError, atomic_path
from racedeck.core.shown import shown
from racedeck.tournament.record import ERROR, FORFEIT, STATUSES, MatchRecord
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec, decode_spec, encode_spec

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (
    idx INTEGER PRIMARY KEY,
    seed TEXT NOT NULL,
    deal INTEGER NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    ranks TEXT NOT NULL,
    scores TEXT NOT NULL,
    unit TEXT NOT NULL,
    events INTEGER NOT NULL,
    fault_seat INTEGER NOT NULL,
    reason TEXT NOT NULL,
    faults TEXT NOT NULL,
    log TEXT NOT NULL
);
"""

_COLUMNS = (
    "idx, seed, deal, seats, status, ranks, scores, unit, events, fault_seat, reason, faults, log"
)
_INSERT = f"INSERT INTO matches ({_COLUMNS}) VALUES ({', '.join('?' * 13)})"


_OBJECTS = {
    ("table", "meta"): "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ("index", "sqlite_autoindex_meta_1"): None,
    ("table", "matches"): _SCHEMA[_SCHEMA.index("CREATE TABLE matches") :].strip().rstrip(";"),
}
"""Everything ``_SCHEMA`` creates, as ``sqlite_master`` lists it: type, name and statement."""


def _connect(path: Path, writing: bool) -> sqlite3.Connection:
    """Open ``path``; to read only, without writing to it.

    A reader opens it as a writer would where it may (SQLite then keeps a WAL database's
    files beside it as the writer does, and removes them), but changes nothing: only a
    writer sets the journal mode. Where the file or its folder cannot be written, it is
    opened read only, or as ``immutable`` where a WAL database's readers could not create
    their files beside it.
    """
    if writing or (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return sqlite3.connect(path)
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.OperationalError:
        db.close()
        db = sqlite3.connect(f"{uri}?immutable=1", uri=True)
    return db


def _unopened(path: Path, exc: sqlite3.Error) -> StoreError:
    """Return the error of a database SQLite could not open or read: busy, or not one."""
    if "locked" in str(exc) or "busy" in str(exc):
        return StoreError(
            f"{path}: the database is locked by another process ({exc}); try again once it lets go"
        )
    return StoreError(f"{path}: not a tournament database ({exc})")


def _check_schema(path: Path, db: sqlite3.Connection) -> None:
    """Refuse a database holding anything ``_SCHEMA`` does not create.

    A trigger planted in a stranger's database would run on this process's own writes
    (rewriting the matches a run records), a view in place of a table could be endless,
    and a table without its primary key could hold a match twice: only the very tables
    racedeck creates are read.
    """
    db.execute("PRAGMA trusted_schema=OFF")
    found = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    for kind, name, sql in found:
        expected = _OBJECTS.get((kind, name), "")
        if expected == "" or (
            expected is not None and " ".join(str(sql).split()) != " ".join(expected.split())
        ):
            raise StoreError(
                f"{path}: not a tournament database: it holds the {kind} {shown(str(name))},"
                " which racedeck does not create"
                if (kind, name) not in _OBJECTS
                else f"{path}: not a tournament database: its {kind} {name} has another shape"
            )
    if len(found) != len(_OBJECTS):
        raise StoreError(f"{path}: not a tournament database: it lacks racedeck's tables")


class StoreError(RacedeckError):
    """A tournament database cannot be created, opened or read."""


class TournamentBusy(StoreError):
    """Another racedeck process is playing the tournament of this database."""


def database_exists(path: Path) -> bool:
    """Return True when something is at ``path``; a name the system refuses is a StoreError."""
    try:
        return path.exists()
    except OSError as exc:
        raise StoreError(f"{str(path)[:80]}...: {exc.strerror}") from None


class Store:
    """An open tournament database."""

    def __init__(self, path: Path, connection: sqlite3.Connection, spec: TournamentSpec) -> None:
        self.path = path
        self._db = connection
        self.spec = spec
        self._lock: int | None = None

    # Opening ---------------------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, spec: TournamentSpec, *, lock: bool = False) -> Store:
        """Create a database for ``spec`` at ``path``, which must not exist yet."""
        if str(path) == ":memory:":
            raise StoreError(
                "--db :memory: would keep nothing: a tournament database is a file (leave"
                " --db out for one under logs/)"
            )
        if database_exists(path):
            raise StoreError(f"{path}: already exists")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as partial:
                db = sqlite3.connect(partial)
                try:
                    with db:
                        db.executescript(_SCHEMA)
                        db.executemany(
                            "INSERT INTO meta VALUES (?, ?)",
                            [("schema", str(SCHEMA_VERSION)), ("spec", encode_spec(spec).decode())],
                        )
                finally:
                    db.close()
        except FileWriteError as exc:
            raise StoreError(
                f"{path}: cannot create the tournament database: {exc.cause or exc}"
            ) from None
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{path}: cannot create the tournament database: {exc}") from None
        return cls.open(path, lock=lock, write=True)

    @classmethod
    def open(cls, path: Path, *, lock: bool = False, write: bool | None = None) -> Store:
        """Open the tournament database at ``path``.

        With ``lock``, to play its matches: a second process asking the same of the same
        database is refused at once (``TournamentBusy``) until the first closes it.
        ``write`` (by default: with ``lock``) opens it to add matches; otherwise it is
        read only, so reading a database, even a read-only one, never changes its file.
        A database may come from someone else: anything in it that racedeck does not
        create (a trigger, a view, a table of another shape) and a stored spec that makes
        no tournament are refused before a row is read (``_check_schema``, ``check``).
        """
        if not database_exists(path) or not path.is_file():
            raise StoreError(f"{path}: no such tournament database")
        writing = lock if write is None else write
        try:
            db = _connect(path, writing)
        except sqlite3.Error as exc:
            raise _unopened(path, exc) from None
        try:
            _check_schema(path, db)
            if writing:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
            rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error as exc:
            db.close()
            raise _unopened(path, exc) from None
        except StoreError:
            db.close()
            raise
        if rows.get("schema") != str(SCHEMA_VERSION) or "spec" not in rows:
            db.close()
            raise StoreError(
                f"{path}: unknown tournament database version {rows.get('schema')!r}"
                f" (this racedeck reads {SCHEMA_VERSION})"
                if "schema" in rows and "spec" in rows
                else f"{path}: not a tournament database (it holds no tournament spec)"
            )
        try:
            spec = decode_spec(rows["spec"])
        except Exception as exc:
            db.close()
            raise StoreError(f"{path}: the stored tournament spec is unreadable: {exc}") from None
        try:
            spec.check()
        except UsageError as exc:
            db.close()
            raise StoreError(f"{path}: the stored tournament spec is invalid: {exc}") from None
        store = cls(path, db, spec)
        if lock:
            store._take_lock()
        return store

    def _take_lock(self) -> None:
        """Hold an exclusive ``flock`` on the database file (SQLite's own locks are others)."""
        fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            self._db.close()
            raise TournamentBusy(
                f"{self.path}: another racedeck is playing this tournament now; wait for it"
                " to end (or stop it), then resume"
            ) from None
        self._lock = fd

    def close(self) -> None:
        """Close the database (and let go of its lock)."""
        self._db.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Writing ---------------------------------------------------------------------------
    def add(self, record: MatchRecord) -> None:
        """Write one finished match, in its own transaction."""
        self.add_many([record])

    def add_many(self, records: Sequence[MatchRecord]) -> None:
        """Write finished matches in one transaction: all of them, or none if one fails."""
        try:
            with self._db:
                self._db.executemany(_INSERT, map(_row, records))
        except sqlite3.IntegrityError:
            raise StoreError(
                f"{self.path}: match {self._recorded_twice(records)} is already recorded"
            ) from None

    def set_match_limit(self, matches: int) -> None:
        """Store a new match limit in the spec, every other field kept.

        A gate given a higher limit goes on in the same database; its spec then says the
        limit it now runs to, as the report and a later run read it.
        """
        spec = msgspec.structs.replace(self.spec, matches=matches)
        try:
            with self._db:
                self._db.execute(
                    "UPDATE meta SET value = ? WHERE key = 'spec'", (encode_spec(spec).decode(),)
                )
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot store the new match limit: {exc}") from None
        self.spec = spec

    def _recorded_twice(self, records: Sequence[MatchRecord]) -> int | None:
        """Return the index of a record that is in the database or earlier in ``records``."""
        seen: set[int] = set()
        for record in records:
            query = "SELECT 1 FROM matches WHERE idx = ?"
            if record.index in seen or self._db.execute(query, (record.index,)).fetchone():
                return record.index
            seen.add(record.index)
        return None

    # Reading ---------------------------------------------------------------------------
    def count(self) -> int:
        """Return how many matches are recorded."""
        return int(self._db.execute("SELECT COUNT(*) FROM matches").fetchone()[0])

    def missing(self) -> Iterator[tuple[int, int]]:
        """Yield the ranges ``[start, stop)`` of scheduled indices that have no row yet.

        Streams the recorded indices in order, so memory stays flat whatever the size.
        """
        expected = 0
        cursor = self._db.cursor()
        try:
            cursor.execute(
                "SELECT idx FROM matches WHERE idx < ? ORDER BY idx", (self.spec.matches,)
            )
            gaps = []
            for (index,) in cursor:
                if index > expected:
                    gaps.append((expected, index))
                expected = index + 1
        finally:
            cursor.close()
        if expected < self.spec.matches:
            gaps.append((expected, self.spec.matches))
        yield from gaps

    def records(self) -> Iterator[MatchRecord]:
        """Yield every recorded match, in index order.

        Each row is checked against the schedule of the stored spec before it is handed
        on: a database may come from someone else, and a row that no match of this
        tournament could have left (altered, or damaged) is a ``StoreError`` naming it,
        never a wrong standing or a crash further on.
        """
        schedule = Schedule(self.spec)
        cursor = self._db.cursor()
        try:
            cursor.execute(f"SELECT {_COLUMNS} FROM matches ORDER BY idx")
            while True:
                try:
                    row = cursor.fetchone()
                except sqlite3.Error as exc:
                    raise StoreError(
                        f"{self.path}: a match cannot be read ({shown(str(exc))}); the database"
                        " is damaged or was altered"
                    ) from None
                if row is None:
                    break
                record = _record(row)
                problem = _problem(record, schedule) if record is not None else "unreadable"
                if problem:
                    raise StoreError(
                        f"{self.path}: match {row[0]}: {problem}; the database is damaged"
                        " or was altered"
                    )
                assert record is not None
                yield record
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: the matches cannot be read ({exc})") from None
        finally:
            # The reader may stop early, and close the database before this generator
            # is collected: the cursor then went with it.
            with contextlib.suppress(sqlite3.ProgrammingError):
                cursor.close()


_json = msgspec.json.Encoder().encode


def _row(record: MatchRecord) -> tuple[object, ...]:
    """Return a record as the row that stores it (lists as JSON text)."""
    return (
        record.index,
        str(record.seed),
        record.deal,
        _json(record.seats).decode(),
        record.status,
        _json(record.ranks).decode(),
        _json(record.scores).decode(),
        record.unit,
        record.events,
        record.fault_seat,
        record.reason,
        _json(record.faults).decode(),
        record.log,
    )


_texts = msgspec.json.Decoder(tuple[str, ...])
_numbers = msgspec.json.Decoder(tuple[int, ...])


def _record(row: tuple[object, ...]) -> MatchRecord | None:
    """Return the record a row stores, or None when its columns do not make one."""
    (
        index,
        seed,
        deal,
        seats,
        status,
        ranks,
        scores,
        unit,
        events,
        fault_seat,
        reason,
        faults,
        log,
    ) = row
    try:
        return MatchRecord(
            index=_integer(index),
            seed=int(str(seed)),
            deal=_integer(deal),
            seats=_texts.decode(str(seats)),
            status=str(status),
            ranks=_numbers.decode(str(ranks)),
            scores=_numbers.decode(str(scores)),
            unit=str(unit),
            events=_integer(events),
            fault_seat=_integer(fault_seat),
            reason=str(reason),
            faults=_texts.decode(str(faults)),
            log=str(log),
        )
    except (ValueError, TypeError, msgspec.DecodeError):
        return None


def _integer(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"not an integer: {value!r}")
    return value


def _problem(record: MatchRecord, schedule: Schedule) -> str:
    """Return what is wrong with a record of ``schedule``'s tournament, or ``""``."""
    if record.index < 0:
        return "a negative index"
    spec = schedule.spec
    # A gate's limit may be lowered when it is run again, its matches beyond kept.
    if record.index >= spec.matches and spec.format != "gate":
        return f"beyond the tournament's {spec.matches} matches"
    expected = schedule.match(record.index)
    if (record.seed, record.deal, record.seats) != (expected.seed, expected.deal, expected.seats):
        return "its seed, deal or seats are not the schedule's"
    if record.status not in STATUSES:
        return f"unknown status {shown(record.status)}"
    players = len(record.seats)
    if not -1 <= record.fault_seat < players:
        return f"no seat {record.fault_seat}"
    if record.status == FORFEIT and record.fault_seat < 0:
        return "a forfeit that names no seat"
    if record.status == ERROR and not record.ranks and not record.scores:
        return ""
    if len(record.ranks) != players or len(record.scores) != players:
        return f"{players} seats but {len(record.ranks)} ranks and {len(record.scores)} scores"
    if not all(1 <= rank <= players for rank in record.ranks):
        return f"ranks {list(record.ranks)} are not places 1 to {players}"
    return ""
