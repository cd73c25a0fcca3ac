"""Tournaments: matches a second on one and two local workers, and on Ray with two.

The unit is a LACORSA match with ``races=1`` between four seats (heuristic and random),
played through the whole pipeline: schedule, executor, SQLite store. Executors are
started once and reused, so the figures are steady throughput, not start-up time.

Targets: two local workers at least 1.7 times one worker, and Ray on two workers within
15% of local processes on the same work (its rate at least 1/1.15 of theirs). Each
target is derived from the median measured just before it, in the same run.

The same tournament keeping every log (``--keep-logs all``, gzip: compressed by the
worker, written and synced by the driver) is measured on two local workers too, and what
a kept log costs a match is printed: the time it adds and its size on disk.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec

from benchmarks.harness import Benchmark
from racedeck.plugins import load_registry
from racedeck.tournament.executors import Executor, LocalExecutor
from racedeck.tournament.plan import plan_tournament, with_log_dir
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
_kept = msgspec.structs.replace(_spec, keep_logs="all", log_compression="gzip")
_executors: dict[str, Executor] = {}
_rates: dict[str, list[float]] = {}
_log_bytes: list[float] = []


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
        executor = _executor("local" if kind == "logs" else kind)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "t.sqlite"
            spec = with_log_dir(_kept, path) if kind == "logs" else _spec
            start = time.perf_counter()
            with Store.create(path, spec) as store:
                played = play(store, executor)
            _rates.setdefault(kind, []).append(played / (time.perf_counter() - start))
            if kind == "logs":
                logs = Path(spec.log_dir).iterdir()
                _log_bytes.append(sum(log.stat().st_size for log in logs) / played)
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
    yield Benchmark(
        "tournament: same, 2 local workers, every log kept (gzip)", "matches", _tournament("logs")
    )
    speedup = _median("local") / _median("one")
    overhead = _median("local") / _median("ray") - 1
    print(
        f"tournament: 2 local workers run {speedup:.2f}x 1 worker; Ray's overhead is {overhead:.1%}"
    )
    added = 1 / _median("logs") - 1 / _median("local")
    print(
        f"tournament: a kept log adds {added * 1e3:.3f} ms a match on 2 workers"
        f" ({added / (1 / _median('local')):.0%}) and {statistics.median(_log_bytes) / 1024:.1f}"
        " KiB on disk"
    )
    for executor in _executors.values():
        executor.close()
