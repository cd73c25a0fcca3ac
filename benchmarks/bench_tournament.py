"""Tournaments: matches a second on one and two local workers, and on Ray with two.

The unit is a LACORSA match with ``races=1`` between four seats (heuristic and random),
played through the whole pipeline: schedule, executor, SQLite store. Executors are
started once and reused, so the figures are steady throughput, not start-up time.

Targets: two local workers at least 1.7 times one worker, and Ray on two workers within
15% of local processes on the same work (its rate at least 1/1.15 of theirs). Each
target is derived from the median measured just before it, in the same run.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks.harness import Benchmark
from racedeck.plugins import load_registry
from racedeck.tournament.executors import Executor, LocalExecutor
from racedeck.tournament.plan import plan_tournament
from racedeck.tournament.ray_executor import RayExecutor
from racedeck.tournament.run import play
from racedeck.tournament.store import Store

MATCHES = 3200
SPEEDUP_TARGET = 1.7
RAY_OVERHEAD_LIMIT = 0.15

_registry = load_registry(entry_points=False)
_spec = plan_tournament(
    _registry,
    "lacorsa",
    ["heuristic", "random"],
    matches=MATCHES,
    seed=1,
    players=4,
    options={"races": 1},
    entry_points=False,
)
_executors: dict[str, Executor] = {}
_rates: dict[str, list[float]] = {}


def _executor(kind: str) -> Executor:
    if kind not in _executors:
        _executors[kind] = {
            "one": lambda: LocalExecutor(1),
            "local": lambda: LocalExecutor(2),
            "ray": lambda: RayExecutor(2),
        }[kind]()
    return _executors[kind]


def _tournament(kind: str) -> Callable[[], int]:
    def run() -> int:
        executor = _executor(kind)
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            with Store.create(Path(folder) / "t.sqlite", _spec) as store:
                played = play(store, executor)
            _rates.setdefault(kind, []).append(played / (time.perf_counter() - start))
        return played

    return run


def _median(kind: str) -> float:
    # The first rate is the harness's warm-up run.
    rates = _rates.get(kind, [])[1:] or _rates.get(kind, [0.0])
    return statistics.median(rates)


def benchmarks() -> Iterator[Benchmark]:
    yield Benchmark("tournament: lacorsa races=1, 4 seats, 1 worker", "matches", _tournament("one"))
    yield Benchmark(
        f"tournament: same, 2 local workers (target {SPEEDUP_TARGET}x 1 worker)",
        "matches",
        _tournament("local"),
        SPEEDUP_TARGET * _median("one"),
    )
    yield Benchmark(
        f"tournament: same, Ray with 2 workers (target overhead < {RAY_OVERHEAD_LIMIT:.0%})",
        "matches",
        _tournament("ray"),
        _median("local") / (1 + RAY_OVERHEAD_LIMIT),
    )
    speedup = _median("local") / _median("one")
    overhead = _median("local") / _median("ray") - 1
    print(
        f"tournament: 2 local workers run {speedup:.2f}x 1 worker; Ray's overhead is {overhead:.1%}"
    )
    for executor in _executors.values():
        executor.close()
