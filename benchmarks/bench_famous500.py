"""Famous 500: random-bot races a second (without and with logs), decisions a second, and
replay events a second."""

from __future__ import annotations

import io
import os
import tempfile

from benchmarks.harness import Benchmark, DecisionCounter
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

RACES = 1000

_registry = load_registry(entry_points=False)
_game = _registry.game("famous-500")
_options = _game.parse_options({})
_random = _registry.bot("random", "famous-500")


def races_without_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random, _random], seed)
    return RACES


def decisions_without_logs() -> int:
    counter = DecisionCounter()
    spec = counter.spec
    for seed in range(RACES):
        run_match(_game, _options, [spec, spec], seed)
    return counter.decisions


def races_with_logs() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(RACES // 4):
            with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                run_match(_game, _options, [_random, _random], seed, writer=LogWriter(handle))
    return RACES // 4


_REPLAY_LOGS: list[bytes] = []


def replay_events() -> int:
    if not _REPLAY_LOGS:
        for seed in range(50):
            buffer = io.BytesIO()
            run_match(_game, _options, [_random, _random], seed, writer=LogWriter(buffer))
            _REPLAY_LOGS.append(buffer.getvalue())
    events = 0
    for log in _REPLAY_LOGS:
        replay = replay_log(_registry, "bench.jsonl", stream=io.BytesIO(log))
        assert replay.complete
        events += replay.events
    return events


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("famous-500: races, random bots, no logs", "races", races_without_logs, 3000),
        Benchmark(
            "famous-500: decisions, random bots, no logs", "decisions", decisions_without_logs
        ),
        Benchmark("famous-500: races, random bots, writing logs", "races", races_with_logs),
        Benchmark("famous-500: replay (hash check + fold)", "events", replay_events),
    ]
