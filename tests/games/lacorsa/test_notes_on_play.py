"""The rulebook's Notes on Play."""

from __future__ import annotations

import random

import pytest

from racedeck.core.errors import IllegalActionError
from racedeck.core.step import apply
from racedeck.games.lacorsa.actions import Discard, Play

from .helpers import GAME, act, card, hand, listed, play, race


def test_a_car_must_always_play_a_card() -> None:
    """You must always play a card (to challenge, to extend or discard)."""
    for state in (
        race([0, 1], [0, 1], {0: "5 6", 1: "7"}),
        race([0, 1], [0, 4], {0: "5 6", 1: "7"}),
    ):
        seat = GAME.next_step(state).seats[0]
        legal = GAME.legal_actions(state, seat)
        assert legal
        assert all(len(a.cards) >= 1 for a in legal if isinstance(a, Play | Discard))


def test_only_one_redline_at_a_time() -> None:
    """Only one Redline card may be played at a time (if two Redline cards are accidentally played at once, both are discarded for no value)."""
    state = race([0, 1], [0, 1], {0: "R R 5", 1: "7"})
    redlines = tuple(c for c in state.hands[0] if c >> 3 == 12)
    assert len(redlines) == 2
    assert all(sum(1 for c in a.cards if c >> 3 == 12) <= 1 for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalActionError, match="Redline with one other card"):
        apply(GAME, state, 0, Play(car=0, cards=redlines), random.Random(0))


def test_a_redline_alone_counts_zero() -> None:
    """Redline card (R): 0 in a challenge."""
    state = race([0, 1, 2], [0, 1, 5], {0: "R 5", 1: "1 9", 2: "6"})
    legal = GAME.legal_actions(state, 0)
    assert Play(car=0, cards=(card("R"),)) in legal
    state = act(state, 0, play(0, "R"))
    event = apply(GAME, state, 1, listed(state, 1, play(1, "1"))).events[-1]
    assert event.attacker_total == 0  # type: ignore[union-attr]
    assert event.winner == 1  # type: ignore[union-attr]


def test_a_card_not_in_hand_is_refused() -> None:
    state = race([0, 1], [0, 1], {0: "5 6", 1: "7"})
    with pytest.raises(IllegalActionError, match="not in car 0's hand"):
        apply(GAME, state, 0, play(0, "12"), random.Random(0))
    with pytest.raises(IllegalActionError, match="not the car to act"):
        apply(GAME, state, 1, Play(car=0, cards=hand("7")), random.Random(0))
