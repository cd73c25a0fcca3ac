"""Forking a match: continue it from event N with other bots or another seed.

A fork's log stands on its own. Its header names its own bots and seed and records where
it branched off (``fork``: the parent log's hash at event N, and N); its first N+1 events
are the parent's, copied; the rest is played by ``run_match`` from the state after event
N. The engine's chance is keyed by the event count, so a fork with the parent's seed and
bots that draw nothing of their own replays the parent exactly.

``verify_fork`` re-runs a fork the same way: the copied prefix is taken as recorded, and
everything after it must come out of the header's bots and seed byte for byte.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from msgspec.structs import replace

from racedeck.core.bot import BotSpec
from racedeck.core.errors import LogError, RacedeckError, UsageError, VerificationError
from racedeck.core.game import AnyGame
from racedeck.core.log import ForkOrigin, Header, LogReader, LogWriter
from racedeck.core.model import Options
from racedeck.core.replay import Replay, first_difference, open_game, replay_log, rerun_seats
from racedeck.core.resume import split_decision, watched
from racedeck.core.runner import MatchOutcome, make_header, run_match
from racedeck.plugins import Registry


@dataclass
class ForkOutcome:
    """A written fork: its header, the finished match and where the log is."""

    header: Header
    outcome: MatchOutcome
    path: Path


def copy_prefix(
    reader: LogReader,
    game: AnyGame,
    options: Options,
    at: int,
    writer: LogWriter | None,
    events: list[Any] | None = None,
) -> tuple[Any, str]:
    """Fold events 0 to ``at`` of a log and return the state after ``at`` and the hash there.

    With a ``writer``, the events and the faults among them are copied to it as read; with
    an ``events`` list, the decoded events are appended to it.
    """
    state = game.initial_state(options, reader.header.players)
    decode, evolve = game.event_decoder.decode, game.evolve
    for entry in reader:
        if entry.fault is not None:
            if writer is not None:
                writer.fault(entry.fault)
            continue
        if entry.debug is not None:
            if writer is not None:
                writer.debug(entry.debug)
            continue
        assert entry.event is not None
        event = decode(entry.event)
        state = evolve(state, event)
        if events is not None:
            events.append(event)
        if writer is not None:
            writer.event(entry.event)
        if entry.seq == at:
            return state, reader.last_hash
    raise LogError(
        reader.path, 0, f"event {at} does not exist: the log has {reader.events_read} events"
    )


def resolve_seats(registry: Registry, header: Header, bots: Sequence[str] | None) -> list[BotSpec]:
    """Return the bots for a fork: the ones named, one per seat, or the parent's."""
    names = list(bots) if bots else [seat.bot for seat in header.seats]
    if len(names) != header.players:
        raise UsageError(
            f"the match has {header.players} seats; --seat was given {len(names)} times"
        )
    return [registry.bot(name, header.game) for name in names]


def fork_log(
    registry: Registry,
    parent: str | Path,
    at: int,
    out: str | Path,
    *,
    bots: Sequence[str] | None = None,
    seed: int | None = None,
) -> ForkOutcome:
    """Write a fork of ``parent`` from event ``at`` to ``out`` and return how it went.

    The log is written under a temporary name and renamed once the match has ended, so
    a file under ``out`` is always complete.
    """
    if at < 0:
        raise UsageError(f"--at must be 0 or more, got {at}")
    prefix: list[Any] = []
    with LogReader(parent) as reader:
        game, options = open_game(registry, reader.header, str(parent))
        _, parent_hash = copy_prefix(reader, game, options, at, None, prefix)
        parent_header = reader.header
    start = split_decision(game, options, parent_header.players, parent_header.seed, prefix)
    if start is not None:
        earlier = f"at event {start - 1} or " if start else ""
        raise UsageError(
            f"event {at} is inside one decision's events (it began at event {start}); "
            f"fork {earlier}where that decision ends"
        )
    seats = resolve_seats(registry, parent_header, bots)
    new_seed = parent_header.seed if seed is None else seed
    header = replace(
        make_header(
            game, options, parent_header.players, new_seed, seats, parent_header.fault_policy
        ),
        fork=ForkOrigin(parent_hash=parent_hash, at=at),
    )
    target = Path(out)
    partial = target.with_name(target.name + ".partial")
    try:
        handle = open(partial, "wb")  # noqa: SIM115 - closed below, also on failure
    except OSError as exc:
        raise RacedeckError(f"cannot write the fork {target}: {exc.strerror}") from None
    try:
        outcome = _continue(parent, header, game, options, seats, handle)
    except BaseException:
        handle.close()
        partial.unlink(missing_ok=True)
        raise
    handle.close()
    os.replace(partial, target)
    return ForkOutcome(header, outcome, target)


