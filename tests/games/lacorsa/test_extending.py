"""Extending and discarding: the end of a car's turn."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.lacorsa.actions import Discard, Extend
from racedeck.games.lacorsa.options import LacorsaOptions

from .helpers import GAME, act, card, challenge, discard, extend, hand, race


def test_extend_moves_one_space_into_open_space() -> None:
    """If a racecar wins a challenge or remains unchallenged and has an open space ahead, it can move one space forward with an Extend card (1, 2, or 3).

    To move one space forward into an open space by playing an Extend card.
    """
    state = race([0, 1], [0, 3], {0: "1 2 3 9", 1: "5"})
    extends = {a.card for a in GAME.legal_actions(state, 0) if isinstance(a, Extend)}
    assert extends == {card("1"), card("2"), card("3")}
    state = act(state, 0, extend(0, "3"))
    assert state.spaces == (1, 3)


def test_a_winner_may_extend_after_passing() -> None:
    """A driver can pass and then extend, but cannot extend and then pass."""
    state = race([0, 1, 2], [0, 1, 5], {0: "12 1", 1: "4", 2: "6"})
    state = challenge(state, "12", "4")
    assert state.phase == "move" and state.order[state.cursor] == 0
    state = act(state, 0, extend(0, "1"))
    assert state.spaces[0] == 2
    # The turn is over: the extend did not open a second challenge for car 0.
    assert state.order[state.cursor] == 2


def test_an_extend_moves_one_space_whatever_its_number() -> None:
    """A car can only move forward one space, regardless of the card's number."""
    for label in ("1", "2", "3"):
        state = race([0, 1], [0, 5], {0: f"{label} 9", 1: "5"})
        assert act(state, 0, extend(0, label)).spaces[0] == 1


def test_the_leader_cannot_use_the_drafting_extend() -> None:
    """The leader cannot use the Drafting Extend card (3) and must play a 1 or 2.

    The leader cannot play this card to extend.
    To be pulled along using another racecar's draft (the air pocket behind a moving automobile).
    """
    state = race([0, 1], [0, 5], {0: "9", 1: "1 3"}, cursor=1)
    assert state.order[state.cursor] == 1
    extends = [a for a in GAME.legal_actions(state, 1) if isinstance(a, Extend)]
    assert [a.card for a in extends] == [card("1")]
    with pytest.raises(IllegalActionError, match="leader cannot use the Drafting Extend"):
        apply(GAME, state, 1, extend(1, "3"), random.Random(0))


def test_drafting_extend_counts_three_in_a_challenge() -> None:
    """Drafting Extend (3): one space forward. 3 in a challenge."""
    state = race([0, 1, 2], [0, 1, 5], {0: "3 5", 1: "2 9", 2: "6"})
    state = challenge(state, "3", "2")
    assert state.order[:2] == (1, 0)


def test_without_an_extend_the_car_must_discard() -> None:
    """If you cannot extend, you must discard to end your turn.

    When a car extends or discards, its turn is over.
    Play moves on to the next car.
    """
    state = race([0, 1], [0, 5], {0: "9 7", 1: "5"})
    legal = GAME.legal_actions(state, 0)
    assert legal and all(isinstance(a, Discard) for a in legal)
    state = act(state, 0, discard(0, "7"))
    assert state.hands[0] == hand("9")
    assert state.order[state.cursor] == 1


def test_a_car_need_not_extend_with_an_extend_card_in_hand() -> None:
    """Your car does not have to extend (play an extend card) even if you have an extend card in your hand.

    Discard instead.
    """
    state = race([0, 1], [0, 5], {0: "1 7", 1: "5"})
    legal = GAME.legal_actions(state, 0)
    assert discard(0, "7") in legal and discard(0, "1") in legal
    assert act(state, 0, discard(0, "1")).spaces[0] == 0


def test_a_redline_may_discard_two_cards() -> None:
    """A Redline card may be used to discard two cards."""
    state = race([0, 1], [0, 5], {0: "R 7 9", 1: "5"})
    assert Discard(car=0, cards=(card("R"), card("7"))) in GAME.legal_actions(state, 0)
    after = act(state, 0, Discard(car=0, cards=(card("R"), card("7"))))
    assert after.hands[0] == hand("9")


def test_a_finite_board_stops_the_leader_extending() -> None:
    """Option board_length: a leader on the last space has no open space ahead."""
    options = LacorsaOptions(races=1, board_length=6)
    state = race([0, 1], [0, 5], {0: "9", 1: "1 2"}, cursor=1, options=options)
    assert not [a for a in GAME.legal_actions(state, 1) if isinstance(a, Extend)]
    with pytest.raises(IllegalActionError, match="no open space"):
        apply(GAME, state, 1, extend(1, "1"), random.Random(0))


def test_a_card_of_an_offered_rank_in_another_suit_is_refused_by_the_suit_rule() -> None:
    """Racing Terminology: "Suits are used to divide the playing cards into groups of
    thirteen. The suits have no rank." So one card of each rank is offered; the same rank
    in another suit is refused with the rule and the card to play instead."""
    state = race([0, 1], [0, 5], {0: "1 1 9", 1: "5"})
    first, second = card("1", 0), card("1", 1)
    assert Extend(car=0, card=first) in GAME.legal_actions(state, 0)
    assert Extend(car=0, card=second) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match=f"suits have no rank.*play card {first}$"):
        apply(GAME, state, 0, Extend(car=0, card=second), random.Random(0))
    with pytest.raises(IllegalActionError, match="suits have no rank"):
        apply(GAME, state, 0, Discard(car=0, cards=(second,)), random.Random(0))
