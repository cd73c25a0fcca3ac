"""The match log: JSON Lines, a header, hash-chained events and faults, and a result.

Every line is written in canonical form (``msgspec`` encodes struct fields in a fixed
order), flushed as soon as it is written, and chained to the line before it by hash, so a
truncated or altered log is found and named by line number while its intact prefix still
replays.

This module reads a log (``LogReader``) and is where every part of the log is imported
from: its lines' structs (``racedeck.core.log_lines``), its writer
(``racedeck.core.log_writer``) and the opening of plain and gzip-compressed log files
(``racedeck.core.log_files``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO

import msgspec

from racedeck.core.errors import LogError
from racedeck.core.hashing import chain, header_hash
from racedeck.core.log_files import (
    DAMAGED_COMPRESSION,
    GZIP_MAGIC,
    ZSTD_MAGIC,
    decompressing,
    open_log,
)
from racedeck.core.log_lines import (
    END_MATCH,
    LOG_FORMAT,
    MAX_DEPTH,
    MAX_LINE,
    NOTE_LINE,
    READABLE_FORMATS,
    TURN_PREFIX,
    DebugNote,
    Fault,
    ForcedPlay,
    Forfeit,
    ForkOrigin,
    Header,
    ResultLine,
    SeatEntry,
    encode,
    forfeit_result,
    json_depth_ok,
    seal_result,
    turn_body,
)
from racedeck.core.log_writer import LogWriter

__all__ = [
    "DAMAGED_COMPRESSION",
    "END_MATCH",
    "GZIP_MAGIC",
    "LOG_FORMAT",
    "MAX_DEPTH",
    "MAX_LINE",
    "READABLE_FORMATS",
    "TURN_PREFIX",
    "ZSTD_MAGIC",
    "DebugNote",
    "Decision",
    "Fault",
    "ForcedPlay",
    "Forfeit",
    "ForkOrigin",
    "Header",
    "LogEntry",
    "LogReader",
    "LogWriter",
    "ResultLine",
    "SeatEntry",
    "decompressing",
    "encode",
    "forfeit_mismatch",
    "forfeit_result",
    "json_depth_ok",
    "open_log",
    "seal_result",
    "turn_body",
]


class _AnyLine(msgspec.Struct, frozen=True):
    kind: str
    seq: int = -1
    hash: str = ""
    event: msgspec.Raw = msgspec.Raw(b"")
    fault: msgspec.Raw = msgspec.Raw(b"")
    debug: msgspec.Raw = msgspec.Raw(b"")
    by: int = -1
    act: msgspec.Raw = msgspec.Raw(b"")
    events: msgspec.Raw = msgspec.Raw(b"")
    """A turn line's events; a number on the result line, which says how many events."""


_line_decoder = msgspec.json.Decoder(_AnyLine)
_header_decoder = msgspec.json.Decoder(Header)
_result_decoder = msgspec.json.Decoder(ResultLine)
_fault_decoder = msgspec.json.Decoder(Fault)
_debug_decoder = msgspec.json.Decoder(DebugNote)
_raw_list_decoder = msgspec.json.Decoder(list[msgspec.Raw])
_UNREADABLE: tuple[type[BaseException], ...] = (*DAMAGED_COMPRESSION, OSError)


class Decision(msgspec.Struct, frozen=True):
    """A decision as a format 3 log records it: who acted, what it chose, how many events.

    ``action`` is the action's canonical bytes, ``None`` for the engine's turn (``actor``
    -1); ``events`` holds the canonical bytes of each event it caused, and ``listed`` the
    JSON array of them as the line writes it.
    """

    actor: int
    action: bytes | None
    events: tuple[bytes, ...]
    listed: bytes


class LogEntry(msgspec.Struct, frozen=True):
    """One event, fault, debug note or decision read back from a log, with its line number.

    Exactly one of ``event`` (the event's canonical bytes), ``fault``, ``debug`` and
    ``decision`` is set. A format 3 log yields each decision's entry, then an entry for
    each of its events (on the same line).
    """

    line: int
    seq: int
    event: bytes | None
    fault: Fault | None
    debug: DebugNote | None = None
    decision: Decision | None = None


