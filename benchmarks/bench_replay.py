"""Verifying logs: ``replay --verify`` events a second, and its time against playing.

``replay --verify`` reads a log of decisions straight: each recorded action resolved once,
its events compared, each engine draw made again from the seed; no bot runs. Per game, its
rate is set beside the hash-and-fold floor (``replay_floor``: decode, chain, fold, nothing
checked) timed in the same run. For a match between ISMCTS bots, verifying must take less
than a tenth of the time playing it took.
"""

from __future__ import annotations

import io
from pathlib import Path
from tempfile import TemporaryDirectory

from benchmarks import replay_floor
from benchmarks.harness import Benchmark, GameRuns, Ratio
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log

_GAMES = (
    GameRuns("lacorsa", {"races": 1}, players=6, matches=1),
    GameRuns("detroit-cleveland", {"races": 1}, players=4, matches=1),
    GameRuns("wacky-races", {"races": 1}, players=4, matches=1),
)
_REPLAYED: dict[str, dict[str, int]] = {
    "lacorsa": {"races": 20},
    "detroit-cleveland": {"races": 3},
    "wacky-races": {"races": 3},
}


def _verify(runs: GameRuns, logs: int = 3) -> int:
    """Verify ``logs`` random-bot matches from files (no bot run); count their events."""
    events = 0
    with TemporaryDirectory() as folder:
        for number, log in enumerate(runs.replay_logs(_REPLAYED[runs.game.name], logs)):
            path = Path(folder) / f"{number}.jsonl"
            path.write_bytes(log)
            events += verify_log(runs.registry, path).replay.events
    return events


def _floor(runs: GameRuns, logs: int = 3) -> int:
    options = runs.game.parse_options(_REPLAYED[runs.game.name])
    return sum(
        replay_floor.fold_log(runs.game, log, options, runs.players)[0]
        for log in runs.replay_logs(_REPLAYED[runs.game.name], logs)
    )


class _SearchMatch:
    """A LACORSA match between ISMCTS bots: played, and its log verified, in turn."""

    def __init__(self) -> None:
        runs = _GAMES[0]
        self.registry = runs.registry
        self.game = runs.game
        self.seats = [self.registry.bot("ismcts:simulations=50", "lacorsa")] * 4
        self.log = b""

    def play(self) -> int:
        """Play the match, keeping its log; one match."""
        buffer = io.BytesIO()
        options = self.game.parse_options({"races": 1})
        run_match(self.game, options, self.seats, 7, writer=LogWriter(buffer))
        self.log = buffer.getvalue()
        return 1

    def verify(self) -> int:
        """Verify the match's log from a file, running no bot; one match."""
        with TemporaryDirectory() as folder:
            path = Path(folder) / "search.jsonl"
            path.write_bytes(self.log)
            verify_log(self.registry, path)
        return 1


def benchmarks() -> list[Benchmark | Ratio]:
    found: list[Benchmark | Ratio] = []
    for runs in _GAMES:
        name = runs.game.name
        found.append(
            Ratio(
                f"{name}: replay --verify / hash-and-fold floor",
                Benchmark("verify", "events", lambda runs=runs: _verify(runs)),
                Benchmark("floor", "events", lambda runs=runs: _floor(runs)),
            )
        )
    search = _SearchMatch()
    # Matches a second verifying against matches a second playing: verifying must take
    # under a tenth of the time playing took, a ratio of 10 or more.
    found.append(
        Ratio(
            "lacorsa: ISMCTS match, verify / play",
            Benchmark("verify", "matches", search.verify),
            Benchmark("play", "matches", search.play),
            10.0,
        )
    )
    return found
