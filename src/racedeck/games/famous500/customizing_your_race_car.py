"""Customizing Your Race Car: four columns that add up to the track's difficulty.

The rulebook's section "Customizing Your Race Car", with "Monitoring speed and
endurance", "Tires, fuel, engine and speed", "Each track has a difficulty score", "Four
sample race cars" and "Start your engines...":

    Divide each sheet into four columns: Tires, Fuel, Engine and Speed. Whoever earns the
    most speed points without falling below zero in the other columns will win the race.

    The Monaco track has a difficulty of 18. That means your first row must add up to a
    total of 18 points.

Every split of the track's difficulty into four whole, non-negative numbers is a design
(1,330 for 18; the four sample cars among them, named in the render). Both drivers design
at once and the opponent's sheet stays hidden until both have. Then the pennies go on lap
1 and the first section ("When you're ready to begin, place one penny on the Lap 1 space
and another on the first section of track").
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.famous500.actions import Design, Famous500Action
from racedeck.games.famous500.events import CarDesigned
from racedeck.games.famous500.hands import SEATS, pair
from racedeck.games.famous500.state import Famous500State

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn

_NOTHING: tuple[Famous500Action, ...] = ()


@functools.cache
def designs(difficulty: int) -> tuple[Design, ...]:
    """Return every split of ``difficulty`` over tires, fuel, engine and speed, in order.

    A plain tuple, built once per difficulty: the runner hands it to a bot without a copy.
    """
    d = difficulty
    return tuple(
        Design(tires=t, fuel=f, engine=e, speed=d - t - f - e)
        for t in range(d + 1)
        for f in range(d - t + 1)
        for e in range(d - t - f + 1)
    )


@functools.cache
def design_set(difficulty: int) -> frozenset[Design]:
    """Return ``designs(difficulty)`` as a set, for a membership test in constant time."""
    return frozenset(designs(difficulty))


@functools.cache
def _listed_designs(difficulty: int) -> dict[tuple[int, int, int, int], Design]:
    return {(d.tires, d.fuel, d.engine, d.speed): d for d in designs(difficulty)}


def listed_design(difficulty: int, split: tuple[int, int, int, int]) -> Design:
    """Return the design of ``split``: the very object ``designs(difficulty)`` lists.

    A split that is no design of the track (a forged log's) gives a new, unlisted object.
    Naming the listed object lets a caller find it by identity among 1,330 designs.
    """
    listed = _listed_designs(difficulty).get(split)
    if listed is None:
        return Design(tires=split[0], fuel=split[1], engine=split[2], speed=split[3])
    return listed


def design_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return the designs ``seat`` may choose, or nothing once it has designed."""
    if seat not in SEATS or state.designed[seat]:
        return _NOTHING
    return designs(state.setup.difficulty)


def design_car(turn: RaceTurn, seat: int, action: Design) -> None:
    """Emit a driver's sealed design."""
    turn.emit(
        CarDesigned(
            seat=seat,
            tires=action.tires,
            fuel=action.fuel,
            engine=action.engine,
            speed=action.speed,
        )
    )


def car_designed(state: Famous500State, event: CarDesigned) -> Famous500State:
    """Fold a design: the sheet's first row; once both are designed, lap 1 starts."""
    designed = pair(state.designed, event.seat, True)
    car = (event.tires, event.fuel, event.engine, event.speed)
    racing = designed[0] and designed[1]
    return replace(
        state,
        cars=pair(state.cars, event.seat, car),
        designs=pair(state.designs, event.seat, car),
        designed=designed,
        phase="choose" if racing else "design",
        lap=1 if racing else 0,
        section=0,
    )


def why_not_a_design(state: Famous500State, action: Design) -> str:
    """Say why ``action`` is not a design of this track."""
    split = (action.tires, action.fuel, action.engine, action.speed)
    if min(split) < 0:
        return f"design {split}: columns are whole numbers, none negative"
    return (
        f"design {split} adds up to {sum(split)}; the track's difficulty is "
        f"{state.setup.difficulty}"
    )
