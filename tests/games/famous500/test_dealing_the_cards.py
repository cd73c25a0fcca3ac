"""Dealing the cards and the false start."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError
from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.famous500.actions import FalseStart, KeepCards
from racedeck.games.famous500.events import Dealt

from .helpers import GAME, act, engine, fresh


def test_nine_cards_three_each_and_three_in_the_pit_deck() -> None:
    """Shuffle the nine Speed cards and deal three facedown to each player.

    The three remaining cards form a facedown Pit Deck off to one side.
    """
    state = fresh()
    assert GAME.next_step(state).engine
    turn = apply(GAME, state, ENGINE, None, random.Random(5))
    events = turn.events
    assert len(events) == 1 and isinstance(events[0], Dealt)
    dealt = events[0]
    assert [len(h) for h in dealt.hands] == [3, 3]
    assert len(dealt.pit_deck) == 3
    cards = sorted((*dealt.hands[0], *dealt.hands[1], *dealt.pit_deck))
    assert cards == [40, 60, 80, 100, 120, 140, 160, 180, 200]
    after = turn.state
    assert after.hands == dealt.hands and after.pit_deck == dealt.pit_deck
    # Another shuffle deals differently.
    other = apply(GAME, state, ENGINE, None, random.Random(6)).events[0]
    assert isinstance(other, Dealt) and other.hands != dealt.hands


def _dealt(hand0: tuple[int, ...], hand1: tuple[int, ...], deck: tuple[int, ...]):  # type: ignore[no-untyped-def]
    return GAME.evolve(fresh(), Dealt(deal=1, hands=(hand0, hand1), pit_deck=deck))


def test_a_hand_all_above_100_may_declare_a_false_start() -> None:
    """Look at the three cards you've been dealt.

    If all three show a speed greater than 100, you can declare a false start and insist
    that the cards be shuffled and redealt.
    """
    state = _dealt((120, 160, 200), (40, 100, 180), (60, 80, 140))
    assert state.phase == "start"
    # Both drivers answer the deal, so the step does not tell whose hand qualifies.
    assert GAME.next_step(state).seats == (0, 1)
    assert list(GAME.legal_actions(state, 0)) == [KeepCards(), FalseStart()]
    assert list(GAME.legal_actions(state, 1)) == [KeepCards()]
    with pytest.raises(IllegalActionError, match="above 100"):
        apply(GAME, state, 1, FalseStart())
    state = act(state, 0, FalseStart())
    state = act(state, 1, KeepCards())
    assert state.phase == "deal"
    state = engine(state, seed=3)
    assert state.deals == 2 and state.phase == "start"


def test_exactly_100_is_not_above_100() -> None:
    """If all three show a speed greater than 100, you can declare a false start."""
    state = _dealt((100, 160, 200), (40, 120, 180), (60, 80, 140))
    assert list(GAME.legal_actions(state, 0)) == [KeepCards()]


def test_either_driver_may_declare_and_as_often_as_it_happens() -> None:
    """If all three show a speed greater than 100, you can declare a false start and insist
    that the cards be shuffled and redealt."""
    state = _dealt((40, 60, 80), (120, 140, 160), (100, 180, 200))
    assert FalseStart() in GAME.legal_actions(state, 1)
    state = act(act(state, 0, KeepCards()), 1, FalseStart())
    assert state.phase == "deal"
    # The redeal qualifies again: a second false start is allowed.
    state = GAME.evolve(
        state, Dealt(deal=2, hands=((140, 160, 200), (40, 60, 80)), pit_deck=(100, 120, 180))
    )
    state = act(act(state, 0, FalseStart()), 1, KeepCards())
    assert state.phase == "deal"
    state = GAME.evolve(
        state, Dealt(deal=3, hands=((40, 160, 200), (60, 80, 140)), pit_deck=(100, 120, 180))
    )
    assert state.deals == 3
    state = act(act(state, 0, KeepCards()), 1, KeepCards())
    assert state.phase == "design"


def test_keeping_the_deal_goes_on_to_car_design() -> None:
    """After the cards have been dealt, each player will design a custom race car on
    their own sheet of paper."""
    state = _dealt((120, 160, 200), (40, 100, 180), (60, 80, 140))
    state = act(act(state, 0, KeepCards()), 1, KeepCards())
    assert state.phase == "design"
    assert GAME.next_step(state).seats == (0, 1)
    assert replace(state, phase="design").hands == ((120, 160, 200), (40, 100, 180))
