"""LACORSA: random-bot 6-car races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

from benchmarks import lacorsa_reference
from benchmarks.harness import Benchmark, GameRuns, Ratio

_runs = GameRuns("lacorsa", {"races": 1}, players=6, matches=200)


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
            "lacorsa: replay (hash check + fold)",
            "events",
            lambda: _runs.replay({"races": 100}),
            600_000,
        ),
    ]
