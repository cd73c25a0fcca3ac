"""Famous 500: random-bot races a second (without and with logs), decisions a second, and
replay events a second."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns

_runs = GameRuns("famous-500", {}, players=2, matches=1000)


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("famous-500: races, random bots, no logs", "races", _runs.matches, 8000),
        Benchmark("famous-500: decisions, random bots, no logs", "decisions", _runs.decisions),
        Benchmark("famous-500: races, random bots, writing logs", "races", _runs.matches_with_logs),
        Benchmark(
            "famous-500: replay (hash check + fold)",
            "events",
            lambda: _runs.replay({}, logs=50),
        ),
    ]
