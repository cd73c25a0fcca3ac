"""Famous 500: random-bot races a second (without and with logs), decisions a second,
replay events a second, and the runner's own cost of a match (a game that ends at once)."""

from __future__ import annotations

from benchmarks.harness import Benchmark, GameRuns

_runs = GameRuns("famous-500", {}, players=2, matches=1000)


def _ended_matches(count: int = 2000) -> int:
    """Play ``count`` matches of a Famous 500 that is over before it starts; return how many.

    What is left is what the runner does for every match whatever the game: making the
    bots, their hooks and streams, the initial state, the result and the outcome.
    """
    from racedeck.core.model import MATCH_OVER, Result, Step
    from racedeck.core.runner import run_match
    from racedeck.games.famous500.rules import Famous500
    from racedeck.games.famous500.state import Famous500State

    tie = Result(ranks=(1, 1), scores=(0, 0), unit="speed points", summary=())

    class Ended(Famous500):
        """Famous 500 with no race in it."""

        def next_step(self, state: Famous500State) -> Step:
            return MATCH_OVER

        def result(self, state: Famous500State) -> Result:
            return tie

    game = Ended()
    seats = [_runs.random] * 2
    for seed in range(count):
        run_match(game, _runs.options, seats, seed)
    return count


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
        Benchmark("famous-500: matches of a game over at once (runner)", "matches", _ended_matches),
    ]
