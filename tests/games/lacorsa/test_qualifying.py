"""Qualifying: sealed cards, simultaneous reveal, the grid, die rolls for ties."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.lacorsa.events import GridFormed, QualifyingRevealed, QualifyingTieRolled
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.state import LacorsaState

from .helpers import GAME, act, card, hand, play


def qualifying(hands: list[str], players: int | None = None) -> LacorsaState:
    players = players or len(hands)
    state = GAME.initial_state(LacorsaOptions(races=1), players)
    cars = len(state.owner)
    assert cars == len(hands)
    from msgspec.structs import replace

    return replace(
        state, phase="qualify", hands=tuple(hand(h) for h in hands), committed=(None,) * cars
    )


def test_every_car_qualifies_at_once_with_a_sealed_card() -> None:
    """Each car selects a card (two with R) to qualify and places the intended card face down on top of their card stack.

    Drivers simultaneously reveal their cards.
    Place your racecar on top of your stack to show you are ready to qualify.
    The method used to determine the starting positions.
    """
    state = qualifying(["5 9", "4 R", "7 8", "6 10"])
    assert GAME.next_step(state).seats == (0, 1, 2, 3)
    state = act(state, 1, play(1, "R 4"))
    # The card lies face down: other seats see that it is there, not what it is.
    for seat in (0, 2, 3):
        seen = GAME.observe(state, seat)
        assert seen.committed[1] is True
        assert seen.own_committed[1] is None
        assert seen.hand_sizes[1] == 2
    assert GAME.observe(state, 1).own_committed[1] == (card("R"), card("4"))
    assert GAME.next_step(state).seats == (0, 2, 3)


def test_redline_goes_on_top_with_the_second_card_underneath() -> None:
    """A Redline card must be placed on the top of the stack, and the second chosen card must be placed directly underneath."""
    state = qualifying(["5 9 R", "4 R", "7 8", "6 10"])
    legal = GAME.legal_actions(state, 0)
    pairs = [a.cards for a in legal if len(a.cards) == 2]
    # The Redline comes first: it lies on top, its partner directly underneath.
    assert pairs == [(card("R"), card("5")), (card("R"), card("9"))]
    with pytest.raises(IllegalActionError, match="Redline with one other card"):
        apply(GAME, state, 0, play(0, "5 9"), random.Random(0))


def test_highest_total_qualifies_first_lowest_is_last() -> None:
    """The highest card, or total score with R, wins.

    The car that played the lowest card is placed at the end of the board.
    Place the remaining cars on the board by card rank, last to first.
    """
    state = qualifying(["5 9", "4 R", "7 8", "6 11"])
    for seat, labels in ((0, "9"), (1, "R 4"), (2, "7"), (3, "11")):
        state = act(state, seat, play(seat, labels))
    assert GAME.next_step(state).engine
    turn = apply(GAME, state, ENGINE, None, random.Random(0))
    assert turn.events[0] == QualifyingRevealed(totals=(9, 6, 7, 11))
    assert turn.events[-1] == GridFormed(order=(1, 2, 0, 3))
    state = turn.state
    assert state.spaces == (2, 0, 1, 3)
    assert state.order == (1, 2, 0, 3)


def test_die_rolls_resolve_qualifying_ties() -> None:
    """The highest die roll resolves ties in qualifying only."""
    state = qualifying(["9 2", "9 3", "4 5", "9 6"])
    for seat in range(4):
        state = act(state, seat, play(seat, "4" if seat == 2 else "9"))
    for seed in range(20):
        events = apply(GAME, state, ENGINE, None, random.Random(seed)).events
        rolls = [e for e in events if isinstance(e, QualifyingTieRolled)]
        grid = events[-1]
        assert isinstance(grid, GridFormed)
        assert grid.order[0] == 2, "the lowest card is placed last"
        first = rolls[0]
        assert first.cars == (0, 1, 3)
        # Among the tied cars, a higher first roll is always further ahead.
        position = {car: grid.order.index(car) for car in first.cars}
        for a, ra in zip(first.cars, first.rolls, strict=True):
            for b, rb in zip(first.cars, first.rolls, strict=True):
                if ra > rb:
                    assert position[a] > position[b]
        if len(set(first.rolls)) < 3:
            assert len(rolls) > 1, "cars that roll the same roll again"


def test_qualifying_cards_are_discarded_face_up() -> None:
    """Played cards are discarded face up."""
    state = qualifying(["5 9", "4 R", "7 8", "6 11"])
    for seat, labels in ((0, "9"), (1, "R 4"), (2, "7"), (3, "11")):
        state = act(state, seat, play(seat, labels))
    state = apply(GAME, state, ENGINE, None, random.Random(0)).state
    assert sorted(state.played) == sorted(hand("9") + hand("R 4") + hand("7") + hand("11"))
    assert GAME.observe(state, 0).played == state.played
    assert all(c is None for c in state.committed)
