"""Customizing the race car: four columns that add up to the track's difficulty."""

from __future__ import annotations

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.famous500.actions import Design
from racedeck.games.famous500.customizing_your_race_car import designs
from racedeck.games.famous500.data import SAMPLE_CARS, builtin_track, sample_name

from .helpers import GAME, act, designing


def _design_phase():  # type: ignore[no-untyped-def]
    return designing()


def test_the_sheet_has_four_columns_that_add_up_to_the_difficulty() -> None:
    """Customizing Your Race Car: Racing cars is all about speed and endurance!

    Divide each sheet into four columns: Tires, Fuel, Engine and Speed.

    The numbers you put in these columns will depend on the difficulty of your racetrack.
    The Monaco track has a difficulty of 18. That means your first row must add up to a
    total of 18 points.
    """
    state = _design_phase()
    legal = GAME.legal_actions(state, 0)
    assert all(a.tires + a.fuel + a.engine + a.speed == 18 for a in legal)  # type: ignore[union-attr]
    assert all(min(a.tires, a.fuel, a.engine, a.speed) >= 0 for a in legal)  # type: ignore[union-attr]
    # Every split of 18 into four whole numbers: C(21, 3).
    assert len(legal) == 1330
    state = act(state, 0, Design(tires=7, fuel=5, engine=4, speed=2))
    assert state.cars[0] == (7, 5, 4, 2)
    with pytest.raises(IllegalActionError, match="difficulty is 18"):
        apply(GAME, state, 1, Design(tires=7, fuel=5, engine=4, speed=3))
    with pytest.raises(IllegalActionError, match="none negative"):
        apply(GAME, state, 1, Design(tires=20, fuel=-2, engine=0, speed=0))


def test_you_can_divide_the_points_however_you_like() -> None:
    """You can divide those 18 points however you like but here are a few sample cars to
    get you started."""
    assert Design(tires=0, fuel=0, engine=0, speed=18) in designs(18)
    assert Design(tires=18, fuel=0, engine=0, speed=0) in designs(18)
    assert len(designs(2)) == 10


@pytest.mark.parametrize(
    ("name", "split"),
    [
        ("Stock Car", (6, 6, 6, 0)),
        ("Grand Touring Car", (8, 5, 3, 2)),
        ("Sports Prototype", (6, 5, 4, 3)),
        ("Formula 1 Car", (5, 4, 5, 4)),
    ],
)
def test_the_four_sample_cars(name: str, split: tuple[int, int, int, int]) -> None:
    """- Stock Car: 6/6/6/0
    - Grand Touring Car: 8/5/3/2
    - Sports Prototype: 6/5/4/3
    - Formula 1 Car: 5/4/5/4
    """
    t, f, e, s = split
    assert Design(tires=t, fuel=f, engine=e, speed=s) in GAME.legal_actions(_design_phase(), 1)
    assert sample_name(split) == name
    assert {car.name for car in SAMPLE_CARS} >= {name}
    assert sum(split) == builtin_track("monaco").difficulty


def test_designs_are_sealed_until_both_are_made() -> None:
    """Each player will design a custom race car on their own sheet of paper."""
    state = act(_design_phase(), 1, Design(tires=6, fuel=6, engine=6, speed=0))
    assert state.phase == "design" and GAME.next_step(state).seats == (0,)
    assert GAME.observe(state, 0).cars == (None, None)
    assert GAME.observe(state, 1).cars == (None, (6, 6, 6, 0))
    assert "designed, face down" in GAME.presentation.render(state, 0)
    state = act(state, 0, Design(tires=5, fuel=4, engine=5, speed=4))
    assert GAME.observe(state, 0).cars == ((5, 4, 5, 4), (6, 6, 6, 0))
    assert "Stock Car" in GAME.presentation.render(
        state
    ) and "Formula 1 Car" in GAME.presentation.render(state)


def test_the_race_starts_on_the_first_section_of_lap_1() -> None:
    """When you're ready to begin, place one penny on the Lap 1 space and another on the
    first section of track. The first section is always marked with an arrow beside the
    chequered flag."""
    state = act(_design_phase(), 0, Design(tires=6, fuel=6, engine=6, speed=0))
    state = act(state, 1, Design(tires=6, fuel=6, engine=6, speed=0))
    assert (state.phase, state.lap, state.section) == ("choose", 1, 0)
    assert "»[W:]" in GAME.presentation.render(state)
