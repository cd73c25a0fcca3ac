"""The first point where two logs diverge, found in one streaming pass over both.

Both logs are read in step, line for line, with every hash checked. While their events
agree only one state is folded (the states are equal when both headers set up the same
match); at the first entry that differs the two events are folded into their own states.
When the headers are byte-identical, the second log's lines are compared as raw bytes
with the first log's checked lines, which makes diffing two runs that should agree about
as fast as replaying one. Memory does not grow with the logs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.catalogue import Catalogue
from racedeck.core.entries import UnfoldableEvent, decode_event, fold_event
from racedeck.core.game import AnyGame
from racedeck.core.log import (
    TURN_PREFIX,
    Header,
    LogEntry,
    LogReader,
    ResultLine,
    encode,
    turn_body,
)
from racedeck.core.replay import check_result, open_game

SETUP_FIELDS = ("game", "rules_version", "options", "players")
"""Header fields that decide the initial state: equal ones let both logs share a fold."""


@dataclass
class Side:
    """One log at the point of divergence: its entry there and its state after it."""

    path: str
    header: Header
    game: AnyGame
    line: int
    """The log line of the entry that differs; 0 when the log has ended."""
    entry: Any
    """The event or fault that differs, or ``None`` when the log has ended."""
    state: Any
    error: str = ""
    """Why the entry could not be folded into the state, when it could not."""


@dataclass
class Divergence:
    """Where two logs part: the event number and each side's entry and state."""

    seq: int
    a: Side
    b: Side
    why: str


@dataclass
class DiffReport:
    """How two logs compare: header fields that differ and the first divergence, if any."""

    header_differences: list[str]
    entries_compared: int
    events_compared: int
    divergence: Divergence | None = None

    @property
    def identical(self) -> bool:
        """True when both logs hold the same events, faults and result."""
        return self.divergence is None


def header_differences(a: Header, b: Header) -> list[str]:
    """Return the names of the header fields whose values differ."""
    builtins_a, builtins_b = msgspec.to_builtins(a), msgspec.to_builtins(b)
    names = list(builtins_a) + [n for n in builtins_b if n not in builtins_a]
    return [n for n in names if builtins_a.get(n) != builtins_b.get(n)]


def _entries(entries: Iterator[LogEntry]) -> Iterator[LogEntry | None]:
    # A decision's own entry is passed over: its events, which follow, are compared.
    yield from (entry for entry in entries if entry.decision is None)
    while True:
        yield None


def _same(x: LogEntry | None, y: LogEntry | None) -> bool:
    if x is None or y is None:
        return x is y
    return x.event == y.event and x.fault == y.fault and x.debug == y.debug


def diff_logs(catalogue: Catalogue, path_a: str | Path, path_b: str | Path) -> DiffReport:
    """Compare two logs and return where they first diverge.

    Raises ``LogError`` (exit code 3) when either log cannot be read, naming the line.
    """
    with LogReader(path_a) as reader_a:
        game_a, options_a = open_game(catalogue, reader_a.header, str(path_a))
        state = game_a.initial_state(options_a, reader_a.header.players)
        entries_a: Iterator[LogEntry] = iter(reader_a)
        skipped = events = 0
        if _header_line(path_b) == encode(reader_a.header) + b"\n":
            skip = _same_bytes_prefix(reader_a, entries_a, path_b, game_a, state)
            if skip.identical:
                _check_end(game_a, reader_a, skip.state)
                return DiffReport([], skip.entries, skip.events)
            skipped, events, state = skip.entries, skip.events, skip.state
            entries_a = itertools.chain(skip.pending, entries_a)
        with LogReader(path_b) as reader_b:
            entries_b = iter(reader_b)
            for _ in range(skipped):
                next(entries_b)  # B's prefix is A's, byte for byte; this checks its hashes
            return _lockstep(
                catalogue, reader_a, reader_b, entries_a, entries_b, state, skipped, events
            )


class _Skip(msgspec.Struct):
    identical: bool
    entries: int
    events: int
    state: Any
    pending: list[LogEntry]


def _same_bytes_prefix(
    reader: LogReader, entries: Iterator[LogEntry], path_b: str | Path, game: AnyGame, state: Any
) -> _Skip:
    """Follow A with B's raw lines while they are byte-identical to A's checked lines.

    With identical headers, a line of B equal to A's line is checked by A's hash chain,
    so B need not be decoded or hashed: the common case (two runs that should agree) costs
    little more than one replay. At the first line that differs, the caller goes on in step.
    """
    count = events = line = 0
    with open(path_b, "rb") as other:
        other.readline()
        for entry in entries:
            # A decision's events are on its own line: one line, several entries.
            if entry.line != line:
                line = entry.line
                if other.readline() != _line_bytes(entry, reader.last_hash):
                    return _Skip(False, count, events, state, [entry])
            count += 1
            if entry.event is not None:
                state = _fold(game, state, entry, reader.path)
                events += 1
        assert reader.result is not None
        same_end = other.readline() == encode(reader.result) + b"\n" and not other.read(1)
    return _Skip(same_end, count, events, state, [])


