"""Forking a match: continue it from event N with other bots or another seed.

A fork's log stands on its own. Its header names its own bots and seed and records where
it branched off (``fork``: the parent log's hash at event N, and N); its first N+1 events
are the parent's, copied; the rest is played by ``run_match`` from the state after event
N. The engine's chance is keyed by the event count, so a fork with the parent's seed and
bots that draw nothing of their own replays the parent exactly.

Writing the prefix and playing on is ``racedeck.core.replay.write_match``, the same code
that re-runs a fork to verify it: ``verify_fork`` takes the copied prefix as recorded,
and everything after it must come out of the header's bots and seed byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import UsageError, VerificationError
from racedeck.core.files import atomic_write
from racedeck.core.log import ForkOrigin, Header, LogReader, LogWriter
from racedeck.core.replay import (
    Replay,
    clip,
    copy_prefix,
    first_difference,
    open_game,
    replay_log,
    rerun,
    write_match,
)
from racedeck.core.resume import split_decision
from racedeck.core.runner import MatchOutcome, make_header


@dataclass
class ForkOutcome:
    """A written fork: its header, the finished match and where the log is."""

    header: Header
    outcome: MatchOutcome
    path: Path


def resolve_seats(
    catalogue: Catalogue, header: Header, bots: Sequence[str] | None
) -> list[BotSpec]:
    """Return the bots for a fork: the ones named, one per seat, or the parent's."""
    names = list(bots) if bots else [seat.bot for seat in header.seats]
    if len(names) != header.players:
        raise UsageError(
            f"the match has {header.players} seats; --seat was given {len(names)} times"
        )
    return [catalogue.bot(name, header.game) for name in names]


def fork_log(
    catalogue: Catalogue,
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
    # The whole parent must hold together, its result included, before any of it is copied.
    parent_replay = replay_log(catalogue, parent)
    if parent_replay.error is not None:
        raise parent_replay.error
    prefix: list[Any] = []
    with LogReader(parent) as reader:
        game, options = open_game(catalogue, reader.header, str(parent))
        _, parent_hash = copy_prefix(reader, game, options, at, None, prefix)
        parent_header = reader.header
    start = split_decision(game, options, parent_header.players, parent_header.seed, prefix)
    if start is not None:
        earlier = f"at event {start - 1} or " if start else ""
        raise UsageError(
            f"event {at} is inside one decision's events (it began at event {start}); "
            f"fork {earlier}where that decision ends"
        )
    seats = resolve_seats(catalogue, parent_header, bots)
    new_seed = parent_header.seed if seed is None else seed
    header = replace(
        make_header(
            game, options, parent_header.players, new_seed, seats, parent_header.fault_policy
        ),
        fork=ForkOrigin(parent_hash=parent_hash, at=at),
    )
    target = Path(out)
    with atomic_write(target, f"the fork {target}") as handle, LogReader(parent) as source:
        outcome = write_match(game, options, header, seats, LogWriter(handle), source)
    return ForkOutcome(header, outcome, target)


def verify_fork(catalogue: Catalogue, path: str | Path, parent: str | Path | None = None) -> Replay:
    """Replay a fork, re-run it from its fork point and compare every line.

    With ``parent``, also check that the fork really branched off that log: the parent's
    hash at the fork point and the copied events must match. Raises ``LogError`` for a bad
    log and ``VerificationError`` naming the first line that differs.
    """
    replay = replay_log(catalogue, path)
    if replay.error is not None:
        raise replay.error
    if replay.header.fork is None:
        raise UsageError(f"{path} is not a fork; check it with racedeck replay --verify")
    again = rerun(catalogue, replay, path)

    def report(line: int, logged: bytes, rerun: bytes) -> None:
        raise VerificationError(
            f"{path}:{line}: re-running the fork differs: log has {clip(logged)}, "
            f"re-run gives {clip(rerun)}"
        )

    first_difference(Path(path), again, on_difference=report)
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
    """Return the raw bytes of events 0 to ``at`` (fewer if the log ends) and the hash there."""
    events: list[bytes] = []
    for entry in reader:
        if entry.event is not None:
            events.append(entry.event)
            if entry.seq == at:
                break
    return events, reader.last_hash
