"""Tournament Rules: seating follows the grid."""

from __future__ import annotations

from racedeck.games.detroit_cleveland.options import track_of
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
