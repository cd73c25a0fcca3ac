"""Lap charts: where every car stood after each lap or turn, gathered from a log.

The log is streamed once; a point is taken each time the game's picture says a lap (or
turn) has ended, from the last state of that lap. Games without a picture of their own
get a one-point chart of the final result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racedeck.core.errors import LogError
from racedeck.core.replay import iter_states
from racedeck.inspect.pictures import picture_for
from racedeck.plugins import Registry


@dataclass
class LapChart:
    """Positions (1 is the leader) of every car at each tick, and optional series."""

    title: str
    axis: str
    cars: list[str]
    ticks: list[str] = field(default_factory=list)
    positions: list[list[int]] = field(default_factory=list)
    """Per tick, the position of each car, by car number."""
    series: dict[str, list[list[int]]] = field(default_factory=dict)
    """Per series name, per tick, a value per car."""

    def add(self, tick: str, standings: list[int], series: dict[str, list[int]]) -> None:
        """Add one tick: the cars from the leader back, and each series' values."""
        places = [0] * len(self.cars)
        for place, car in enumerate(standings):
            places[car] = place + 1
        self.ticks.append(tick)
        self.positions.append(places)
        for name, values in series.items():
            self.series.setdefault(name, []).append(list(values))


def lap_chart(registry: Registry, path: str | Path) -> LapChart:
    """Stream a log and return its lap chart; raises ``LogError`` for a bad log."""
    chart: LapChart | None = None
    last_tick: str | None = None
    last_state: Any = None
    for _seq, _event, state, replay in iter_states(registry, path):
        if chart is None:
            picture = picture_for(registry, replay.game)
            header = replay.header
            chart = LapChart(
                # Each seat's bot by its number, which the cars' labels carry.
                title=f"{replay.game.title}, seed {header.seed}: "
                + ", ".join(f"seat {n} {seat.bot}" for n, seat in enumerate(header.seats)),
                axis=picture.axis,
                cars=[],
            )
        tick = picture.tick(state)
        if tick != last_tick and last_tick is not None:
            _take(chart, picture, last_tick, last_state)
        if tick is not None:
            last_state = state
            if "." in tick:
                chart.axis = picture.axis_series
        last_tick = tick
    if chart is None:
        raise _empty(path)
    if last_tick is not None:
        _take(chart, picture, last_tick, last_state)
    if not chart.ticks:
        _final_result(chart, replay)
    return chart


def _take(chart: LapChart, picture: Any, tick: str, state: Any) -> None:
    standings = picture.standings(state)
    if standings is not None:
        if len(chart.cars) != len(standings):
            chart.cars = picture.car_labels(state)
        chart.add(tick, standings, picture.series(state))


def _final_result(chart: LapChart, replay: Any) -> None:
    """Chart a game without laps by its result: one tick, seats ranked."""
    result = replay.game.result(replay.state)
    chart.cars = [f"seat {seat}" for seat in range(len(result.ranks))]
    chart.axis = "result"
    chart.ticks.append("end")
    chart.positions.append(list(result.ranks))


def _empty(path: str | Path) -> Exception:
    return LogError(str(path), 0, "the log has no events to chart")