class LogReader:
    """Reads a log line by line, checking the format, the sequence and every hash.

    Iterating yields the events and faults of the intact prefix and raises ``LogError``
    at the first line that is wrong; ``result`` holds the result line once reached.
    """

    def __init__(self, path: str | Path, stream: IO[bytes] | None = None) -> None:
        self.path = str(path)
        self.result: ResultLine | None = None
        self.last_hash = ""
        self.events_read = 0
        self.lines_read = 0
        self.result_line = 0
        """The line number of the result line, once read."""
        self.faults: list[LogEntry] = []
        """The fault lines read so far."""
        self.event_entries = True
        """Whether a decision's entry is followed by an entry for each of its events.

        A reader that takes the events from the decision itself turns this off."""
        self._file: IO[bytes] = open_log(path) if stream is None else decompressing(stream)
        self._owns_file = stream is None
        try:
            self.header = self._read_header()
        except LogError:
            self.close()
            raise

    def close(self) -> None:
        """Close the underlying file, unless it was handed in as a stream."""
        if self._owns_file:
            self._file.close()

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, line: int, why: str) -> LogError:
        return LogError(self.path, line, why)

    def _damaged(self, line: int, exc: BaseException) -> LogError:
        return self._fail(line, f"the compressed log is damaged or cut off ({exc})")

    def _unreadable(self, line: int, exc: BaseException) -> LogError:
        """Return the error for a line that could not be read: damaged, or not readable."""
        if isinstance(exc, DAMAGED_COMPRESSION):
            return self._damaged(line, exc)
        return self._fail(line, f"cannot read: {getattr(exc, 'strerror', None) or exc}")

    def _too_long(self, line: int) -> LogError:
        return self._fail(line, f"a line longer than {MAX_LINE} bytes: not a racedeck log")

    def _readline(self, line: int) -> bytes:
        """Return the next line, at most ``MAX_LINE`` bytes of it; refuse a longer one."""
        try:
            raw = self._file.readline(MAX_LINE + 1)
        except _UNREADABLE as exc:
            raise self._unreadable(line, exc) from None
        if len(raw) > MAX_LINE:
            raise self._too_long(line)
        return raw

    def _read_header(self) -> Header:
        raw = self._readline(1)
        self.lines_read = 1
        if not raw:
            raise self._fail(1, "empty file: no header line")
        if not raw.endswith(b"\n"):
            raise self._fail(1, "truncated header line")
        if not json_depth_ok(raw):
            raise self._fail(1, f"the header nests JSON deeper than {MAX_DEPTH} levels")
        try:
            probe = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            raise self._fail(1, "not JSON: the header line is unreadable") from None
        if not isinstance(probe, dict) or probe.get("kind") != "header":
            raise self._fail(1, "not a racedeck log: the first line is not a header")
        if probe.get("format") not in READABLE_FORMATS:
            raise self._fail(
                1,
                f"unknown log format version {probe.get('format')!r} "
                f"(this engine reads {', '.join(map(str, READABLE_FORMATS))})",
            )
        try:
            header = _header_decoder.decode(raw)
        except msgspec.DecodeError as exc:
            raise self._fail(1, f"malformed header: {exc}") from None
        if raw.rstrip(b"\n") != encode(header):
            raise self._fail(1, "header was altered: it is not in canonical form")
        self.last_hash = header_hash(raw.rstrip(b"\n"))
        return header

    def _note_line(
        self, lineno: int, raw: bytes, line: _AnyLine, expected: int, last_hash: str
    ) -> LogEntry:
        """Check a fault or debug line's place in the chain and return its entry.

        The line must be exactly what the writer writes (``NOTE_LINE``, the payload's
        canonical bytes): the hash covers only the payload, so a line spelt otherwise
        (its fields reordered, spaces, a field added) is an edit the chain would not
        show. On success ``last_hash`` becomes the line's hash.
        """
        kind = line.kind
        payload = bytes(line.fault if kind == "fault" else line.debug)
        last_hash = chain(last_hash, payload)
        if last_hash != line.hash:
            raise self._fail(lineno, f"hash mismatch at a {kind} line: the log was altered")
        if line.seq != expected:
            raise self._fail(
                lineno,
                f"a {kind} line numbered {line.seq} after {expected} "
                f"events (it must be {expected})",
            )
        entry = self._note(lineno, line.seq, kind, payload)
        fault = entry.fault
        if fault is not None and fault.policy != self.header.fault_policy:
            raise self._fail(
                lineno,
                f"a fault handled by the {fault.policy!r} policy in a match played under "
                f"{self.header.fault_policy!r}: the log was altered",
            )
        note = fault if fault is not None else entry.debug
        name = kind.encode()
        written = NOTE_LINE % (name, line.seq, line.hash.encode(), name, encode(note))
        if raw != written + b"\n":
            raise self._fail(lineno, f"the {kind} line is not in canonical form: it was altered")
        self.last_hash = last_hash
        return entry

    def _event_line(
        self, lineno: int, raw: bytes, line: _AnyLine, expected: int, last_hash: str
    ) -> LogEntry:
        """Check a format 1 or 2 log's event line and return its entry.

        Its number must follow, its hash chain the payload, and the line be exactly what
        the writer writes (``NOTE_LINE``). On success ``last_hash`` becomes the line's hash.
        """
        payload = bytes(line.event)
        seq = line.seq
        if seq != expected:
            raise self._fail(lineno, f"expected event {expected}, found {seq}")
        last_hash = chain(last_hash, payload)
        if last_hash != line.hash:
            what = "the header or event 0" if seq == 0 else f"event {seq}"
            raise self._fail(lineno, f"hash mismatch at event {seq}: {what} was altered")
        if raw != NOTE_LINE % (b"event", seq, line.hash.encode(), b"event", payload) + b"\n":
            raise self._fail(lineno, "the event line is not in canonical form: it was altered")
        self.last_hash = last_hash
        return LogEntry(lineno, seq, payload, None)

    def _note(self, lineno: int, seq: int, kind: str, payload: bytes) -> LogEntry:
        """Decode a fault or debug line's payload into its entry."""
        try:
            if kind == "fault":
                return LogEntry(lineno, seq, None, _fault_decoder.decode(payload))
            return LogEntry(lineno, seq, None, None, _debug_decoder.decode(payload))
        except msgspec.DecodeError as exc:
            raise self._fail(lineno, f"malformed {kind} line: {exc}") from None
        except RecursionError:
            raise self._fail(lineno, f"the {kind} line nests JSON too deep") from None

    def __iter__(self) -> Iterator[LogEntry]:
        lineno = self.lines_read
        expected_seq = 0
        last_hash = self.last_hash
        decode_line = _line_decoder.decode
        read = self._file.readline
        faults = self.faults
        decisions = self.header.format >= 3
        try:
            while True:
                # ``_readline`` written out: this loop runs once a line of every log read.
                try:
                    raw = read(MAX_LINE + 1)
                except _UNREADABLE as exc:
                    raise self._unreadable(lineno + 1, exc) from None
                if not raw:
                    break
                if len(raw) > MAX_LINE:
                    raise self._too_long(lineno + 1)
                lineno += 1
                self.lines_read = lineno
                if self.result is not None:
                    raise self._fail(lineno, "text after the result line")
                if not raw.endswith(b"\n"):
                    raise self._fail(lineno, "truncated line: the log was cut off mid-line")
                try:
                    line = decode_line(raw)
                except msgspec.DecodeError:
                    raise self._fail(lineno, "not JSON: the line is unreadable") from None
                except RecursionError:
                    raise self._fail(lineno, "the line nests JSON too deep") from None
                kind = line.kind
                if kind == "turn" and decisions:
                    if line.seq != expected_seq:
                        raise self._fail(lineno, f"expected event {expected_seq}, found {line.seq}")
                    decision, body = self._decision(lineno, raw, line)
                    last_hash = chain(last_hash, body)
                    if last_hash != line.hash:
                        why = f"hash mismatch at the decision of event {line.seq}"
                        raise self._fail(lineno, f"{why}: the log was altered")
                    self.last_hash = last_hash
                    events = decision.events
                    yield LogEntry(lineno, line.seq, None, None, None, decision)
                    if self.event_entries:
                        for number, event in enumerate(events, start=expected_seq):
                            yield LogEntry(lineno, number, event, None)
                    expected_seq += len(events)
                    self.events_read = expected_seq
                elif kind == "event" and not decisions:
                    entry = self._event_line(lineno, raw, line, expected_seq, last_hash)
                    last_hash = self.last_hash
                    expected_seq += 1
                    self.events_read = expected_seq
                    yield entry
                elif kind in ("fault", "debug"):
                    entry = self._note_line(lineno, raw, line, expected_seq, last_hash)
                    last_hash = self.last_hash
                    if entry.fault is not None:
                        faults.append(entry)
                    yield entry
                elif kind == "result":
                    self.result = self._result(lineno, raw, expected_seq, last_hash)
                    self.result_line = lineno
                else:
                    raise self._fail(lineno, f"unknown line kind {line.kind!r}")
        except DAMAGED_COMPRESSION as exc:
            raise self._damaged(self.lines_read + 1, exc) from None
        if self.result is None:
            raise self._fail(
                lineno,
                f"truncated: no result line after {expected_seq} events (the match did not finish)",
            )

    def _decision(self, lineno: int, raw: bytes, line: _AnyLine) -> tuple[Decision, bytes]:
        """Return a turn line's decision and the bytes its hash covers, refusing a bad one.

        The line must be exactly what the writer writes (``TURN_PREFIX``, ``turn_body``),
        so its hash covers every byte after the hash field.
        """
        action = bytes(line.act) if line.act else None
        listed = bytes(line.events)
        try:
            events = tuple(map(bytes, _raw_list_decoder.decode(listed)))
        except msgspec.DecodeError:
            raise self._fail(lineno, "malformed decision: its events are not a list") from None
        if (action is None) != (line.by == -1) or line.by < -1:
            raise self._fail(lineno, "malformed decision: a seat needs an action, the engine none")
        body = turn_body(line.by, action, listed)
        if (
            raw != TURN_PREFIX % (line.seq, line.hash.encode()) + body + b"\n"
            or listed != b"[" + b",".join(events) + b"]"
        ):
            raise self._fail(lineno, "the decision line is not in canonical form: it was altered")
        return Decision(line.by, action, events, listed), body

    def _result(self, lineno: int, raw: bytes, events: int, last_hash: str) -> ResultLine:
        """Decode and check the result line: its chain, and its forfeit against the faults.

        What the events decide (the final state and a game's result) is checked by the
        replay that folds them (``racedeck.core.replay.check_result``).
        """
        try:
            result = _result_decoder.decode(raw)
        except msgspec.DecodeError as exc:
            raise self._fail(lineno, f"malformed result line: {exc}") from None
        except RecursionError:
            raise self._fail(lineno, "the result line nests JSON too deep") from None
        if raw.rstrip(b"\n") != encode(result):
            raise self._fail(lineno, "the result line was altered: it is not in canonical form")
        if result.events != events or result.hash != last_hash:
            raise self._fail(lineno, "the result line does not match the events before it")
        if self.header.format >= 2:
            if result.line_hash != seal_result(last_hash, result).line_hash:
                raise self._fail(lineno, "hash mismatch at the result line: it was altered")
        elif result.line_hash:
            raise self._fail(lineno, "a format 1 log's result line carries a line hash")
        why = forfeit_mismatch(self.header, self.faults, result)
        if why:
            raise self._fail(lineno, why)
        return result


