"""The lines of a match log: the header, faults, debug notes, the result, decisions.

The structs each line kind decodes to, the bytes a decision's line is made of, and the
one canonical encoding every line is written in (``encode``). Reading a log is
``racedeck.core.log``; writing one, ``racedeck.core.log_writer``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from racedeck.core.hashing import chain
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


EXTERNAL = "external"
"""The bot a debug line names when it records a choice made outside racedeck: an
environment episode's learner (``racedeck.rl``), which no re-run can ask again."""


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


_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    """Return the canonical JSON bytes of ``value``."""
    return _encoder.encode(value)


TURN_PREFIX = b'{"kind":"turn","seq":%d,"hash":"%s",'
"""How a turn line begins; the hash chains the rest of the line (``turn_body``)."""

NOTE_LINE = b'{"kind":"%s","seq":%d,"hash":"%s","%s":%s}'
"""How a fault, debug or (formats 1 and 2) event line is written: its kind, its number,
its hash, and its payload under the kind's name again (``fault``, ``debug``, ``event``).
The hash chains the payload alone, so a reader checks the rest of the line against this."""


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
