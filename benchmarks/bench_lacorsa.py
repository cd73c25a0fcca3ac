"""LACORSA: random-bot 6-car races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

import io
import os
import tempfile

from benchmarks.harness import Benchmark
from racedeck.core.bot import BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

RACES = 200

_registry = load_registry(entry_points=False)
_game = _registry.game("lacorsa")
_options = _game.parse_options({"races": 1})
_random = _registry.bot("random", "lacorsa")


class _Counting:
    decisions = 0


def _counting_spec() -> BotSpec:
    from racedeck.bots.random_bot import RandomBot

    class CountingRandom(RandomBot):
        def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
            _Counting.decisions += 1
            return super().act(observation, legal, rng)

    return BotSpec(name="random", factory=CountingRandom, description="counting")


def races_without_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random] * 6, seed)
    return RACES


def decisions_without_logs() -> int:
    spec = _counting_spec()
    _Counting.decisions = 0
    for seed in range(RACES):
        run_match(_game, _options, [spec] * 6, seed)
    return _Counting.decisions


def decisions_with_logs() -> int:
    spec = _counting_spec()
    _Counting.decisions = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(RACES):
            with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                run_match(_game, _options, [spec] * 6, seed, writer=LogWriter(handle))
    return _Counting.decisions


def races_with_logs() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(RACES):
            with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                run_match(_game, _options, [_random] * 6, seed, writer=LogWriter(handle))
    return RACES


_REPLAY_LOG = None


def replay_events() -> int:
    global _REPLAY_LOG
    if _REPLAY_LOG is None:
        buffer = io.BytesIO()
        options = _game.parse_options({"races": 100})
        run_match(_game, options, [_random] * 6, 1, writer=LogWriter(buffer))
        _REPLAY_LOG = buffer.getvalue()
    replay = replay_log(_registry, "bench.jsonl", stream=io.BytesIO(_REPLAY_LOG))
    assert replay.complete
    return replay.events


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("lacorsa: 6-car races, random bots, no logs", "races", races_without_logs, 1000),
        Benchmark("lacorsa: decisions, random bots, no logs", "decisions", decisions_without_logs),
        Benchmark("lacorsa: 6-car races, random bots, writing logs", "races", races_with_logs),
        Benchmark(
            "lacorsa: decisions, random bots, writing logs", "decisions", decisions_with_logs
        ),
        Benchmark("lacorsa: replay (hash check + fold)", "events", replay_events, 200_000),
    ]
