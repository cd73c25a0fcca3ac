"""Finishing the race: out below zero, or the most Speed points after the last lap."""

from __future__ import annotations

from .helpers import GAME, MONACO_BLACK, racing, section

LAST = 9


def test_a_column_below_zero_ends_the_race_and_the_other_car_wins() -> None:
    """Finishing the Race: For a track of this length, each lap should take under 10
    minutes. The race can end early, however, if either driver's tires, fuel, or engine fall
    below zero. If that happens, the other car coasts to an easy victory."""
    state = racing(
        hands=((40, 120, 200), (60, 100, 180)),
        cars=((2, 5, 4, 9), (6, 5, 4, 0)),
        section=MONACO_BLACK,
    )
    state = section(state, 200, 60)  # 3 Tires from 2
    assert state.cars[0][0] == -1
    assert state.phase == "over"
    assert state.phase == "over" and state.winner == 1
    result = GAME.result(state)
    assert result.ranks == (2, 1)
    assert result.scores == (11, 1)
    assert result.unit == "speed points"
    assert "tires fell below zero" in state.reason


def test_a_column_at_exactly_zero_still_runs() -> None:
    """The race can end early, however, if either driver's tires, fuel, or engine fall below
    zero."""
    state = racing(
        hands=((40, 120, 200), (60, 100, 180)),
        cars=((3, 5, 4, 9), (6, 5, 4, 0)),
        section=MONACO_BLACK,
    )
    state = section(state, 200, 60)
    assert state.cars[0][0] == 0 and state.phase == "choose"


def test_both_cars_out_on_one_section_more_speed_points_win() -> None:
    """If that happens, the other car coasts to an easy victory."""
    state = racing(
        hands=((40, 120, 200), (60, 100, 180)),
        cars=((2, 5, 4, 3), (2, 5, 4, 4)),
        section=MONACO_BLACK,
    )
    state = section(state, 200, 180)
    assert state.cars[0][3] == state.cars[1][3] == 5
    # Tied on points: the faster card on that section wins.
    assert state.winner == 0 and "faster card" in state.reason
    state = racing(
        hands=((40, 120, 200), (60, 100, 180)),
        cars=((2, 5, 4, 0), (2, 5, 4, 4)),
        section=MONACO_BLACK,
    )
    state = section(state, 200, 180)
    assert state.winner == 1 and "more Speed points" in state.reason


def test_at_the_finish_line_the_most_speed_points_win() -> None:
    """If both cars reach the finish line, however, the winner is the driver with the most
    Speed points.

    Whoever earns the most speed points without falling below zero in the other columns
    will win the race.
    """
    state = racing(cars=((6, 5, 4, 3), (6, 5, 4, 9)), lap=3, section=LAST)
    state = section(state, 160, 100)
    assert state.phase == "over"
    assert state.winner == 1 and GAME.result(state).ranks == (2, 1)
    assert GAME.next_step(state).over


def test_tied_at_the_finish_the_faster_final_card_wins() -> None:
    """If tied, the driver who played the fastest final card wins the race."""
    state = racing(cars=((6, 5, 4, 4), (6, 5, 4, 3)), lap=3, section=LAST)
    state = section(state, 40, 100)
    assert state.cars[0][3] == state.cars[1][3] == 5
    assert state.winner == 1 and "faster final card" in state.reason
    assert GAME.result(state).ranks == (2, 1)
