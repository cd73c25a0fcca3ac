"""Detroit-Cleveland: random-bot 6-player races a second (auction included), with and
without logs, decisions a second, the legal-destination search, and replay events a second."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns
from racedeck.games.detroit_cleveland.movement import reach
from racedeck.games.detroit_cleveland.track import builtin_track

_runs = GameRuns("detroit-cleveland", {"races": 1}, players=6, matches=100)


def searches() -> int:
    track = builtin_track("detroit")
    count = 0
    for start in range(0, len(track.ids), 3):
        positions = (start, (start + 7) % len(track.ids), -2, -2, -2, -2)
        for steps in (1, 2, 4, 5, 6, 10):
            reach(track.successors, positions, 0, steps)
            count += 1
    return count


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark(
            "detroit-cleveland: 6-player races with auction, random, no logs",
            "races",
            _runs.matches,
            800,
        ),
        Benchmark(
            "detroit-cleveland: same on Cleveland",
            "races",
            lambda: _runs.matches({"races": 1, "track": "cleveland"}),
            800,
        ),
        Benchmark(
            "detroit-cleveland: decisions, random bots, no logs", "decisions", _runs.decisions
        ),
        Benchmark(
            "detroit-cleveland: 6-player races, writing logs", "races", _runs.matches_with_logs
        ),
        Benchmark("detroit-cleveland: legal-destination searches", "searches", searches),
        Benchmark(
            "detroit-cleveland: replay (hash check + fold)",
            "events",
            lambda: _runs.replay({"races": 30}),
        ),
    ]
