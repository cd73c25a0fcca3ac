"""Replay debugging on a large log: diff and replay events a second, and peak memory.

The large log is a LACORSA championship's events written again and again under one
header (evolve folds them like one long championship), in whole championships, until it
holds at least ``EVENTS`` events: a log must end where its match has ended.
``python -m benchmarks.bench_inspect`` also prints the peak memory of ``diff`` and
``replay`` on a tenth of the log and on all of it. A LACORSA state keeps every race's
result, so its own size grows with the log; a second log, of a game whose state is one
number (``Ticker``), shows the streaming itself: the same peak at any length.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import msgspec

from benchmarks.harness import Benchmark
from racedeck.core.bot import BotSpec
from racedeck.core.game import Game, Presentation, Score
from racedeck.core.log import Decision, LogReader, LogWriter, ResultLine, encode
from racedeck.core.model import (
    ENGINE,
    ENGINE_STEP,
    MATCH_OVER,
    Action,
    Event,
    Observation,
    Options,
    Result,
)
from racedeck.core.replay import replay_log
from racedeck.core.runner import make_header, run_match, state_hash
from racedeck.inspect.diff import diff_logs
from racedeck.plugins import Registry, load_registry


class Tick(Event, tag="tick"):
    by: int


class Count(msgspec.Struct, frozen=True):
    total: int = 0
    ticks: int = 0
    limit: int = 0


class TickerOptions(Options, frozen=True):
    ticks: int = 1


class TickerObservation(Observation, tag="ticker"):
    total: int


class Ticker(Game[Count, Action, Tick, TickerObservation, Options]):
    """A game whose state never grows: the engine adds to a counter, ``ticks`` times.

    Each tick is a function of the count so far, so a replay that decides every event
    again gets the log's own events back.
    """

    name = "ticker"
    title = "Ticker"
    scores = (Score(name="points"),)
    presentation = Presentation(render=lambda state, viewer=None: str(state.total))
    rules_version = "1"
    min_players = 1
    max_players = 1
    options_type = TickerOptions
    event_type = Tick
    action_type = Action
    state_type = Count
    observation_type = TickerObservation

    def set_up(self, options, players):  # type: ignore[no-untyped-def]
        return Count(limit=options.ticks)

    def next_step(self, state):  # type: ignore[no-untyped-def]
        return ENGINE_STEP if state.ticks < state.limit else MATCH_OVER

    def legal_actions(self, state, seat):  # type: ignore[no-untyped-def]
        return []

    def take(self, turn, actor, action):  # type: ignore[no-untyped-def]
        turn.emit(Tick(by=turn.state.ticks % 6 + 1))

    def evolve(self, state, event):  # type: ignore[no-untyped-def]
        return Count(state.total + event.by, state.ticks + 1, state.limit)

    def observe(self, state, seat):  # type: ignore[no-untyped-def]
        return TickerObservation(total=state.total)

    def result(self, state):  # type: ignore[no-untyped-def]
        return Result(ranks=(1,), scores=(state.total,), unit="points")


_ticker_registry = Registry()
_ticker_registry.add_game(Ticker())
_ticker_bot = BotSpec(name="none", factory=lambda: None, description="no seat acts")  # type: ignore[arg-type,return-value]


def write_ticker_log(path: Path, events: int) -> Path:
    """Write a readable log of ``events`` ticks to ``path``."""
    game = _ticker_registry.game("ticker")
    options = TickerOptions(ticks=events)
    state = game.initial_state(options, 1)
    with open(path, "wb") as handle:
        writer = LogWriter(handle)
        writer.header(make_header(game, options, 1, 1, [_ticker_bot], "forfeit"))
        for seq in range(events):
            event = Tick(by=seq % 6 + 1)
            state = game.evolve(state, event)
            writer.turn(ENGINE, None, [encode(event)])  # each tick is the engine's turn
        writer.result(
            ResultLine(
                kind="result",
                events=events,
                hash=writer.last_hash,
                state_hash=state_hash(state),
                result=msgspec.to_builtins(game.result(state)),
            )
        )
    return path


EVENTS = int(os.environ.get("RACEDECK_BENCH_EVENTS", "1000000"))

_registry = load_registry(entry_points=False)
_game = _registry.game("lacorsa")
_options = _game.parse_options({"races": 100})
_random = _registry.bot("random", "lacorsa")
_folder = Path(tempfile.mkdtemp(prefix="racedeck-bench-"))


def _championship() -> list[Decision]:
    buffer = io.BytesIO()
    run_match(_game, _options, [_random] * 6, 1, writer=LogWriter(buffer))
    with LogReader("championship", io.BytesIO(buffer.getvalue())) as reader:
        return [entry.decision for entry in reader if entry.decision is not None]


def write_large_log(path: Path, events: int) -> Path:
    """Write a readable log of at least ``events`` events (a championship repeated) to ``path``.

    The log ends with a whole championship, so its result line follows from its events.
    """
    block = _championship()
    size = sum(len(decision.events) for decision in block)
    events = -(-events // size) * size
    decode, evolve = _game.event_decoder.decode, _game.evolve
    state = _game.initial_state(_options, 6)
    with open(path, "wb") as handle:
        writer = LogWriter(handle)
        writer.header(make_header(_game, _options, 6, 1, [_random] * 6, "forfeit"))
        for _ in range(events // size):
            for decision in block:
                for raw in decision.events:
                    state = evolve(state, decode(raw))
                writer.turn(decision.actor, decision.action, list(decision.events))
        writer.result(
            ResultLine(
                kind="result",
                events=events,
                hash=writer.last_hash,
                state_hash=state_hash(state),
                result=msgspec.to_builtins(_game.result(state)),
            )
        )
    return path


_logs: dict[int, tuple[Path, Path]] = {}


def logs(events: int = EVENTS) -> tuple[Path, Path]:
    """Return two identical large logs (made once)."""
    if events not in _logs:
        a = write_large_log(_folder / f"a{events}.jsonl", events)
        b = _folder / f"b{events}.jsonl"
        shutil.copyfile(a, b)
        _logs[events] = (a, b)
    return _logs[events]


def diff_events() -> int:
    a, b = logs()
    report = diff_logs(_registry, a, b)
    assert report.identical
    return report.events_compared


_championship_log: list[Path] = []


def championship_log() -> Path:
    """Return a real 100-race championship's log (made once).

    Replay decides every decision again, so the repeated championship of ``logs`` is
    refused where its second championship starts; replay is measured on a real match.
    """
    if not _championship_log:
        path = _folder / "championship.jsonl"
        with open(path, "wb") as handle:
            run_match(_game, _options, [_random] * 6, 1, writer=LogWriter(handle))
        _championship_log.append(path)
    return _championship_log[0]


def replay_events() -> int:
    replay = replay_log(_registry, championship_log())
    assert replay.complete and replay.error is None, replay.error
    return replay.events


def ticker_logs(events: int) -> tuple[Path, Path]:
    """Return two identical ticker logs (made once)."""
    key = -events
    if key not in _logs:
        a = write_ticker_log(_folder / f"ta{events}.jsonl", events)
        b = _folder / f"tb{events}.jsonl"
        shutil.copyfile(a, b)
        _logs[key] = (a, b)
    return _logs[key]


def peak_memory(events: int, ticker: bool = False) -> dict[str, float]:
    """Return the peak traced memory (MiB) of diff and replay on a log of ``events``.

    Replay refuses the repeated LACORSA championship where its second championship starts
    (no decision explains it) and folds the rest as written, recording the error: every
    event is still read and folded, which is what is measured.
    """
    registry = _ticker_registry if ticker else _registry
    a, b = ticker_logs(events) if ticker else logs(events)
    out = {}
    for name, run in (
        ("diff", lambda: diff_logs(registry, a, b)),
        ("replay", lambda: replay_log(registry, a)),
    ):
        tracemalloc.start()
        run()
        out[name] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return out


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark(
            f"inspect: diff of two identical {EVENTS:,}-event logs", "events", diff_events, 200_000
        ),
        Benchmark(
            "inspect: replay of a 100-race championship's log (every decision checked)",
            "events",
            replay_events,
            200_000,
        ),
    ]


def main() -> int:
    for ticker, events in [(t, n) for t in (True, False) for n in (EVENTS // 10, EVENTS)]:
        start = time.perf_counter()
        peaks = peak_memory(events, ticker)
        size = (ticker_logs(events) if ticker else logs(events))[0].stat().st_size / 2**20
        print(
            f"{'ticker' if ticker else 'lacorsa'} {events:>9,} events ({size:,.0f} MiB log): "
            "peak traced memory "
            + ", ".join(f"{name} {mib:.2f} MiB" for name, mib in peaks.items())
            + f"  ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    shutil.rmtree(_folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
