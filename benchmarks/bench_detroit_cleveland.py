"""Detroit-Cleveland: random-bot 6-player races a second (auction included), with and
without logs, decisions a second, the legal-destination search, and replay events a second."""

from __future__ import annotations

import io
import os
import tempfile

from benchmarks.harness import Benchmark, DecisionCounter
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.games.detroit_cleveland.movement import reach
from racedeck.games.detroit_cleveland.track import builtin_track
from racedeck.plugins import load_registry

RACES = 100

_registry = load_registry(entry_points=False)
_game = _registry.game("detroit-cleveland")
_options = _game.parse_options({"races": 1})
_random = _registry.bot("random", "detroit-cleveland")


def races_without_logs() -> int:
    for seed in range(RACES):
        run_match(_game, _options, [_random] * 6, seed)
    return RACES


def cleveland_races_without_logs() -> int:
    options = _game.parse_options({"races": 1, "track": "cleveland"})
    for seed in range(RACES):
        run_match(_game, options, [_random] * 6, seed)
    return RACES


def decisions_without_logs() -> int:
    counter = DecisionCounter()
    spec = counter.spec
    for seed in range(RACES):
        run_match(_game, _options, [spec] * 6, seed)
    return counter.decisions


def races_with_logs() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(RACES):
            with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                run_match(_game, _options, [_random] * 6, seed, writer=LogWriter(handle))
    return RACES


def searches() -> int:
    track = builtin_track("detroit")
    count = 0
    for start in range(0, len(track.ids), 3):
        positions = (start, (start + 7) % len(track.ids), -2, -2, -2, -2)
        for steps in (1, 2, 4, 5, 6, 10):
            reach(track.successors, positions, 0, steps)
            count += 1
    return count


_REPLAY_LOG = None


def replay_events() -> int:
    global _REPLAY_LOG
    if _REPLAY_LOG is None:
        buffer = io.BytesIO()
        options = _game.parse_options({"races": 30})
        run_match(_game, options, [_random] * 6, 1, writer=LogWriter(buffer))
        _REPLAY_LOG = buffer.getvalue()
    replay = replay_log(_registry, "bench.jsonl", stream=io.BytesIO(_REPLAY_LOG))
    assert replay.complete
    return replay.events


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark(
            "detroit-cleveland: 6-player races with auction, random, no logs",
            "races",
            races_without_logs,
            200,
        ),
        Benchmark(
            "detroit-cleveland: same on Cleveland", "races", cleveland_races_without_logs, 200
        ),
        Benchmark(
            "detroit-cleveland: decisions, random bots, no logs",
            "decisions",
            decisions_without_logs,
        ),
        Benchmark("detroit-cleveland: 6-player races, writing logs", "races", races_with_logs),
        Benchmark("detroit-cleveland: legal-destination searches", "searches", searches),
        Benchmark("detroit-cleveland: replay (hash check + fold)", "events", replay_events),
    ]
