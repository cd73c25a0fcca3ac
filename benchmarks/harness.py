"""A small benchmark harness: each benchmark runs a batch and says how many units it did.

Rates are reported as the median of several repeats, since a shared two-core machine is
noisy; the spread (min and max) is printed beside it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Benchmark:
    """One measurement: ``run`` does a batch of work and returns how many units it did."""

    name: str
    unit: str
    run: Callable[[], int]
    target: float | None = None
    """The rate (units a second) it must reach, if the project promises one."""


@dataclass(frozen=True)
class Measurement:
    """The rates of the repeats of one benchmark."""

    benchmark: Benchmark
    rates: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def passed(self) -> bool | None:
        target = self.benchmark.target
        return None if target is None else self.median >= target


def measure(benchmark: Benchmark, repeats: int = 5) -> Measurement:
    """Run ``benchmark`` once to warm up, then ``repeats`` times, and return the rates."""
    benchmark.run()
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = benchmark.run()
        rates.append(units / (time.perf_counter() - start))
    return Measurement(benchmark, tuple(rates))


def report_line(m: Measurement) -> str:
    """Return one readable line for a measurement."""
    b = m.benchmark
    verdict = ""
    if b.target is not None:
        verdict = f"  target {b.target:,.0f}: {'ok' if m.passed else 'MISSED'}"
    return (
        f"{b.name:<58} {m.median:>12,.0f} {b.unit}/s  "
        f"(min {min(m.rates):,.0f}, max {max(m.rates):,.0f}){verdict}"
    )


class DecisionCounter:
    """A random bot spec that counts the decisions every seat using it makes."""

    def __init__(self) -> None:
        from racedeck.bots.random_bot import RandomBot
        from racedeck.core.bot import BotSpec

        counter = self

        class CountingRandom(RandomBot):
            def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
                counter.decisions += 1
                return super().act(observation, legal, rng)

        self.decisions = 0
        self.spec = BotSpec(name="random", factory=CountingRandom, description="counting")
