"""The match runner: asks bots for actions, folds events and appends them to the log.

The fault policy (``docs/bots.md``): a bot that raises, overruns its time limit, answers
garbage or returns an action that is not legal is recorded as a fault line in the log.
Under ``forfeit`` the match ends at once and that seat ranks last; under ``substitute``
the first legal action is played in its place and the match goes on. A bot that can never
answer again (its process died, or it failed to start) is replaced by that substitute for
the rest of the match, recorded once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from racedeck import __version__
from racedeck.core import interrupts, isolation
from racedeck.core.asking import (
    DecisionClock,
    Referee,
    Substitute,
    asking,
    bot_flag,
    close_bot,
    describe_failure,
)
from racedeck.core.bot import Bot, BotGone, BotSpec
from racedeck.core.driver import Driver, play_through
from racedeck.core.errors import OptionError
from racedeck.core.game import AnyGame
from racedeck.core.hashing import digest
from racedeck.core.interrupts import is_bots_own
from racedeck.core.isolation import IsolatedBot
from racedeck.core.log import (
    END_MATCH,
    LOG_FORMAT,
    DebugNote,
    Fault,
    Forfeit,
    Header,
    LogWriter,
    ResultLine,
    SeatEntry,
    encode,
    forfeit_result,
)
from racedeck.core.model import Options, Result

FAULT_POLICIES: tuple[str, ...] = ("forfeit", "substitute")


@dataclass
class MatchOutcome:
    """What a finished match left behind."""

    state: Any
    result: Result
    events: int
    faults: list[Fault] = field(default_factory=list)
    forfeit: Forfeit | None = None
    last_hash: str = ""
    debug: list[DebugNote] = field(default_factory=list)
    """Debug notes the bots left, as the log records them."""


def make_header(
    game: AnyGame,
    options: Options,
    players: int,
    seed: int,
    seats: Sequence[BotSpec],
    fault_policy: str,
) -> Header:
    """Return the log header of a match."""
    return Header(
        kind="header",
        format=LOG_FORMAT,
        engine=__version__,
        game=game.name,
        rules_version=game.rules_version,
        options=msgspec.to_builtins(options),
        players=players,
        seed=seed,
        seats=tuple(SeatEntry(bot=spec.name, version=spec.version) for spec in seats),
        fault_policy=fault_policy,
        state_version=game.state_version,
    )


def seat_limits(seats: Sequence[BotSpec], time_limit: float | None) -> list[float | None]:
    """Return each seat's limit in seconds per decision: its bot's own, else the match's."""
    limits: list[float | None] = []
    for spec in seats:
        limit = spec.time_limit if spec.time_limit is not None else time_limit
        limits.append(None if limit is None or math.isinf(limit) else limit)
    return limits


def run_match(
    game: AnyGame,
    options: Options,
    seats: Sequence[BotSpec],
    seed: int,
    *,
    writer: LogWriter | None = None,
    fault_policy: str = "forfeit",
    start_state: Any = None,
    start_events: int = 0,
    time_limit: float | None = None,
    isolate: bool = False,
) -> MatchOutcome:
    """Play one match to its end and return its outcome.

    With a ``writer`` every event is appended to the log as it happens. A bot's failure is
    recorded as a fault and handled by ``fault_policy`` (see the module's docstring).
    ``time_limit`` is the seconds each decision may take (``None``: no limit), unless a
    bot's spec sets its own; a limit reads the clock, so a match that hits one is not
    reproducible. ``start_state`` and ``start_events`` let a match continue from a point
    of another one (a fork). With ``isolate`` every bot plays in a process of its own,
    limit or not, so one that takes its process down costs only its seat (a tournament
    plays a match again this way after its worker died).
    """
    if fault_policy not in FAULT_POLICIES:
        raise OptionError(f"unknown fault policy {fault_policy!r}; use forfeit or substitute")
    if time_limit is not None and not time_limit > 0:
        raise OptionError(f"the time limit must be a positive number of seconds, got {time_limit}")
    players = len(seats)
    game.check_players(options, players)
    limits = seat_limits(seats, time_limit)
    bots: list[Bot] = []
    failed: list[tuple[int, str]] = []
    for seat, (spec, limit) in enumerate(zip(seats, limits, strict=True)):
        if (limit is not None or isolate) and isolation.available():
            # Made and played in a process of its own, which the limit can always stop.
            bots.append(IsolatedBot(spec.factory, limit))
            limits[seat] = None
            continue
        try:
            bot = spec.factory()
            if spec.time_limit is not None and math.isinf(spec.time_limit) and time_limit:
                bot.limit_time(time_limit)  # a program timed by its own bot obeys the match's
        except BaseException as exc:  # a bot that cannot be made is its seat's fault
            if not is_bots_own(exc):
                raise
            bot = Substitute()
            limits[seat] = None
            failed.append((seat, describe_failure(exc, "making the bot ")))
        bots.append(bot)
    clock = DecisionClock() if any(limit is not None for limit in limits) else None
    plan = _Plan(options, seats, seed, writer, fault_policy, start_state, start_events)
    referee = Referee(game, seats, bots, limits, writer, fault_policy, failed)
    try:
        with interrupts.watching():
            return _play(game, plan, bots, referee, clock)
    finally:
        if clock is not None:
            clock.stop()
        for bot in bots:
            close_bot(bot)


