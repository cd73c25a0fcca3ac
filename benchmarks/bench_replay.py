"""Verifying logs: ``replay --verify`` events a second, and its time against playing.

``replay --verify`` reads a log of decisions straight: each recorded action resolved once,
its events compared, each engine draw made again from the seed; no bot runs. Per game, its
rate is set beside the hash-and-fold floor (``replay_floor``: decode, chain, fold, nothing
checked) timed in the same run, and beside ``replay --verify`` of the last revision before
log format 3 (``BEFORE_FORMAT_3``), which it must beat three times over: each engine, today's
and that revision's, verifies its own logs of the same matches in a process of its own
that has played nothing (``benchmarks.baseline``). For a match between ISMCTS
bots, verifying must take less than a tenth of the time playing it took.
"""

from __future__ import annotations

import io
from pathlib import Path
from tempfile import TemporaryDirectory

from benchmarks import replay_floor
from benchmarks.baseline import Engine
from benchmarks.harness import Benchmark, GameRuns, Ratio
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log

_GAMES = (
    GameRuns("lacorsa", {"races": 1}, players=6, matches=1),
    GameRuns("detroit-cleveland", {"races": 1}, players=4, matches=1),
    GameRuns("wacky-races", {"races": 1}, players=4, matches=1),
)
BEFORE_FORMAT_3 = "d1d5eae"
"""The last revision whose logs held events but not the decisions behind them."""
_TODAY, _BEFORE = Engine(), Engine(BEFORE_FORMAT_3)
_REPLAYED: dict[str, dict[str, int]] = {
    "lacorsa": {"races": 20},
    "detroit-cleveland": {"races": 3},
    "wacky-races": {"races": 3},
}


_FOLDER = TemporaryDirectory(prefix="racedeck-bench-replay-")
"""Where the logs verified are written, once: a timed run reads them and writes nothing."""


def _log_files(runs: GameRuns, logs: int) -> list[Path]:
    """Return the files of ``logs`` random-bot matches of ``runs``, writing them on first use."""
    name = runs.game.name
    paths = []
    for number, log in enumerate(runs.replay_logs(_REPLAYED[name], logs)):
        path = Path(_FOLDER.name) / f"{name}-{number}.jsonl"
        if not path.exists():
            path.write_bytes(log)
        paths.append(path)
    return paths


def _verify(runs: GameRuns, logs: int = 3) -> int:
    """Verify ``logs`` random-bot matches from files (no bot run); count their events."""
    return sum(verify_log(runs.registry, path).replay.events for path in _log_files(runs, logs))


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
    if _TODAY.available() and _BEFORE.available():
        for runs in _GAMES:
            table = (runs.game.name, runs.players, _REPLAYED[runs.game.name]["races"], 3)
            found.append(
                Ratio(
                    f"{table[0]}: replay --verify / at {BEFORE_FORMAT_3}",
                    Benchmark("today", "events", lambda table=table: _TODAY.verify(*table)),
                    Benchmark(
                        BEFORE_FORMAT_3, "events", lambda table=table: _BEFORE.verify(*table)
                    ),
                    3.0,
                )
            )
    else:
        print(f"replay --verify against {BEFORE_FORMAT_3}: not measured, {_BEFORE.missing}")
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
