"""The least a replay of a log can do, written plainly: the yardstick for replay's speed.

For each decision line: decode it, chain its hash to the line before and compare, decode
its events and fold them with the game's ``evolve``. Nothing else: no resolving of the
recorded action (which replay does to catch a forged log whose hashes were chained
again), no fault or debug lines, no error wording. Every log reader does at least this much a
line, so a replay rate above this loop's cannot be had in Python whatever the engine does.
"""

from __future__ import annotations

from typing import Any

import msgspec

from racedeck.core.hashing import chain, header_hash


class _TurnLine(msgspec.Struct):
    kind: str
    seq: int
    hash: str
    events: msgspec.Raw


_lines = msgspec.json.Decoder(_TurnLine)
_HASHED_FROM = len(b'"hash":"') + 32 + len(b'",')
"""How far past ``"hash":"`` the bytes a decision line's hash covers begin."""


def fold_log(game: Any, log: bytes, options: Any, players: int) -> tuple[int, Any]:
    """Check the hash chain of ``log`` and fold its events; return how many, and the state."""
    lines = log.split(b"\n")
    previous = header_hash(lines[0])
    events = msgspec.json.Decoder(list[game.event_type])
    evolve = game.evolve
    state = game.initial_state(options, players)
    count = 0
    for raw in lines[1:]:
        if not raw.startswith(b'{"kind":"turn"'):
            continue  # the result line, and the empty string after the last newline
        line = _lines.decode(raw)
        previous = chain(previous, raw[raw.index(b'"hash":"') + _HASHED_FROM :])
        if previous != line.hash:
            raise ValueError(f"event {line.seq}: the hash chain breaks")
        for event in events.decode(line.events):
            state = evolve(state, event)
            count += 1
    return count, state
