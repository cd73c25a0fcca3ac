"""Running the Race: who plays first and in what order; each test quotes the rulebook."""

from __future__ import annotations

from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    GAME,
    auction_to_race,
    options,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_the_owner_of_car_1_plays_first_then_clockwise() -> None:
    """The player who owns the car in the #1 position plays the first card. Play then
    continues clockwise around the table until all cars have finished the race or all cards
    have been played, whichever occurs first."""
    state = auction_to_race(4, (2, 0, 2, 1, 3, 0))
    assert state.phase == "race"
    assert state.order == (2, 3, 0, 1)
    assert GAME.next_step(state).seats == (2,)
