"""The order of play, "Next Lap" and "Finish": laps and the end of a race."""

from __future__ import annotations

from .helpers import GAME, act, challenge, discard, extend, race


def test_next_lap_starts_from_the_back() -> None:
    """After the leading car's turn, the next lap starts with the last-place racecar.

    Once the leader's turn is completed, the next race lap starts from the back of the field.
    This pattern continues throughout the race.
    """
    state = race([0, 1], [0, 5], {0: "7 8", 1: "5 6"})
    state = act(state, 0, discard(0, "7"))
    state = act(state, 1, discard(1, "5"))
    assert state.lap == 2
    assert state.order[state.cursor] == 0


def test_race_ends_when_a_hand_runs_out_after_the_lap() -> None:
    """The race ends when a racecar runs out of cards.

    Play continues with the next car ahead, and the final lap is completed (all the way to the first-place racecar).
    The next lap will not start if a racecar has run out of cards.
    """
    state = race([0, 1, 2], [0, 3, 6], {0: "7", 1: "5 6", 2: "8 9"})
    state = act(state, 0, discard(0, "7"))
    assert state.phase == "move", "the lap goes on to the cars ahead"
    state = act(state, 1, discard(1, "5"))
    state = act(state, 2, discard(2, "8"))
    assert state.phase == "score", "no new lap starts"
    assert GAME.next_step(state).engine


def test_the_leader_may_end_the_race() -> None:
    """It might be that the leader plays their last card and ends the race."""
    state = race([0, 1], [0, 3], {0: "7 8", 1: "5"})
    state = act(state, 0, discard(0, "7"))
    state = act(state, 1, discard(1, "5"))
    assert state.phase == "score"


def test_a_car_out_of_cards_is_skipped() -> None:
    """If a racecar runs out of cards before it finishes its turn, play passes to the racecar ahead."""
    # Car 0 wins a challenge with its last card: its turn passes to the car ahead.
    state = race([0, 1, 2, 3], [0, 1, 2, 9], {0: "12", 1: "4 5", 2: "6 7", 3: "8"})
    state = challenge(state, "12", "4")
    assert state.order == (1, 0, 2, 3)
    assert state.phase == "move" and state.order[state.cursor] == 2


def test_a_challenged_car_without_cards_loses() -> None:
    """A car with no cards left loses a challenge; the challenger still plays a card."""
    state = race([0, 1, 2], [0, 1, 5], {0: "4 5", 1: "", 2: "6"})
    assert GAME.next_step(state).seats == (0,)
    state = challenge(state, "4", None)
    assert state.order[:2] == (1, 0)


def test_there_is_no_finish_line() -> None:
    """There is no finish line.

    In LACORSA, the cards control the movement of the racecars on the game board as players compete for track position.
    """
    state = race([0, 1], [0, 500], {0: "9", 1: "1 2"}, cursor=1)
    assert extend(1, "1") in GAME.legal_actions(state, 1)
    assert act(state, 1, extend(1, "1")).spaces[1] == 501
