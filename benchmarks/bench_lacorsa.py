"""LACORSA: random-bot 6-car races a second, decisions a second, with and without logs,
and replay events a second."""

from __future__ import annotations

import io
import os
import tempfile

from benchmarks.harness import Benchmark, DecisionCounter
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

RACES = 200

_registry = load_registry(entry_points=False)
_game = _registry.game("lacorsa")
_options = _game.parse_options({"races": 1})
_random = _registry.bot("random", "lacorsa")


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


def decisions_with_logs() -> int:
    counter = DecisionCounter()
    spec = counter.spec
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(RACES):
            with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                run_match(_game, _options, [spec] * 6, seed, writer=LogWriter(handle))
    return counter.decisions


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