def _continue(
    parent: str | Path,
    header: Header,
    game: AnyGame,
    options: Options,
    seats: list[BotSpec],
    handle: IO[bytes],
) -> MatchOutcome:
    """Write ``header`` and the parent's prefix to ``handle``, then play the match on."""
    assert header.fork is not None
    writer = LogWriter(handle)
    writer.header(header)
    prefix: list[Any] = []
    with LogReader(parent) as reader:
        state, _ = copy_prefix(reader, game, options, header.fork.at, writer, prefix)
    seats = watched(game, options, header.players, seats, header.seed, prefix)
    return run_match(
        game,
        options,
        seats,
        header.seed,
        writer=writer,
        fault_policy=header.fault_policy,
        start_state=state,
        start_events=header.fork.at + 1,
    )


def rerun_fork(registry: Registry, path: str | Path) -> bytes:
    """Return the bytes a fork's log should hold: its own header and prefix, then a re-run.

    This is what ``verify_fork`` compares the log with, line by line.
    """
    with LogReader(path) as reader:
        header = reader.header
        if header.fork is None:
            raise UsageError(f"{path} is not a fork; check it with racedeck replay --verify")
        game, options = open_game(registry, header, str(path))
        seats = rerun_seats(registry, header, path)
        buffer = io.BytesIO()
        writer = LogWriter(buffer)
        writer.header(header)
        prefix: list[Any] = []
        state, _ = copy_prefix(reader, game, options, header.fork.at, writer, prefix)
    seats = watched(game, options, header.players, seats, header.seed, prefix)
    run_match(
        game,
        options,
        seats,
        header.seed,
        writer=writer,
        fault_policy=header.fault_policy,
        start_state=state,
        start_events=header.fork.at + 1,
    )
    return buffer.getvalue()


def verify_fork(registry: Registry, path: str | Path, parent: str | Path | None = None) -> Replay:
    """Replay a fork, re-run it from its fork point and compare every line.

    With ``parent``, also check that the fork really branched off that log: the parent's
    hash at the fork point and the copied events must match. Raises ``LogError`` for a bad
    log and ``VerificationError`` naming the first line that differs.
    """
    replay = replay_log(registry, path)
    if replay.error is not None:
        raise replay.error
    rerun = rerun_fork(registry, path)

    def report(line: int, logged: bytes, again: bytes) -> None:
        raise VerificationError(
            f"{path}:{line}: re-running the fork differs: log has {_clip(logged)}, "
            f"re-run gives {_clip(again)}"
        )

    first_difference(Path(path), rerun, on_difference=report)
    if parent is not None:
        check_parent(path, parent)
    return replay


def check_parent(path: str | Path, parent: str | Path) -> None:
    """Raise ``VerificationError`` unless ``path`` is a fork of ``parent``."""
    with LogReader(path) as reader:
        fork = reader.header.fork
        if fork is None:
            raise UsageError(f"{path} is not a fork")
        mine, _ = _prefix_events(reader, fork.at)
    with LogReader(parent) as reader:
        theirs, parent_hash = _prefix_events(reader, fork.at)
    if len(theirs) != fork.at + 1 or parent_hash != fork.parent_hash:
        raise VerificationError(
            f"{path}: forked at event {fork.at} of a log with hash {fork.parent_hash}, "
            f"but {parent} has hash {parent_hash} there"
        )
    for seq, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if a != b:
            raise VerificationError(f"{path}: event {seq} is not the parent's event {seq}")


def _prefix_events(reader: LogReader, at: int) -> tuple[list[bytes], str]:
    events: list[bytes] = []
    for entry in reader:
        if entry.event is not None:
            events.append(entry.event)
            if entry.seq == at:
                break
    return events, reader.last_hash


def _clip(raw: bytes, width: int = 160) -> str:
    text = raw.decode(errors="replace") or "(nothing)"
    return text if len(text) <= width else text[: width - 3] + "..."
