"""The match log: JSON Lines, a header, hash-chained events and faults, and a result.

Every line is written in canonical form (``msgspec`` encodes struct fields in a fixed
order), flushed as soon as it is written, and chained to the line before it by hash, so a
truncated or altered log is found and named by line number while its intact prefix still
replays.

A log may be stored compressed with gzip (a tournament keeps its logs as
``match-0000042.jsonl.gz``). ``open_log`` is the one place a log file is opened for
reading: it recognises a gzip file by its first bytes, whatever its name, so every
command that reads logs reads compressed ones too.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import msgspec

from racedeck.core.errors import LogError
from racedeck.core.hashing import chain, header_hash
from racedeck.core.model import Result

LOG_FORMAT = 3
"""The version of the log format this engine writes.

Format 3 writes each decision as one line, the actor and its action with the events it
caused (``turn`` lines); format 2 wrote one line per event and chained the result line
like every other line (its ``line_hash``); format 1 logs, whose result line carries no
hash of its own, are still read (formats 1 and 2 through ``racedeck.core.legacy_log``).
"""
READABLE_FORMATS = (1, 2, 3)
"""The log format versions this engine reads."""
MAX_LINE = 16 << 20
"""The longest log line read, in bytes: a longer one is refused, not read into memory."""
MAX_DEPTH = 64
"""The deepest nesting of JSON arrays and objects a log line may have."""
END_MATCH = "end_match "
"""How the reason of a fault raised after the match (by ``end_match``) begins."""


class SeatEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a match as the header records it."""

    bot: str
    version: str = "1"


