"""LACORSA: random-bot 6-car races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

from benchmarks import lacorsa_reference, replay_floor
from benchmarks.harness import Benchmark, GameRuns, Ratio

_runs = GameRuns("lacorsa", {"races": 1}, players=6, matches=200)
_REPLAYED = {"races": 100}


def _floor() -> int:
    """Fold the replay benchmark's log the plainest way (``replay_floor``); count events."""
    (log,) = _runs.replay_logs(_REPLAYED)
    return replay_floor.fold_log(_runs.game, log, _runs.game.parse_options(_REPLAYED), 6)[0]


def benchmarks() -> list[Benchmark | Ratio]:
    return [
        Ratio(
            "lacorsa: engine / plain loop, 6-car races, random bots",
            Benchmark("engine", "races", _runs.matches),
            Benchmark("plain loop", "races", lambda: lacorsa_reference.races(200)),
            0.5,
        ),
        Benchmark("lacorsa: 6-car races, random bots, no logs", "races", _runs.matches, 1000),
        Benchmark("lacorsa: decisions, random bots, no logs", "decisions", _runs.decisions),
        Benchmark(
            "lacorsa: 6-car races, random bots, writing logs", "races", _runs.matches_with_logs
        ),
        Benchmark(
            "lacorsa: decisions, random bots, writing logs",
            "decisions",
            lambda: _runs.decisions(write_logs=True),
        ),
        Benchmark(
            "lacorsa: replay (hash check, fold, every decision checked)",
            "events",
            lambda: _runs.replay(_REPLAYED),
            600_000,
        ),
        Ratio(
            "lacorsa: replay / hash-and-fold floor (no decision checked)",
            Benchmark("replay", "events", lambda: _runs.replay(_REPLAYED)),
            Benchmark("floor", "events", _floor),
        ),
    ]
