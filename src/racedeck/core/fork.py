"""Forking a match: continue it from event N with other bots or another seed.

A fork's log stands on its own. Its header names its own bots and seed and records where
it branched off (``fork``: the parent log's hash at event N, and N); its first N+1 events
are the parent's, copied; the rest is played by ``run_match`` from the state after event
N. The engine's chance is keyed by the event count, so a fork with the parent's seed and
bots that draw nothing of their own replays the parent exactly.

Writing the prefix and playing on is ``racedeck.core.replay.write_match``, the same code
that re-runs a fork to verify it: ``verify_fork`` re-runs it from its fork point, and
everything after it must come out of the header's bots and seed byte for byte; the
copied prefix is verified only against its parent log, when that is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from msgspec.structs import replace

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import UsageError
from racedeck.core.files import atomic_write
from racedeck.core.forcing import parse_play
from racedeck.core.log import ForkOrigin, Header, LogReader, LogWriter
from racedeck.core.replay import copy_prefix, open_game, replay_log, write_match
from racedeck.core.runner import MatchOutcome, make_header
from racedeck.core.verify import Verification, verify_log


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
    plays: Sequence[str] = (),
) -> ForkOutcome:
    """Write a fork of ``parent`` from event ``at`` to ``out`` and return how it went.

    ``plays`` force seats' actions at the fork point (``SEAT=ACTION``, the action in the
    game's words or as JSON: ``racedeck.core.forcing``); the header records them.

    The log is written under a temporary name and renamed once the match has ended, so
    a file under ``out`` is always complete.
    """
    if at < 0:
        raise UsageError(f"--at must be 0 or more, got {at}")
    if _same_file(Path(parent), Path(out)):
        raise UsageError(f"the fork would overwrite its parent {parent}: give another --log")
    # The whole parent must hold together, its result included, before any of it is copied.
    parent_replay = replay_log(catalogue, parent)
    if parent_replay.error is not None:
        raise parent_replay.error
    if at >= parent_replay.events:
        # The log is fine: the value asked for is not (a usage error, not a bad log's).
        raise UsageError(f"--at {at}: {parent} has events 0 to {parent_replay.events - 1}")
    with LogReader(parent) as reader:
        game, options = open_game(catalogue, reader.header, str(parent))
        # Refuses a fork point inside a decision's events, naming where it began.
        state, parent_hash, _ = copy_prefix(reader, game, options, at, None)
        parent_header = reader.header
    forced = tuple(parse_play(game, state, given) for given in plays)
    seats = resolve_seats(catalogue, parent_header, bots)
    new_seed = parent_header.seed if seed is None else seed
    header = replace(
        make_header(
            game, options, parent_header.players, new_seed, seats, parent_header.fault_policy
        ),
        fork=ForkOrigin(parent_hash=parent_hash, at=at, play=forced),
    )
    target = Path(out)
    with atomic_write(target, f"the fork {target}") as handle, LogReader(parent) as source:
        outcome = write_match(game, options, header, seats, LogWriter(handle), source)
    return ForkOutcome(header, outcome, target)


def verify_fork(
    catalogue: Catalogue, path: str | Path, parent: str | Path | None = None
) -> Verification:
    """Check a fork, re-run it from its fork point and compare every line.

    With ``parent``, also check the parent log and that the fork really branched off it
    (the parent's hash at the fork point and the copied events); without it the copied
    prefix is not verified, and the returned ``Verification`` says so. Raises
    ``LogError`` for a bad log and ``VerificationError`` naming the first line that differs.
    """
    with LogReader(path) as reader:
        if reader.header.fork is None:
            raise UsageError(f"{path} is not a fork; check it with racedeck replay --verify")
    return verify_log(catalogue, path, rerun=True, parent=parent)


def _same_file(a: Path, b: Path) -> bool:
    """Return whether two paths name the same file (by device and inode, links followed)."""
    try:
        first, second = a.stat(), b.stat()
    except OSError:
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)