class ForcedPlay(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's action forced at a fork point: the seat and the action as a log records it."""

    seat: int
    act: Any


class ForkOrigin(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where a forked match branched off: its parent log's last hash and the event number.

    ``play`` holds the actions forced at the fork point (``racedeck fork --play``): each
    seat named plays that action at its first decision after the fork point.
    """

    parent_hash: str
    at: int
    play: tuple[ForcedPlay, ...] = ()


class Header(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The first line of a log: everything needed to run the match again."""

    kind: str
    format: int
    engine: str
    game: str
    rules_version: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: tuple[SeatEntry, ...]
    fault_policy: str
    fork: ForkOrigin | None = None
    state_version: int = 1
    """The game's state schema version; the final-state hash is only comparable within it."""


class Fault(msgspec.Struct, frozen=True, kw_only=True):
    """A bot misbehaved: what it did and what the engine did about it."""

    seat: int
    bot: str
    reason: str
    policy: str


class DebugNote(msgspec.Struct, frozen=True, kw_only=True):
    """Text a bot chose to leave in the log about a decision (not a fault)."""

    seat: int
    bot: str
    text: str


class Forfeit(msgspec.Struct, frozen=True, kw_only=True):
    """The match ended early because a seat forfeited it."""

    seat: int
    reason: str


class ResultLine(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The last line of a complete log.

    ``hash`` is the hash of the line before it; ``line_hash`` (format 2) chains this
    line's own canonical bytes (without ``line_hash``) to it, as every other line is.
    """

    kind: str
    events: int
    hash: str
    state_hash: str
    result: dict[str, Any]
    forfeit: Forfeit | None = None
    line_hash: str = ""


def forfeit_result(players: int, forfeit: Forfeit, unit: str = "points") -> Result:
    """Return the result of a forfeited match: the forfeiting seat last, the others tied first."""
    ranks = tuple(players if seat == forfeit.seat else 1 for seat in range(players))
    return Result(
        ranks=ranks,
        scores=(0,) * players,
        unit=unit,
        summary=(f"seat {forfeit.seat} forfeited: {forfeit.reason}",),
    )


def seal_result(previous: str, line: ResultLine) -> ResultLine:
    """Return ``line`` with its ``line_hash``: its canonical bytes chained to ``previous``."""
    body = msgspec.structs.replace(line, line_hash="")
    return msgspec.structs.replace(body, line_hash=chain(previous, encode(body)))


def json_depth_ok(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Return True when the JSON text ``raw`` nests arrays and objects at most ``limit`` deep.

    Brackets inside strings are skipped; the text need not be valid JSON (the decoder
    judges that). Deep nesting would exhaust the decoders' recursion, so it is refused
    before decoding.
    """
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return True
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


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


TURN_PREFIX = b'{"kind":"turn","seq":%d,"hash":"%s",'
"""How a turn line begins; the hash chains the rest of the line (``turn_body``)."""


def turn_body(actor: int, action: bytes | None, events: bytes) -> bytes:
    """Return the part of a turn line its hash covers: seat, action and events, as written.

    A seat's decision names the seat (``by``) and its action (``act``); the engine's turn
    (``actor`` -1) names neither. ``events`` is the canonical JSON array of the events.
    The names are short because they are on every line: a log of decisions stays within
    a few percent of the size of the one-event-a-line format before it.
    """
    if action is None:
        return b'"events":%s}' % events
    return b'"by":%d,"act":%s,"events":%s}' % (actor, action, events)


GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of every gzip file."""
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""The first four bytes of a Zstandard frame (recognised, to be refused clearly)."""

DAMAGED_COMPRESSION: tuple[type[BaseException], ...] = (EOFError, zlib.error, gzip.BadGzipFile)
"""What reading a damaged or cut-off gzip file raises."""


def open_log(path: str | Path) -> IO[bytes]:
    """Open a log file for reading its lines, decompressing it when it is gzip-compressed.

    Raises ``LogError`` (line 0) when the file cannot be opened or is compressed in a
    format racedeck does not read.
    """
    try:
        with open(path, "rb") as probe:
            magic = probe.read(4)
        if magic.startswith(GZIP_MAGIC):
            return cast(IO[bytes], gzip.open(path, "rb"))
        if magic == ZSTD_MAGIC:
            raise LogError(
                str(path), 0, "compressed with zstd, which racedeck does not read: unpack it first"
            )
        return open(path, "rb")
    except OSError as exc:
        raise LogError(str(path), 0, f"cannot open: {exc.strerror}") from None


def decompressing(stream: IO[bytes]) -> IO[bytes]:
    """Return ``stream``, read through gzip when it holds a gzip file (seekable streams only)."""
    if not stream.seekable():
        return stream
    start = stream.tell()
    magic = stream.read(2)
    stream.seek(start)
    if magic == GZIP_MAGIC:
        return cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
    return stream


_encoder = msgspec.json.Encoder()
_line_decoder = msgspec.json.Decoder(_AnyLine)
_header_decoder = msgspec.json.Decoder(Header)
_result_decoder = msgspec.json.Decoder(ResultLine)
_fault_decoder = msgspec.json.Decoder(Fault)
_debug_decoder = msgspec.json.Decoder(DebugNote)
_raw_list_decoder = msgspec.json.Decoder(list[msgspec.Raw])


def encode(value: Any) -> bytes:
    """Return the canonical JSON bytes of ``value``."""
    return _encoder.encode(value)


class LogWriter:
    """Appends a match's lines to a file, flushing each one, and chains their hashes."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._hash = ""
        self._seq = 0
        self._format = LOG_FORMAT

    @property
    def last_hash(self) -> str:
        """The hash of the last line written so far."""
        return self._hash

    def header(self, header: Header) -> None:
        """Write the header line and start the hash chain."""
        raw = encode(header)
        self._format = header.format
        self._hash = header_hash(raw)
        self._write(raw)

    def event(self, event_bytes: bytes) -> None:
        """Write one event, given as its canonical bytes."""
        self._hash = chain(self._hash, event_bytes)
        self._write(
            b'{"kind":"event","seq":%d,"hash":"%s","event":%s}'
            % (self._seq, self._hash.encode(), event_bytes)
        )
        self._seq += 1

    def turn(self, actor: int, action: bytes | None, events: list[bytes]) -> None:
        """Write one decision: the actor, its action's canonical bytes, and its events' bytes.

        The engine's turn has no action (``None``). Under a header of format 3 it is one
        line; re-running a format 1 or 2 log writes its events one a line, as it was.
        """
        if self._format < 3:
            for event in events:
                self.event(event)
            return
        body = turn_body(actor, action, b"[" + b",".join(events) + b"]")
        self._hash = chain(self._hash, body)
        self._write(TURN_PREFIX % (self._seq, self._hash.encode()) + body)
        self._seq += len(events)

    def decision(self, actor: int, action: Any, events: list[Any]) -> None:
        """Write one decision given as objects: the actor, its action (None: the engine's), events.

        What ``turn`` writes for their canonical bytes; the events are encoded in one go.
        """
        if self._format < 3:
            self.turn(actor, None, [encode(event) for event in events])
            return
        body = turn_body(actor, None if action is None else encode(action), encode(events))
        self._hash = chain(self._hash, body)
        self._write(TURN_PREFIX % (self._seq, self._hash.encode()) + body)
        self._seq += len(events)

    def fault(self, fault: Fault) -> None:
        """Write a fault line, chained like an event but not folded into the state."""
        raw = encode(fault)
        self._hash = chain(self._hash, raw)
        self._write(
            b'{"kind":"fault","seq":%d,"hash":"%s","fault":%s}'
            % (self._seq, self._hash.encode(), raw)
        )

    def debug(self, note: DebugNote) -> None:
        """Write a bot's debug note, chained like an event but not folded into the state."""
        raw = encode(note)
        self._hash = chain(self._hash, raw)
        self._write(
            b'{"kind":"debug","seq":%d,"hash":"%s","debug":%s}'
            % (self._seq, self._hash.encode(), raw)
        )

    def result(self, line: ResultLine) -> None:
        """Write the result line that marks the log complete, chained to the line before.

        A log whose header names format 1 (re-running an old log) gets an unchained one.
        """
        if self._format >= 2:
            line = seal_result(self._hash, line)
        self._write(encode(line))

    def _write(self, raw: bytes) -> None:
        self._stream.write(raw + b"\n")
        self._stream.flush()


class Decision(msgspec.Struct, frozen=True):
    """A decision as a format 3 log records it: who acted, what it chose, how many events.

    ``action`` is the action's canonical bytes, ``None`` for the engine's turn (``actor``
    -1); ``events`` holds the canonical bytes of each event it caused.
    """

    actor: int
    action: bytes | None
    events: tuple[bytes, ...]


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

    def _readline(self, line: int) -> bytes:
        """Return the next line, at most ``MAX_LINE`` bytes of it; refuse a longer one."""
        try:
            raw = self._file.readline(MAX_LINE + 1)
        except DAMAGED_COMPRESSION as exc:
            raise self._damaged(line, exc) from None
        except OSError as exc:
            raise self._fail(line, f"cannot read: {exc.strerror or exc}") from None
        if len(raw) > MAX_LINE:
            raise self._fail(line, f"a line longer than {MAX_LINE} bytes: not a racedeck log")
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
        try:
            while True:
                # ``_readline`` written out: this loop runs once a line of every log read.
                try:
                    raw = read(MAX_LINE + 1)
                except DAMAGED_COMPRESSION as exc:
                    raise self._damaged(lineno + 1, exc) from None
                except OSError as exc:
                    raise self._fail(lineno + 1, f"cannot read: {exc.strerror or exc}") from None
                if not raw:
                    break
                if len(raw) > MAX_LINE:
                    raise self._fail(
                        lineno + 1, f"a line longer than {MAX_LINE} bytes: not a racedeck log"
                    )
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
                if line.kind == "event" and self.header.format < 3:
                    payload = bytes(line.event)
                    if line.seq != expected_seq:
                        raise self._fail(lineno, f"expected event {expected_seq}, found {line.seq}")
                    last_hash = chain(last_hash, payload)
                    if last_hash != line.hash:
                        what = "the header or event 0" if line.seq == 0 else f"event {line.seq}"
                        raise self._fail(
                            lineno, f"hash mismatch at event {line.seq}: {what} was altered"
                        )
                    self.last_hash = last_hash
                    expected_seq += 1
                    self.events_read = expected_seq
                    yield LogEntry(lineno, line.seq, payload, None)
                elif line.kind == "turn" and self.header.format >= 3:
                    if line.seq != expected_seq:
                        raise self._fail(lineno, f"expected event {expected_seq}, found {line.seq}")
                    decision, body = self._decision(lineno, raw, line)
                    last_hash = chain(last_hash, body)
                    if last_hash != line.hash:
                        raise self._fail(
                            lineno,
                            f"hash mismatch at the decision of event {line.seq}: "
                            "the log was altered",
                        )
                    self.last_hash = last_hash
                    events = decision.events
                    yield LogEntry(lineno, line.seq, None, None, None, decision)
                    if self.event_entries:
                        for number, event in enumerate(events, start=expected_seq):
                            yield LogEntry(lineno, number, event, None)
                    expected_seq += len(events)
                    self.events_read = expected_seq
                elif line.kind in ("fault", "debug"):
                    payload = bytes(line.fault if line.kind == "fault" else line.debug)
                    last_hash = chain(last_hash, payload)
                    if last_hash != line.hash:
                        raise self._fail(
                            lineno, f"hash mismatch at a {line.kind} line: the log was altered"
                        )
                    if line.seq != expected_seq:
                        raise self._fail(
                            lineno,
                            f"a {line.kind} line numbered {line.seq} after {expected_seq} "
                            f"events (it must be {expected_seq})",
                        )
                    self.last_hash = last_hash
                    entry = self._note(lineno, line.seq, line.kind, payload)
                    if entry.fault is not None:
                        faults.append(entry)
                    yield entry
                elif line.kind == "result":
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
        try:
            events = tuple(bytes(event) for event in _raw_list_decoder.decode(line.events))
        except msgspec.DecodeError:
            raise self._fail(lineno, "malformed decision: its events are not a list") from None
        if (action is None) != (line.by == -1) or line.by < -1:
            raise self._fail(lineno, "malformed decision: a seat needs an action, the engine none")
        body = turn_body(line.by, action, b"[" + b",".join(events) + b"]")
        if raw != TURN_PREFIX % (line.seq, line.hash.encode()) + body + b"\n":
            raise self._fail(lineno, "the decision line is not in canonical form: it was altered")
        return Decision(line.by, action, events), body

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
