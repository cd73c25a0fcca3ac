"""JSON Schemas, generated with msgspec from the types the code reads and writes.

Named ``output-KIND`` (every ``--json`` output, ``racedeck.cli.contract``), ``log-header``,
``log-event-GAME``, ``log-fault``, ``log-debug``, ``log-result`` (the lines of a match log),
``observation-GAME``, ``action-GAME`` and ``protocol-MESSAGE`` (the subprocess protocol,
``docs/protocol.md``). ``docs/schemas/NAME.json`` holds each; a test checks the files
match the code, and ``racedeck schema --write docs/schemas`` rewrites them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from racedeck.cli.contract import OUTPUTS
from racedeck.core.errors import UsageError
from racedeck.core.log import DebugNote, Fault, Header, ResultLine
from racedeck.core.model import Result
from racedeck.plugins import Registry

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema: msgspec writes 2020-12 (``$defs``)."""

ID_PREFIX = "urn:racedeck:schema:"
"""Each schema's ``$id`` is this and its file name: ``urn:racedeck:schema:output-gate.json``."""


class EventLine(msgspec.Struct, kw_only=True):
    """A log line holding one event, chained to the line before by its hash."""

    kind: str
    seq: int
    hash: str
    event: Any


class FaultLine(msgspec.Struct, kw_only=True):
    """A log line recording a bot's fault."""

    kind: str
    fault: Fault


class DebugLine(msgspec.Struct, kw_only=True):
    """A log line holding a bot's debug note."""

    kind: str
    debug: DebugNote


class ProtocolMessage(msgspec.Struct, kw_only=True, tag_field="type"):
    """A message of the subprocess protocol (``docs/protocol.md``)."""


class Start(ProtocolMessage, tag="start"):
    """Engine to program: a match starts; answer ``ready``."""

    protocol: int
    game: str
    seat: int
    players: int
    options: dict[str, Any]
    time_limit: float


class Ready(ProtocolMessage, tag="ready"):
    """Program to engine: ready to play (protocol 2: also its name and version)."""

    protocol: int = 1
    name: str | None = None
    version: str | None = None
    debug: str | None = None


class Act(ProtocolMessage, tag="act"):
    """Engine to program: choose one of ``legal`` (by index, or in full)."""

    decision: int
    seed: int
    """A seed for the program's own choices, below 2^53 so that every JSON reader keeps it."""
    observation: Any
    legal: list[Any]
    stream: Any = None
    """racedeck's own host only, at decision 0: the seat's generator state."""


class Answer(msgspec.Struct, kw_only=True):
    """Program to engine: the chosen action, by index in ``legal`` or in full.

    Protocol 2: ``decision`` echoes the decision answered; ``fault`` gives it up, saying why.
    """

    decision: int | None = None
    choice: int | None = None
    action: Any = None
    fault: str | None = None
    debug: str | None = None


class End(ProtocolMessage, tag="end"):
    """Engine to program: the match is over."""

    result: Result


def _fixed() -> dict[str, Any]:
    types: dict[str, Any] = {f"output-{kind}": cls for kind, cls in OUTPUTS.items()}
    types.update(
        {
            "log-header": Header,
            "log-fault": FaultLine,
            "log-debug": DebugLine,
            "log-result": ResultLine,
            "protocol-start": Start,
            "protocol-ready": Ready,
            "protocol-act": Act,
            "protocol-answer": Answer,
            "protocol-end": End,
        }
    )
    return types


def _per_game(registry: Registry) -> dict[str, Any]:
    types: dict[str, Any] = {}
    for name, game in sorted(registry.games.items()):
        types[f"log-event-{name}"] = _event_line(name, game.event_type)
        types[f"observation-{name}"] = game.observation_type
        types[f"action-{name}"] = game.action_type
    return types


def _event_line(game: str, event_type: Any) -> Any:
    """Return the type of an event line whose event is of ``event_type``."""
    title = "".join(part.title() for part in game.replace("_", "-").split("-"))
    return msgspec.defstruct(
        f"{title}EventLine",
        [("kind", str), ("seq", int), ("hash", str), ("event", event_type)],
        kw_only=True,
    )


def schema_types(registry: Registry) -> dict[str, Any]:
    """Return every schema's type by name: the fixed ones, then each game's."""
    return {**_fixed(), **_per_game(registry)}


def schema_json(registry: Registry, name: str) -> bytes:
    """Return the JSON Schema called ``name``, formatted, ending in a newline."""
    types = schema_types(registry)
    if name not in types:
        raise UsageError(f"no schema {name!r}; the schemas: {', '.join(sorted(types))}")
    schema = {
        "$schema": DIALECT,
        "$id": f"{ID_PREFIX}{name}.json",
        **msgspec.json.schema(types[name]),
    }
    return msgspec.json.format(msgspec.json.encode(schema), indent=2) + b"\n"


def write_schemas(registry: Registry, folder: Path, write: Callable[[Path, bytes], Any]) -> int:
    """Write every schema into ``folder`` as ``NAME.json``; return how many."""
    names = sorted(schema_types(registry))
    for name in names:
        write(folder / f"{name}.json", schema_json(registry, name))
    return len(names)
