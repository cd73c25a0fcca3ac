"""Race Preparation: the deal before each race (and the bidding deck shuffled).

"Before each race, the remaining movement and switch cards (holding out the bidding and 10
count movement cards) are shuffled together and dealt face down to the players. Some
players may receive one more card than other players, but it is important that all these
cards be dealt."

From The Setup: "The six bidding cards are shuffled and placed face down in the middle of
the track, to be the bidding deck." The deal is the engine's turn, the only one that draws
random numbers: first the race deck is shuffled, then the bidding deck. Dealing starts
left of the dealer, so the seats there get the extra cards.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.step import Turn
from racedeck.games.detroit_cleveland.data import RACE_DECK, TEN_COUNT
from racedeck.games.detroit_cleveland.events import DetroitClevelandEvent, RaceDealt
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.state import NO_CARS, OFF, DetroitClevelandState

State = DetroitClevelandState


def race_deck(options: DetroitClevelandOptions) -> list[int]:
    """Return the cards dealt each race, in card order, before the shuffle.

    The 10 count cards are held out, unless the optional rule "All 10 count cards
    (including white) are shuffled into deck." is in play.
    """
    deck = list(RACE_DECK)
    if options.ten_counts_in_deck:
        deck.extend(TEN_COUNT)
        deck.sort()
    return deck


def deal(turn: Turn[State, DetroitClevelandEvent]) -> None:
    """Emit the deal: the race deck shuffled and dealt, the bidding deck shuffled."""
    state, rng = turn.state, turn.rng
    deck = race_deck(state.options)
    rng.shuffle(deck)
    n = state.players
    hands: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(deck):
        hands[(state.dealer + 1 + i) % n].append(card)
    bidding = list(range(6))
    rng.shuffle(bidding)
    turn.emit(
        RaceDealt(
            race=state.race,
            dealer=state.dealer,
            hands=tuple(tuple(sorted(h)) for h in hands),
            bidding=tuple(bidding),
        )
    )


def dealt(state: State, event: RaceDealt) -> State:
    """Fold ``RaceDealt``: a fresh race, its hands dealt, the auction about to begin."""
    return replace(
        state,
        phase="auction",
        race=event.race,
        dealer=event.dealer,
        hands=event.hands,
        bid_deck=event.bidding,
        owner=NO_CARS,
        positions=OFF,
        start_order=(),
        refused=(),
        offer=-1,
        high_bid=0,
        high_bidder=-1,
        passed=(False,) * state.players,
        bidder=-1,
        last_buyer=-1,
        auction=(),
        order=(),
        turn=0,
        passes=0,
        card=-1,
        slot=0,
        switches=(),
        played=(),
        revealed=(),
        finished=(),
    )
