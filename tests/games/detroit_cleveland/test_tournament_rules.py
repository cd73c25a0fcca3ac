"""Tournament Rules: seating follows the grid."""

from __future__ import annotations

from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.tournament_rules import seating
from tests.games.detroit_cleveland.support import (
    auction_to_race,
    options,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_tournament_seating_follows_the_start_positions() -> None:
    """Once the cars are positioned on the track, the car owners seat themselves in order
    from the left of the pole position. If a player owns more than one car, he uses the car
    with the highest position to determine the seating."""
    state = auction_to_race(4, (2, 0, 2, 1, 3, 0), tournament_seating=True)
    assert state.order == (2, 0, 1, 3)
    started = auction_to_race(4, (2, 0, 2, 1, 3, 0))
    assert started.order == (2, 3, 0, 1)


def test_each_owner_sits_by_his_best_car_and_players_without_one_follow() -> None:
    # Cars on the grid owned by seats 3, 1, 3, 0 (#1 first): seat 3's best car is #1.
    assert seating([3, 1, 3, 0], [3, 4, 0, 1, 2]) == (3, 1, 0, 4, 2)
    assert seating([], [2, 0, 1]) == (2, 0, 1)
