"""Ray: quick matches handed back one by one as they end, and what that costs the driver.

``make bench`` reports the matches a second a local two-CPU Ray instance hands back;
``python -m benchmarks.bench_ray_stream`` also prints the driver's processor time a match,
which is what per-match objects cost where a batch used to come back whole.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from benchmarks.harness import Benchmark
from racedeck.plugins import load_registry
from racedeck.tournament.run import batches
from racedeck.tournament.spec import TournamentSpec

MATCHES = 3000
WORKERS = 2

_executor: list[object] = []
"""The Ray executor, started once for every repeat (starting Ray takes seconds)."""


def _spec(matches: int) -> TournamentSpec:
    registry = load_registry(entry_points=False)
    game = registry.game("lacorsa")
    bots = ("random", "heuristic")
    return TournamentSpec(
        game="lacorsa",
        bots=bots,
        players=2,
        matches=matches,
        seed=5,
        options={"races": 1},
        entry_points=False,
        rules_version=game.rules_version,
        bot_versions={name: registry.bot(name, "lacorsa").version for name in bots},
    )


def _run(matches: int = MATCHES) -> tuple[int, float, float]:
    """Play ``matches`` on Ray; return (matches, seconds, driver processor seconds)."""
    from racedeck.tournament.ray_executor import RayExecutor

    if not _executor:
        _executor.append(RayExecutor(WORKERS))
    executor = _executor[0]
    assert isinstance(executor, RayExecutor)
    spec = _spec(matches)
    cpu, wall, count = time.process_time(), time.perf_counter(), 0
    for played in executor.run(spec, batches([(0, matches)], WORKERS, executor.max_batch)):
        count += len(played)
    return count, time.perf_counter() - wall, time.process_time() - cpu


def benchmarks() -> Iterator[Benchmark]:
    try:
        import ray  # noqa: F401 - only to know whether the extra is installed
    except ImportError:
        return
    yield Benchmark(
        "ray: quick matches handed back one by one, 2 CPUs", "matches", lambda: _run()[0]
    )


def main() -> None:
    _run(8)  # Ray starts and every worker loads the registry once
    count, seconds, cpu = _run(6000)
    print(
        f"{count} matches in {seconds:.2f} s ({count / seconds:,.0f} a second); the driver"
        f" spent {cpu:.2f} s of processor time, {cpu / count * 1e6:,.0f} µs a match"
    )


if __name__ == "__main__":
    main()
