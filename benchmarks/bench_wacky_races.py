"""Wacky Races: random-bot 6-racer races a second, decisions a second, with and without logs."""

from __future__ import annotations

import io

from benchmarks.harness import Benchmark
from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

RACES = 200

_registry = load_registry(entry_points=False)
_game = _registry.game("wacky-races")
_options = _game.parse_options({})
_random = _registry.bot("random", "wacky-races")


class _CountingRandom(RandomBot):
    decisions = 0

    def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
        _CountingRandom.decisions += 1
        return super().act(observation, legal, rng)


def races_without_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random] * 6, seed)
    return RACES


def decisions_without_logs() -> int:
    spec = BotSpec(name="random", factory=_CountingRandom, description="counting")
    _CountingRandom.decisions = 0
    for seed in range(RACES):
        run_match(_game, _options, [spec] * 6, seed)
    return _CountingRandom.decisions


def races_with_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random] * 6, seed, writer=LogWriter(io.BytesIO()))
    return RACES


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark(
            "wacky-races: 6-racer races, random bots, no logs", "races", races_without_logs, 500
        ),
        Benchmark(
            "wacky-races: decisions, random bots, no logs", "decisions", decisions_without_logs
        ),
        Benchmark(
            "wacky-races: 6-racer races, random bots, in-memory logs", "races", races_with_logs
        ),
    ]
