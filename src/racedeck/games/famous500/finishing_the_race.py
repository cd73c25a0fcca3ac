"""Finishing the Race: out below zero, or the most Speed points at the finish line.

The rulebook's section "Finishing the Race", with "Fall below zero and you're out of the
race" and "Making it across the finish line":

    The race can end early, however, if either driver's tires, fuel, or engine fall below
    zero. If that happens, the other car coasts to an easy victory.

    If both cars reach the finish line, however, the winner is the driver with the most
    Speed points. If tied, the driver who played the fastest final card wins the race.

A column at exactly zero still runs; below zero is out, checked at every reveal. Both cars
out on one section: more Speed points wins, then the faster card on that section. Tied at
the finish after a pit stop on the final section: the cards laid there are compared, face
down ones included. The finish needs no choice and no chance, so it follows at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.core.model import Result
from racedeck.games.famous500.data import COLUMNS
from racedeck.games.famous500.events import RaceFinished
from racedeck.games.famous500.state import Car, Famous500State
from racedeck.games.famous500.swapping_cards import swapped

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn


def is_out(car: Car) -> bool:
    """Return True when a car's tires, fuel or engine fell below zero."""
    return car[0] < 0 or car[1] < 0 or car[2] < 0


def out_of_the_race(
    state: Famous500State, cars: tuple[Car, ...], points: tuple[int, ...]
) -> Famous500State:
    """Return the state after a reveal that put a car below zero: swap, then the finish."""
    return swapped(state, points, cars, state.section, state.trailing, "finish")


def winner(state: Famous500State) -> tuple[int, str]:
    """Return the winning seat and why."""
    cars = state.cars
    out = (is_out(cars[0]), is_out(cars[1]))
    s0, s1 = cars[0][3], cars[1][3]
    last = state.history[-1].cards if state.history else (0, 0)
    faster = 0 if last[0] > last[1] else 1
    if out[0] != out[1]:
        loser = 0 if out[0] else 1
        column = next(COLUMNS[c] for c in range(3) if cars[loser][c] < 0)
        return 1 - loser, f"seat {loser}'s {column} fell below zero"
    if out[0]:
        if s0 != s1:
            return (0 if s0 > s1 else 1), "both cars fell below zero: more Speed points"
        return faster, "both cars fell below zero, tied on Speed points: faster card"
    if s0 != s1:
        return (0 if s0 > s1 else 1), "most Speed points at the finish line"
    return faster, "tied on Speed points: the faster final card"


def finish(turn: RaceTurn) -> None:
    """Emit the end of the race: the winner, why, and both Speed columns."""
    state = turn.state
    won, reason = winner(state)
    turn.emit(RaceFinished(winner=won, reason=reason, speed=(state.cars[0][3], state.cars[1][3])))


def race_finished(state: Famous500State, event: RaceFinished) -> Famous500State:
    """Fold the end of the race."""
    return replace(state, phase="over", winner=event.winner, reason=event.reason)


def result(state: Famous500State) -> Result:
    """Rank the winner first; scores are Speed points."""
    won = state.winner
    (t0, f0, e0, s0), (t1, f1, e1, s1) = state.cars
    ranks = (1, 1) if won < 0 else (1, 2) if won == 0 else (2, 1)
    summary = (
        f"winner: seat {won} ({state.reason})" if won >= 0 else "no winner yet",
        f"speed points: seat 0 {s0}, seat 1 {s1}",
        f"cars (tires/fuel/engine/speed): seat 0 {t0}/{f0}/{e0}/{s0}, seat 1 {t1}/{f1}/{e1}/{s1}",
    )
    return Result(ranks=ranks, scores=(s0, s1), unit="speed points", summary=summary)
