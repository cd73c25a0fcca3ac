"""Wacky Races: random-bot 6-racer races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns

_runs = GameRuns("wacky-races", {}, players=6, matches=200)


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("wacky-races: 6-racer races, random bots, no logs", "races", _runs.matches, 1000),
        Benchmark("wacky-races: decisions, random bots, no logs", "decisions", _runs.decisions),
        Benchmark(
            "wacky-races: 6-racer races, random bots, writing logs",
            "races",
            _runs.matches_with_logs,
        ),
        Benchmark(
            "wacky-races: replay (hash check + fold)",
            "events",
            lambda: _runs.replay({}, logs=20),
        ),
    ]
