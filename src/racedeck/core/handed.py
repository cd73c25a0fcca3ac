"""What a bot is handed is its own copy: nothing it does to it reaches the engine.

Observations and actions are frozen msgspec structs, yet a frozen struct's field can still
be written through its descriptor (``type(s).__dict__[f].__set__(s, v)``), and a game's
observation may hold the state's own structs (a set-up, a car) or its actions may be
cached and shared across matches. So the runner hands each bot a structural copy, made by
a MessagePack round trip (every struct inside is a new object; ints, strings and tuples
of them are immutable anyway), and maps the bot's answer back to the engine's own action
by its position in the list. A bot that rewrites the action it returns changes only its
copy, and the answer is then an illegal action of that seat (the engine plays only what
it offered).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from racedeck.core.model import NOT_OBSERVED, Action, Observation

_encoder = msgspec.msgpack.Encoder()
_decoders: dict[Any, msgspec.msgpack.Decoder[Any]] = {}


def _decoder(kind: Any) -> msgspec.msgpack.Decoder[Any]:
    decoder = _decoders.get(kind)
    if decoder is None:
        decoder = _decoders[kind] = msgspec.msgpack.Decoder(kind)
    return decoder


def copy_value(value: Any) -> Any:
    """Return a structural copy of a msgspec struct (or ``value`` itself if it holds none)."""
    if value is NOT_OBSERVED or value is None:
        return value
    kind = type(value)
    return _decoder(kind).decode(_encoder.encode(value))


def copy_legal(legal: Sequence[Action], action_type: Any) -> tuple[Action, ...]:
    """Return a copy of the legal actions, each a new object equal to the engine's."""
    if not legal:
        return ()
    copied: tuple[Action, ...] = _decoder(tuple[action_type, ...]).decode(_encoder.encode(legal))
    return copied


def copy_observation(observation: Observation) -> Observation:
    """Return the bot's own copy of an observation."""
    copied: Observation = copy_value(observation)
    return copied


def engine_action(
    handed: tuple[Action, ...], legal: tuple[Action, ...], answer: object
) -> Action | None:
    """Return the engine's action at the place of ``answer`` in ``handed``, or None.

    Only the very object handed counts here; an answer equal to an offer but not one of
    the copies is found by the runner's own comparison against the engine's list.
    """
    for index, copy in enumerate(handed):
        if copy is answer:
            original = legal[index]
            # A copy written through a descriptor no longer equals what was offered.
            return original if copy == original else None
    return None
