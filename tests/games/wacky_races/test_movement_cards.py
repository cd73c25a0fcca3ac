"""The movement cards: the draw pile, the discard pile and its top card, the reshuffle.

``movement_cards.py`` implements them.
"""

from __future__ import annotations

import random

from racedeck.core.step import Turn
from racedeck.games.wacky_races.actions import EndTurn
from racedeck.games.wacky_races.events import CardsDrawn, DeckReshuffled, WackyEvent
from racedeck.games.wacky_races.movement_cards import draw_cards, draw_one, reshuffle_size
from racedeck.games.wacky_races.resolution import Resolution
from racedeck.games.wacky_races.state import WackyState
from tests.games.wacky_races.helpers import D, F, G, M, P, engine, kinds, make, of, play


def test_an_empty_draw_pile_is_refilled_from_the_discards() -> None:
    """debe robar cartas de movimiento del mazo correspondiente hasta tener un mínimo de tres:
    an empty draw pile is the discard pile (but its top card) shuffled, by the engine."""
    state = make(players=2, hands=((D,), (D,)), deck=(), discard=(5, 5, 5, 5), top=F, round=0)
    events, after = play(state, EndTurn())
    assert kinds(events) == ["TurnEnded"]  # a shuffle is chance: the engine's work
    events, after = engine(after)
    assert kinds(events)[:2] == ["DeckReshuffled", "CardsDrawn"]
    assert len(after.hands[0]) == 3 and after.discard == (0, 1, 0, 0)


def test_a_reshuffle_keeps_the_discard_piles_top_card() -> None:
    """Gap decision: the discard pile but its top card becomes the draw pile, shuffled by the
    engine; with nothing under the top card there is nothing to draw."""
    state = make(players=1, deck=(), discard=(2, 1, 0, 3), top=M)
    assert reshuffle_size(state) == 5
    turn: Turn[WackyState, WackyEvent] = Turn(G, state, random.Random(3))
    card = draw_one(Resolution(turn, queue=False))
    reshuffled = of(turn.events, DeckReshuffled)[0]
    assert sorted(reshuffled.order) == [D, D, F, M, M] and card == reshuffled.order[-1]
    assert turn.state.discard == (0, 0, 0, 1) and turn.state.top == M
    bare = make(players=1, deck=(), discard=(0, 0, 0, 1), top=M)
    assert reshuffle_size(bare) == 0
    turn = Turn(G, bare, random.Random(3))
    assert draw_one(Resolution(turn, queue=False)) == -1 and turn.events == []


def test_drawing_takes_the_end_of_the_pile_then_reshuffles() -> None:
    """Cards are drawn from the end of the ordered pile; a shortfall is drawn after a shuffle."""
    state = make(players=1, hands=((),), deck=(F, P), discard=(3, 0, 0, 0), top=-1)
    turn: Turn[WackyState, WackyEvent] = Turn(G, state, random.Random(0))
    draw_cards(Resolution(turn, queue=False), 0, 3)
    assert kinds(turn.events) == ["CardsDrawn", "DeckReshuffled", "CardsDrawn"]
    assert of(turn.events, CardsDrawn)[0].cards == (F, P)
    assert turn.state.hands[0] == (D, F, P) and turn.state.draw == (D, D)
