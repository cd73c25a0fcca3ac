"""A small benchmark harness: each benchmark runs a batch and says how many units it did.

Rates are reported as the median of several repeats, since a shared two-core machine is
noisy; the spread (min and max) is printed beside it.
"""

from __future__ import annotations

import io
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Benchmark:
    """One measurement: ``run`` does a batch of work and returns how many units it did."""

    name: str
    unit: str
    run: Callable[[], int]
    target: float | None = None
    """The rate (units a second) it must reach, if the project promises one."""
    per_unit: bool = False
    """Report seconds a unit rather than units a second (for slow units: a search's match)."""
    repeats: int | None = None
    """At most this many timed runs and no warm-up (None: the run's repeats, after one
    warm-up): for a unit that takes a minute of a core, such as a Detroit-Cleveland
    search's match."""


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


@dataclass(frozen=True)
class Ratio:
    """Two benchmarks of the same unit measured in turn, in the same process and run.

    On a shared machine absolute rates drift by half from one minute to the next; a ratio
    of two rates taken side by side does not. ``target`` is the least ratio promised.
    """

    name: str
    measured: Benchmark
    reference: Benchmark
    target: float | None = None


@dataclass(frozen=True)
class RatioMeasurement:
    """The rates of both sides, repeat by repeat."""

    ratio: Ratio
    measured: tuple[float, ...]
    reference: tuple[float, ...]

    @property
    def ratios(self) -> tuple[float, ...]:
        return tuple(m / r for m, r in zip(self.measured, self.reference, strict=True))

    @property
    def median(self) -> float:
        return statistics.median(self.ratios)

    @property
    def passed(self) -> bool | None:
        target = self.ratio.target
        return None if target is None else self.median >= target


def measure_ratio(ratio: Ratio, repeats: int = 5) -> RatioMeasurement:
    """Warm both sides up, then time them one after the other ``repeats`` times.

    A side with ``repeats`` of its own (a unit that takes a minute of a core) caps the
    turns at that many, with no warm-up for either side.
    """
    caps = [side.repeats for side in (ratio.measured, ratio.reference) if side.repeats]
    if caps:
        repeats = min(repeats, *caps)
    else:
        ratio.reference.run()
        ratio.measured.run()
    measured: list[float] = []
    reference: list[float] = []
    for _ in range(repeats):
        for side, rates in ((ratio.reference, reference), (ratio.measured, measured)):
            start = time.perf_counter()
            units = side.run()
            rates.append(units / (time.perf_counter() - start))
    return RatioMeasurement(ratio, tuple(measured), tuple(reference))


def ratio_line(m: RatioMeasurement) -> str:
    """Return one readable line for a ratio: both medians and the median ratio."""
    r = m.ratio
    verdict = ""
    if r.target is not None:
        verdict = f"  target {r.target:.2f}: {'ok' if m.passed else 'MISSED'}"
    unit = r.measured.unit
    measured, reference = statistics.median(m.measured), statistics.median(m.reference)
    # Slow units (a search's match) read as seconds a unit: a side of 14 matches a second
    # beside one of 1.1 reads "0.07 against 0.90 s/match", not "14 against 1 match/s".
    if min(measured, reference) < 10:
        sides = f"{1 / measured:,.2f} against {1 / reference:,.2f} s/{unit}"
    else:
        sides = f"{measured:,.0f} against {reference:,.0f} {unit}/s"
    # A share under a tenth (a search's simulations beside the plain loop's races) keeps
    # three decimals: 0.014 and 0.006 both read 0.01 at two.
    places = 3 if m.median < 0.1 else 2
    return (
        f"{r.name:<58} {m.median:>12.{places}f} x  "
        f"({sides}; ratios {min(m.ratios):.{places}f}-{max(m.ratios):.{places}f}){verdict}"
    )


def measure(benchmark: Benchmark, repeats: int = 5) -> Measurement:
    """Run ``benchmark`` once to warm up, then ``repeats`` times, and return the rates.

    A benchmark with its own ``repeats`` runs that many times at most, with no warm-up.
    """
    if benchmark.repeats is None:
        benchmark.run()
    else:
        repeats = min(repeats, benchmark.repeats)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = benchmark.run()
        rates.append(units / (time.perf_counter() - start))
    return Measurement(benchmark, tuple(rates))


def report_line(m: Measurement) -> str:
    """Return one readable line for a measurement."""
    b = m.benchmark
    if b.per_unit:
        seconds = sorted(1 / rate for rate in m.rates)
        return (
            f"{b.name:<58} {statistics.median(seconds):>12.2f} s/{b.unit}  "
            f"(min {seconds[0]:.2f}, max {seconds[-1]:.2f})"
        )
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


class GameRuns:
    """The standard runs of one game between random bots, as benchmark bodies.

    ``matches`` seeded matches of ``players`` seats with ``options``; each method plays
    them one way and returns how many units it did.
    """

    def __init__(self, game: str, options: dict[str, Any], players: int, matches: int) -> None:
        from racedeck.plugins import load_registry

        self.registry = load_registry(entry_points=False)
        self.game = self.registry.game(game)
        self.options = self.game.parse_options(options)
        self.players = players
        self.count = matches
        self.random = self.registry.bot("random", game)
        self._replay_logs: list[bytes] = []

    def matches(self, options: dict[str, Any] | None = None) -> int:
        """Play the matches without logs; return how many."""
        from racedeck.core.runner import run_match

        chosen = self.options if options is None else self.game.parse_options(options)
        for seed in range(self.count):
            run_match(self.game, chosen, [self.random] * self.players, seed)
        return self.count

    def matches_with_logs(self) -> int:
        """Play the matches writing each log to a file; return how many."""
        self._with_logs([self.random] * self.players)
        return self.count

    def decisions(self, write_logs: bool = False) -> int:
        """Play the matches and return how many decisions the bots made."""
        from racedeck.core.runner import run_match

        counter = DecisionCounter()
        seats = [counter.spec] * self.players
        if write_logs:
            self._with_logs(seats)
        else:
            for seed in range(self.count):
                run_match(self.game, self.options, seats, seed)
        return counter.decisions

    def replay_logs(self, options: dict[str, Any], logs: int = 1) -> tuple[bytes, ...]:
        """Return the logs ``replay`` replays: ``logs`` matches played with ``options``.

        They are played on first use and kept, so that a timed run only reads them.
        """
        from racedeck.core.log import LogWriter
        from racedeck.core.runner import run_match

        if not self._replay_logs:
            chosen = self.game.parse_options(options)
            for seed in range(logs):
                buffer = io.BytesIO()
                seats = [self.random] * self.players
                run_match(self.game, chosen, seats, seed + 1, writer=LogWriter(buffer))
                self._replay_logs.append(buffer.getvalue())
        return tuple(self._replay_logs)

    def replay(self, options: dict[str, Any], logs: int = 1) -> int:
        """Replay (hash check and fold) ``logs`` matches played with ``options``; count events."""
        from racedeck.core.replay import replay_log

        events = 0
        for log in self.replay_logs(options, logs):
            replay = replay_log(self.registry, "bench.jsonl", stream=io.BytesIO(log))
            assert replay.complete
            events += replay.events
        return events

    def _with_logs(self, seats: list[Any]) -> None:
        from racedeck.core.log import LogWriter
        from racedeck.core.runner import run_match

        with tempfile.TemporaryDirectory() as folder:
            for seed in range(self.count):
                with open(os.path.join(folder, f"{seed}.jsonl"), "wb") as handle:
                    run_match(self.game, self.options, seats, seed, writer=LogWriter(handle))
