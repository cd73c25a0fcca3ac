"""Plays a batch of scheduled matches: the unit of work every executor ships to a worker.

A worker loads the registry the spec names (once per process), checks that the game and
every bot load at the versions the tournament recorded, computes each match from the
schedule and its index, and returns small records. A kept log is compressed and returned
with its record; the worker writes nothing to disk, so it may run on any machine.
"""

from __future__ import annotations

import io
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from racedeck.bots.identify import identified
from racedeck.bots.named import is_program, program_spec
from racedeck.bots.sandbox import Sandbox
from racedeck.bots.sandboxed import sandboxed
from racedeck.core import diagnostics
from racedeck.core.bot import BotSpec
from racedeck.core.errors import PluginError, RacedeckError
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.plugins import Registry, load_registry
from racedeck.tournament.logs import pack_log
from racedeck.tournament.record import ERROR, FORFEIT, OK, MatchRecord, PlayedMatch
from racedeck.tournament.schedule import Schedule, ScheduledMatch
from racedeck.tournament.spec import TournamentSpec

_registries: dict[tuple[str | None, bool], Registry] = {}
_checked: set[tuple[object, ...]] = set()


class VersionMismatch(PluginError):
    """A worker loads the game or a bot at another version than the tournament recorded."""


def registry_for(spec: TournamentSpec) -> Registry:
    """Return the registry the spec's plugins make, loaded once per process."""
    key = (spec.plugins_dir, spec.entry_points)
    if key not in _registries:
        plugins = Path(spec.plugins_dir) if spec.plugins_dir else None
        _registries[key] = load_registry(plugins, entry_points=spec.entry_points)
    return _registries[key]


def loaded_versions(spec: TournamentSpec) -> dict[str, str]:
    """Return the version at which this process loads the spec's game and each of its bots.

    The game is under its own name prefixed ``game:``; a bot that does not load is given
    the reason instead, prefixed ``error:``.
    """
    registry = registry_for(spec)
    game = registry.game(spec.game)
    versions = {f"game:{game.name}": game.rules_version}
    for name in dict.fromkeys(spec.bots):
        try:
            versions[name] = seat_spec(spec, registry, game, name).version
        except RacedeckError as exc:
            versions[name] = f"error:{exc}"
    return versions


def seat_spec(spec: TournamentSpec, registry: Registry, game: Any, name: str) -> BotSpec:
    """Return the bot ``name`` as the tournament plays it.

    Sandboxed when the tournament says so; a program under the name and version it gives
    (``racedeck.bots.identify``).
    """
    if not spec.sandbox_memory:
        return registry.bot(name, game.name)  # a program there says who it is
    # Sandboxed first, then asked: a program is never started outside its sandbox.
    bot = program_spec(name) if is_program(name) else registry.bot(name, game.name)
    bot = sandboxed(
        bot,
        Sandbox(memory=spec.sandbox_memory),
        plugins_dir=Path(spec.plugins_dir) if spec.plugins_dir else None,
        entry_points=spec.entry_points,
    )
    return identified(bot, game)


def with_program_versions(spec: TournamentSpec, registry: Registry) -> TournamentSpec:
    """Return ``spec`` recording each program's own name and version as its bot version."""
    game = registry.game(spec.game)
    versions = dict(spec.bot_versions)
    for name in spec.bots:
        if is_program(name):
            versions[name] = seat_spec(spec, registry, game, name).version
    return msgspec.structs.replace(spec, bot_versions=versions)


def version_problem(spec: TournamentSpec, versions: dict[str, str]) -> str | None:
    """Say what differs between the versions loaded here and those the spec recorded."""
    if spec.rules_version and versions.get(f"game:{spec.game}") != spec.rules_version:
        found = versions.get(f"game:{spec.game}")
        return (
            f"game {spec.game!r} has rules version {found}, the tournament recorded"
            f" {spec.rules_version}"
        )
    for name, recorded in spec.bot_versions.items():
        found = versions.get(name, "error:not registered")
        if found.startswith("error:"):
            return f"bot {name!r} does not load: {found.removeprefix('error:')}"
        if found != recorded:
            return (
                f"bot {name!r} loads at version {found}, the tournament recorded version {recorded}"
            )
    return None


_log = diagnostics.get_logger(component="worker")


def check_versions(spec: TournamentSpec) -> None:
    """Raise ``VersionMismatch`` naming this machine unless it loads what the spec recorded.

    Checked once per process and tournament, before its first match here.
    """
    key = (
        spec.plugins_dir,
        spec.entry_points,
        spec.game,
        spec.rules_version,
        tuple(sorted(spec.bot_versions.items())),
    )
    if key in _checked:
        return
    problem = version_problem(spec, loaded_versions(spec))
    if problem is not None:
        _log.info("version mismatch", host=socket.gethostname(), problem=problem)
        raise VersionMismatch(f"on {socket.gethostname()}: {problem}")
    _checked.add(key)


