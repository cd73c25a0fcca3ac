"""Wacky Races: random-bot 6-racer races a second, decisions a second, with and without logs,
heuristic-bot races a second, and replay events a second."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns

_runs = GameRuns("wacky-races", {}, players=6, matches=200)
HEURISTIC_MATCHES = 50
"""Heuristic self-play races a batch: each decision also builds an observation and plans."""


def _heuristic_races() -> int:
    """Play 6-racer races between heuristic bots, without logs; return how many."""
    from racedeck.core.runner import run_match

    heuristic = _runs.registry.bot("heuristic", "wacky-races")
    for seed in range(HEURISTIC_MATCHES):
        run_match(_runs.game, _runs.options, [heuristic] * _runs.players, seed)
    return HEURISTIC_MATCHES


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("wacky-races: 6-racer races, random bots, no logs", "races", _runs.matches, 1000),
        Benchmark("wacky-races: decisions, random bots, no logs", "decisions", _runs.decisions),
        Benchmark(
            "wacky-races: 6-racer races, random bots, writing logs",
            "races",
            _runs.matches_with_logs,
        ),
        Benchmark("wacky-races: 6-racer races, heuristic bots, no logs", "races", _heuristic_races),
        Benchmark(
            "wacky-races: replay (hash check + fold)",
            "events",
            lambda: _runs.replay({}, logs=20),
        ),
    ]
