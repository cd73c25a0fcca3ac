"""Race Preparation (the deal), rule by rule: each test quotes the rulebook sentence it pins."""

from __future__ import annotations

import random

from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.events import (
    RaceDealt,
)
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.race_preparation import race_deck
from tests.games.detroit_cleveland.support import (
    GAME,
    engine,
    options,
)

OPTS = options()
TRACK = track_of(OPTS)


def test_the_bidding_deck_is_shuffled_face_down() -> None:
    """The six bidding cards are shuffled and placed face down in the middle of the track,
    to be the bidding deck."""
    decks = set()
    for seed in range(20):
        events = apply(GAME, GAME.initial_state(OPTS, 3), ENGINE, None, random.Random(seed)).events
        dealt = events[0]
        assert isinstance(dealt, RaceDealt)
        assert sorted(dealt.bidding) == list(range(6))
        decks.add(dealt.bidding)
    assert len(decks) > 10
    state = engine(GAME.initial_state(OPTS, 3), 1)
    variant = GAME.hidden_variants(state, 0, random.Random(5))
    assert GAME.observe(variant, 0) == GAME.observe(state, 0)
    assert not hasattr(GAME.observe(state, 0), "bid_deck")


def test_the_10_count_cards_are_held_out_of_the_deal() -> None:
    """Set the six colored 10 count movement cards aside for the moment; they will be given
    to the player buying the matching car for use in the race. The white 10 count movement
    card is removed from play; it is included with the game for use in one of the variants
    described later."""
    state = engine(GAME.initial_state(OPTS, 4), 3)
    dealt = {c for hand in state.hands for c in hand}
    assert dealt == set(data.RACE_DECK)
    assert not dealt & set(data.TEN_COUNT)
    assert data.card_label(data.TEN_COUNT[data.WHITE]) == "#45 W10"


def test_all_cards_are_dealt_some_players_one_more() -> None:
    """Before each race, the remaining movement and switch cards (holding out the bidding
    and 10 count movement cards) are shuffled together and dealt face down to the players.
    Some players may receive one more card than other players, but it is important that all
    these cards be dealt."""
    for players in range(2, 7):
        state = engine(GAME.initial_state(OPTS, players), players)
        sizes = [len(h) for h in state.hands]
        assert sum(sizes) == len(data.RACE_DECK) == 39
        assert max(sizes) - min(sizes) <= 1
        # Dealing starts left of the dealer (seat 0), so the extra cards go there first.
        extra = 39 % players
        assert sizes == [39 // players + (1 if 1 <= s <= extra else 0) for s in range(players)]
    assert [len(h) for h in engine(GAME.initial_state(OPTS, 4), 0).hands] == [9, 10, 10, 10]


def test_the_deck_before_the_shuffle() -> None:
    assert race_deck(OPTS) == list(data.RACE_DECK)
    with_tens = race_deck(options(ten_counts_in_deck=True))
    assert with_tens == sorted((*data.RACE_DECK, *data.TEN_COUNT))