def forfeit_mismatch(header: Header, faults: list[LogEntry], result: ResultLine) -> str:
    """Return why a result line's forfeit does not follow from the fault lines ('' if it does).

    Under the ``forfeit`` policy the first fault of the match (not one raised by
    ``end_match`` after it) ends it: the result must name that seat and reason, come
    right after it, and rank that seat last and the others first with no scores. Without
    such a fault, or under ``substitute``, there is no forfeit.
    """
    during = [e for e in faults if e.fault and not e.fault.reason.startswith(END_MATCH)]
    if header.fault_policy != "forfeit" or not during:
        if result.forfeit is not None:
            return "the result line names a forfeit that no fault line caused"
        return ""
    first = during[0]
    assert first.fault is not None
    forfeit = result.forfeit
    if forfeit is None:
        return f"the fault on line {first.line} ended the match, but the result names no forfeit"
    if (forfeit.seat, forfeit.reason) != (first.fault.seat, first.fault.reason):
        return f"the forfeit does not match the fault on line {first.line}"
    if len(during) > 1 or first.seq != result.events:
        return f"the match went on after the fault on line {first.line} that forfeited it"
    expected = msgspec.json.decode(encode(forfeit_result(header.players, forfeit)))
    if result.result != expected:
        return "the result of a forfeited match must rank the forfeiting seat last, no scores"
    return ""
