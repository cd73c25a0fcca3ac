"""The Setup, rule by rule: each test quotes the rulebook sentence it pins."""

from __future__ import annotations

from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.options import track_of
from tests.games.detroit_cleveland.support import (
    GAME,
    engine,
    options,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_each_player_starts_with_200000() -> None:
    """The banker sorts the money by denomination and gives each player $200,000."""
    for players in range(2, 7):
        assert GAME.initial_state(OPTS, players).money == (200_000,) * players


def test_the_dealer_removes_the_bidding_and_10_count_cards() -> None:
    """Choose a player to be the first dealer. The dealer removes from the deck: the six
    bidding cards (the cards featuring one of the six cars - yellow, blue, green, black,
    red, and orange, numbered 50-55) the seven 10 count race car movement cards (one of each
    color plus one white)"""
    state = GAME.initial_state(OPTS, 3)
    assert state.dealer == 0
    dealt = engine(state, 0)
    assert dealt.dealer == 0 and dealt.bidder == 0
    assert [data.CARDS[n].car for n in range(50, 56)] == ["Y", "B", "G", "K", "R", "O"]
    removed = {*data.BIDDING, *data.TEN_COUNT}
    assert len(removed) == 13
    assert not removed & {c for hand in dealt.hands for c in hand}
