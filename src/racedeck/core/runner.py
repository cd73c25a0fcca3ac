"""The match runner: asks bots for actions, folds events and appends them to the log."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from racedeck import __version__
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import IllegalActionError, OptionError
from racedeck.core.game import AnyGame
from racedeck.core.hashing import digest
from racedeck.core.log import (
    LOG_FORMAT,
    Fault,
    Forfeit,
    Header,
    LogWriter,
    ResultLine,
    SeatEntry,
    encode,
)
from racedeck.core.model import ENGINE, Options, Result
from racedeck.core.rng import bot_stream, engine_stream

FaultPolicy = Literal["forfeit", "substitute"]
FAULT_POLICIES: tuple[str, ...] = ("forfeit", "substitute")


class _NoChance(random.Random):
    """Handed to ``decide`` for a seat's action: seats' actions never draw random numbers."""

    def random(self) -> float:
        raise RuntimeError("a seat's decision drew a random number; only the engine may")

    def getrandbits(self, k: int, /) -> int:
        raise RuntimeError("a seat's decision drew a random number; only the engine may")


NO_CHANCE: random.Random = _NoChance(0)


@dataclass
class MatchOutcome:
    """What a finished match left behind."""

    state: Any
    result: Result
    events: int
    faults: list[Fault] = field(default_factory=list)
    forfeit: Forfeit | None = None
    last_hash: str = ""


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
    )


def forfeit_result(players: int, forfeit: Forfeit, unit: str) -> Result:
    """Return the result of a forfeited match: the forfeiting seat last, the others tied first."""
    ranks = tuple(players if seat == forfeit.seat else 1 for seat in range(players))
    return Result(
        ranks=ranks,
        scores=(0,) * players,
        unit=unit,
        summary=(f"seat {forfeit.seat} forfeited: {forfeit.reason}",),
    )


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
) -> MatchOutcome:
    """Play one match to its end and return its outcome.

    With a ``writer`` every event is appended to the log as it happens. A bot that raises
    or returns an action that is not legal is recorded as a fault; under the ``forfeit``
    policy it loses the match at once, under ``substitute`` the first legal action is
    played in its place and the match goes on. ``start_state`` and ``start_events`` let a
    match continue from a point of another one (a fork).
    """
    if fault_policy not in FAULT_POLICIES:
        raise OptionError(f"unknown fault policy {fault_policy!r}; use forfeit or substitute")
    players = len(seats)
    game.check_players(options, players)
    bots: list[Bot] = [spec.factory() for spec in seats]
    rngs = [bot_stream(seed, seat) for seat in range(players)]
    state = game.initial_state(options, players) if start_state is None else start_state
    for seat, bot in enumerate(bots):
        bot.start_match(game.name, seat, players, options)
    if writer is not None and start_state is None:
        writer.header(make_header(game, options, players, seed, seats, fault_policy))

    next_step = game.next_step
    legal_actions = game.legal_actions
    observe = game.observe
    decide = game.decide
    evolve = game.evolve
    encode_event = encode
    seq = start_events
    faults: list[Fault] = []
    forfeit: Forfeit | None = None

    def record_fault(seat: int, reason: str) -> None:
        fault = Fault(seat=seat, bot=seats[seat].name, reason=reason, policy=fault_policy)
        faults.append(fault)
        if writer is not None:
            writer.fault(fault)

    while forfeit is None:
        step = next_step(state)
        if step.engine:
            events = decide(state, ENGINE, None, engine_stream(seed, seq))
        elif step.seats:
            chosen = []
            for seat in step.seats:
                legal = legal_actions(state, seat)
                try:
                    action = bots[seat].act(observe(state, seat), legal, rngs[seat])
                except Exception as exc:  # a bot's failure must never stop the engine
                    reason = f"raised {type(exc).__name__}: {exc}"
                    action = None
                else:
                    reason = "" if action in legal else f"returned an illegal action {action!r}"
                if reason:
                    record_fault(seat, reason)
                    if fault_policy == "forfeit":
                        forfeit = Forfeit(seat=seat, reason=reason)
                        break
                    action = legal[0]
                chosen.append((seat, action))
            if forfeit is not None:
                break
            events = []
            for seat, action in chosen:
                try:
                    seat_events = decide(state, seat, action, NO_CHANCE)
                except IllegalActionError as exc:
                    raise RuntimeError(
                        f"{game.name}: legal_actions offered an action decide refused: {exc}"
                    ) from exc
                for event in seat_events:
                    state = evolve(state, event)
                    seq += 1
                    if writer is not None:
                        writer.event(encode_event(event))
            continue
        else:
            break
        for event in events:
            state = evolve(state, event)
            seq += 1
            if writer is not None:
                writer.event(encode_event(event))

    if forfeit is not None:
        unit = "points"
        result = forfeit_result(players, forfeit, unit)
    else:
        result = game.result(state)
    for bot in bots:
        try:
            bot.end_match(result)
        except Exception as exc:
            record_fault(bots.index(bot), f"end_match raised {type(exc).__name__}: {exc}")
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
        state=state, result=result, events=seq, faults=faults, forfeit=forfeit, last_hash=last_hash
    )


def state_hash(state: Any) -> str:
    """Return the hash of a state's canonical bytes."""
    return digest(encode(state))