def _line_bytes(entry: LogEntry, line_hash: str) -> bytes:
    """Return the canonical line of an entry, as ``LogWriter`` writes it."""
    decision = entry.decision
    if decision is not None:
        body = turn_body(decision.actor, decision.action, decision.listed)
        return TURN_PREFIX % (entry.seq, line_hash.encode()) + body + b"\n"
    if entry.event is not None:
        return b'{"kind":"event","seq":%d,"hash":"%s","event":%s}\n' % (
            entry.seq,
            line_hash.encode(),
            entry.event,
        )
    if entry.debug is not None:
        return b'{"kind":"debug","seq":%d,"hash":"%s","debug":%s}\n' % (
            entry.seq,
            line_hash.encode(),
            encode(entry.debug),
        )
    return b'{"kind":"fault","seq":%d,"hash":"%s","fault":%s}\n' % (
        entry.seq,
        line_hash.encode(),
        encode(entry.fault),
    )


def _header_line(path: str | Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.readline()
    except OSError:
        return b""  # LogReader names the problem


def _lockstep(
    catalogue: Catalogue,
    reader_a: LogReader,
    reader_b: LogReader,
    entries_a: Iterator[LogEntry],
    entries_b: Iterator[LogEntry],
    state: Any,
    compared: int,
    events: int,
) -> DiffReport:
    """Compare the rest of two logs entry by entry, folding only what is needed."""
    path_a, path_b = reader_a.path, reader_b.path
    game_a, _ = open_game(catalogue, reader_a.header, path_a)
    game_b, options_b = open_game(catalogue, reader_b.header, path_b)
    differences = header_differences(reader_a.header, reader_b.header)
    shared = not any(name in differences for name in SETUP_FIELDS)
    state_a = state
    state_b = state_a if shared else game_b.initial_state(options_b, reader_b.header.players)
    seq = events  # the byte-identical prefix is folded into ``state`` already
    report = DiffReport(differences, compared, events)
    for x, y in zip(_entries(entries_a), _entries(entries_b), strict=False):
        if x is None and y is None:
            break
        if not _same(x, y):
            report.divergence = Divergence(
                seq,
                _side(path_a, reader_a.header, game_a, x, state_a),
                _side(path_b, reader_b.header, game_b, y, state_b),
                _why(x, y),
            )
            return report
        assert x is not None
        report.entries_compared += 1
        if x.event is None:
            continue
        state_a = _fold(game_a, state_a, x, path_a)
        if shared:
            state_b = state_a
        else:
            assert y is not None
            state_b = _fold(game_b, state_b, y, path_b)
        seq += 1
        report.events_compared = seq
    # Both logs were read to their ends: each result must follow from its own events.
    _check_end(game_a, reader_a, state_a)
    _check_end(game_b, reader_b, state_b)
    if not _same_result(reader_a.result, reader_b.result):
        report.divergence = Divergence(
            seq,
            Side(path_a, reader_a.header, game_a, reader_a.lines_read, None, state_a),
            Side(path_b, reader_b.header, game_b, reader_b.lines_read, None, state_b),
            "the events agree but the result lines differ",
        )
    return report


def _check_end(game: AnyGame, reader: LogReader, state: Any) -> None:
    """Raise ``LogError`` when a fully read log's result does not follow from its events."""
    if reader.result is not None:
        error = check_result(
            game, reader.header, state, reader.result, reader.path, reader.result_line
        )
        if error is not None:
            raise error


def _same_result(a: ResultLine | None, b: ResultLine | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.events, a.state_hash, a.result, a.forfeit) == (
        b.events,
        b.state_hash,
        b.result,
        b.forfeit,
    )


def _fold(game: AnyGame, state: Any, entry: LogEntry, path: str) -> Any:
    """Return ``state`` with the event of ``entry`` folded in, as replay folds it."""
    return fold_event(game, state, decode_event(game, entry, path), entry, path)


def _side(path: str, header: Header, game: AnyGame, entry: LogEntry | None, state: Any) -> Side:
    if entry is None:
        return Side(path, header, game, 0, None, state)
    if entry.fault is not None or entry.debug is not None:
        return Side(path, header, game, entry.line, entry.fault or entry.debug, state)
    event = decode_event(game, entry, path)
    try:
        after = fold_event(game, state, event, entry, path)
    except UnfoldableEvent as exc:  # an edited log may hold an event no match could produce
        return Side(path, header, game, entry.line, event, state, exc.reason)
    return Side(path, header, game, entry.line, event, after)


def _why(x: LogEntry | None, y: LogEntry | None) -> str:
    if x is None:
        return "the first log ends here; the second goes on"
    if y is None:
        return "the second log ends here; the first goes on"
    if (x.event is None) != (y.event is None):
        return "one log records a fault or a debug note where the other has an event"
    return "the entries differ"
