"""Winning the Race: the finishing order and the end of a race; each test quotes the rulebook."""

from __future__ import annotations

from racedeck.games.detroit_cleveland.actions import Play
from racedeck.games.detroit_cleveland.events import (
    CarMoved,
    RaceEnded,
)
from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    GAME,
    SPREAD,
    B,
    G,
    K,
    O,
    R,
    Y,
    act,
    engine,
    options,
    play_card,
    race_state,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_finishing_order_fills_the_winners_circle_then_the_places() -> None:
    """The first car to cross the Finish Line is placed in the Winner's Circle. The next car
    to finish is placed on the second place position, and so on."""
    at = {**SPREAD, "blue": "finish:6L", "yellow": "finish:5C", "red": "finish:6R"}
    state = race_state(OPTS, at, {0: (5, 38), 1: (39,)})
    state, _made = play_card(state, 0, 5, lambda moves: moves[0])
    assert state.finished == (B, Y, R)
    assert "finished 1." in GAME.presentation.render(state)


def test_the_race_ends_when_all_cars_have_finished() -> None:
    """The race continues until all cars cross the Finish Line or the players have no more
    cards in their hands."""
    at = {"blue": "finish:6L"}
    finished = ("yellow", "green", "black", "red", "orange")
    state = race_state(OPTS, at, {0: (5, 38), 1: (39, 17)}, finished=finished)
    state, events = act(state, 0, Play(card=5))
    assert isinstance(events[-1], RaceEnded)
    assert events[-1].places == (Y, G, K, R, O, B)


def test_unfinished_cars_earn_nothing_when_the_cards_run_out() -> None:
    """If a car does not cross the Finish Line after all players' cards have been played,
    the car does not finish the race and the owner of that car does not collect any prize
    money."""
    state = race_state(
        OPTS,
        {**SPREAD, "green": "finish:6C"},
        {0: (38,), 1: (39,)},
        owner={"green": 0, "black": 1},
    )
    state, _ = play_card(state, 0, 38)
    state, events = act(state, 1, Play(card=39))
    while state.card >= 0:
        state, events = act(state, 1, GAME.legal_actions(state, 1)[0])
    ended = events[-1]
    assert isinstance(ended, RaceEnded)
    assert ended.places == (G,)
    assert ended.prizes == (200_000, 0)


def test_the_winner_of_a_race_deals_and_bids_first_in_the_next() -> None:
    """The winner of the previous race is the dealer and begins the bidding in the next
    race."""
    state = race_state(
        options(races=2),
        {**SPREAD, "red": "finish:6C"},
        {0: (5,), 1: (39,), 2: (38,)},
        players=3,
        owner={"red": 2, "blue": 0, "black": 1},
    )
    state, made = play_card(state, 0, 5)
    assert made[2] == CarMoved(car=R, to="finish", steps=1)
    state, _ = play_card(state, 1, 39)
    state, events = act(state, 2, Play(card=38))
    while not any(isinstance(e, RaceEnded) for e in events):
        state, events = act(state, 2, GAME.legal_actions(state, 2)[0])
    ended = next(e for e in events if isinstance(e, RaceEnded))
    assert ended.places[0] == R
    assert ended.next_dealer == 2
    state = engine(state, 9)
    assert state.dealer == 2
    assert state.bidder == 2
