"""Plays a batch of scheduled matches: the unit of work every executor ships to a worker.

A worker loads the registry the spec names (once per process), computes each match from
the schedule and its index, and returns small records; logs, when kept, are written by the
worker itself under the tournament's log folder.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.files import write_atomically
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.plugins import Registry, load_registry
from racedeck.tournament.record import ERROR, FORFEIT, OK, MatchRecord
from racedeck.tournament.schedule import Schedule, ScheduledMatch
from racedeck.tournament.spec import TournamentSpec

_registries: dict[tuple[str | None, bool], Registry] = {}


def registry_for(spec: TournamentSpec) -> Registry:
    """Return the registry the spec's plugins make, loaded once per process."""
    key = (spec.plugins_dir, spec.entry_points)
    if key not in _registries:
        plugins = Path(spec.plugins_dir) if spec.plugins_dir else None
        _registries[key] = load_registry(plugins, entry_points=spec.entry_points)
    return _registries[key]


def log_path(spec: TournamentSpec, index: int) -> Path:
    """Return where the log of match ``index`` is kept."""
    return Path(spec.log_dir) / f"match-{index:07d}.jsonl"


def run_batch(spec: TournamentSpec, indices: Sequence[int]) -> list[MatchRecord]:
    """Play the matches with these indices and return their records, in the same order."""
    registry = registry_for(spec)
    game = registry.game(spec.game)
    options = game.parse_options(spec.options)
    schedule = Schedule(spec)
    return [_play(spec, registry, game, options, schedule.match(index)) for index in indices]


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
    spec: TournamentSpec, registry: Registry, game: Any, options: Any, planned: ScheduledMatch
) -> MatchRecord:
    keep = spec.keep_logs != "none"
    buffer = io.BytesIO() if keep else None
    try:
        seats = [registry.bot(name, game.name) for name in planned.seats]
        outcome = run_match(
            game,
            options,
            seats,
            planned.seed,
            writer=LogWriter(buffer) if buffer is not None else None,
            fault_policy=spec.fault_policy,
            time_limit=spec.time_limit,
        )
    except Exception as exc:  # a failure to start or play one match must not stop the rest
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
    if buffer is not None and (spec.keep_logs == "all" or record.failed):
        path = log_path(spec, planned.index)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, buffer.getvalue())
        record = msgspec.structs.replace(record, log=str(path))
    return record