def _play(
    game: AnyGame,
    plan: _Plan,
    bots: list[Bot],
    referee: Referee,
    clock: DecisionClock | None,
) -> MatchOutcome:
    """Start the bots, drive the match with them, end it and write its result."""
    seats, writer, players = plan.seats, plan.writer, len(plan.seats)
    state = plan.state
    if state is None:
        state = game.initial_state(plan.options, players)
        if writer is not None:
            writer.header(
                make_header(game, plan.options, players, plan.seed, seats, plan.fault_policy)
            )
    emits = _start_bots(game, plan, bots, referee)
    forfeit = referee.forfeit
    seq = plan.events
    if forfeit is None:
        ask = asking(bots, referee, clock, plan.seed, any(emits))
        driver = Driver(game, state, plan.seed, ask, seq)
        if writer is None:
            play_through(driver)
        else:
            _write_decisions(driver, writer)
        state, seq, forfeit = driver.state, driver.events, referee.forfeit
    result = forfeit_result(players, forfeit) if forfeit is not None else game.result(state)
    for seat, bot in enumerate(bots):
        try:
            bot.end_match(result)
        except BaseException as exc:  # a bot's failure is recorded, not raised
            if not is_bots_own(exc):
                raise
            reason = describe_failure(exc, END_MATCH)
            # After the match: the reader tells such a fault from one that ended it by this.
            referee.record_fault(
                seat, reason if reason.startswith(END_MATCH) else END_MATCH + reason
            )
    last_hash = writer.last_hash if writer is not None else ""
    if writer is not None:
        writer.result(
            ResultLine(
                kind="result",
                events=seq,
                hash=writer.last_hash,
                state_hash=state_hash(state),
                result=msgspec.to_builtins(result),
                forfeit=forfeit,
            )
        )
    return MatchOutcome(
        state=state,
        result=result,
        events=seq,
        faults=referee.faults,
        forfeit=forfeit,
        last_hash=last_hash,
        debug=referee.debug,
    )


@dataclass
class _Plan:
    """What a match is played from: options, seats, seed, log, fault policy, start."""

    options: Options
    seats: Sequence[BotSpec]
    seed: int
    writer: LogWriter | None
    fault_policy: str
    state: Any
    """The state to start from; ``None`` for the initial state (and a header to write)."""
    events: int


def _start_bots(game: AnyGame, plan: _Plan, bots: list[Bot], referee: Referee) -> list[bool]:
    """Tell every bot the match starts; return which of them leave debug notes."""
    players = len(bots)
    gone = {seat for seat, _ in referee.failed_at_start}
    for seat, reason in referee.failed_at_start:
        referee.replace_bot(seat, reason)
        if referee.forfeit is not None:
            return [False] * players
    emits = [False] * players
    for seat, bot in enumerate(bots):
        if seat in gone:
            continue
        try:
            bot.bind_game(game)
            bot.start_match(game.name, seat, players, plan.options)
        except BaseException as exc:  # a bot's failure must never stop the engine
            if not is_bots_own(exc):
                raise
            where = "" if isinstance(exc, BotGone) else "start_match "
            referee.replace_bot(seat, describe_failure(exc, where))
            if referee.forfeit is not None:
                break
        emits[seat] = bot_flag(bots[seat], "emits_debug", False)
        if emits[seat]:
            referee.record_debug(seat)
    return emits


def _write_decisions(driver: Driver, writer: LogWriter) -> None:
    """Drive the match, writing each decision as a line of the log."""
    line = writer.decision
    for actor, action, turn, first in driver:
        line(actor, action, turn.events[first:] if first else turn.events)


def state_hash(state: Any) -> str:
    """Return the hash of a state's canonical bytes."""
    return digest(encode(state))
