"""LACORSA: random-bot 6-car races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns

_runs = GameRuns("lacorsa", {"races": 1}, players=6, matches=200)


def benchmarks() -> list[Benchmark]:
    return [
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
            200_000,
        ),
    ]
