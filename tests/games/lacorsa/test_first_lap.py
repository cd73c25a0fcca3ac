"""The race: challenges for position, passes and the order of play."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.lacorsa.actions import Play
from racedeck.games.lacorsa.events import ChallengeResolved

from .helpers import GAME, act, card, challenge, discard, listed, play, race


def test_race_starts_with_last_car_challenging_the_car_ahead() -> None:
    """The race starts with the last-place car challenging the car directly ahead.

    A racecar battling the racecar directly ahead for position.
    """
    state = race([2, 0, 1, 3], [1, 2, 0, 3], {c: "5 6 7" for c in range(4)})
    assert state.phase == "challenge"
    assert (state.attacker, state.defender) == (2, 0)
    assert GAME.next_step(state).seats == (0, 2)


def test_both_cars_play_and_the_higher_total_wins() -> None:
    """Each car plays a card (or two with R).

    Highest score wins.
    If the car behind wins, the cars switch position.
    """
    state = race([0, 1, 2], [0, 1, 5], {0: "R 9 4", 1: "10 5", 2: "4"})
    after = challenge(state, "R 9", "10")
    assert after.order[:2] == (1, 0)
    assert after.spaces[:2] == (1, 0)
    assert after.played[-3:] == (card("R"), card("9"), card("10"))  # a Redline goes first
    # Who played which card is public: every seat sees it.
    assert after.played_by[-3:] == (0, 0, 1)
    assert all(GAME.observe(after, seat).played_by == after.played_by for seat in range(3))


def test_a_tie_goes_to_the_car_in_front() -> None:
    """A tie goes to the car in front."""
    state = race([0, 1, 2], [0, 1, 5], {0: "9 4", 1: "9 5", 2: "4"})

    state = act(state, 0, play(0, "9"))
    # The defender's sealed card completes the challenge: the reveal follows at once.
    turn = apply(GAME, state, 1, listed(state, 1, play(1, "9")))
    assert turn.events[-1] == ChallengeResolved(
        attacker=0, defender=1, attacker_total=9, defender_total=9, winner=1
    )
    state = turn.state
    assert state.order == (0, 1, 2)


def test_the_winner_carries_on_challenging() -> None:
    """Play continues with the winning racecar challenging the car directly ahead.

    One racecar's movement during one race lap after defending any challenge.

    A racecar's turn is skipped or ends when it loses a challenge.
    """
    # The defender wins and becomes the active car: it now challenges the car ahead of it.
    state = race([0, 1, 2], [0, 1, 2], {0: "5 4", 1: "9 8", 2: "7 6"})
    state = challenge(state, "5", "9")
    assert state.phase == "challenge"
    assert (state.attacker, state.defender) == (1, 2)
    # The attacker wins and carries on against the next car.
    state = race([0, 1, 2], [0, 1, 2], {0: "11 10", 1: "4 5", 2: "7 6"})
    state = challenge(state, "11", "4")
    assert (state.attacker, state.defender) == (0, 2)


def test_a_car_that_is_passed_gets_no_turn_that_lap() -> None:
    """The gameplay proceeds in this manner to the front of the race."""
    state = race([0, 1, 2, 3], [0, 1, 5, 9], {0: "11 10", 1: "4 5", 2: "7 6", 3: "8"})
    state = challenge(state, "11", "4")
    # Car 0 passed car 1 and, with open road ahead, extends or discards; then car 2 plays.
    assert state.phase == "move" and state.order[state.cursor] == 0
    state = act(state, 0, discard(0, "10"))
    assert state.order[state.cursor] == 2, "car 1 was passed: its turn is skipped"


def test_at_most_two_passes_a_turn() -> None:
    """A maximum of 2 passes per turn is allowed.

    If a car passes two racecars on its turn, its turn is over, and play moves on to the next car.
    """
    state = race([0, 1, 2, 3], [0, 1, 2, 3], {0: "12 11 10 9", 1: "4 5", 2: "4 6", 3: "5 6"})
    state = challenge(state, "12", "4")
    state = challenge(state, "11", "4")
    assert state.order == (1, 2, 0, 3)
    # Two passes: car 0 does not challenge car 3; car 3 (the leader) takes its turn.
    assert state.phase == "move"
    assert state.order[state.cursor] == 3
    assert state.passes == 0


def test_a_car_directly_behind_must_challenge() -> None:
    """The racecars behind must extend in the following laps before challenging, since a racecar must be directly behind another car at the start of its turn to attempt a pass."""
    close = race([0, 1], [0, 1], {0: "1 5", 1: "6"})
    assert close.phase == "challenge"
    legal = GAME.legal_actions(close, 0)
    assert legal and all(isinstance(a, Play) for a in legal)
    with pytest.raises(IllegalActionError, match="cannot discard during 'challenge'"):
        apply(GAME, close, 0, discard(0, "5"), random.Random(0))
    gap = race([0, 1], [0, 2], {0: "1 5", 1: "6"})
    assert gap.phase == "move", "with a gap ahead there is no one to challenge"


def test_order_of_play_follows_track_position() -> None:
    """The order of play will always be based on the track position.

    The battle for positions from the last-placed racecar to the first-place racecar.
    """
    state = race([3, 1, 0, 2], [2, 6, 0, 4], {c: "5 6 7" for c in range(4)})
    seen = []
    for _ in range(4):
        seen.append(state.order[state.cursor])
        car = state.order[state.cursor]
        state = act(state, state.owner[car], discard(car, "5"))
    assert seen == [3, 1, 0, 2]


def test_team_orders_one_player_plays_for_both_cars() -> None:
    """When a player has two racecars and they meet in a challenge, the player plays a card for each racecar.

    This allows the player to determine which racecar should be ahead (also known as team orders).
    """
    state = race(
        [0, 1, 2, 3], [0, 1, 5, 9], {0: "4 9", 1: "10 5", 2: "6", 3: "7"}, owner=[0, 0, 1, 1]
    )
    assert GAME.next_step(state).seats == (0,)
    state = act(state, 0, play(0, "9"))
    assert GAME.next_step(state).seats == (0,), "the same seat now plays for its other car"
    state = act(state, 0, play(1, "5"))
    assert state.order[:2] == (1, 0)
