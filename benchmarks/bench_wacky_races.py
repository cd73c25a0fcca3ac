"""Wacky Races: random-bot 6-racer races a second, decisions a second, with and without logs."""

from __future__ import annotations

import io

from benchmarks.harness import Benchmark, DecisionCounter
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

RACES = 200

_registry = load_registry(entry_points=False)
_game = _registry.game("wacky-races")
_options = _game.parse_options({})
_random = _registry.bot("random", "wacky-races")


def races_without_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random] * 6, seed)
    return RACES


def decisions_without_logs() -> int:
    counter = DecisionCounter()
    spec = counter.spec
    for seed in range(RACES):
        run_match(_game, _options, [spec] * 6, seed)
    return counter.decisions


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