def run_batch(
    spec: TournamentSpec, indices: Sequence[int], isolate: bool = False
) -> list[PlayedMatch]:
    """Play the matches with these indices and return them, in the same order.

    With ``isolate`` every bot plays in a process of its own: for a match whose worker
    died, so that the bot that takes its process down is found and its seat faulted.
    """
    return list(iter_batch(spec, indices, isolate))


def iter_batch(
    spec: TournamentSpec, indices: Sequence[int], isolate: bool = False
) -> Iterator[PlayedMatch]:
    """Play the matches with these indices, yielding each as soon as it finishes."""
    check_versions(spec)
    registry = registry_for(spec)
    game = registry.game(spec.game)
    options = game.parse_options(spec.options)
    schedule = Schedule(spec)
    for index in indices:
        yield _play(spec, registry, game, options, schedule.match(index), isolate)


class _Sender:
    """The worker's end of a pool's match stream: one pickled match a message."""

    def __init__(self, writer: Any, lock: Any) -> None:
        self._writer = writer
        self._lock = lock

    def send(self, played: PlayedMatch) -> None:
        # Workers share the pipe: a lock keeps each message whole.
        with self._lock:
            self._writer.send(played)


_stream: _Sender | None = None
"""In a local pool's worker process: where each played match is sent as it finishes."""


def attach_stream(writer: Any, lock: Any) -> None:
    """Make this process send each match through ``writer`` (under ``lock``) as it finishes."""
    global _stream
    _stream = _Sender(writer, lock)


def stream_batch(spec: TournamentSpec, indices: Sequence[int]) -> int:
    """Play the matches with these indices, sending each through the stream as it finishes.

    Returns how many were played; the driver has them all once this returns, as each send
    completes before the next match starts.
    """
    if _stream is None:
        raise RuntimeError("stream_batch runs in a worker started with attach_stream")
    for played in iter_batch(spec, indices):
        _stream.send(played)
    return len(indices)


def died_record(spec: TournamentSpec, index: int) -> MatchRecord:
    """Return the record of a match during which its worker process died."""
    planned = Schedule(spec).match(index)
    return MatchRecord(
        index=index,
        seed=planned.seed,
        deal=planned.deal,
        seats=planned.seats,
        status=ERROR,
        reason="the worker process died during this match (a bot took it down)",
    )


def _play(
    spec: TournamentSpec,
    registry: Registry,
    game: Any,
    options: Any,
    planned: ScheduledMatch,
    isolate: bool = False,
) -> PlayedMatch:
    keep = spec.keep_logs != "none"
    buffer = io.BytesIO() if keep else None
    try:
        seats = [seat_spec(spec, registry, game, name) for name in planned.seats]
        outcome = run_match(
            game,
            options,
            seats,
            planned.seed,
            writer=LogWriter(buffer) if buffer is not None else None,
            fault_policy=spec.fault_policy,
            time_limit=spec.time_limit,
            isolate=isolate,
        )
    except Exception as exc:  # the engine's own bug: recorded as an error, reported apart
        record = MatchRecord(
            index=planned.index,
            seed=planned.seed,
            deal=planned.deal,
            seats=planned.seats,
            status=ERROR,
            reason=f"{type(exc).__name__}: {exc}",
        )
    else:
        forfeit = outcome.forfeit
        record = MatchRecord(
            index=planned.index,
            seed=planned.seed,
            deal=planned.deal,
            seats=planned.seats,
            status=FORFEIT if forfeit is not None else OK,
            ranks=outcome.result.ranks,
            scores=outcome.result.scores,
            unit=outcome.result.unit,
            events=outcome.events,
            fault_seat=forfeit.seat if forfeit is not None else -1,
            reason=forfeit.reason if forfeit is not None else "",
            faults=tuple(f"seat {f.seat} ({f.bot}): {f.reason}" for f in outcome.faults),
        )
    if record.faults or record.status != OK:
        # A bot's fault is the bot's, recorded with the match: an event, not a warning.
        _log.info(
            "match faulted",
            match=record.index,
            status=record.status,
            reason=record.reason,
            faults=list(record.faults),
        )
    if buffer is not None and buffer.tell() and (spec.keep_logs == "all" or record.failed):
        return PlayedMatch(record, pack_log(buffer.getvalue()))
    return PlayedMatch(record)
