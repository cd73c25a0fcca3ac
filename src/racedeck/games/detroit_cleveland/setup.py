"""The Setup: each player's starting money and the first dealer.

"Choose a player to be the banker. The banker sorts the money by denomination and gives
each player $200,000." "Choose a player to be the first dealer."

Gap decision: seat 0 is the first dealer. The cards the dealer removes (the bidding cards
and the 10 count cards) are never in the race deck (``data.RACE_DECK``); the deal itself
is ``race_preparation``.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.data import STARTING_MONEY
from racedeck.games.detroit_cleveland.options import (
    DetroitClevelandOptions,
    checked_track_hash,
    track_of,
)
from racedeck.games.detroit_cleveland.state import DetroitClevelandState

FIRST_DEALER = 0
"""The seat that deals the first race."""


def initial_state(options: DetroitClevelandOptions, players: int) -> DetroitClevelandState:
    """Return the match before the first deal: $200,000 each, seat 0 deals first.

    Options built by hand may leave ``track_hash`` empty: the state takes the track's own,
    as ``parse_options`` would have filled it in, so the match is the one its log replays.
    """
    track_of(options)  # a track that cannot be compiled fails here, before any play
    if not options.track_hash:
        options = replace(options, track_hash=checked_track_hash(options))
    return DetroitClevelandState(
        options=options,
        players=players,
        money=(STARTING_MONEY,) * players,
        dealer=FIRST_DEALER,
    )
