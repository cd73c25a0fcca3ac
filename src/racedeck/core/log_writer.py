"""Writing a match log: each line in canonical form, flushed, chained to the one before."""

from __future__ import annotations

from typing import IO, Any

from racedeck.core.hashing import chain, header_hash
from racedeck.core.log_lines import (
    LOG_FORMAT,
    NOTE_LINE,
    TURN_PREFIX,
    DebugNote,
    Fault,
    Header,
    ResultLine,
    encode,
    seal_result,
    turn_body,
)


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
        self._write(NOTE_LINE % (b"event", self._seq, self._hash.encode(), b"event", event_bytes))
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
        self._write(NOTE_LINE % (b"fault", self._seq, self._hash.encode(), b"fault", raw))

    def debug(self, note: DebugNote) -> None:
        """Write a bot's debug note, chained like an event but not folded into the state."""
        raw = encode(note)
        self._hash = chain(self._hash, raw)
        self._write(NOTE_LINE % (b"debug", self._seq, self._hash.encode(), b"debug", raw))

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
